/*
 * rcfile.h - the configuration file .pdwiz.yaml (rcfile.c): which rules to
 * drop or to report at another severity, default facts, files not to
 * check, and the severity that fails a run. share/pdwiz-rc.md describes
 * the format for users.
 *
 *	ignore:   [RULE, ...]			findings of these are dropped
 *	severity: {RULE: error|warning|note|off}
 *	facts:    {NAME: VALUE, ...}		defaults (platform, gpu,
 *						sglang-version, model_arch ...)
 *	exclude:  [GLOB, ...]			relative to the file's directory
 *	fail-on:  error|warning
 *
 * Every key is optional and an empty file is an empty configuration. Each
 * problem is reported as FILE:LINE:COL: an unknown key (with a "did you
 * mean"), a value of the wrong type, an unknown severity word, a rule id
 * or fact name that is no word, a duplicate key, a YAML syntax error; a
 * file that is not a regular file (a directory, a FIFO) is refused
 * without being opened. Rule ids and fact names cannot be checked here (io
 * has no catalog): each keeps where it is written, for the caller to
 * report the ones it does not know at their place.
 *
 * Where the file is: rcfile_find looks in the input's directory, then in
 * each directory above it, and stops at the first .pdwiz.yaml, at the
 * directory that holds .git (a repository's root is the last directory
 * looked in: a configuration above it belongs to something else), or at
 * the root. Directories are walked by name: "a/b/.." is "a" (as cd does
 * by default), a symbolic link is not resolved.
 */
#ifndef PDWIZ_RCFILE_H
#define PDWIZ_RCFILE_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

#define RC_NAME		".pdwiz.yaml"
#define RC_MAX		(1024 * 1024)	/* bytes */

enum rc_sev { RC_ERROR, RC_WARNING, RC_NOTE, RC_OFF };
enum rc_fail { RC_FAIL_UNSET, RC_FAIL_ERROR, RC_FAIL_WARNING };

/* One entry: a rule id (ignore:, severity:), a glob (exclude:) or a fact
 * (facts:). */
struct rc_item {
	char		*name;
	char		*value;		/* a fact's value as written; NULL
					   otherwise */
	enum rc_sev	 sev;		/* severity: only */
	int		 line, col;	/* of name, 1-based */
	int		 vline, vcol;	/* of the value (severity:, facts:) */
};

struct rc_index;

/* A configuration read; everything is owned (rcfile_free). */
struct rcfile {
	char		*path;		/* as given */
	char		*dir;		/* its directory, absolute: exclude:
					   globs are relative to it */
	struct rc_item	*ignore, *severity, *facts, *exclude;
	size_t		 nignore, nseverity, nfacts, nexclude;
	enum rc_fail	 fail_on;	/* RC_FAIL_UNSET: not given */
	int		 fail_line, fail_col;
	struct rc_index	*ix;		/* private: the lookup by rule */
};

void	rcfile_init(struct rcfile *);
/*
 * Read the file at path (a file named "-" is a file, not standard input).
 * 0, or -1 with every problem in why, one line each ending in a newline
 * ("FILE:LINE:COL: message"; "FILE: not a regular file (a FIFO)").
 */
int	rcfile_load(const char *path, struct rcfile *, struct buf *why);
/* The same from text[0..len), named name in messages; exclude: globs are
 * relative to dir (NULL: the current directory). */
int	rcfile_parse(const char *name, const char *dir, const char *text,
	    size_t len, struct rcfile *, struct buf *why);
void	rcfile_free(struct rcfile *);

/* What the file says of rule: true with *sev RC_OFF when it is ignored
 * (ignore:, or severity: off), with its severity: word otherwise; false
 * when it says nothing. A hash lookup. */
bool	rcfile_rule(const struct rcfile *, const char *rule, enum rc_sev *sev);
/* Whether the file's exclude: globs name path (a file to check, relative
 * to the current directory or absolute). A file outside the rc file's
 * directory is matched by its name only (by the globs without '/'). */
bool	rcfile_excluded(const struct rcfile *, const char *path);

/*
 * Whether glob names path ('/'-separated, relative, "." parts ignored), as
 * .gitignore globs do: '*' is any bytes but '/', '?' one byte but '/', and
 * a part that is just ** any number of directories (none too): the
 * globs ** SLASH x (x at any depth), a SLASH ** (everything below a) and
 * a SLASH ** SLASH b (b at any depth below a), SLASH being '/' (which this
 * comment cannot write after a '*'). A glob without '/' names a file or a
 * directory at any depth (every part of path is tried); one with a '/' (a
 * leading one is dropped) is matched from the top. A glob that names a
 * directory names the files below it; one ending in '/' names directories
 * only. Other bytes ('[', '\') stand for themselves.
 */
bool	rc_glob_match(const char *glob, const char *path);

struct rc_cache;

/* The search upward, with every directory's answer kept: a directory is
 * looked into once however many files under it are checked. */
struct rc_finder {
	size_t		 nlookups;	/* names looked up (lstat), summed */
	struct rc_cache	*c;		/* private */
};

void	rc_finder_init(struct rc_finder *);
/*
 * The .pdwiz.yaml that applies to the files of directory dir (relative
 * to the current directory, or absolute), or NULL when there is none.
 * The path is the finder's (valid until rc_finder_free) and the same
 * pointer for every directory it applies to, so the caller can keep one
 * loaded struct rcfile per pointer. What is named .pdwiz.yaml is returned
 * whatever it is (rcfile_load then refuses a directory or a FIFO), so
 * that a broken file is reported, not skipped.
 */
const char	*rcfile_find(struct rc_finder *, const char *dir);
void		 rc_finder_free(struct rc_finder *);

#endif
