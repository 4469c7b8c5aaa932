/* check.h - the parts of `pdwiz check` (not an API outside src/cli). */
#ifndef PDWIZ_CLI_CHECK_H
#define PDWIZ_CLI_CHECK_H

#include <stdbool.h>

#include "core/catalog.h"
#include "core/engine.h"

struct checked {
	int		 kind;		/* SH_SERVER, SH_ROUTER, or -1 config file */
	int		 line;
	const char	*mode;
	char		*text;		/* the command, one line */
};

struct check {
	const struct catalog	*cat;
	const char		*name;		/* file name for messages */
	struct result		 all;
	struct checked		*cmds;
	size_t			 ncmds;
	bool			 json, verbose, color;
};

/* check_print.c: the report, compiler-style text or one JSON object. */
void	check_print_text(const struct check *);
void	check_print_json(const struct check *);

#endif
