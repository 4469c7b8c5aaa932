/*
 * role.h - the roles of a PD deployment, and how the rule engine numbers
 * what a rule reads.
 *
 * A name in a rule resolves to a slot: which config to read (the scope) and
 * which catalog option in it. Scope 0 is the config the rule runs on: the
 * server's for per-server rules, the deployment facts (deploy.*) for
 * deployment rules. Deployment rules also read the roles' effective configs
 * ("prefill.tp_size"): role r is scope r + 1. Fix targets of deployment
 * rules are slots too. Make and take slots apart with these functions only.
 */
#ifndef PDWIZ_ROLE_H
#define PDWIZ_ROLE_H

#include <stdbool.h>
#include <stddef.h>

/* ROLE_SINGLE is a server outside PD (the wizard's single-server mode): no
 * scope, no place in a deployment file. */
enum role { ROLE_PREFILL = 0, ROLE_DECODE, ROLE_ROUTER, ROLE_SINGLE, NROLE };

#define NPD_ROLE	3		/* prefill, decode, router */
#define SCOPE_SELF	0		/* the config the rule runs on */
#define NSLOT_SCOPE	(1 + NPD_ROLE)	/* configs of a deployment run */

/* The PD role a name (--disaggregation-mode's value, a form's or a
 * recipe's role key) names: ROLE_PREFILL, ROLE_DECODE, ROLE_ROUTER, or
 * -1 for anything else (NULL included). The one place role names are
 * read. */
int	role_parse(const char *name);

static inline int
role_scope(enum role r)
{
	return 1 + (int)r;
}

static inline int
slot_of(size_t nopts, int scope, int opt)
{
	return scope * (int)nopts + opt;
}

static inline int
slot_scope(size_t nopts, int slot)
{
	return (int)((size_t)slot / nopts);
}

static inline int
slot_opt(size_t nopts, int slot)
{
	return (int)((size_t)slot % nopts);
}

/* Does the slot read the rule's own config? (No division: hot path.) */
static inline bool
slot_is_self(size_t nopts, int slot)
{
	return slot >= 0 && (size_t)slot < nopts;
}

/* The role whose config a slot reads, or -1 for SCOPE_SELF. */
static inline int
slot_role(size_t nopts, int slot)
{
	return slot_scope(nopts, slot) - 1;
}

#endif
