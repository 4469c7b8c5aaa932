/* engine.c - rule evaluation with overrides, taint and three-valued logic. */
#include "engine.h"
#include "fit_facts.h"
#include "expr.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void
result_init(struct result *r)
{
	memset(r, 0, sizeof *r);
}

void
diag_release(struct diag *d)
{
	free(d->msg);
	free(d->note);
	free(d->hint);
	free(d->figures);
	d->msg = d->note = d->hint = d->figures = NULL;
}

void
result_free(struct result *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		diag_release(&r->d[i]);
	free(r->d);
	config_free(&r->eff);
	memset(r, 0, sizeof *r);
}

/* Count a diagnostic of severity sev in r's totals. */
static void
count_sev(struct result *r, enum severity sev)
{
	switch (sev) {
	case SEV_ERROR:
		r->nerrors++;
		break;
	case SEV_WARNING:
		r->nwarnings++;
		break;
	case SEV_UNKNOWN:
		r->nunknown++;
		break;
	case SEV_OVERRIDE:
		r->noverrides++;
		break;
	case SEV_NOTE:
		break;
	}
}

static void
add_diag(struct result *r, struct diag d)
{
	if (r->n == r->cap) {
		r->cap = r->cap ? r->cap * 2 : 16;
		r->d = xreallocarray(r->d, r->cap, sizeof *r->d);
	}
	r->d[r->n++] = d;
	count_sev(r, d.sev);
}

void
result_recount(struct result *r)
{
	size_t	i;

	r->nerrors = r->nwarnings = r->nunknown = r->noverrides = 0;
	for (i = 0; i < r->n; i++)
		count_sev(r, r->d[i].sev);
}

void
result_add(struct result *r, const char *id, enum severity sev,
    const char *msg, const char *hint, int line, int col)
{
	struct diag	d = { 0 };

	d.id = intern(id);
	d.sev = sev;
	d.msg = xstrdup(msg);
	d.hint = hint ? xstrdup(hint) : NULL;
	d.opt = -1;
	d.line = line;
	d.col = col;
	add_diag(r, d);
}

void
result_take_one(struct result *dst, struct diag *d, int cmd)
{
	d->cmd = cmd;
	add_diag(dst, *d);
}

void
result_take(struct result *dst, struct result *src, int cmd)
{
	size_t	i;

	for (i = 0; i < src->n; i++) {
		src->d[i].cmd = cmd;
		add_diag(dst, src->d[i]);
	}
	free(src->d);
	src->d = NULL;
	src->n = src->cap = 0;
}

/* Pick the option the rule is best attached to: the last one it reads that
 * was given explicitly (so the line points at the operator's flag). */
struct locate {
	const struct config	*cfg;
	size_t			 nopts;
	int			 opt;
	int			 fallback;
};

static void
locate_cb(void *arg, int slot)
{
	struct locate	*l = arg;
	int		 o = slot_opt(l->nopts, slot);

	if (!slot_is_self(l->nopts, slot))
		return;
	if (l->fallback < 0)
		l->fallback = o;
	if (config_is_set(l->cfg, o))
		l->opt = o;	/* the last one given: usually the culprit */
}

struct runner {
	const struct catalog	*cat;
	const struct config	*cfgs[NSLOT_SCOPE];
	struct config		*eff;		/* cfgs[0], writable */
	unsigned char		*taint;		/* NULL unless availability */
	struct result		*out;		/* NULL: only find blocking rule */
	const struct rule	*blocker;
};

static void
fire_override(struct runner *rn, const struct rule *r, size_t ri,
    struct evalctx *ec)
{
	struct value	vals[32];
	size_t		i, n = r->nset < 32 ? r->nset : 32;
	bool		tainted = ec->read_taint;

	/* Evaluate every right-hand side before assigning any. */
	for (i = 0; i < n; i++) {
		ec->read_taint = false;
		vals[i] = expr_eval(r->set[i].e, ec);
		if (ec->read_taint)
			tainted = true;
	}
	for (i = 0; i < n; i++) {
		struct slot	*s = &rn->eff->s[r->set[i].opt];

		if (vals[i].t == V_UNKNOWN)
			continue;
		s->v = vals[i];
		s->src = SRC_OVERRIDE;
		s->rule = (short)ri;
		if (rn->taint != NULL && tainted)
			rn->taint[r->set[i].opt] = 1;
	}
	for (i = 0; i < r->nsetdefault; i++) {
		struct slot	*s = &rn->eff->s[r->setdefault[i].opt];
		struct value	 v;

		if (s->v.t != V_NULL)
			continue;
		ec->read_taint = false;
		v = expr_eval(r->setdefault[i].e, ec);
		if (v.t == V_UNKNOWN)
			continue;
		s->v = v;
		s->src = SRC_OVERRIDE;
		s->rule = (short)ri;
		if (rn->taint != NULL && (tainted || ec->read_taint))
			rn->taint[r->setdefault[i].opt] = 1;
	}
}

static void
report(struct runner *rn, const struct rule *r, enum severity sev,
    int unknown_slot, struct evalctx *ec)
{
	struct buf	b = { 0 };
	struct diag	d = { 0 };
	struct locate	l = { rn->cfgs[0], rn->cat->nopts, -1, -1 };

	d.rule = r;
	d.id = r->id;
	d.sev = sev;
	tmpl_render(r->message, ec, &b);
	d.msg = buf_steal(&b);
	if (sev == SEV_UNKNOWN && unknown_slot >= 0) {
		const struct option	*o = &rn->cat->opts[slot_opt(
		    rn->cat->nopts, unknown_slot)];

		d.lacks = slot_opt(rn->cat->nopts, unknown_slot) + 1;
		d.note = xasprintf("could not check: %s unknown%s%s",
		    o->label ? o->label : o->name, o->hint ? "; " : "",
		    o->hint ? o->hint : "");
	}
	if (rn->cfgs[0] != NULL) {
		expr_slots(r->when, locate_cb, &l);
		d.opt = l.opt >= 0 ? l.opt : l.fallback;
		if (d.opt >= 0) {
			d.line = rn->cfgs[0]->s[d.opt].line;
			d.col = rn->cfgs[0]->s[d.opt].col;
		}
	} else
		d.opt = -1;
	add_diag(rn->out, d);
}

/* The SGLang release the configurations run: the first one that says. */
static sgver_t
run_version(const struct runner *rn)
{
	size_t	i;

	for (i = 0; i < NSLOT_SCOPE; i++)
		if (rn->cfgs[i] != NULL && rn->cfgs[i]->sgver != SGVER_UNKNOWN)
			return rn->cfgs[i]->sgver;
	return SGVER_UNKNOWN;
}

/*
 * A rule whose release range excludes the release being checked is not
 * applied. When its condition holds, what it would say is reported as not
 * checked: the catalog does not know what that release does instead.
 * Overrides outside their range change nothing, silently.
 */
static void
out_of_range(struct runner *rn, const struct rule *r, struct evalctx *ec)
{
	char		 vs[SGVER_TEXT_MAX], a[SGVER_TEXT_MAX], b[SGVER_TEXT_MAX];
	const struct flag_history *h = rn->cat->hist;
	struct value	 c;
	struct diag	*d;

	if (rn->out == NULL || r->sev == SEV_OVERRIDE)
		return;
	c = expr_eval(r->when, ec);
	if (c.t == V_UNKNOWN || !val_truthy(c))
		return;
	report(rn, r, SEV_UNKNOWN, -1, ec);
	d = &rn->out->d[rn->out->n - 1];
	free(d->note);
	flaghist_vname(h, run_version(rn), vs, sizeof vs);
	if (r->since != SGVER_UNKNOWN && run_version(rn) < r->since)
		d->note = xasprintf("could not check for SGLang %s: this rule "
		    "models SGLang %s and later", vs, flaghist_vname(h,
		    r->since, a, sizeof a));
	else if (r->newer_than != SGVER_UNKNOWN && run_version(rn) <= r->newer_than)
		d->note = xasprintf("could not check for SGLang %s: this rule "
		    "models SGLang newer than %s", vs, flaghist_vname(h,
		    r->newer_than, a, sizeof a));
	else
		d->note = xasprintf("could not check for SGLang %s: this rule "
		    "models SGLang before %s%s%s", vs, flaghist_vname(h,
		    r->until, b, sizeof b), r->since ? ", from " : "",
		    r->since ? flaghist_vname(h, r->since, a, sizeof a) : "");
}

static void
run(struct runner *rn, const struct rule *rules, size_t nrules)
{
	size_t	i;

	for (i = 0; i < nrules; i++) {
		const struct rule	*r = &rules[i];
		struct evalctx		 ec = { 0 };
		struct value		 c;

		if (rn->out == NULL && r->sev != SEV_OVERRIDE) {
			/* Availability: only an error that reads a value the
			 * candidate changed can block it. */
			size_t	k;

			if (r->sev != SEV_ERROR)
				continue;
			for (k = 0; k < r->nreads; k++)
				if (slot_is_self(rn->cat->nopts, r->reads[k]) &&
				    rn->taint[r->reads[k]])
					break;
			if (k == r->nreads)
				continue;
		}
		ec.cfgs = rn->cfgs;
		ec.nopts = rn->cat->nopts;
		ec.taint = rn->taint;
		ec.unknown_slot = -1;
		if (!rule_in_range(r, run_version(rn))) {
			out_of_range(rn, r, &ec);
			continue;
		}
		c = expr_eval(r->when, &ec);
		if (c.t == V_UNKNOWN) {
			if (r->sev == SEV_ERROR && rn->out != NULL &&
			    ec.unknown_slot >= 0)
				report(rn, r, SEV_UNKNOWN, ec.unknown_slot,
				    &ec);
			continue;
		}
		if (!val_truthy(c))
			continue;
		if (rn->out != NULL) {
			/* Render first: override messages quote the old values. */
			bool	tainted = ec.read_taint;

			report(rn, r, r->sev, -1, &ec);
			ec.read_taint = tainted;
		}
		if (r->sev == SEV_OVERRIDE && rn->eff != NULL)
			fire_override(rn, r, i, &ec);
		if (rn->out != NULL)
			continue;
		if (r->sev == SEV_ERROR && ec.read_taint) {
			rn->blocker = r;
			break;
		}
	}
}

/* The fit-estimate note carries the estimate's figures unrounded (the
 * fit_figures fact), for check --format json. */
static void
attach_figures(struct result *out)
{
	int	o = catalog_find(out->eff.cat, "fit_figures");
	size_t	i;

	if (o < 0 || out->eff.s[o].v.t != V_STR)
		return;
	for (i = 0; i < out->n; i++)
		if (strcmp(out->d[i].id, FIT_ESTIMATE_RULE) == 0 &&
		    out->d[i].figures == NULL)
			out->d[i].figures = xstrdup(out->eff.s[o].v.u.s);
}

void
engine_run(const struct catalog *cat, const struct config *in,
    struct result *out)
{
	struct runner	rn = { 0 };

	config_copy(&out->eff, in);
	fit_facts(cat, &out->eff);
	rn.cat = cat;
	rn.eff = &out->eff;
	rn.cfgs[0] = rn.eff;
	rn.out = out;
	run(&rn, cat->rules, cat->nrules);
	attach_figures(out);
}

void
engine_run_deploy(const struct catalog *cat,
    const struct config *const roles[NSLOT_SCOPE], struct result *out)
{
	struct runner	rn = { 0 };
	size_t		i;

	rn.cat = cat;
	for (i = 0; i < NSLOT_SCOPE; i++)
		rn.cfgs[i] = roles[i];
	rn.out = out;
	run(&rn, cat->drules, cat->ndrules);
}

const struct rule *
engine_blocks(const struct catalog *cat, const struct config *in, int opt,
    struct value v)
{
	struct runner	rn = { 0 };
	struct config	eff = { 0 };
	unsigned char	*taint = xcalloc(cat->nopts, 1);

	config_copy(&eff, in);
	eff.s[opt].v = v;
	eff.s[opt].src = SRC_USER;
	taint[opt] = 1;
	rn.cat = cat;
	rn.eff = &eff;
	rn.cfgs[0] = &eff;
	rn.taint = taint;
	run(&rn, cat->rules, cat->nrules);
	config_free(&eff);
	free(taint);
	return rn.blocker;
}

void
engine_apply_fix(const struct rule *r, size_t i, struct config *cfg)
{
	const struct fix	*f;
	size_t			 j, nopts = cfg->cat->nopts;

	if (i >= r->nfixes)
		return;
	f = &r->fixes[i];
	for (j = 0; j < f->n; j++) {
		int	o = slot_opt(nopts, f->opt[j]);

		if (f->val[j].t == V_NULL)
			config_set(cfg, o, cfg->cat->opts[o].def, SRC_DEFAULT,
			    0, 0);
		else
			config_set(cfg, o, f->val[j], SRC_USER, 0, 0);
	}
}

void
rule_slots(const struct rule *r, void (*fn)(void *, int), void *arg)
{
	size_t	i;

	expr_slots(r->when, fn, arg);
	tmpl_slots(r->message, fn, arg);
	for (i = 0; i < r->nset; i++) {
		fn(arg, r->set[i].opt);
		expr_slots(r->set[i].e, fn, arg);
	}
	for (i = 0; i < r->nsetdefault; i++) {
		fn(arg, r->setdefault[i].opt);
		expr_slots(r->setdefault[i].e, fn, arg);
	}
}

#define FIX_MAX	32	/* fixes of a rule that fix_ok can speak for */

static bool
has_rule(const struct result *r, const struct rule *rule, enum severity sev)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		if (r->d[i].rule == rule && r->d[i].sev == sev)
			return true;
	return false;
}

/* Does every error of after also stand in before? */
static bool
no_new_error(const struct result *before, const struct result *after)
{
	size_t	i;

	for (i = 0; i < after->n; i++)
		if (after->d[i].sev == SEV_ERROR && (after->d[i].rule == NULL ||
		    !has_rule(before, after->d[i].rule, SEV_ERROR)))
			return false;
	return true;
}

/* Does fix i of r give some option a value other than cfg's? (null: the
 * option's default, as engine_apply_fix sets it.) */
static bool
fix_changes(const struct rule *r, size_t i, const struct config *cfg)
{
	const struct fix	*f = &r->fixes[i];
	size_t			 j, nopts = cfg->cat->nopts;

	for (j = 0; j < f->n; j++) {
		int		o = slot_opt(nopts, f->opt[j]);
		struct value	v = f->val[j].t == V_NULL ?
		    cfg->cat->opts[o].def : f->val[j];

		if (!val_equal(v, cfg->s[o].v))
			return true;
	}
	return false;
}

/* The value of option name in cfg as an integer, else dflt. */
static long long
int_of(const struct config *cfg, const char *name, long long dflt)
{
	int	o = catalog_find(cfg->cat, name);

	return o >= 0 && cfg->s[o].v.t == V_INT ? cfg->s[o].v.u.i : dflt;
}

/* Does fix i of r set the tensor-parallel size? */
static bool
fix_sets_tp(const struct rule *r, size_t i, const struct config *cfg)
{
	const struct fix	*f = &r->fixes[i];
	int			 tp = catalog_find(cfg->cat, "tp_size");
	size_t			 j;

	for (j = 0; j < f->n; j++)
		if (slot_opt(cfg->cat->nopts, f->opt[j]) == tp)
			return true;
	return false;
}

/*
 * A fix that sets the tensor-parallel size (applied in fixed) must fit the
 * machines: tp x pp / nnodes GPUs a node, at most the host's (gpus_per_host,
 * 8 when not stated), and exactly the host's when it spreads over several
 * nodes (its label says "N nodes of G": G is the host's size, and fewer
 * nodes would do otherwise).
 */
static bool
fix_fits_host(const struct rule *r, size_t i, const struct config *fixed,
    int gpus_per_host)
{
	long long	tp, pp, nn, host = gpus_per_host > 0 ? gpus_per_host : 8;

	if (!fix_sets_tp(r, i, fixed))
		return true;
	tp = int_of(fixed, "tp_size", 1);
	pp = int_of(fixed, "pp_size", 1);
	nn = int_of(fixed, "nnodes", 1);
	if (nn < 1 || (tp * pp) % nn != 0)
		return false;
	return nn == 1 ? tp * pp <= host : tp * pp / nn == host;
}

void
engine_verify_fixes(const struct catalog *cat, const struct config *in,
    struct result *res)
{
	engine_verify_fixes_host(cat, in, res, 0);
}

void
engine_verify_fixes_host(const struct catalog *cat, const struct config *in,
    struct result *res, int gpus_per_host)
{
	size_t	i, j;

	for (i = 0; i < res->n; i++) {
		struct diag		*d = &res->d[i];
		const struct rule	*r = d->rule;

		if (r == NULL || r->deploy || r->nfixes == 0 ||
		    (d->sev != SEV_ERROR && d->sev != SEV_WARNING &&
		    d->sev != SEV_NOTE && d->sev != SEV_UNKNOWN))
			continue;
		d->fixes_verified = true;
		d->fix_ok = 0;
		for (j = 0; j < r->nfixes && j < FIX_MAX; j++) {
			struct config	tmp = { 0 };
			struct result	again;

			/* A could-not-check: only a fix that changes
			 * something, and then decides the rule. */
			if (d->sev == SEV_UNKNOWN && !fix_changes(r, j, in))
				continue;
			config_copy(&tmp, in);
			engine_apply_fix(r, j, &tmp);
			if (!fix_fits_host(r, j, &tmp, gpus_per_host)) {
				config_free(&tmp);
				continue;
			}
			result_init(&again);
			engine_run(cat, &tmp, &again);
			if (!has_rule(&again, r, d->sev) &&
			    (d->sev != SEV_UNKNOWN ||
			    !has_rule(&again, r, r->sev)) &&
			    no_new_error(res, &again))
				d->fix_ok |= 1u << j;
			result_free(&again);
			config_free(&tmp);
		}
	}
}

bool
diag_fix_ok(const struct diag *d, size_t i)
{
	if (!d->fixes_verified)
		return true;
	return i < FIX_MAX && (d->fix_ok & (1u << i)) != 0;
}
