/*
 * vm_rows.c - the rows of the current page: each visible field's effective
 * value, where it came from, its diagnostics and which of its candidate
 * values the rules block.
 */
#include "tui/vm_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/expr.h"
#include "core/util.h"

static const char *const router_policies[] = {
	"random", "round_robin", "cache_aware", "power_of_two", NULL
};
/* The effective value of a field (for display), and its slot. */
static const struct slot *
field_slot(const struct vm *vm, const struct vm_field *f)
{
	enum vm_scope	v;

	if (VM_IS_DKEY(f->key))
		return NULL;
	v = f->scope == SC_ROUTER ? SC_ROUTER : vmi_scope_view(vm, f->scope);
	if (!vm->have[v])
		return NULL;
	return &vm->res[v].eff.s[f->key];
}

static const struct slot *
field_input(const struct vm *vm, const struct vm_field *f)
{
	enum vm_scope	v;

	if (VM_IS_DKEY(f->key))
		return NULL;
	v = f->scope == SC_ROUTER ? SC_ROUTER : vmi_scope_view(vm, f->scope);
	if (!vm->have[v])
		return NULL;
	return &vm->cfg[v].s[f->key];
}

static void
value_text(char *out, size_t len, struct value v, enum otype t)
{
	struct buf	b = { 0 };

	if (v.t == V_UNKNOWN)
		snprintf(out, len, "unknown");
	else if (v.t == V_NULL)
		snprintf(out, len, "(none)");
	else if (v.t == V_BOOL)
		snprintf(out, len, "%s", v.u.b ? "on" : "off");
	else {
		val_cli(&b, v);
		snprintf(out, len, "%s", b.s ? b.s : "");
		buf_free(&b);
	}
	(void)t;
}

bool
vmi_same_value(struct value a, struct value b)
{
	if (a.t != b.t)
		return false;
	if (a.t == V_UNKNOWN || a.t == V_NULL)
		return true;
	return val_equal(a, b);
}

/* Candidate values of a field. */
static size_t
field_candidates(const struct vm *vm, const struct vm_field *f,
    struct value *out, size_t max)
{
	size_t			 n = 0, i;
	const struct option	*o;

	if (VM_IS_DKEY(f->key)) {
		if (VM_DF(f->key) == DF_PD) {
			out[n++] = val_bool(false);
			out[n++] = val_bool(true);
		} else if (VM_DF(f->key) == DF_POLICY) {
			for (i = 0; router_policies[i] != NULL && n < max; i++)
				out[n++] = val_str(router_policies[i]);
		}
		return n;
	}
	o = &vm->cat->opts[f->key];
	if (o->type == T_BOOL || o->type == T_BOOLOPT) {
		out[n++] = val_bool(false);
		out[n++] = val_bool(true);
		return n;
	}
	if (o->nchoices == 0)
		return 0;
	if (o->def.t == V_NULL || o->kind == OK_FACT)
		out[n++] = o->kind == OK_FACT ? VAL_UNKNOWN : VAL_NULL;
	for (i = 0; i < o->nchoices && n < max; i++) {
		struct value	v;

		if (val_parse(o->type, o->choices[i], &v) == 0)
			out[n++] = v;
	}
	return n;
}

static struct value
dfield_value(struct vm *vm, const struct vm_field *f)
{
	char		*t = vmi_cell_get(vm, f->scope, f->key);
	struct value	 v = VAL_NULL;

	if (t == NULL)
		return v;
	switch (VM_DF(f->key)) {
	case DF_PD:
		v = val_bool(strcmp(t, "true") == 0);
		break;
	case DF_INSTANCES:
	case DF_NODES:
	case DF_GPUS:
	case DF_PORT:
		v = val_int(atoll(t));
		break;
	default:
		v = val_str(t);
		break;
	}
	free(t);
	return v;
}

static void
compute_choices(struct vm *vm, struct vm_row *row)
{
	const struct vm_field	*f = row->f;
	struct value		 cand[64], cur;
	size_t			 n, i, k, nr;
	enum vm_scope		 roles[2];
	const struct slot	*sl = field_slot(vm, f);

	n = field_candidates(vm, f, cand, 64);
	row->choices = n ? xcalloc(n, sizeof *row->choices) : NULL;
	row->nchoices = n;
	row->nblocked = 0;
	if (VM_IS_DKEY(f->key))
		cur = dfield_value(vm, f);
	else {
		const struct slot *in = field_input(vm, f);

		cur = in ? in->v : VAL_UNKNOWN;
		if (sl != NULL && vm->cat->opts[f->key].kind == OK_FACT)
			cur = sl->v;
	}
	nr = VM_IS_DKEY(f->key) ? 0 : vmi_scope_servers(vm, f->scope, roles);
	for (i = 0; i < n; i++) {
		struct vm_choice	*c = &row->choices[i];

		c->v = cand[i];
		c->current = vmi_same_value(cand[i], cur);
		if (cand[i].t == V_BOOL)
			snprintf(c->text, sizeof c->text, "%s",
			    (cand[i].u.b != f->invert) ? "on" : "off");
		else
			value_text(c->text, sizeof c->text, cand[i],
			    T_STR);
		if (c->current || cand[i].t == V_UNKNOWN)
			continue;
		for (k = 0; k < nr; k++) {
			if (!vm->have[roles[k]])
				continue;
			c->blocker = engine_blocks(vm->cat, &vm->cfg[roles[k]],
			    f->key, cand[i]);
			if (c->blocker != NULL) {
				c->blocked_in = roles[k];
				row->nblocked++;
				break;
			}
		}
	}
}

/* Does a diagnostic point at this field? */
bool
vmi_diag_hits(const struct vm *vm, const struct vm_field *f, enum vm_scope s,
    const struct diag *d)
{
	enum vm_scope	r[2];
	size_t		n, i;

	if (VM_IS_DKEY(f->key) || d->opt != f->key)
		return false;
	if (s == SC_DEPLOY && d->rule != NULL && d->rule->deploy)
		return true;
	n = vmi_scope_servers(vm, f->scope, r);
	for (i = 0; i < n; i++)
		if (r[i] == s)
			return true;
	return f->scope == SC_ROUTER && s == SC_ROUTER;
}

static void
row_diags(struct vm *vm, struct vm_row *row)
{
	enum vm_scope	s;
	size_t		i;

	for (s = SC_PREFILL; s < NSCOPE; s++) {
		if (!vm->have[s])
			continue;
		for (i = 0; i < vm->res[s].n; i++) {
			const struct diag	*d = &vm->res[s].d[i];

			if (!vmi_diag_hits(vm, row->f, s, d))
				continue;
			if (d->sev == SEV_ERROR)
				row->error = true;
			else if (d->sev == SEV_WARNING)
				row->warning = true;
		}
	}
	for (i = 0; i < vm->cross.n; i++) {
		const struct diag	*d = &vm->cross.d[i];

		if (d->opt >= 0 && (size_t)d->opt % vm->cat->nopts ==
		    (size_t)(VM_IS_DKEY(row->f->key) ? -1 : row->f->key) &&
		    d->sev == SEV_ERROR)
			row->error = true;
	}
}

static void
build_row(struct vm *vm, struct vm_row *row)
{
	const struct vm_field	*f = row->f;
	const struct slot	*sl = field_slot(vm, f), *in = field_input(vm, f);

	row->value[0] = row->note[0] = '\0';
	if (VM_IS_DKEY(f->key)) {
		struct value	v = dfield_value(vm, f);

		row->is_bool = v.t == V_BOOL;
		row->on = row->is_bool && v.u.b;
		if (v.t == V_NULL)
			snprintf(row->value, sizeof row->value, "%s",
			    VM_DF(f->key) == DF_POLICY ? "(router default)" :
			    "(not set)");
		else
			value_text(row->value, sizeof row->value, v, T_STR);
	} else if (sl != NULL) {
		const struct option	*o = &vm->cat->opts[f->key];

		row->is_bool = o->type == T_BOOL || o->type == T_BOOLOPT;
		row->on = sl->v.t == V_BOOL && (sl->v.u.b != f->invert);
		if (row->is_bool && sl->v.t == V_BOOL)
			snprintf(row->value, sizeof row->value, "%s",
			    row->on ? "on" : "off");
		else
			value_text(row->value, sizeof row->value, sl->v,
			    o->type);
		if (sl->src == SRC_OVERRIDE && (in == NULL ||
		    !vmi_same_value(in->v, sl->v))) {
			const struct rule	*r = &vm->cat->rules[sl->rule];
			struct buf		 b = { 0 };
			struct evalctx		 ec = { 0 };
			const struct config	*cfgs[1];

			cfgs[0] = &vm->res[vmi_scope_view(vm, f->scope)].eff;
			ec.cfgs = cfgs;
			ec.nopts = vm->cat->nopts;
			ec.unknown_slot = -1;
			tmpl_render(r->message, &ec, &b);
			row->forced = true;
			snprintf(row->note, sizeof row->note, "(forced: %s)",
			    b.s ? b.s : r->id);
			buf_free(&b);
		} else if (sl->src == SRC_MODEL)
			snprintf(row->note, sizeof row->note, "(from model)");
		else if (sl->src == SRC_DEFAULT)
			snprintf(row->note, sizeof row->note, "(default)");
		if (f->scope == SC_SHARED && vmi_is_pd(vm) && !row->forced &&
		    vm->have[SC_DECODE] && vm->have[SC_PREFILL] &&
		    !vmi_same_value(vm->res[SC_PREFILL].eff.s[f->key].v,
		    vm->res[SC_DECODE].eff.s[f->key].v)) {
			char	dv[64];

			value_text(dv, sizeof dv,
			    vm->res[SC_DECODE].eff.s[f->key].v, o->type);
			snprintf(row->note, sizeof row->note,
			    "(prefill; decode: %s)", dv);
		}
	}
	row_diags(vm, row);
	compute_choices(vm, row);
}

void
vmi_build_rows(struct vm *vm)
{
	const struct vm_page	*p = &vm->pages[vm->page];
	size_t			 i;

	vmi_rows_clear(vm);
	if (p->review)
		return;
	if (vm->rowcap < p->nf) {
		vm->rowcap = p->nf;
		vm->rows = xreallocarray(vm->rows, vm->rowcap, sizeof *vm->rows);
	}
	for (i = 0; i < p->nf; i++) {
		struct vm_row	*row;

		if (!vm->fvis[vm->page][i])
			continue;
		row = &vm->rows[vm->nrows++];
		memset(row, 0, sizeof *row);
		row->field = (int)i;
		row->f = &p->f[i];
		build_row(vm, row);
	}
	/* Keep the focus on a visible field. */
	for (i = 0; i < vm->nrows; i++)
		if (vm->rows[i].field == vm->field)
			return;
	if (vm->nrows > 0) {
		for (i = 0; i < vm->nrows; i++)
			if (vm->rows[i].field > vm->field)
				break;
		vm->field = vm->rows[i < vm->nrows ? i : vm->nrows - 1].field;
	}
}

void
vmi_rows_clear(struct vm *vm)
{
	size_t	i;

	for (i = 0; i < vm->nrows; i++)
		free(vm->rows[i].choices);
	vm->nrows = 0;
}
