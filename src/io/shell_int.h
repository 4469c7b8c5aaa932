/*
 * shell_int.h - private to the shell reader (shell*.c).
 *
 * The reader makes two passes over a private copy of the text. The lexer
 * (shell_lex.c, shell_heredoc.c) cuts the text into raw words, operators
 * and redirections, skips comments and here-documents, and checks that
 * every quote and nested construct is closed. When a simple command ends,
 * its raw words are expanded (shell_expand.c: quote removal, $VAR and
 * ${VAR} from the variables of the script, field splitting of unquoted
 * expansions), the command is classified (shell_classify.c) and given its
 * environment (shell_cmd.c). shell.c holds the public API.
 *
 * Nested constructs ("..." inside $(...) inside ${...}) are matched with an
 * explicit stack, never with recursion. The only recursion is the expansion
 * of ${VAR:-word} defaults, which is capped at SH_MAX_DEPTH.
 *
 * Environment entries are shared: variable names and values live in a pool
 * owned by the script (shell_pool.c), and commands with the same
 * environment share one array, so a script with many variables and many
 * commands stays linear.
 */
#ifndef PDWIZ_SHELL_INT_H
#define PDWIZ_SHELL_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"
#include "io/shell.h"

#define NONE		((size_t)-1)
#define SH_MAX_DEPTH	8			/* nested ${A:-${B:-...}} */
#define SH_MAX_OUT	((size_t)64 << 20)	/* expansion bytes, plus 4 x input */
#define SH_MAX_ENV	((size_t)1 << 22)	/* env entries over all commands */
#define SH_ASEP		'\x1f'			/* ends each element of an array value */

/* Contexts on the nesting stack. */
enum ctx {
	C_SQ,		/* '...' */
	C_DQ,		/* "..." or $"..." */
	C_ANSIC,	/* $'...' */
	C_BQ,		/* `...` */
	C_BRACE,	/* ${...} */
	C_PAREN		/* $(...), $((...)), <(...), a=(...) */
};

struct frame {
	enum ctx	 type;
	size_t		 off;		/* offset of the opener */
	int		 depth;		/* open ( inside C_PAREN */
	bool		 in_dq;		/* C_BRACE inside double quotes */
};

struct heredoc {
	char		*delim;
	size_t		 len;
	bool		 strip;		/* <<- strips leading tabs */
	int		 line;		/* where the << is */
};

struct lexer {
	const char	*s;
	size_t		 len;
	size_t		 pos;

	/* Incremental offset to line/column conversion. */
	size_t		 pcur;
	size_t		 pls;		/* offset where line pline starts */
	int		 pline;

	struct frame	*stk;
	size_t		 nstk, capstk;

	struct heredoc	*hd;
	size_t		 nhd, caphd;
	int		 unclosed;	/* line of the first here-document that
					   runs to the end of the input, or 0 */

	/* Offsets in s of the newlines that were CR LF in the input (the CR
	   is dropped so that a Windows script reads by lines; quoted text
	   gets it back), ascending. */
	size_t		*crlf;
	size_t		 ncrlf, capcrlf;
};

enum ttype {
	T_EOF,
	T_WORD,
	T_SEP,		/* ; & && || | |& ( ) ;; */
	T_NEWLINE,
	T_REDIR		/* > >> < &> 2>&1 ... (target follows), << (done) */
};

struct token {
	enum ttype	 type;
	size_t		 start, end;
	int		 line, col, endline;
	bool		 assign;	/* NAME=... or NAME+=... */
	bool		 array;		/* NAME=(...) */
	bool		 target;	/* T_REDIR: the next word is its target */
};

struct var {
	const char	*name;		/* pool */
	const char	*value;		/* pool */
	size_t		 namelen;
	int		 line, col;
	bool		 unresolved;
	bool		 exported;
	bool		 alive;		/* on the list */
	bool		 del;		/* own table: env -u NAME */
	bool		 array;		/* NAME=(...): value holds the elements,
					   each ended by SH_ASEP */
	size_t		 prev, next;
};

/* Variables in order of their last assignment, with a hash index. */
struct vtab {
	struct var	*v;
	size_t		 n, cap;
	size_t		*slot;		/* index + 1, 0 = empty */
	size_t		 nslot;
	size_t		 head, tail;
	size_t		 nalive;
	unsigned long	 gen;		/* bumped on every change */
	unsigned long	 dirtygen;	/* gen of the last change but an add */
};

/* Strings of the script: words, variable names and values. */
struct chunk {
	struct chunk	*next;
	size_t		 used, cap;
	char		 data[];
};

/* A pool's chunks start at CHUNK_MIN bytes and double up to CHUNK_SIZE: a
 * manifest's containers are each read as a small script, and the pools of
 * thousands of them end up in one script. */
#define CHUNK_MIN	((size_t)1 << 10)
#define CHUNK_SIZE	((size_t)64 << 10)

struct sh_pool {
	struct chunk	 *chunks;	/* the current one first */
	struct chunk	 *last;		/* the end of the list */
	struct sh_env	**env;		/* env arrays */
	size_t		  nenv, capenv;
};

/* Output of expanding one word: fields, each NUL-terminated, in b. */
struct xout {
	struct buf	 b;
	size_t		*fo;		/* offsets of finished fields */
	size_t		 nf, capf;
	size_t		 fstart;	/* offset of the current field */
	bool		 have;		/* current field exists, even if empty */
	bool		 split;		/* split unquoted expansions */
	bool		 unresolved;
	bool		 dropempty;	/* "${A[@]}" of an empty array: an empty
					   field it leaves is no word */
	const struct vtab *own;		/* also visible (prefix assignments) */
};

enum xmode {
	M_UNQ,		/* unquoted */
	M_BUNQ,		/* ${A:-word} word, unquoted */
	M_DQ,		/* inside "..." */
	M_BDQ		/* ${A:-word} word, inside "..." */
};

/* A command's own variables: VAR=.. prefixes and env arguments. */
struct own {
	struct vtab	 t;
	bool		 clear;		/* env -i */
};

struct parser {
	struct lexer	 lx;
	struct vtab	 tab;
	struct sh_pool	*pool;

	struct sh_cmd	*cmds;
	size_t		 ncmds, capcmds;

	/* The command being read; words are expanded as they arrive. */
	struct sh_cmd	 cur;
	size_t		 curcap;
	struct own	 own;
	bool		 started;	/* cur has a word or a prefix */
	bool		 inwords;	/* past the VAR=.. prefixes */
	bool		 decl;		/* cur is export, declare, ... */
	bool		 intarget;	/* next word is a redirection target */
	int		 endline;
	struct xout	 x;		/* reused for every word */

	/* Last environment built without own entries. */
	struct sh_env	*snap;
	size_t		 nsnap, capsnap;
	unsigned long	 snapgen;
	bool		 havesnap;

	size_t		 outbytes;
	size_t		 maxout;
	size_t		 envtotal;
	bool		 toobig;

	char		*err;
	size_t		 errlen;
	bool		 failed;
};

/* shell_pool.c: growable arrays, errors, the pool, variable tables. */
void	 sh_grow(void **, size_t *, size_t, size_t);
void	 sh_seterr(struct parser *, int, int, const char *, ...)
	    __attribute__((__format__ (printf, 4, 5)));
char	*sh_pool_alloc(struct sh_pool *, size_t);
char	*sh_pool_str(struct sh_pool *, const char *, size_t);
struct sh_env *sh_pool_env(struct sh_pool *, size_t);
void	 sh_pool_free(struct sh_pool *);
size_t	 sh_vt_find(const struct vtab *, const char *, size_t);
struct var *sh_vt_set(struct vtab *, const char *, size_t);
void	 sh_vt_unlink(struct vtab *, size_t);
void	 sh_vt_free(struct vtab *);
void	 sh_vt_init(struct vtab *);
const struct var *sh_vt_get(const struct vtab *, const char *, size_t);

/* shell_lex.c: characters, words, operators, nested constructs. */
bool	 sh_is_name_start(int);
bool	 sh_is_name_char(int);
bool	 sh_is_meta(int);
size_t	 sh_assign_name(const char *, size_t, bool *);
size_t	 sh_skip_from(struct parser *, size_t, enum ctx, size_t, bool, bool);
int	 sh_lex_word(struct parser *, struct token *);
size_t	 sh_opener(const char *, size_t, size_t, enum ctx *);
size_t	 sh_placeholder_at(const char *, size_t, size_t);
bool	 sh_placeholder(const char *);
int	 sh_next_token(struct parser *, struct token *);

/* shell_heredoc.c: here-documents. */
int	 sh_lex_heredoc(struct parser *, struct token *, bool);
void	 sh_read_heredocs(struct lexer *);

/* shell_expand.c: expansion of words into fields. */
bool	 sh_x_budget(struct parser *, size_t);
void	 sh_x_raw(struct parser *, struct xout *, size_t, size_t);
void	 sh_x_span(struct parser *, struct xout *, size_t, size_t,
	    enum xmode, int);
void	 sh_x_endfield(struct xout *);
void	 sh_x_reset(struct xout *, bool, const struct vtab *);
void	 sh_x_free(struct xout *);
void	 sh_x_string(struct parser *, const struct vtab *, size_t, size_t,
	    bool);
void	 sh_x_array(struct parser *, const struct vtab *, size_t, size_t);

/* shell_cmd.c: assembling commands and their environments. */
bool	 sh_set_from_text(struct parser *, struct vtab *,
	    const struct sh_word *, int);
int	 sh_cmd_word(struct parser *, const struct token *);
int	 sh_finish_cmd(struct parser *);

/* shell_classify.c: what a command runs, past its wrappers. */
void	 sh_classify(struct parser *, struct sh_cmd *, struct own *);

#endif
