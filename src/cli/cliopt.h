/*
 * cliopt.h - the command table and the one option parser every pdwiz
 * subcommand uses. A command declares its options once (long name, short
 * name, argument, help); the parser, the usage lines and --help all read
 * that declaration.
 *
 * Accepted: --name value, --name=value, -o value, -ovalue, flags --name and
 * -v, "-" as an operand (standard input), "--" (every later word is an
 * operand), --help and -h when the table does not use them.
 */
#ifndef PDWIZ_CLIOPT_H
#define PDWIZ_CLIOPT_H

#include <stdbool.h>
#include <stdio.h>

#define CLIOPT_REQUIRED	0x1	/* synopsis shows it without brackets */

struct cliopt {
	int		 id;		/* returned by cliparse_next; > 0; a
					   table ends with id 0 */
	const char	*name;		/* long name without "--", or NULL */
	char		 letter;	/* short name, or 0 */
	const char	*arg;		/* placeholder ("FILE"); NULL: a flag */
	const char	*help;		/* one line; NULL: not listed */
	unsigned	 flags;
};

#define CLICMD_PLAIN	0x1	/* synopsis is the operands text alone */

struct clicmd {
	const char		*name;		/* "check"; NULL: pdwiz itself */
	const char		*operands[2];	/* synopsis lines after the options
						   (NULL: none) */
	const char		*summary;	/* one line */
	const struct cliopt	*opts;		/* may be NULL */
	int			(*run)(int argc, char **argv);
	unsigned		 flags;
};

enum {
	CLIOPT_END = 0,		/* no more words */
	CLIOPT_OPERAND = -1,	/* a non-option word, in arg */
	CLIOPT_HELP = -2,	/* --help or -h */
	CLIOPT_ERROR = -3	/* message in err (and printed to errf) */
};

struct cliparse {
	const struct clicmd	*cmd;
	int			 argc;
	char			**argv;
	int			 i;		/* next word */
	int			 dashdash;	/* index of the word after "--",
						   or -1 */
	const char		*arg;		/* option argument or operand */
	char			 opt[64];	/* the option as written, without
						   "=value" */
	char			 err[256];
	FILE			*errf;		/* stderr; NULL: do not print */
};

/* argv[0] is the command's own word; parsing starts at argv[1]. */
void	cliparse_init(struct cliparse *, const struct clicmd *, int argc,
	    char **argv);
/* The next option's id, or one of CLIOPT_END/OPERAND/HELP/ERROR. */
int	cliparse_next(struct cliparse *);

/* Index of s in the NULL-terminated list, or -1. */
int	cli_choice(const char *s, const char *const *choices);

/*
 * "pdwiz check [options] [FILE | -]", one line per operands line, after
 * "usage: " when first, else after as many spaces. sumcol > 0: the summary
 * follows the first line at that column (on a line of its own when the
 * synopsis is longer).
 */
void	cli_synopsis(FILE *, const struct clicmd *, bool first, int sumcol);
/* The option lines: "  -v, --verbose          help". */
void	cli_options(FILE *, const struct clicmd *);
/* Usage, summary and options of one command: its --help. */
void	cli_help(FILE *, const struct clicmd *);
/* "usage: ..." lines only, for a wrong operand count. */
void	cli_usage(FILE *, const struct clicmd *);

#endif
