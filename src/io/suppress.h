/*
 * suppress.h - inline suppressions (suppress.c): the "pdwiz: disable="
 * comments of a checked file, and whether one covers a finding.
 *
 * In a shell script or a YAML file (SUPP_HASH), a comment:
 *
 *	# pdwiz: disable=RULE[,RULE...]		this line, or the next one
 *	# pdwiz: disable-file=RULE[,RULE...]	every line of the file
 *
 * A directive that is the whole line (nothing but blanks before the '#')
 * covers its own line, the next line that is neither blank nor only a
 * comment (directives stack: several lines of them cover the same line)
 * and the blank and comment lines between, and when that line ends in '\'
 * the lines that continue it: the whole command. A directive after code
 * ("CMD  # pdwiz: disable=x", YAML "key: v  # pdwiz: disable=x") covers
 * its own line only.
 *
 * In Markdown (SUPP_MARKDOWN) the directive is an HTML comment,
 * "<!-- pdwiz: disable=RULE,... -->" (or disable-file=), outside fenced
 * blocks and code spans; alone on its line it covers that line and the
 * next line that is not blank or such a comment, and when that line opens
 * a fenced block, the whole block, through its closing fence. Inside a
 * fenced block the '#' form is read as in a script (a block's shell is
 * checked as a script is), and "<!--" is the block's text, not a comment.
 *
 * A directive begins at a '#' that starts the line or follows a blank (in
 * Markdown prose at any "<!--"), then "pdwiz", ':', the word, '=' and the
 * rule ids, blanks allowed around each (#pdwiz:disable=a, b). After the
 * ids may come a reason, from a blank and a '#': "# pdwiz: disable=x # the
 * GPUs are set by Slurm" (in Markdown, up to the "-->").
 * The scan does not parse the file's language: a '#' after a blank inside
 * a quoted string or a here-document begins a directive too.
 *
 * Rule ids are [a-z0-9-]+ and are named one by one: "all" is refused, so
 * that a check added later is never silenced by a directive written
 * before it existed, and so that every id can be reported when it
 * suppresses nothing. Whether an id names a rule is the caller's to say
 * (io has no catalog): each entry keeps where it is written.
 *
 * A malformed directive ("pdwiz: disable" without '=', an unknown word
 * such as "disabel", an empty list, a bad id) suppresses nothing and is
 * reported in bad[] with its line and column; the caller prints
 * FILE:LINE:COL and decides the severity. A comment that only mentions
 * pdwiz ("# pdwiz: written by pdwiz emit") is no directive: only a word
 * followed by '=', or "disable" and the words close to it, are read.
 *
 * Work is linear in the text; suppress_match costs O(log n) in the
 * directives of that rule (the entries of each rule are kept in line
 * order with the furthest line reached so far, so a match is one binary
 * search).
 */
#ifndef PDWIZ_SUPPRESS_H
#define PDWIZ_SUPPRESS_H

#include <stdbool.h>
#include <stddef.h>

enum supp_style { SUPP_HASH, SUPP_MARKDOWN };

/* What one text may hold, so that no file can make the scan take memory
 * out of proportion: the rule ids past the first SUPP_MAX_ENTRIES are not
 * read (one problem says so), the problems past SUPP_MAX_PROBLEMS are not
 * listed (one more says so). */
#define SUPP_MAX_ENTRIES	1000000
#define SUPP_MAX_PROBLEMS	100

/* One rule id of one directive. */
struct supp_entry {
	const char	*rule;		/* the id (owned by the struct suppress) */
	int		 line, col;	/* where the id is written, 1-based (col
					   in bytes) */
	int		 from, to;	/* the lines it covers, inclusive */
	bool		 file;		/* disable-file: every line */
	bool		 used;		/* it answered a suppress_match */
	size_t		 rid;		/* the id's number (equal ids, equal
					   numbers) */
};

/* A malformed directive. */
struct supp_problem {
	int	 line, col;		/* 1-based */
	char	*msg;			/* "unknown pdwiz directive 'disabel'
					   (did you mean 'disable'?)" */
};

struct supp_index;

/* The directives of one text; everything is owned (suppress_free). */
struct suppress {
	struct supp_entry	*e;	/* in the order written */
	size_t			 n;
	struct supp_problem	*bad;	/* in the order written */
	size_t			 nbad;
	size_t			 work;	/* entries suppress_match looked at,
					   summed (a test holds it to
					   O(log n) a match) */
	struct supp_index	*ix;	/* private: the lookup by rule */
};

void	suppress_init(struct suppress *);
/*
 * Read the directives of text[0..len) (lines end at LF; a CR before it is
 * dropped; a NUL ends its line's content). A second scan replaces what the
 * first found.
 */
void	suppress_scan(struct suppress *, const char *text, size_t len,
	    enum supp_style);
/* Whether a directive covers a finding of rule at line (1-based); the
 * directive that does is marked used (one of them, when several do: the
 * one reaching furthest, a disable-file first). */
bool	suppress_match(struct suppress *, const char *rule, int line);
/*
 * The next entry from *pos on that no match used ("suppression of RULE at
 * L:C suppresses nothing", for -v), or NULL; *pos moves past it. Start
 * with *pos = 0.
 */
const struct supp_entry *suppress_next_unused(const struct suppress *,
	    size_t *pos);
void	suppress_free(struct suppress *);

#endif
