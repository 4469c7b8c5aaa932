/*
 * vm_help.c - help for the focused field: what it is, its default and
 * effective value, and for each problem the rule, its terms and fixes.
 */
#include "tui/vm_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/describe.h"
#include "core/expr.h"
#include "core/util.h"

struct termctx {
	struct vm		*vm;
	enum vm_scope		 role;		/* the config's role */
	const struct config	*in, *eff;	/* self slots read these */
	int			 chosen;	/* option being chosen, or -1 */
	struct buf		*b;
	int			 seen[32];
	size_t			 nseen;
};

/* One term of a condition: "name = value  (origin)". */
static void
term_cb(void *arg, int slot)
{
	struct termctx		*tc = arg;
	const struct catalog	*cat = tc->vm->cat;
	int			 o = slot_opt(cat->nopts, slot);
	int			 role = slot_role(cat->nopts, slot);
	enum vm_scope		 s = tc->role;
	const struct config	*in = tc->in, *eff = tc->eff;
	struct buf		 v = { 0 };
	char			*origin;
	size_t			 i;

	for (i = 0; i < tc->nseen; i++)
		if (tc->seen[i] == slot)
			return;
	if (tc->nseen < 32)
		tc->seen[tc->nseen++] = slot;
	if (!slot_is_self(cat->nopts, slot)) {
		/* A deployment rule reads a role's effective config. */
		if (role < 0 || role >= NPD_ROLE)
			return;
		s = vmi_role_scope((enum role)role);
		if (!tc->vm->have[s])
			return;
		in = &tc->vm->cfg[s];
		eff = &tc->vm->res[s].eff;
	} else if (in == NULL)
		return;
	if (eff->s[o].v.t == V_UNKNOWN)
		buf_puts(&v, "unknown");
	else
		val_repr_py(&v, eff->s[o].v);
	if (o == tc->chosen && s == tc->role)
		origin = xstrdup("the value you are choosing");
	else
		origin = vmi_origin_in(tc->vm, s, o, in, eff);
	buf_printf(tc->b, "      %s%s%s = %s  (%s)\n", slot_is_self(cat->nopts,
	    slot) ? "" : vmi_scope_names[s], slot_is_self(cat->nopts, slot) ?
	    "" : ".", cat->opts[o].name, v.s ? v.s : "", origin);
	free(origin);
	buf_free(&v);
}

/* The rule's explanation and its SGLang source, no machine paths. */
static void
help_explain(const struct rule *r, struct buf *b)
{
	if (r->explain != NULL)
		buf_printf(b, "    What it means: %s\n", r->explain);
}

static void
help_source(const struct rule *r, struct buf *b)
{
	buf_printf(b, "    rule %s", r->id);
	if (r->src_file != NULL)
		buf_printf(b, "; SGLang source: sglang %s%s%s%s", r->src_file,
		    r->src_func ? " (" : "", r->src_func ? r->src_func : "",
		    r->src_func ? ")" : "");
	buf_puts(b, "\n");
}

/* The fixes verified to clear d (each applied to a copy, rules run
 * again); [f] marks the one f applies when it is not the focused
 * option's own (no field focused, as on the review page: none). */
static void
help_fixes(struct vm *vm, struct buf *b, const struct diag *d,
    int focused_opt)
{
	const struct rule	*r = d->rule;
	size_t			 i, shown = 0;
	bool			 first = true;

	for (i = 0; i < r->nfixes; i++) {
		struct buf	desc = { 0 };
		bool		mine = vmi_fix_touches(vm->cat, &r->fixes[i],
		    focused_opt);

		if (!diag_fix_ok(d, i))
			continue;
		describe_fix(vm->cat, &r->fixes[i], &desc);
		buf_printf(b, "    fix%s: %s (%s)\n", focused_opt >= 0 &&
		    !mine && first ? " [f]" : "", r->fixes[i].label,
		    desc.s ? desc.s : "");
		if (!mine)
			first = false;
		shown++;
		buf_free(&desc);
	}
	if (r->nfixes > 0 && shown == 0)
		buf_puts(b, "    no fix of this rule is verified to clear it "
		    "here\n");
}

void
vmi_help_diag(struct vm *vm, struct buf *b, enum vm_scope role,
    const struct diag *d, const struct config *in, const struct config *eff,
    int focused_opt, int chosen)
{
	const struct rule	*r = d->rule;
	struct termctx		 tc = { 0 };

	/* SGLang's words, or pdwiz's own: a reader's or the deployment
	 * file's diagnostic, a silent change, a memory estimate, a failure
	 * SGLang reports in generic words. */
	buf_printf(b, "    %s: %s\n", r == NULL || r->silent || r->own_words ||
	    (r->kind != NULL && strcmp(r->kind, "estimate") == 0) ? "pdwiz" :
	    "SGLang", d->msg);
	if (r == NULL)
		return;
	help_explain(r, b);
	if (d->sev == SEV_ERROR || d->sev == SEV_WARNING ||
	    d->sev == SEV_UNKNOWN) {
		buf_printf(b, "    fails because: %s\n", r->when_src);
		buf_puts(b, "    where:\n");
		tc.vm = vm;
		tc.role = role;
		tc.in = in;
		tc.eff = eff;
		tc.chosen = chosen;
		tc.b = b;
		expr_slots(r->when, term_cb, &tc);
		if (d->note != NULL)
			buf_printf(b, "    %s\n", d->note);
		help_fixes(vm, b, d, focused_opt);
	}
	help_source(r, b);
}

/* The fixes of res (role s's result for in) verified as pdwiz check
 * verifies them: on the deployment's machines (the role's GPUs a node,
 * else gpus_per_host). */
static void
verify_fixes(struct vm *vm, enum vm_scope s, const struct config *in,
    struct result *res)
{
	int	host = vm->dep.gpus_per_host;

	if (s >= SC_PREFILL && s <= SC_DECODE &&
	    vm->dep.role[vmi_scope_role(s)].gpus_per_node > 0)
		host = vm->dep.role[vmi_scope_role(s)].gpus_per_node;
	engine_verify_fixes_host(vm->cat, in, res, host);
}

/* Why value c of the focused field is unavailable: the rule as it fires
 * with c in role s's configuration. */
static void
help_blocked(struct vm *vm, struct buf *b, const struct rule *r,
    enum vm_scope s, const struct config *with, int focused_opt)
{
	struct result	 res;
	size_t		 i;

	result_init(&res);
	engine_run(vm->cat, with, &res);
	verify_fixes(vm, s, with, &res);
	for (i = 0; i < res.n; i++)
		if (res.d[i].rule == r) {
			vmi_help_diag(vm, b, s, &res.d[i], with, &res.eff,
			    focused_opt, focused_opt);
			break;
		}
	if (i == res.n) {
		buf_printf(b, "    rule %s\n    fails because: %s\n", r->id,
		    r->when_src);
		help_explain(r, b);
	}
	result_free(&res);
}

/* A diagnostic of role s (on the focused field, or the review's), with
 * its fixes verified. */
void
vmi_help_role_diag(struct vm *vm, struct buf *b, enum vm_scope s,
    const struct diag *d, int focused_opt)
{
	struct result	res;
	size_t		i;

	result_init(&res);
	engine_run(vm->cat, &vm->cfg[s], &res);
	verify_fixes(vm, s, &vm->cfg[s], &res);
	for (i = 0; i < res.n; i++)
		if (res.d[i].rule == d->rule && strcmp(res.d[i].msg,
		    d->msg) == 0)
			break;
	vmi_help_diag(vm, b, s, i < res.n ? &res.d[i] : d, &vm->cfg[s],
	    &vm->res[s].eff, focused_opt, -1);
	result_free(&res);
}

/* A layout field: how its value is derived, and its layout problems. */
static void
layout_help(const struct vm *vm, const struct vm_row *row, struct buf *b)
{
	char	*d = vmi_derived(vm, row->f->scope, row->f->key);
	size_t	 i;

	if (d == NULL)
		return;
	if (row->derived)
		buf_puts(b, "\nLeft unset, so the layout derives it: instances "
		    "are packed onto each host's GPUs in order (prefill first), "
		    "ports count up from each role's base to the first free "
		    "one, the router runs where the first prefill runs.\n");
	else
		buf_puts(b, "\nSet by you: kept as given, and checked.\n");
	buf_puts(b, "A value you set is kept and checked; Delete (or an empty "
	    "edit) returns it to the derived one; P writes every derived "
	    "value into the deployment (pin).\n");
	free(d);
	for (i = 0; i < vm->cross.n; i++) {
		const struct diag	*g = &vm->cross.d[i];

		if (vmi_layout_key(g->id) != row->f->key || !row->error ||
		    g->sev != SEV_ERROR)
			continue;
		buf_printf(b, "\n%s: %s\n", severity_name(g->sev), g->msg);
		if (g->rule != NULL && g->rule->explain != NULL)
			buf_printf(b, "    %s\n", g->rule->explain);
	}
}

/* Where the field's value comes from, per role when the roles differ. */
static void
help_origin(struct vm *vm, const struct vm_field *f, struct buf *b)
{
	enum vm_scope	 sv[2], view = vmi_scope_view(vm, f->scope);
	size_t		 n = vmi_scope_servers(vm, f->scope, sv), i;
	char		*o[2] = { NULL, NULL };

	for (i = 0; i < n && i < 2; i++)
		o[i] = vm_origin(vm, sv[i], f->key);
	if (n == 2 && strcmp(o[0], o[1]) != 0)
		buf_printf(b, "origin:    %s: %s; %s: %s\n",
		    vmi_scope_names[sv[0]], o[0], vmi_scope_names[sv[1]], o[1]);
	else if (n >= 1)
		buf_printf(b, "origin:    %s\n", o[0]);
	else {
		char	*t = vm_origin(vm, view, f->key);

		buf_printf(b, "origin:    %s\n", t);
		free(t);
	}
	free(o[0]);
	free(o[1]);
}

/* Deployment (cross-role) problems that read the field's option. */
static void
help_cross(struct vm *vm, const struct vm_field *f, struct buf *b)
{
	size_t	i;

	if (VM_IS_DKEY(f->key))
		return;
	for (i = 0; i < vm->cross.n; i++) {
		const struct diag	*d = &vm->cross.d[i];

		if (d->rule == NULL || d->sev > SEV_WARNING ||
		    !vmi_cross_reads(vm, d->rule, f))
			continue;
		buf_printf(b, "\n%s (deployment: across roles):\n",
		    severity_name(d->sev));
		vmi_help_diag(vm, b, SC_DEPLOY, d, NULL, NULL, f->key, -1);
	}
}

char *
vm_help(struct vm *vm)
{
	const struct vm_row	*row = vm_focused(vm);
	const struct vm_field	*f;
	struct buf		 b = { 0 };
	size_t			 i;
	enum vm_scope		 s;

	if (vm->pages[vm->page].review) {
		if (vm->field >= 0 && (size_t)vm->field < vm->nreview)
			return vm_review_text(vm, (size_t)vm->field);
		return NULL;
	}
	if (row == NULL)
		return NULL;
	f = row->f;
	buf_printf(&b, "%s", f->label);
	if (!VM_IS_DKEY(f->key)) {
		const struct option	*o = &vm->cat->opts[f->key];
		struct buf		 d = { 0 };

		buf_printf(&b, "  (%s%s, %s)\n\n", o->kind == OK_FACT ?
		    "fact " : o->kind == OK_ENV ? "environment " : "",
		    o->flag ? o->flag : o->name, vmi_scope_names[f->scope]);
		buf_printf(&b, "%s\n\n", o->help ? o->help : "");
		if (o->kind == OK_FACT)
			buf_puts(&d, "unknown unless the model says");
		else if (o->def.t == V_NULL)
			buf_puts(&d, "None");
		else
			val_str_py(&d, o->def);
		buf_printf(&b, "default:   %s\n", d.s ? d.s : "");
		buf_free(&d);
		buf_printf(&b, "effective: %s %s\n", row->value, row->note);
		help_origin(vm, f, &b);
		if (o->note)
			buf_printf(&b, "note:      %s\n", o->note);
	} else {
		char	*o = vmi_dfield_origin(vm, f->scope, f->key,
		    row->derived);

		buf_printf(&b, "  (deployment: %s)\n\ncurrent: %s %s\n"
		    "origin:  %s\n", vmi_df_names[VM_DF(f->key)], row->value,
		    row->note, o);
		free(o);
		layout_help(vm, row, &b);
	}
	if (f->visible_src)
		buf_printf(&b, "shown when: %s\n", f->visible_src);
	for (i = 0; i < row->nchoices; i++) {
		const struct vm_choice	*c = &row->choices[i];
		struct config		 tmp = { 0 };

		if (c->blocker == NULL)
			continue;
		buf_printf(&b, "\n%s is unavailable%s%s:\n", c->text,
		    vmi_is_pd(vm) ? " on " : "", vmi_is_pd(vm) ?
		    vmi_scope_names[c->blocked_in] : "");
		config_copy(&tmp, &vm->cfg[c->blocked_in]);
		tmp.s[f->key].v = c->v;
		tmp.s[f->key].src = SRC_USER;
		help_blocked(vm, &b, c->blocker, c->blocked_in, &tmp, f->key);
		config_free(&tmp);
	}
	for (s = SC_PREFILL; s < NSCOPE; s++) {
		if (!vm->have[s])
			continue;
		for (i = 0; i < vm->res[s].n; i++) {
			const struct diag	*d = &vm->res[s].d[i];

			if (d->rule == NULL || !vmi_diag_hits(vm, f, s, d))
				continue;
			buf_printf(&b, "\n%s (%s):\n", severity_name(d->sev),
			    vmi_scope_names[s]);
			vmi_help_role_diag(vm, &b, s, d, f->key);
		}
	}
	help_cross(vm, f, &b);
	return buf_steal(&b);
}

