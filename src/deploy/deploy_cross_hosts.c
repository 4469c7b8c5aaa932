/*
 * deploy_cross_hosts.c - what shares a machine: the ports and GPUs every
 * server and the router hold, collisions and overflows, rendezvous
 * addresses and port ranges.
 */
#define _POSIX_C_SOURCE 200809L
#include "deploy/deploy.h"
#include "deploy/deploy_int.h"
#include "deploy/deploy_cross.h"
#include "deploy/layout.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct use {
	const char	*host;
	int		 lo, hi;	/* port, or GPU range [lo, hi) */
	char		*what;
	int		 line;
	enum role	 role;
	int		 inst;		/* -1: the router */
	int		 rank;		/* node rank of a multi-node instance */
	const struct launch *la;
	int		 host_gpus;	/* GPUs of the host; -1 unknown */
	int		 delta;		/* ports derived from --port: the
					   offset (0: none) */
	const char	*unstated;	/* why its machine is not known, or
					   NULL */
	double		 mem;		/* GPUs: --mem-fraction-static as
					   stated, -1 not stated, -2 left to
					   run time */
	bool		 opaque;	/* GPUs: words of its command stand
					   for options pdwiz cannot see */
};

struct uses {
	struct use	*u;
	size_t		 n;
	bool		 unknown;	/* a value left to run time was skipped */
	char		*why;		/* the first such value, in words */
};

/* A value left to run time: the uses cannot be checked, and why. */
static void
uses_unknown(struct uses *us, char *why)
{
	us->unknown = true;
	if (us->why == NULL)
		us->why = why;
	else
		free(why);
}

static void
use_add(struct uses *us, const struct launch *la, int lo, int hi, char *what,
    int line, int host_gpus)
{
	struct use	*u;

	us->u = grow_pow2(us->u, us->n, sizeof *us->u);
	u = &us->u[us->n++];
	u->host = host_key(la->host);
	u->lo = lo;
	u->hi = hi;
	u->what = what;
	u->line = line;
	u->role = la->role;
	u->inst = la->role == ROLE_ROUTER ? -1 : la->instance;
	u->rank = la->node_rank;
	u->la = la;
	u->host_gpus = host_gpus;
	u->delta = 0;
	u->unstated = NULL;
	u->mem = -1;
	u->opaque = false;
}

static void
uses_free(struct uses *us)
{
	size_t	i;

	for (i = 0; i < us->n; i++)
		free(us->u[i].what);
	free(us->u);
	free(us->why);
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

/* "GPU 3" or "GPUs 0-7" for the range [lo, hi). */
static void
gpu_words(struct buf *b, int lo, int hi)
{
	if (hi - lo > 1)
		buf_printf(b, "GPUs %d-%d", lo, hi - 1);
	else
		buf_printf(b, "GPU %d", lo);
}

/* The fix for u[j], the second of a colliding pair: a free place for it
 * on its host. */
static void
collide_fix(const struct uses *us, size_t j, bool ports, struct buf *fx)
{
	const struct use	*u = us->u;
	int			 len, lim, at;

	len = u[j].hi - u[j].lo;
	lim = ports ? 65536 : u[j].host_gpus >= 0 ?
	    u[j].host_gpus : 1 << 20;
	at = first_free(us, j, ports ? u[j].lo + 1 : 0, len,
	    lim, !ports);
	if (at >= 0 && ports && u[j].delta > 0)
		buf_printf(fx, "give %s %d --port %d (its ZMQ "
		    "ports %d-%d are free on %s), or leave the "
		    "ports out of the deployment file so pdwiz "
		    "counts them", role_name(u[j].role), u[j].inst,
		    at - u[j].delta, at, at + len - 1, u[j].host);
	else if (at >= 0 && ports && len > 1)
		buf_printf(fx, "move %s to ports %d-%d, free "
		    "on %s (or leave the ports out of the "
		    "deployment file so pdwiz counts them)",
		    u[j].what, at, at + len - 1, u[j].host);
	else if (at >= 0 && ports)
		buf_printf(fx, "move %s to port %d, free on %s "
		    "(or leave the port out of the deployment "
		    "file so pdwiz counts it)", u[j].what, at,
		    u[j].host);
	else if (at >= 0)
		buf_printf(fx, "start %s at --base-gpu-id %d "
		    "(GPUs %d-%d of %s are free), or leave "
		    "base_gpu_id out of the deployment file so "
		    "pdwiz packs the instances", u[j].what, at,
		    at, at + len - 1, u[j].host);
	else
		buf_printf(fx, "%s has no %d free GPUs left for "
		    "%s: put it on another host", u[j].host, len,
		    u[j].what);
}

/* What a pair of uses on one host is to the collision check. */
enum pair_kind {
	P_SKIP,		/* no overlap, or an overlap that is fine */
	P_UNSTATED,	/* would collide if they shared a machine, which is
			   not known */
	P_OPAQUE,	/* share GPUs; whether both fit is left to run time */
	P_COLLIDE
};

static enum pair_kind
pair_kind(const struct use *u, size_t i, size_t j, bool ports)
{
	if (u[i].lo >= u[j].hi || u[j].lo >= u[i].hi)
		return P_SKIP;
	/* The ranks of one multi-node instance run on machines of their
	 * own. */
	if (u[i].inst >= 0 && u[i].role == u[j].role &&
	    u[i].inst == u[j].inst && u[i].rank != u[j].rank)
		return P_SKIP;
	/* A host pdwiz could not expand (--host ${local_ip}), or bound to
	 * 0.0.0.0 with no word of the machine: the two may or may not share
	 * one, so nothing is claimed (the rule says it could not check). */
	if (u[i].unstated || u[j].unstated)
		return P_UNSTATED;
	/* Two servers may share GPUs on purpose, each with a stated share
	 * of the memory. Whether they fit is unknown when a share, or the
	 * options themselves, are left to run time. */
	if (!ports && (u[i].opaque || u[j].opaque || u[i].mem == -2 ||
	    u[j].mem == -2))
		return P_OPAQUE;
	if (!ports && u[i].mem > 0 && u[j].mem > 0 &&
	    u[i].mem + u[j].mem <= 1.0)
		return P_SKIP;
	return P_COLLIDE;
}

/* Pair u[i] with u[j] (j after i in the input, else left out): the first
 * collision into *best, the first other pair worth reporting into *bestu
 * with its kind. */
static void
weigh_pair(const struct use *u, size_t i, size_t j, bool ports, size_t *best,
    size_t *bestu, enum pair_kind *kindu)
{
	enum pair_kind	k;

	if (j < i)
		return;
	k = pair_kind(u, i, j, ports);
	if (k == P_COLLIDE && j < *best)
		*best = j;
	else if (k != P_SKIP && k != P_COLLIDE && j < *bestu) {
		*bestu = j;
		*kindu = k;
	}
}

/* The uses ordered by host, then by the start of their range: what may
 * overlap a use is next to it in that order. */
struct hl {
	const char	*host;
	int		 lo, hi;
	size_t		 i;
};

static int
hl_cmp(const void *a, const void *b)
{
	const struct hl	*x = a, *y = b;
	int		 c = strcmp(x->host, y->host);

	if (c != 0)
		return c;
	if (x->lo != y->lo)
		return x->lo < y->lo ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* The first pair of overlapping uses on one host (the first use, then the
 * first other after it, in the uses' order), as words; the fix (a free
 * place for the second one) in fixb. Each use is compared with the uses
 * of its host whose ranges may reach it (found in the host-and-start
 * order), not with every use of its host. */
static void
collide(struct facts *f, const char *fact, const char *fixfact,
    struct uses *us, bool ports)
{
	struct use	*u = us->u;
	size_t		 n = us->n, i, j = 0, q, p;
	size_t		 ci = n, cj = n, ui = n, uj = n;
	enum pair_kind	 uk = P_SKIP;
	struct hl	*s = xcalloc(n + 1, sizeof *s);
	size_t		*pos = xcalloc(n + 1, sizeof *pos);
	int		*maxhi = xcalloc(n + 1, sizeof *maxhi);
	struct buf	 b = { 0 }, fx = { 0 };
	char		*why = NULL;

	for (i = 0; i < n; i++) {
		s[i].host = u[i].host;
		s[i].lo = u[i].lo;
		s[i].hi = u[i].hi;
		s[i].i = i;
	}
	if (n > 0)
		qsort(s, n, sizeof *s, hl_cmp);
	for (q = 0; q < n; q++) {
		pos[s[q].i] = q;
		/* The highest end of the ranges of the host up to q. */
		maxhi[q] = q > 0 && strcmp(s[q - 1].host, s[q].host) == 0 &&
		    maxhi[q - 1] > s[q].hi ? maxhi[q - 1] : s[q].hi;
	}
	for (i = 0; i < n && ci == n; i++) {
		size_t	best = n, bestu = n;
		enum pair_kind	kindu = P_SKIP;

		p = pos[i];
		/* Those starting at or after u[i], before its end; then those
		 * starting before it, while any of them ends after its
		 * start. */
		for (q = p + 1; q < n && s[q].lo < u[i].hi &&
		    strcmp(s[q].host, s[p].host) == 0; q++)
			weigh_pair(u, i, s[q].i, ports, &best, &bestu, &kindu);
		for (q = p; q-- > 0 && maxhi[q] > u[i].lo &&
		    strcmp(s[q].host, s[p].host) == 0;)
			weigh_pair(u, i, s[q].i, ports, &best, &bestu, &kindu);
		if (best < n) {
			ci = i;
			cj = best;
		}
		if (ui == n && bestu < n) {
			ui = i;
			uj = bestu;
			uk = kindu;
		}
	}
	free(s);
	free(pos);
	free(maxhi);
	if (ci < n) {
		i = ci;
		j = cj;
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
		} else {
			gpu_words(&b, u[i].lo, u[i].hi);
			buf_printf(&b, " of %s (%s) overlap%s ",
			    u[i].host, u[i].what, u[i].hi - u[i].lo > 1 ?
			    "" : "s");
			gpu_words(&b, u[j].lo, u[j].hi);
			buf_printf(&b, " (%s)", u[j].what);
			if (u[i].mem > 0 && u[j].mem > 0)
				buf_printf(&b, ", and their "
				    "--mem-fraction-static %g + %g is "
				    "more than the whole GPU", u[i].mem,
				    u[j].mem);
		}
		collide_fix(us, j, ports, &fx);
		fact_add(f, fact, (int)u[j].role, u[j].line, "%s",
		    b.s != NULL ? b.s : "");
		fact_add(f, fixfact, (int)u[j].role, u[j].line, "%s",
		    fx.s != NULL ? fx.s : "");
	} else if (us->unknown)
		fact_unknown(f, fact, us->why);
	else if (ui < n) {
		i = ui;
		j = uj;
		if (uk == P_UNSTATED)
			why = xasprintf("%s and %s would collide if they "
			    "shared a machine, and pdwiz cannot tell whether "
			    "they do: %s: %s", u[i].what, u[j].what,
			    u[i].unstated ? u[i].what : u[j].what,
			    u[i].unstated ? u[i].unstated : u[j].unstated);
		else
			why = xasprintf("%s and %s share GPUs; whether both "
			    "fit depends on --mem-fraction-static, which %s's "
			    "command leaves to run time%s", u[i].what,
			    u[j].what, u[i].opaque || u[i].mem == -2 ?
			    u[i].what : u[j].what, u[i].opaque ||
			    u[j].opaque ? " (words expanded when the script "
			    "runs stand for options there)" : "");
		fact_unknown(f, fact, why);
	}
	free(why);
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
		fact_add(f, "deploy.gpu_overflow", (int)u->role, line, "%s",
		    b.s);
	}
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
		fact_add(f, "deploy.rendezvous_invalid", (int)la->role, line,
		    "%s", b.s);
	}
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
		fact_add(f, "deploy.port_invalid", (int)la->role, line, "%s",
		    b.s);
	}
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

static char *
flag_of(const struct facts *f, const char *name)
{
	int	o = catalog_find(f->cat, name);

	return xstrdup(o >= 0 && f->cat->opts[o].flag != NULL ?
	    f->cat->opts[o].flag : name);
}

/* The ports one server holds on its machine, into pu. */
static void
server_ports(const struct facts *f, struct uses *pu,
    const struct deployment *d, const struct launch *la, int line)
{
	static const char *const pn[] = { "port",
	    "disaggregation_bootstrap_port", NULL };
	const struct config	*c = &la->cfg;
	const char		*rn = role_name(la->role);
	const char		*a = cfg_str(c, "dist_init_addr");
	bool			 nohttp = d->role[la->role].nohttp;
	/* Behind a wrapper without SGLang's HTTP server there is no --port. */
	const char		*u = fact_role_unknown(f, la->role, pn +
	    (nohttp ? 1 : 0));
	char			*fl = flag_of(f, u != NULL ? u : nohttp ?
	    "disaggregation_bootstrap_port" : "port");

	if (u != NULL || d->role[la->role].port_unstated)
		uses_unknown(pu, xasprintf("the %s's %s is a value the script "
		    "computes at run time", rn, fl));
	free(fl);
	if (nohttp)
		;
	else if (cfg_unknown(c, "port") || d->role[la->role].port_unstated)
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
server_gpus(const struct facts *f, struct uses *gu, const struct launch *la,
    int line, int gpus_per_host)
{
	static const char *const gn[] = { "tp_size", "pp_size", "dp_size",
	    "nnodes", "base_gpu_id", "gpu_id_step", NULL };
	const struct config	*c = &la->cfg;
	long long		 tp, pp, dp, nn, per, base, step;
	const char		*u = fact_role_unknown(f, la->role, gn);
	size_t			 k;

	for (k = 0; k < la->nenv; k++)
		if (strcmp(la->env[k].name, "CUDA_VISIBLE_DEVICES") == 0)
			return;
	for (k = 0; u == NULL && gn[k] != NULL; k++)
		if (cfg_unknown(c, gn[k]))
			u = gn[k];
	if (u != NULL) {
		char	*fl = flag_of(f, u);

		uses_unknown(gu, xasprintf("the %s's GPUs depend on %s, a "
		    "value the script computes at run time",
		    role_name(la->role), fl));
		free(fl);
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

/* What same_machine reads of one launch, worked out once per launch (the
 * bootstrap check compares every prefill with every decode). */
struct machine {
	bool	lo;		/* a loopback address */
	bool	lw;		/* ... or a wildcard */
	bool	why;		/* launch_machine_why: not stated */
};

static void
machine_of(const struct facts *f, const struct deployment *d,
    const struct launch *la, struct machine *m)
{
	m->lo = host_is_loopback(la->host);
	m->lw = m->lo || host_is_wildcard(la->host);
	m->why = launch_machine_why(f, d, la) != NULL;
}

/* Are machines a and b the same (1), different (0), or unknown (-1)?
 * Loopback stands for "this machine"; two stated addresses that differ are
 * two machines; a stated address against "this machine" is unknown. */
static int
same_machine(const struct launch *a, const struct machine *ma,
    const struct launch *b, const struct machine *mb)
{
	/* Two loopback addresses (127.0.0.$((i + 1)) included) are one
	 * machine, whatever else is left to run time. */
	if (ma->lo && mb->lo)
		return 1;
	if (ma->why || mb->why)
		return -1;
	if (ma->lw && mb->lw)
		return 1;
	if (ma->lw || mb->lw)
		return -1;
	return strcmp(a->host, b->host) == 0;
}

/*
 * A prefill's bootstrap server binds its --host (SGLang's default
 * 127.0.0.1). Bound to loopback, it is reachable only from its own
 * machine: a multi-node prefill's ranks register with it at the
 * --dist-init-addr host, and every decode fetches the prefill's layout
 * from it, so either on another machine is refused.
 */
static void
bootstrap_bind_fact(struct facts *f, const struct deployment *d,
    const struct plan *p)
{
	static const char *const fact = "deploy.bootstrap_loopback";
	char		*why = NULL;
	size_t		 i, j, k, ndec = 0, nfar = 0;
	struct machine	*m = xcalloc(p->n + 1, sizeof *m);
	/* The decodes, in order; and those not on a loopback address, the
	 * only ones a prefill on loopback may not share its machine with
	 * (two loopback addresses are one machine). */
	size_t		*dec = xcalloc(p->n + 1, sizeof *dec);
	size_t		*far = xcalloc(p->n + 1, sizeof *far);

	for (i = 0; i < p->n; i++) {
		if (p->l[i].role == ROLE_PREFILL || p->l[i].role == ROLE_DECODE)
			machine_of(f, d, &p->l[i], &m[i]);
		if (p->l[i].role == ROLE_DECODE) {
			dec[ndec++] = i;
			if (!m[i].lo)
				far[nfar++] = i;
		}
	}
	for (i = 0; i < p->n; i++) {
		const struct launch	*la = &p->l[i];
		const char		*bind = launch_bind(d, la);
		const char		*dist = cfg_str(&la->cfg, "dist_init_addr");
		int			 bp = (int)cfg_int(&la->cfg,
		    "disaggregation_bootstrap_port", 8998);

		if (la->role != ROLE_PREFILL || la->node_rank != 0)
			continue;
		if (bind == NULL)
			bind = "127.0.0.1";
		if (!host_is_loopback(bind))
			continue;
		if (cfg_int(&la->cfg, "nnodes", 1) > 1 && dist != NULL &&
		    strpbrk(dist, "$`(){}<>") == NULL &&
		    strncmp(dist, "127.", 4) != 0 &&
		    strncmp(dist, "localhost", 9) != 0) {
			fact_add(f, fact, ROLE_PREFILL, d->role[ROLE_PREFILL].line,
			    "prefill %d runs on %lld nodes, whose ranks register "
			    "with its bootstrap server at the --dist-init-addr "
			    "host (%s), but the server binds %s only",
			    la->instance, cfg_int(&la->cfg, "nnodes", 1), dist,
			    bind);
			continue;
		}
		for (k = 0; k < (m[i].lo ? nfar : ndec); k++) {
			const struct launch	*lb;
			int			 same;

			j = m[i].lo ? far[k] : dec[k];
			lb = &p->l[j];
			same = same_machine(la, &m[i], lb, &m[j]);
			if (same == 0) {
				fact_add(f, fact, ROLE_PREFILL,
				    launch_line(d, la), "prefill %d on "
				    "%s serves its bootstrap server on %s:%d "
				    "only, but decode %d runs on %s and "
				    "fetches the prefill's layout from it",
				    la->instance, la->host, bind, bp,
				    lb->instance, lb->host);
				break;
			}
			if (same < 0 && why == NULL)
				why = xasprintf("prefill %d's bootstrap server "
				    "binds %s, and whether decode %d (%s) runs "
				    "on the same machine is not stated",
				    la->instance, bind, lb->instance,
				    lb->host);
		}
	}
	if (why != NULL)
		fact_unknown(f, fact, why);
	free(why);
	free(m);
	free(dec);
	free(far);
}

void
resource_facts(struct facts *f, const struct deployment *d,
    const struct plan *p)
{
	struct uses		 pu = { NULL, 0, false, NULL },
				 gu = { NULL, 0, false, NULL };
	struct layout		 own;
	const struct layout	*lay = f->lay;
	size_t			 i;

	if (lay == NULL) {
		deployment_layout(f->cat, d, &own);
		lay = &own;
	}
	for (i = 0; i < p->n; i++) {
		const struct launch	*la = &p->l[i];
		int			 line = d->role[la->role].line;

		if (la->role == ROLE_ROUTER) {
			use_add(&pu, la, lay->router_port, lay->router_port + 1,
			    xstrdup("the router (HTTP)"), line, -1);
			continue;
		}
		server_ports(f, &pu, d, la, line);
		server_gpus(f, &gu, la, line, lay->gpus_per_host);
	}
	for (i = 0; i < pu.n; i++)
		pu.u[i].unstated = launch_machine_why(f, d, pu.u[i].la);
	for (i = 0; i < gu.n; i++) {
		const struct launch	*la = gu.u[i].la;

		gu.u[i].unstated = launch_machine_why(f, d, la);
		gu.u[i].opaque = d->role[la->role].args_unstated;
		gu.u[i].mem = cfg_unknown(&la->cfg, "mem_fraction_static") ?
		    -2 : cfg_num(&la->cfg, "mem_fraction_static", -1);
	}
	collide(f, "deploy.port_collision", "deploy.port_collision_fix", &pu,
	    true);
	collide(f, "deploy.gpu_collision", "deploy.gpu_collision_fix", &gu,
	    false);
	overflow_fact(f, &gu);
	rendezvous_fact(f, d, p);
	port_range_fact(f, d, p);
	bootstrap_bind_fact(f, d, p);
	fact_val(f, "deploy.gpus_per_host", lay->gpus_per_host > 0 ?
	    val_int(lay->gpus_per_host) : VAL_NULL);
	for (i = ROLE_PREFILL; i <= ROLE_DECODE; i++)
		role_gpu_facts(f, d, lay, (enum role)i);
	uses_free(&pu);
	uses_free(&gu);
	if (lay == &own)
		layout_free(&own);
}
