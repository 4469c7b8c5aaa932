/*
 * engine.h - evaluate the rules over a configuration, in SGLang's order.
 *
 * Override rules change the effective configuration as they fire, so every
 * later rule sees the values SGLang would see. Errors do not stop the run:
 * pdwiz reports every problem at once, where SGLang stops at the first.
 */
#ifndef PDWIZ_ENGINE_H
#define PDWIZ_ENGINE_H

#include <stdbool.h>
#include <stddef.h>

#include "catalog.h"
#include "config.h"
#include "role.h"

struct diag {
	const struct rule	*rule;	/* NULL for reader diagnostics (argparse, loader) */
	const char		*id;	/* rule id, or a reader's id such as argparse-choice */
	char			*hint;	/* extra advice ("did you mean --tp-size?"); owned or NULL */
	enum severity		 sev;	/* SEV_UNKNOWN: condition needs an unknown fact */
	char			*msg;	/* SGLang's message, rendered; owned */
	char			*note;	/* "could not check: ..." for unknown; owned or NULL */
	char			*figures;	/* fit-estimate: the estimate's figures
					   unrounded, a JSON object; owned or NULL */
	int			 opt;	/* option the diagnostic is best attached to, or -1 */
	int			 lacks;	/* SEV_UNKNOWN: the option (index + 1) whose
					   value was unknown; 0: not one */
	int			 line, col;	/* where that option was given, 0 if unknown */
	int			 cmd;	/* caller's command / role index */
	bool			 fixes_verified;	/* fix_ok is meaningful */
	unsigned		 fix_ok;	/* bit i: fix i clears it (verified) */
};

struct result {
	struct diag	*d;
	size_t		 n, cap;
	struct config	 eff;		/* effective configuration after overrides */
	size_t		 nerrors, nwarnings, nunknown, noverrides;
};

void	result_init(struct result *);
void	result_free(struct result *);
/* Free the strings one diagnostic owns (a diagnostic dropped from a
 * result: every owned string, the figures too). */
void	diag_release(struct diag *);
/* Append the diagnostics of src (moving ownership), tagging them with cmd. */
void	result_take(struct result *dst, struct result *src, int cmd);
/* Append one diagnostic (moving ownership of its strings), tagged cmd. A
 * result whose diagnostics were all moved so is released with n = 0, then
 * result_free. */
void	result_take_one(struct result *dst, struct diag *d, int cmd);
/* The totals of r again, from its diagnostics (after some were dropped or
 * their severity changed). */
void	result_recount(struct result *);
/* Add a reader diagnostic (not from a rule); msg and hint are copied. */
void	result_add(struct result *, const char *id, enum severity,
	    const char *msg, const char *hint, int line, int col);

/* Run the per-server rules on in; out must be result_init'ed. */
void	engine_run(const struct catalog *, const struct config *in,
	    struct result *out);

/*
 * Run the deployment rules. roles[SCOPE_SELF] is the deployment-level
 * config (deploy facts), roles[role_scope(r)] the effective config of role
 * r (role.h); any may be NULL (then names of that role are unknown).
 */
void	engine_run_deploy(const struct catalog *,
	    const struct config *const roles[NSLOT_SCOPE], struct result *out);

/*
 * Availability: with opt set to v (everything else as in `in`), does an
 * error rule fire that depends on opt (directly, or through an override
 * that read it)? Returns that rule, or NULL when v is allowed.
 */
const struct rule *engine_blocks(const struct catalog *,
	    const struct config *in, int opt, struct value v);

/* Every slot a rule reads or writes (condition, message, assignments). */
void	rule_slots(const struct rule *, void (*fn)(void *, int), void *);

/* Apply fix number i of rule r to cfg (per-server rules). */
void	engine_apply_fix(const struct rule *, size_t i, struct config *);
/*
 * For every error, warning, note and could-not-check of res (engine_run's
 * result for in) whose rule has fixes: apply each fix to a copy of in, run
 * the rules again, and keep the fix (bit in fix_ok) only when the
 * diagnostic is gone and no error appears that was not there. For a
 * could-not-check, gone means decided (neither unknown nor firing), and a
 * fix that gives no option a new value is not tried. Sets fixes_verified.
 */
void	engine_verify_fixes(const struct catalog *, const struct config *in,
	    struct result *res);
/* The same for a server on machines of gpus_per_host GPUs (0: not stated,
 * taken as 8): a fix that sets tp_size is kept only when its GPUs a node
 * (tp x pp / nnodes) fit the machine, and fill it when it spreads over
 * several nodes. engine_verify_fixes is this with 0. */
void	engine_verify_fixes_host(const struct catalog *, const struct config *in,
	    struct result *res, int gpus_per_host);
/* May fix i of d be offered? (Unverified diagnostics: every fix.) */
bool	diag_fix_ok(const struct diag *, size_t i);

#endif
