/* check.h - the parts of `pdwiz check` (not an API outside src/cli). */
#ifndef PDWIZ_CLI_CHECK_H
#define PDWIZ_CLI_CHECK_H

#include <stdbool.h>

#include "core/catalog.h"
#include "core/engine.h"
#include "core/util.h"

struct checked {
	int		 kind;		/* SH_SERVER, SH_ROUTER, or -1 config file */
	int		 line;
	int		 endline;	/* its last line (continuations) */
	const char	*mode;
	char		*text;		/* the command, one line */
};

enum check_format { FMT_TEXT, FMT_JSON, FMT_SARIF, FMT_GITHUB };

struct check {
	const struct catalog	*cat;
	const char		*name;		/* file name for messages */
	struct result		 all;
	struct checked		*cmds;
	size_t			 ncmds;
	bool			 verbose, color;
	enum check_format	 fmt;
	struct buf		 why;		/* why nothing could be checked */
	const char		*sglang_version;	/* --sglang-version, or NULL */
	sgver_t			 sgver;		/* the release checked for, or 0 */
	const struct cli_facts	*facts;		/* given on the command line */
};

/* check.c: the cross-role checks over the commands of sc; eff[r] is the
 * effective config of role r's first command (NULL: none), first[r] that
 * command's index in ck->cmds (-1: none). */
struct sh_script;
void	check_cross_cmds(struct check *, const struct sh_script *,
	    const struct config *const eff[3], const int first[3]);
/* check_print.c: whether an unknown diagnostic's message says something:
 * a message whose facts could not be worked out ("<unknown>") does not,
 * and the reports show only the note that says why. */
bool	check_would_report(const struct diag *);
/* check.c: append a checked command (words quoted into its text). */
void	check_add_cmd(struct check *, int kind, int line, const char *mode,
	    const char *const *words, size_t n);
/* check_recipe.c: the SGLang servers of an srt-slurm recipe; 0, or -1
 * (nothing to check, message kept in why). */
struct config;
struct ynode;
int	check_recipe(struct check *, const struct config *base,
	    const struct ynode *root);
/* check_print.c: the report, compiler-style text or one JSON object. */
void	check_print_text(const struct check *);
void	check_print_json(const struct check *);
/* A rule's SGLang source as a JSON object ({file, function, commit, stage}),
 * or null. */
void	check_json_source(struct buf *, const struct rule *);
/* A warning of pdwiz's own at line/col, on the command there (check.c). */
void	check_warn_at(struct check *, const char *id, const char *msg,
	    int line, int col);
/* check_traps.c: shell mistakes bash accepts that change what runs. */
struct sh_script;
void	check_shell_traps(struct check *, const struct sh_script *,
	    const char *text, size_t len);
/* check_formats.c: SARIF 2.1.0 and GitHub workflow annotations. */
void	check_print_sarif(const struct check *);
void	check_print_github(const struct check *);
/* The one document a machine format prints when nothing could be checked
 * (exit 2): msg as an error diagnostic with rule id, at the line and
 * column it names. Nothing for FMT_TEXT. */
void	check_print_failure(const struct check *, enum check_format,
	    const char *id, const char *msg);

#endif
