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
#include "core/fit_facts.h"
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

/* A value as the rows show it (malloc'd). */
static char *
value_text(struct value v)
{
	struct buf	b = { 0 };

	if (v.t == V_UNKNOWN)
		return xstrdup("unknown");
	if (v.t == V_NULL)
		return xstrdup("(none)");
	if (v.t == V_BOOL)
		return xstrdup(v.u.b ? "on" : "off");
	val_cli(&b, v);
	return b.s ? buf_steal(&b) : xstrdup("");
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

/* Candidate values of a field: *out (malloc'd, or NULL when none). */
static size_t
field_candidates(const struct vm *vm, const struct vm_field *f,
    struct value **out)
{
	size_t			 n = 0, i, max = 2;
	const struct option	*o = VM_IS_DKEY(f->key) ? NULL :
	    &vm->cat->opts[f->key];
	struct value		*c;

	if (f->nnamed > 0 && o != NULL) {
		/* The form's named values (a fact starts unknown). */
		*out = c = xcalloc(f->nnamed + 1, sizeof *c);
		if (o->kind == OK_FACT)
			c[n++] = VAL_UNKNOWN;
		for (i = 0; i < f->nnamed; i++) {
			struct value	v;

			if (val_parse(o->type, f->named[i].value, &v) == 0)
				c[n++] = v;
		}
		return n;
	}
	if (o != NULL)
		max = o->nchoices + 2;
	else
		for (i = 0; router_policies[i] != NULL; i++)
			max++;
	*out = c = xcalloc(max, sizeof *c);
	if (o == NULL) {
		if (VM_DF(f->key) == DF_PD || VM_DF(f->key) == DF_SAME_PAR) {
			c[n++] = val_bool(false);
			c[n++] = val_bool(true);
		} else if (VM_DF(f->key) == DF_POLICY) {
			for (i = 0; router_policies[i] != NULL; i++)
				c[n++] = val_str(router_policies[i]);
		}
	} else if (o->type == T_BOOL || o->type == T_BOOLOPT) {
		c[n++] = val_bool(false);
		c[n++] = val_bool(true);
	} else if (o->nchoices > 0) {
		if (o->def.t == V_NULL || o->kind == OK_FACT)
			c[n++] = o->kind == OK_FACT ? VAL_UNKNOWN : VAL_NULL;
		for (i = 0; i < o->nchoices; i++) {
			struct value	v;

			if (val_parse(o->type, o->choices[i], &v) == 0)
				c[n++] = v;
		}
	}
	if (n == 0) {
		free(c);
		*out = NULL;
	}
	return n;
}

/* The form's label of a value, or NULL. */
static const char *
named_label(const struct vm_field *f, struct value v)
{
	size_t	i;
	char	*t;

	if (v.t == V_UNKNOWN || v.t == V_NULL)
		return NULL;
	t = value_text(v);
	for (i = 0; i < f->nnamed; i++)
		if (strcmp(f->named[i].value, t) == 0) {
			free(t);
			return f->named[i].label;
		}
	free(t);
	return NULL;
}

/* A candidate as the list shows it: "90  Hopper (H100, H200)". */
static char *
named_text(const struct vm_field *f, struct value v)
{
	const char	*l = named_label(f, v);
	char		*t = value_text(v), *r;

	if (l == NULL)
		return t;
	r = xasprintf("%s  %s", t, l);
	free(t);
	return r;
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
	case DF_SAME_PAR:
		v = val_bool(strcmp(t, "true") == 0);
		break;
	case DF_INSTANCES:
	case DF_NODES:
	case DF_GPUS:
	case DF_PORT:
	case DF_BASE_GPU:
	case DF_BOOTSTRAP:
	case DF_DIST_PORT:
		v = val_int(atoll(t));
		break;
	case DF_GPUS_PER_HOST:
		v = strcmp(t, "unknown") == 0 ? val_str(t) : val_int(atoll(t));
		break;
	default:
		v = val_str(t);
		break;
	}
	free(t);
	return v;
}

/* The row's candidate values as shown and which is current; which of
 * them the rules block is vmi_row_check's work. */
static void
compute_choices(struct vm *vm, struct vm_row *row)
{
	const struct vm_field	*f = row->f;
	struct value		*cand, cur;
	size_t			 n, i;
	const struct slot	*sl = field_slot(vm, f);

	n = field_candidates(vm, f, &cand);
	row->choices = n ? xcalloc(n, sizeof *row->choices) : NULL;
	row->nchoices = n;
	row->nblocked = 0;
	row->checked = false;
	if (VM_IS_DKEY(f->key))
		cur = dfield_value(vm, f);
	else {
		const struct slot *in = field_input(vm, f);

		cur = in ? in->v : VAL_UNKNOWN;
		if (sl != NULL && vm->cat->opts[f->key].kind == OK_FACT)
			cur = sl->v;
	}
	for (i = 0; i < n; i++) {
		struct vm_choice	*c = &row->choices[i];

		c->v = cand[i];
		c->current = vmi_same_value(cand[i], cur);
		if (cand[i].t == V_BOOL)
			c->text = xstrdup((cand[i].u.b != f->invert) ? "on" :
			    "off");
		else
			c->text = named_text(f, cand[i]);
	}
	free(cand);
}

void
vmi_row_check(struct vm *vm, struct vm_row *row)
{
	const struct vm_field	*f = row->f;
	size_t			 i, k, nr;
	enum vm_scope		 roles[2];

	if (row->checked)
		return;
	row->checked = true;
	nr = VM_IS_DKEY(f->key) ? 0 : vmi_scope_servers(vm, f->scope, roles);
	for (i = 0; i < row->nchoices; i++) {
		struct vm_choice	*c = &row->choices[i];

		if (c->current || c->v.t == V_UNKNOWN)
			continue;
		for (k = 0; k < nr; k++) {
			if (!vm->have[roles[k]])
				continue;
			c->blocker = engine_blocks(vm->cat, &vm->cfg[roles[k]],
			    f->key, c->v);
			if (c->blocker != NULL) {
				c->blocked_in = roles[k];
				row->nblocked++;
				break;
			}
		}
	}
}

void
vm_rows_check(struct vm *vm, size_t first, size_t n)
{
	size_t	i;

	for (i = first; i < vm->nrows && i - first < n; i++)
		vmi_row_check(vm, &vm->rows[i]);
}

/* Does a diagnostic point at this field? */
/*
 * The option a diagnostic is about: its own, or for a memory error (the
 * weights do not fit, no KV cache) tensor parallelism, which the estimate
 * reads through facts no field shows - so the error is shown on the TP
 * field, the review goes there, and f fixes it there.
 */
int
vmi_diag_opt(const struct vm *vm, const struct diag *d)
{
	if (d->rule != NULL && (strcmp(d->rule->id, "fit-weights") == 0 ||
	    strcmp(d->rule->id, "fit-kv-none") == 0))
		return catalog_find(vm->cat, "tp_size");
	return d->opt;
}

bool
vmi_diag_hits(const struct vm *vm, const struct vm_field *f, enum vm_scope s,
    const struct diag *d)
{
	enum vm_scope	r[2];
	size_t		n, i;

	if (VM_IS_DKEY(f->key) || vmi_diag_opt(vm, d) != f->key)
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

		if (d->sev == SEV_ERROR && !VM_IS_DKEY(row->f->key) &&
		    (d->opt >= 0 ? slot_opt(vm->cat->nopts, d->opt) ==
		    row->f->key : d->rule != NULL &&
		    vmi_cross_reads(vm, d->rule, row->f)))
			row->error = true;
		/* A layout problem marks the GPUs or ports of its role. */
		if (d->sev == SEV_ERROR && VM_IS_DKEY(row->f->key) &&
		    vmi_layout_key(d->id) == row->f->key && d->cmd >= 0 &&
		    d->cmd < NPD_ROLE && (row->f->scope ==
		    vmi_role_scope((enum role)d->cmd) ||
		    row->f->key == VM_DKEY(DF_ROUTER_URLS) ||
		    row->f->key == VM_DKEY(DF_HOSTS)))
			row->error = true;
	}
}

/* The note of a value an override changed: the rule's message. */
static char *
forced_note(struct vm *vm, const struct vm_field *f, const struct slot *sl)
{
	const struct rule	*r = &vm->cat->rules[sl->rule];
	struct buf		 b = { 0 };
	struct evalctx		 ec = { 0 };
	const struct config	*cfgs[1];
	char			*note;

	cfgs[0] = &vm->res[vmi_scope_view(vm, f->scope)].eff;
	ec.cfgs = cfgs;
	ec.nopts = vm->cat->nopts;
	ec.unknown_slot = -1;
	tmpl_render(r->message, &ec, &b);
	note = xasprintf("(forced: %s)", b.s ? b.s : r->id);
	buf_free(&b);
	return note;
}

static void
build_dfield_row(struct vm *vm, struct vm_row *row)
{
	struct value	 v = dfield_value(vm, row->f);
	char		*d;

	row->is_bool = v.t == V_BOOL;
	row->on = row->is_bool && v.u.b;
	d = vmi_derived(vm, row->f->scope, row->f->key);
	row->layout = d != NULL;
	if (v.t == V_NULL && d != NULL) {
		row->value = d;
		d = NULL;
		row->note = xstrdup("(derived)");
		row->derived = true;
	} else if (v.t == V_NULL)
		row->value = xstrdup(VM_DF(row->f->key) == DF_POLICY ?
		    "(router default)" : "(not set)");
	else
		row->value = value_text(v);
	free(d);
}

static void
build_option_row(struct vm *vm, struct vm_row *row, const struct slot *sl)
{
	const struct vm_field	*f = row->f;
	const struct slot	*in = field_input(vm, f);
	const struct option	*o = &vm->cat->opts[f->key];

	row->is_bool = o->type == T_BOOL || o->type == T_BOOLOPT;
	row->on = sl->v.t == V_BOOL && (sl->v.u.b != f->invert);
	if (row->is_bool && sl->v.t == V_BOOL)
		row->value = xstrdup(row->on ? "on" : "off");
	else
		row->value = value_text(sl->v);
	if (sl->src == SRC_OVERRIDE && (in == NULL ||
	    !vmi_same_value(in->v, sl->v))) {
		row->forced = true;
		row->note = forced_note(vm, f, sl);
	} else if (sl->src == SRC_MODEL)
		row->note = xstrdup(fit_fact_from_gpu(o->name) ?
		    "(from accelerator)" : "(from model)");
	else if (sl->src == SRC_DEFAULT)
		row->note = xstrdup("(default)");
	if (row->note == NULL && named_label(f, sl->v) != NULL)
		row->note = xasprintf("(%s)", named_label(f, sl->v));
	if (f->scope == SC_SHARED && vmi_is_pd(vm) && !row->forced &&
	    vm->have[SC_DECODE] && vm->have[SC_PREFILL] &&
	    !vmi_same_value(vm->res[SC_PREFILL].eff.s[f->key].v,
	    vm->res[SC_DECODE].eff.s[f->key].v)) {
		char	*dv = value_text(vm->res[SC_DECODE].eff.s[f->key].v);

		free(row->note);
		row->note = xasprintf("(prefill; decode: %s; Enter sets one "
		    "for both)", dv);
		free(dv);
	}
}

static void
build_row(struct vm *vm, struct vm_row *row)
{
	const struct slot	*sl = field_slot(vm, row->f);

	if (VM_IS_DKEY(row->f->key))
		build_dfield_row(vm, row);
	else if (sl != NULL)
		build_option_row(vm, row, sl);
	if (row->value == NULL)
		row->value = xstrdup("");
	if (row->note == NULL)
		row->note = xstrdup("");
	row_diags(vm, row);
	compute_choices(vm, row);
}

/* SGLang's group of a field's option (an index in the catalog's groups),
 * or -1. */
static int
row_group(const struct vm *vm, const struct vm_field *f)
{
	int	g;

	if (VM_IS_DKEY(f->key))
		return -1;
	g = vm->cat->opts[f->key].group;
	return g >= 0 && (size_t)g < vm->cat->ngroups ? g : -1;
}

void
vmi_build_rows(struct vm *vm)
{
	const struct vm_page	*p = &vm->pages[vm->page];
	size_t			 i;
	int			 group = -1;

	vmi_rows_clear(vm);
	if (p->review)
		return;
	if (vm->rowcap < p->nf) {
		vm->rowcap = p->nf;
		vm->rows = xreallocarray(vm->rows, vm->rowcap, sizeof *vm->rows);
	}
	for (i = 0; i < p->nf; i++) {
		struct vm_row	*row;
		int		 g;

		if (!vm->fvis[vm->page][i])
			continue;
		row = &vm->rows[vm->nrows++];
		memset(row, 0, sizeof *row);
		row->field = (int)i;
		row->f = &p->f[i];
		/* The All options pages go by SGLang's groups: a heading
		 * above the first row shown of each. */
		g = p->all ? row_group(vm, row->f) : -1;
		if (g >= 0)
			row->group = vm->cat->groups[g];
		if (g >= 0 && g != group) {
			row->heading = row->group;
			group = g;
		}
		build_row(vm, row);
		/* An ordinary page's rows are all shown at once; the All
		 * options page's hundreds wait for vm_rows_check. */
		if (!p->all)
			vmi_row_check(vm, row);
	}
	/* Keep the focus on a visible field. */
	for (i = 0; i < vm->nrows; i++)
		if (vm->rows[i].field == vm->field)
			break;
	if (i == vm->nrows && vm->nrows > 0) {
		for (i = 0; i < vm->nrows; i++)
			if (vm->rows[i].field > vm->field)
				break;
		if (i == vm->nrows)
			i = vm->nrows - 1;
		vm->field = vm->rows[i].field;
	}
	if (i < vm->nrows)
		vmi_row_check(vm, &vm->rows[i]);
}

void
vmi_rows_clear(struct vm *vm)
{
	size_t	i, j;

	for (i = 0; i < vm->nrows; i++) {
		struct vm_row	*row = &vm->rows[i];

		for (j = 0; j < row->nchoices; j++)
			free(row->choices[j].text);
		free(row->choices);
		free(row->value);
		free(row->note);
	}
	vm->nrows = 0;
}
