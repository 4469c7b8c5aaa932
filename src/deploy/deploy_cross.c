/*
 * deploy_cross.c - cross-role checks. The rules themselves are data
 * (rules/deploy/ files); this file computes the deployment-level facts they
 * read (deploy.* options of rules/deploy/00-facts.yaml): router endpoint
 * lists against the instances, reachability, port and GPU collisions.
 */
#define _POSIX_C_SOURCE 200809L
#include "deploy/deploy.h"
#include "deploy/deploy_int.h"
#include "deploy/layout.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

bool
host_is_loopback(const char *h)
{
	return strcmp(h, "127.0.0.1") == 0 || strcmp(h, "localhost") == 0 ||
	    strcmp(h, "::1") == 0 || strncmp(h, "127.", 4) == 0;
}

bool
host_is_wildcard(const char *h)
{
	return strcmp(h, "0.0.0.0") == 0 || strcmp(h, "::") == 0;
}

int
url_split(const char *url, char **host, int *port)
{
	const char	*p = strstr(url, "://"), *h, *e;
	char		*end;
	long		 v;

	*host = NULL;
	*port = -1;
	p = p ? p + 3 : url;
	if (*p == '[') {
		h = p + 1;
		if ((e = strchr(h, ']')) == NULL)
			return -1;
		*host = xstrndup(h, (size_t)(e - h));
		p = e + 1;
	} else {
		h = p;
		e = h + strcspn(h, ":/");
		*host = xstrndup(h, (size_t)(e - h));
		p = e;
	}
	if (*p == ':') {
		v = strtol(p + 1, &end, 10);
		if (end == p + 1 || v < 0 || v > 65535)
			return -1;
		*port = (int)v;
	}
	return 0;
}

static bool
same_host(const char *a, const char *b)
{
	if (strcmp(a, b) == 0)
		return true;
	if (host_is_loopback(a) && host_is_loopback(b))
		return true;
	return host_is_wildcard(a) || host_is_wildcard(b);
}

/* Host as a key for "same machine": loopback names are one machine. */
static const char *
host_key(const char *h)
{
	return host_is_loopback(h) || host_is_wildcard(h) ? "127.0.0.1" : h;
}

struct facts {
	const struct catalog	*cat;
	struct config		*cfg;
	signed char		*role;	/* per option: role a fact is about */
};

/* The role whose process a str fact describes (diagnostic attribution). */
static void
fact_role(struct facts *f, const char *name, enum role r)
{
	int	o = catalog_find(f->cat, name);

	if (o >= 0 && f->role != NULL)
		f->role[o] = (signed char)r;
}

static void
fact_str(struct facts *f, const char *name, const char *s, int line)
{
	int	o = catalog_find(f->cat, name);

	if (o < 0)
		return;
	config_set(f->cfg, o, s ? val_str(s) : VAL_NULL, SRC_USER, line, 0);
}

static void
fact_val(struct facts *f, const char *name, struct value v)
{
	int	o = catalog_find(f->cat, name);

	if (o >= 0)
		config_set(f->cfg, o, v, SRC_USER, 0, 0);
}

/* The router's options as deploy.router.NAME; values that do not parse as
 * the option's type stay unset. */
static void
router_opt_facts(struct facts *f, const struct role_spec *rr)
{
	const struct option	*op;
	struct value		 v;
	size_t			 i;

	if (rr->policy != NULL &&
	    (op = router_opt_find(f->cat, "policy")) != NULL)
		config_set(f->cfg, (int)(op - f->cat->opts),
		    val_str(rr->policy), SRC_USER, rr->line, 0);
	for (i = 0; i < rr->nopts; i++) {
		const struct kv	*k = &rr->opts[i];

		if ((op = router_opt_find(f->cat, k->name)) == NULL ||
		    val_parse(op->type, k->value ? k->value : "true", &v) != 0)
			continue;
		config_set(f->cfg, (int)(op - f->cat->opts), v, SRC_USER,
		    k->line, k->col);
	}
}

/* What is wrong between the router's lists and the instances: the first
 * problem of each kind, with the line that shows it. */
struct rfind {
	struct buf	 mism, miss, unk, loc;
	int		 lmism, lunk, lloc;
};

/* The router entry of a rank-0 server launch; checks its bootstrap port. */
static void
match_launch(const struct launch *la, enum role r, const struct endpoint *e,
    size_t ne, bool *used, struct rfind *rf)
{
	int	port = (int)cfg_int(&la->cfg, "port", 30000);
	size_t	j;

	for (j = 0; j < ne; j++) {
		char	*h;
		int	 up, want, got;

		if (url_split(e[j].url, &h, &up) != 0 || up != port ||
		    !same_host(h, la->host)) {
			free(h);
			continue;
		}
		free(h);
		used[j] = true;
		if (r != ROLE_PREFILL)
			return;
		want = (int)cfg_int(&la->cfg, "disaggregation_bootstrap_port",
		    8998);
		got = e[j].bootstrap_port >= 0 ? e[j].bootstrap_port : 8998;
		if (want != got && rf->mism.len == 0) {
			buf_printf(&rf->mism, "the router gives bootstrap port "
			    "%d%s for %s, but that prefill serves its bootstrap "
			    "server on port %d", got, e[j].bootstrap_port < 0 ?
			    " (the default)" : "", e[j].url, want);
			rf->lmism = e[j].line;
		}
		return;
	}
	if (rf->miss.len == 0)
		buf_printf(&rf->miss, "%s instance %d (%s:%d) is not listed by "
		    "the router", role_name(r), la->instance, la->host, port);
}

/* One role's router list against its instances. */
static void
match_role(const struct plan *p, enum role r, const struct endpoint *e,
    size_t ne, bool multi, struct rfind *rf)
{
	bool	*used = xcalloc(ne + 1, sizeof *used);
	size_t	 i, j;

	for (i = 0; i < p->n; i++)
		if (p->l[i].role == r && p->l[i].node_rank == 0)
			match_launch(&p->l[i], r, e, ne, used, rf);
	for (j = 0; j < ne; j++) {
		char	*h;
		int	 up;

		if (!used[j] && rf->unk.len == 0) {
			buf_printf(&rf->unk, "the router's --%s %s matches no %s "
			    "instance", role_name(r), e[j].url, role_name(r));
			rf->lunk = e[j].line;
		}
		if (url_split(e[j].url, &h, &up) == 0 && multi &&
		    (host_is_loopback(h) || host_is_wildcard(h)) &&
		    rf->loc.len == 0) {
			buf_printf(&rf->loc, "--%s %s", role_name(r), e[j].url);
			rf->lloc = e[j].line;
		}
		free(h);
	}
	free(used);
}

/* Router endpoints against the instances. */
static void
router_facts(struct facts *f, const struct deployment *d,
    const struct plan *p)
{
	struct endpoint	*pe, *de;
	size_t		 npe, nde, i;
	struct rfind	 rf;
	bool		 multi = false;
	const char	*first = NULL;

	/* More than one machine among the servers and the router? */
	for (i = 0; i < p->n; i++) {
		const char	*h = host_key(p->l[i].host);

		if (first == NULL)
			first = h;
		else if (strcmp(first, h) != 0)
			multi = true;
	}
	fact_val(f, "deploy.multi_host", val_bool(multi));
	fact_val(f, "deploy.router", val_bool(d->role[ROLE_ROUTER].enabled));
	if (!d->role[ROLE_ROUTER].enabled)
		return;
	router_opt_facts(f, &d->role[ROLE_ROUTER]);
	memset(&rf, 0, sizeof rf);
	router_endpoints(f->cat, d, &pe, &npe, &de, &nde);
	/* A role the deployment leaves out (missing.ROLE): its URLs name
	 * servers pdwiz does not know, not servers that are not there. */
	if (d->role[ROLE_PREFILL].enabled)
		match_role(p, ROLE_PREFILL, pe, npe, multi, &rf);
	if (d->role[ROLE_DECODE].enabled)
		match_role(p, ROLE_DECODE, de, nde, multi, &rf);
	fact_str(f, "deploy.router_bootstrap_mismatch", rf.mism.s, rf.lmism);
	fact_str(f, "deploy.router_missing", rf.miss.s,
	    d->role[ROLE_ROUTER].line);
	fact_str(f, "deploy.router_unknown", rf.unk.s, rf.lunk);
	fact_str(f, "deploy.router_local_url", rf.loc.s, rf.lloc);
	buf_free(&rf.mism);
	buf_free(&rf.miss);
	buf_free(&rf.unk);
	buf_free(&rf.loc);
	endpoints_release(pe, npe);
	endpoints_release(de, nde);
}

struct use {
	const char	*host;
	int		 lo, hi;	/* port, or GPU range [lo, hi) */
	char		*what;
	int		 line;
	enum role	 role;
	int		 inst;		/* -1: the router */
	int		 host_gpus;	/* GPUs of the host; -1 unknown */
	int		 delta;		/* ports derived from --port: the
					   offset (0: none) */
	bool		 unstated;	/* which machine is not known */
};

struct uses {
	struct use	*u;
	size_t		 n;
	bool		 unknown;	/* a value left to run time was skipped */
};

static void
use_add(struct uses *us, const struct launch *la, int lo, int hi, char *what,
    int line, int host_gpus)
{
	struct use	*u;

	us->u = xreallocarray(us->u, us->n + 1, sizeof *us->u);
	u = &us->u[us->n++];
	u->host = host_key(la->host);
	u->lo = lo;
	u->hi = hi;
	u->what = what;
	u->line = line;
	u->role = la->role;
	u->inst = la->role == ROLE_ROUTER ? -1 : la->instance;
	u->host_gpus = host_gpus;
	u->delta = 0;
}

static void
uses_free(struct uses *us)
{
	size_t	i;

	for (i = 0; i < us->n; i++)
		free(us->u[i].what);
	free(us->u);
}

/* Lowest start >= from at which [start, start + len) on u[skip]'s host
 * overlaps nothing else (own: nothing but u[skip]'s own instance); -1
 * when none below lim. */
static int
first_free(const struct uses *us, size_t skip, int from, int len, int lim,
    bool own)
{
	const struct use	*me = &us->u[skip];
	int			 b;
	size_t			 i;

	for (b = from; b + len <= lim; b++) {
		for (i = 0; i < us->n; i++) {
			const struct use	*o = &us->u[i];

			if (i == skip || strcmp(o->host, me->host) != 0 ||
			    (own && o->role == me->role && o->inst == me->inst))
				continue;
			if (b < o->hi && o->lo < b + len)
				break;
		}
		if (i == us->n)
			return b;
	}
	return -1;
}

/* The first pair of overlapping uses on one host, as words; the fix (a
 * free place for the second one) in fixb. */
static void
collide(struct facts *f, const char *fact, const char *fixfact,
    struct uses *us, bool ports)
{
	struct use	*u = us->u;
	size_t		 i, j, n = us->n;
	struct buf	 b = { 0 }, fx = { 0 };
	int		 line = 0;
	size_t		 line_of = 0;
	bool		 unknown = false;

	for (i = 0; i < n && b.len == 0; i++)
		for (j = i + 1; j < n && b.len == 0; j++) {
			int	len, lim, at;

			/* A host pdwiz could not expand (--host ${local_ip}) may
			 * be a different machine on every node: unknown, so no
			 * collision is claimed. */
			if (strcmp(u[i].host, u[j].host) != 0 ||
			    strpbrk(u[i].host, "$`") != NULL ||
			    u[i].lo >= u[j].hi || u[j].lo >= u[i].hi)
				continue;
			/* Bound to 0.0.0.0 with no word of the machine: the
			 * two may or may not share one, so nothing is
			 * claimed (the rule says it could not check). */
			if (u[i].unstated || u[j].unstated) {
				unknown = true;
				continue;
			}
			if (ports) {
				int	lo = u[i].lo > u[j].lo ? u[i].lo : u[j].lo;
				int	hi = u[i].hi < u[j].hi ? u[i].hi : u[j].hi;

				if (hi - lo > 1)
					buf_printf(&b, "ports %d-%d", lo, hi - 1);
				else
					buf_printf(&b, "port %d", lo);
				buf_printf(&b, " on %s %s used by %s and by %s",
				    u[i].host, hi - lo > 1 ? "are" : "is",
				    u[i].what, u[j].what);
			}
			else
				buf_printf(&b, "GPUs %d-%d of %s (%s) overlap "
				    "GPUs %d-%d (%s)", u[i].lo, u[i].hi - 1,
				    u[i].host, u[i].what, u[j].lo, u[j].hi - 1,
				    u[j].what);
			line = u[j].line;
			line_of = j;
			len = u[j].hi - u[j].lo;
			lim = ports ? 65536 : u[j].host_gpus >= 0 ?
			    u[j].host_gpus : 1 << 20;
			at = first_free(us, j, ports ? u[j].lo + 1 : 0, len,
			    lim, !ports);
			if (at >= 0 && ports && u[j].delta > 0)
				buf_printf(&fx, "give %s %d --port %d (its ZMQ "
				    "ports %d-%d are free on %s), or leave the "
				    "ports out of the deployment file so pdwiz "
				    "counts them", role_name(u[j].role), u[j].inst,
				    at - u[j].delta, at, at + len - 1, u[j].host);
			else if (at >= 0 && ports && len > 1)
				buf_printf(&fx, "move %s to ports %d-%d, free "
				    "on %s (or leave the ports out of the "
				    "deployment file so pdwiz counts them)",
				    u[j].what, at, at + len - 1, u[j].host);
			else if (at >= 0 && ports)
				buf_printf(&fx, "move %s to port %d, free on %s "
				    "(or leave the port out of the deployment "
				    "file so pdwiz counts it)", u[j].what, at,
				    u[j].host);
			else if (at >= 0)
				buf_printf(&fx, "start %s at --base-gpu-id %d "
				    "(GPUs %d-%d of %s are free), or leave "
				    "base_gpu_id out of the deployment file so "
				    "pdwiz packs the instances", u[j].what, at,
				    at, at + len - 1, u[j].host);
			else
				buf_printf(&fx, "%s has no %d free GPUs left for "
				    "%s: put it on another host", u[j].host, len,
				    u[j].what);
		}
	fact_str(f, fact, b.s, line);
	fact_str(f, fixfact, fx.s, line);
	if (b.len > 0)
		fact_role(f, fact, u[line_of].role);
	else if (unknown || us->unknown)
		fact_val(f, fact, VAL_UNKNOWN);
	buf_free(&b);
	buf_free(&fx);
}

/* A GPU range past the last GPU of its host. */
static void
overflow_fact(struct facts *f, const struct uses *g)
{
	struct buf	b = { 0 };
	size_t		i;
	int		line = 0;

	for (i = 0; i < g->n && b.len == 0; i++) {
		const struct use	*u = &g->u[i];
		int			 at;

		if (u->host_gpus < 0 || u->hi <= u->host_gpus ||
		    strpbrk(u->host, "$`") != NULL)
			continue;
		buf_printf(&b, "%s needs GPUs %d-%d of %s, but the host has %d "
		    "GPUs (0-%d)", u->what, u->lo, u->hi - 1, u->host,
		    u->host_gpus, u->host_gpus - 1);
		at = first_free(g, i, 0, u->hi - u->lo, u->host_gpus, true);
		if (at >= 0)
			buf_printf(&b, "; GPUs %d-%d are free: --base-gpu-id %d",
			    at, at + u->hi - u->lo - 1, at);
		else
			buf_printf(&b, "; no %d GPUs are free there: give the "
			    "%s its own hosts, or make the instances smaller",
			    u->hi - u->lo, role_name(u->role));
		line = u->line;
		fact_role(f, "deploy.gpu_overflow", u->role);
	}
	fact_str(f, "deploy.gpu_overflow", b.s, line);
	buf_free(&b);
}

/* A multi-node server without a usable --dist-init-addr host:port. */
static void
rendezvous_fact(struct facts *f, const struct deployment *d,
    const struct plan *p)
{
	struct buf	b = { 0 };
	size_t		i;
	int		line = 0;

	for (i = 0; i < p->n && b.len == 0; i++) {
		const struct launch	*la = &p->l[i];
		const char		*a, *colon;
		char			*end;
		long			 v;

		if (la->role == ROLE_ROUTER || cfg_int(&la->cfg, "nnodes", 1) <= 1)
			continue;
		a = cfg_str(&la->cfg, "dist_init_addr");
		colon = a != NULL ? strrchr(a, ':') : NULL;
		v = colon != NULL ? strtol(colon + 1, &end, 10) : 0;
		if (a != NULL && strpbrk(a, "$`") != NULL)
			continue;
		if (colon != NULL && colon != a && end != colon + 1 &&
		    *end == '\0' && v >= 1 && v <= 65535 - LAY_DIST_SPAN)
			continue;
		if (a == NULL)
			buf_printf(&b, "%s %d rank %d runs with --nnodes %lld "
			    "but without --dist-init-addr", role_name(la->role),
			    la->instance, la->node_rank, cfg_int(&la->cfg,
			    "nnodes", 1));
		else
			buf_printf(&b, "%s %d rank %d runs with --nnodes %lld "
			    "but has no usable --dist-init-addr HOST:PORT (a "
			    "port from 1 to %d)", role_name(la->role),
			    la->instance, la->node_rank, cfg_int(&la->cfg,
			    "nnodes", 1), 65535 - LAY_DIST_SPAN);
		line = d->role[la->role].line;
		fact_role(f, "deploy.rendezvous_invalid", la->role);
	}
	fact_str(f, "deploy.rendezvous_invalid", b.s, line);
	buf_free(&b);
}

/* A port a server or the router would bind outside 1-65535 (a base port
 * plus instances x port_step can run past the end): Python's bind()
 * raises OverflowError. Rendezvous ports are rendezvous_fact's. */
static void
port_range_fact(struct facts *f, const struct deployment *d,
    const struct plan *p)
{
	struct buf	b = { 0 };
	size_t		i;
	int		line = 0;

	for (i = 0; i < p->n && b.len == 0; i++) {
		const struct launch	*la = &p->l[i];
		const struct config	*c = &la->cfg;
		const char		*what = "--port";
		long long		 v = cfg_int(c, "port", 30000), top = v;

		if (la->role == ROLE_PREFILL && la->node_rank == 0 &&
		    (v >= 1 && v <= 65535)) {
			what = "--disaggregation-bootstrap-port";
			v = top = cfg_int(c, "disaggregation_bootstrap_port",
			    8998);
		}
		if (la->role != ROLE_ROUTER && v >= 1 && v <= 65535 &&
		    cfg_bool(c, "enable_dp_attention") &&
		    cfg_int(c, "nnodes", 1) == 1 &&
		    cfg_str(c, "dist_init_addr") == NULL) {
			what = "--port with DP attention";
			v = cfg_int(c, "port", 30000);
			top = v + LAY_ZMQ_DELTA + LAY_DIST_SPAN - 1;
		}
		if (v >= 1 && top <= 65535)
			continue;
		if (la->role == ROLE_ROUTER)
			buf_printf(&b, "the router's --port %lld", v);
		else
			buf_printf(&b, "%s %d rank %d: %s %lld", role_name(la->role),
			    la->instance, la->node_rank, what, v);
		if (top != v)
			buf_printf(&b, " (ports up to %lld)", top);
		line = d->role[la->role].line;
		fact_role(f, "deploy.port_invalid", la->role);
	}
	fact_str(f, "deploy.port_invalid", b.s, line);
	buf_free(&b);
}

/* GPUs one instance of role r can use, and what would fit it. */
static void
role_gpu_facts(struct facts *f, const struct deployment *d,
    const struct layout *lay, enum role r)
{
	const struct role_spec	*rs = &d->role[r];
	const char		*rn = role_name(r);
	char			 name[64];
	int			 per_node = rs->gpus_per_node > 0 ?
	    rs->gpus_per_node : lay->gpus_per_host;
	long long		 have;

	snprintf(name, sizeof name, "deploy.%s_gpus", rn);
	if (!rs->enabled || per_node <= 0) {
		fact_val(f, name, VAL_NULL);
		return;
	}
	have = (long long)rs->nodes_per_instance * per_node;
	fact_val(f, name, val_int(have));
	snprintf(name, sizeof name, "deploy.%s_node_gpus", rn);
	fact_val(f, name, val_int(per_node));
}

/* The ports one server holds on its machine, into pu. */
static void
server_ports(struct uses *pu, const struct deployment *d,
    const struct launch *la, int line)
{
	const struct config	*c = &la->cfg;
	const char		*rn = role_name(la->role);
	const char		*a = cfg_str(c, "dist_init_addr");

	if (cfg_unknown(c, "port") || d->role[la->role].port_unstated)
		pu->unknown = true;
	else
		use_add(pu, la, (int)cfg_int(c, "port", 30000),
		    (int)cfg_int(c, "port", 30000) + 1, xasprintf("%s %d rank "
		    "%d (HTTP --port)", rn, la->instance, la->node_rank), line,
		    -1);
	if (la->role == ROLE_PREFILL && la->node_rank == 0 &&
	    (cfg_unknown(c, "disaggregation_bootstrap_port") ||
	    d->role[la->role].port_unstated))
		pu->unknown = true;
	else if (la->role == ROLE_PREFILL && la->node_rank == 0) {
		int	bp = (int)cfg_int(c, "disaggregation_bootstrap_port",
		    8998);

		use_add(pu, la, bp, bp + 1, xasprintf("%s %d (bootstrap "
		    "server)", rn, la->instance), line, -1);
	}
	if (cfg_int(c, "nccl_port", -1) >= 0) {
		int	np = (int)cfg_int(c, "nccl_port", -1);

		use_add(pu, la, np, np + 1, xasprintf("%s %d rank %d "
		    "(--nccl-port)", rn, la->instance, la->node_rank), line,
		    -1);
	}
	if (la->node_rank == 0 && a != NULL) {
		const char	*colon = strrchr(a, ':');
		int		 dp_ = colon ? atoi(colon + 1) : 0;

		if (dp_ > 0)
			use_add(pu, la, dp_, dp_ + LAY_DIST_SPAN, xasprintf("%s "
			    "%d (--dist-init-addr port and the %d after it)",
			    rn, la->instance, LAY_DIST_SPAN - 1), line, -1);
	}
	if (cfg_bool(c, "enable_dp_attention") && cfg_int(c, "nnodes", 1) ==
	    1 && a == NULL) {
		int	zp = (int)cfg_int(c, "port", 30000) + LAY_ZMQ_DELTA;

		use_add(pu, la, zp, zp + LAY_DIST_SPAN, xasprintf("%s %d (DP "
		    "attention ZMQ ports: --port + %d)", rn, la->instance,
		    LAY_ZMQ_DELTA), line, -1);
		pu->u[pu->n - 1].delta = LAY_ZMQ_DELTA;
	}
}

/* The GPUs one server holds on its machine, into gu. */
static void
server_gpus(struct uses *gu, const struct launch *la, int line,
    int gpus_per_host)
{
	const struct config	*c = &la->cfg;
	long long		 tp, pp, dp, nn, per, base, step;
	size_t			 k;

	for (k = 0; k < la->nenv; k++)
		if (strcmp(la->env[k].name, "CUDA_VISIBLE_DEVICES") == 0)
			return;
	if (cfg_unknown(c, "tp_size") || cfg_unknown(c, "pp_size") ||
	    cfg_unknown(c, "dp_size") || cfg_unknown(c, "nnodes") ||
	    cfg_unknown(c, "base_gpu_id") || cfg_unknown(c, "gpu_id_step")) {
		gu->unknown = true;
		return;
	}
	tp = cfg_int(c, "tp_size", 1);
	pp = cfg_int(c, "pp_size", 1);
	dp = cfg_bool(c, "enable_dp_attention") ? 1 : cfg_int(c, "dp_size", 1);
	nn = cfg_int(c, "nnodes", 1);
	step = cfg_int(c, "gpu_id_step", 1);
	if (nn < 1 || tp < 1 || pp < 1 || dp < 1 || step < 1 || step > 64)
		return;
	per = tp * pp * dp / nn;
	base = cfg_int(c, "base_gpu_id", 0);
	if (per < 1 || per > 4096 || base < 0 || base > 4096)
		return;
	use_add(gu, la, (int)base, (int)(base + (per - 1) * step + 1),
	    xasprintf("%s %d rank %d", role_name(la->role), la->instance,
	    la->node_rank), line, gpus_per_host);
}

static void
resource_facts(struct facts *f, const struct deployment *d,
    const struct plan *p)
{
	struct uses	 pu = { NULL, 0, false }, gu = { NULL, 0, false };
	struct layout	 lay;
	size_t		 i;

	deployment_layout(f->cat, d, &lay);
	for (i = 0; i < p->n; i++) {
		const struct launch	*la = &p->l[i];
		int			 line = d->role[la->role].line;

		if (la->role == ROLE_ROUTER) {
			use_add(&pu, la, lay.router_port, lay.router_port + 1,
			    xstrdup("the router (HTTP)"), line, -1);
			continue;
		}
		server_ports(&pu, d, la, line);
		server_gpus(&gu, la, line, lay.gpus_per_host);
	}
	for (i = 0; i < pu.n; i++)
		pu.u[i].unstated = d->role[pu.u[i].role].host_unstated;
	for (i = 0; i < gu.n; i++)
		gu.u[i].unstated = d->role[gu.u[i].role].host_unstated;
	collide(f, "deploy.port_collision", "deploy.port_collision_fix", &pu,
	    true);
	collide(f, "deploy.gpu_collision", "deploy.gpu_collision_fix", &gu,
	    false);
	overflow_fact(f, &gu);
	rendezvous_fact(f, d, p);
	port_range_fact(f, d, p);
	fact_val(f, "deploy.gpus_per_host", lay.gpus_per_host > 0 ?
	    val_int(lay.gpus_per_host) : VAL_NULL);
	for (i = ROLE_PREFILL; i <= ROLE_DECODE; i++)
		role_gpu_facts(f, d, &lay, (enum role)i);
	uses_free(&pu);
	uses_free(&gu);
	layout_free(&lay);
}

static void
role_cb(void *arg, int slot)
{
	int	*slots = arg;

	if (slots[0] < 64)
		slots[1 + slots[0]++] = slot;
}

enum role
deploy_diag_role(const struct catalog *cat, const struct diag *dg,
    const struct config *eff[NPD_ROLE])
{
	int	slots[65] = { 0 };
	int	i, first = -1;

	if (dg->rule == NULL)
		return ROLE_PREFILL;
	rule_slots(dg->rule, role_cb, slots);
	for (i = 1; i <= slots[0]; i++) {
		int	r = slot_role(cat->nopts, slots[i]);
		int	o = slot_opt(cat->nopts, slots[i]);

		if (r < 0) {
			const char	*n = cat->opts[o].name;

			if (strncmp(n, "deploy.router", 13) == 0)
				return ROLE_ROUTER;
			if (strncmp(n, "deploy.decode", 13) == 0)
				return ROLE_DECODE;
			if (strncmp(n, "deploy.prefill", 14) == 0)
				return ROLE_PREFILL;
			continue;
		}
		if (first < 0)
			first = r;
		if (r < NPD_ROLE && eff[r] != NULL && config_is_set(eff[r], o))
			return (enum role)r;
	}
	return first >= 0 ? (enum role)first : ROLE_PREFILL;
}

/* Line of the first option of role r the rule reads that was set. */
static int
diag_line(const struct catalog *cat, const struct diag *dg, enum role role,
    const struct config *eff[NPD_ROLE])
{
	int	slots[65] = { 0 };
	int	i;

	if (dg->rule == NULL || eff[role] == NULL)
		return 0;
	rule_slots(dg->rule, role_cb, slots);
	for (i = 1; i <= slots[0]; i++) {
		int	o = slot_opt(cat->nopts, slots[i]);

		if (slot_role(cat->nopts, slots[i]) == (int)role &&
		    config_is_set(eff[role], o) &&
		    eff[role]->s[o].line > 0)
			return eff[role]->s[o].line;
	}
	return 0;
}

/* The role a fact the rule reads is about (ROLE_SINGLE: none). */
struct fact_scan {
	const struct facts	*f;
	int			 role;
};

static void
fact_scan_cb(void *arg, int slot)
{
	struct fact_scan	*fs = arg;
	size_t			 nopts = fs->f->cat->nopts;
	int			 o = slot_opt(nopts, slot);

	if (fs->role < 0 && slot_role(nopts, slot) < 0 &&
	    fs->f->role[o] >= 0 && config_is_set(fs->f->cfg, o) &&
	    fs->f->cfg->s[o].v.t != V_NULL)
		fs->role = fs->f->role[o];
}

static enum role
fact_diag_role(const struct facts *f, const struct diag *dg)
{
	struct fact_scan	fs = { f, -1 };

	if (dg->rule != NULL)
		rule_slots(dg->rule, fact_scan_cb, &fs);
	return fs.role >= 0 ? (enum role)fs.role : ROLE_SINGLE;
}

/* The deployment facts and the deployment rules over d, unattributed. */
struct cross {
	struct config	dc;
	struct facts	f;
	struct result	res;
};

static void
cross_eval(const struct catalog *cat, const struct deployment *d,
    const struct config *eff[NPD_ROLE], struct cross *x)
{
	struct plan		 p;
	const struct config	*roles[NSLOT_SCOPE];
	int			 r;

	config_init(&x->dc, cat);
	x->f.cat = cat;
	x->f.cfg = &x->dc;
	x->f.role = xcalloc(cat->nopts + 1, 1);
	memset(x->f.role, -1, cat->nopts + 1);
	deployment_plan(cat, d, &p, NULL);
	router_facts(&x->f, d, &p);
	resource_facts(&x->f, d, &p);
	roles[SCOPE_SELF] = &x->dc;
	for (r = 0; r < NPD_ROLE; r++)
		roles[role_scope((enum role)r)] = eff[r];
	result_init(&x->res);
	engine_run_deploy(cat, roles, &x->res);
	plan_free(&p);
}

static void
cross_free(struct cross *x)
{
	result_free(&x->res);
	config_free(&x->dc);
	free(x->f.role);
}

/*
 * Fixes of deployment rules. A fix names role slots (prefill.page_size) or
 * deployment facts (deploy.router_missing). A role slot is set in the
 * role's options of a copy of the deployment, as the wizard would write it;
 * null removes the role's own value (a value shared by both roles stays
 * with the other role), so the deployment's model, the shared value or
 * SGLang's default applies. A deployment fact set to null means "let pdwiz
 * derive what the fact is computed from": the copy drops the explicit
 * values that the layout derives (the router's lists, the rendezvous,
 * ports, base GPUs). The router's options (deploy.router.NAME) are set on
 * the router. Anything else cannot be applied, and the fix is not offered.
 * A script does not say how many GPUs its nodes have: its import records
 * the GPUs each command uses as gpus_per_node, so a fix that changes a
 * role's parallelism drops that record (the GPUs become unknown again).
 */

static bool
sizes_gpus(const char *name)
{
	static const char *const n[] = { "tp_size", "pp_size", "dp_size",
	    "nnodes", "enable_dp_attention", NULL };
	size_t	i;

	for (i = 0; n[i] != NULL; i++)
		if (strcmp(n[i], name) == 0)
			return true;
	return false;
}

/* Drop the role's own value of name; a shared value moves to the other
 * PD role so that only this role loses it. */
static int
role_unset(const struct catalog *cat, struct deployment *d, enum role r,
    const char *name)
{
	char		 err[256];
	int		 o = deploy_resolve(cat, name);
	const struct kv	*k = NULL;
	enum role	 other = r == ROLE_PREFILL ? ROLE_DECODE : ROLE_PREFILL;

	if (o >= 0 && strcmp(name, "model_path") != 0) {
		if (cat->opts[o].kind == OK_ENV)
			k = kv_get(d->shared_env, d->nshared_env,
			    cat->opts[o].name);
		else
			k = kv_get(d->shared, d->nshared, cat->opts[o].name);
	}
	if (k != NULL) {
		bool	 env = cat->opts[o].kind == OK_ENV;
		char	*v = k->value ? xstrdup(k->value) : NULL;
		int	 rc = 0;

		if (kv_get(env ? d->role[other].env : d->role[other].opts,
		    env ? d->role[other].nenv : d->role[other].nopts,
		    cat->opts[o].name) == NULL)
			rc = deployment_set(cat, d, other, cat->opts[o].name, v,
			    err, sizeof err);
		free(v);
		if (rc != 0 || deployment_set_shared(cat, d, cat->opts[o].name,
		    NULL, err, sizeof err) != 0)
			return -1;
	}
	return deployment_set(cat, d, r, name, NULL, err, sizeof err);
}

static void
drop_dist_init(const struct catalog *cat, struct deployment *d)
{
	char	err[256];
	int	r;

	(void)deployment_set_shared(cat, d, "dist_init_addr", NULL, err,
	    sizeof err);
	for (r = ROLE_PREFILL; r <= ROLE_DECODE; r++) {
		d->role[r].dist_init_port = -1;
		(void)deployment_set(cat, d, (enum role)r, "dist_init_addr",
		    NULL, err, sizeof err);
	}
}

/* A deployment fact set to null: derive what it is computed from. */
static int
derive_fact(const struct catalog *cat, struct deployment *d,
    const char *name, bool touched[NPD_ROLE])
{
	struct role_spec	*rr = &d->role[ROLE_ROUTER];
	int			 r;

	if (strncmp(name, "deploy.router_", 14) == 0) {
		endpoints_release(rr->prefill_urls, rr->nprefill_urls);
		endpoints_release(rr->decode_urls, rr->ndecode_urls);
		rr->prefill_urls = rr->decode_urls = NULL;
		rr->nprefill_urls = rr->ndecode_urls = 0;
		return 0;
	}
	if (strcmp(name, "deploy.rendezvous_invalid") == 0) {
		drop_dist_init(cat, d);
		touched[ROLE_PREFILL] = touched[ROLE_DECODE] = true;
		return 0;
	}
	for (r = ROLE_PREFILL; r <= ROLE_DECODE; r++) {
		struct role_spec	*rs = &d->role[r];

		if (strcmp(name, "deploy.port_collision") == 0) {
			rs->port = rs->bootstrap_port = -1;
			rs->dist_init_port = -1;
		} else if (strcmp(name, "deploy.port_invalid") == 0) {
			rs->port = rs->bootstrap_port = -1;
			rs->port_step = 0;
		} else if (strcmp(name, "deploy.gpu_collision") == 0 ||
		    strcmp(name, "deploy.gpu_overflow") == 0)
			rs->base_gpu_id = -1;
		else
			return -1;
	}
	if (strcmp(name, "deploy.port_collision") == 0)
		drop_dist_init(cat, d);
	touched[ROLE_PREFILL] = touched[ROLE_DECODE] = true;
	return 0;
}

/* Apply fix fx of a deployment rule to d; touched: roles whose options
 * changed. 0, or -1 when the fix cannot be applied. */
static int
deploy_apply_fix(const struct catalog *cat, const struct fix *fx,
    struct deployment *d, bool touched[NPD_ROLE])
{
	size_t	nopts = cat->nopts, i;
	char	err[256];

	for (i = 0; i < fx->n; i++) {
		int		 role = slot_role(nopts, fx->opt[i]);
		int		 o = slot_opt(nopts, fx->opt[i]);
		const char	*name = cat->opts[o].name;
		struct buf	 b = { 0 };
		int		 rc;

		if (fx->val[i].t != V_NULL)
			val_cli(&b, fx->val[i]);
		if (role < 0) {
			if (strncmp(name, ROUTER_OPT_PREFIX,
			    strlen(ROUTER_OPT_PREFIX)) == 0)
				rc = deployment_set(cat, d, ROLE_ROUTER, name +
				    strlen(ROUTER_OPT_PREFIX), b.s, err,
				    sizeof err);
			else
				rc = fx->val[i].t == V_NULL ?
				    derive_fact(cat, d, name, touched) : -1;
		} else if (role == ROLE_ROUTER) {
			rc = -1;
		} else if (cat->opts[o].kind == OK_FACT) {
			rc = deployment_set_fact(cat, d, name, b.s, err,
			    sizeof err);
			touched[ROLE_PREFILL] = touched[ROLE_DECODE] = true;
		} else {
			rc = b.s == NULL ? role_unset(cat, d, (enum role)role,
			    name) : deployment_set(cat, d, (enum role)role,
			    name, b.s, err, sizeof err);
			touched[role] = true;
			if (d->gpus_per_host < 0 && sizes_gpus(name))
				d->role[role].gpus_per_node = 0;
		}
		buf_free(&b);
		if (rc != 0)
			return -1;
	}
	return 0;
}

int
deployment_apply_fix(const struct catalog *cat, const struct rule *r,
    size_t i, struct deployment *d)
{
	bool	touched[NPD_ROLE] = { false, false, false };

	if (!r->deploy || i >= r->nfixes)
		return -1;
	return deploy_apply_fix(cat, &r->fixes[i], d, touched);
}

/* The role's effective config and its errors, from the deployment. */
static void
role_eval(const struct catalog *cat, const struct deployment *d, enum role r,
    struct result *res)
{
	struct config	cfg;
	struct result	rd;

	result_init(&rd);
	result_init(res);
	(void)deployment_role_config(cat, d, r, &cfg, &rd);
	engine_run(cat, &cfg, res);
	result_take(res, &rd, 0);
	result_free(&rd);
	config_free(&cfg);
}

static bool
has_rule_sev(const struct result *res, const struct rule *r,
    enum severity sev)
{
	size_t	i;

	for (i = 0; i < res->n; i++)
		if (res->d[i].rule == r && res->d[i].sev == sev)
			return true;
	return false;
}

/* Is every error of after also an error of before (same rule, or for
 * reader errors the same text)? */
static bool
no_new_error(const struct result *before, const struct result *after)
{
	size_t	i, j;

	for (i = 0; i < after->n; i++) {
		const struct diag	*a = &after->d[i];
		bool			 old = false;

		if (a->sev != SEV_ERROR)
			continue;
		for (j = 0; j < before->n && !old; j++)
			old = before->d[j].sev == SEV_ERROR &&
			    before->d[j].rule == a->rule && (a->rule != NULL ||
			    strcmp(before->d[j].msg, a->msg) == 0);
		if (!old)
			return false;
	}
	return true;
}

#define DFIX_MAX	32	/* fixes fix_ok can speak for */

/* Does fix j of diagnostic dg clear it without a new error? */
static bool
fix_works(const struct catalog *cat, const struct deployment *d,
    const struct config *eff[NPD_ROLE], const struct result *res,
    const struct diag *dg, size_t j)
{
	struct deployment	 d2;
	struct config		 e2[NPD_ROLE];
	const struct config	*ep[NPD_ROLE];
	bool			 touched[NPD_ROLE] = { false, false, false };
	bool			 ok;
	struct cross		 x;
	int			 r;

	deployment_copy(&d2, d);
	if (deploy_apply_fix(cat, &dg->rule->fixes[j], &d2, touched) != 0) {
		deployment_free(&d2);
		return false;
	}
	ok = true;
	memset(e2, 0, sizeof e2);
	for (r = 0; r < NPD_ROLE; r++) {
		struct result	 was, now;

		ep[r] = eff[r];
		if (!touched[r] || r == ROLE_ROUTER)
			continue;
		role_eval(cat, d, (enum role)r, &was);
		role_eval(cat, &d2, (enum role)r, &now);
		ok = ok && no_new_error(&was, &now);
		e2[r] = now.eff;
		memset(&now.eff, 0, sizeof now.eff);
		ep[r] = &e2[r];
		result_free(&was);
		result_free(&now);
	}
	cross_eval(cat, &d2, ep, &x);
	ok = ok && !has_rule_sev(&x.res, dg->rule, dg->sev) &&
	    no_new_error(res, &x.res);
	cross_free(&x);
	for (r = 0; r < NPD_ROLE; r++)
		if (ep[r] == &e2[r])
			config_free(&e2[r]);
	deployment_free(&d2);
	return ok;
}

/* Verify the fixes of every error and warning (see the comment above). */
static void
verify_fixes(const struct catalog *cat, const struct deployment *d,
    const struct config *eff[NPD_ROLE], struct result *res)
{
	size_t	i, j;

	for (i = 0; i < res->n; i++) {
		struct diag	*dg = &res->d[i];

		if (dg->rule == NULL || dg->rule->nfixes == 0 ||
		    (dg->sev != SEV_ERROR && dg->sev != SEV_WARNING))
			continue;
		dg->fixes_verified = true;
		dg->fix_ok = 0;
		for (j = 0; j < dg->rule->nfixes && j < DFIX_MAX; j++)
			if (fix_works(cat, d, eff, res, dg, j))
				dg->fix_ok |= 1u << j;
	}
}

void
deployment_check_cross(const struct catalog *cat, const struct deployment *d,
    const struct config *eff[NPD_ROLE], struct result *out)
{
	struct cross	 x;
	size_t		 i;

	cross_eval(cat, d, eff, &x);
	verify_fixes(cat, d, eff, &x.res);
	for (i = 0; i < x.res.n; i++) {
		struct diag	*dg = &x.res.d[i];
		enum role	 dr = fact_diag_role(&x.f, dg);
		int		 ln;

		if (dr == ROLE_SINGLE)
			dr = deploy_diag_role(cat, dg, eff);
		ln = diag_line(cat, dg, dr, eff);

		if (ln > 0 && (dg->line == 0 || dg->opt < 0 ||
		    cat->opts[dg->opt].kind != OK_DEPLOY ||
		    !config_is_set(&x.dc, dg->opt)))
			dg->line = ln;
		if (dg->line == 0)
			dg->line = d->role[dr].line;
		dg->cmd = (int)dr;
	}
	result_move_keep(out, &x.res);
	cross_free(&x);
}
