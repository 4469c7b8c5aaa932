/*
 * layout.c - the deployment's layout: user-set hosts, GPUs and ports kept,
 * the rest derived (see layout.h for the derivation).
 */
#define _POSIX_C_SOURCE 200809L
#include "deploy/layout.h"
#include "deploy/deploy_int.h"
#include "core/hashidx.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define LAY_MAX_GPU	4096

/*
 * Ranges in use per machine ([lo, hi) ports or GPUs). Loopback and
 * wildcard addresses are all this machine (machine 0), any other host is
 * a machine of its own, found through a hash (hashidx.h): a script of
 * thousands of servers on as many hosts must not compare every server
 * with every other. A machine with many ranges keeps those below
 * OCC_BITS in a bitmap, so that thousands of servers on one machine are
 * not compared pairwise either.
 */
#define OCC_LIST	32
#define OCC_BITS	(1 << 17)

struct occ {
	int		 lo, hi;
};

struct occ_machine {
	const char	*host;		/* NULL: this machine */
	struct occ	*v;		/* the ranges not in bits */
	size_t		 n, cap;
	uint64_t	*bits;		/* past OCC_LIST ranges, or NULL */
};

struct occs {
	struct occ_machine *m;
	size_t		 n, cap;
	struct hidx	 idx;		/* host -> m[], machine 0 left out */
};

static bool
is_this_machine(const char *h)
{
	return host_is_loopback(h) || host_is_wildcard(h);
}

static const char *
occ_host(const void *ctx, size_t i, size_t *len)
{
	const char	*h = ((const struct occs *)ctx)->m[i].host;

	*len = strlen(h);
	return h;
}

static void
occs_init(struct occs *o)
{
	memset(o, 0, sizeof *o);
	hidx_init(&o->idx, occ_host, o);
	o->m = xcalloc(1, sizeof *o->m);
	o->n = o->cap = 1;
}

static void
occs_free(struct occs *o)
{
	size_t	i;

	for (i = 0; i < o->n; i++) {
		free(o->m[i].v);
		free(o->m[i].bits);
	}
	free(o->m);
	hidx_free(&o->idx);
}

/* The machine of host; added when add, else NULL when it has nothing. */
static struct occ_machine *
occ_machine(struct occs *o, const char *host, bool add)
{
	long	i;

	if (is_this_machine(host))
		return &o->m[0];
	if ((i = hidx_find(&o->idx, host, strlen(host))) >= 0)
		return &o->m[i];
	if (!add)
		return NULL;
	if (o->n == o->cap) {
		o->cap *= 2;
		o->m = xreallocarray(o->m, o->cap, sizeof *o->m);
	}
	memset(&o->m[o->n], 0, sizeof *o->m);
	o->m[o->n].host = host;
	hidx_put(&o->idx, o->n);
	return &o->m[o->n++];
}

static bool
bits_any(const uint64_t *b, int lo, int hi)
{
	int	i;

	for (i = lo; i < hi; i++) {
		if (i % 64 == 0 && i + 64 <= hi) {
			if (b[i / 64] != 0)
				return true;
			i += 63;
		} else if (b[i / 64] >> (i % 64) & 1)
			return true;
	}
	return false;
}

static void
bits_set(uint64_t *b, int lo, int hi)
{
	int	i;

	for (i = lo; i < hi; i++)
		b[i / 64] |= (uint64_t)1 << (i % 64);
}

static bool
occ_free(struct occs *o, const char *host, int lo, int hi)
{
	const struct occ_machine *m = occ_machine(o, host, false);
	size_t			  i;

	if (m == NULL)
		return true;
	for (i = 0; i < m->n; i++)
		if (lo < m->v[i].hi && m->v[i].lo < hi)
			return false;
	return m->bits == NULL || !bits_any(m->bits, lo > 0 ? lo : 0,
	    hi < OCC_BITS ? hi : OCC_BITS);
}

static void
occ_list_add(struct occ_machine *m, int lo, int hi)
{
	if (m->n == m->cap) {
		m->cap = m->cap ? m->cap * 2 : 4;
		m->v = xreallocarray(m->v, m->cap, sizeof *m->v);
	}
	m->v[m->n].lo = lo;
	m->v[m->n++].hi = hi;
}

static void
occ_add(struct occs *o, const char *host, int lo, int hi)
{
	struct occ_machine	*m = occ_machine(o, host, true);
	size_t			 i, k;

	if (m->bits == NULL && m->n == OCC_LIST) {
		m->bits = xcalloc(OCC_BITS / 64, sizeof *m->bits);
		for (i = k = 0; i < m->n; i++)
			if (m->v[i].lo >= 0 && m->v[i].hi <= OCC_BITS)
				bits_set(m->bits, m->v[i].lo, m->v[i].hi);
			else
				m->v[k++] = m->v[i];
		m->n = k;
	}
	if (m->bits != NULL && lo >= 0 && hi <= OCC_BITS)
		bits_set(m->bits, lo, hi);
	else
		occ_list_add(m, lo, hi);
}

static long long
opt_int(const struct catalog *cat, const struct deployment *d, enum role r,
    const char *name, long long def)
{
	const char	*t = deployment_get(cat, d, r, name);
	struct value	 v;

	if (t != NULL && val_parse(T_INT, t, &v) == 0 && v.t == V_INT)
		return v.u.i;
	return def;
}

static bool
opt_bool(const struct catalog *cat, const struct deployment *d, enum role r,
    const char *name)
{
	const char	*t = deployment_get(cat, d, r, name);
	struct value	 v;

	if (t == NULL)
		return false;
	return val_parse(T_BOOL, t, &v) == 0 && v.t == V_BOOL && v.u.b;
}

void
layout_role_gpus(const struct catalog *cat, const struct deployment *d,
    enum role r, int *ngpus, int *span)
{
	long long	tp = opt_int(cat, d, r, "tp_size", 1);
	long long	pp = opt_int(cat, d, r, "pp_size", 1);
	long long	dp = opt_bool(cat, d, r, "enable_dp_attention") ? 1 :
	    opt_int(cat, d, r, "dp_size", 1);
	long long	step = opt_int(cat, d, r, "gpu_id_step", 1);
	long long	nn = d->role[r].nodes_per_instance;
	long long	per;

	if (tp < 1 || tp > LAY_MAX_GPU)
		tp = 1;
	if (pp < 1 || pp > LAY_MAX_GPU)
		pp = 1;
	if (dp < 1 || dp > LAY_MAX_GPU)
		dp = 1;
	if (nn < 1)
		nn = 1;
	if (step < 1 || step > 64)
		step = 1;
	per = tp * pp * dp / nn;
	if (per < 1)
		per = 1;
	if (per > LAY_MAX_GPU)
		per = LAY_MAX_GPU;
	*ngpus = (int)per;
	*span = (int)((per - 1) * step + 1);
}

const struct lay_server *
layout_server(const struct layout *l, enum role r, int inst, int rank)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		if (l->s[i].role == r && l->s[i].instance == inst &&
		    l->s[i].node_rank == rank)
			return &l->s[i];
	return NULL;
}

const struct lay_server *
layout_server_at(const struct layout *l, size_t hint, enum role r, int inst,
    int rank)
{
	if (hint < l->n && l->s[hint].role == r &&
	    l->s[hint].instance == inst && l->s[hint].node_rank == rank)
		return &l->s[hint];
	return layout_server(l, r, inst, rank);
}

/* Do two instances of the role share a machine? Each machine keeps the
 * first instance found on it, as a range [instance, instance + 1). */
static bool
role_shared(const struct layout *l, enum role r)
{
	struct occs		 o;
	struct occ_machine	*m;
	size_t			 i;
	bool			 shared = false;

	occs_init(&o);
	for (i = 0; i < l->n && !shared; i++) {
		if (l->s[i].role != r)
			continue;
		m = occ_machine(&o, l->s[i].host, true);
		if (m->n == 0)
			occ_list_add(m, l->s[i].instance, l->s[i].instance + 1);
		else
			shared = m->v[0].lo != l->s[i].instance;
	}
	occs_free(&o);
	return shared;
}

enum what { W_HTTP, W_BOOT, W_DIST };

static bool
role_dp_zmq(const struct layout *l, enum role r)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		if (l->s[i].role == r && l->s[i].dp_zmq)
			return true;
	return false;
}

/* Range of kind w that server s takes from base (the role's step apart). */
static bool
srv_range(const struct lay_server *s, enum what w, int base, int step,
    int *lo, int *hi)
{
	if (w != W_HTTP && s->node_rank != 0)
		return false;
	if (w == W_BOOT && s->role != ROLE_PREFILL)
		return false;
	if (w == W_DIST && s->dist_host == NULL)
		return false;
	*lo = base + s->instance * step;
	*hi = *lo + (w == W_DIST ? LAY_DIST_SPAN : 1);
	return true;
}

/* The ZMQ block of a DP-attention server on one node, from its --port. */
static bool
zmq_range(const struct lay_server *s, int port, int *lo, int *hi)
{
	if (!s->dp_zmq)
		return false;
	*lo = port + LAY_ZMQ_DELTA;
	*hi = *lo + LAY_DIST_SPAN;
	return true;
}

/* The first server of role r (l->n: none): the ones before it are of
 * other roles, so a pass over role r's servers starts there (the base
 * searches try every base, each from the start). */
static size_t
role_first(const struct layout *l, enum role r)
{
	size_t	i;

	for (i = 0; i < l->n && l->s[i].role != r; i++)
		;
	return i;
}

static bool
role_fits(const struct layout *l, enum role r, struct occs *o,
    enum what w, int base, int step, size_t first)
{
	size_t	i;
	int	lo, hi;

	for (i = first; i < l->n; i++) {
		if (l->s[i].role != r || !srv_range(&l->s[i], w, base, step,
		    &lo, &hi))
			continue;
		if (hi > 65536 || !occ_free(o, l->s[i].host, lo, hi))
			return false;
		if (w == W_HTTP && zmq_range(&l->s[i], lo, &lo, &hi) &&
		    (hi > 65536 || !occ_free(o, l->s[i].host, lo, hi)))
			return false;
	}
	return true;
}

static void
role_take(struct layout *l, enum role r, struct occs *o, enum what w,
    int base, int step)
{
	size_t	i;
	int	lo, hi, zlo, zhi;

	for (i = 0; i < l->n; i++) {
		struct lay_server	*s = &l->s[i];

		if (s->role != r || !srv_range(s, w, base, step, &lo, &hi))
			continue;
		occ_add(o, s->host, lo, hi);
		if (w == W_HTTP && zmq_range(s, lo, &zlo, &zhi))
			occ_add(o, s->host, zlo, zhi);
		if (w == W_HTTP)
			s->port = lo;
		else if (w == W_BOOT)
			s->bootstrap_port = lo;
		else
			s->dist_port = lo;
	}
}

/* A port of kind w for role r: the user's, or the first free from def. */
static void
place_ports(struct layout *l, enum role r, struct occs *o, enum what w,
    int user, int def, bool derive)
{
	struct lay_role	*lr = &l->role[r];
	int		 base = user;
	size_t		 first = role_first(l, r);

	if (derive == (user >= 0))
		return;
	if (!derive) {
		role_take(l, r, o, w, user, lr->port_step);
		return;
	}
	for (base = def; base < 65536; base++)
		if (role_fits(l, r, o, w, base, lr->port_step, first))
			break;
	if (base >= 65536)
		base = def;
	role_take(l, r, o, w, base, lr->port_step);
	if (w == W_HTTP)
		lr->port = base;
	else if (w == W_BOOT)
		lr->bootstrap_port = base;
	else
		lr->dist_port = base;
}

static bool
gpus_fit(const struct layout *l, enum role r, struct occs *o,
    int base, int step, bool in_host, size_t first)
{
	size_t	i;

	for (i = first; i < l->n; i++) {
		const struct lay_server	*s = &l->s[i];
		int			 lo = base + s->host_ord * step;

		if (s->role != r)
			continue;
		if (in_host && s->host_gpus >= 0 &&
		    lo + s->gpu_span > s->host_gpus)
			return false;
		if (!occ_free(o, s->host, lo, lo + s->gpu_span))
			return false;
	}
	return true;
}

static void
gpus_take(struct layout *l, enum role r, struct occs *o, int base, int step)
{
	size_t	i;

	for (i = 0; i < l->n; i++) {
		struct lay_server	*s = &l->s[i];

		if (s->role != r)
			continue;
		s->base_gpu = base + s->host_ord * step;
		occ_add(o, s->host, s->base_gpu, s->base_gpu + s->gpu_span);
	}
}

static void
place_gpus(struct layout *l, const struct role_spec *rs, enum role r,
    struct occs *o, bool derive)
{
	struct lay_role	*lr = &l->role[r];
	int		 base;
	size_t		 first = role_first(l, r);

	if (derive == (rs->base_gpu_id >= 0))
		return;
	if (!derive) {
		gpus_take(l, r, o, rs->base_gpu_id, lr->gpu_step);
		return;
	}
	/* Within the hosts' GPUs: past the host's count no base fits there
	 * (every server's first GPU would be past it), so the search stops. */
	for (base = 0; base < LAY_MAX_GPU && (l->gpus_per_host < 0 ||
	    base <= l->gpus_per_host); base++)
		if (gpus_fit(l, r, o, base, lr->gpu_step, true, first))
			break;
	if (base >= LAY_MAX_GPU || (l->gpus_per_host >= 0 &&
	    base > l->gpus_per_host))
		for (base = 0; base < LAY_MAX_GPU; base++)
			if (gpus_fit(l, r, o, base, lr->gpu_step, false,
			    first))
				break;
	if (base >= LAY_MAX_GPU)
		base = 0;
	lr->base_gpu = base;
	gpus_take(l, r, o, base, lr->gpu_step);
}

static enum lay_src
src(bool user)
{
	return user ? LAY_USER : LAY_DERIVED;
}

/* The servers of role r, with what the user set. */
static void
add_servers(const struct catalog *cat, const struct deployment *d,
    enum role r, struct layout *l)
{
	const struct role_spec	*rs = &d->role[r];
	struct lay_role		*lr = &l->role[r];
	int			 i, k, ngpus, span;
	int			 nn = rs->nodes_per_instance > 0 ?
	    rs->nodes_per_instance : 1;
	/* A single-node server with a rendezvous port of the user's: SGLang
	 * takes its ZMQ ports from there, not from --port. */
	bool			 own_dist = nn == 1 && rs->dist_init_port > 0;
	bool			 dp_zmq = nn == 1 && !own_dist &&
	    opt_bool(cat, d, r, "enable_dp_attention");

	if (!rs->enabled)
		return;
	layout_role_gpus(cat, d, r, &ngpus, &span);
	lr->ngpus = ngpus;
	lr->port = rs->port;
	lr->bootstrap_port = r == ROLE_PREFILL ? rs->bootstrap_port : -1;
	lr->dist_port = nn > 1 || own_dist ? rs->dist_init_port : -1;
	lr->base_gpu = rs->base_gpu_id;
	lr->port_src = src(rs->port >= 0);
	lr->bootstrap_src = src(rs->bootstrap_port >= 0);
	lr->dist_src = src(rs->dist_init_port >= 0);
	lr->gpu_src = src(rs->base_gpu_id >= 0);
	lr->hosts_src = src(rs->nhosts > 0);
	for (i = 0; i < rs->instances; i++)
		for (k = 0; k < nn; k++) {
			struct lay_server	*s;

			l->s = grow_pow2(l->s, l->n, sizeof *l->s);
			s = &l->s[l->n++];
			memset(s, 0, sizeof *s);
			s->role = r;
			s->instance = i;
			s->node_rank = k;
			s->host = role_host(rs, i, k);
			s->bind = rs->bind_host != NULL ? rs->bind_host :
			    s->host;
			s->ngpus = ngpus;
			s->gpu_span = span;
			s->host_gpus = l->gpus_per_host;
			s->base_gpu = -1;
			s->port = -1;
			s->bootstrap_port = -1;
			s->dist_host = nn > 1 || own_dist ? role_host(rs, i, 0) :
			    NULL;
			s->dist_port = -1;
			s->dp_zmq = dp_zmq;
			s->gpu_src = lr->gpu_src;
			s->port_src = lr->port_src;
			s->bootstrap_src = lr->bootstrap_src;
			s->dist_src = lr->dist_src;
		}
}

/*
 * Each server's place among the role's instances on its host (host_ord):
 * instance i's node on host h counts the role's earlier instances with a
 * node on h, so that the GPUs of a host start at base_gpu whichever
 * instances it runs (3 prefills on h1, h1, h2: 0, 1 and 0). One pass, the
 * servers being in instance order.
 */
static void
host_ords(struct layout *l, enum role r)
{
	struct occs	o;
	size_t		i;

	occs_init(&o);
	for (i = 0; i < l->n; i++) {
		struct lay_server	*s = &l->s[i];
		struct occ_machine	*m;

		if (s->role != r)
			continue;
		m = occ_machine(&o, s->host, true);
		if (m->n == 0 || m->v[m->n - 1].lo != s->instance)
			occ_list_add(m, s->instance, s->instance + 1);
		s->host_ord = (int)m->n - 1;
	}
	occs_free(&o);
}

/* Steps between instances: the user's, or 0 when no two instances share a
 * machine, else 1 port (10 for multi-node: rendezvous blocks) and one
 * instance's GPUs. */
static void
role_steps(struct layout *l, const struct role_spec *rs, enum role r)
{
	struct lay_role	*lr = &l->role[r];
	bool		 shared = role_shared(l, r);

	lr->step_src = src(rs->port_step != 0 || rs->port >= 0);
	if (lr->step_src == LAY_USER)
		lr->port_step = rs->port_step;
	else
		lr->port_step = !shared ? 0 : rs->nodes_per_instance > 1 ||
		    (l->n > 0 && role_dp_zmq(l, r)) ? LAY_DIST_SPAN + 2 : 1;
	lr->gpu_step_src = src(rs->gpu_step != 0 || rs->base_gpu_id >= 0);
	if (lr->gpu_step_src == LAY_USER)
		lr->gpu_step = rs->gpu_step;
	else {
		size_t	i;

		lr->gpu_step = 0;
		for (i = 0; shared && i < l->n; i++)
			if (l->s[i].role == r) {
				lr->gpu_step = l->s[i].gpu_span;
				break;
			}
	}
}

static void
router_lists(const struct deployment *d, struct layout *l)
{
	const struct role_spec	*rr = &d->role[ROLE_ROUTER];
	size_t			 i, k;

	l->urls_src = src(rr->nprefill_urls > 0 || rr->ndecode_urls > 0);
	if (l->urls_src == LAY_USER) {
		l->prefill = xcalloc(rr->nprefill_urls + 1, sizeof *l->prefill);
		for (k = 0; k < rr->nprefill_urls; k++) {
			l->prefill[k] = rr->prefill_urls[k];
			l->prefill[k].url = xstrdup(rr->prefill_urls[k].url);
		}
		l->nprefill = rr->nprefill_urls;
		l->decode = xcalloc(rr->ndecode_urls + 1, sizeof *l->decode);
		for (k = 0; k < rr->ndecode_urls; k++) {
			l->decode[k] = rr->decode_urls[k];
			l->decode[k].url = xstrdup(rr->decode_urls[k].url);
		}
		l->ndecode = rr->ndecode_urls;
		return;
	}
	l->prefill = xcalloc(l->n + 1, sizeof *l->prefill);
	l->decode = xcalloc(l->n + 1, sizeof *l->decode);
	for (i = 0; i < l->n; i++) {
		const struct lay_server	*s = &l->s[i];
		struct endpoint		*e;

		if (s->node_rank != 0)
			continue;
		e = s->role == ROLE_PREFILL ? &l->prefill[l->nprefill++] :
		    &l->decode[l->ndecode++];
		e->url = url_for(s->host, s->port);
		e->bootstrap_port = s->role == ROLE_PREFILL ?
		    s->bootstrap_port : -1;
		e->line = rr->line;
		e->col = 0;
	}
}

void
deployment_layout(const struct catalog *cat, const struct deployment *d,
    struct layout *l)
{
	const struct role_spec	*rr = &d->role[ROLE_ROUTER];
	struct occs		 ports, gpus;
	int			 r, pass;

	memset(l, 0, sizeof *l);
	occs_init(&ports);
	occs_init(&gpus);
	l->gpus_per_host = d->gpus_per_host > 0 ? d->gpus_per_host :
	    d->gpus_per_host < 0 ? -1 : LAY_GPUS_PER_HOST;
	l->gpus_src = src(d->gpus_per_host != 0);
	for (r = ROLE_PREFILL; r <= ROLE_DECODE; r++) {
		add_servers(cat, d, (enum role)r, l);
		host_ords(l, (enum role)r);
	}
	for (r = ROLE_PREFILL; r <= ROLE_DECODE; r++)
		if (d->role[r].enabled)
			role_steps(l, &d->role[r], (enum role)r);
	l->router_host = rr->nhosts > 0 ? rr->hosts[0] : l->n > 0 ?
	    l->s[0].host : "127.0.0.1";
	l->router_bind = rr->bind_host != NULL ? rr->bind_host :
	    l->router_host;
	l->router_host_src = src(rr->nhosts > 0);
	l->router_port = rr->port;
	l->router_port_src = src(rr->port >= 0);
	if (rr->enabled && rr->port >= 0)
		occ_add(&ports, l->router_host, rr->port, rr->port + 1);
	/* What the user set first, then the rest around it. */
	for (pass = 0; pass < 2; pass++)
		for (r = ROLE_PREFILL; r <= ROLE_DECODE; r++) {
			const struct role_spec	*rs = &d->role[r];

			if (!rs->enabled)
				continue;
			place_ports(l, (enum role)r, &ports, W_HTTP, rs->port,
			    LAY_HTTP_BASE, pass == 1);
			if (r == ROLE_PREFILL)
				place_ports(l, (enum role)r, &ports, W_BOOT,
				    rs->bootstrap_port, LAY_BOOTSTRAP_BASE,
				    pass == 1);
			if (rs->nodes_per_instance > 1 ||
			    rs->dist_init_port > 0)
				place_ports(l, (enum role)r, &ports, W_DIST,
				    rs->dist_init_port, LAY_DIST_BASE,
				    pass == 1);
			place_gpus(l, rs, (enum role)r, &gpus, pass == 1);
		}
	if (rr->enabled && rr->port < 0) {
		int	p;

		for (p = LAY_ROUTER_BASE; p < 65535; p++)
			if (occ_free(&ports, l->router_host, p, p + 1))
				break;
		l->router_port = p;
	}
	for (r = 0; (size_t)r < l->n; r++) {
		struct lay_server	*s = &l->s[r];
		const struct lay_server	*s0;

		if (s->node_rank > 0 && (s0 = layout_server(l, s->role,
		    s->instance, 0)) != NULL) {
			s->bootstrap_port = s0->bootstrap_port;
			s->dist_port = s0->dist_port;
		}
	}
	router_lists(d, l);
	occs_free(&ports);
	occs_free(&gpus);
}

void
layout_free(struct layout *l)
{
	size_t	i;

	for (i = 0; i < l->nprefill; i++)
		free(l->prefill[i].url);
	for (i = 0; i < l->ndecode; i++)
		free(l->decode[i].url);
	free(l->prefill);
	free(l->decode);
	free(l->s);
	memset(l, 0, sizeof *l);
}

/* ---- pin ---- */

/* Replace an empty host list with one host. */
static void
pin_host(char ***hosts, size_t *n, const char *h)
{
	free(*hosts);
	*hosts = xcalloc(2, sizeof **hosts);
	(*hosts)[0] = xstrdup(h);
	*n = 1;
}

static void
pin_endpoints(const struct endpoint *src, size_t n, struct endpoint **out,
    size_t *nout)
{
	size_t	k;

	endpoints_release(*out, *nout);
	*out = xcalloc(n + 1, sizeof **out);
	for (k = 0; k < n; k++) {
		(*out)[k] = src[k];
		(*out)[k].url = xstrdup(src[k].url);
	}
	*nout = n;
}

void
deployment_pin(const struct catalog *cat, struct deployment *d)
{
	struct layout	l;
	int		r;

	deployment_layout(cat, d, &l);
	if (d->gpus_per_host == 0)
		d->gpus_per_host = l.gpus_per_host;
	for (r = ROLE_PREFILL; r <= ROLE_DECODE; r++) {
		struct role_spec	*rs = &d->role[r];
		const struct lay_role	*lr = &l.role[r];

		if (!rs->enabled || rs->instances < 1)
			continue;
		if (rs->nhosts == 0)
			pin_host(&rs->hosts, &rs->nhosts, "127.0.0.1");
		if (rs->gpus_per_node == 0)
			rs->gpus_per_node = lr->ngpus;
		rs->port = lr->port;
		rs->port_step = lr->port_step;
		if (r == ROLE_PREFILL)
			rs->bootstrap_port = lr->bootstrap_port;
		if (rs->nodes_per_instance > 1)
			rs->dist_init_port = lr->dist_port;
		rs->base_gpu_id = lr->base_gpu;
		rs->gpu_step = lr->gpu_step;
	}
	if (d->role[ROLE_ROUTER].enabled) {
		struct role_spec	*rr = &d->role[ROLE_ROUTER];

		if (rr->nhosts == 0)
			pin_host(&rr->hosts, &rr->nhosts, l.router_host);
		rr->port = l.router_port;
		if (l.urls_src == LAY_DERIVED) {
			pin_endpoints(l.prefill, l.nprefill, &rr->prefill_urls,
			    &rr->nprefill_urls);
			pin_endpoints(l.decode, l.ndecode, &rr->decode_urls,
			    &rr->ndecode_urls);
		}
	}
	layout_free(&l);
}
