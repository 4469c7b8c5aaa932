/*
 * vm_review.c - the review page: every diagnostic by role then severity,
 * each with the field Enter jumps to.
 */
#include "tui/vm_int.h"

#include <stdlib.h>
#include <string.h>

#include "core/expr.h"
#include "core/util.h"

static int
find_field_for(const struct vm *vm, int opt, enum vm_scope role, int *field)
{
	size_t	i, j;
	int	best = -1, bestf = -1, rank = 0;

	/* Not the All options pages: a problem goes to a page's field, or
	 * opens its text when no page has one (as before that page). */
	for (i = 0; i < vm->npages; i++) {
		if (!vm->pvis[i] || vm->pages[i].all)
			continue;
		for (j = 0; j < vm->pages[i].nf; j++) {
			const struct vm_field	*f = &vm->pages[i].f[j];
			int			 r;

			if (f->key != opt)
				continue;
			r = f->scope == role ? 3 : f->scope == SC_SHARED ? 2 : 1;
			if (r > rank) {
				rank = r;
				best = (int)i;
				bestf = (int)j;
			}
		}
	}
	*field = bestf;
	return best;
}

/*
 * The layout field a deployment rule is about (a deployment field key), or
 * 0 when none: Enter on such a problem goes to the GPUs or ports of the
 * role it is attributed to.
 */
int
vmi_layout_key(const char *id)
{
	static const struct {
		const char	*id;
		int		 df;
	} map[] = {
		{ "xs-gpu-collision", DF_BASE_GPU },
		{ "xs-gpu-overflow", DF_BASE_GPU },
		{ "xs-port-collision", DF_PORT },
		{ "xs-dist-init-addr", DF_DIST_PORT },
		{ "xs-router-bootstrap-port", DF_ROUTER_URLS },
		{ "xs-router-missing", DF_ROUTER_URLS },
		{ "xs-router-unknown", DF_ROUTER_URLS },
		{ "xs-router-local-url", DF_HOSTS },
	};
	size_t	i;

	for (i = 0; id != NULL && i < sizeof map / sizeof map[0]; i++)
		if (strcmp(id, map[i].id) == 0)
			return VM_DKEY(map[i].df);
	return 0;
}

struct slotlist {
	int	s[32];
	size_t	n;
};

static void
slot_collect(void *arg, int slot)
{
	struct slotlist	*sl = arg;

	if (sl->n < 32)
		sl->s[sl->n++] = slot;
}

static void
review_add(struct vm *vm, enum vm_scope role, const struct diag *d)
{
	struct vm_review_item	*it;
	size_t			 i;
	int			 opt = vmi_diag_opt(vm, d) < 0 ? -1 :
	    slot_opt(vm->cat->nopts, vmi_diag_opt(vm, d));

	for (i = 0; i < vm->nreview; i++)
		if (vm->review[i].role == role && vm->review[i].id == d->id &&
		    strcmp(vm->review[i].msg, d->msg) == 0)
			return;
	vm->review = xreallocarray(vm->review, vm->nreview + 1,
	    sizeof *vm->review);
	it = &vm->review[vm->nreview++];
	it->role = role;
	it->sev = d->sev;
	it->id = d->id;
	it->msg = xstrdup(d->msg);
	it->page = opt < 0 ? -1 : find_field_for(vm, opt, role, &it->field);
	if (role == SC_DEPLOY && vmi_layout_key(d->id) != 0) {
		int		 key = vmi_layout_key(d->id);
		enum vm_scope	 rs = d->cmd >= 0 && d->cmd < NPD_ROLE ?
		    vmi_role_scope((enum role)d->cmd) : SC_PREFILL;

		if (key == VM_DKEY(DF_HOSTS) || key == VM_DKEY(DF_ROUTER_URLS))
			rs = SC_ROUTER;
		it->page = find_field_for(vm, key, rs, &it->field);
	}
	if (it->page < 0 && d->rule != NULL) {
		/* No field for the option it points at: try what it reads. */
		struct slotlist	sl = { { 0 }, 0 };
		size_t		k;

		expr_slots(d->rule->when, slot_collect, &sl);
		for (k = 0; k < sl.n && it->page < 0; k++)
			it->page = find_field_for(vm, slot_opt(vm->cat->nopts,
			    sl.s[k]), role, &it->field);
	}
	if (it->page < 0)
		it->field = -1;
}

static void
review_load_note(struct vm *vm)
{
	const char	*p = vm->load_note;

	while (p != NULL && *p != '\0') {
		const char		*nl = strchr(p, '\n');
		size_t			 len = nl ? (size_t)(nl - p) : strlen(p);
		struct vm_review_item	*it;

		vm->review = xreallocarray(vm->review, vm->nreview + 1,
		    sizeof *vm->review);
		it = &vm->review[vm->nreview++];
		it->role = SC_DEPLOY;
		it->sev = vm->load_sev;
		it->id = "load";
		it->msg = xstrndup(p, len);
		it->page = it->field = -1;
		/* What an import says about the script is a note, as pdwiz
		 * check of the saved file (which does not see it) counts: the
		 * header, the review and the check agree. A gap (missing.ROLE:
		 * the machine or a port left to run time) is no problem of its
		 * own either: the checks that need it are not checked (and
		 * listed so); its note goes to the role's hosts. */
		if (vm->load_sev == SEV_WARNING)
			it->sev = SEV_NOTE;
		if (vm->load_sev == SEV_WARNING && strstr(it->msg,
		    "(missing.") != NULL) {
			enum vm_scope	rs = strstr(it->msg, "(missing.decode)") ?
			    SC_DECODE : strstr(it->msg, "(missing.router)") ?
			    SC_ROUTER : SC_PREFILL;

			it->sev = SEV_NOTE;
			it->id = "load-missing";
			it->page = find_field_for(vm, VM_DKEY(DF_HOSTS), rs,
			    &it->field);
			if (it->page < 0)
				it->field = -1;
		}
		p = nl ? nl + 1 : NULL;
	}
}

void
vmi_refresh_review(struct vm *vm)
{
	struct vm_review_item	*tmp;
	enum vm_scope		 s;
	size_t			 i;

	vmi_review_clear(vm);
	review_load_note(vm);
	for (s = SC_PREFILL; s < NSCOPE; s++) {
		if (!vm->have[s])
			continue;
		for (i = 0; i < vm->res[s].n; i++)
			review_add(vm, s, &vm->res[s].d[i]);
	}
	for (i = 0; i < vm->cross.n; i++)
		review_add(vm, SC_DEPLOY, &vm->cross.d[i]);
	/* Stable sort by severity, then role (insertion order kept): every
	 * error first, the deployment's cross-role ones included. */
	if (vm->nreview > 1) {
		size_t	j, k;

		tmp = xcalloc(vm->nreview, sizeof *tmp);
		k = 0;
		for (j = SEV_ERROR; j <= SEV_NOTE; j++)
			for (s = 0; s < NSCOPE; s++)
				for (i = 0; i < vm->nreview; i++)
					if (vm->review[i].role == s &&
					    vm->review[i].sev == j)
						tmp[k++] = vm->review[i];
		memcpy(vm->review, tmp, k * sizeof *tmp);
		free(tmp);
	}
}

size_t
vm_review(struct vm *vm, const struct vm_review_item **out)
{
	*out = vm->review;
	return vm->nreview;
}

void
vmi_review_clear(struct vm *vm)
{
	size_t	i;

	for (i = 0; i < vm->nreview; i++)
		free(vm->review[i].msg);
	free(vm->review);
	vm->review = NULL;
	vm->nreview = 0;
}

/* The diagnostic a review item lists, and its role's configs. */
const struct diag *
vmi_review_diag(struct vm *vm, const struct vm_review_item *it)
{
	const struct result	*res;
	size_t			 i;

	if (it->role == SC_DEPLOY)
		res = &vm->cross;
	else if (it->role < NSCOPE && vm->have[it->role])
		res = &vm->res[it->role];
	else
		return NULL;
	for (i = 0; i < res->n; i++)
		if (res->d[i].id == it->id && strcmp(res->d[i].msg,
		    it->msg) == 0)
			return &res->d[i];
	return NULL;
}

char *
vm_review_text(struct vm *vm, size_t i)
{
	const struct vm_review_item	*it;
	const struct diag		*d;
	struct buf			 b = { 0 };

	if (i >= vm->nreview)
		return xstrdup("");
	it = &vm->review[i];
	buf_printf(&b, "%s on %s\n\n", severity_name(it->sev),
	    it->role == SC_DEPLOY ? "the deployment (across roles)" :
	    vmi_scope_names[it->role]);
	d = vmi_review_diag(vm, it);
	if (d == NULL)
		buf_printf(&b, "    %s\n", it->msg);
	if (strcmp(it->id, "load-missing") == 0)
		buf_puts(&b, "\n    The checks that need this machine or port "
		    "are not run: they count as not checked (in the header, "
		    "and in pdwiz check of the saved file).\n"
		    "    To resolve it: set the role's hosts to the machine's "
		    "address (Enter goes there), or give the server --host "
		    "ADDR (or PDWIZ_NODE_HOST=ADDR before the command) and its "
		    "ports in the script, and import it again.\n");
	else if (it->role == SC_DEPLOY)
		vmi_help_diag(vm, &b, SC_DEPLOY, d, NULL, NULL, -1, -1);
	else if (d != NULL && d->rule != NULL && vm->have[it->role])
		/* Its fixes verified, as on the field's help (the review's
		 * diagnostics are not: every fix of the rule was listed). */
		vmi_help_role_diag(vm, &b, it->role, d, -1);
	else
		vmi_help_diag(vm, &b, it->role, d, &vm->cfg[it->role],
		    &vm->res[it->role].eff, -1, -1);
	if (d != NULL && d->hint != NULL)
		buf_printf(&b, "    hint: %s\n", d->hint);
	if (it->page >= 0 && it->field >= 0 &&
	    (size_t)it->field < vm->pages[it->page].nf)
		buf_printf(&b, "\nEnter goes to: %s [%s]\n",
		    vm->pages[it->page].f[it->field].label,
		    vm->pages[it->page].title);
	else
		buf_puts(&b, "\nNo field of the wizard sets this directly.\n");
	return buf_steal(&b);
}
