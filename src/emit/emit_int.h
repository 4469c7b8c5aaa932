/* emit_int.h - what the emitters share among themselves (not an API). */
#ifndef PDWIZ_EMIT_INT_H
#define PDWIZ_EMIT_INT_H

#include <stdbool.h>

#include "core/value.h"
#include "deploy/deploy.h"
#include "emit/emit.h"

/* The failing-validation banner line, without comment markers. */
#define EMIT_FAILING_TEXT "THIS DEPLOYMENT FAILS pdwiz VALIDATION (emitted with --force); run: pdwiz check"

/*
 * The launch script (emit_shell.c), shared by the shell and config formats.
 * skip(arg, launch, flag) may drop a flag with its values; extra(arg,
 * launch) gives words put right after the program name; what says what the
 * script goes with (NULL: nothing).
 */
char	*shell_script(const struct catalog *, const struct deployment *,
	    bool failing,
	    bool (*skip)(void *, const struct launch *, const char *),
	    void *arg, const char *(*extra)(void *, const struct launch *),
	    const char *what);

/*
 * The pieces of the launch script the runbook writes too (emit_shell.c).
 * shell_facts: the plain assignments check and import read (the GPUs of a
 * machine when gpus, the name, the model facts). shell_node_hosts: does
 * the plan need PDWIZ_NODE_HOST before a command whose bind names no
 * machine. shell_launch: one launch, its environment as assignments on
 * the command, lead before it ("exec", "nohup"), tail after its last word
 * (" >log 2>&1 &"). oneline: every word on one line ($'...'), as a fenced
 * Markdown block needs it; shell_launch is always so.
 */
void	shell_facts(struct buf *, const struct catalog *,
	    const struct deployment *, bool gpus, bool oneline);
bool	shell_node_hosts(const struct plan *);
/* A server of a role whose machine the source did not state, bound to
 * 0.0.0.0 or ::: written without PDWIZ_NODE_HOST and under no machine of
 * its own (its host is the deployment's stand-in), so that check and
 * import of the export find the machine unknown, as in the source. */
bool	launch_host_dropped(const struct launch *);
void	shell_launch(struct buf *, const struct catalog *,
	    const struct plan *, const struct launch *, const char *lead,
	    const char *tail);

/*
 * The escaping discipline (emit_esc.c). yaml_str: a double-quoted YAML
 * scalar that every YAML reader gives back byte for byte (\, ", C0, DEL,
 * C1 controls such as NEL, LS, PS and BOM escaped). one_line: text that
 * stays on one line in YAML and shell comments and Markdown (line-breaking
 * and control characters become spaces). md_code: Markdown inline code of
 * one_line text, fenced past any backtick run (cell: also escapes | for a
 * table cell). yaml_number: an int or float option value as the number it
 * is checked as (canonical: no leading zeros), or a quoted string when it
 * does not parse. sh_word_line: a shell word that stays on one line (for
 * commands inside Markdown fences): sh_quote's, or $'...' with every
 * line-breaking and control byte as \xHH when the word holds one.
 */
struct buf;
void	yaml_str(struct buf *, const char *);
void	one_line(struct buf *, const char *);
void	md_code(struct buf *, const char *, bool cell);
void	yaml_number(struct buf *, enum otype, const char *);
void	sh_word_line(struct buf *, const char *);
/* s can name an environment variable (PDWIZ_FACT_<s>): letters, digits,
 * '_', not empty. */
bool	env_name(const char *s);

#endif
