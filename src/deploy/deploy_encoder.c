/*
 * deploy_encoder.c - encoder disaggregation (EPD) across the commands of
 * one input: every --encoder-urls entry of a server against the ports the
 * input's --encoder-only servers listen on. The deployment model has no
 * encoder role, so this reads the commands' configurations themselves; the
 * rule is data (rules/deploy/30-encoder.yaml, deploy.encoder_url_*).
 */
#define _POSIX_C_SOURCE 200809L
#include "deploy/deploy.h"
#include "deploy/deploy_int.h"
#include "deploy/deploy_cross.h"
#include "core/util.h"

#include <stdlib.h>
#include <string.h>

static const char fact[] = ENCODER_FACT;

static int
opt_line(const struct config *c, const char *name)
{
	int	o = catalog_find(c->cat, name);

	return o >= 0 ? c->s[o].line : 0;
}

/* The ports of the input's encoders ("30002, 30003") into b; the line of
 * the first whose port is left to run time (0 if not known), or -1. */
static int
encoder_ports(const struct config *const *cfgs, size_t n, struct buf *b,
    size_t *nenc)
{
	int	unknown = -1;
	size_t	i;

	*nenc = 0;
	for (i = 0; i < n; i++) {
		if (!cfg_bool(cfgs[i], "encoder_only"))
			continue;
		(*nenc)++;
		if (cfg_unknown(cfgs[i], "port")) {
			if (unknown < 0)
				unknown = opt_line(cfgs[i], "port");
			continue;
		}
		buf_printf(b, "%s%lld", b->len > 0 ? ", " : "",
		    cfg_int(cfgs[i], "port", 30000));
	}
	return unknown;
}

static bool
port_listed(const struct config *const *cfgs, size_t n, int port)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (cfg_bool(cfgs[i], "encoder_only") &&
		    !cfg_unknown(cfgs[i], "port") &&
		    cfg_int(cfgs[i], "port", 30000) == port)
			return true;
	return false;
}

/* One server's --encoder-urls against the encoders. */
static void
server_urls(struct facts *f, const struct config *c,
    const struct config *const *cfgs, size_t n, const char *ports,
    size_t nenc)
{
	int		 o = catalog_find(c->cat, "encoder_urls");
	const char	*p, *e;

	if (o < 0 || c->s[o].v.t != V_LIST)
		return;
	for (p = c->s[o].v.u.s; *p != '\0'; p = *e != '\0' ? e + 1 : e) {
		char	*url, *host = NULL;
		int	 port = -1;

		e = strchr(p, '\x1f');
		if (e == NULL)
			e = p + strlen(p);
		url = xstrndup(p, (size_t)(e - p));
		if (url_split(url, &host, &port) == 0 && port > 0 &&
		    !port_listed(cfgs, n, port))
			fact_add(f, fact, -1, c->s[o].line, "%s names no "
			    "encoder this input launches (%s on port%s %s)",
			    url, nenc == 1 ? "its one encoder listens" :
			    "its encoders listen", strchr(ports, ',') != NULL ?
			    "s" : "", ports);
		free(host);
		free(url);
	}
}

void
encoder_facts(struct facts *f, const struct config *const *cfgs, size_t n)
{
	struct buf	 ports = { 0 };
	size_t		 i, nenc;
	int		 unknown, urls = -1;	/* line of a list left to run
						   time (0 if not known), or -1 */
	char		*why = NULL;
	bool		 any = false;

	for (i = 0; i < n; i++) {
		int	o = catalog_find(cfgs[i]->cat, "encoder_urls");

		if (o < 0)
			return;
		if (cfgs[i]->s[o].v.t == V_LIST && cfgs[i]->s[o].v.u.s[0] !=
		    '\0')
			any = true;
		if (cfg_unknown(cfgs[i], "encoder_urls") && urls < 0)
			urls = opt_line(cfgs[i], "encoder_urls");
	}
	if (!any && urls < 0)
		return;		/* no server names an encoder */
	unknown = encoder_ports(cfgs, n, &ports, &nenc);
	buf_add(&ports, "", 0);
	if (nenc == 0)
		why = xstrdup("this input launches no --encoder-only server "
		    "(the encoders are started elsewhere)");
	else if (unknown >= 0)
		why = xasprintf("the --port of an encoder (line %d) is a value "
		    "the script computes at run time", unknown);
	if (why == NULL)
		for (i = 0; i < n; i++)
			server_urls(f, cfgs[i], cfgs, n, ports.s, nenc);
	if (urls >= 0 && why == NULL)
		why = xasprintf("the --encoder-urls list (line %d) is a value "
		    "the script computes at run time", urls);
	if (why != NULL)
		fact_unknown(f, fact, why);
	free(why);
	buf_free(&ports);
}

bool
deployment_encoder_cmd(const struct config *c)
{
	int	u = catalog_find(c->cat, "encoder_urls");

	return cfg_bool(c, "encoder_only") || (u >= 0 &&
	    (c->s[u].v.t == V_LIST || c->s[u].v.t == V_UNKNOWN));
}
