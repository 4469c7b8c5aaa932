/*
 * vm_origin.c - where a value came from, in words for the help: SGLang's
 * default, the model's facts, a value the operator set, the layout's
 * derived value, the file the deployment was opened or imported from, or
 * an override rule (and the role it fires for). Built from the engine's
 * provenance (struct slot: src and rule) and the deployment's cells.
 */
#include "tui/vm_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/expr.h"
#include "core/util.h"

/* Options the layout writes for every server, and the deployment field
 * that holds a value the operator set for them instead. */
static const struct {
	const char	*name;
	int		 df;
} layout_opts[] = {
	{ "port", DF_PORT },
	{ "host", DF_BIND },
	{ "base_gpu_id", DF_BASE_GPU },
	{ "disaggregation_bootstrap_port", DF_BOOTSTRAP },
	{ "dist_init_addr", DF_DIST_PORT },
	{ "nnodes", DF_NODES },
	{ "node_rank", -1 },
};

void
vm_note_source(struct vm *vm, const char *path, bool imported)
{
	const char	*base;

	free(vm->src_name);
	vm->src_name = NULL;
	if (path == NULL)
		return;
	base = strrchr(path, '/');
	vm->src_name = xstrdup(base != NULL ? base + 1 : path);
	vm->src_imported = imported;
}

/* The cell of opt in scope s, or in the shared scope; which one in *where
 * (malloc'd text, NULL when neither is set). */
static char *
cell_of(struct vm *vm, enum vm_scope s, int opt, enum vm_scope *where)
{
	char	*t;

	*where = s;
	if (s != SC_SHARED && (t = vmi_cell_get(vm, s, opt)) != NULL)
		return t;
	*where = SC_SHARED;
	return vmi_cell_get(vm, SC_SHARED, opt);
}

/* The cell's text in another deployment (read only). */
static char *
cell_in(struct vm *vm, const struct deployment *d, enum vm_scope s, int key)
{
	struct vm	tmp = *vm;

	tmp.dep = *d;
	return vmi_cell_get(&tmp, s, key);
}

static bool
same_text(const char *a, const char *b)
{
	return (a == NULL && b == NULL) ||
	    (a != NULL && b != NULL && strcmp(a, b) == 0);
}

/* Did an intent on the undo stack change this cell? */
static bool
touched(struct vm *vm, enum vm_scope s, int key)
{
	size_t	i, j;

	for (i = 0; i < vm->undo.n; i++) {
		const struct vm_txn	*t = &vm->undo.t[i];

		for (j = 0; j < t->n; j++) {
			const struct vm_op	*op = &t->ops[j];
			char			*a, *b;
			bool			 diff;

			if (op->dold == NULL) {
				if (op->keyed && op->key == key &&
				    (op->scope == s || key == vm->o_model))
					return true;
				continue;
			}
			a = cell_in(vm, op->dold, s, key);
			b = cell_in(vm, op->dnew, s, key);
			diff = !same_text(a, b);
			free(a);
			free(b);
			if (diff)
				return true;
		}
	}
	return false;
}

/* A value in the deployment: set by the operator, from the loaded file,
 * or preset by the wizard. */
static char *
cell_origin(struct vm *vm, enum vm_scope s, int key)
{
	if (touched(vm, s, key))
		return xstrdup("set by you");
	if (vm->src_name != NULL)
		return xasprintf("%s %s", vm->src_imported ? "imported from" :
		    "from", vm->src_name);
	return xstrdup("preset by the wizard");
}

/* Does rule r read disaggregation_mode (it fires for a role)? */
static bool
reads_mode(const struct vm *vm, const struct rule *r)
{
	size_t	i;

	for (i = 0; i < r->nreads; i++)
		if (slot_opt(vm->cat->nopts, r->reads[i]) == vm->o_mode)
			return true;
	return false;
}

static char *
override_origin(struct vm *vm, enum vm_scope s, const struct slot *sl,
    const struct config *eff)
{
	const struct rule	*r;
	struct buf		 b = { 0 }, m = { 0 };
	struct evalctx		 ec = { 0 };
	const struct config	*cfgs[1];

	if (sl->rule < 0 || (size_t)sl->rule >= vm->cat->nrules)
		return xstrdup("forced by a rule");
	r = &vm->cat->rules[sl->rule];
	cfgs[0] = eff;
	ec.cfgs = cfgs;
	ec.nopts = vm->cat->nopts;
	ec.unknown_slot = -1;
	tmpl_render(r->message, &ec, &m);
	if (reads_mode(vm, r) && (s == SC_PREFILL || s == SC_DECODE))
		buf_printf(&b, "forced by the %s role (rule %s", vmi_scope_names[s],
		    r->id);
	else
		buf_printf(&b, "forced by rule %s (", r->id);
	if (m.s != NULL)
		buf_printf(&b, "%s%s", reads_mode(vm, r) &&
		    (s == SC_PREFILL || s == SC_DECODE) ? ": " : "", m.s);
	buf_puts(&b, ")");
	buf_free(&m);
	return buf_steal(&b);
}

/* A layout option: derived unless its deployment field is set. */
static char *
layout_origin(struct vm *vm, enum vm_scope s, int df)
{
	char	*t;

	if (df < 0)
		return xstrdup("derived (layout)");
	t = vmi_cell_get(vm, s, VM_DKEY(df));
	if (df == DF_NODES || t == NULL) {
		free(t);
		return xstrdup("derived (layout)");
	}
	free(t);
	return cell_origin(vm, s, VM_DKEY(df));
}

char *
vmi_origin_in(struct vm *vm, enum vm_scope s, int opt,
    const struct config *cin, const struct config *eff)
{
	const struct slot	*sl, *in;
	enum vm_scope		 where;
	char			*t;
	size_t			 i;

	if (opt < 0 || (size_t)opt >= vm->cat->nopts)
		return xstrdup("unknown");
	sl = &eff->s[opt];
	in = &cin->s[opt];
	if (sl->src == SRC_OVERRIDE && !vmi_same_value(in->v, sl->v))
		return override_origin(vm, s, sl, eff);
	if (in->src == SRC_DEFAULT)
		return xstrdup("default");
	if (in->src == SRC_MODEL)
		return xstrdup("from the model's facts");
	if (opt == vm->o_mode)
		return xasprintf("the %s role", vmi_scope_names[s]);
	for (i = 0; i < sizeof layout_opts / sizeof layout_opts[0]; i++)
		if (strcmp(vm->cat->opts[opt].name, layout_opts[i].name) == 0)
			return layout_origin(vm, s, layout_opts[i].df);
	if (opt == vm->o_model)
		return cell_origin(vm, SC_DEPLOY, opt);
	if ((t = cell_of(vm, s, opt, &where)) == NULL)
		return xstrdup("set by the deployment");
	free(t);
	return cell_origin(vm, where, opt);
}

char *
vm_origin(struct vm *vm, enum vm_scope s, int opt)
{
	if (s < 0 || s >= NSCOPE || !vm->have[s])
		return xstrdup("unknown");
	return vmi_origin_in(vm, s, opt, &vm->cfg[s], &vm->res[s].eff);
}

char *
vmi_dfield_origin(struct vm *vm, enum vm_scope s, int key, bool derived)
{
	char	*t;

	if (derived)
		return xstrdup("derived (layout)");
	if ((t = vmi_cell_get(vm, s, key)) == NULL)
		return xstrdup("default");
	free(t);
	return cell_origin(vm, s, key);
}
