/*
 * deploy_cross.h - the cross-role checks' modules (not an API): the
 * deployment facts (rules/deploy/00-facts.yaml) computed from the plan,
 * the rules run over them, and the verification of their fixes.
 */
#ifndef PDWIZ_DEPLOY_CROSS_H
#define PDWIZ_DEPLOY_CROSS_H

#include "deploy/deploy.h"

/*
 * The facts of one deployment. A scalar fact is set in cfg. A str fact that
 * says what is wrong is a list of findings (items, each with its line and
 * the role whose process it is about): every one becomes a diagnostic of
 * the rules reading it. A fact the input does not determine is unknown,
 * with the reason (why) given as "could not check: <why>"; findings win
 * over unknown (what is known wrong is reported).
 */
struct fitem {
	char		*text;
	int		 line;
	signed char	 role;		/* enum role, or -1 */
};

struct facts {
	const struct catalog	*cat;
	struct config		*cfg;
	struct fitem		**items;	/* per option */
	size_t			*nitems;
	char			**why;		/* per option: NULL, or why unknown */
	bool			*unknown;	/* per option */
	const struct config	*const *eff;	/* per PD role, or NULL: the
						   commands' configs, with the
						   values left to run time */
	const struct layout	*lay;		/* the deployment's (cross_eval;
						   NULL: none worked out) */
};

void	fact_val(struct facts *, const char *name, struct value v);
/* A finding of str fact name, about role r (-1: none) at line. */
void	fact_add(struct facts *, const char *name, int r, int line,
	    const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* The fact is unknown: why (NULL: the catalog's label and hint say). */
void	fact_unknown(struct facts *, const char *name, const char *why);

/* The first of names that role r's command leaves to run time ($VAR never
 * set, $((...)), $(POD_IP)), from the commands' configs; NULL: all known. */
const char *fact_role_unknown(const struct facts *, enum role r,
	    const char *const *names);
/* Is the machine role r's commands run on unknown: a wildcard bind with
 * no word of the machine, an address computed at run time, or a node rank
 * left to run time? */
bool	role_machine_unstated(const struct facts *, const struct deployment *,
	    enum role r);

/* Why the machine launch la runs on is not known (the words complete
 * "which machine it runs on is not known: ..."), or NULL. */
const char *launch_machine_why(const struct facts *,
	    const struct deployment *, const struct launch *la);

/* Host as a key for "same machine": loopback names are one machine. */
const char *host_key(const char *h);

/* The router's lists against the instances (deploy_cross_router.c). */
void	router_facts(struct facts *, const struct deployment *,
	    const struct plan *);
/* Ports, GPUs and rendezvous of what shares a machine
 * (deploy_cross_hosts.c). */
void	resource_facts(struct facts *, const struct deployment *,
	    const struct plan *);

/* The --encoder-urls of the input's servers against its --encoder-only
 * servers (deploy_encoder.c): cfgs are the n commands' configurations. The
 * fact it sets: */
#define ENCODER_FACT	"deploy.encoder_url_unlaunched"
void	encoder_facts(struct facts *, const struct config *const *cfgs,
	    size_t n);

/* The deployment facts and the deployment rules over d, unattributed. */
struct cross {
	struct config	dc;
	struct facts	f;
	struct result	res;
};

/* lay: d's layout worked out already, or NULL (worked out here). */
void	cross_eval(const struct catalog *, const struct deployment *,
	    const struct layout *lay, const struct config *eff[NPD_ROLE],
	    struct cross *);
void	cross_free(struct cross *);

/* Verify the fixes of every error and warning (deploy_cross_fix.c). */
void	verify_fixes(const struct catalog *, const struct deployment *,
	    const struct config *eff[NPD_ROLE], struct result *);

#endif
