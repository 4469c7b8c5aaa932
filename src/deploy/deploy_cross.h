/*
 * deploy_cross.h - the cross-role checks' modules (not an API): the
 * deployment facts (rules/deploy/00-facts.yaml) computed from the plan,
 * the rules run over them, and the verification of their fixes.
 */
#ifndef PDWIZ_DEPLOY_CROSS_H
#define PDWIZ_DEPLOY_CROSS_H

#include "deploy/deploy.h"

struct facts {
	const struct catalog	*cat;
	struct config		*cfg;
	signed char		*role;	/* per option: role a fact is about */
};

/* Set a deployment fact: a str fact (NULL: nothing wrong) at a line, any
 * value, or the role whose process a str fact describes. */
void	fact_str(struct facts *, const char *name, const char *s, int line);
void	fact_val(struct facts *, const char *name, struct value v);
void	fact_role(struct facts *, const char *name, enum role r);

/* Host as a key for "same machine": loopback names are one machine. */
const char *host_key(const char *h);

/* The router's lists against the instances (deploy_cross_router.c). */
void	router_facts(struct facts *, const struct deployment *,
	    const struct plan *);
/* Ports, GPUs and rendezvous of what shares a machine
 * (deploy_cross_hosts.c). */
void	resource_facts(struct facts *, const struct deployment *,
	    const struct plan *);

/* The deployment facts and the deployment rules over d, unattributed. */
struct cross {
	struct config	dc;
	struct facts	f;
	struct result	res;
};

void	cross_eval(const struct catalog *, const struct deployment *,
	    const struct config *eff[NPD_ROLE], struct cross *);
void	cross_free(struct cross *);

/* Verify the fixes of every error and warning (deploy_cross_fix.c). */
void	verify_fixes(const struct catalog *, const struct deployment *,
	    const struct config *eff[NPD_ROLE], struct result *);

#endif
