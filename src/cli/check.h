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

/* The shape of the JSON document (share/check-json.md): raised when a
 * field changes meaning or goes; new fields do not raise it. */
#define CHECK_JSON_VERSION	1

enum check_format { FMT_TEXT, FMT_JSON, FMT_SARIF, FMT_GITHUB };

/* What became of one input. */
enum check_status {
	CK_CHECKED,		/* its commands were checked */
	CK_NOTHING,		/* it holds nothing of SGLang's (why says what
				   it is): exit 0 */
	CK_FAILED		/* unreadable or malformed (why): exit 2 */
};

/* One input: a file, standard input or the words after --. */
struct check {
	const struct catalog	*cat;
	const char		*name;		/* file name for messages */
	char			*own_name;	/* name, when owned */
	enum check_status	 status;
	const char		*fail_id;	/* CK_FAILED: "input", ... */
	struct result		 all;
	struct checked		*cmds;
	size_t			 ncmds;
	bool			 verbose, color;
	enum check_format	 fmt;
	struct buf		 why;		/* why nothing could be checked */
	const char		*sglang_version;	/* --sglang-version, or NULL */
	sgver_t			 sgver;		/* the release checked for, or 0 */
	sgver_t			 sgver_asked;	/* the version asked for when it
						   is no release, or 0 */
	const struct cli_facts	*facts;		/* given on the command line */
	size_t			 nsuppressed;	/* findings a suppression or an
						   ignore list dropped */
	enum severity		 fail_on;	/* SEV_ERROR or SEV_WARNING
						   (--fail-on, .pdwiz.yaml) */
};

/* The report of one run: every input, in the order given. */
struct report {
	const struct catalog	*cat;
	struct check		**f;
	size_t			  n;
	enum check_format	  fmt;
	bool			  verbose, color, quiet, show_unknown;
	/* Over all inputs (check_report_sum): */
	size_t			  nerrors, nwarnings, nunknown, noverrides;
	size_t			  nnotes;
	size_t			  ncmds, nchecked, nnothing, nfailed;
};

/* check_print.c: the totals of r; the exit status they give. */
void	check_report_sum(struct report *);
int	check_report_status(const struct report *);
/* Does d (of ck) fail the run (at or above its --fail-on)? */
bool	check_fails(const struct check *, const struct diag *);
/* Is d of ck shown one by one (not folded into the could-not-check
 * summary)? */
bool	check_listed(const struct report *, const struct check *,
	    const struct diag *);

/* check_rc.c: .pdwiz.yaml, inline suppressions and --ignore. */
struct rcset;
struct rcfile;
struct suppress;
struct cli_facts;
struct config;
/* May id be named (a rule of the catalog, or of pdwiz's readers)? */
bool	check_known_rule(const struct catalog *, const char *id);
/* The configuration files of a run: given (--rcfile, PDWIZ_RC: NULL or
 * empty for none), else each input's own, found upward. */
struct rcset *rcset_new(const struct catalog *, const char *given);
void	rcset_free(struct rcset *);
/* The configuration file rcset_for last refused, or NULL. */
const char *rcset_refused(const struct rcset *);
/* The .pdwiz.yaml for input (a path, "-" or NULL for standard input and a
 * command line), loaded once and checked against the catalog; *out NULL
 * when there is none. 0, or -1 with its problems in why. */
int	rcset_for(struct rcset *, const char *input, const struct rcfile **out,
	    struct buf *why);
/* rc's facts the command line does not give, onto cfg (and its release
 * onto cfg->sgver, unless version_given); 1 when any was set. */
int	rc_apply_facts(const struct catalog *, const struct rcfile *,
	    const struct cli_facts *given, bool version_given,
	    struct config *cfg);
/* Drop what --ignore, rc (ignore, severity off) and the inline
 * suppressions name, apply rc's severities, recount; then the
 * suppressions' own problems (always) and the unused ones (verbose). */
void	check_filter(struct check *, const struct rcfile *, struct suppress *,
	    const char *const *ignores, size_t nignores, bool verbose);

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
/* check_print.c: the report, compiler-style text or one JSON document. */
void	check_print_text(const struct report *);
void	check_print_json(const struct report *);
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
void	check_print_sarif(const struct report *);
void	check_print_github(const struct report *);
/* Where a message of the form "NAME:LINE[:COL]: ..." points; 0 unknown. */
void	check_message_pos(const char *name, const char *msg, int *line,
	    int *col);

#endif
