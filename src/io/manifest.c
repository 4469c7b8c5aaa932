/*
 * manifest.c - Kubernetes manifests to pods, and pods to commands.
 *
 * The workload kinds differ in where they keep their pod templates, but
 * each says the same few things on the way down to one: a role's name, its
 * replicas, the pods of one instance (a LeaderWorkerSet group), which of
 * them a template is for (leader or workers) and the patch the leader or
 * the workers apply. So the documents are walked, and those facts are
 * picked up from the keys that state them:
 *
 *   replicas, minReplicas            instances of what is below
 *   roles[].name, services.<name>,   the role (names the pods)
 *   engineConfig / decoderConfig / routerConfig (OME)
 *   leaderWorkerTemplate.size,       pods per instance (LWS, RBG)
 *   leaderWorkerSet.size,
 *   leaderWorkerPattern.size,
 *   OME worker.size (+ the leader)
 *   leaderTemplate / leader          rank 0 only
 *   workerTemplate / worker          ranks 1.. (all ranks without a leader
 *                                    template)
 *   patchLeaderTemplate, leaderTemplatePatch,   the leader's and workers'
 *   patchWorkerTemplate, workerTemplatePatch    changes to the template
 *   multinode.nodeCount (Dynamo)     pods per instance; the operator adds
 *                                    the rank flags, so rank 0 is read
 *
 * A mapping with containers: is a pod spec; OME's runner: and Dynamo's
 * mainContainer: are one container.
 */
#define _POSIX_C_SOURCE 200809L
#include "io/manifest.h"
#include "io/manifest_int.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* What the walk knows on its way down to a pod template. */
struct wctx {
	const char		*kind;
	const char		*workload;	/* metadata.name or the kind */
	const char		*service;	/* StatefulSet: spec.serviceName */
	const char		*role;
	int			 replicas;
	int			 size;		/* pods per instance */
	int			 r0, r1;	/* ranks of this template */
	bool			 grouped;	/* in a leader/worker group */
	bool			 rank0_only;	/* Dynamo multinode */
	const struct ynode	*lpatch, *wpatch;
};

struct mwalk {
	struct msrc	 m;
	size_t		 pods;
	char		*err;
	size_t		 errlen;
	int		 rc;
};

bool
manifest_is_object(const struct ynode *doc)
{
	const struct ynode	*k = ynode_get(doc, "kind");

	return k != NULL && k->kind == YN_SCALAR && ynode_get(doc,
	    "apiVersion") != NULL;
}

/* Past the line break at or after p: LF, CR LF or a CR alone, as YAML
 * reads them. */
static const char *
next_line(const char *p, const char *end)
{
	while (p < end && *p != '\n' && *p != '\r')
		p++;
	if (p < end && *p == '\r' && p + 1 < end && p[1] == '\n')
		p++;
	return p < end ? p + 1 : end;
}

bool
manifest_sniff(const char *text, size_t len)
{
	bool		 api = false, kind = false;
	const char	*p = text, *end = text + len;

	if (len >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	for (; p < end; p = next_line(p, end)) {
		if ((size_t)(end - p) >= 11 && memcmp(p, "apiVersion:", 11) == 0)
			api = true;
		if ((size_t)(end - p) >= 5 && memcmp(p, "kind:", 5) == 0)
			kind = true;
	}
	return api && kind;
}

void
msrc_pos(const struct msrc *m, size_t off, int *line, int *col)
{
	size_t	lo = 0, hi = m->nlines, mid, i;

	while (hi - lo > 1) {
		mid = (lo + hi) / 2;
		if (m->lines[mid] <= off)
			lo = mid;
		else
			hi = mid;
	}
	*line = (int)lo + 1;
	*col = 1;
	for (i = m->lines[lo]; i < off && i < m->len; i++)
		if (((unsigned char)m->text[i] & 0xC0) != 0x80)
			(*col)++;
}

size_t
msrc_off(const struct msrc *m, int line, int col)
{
	size_t	o;
	int	c = 1;

	if (line < 1)
		return 0;
	if ((size_t)line > m->nlines)
		return m->len;
	for (o = m->lines[line - 1]; o < m->len && c < col &&
	    m->text[o] != '\n' && m->text[o] != '\r'; o++)
		if (((unsigned char)m->text[o + 1] & 0xC0) != 0x80)
			c++;
	return o;
}

static int
int_of(const struct ynode *n, int dflt)
{
	char	*end;
	long	 v;

	if (n == NULL || n->kind != YN_SCALAR)
		return dflt;
	v = strtol(n->str, &end, 10);
	return end != n->str && *end == '\0' && v >= 0 && v <= 100000 ?
	    (int)v : dflt;
}

static const char *
str_of(const struct ynode *n)
{
	return n != NULL && n->kind == YN_SCALAR && n->len > 0 ? n->str : NULL;
}

/* The pod spec of a template or patch: template.spec, spec, or itself. */
static const struct ynode *
spec_of(const struct ynode *t)
{
	const struct ynode	*s;

	if (t == NULL)
		return NULL;
	if ((s = ynode_get(t, "template")) != NULL)
		t = s;
	if ((s = ynode_get(t, "spec")) != NULL)
		t = s;
	return t;
}

/* The patch's container of that name, or the patch's runner (OME). */
static const struct ynode *
patch_container(const struct ynode *patch, const struct ynode *c)
{
	const struct ynode	*cs = ynode_get(spec_of(patch), "containers");
	const char		*name = str_of(ynode_get(c, "name"));
	size_t			 i;

	for (i = 0; cs != NULL && cs->kind == YN_SEQ && i < cs->nkids; i++) {
		const char	*pn = str_of(ynode_get(cs->kids[i], "name"));

		if (pn != NULL && name != NULL && strcmp(pn, name) == 0)
			return cs->kids[i];
	}
	return NULL;
}

/*
 * The pod's name. Where the controller gives pods stable DNS names through
 * a headless Service, the name is that DNS name, which is how routers in
 * the same manifest address them: RoleBasedGroup <rbg>-<role>-<i> in
 * s-<rbg>-<role>, LeaderWorkerSet <lws>-<i> (workers <lws>-<i>-<k>) in
 * <lws>, StatefulSet <sts>-<i> in its serviceName. Else a label.
 */
static char *
machine(const struct wctx *x, int replica, int rank)
{
	char	 r[24] = "";

	if (rank > 0)
		snprintf(r, sizeof r, "-%d", rank);
	if (x->kind != NULL && strcmp(x->kind, "RoleBasedGroup") == 0)
		return xasprintf("%s-%s-%d%s.s-%s-%s", x->workload, x->role,
		    replica, r, x->workload, x->role);
	if (x->kind != NULL && strcmp(x->kind, "LeaderWorkerSet") == 0)
		return xasprintf("%s-%d%s.%s", x->workload, replica, r,
		    x->workload);
	if (x->kind != NULL && strcmp(x->kind, "StatefulSet") == 0 &&
	    x->service != NULL)
		return xasprintf("%s-%d.%s", x->workload, replica, x->service);
	if (x->size > 1 || x->grouped)
		return xasprintf("%s/%s-%d-%d", x->workload, x->role, replica,
		    rank);
	return xasprintf("%s/%s-%d", x->workload, x->role, replica);
}

/* Does a leader's or workers' patch change a container? */
static bool
patches_containers(const struct ynode *patch)
{
	return patch != NULL && ynode_get(spec_of(patch), "containers") != NULL;
}

/* One pod: every container of it (or the one container). */
static int
read_pod(struct mwalk *w, const struct wctx *x, const struct ynode *spec,
    const struct ynode *one, int replica, int rank, bool repeat)
{
	const struct ynode	*cs = one ? NULL : ynode_get(spec, "containers");
	const struct ynode	*patch = x->grouped ? (rank == 0 ? x->lpatch :
	    x->wpatch) : NULL;
	struct minject		 inj[4];
	struct mpod		 p;
	char			*mach;
	size_t			 i, n = one ? 1 : cs->nkids;

	if (++w->pods > MANIFEST_MAX_PODS) {
		snprintf(w->err, w->errlen, "%s:%d:%d: more than %d pods in this "
		    "manifest (pdwiz reads at most that many)", w->m.name,
		    spec->line, spec->col, MANIFEST_MAX_PODS);
		return -1;
	}
	mach = machine(x, replica, rank);
	memset(&p, 0, sizeof p);
	p.machine = sh_script_str(w->m.out, mach);
	free(mach);
	p.repeat = repeat;
	if (x->grouped) {
		static const char *const names[] = { "LWS_GROUP_SIZE",
		    "LWS_WORKER_INDEX", "RBG_LWP_GROUP_SIZE",
		    "RBG_LWP_WORKER_INDEX" };

		for (i = 0; i < 4; i++) {
			inj[i].name = names[i];
			snprintf(inj[i].value, sizeof inj[i].value, "%d",
			    i % 2 == 0 ? x->size : rank);
		}
		p.inject = inj;
		p.ninject = 4;
	}
	for (i = 0; i < n; i++) {
		p.container = one ? one : cs->kids[i];
		if (p.container->kind != YN_MAP)
			continue;
		p.patch = patch == NULL ? NULL : one ? ynode_get(patch,
		    "runner") : patch_container(patch, p.container);
		if (mcontainer_read(&w->m, &p, w->err, w->errlen) != 0)
			return -1;
	}
	return 0;
}

/* A pod template: its replicas times its ranks. */
static void
read_template(struct mwalk *w, const struct wctx *x, const struct ynode *spec,
    const struct ynode *one)
{
	int	i, k, r1 = x->rank0_only ? x->r0 + 1 : x->r1;

	for (i = 0; i < x->replicas && w->rc == 0; i++)
		for (k = x->r0; k < r1 && w->rc == 0; k++)
			/* The first worker of a patched template is read
			 * like the leader: the patch may change its command. */
			if (read_pod(w, x, spec, one, i, k, i > 0 || (k > x->r0 &&
			    !(k == 1 && x->r0 == 0 &&
			    (patches_containers(x->lpatch) ||
			    patches_containers(x->wpatch))))) != 0)
				w->rc = -1;
}

/* A leader template and a worker template (LWS leaderTemplate and
 * workerTemplate, OME leader and worker): per replica, the leader (rank
 * 0) then its workers, so the ranks of an instance come together. */
static void
read_group(struct mwalk *w, struct wctx x, const struct ynode *lead,
    const struct ynode *work)
{
	const struct ynode	*ls = ynode_get(lead, "runner");
	const struct ynode	*ws = ynode_get(work, "runner");
	int			 i, k;

	x.grouped = true;
	x.lpatch = x.wpatch = NULL;
	for (i = 0; i < x.replicas && w->rc == 0; i++) {
		if (ls != NULL || ynode_get(spec_of(lead), "containers") != NULL)
			w->rc = read_pod(w, &x, ls ? ls : spec_of(lead), ls, i, 0,
			    i > 0);
		for (k = 1; k < x.size && w->rc == 0; k++)
			if (ws != NULL || ynode_get(spec_of(work), "containers") !=
			    NULL)
				w->rc = read_pod(w, &x, ws ? ws : spec_of(work), ws,
				    i, k, i > 0 || k > 1);
	}
}

static bool
is_patch_key(const char *k)
{
	return strcmp(k, "patchLeaderTemplate") == 0 ||
	    strcmp(k, "patchWorkerTemplate") == 0 ||
	    strcmp(k, "leaderTemplatePatch") == 0 ||
	    strcmp(k, "workerTemplatePatch") == 0 ||
	    strcmp(k, "metadata") == 0 || strcmp(k, "status") == 0;
}

/* What a mapping states for the templates below it. */
static void
learn(struct wctx *x, const struct ynode *m, const char *key)
{
	static const char *const groups[] = { "leaderWorkerTemplate",
	    "leaderWorkerSet", "leaderWorkerPattern", NULL };
	const struct ynode	*g, *n;
	size_t			 i;

	if ((n = ynode_get(m, "replicas")) != NULL ||
	    (n = ynode_get(m, "minReplicas")) != NULL)
		x->replicas = int_of(n, 1);
	if (strcmp(key, "roles[]") == 0 && str_of(ynode_get(m, "name")))
		x->role = str_of(ynode_get(m, "name"));
	if (strcmp(key, "engineConfig") == 0 || strcmp(key, "engine") == 0)
		x->role = "engine";
	else if (strcmp(key, "decoderConfig") == 0 ||
	    strcmp(key, "decoder") == 0)
		x->role = "decoder";
	else if (strcmp(key, "routerConfig") == 0 ||
	    strcmp(key, "router") == 0)
		x->role = "router";
	for (i = 0; groups[i] != NULL; i++) {
		if ((g = ynode_get(m, groups[i])) == NULL || g->kind != YN_MAP)
			continue;
		x->size = int_of(ynode_get(g, "size"), 1);
		x->grouped = true;
		x->r0 = 0;
		x->r1 = x->size;
		if ((n = ynode_get(g, "patchLeaderTemplate")) != NULL ||
		    (n = ynode_get(g, "leaderTemplatePatch")) != NULL)
			x->lpatch = n;
		if ((n = ynode_get(g, "patchWorkerTemplate")) != NULL ||
		    (n = ynode_get(g, "workerTemplatePatch")) != NULL)
			x->wpatch = n;
	}
	/* OME: a leader and worker.size workers. */
	if (ynode_get(m, "leader") != NULL && (g = ynode_get(m, "worker")) !=
	    NULL) {
		x->size = 1 + int_of(ynode_get(g, "size"), 1);
		x->grouped = true;
		x->r0 = 0;
		x->r1 = x->size;
	}
	if ((g = ynode_get(m, "multinode")) != NULL) {
		x->size = int_of(ynode_get(g, "nodeCount"), 1);
		x->rank0_only = true;
		x->r0 = 0;
		x->r1 = x->size;
	}
}

static void walk(struct mwalk *, const struct ynode *, const char *,
    const struct ynode *, struct wctx);

/* The ranks a template under key is for, given its sibling keys. */
static void
ranks(struct wctx *x, const char *key, const struct ynode *parent)
{
	if (strcmp(key, "leaderTemplate") == 0 || strcmp(key, "leader") == 0) {
		x->r0 = 0;
		x->r1 = 1;
		x->lpatch = x->wpatch = NULL;
	} else if (strcmp(key, "workerTemplate") == 0 ||
	    strcmp(key, "worker") == 0) {
		x->r0 = ynode_get(parent, "leaderTemplate") != NULL ||
		    ynode_get(parent, "leader") != NULL ? 1 : 0;
		x->r1 = x->size;
		x->lpatch = x->wpatch = NULL;
	}
}

static void
walk(struct mwalk *w, const struct ynode *n, const char *key,
    const struct ynode *parent, struct wctx x)
{
	const struct ynode	*cs;
	size_t			 i;

	if (w->rc != 0)
		return;
	if (n->kind == YN_SEQ) {
		for (i = 0; i < n->nkids; i++)
			walk(w, n->kids[i], strcmp(key, "roles") == 0 ?
			    "roles[]" : key, n, x);
		return;
	}
	if (n->kind != YN_MAP)
		return;
	ranks(&x, key, parent);
	if (strcmp(key, "runner") == 0 || strcmp(key, "mainContainer") == 0) {
		read_template(w, &x, n, n);
		return;
	}
	if ((cs = ynode_get(n, "containers")) != NULL && cs->kind == YN_SEQ) {
		read_template(w, &x, n, NULL);
		return;
	}
	learn(&x, n, key);
	if (ynode_get(n, "leaderTemplate") != NULL &&
	    ynode_get(n, "workerTemplate") != NULL) {
		read_group(w, x, ynode_get(n, "leaderTemplate"),
		    ynode_get(n, "workerTemplate"));
		return;
	}
	if (ynode_get(n, "leader") != NULL && ynode_get(n, "worker") != NULL) {
		read_group(w, x, ynode_get(n, "leader"), ynode_get(n, "worker"));
		return;
	}
	for (i = 0; i + 1 < n->nkids; i += 2) {
		const char	*k = n->kids[i]->str;

		if (is_patch_key(k))
			continue;
		if (strcmp(key, "services") == 0 && n->kids[i + 1]->kind ==
		    YN_MAP)
			x.role = k;
		walk(w, n->kids[i + 1], k, n, x);
	}
}

/* One Kubernetes object; a List's items one by one. */
static void
read_object(struct mwalk *w, const struct ynode *doc)
{
	const struct ynode	*items = ynode_get(doc, "items");
	const char		*kind = str_of(ynode_get(doc, "kind"));
	struct wctx		 x;
	size_t			 i;

	if (kind != NULL && strcmp(kind, "List") == 0 && items != NULL &&
	    items->kind == YN_SEQ) {
		for (i = 0; i < items->nkids; i++)
			read_object(w, items->kids[i]);
		return;
	}
	memset(&x, 0, sizeof x);
	x.kind = kind;
	x.service = str_of(ynode_get(ynode_get(doc, "spec"), "serviceName"));
	x.workload = str_of(ynode_get(ynode_get(doc, "metadata"), "name"));
	if (x.workload == NULL)
		x.workload = kind != NULL ? kind : "manifest";
	x.role = "pod";
	x.replicas = 1;
	x.size = 1;
	x.r0 = 0;
	x.r1 = 1;
	walk(w, doc, "", NULL, x);
}

/* The kinds of the documents, for a message. */
static void
kinds(const struct ynode *docs, char *out, size_t outlen)
{
	size_t	i, o = 0;

	out[0] = '\0';
	for (i = 0; i < docs->nkids && o + 1 < outlen; i++) {
		const char	*k = str_of(ynode_get(docs->kids[i], "kind"));
		int		 r;

		if (k == NULL || (o > 0 && strstr(out, k) != NULL))
			continue;
		r = snprintf(out + o, outlen - o, "%s%s", o > 0 ? ", " : "", k);
		if (r < 0 || (size_t)r >= outlen - o)
			break;
		o += (size_t)r;
	}
}

int
manifest_read(const char *name, const char *text, size_t len,
    const struct ynode *docs, struct sh_script *out, struct result *notes,
    char *err, size_t errlen)
{
	struct mwalk	 w;
	size_t		 i, nobj = 0;
	char		 ks[200];

	memset(out, 0, sizeof *out);
	memset(&w, 0, sizeof w);
	w.m.name = name;
	w.m.text = text;
	w.m.len = len;
	w.m.out = out;
	w.m.notes = notes;
	w.err = err;
	w.errlen = errlen;
	/* Lines as libyaml counts them for the nodes' marks: a CR alone ends
	 * one too; a byte order mark is not in column 1. */
	w.m.lines = xmalloc(sizeof *w.m.lines);
	w.m.lines[w.m.nlines++] = len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) ==
	    0 ? 3 : 0;
	for (i = 0; i < len; i++)
		if (text[i] == '\n' || (text[i] == '\r' && (i + 1 == len ||
		    text[i + 1] != '\n'))) {
			w.m.lines = grow_pow2(w.m.lines, w.m.nlines,
			    sizeof *w.m.lines);
			w.m.lines[w.m.nlines++] = i + 1;
		}
	for (i = 0; i < docs->nkids && w.rc == 0; i++)
		if (manifest_is_object(docs->kids[i])) {
			nobj++;
			read_object(&w, docs->kids[i]);
		}
	free(w.m.lines);
	if (w.rc == 0 && out->ncmds == 0) {
		kinds(docs, ks, sizeof ks);
		if (nobj == 0)
			snprintf(err, errlen, "%s: %zu YAML documents, none of "
			    "them a Kubernetes manifest (apiVersion and kind)",
			    name, docs->nkids);
		else
			snprintf(err, errlen, "%s: a Kubernetes manifest (kind: "
			    "%s) with no SGLang command in its %zu pod%s "
			    "(expected python -m sglang.launch_server, sglang "
			    "serve or python -m sglang_router.launch_router in "
			    "a container's command and args)", name, ks, w.pods,
			    w.pods == 1 ? "" : "s");
		w.rc = 1;
	}
	if (w.rc != 0)
		sh_script_free(out);
	return w.rc;
}

int
manifest_parse(const char *name, const char *text, size_t len,
    struct sh_script *out, char *err, size_t errlen)
{
	struct ynode	*docs = ydoc_parse_stream(name, text, len, err, errlen);
	int		 rc;

	memset(out, 0, sizeof *out);
	if (docs == NULL)
		return -1;
	rc = manifest_read(name, text, len, docs, out, NULL, err, errlen);
	ynode_free(docs);
	return rc;
}
