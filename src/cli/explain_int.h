/*
 * explain_int.h - pdwiz explain's two halves: a rule by its id
 * (explain.c), and a failure by its message or its log, back to the rule
 * and the configuration that raised it (explain_log.c).
 */
#ifndef PDWIZ_EXPLAIN_INT_H
#define PDWIZ_EXPLAIN_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/catalog.h"

struct cli_facts;

struct explain_req {
	const char	**logs;		/* --log FILE ("-": standard input) */
	size_t		  nlogs;
	const char	 *message;	/* a message given as the operand */
	bool		  json;
	const struct cli_facts *facts;	/* --gpu, --platform, ... or NULL */
};

/* What `pdwiz explain RULE-ID` prints for r, indented by indent. */
void	explain_print_rule(const struct catalog *, const struct rule *r,
	    const char *indent);
/* Explain the failures of the message or logs: the exit status (0 every
 * failure found was explained, 1 one was not, 2 unusable input). */
int	explain_failures(const struct catalog *, const struct explain_req *);

#endif
