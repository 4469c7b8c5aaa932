/*
 * pylog.h - what a failed SGLang launch left in its log: the failures
 * (the last exception line of each Python traceback, argparse's "error:"
 * line, SGLang's logged errors), the configuration SGLang resolved (its
 * server_args=ServerArgs(...) line) and the launch commands and exports
 * the log shows. Lines of several processes may interleave, each behind
 * its own prefix ("[2026-08-28 10:01:02 TP3] ", "(SGLangEngine pid=12) ",
 * "[rank0]: ", "prefill-1  | ", an ISO time stamp); the prefixes are read
 * past, and the process tag (TP3) is kept.
 *
 * pylog_script turns what was read into the shell script it stands for,
 * line for line, so that the one input classifier (input.c) gives a log
 * to pdwiz check, pdwiz import and the wizard as the commands of the
 * deployment it describes.
 */
#ifndef PDWIZ_PYLOG_H
#define PDWIZ_PYLOG_H

#include <stdbool.h>
#include <stddef.h>

#include "core/catalog.h"
#include "core/util.h"

struct pyv;

/* The largest log read (pdwiz explain --log). */
#define PYLOG_MAX	(256 * 1024 * 1024)

enum plkind {
	PL_EXCEPTION,		/* a traceback's exception line */
	PL_ARGPARSE,		/* "launch_server.py: error: MESSAGE" */
	PL_LOGGED		/* an error SGLang logged, outside a traceback */
};

struct plframe {
	char	*file;		/* as the traceback names it */
	char	*func;
	int	 lineno;
};

struct plfail {
	enum plkind	 kind;
	char		*type;		/* "ValueError", "torch.OutOfMemoryError";
					   NULL: argparse and logged errors */
	char		*msg;		/* the message on the failure's line
					   (without "Type: "); "" for a bare
					   exception */
	char		*more;		/* the lines that continue it, joined
					   with spaces, or NULL */
	char		*code;		/* the traceback's last source line (a
					   bare assert's condition), or NULL */
	struct plframe	*frames;	/* innermost last */
	size_t		 nframes;
	char		*procs;		/* the process tags it came from ("TP0
					   TP1 ..."), or NULL */
	int		 line, col;	/* where the message starts (first seen) */
	size_t		 count;		/* times it was seen (one per rank) */
	bool		 consequence;	/* says another failure came first
					   ("Initialization failed. Please see
					   the error messages above.") */
};

struct plargs {				/* one server_args=ServerArgs(...) */
	struct pyv	*args;		/* the ServerArgs call */
	int		 line, col;	/* where "ServerArgs(" starts */
	bool		 cut;		/* the line ends inside it */
	char		 why[160];	/* where it was cut */
	char		*procs;		/* process tag, or NULL */
};

struct plcmd {				/* a launch command or an export */
	char		*text;		/* its shell text, continuation lines
					   joined by "\\\n" */
	int		 line, endline;
	bool		 server;	/* a server or router command (not an
					   export line) */
};

struct pylog {
	struct plfail	*f;
	size_t		 nf;
	struct plargs	*a;
	size_t		 na;
	struct plcmd	*c;
	size_t		 nc;
	size_t		 nlines;
};

/* Does the text look like a log: a traceback, argparse's error line or a
 * server_args line (after the prefixes)? Reads at most the first MB. */
bool	pylog_sniff(const char *text, size_t len);
/* Read text (NUL-terminated, len bytes); never fails. */
void	pylog_read(const char *text, size_t len, struct pylog *);
void	pylog_free(struct pylog *);

/* Fields of a ServerArgs that no command line can state. */
struct plskip {
	size_t		 unknown;	/* not an option of the catalog
					   (another release's field) */
	size_t		 unsettable;	/* a value no flag takes (an object,
					   None for an option that has a
					   value by default, ...) */
	struct buf	 names;		/* the unknown ones, ", "-separated */
};

/*
 * The command a ServerArgs stands for: "python3 -m sglang.launch_server"
 * and every field whose value differs from the catalog's default, as the
 * flag that sets it (values SGLang resolved are stated as given). Fields
 * the catalog does not know, and values no flag takes, are counted in
 * skip (may be NULL). Owned.
 */
char	*pylog_args_command(const struct catalog *, const struct pyv *args,
	    struct plskip *skip);

/*
 * The shell script the log stands for, line for line: each server_args
 * as the command that states it at its line, the export lines at theirs,
 * and the launch commands the log shows only when it holds no
 * server_args (the resolved configuration wins over the command that
 * asked for it); the environment assignments before such a command are
 * kept as exports. Other lines are empty. Owned; *len its length.
 */
char	*pylog_script(const struct catalog *, const struct pylog *,
	    size_t *len, struct plskip *skip);

/* The disaggregation mode a ServerArgs names ("prefill", "decode",
 * "null"), or NULL. */
const char *pylog_args_mode(const struct pyv *args);

#endif
