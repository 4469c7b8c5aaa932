/*
 * vm_layout.c - the deployment's layout in the wizard: the derived value of
 * every layout cell the user left unset (shown as "(derived)"), pin, and the
 * placement picture of the topology and review pages.
 *
 * The layout itself is the model's (deploy/layout.h); it is recomputed on
 * every refresh, before the rows are built, and points into vm->dep.
 */
#include "tui/vm_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

void
vmi_layout_clear(struct vm *vm)
{
	if (vm->have_lay)
		layout_free(&vm->lay);
	vm->have_lay = false;
}

void
vmi_refresh_layout(struct vm *vm)
{
	vmi_layout_clear(vm);
	if (!vmi_is_pd(vm))
		return;
	deployment_layout(vm->cat, &vm->dep, &vm->lay);
	vm->have_lay = true;
}

/* The distinct hosts of role r's servers, comma-separated (malloc'd). */
static char *
role_hosts(const struct layout *l, enum role r)
{
	struct buf	b = { 0 };
	size_t		i, j;

	for (i = 0; i < l->n; i++) {
		if (l->s[i].role != r)
			continue;
		for (j = 0; j < i; j++)
			if (l->s[j].role == r &&
			    strcmp(l->s[j].host, l->s[i].host) == 0)
				break;
		if (j < i)
			continue;
		buf_printf(&b, "%s%s", b.len ? "," : "", l->s[i].host);
	}
	return b.s;
}

char *
vmi_derived(const struct vm *vm, enum vm_scope s, int key)
{
	const struct layout	*l = &vm->lay;
	enum role		 r = vmi_scope_role(s);

	if (!vm->have_lay || !VM_IS_DKEY(key))
		return NULL;
	if (VM_DF(key) == DF_GPUS_PER_HOST)
		return l->gpus_per_host > 0 ?
		    xasprintf("%d", l->gpus_per_host) : NULL;
	if (VM_DF(key) == DF_ROUTER_URLS)
		return vmi_urls_text(l->prefill, l->nprefill, l->decode,
		    l->ndecode);
	if (r == ROLE_ROUTER) {
		switch (VM_DF(key)) {
		case DF_PORT:
			return xasprintf("%d", l->router_port);
		case DF_HOSTS:
			return xstrdup(l->router_host);
		case DF_BIND:
			return xstrdup(l->router_bind);
		default:
			return NULL;
		}
	}
	if (r != ROLE_PREFILL && r != ROLE_DECODE)
		return NULL;
	if (!vm->dep.role[r].enabled || vm->dep.role[r].instances < 1)
		return NULL;
	switch (VM_DF(key)) {
	case DF_PORT:
		return xasprintf("%d", l->role[r].port);
	case DF_BASE_GPU:
		return xasprintf("%d", l->role[r].base_gpu);
	case DF_BOOTSTRAP:
		return r == ROLE_PREFILL ?
		    xasprintf("%d", l->role[r].bootstrap_port) : NULL;
	case DF_DIST_PORT:
		return vm->dep.role[r].nodes_per_instance > 1 ?
		    xasprintf("%d", l->role[r].dist_port) : NULL;
	case DF_HOSTS:
		return role_hosts(l, r);
	case DF_BIND:
		return xstrdup("each node's host");
	default:
		return NULL;
	}
}

int
vm_pin(struct vm *vm, struct buf *msg)
{
	struct vm_txn	t = { 0 };

	if (!vmi_is_pd(vm)) {
		vmi_msg(msg, "pin: only a PD deployment has a layout to pin");
		return -1;
	}
	t.what = xstrdup("pin the layout");
	vmi_txn_snapshot(vm, &t, deployment_pin);
	if (t.n == 0) {
		vmi_txn_commit(vm, &t);
		vmi_msg(msg, "nothing to pin: every layout value is set");
		return 0;
	}
	vmi_txn_commit(vm, &t);
	vmi_msg(msg, "pinned: every derived GPU, port and host is now set "
	    "(u undoes)");
	return 0;
}

/* ---- the placement picture ---- */

struct pic {
	struct buf	 b;
	int		 width;
	bool		 utf8;
};

/* Add one line, wrapped at the width with a hanging indent. */
static void
pic_line(struct pic *p, const char *text)
{
	const char	*s = text;
	int		 room = p->width, indent = 0;

	while (*s == ' ')
		s++, indent++;
	indent += 4;
	s = text;
	for (;;) {
		int	len = 0, cols = 0, cut = -1, i;

		for (i = 0; s[i] != '\0'; i++) {
			if (((unsigned char)s[i] & 0xc0) != 0x80) {
				if (cols == room)
					break;
				cols++;
			}
			if (s[i] == ' ')
				cut = i;
		}
		len = i;
		if (s[len] != '\0' && cut > 0)
			len = cut;
		buf_add(&p->b, s, (size_t)len);
		buf_putc(&p->b, '\n');
		s += len;
		while (*s == ' ')
			s++;
		if (*s == '\0')
			break;
		buf_printf(&p->b, "%*s", indent, "");
		room = p->width - indent;
		if (room < 10)
			room = 10;
	}
}

static bool
local_host(const char *h)
{
	return strncmp(h, "127.", 4) == 0 || strcmp(h, "localhost") == 0 ||
	    strcmp(h, "::1") == 0 || strcmp(h, "0.0.0.0") == 0 ||
	    strcmp(h, "::") == 0;
}

static bool
same_machine(const char *a, const char *b)
{
	if (local_host(a) || local_host(b))
		return local_host(a) && local_host(b);
	return strcmp(a, b) == 0;
}

/* The GPUs a server uses: base + k * step, k < ngpus. */
static int
srv_step(const struct lay_server *s)
{
	return s->ngpus > 1 ? (s->gpu_span - 1) / (s->ngpus - 1) : 1;
}

static bool
srv_has_gpu(const struct lay_server *s, int g)
{
	int	st = srv_step(s);

	if (s->base_gpu < 0 || g < s->base_gpu || st < 1)
		return false;
	return (g - s->base_gpu) % st == 0 &&
	    (g - s->base_gpu) / st < s->ngpus;
}

static void
srv_label(const struct lay_server *s, char out[4])
{
	out[0] = s->role == ROLE_PREFILL ? 'P' : 'D';
	out[1] = s->instance < 10 ? (char)('0' + s->instance) :
	    s->instance < 36 ? (char)('a' + s->instance - 10) : '+';
	out[2] = '\0';
}

static void
srv_name(const struct vm *vm, const struct lay_server *s, struct buf *b)
{
	buf_printf(b, "%s %d", role_name(s->role), s->instance);
	if (vm->dep.role[s->role].nodes_per_instance > 1)
		buf_printf(b, " rank %d", s->node_rank);
}

static void
gpu_range(const struct lay_server *s, struct buf *b)
{
	int	st = srv_step(s), k;

	if (s->ngpus == 1) {
		buf_printf(b, "GPU %d", s->base_gpu);
		return;
	}
	if (st == 1) {
		buf_printf(b, "GPUs %d-%d", s->base_gpu,
		    s->base_gpu + s->ngpus - 1);
		return;
	}
	buf_puts(b, "GPUs ");
	for (k = 0; k < s->ngpus; k++)
		buf_printf(b, "%s%d", k ? "," : "", s->base_gpu + k * st);
}

/* How many servers on a machine use a GPU; the first two. */
struct gpu_own {
	size_t	n, first, second;
};

/* The owners of each GPU 0..top-1 of the machine of host, the servers
 * taken in order (each GPU's answer at once, not a pass over every
 * server for each GPU). Owned. */
static struct gpu_own *
host_owners(const struct layout *l, const char *host, int top)
{
	struct gpu_own	*o = xcalloc(top > 0 ? (size_t)top : 1, sizeof *o);
	size_t		 i;

	for (i = 0; i < l->n; i++) {
		const struct lay_server	*s = &l->s[i];
		int			 st = srv_step(s), k, g;

		if (!same_machine(s->host, host) || s->base_gpu < 0 || st < 1)
			continue;
		/* srv_has_gpu's GPUs: base + k * step, k < ngpus. */
		for (k = 0; k < s->ngpus; k++) {
			g = s->base_gpu + k * st;
			if (g >= top || g < 0)
				break;
			if (o[g].n == 0)
				o[g].first = i;
			else if (o[g].n == 1)
				o[g].second = i;
			o[g].n++;
		}
	}
	return o;
}

/* GPUs in use on a host (one past the last) and its GPU count (-1). */
static void
host_extent(const struct vm *vm, const char *host, int *top, int *hg)
{
	const struct layout	*l = &vm->lay;
	size_t			 i;

	*top = 0;
	*hg = -1;
	for (i = 0; i < l->n; i++) {
		const struct lay_server	*s = &l->s[i];
		int			 last;

		if (!same_machine(s->host, host))
			continue;
		if (*hg < 0)
			*hg = s->host_gpus;
		last = s->base_gpu + (s->ngpus - 1) * srv_step(s);
		if (last + 1 > *top)
			*top = last + 1;
	}
	if (*hg > *top)
		*top = *hg;
}

/* GPU numbers from..to-1 after a label hw wide. */
static void
strip_nums(const struct pic *p, struct buf *b, const char *label, int hw,
    int from, int to, int hg)
{
	int	g;

	buf_printf(b, "%-*.*s", hw, hw, label);
	for (g = from; g < to; g++) {
		if (g == hg && hg > 0)
			buf_puts(b, p->utf8 ? "│" : "|");
		buf_printf(b, "%3d", g);
	}
}

/* Who owns each GPU from..to-1 of a host (blank past its last, top). */
static void
strip_cells(const struct pic *p, struct buf *b, const struct vm *vm,
    const char *host, const char *label, int hw, int from, int to, int top,
    int hg)
{
	const struct layout	*l = &vm->lay;
	int			 g;
	struct gpu_own		*own = host_owners(l, host, top);

	buf_printf(b, "%-*.*s", hw, hw, label);
	for (g = from; g < to; g++) {
		size_t	a, n;
		char	lab[4];

		if (g == hg && hg > 0)
			buf_puts(b, p->utf8 ? "│" : "|");
		if (g >= top) {
			buf_puts(b, "   ");
			continue;
		}
		n = g >= 0 ? own[g].n : 0;
		a = n > 0 ? own[g].first : 0;
		if (n == 0) {
			buf_printf(b, "  %s", p->utf8 ? "·" : ".");
			continue;
		}
		srv_label(&l->s[a], lab);
		buf_printf(b, "%s%s", n > 1 ? (p->utf8 ? "✗" : "X") :
		    hg > 0 && g >= hg ? "!" : " ", lab);
	}
	free(own);
}

/*
 * The strips: one line of GPU numbers over one line per host when every
 * host fits the width; else numbers and owners per host, in chunks.
 */
static void
strips(struct pic *p, const struct vm *vm, const char **hosts, size_t nh,
    int hw)
{
	int	top = 0, hg = -1, per, from, t, h;
	size_t	i;

	for (i = 0; i < nh; i++) {
		host_extent(vm, hosts[i], &t, &h);
		if (t > top)
			top = t;
		if (h > hg)
			hg = h;
	}
	per = (p->width - hw - 1) / 3;
	if (per < 4)
		per = 4;
	if (top <= per) {
		struct buf	b = { 0 };

		strip_nums(p, &b, "", hw, 0, top, hg);
		pic_line(p, b.s);
		buf_free(&b);
		for (i = 0; i < nh; i++) {
			host_extent(vm, hosts[i], &t, &h);
			strip_cells(p, &b, vm, hosts[i], hosts[i], hw, 0, top,
			    t, h);
			pic_line(p, b.s);
			buf_free(&b);
		}
		return;
	}
	for (i = 0; i < nh; i++) {
		host_extent(vm, hosts[i], &t, &h);
		for (from = 0; from < t; from += per) {
			struct buf	nums = { 0 }, own = { 0 };
			int		 to = from + per < t ? from + per : t;

			strip_nums(p, &nums, from == 0 ? hosts[i] : "", hw,
			    from, to, h);
			strip_cells(p, &own, vm, hosts[i], "", hw, from, to,
			    t, h);
			pic_line(p, nums.s);
			pic_line(p, own.s);
			buf_free(&nums);
			buf_free(&own);
		}
	}
}

/* A port bound on a host, and by whom. */
struct port_use {
	const char	*host;
	int		 port;
	size_t		 srv;		/* server index, or l->n: the router */
	const char	*what;
};

static void
port_add(struct port_use **u, size_t *n, const char *host, int port,
    size_t srv, const char *what)
{
	if (port < 0)
		return;
	*u = xreallocarray(*u, *n + 1, sizeof **u);
	(*u)[*n].host = host;
	(*u)[*n].port = port;
	(*u)[*n].srv = srv;
	(*u)[*n].what = what;
	(*n)++;
}

static void
use_name(const struct vm *vm, const struct port_use *u, struct buf *b)
{
	if (u->srv == vm->lay.n)
		buf_puts(b, "the router");
	else
		srv_name(vm, &vm->lay.s[u->srv], b);
	buf_printf(b, " (%s)", u->what);
}

/* Two uses of one port on one machine, i < j. */
struct upair {
	size_t	i, j;
};

static int
upair_cmp(const void *a, const void *b)
{
	const struct upair	*x = a, *y = b;

	if (x->i != y->i)
		return x->i < y->i ? -1 : 1;
	return x->j < y->j ? -1 : x->j > y->j;
}

/* A use's port and index: sorted by port, then in the uses' order. */
struct port_ix {
	int	port;
	size_t	i;
};

static int
port_cmp(const void *a, const void *b)
{
	const struct port_ix	*x = a, *y = b;

	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->i < y->i ? -1 : x->i > y->i;
}

/* "! port 30000 on host: a and b" for every port two of them bind. */
static void
port_problems(struct pic *p, const struct vm *vm)
{
	const struct layout	*l = &vm->lay;
	struct port_use		*u = NULL;
	size_t			 n = 0, i, j;

	for (i = 0; i < l->n; i++) {
		const struct lay_server	*s = &l->s[i];

		port_add(&u, &n, s->host, s->port, i, "HTTP");
		if (s->node_rank == 0) {
			port_add(&u, &n, s->host, s->bootstrap_port, i,
			    "bootstrap");
			port_add(&u, &n, s->host, s->dist_port, i,
			    "rendezvous");
		}
	}
	if (vm->dep.role[ROLE_ROUTER].enabled)
		port_add(&u, &n, l->router_host, l->router_port, l->n,
		    "router");
	/* The pairs on one port on one machine, in the uses' order: the
	 * uses of each port are compared with each other, not every use
	 * with every other. */
	{
		struct port_ix	*ord = xcalloc(n + 1, sizeof *ord);
		struct upair	*pr = NULL;
		size_t		 npr = 0, a, e, k;

		for (i = 0; i < n; i++) {
			ord[i].port = u[i].port;
			ord[i].i = i;
		}
		if (n > 0)
			qsort(ord, n, sizeof *ord, port_cmp);
		for (a = 0; a < n; a = e) {
			for (e = a + 1; e < n && ord[e].port == ord[a].port;
			    e++)
				;
			for (k = a; k < e; k++)
				for (j = k + 1; j < e; j++) {
					if (!same_machine(u[ord[k].i].host,
					    u[ord[j].i].host))
						continue;
					pr = grow_pow2(pr, npr, sizeof *pr);
					pr[npr].i = ord[k].i;
					pr[npr].j = ord[j].i;
					npr++;
				}
		}
		free(ord);
		if (npr > 0)
			qsort(pr, npr, sizeof *pr, upair_cmp);
		for (k = 0; k < npr; k++) {
			struct buf	b = { 0 };

			i = pr[k].i;
			j = pr[k].j;
			buf_printf(&b, "  ! port %d on %s: ", u[i].port,
			    u[i].host);
			use_name(vm, &u[i], &b);
			buf_puts(&b, " and ");
			use_name(vm, &u[j], &b);
			pic_line(p, b.s);
			buf_free(&b);
		}
		free(pr);
	}
	free(u);
}

/* GPU collisions and GPUs past the host's count, one line each. */
static void
gpu_problems(struct pic *p, const struct vm *vm)
{
	const struct layout	*l = &vm->lay;
	const char		*coll = p->utf8 ? "✗" : "X";
	size_t			 i, j;

	for (i = 0; i < l->n; i++) {
		const struct lay_server	*a = &l->s[i];
		int			 last = a->base_gpu + (a->ngpus - 1) *
		    srv_step(a);

		for (j = i + 1; j < l->n; j++) {
			const struct lay_server	*b = &l->s[j];
			struct buf		 t = { 0 };
			int			 g, lo = -1, hi = -1;

			if (!same_machine(a->host, b->host))
				continue;
			for (g = a->base_gpu; g <= last; g++)
				if (srv_has_gpu(a, g) && srv_has_gpu(b, g)) {
					if (lo < 0)
						lo = g;
					hi = g;
				}
			if (lo < 0)
				continue;
			buf_printf(&t, "  %s GPU%s %d", coll, lo == hi ? "" :
			    "s", lo);
			if (hi != lo)
				buf_printf(&t, "-%d", hi);
			buf_printf(&t, " on %s: ", a->host);
			srv_name(vm, a, &t);
			buf_puts(&t, " and ");
			srv_name(vm, b, &t);
			buf_puts(&t, " collide");
			pic_line(p, t.s);
			buf_free(&t);
		}
		if (a->host_gpus > 0 && last >= a->host_gpus) {
			struct buf	t = { 0 };

			buf_puts(&t, "  ! ");
			srv_name(vm, a, &t);
			buf_printf(&t, " on %s: ", a->host);
			gpu_range(a, &t);
			buf_printf(&t, ", past the host's %d GPUs",
			    a->host_gpus);
			pic_line(p, t.s);
			buf_free(&t);
		}
	}
}

/*
 * How many servers from i on are the node ranks 0.. of one instance with
 * the same GPUs and ports (1 when i is not rank 0 or they differ).
 */
static size_t
ranks_alike(const struct layout *l, size_t i)
{
	const struct lay_server	*s = &l->s[i];
	size_t			 n = 1;

	if (s->node_rank != 0)
		return 1;
	while (i + n < l->n) {
		const struct lay_server	*o = &l->s[i + n];

		if (o->role != s->role || o->instance != s->instance ||
		    o->node_rank != (int)n)
			break;
		if (o->base_gpu != s->base_gpu || o->ngpus != s->ngpus ||
		    o->gpu_span != s->gpu_span || o->port != s->port)
			return 1;
		n++;
	}
	return n;
}

static char *placement(struct vm *, bool utf8, int width);

/* The picture of the layout of the last refresh: drawn again only when
 * that layout (its generation), the characters or the width changed. */
char *
vm_placement(struct vm *vm, bool utf8, int width)
{
	if (vm->pic_gen == 0 || vm->pic_gen != vm->built_gen ||
	    vm->pic_utf8 != utf8 || vm->pic_width != width) {
		free(vm->pic);
		vm->pic = placement(vm, utf8, width);
		vm->pic_gen = vm->built_gen;
		vm->pic_utf8 = utf8;
		vm->pic_width = width;
	}
	return vm->pic != NULL ? xstrdup(vm->pic) : NULL;
}

static char *
placement(struct vm *vm, bool utf8, int width)
{
	const struct layout	*l = &vm->lay;
	struct pic		 p = { { 0 }, 0, false };
	const char		**hosts = NULL;
	size_t			 nh = 0, i, j;
	int			 hw = 4;
	struct buf		 t = { 0 };

	if (!vm->have_lay || l->n == 0)
		return NULL;
	p.width = width < 40 ? 40 : width;
	p.utf8 = utf8;
	for (i = 0; i < l->n; i++) {
		for (j = 0; j < nh; j++)
			if (same_machine(hosts[j], l->s[i].host))
				break;
		if (j < nh)
			continue;
		hosts = xreallocarray(hosts, nh + 1, sizeof *hosts);
		hosts[nh++] = l->s[i].host;
		if ((int)strlen(l->s[i].host) + 1 > hw)
			hw = (int)strlen(l->s[i].host) + 1;
	}
	if (hw > 16)
		hw = 16;
	if (l->gpus_per_host > 0)
		buf_printf(&t, "Placement: %zu host%s of %d GPUs%s", nh,
		    nh == 1 ? "" : "s", l->gpus_per_host,
		    l->gpus_src == LAY_DERIVED ? " (derived)" : "");
	else
		buf_printf(&t, "Placement: %zu host%s", nh, nh == 1 ? "" : "s");
	pic_line(&p, t.s);
	buf_free(&t);
	strips(&p, vm, hosts, nh, hw);
	/* Problems first: when the picture is cut, they stay. */
	gpu_problems(&p, vm);
	port_problems(&p, vm);
	for (i = 0; i < l->n; i++) {
		const struct lay_server	*s = &l->s[i];
		char			 lab[4];
		size_t			 k, nr = ranks_alike(l, i);

		srv_label(s, lab);
		buf_printf(&t, "  %s ", lab);
		if (nr > 1) {
			/* The nodes of one instance, alike: one line. */
			buf_printf(&t, "%s %d, %zu nodes: ", role_name(s->role),
			    s->instance, nr);
			for (k = 0; k < nr; k++)
				buf_printf(&t, "%s%s", k ? "," : "",
				    l->s[i + k].host);
			buf_putc(&t, ' ');
		} else {
			srv_name(vm, s, &t);
			buf_printf(&t, ": %s ", s->host);
		}
		gpu_range(s, &t);
		if (nr > 1)
			buf_puts(&t, " each");
		buf_printf(&t, ", port %d", s->port);
		if (s->bootstrap_port >= 0)
			buf_printf(&t, ", bootstrap %d", s->bootstrap_port);
		if (s->dist_host != NULL && s->dist_port >= 0)
			buf_printf(&t, ", rendezvous %s:%d", s->dist_host,
			    s->dist_port);
		pic_line(&p, t.s);
		buf_free(&t);
		if (nr > 1)
			i += nr - 1;
	}
	if (vm->dep.role[ROLE_ROUTER].enabled) {
		buf_printf(&t, "  router: %s:%d", l->router_host,
		    l->router_port);
		if (strcmp(l->router_bind, l->router_host) != 0)
			buf_printf(&t, " (binds %s)", l->router_bind);
		pic_line(&p, t.s);
		buf_free(&t);
	}
	free(hosts);
	return buf_steal(&p.b);
}
