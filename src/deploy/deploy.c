/*
 * deploy.c - the deployment model: editing, expansion into launch commands
 * (the plan), per-role configs, and the per-server + cross-role checks.
 */
#define _POSIX_C_SOURCE 200809L
#include "deploy/deploy.h"
#include "deploy/deploy_int.h"
#include "deploy/layout.h"
#include "core/hashidx.h"
#include "core/util.h"
#include "io/argv.h"
#include "io/server.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *const role_names[NROLE] = { "prefill", "decode", "router",
    "single" };

const char *
role_name(enum role r)
{
	return (unsigned)r < NROLE ? role_names[r] : "?";
}

/* ---- router options ---- */

const struct option *
router_opt_find(const struct catalog *cat, const char *name)
{
	char	full[128];
	int	o;

	if ((size_t)snprintf(full, sizeof full, "%s%s", ROUTER_OPT_PREFIX,
	    name) >= sizeof full)
		return NULL;
	o = catalog_find(cat, full);
	return o >= 0 && cat->opts[o].kind == OK_DEPLOY ? &cat->opts[o] : NULL;
}

void
router_opt_names(const struct catalog *cat, const char **names, size_t max)
{
	size_t	i, n = 0, pl = strlen(ROUTER_OPT_PREFIX);

	for (i = 0; i < cat->nopts && n + 1 < max; i++)
		if (cat->opts[i].kind == OK_DEPLOY &&
		    strncmp(cat->opts[i].name, ROUTER_OPT_PREFIX, pl) == 0)
			names[n++] = cat->opts[i].name + pl;
	if (max > 0)
		names[n] = NULL;
}

bool
router_opt_is_flag(const struct catalog *cat, const char *name)
{
	const struct option	*op = router_opt_find(cat, name);

	return op != NULL && op->type == T_BOOL;
}

/* ---- small helpers ---- */

void
kv_set(struct kv **arr, size_t *n, const char *name, const char *value,
    int line, int col)
{
	size_t	i;

	for (i = 0; i < *n; i++)
		if (strcmp((*arr)[i].name, name) == 0)
			break;
	if (i < *n) {
		free((*arr)[i].value);
		if (value == NULL) {
			free((*arr)[i].name);
			memmove(&(*arr)[i], &(*arr)[i + 1], (*n - i - 1) *
			    sizeof **arr);
			(*n)--;
			return;
		}
		(*arr)[i].value = xstrdup(value);
		(*arr)[i].line = line;
		(*arr)[i].col = col;
		return;
	}
	if (value == NULL)
		return;
	*arr = xreallocarray(*arr, *n + 1, sizeof **arr);
	(*arr)[*n].name = xstrdup(name);
	(*arr)[*n].value = xstrdup(value);
	(*arr)[*n].line = line;
	(*arr)[*n].col = col;
	(*n)++;
}

/* The names of a kv array, hashed for kv_setv. */
struct kvidx {
	struct hidx	  x;
	struct kv	**arr;
};

static const char *
kv_key(const void *ctx, size_t i, size_t *len)
{
	const char	*name = (*((const struct kvidx *)ctx)->arr)[i].name;

	*len = strlen(name);
	return name;
}

static void
kv_index(struct kvidx *ki, struct kv **arr, size_t n)
{
	size_t	i;

	ki->arr = arr;
	hidx_init(&ki->x, kv_key, ki);
	for (i = 0; i < n; i++)
		hidx_put(&ki->x, i);
}

void
kv_setv(struct kv **arr, size_t *n, const struct kv *src, size_t nsrc)
{
	struct kvidx	ki;
	size_t		i;
	long		at;

	*arr = xreallocarray(*arr, *n + nsrc + 1, sizeof **arr);
	kv_index(&ki, arr, *n);
	for (i = 0; i < nsrc; i++) {
		const struct kv	*s = &src[i];

		at = hidx_find(&ki.x, s->name, strlen(s->name));
		if (s->value == NULL) {		/* a removal moves the rest */
			kv_set(arr, n, s->name, NULL, 0, 0);
			hidx_free(&ki.x);
			kv_index(&ki, arr, *n);
			continue;
		}
		if (at < 0) {
			at = (long)(*n)++;
			(*arr)[at].name = xstrdup(s->name);
			hidx_put(&ki.x, (size_t)at);
		} else
			free((*arr)[at].value);
		(*arr)[at].value = xstrdup(s->value);
		(*arr)[at].line = s->line;
		(*arr)[at].col = s->col;
	}
	hidx_free(&ki.x);
}

const struct kv *
kv_get(const struct kv *arr, size_t n, const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(arr[i].name, name) == 0)
			return &arr[i];
	return NULL;
}

int
kv_name_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->name,
	    ((const struct kv *)b)->name);
}

static void
kv_free(struct kv *arr, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(arr[i].name);
		free(arr[i].value);
	}
	free(arr);
}

static void
endpoints_free(struct endpoint *e, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(e[i].url);
	free(e);
}

void
strv_free(char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

void
role_spec_init(struct role_spec *r)
{
	memset(r, 0, sizeof *r);
	r->nodes_per_instance = 1;
	r->port = -1;
	r->bootstrap_port = -1;
	r->dist_init_port = -1;
	r->base_gpu_id = -1;
}

const char *
deployment_role_model(const struct deployment *d, enum role r)
{
	if (r != ROLE_ROUTER && d->role[r].model != NULL)
		return d->role[r].model;
	return d->model != NULL ? d->model : "";
}

void
deployment_init(struct deployment *d)
{
	int	i;

	memset(d, 0, sizeof *d);
	for (i = 0; i < NROLE; i++)
		role_spec_init(&d->role[i]);
}

void
role_spec_free(struct role_spec *r)
{
	strv_free(r->hosts, r->nhosts);
	kv_free(r->opts, r->nopts);
	kv_free(r->env, r->nenv);
	free(r->policy);
	endpoints_free(r->prefill_urls, r->nprefill_urls);
	endpoints_free(r->decode_urls, r->ndecode_urls);
	strv_free(r->extra_args, r->nextra_args);
	free(r->bind_host);
	free(r->missing);
	free(r->model);
	free(r->inst_line);
	if (r->inst_bind != NULL)
		strv_free(r->inst_bind, r->ninst_line);
	role_spec_init(r);
}

int
launch_line(const struct deployment *d, const struct launch *la)
{
	const struct role_spec	*r = &d->role[la->role];

	if (la->instance >= 0 && (size_t)la->instance < r->ninst_line &&
	    r->inst_line[la->instance] > 0)
		return r->inst_line[la->instance];
	return r->line;
}

const char *
launch_bind(const struct deployment *d, const struct launch *la)
{
	const struct role_spec	*r = &d->role[la->role];
	int			 o = catalog_find(la->cfg.cat, "host");

	if (r->inst_bind != NULL && la->instance >= 0 &&
	    (size_t)la->instance < r->ninst_line && la->node_rank == 0)
		return r->inst_bind[la->instance];
	return o >= 0 && la->cfg.s != NULL && la->cfg.s[o].v.t == V_STR ?
	    la->cfg.s[o].v.u.s : NULL;
}

void
deployment_free(struct deployment *d)
{
	int	i;

	free(d->name);
	free(d->model);
	kv_free(d->facts, d->nfacts);
	free(d->sglang_version);
	kv_free(d->shared, d->nshared);
	kv_free(d->shared_env, d->nshared_env);
	for (i = 0; i < NROLE; i++)
		role_spec_free(&d->role[i]);
	free(d->path);
	free(d->k8s_image);
	free(d->k8s_namespace);
	deployment_init(d);
}

void
deployment_default(struct deployment *d, const char *model)
{
	int	i;

	deployment_init(d);
	d->name = xstrdup("pd");
	d->model = xstrdup(model != NULL ? model :
	    "meta-llama/Llama-3.1-8B-Instruct");
	for (i = 0; i < NPD_ROLE; i++) {
		struct role_spec	*r = &d->role[i];

		r->enabled = true;
		r->instances = 1;
		r->gpus_per_node = i == ROLE_ROUTER ? 0 : 1;
		r->hosts = xcalloc(1, sizeof *r->hosts);
		r->hosts[0] = xstrdup("127.0.0.1");
		r->nhosts = 1;
	}
	/* Ports, bootstrap port and GPUs are left to the layout: it places
	 * the decode after the prefill's GPUs whatever their TP sizes. */
}

/* Option name, or flag spelling, to a catalog index of a flag or env var. */
int
deploy_resolve(const struct catalog *cat, const char *name)
{
	int	o;

	if (name[0] == '-')
		o = catalog_find_flag(cat, name);
	else
		o = catalog_find(cat, name);
	if (o >= 0 && cat->opts[o].kind != OK_FLAG && cat->opts[o].kind !=
	    OK_ENV)
		return -1;
	return o;
}

/* Check value text against the option's type and choices. */
int
deploy_check_value(const struct catalog *cat, int o, const char *value,
    char *err, size_t errlen)
{
	const struct option	*op = &cat->opts[o];
	struct value		 v;
	size_t			 i;

	if (op->type == T_LIST)
		return 0;
	if (val_parse(op->type, value, &v) != 0) {
		snprintf(err, errlen, "%s: '%s' is not a valid %s", op->name,
		    value, op->type == T_INT ? "integer" : op->type ==
		    T_FLOAT ? "number" : "boolean (true or false)");
		return -1;
	}
	if (op->nchoices > 0 && op->type == T_STR) {
		for (i = 0; i < op->nchoices; i++)
			if (strcmp(op->choices[i], value) == 0)
				return 0;
		snprintf(err, errlen, "%s: '%s' is not one of the choices "
		    "(%s%s)", op->name, value, op->choices[0],
		    op->nchoices > 1 ? ", ..." : "");
		return -1;
	}
	return 0;
}

static int
set_in(const struct catalog *cat, struct kv **opts, size_t *nopts,
    struct kv **env, size_t *nenv, const char *name, const char *value,
    char *err, size_t errlen)
{
	int	o = deploy_resolve(cat, name);

	if (o < 0) {
		snprintf(err, errlen, "unknown SGLang option or environment "
		    "variable '%s'", name);
		return -1;
	}
	if (value != NULL && deploy_check_value(cat, o, value, err, errlen))
		return -1;
	if (cat->opts[o].kind == OK_ENV)
		kv_set(env, nenv, cat->opts[o].name, value, 0, 0);
	else
		kv_set(opts, nopts, cat->opts[o].name, value, 0, 0);
	return 0;
}

/*
 * Options the layout owns (--port, --base-gpu-id, the prefill's
 * --disaggregation-bootstrap-port) are the role's fields: value NULL leaves
 * them to the layout. Returns 1 when name was such a field (err empty, or
 * the value's problem), 0 when it is an ordinary option.
 */
static int
layout_field(struct role_spec *rs, enum role r, const char *name,
    const char *value, char *err, size_t errlen)
{
	int	*field = NULL, lo = 1, hi = 65535;
	char	*end;
	long	 v;

	if (strncmp(name, "--", 2) == 0)
		name += 2;
	err[0] = '\0';
	if (strcmp(name, "port") == 0)
		field = &rs->port;
	else if (strcmp(name, "base_gpu_id") == 0 ||
	    strcmp(name, "base-gpu-id") == 0) {
		field = &rs->base_gpu_id;
		lo = 0;
		hi = 1023;
	} else if (r == ROLE_PREFILL &&
	    (strcmp(name, "disaggregation_bootstrap_port") == 0 ||
	    strcmp(name, "disaggregation-bootstrap-port") == 0))
		field = &rs->bootstrap_port;
	if (field == NULL)
		return 0;
	if (value == NULL) {
		*field = -1;
		return 1;
	}
	v = strtol(value, &end, 10);
	if (end == value || *end != '\0' || v < lo || v > hi) {
		snprintf(err, errlen, "%s: '%s' is not a number from %d to %d",
		    name, value, lo, hi);
		return 1;
	}
	*field = (int)v;
	return 1;
}

int
deployment_set(const struct catalog *cat, struct deployment *d, enum role r,
    const char *name, const char *value, char *err, size_t errlen)
{
	struct role_spec	*rs;

	if ((unsigned)r >= NROLE) {
		snprintf(err, errlen, "no such role");
		return -1;
	}
	rs = &d->role[r];
	if (r == ROLE_ROUTER) {
		if (strncmp(name, "--", 2) == 0)
			name += 2;
		if (router_opt_find(cat, name) == NULL) {
			snprintf(err, errlen, "unknown router option '%s'",
			    name);
			return -1;
		}
		if (strcmp(name, "policy") == 0) {
			free(rs->policy);
			rs->policy = value ? xstrdup(value) : NULL;
			return 0;
		}
		kv_set(&rs->opts, &rs->nopts, name, value, 0, 0);
		return 0;
	}
	if (strcmp(name, "model_path") == 0 || strcmp(name, "--model-path")
	    == 0) {
		/* The role's own model; NULL: the deployment's. */
		if (value != NULL && *value == '\0') {
			snprintf(err, errlen, "model_path: empty");
			return -1;
		}
		free(rs->model);
		rs->model = value != NULL ? xstrdup(value) : NULL;
		return 0;
	}
	if (layout_field(rs, r, name, value, err, errlen) != 0)
		return value == NULL || err[0] == '\0' ? 0 : -1;
	return set_in(cat, &rs->opts, &rs->nopts, &rs->env, &rs->nenv, name,
	    value, err, errlen);
}

int
deployment_set_shared(const struct catalog *cat, struct deployment *d,
    const char *name, const char *value, char *err, size_t errlen)
{
	return set_in(cat, &d->shared, &d->nshared, &d->shared_env,
	    &d->nshared_env, name, value, err, errlen);
}

int
deployment_set_fact(const struct catalog *cat, struct deployment *d,
    const char *name, const char *value, char *err, size_t errlen)
{
	int	o = catalog_find(cat, name);

	if (o < 0 || cat->opts[o].kind != OK_FACT) {
		snprintf(err, errlen, "unknown fact '%s'", name);
		return -1;
	}
	if (value != NULL && deploy_check_value(cat, o, value, err, errlen))
		return -1;
	kv_set(&d->facts, &d->nfacts, name, value, 0, 0);
	return 0;
}

const char *
deployment_get(const struct catalog *cat, const struct deployment *d,
    enum role r, const char *name)
{
	const struct kv	*k;
	int		 o;

	if ((unsigned)r >= NROLE)
		return NULL;
	if (r == ROLE_ROUTER) {
		if (strcmp(name, "policy") == 0)
			return d->role[r].policy;
		k = kv_get(d->role[r].opts, d->role[r].nopts, name);
		return k ? k->value : NULL;
	}
	if ((o = deploy_resolve(cat, name)) < 0)
		return NULL;
	name = cat->opts[o].name;
	if (cat->opts[o].kind == OK_ENV) {
		if ((k = kv_get(d->role[r].env, d->role[r].nenv, name)) != NULL)
			return k->value;
		k = kv_get(d->shared_env, d->nshared_env, name);
		return k ? k->value : NULL;
	}
	if ((k = kv_get(d->role[r].opts, d->role[r].nopts, name)) != NULL)
		return k->value;
	k = kv_get(d->shared, d->nshared, name);
	return k ? k->value : NULL;
}

/* ---- the plan ---- */

struct wl {
	char	**w;
	int	 *line, *col;
	size_t	  n, cap;
	size_t	  extra_start;	/* server: first of the role's extra_args */
};

static void
wl_add(struct wl *l, const char *s, int line, int col)
{
	if (l->n == l->cap) {
		l->cap = l->cap ? l->cap * 2 : 32;
		l->w = xreallocarray(l->w, l->cap, sizeof *l->w);
		l->line = xreallocarray(l->line, l->cap, sizeof *l->line);
		l->col = xreallocarray(l->col, l->cap, sizeof *l->col);
	}
	l->w[l->n] = xstrdup(s);
	l->line[l->n] = line;
	l->col[l->n] = col;
	l->n++;
}

static void
wl_addf(struct wl *l, int line, const char *fmt, int v)
{
	char	tmp[64];

	snprintf(tmp, sizeof tmp, fmt, v);
	wl_add(l, tmp, line, 0);
}

/* Words for one option kv: --flag [value...]. */
static void
kv_words(const struct catalog *cat, const struct kv *k, struct wl *l)
{
	int			 o = catalog_find(cat, k->name);
	const struct option	*op;
	struct value		 v;
	const char		*p, *q;

	if (o < 0)
		return;
	op = &cat->opts[o];
	switch (op->type) {
	case T_BOOL:
		if (val_parse(T_BOOL, k->value ? k->value : "true", &v) == 0 &&
		    v.u.b)
			wl_add(l, op->flag, k->line, k->col);
		else if (val_parse(T_BOOL, k->value, &v) != 0) {
			wl_add(l, op->flag, k->line, k->col);
			wl_add(l, k->value, k->line, k->col);
		}
		return;
	case T_BOOLOPT:
		if (val_parse(T_BOOL, k->value ? k->value : "true", &v) == 0 &&
		    !v.u.b) {
			char	*neg = xasprintf("--no-%s", op->flag + 2);

			wl_add(l, neg, k->line, k->col);
			free(neg);
		} else
			wl_add(l, op->flag, k->line, k->col);
		return;
	case T_LIST:
		wl_add(l, op->flag, k->line, k->col);
		for (p = k->value ? k->value : ""; *p != '\0'; p = q) {
			char	*item;

			q = strchr(p, '\x1f');
			if (q == NULL)
				q = p + strlen(p);
			item = xstrndup(p, (size_t)(q - p));
			wl_add(l, item, k->line, k->col);
			free(item);
			if (*q == '\x1f')
				q++;
		}
		return;
	default:
		wl_add(l, op->flag, k->line, k->col);
		wl_add(l, k->value ? k->value : "", k->line, k->col);
		return;
	}
}

const char *
role_host(const struct role_spec *r, int inst, int rank)
{
	size_t	i = (size_t)inst * (size_t)r->nodes_per_instance + (size_t)rank;

	if (r->nhosts == 0)
		return "127.0.0.1";
	if (r->nhosts == 1 || i >= r->nhosts)
		return r->hosts[r->nhosts == 1 ? 0 : r->nhosts - 1];
	return r->hosts[i];
}

int
role_port(const struct role_spec *r, int base, int inst)
{
	return base < 0 ? base : base + inst * r->port_step;
}

int
role_bootstrap_port(const struct catalog *cat, const struct role_spec *r,
    int inst)
{
	int	o;

	if (r->bootstrap_port >= 0)
		return role_port(r, r->bootstrap_port, inst);
	o = catalog_find(cat, "disaggregation_bootstrap_port");
	return o >= 0 && cat->opts[o].def.t == V_INT ?
	    (int)cat->opts[o].def.u.i : 8998;
}

char *
url_for(const char *host, int port)
{
	if (strchr(host, ':') != NULL && host[0] != '[')
		return xasprintf("http://[%s]:%d", host, port);
	return xasprintf("http://%s:%d", host, port);
}

/* Merge env: shared then role (role wins), as an owned kv array. */
static void	merged_env(const struct deployment *, enum role, struct kv **,
		    size_t *);

static void
merged_env(const struct deployment *d, enum role r, struct kv **out,
    size_t *n)
{
	*out = NULL;
	*n = 0;
	if (r != ROLE_ROUTER)
		kv_setv(out, n, d->shared_env, d->nshared_env);
	kv_setv(out, n, d->role[r].env, d->role[r].nenv);
}

size_t
role_options(const struct deployment *d, enum role role, struct kv **out)
{
	const struct role_spec	*r = &d->role[role];
	struct kv		*all = xcalloc(d->nshared + r->nopts + 1,
	    sizeof *all);
	size_t			 n = 0, i;

	if (role != ROLE_ROUTER)
		for (i = 0; i < d->nshared; i++)
			if (kv_get(r->opts, r->nopts, d->shared[i].name) == NULL)
				all[n++] = d->shared[i];
	for (i = 0; i < r->nopts; i++)
		all[n++] = r->opts[i];
	sort_items(all, n, sizeof *all, kv_name_cmp);
	*out = all;
	return n;
}

void
role_env(const struct deployment *d, enum role r, struct kv **out, size_t *n)
{
	merged_env(d, r, out, n);
	sort_items(*out, *n, sizeof **out, kv_name_cmp);
}

static void
server_words(const struct catalog *cat, const struct deployment *d,
    const struct lay_server *ls, struct wl *l)
{
	enum role		 role = ls->role;
	const struct role_spec	*r = &d->role[role];
	size_t			 i;
	int			 ln = r->line;

	wl_add(l, "python3", ln, 0);
	wl_add(l, "-m", ln, 0);
	wl_add(l, "sglang.launch_server", ln, 0);
	if (r->model != NULL) {
		wl_add(l, "--model-path", r->model_line, 0);
		wl_add(l, r->model, r->model_line, 0);
	} else {
		wl_add(l, "--model-path", d->model_line, 0);
		wl_add(l, d->model ? d->model : "", d->model_line, 0);
	}
	wl_add(l, "--disaggregation-mode", ln, 0);
	wl_add(l, role_name(role), ln, 0);
	wl_add(l, "--host", ln, 0);
	wl_add(l, ls->bind, ln, 0);
	wl_add(l, "--port", ln, 0);
	wl_addf(l, ln, "%d", ls->port);
	if (role == ROLE_PREFILL) {
		wl_add(l, "--disaggregation-bootstrap-port", ln, 0);
		wl_addf(l, ln, "%d", ls->bootstrap_port);
	}
	wl_add(l, "--base-gpu-id", ln, 0);
	wl_addf(l, ln, "%d", ls->base_gpu);
	if (ls->dist_host != NULL) {
		char	*a = strchr(ls->dist_host, ':') != NULL ?
		    xasprintf("[%s]:%d", ls->dist_host, ls->dist_port) :
		    xasprintf("%s:%d", ls->dist_host, ls->dist_port);

		wl_add(l, "--dist-init-addr", ln, 0);
		wl_add(l, a, ln, 0);
		free(a);
	}
	if (ls->dist_host != NULL && r->nodes_per_instance > 1) {
		wl_add(l, "--nnodes", ln, 0);
		wl_addf(l, ln, "%d", r->nodes_per_instance);
		wl_add(l, "--node-rank", ln, 0);
		wl_addf(l, ln, "%d", ls->node_rank);
	}
	/* Shared options the role does not override, then the role's, each
	 * sorted by name: the same deployment always gives the same words. */
	{
		struct kv	*all = xcalloc(d->nshared + r->nopts + 1,
		    sizeof *all);
		size_t		 n = 0;

		for (i = 0; i < d->nshared; i++)
			if (kv_get(r->opts, r->nopts, d->shared[i].name) == NULL)
				all[n++] = d->shared[i];
		sort_items(all, n, sizeof *all, kv_name_cmp);
		if (r->nopts > 0)
			memcpy(all + n, r->opts, r->nopts * sizeof *all);
		sort_items(all + n, r->nopts, sizeof *all, kv_name_cmp);
		n += r->nopts;
		for (i = 0; i < n; i++)
			kv_words(cat, &all[i], l);
		free(all);
	}
	/* Words SGLang's argparse refuses, as the source wrote them: last,
	 * so that what the options set is not theirs to override. */
	l->extra_start = l->n;
	for (i = 0; i < r->nextra_args; i++)
		wl_add(l, r->extra_args[i], ln, 0);
}

/* The router's endpoint lists: explicit, or one per instance. */
static void
endpoints_copy(const struct endpoint *src, size_t n, struct endpoint **out,
    size_t *nout)
{
	size_t	k;

	*out = xcalloc(n + 1, sizeof **out);
	for (k = 0; k < n; k++) {
		(*out)[k] = src[k];
		(*out)[k].url = xstrdup(src[k].url);
	}
	*nout = n;
}

void
router_endpoints(const struct catalog *cat, const struct deployment *d,
    struct endpoint **pe, size_t *npe, struct endpoint **de, size_t *nde)
{
	struct layout	lay;

	deployment_layout(cat, d, &lay);
	router_endpoints_in(&lay, pe, npe, de, nde);
	layout_free(&lay);
}

void
router_endpoints_in(const struct layout *lay, struct endpoint **pe,
    size_t *npe, struct endpoint **de, size_t *nde)
{
	endpoints_copy(lay->prefill, lay->nprefill, pe, npe);
	endpoints_copy(lay->decode, lay->ndecode, de, nde);
}

void
endpoints_release(struct endpoint *e, size_t n)
{
	endpoints_free(e, n);
}

static void
router_words(const struct catalog *cat, const struct deployment *d,
    const struct layout *lay, struct wl *l)
{
	const struct role_spec	*r = &d->role[ROLE_ROUTER];
	const struct endpoint	*pe = lay->prefill, *de = lay->decode;
	size_t			 npe = lay->nprefill, nde = lay->ndecode, i;
	int			 ln = r->line;

	wl_add(l, "python3", ln, 0);
	wl_add(l, "-m", ln, 0);
	wl_add(l, "sglang_router.launch_router", ln, 0);
	wl_add(l, "--pd-disaggregation", ln, 0);
	for (i = 0; i < npe; i++) {
		wl_add(l, "--prefill", pe[i].line, pe[i].col);
		wl_add(l, pe[i].url, pe[i].line, pe[i].col);
		if (pe[i].bootstrap_port >= 0)
			wl_addf(l, pe[i].line, "%d", pe[i].bootstrap_port);
		else if (pe[i].bad_port != NULL)
			wl_add(l, pe[i].bad_port, pe[i].line, pe[i].col);
	}
	for (i = 0; i < nde; i++) {
		wl_add(l, "--decode", de[i].line, de[i].col);
		wl_add(l, de[i].url, de[i].line, de[i].col);
	}
	wl_add(l, "--host", ln, 0);
	wl_add(l, lay->router_bind, ln, 0);
	wl_add(l, "--port", ln, 0);
	wl_addf(l, ln, "%d", lay->router_port);
	if (r->policy != NULL) {
		wl_add(l, "--policy", ln, 0);
		wl_add(l, r->policy, ln, 0);
	}
	for (i = 0; i < r->nopts; i++) {
		char	*flag = xasprintf("--%s", r->opts[i].name), *p;

		for (p = flag; *p != '\0'; p++)
			if (*p == '_')
				*p = '-';
		if (router_opt_is_flag(cat, r->opts[i].name)) {
			struct value	v;

			if (val_parse(T_BOOL, r->opts[i].value ?
			    r->opts[i].value : "true", &v) == 0 && v.u.b)
				wl_add(l, flag, r->opts[i].line, r->opts[i].col);
		} else {
			wl_add(l, flag, r->opts[i].line, r->opts[i].col);
			wl_add(l, r->opts[i].value ? r->opts[i].value : "",
			    r->opts[i].line, r->opts[i].col);
		}
		free(flag);
	}
	for (i = 0; i < r->nextra_args; i++)
		wl_add(l, r->extra_args[i], ln, 0);
}

/* Config of a server launch: facts, env, then the arguments via argparse. */
static int
launch_config(const struct catalog *cat, const struct deployment *d,
    const struct layout *lay, struct launch *la, struct result *diags)
{
	struct env_entry	*env;
	struct argword		*w;
	size_t			 i, n = la->argc - la->argstart;
	int			 nerr = 0, mo;
	char			 err[256];

	config_init(&la->cfg, cat);
	config_set_sgver(&la->cfg, flaghist_parse(cat->hist,
	    d->sglang_version, NULL, 0));
	if (la->role == ROLE_ROUTER) {
		int	ho = catalog_find(cat, "host"), po = catalog_find(cat,
		    "port");

		if (ho >= 0)
			config_set(&la->cfg, ho, val_str(la->host), SRC_USER,
			    d->role[ROLE_ROUTER].line, 0);
		if (po >= 0)
			config_set(&la->cfg, po, val_int(lay->router_port),
			    SRC_USER, d->role[ROLE_ROUTER].line, 0);
		return 0;
	}
	for (i = 0; i < d->nfacts; i++) {
		if (d->facts[i].value == NULL)
			continue;
		if (facts_set(cat, &la->cfg, d->facts[i].name,
		    d->facts[i].value, err, sizeof err) != 0) {
			result_add(diags, "deploy-fact", SEV_ERROR, err, NULL,
			    d->facts[i].line, d->facts[i].col);
			nerr++;
		}
	}
	env = xcalloc(la->nenv + 1, sizeof *env);
	for (i = 0; i < la->nenv; i++) {
		env[i].name = la->env[i].name;
		env[i].value = la->env[i].value ? la->env[i].value : "";
		env[i].line = la->env[i].line;
		env[i].col = la->env[i].col;
	}
	nerr += env_apply(cat, env, la->nenv, &la->cfg, diags);
	free(env);
	w = xcalloc(n + 1, sizeof *w);
	for (i = 0; i < n; i++) {
		w[i].text = la->argv[la->argstart + i];
		w[i].line = la->argline[la->argstart + i];
		w[i].col = la->argcol[la->argstart + i];
		w[i].unresolved = strchr(w[i].text, '$') != NULL;
		w[i].src = SRC_CLI;
	}
	nerr += argv_parse(cat, w, n, &la->cfg, diags, NULL);
	free(w);
	mo = catalog_find(cat, "model_path");
	if (mo >= 0 && la->cfg.s[mo].v.t == V_STR)
		catalog_model_facts(cat, la->cfg.s[mo].v.u.s, &la->cfg);
	return nerr;
}

/* hint: where in the layout's servers this one is likely to be. */
static int
build_launch(const struct catalog *cat, const struct deployment *d,
    const struct layout *lay, size_t hint, enum role role, int inst,
    int rank, struct launch *la, struct result *diags)
{
	const struct lay_server	*ls = NULL;
	struct wl		 l = { 0 };

	memset(la, 0, sizeof *la);
	la->role = role;
	la->instance = inst;
	la->node_rank = rank;
	if (role == ROLE_ROUTER) {
		la->host = lay->router_host;
		router_words(cat, d, lay, &l);
	} else {
		if ((ls = layout_server_at(lay, hint, role, inst, rank)) ==
		    NULL)
			return 0;
		la->host = ls->host;
		la->host_unstated = d->role[role].host_unstated;
		server_words(cat, d, ls, &l);
	}
	la->argv = l.w;
	la->argc = l.n;
	la->argline = l.line;
	la->argcol = l.col;
	la->argstart = 3;
	la->extra_start = role != ROLE_ROUTER && l.extra_start > 0 ?
	    l.extra_start : l.n;
	merged_env(d, role, &la->env, &la->nenv);
	return launch_config(cat, d, lay, la, diags);
}

static void
launch_free(struct launch *la)
{
	size_t	i;

	for (i = 0; i < la->argc; i++)
		free(la->argv[i]);
	free(la->argv);
	free(la->argline);
	free(la->argcol);
	kv_free(la->env, la->nenv);
	config_free(&la->cfg);
}

int
deployment_plan(const struct catalog *cat, const struct deployment *d,
    struct plan *p, struct result *diags)
{
	return deployment_plan_in(cat, d, NULL, p, diags);
}

int
deployment_plan_in(const struct catalog *cat, const struct deployment *d,
    const struct layout *given, struct plan *p, struct result *diags)
{
	struct result		 scratch;
	struct layout		 own;
	const struct layout	*lay = given;
	int			 role, i, k, nerr = 0;
	size_t			 nsrv = 0;	/* servers so far */

	result_init(&scratch);
	if (diags == NULL)
		diags = &scratch;
	memset(p, 0, sizeof *p);
	if (lay == NULL) {
		deployment_layout(cat, d, &own);
		lay = &own;
	}
	for (role = 0; role < NPD_ROLE; role++) {
		const struct role_spec	*r = &d->role[role];
		int			 ninst = role == ROLE_ROUTER ? 1 :
		    r->instances;
		int			 nn = role == ROLE_ROUTER ? 1 :
		    r->nodes_per_instance;

		if (!r->enabled)
			continue;
		for (i = 0; i < ninst; i++)
			for (k = 0; k < (nn > 0 ? nn : 1); k++) {
				struct result	rd;

				result_init(&rd);
				p->l = grow_pow2(p->l, p->n, sizeof *p->l);
				nerr += build_launch(cat, d, lay, nsrv++,
				    (enum role)role, i, k, &p->l[p->n], &rd);
				result_take(diags, &rd, (int)p->n);
				result_free(&rd);
				p->n++;
			}
	}
	if (lay == &own)
		layout_free(&own);
	result_free(&scratch);
	return nerr;
}

void
plan_free(struct plan *p)
{
	size_t	i;

	for (i = 0; i < p->n; i++)
		launch_free(&p->l[i]);
	free(p->l);
	memset(p, 0, sizeof *p);
}

int
deployment_role_config(const struct catalog *cat, const struct deployment *d,
    enum role role, struct config *out, struct result *diags)
{
	return deployment_role_config_in(cat, d, NULL, role, out, diags);
}

int
deployment_role_config_in(const struct catalog *cat,
    const struct deployment *d, const struct layout *given, enum role role,
    struct config *out, struct result *diags)
{
	struct launch		 la;
	struct result		 scratch;
	struct layout		 own;
	const struct layout	*lay = given;
	int			 nerr;

	result_init(&scratch);
	if ((unsigned)role >= NPD_ROLE) {
		config_init(out, cat);
		return 0;
	}
	if (lay == NULL) {
		deployment_layout(cat, d, &own);
		lay = &own;
	}
	if (role != ROLE_ROUTER && layout_server(lay, role, 0, 0) == NULL) {
		if (lay == &own)
			layout_free(&own);
		config_init(out, cat);
		result_free(&scratch);
		return 0;
	}
	nerr = build_launch(cat, d, lay, 0, role, 0, 0, &la, diags ? diags :
	    &scratch);
	if (lay == &own)
		layout_free(&own);
	*out = la.cfg;
	memset(&la.cfg, 0, sizeof la.cfg);
	launch_free(&la);
	result_free(&scratch);
	return nerr;
}

/* ---- checks ---- */

void
result_move_keep(struct result *dst, struct result *src)
{
	size_t	i;

	for (i = 0; i < src->n; i++)
		result_take_one(dst, &src->d[i], src->d[i].cmd);
	free(src->d);
	src->d = NULL;
	src->n = src->cap = 0;
	src->nerrors = src->nwarnings = src->nunknown = src->noverrides = 0;
}

void
deployment_check(const struct catalog *cat, const struct deployment *d,
    struct result *out)
{
	struct plan		 p;
	struct result		 rd;
	struct config		 effs[NPD_ROLE];
	const struct config	*eff[NPD_ROLE] = { NULL, NULL, NULL };
	int			 first[NPD_ROLE] = { -1, -1, -1 };
	size_t			 i;
	struct layout		 lay;

	memset(effs, 0, sizeof effs);
	result_init(&rd);
	/* Placed once, for the plan and the cross-role checks. */
	deployment_layout(cat, d, &lay);
	deployment_plan_in(cat, d, &lay, &p, &rd);
	for (i = 0; i < rd.n; i++) {
		if (rd.d[i].line == 0 && (size_t)rd.d[i].cmd < p.n)
			rd.d[i].line = d->role[p.l[rd.d[i].cmd].role].line;
	}
	result_move_keep(out, &rd);
	result_free(&rd);
	for (i = 0; i < p.n; i++) {
		struct launch	*la = &p.l[i];
		struct result	 res;
		size_t		 j;

		if (first[la->role] < 0)
			first[la->role] = (int)i;
		if (la->role == ROLE_ROUTER) {
			if (eff[ROLE_ROUTER] == NULL) {
				config_copy(&effs[ROLE_ROUTER], &la->cfg);
				eff[ROLE_ROUTER] = &effs[ROLE_ROUTER];
			}
			continue;
		}
		result_init(&res);
		engine_run(cat, &la->cfg, &res);
		/* A fix's GPUs a node: the role's node size, else the
		 * machines' (8 when neither is stated). */
		engine_verify_fixes_host(cat, &la->cfg, &res,
		    d->role[la->role].gpus_per_node > 0 ?
		    d->role[la->role].gpus_per_node : d->gpus_per_host);
		for (j = 0; j < res.n; j++)
			if (res.d[j].line == 0)
				res.d[j].line = d->role[la->role].line;
		if (eff[la->role] == NULL) {
			effs[la->role] = res.eff;
			memset(&res.eff, 0, sizeof res.eff);
			eff[la->role] = &effs[la->role];
		}
		result_take(out, &res, (int)i);
		result_free(&res);
	}
	result_init(&rd);
	deployment_check_cross_in(cat, d, &lay, eff, &rd);
	for (i = 0; i < rd.n; i++) {
		int	r = rd.d[i].cmd;

		rd.d[i].cmd = r >= 0 && r < NPD_ROLE && first[r] >= 0 ?
		    first[r] : 0;
	}
	result_move_keep(out, &rd);
	result_free(&rd);
	deployment_check_shape(cat, d, out);
	for (i = 0; i < NPD_ROLE; i++)
		if (eff[i] != NULL)
			config_free(&effs[i]);
	plan_free(&p);
	layout_free(&lay);
}

void
deployment_check_shape(const struct catalog *cat, const struct deployment *d,
    struct result *out)
{
	struct result	 rd;
	char		*y, why[4096];

	/* A shape the file reader refuses (hosts that are neither one for
	 * all nor one per node, an empty model path, ...) is an error of the
	 * model too, so a deployment with 0 errors always saves. */
	if ((y = deployment_to_yaml_checked(cat, d, why, sizeof why)) == NULL) {
		result_init(&rd);
		result_add(&rd, "deploy-file", SEV_ERROR, why, NULL,
		    d->role[ROLE_PREFILL].line, 0);
		result_take(out, &rd, 0);
		result_free(&rd);
	}
	free(y);
}

void
kv_free_all(struct kv *arr, size_t n)
{
	kv_free(arr, n);
}

/* ---- copy ---- */

static char *
dup_or_null(const char *s)
{
	return s != NULL ? xstrdup(s) : NULL;
}

static struct kv *
kv_copy(const struct kv *src, size_t n)
{
	struct kv	*v = xcalloc(n + 1, sizeof *v);
	size_t		 i;

	for (i = 0; i < n; i++) {
		v[i] = src[i];
		v[i].name = xstrdup(src[i].name);
		v[i].value = dup_or_null(src[i].value);
	}
	return v;
}

char **
strv_copy(char *const *src, size_t n)
{
	char	**v = xcalloc(n + 1, sizeof *v);
	size_t	  i;

	for (i = 0; i < n; i++)
		v[i] = src[i] != NULL ? xstrdup(src[i]) : NULL;
	return v;
}

static struct endpoint *
ep_copy(const struct endpoint *src, size_t n)
{
	struct endpoint	*v = xcalloc(n + 1, sizeof *v);
	size_t		 i;

	for (i = 0; i < n; i++) {
		v[i] = src[i];
		v[i].url = xstrdup(src[i].url);
	}
	return v;
}

void
deployment_copy(struct deployment *dst, const struct deployment *src)
{
	int	i;

	*dst = *src;
	dst->name = dup_or_null(src->name);
	dst->model = dup_or_null(src->model);
	dst->facts = kv_copy(src->facts, src->nfacts);
	dst->sglang_version = dup_or_null(src->sglang_version);
	dst->shared = kv_copy(src->shared, src->nshared);
	dst->shared_env = kv_copy(src->shared_env, src->nshared_env);
	dst->path = dup_or_null(src->path);
	dst->k8s_image = dup_or_null(src->k8s_image);
	dst->k8s_namespace = dup_or_null(src->k8s_namespace);
	for (i = 0; i < NROLE; i++) {
		const struct role_spec	*s = &src->role[i];
		struct role_spec	*r = &dst->role[i];

		r->hosts = strv_copy(s->hosts, s->nhosts);
		r->opts = kv_copy(s->opts, s->nopts);
		r->env = kv_copy(s->env, s->nenv);
		r->policy = dup_or_null(s->policy);
		r->prefill_urls = ep_copy(s->prefill_urls, s->nprefill_urls);
		r->decode_urls = ep_copy(s->decode_urls, s->ndecode_urls);
		r->extra_args = strv_copy(s->extra_args, s->nextra_args);
		r->bind_host = dup_or_null(s->bind_host);
		r->missing = dup_or_null(s->missing);
		r->model = dup_or_null(s->model);
		r->inst_line = NULL;
		r->inst_bind = s->inst_bind != NULL ?
		    strv_copy(s->inst_bind, s->ninst_line) : NULL;
		if (s->ninst_line > 0) {
			r->inst_line = xreallocarray(NULL, s->ninst_line,
			    sizeof *r->inst_line);
			memcpy(r->inst_line, s->inst_line, s->ninst_line *
			    sizeof *r->inst_line);
		}
	}
}
