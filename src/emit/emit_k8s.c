/*
 * emit_k8s.c - Kubernetes manifests on an existing engine, in the shape of
 * SGLang's LWS PD example: a LeaderWorkerSet per server role (group size =
 * nodes per instance; ranks from LWS_LEADER_ADDRESS, LWS_GROUP_SIZE,
 * LWS_WORKER_INDEX), host network and IPC, RDMA devices, /dev/shm in memory,
 * a router Deployment listing every instance's leader, and Services.
 * Strings are written with yaml_str, which every YAML reader gives back
 * byte for byte; the comments with one_line. In command, args and
 * env[].value the kubelet then expands $(NAME) and turns $$ into $: there
 * every $ of the deployment's text is written $$ (k8s_expanded), so the
 * container gets the text as it is; only pdwiz's own references
 * ($(LWS_LEADER_ADDRESS), $(LWS_GROUP_SIZE), $(LWS_WORKER_INDEX)) expand.
 *
 * Names: the LeaderWorkerSet controller creates, only if no Service of
 * that name exists, a headless Service named after the LeaderWorkerSet;
 * the leader pods <lws>-<i> get their DNS names (<lws>-<i>.<lws>, also
 * LWS_LEADER_ADDRESS) from it. So no Service of ours takes an LWS name:
 * a role's Service on its leaders is <lws>-leaders, the router's is
 * <name>-router. The router reaches each leader at <lws>-<i>.<lws>, on the
 * ports every replica of the pod template listens on (instance 0's): its
 * lists are the deployment's, each entry that names an instance written as
 * that instance's leader pod, every other entry as given (router_lists).
 */
#define _POSIX_C_SOURCE 200809L
#include "emit/emit.h"
#include "emit/emit_int.h"
#include "core/util.h"
#include "deploy/layout.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The SGLang release the catalog models. rules/options.yaml reads SGLang
 * sources of several 2026 commits, not one release. The newest dated
 * reference among them (server_args.py@001067ff names the GGUF builds of
 * DeepSeek-V4-Flash-0731, published 2026-07-31) dates them to August 2026
 * or later; v0.5.18, published in late August 2026 as
 * lmsysorg/sglang:v0.5.18, is the release of that time (v0.5.17 was
 * already out by 2026-08-10). Which release first holds every one of those
 * commits was not established. The deployment's sglang key and k8s.image
 * override it (image_for).
 */
#define DEFAULT_IMAGE	"lmsysorg/sglang:v0.5.18"

/* A DNS-1035 label from the deployment name. */
static char *
k8s_name(const struct deployment *d, const char *suffix)
{
	struct buf	 b = { 0 };
	const char	*s = d->name && d->name[0] ? d->name : "pd";
	bool		 dash = true;

	for (; *s != '\0' && b.len < 40; s++) {
		char	c = (char)tolower((unsigned char)*s);

		if (isalnum((unsigned char)c) && (b.len > 0 || isalpha(
		    (unsigned char)c))) {
			buf_putc(&b, c);
			dash = false;
		} else if (!dash && b.len > 0) {
			buf_putc(&b, '-');
			dash = true;
		}
	}
	while (b.len > 0 && b.s[b.len - 1] == '-')
		b.s[--b.len] = '\0';
	if (b.len == 0)
		buf_puts(&b, "pd");
	if (suffix != NULL)
		buf_printf(&b, "-%s", suffix);
	return buf_steal(&b);
}

/* s as a string of command, args or env[].value: every $ written $$. */
static void
k8s_expanded(struct buf *b, const char *s)
{
	struct buf	e = { 0 };

	for (; *s != '\0'; s++) {
		if (*s == '$')
			buf_putc(&e, '$');
		buf_putc(&e, *s);
	}
	yaml_str(b, e.s != NULL ? e.s : "");
	buf_free(&e);
}

static void
meta(struct buf *b, const struct deployment *d, const char *name,
    const char *role)
{
	buf_puts(b, "metadata:\n  name: ");
	yaml_str(b, name);
	buf_putc(b, '\n');
	if (d->k8s_namespace != NULL) {
		buf_puts(b, "  namespace: ");
		yaml_str(b, d->k8s_namespace);
		buf_putc(b, '\n');
	}
	buf_puts(b, "  labels:\n    app.kubernetes.io/managed-by: \"pdwiz\"\n"
	    "    pdwiz.role: ");
	yaml_str(b, role);
	buf_putc(b, '\n');
}

/* Does the role have what its source left unknown (missing.ROLE: its
 * machine, a port, words in place of options)? */
static bool
role_unknowns(const struct role_spec *rs)
{
	return rs->enabled && rs->missing != NULL && (rs->host_unstated ||
	    rs->port_unstated || rs->args_unstated);
}

/*
 * The server's environment: the deployment's name, model facts and
 * unknowns first, as PDWIZ_NAME, PDWIZ_FACT_NAME and PDWIZ_MISSING_ROLE (no
 * process reads them; pdwiz check and import of the manifest do, as they
 * read the shell emitter's assignments),
 * then the role's env.
 */
static void
env_list(struct buf *b, const struct deployment *d, enum role r,
    const char *ind)
{
	struct kv	*env;
	size_t		 n, i, nf = 0;
	int		 k;

	role_env(d, r, &env, &n);
	for (i = 0; i < d->nfacts; i++)
		if (d->facts[i].value != NULL && env_name(d->facts[i].name))
			nf++;
	if (d->name != NULL && *d->name != '\0')
		nf++;
	for (k = ROLE_PREFILL; k <= ROLE_DECODE; k++)
		if (role_unknowns(&d->role[k]))
			nf++;
	if (n + nf == 0) {
		kv_free_all(env, n);
		return;
	}
	buf_printf(b, "%senv:\n", ind);
	if (d->name != NULL && *d->name != '\0') {
		buf_printf(b, "%s  - name: \"PDWIZ_NAME\"\n%s    value: ", ind,
		    ind);
		k8s_expanded(b, d->name);
		buf_putc(b, '\n');
	}
	for (i = 0; i < d->nfacts; i++) {
		if (d->facts[i].value == NULL || !env_name(d->facts[i].name))
			continue;
		buf_printf(b, "%s  - name: \"PDWIZ_FACT_%s\"\n%s    value: ",
		    ind, d->facts[i].name, ind);
		k8s_expanded(b, d->facts[i].value);
		buf_putc(b, '\n');
	}
	/* What the source left unknown of each role (missing.ROLE), in
	 * every server's environment as pdwiz import reads it from the
	 * first. */
	for (k = ROLE_PREFILL; k <= ROLE_DECODE; k++) {
		if (!role_unknowns(&d->role[k]))
			continue;
		buf_printf(b, "%s  - name: \"PDWIZ_MISSING_%s\"\n%s    value: ",
		    ind, k == ROLE_PREFILL ? "PREFILL" : "DECODE", ind);
		k8s_expanded(b, d->role[k].missing);
		buf_putc(b, '\n');
	}
	for (i = 0; i < n; i++) {
		buf_printf(b, "%s  - name: ", ind);
		yaml_str(b, env[i].name);
		buf_printf(b, "\n%s    value: ", ind);
		k8s_expanded(b, env[i].value ? env[i].value : "");
		buf_putc(b, '\n');
	}
	kv_free_all(env, n);
}

static bool
loopback(const char *h)
{
	return h != NULL && (strncmp(h, "127.", 4) == 0 ||
	    strcmp(h, "localhost") == 0 || strcmp(h, "::1") == 0);
}

/*
 * The server's --host in its pod: 0.0.0.0, as each pod runs on a node
 * LWS chooses and is reached at its pod's name; but a server the
 * deployment binds to the loopback of a machine it names otherwise (a
 * bind the peers on other machines cannot reach) keeps that bind, so the
 * manifests listen as the deployment does. Where the deployment does not
 * know the machine (not stated, or a name left to run time), whether its
 * peers share it is unknown, and the pod's bind stays 0.0.0.0.
 */
static const char *
pod_bind(const struct deployment *d, const struct launch *l)
{
	const char	*bind = launch_bind(d, l);

	return loopback(bind) && !loopback(l->host) && !l->host_unstated &&
	    strpbrk(l->host, "$`(){}<>") == NULL ? bind : "0.0.0.0";
}

/* Server args: the plan's, with node placement taken from LWS. */
static void
server_args(struct buf *b, const struct deployment *d, const struct launch *l,
    const struct role_spec *r, const char *ind)
{
	size_t	i;

	buf_printf(b, "%sargs:\n", ind);
	for (i = l->argstart; i < l->argc; i++) {
		const char	*a = l->argv[i];

		if (strcmp(a, "--dist-init-addr") == 0 ||
		    strcmp(a, "--nnodes") == 0 || strcmp(a, "--node-rank") == 0 ||
		    strcmp(a, "--host") == 0 || strcmp(a, "--base-gpu-id") == 0) {
			i++;
			continue;
		}
		buf_printf(b, "%s  - ", ind);
		k8s_expanded(b, a);
		buf_putc(b, '\n');
	}
	buf_printf(b, "%s  - \"--host\"\n%s  - ", ind, ind);
	k8s_expanded(b, pod_bind(d, l));
	buf_putc(b, '\n');
	if (r->nodes_per_instance > 1)
		buf_printf(b, "%s  - \"--dist-init-addr\"\n%s  - "
		    "\"$(LWS_LEADER_ADDRESS):%d\"\n%s  - \"--nnodes\"\n%s  - "
		    "\"$(LWS_GROUP_SIZE)\"\n%s  - \"--node-rank\"\n%s  - "
		    "\"$(LWS_WORKER_INDEX)\"\n", ind, ind, r->dist_init_port, ind,
		    ind, ind, ind);
}

static void
pod_spec(struct buf *b, const struct catalog *cat, const struct deployment *d,
    const struct launch *l, const char *image, const char *ind)
{
	const struct role_spec	*r = &d->role[l->role];

	buf_printf(b, "%sspec:\n", ind);
	buf_printf(b, "%s  hostNetwork: true\n%s  hostIPC: true\n"
	    "%s  dnsPolicy: \"ClusterFirstWithHostNet\"\n", ind, ind, ind);
	buf_printf(b, "%s  containers:\n%s    - name: \"sglang\"\n"
	    "%s      image: ", ind, ind, ind);
	yaml_str(b, image);
	buf_printf(b, "\n%s      command: [\"python3\", \"-m\", "
	    "\"sglang.launch_server\"]\n", ind);
	{
		char	*in2 = xasprintf("%s      ", ind);

		server_args(b, d, l, r, in2);
		env_list(b, d, l->role, in2);
		free(in2);
	}
	buf_printf(b, "%s      ports:\n%s        - containerPort: %d\n", ind,
	    ind, r->port);
	if (l->role == ROLE_PREFILL)
		buf_printf(b, "%s        - containerPort: %d\n", ind,
		    role_bootstrap_port(cat, r, 0));
	buf_printf(b, "%s      resources:\n%s        limits:\n"
	    "%s          nvidia.com/gpu: \"%d\"\n", ind, ind, ind,
	    r->gpus_per_node);
	buf_printf(b, "%s      securityContext:\n%s        privileged: true\n"
	    "%s        capabilities:\n%s          add: [\"IPC_LOCK\"]\n", ind,
	    ind, ind, ind);
	buf_printf(b, "%s      volumeMounts:\n%s        - name: \"shm\"\n"
	    "%s          mountPath: \"/dev/shm\"\n%s        - name: \"ib\"\n"
	    "%s          mountPath: \"/dev/infiniband\"\n", ind, ind, ind, ind,
	    ind);
	buf_printf(b, "%s  volumes:\n%s    - name: \"shm\"\n%s      emptyDir:\n"
	    "%s        medium: \"Memory\"\n%s    - name: \"ib\"\n"
	    "%s      hostPath:\n%s        path: \"/dev/infiniband\"\n", ind, ind,
	    ind, ind, ind, ind, ind);
}

/* A LeaderWorkerSet per server role and a Service on its leaders. */
static void
server_sets(struct buf *b, const struct catalog *cat,
    const struct deployment *d, const struct plan *p, const char *image)
{
	size_t	i;
	int	role;

	for (role = ROLE_PREFILL; role <= ROLE_DECODE; role++) {
		const struct role_spec	*r = &d->role[role];
		const struct launch	*l = NULL;
		const char		*rn = role_name((enum role)role);
		char			*name = k8s_name(d, rn), *svc;

		for (i = 0; i < p->n; i++)
			if (p->l[i].role == (enum role)role) {
				l = &p->l[i];
				break;
			}
		if (!r->enabled || l == NULL) {
			free(name);
			continue;
		}
		buf_puts(b, "---\napiVersion: \"leaderworkerset.x-k8s.io/v1\"\n"
		    "kind: \"LeaderWorkerSet\"\n");
		meta(b, d, name, rn);
		buf_printf(b, "spec:\n  replicas: %d\n  leaderWorkerTemplate:\n"
		    "    size: %d\n    restartPolicy: \"RecreateGroupOnPodRestart\"\n"
		    "    workerTemplate:\n      metadata:\n        labels:\n"
		    "          pdwiz.role: ", r->instances, r->nodes_per_instance);
		yaml_str(b, rn);
		buf_putc(b, '\n');
		pod_spec(b, cat, d, l, image, "      ");
		/*
		 * Service on the leaders (worker index 0); the LWS's own name
		 * stays free for its headless Service.
		 */
		svc = xasprintf("%s-leaders", name);
		buf_puts(b, "---\napiVersion: \"v1\"\nkind: \"Service\"\n");
		meta(b, d, svc, rn);
		free(svc);
		buf_puts(b, "spec:\n  selector:\n"
		    "    leaderworkerset.sigs.k8s.io/name: ");
		yaml_str(b, name);
		buf_puts(b, "\n    leaderworkerset.sigs.k8s.io/worker-index: \"0\"\n"
		    "  ports:\n");
		buf_printf(b, "    - name: \"http\"\n      port: %d\n", r->port);
		if (role == ROLE_PREFILL)
			buf_printf(b, "    - name: \"bootstrap\"\n      port: %d\n",
			    role_bootstrap_port(cat, r, 0));
		free(name);
	}
}

static void
arg_item(struct buf *b, const char *s)
{
	buf_puts(b, "            - ");
	k8s_expanded(b, s);
	buf_putc(b, '\n');
}

/*
 * The instance of role r a router entry names, or -1: an entry that is the
 * URL of instance k's leader in the deployment (its host and HTTP port, as
 * the plan writes it) names instance k; the first instance not yet named
 * by an earlier entry of the same URL is taken (used: per instance).
 */
static int
entry_instance(const struct layout *lay, enum role r, const char *url,
    bool *used)
{
	size_t	i;

	for (i = 0; i < lay->n; i++) {
		const struct lay_server	*s = &lay->s[i];
		char			*u;
		bool			 same;

		if (s->role != r || s->node_rank != 0 || used[s->instance])
			continue;
		u = url_for(s->host, s->port);
		same = strcmp(u, url) == 0;
		free(u);
		if (same) {
			used[s->instance] = true;
			return s->instance;
		}
	}
	return -1;
}

/*
 * The router's --prefill and --decode lists, as the deployment has them
 * (the plan's lists, or the ones the source gave): an entry that names an
 * instance is written as that instance's leader pod, <lws>-<k>.<lws>, on
 * the ports of the one pod template all replicas share; any other entry
 * (a server the deployment does not run, a loopback URL for a server on
 * another machine) is written as given, so that the manifests route as
 * the deployment does and pdwiz check finds in them what it finds in the
 * deployment. A bootstrap port is written as the entry gives it: the
 * pod's when it is the one that instance serves, none when it gives none.
 */
static void
router_lists(struct buf *b, const struct catalog *cat,
    const struct deployment *d)
{
	struct layout	lay;
	int		role;

	deployment_layout(cat, d, &lay);
	for (role = ROLE_PREFILL; role <= ROLE_DECODE; role++) {
		const struct role_spec	*r = &d->role[role];
		const struct endpoint	*e = role == ROLE_PREFILL ? lay.prefill :
		    lay.decode;
		size_t			 ne = role == ROLE_PREFILL ?
		    lay.nprefill : lay.ndecode, j;
		bool			*used = xcalloc((size_t)(r->instances > 0 ?
		    r->instances : 0) + 1, sizeof *used);
		char			*lws = k8s_name(d, role_name(
		    (enum role)role));

		for (j = 0; j < ne; j++) {
			int			 k = r->enabled ? entry_instance(&lay,
			    (enum role)role, e[j].url, used) : -1;
			const struct lay_server	*s = k >= 0 ? layout_server(&lay,
			    (enum role)role, k, 0) : NULL;

			buf_printf(b, "            - \"--%s\"\n",
			    role_name((enum role)role));
			if (s != NULL) {
				char	*u = xasprintf("http://%s-%d.%s:%d", lws, k,
				    lws, role_port(r, r->port, 0));

				arg_item(b, u);
				free(u);
			} else
				arg_item(b, e[j].url);
			if (role == ROLE_PREFILL && e[j].bad_port != NULL)
				arg_item(b, e[j].bad_port);
			if (role != ROLE_PREFILL || e[j].bootstrap_port < 0)
				continue;
			buf_printf(b, "            - \"%d\"\n", s != NULL &&
			    e[j].bootstrap_port == s->bootstrap_port ?
			    role_bootstrap_port(cat, r, 0) : e[j].bootstrap_port);
		}
		free(used);
		free(lws);
	}
	layout_free(&lay);
}

/* The router's args: its lists, host, port, options. */
static void
router_args(struct buf *b, const struct catalog *cat,
    const struct deployment *d)
{
	const struct role_spec	*rr = &d->role[ROLE_ROUTER];
	size_t			 i;

	router_lists(b, cat, d);
	buf_printf(b, "            - \"--host\"\n            - \"0.0.0.0\"\n"
	    "            - \"--port\"\n            - \"%d\"\n", rr->port);
	if (rr->policy != NULL) {
		buf_puts(b, "            - \"--policy\"\n");
		arg_item(b, rr->policy);
	}
	for (i = 0; i < rr->nopts; i++) {
		char	*f = xasprintf("--%s", rr->opts[i].name), *q;

		for (q = f; *q; q++)
			if (*q == '_')
				*q = '-';
		arg_item(b, f);
		if (!router_opt_is_flag(cat, rr->opts[i].name))
			arg_item(b, rr->opts[i].value ? rr->opts[i].value : "");
		free(f);
	}
	for (i = 0; i < rr->nextra_args; i++)
		arg_item(b, rr->extra_args[i]);
}

/* The router: a Deployment and its Service. */
static void
router_manifests(struct buf *b, const struct catalog *cat,
    const struct deployment *d, const char *image)
{
	const struct role_spec	*rr = &d->role[ROLE_ROUTER];
	char			*name = k8s_name(d, "router");

	buf_puts(b, "---\napiVersion: \"apps/v1\"\nkind: \"Deployment\"\n");
	meta(b, d, name, "router");
	buf_puts(b, "spec:\n  replicas: 1\n  selector:\n    matchLabels:\n"
	    "      app: ");
	yaml_str(b, name);
	buf_puts(b, "\n  template:\n    metadata:\n      labels:\n"
	    "        app: ");
	yaml_str(b, name);
	buf_puts(b, "\n    spec:\n      containers:\n"
	    "        - name: \"router\"\n          image: ");
	yaml_str(b, image);
	buf_puts(b, "\n          command: [\"python3\", \"-m\", "
	    "\"sglang_router.launch_router\"]\n          args:\n"
	    "            - \"--pd-disaggregation\"\n");
	router_args(b, cat, d);
	buf_printf(b, "          ports:\n            - containerPort: %d\n",
	    rr->port);
	buf_puts(b, "---\napiVersion: \"v1\"\nkind: \"Service\"\n");
	meta(b, d, name, "router");
	buf_puts(b, "spec:\n  selector:\n    app: ");
	yaml_str(b, name);
	buf_printf(b, "\n  ports:\n    - name: \"http\"\n      port: %d\n"
	    "      targetPort: %d\n", rr->port, rr->port);
	free(name);
}

/*
 * The server and router image: k8s.image; else the release the
 * deployment's sglang key names (0.5.20 or v0.5.20: lmsysorg/sglang:v0.5.20,
 * 0.5.3.rc0: lmsysorg/sglang:v0.5.3rc0), or its tag with a build suffix
 * (0.5.2-cu126) when it is a valid image tag; else DEFAULT_IMAGE. Owned.
 */
static char *
image_for(const struct deployment *d)
{
	const char	*v = d->sglang_version, *s;
	char		 vs[SGVER_TEXT_MAX];
	sgver_t		 ver;
	size_t		 n;

	if (d->k8s_image != NULL)
		return xstrdup(d->k8s_image);
	if ((ver = sgver_parse(v, NULL, 0)) != SGVER_UNKNOWN)
		return xasprintf("lmsysorg/sglang:v%s", sgver_format(ver, vs,
		    sizeof vs));
	/* A tag with a build suffix (0.5.2-cu126) is kept; a word that names
	 * no release (latest, dev, nightly) gets the catalog's release. */
	if (v == NULL || (n = strlen(v)) == 0 || n > 127 ||
	    !isdigit((unsigned char)v[v[0] == 'v' || v[0] == 'V']))
		return xstrdup(DEFAULT_IMAGE);
	for (s = v; *s != '\0'; s++)
		if (!isalnum((unsigned char)*s) && *s != '.' && *s != '_' &&
		    *s != '-')
			return xstrdup(DEFAULT_IMAGE);
	return xasprintf("lmsysorg/sglang:%s%s", v[0] == 'v' ? "" : "v", v);
}

char *
emit_k8s(const struct catalog *cat, const struct deployment *d, bool failing)
{
	struct buf	 b = { 0 };
	struct plan	 p;
	char		*image = image_for(d);

	deployment_plan(cat, d, &p, NULL);
	buf_puts(&b, "# Kubernetes manifests for PD deployment ");
	one_line(&b, d->name ? d->name : "");
	buf_puts(&b, ", generated by pdwiz.\n# Needs the LeaderWorkerSet "
	    "controller (leaderworkerset.x-k8s.io) and RDMA-capable nodes.\n");
	if (failing)
		buf_printf(&b, "# WARNING: %s\n", EMIT_FAILING_TEXT);
	server_sets(&b, cat, d, &p, image);
	if (d->role[ROLE_ROUTER].enabled)
		router_manifests(&b, cat, d, image);
	plan_free(&p);
	free(image);
	return buf_steal(&b);
}
