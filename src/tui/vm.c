/*
 * vm.c - the wizard's view-model (see vm.h): life cycle, pages and focus,
 * and the refresh that turns the deployment into per-role configs, rule
 * results and visibility. It holds no domain rules: what is allowed comes
 * from the engine (engine_run, engine_blocks), what a deployment is and how
 * it is written comes from src/deploy. The other vm_*.c files are listed in
 * vm_int.h.
 */
#include "tui/vm_int.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/expr.h"
#include "core/util.h"
#include "tui/vm_deploy.h"

void
vmi_msg(struct buf *msg, const char *fmt, ...)
{
	va_list	ap;
	int	n;
	char	*s;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	s = xmalloc((size_t)(n < 0 ? 0 : n) + 1);
	s[0] = '\0';
	va_start(ap, fmt);
	if (n >= 0)
		vsnprintf(s, (size_t)n + 1, fmt, ap);
	va_end(ap);
	msg->len = 0;
	buf_puts(msg, s);
	free(s);
}

struct vm *
vm_new(const struct catalog *cat)
{
	struct vm	*vm = xcalloc(1, sizeof *vm);

	vm->cat = cat;
	vm->fix_pick = -1;
	vm->all_first = -1;
	vm->o_model = catalog_find(cat, "model_path");
	vm->o_mode = catalog_find(cat, "disaggregation_mode");
	vmd_default(cat, &vm->dep, NULL);
	vm->dep_gen = 1;
	vmi_set_baseline(vm);
	return vm;
}

void
vmi_dep_changed(struct vm *vm)
{
	vm->dep_gen++;
}

static void
results_clear(struct vm *vm)
{
	size_t	i;

	for (i = 0; i < NSCOPE; i++) {
		if (vm->have[i]) {
			config_free(&vm->cfg[i]);
			result_free(&vm->res[i]);
		}
		vm->have[i] = false;
	}
	result_free(&vm->cross);
}

void
vm_free(struct vm *vm)
{
	size_t	i;

	if (vm == NULL)
		return;
	for (i = 0; i < vm->npages; i++)
		vmi_page_free(&vm->pages[i]);
	for (i = 0; i < vm->nvis; i++)
		free(vm->fvis[i]);
	free(vm->pages);
	free(vm->pvis);
	free(vm->fvis);
	vmi_rows_clear(vm);
	free(vm->rows);
	vmi_review_clear(vm);
	results_clear(vm);
	vmi_layout_clear(vm);
	vmi_txn_clear(&vm->undo);
	free(vm->undo.t);
	vmi_txn_clear(&vm->redo);
	free(vm->redo.t);
	vmd_free(&vm->dep);
	free(vm->path);
	free(vm->baseline);
	free(vm->load_note);
	free(vm->built_yaml);
	free(vm->pic);
	free(vm->src_name);
	free(vm->title);
	free(vm->suggest);
	vmi_fixmemo_clear(vm);
	free(vm->fix_id);
	free(vm);
}

/* ---- pages, focus ---- */

size_t
vm_npages(const struct vm *vm)
{
	return vm->npages;
}

const struct vm_page *
vm_page(const struct vm *vm, size_t i)
{
	return i < vm->npages ? &vm->pages[i] : NULL;
}

bool
vm_page_visible(const struct vm *vm, size_t i)
{
	return i < vm->npages && vm->pvis[i];
}

bool
vm_field_visible(const struct vm *vm, size_t p, size_t f)
{
	return p < vm->npages && f < vm->pages[p].nf && vm->fvis[p][f];
}

int
vm_cur_page(const struct vm *vm)
{
	return vm->page;
}

int
vm_cur_row(const struct vm *vm)
{
	size_t	i;

	if (vm->npages > 0 && vm->pages[vm->page].review)
		return vm->field;	/* index of the focused review item */

	for (i = 0; i < vm->nrows; i++)
		if (vm->rows[i].field == vm->field)
			return (int)i;
	return 0;
}

size_t
vm_rows(const struct vm *vm, const struct vm_row **out)
{
	*out = vm->rows;
	return vm->nrows;
}

const struct vm_row *
vm_focused(const struct vm *vm)
{
	if (vm->nrows == 0)
		return NULL;
	return &vm->rows[vm_cur_row(vm)];
}

void
vm_move(struct vm *vm, int delta)
{
	int	r, n;

	if (vm->pages[vm->page].review) {
		n = (int)vm->nreview;
		r = vm->field + delta;
		vm->field = n == 0 ? 0 : r < 0 ? 0 : r >= n ? n - 1 : r;
		return;
	}
	if (vm->nrows == 0)
		return;
	r = vm_cur_row(vm) + delta;
	n = (int)vm->nrows;
	r = r < 0 ? 0 : r >= n ? n - 1 : r;
	vm->field = vm->rows[r].field;
	/* The focused row's values are always checked (All options). */
	vmi_row_check(vm, &vm->rows[r]);
}

void
vm_page_step(struct vm *vm, int delta)
{
	int	p = vm->page, n = (int)vm->npages, i;

	/* Wrap around: Tab from the review page goes back to the start. */
	for (i = 0; i < n; i++) {
		p = (p + (delta > 0 ? 1 : n - 1)) % n;
		if (vm->pvis[p] && !vm->pages[p].all)
			break;
	}
	if (i == n || p == vm->page)
		return;
	vm->page = p;
	vm->field = 0;
	vm_refresh(vm);
	if (vm->nrows > 0)
		vm->field = vm->rows[0].field;
}

void
vm_goto(struct vm *vm, int page, int field)
{
	if (page < 0 || (size_t)page >= vm->npages)
		return;
	vm->page = page;
	vm->field = field < 0 ? 0 : field;
	vm_refresh(vm);
}

/* ---- model work ---- */

static void
build_configs(struct vm *vm)
{
	enum vm_scope	s;
	const struct config *eff[3] = { NULL, NULL, NULL };
	struct result	 rd;

	results_clear(vm);
	for (s = SC_PREFILL; s < NSCOPE; s++) {
		if (!vmi_scope_active(vm, s))
			continue;
		result_init(&rd);
		vmd_role_config_in(vm->cat, &vm->dep, vm->have_lay ?
		    &vm->lay : NULL, vmi_scope_role(s), &vm->cfg[s], &rd);
		result_init(&vm->res[s]);
		if (s != SC_ROUTER)
			engine_run(vm->cat, &vm->cfg[s], &vm->res[s]);
		else
			config_copy(&vm->res[s].eff, &vm->cfg[s]);
		/* What reading the role's command reports (argparse's
		 * errors, an empty --model-path), as check of the file does. */
		result_take(&vm->res[s], &rd, 0);
		result_free(&rd);
		vm->have[s] = true;
	}
	result_init(&vm->cross);
	if (vmi_is_pd(vm)) {
		eff[0] = &vm->res[SC_PREFILL].eff;
		eff[1] = &vm->res[SC_DECODE].eff;
		eff[2] = &vm->res[SC_ROUTER].eff;
		vmd_check_cross_in(vm->cat, &vm->dep, vm->have_lay ?
		    &vm->lay : NULL, eff, &vm->cross);
	}
}

static bool
eval_visible(const struct vm *vm, const struct expr *e, enum vm_scope s)
{
	const struct config	*cfgs[1];
	struct evalctx		 ec = { 0 };
	enum vm_scope		 v = vmi_scope_view(vm, s);
	struct value		 r;

	if (e == NULL)
		return true;
	if (!vm->have[v])
		return true;
	cfgs[0] = &vm->res[v].eff;
	ec.cfgs = cfgs;
	ec.nopts = vm->cat->nopts;
	ec.unknown_slot = -1;
	r = expr_eval(e, &ec);
	return r.t == V_UNKNOWN ? false : val_truthy(r);
}

static void
compute_visibility(struct vm *vm)
{
	size_t	i, j;

	for (i = 0; i < vm->npages; i++) {
		const struct vm_page	*p = &vm->pages[i];

		vm->pvis[i] = vmi_scope_active(vm, p->role) &&
		    eval_visible(vm, p->visible, p->role == SC_SHARED ?
		    SC_SHARED : p->role);
		for (j = 0; j < p->nf; j++)
			vm->fvis[i][j] = eval_visible(vm, p->f[j].visible,
			    p->f[j].scope);
	}
}

/* Everything the results are built from, as text: the cells and the
 * file (PDWIZ_VM_VERIFY's check of the generation; malloc'd). */
static char *
dep_text(struct vm *vm)
{
	char	*cells = vmi_dump_state(vm);
	char	*y = deployment_to_yaml(vm->cat, &vm->dep);
	char	*t = xasprintf("%s\n--\n%s", cells, y != NULL ? y : "");

	free(cells);
	free(y);
	return t;
}

/*
 * The results of an unchanged generation are reused. With PDWIZ_VM_VERIFY
 * set in the environment (the tests), a reuse first checks that the
 * deployment still reads as it did when they were built, and aborts when
 * it does not: a write to dep that did not call vmi_dep_changed.
 */
static void
build_results(struct vm *vm)
{
	static int	verify = -1;

	if (verify < 0)
		verify = getenv("PDWIZ_VM_VERIFY") != NULL &&
		    *getenv("PDWIZ_VM_VERIFY") != '\0';
	if (vm->built_gen == vm->dep_gen) {
		if (verify) {
			char	*now = dep_text(vm);

			if (vm->built_yaml != NULL &&
			    strcmp(now, vm->built_yaml) != 0) {
				fprintf(stderr, "pdwiz: the deployment "
				    "changed without vmi_dep_changed:\n"
				    "built from:\n%s\nnow:\n%s\n",
				    vm->built_yaml, now);
				abort();
			}
			free(now);
		}
		return;
	}
	vmi_refresh_layout(vm);
	build_configs(vm);
	vm->built_gen = vm->dep_gen;
	if (verify) {
		free(vm->built_yaml);
		vm->built_yaml = dep_text(vm);
	}
}

/*
 * One keystroke's model work. The layout, the role configs, every rule
 * and the cross-role checks depend on the deployment alone: they are
 * rebuilt when its generation moved on (any write, vmi_dep_changed), and
 * a keystroke that only moved the focus or the page costs its rows.
 */
void
vm_refresh(struct vm *vm)
{
	build_results(vm);
	if (vm->npages == 0)
		return;
	compute_visibility(vm);
	if (!vm->pvis[vm->page]) {
		size_t	i;

		for (i = 0; i < vm->npages; i++)
			if (vm->pvis[i])
				break;
		/* Move to the nearest shown page. */
		if (i < vm->npages) {
			size_t	j, best = i;

			for (j = 0; j < vm->npages; j++)
				if (vm->pvis[j] && (int)j <= vm->page)
					best = j;
			vm->page = (int)best;
		}
	}
	vmi_build_rows(vm);
	if (vm->pages[vm->page].review)
		vmi_refresh_review(vm);
}

void
vm_counts(const struct vm *vm, size_t *errors, size_t *warnings,
    size_t *overrides)
{
	size_t	s;

	*errors = vm->cross.nerrors;
	*warnings = vm->cross.nwarnings;
	*overrides = vm->cross.noverrides;
	/* A file that did not load counts: what is shown is not the file. */
	if (vm_load_failed(vm))
		(*errors)++;
	for (s = SC_PREFILL; s < NSCOPE; s++) {
		if (!vm->have[s])
			continue;
		*errors += vm->res[s].nerrors;
		*warnings += vm->res[s].nwarnings;
		*overrides += vm->res[s].noverrides;
	}
	/* The import's own remarks are notes (the review lists them so):
	 * pdwiz check of the saved file does not see them, and what a gap
	 * leaves unknown counts as not checked (vm_unchecked). */
}

size_t
vm_unchecked(const struct vm *vm)
{
	size_t	s, n = vm->cross.nunknown;

	for (s = SC_PREFILL; s < NSCOPE; s++)
		if (vm->have[s])
			n += vm->res[s].nunknown;
	return n;
}

