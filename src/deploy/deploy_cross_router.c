#include <ctype.h>
/*
 * deploy_cross_router.c - the router's --prefill/--decode lists against the
 * prefill and decode instances: entries that match no instance, instances
 * no entry names, bootstrap ports, loopback URLs on several machines.
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
	size_t	la = strlen(a), lb = strlen(b);

	if (strcmp(a, b) == 0)
		return true;
	/* A DNS name and its longer form (pod.svc, pod.svc.ns.svc.cluster.local) */
	if (la != lb && !isdigit((unsigned char)a[0]) &&
	    !isdigit((unsigned char)b[0]) && strncmp(a, b, la < lb ? la : lb) == 0 &&
	    (la < lb ? b[la] : a[lb]) == '.')
		return true;
	if (host_is_loopback(a) && host_is_loopback(b))
		return true;
	return host_is_wildcard(a) || host_is_wildcard(b);
}

/* Is h the DNS name of a pod the deployment was imported from? */
static bool
is_pod_host(const struct deployment *d, const char *h)
{
	size_t	r, i;

	for (r = 0; r < NROLE; r++)
		for (i = 0; d->role[r].pod_hosts && i < d->role[r].nhosts; i++)
			if (same_host(d->role[r].hosts[i], h))
				return true;
	return false;
}

/* Host as a key for "same machine": loopback names are one machine. */
const char *
host_key(const char *h)
{
	return host_is_loopback(h) || host_is_wildcard(h) ? "127.0.0.1" : h;
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

/* Is h an IP address literal (IPv4 dotted quad, or IPv6)? */
static bool
host_is_addr(const char *h)
{
	int	dots = 0;

	if (strchr(h, ':') != NULL)
		return strspn(h, "0123456789abcdefABCDEF:.") == strlen(h);
	if (*h == '\0' || strspn(h, "0123456789.") != strlen(h))
		return false;
	for (; *h != '\0'; h++)
		dots += *h == '.';
	return dots == 3;
}

/* A host word the input leaves to run time ($VAR, $(POD_IP), <IP>). */
static bool
host_unresolved(const char *h)
{
	return *h == '\0' || strpbrk(h, "$`(){}<>") != NULL;
}

enum match { M_NO, M_YES, M_UNSURE };

/* Is the machine of launch la unknown (deploy_cross_hosts.c's rule)? */
static bool
launch_unstated(const struct facts *f, const struct deployment *d,
    const struct launch *la)
{
	return launch_machine_why(f, d, la) != NULL ||
	    host_unresolved(la->host);
}

static bool
launch_port_unknown(const struct facts *f, const struct deployment *d,
    const struct launch *la)
{
	static const char *const pn[] = { "port", NULL };

	return d->role[la->role].port_unstated ||
	    fact_role_unknown(f, la->role, pn) != NULL;
}

/*
 * Does router entry url name launch la? Unsure when a host or port is
 * left to run time, when the server's machine is not stated, or when a
 * DNS name stands against an address (pdwiz resolves no names); why then
 * says so (owned, first reason kept).
 */
static enum match
match_url(const struct facts *f, const struct deployment *d,
    const char *url, const struct launch *la, char **why)
{
	char		*h;
	int		 up, port = (int)cfg_int(&la->cfg, "port", 30000);
	const char	*bind;
	enum match	 m;

	if (url_split(url, &h, &up) != 0 && strpbrk(url, "$`") == NULL) {
		free(h);
		return M_NO;	/* no port 0-65535: it names no server */
	}
	if (h == NULL || host_unresolved(h) || strpbrk(url, "$`") != NULL) {
		if (*why == NULL)
			*why = xasprintf("the router's URL %s is a value the "
			    "script computes at run time", url);
		free(h);
		return M_UNSURE;
	}
	if (!launch_port_unknown(f, d, la) && up != port) {
		free(h);
		return M_NO;
	}
	bind = cfg_str(&la->cfg, "host");
	/* A loopback URL reaches a server bound to loopback or to every
	 * address from the server's own machine (a router elsewhere is
	 * xs-router-local-url's). */
	if ((host_is_loopback(h) || host_is_wildcard(h)) &&
	    (host_is_loopback(la->host) || host_is_wildcard(la->host) ||
	    (bind != NULL && (host_is_loopback(bind) ||
	    host_is_wildcard(bind)))))
		m = M_YES;
	else if (launch_unstated(f, d, la)) {
		m = M_UNSURE;
		if (*why == NULL)
			*why = xasprintf("pdwiz cannot tell whether the "
			    "router's %s is %s %d: %s", url,
			    role_name(la->role), la->instance,
			    launch_machine_why(f, d, la) != NULL ?
			    launch_machine_why(f, d, la) :
			    "it binds an address known only at run time");
	} else if (bind != NULL && host_is_loopback(bind) &&
	    !host_is_loopback(h))
		m = M_NO;	/* it listens on loopback only */
	else if (strcmp(h, la->host) == 0 || same_host(h, la->host))
		m = M_YES;
	else if ((host_is_addr(h) || host_is_loopback(h)) &&
	    (host_is_addr(la->host) || host_is_loopback(la->host)))
		m = M_NO;
	else if (is_pod_host(d, la->host) && is_pod_host(d, h))
		m = M_NO;	/* two pods of the manifest: two machines */
	else {
		m = M_UNSURE;
		if (*why == NULL)
			*why = xasprintf("the router names %s and %s %d is at "
			    "%s; pdwiz does not resolve DNS names, so it "
			    "cannot tell whether they are one machine", h,
			    role_name(la->role), la->instance, la->host);
	}
	if (m != M_NO && launch_port_unknown(f, d, la)) {
		m = M_UNSURE;
		if (*why == NULL)
			*why = xasprintf("the --port of %s %d is a value the "
			    "script computes at run time",
			    role_name(la->role), la->instance);
	}
	free(h);
	return m;
}

/* Why the router's findings could not be checked (first reason). */
struct rwhy {
	char	*lists;		/* missing / unknown entries */
	char	*boot;		/* bootstrap ports */
};

static void
why_set(char **w, char *s)
{
	if (*w == NULL)
		*w = s;
	else
		free(s);
}

/*
 * The bootstrap port the decode uses for entry e against the one prefill
 * launch la serves. A port after the router's --prefill URL is what the
 * router hands the decode with every request; without one the router
 * records none (router_args.py _parse_prefill_urls: None), sends
 * bootstrap_port null (pd_router.rs inject_bootstrap_into_value), and each
 * decode's scheduler uses its own --disaggregation-bootstrap-port
 * (scheduler.py: recv_req.bootstrap_port is None), so every decode
 * instance must serve the prefill's port then.
 */
static void
match_bootstrap(struct facts *f, const struct deployment *d,
    const struct plan *p, const struct launch *la, const struct endpoint *e,
    int rline, struct rwhy *rw)
{
	static const char *const bn[] = { "disaggregation_bootstrap_port",
	    NULL };
	int	want = (int)cfg_int(&la->cfg, "disaggregation_bootstrap_port",
	    8998);
	int	line = e->line > 0 ? e->line : rline;
	size_t	i;

	if (d->role[ROLE_PREFILL].port_unstated ||
	    fact_role_unknown(f, ROLE_PREFILL, bn) != NULL) {
		why_set(&rw->boot, xasprintf("the bootstrap port of prefill "
		    "%d is a value the script computes at run time",
		    la->instance));
		return;
	}
	if (e->bad_port != NULL)
		return;		/* the router does not start (router_bootstrap_invalid) */
	if (e->bootstrap_port < -1) {
		why_set(&rw->boot, xasprintf("the bootstrap port after the "
		    "router's --prefill %s is a value the script computes at "
		    "run time", e->url));
		return;
	}
	if (e->bootstrap_port >= 0) {
		if (want != e->bootstrap_port)
			fact_add(f, "deploy.router_bootstrap_mismatch",
			    ROLE_ROUTER, line, "the router gives bootstrap "
			    "port %d for %s, but that prefill serves its "
			    "bootstrap server on port %d", e->bootstrap_port,
			    e->url, want);
		return;
	}
	for (i = 0; i < p->n; i++) {
		const struct launch	*dl = &p->l[i];
		int			 got, o;

		if (dl->role != ROLE_DECODE || dl->node_rank != 0)
			continue;
		if (d->role[ROLE_DECODE].port_unstated ||
		    fact_role_unknown(f, ROLE_DECODE, bn) != NULL) {
			why_set(&rw->boot, xasprintf("the bootstrap port of "
			    "decode %d is a value the script computes at run "
			    "time", dl->instance));
			return;
		}
		got = (int)cfg_int(&dl->cfg, "disaggregation_bootstrap_port",
		    8998);
		o = catalog_find(dl->cfg.cat, "disaggregation_bootstrap_port");
		if (got != want) {
			fact_add(f, "deploy.router_bootstrap_mismatch",
			    ROLE_ROUTER, line, "the router gives no bootstrap "
			    "port for %s, so decode %d uses its own, %d%s, but "
			    "that prefill serves its bootstrap server on port "
			    "%d", e->url, dl->instance, got,
			    o >= 0 && config_is_set(&dl->cfg, o) ? "" :
			    " (the default)", want);
			return;
		}
	}
}

/* Does la listen on a loopback --host of a machine named otherwise? */
static bool
bound_only(const struct launch *la)
{
	const char	*bind = cfg_str(&la->cfg, "host");

	return bind != NULL && host_is_loopback(bind) &&
	    !host_is_loopback(la->host);
}

/*
 * One role's router list against its instances: every entry that matches
 * no instance, every instance no entry names, every bootstrap port that
 * differs. What cannot be told either way is unknown, with the reason.
 */
/*
 * Which router entries can match a server whose port is known: only
 * those of its port, and those left to run time (match_url: an entry of
 * another port is M_NO, one that names no port 0-65535 too). The entries
 * are split once and indexed by port, so that matching a role against
 * the router's list is not every entry times every server.
 */
struct ep_port {
	int	 port;
	size_t	 j;		/* the entry */
};

struct ep_index {
	struct ep_port	*by_port;	/* entries with a port, by port then
					   place in the list */
	size_t		 nby;
	size_t		*run;		/* entries left to run time, in order */
	size_t		 nrun;
};

static int
ep_cmp(const void *a, const void *b)
{
	const struct ep_port	*x = a, *y = b;

	if (x->port != y->port)
		return x->port < y->port ? -1 : 1;
	return x->j < y->j ? -1 : x->j > y->j;
}

static void
ep_index_build(struct ep_index *ix, const struct endpoint *e, size_t ne)
{
	size_t	j;

	ix->by_port = xcalloc(ne + 1, sizeof *ix->by_port);
	ix->run = xcalloc(ne + 1, sizeof *ix->run);
	ix->nby = ix->nrun = 0;
	for (j = 0; j < ne; j++) {
		char	*h;
		int	 up;
		bool	 dollar = strpbrk(e[j].url, "$`") != NULL;

		if (url_split(e[j].url, &h, &up) != 0 && !dollar)
			;		/* no port 0-65535: matches nothing */
		else if (h == NULL || host_unresolved(h) || dollar)
			ix->run[ix->nrun++] = j;
		else {
			ix->by_port[ix->nby].port = up;
			ix->by_port[ix->nby++].j = j;
		}
		free(h);
	}
	sort_items(ix->by_port, ix->nby, sizeof *ix->by_port, ep_cmp);
}

static void
ep_index_free(struct ep_index *ix)
{
	free(ix->by_port);
	free(ix->run);
}

/* The first entry of by_port whose port is port, or nby. */
static size_t
ep_first(const struct ep_index *ix, int port)
{
	size_t	lo = 0, hi = ix->nby;

	while (lo < hi) {
		size_t	mid = lo + (hi - lo) / 2;

		if (ix->by_port[mid].port < port)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/* What the router's entries matched of one server: the first entry (in
 * the list's order) it matches, ne for none, and whether any matched or
 * may have; cyes and cunsure say the same of each entry. (Was a matrix of
 * every server by every entry, read whole twice.) */
struct mrow {
	size_t	first_yes;
	bool	yes, unsure;
};

static void
match_note(struct mrow *row, bool *cyes, bool *cunsure, size_t k,
    enum match m)
{
	if (m == M_YES) {
		if (!row->yes || k < row->first_yes)
			row->first_yes = k;
		row->yes = true;
		*cyes = true;
	} else if (m == M_UNSURE) {
		row->unsure = true;
		*cunsure = true;
	}
}

/* Every server of role r against the router's entries e of that role.
 * An entry is matched against the servers of its port and those left to
 * run time only; each server's entries are tried in the list's order, so
 * the first entry it matches is the first in the list. */
static void
match_role(struct facts *f, const struct deployment *d, const struct plan *p,
    enum role r, const struct endpoint *e, size_t ne, struct rwhy *rw)
{
	struct mrow	*row = xcalloc(p->n + 1, sizeof *row);
	bool		*cyes = xcalloc(ne + 1, sizeof *cyes);
	bool		*cunsure = xcalloc(ne + 1, sizeof *cunsure);
	int		 rline = d->role[ROLE_ROUTER].line;
	size_t		 i, j;
	struct ep_index	 ix;

	ep_index_build(&ix, e, ne);
	for (i = 0; i < p->n; i++) {
		const struct launch	*la = &p->l[i];
		size_t			 a, b, k;
		int			 port;

		row[i].first_yes = ne;
		if (la->role != r || la->node_rank != 0)
			continue;
		if (launch_port_unknown(f, d, la)) {
			for (j = 0; j < ne; j++)
				match_note(&row[i], &cyes[j], &cunsure[j], j,
				    match_url(f, d, e[j].url, la,
				    &rw->lists));
			continue;
		}
		/* The run-time entries and those of the server's port, in
		 * the list's order (the first reason found is the one said). */
		port = (int)cfg_int(&la->cfg, "port", 30000);
		a = 0;
		b = ep_first(&ix, port);
		for (;;) {
			bool	 ina = a < ix.nrun, inb = b < ix.nby &&
			    ix.by_port[b].port == port;

			if (!ina && !inb)
				break;
			if (ina && (!inb || ix.run[a] < ix.by_port[b].j))
				k = ix.run[a++];
			else
				k = ix.by_port[b++].j;
			match_note(&row[i], &cyes[k], &cunsure[k], k,
			    match_url(f, d, e[k].url, la, &rw->lists));
		}
	}
	ep_index_free(&ix);
	for (i = 0; i < p->n; i++) {
		const struct launch	*la = &p->l[i];

		if (la->role != r || la->node_rank != 0)
			continue;
		if (row[i].yes && r == ROLE_PREFILL)
			match_bootstrap(f, d, p, la, &e[row[i].first_yes],
			    rline, rw);
		if (!row[i].yes && !row[i].unsure)
			fact_add(f, "deploy.router_missing", ROLE_ROUTER,
			    rline, "%s instance %d (%s:%lld%s%s%s) is not listed "
			    "by the router", role_name(r), la->instance,
			    la->host, cfg_int(&la->cfg, "port", 30000),
			    bound_only(la) ? ", listening on " : "",
			    bound_only(la) ? cfg_str(&la->cfg, "host") : "",
			    bound_only(la) ? " only" : "");
	}
	for (j = 0; j < ne; j++)
		if (!cyes[j] && !cunsure[j])
			fact_add(f, "deploy.router_unknown", ROLE_ROUTER,
			    e[j].line > 0 ? e[j].line : rline, "the router's "
			    "--%s %s matches no %s instance", role_name(r),
			    e[j].url, role_name(r));
	free(row);
	free(cyes);
	free(cunsure);
}

/* Router URLs on loopback or wildcard addresses while the deployment
 * spans several machines. */
static void
local_urls(struct facts *f, const struct deployment *d, enum role r,
    const struct endpoint *e, size_t ne)
{
	size_t	j;

	for (j = 0; j < ne; j++) {
		char	*h;
		int	 up;

		if (url_split(e[j].url, &h, &up) == 0 &&
		    (host_is_loopback(h) || host_is_wildcard(h)))
			fact_add(f, "deploy.router_local_url", ROLE_ROUTER,
			    e[j].line > 0 ? e[j].line : d->role[ROLE_ROUTER].line,
			    "--%s %s", role_name(r), e[j].url);
		free(h);
	}
}

/* Does the router find its workers at run time (service discovery, or no
 * --prefill/--decode list on its command line)? */
static bool
router_discovers(const struct role_spec *rr)
{
	size_t	i;

	if (rr->workers_discovered)
		return true;
	for (i = 0; i < rr->nextra_args; i++)
		if (strcmp(rr->extra_args[i], "--service-discovery") == 0 ||
		    strncmp(rr->extra_args[i], "--service-discovery=", 20) == 0)
			return true;
	return false;
}

/* Two machines known to differ: stated, resolved, not loopback, not the
 * same; or two ranks of one multi-node instance. */
static bool
spans_machines(const struct facts *f, const struct deployment *d,
    const struct plan *p)
{
	const char	*first = NULL;
	size_t		 i;

	for (i = 0; i < p->n; i++) {
		const struct launch	*la = &p->l[i];

		if (la->node_rank > 0)
			return true;
		if (launch_unstated(f, d, la) || host_is_loopback(la->host) ||
		    host_is_wildcard(la->host))
			continue;
		if (first == NULL)
			first = la->host;
		else if (strcmp(first, la->host) != 0)
			return true;
	}
	return false;
}

void
router_facts(struct facts *f, const struct deployment *d,
    const struct plan *p)
{
	static const char *const facts[] = { "deploy.router_bootstrap_mismatch",
	    "deploy.router_missing", "deploy.router_unknown",
	    "deploy.router_local_url", NULL };
	const struct role_spec	*rr = &d->role[ROLE_ROUTER];
	struct endpoint		*pe, *de;
	size_t			 npe, nde, i;
	struct rwhy		 rw = { NULL, NULL };
	bool			 multi = spans_machines(f, d, p);

	fact_val(f, "deploy.multi_host", val_bool(multi));
	fact_val(f, "deploy.router", val_bool(rr->enabled));
	if (!rr->enabled)
		return;
	router_opt_facts(f, rr);
	if (router_discovers(rr)) {
		for (i = 0; facts[i] != NULL; i++)
			fact_unknown(f, facts[i], "the router finds its "
			    "workers by service discovery (no static "
			    "--prefill/--decode list to check)");
		return;
	}
	if (f->lay != NULL)
		router_endpoints_in(f->lay, &pe, &npe, &de, &nde);
	else
		router_endpoints(f->cat, d, &pe, &npe, &de, &nde);
	/* RouterArgs._parse_prefill_urls raises on the first word after a
	 * URL that is neither a number nor 'none'. */
	for (i = 0; i < npe; i++)
		if (pe[i].bad_port != NULL) {
			fact_add(f, "deploy.router_bootstrap_invalid",
			    ROLE_ROUTER, pe[i].line > 0 ? pe[i].line :
			    rr->line, "%s", pe[i].bad_port);
			break;
		}
	/* A role the deployment leaves out (missing.ROLE): its URLs name
	 * servers pdwiz does not know, not servers that are not there. */
	if (d->role[ROLE_PREFILL].enabled)
		match_role(f, d, p, ROLE_PREFILL, pe, npe, &rw);
	if (d->role[ROLE_DECODE].enabled)
		match_role(f, d, p, ROLE_DECODE, de, nde, &rw);
	if (multi) {
		local_urls(f, d, ROLE_PREFILL, pe, npe);
		local_urls(f, d, ROLE_DECODE, de, nde);
	}
	if (rw.lists != NULL) {
		fact_unknown(f, "deploy.router_missing", rw.lists);
		fact_unknown(f, "deploy.router_unknown", rw.lists);
	}
	if (rw.boot != NULL)
		fact_unknown(f, "deploy.router_bootstrap_mismatch", rw.boot);
	free(rw.lists);
	free(rw.boot);
	endpoints_release(pe, npe);
	endpoints_release(de, nde);
}
