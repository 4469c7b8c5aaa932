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
	const struct catalog	*cat;
	const struct config	*cfg;
	struct buf		*b;
	int			 seen[16];
	size_t			 nseen;
};

static void
term_cb(void *arg, int slot)
{
	struct termctx		*tc = arg;
	size_t			 o = (size_t)slot_opt(tc->cat->nopts, slot), i;
	struct buf		 v = { 0 };

	for (i = 0; i < tc->nseen; i++)
		if (tc->seen[i] == (int)o)
			return;
	if (tc->nseen < 16)
		tc->seen[tc->nseen++] = (int)o;
	if (!slot_is_self(tc->cat->nopts, slot))
		return;
	if (tc->cfg->s[o].v.t == V_UNKNOWN)
		buf_puts(&v, "unknown");
	else
		val_repr_py(&v, tc->cfg->s[o].v);
	buf_printf(tc->b, "      %s = %s\n", tc->cat->opts[o].name,
	    v.s ? v.s : "");
	buf_free(&v);
}

static void
help_rule(struct vm *vm, struct buf *b, const struct rule *r,
    const struct config *with, int focused_opt)
{
	struct termctx	 tc = { 0 };
	struct result	 res;
	size_t		 i;
	bool		 first = true;

	result_init(&res);
	engine_run(vm->cat, with, &res);
	for (i = 0; i < res.n; i++)
		if (res.d[i].rule == r) {
			buf_printf(b, "    SGLang: %s\n", res.d[i].msg);
			break;
		}
	buf_printf(b, "    rule %s (%s:%d)\n    fails because: %s\n", r->id,
	    r->file ? r->file : "?", r->line, r->when_src);
	buf_printf(b, "    where:\n");
	tc.cat = vm->cat;
	tc.cfg = &res.eff;
	tc.b = b;
	expr_slots(r->when, term_cb, &tc);
	for (i = 0; i < r->nfixes; i++) {
		struct buf	d = { 0 };
		bool		mine = vmi_fix_touches(vm->cat, &r->fixes[i],
		    focused_opt);

		describe_fix(vm->cat, &r->fixes[i], &d);
		buf_printf(b, "    fix%s: %s (%s)\n", !mine && first ?
		    " [f]" : "", r->fixes[i].label, d.s ? d.s : "");
		if (!mine)
			first = false;
		buf_free(&d);
	}
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

char *
vm_help(struct vm *vm)
{
	const struct vm_row	*row = vm_focused(vm);
	const struct vm_field	*f;
	struct buf		 b = { 0 };
	size_t			 i;
	enum vm_scope		 s;

	if (vm->pages[vm->page].review) {
		buf_puts(&b, "Review: every problem of the deployment, by role "
		    "and severity.\nEnter jumps to the field that causes it.\n");
		return buf_steal(&b);
	}
	if (row == NULL)
		return xstrdup("no field here\n");
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
		if (o->note)
			buf_printf(&b, "note:      %s\n", o->note);
	} else {
		buf_printf(&b, "  (deployment: %s)\n\ncurrent: %s %s\n",
		    vmi_df_names[VM_DF(f->key)], row->value, row->note);
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
		help_rule(vm, &b, c->blocker, &tmp, f->key);
		config_free(&tmp);
	}
	for (s = SC_PREFILL; s < NSCOPE; s++) {
		if (!vm->have[s])
			continue;
		for (i = 0; i < vm->res[s].n; i++) {
			const struct diag	*d = &vm->res[s].d[i];

			if (d->rule == NULL || !vmi_diag_hits(vm, f, s, d))
				continue;
			buf_printf(&b, "\n%s (%s): %s\n", severity_name(d->sev),
			    vmi_scope_names[s], d->msg);
			if (d->sev == SEV_ERROR || d->sev == SEV_WARNING)
				help_rule(vm, &b, d->rule, &vm->cfg[s],
				    f->key);
			else if (d->rule->explain)
				buf_printf(&b, "    %s\n", d->rule->explain);
		}
	}
	return buf_steal(&b);
}

