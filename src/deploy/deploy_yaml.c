/*
 * deploy_yaml.c - read the deployment file with the ydoc tree, checked field
 * by field with every problem reported as file:line:col. The writer is
 * deploy_yaml_write.c.
 */
#define _POSIX_C_SOURCE 200809L
#include "deploy/deploy.h"
#include "io/input.h"
#include "deploy/deploy_int.h"
#include "core/util.h"
#include "core/ydoc.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

#define DEPLOY_MAX_FILE		(4 * 1024 * 1024)
#define MAX_ERRORS		50

struct pctx {
	const struct catalog	*cat;
	const char		*name;
	struct buf		 err;
	int			 nerr;
};

static void perr(struct pctx *, const struct ynode *, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static void
perr(struct pctx *pc, const struct ynode *n, const char *fmt, ...)
{
	va_list	ap;
	char	msg[1024];

	pc->nerr++;
	if (pc->nerr > MAX_ERRORS)
		return;
	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	buf_printf(&pc->err, "%s%s:%d:%d: %s", pc->err.len ? "\n" : "",
	    pc->name, n ? n->line : 1, n ? n->col : 1, msg);
}

static const char *
nearest(const char *key, const char *const *allowed)
{
	const char	*best = NULL;
	size_t		 bd = 4, d;

	for (; *allowed != NULL; allowed++) {
		d = edit_distance(key, *allowed);
		if (d < bd) {
			bd = d;
			best = *allowed;
		}
	}
	return best;
}

/* Every unknown key of a mapping, with a did-you-mean. */
static bool
check_keys(struct pctx *pc, const struct ynode *m, const char *what,
    const char *const *allowed)
{
	size_t	i;
	bool	ok = true;

	if (m->kind != YN_MAP) {
		perr(pc, m, "%s must be a mapping", what);
		return false;
	}
	for (i = 0; i + 1 < m->nkids; i += 2) {
		const struct ynode	*k = m->kids[i];
		const char *const	*a;
		const char		*s;

		for (a = allowed; *a != NULL; a++)
			if (strcmp(*a, k->str) == 0)
				break;
		if (*a != NULL)
			continue;
		s = nearest(k->str, allowed);
		perr(pc, k, "unknown key '%s' in %s%s%s%s", k->str, what,
		    s ? " (did you mean '" : "", s ? s : "", s ? "'?)" : "");
		ok = false;
	}
	return ok;
}

static const struct ynode *
need(struct pctx *pc, const struct ynode *m, const char *key, const char *what)
{
	const struct ynode	*n = ynode_get(m, key);

	if (n == NULL)
		perr(pc, m, "%s: missing required key '%s'", what, key);
	return n;
}

static char *
get_str(struct pctx *pc, const struct ynode *n, const char *what)
{
	if (n == NULL)
		return NULL;
	if (n->kind != YN_SCALAR || (ynode_is_null(n) && !n->quoted)) {
		perr(pc, n, "%s must be a string", what);
		return NULL;
	}
	return xstrdup(n->str);
}

static int
get_int(struct pctx *pc, const struct ynode *n, const char *what, int lo,
    int hi, int *out)
{
	char	*end;
	long	 v;

	if (n == NULL)
		return 0;
	if (n->kind != YN_SCALAR || n->quoted || n->len == 0) {
		perr(pc, n, "%s must be an integer", what);
		return -1;
	}
	errno = 0;
	v = strtol(n->str, &end, 10);
	if (*end != '\0' || errno != 0) {
		perr(pc, n, "%s must be an integer, not '%s'", what, n->str);
		return -1;
	}
	if (v < lo || v > hi) {
		perr(pc, n, "%s must be between %d and %d, not %ld", what, lo,
		    hi, v);
		return -1;
	}
	*out = (int)v;
	return 0;
}

/* An option or env value: a scalar, or a list for list options. */
static char *
opt_value(struct pctx *pc, const struct ynode *v, int o)
{
	const struct option	*op = &pc->cat->opts[o];
	struct buf		 b = { 0 };
	char			 err[512];
	size_t			 i;

	if (v->kind == YN_SEQ && op->type == T_LIST) {
		for (i = 0; i < v->nkids; i++) {
			if (v->kids[i]->kind != YN_SCALAR) {
				perr(pc, v->kids[i], "%s: list items must be "
				    "scalars", op->name);
				buf_free(&b);
				return NULL;
			}
			if (i > 0)
				buf_putc(&b, '\x1f');
			buf_puts(&b, v->kids[i]->str);
		}
		if (b.s == NULL)
			buf_puts(&b, "");
		return buf_steal(&b);
	}
	if (v->kind != YN_SCALAR) {
		perr(pc, v, "%s: expected a %s", op->name, op->type == T_LIST ?
		    "list or a scalar" : "scalar");
		return NULL;
	}
	if (ynode_is_null(v) && !v->quoted) {
		perr(pc, v, "%s: a value is required (delete the key to use "
		    "SGLang's default)", op->name);
		return NULL;
	}
	/* A flag's boolean is YAML's true or false; an environment
	 * variable's is text, in any spelling SGLang reads (1, yes, on...),
	 * checked below as the script's would be. */
	if (op->kind == OK_FLAG && (op->type == T_BOOL || op->type ==
	    T_BOOLOPT) && (v->quoted || (strcmp(v->str, "true") != 0 &&
	    strcmp(v->str, "false") != 0))) {
		perr(pc, v, "%s: expected true or false, not %s%s%s", op->name,
		    v->quoted ? "'" : "", v->str, v->quoted ? "'" : "");
		return NULL;
	}
	if (op->kind == OK_FLAG && deploy_check_value(pc->cat, o, v->str, err,
	    sizeof err) != 0) {
		perr(pc, v, "%s", err);
		return NULL;
	}
	if (op->kind == OK_ENV && op->type != T_STR &&
	    deploy_check_value(pc->cat, o, v->str, err, sizeof err) != 0) {
		perr(pc, v, "environment variable %s", err);
		return NULL;
	}
	return xstrdup(v->str);
}

/* Did-you-mean over option names of one kind. */
static const char *
suggest_opt(const struct catalog *cat, const char *key, enum okind kind)
{
	const char	*best = NULL;
	size_t		 bd = 4, d, i, klen = strlen(key);
	char		 flag[256];
	int		 o;

	snprintf(flag, sizeof flag, "--%s", key);
	if (kind == OK_FLAG && (o = catalog_find_flag(cat, flag)) >= 0)
		return cat->opts[o].name;
	for (i = 0; i < cat->nopts; i++) {
		if (cat->opts[i].kind != kind)
			continue;
		/* The distance is at least the length difference. */
		d = strlen(cat->opts[i].name);
		if ((d > klen ? d - klen : klen - d) >= bd)
			continue;
		d = edit_distance_within(key, cat->opts[i].name, bd);
		if (d < bd) {
			bd = d;
			best = cat->opts[i].name;
		}
	}
	return best;
}

static void
read_opts(struct pctx *pc, const struct ynode *m, enum okind kind,
    const char *what, struct kv **arr, size_t *n)
{
	size_t	i;

	if (m == NULL)
		return;
	if (m->kind != YN_MAP) {
		if (!ynode_is_null(m))
			perr(pc, m, "%s must be a mapping of name: value", what);
		return;
	}
	for (i = 0; i + 1 < m->nkids; i += 2) {
		const struct ynode	*k = m->kids[i], *v = m->kids[i + 1];
		int			 o = catalog_find(pc->cat, k->str);
		char			*val;

		if (o < 0 || pc->cat->opts[o].kind != kind) {
			const char	*s = suggest_opt(pc->cat, k->str, kind);

			if (o >= 0 && kind == OK_FLAG &&
			    pc->cat->opts[o].kind == OK_ENV)
				perr(pc, k, "'%s' is an environment variable: "
				    "put it under env", k->str);
			else if (o >= 0 && pc->cat->opts[o].kind == OK_FACT)
				perr(pc, k, "'%s' is a model fact: put it under "
				    "model.facts", k->str);
			else
				perr(pc, k, "unknown %s '%s'%s%s%s", kind ==
				    OK_ENV ? "environment variable" :
				    "SGLang option", k->str, s ?
				    " (did you mean '" : "", s ? s : "", s ?
				    "'?)" : "");
			continue;
		}
		if ((val = opt_value(pc, v, o)) == NULL)
			continue;
		kv_set(arr, n, pc->cat->opts[o].name, val, k->line, k->col);
		free(val);
	}
}

/* Is name a variable name the shell accepts ([A-Za-z_][A-Za-z0-9_]*)? */
static bool
env_name_ok(const char *name)
{
	const char	*p = name;

	if (!(isalpha((unsigned char)*p) || *p == '_'))
		return false;
	while (isalnum((unsigned char)*p) || *p == '_')
		p++;
	return *p == '\0';
}

/*
 * unchecked_env: environment variables outside pdwiz's catalog
 * (NCCL_SOCKET_IFNAME, HCCL_*, ...), kept verbatim and emitted as given,
 * never checked. They join the env list; the writer tells them apart by
 * the catalog again.
 */
static void
read_unchecked_env(struct pctx *pc, const struct ynode *m, const char *what,
    struct kv **arr, size_t *n)
{
	struct kv	*add;		/* names borrowed from m */
	size_t		 i, nadd = 0;

	if (m == NULL || (m->kind != YN_MAP && ynode_is_null(m)))
		return;
	if (m->kind != YN_MAP) {
		perr(pc, m, "%s must be a mapping of name: value", what);
		return;
	}
	add = xcalloc(m->nkids / 2 + 1, sizeof *add);
	for (i = 0; i + 1 < m->nkids; i += 2) {
		const struct ynode	*k = m->kids[i], *v = m->kids[i + 1];
		int			 o = catalog_find(pc->cat, k->str);
		char			*val;

		if (!env_name_ok(k->str)) {
			perr(pc, k, "'%s' is not an environment variable name "
			    "(letters, digits and '_', not starting with a "
			    "digit)", k->str);
			continue;
		}
		if (o >= 0 && pc->cat->opts[o].kind == OK_ENV) {
			perr(pc, k, "'%s' is in pdwiz's catalog: put it under "
			    "env, where it is checked", k->str);
			continue;
		}
		if ((val = get_str(pc, v, what)) == NULL)
			continue;
		add[nadd].name = k->str;
		add[nadd].value = val;
		add[nadd].line = k->line;
		add[nadd++].col = k->col;
	}
	kv_setv(arr, n, add, nadd);
	for (i = 0; i < nadd; i++)
		free(add[i].value);
	free(add);
}

static void
read_router_opts(struct pctx *pc, const struct ynode *m, struct role_spec *r)
{
	size_t	i;

	if (m == NULL)
		return;
	if (m->kind != YN_MAP) {
		perr(pc, m, "router options must be a mapping");
		return;
	}
	for (i = 0; i + 1 < m->nkids; i += 2) {
		const struct ynode	*k = m->kids[i], *v = m->kids[i + 1];
		const struct option	*ro = router_opt_find(pc->cat, k->str);
		struct value		 iv;

		if (ro == NULL || strcmp(k->str, "policy") == 0) {
			const char	*names[64];

			router_opt_names(pc->cat, names, 64);
			if (ro != NULL)
				perr(pc, k, "policy is a key of the router role, "
				    "not an option");
			else {
				const char	*s = nearest(k->str, names);

				perr(pc, k, "unknown router option '%s'%s%s%s "
				    "(other router flags: extra_args)", k->str,
				    s ? " (did you mean '" : "", s ? s : "",
				    s ? "'?)" : "");
			}
			continue;
		}
		if (v->kind != YN_SCALAR || ynode_is_null(v)) {
			perr(pc, v, "%s: expected a scalar value", k->str);
			continue;
		}
		/* The router's integers are 64-bit (a payload limit of 2 GiB
		 * is common), as the reader of its command line takes them. */
		if (ro->type == T_INT && (v->quoted ||
		    val_parse(T_INT, v->str, &iv) != 0)) {
			perr(pc, v, "%s must be an integer, not '%s'", k->str,
			    v->str);
			continue;
		}
		if (ro->type == T_BOOL && (v->quoted ||
		    (strcmp(v->str, "true") != 0 && strcmp(v->str, "false") != 0))) {
			perr(pc, v, "%s: expected true or false", k->str);
			continue;
		}
		kv_set(&r->opts, &r->nopts, k->str, v->str, k->line, k->col);
	}
}

static void
read_strlist(struct pctx *pc, const struct ynode *n, const char *what,
    char ***out, size_t *nout)
{
	size_t	i;

	if (n == NULL)
		return;
	if (n->kind != YN_SEQ) {
		perr(pc, n, "%s must be a list", what);
		return;
	}
	for (i = 0; i < n->nkids; i++) {
		char	*s = get_str(pc, n->kids[i], what);

		if (s == NULL)
			continue;
		*out = xreallocarray(*out, *nout + 1, sizeof **out);
		(*out)[(*nout)++] = s;
	}
}

static void
read_endpoints(struct pctx *pc, const struct ynode *n, const char *what,
    bool prefill, struct endpoint **out, size_t *nout)
{
	static const char *const pk[] = { "url", "bootstrap_port", NULL };
	static const char *const dk[] = { "url", NULL };
	size_t	i;

	if (n == NULL)
		return;
	if (n->kind != YN_SEQ) {
		perr(pc, n, "%s must be a list", what);
		return;
	}
	for (i = 0; i < n->nkids; i++) {
		const struct ynode	*e = n->kids[i];
		struct endpoint		 ep = { NULL, -1, e->line, e->col, NULL };
		const struct ynode	*bp = ynode_get(e, "bootstrap_port");

		if (!check_keys(pc, e, what, prefill ? pk : dk))
			continue;
		ep.url = get_str(pc, need(pc, e, "url", what), "url");
		/* A word the router refuses (neither a number nor 'none') is
		 * kept as written, as a script's would be. */
		if (bp != NULL && bp->kind == YN_SCALAR && bp->quoted &&
		    strspn(bp->str, "0123456789") != strlen(bp->str)) {
			if (strcasecmp(bp->str, "none") != 0)
				ep.bad_port = intern(bp->str);
			bp = NULL;
		}
		if (get_int(pc, bp, "bootstrap_port",
		    1, 65535, &ep.bootstrap_port) != 0 || ep.url == NULL) {
			free(ep.url);
			continue;
		}
		*out = xreallocarray(*out, *nout + 1, sizeof **out);
		(*out)[(*nout)++] = ep;
	}
}

static void	check_model_path(struct pctx *, const struct ynode *,
		    const char *, const char *);

static void
read_role(struct pctx *pc, const struct ynode *m, enum role role,
    struct role_spec *r)
{
	static const char *const server_keys[] = { "instances",
	    "nodes_per_instance", "gpus_per_node", "hosts", "bind_host", "port",
	    "port_step", "bootstrap_port", "dist_init_port", "base_gpu_id",
	    "gpu_step", "model", "options", "extra_args", "env",
	    "unchecked_env", "pod_hosts", NULL };
	static const char *const router_keys[] = { "hosts", "bind_host",
	    "port", "policy", "options", "env", "unchecked_env", "prefill_urls",
	    "decode_urls",
	    "extra_args", NULL };
	const char	*rn = role_name(role);
	const struct ynode *n;
	char		 what[64];
	size_t		 need_hosts;

	snprintf(what, sizeof what, "roles.%s", rn);
	r->enabled = true;
	r->line = m->line;
	if (m->kind != YN_MAP) {
		perr(pc, m, "%s must be a mapping", what);
		return;
	}
	/* Unknown keys are reported; the known ones are still read. */
	check_keys(pc, m, what, role == ROLE_ROUTER ? router_keys :
	    server_keys);
	read_strlist(pc, ynode_get(m, "hosts"), "hosts", &r->hosts,
	    &r->nhosts);
	r->bind_host = get_str(pc, ynode_get(m, "bind_host"), "bind_host");
	get_int(pc, ynode_get(m, "port"), "port", 1, 65535, &r->port);
	if (role == ROLE_ROUTER) {
		r->instances = 1;
		r->policy = get_str(pc, ynode_get(m, "policy"), "policy");
		read_router_opts(pc, ynode_get(m, "options"), r);
		read_opts(pc, ynode_get(m, "env"), OK_ENV, "env", &r->env,
		    &r->nenv);
		read_unchecked_env(pc, ynode_get(m, "unchecked_env"),
		    "unchecked_env", &r->env, &r->nenv);
		read_endpoints(pc, ynode_get(m, "prefill_urls"), "prefill_urls",
		    true, &r->prefill_urls, &r->nprefill_urls);
		read_endpoints(pc, ynode_get(m, "decode_urls"), "decode_urls",
		    false, &r->decode_urls, &r->ndecode_urls);
		read_strlist(pc, ynode_get(m, "extra_args"), "extra_args",
		    &r->extra_args, &r->nextra_args);
		if (r->nhosts > 1)
			perr(pc, ynode_get(m, "hosts"), "the router runs on one "
			    "host");
		return;
	}
	get_int(pc, need(pc, m, "instances", what), "instances", 1, 1024,
	    &r->instances);
	get_int(pc, ynode_get(m, "nodes_per_instance"), "nodes_per_instance",
	    1, 1024, &r->nodes_per_instance);
	get_int(pc, ynode_get(m, "gpus_per_node"), "gpus_per_node", 1,
	    1024, &r->gpus_per_node);
	get_int(pc, ynode_get(m, "port_step"), "port_step", 0, 1000,
	    &r->port_step);
	if (ynode_get(m, "bootstrap_port") != NULL && role != ROLE_PREFILL)
		perr(pc, ynode_get(m, "bootstrap_port"), "bootstrap_port is "
		    "a prefill setting (the port its bootstrap server serves); "
		    "a decode's --disaggregation-bootstrap-port, the port it "
		    "asks prefills on when the router gives none, is one of "
		    "its options");
	get_int(pc, ynode_get(m, "bootstrap_port"), "bootstrap_port", 1, 65535,
	    &r->bootstrap_port);
	/* 0: the multi-node instance has no usable rendezvous port (as the
	 * import of a script that gives none writes it); xs-dist-init-addr
	 * reports it. */
	get_int(pc, ynode_get(m, "dist_init_port"), "dist_init_port", 0, 65535,
	    &r->dist_init_port);
	get_int(pc, ynode_get(m, "base_gpu_id"), "base_gpu_id", 0, 1023,
	    &r->base_gpu_id);
	get_int(pc, ynode_get(m, "gpu_step"), "gpu_step", 0, 1024,
	    &r->gpu_step);
	if ((n = ynode_get(m, "pod_hosts")) != NULL) {
		if (n->kind != YN_SCALAR || n->quoted || (strcmp(n->str,
		    "true") != 0 && strcmp(n->str, "false") != 0))
			perr(pc, n, "pod_hosts must be true or false");
		else
			r->pod_hosts = strcmp(n->str, "true") == 0;
	}
	if ((n = ynode_get(m, "model")) != NULL) {
		r->model = get_str(pc, n, "model");
		r->model_line = n->line;
		if (r->model != NULL)
			check_model_path(pc, n, r->model, "model");
	}
	read_opts(pc, ynode_get(m, "options"), OK_FLAG, "options", &r->opts,
	    &r->nopts);
	/* Words added to the command as given (what SGLang's argparse
	 * refuses): checked as the command's, not here. */
	read_strlist(pc, ynode_get(m, "extra_args"), "extra_args",
	    &r->extra_args, &r->nextra_args);
	read_opts(pc, ynode_get(m, "env"), OK_ENV, "env", &r->env, &r->nenv);
	read_unchecked_env(pc, ynode_get(m, "unchecked_env"), "unchecked_env",
	    &r->env, &r->nenv);
	if (r->nodes_per_instance > 1 && r->nhosts == 0)
		perr(pc, m, "%s: an instance spans %d nodes; list one host per "
		    "node in hosts", what, r->nodes_per_instance);
	need_hosts = (size_t)r->instances * (size_t)r->nodes_per_instance;
	if (r->nhosts != 0 && r->nhosts != 1 && r->nhosts != need_hosts)
		perr(pc, ynode_get(m, "hosts"), "%s: %zu hosts given; expected "
		    "one per node (instances x nodes_per_instance = %zu), or one "
		    "for all", what, r->nhosts, need_hosts);
	if (r->nhosts == 1 && r->nodes_per_instance > 1)
		perr(pc, ynode_get(m, "hosts"), "%s: an instance spans %d "
		    "nodes; list one host per node", what,
		    r->nodes_per_instance);
}

/* Option names the role machinery sets itself: not allowed in options. */
static const char *const managed[] = { "model_path", "disaggregation_mode",
	"host", "port", "disaggregation_bootstrap_port", "base_gpu_id",
	"dist_init_addr", "nnodes", "node_rank", NULL };

static void
check_managed(struct pctx *pc, const struct kv *arr, size_t n, bool decode)
{
	size_t	i, j;

	for (i = 0; i < n; i++)
		for (j = 0; managed[j] != NULL; j++)
			if (strcmp(arr[i].name, managed[j]) == 0 &&
			    !(decode && strcmp(arr[i].name,
			    "disaggregation_bootstrap_port") == 0)) {
				struct ynode	at = { 0 };

				at.line = arr[i].line;
				at.col = arr[i].col;
				perr(pc, &at, "'%s' is set by the deployment "
				    "itself (model.path, hosts, port, "
				    "bootstrap_port, base_gpu_id, "
				    "nodes_per_instance, dist_init_port); it "
				    "cannot be an option", arr[i].name);
			}
}

/* A model path SGLang can load: not empty, of a sane length. */
static void
check_model_path(struct pctx *pc, const struct ynode *n, const char *p,
    const char *key)
{
	if (n == NULL || p == NULL)
		return;
	if (*p == '\0') {
		perr(pc, n, "%s is empty: give the model's Hugging Face "
		    "id or its directory", key);
		return;
	}
	if (strlen(p) > 4096)
		perr(pc, n, "%s is %zu bytes long; a path or model id "
		    "is at most 4096", key, strlen(p));
}

/* A Kubernetes namespace is a DNS-1123 label: [a-z0-9-], 1-63, starting
 * and ending with a letter or digit. */
static bool
dns1123_label(const char *s)
{
	size_t	n = strlen(s), i;

	if (n == 0 || n > 63 || s[0] == '-' || s[n - 1] == '-')
		return false;
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= '0' &&
		    s[i] <= '9') || s[i] == '-'))
			return false;
	return true;
}

/* An image reference: [registry/]name[:tag][@digest], no blanks or
 * control characters, lower-case repository path. */
static bool
image_ref(const char *s)
{
	size_t	i, n = strlen(s);
	bool	in_tag = false;

	if (n == 0 || n > 1024)
		return false;
	for (i = 0; i < n; i++) {
		unsigned char	c = (unsigned char)s[i];

		if (c <= 0x20 || c >= 0x7f)
			return false;
		if (c == ':' || c == '@')
			in_tag = true;
		else if (c == '/')
			in_tag = false;
		if (!in_tag && c >= 'A' && c <= 'Z')
			return false;
	}
	return true;
}

static void
check_k8s(struct pctx *pc, const struct ynode *m, const struct deployment *d)
{
	if (d->k8s_namespace != NULL && !dns1123_label(d->k8s_namespace))
		perr(pc, ynode_get(m, "namespace"), "k8s.namespace '%s' is not "
		    "a Kubernetes namespace (lower-case letters, digits and '-', "
		    "at most 63, starting and ending with a letter or digit)",
		    d->k8s_namespace);
	if (d->k8s_image != NULL && !image_ref(d->k8s_image))
		perr(pc, ynode_get(m, "image"), "k8s.image '%s' is not an image "
		    "reference ([registry/]name[:tag], no blanks)",
		    d->k8s_image);
}

/*
 * missing: ROLE: "what the source lacked", as pdwiz import writes it for a
 * script with only some of the commands. A role listed there may be left
 * out of roles (it is not deployed, and the checks that need it say they
 * could not check); a role listed and present lacks some of its nodes.
 */
/* What a role's missing.ROLE says is unknown: the phrases import writes
 * (deploy_int.h); a text with none of them, all of it. Its options are
 * known unless their words are expanded at run time. */
void
deployment_read_unstated(struct role_spec *r)
{
	const char	*m = r->missing;
	bool		 host = strstr(m, MISSING_HOST) != NULL ||
	    strstr(m, MISSING_NODES) != NULL;
	bool		 port = strstr(m, MISSING_PORT) != NULL;
	bool		 args = strstr(m, MISSING_ARGS) != NULL;

	/* Words expanded in place of options may set anything, --host and
	 * --port among them. */
	if (args || (!host && !port))
		host = port = args = true;
	r->host_unstated = host;
	r->port_unstated = port;
	r->args_unstated = args;
}

static void
read_missing(struct pctx *pc, const struct ynode *m, struct deployment *d)
{
	static const char *const keys[] = { "prefill", "decode", "router",
	    NULL };
	int	i;

	if (m == NULL || !check_keys(pc, m, "missing", keys))
		return;
	for (i = 0; i < NPD_ROLE; i++) {
		const struct ynode	*n = ynode_get(m, role_names_for_file(i));

		if (n != NULL) {
			d->role[i].missing = get_str(pc, n, "missing");
			d->role[i].line = n->line;
		}
	}
}

int
deployment_from_ydoc(const struct catalog *cat, const char *name,
    const struct ynode *root, struct deployment *d, char *err, size_t errlen)
{
	static const char *const top[] = { "pdwiz", "name", "sglang", "model",
	    "gpus_per_host", "missing", "shared", "roles", "k8s", NULL };
	static const char *const model_keys[] = { "path", "facts", NULL };
	static const char *const shared_keys[] = { "options", "env",
	    "unchecked_env", NULL };
	static const char *const role_keys[] = { "prefill", "decode", "router",
	    NULL };
	static const char *const k8s_keys[] = { "image", "namespace", NULL };
	struct pctx		 pc = { cat, name, { 0 }, 0 };
	const struct ynode	*n, *m;
	int			 ver = 0, i;

	deployment_init(d);
	d->path = xstrdup(name);
	if (root->kind != YN_MAP) {
		perr(&pc, root, "the deployment file must be a mapping");
		goto done;
	}
	check_keys(&pc, root, "the deployment file", top);
	if ((n = need(&pc, root, "pdwiz", "the deployment file")) != NULL &&
	    get_int(&pc, n, "pdwiz (format version)", 1, INT_MAX, &ver) == 0 &&
	    ver != DEPLOY_FORMAT_VERSION)
		perr(&pc, n, "deployment format version %d is not supported "
		    "(this pdwiz reads version %d)", ver, DEPLOY_FORMAT_VERSION);
	d->name = get_str(&pc, ynode_get(root, "name"), "name");
	d->sglang_version = get_str(&pc, ynode_get(root, "sglang"), "sglang");
	/* null: the source did not say (an import), and the checks that
	 * need it could not check; absent: pdwiz's default. */
	if ((m = ynode_get(root, "gpus_per_host")) != NULL && ynode_is_null(m))
		d->gpus_per_host = -1;
	else
		get_int(&pc, m, "gpus_per_host", 1, 1024, &d->gpus_per_host);
	read_missing(&pc, ynode_get(root, "missing"), d);
	if ((m = need(&pc, root, "model", "the deployment file")) != NULL &&
	    check_keys(&pc, m, "model", model_keys)) {
		n = need(&pc, m, "path", "model");
		d->model = get_str(&pc, n, "model.path");
		d->model_line = n ? n->line : 0;
		/* A router alone (prefill and decode missing) serves no model
		 * of its own: its path may be empty. */
		if (d->role[ROLE_PREFILL].missing == NULL ||
		    d->role[ROLE_DECODE].missing == NULL || d->model == NULL ||
		    *d->model != '\0')
			check_model_path(&pc, n, d->model, "model.path");
		if ((n = ynode_get(m, "facts")) != NULL)
			read_opts(&pc, n, OK_FACT, "model.facts", &d->facts,
			    &d->nfacts);
	}
	if ((m = ynode_get(root, "shared")) != NULL &&
	    check_keys(&pc, m, "shared", shared_keys)) {
		read_opts(&pc, ynode_get(m, "options"), OK_FLAG,
		    "shared.options", &d->shared, &d->nshared);
		read_opts(&pc, ynode_get(m, "env"), OK_ENV, "shared.env",
		    &d->shared_env, &d->nshared_env);
		read_unchecked_env(&pc, ynode_get(m, "unchecked_env"),
		    "shared.unchecked_env", &d->shared_env, &d->nshared_env);
		check_managed(&pc, d->shared, d->nshared, false);
	}
	if ((m = need(&pc, root, "roles", "the deployment file")) != NULL &&
	    check_keys(&pc, m, "roles", role_keys)) {
		for (i = 0; i < NPD_ROLE; i++) {
			n = ynode_get(m, role_names_for_file(i));
			if (n == NULL && d->role[i].missing == NULL)
				need(&pc, m, role_names_for_file(i), "roles");
			if (n != NULL) {
				read_role(&pc, n, (enum role)i, &d->role[i]);
				if (i != ROLE_ROUTER)
					check_managed(&pc, d->role[i].opts,
					    d->role[i].nopts, i == ROLE_DECODE);
			}
		}
	}
	/* A role the file says is incomplete (missing.ROLE: nodes, a machine,
	 * ports or options the script left to run time): where each runs and
	 * what its command sets are not known, and the checks say so rather
	 * than place them. */
	for (i = 0; i < NPD_ROLE; i++)
		if (d->role[i].enabled && d->role[i].missing != NULL)
			deployment_read_unstated(&d->role[i]);
	if (m != NULL && m->kind == YN_MAP && !d->role[ROLE_PREFILL].enabled &&
	    !d->role[ROLE_DECODE].enabled && !d->role[ROLE_ROUTER].enabled)
		perr(&pc, m, "roles: no role at all (missing lists every one)");
	if ((m = ynode_get(root, "k8s")) != NULL &&
	    check_keys(&pc, m, "k8s", k8s_keys)) {
		d->k8s_image = get_str(&pc, ynode_get(m, "image"), "k8s.image");
		d->k8s_namespace = get_str(&pc, ynode_get(m, "namespace"),
		    "k8s.namespace");
		check_k8s(&pc, m, d);
	}
done:
	if (pc.nerr > 0) {
		if (pc.nerr > MAX_ERRORS)
			buf_printf(&pc.err, "\n%s: ... %d more problems", name,
			    pc.nerr - MAX_ERRORS);
		snprintf(err, errlen, "%s", pc.err.s);
		buf_free(&pc.err);
		deployment_free(d);
		return -1;
	}
	buf_free(&pc.err);
	return 0;
}

int
deployment_parse(const struct catalog *cat, const char *name,
    const char *text, size_t len, struct deployment *d, char *err,
    size_t errlen)
{
	struct ynode	*root;
	int		 rc;

	deployment_init(d);
	if ((root = ydoc_parse(name, text, len, false, err, errlen)) == NULL)
		return -1;
	rc = deployment_from_ydoc(cat, name, root, d, err, errlen);
	ynode_free(root);
	return rc;
}

const char *
role_names_for_file(int i)
{
	return role_name((enum role)i);
}

int
deployment_load(const struct catalog *cat, const char *path,
    struct deployment *d, char *err, size_t errlen)
{
	char	*text;
	size_t	 len;
	int	 rc;

	deployment_init(d);
	if ((text = read_file(path, DEPLOY_MAX_FILE, &len, err, errlen)) ==
	    NULL)
		return -1;
	rc = deployment_parse(cat, path, text, len, d, err, errlen);
	free(text);
	return rc;
}

bool
deployment_sniff_ydoc(const struct ynode *root)
{
	return input_is_deployment(root);
}

bool
deployment_sniff(const char *text, size_t len)
{
	char		 err[256];
	struct ynode	*root;
	bool		 r;

	/* By structure: any YAML layout (flow style, quoted keys, comments
	 * first) of a mapping with a top-level roles or pdwiz key. */
	if ((root = ydoc_parse("-", text, len, false, err, sizeof err)) ==
	    NULL)
		return false;
	r = deployment_sniff_ydoc(root);
	ynode_free(root);
	return r;
}
