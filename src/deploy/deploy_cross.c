/*
 * deploy_cross.c - cross-role checks. The rules themselves are data
 * (rules/deploy/ files); the deployment-level facts they read (deploy.*
 * options of rules/deploy/00-facts.yaml) are computed by
 * deploy_cross_router.c (router lists against the instances) and
 * deploy_cross_hosts.c (what shares a machine). This file sets the facts,
 * runs the rules and attributes each diagnostic to a role and a line;
 * deploy_cross_fix.c verifies the fixes.
 */
#define _POSIX_C_SOURCE 200809L
#include "deploy/deploy.h"
#include "deploy/deploy_int.h"
#include "deploy/deploy_cross.h"
#include "deploy/layout.h"
#include "core/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void
fact_val(struct facts *f, const char *name, struct value v)
{
	int	o = catalog_find(f->cat, name);

	if (o >= 0)
		config_set(f->cfg, o, v, SRC_USER, 0, 0);
}

void
fact_add(struct facts *f, const char *name, int r, int line,
    const char *fmt, ...)
{
	int		 o = catalog_find(f->cat, name);
	struct fitem	*it;
	va_list		 ap;
	char		*t;
	int		 n;

	if (o < 0)
		return;
	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	t = xmalloc((size_t)(n > 0 ? n : 0) + 1);
	va_start(ap, fmt);
	vsnprintf(t, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
	va_end(ap);
	f->items[o] = xreallocarray(f->items[o], f->nitems[o] + 1,
	    sizeof *f->items[o]);
	it = &f->items[o][f->nitems[o]++];
	it->text = t;
	it->line = line;
	it->role = (signed char)r;
}

void
fact_unknown(struct facts *f, const char *name, const char *why)
{
	int	o = catalog_find(f->cat, name);

	if (o < 0)
		return;
	f->unknown[o] = true;
	if (why != NULL && f->why[o] == NULL)
		f->why[o] = xstrdup(why);
}

/*
 * The first of names that the role's command leaves to run time ($VAR
 * never set, $((...)), $(POD_IP)): the role's effective configuration
 * (eff) keeps such values unknown, while the deployment holds the
 * defaults in their place. NULL: all are known.
 */
const char *
fact_role_unknown(const struct facts *f, enum role r, const char *const *names)
{
	const struct config	*e = f->eff != NULL && r < NPD_ROLE ?
	    f->eff[r] : NULL;
	size_t			 i;

	for (i = 0; e != NULL && names[i] != NULL; i++)
		if (cfg_unknown(e, names[i]))
			return names[i];
	return NULL;
}

/* Is the machine of the role's commands unknown: a wildcard bind with no
 * word of the machine, an address computed at run time, or a node rank
 * left to run time (which node of its instance a command is)? */
bool
role_machine_unstated(const struct facts *f, const struct deployment *d,
    enum role r)
{
	static const char *const rk[] = { "node_rank", "host", NULL };

	return r != ROLE_ROUTER && (d->role[r].host_unstated ||
	    fact_role_unknown(f, r, rk) != NULL);
}

const char *
launch_machine_why(const struct facts *f, const struct deployment *d,
    const struct launch *la)
{
	static const char *const rk[] = { "node_rank", NULL };

	if (la->role == ROLE_ROUTER)
		return NULL;
	if (fact_role_unknown(f, la->role, rk) != NULL)
		return "its --node-rank is a value the script computes at run "
		    "time, so which node of its instance it is is not known";
	if (strpbrk(la->host, "$`(){}<>") != NULL)
		return "it binds an address known only at run time";
	if (role_machine_unstated(f, d, la->role))
		return "it binds 0.0.0.0 (or an address computed at run time) "
		    "and the script does not say which machine it runs on";
	if (la->node_rank > 0 && (host_is_loopback(la->host) ||
	    host_is_wildcard(la->host)))
		return "it is a further rank of a multi-node instance and the "
		    "script does not say which machine it runs on";
	return NULL;
}

static void
facts_init(struct facts *f, const struct catalog *cat, struct config *cfg)
{
	f->cat = cat;
	f->cfg = cfg;
	f->eff = NULL;
	f->lay = NULL;
	f->items = xcalloc(cat->nopts + 1, sizeof *f->items);
	f->nitems = xcalloc(cat->nopts + 1, sizeof *f->nitems);
	f->why = xcalloc(cat->nopts + 1, sizeof *f->why);
	f->unknown = xcalloc(cat->nopts + 1, sizeof *f->unknown);
}

static void
facts_free(struct facts *f)
{
	size_t	o, i;

	for (o = 0; o < f->cat->nopts; o++) {
		for (i = 0; i < f->nitems[o]; i++)
			free(f->items[o][i].text);
		free(f->items[o]);
		free(f->why[o]);
	}
	free(f->items);
	free(f->nitems);
	free(f->why);
	free(f->unknown);
}

static void
role_cb(void *arg, int slot)
{
	int	*slots = arg;

	if (slots[0] < 64)
		slots[1 + slots[0]++] = slot;
}

enum role
deploy_diag_role(const struct catalog *cat, const struct diag *dg,
    const struct config *eff[NPD_ROLE])
{
	int	slots[65] = { 0 };
	int	i, first = -1;

	if (dg->rule == NULL)
		return ROLE_PREFILL;
	rule_slots(dg->rule, role_cb, slots);
	for (i = 1; i <= slots[0]; i++) {
		int	r = slot_role(cat->nopts, slots[i]);
		int	o = slot_opt(cat->nopts, slots[i]);

		if (r < 0) {
			const char	*n = cat->opts[o].name;

			if (strncmp(n, "deploy.router", 13) == 0)
				return ROLE_ROUTER;
			if (strncmp(n, "deploy.decode", 13) == 0)
				return ROLE_DECODE;
			if (strncmp(n, "deploy.prefill", 14) == 0)
				return ROLE_PREFILL;
			continue;
		}
		if (first < 0)
			first = r;
		if (r < NPD_ROLE && eff[r] != NULL && config_is_set(eff[r], o))
			return (enum role)r;
	}
	return first >= 0 ? (enum role)first : ROLE_PREFILL;
}

/* Line of the first option of role r the rule reads that was set. */
static int
diag_line(const struct catalog *cat, const struct diag *dg, enum role role,
    const struct config *eff[NPD_ROLE])
{
	int	slots[65] = { 0 };
	int	i;

	if (dg->rule == NULL || eff[role] == NULL)
		return 0;
	rule_slots(dg->rule, role_cb, slots);
	for (i = 1; i <= slots[0]; i++) {
		int	o = slot_opt(cat->nopts, slots[i]);

		if (slot_role(cat->nopts, slots[i]) == (int)role &&
		    config_is_set(eff[role], o) &&
		    eff[role]->s[o].line > 0)
			return eff[role]->s[o].line;
	}
	return 0;
}

/*
 * The rules over the facts, in rounds: round k gives every str fact its
 * k-th finding (null past its last), so a rule reading a fact with several
 * findings reports each one at its own line; a diagnostic of round k > 0
 * is kept only when its rule reads a fact with a k-th finding. cmd of each
 * diagnostic: the role its finding is about, or -1.
 */
static size_t
facts_rounds(const struct facts *f)
{
	size_t	o, n = 1;

	for (o = 0; o < f->cat->nopts; o++)
		if (f->nitems[o] > n)
			n = f->nitems[o];
	return n;
}

static void
round_config(const struct facts *f, size_t k, struct config *rc)
{
	size_t	o;

	memset(rc, 0, sizeof *rc);
	config_copy(rc, f->cfg);
	for (o = 0; o < f->cat->nopts; o++) {
		if (f->nitems[o] > k)
			config_set(rc, (int)o, val_str(f->items[o][k].text),
			    SRC_USER, f->items[o][k].line, 0);
		else if (f->nitems[o] > 0)
			config_set(rc, (int)o, VAL_NULL, SRC_USER, 0, 0);
		else if (f->unknown[o])
			config_set(rc, (int)o, VAL_UNKNOWN, SRC_USER, 0, 0);
	}
}

/* The role of round k's finding the rule reads (-1: none), and whether
 * the rule reads a fact with a k-th finding at all. */
static int
round_role(const struct facts *f, const struct rule *r, size_t k, bool *has)
{
	size_t	nopts = f->cat->nopts, i;
	int	role = -1;

	*has = false;
	for (i = 0; r != NULL && i < r->nreads; i++) {
		int	o;

		if (slot_role(nopts, r->reads[i]) >= 0)
			continue;
		o = slot_opt(nopts, r->reads[i]);
		if (f->nitems[o] <= k)
			continue;
		*has = true;
		if (role < 0)
			role = f->items[o][k].role;
	}
	return role;
}

/* "could not check: <why>" for an unknown the facts give a reason for. */
static const char *
unknown_why(const struct facts *f, const struct rule *r)
{
	size_t	nopts = f->cat->nopts, i;

	for (i = 0; r != NULL && i < r->nreads; i++) {
		int	o = slot_opt(nopts, r->reads[i]);

		if (slot_role(nopts, r->reads[i]) < 0 && f->nitems[o] == 0 &&
		    f->unknown[o] && f->why[o] != NULL)
			return f->why[o];
	}
	return NULL;
}

/* The rule's message with every {expression} as <unknown>, as the engine
 * renders a message whose facts are unknown. */
static char *
message_unknown(const char *src)
{
	struct buf	b = { 0 };
	const char	*p = src, *e;

	while (*p != '\0') {
		if (*p == '{' && (e = strchr(p, '}')) != NULL) {
			buf_printf(&b, "<unknown>");
			p = e + 1;
		} else
			buf_printf(&b, "%c", *p++);
	}
	return b.s != NULL ? buf_steal(&b) : xstrdup("");
}

static bool
has_rule(const struct result *res, const struct rule *r)
{
	size_t	i;

	for (i = 0; i < res->n; i++)
		if (res->d[i].rule == r)
			return true;
	return false;
}

/*
 * The engine says "could not check" for error rules only; a warning rule
 * whose fact is unknown for a stated reason (the router's lists against
 * workers found by service discovery) says so too.
 */
static void
unknown_warnings(const struct facts *f, struct result *res)
{
	const struct catalog	*cat = f->cat;
	size_t			 i;

	for (i = 0; i < cat->ndrules; i++) {
		const struct rule	*r = &cat->drules[i];
		const char		*why = unknown_why(f, r);
		struct diag		 dg = { 0 };

		if (r->sev != SEV_WARNING || why == NULL || has_rule(res, r))
			continue;
		dg.rule = r;
		dg.id = r->id;
		dg.sev = SEV_UNKNOWN;
		dg.msg = message_unknown(r->message_src);
		dg.note = xasprintf("could not check: %s", why);
		dg.opt = -1;
		result_take_one(res, &dg, -1);
	}
}

/* The role rule r reads that the deployment leaves out (no config), by
 * name; NULL when it reads none. */
static const char *
absent_role(const struct catalog *cat, const struct config *eff[NPD_ROLE],
    const struct rule *r)
{
	size_t	i;

	for (i = 0; r != NULL && i < r->nreads; i++) {
		int	ro = slot_role(cat->nopts, r->reads[i]);

		if (ro >= 0 && ro < NPD_ROLE && eff[ro] == NULL)
			return role_name((enum role)ro);
	}
	return NULL;
}

static void
run_rounds(const struct catalog *cat, const struct config *eff[NPD_ROLE],
    struct cross *x)
{
	const struct config	*roles[NSLOT_SCOPE];
	size_t			 k, n = facts_rounds(&x->f), i;
	int			 r;

	for (r = 0; r < NPD_ROLE; r++)
		roles[role_scope((enum role)r)] = eff[r];
	result_init(&x->res);
	for (k = 0; k < n; k++) {
		struct config	rc;
		struct result	tmp;

		round_config(&x->f, k, &rc);
		roles[SCOPE_SELF] = &rc;
		result_init(&tmp);
		engine_run_deploy(cat, roles, &tmp);
		for (i = 0; i < tmp.n; i++) {
			struct diag	*dg = &tmp.d[i];
			const char	*why;
			bool		 has;
			int		 role = round_role(&x->f, dg->rule, k, &has);

			if (k > 0 && !has) {
				diag_release(dg);
				continue;
			}
			if (dg->sev == SEV_UNKNOWN &&
			    (why = unknown_why(&x->f, dg->rule)) != NULL) {
				free(dg->note);
				dg->note = xasprintf("could not check: %s", why);
			} else if (dg->sev == SEV_UNKNOWN &&
			    (why = absent_role(cat, eff, dg->rule)) != NULL) {
				free(dg->note);
				dg->note = xasprintf("could not check: the %s "
				    "is not in the deployment (missing.%s)",
				    why, why);
				dg->lacks = 0;
			}
			result_take_one(&x->res, dg, role);
		}
		free(tmp.d);
		tmp.d = NULL;
		tmp.n = 0;
		result_free(&tmp);
		config_free(&rc);
	}
	unknown_warnings(&x->f, &x->res);
}

void
cross_eval(const struct catalog *cat, const struct deployment *d,
    const struct layout *given, const struct config *eff[NPD_ROLE],
    struct cross *x)
{
	struct plan		 p;
	struct layout		 own;
	const struct layout	*lay = given;

	config_init(&x->dc, cat);
	facts_init(&x->f, cat, &x->dc);
	x->f.eff = eff;
	if (lay == NULL) {
		deployment_layout(cat, d, &own);
		lay = &own;
	}
	x->f.lay = lay;
	deployment_plan_in(cat, d, lay, &p, NULL);
	router_facts(&x->f, d, &p);
	resource_facts(&x->f, d, &p);
	x->f.lay = NULL;
	if (lay == &own)
		layout_free(&own);
	run_rounds(cat, eff, x);
	plan_free(&p);
}

void
cross_free(struct cross *x)
{
	result_free(&x->res);
	facts_free(&x->f);
	config_free(&x->dc);
}

void
deployment_check_cross(const struct catalog *cat, const struct deployment *d,
    const struct config *eff[NPD_ROLE], struct result *out)
{
	deployment_check_cross_in(cat, d, NULL, eff, out);
}

void
deployment_check_cross_in(const struct catalog *cat,
    const struct deployment *d, const struct layout *lay,
    const struct config *eff[NPD_ROLE], struct result *out)
{
	struct cross	 x;
	size_t		 i;

	cross_eval(cat, d, lay, eff, &x);
	verify_fixes(cat, d, eff, &x.res);
	for (i = 0; i < x.res.n; i++) {
		struct diag	*dg = &x.res.d[i];
		enum role	 dr = dg->cmd >= 0 ? (enum role)dg->cmd :
		    deploy_diag_role(cat, dg, eff);
		int		 ln = diag_line(cat, dg, dr, eff);

		/* A finding's own line wins over the role's option line. */
		if (ln > 0 && (dg->line == 0 || dg->opt < 0 ||
		    cat->opts[dg->opt].kind != OK_DEPLOY))
			dg->line = ln;
		if (dg->line == 0)
			dg->line = d->role[dr].line;
		dg->cmd = (int)dr;
	}
	result_move_keep(out, &x.res);
	cross_free(&x);
}

/* Does rule r read the deployment fact name? */
static bool
reads_fact(const struct catalog *cat, const struct rule *r, const char *name)
{
	int	o = catalog_find(cat, name);
	size_t	i;

	for (i = 0; r != NULL && o >= 0 && i < r->nreads; i++)
		if (slot_role(cat->nopts, r->reads[i]) < 0 &&
		    slot_opt(cat->nopts, r->reads[i]) == o)
			return true;
	return false;
}

void
deployment_check_encoders(const struct catalog *cat,
    const struct config *const *cfgs, size_t n, struct result *out)
{
	const struct config	*eff[NPD_ROLE] = { NULL };
	struct cross		 x;
	size_t			 i;

	config_init(&x.dc, cat);
	facts_init(&x.f, cat, &x.dc);
	x.f.eff = eff;
	encoder_facts(&x.f, cfgs, n);
	run_rounds(cat, eff, &x);
	/* Only the rules over the encoder facts: the others see an empty
	 * deployment. */
	for (i = 0; i < x.res.n; i++) {
		struct diag	*dg = &x.res.d[i];

		if (reads_fact(cat, dg->rule, ENCODER_FACT))
			result_take_one(out, dg, -1);
		else {
			diag_release(dg);
		}
	}
	x.res.n = 0;
	cross_free(&x);
}
