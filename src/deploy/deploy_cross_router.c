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
	if (strcmp(a, b) == 0)
		return true;
	if (host_is_loopback(a) && host_is_loopback(b))
		return true;
	return host_is_wildcard(a) || host_is_wildcard(b);
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
void
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
	match_role(p, ROLE_PREFILL, pe, npe, multi, &rf);
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
