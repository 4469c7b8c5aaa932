/* cli.h - the command-line front end (thin views over the model). */
#ifndef PDWIZ_CLI_H
#define PDWIZ_CLI_H

#include <stdio.h>

#include "core/catalog.h"
#include "core/config.h"

#define EXIT_OK		0
#define EXIT_FOUND	1	/* errors found in what was checked */
#define EXIT_USAGE	2	/* unusable input or usage */

struct catalog	*cli_load_catalog(void);
int		 cmd_check(int argc, char **argv);
int		 cmd_explain(int argc, char **argv);
int		 cmd_rules(int argc, char **argv);
int		 cmd_coverage(int argc, char **argv);
int		 cmd_compile_catalog(int argc, char **argv);
int		 use_color(FILE *);

/* Shared fact options: --model-arch, --platform, --gpu-sm, --fact k=v.
 * Returns 1 if argv[*i] was one (consumed), 0 if not, -1 on error. */
int		 parse_fact_opt(const struct catalog *, struct config *,
		    int argc, char **argv, int *i);

extern const char	*pdwiz_argv0;

#endif
