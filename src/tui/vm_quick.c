/*
 * vm_quick.c - the quick start: a new deployment from six answers (model,
 * accelerator, GPUs per node, number of nodes, transfer backend, shape
 * xPyD). The accelerator is the fact gpu (so the memory estimate runs),
 * GPUs per node the machine size of the layout and the exports. The rest
 * is derived: each instance gets an equal share of the GPUs (whole nodes
 * when there are at least as many nodes as instances, else an equal part
 * of one node), TP is that share, and the layout (src/deploy/layout.c)
 * places GPUs, ports, bootstrap and rendezvous ports and the router. The
 * result is one undoable change; the pages refine it.
 */
#include "tui/vm_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* The bounds the quick start and the GPU count fields accept. */
#define QUICK_MAX_GPUS		16
#define QUICK_MAX_NODES		4096
#define QUICK_MAX_INSTANCES	64

void
vm_quick_init(struct vm *vm, struct vm_quick *q)
{
	memset(q, 0, sizeof *q);
	q->model = xstrdup(vm->dep.model != NULL ? vm->dep.model :
	    "meta-llama/Llama-3.1-8B-Instruct");
	q->gpus_per_node = 8;
	q->nodes = 1;
	q->backend = xstrdup("mooncake");
	q->nprefill = q->ndecode = 1;
	q->gpu = vm_quick_accel_find(vm, "H100") >= 0 ?
	    xstrdup(vm_quick_accel(vm, (size_t)vm_quick_accel_find(vm,
	    "H100"))->value) : NULL;
}

void
vm_quick_free(struct vm_quick *q)
{
	free(q->model);
	free(q->backend);
	free(q->hosts);
	free(q->gpu);
	memset(q, 0, sizeof *q);
}

const char *
vm_quick_backend(const struct vm *vm, size_t i)
{
	int	o = catalog_find(vm->cat, "disaggregation_transfer_backend");

	if (o < 0 || i >= vm->cat->opts[o].nchoices)
		return NULL;
	return vm->cat->opts[o].choices[i];
}

/* The form's field of the fact gpu, or NULL. */
static const struct vm_field *
accel_field(const struct vm *vm)
{
	int	o = catalog_find(vm->cat, "gpu");
	size_t	p, i;

	if (o < 0)
		return NULL;
	for (p = 0; p < vm->npages; p++)
		for (i = 0; i < vm->pages[p].nf; i++)
			if (vm->pages[p].f[i].key == o &&
			    vm->pages[p].f[i].nnamed > 0)
				return &vm->pages[p].f[i];
	return NULL;
}

const struct vm_named *
vm_quick_accel(const struct vm *vm, size_t i)
{
	const struct vm_field	*f = accel_field(vm);

	return f != NULL && i < f->nnamed ? &f->named[i] : NULL;
}

bool
vm_typeahead_match(const char *text, const char *typed)
{
	const unsigned char	*a = (const unsigned char *)text;
	const unsigned char	*b = (const unsigned char *)typed;
	const unsigned char	*k;

	/* Punctuation alone ("?", "-") is no start of a name: it matched
	 * every one, so that ? chose the first accelerator. */
	for (k = b; *k != '\0' && !isalnum(*k); k++)
		;
	if (*k == '\0')
		return false;
	for (;;) {
		while (*b != '\0' && !isalnum(*b))
			b++;
		if (*b == '\0')
			return true;
		while (*a != '\0' && !isalnum(*a))
			a++;
		if (*a == '\0' || tolower(*a) != tolower(*b))
			return false;
		a++;
		b++;
	}
}

int
vm_quick_accel_find(const struct vm *vm, const char *typed)
{
	const struct vm_named	*n;
	size_t			 i;

	if (typed == NULL || typed[0] == '\0')
		return -1;
	for (i = 0; (n = vm_quick_accel(vm, i)) != NULL; i++)
		if (vm_typeahead_match(n->value, typed))
			return (int)i;
	for (i = 0; (n = vm_quick_accel(vm, i)) != NULL; i++) {
		const char	*a = n->aliases;

		while (a != NULL && *a != '\0') {
			size_t	 l = strcspn(a, "\n");
			char	*one = xstrndup(a, l);
			bool	 m = vm_typeahead_match(one, typed);

			free(one);
			if (m)
				return (int)i;
			a += l + (a[l] == '\n');
		}
	}
	return -1;
}

int
vm_quick_shape(const char *text, int *np, int *nd, char *err, size_t errlen)
{
	char	*end;
	long	 x, y;

	while (isspace((unsigned char)*text))
		text++;
	x = strtol(text, &end, 10);
	if (end == text || (*end != 'P' && *end != 'p'))
		goto bad;
	text = end + 1;
	y = strtol(text, &end, 10);
	if (end == text || (*end != 'D' && *end != 'd'))
		goto bad;
	for (end++; isspace((unsigned char)*end); end++)
		;
	if (*end != '\0')
		goto bad;
	if (x < 1 || y < 1 || x + y > QUICK_MAX_INSTANCES) {
		snprintf(err, errlen, "shape: from 1 to %d instances in all, "
		    "at least one prefill and one decode", QUICK_MAX_INSTANCES);
		return -1;
	}
	*np = (int)x;
	*nd = (int)y;
	return 0;
bad:
	snprintf(err, errlen, "shape: write it as xPyD, e.g. 1P1D or 2P4D "
	    "(x prefill and y decode instances)");
	return -1;
}

/* Split "a,b, c" into n hosts (malloc'd array of malloc'd strings). */
static char **
split_hosts(const char *text, size_t *n)
{
	char	**h = NULL;
	const char *p = text;

	*n = 0;
	while (p != NULL && *p != '\0') {
		const char	*c = strchr(p, ',');
		size_t		 len = c ? (size_t)(c - p) : strlen(p);

		while (len > 0 && isspace((unsigned char)*p)) {
			p++;
			len--;
		}
		while (len > 0 && isspace((unsigned char)p[len - 1]))
			len--;
		h = xreallocarray(h, *n + 1, sizeof *h);
		h[(*n)++] = xstrndup(p, len);
		p = c ? c + 1 : NULL;
	}
	return h;
}

static void
free_hosts(char **h, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(h[i]);
	free(h);
}

/* The hosts of the question, checked: one per node, none empty. */
static int
quick_hosts(const struct vm_quick *q, char ***h, size_t *n, char *err,
    size_t errlen)
{
	size_t	i;

	*h = NULL;
	*n = 0;
	if (q->nodes == 1)
		return 0;
	*h = split_hosts(q->hosts ? q->hosts : "", n);
	for (i = 0; i < *n; i++)
		if ((*h)[i][0] == '\0' || strchr((*h)[i], ' ') != NULL)
			break;
	if (*n != (size_t)q->nodes || i < *n) {
		snprintf(err, errlen, "hosts: %d comma-separated host names or "
		    "addresses, one per node (got %zu)", q->nodes, *n);
		free_hosts(*h, *n);
		*h = NULL;
		return -1;
	}
	return 0;
}

int
vm_quick_check(const struct vm *vm, const struct vm_quick *q, int *tp,
    int *nodes_per_instance, char *err, size_t errlen)
{
	int	ninst = q->nprefill + q->ndecode, per;
	size_t	i;

	if (q->model == NULL || q->model[0] == '\0') {
		snprintf(err, errlen, "model: a Hugging Face id or a local "
		    "model directory");
		return -1;
	}
	if (q->gpus_per_node < 1 || q->gpus_per_node > QUICK_MAX_GPUS) {
		snprintf(err, errlen, "GPUs per node: from 1 to %d",
		    QUICK_MAX_GPUS);
		return -1;
	}
	if (q->nodes < 1 || q->nodes > QUICK_MAX_NODES) {
		snprintf(err, errlen, "number of nodes: from 1 to %d",
		    QUICK_MAX_NODES);
		return -1;
	}
	for (i = 0; vm_quick_backend(vm, i) != NULL; i++)
		if (q->backend != NULL &&
		    strcmp(vm_quick_backend(vm, i), q->backend) == 0)
			break;
	if (vm_quick_backend(vm, i) == NULL) {
		snprintf(err, errlen, "transfer backend: one of the choices "
		    "(Left/Right)");
		return -1;
	}
	if (q->nodes >= ninst) {
		if (q->nodes % ninst != 0) {
			snprintf(err, errlen, "%d nodes do not split evenly "
			    "over %d instances: choose a shape whose instance "
			    "count divides the nodes", q->nodes, ninst);
			return -1;
		}
		*nodes_per_instance = q->nodes / ninst;
		*tp = q->gpus_per_node * *nodes_per_instance;
		return 0;
	}
	/* Several instances a node: as many as the fullest node holds, each
	 * the node's share of GPUs, or (when they do not share them evenly)
	 * the largest power-of-two TP that fits; GPUs left over stay idle
	 * (2P1D on 8 GPUs: TP 2, 6 of them used). */
	per = (ninst + q->nodes - 1) / q->nodes;
	if (per > q->gpus_per_node) {
		snprintf(err, errlen, "%d instances do not fit %d node%s of "
		    "%d GPUs (%d on a node, one GPU each at least): choose a "
		    "shape with fewer instances", ninst, q->nodes,
		    q->nodes == 1 ? "" : "s", q->gpus_per_node, per);
		return -1;
	}
	*nodes_per_instance = 1;
	if (q->gpus_per_node % per == 0) {
		*tp = q->gpus_per_node / per;
		return 0;
	}
	*tp = 1;
	while (*tp * 2 * per <= q->gpus_per_node)
		*tp *= 2;
	return 0;
}

/* The hosts of a role's instances, instance-major, as a cell's text. */
static char *
role_hosts(char **h, int first, int count, int npi, int per_node)
{
	struct buf	b = { 0 };
	int		i, k;

	for (i = first; i < first + count; i++)
		for (k = 0; k < npi; k++) {
			int	node = per_node > 1 ? i / per_node : i * npi + k;

			buf_printf(&b, "%s%s", b.len ? "," : "", h[node]);
		}
	return b.s;
}

/* The answers as one transaction t, applied (not committed): 0, or -1
 * with the reason in msg. */
static int
quick_txn(struct vm *vm, const struct vm_quick *q, struct vm_txn *t,
    int *tpp, int *npip, struct buf *msg)
{
	char		 err[256], *s, **h;
	size_t		 nh;
	int		 tp, npi, per, o;

	memset(t, 0, sizeof *t);
	if (vm_quick_check(vm, q, &tp, &npi, err, sizeof err) != 0 ||
	    quick_hosts(q, &h, &nh, err, sizeof err) != 0) {
		vmi_msg(msg, "%s", err);
		return -1;
	}
	*tpp = tp;
	*npip = npi;
	per = npi == 1 && q->nodes < q->nprefill + q->ndecode ?
	    (q->nprefill + q->ndecode) / q->nodes : 1;
	t->what = xstrdup("quick start");
	vmi_txn_set(vm, t, SC_DEPLOY, VM_DKEY(DF_PD), "true");
	vmi_txn_set(vm, t, SC_DEPLOY, vm->o_model, q->model);
	s = xasprintf("%d", q->gpus_per_node);
	vmi_txn_set(vm, t, SC_DEPLOY, VM_DKEY(DF_GPUS), s);
	free(s);
	s = xasprintf("%d", q->nprefill);
	vmi_txn_set(vm, t, SC_PREFILL, VM_DKEY(DF_INSTANCES), s);
	free(s);
	s = xasprintf("%d", q->ndecode);
	vmi_txn_set(vm, t, SC_DECODE, VM_DKEY(DF_INSTANCES), s);
	free(s);
	s = xasprintf("%d", npi);
	vmi_txn_set(vm, t, SC_PREFILL, VM_DKEY(DF_NODES), s);
	vmi_txn_set(vm, t, SC_DECODE, VM_DKEY(DF_NODES), s);
	free(s);
	if (nh > 0) {
		s = role_hosts(h, 0, q->nprefill, npi, per);
		vmi_txn_set(vm, t, SC_PREFILL, VM_DKEY(DF_HOSTS), s);
		free(s);
		s = role_hosts(h, q->nprefill, q->ndecode, npi, per);
		vmi_txn_set(vm, t, SC_DECODE, VM_DKEY(DF_HOSTS), s);
		free(s);
	}
	free_hosts(h, nh);
	if ((o = catalog_find(vm->cat, "tp_size")) >= 0) {
		s = vmi_text_for(vm, o, val_int(tp));
		vmi_txn_set(vm, t, SC_SHARED, o, s);
		free(s);
	}
	/* The machine size: the placement and the exports' hosts. */
	s = xasprintf("%d", q->gpus_per_node);
	vmi_txn_set(vm, t, SC_DEPLOY, VM_DKEY(DF_GPUS_PER_HOST), s);
	free(s);
	if (q->gpu != NULL && (o = catalog_find(vm->cat, "gpu")) >= 0)
		vmi_txn_set(vm, t, SC_DEPLOY, o, q->gpu);
	if ((o = catalog_find(vm->cat, "disaggregation_transfer_backend")) >=
	    0) {
		s = vmi_text_for(vm, o, val_str(q->backend));
		vmi_txn_set(vm, t, SC_SHARED, o, s);
		free(s);
	}
	return 0;
}

/*
 * What the answers would give, through the same checks as the pages: the
 * deployment made and checked, then taken back. The number of errors, and
 * the first one's message in *first (owned; NULL when none).
 */
size_t
vm_quick_trial(struct vm *vm, const struct vm_quick *q, char **first)
{
	struct vm_txn	 t;
	struct buf	 m = { 0 };
	size_t		 ne = 0, nw, no, sc, i;
	int		 tp, npi;

	*first = NULL;
	if (quick_txn(vm, q, &t, &tp, &npi, &m) != 0) {
		buf_free(&m);
		return 0;
	}
	buf_free(&m);
	vm_refresh(vm);
	vm_counts(vm, &ne, &nw, &no);
	for (sc = 0; sc < NSCOPE && *first == NULL; sc++)
		for (i = 0; vm->have[sc] && i < vm->res[sc].n; i++)
			if (vm->res[sc].d[i].sev == SEV_ERROR &&
			    vm->res[sc].d[i].msg != NULL) {
				*first = xstrdup(vm->res[sc].d[i].msg);
				break;
			}
	for (i = 0; *first == NULL && i < vm->cross.n; i++)
		if (vm->cross.d[i].sev == SEV_ERROR &&
		    vm->cross.d[i].msg != NULL)
			*first = xstrdup(vm->cross.d[i].msg);
	vmi_txn_abandon(vm, &t);
	return ne;
}

int
vm_quick_apply(struct vm *vm, const struct vm_quick *q, struct buf *msg)
{
	struct vm_txn	 t;
	size_t		 p;
	int		 tp, npi;

	if (quick_txn(vm, q, &t, &tp, &npi, msg) != 0)
		return -1;
	vmi_txn_commit(vm, &t);
	/* Land on the review. */
	for (p = 0; p < vm->npages; p++)
		if (vm->pages[p].review)
			vm_goto(vm, (int)p, 0);
	vmi_msg(msg, "quick start: %dP%dD of %s, TP %d on %d %s%s each%s; "
	    "the pages refine it (u undoes it)", q->nprefill, q->ndecode,
	    q->model, tp, tp, q->gpu != NULL ? q->gpu : "GPU",
	    tp == 1 || q->gpu != NULL ? "" : "s", npi > 1 ?
	    " over several nodes" : "");
	return 0;
}
