/*
 * vm_cells.c - form fields bound to deployment cells: which roles a scope
 * reaches, the text of a cell (scope, key) and how setting it changes the
 * deployment; the canonical dump behind dirty tracking and the change list.
 */
#include "tui/vm_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

const char *const vmi_scope_names[NSCOPE] = {
	"deployment", "shared", "prefill", "decode", "router", "server"
};

const char *const vmi_df_names[NDF] = {
	"pd", "instances", "nodes_per_instance", "gpus_per_node", "hosts",
	"port", "policy", "name", "base_gpu_id", "bootstrap_port",
	"dist_init_port", "bind_host", "gpus_per_host", "router_urls",
	"same_parallel"
};

/* The options "same as prefill" compares and copies. */
const char *const vmi_par_opts[] = {
	"tp_size", "dp_size", "enable_dp_attention", "pp_size", "ep_size",
	"moe_a2a_backend", "deepep_mode", "dcp_size", NULL
};

/* Does the decode run with the prefill's parallelism (the options of
 * vmi_par_opts, each as the role states it or the shared value)? */
static bool
same_parallel(const struct vm *vm)
{
	const struct deployment	*d = &vm->dep;
	size_t			 i;

	for (i = 0; vmi_par_opts[i] != NULL; i++) {
		const char	*p = deployment_get(vm->cat, d, ROLE_PREFILL,
		    vmi_par_opts[i]);
		const char	*q = deployment_get(vm->cat, d, ROLE_DECODE,
		    vmi_par_opts[i]);

		if ((p == NULL) != (q == NULL) || (p != NULL &&
		    strcmp(p, q) != 0))
			return false;
	}
	return true;
}

/* Is a deployment field one per role (else one for the deployment)? */
bool
vmi_df_per_role(int df)
{
	switch (df) {
	case DF_PD:
	case DF_POLICY:
	case DF_NAME:
	case DF_GPUS_PER_HOST:
	case DF_ROUTER_URLS:
	case DF_SAME_PAR:
		return false;
	default:
		return true;
	}
}

const char *
vm_scope_name(enum vm_scope s)
{
	return s < NSCOPE ? vmi_scope_names[s] : "?";
}

/* ---- scopes and roles ---- */

bool
vmi_is_pd(const struct vm *vm)
{
	return !vm->dep.role[ROLE_SINGLE].enabled;
}

enum vm_scope
vmi_role_scope(enum role r)
{
	switch (r) {
	case ROLE_PREFILL:
		return SC_PREFILL;
	case ROLE_DECODE:
		return SC_DECODE;
	case ROLE_ROUTER:
		return SC_ROUTER;
	default:
		return SC_SINGLE;
	}
}

enum role
vmi_scope_role(enum vm_scope s)
{
	switch (s) {
	case SC_PREFILL:
		return ROLE_PREFILL;
	case SC_DECODE:
		return ROLE_DECODE;
	case SC_ROUTER:
		return ROLE_ROUTER;
	case SC_SINGLE:
		return ROLE_SINGLE;
	default:
		return NROLE;
	}
}

bool
vmi_scope_active(const struct vm *vm, enum vm_scope s)
{
	switch (s) {
	case SC_PREFILL:
	case SC_DECODE:
	case SC_ROUTER:
		return vmi_is_pd(vm);
	case SC_SINGLE:
		return !vmi_is_pd(vm);
	default:
		return true;
	}
}

/* The server roles a cell of scope s reaches. */
size_t
vmi_scope_servers(const struct vm *vm, enum vm_scope s, enum vm_scope out[2])
{
	switch (s) {
	case SC_PREFILL:
	case SC_DECODE:
	case SC_SINGLE:
		out[0] = s;
		return vmi_scope_active(vm, s) ? 1 : 0;
	case SC_ROUTER:
		return 0;
	default:
		if (vmi_is_pd(vm)) {
			out[0] = SC_PREFILL;
			out[1] = SC_DECODE;
			return 2;
		}
		out[0] = SC_SINGLE;
		return 1;
	}
}

/* The config a field of scope s is displayed from. */
enum vm_scope
vmi_scope_view(const struct vm *vm, enum vm_scope s)
{
	enum vm_scope	r[2];

	if (vmi_scope_servers(vm, s, r) > 0)
		return r[0];
	return vmi_is_pd(vm) ? SC_PREFILL : SC_SINGLE;
}

/* ---- deployment cells: (scope, key) <-> text ---- */

static struct kv **
cell_list(struct vm *vm, enum vm_scope s, int opt, size_t **np)
{
	const struct option	*o = &vm->cat->opts[opt];
	struct deployment	*d = &vm->dep;
	bool			 env = o->kind == OK_ENV;
	enum role		 r;

	if (o->kind == OK_FACT) {
		*np = &d->nfacts;
		return &d->facts;
	}
	if (s == SC_SHARED || s == SC_DEPLOY) {
		*np = env ? &d->nshared_env : &d->nshared;
		return env ? &d->shared_env : &d->shared;
	}
	r = vmi_scope_role(s);
	*np = env ? &d->role[r].nenv : &d->role[r].nopts;
	return env ? &d->role[r].env : &d->role[r].opts;
}

static struct kv *
kv_find(struct kv *l, size_t n, const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(l[i].name, name) == 0)
			return &l[i];
	return NULL;
}

static void
kv_put(struct kv **l, size_t *n, const char *name, const char *value)
{
	struct kv	*k = kv_find(*l, *n, name);
	size_t		 i;

	if (value == NULL) {
		if (k == NULL)
			return;
		i = (size_t)(k - *l);
		free(k->name);
		free(k->value);
		memmove(&(*l)[i], &(*l)[i + 1], (*n - i - 1) * sizeof **l);
		(*n)--;
		return;
	}
	if (k == NULL) {
		*l = xreallocarray(*l, *n + 1, sizeof **l);
		k = &(*l)[(*n)++];
		memset(k, 0, sizeof *k);
		k->name = xstrdup(name);
	} else
		free(k->value);
	k->value = xstrdup(value);
}

static char *
int_text(int i, int unset)
{
	return i == unset ? NULL : xasprintf("%d", i);
}

static char *
hosts_text(const struct role_spec *rs)
{
	struct buf	b = { 0 };
	size_t		i;

	for (i = 0; i < rs->nhosts; i++) {
		if (i > 0)
			buf_putc(&b, ',');
		buf_puts(&b, rs->hosts[i]);
	}
	return b.s;
}

/* Current text of a cell (malloc'd), NULL when unset. */
char *
vmi_cell_get(struct vm *vm, enum vm_scope s, int key)
{
	struct deployment	*d = &vm->dep;
	enum role		 r = vmi_scope_role(s);
	struct kv		**l, *k;
	size_t			*np;

	if (!VM_IS_DKEY(key)) {
		if (key == vm->o_model)
			return d->model ? xstrdup(d->model) : NULL;
		l = cell_list(vm, s, key, &np);
		k = kv_find(*l, *np, vm->cat->opts[key].name);
		if (k == NULL)
			return NULL;
		return xstrdup(k->value ? k->value : "true");
	}
	if (r == NROLE)
		r = vmi_is_pd(vm) ? ROLE_PREFILL : ROLE_SINGLE;
	switch (VM_DF(key)) {
	case DF_PD:
		return xstrdup(vmi_is_pd(vm) ? "true" : "false");
	case DF_INSTANCES:
		return int_text(d->role[r].instances, 0);
	case DF_NODES:
		return int_text(d->role[r].nodes_per_instance, 0);
	case DF_GPUS:
		return int_text(d->role[r].gpus_per_node, 0);
	case DF_HOSTS:
		return hosts_text(&d->role[r]);
	case DF_PORT:
		return int_text(d->role[r].port, -1);
	case DF_POLICY:
		return d->role[ROLE_ROUTER].policy ?
		    xstrdup(d->role[ROLE_ROUTER].policy) : NULL;
	case DF_NAME:
		return d->name ? xstrdup(d->name) : NULL;
	case DF_BASE_GPU:
		return int_text(d->role[r].base_gpu_id, -1);
	case DF_BOOTSTRAP:
		return int_text(d->role[r].bootstrap_port, -1);
	case DF_DIST_PORT:
		return int_text(d->role[r].dist_init_port, -1);
	case DF_BIND:
		return d->role[r].bind_host ? xstrdup(d->role[r].bind_host) :
		    NULL;
	case DF_ROUTER_URLS:
		return vmi_urls_text(d->role[ROLE_ROUTER].prefill_urls,
		    d->role[ROLE_ROUTER].nprefill_urls,
		    d->role[ROLE_ROUTER].decode_urls,
		    d->role[ROLE_ROUTER].ndecode_urls);
	case DF_SAME_PAR:
		return xstrdup(same_parallel(vm) ? "true" : "false");
	case DF_GPUS_PER_HOST:
		/* -1: a script's, not known; 0: not stated. */
		return d->gpus_per_host < 0 ? xstrdup("unknown") :
		    int_text(d->gpus_per_host, 0);
	}
	return NULL;
}

static void
set_hosts(struct role_spec *rs, const char *text)
{
	size_t		i;
	const char	*p = text, *q;

	for (i = 0; i < rs->nhosts; i++)
		free(rs->hosts[i]);
	free(rs->hosts);
	rs->hosts = NULL;
	rs->nhosts = 0;
	while (p != NULL && *p != '\0') {
		while (*p == ' ' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		for (q = p; *q != '\0' && *q != ',' && *q != ' '; q++)
			;
		rs->hosts = xreallocarray(rs->hosts, rs->nhosts + 1,
		    sizeof *rs->hosts);
		rs->hosts[rs->nhosts++] = xstrndup(p, (size_t)(q - p));
		p = q;
	}
}

static void
set_int(int *dst, const char *text, int unset)
{
	*dst = text == NULL ? unset : atoi(text);
}

static void
set_str(char **dst, const char *text)
{
	free(*dst);
	*dst = text ? xstrdup(text) : NULL;
}

static void
set_pd(struct deployment *d, bool pd)
{
	d->role[ROLE_PREFILL].enabled = pd;
	d->role[ROLE_DECODE].enabled = pd;
	d->role[ROLE_ROUTER].enabled = pd;
	d->role[ROLE_SINGLE].enabled = !pd;
	if (!pd && d->role[ROLE_SINGLE].instances == 0) {
		d->role[ROLE_SINGLE].instances = 1;
		d->role[ROLE_SINGLE].nodes_per_instance = 1;
		d->role[ROLE_SINGLE].gpus_per_node =
		    d->role[ROLE_PREFILL].gpus_per_node;
	}
}

static void
endpoints_drop(struct endpoint **e, size_t *n)
{
	size_t	i;

	for (i = 0; i < *n; i++)
		free((*e)[i].url);
	free(*e);
	*e = NULL;
	*n = 0;
}

static void
urls_put(struct buf *b, const struct endpoint *e, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		buf_printf(b, "%s%s", i ? ", " : "", e[i].url);
		if (e[i].bootstrap_port >= 0)
			buf_printf(b, " %d", e[i].bootstrap_port);
	}
}

char *
vmi_urls_text(const struct endpoint *p, size_t np, const struct endpoint *d,
    size_t nd)
{
	struct buf	b = { 0 };

	if (np == 0 && nd == 0)
		return NULL;
	urls_put(&b, p, np);
	buf_puts(&b, "; ");
	urls_put(&b, d, nd);
	return buf_steal(&b);
}

/* One list: "URL [PORT], ...". */
static int
urls_parse_one(const char *s, size_t len, bool boot, struct endpoint **out,
    size_t *nout, char *err, size_t errlen)
{
	char	*t = xstrndup(s, len), *save = NULL, *item;
	int	 rc = 0;

	for (item = strtok_r(t, ",", &save); item != NULL && rc == 0;
	    item = strtok_r(NULL, ",", &save)) {
		char		 url[512], extra[32];
		int		 port = -1, k;
		char		*end;
		long		 v;
		struct endpoint	*e;

		k = sscanf(item, " %511s %31s", url, extra);
		if (k <= 0)
			continue;
		if (strncmp(url, "http://", 7) != 0 &&
		    strncmp(url, "https://", 8) != 0) {
			snprintf(err, errlen, "'%s' is not an http:// URL", url);
			rc = -1;
			break;
		}
		if (k == 2) {
			v = strtol(extra, &end, 10);
			if (!boot || *end != '\0' || v < 1 || v > 65535) {
				snprintf(err, errlen, "'%s' after %s: %s", extra,
				    url, boot ? "a bootstrap port is a number "
				    "from 1 to 65535" : "a decode takes no "
				    "bootstrap port");
				rc = -1;
				break;
			}
			port = (int)v;
		}
		*out = xreallocarray(*out, *nout + 2, sizeof **out);
		e = &(*out)[(*nout)++];
		memset(e, 0, sizeof *e);
		e->url = xstrdup(url);
		e->bootstrap_port = port;
		memset(&(*out)[*nout], 0, sizeof **out);
	}
	free(t);
	return rc;
}

int
vmi_urls_parse(const char *text, struct endpoint **p, size_t *np,
    struct endpoint **d, size_t *nd, char *err, size_t errlen)
{
	const char	*semi = strchr(text, ';');

	*p = *d = NULL;
	*np = *nd = 0;
	if (semi == NULL) {
		snprintf(err, errlen, "write the prefill URLs, ';', then the "
		    "decode URLs");
		return -1;
	}
	if (urls_parse_one(text, (size_t)(semi - text), true, p, np, err,
	    errlen) != 0 || urls_parse_one(semi + 1, strlen(semi + 1), false,
	    d, nd, err, errlen) != 0) {
		endpoints_drop(p, np);
		endpoints_drop(d, nd);
		return -1;
	}
	return 0;
}

/* Set a cell (text NULL: unset). */
void
vmi_cell_set(struct vm *vm, enum vm_scope s, int key, const char *text)
{
	struct deployment	*d = &vm->dep;
	enum role		 r = vmi_scope_role(s), rr;
	struct kv		**l;
	size_t			*np;

	vmi_dep_changed(vm);
	if (!VM_IS_DKEY(key)) {
		if (key == vm->o_model) {
			set_str(&d->model, text);
			return;
		}
		l = cell_list(vm, s, key, &np);
		kv_put(l, np, vm->cat->opts[key].name, text);
		return;
	}
	if (VM_DF(key) == DF_PD) {
		set_pd(d, text != NULL && strcmp(text, "true") == 0);
		return;
	}
	if (VM_DF(key) == DF_POLICY) {
		set_str(&d->role[ROLE_ROUTER].policy, text);
		return;
	}
	if (VM_DF(key) == DF_NAME) {
		set_str(&d->name, text);
		return;
	}
	if (VM_DF(key) == DF_ROUTER_URLS) {
		struct role_spec	*rt = &d->role[ROLE_ROUTER];
		char			 err[256];

		endpoints_drop(&rt->prefill_urls, &rt->nprefill_urls);
		endpoints_drop(&rt->decode_urls, &rt->ndecode_urls);
		if (text != NULL)
			(void)vmi_urls_parse(text, &rt->prefill_urls,
			    &rt->nprefill_urls, &rt->decode_urls,
			    &rt->ndecode_urls, err, sizeof err);
		return;
	}
	if (VM_DF(key) == DF_SAME_PAR)
		return;		/* computed: vm_set copies the options */
	if (VM_DF(key) == DF_GPUS_PER_HOST) {
		d->gpus_per_host = text == NULL ? 0 :
		    strcmp(text, "unknown") == 0 ? -1 : atoi(text);
		return;
	}
	for (rr = 0; rr < NROLE; rr++) {
		struct role_spec	*rs = &d->role[rr];

		/* Deployment-wide topology goes to every server role. */
		if (r != NROLE ? rr != r : rr == ROLE_ROUTER)
			continue;
		switch (VM_DF(key)) {
		case DF_INSTANCES:
			set_int(&rs->instances, text, 0);
			break;
		case DF_NODES:
			set_int(&rs->nodes_per_instance, text, 0);
			break;
		case DF_GPUS:
			set_int(&rs->gpus_per_node, text, 0);
			break;
		case DF_HOSTS:
			set_hosts(rs, text);
			break;
		case DF_PORT:
			set_int(&rs->port, text, -1);
			break;
		case DF_BASE_GPU:
			set_int(&rs->base_gpu_id, text, -1);
			break;
		case DF_BOOTSTRAP:
			set_int(&rs->bootstrap_port, text, -1);
			break;
		case DF_DIST_PORT:
			set_int(&rs->dist_init_port, text, -1);
			break;
		case DF_BIND:
			set_str(&rs->bind_host, text);
			break;
		default:
			break;
		}
	}
}

/* A canonical, order-independent dump of every cell, for dirty tracking. */
static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
dump_kv(char ***lines, size_t *n, const char *scope, const struct kv *l,
    size_t nl)
{
	size_t	i;

	for (i = 0; i < nl; i++) {
		*lines = xreallocarray(*lines, *n + 1, sizeof **lines);
		(*lines)[(*n)++] = xasprintf("%s\t%s\t%s", scope, l[i].name,
		    l[i].value ? l[i].value : "true");
	}
}

/* What pin writes that no field shows: the steps between instances. */
static void
dump_layout(char ***lines, size_t *n, const char *scope,
    const struct role_spec *rs)
{
	if (rs->port_step != 0 || rs->gpu_step != 0) {
		*lines = xreallocarray(*lines, *n + 1, sizeof **lines);
		(*lines)[(*n)++] = xasprintf("%s\tsteps\tport %d, GPU %d",
		    scope, rs->port_step, rs->gpu_step);
	}
}

char *
vmi_dump_state(struct vm *vm)
{
	const struct deployment	*d = &vm->dep;
	char			**lines = NULL, *t;
	size_t			 n = 0, i;
	struct buf		 b = { 0 };
	enum role		 r;
	int			 df;

	dump_kv(&lines, &n, "deployment", d->facts, d->nfacts);
	dump_kv(&lines, &n, "shared", d->shared, d->nshared);
	dump_kv(&lines, &n, "shared", d->shared_env, d->nshared_env);
	for (r = 0; r < NROLE; r++) {
		enum vm_scope	s = r == ROLE_PREFILL ? SC_PREFILL :
		    r == ROLE_DECODE ? SC_DECODE : r == ROLE_ROUTER ? SC_ROUTER :
		    SC_SINGLE;

		dump_kv(&lines, &n, vmi_scope_names[s], d->role[r].opts,
		    d->role[r].nopts);
		dump_kv(&lines, &n, vmi_scope_names[s], d->role[r].env,
		    d->role[r].nenv);
		for (df = 0; df < NDF; df++) {
			if (!vmi_df_per_role(df))
				continue;
			t = vmi_cell_get(vm, s, VM_DKEY(df));
			lines = xreallocarray(lines, n + 1, sizeof *lines);
			lines[n++] = xasprintf("%s\t%s\t%s", vmi_scope_names[s],
			    vmi_df_names[df], t ? t : "");
			free(t);
		}
		dump_layout(&lines, &n, vmi_scope_names[s], &d->role[r]);
	}
	for (df = 0; df < NDF; df++) {
		if (vmi_df_per_role(df))
			continue;
		t = vmi_cell_get(vm, SC_DEPLOY, VM_DKEY(df));
		lines = xreallocarray(lines, n + 1, sizeof *lines);
		lines[n++] = xasprintf("deployment\t%s\t%s", vmi_df_names[df],
		    t ? t : "");
		free(t);
	}
	lines = xreallocarray(lines, n + 1, sizeof *lines);
	lines[n++] = xasprintf("deployment\tmodel\t%s",
	    d->model ? d->model : "");
	sort_items(lines, n, sizeof *lines, cmp_str);
	for (i = 0; i < n; i++) {
		buf_puts(&b, lines[i]);
		buf_putc(&b, '\n');
		free(lines[i]);
	}
	free(lines);
	if (b.s == NULL)
		buf_puts(&b, "");
	return b.s;
}

void
vmi_set_baseline(struct vm *vm)
{
	free(vm->baseline);
	vm->baseline = vmi_dump_state(vm);
}

bool
vm_dirty(const struct vm *vm)
{
	char	*now = vmi_dump_state((struct vm *)vm);
	bool	 d = strcmp(now, vm->baseline) != 0;

	free(now);
	return d;
}

/* Lines of a dump as "scope\tname" -> value, for the change list. */
static const char *
dump_find(const char *dump, const char *scope_name, size_t keylen)
{
	const char	*p = dump;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, scope_name, keylen) == 0 && p[keylen] == '\t')
			return p + keylen + 1;
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return NULL;
}

static void
changes_one_way(struct buf *b, const char *from, const char *to, bool added)
{
	const char	*p = to;

	while (p != NULL && *p != '\0') {
		const char	*nl = strchr(p, '\n');
		const char	*t1 = strchr(p, '\t');
		const char	*t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
		size_t		 keylen, vlen;
		const char	*other;

		if (nl == NULL || t2 == NULL || t2 > nl)
			break;
		keylen = (size_t)(t2 - p);
		vlen = (size_t)(nl - t2 - 1);
		other = dump_find(from, p, keylen);
		if (other == NULL && added) {
			buf_printf(b, "  %.*s: %.*s: set to %.*s\n",
			    (int)(t1 - p), p, (int)(t2 - t1 - 1), t1 + 1,
			    (int)vlen, t2 + 1);
		} else if (other == NULL) {
			buf_printf(b, "  %.*s: %.*s: removed (was %.*s)\n",
			    (int)(t1 - p), p, (int)(t2 - t1 - 1), t1 + 1,
			    (int)vlen, t2 + 1);
		} else if (added) {
			const char	*onl = strchr(other, '\n');
			size_t		 olen = onl ? (size_t)(onl - other) :
			    strlen(other);

			if (olen != vlen || strncmp(other, t2 + 1, vlen) != 0)
				buf_printf(b, "  %.*s: %.*s: %.*s -> %.*s\n",
				    (int)(t1 - p), p, (int)(t2 - t1 - 1),
				    t1 + 1, olen ? (int)olen : 7,
				    olen ? other : "(unset)", vlen ? (int)vlen :
				    7, vlen ? t2 + 1 : "(unset)");
		}
		p = nl + 1;
	}
}

char *
vmi_diff(const char *from, const char *to)
{
	struct buf	b = { 0 };

	changes_one_way(&b, from, to, true);
	changes_one_way(&b, to, from, false);
	if (b.s == NULL)
		buf_puts(&b, "");
	return b.s;
}

char *
vm_changes(const struct vm *vm)
{
	char		*now = vmi_dump_state((struct vm *)vm);
	struct buf	 b = { 0 };

	changes_one_way(&b, vm->baseline, now, true);
	changes_one_way(&b, now, vm->baseline, false);
	free(now);
	if (b.s == NULL)
		buf_puts(&b, "");
	return b.s;
}

