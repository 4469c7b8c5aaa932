/*
 * shell.c - read shell snippets the way an operator writes launch scripts.
 *
 * Two passes over a private copy of the text. The lexer cuts the text into
 * raw words, operators and redirections, skips comments and here-documents,
 * and checks that every quote and nested construct is closed. When a simple
 * command ends, its raw words are expanded (quote removal, $VAR and ${VAR}
 * from the variables of the script, field splitting of unquoted expansions)
 * and the command is classified.
 *
 * Nested constructs ("..." inside $(...) inside ${...}) are matched with an
 * explicit stack, never with recursion. The only recursion is the expansion
 * of ${VAR:-word} defaults, which is capped at SH_MAX_DEPTH.
 *
 * Environment entries are shared: variable names and values live in a pool
 * owned by the script, and commands with the same environment share one
 * array, so a script with many variables and many commands stays linear.
 */

#include "shell.h"

#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define NONE		((size_t)-1)
#define SH_MAX_DEPTH	8			/* nested ${A:-${B:-...}} */
#define SH_MAX_OUT	((size_t)64 << 20)	/* expansion bytes, plus 4 x input */
#define SH_MAX_ENV	((size_t)1 << 22)	/* env entries over all commands */

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

#define CHUNK_SIZE	((size_t)64 << 10)

struct sh_pool {
	struct chunk	 *chunks;
	struct sh_env	**env;		/* env arrays */
	size_t		  nenv, capenv;
};

struct buf {
	char		*p;
	size_t		 len, cap;
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

static void	*xmalloc(size_t);
static void	*xreallocarray(void *, size_t, size_t);
static char	*xstrndup(const char *, size_t);
static void	 grow(void **, size_t *, size_t, size_t);
static void	 buf_add(struct buf *, const char *, size_t);
static void	 seterr(struct parser *, int, int, const char *, ...)
		    __attribute__((__format__ (printf, 4, 5)));

static char	*pool_str(struct sh_pool *, const char *, size_t);
static void	 pool_free(struct sh_pool *);

static size_t	 vt_find(const struct vtab *, const char *, size_t);
static struct var *vt_set(struct vtab *, const char *, size_t);
static void	 vt_unlink(struct vtab *, size_t);
static void	 vt_free(struct vtab *);

static void	 pos_at(struct lexer *, size_t, int *, int *);
static size_t	 opener(const char *, size_t, size_t, enum ctx, bool,
		    enum ctx *);
static size_t	 skip_from(struct parser *, size_t, enum ctx, size_t, bool,
		    bool);
static int	 lex_word(struct parser *, struct token *);
static int	 lex_heredoc(struct parser *, struct token *, bool);
static void	 read_heredocs(struct lexer *);
static int	 next_token(struct parser *, struct token *);

static void	 x_span(struct parser *, struct xout *, size_t, size_t,
		    enum xmode, int);
static void	 x_free(struct xout *);
static int	 finish_cmd(struct parser *);

/* Allocation that never fails. */
static void *
xmalloc(size_t size)
{
	void	*p;

	if (size == 0)
		size = 1;
	if ((p = malloc(size)) == NULL) {
		fputs("pdwiz: out of memory\n", stderr);
		abort();
	}
	return (p);
}

static void *
xreallocarray(void *ptr, size_t n, size_t size)
{
	void	*p;

	if (n == 0 || size == 0)
		n = size = 1;
	if (SIZE_MAX / n < size || (p = realloc(ptr, n * size)) == NULL) {
		fputs("pdwiz: out of memory\n", stderr);
		abort();
	}
	return (p);
}

static char *
xstrndup(const char *s, size_t n)
{
	char	*p = xmalloc(n + 1);

	if (n != 0)
		memcpy(p, s, n);
	p[n] = '\0';
	return (p);
}

/* Make room for want elements of size sz in *pp, which holds *cap. */
static void
grow(void **pp, size_t *cap, size_t want, size_t sz)
{
	size_t	ncap;

	if (want <= *cap)
		return;
	ncap = *cap < 8 ? 8 : *cap;
	while (ncap < want) {
		if (ncap > SIZE_MAX / 2)
			ncap = want;
		else
			ncap *= 2;
	}
	*pp = xreallocarray(*pp, ncap, sz);
	*cap = ncap;
}

/* Append n bytes; the buffer is always NUL-terminated. */
static void
buf_add(struct buf *b, const char *s, size_t n)
{
	void	*p = b->p;

	grow(&p, &b->cap, b->len + n + 1, 1);
	b->p = p;
	if (n != 0)
		memcpy(b->p + b->len, s, n);
	b->len += n;
	b->p[b->len] = '\0';
}

static void
seterr(struct parser *p, int line, int col, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	if (p->failed)
		return;
	p->failed = true;
	if (p->err == NULL || p->errlen == 0)
		return;
	n = snprintf(p->err, p->errlen, "%d:%d: ", line, col);
	if (n < 0 || (size_t)n >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
}

/* n bytes from the pool. */
static char *
pool_alloc(struct sh_pool *pl, size_t n)
{
	struct chunk	*c = pl->chunks, *nc;
	size_t		 cap;

	if (c == NULL || c->cap - c->used < n) {
		cap = n > CHUNK_SIZE / 4 ? n : CHUNK_SIZE;
		nc = xmalloc(sizeof(*nc) + cap);
		nc->used = 0;
		nc->cap = cap;
		if (cap == n && c != NULL) {
			/* A big string: keep filling the current chunk. */
			nc->next = c->next;
			c->next = nc;
		} else {
			nc->next = c;
			pl->chunks = nc;
		}
		c = nc;
	}
	c->used += n;
	return (c->data + c->used - n);
}

/* Copy s into the pool; it lives until sh_script_free. */
static char *
pool_str(struct sh_pool *pl, const char *s, size_t n)
{
	char	*c = pool_alloc(pl, n + 1);

	if (n != 0)
		memcpy(c, s, n);
	c[n] = '\0';
	return (c);
}

static struct sh_env *
pool_env(struct sh_pool *pl, size_t n)
{
	struct sh_env	*e;
	void		*pp = pl->env;

	e = xreallocarray(NULL, n, sizeof(*e));
	grow(&pp, &pl->capenv, pl->nenv + 1, sizeof(*pl->env));
	pl->env = pp;
	pl->env[pl->nenv++] = e;
	return (e);
}

static void
pool_free(struct sh_pool *pl)
{
	struct chunk	*c, *next;
	size_t		 i;

	if (pl == NULL)
		return;
	for (c = pl->chunks; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	for (i = 0; i < pl->nenv; i++)
		free(pl->env[i]);
	free(pl->env);
	free(pl);
}

/*
 * Variable tables.
 */

static size_t
vt_hash(const char *s, size_t n)
{
	size_t	h = 14695981039346656037ULL & SIZE_MAX;
	size_t	i;

	for (i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return (h);
}

static size_t
vt_find(const struct vtab *t, const char *name, size_t n)
{
	size_t		 h, k;
	const struct var *v;

	if (t->nslot == 0)
		return (NONE);
	h = vt_hash(name, n) & (t->nslot - 1);
	while ((k = t->slot[h]) != 0) {
		v = &t->v[k - 1];
		if (v->namelen == n && memcmp(v->name, name, n) == 0)
			return (k - 1);
		h = (h + 1) & (t->nslot - 1);
	}
	return (NONE);
}

static void
vt_rehash(struct vtab *t)
{
	size_t	i, h, ns = t->nslot == 0 ? 16 : t->nslot * 2;

	free(t->slot);
	t->slot = xreallocarray(NULL, ns, sizeof(*t->slot));
	memset(t->slot, 0, ns * sizeof(*t->slot));
	t->nslot = ns;
	for (i = 0; i < t->n; i++) {
		h = vt_hash(t->v[i].name, t->v[i].namelen) & (ns - 1);
		while (t->slot[h] != 0)
			h = (h + 1) & (ns - 1);
		t->slot[h] = i + 1;
	}
}

static void
vt_unlink(struct vtab *t, size_t i)
{
	struct var	*v = &t->v[i];

	if (!v->alive)
		return;
	if (v->prev != NONE)
		t->v[v->prev].next = v->next;
	else
		t->head = v->next;
	if (v->next != NONE)
		t->v[v->next].prev = v->prev;
	else
		t->tail = v->prev;
	v->alive = false;
	v->prev = v->next = NONE;
	t->nalive--;
	t->dirtygen = ++t->gen;
}

/*
 * Find or add name (a pool string or one that outlives the table) and move
 * it to the end of the order. The caller fills in the value.
 */
static struct var *
vt_set(struct vtab *t, const char *name, size_t n)
{
	struct var	*v;
	size_t		 i, h;
	void		*pp;

	if ((i = vt_find(t, name, n)) == NONE) {
		pp = t->v;
		grow(&pp, &t->cap, t->n + 1, sizeof(*t->v));
		t->v = pp;
		i = t->n++;
		v = &t->v[i];
		memset(v, 0, sizeof(*v));
		v->name = name;
		v->namelen = n;
		v->prev = v->next = NONE;
		if (t->n * 2 > t->nslot)
			vt_rehash(t);
		else {
			h = vt_hash(name, n) & (t->nslot - 1);
			while (t->slot[h] != 0)
				h = (h + 1) & (t->nslot - 1);
			t->slot[h] = i + 1;
		}
	} else
		vt_unlink(t, i);
	v = &t->v[i];
	v->alive = true;
	v->del = false;
	v->prev = t->tail;
	v->next = NONE;
	if (t->tail != NONE)
		t->v[t->tail].next = i;
	else
		t->head = i;
	t->tail = i;
	t->nalive++;
	t->gen++;
	return (v);
}

static void
vt_free(struct vtab *t)
{
	free(t->v);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

static void
vt_init(struct vtab *t)
{
	memset(t, 0, sizeof(*t));
	t->head = t->tail = NONE;
}

/* An alive, not deleted variable, or NULL. */
static const struct var *
vt_get(const struct vtab *t, const char *name, size_t n)
{
	size_t	i = vt_find(t, name, n);

	if (i == NONE || !t->v[i].alive || t->v[i].del)
		return (NULL);
	return (&t->v[i]);
}

/*
 * Lexer.
 */

static bool
is_name_start(int c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_');
}

static bool
is_name_char(int c)
{
	return (is_name_start(c) || (c >= '0' && c <= '9'));
}

static bool
is_meta(int c)
{
	return (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' ||
	    c == '|' || c == '(' || c == ')' || c == '<' || c == '>');
}

/* Length of NAME in NAME= or NAME+= at s, or 0. Sets *append. */
static size_t
assign_name(const char *s, size_t n, bool *append)
{
	size_t	i = 0;

	*append = false;
	if (n == 0 || !is_name_start((unsigned char)s[0]))
		return (0);
	while (i < n && is_name_char((unsigned char)s[i]))
		i++;
	if (i < n && s[i] == '=')
		return (i);
	if (i + 1 < n && s[i] == '+' && s[i + 1] == '=') {
		*append = true;
		return (i);
	}
	return (0);
}

/* Line and column (1-based, bytes) of offset off. */
static void
pos_at(struct lexer *lx, size_t off, int *line, int *col)
{
	const char	*q;

	if (off > lx->len)
		off = lx->len;
	if (off < lx->pcur) {
		lx->pcur = lx->pls = 0;
		lx->pline = 1;
	}
	while (lx->pcur < off) {
		q = memchr(lx->s + lx->pcur, '\n', off - lx->pcur);
		if (q == NULL) {
			lx->pcur = off;
			break;
		}
		lx->pline++;
		lx->pls = lx->pcur = (size_t)(q - lx->s) + 1;
	}
	*line = lx->pline;
	*col = (int)(off - lx->pls + 1);
}

/*
 * If a construct opens at s[i] in context where, return the length of the
 * opener and its type in *t, else 0.
 */
static size_t
opener(const char *s, size_t i, size_t end, enum ctx where, bool in_dq,
    enum ctx *t)
{
	char	c = s[i], n = i + 1 < end ? s[i + 1] : '\0';

	if (c == '$' && n == '(') {
		*t = C_PAREN;
		return (2);
	}
	if (c == '$' && n == '{') {
		*t = C_BRACE;
		return (2);
	}
	if (c == '`') {
		*t = C_BQ;
		return (1);
	}
	if (where == C_DQ)
		return (0);
	if (c == '"') {
		*t = C_DQ;
		return (1);
	}
	if (where == C_BRACE && in_dq)
		return (0);
	if (c == '\'') {
		*t = C_SQ;
		return (1);
	}
	if (c == '$' && n == '\'') {
		*t = C_ANSIC;
		return (2);
	}
	if (c == '$' && n == '"') {
		*t = C_DQ;
		return (2);
	}
	return (0);
}

static void
push(struct lexer *lx, enum ctx type, size_t off, bool in_dq)
{
	void	*pp = lx->stk;

	grow(&pp, &lx->capstk, lx->nstk + 1, sizeof(*lx->stk));
	lx->stk = pp;
	lx->stk[lx->nstk].type = type;
	lx->stk[lx->nstk].off = off;
	lx->stk[lx->nstk].depth = 0;
	lx->stk[lx->nstk].in_dq = in_dq;
	lx->nstk++;
}

static size_t
unterminated(struct parser *p, const struct frame *f, bool report)
{
	static const char *what[] = {
		"single quote", "double quote", "single quote", "backquote",
		"parameter expansion", "parenthesis"
	};
	const char	*s = p->lx.s;
	int		 line, col;

	if (!report)
		return (NONE);
	pos_at(&p->lx, f->off, &line, &col);
	if (f->type == C_PAREN && s[f->off] == '$')
		seterr(p, line, col, "unterminated command substitution");
	else if (f->type == C_PAREN && s[f->off] != '(')
		seterr(p, line, col, "unterminated process substitution");
	else
		seterr(p, line, col, "unterminated %s", what[f->type]);
	return (NONE);
}

/*
 * Find the end of the construct of the given type whose opener (oplen
 * bytes) is at pos. Returns the offset just past it, or NONE if it is not
 * closed (with an error if report).
 */
static size_t
skip_from(struct parser *p, size_t pos, enum ctx type, size_t oplen,
    bool in_dq, bool report)
{
	struct lexer	*lx = &p->lx;
	const char	*s = lx->s, *q;
	size_t		 end = lx->len, i, n;
	struct frame	*f;
	enum ctx	 nt;
	bool		 cdq;
	char		 c;

	lx->nstk = 0;
	push(lx, type, pos, in_dq);
	i = pos + oplen;
	while (lx->nstk > 0) {
		f = &lx->stk[lx->nstk - 1];
		if (i >= end)
			return (unterminated(p, f, report));
		c = s[i];
		switch (f->type) {
		case C_SQ:
			q = memchr(s + i, '\'', end - i);
			if (q == NULL)
				return (unterminated(p, f, report));
			i = (size_t)(q - s) + 1;
			lx->nstk--;
			continue;
		case C_ANSIC:
		case C_BQ:
			if (c == '\\')
				i += 2;
			else if (c == (f->type == C_BQ ? '`' : '\'')) {
				i++;
				lx->nstk--;
			} else
				i++;
			continue;
		case C_DQ:
			/* Fast path for long double-quoted strings. */
			while (i < end && s[i] != '"' && s[i] != '\\' &&
			    s[i] != '$' && s[i] != '`')
				i++;
			if (i >= end)
				continue;
			c = s[i];
			break;
		default:
			break;
		}
		if (c == '\\') {
			i += 2;
			continue;
		}
		if ((f->type == C_DQ && c == '"') ||
		    (f->type == C_BRACE && c == '}')) {
			i++;
			lx->nstk--;
			continue;
		}
		if (f->type == C_PAREN && c == '(') {
			f->depth++;
			i++;
			continue;
		}
		if (f->type == C_PAREN && c == ')') {
			if (f->depth-- == 0)
				lx->nstk--;
			i++;
			continue;
		}
		if ((n = opener(s, i, end, f->type, f->in_dq, &nt)) != 0) {
			cdq = f->type == C_DQ || (f->type == C_BRACE && f->in_dq);
			push(lx, nt, i, cdq);
			i += n;
			continue;
		}
		i++;
	}
	return (i);
}

/* Scan a word at lx->pos. */
static int
lex_word(struct parser *p, struct token *tok)
{
	struct lexer	*lx = &p->lx;
	const char	*s = lx->s;
	size_t		 i = lx->pos, start = lx->pos, n, nl;
	enum ctx	 t;
	bool		 app;
	int		 line, col;

	tok->type = T_WORD;
	tok->start = start;
	pos_at(lx, start, &tok->line, &tok->col);
	if ((s[i] == '<' || s[i] == '>') && i + 1 < lx->len && s[i + 1] == '(') {
		/* Process substitution <(cmd) or >(cmd). */
		if ((i = skip_from(p, i, C_PAREN, 2, false, true)) == NONE)
			return (-1);
	}
	while (i < lx->len) {
		if (is_meta((unsigned char)s[i])) {
			nl = assign_name(s + start, i - start, &app);
			if (s[i] != '(' || nl == 0 ||
			    i - start != nl + 1 + (app ? 1 : 0))
				break;
			/* NAME=(...) array assignment. */
			if ((i = skip_from(p, i, C_PAREN, 1, false, true)) ==
			    NONE)
				return (-1);
			tok->array = true;
			continue;
		}
		if (s[i] == '\\') {
			if (i + 1 >= lx->len) {
				pos_at(lx, i, &line, &col);
				seterr(p, line, col,
				    "backslash at end of input");
				return (-1);
			}
			i += 2;
			continue;
		}
		if ((n = opener(s, i, lx->len, C_PAREN, false, &t)) != 0) {
			if ((i = skip_from(p, i, t, n, false, true)) == NONE)
				return (-1);
			continue;
		}
		i++;
	}
	tok->end = i;
	tok->assign = assign_name(s + start, i - start, &app) != 0;
	pos_at(lx, i - 1, &tok->endline, &col);
	lx->pos = i;
	return (0);
}

/* Remove quotes from a here-document delimiter. */
static void
unquote_delim(const char *s, size_t n, struct buf *b)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\'' || s[i] == '"')
			continue;
		if (s[i] == '$' && i + 1 < n && (s[i + 1] == '\'' ||
		    s[i + 1] == '"'))
			continue;
		if (s[i] == '\\' && i + 1 < n)
			i++;
		buf_add(b, s + i, 1);
	}
}

/* After << or <<- at lx->pos: read the delimiter word and queue the body. */
static int
lex_heredoc(struct parser *p, struct token *tok, bool strip)
{
	struct lexer	*lx = &p->lx;
	struct token	 w;
	struct heredoc	*h;
	struct buf	 b;
	void		*pp;

	while (lx->pos < lx->len && (lx->s[lx->pos] == ' ' ||
	    lx->s[lx->pos] == '\t'))
		lx->pos++;
	if (lx->pos >= lx->len || is_meta((unsigned char)lx->s[lx->pos]))
		return (0);
	memset(&w, 0, sizeof(w));
	if (lex_word(p, &w) != 0)
		return (-1);
	tok->endline = w.endline;
	memset(&b, 0, sizeof(b));
	buf_add(&b, "", 0);
	unquote_delim(lx->s + w.start, w.end - w.start, &b);
	pp = lx->hd;
	grow(&pp, &lx->caphd, lx->nhd + 1, sizeof(*lx->hd));
	lx->hd = pp;
	h = &lx->hd[lx->nhd++];
	h->delim = b.p;
	h->len = b.len;
	h->strip = strip;
	h->line = tok->line;
	return (0);
}

/* At the start of a line: skip the bodies of the queued here-documents. */
static void
read_heredocs(struct lexer *lx)
{
	struct heredoc	*h;
	const char	*s = lx->s, *q;
	size_t		 i, ls, le;

	for (i = 0; i < lx->nhd; i++) {
		bool	closed = false;

		h = &lx->hd[i];
		while (lx->pos < lx->len) {
			ls = lx->pos;
			q = memchr(s + ls, '\n', lx->len - ls);
			le = q != NULL ? (size_t)(q - s) : lx->len;
			lx->pos = q != NULL ? le + 1 : le;
			if (h->strip) {
				while (ls < le && s[ls] == '\t')
					ls++;
			}
			if (le - ls == h->len &&
			    memcmp(s + ls, h->delim, h->len) == 0) {
				closed = true;
				break;
			}
		}
		if (!closed && lx->unclosed == 0)
			lx->unclosed = h->line;
		free(h->delim);
	}
	lx->nhd = 0;
}

/* Operators: longest first. */
static const struct {
	const char	*op;
	enum ttype	 type;
	bool		 target;
} ops[] = {
	{ ";;&", T_SEP, false },
	{ "<<<", T_REDIR, true },
	{ "<<-", T_REDIR, false },	/* here-document, strip tabs */
	{ "&>>", T_REDIR, true },
	{ ";;", T_SEP, false },
	{ ";&", T_SEP, false },
	{ "&&", T_SEP, false },
	{ "||", T_SEP, false },
	{ "|&", T_SEP, false },
	{ "<<", T_REDIR, false },	/* here-document */
	{ ">>", T_REDIR, true },
	{ ">&", T_REDIR, true },
	{ "<&", T_REDIR, true },
	{ ">|", T_REDIR, true },
	{ "<>", T_REDIR, true },
	{ "&>", T_REDIR, true },
	{ ";", T_SEP, false },
	{ "&", T_SEP, false },
	{ "|", T_SEP, false },
	{ "(", T_SEP, false },
	{ ")", T_SEP, false },
	{ "<", T_REDIR, true },
	{ ">", T_REDIR, true }
};

static int
next_token(struct parser *p, struct token *tok)
{
	struct lexer	*lx = &p->lx;
	const char	*s = lx->s, *q;
	size_t		 i, j, n;
	int		 col;

	memset(tok, 0, sizeof(*tok));
again:
	while (lx->pos < lx->len) {
		if (s[lx->pos] == ' ' || s[lx->pos] == '\t')
			lx->pos++;
		else if (s[lx->pos] == '\\' && lx->pos + 1 < lx->len &&
		    s[lx->pos + 1] == '\n')
			lx->pos += 2;
		else
			break;
	}
	i = lx->pos;
	if (i >= lx->len) {
		tok->type = T_EOF;
		pos_at(lx, i, &tok->line, &tok->col);
		tok->endline = tok->line;
		return (0);
	}
	if (s[i] == '#') {
		q = memchr(s + i, '\n', lx->len - i);
		lx->pos = q != NULL ? (size_t)(q - s) : lx->len;
		goto again;
	}
	tok->start = i;
	pos_at(lx, i, &tok->line, &tok->col);
	tok->endline = tok->line;
	if (s[i] == '\n') {
		tok->type = T_NEWLINE;
		lx->pos = i + 1;
		if (lx->nhd != 0)
			read_heredocs(lx);
		return (0);
	}

	if (strchr("0123456789;&|()<>", s[i]) == NULL)
		return (lex_word(p, tok));

	/* An fd number before a redirection: 2>&1, 10<file. */
	j = i;
	while (j < lx->len && s[j] >= '0' && s[j] <= '9')
		j++;
	if (j == i || j >= lx->len || (s[j] != '<' && s[j] != '>') ||
	    (j + 1 < lx->len && s[j + 1] == '('))
		j = i;
	if ((s[j] == '<' || s[j] == '>') && j + 1 < lx->len &&
	    s[j + 1] == '(')
		return (lex_word(p, tok));

	for (n = 0; n < sizeof(ops) / sizeof(ops[0]); n++) {
		if (ops[n].op[0] != s[j] ||
		    strncmp(s + j, ops[n].op, strlen(ops[n].op)) != 0)
			continue;
		tok->type = ops[n].type;
		tok->target = ops[n].target;
		lx->pos = j + strlen(ops[n].op);
		pos_at(lx, lx->pos - 1, &tok->endline, &col);
		if (strncmp(ops[n].op, "<<", 2) == 0 && ops[n].op[2] != '<')
			return (lex_heredoc(p, tok, ops[n].op[2] == '-'));
		return (0);
	}
	return (lex_word(p, tok));
}

/*
 * Expansion.
 */

/* Count produced bytes; past the limit, stop producing. */
static bool
x_budget(struct parser *p, size_t n)
{
	if (p->toobig || n > p->maxout - p->outbytes) {
		p->toobig = true;
		return (false);
	}
	p->outbytes += n;
	return (true);
}

static void
x_lit(struct parser *p, struct xout *x, const char *s, size_t n)
{
	x->have = true;
	if (x_budget(p, n))
		buf_add(&x->b, s, n);
}

static void
x_endfield(struct xout *x)
{
	void	*pp = x->fo;

	buf_add(&x->b, "", 1);
	grow(&pp, &x->capf, x->nf + 1, sizeof(*x->fo));
	x->fo = pp;
	x->fo[x->nf++] = x->fstart;
	x->fstart = x->b.len;
	x->have = false;
}

/* Add the result of an unquoted expansion: split at blanks and newlines. */
static void
x_split(struct parser *p, struct xout *x, const char *s, size_t n)
{
	size_t	i = 0, j;

	if (!x->split) {
		if (n != 0)
			x_lit(p, x, s, n);
		return;
	}
	while (i < n) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			if (x->have)
				x_endfield(x);
			i++;
			continue;
		}
		j = i;
		while (j < n && s[j] != ' ' && s[j] != '\t' && s[j] != '\n')
			j++;
		x_lit(p, x, s + i, j - i);
		i = j;
	}
}

/* Text that cannot be expanded stays as written. */
static void
x_raw(struct parser *p, struct xout *x, size_t i, size_t j)
{
	x_lit(p, x, p->lx.s + i, j - i);
	x->unresolved = true;
}

static void
x_value(struct parser *p, struct xout *x, const struct var *v, bool quoted)
{
	if (quoted || v->unresolved)
		x_lit(p, x, v->value, strlen(v->value));
	else
		x_split(p, x, v->value, strlen(v->value));
	if (v->unresolved)
		x->unresolved = true;
}

static const struct var *
x_lookup(struct parser *p, struct xout *x, const char *name, size_t n)
{
	size_t	i;

	if (x->own != NULL && (i = vt_find(x->own, name, n)) != NONE &&
	    x->own->v[i].alive)
		return (x->own->v[i].del ? NULL : &x->own->v[i]);
	return (vt_get(&p->tab, name, n));
}

/* End of a construct inside [.., e), or NONE. */
static size_t
x_skip(struct parser *p, size_t i, size_t e, enum ctx t, size_t oplen,
    bool in_dq)
{
	size_t	j = skip_from(p, i, t, oplen, in_dq, false);

	if (j == NONE || j > e)
		return (NONE);
	return (j);
}

static int
hexval(int c)
{
	if (c >= '0' && c <= '9')
		return (c - '0');
	if (c >= 'a' && c <= 'f')
		return (c - 'a' + 10);
	if (c >= 'A' && c <= 'F')
		return (c - 'A' + 10);
	return (-1);
}

/* Decode the inside of $'...'. Stops at a NUL, like bash. */
static void
x_ansic(struct parser *p, struct xout *x, size_t i, size_t e)
{
	static const char	 from[] = "abeEfnrtv\\'\"?";
	static const char	 to[] = "\a\b\033\033\f\n\r\t\v\\'\"?";
	const char		*s = p->lx.s, *k;
	struct buf		 b;
	int			 v, d, m;
	char			 c;

	memset(&b, 0, sizeof(b));
	buf_add(&b, "", 0);
	while (i < e) {
		if (s[i] != '\\' || i + 1 >= e) {
			buf_add(&b, s + i++, 1);
			continue;
		}
		c = s[i + 1];
		i += 2;
		if ((k = strchr(from, c)) != NULL && c != '\0') {
			buf_add(&b, &to[k - from], 1);
			continue;
		}
		if (c >= '0' && c <= '7') {
			v = c - '0';
			for (m = 1; m < 3 && i < e && s[i] >= '0' &&
			    s[i] <= '7'; m++)
				v = v * 8 + (s[i++] - '0');
		} else if (c == 'x' && i < e && hexval(s[i]) >= 0) {
			v = 0;
			for (m = 0; m < 2 && i < e &&
			    (d = hexval(s[i])) >= 0; m++, i++)
				v = v * 16 + d;
		} else if (c == 'c' && i < e) {
			v = s[i++] & 0x1f;
		} else {
			buf_add(&b, s + i - 2, 2);
			continue;
		}
		if ((v & 0xff) == 0)
			break;
		c = (char)(v & 0xff);
		buf_add(&b, &c, 1);
	}
	x_lit(p, x, b.p, b.len);
	free(b.p);
}

/* ${...} at i; returns the offset after it. */
static size_t
x_brace(struct parser *p, struct xout *x, size_t i, size_t e, bool dq,
    int depth)
{
	const char		*s = p->lx.s;
	const struct var	*v;
	size_t			 j, k, ie, ns;
	bool			 colon, set;
	char			 op;

	if ((j = x_skip(p, i, e, C_BRACE, 2, dq)) == NONE) {
		x_raw(p, x, i, e);
		return (e);
	}
	ie = j - 1;
	ns = k = i + 2;
	if (k >= ie || !is_name_start((unsigned char)s[k])) {
		x_raw(p, x, i, j);
		return (j);
	}
	while (k < ie && is_name_char((unsigned char)s[k]))
		k++;
	v = x_lookup(p, x, s + ns, k - ns);
	if (k == ie) {
		if (v != NULL)
			x_value(p, x, v, dq);
		else
			x_raw(p, x, i, j);
		return (j);
	}
	colon = s[k] == ':';
	if (colon)
		k++;
	if (k >= ie || strchr("-=+?", s[k]) == NULL) {
		x_raw(p, x, i, j);
		return (j);
	}
	op = s[k++];
	set = v != NULL && (!colon || v->value[0] != '\0');
	if (op == '?' && !set)
		x_raw(p, x, i, j);
	else if (op == '+' && set)
		x_span(p, x, k, ie, dq ? M_BDQ : M_BUNQ, depth + 1);
	else if ((op == '-' || op == '=') && !set)
		x_span(p, x, k, ie, dq ? M_BDQ : M_BUNQ, depth + 1);
	else if (op != '+')
		x_value(p, x, v, dq);
	return (j);
}

/* $ at i; returns the offset after the expansion. */
static size_t
x_dollar(struct parser *p, struct xout *x, size_t i, size_t e, enum xmode m,
    int depth)
{
	const char		*s = p->lx.s;
	const struct var	*v;
	bool			 dq = m == M_DQ || m == M_BDQ;
	size_t			 j;
	char			 n;

	if (i + 1 >= e) {
		x_lit(p, x, "$", 1);
		return (i + 1);
	}
	n = s[i + 1];
	if (!dq && (n == '\'' || n == '"')) {
		j = x_skip(p, i, e, n == '"' ? C_DQ : C_ANSIC, 2, false);
		if (j == NONE) {
			x_raw(p, x, i, e);
			return (e);
		}
		x->have = true;
		if (n == '"')
			x_span(p, x, i + 2, j - 1, M_DQ, depth + 1);
		else
			x_ansic(p, x, i + 2, j - 1);
		return (j);
	}
	if (n == '(') {
		if ((j = x_skip(p, i, e, C_PAREN, 2, dq)) == NONE)
			j = e;
		x_raw(p, x, i, j);
		return (j);
	}
	if (n == '{')
		return (x_brace(p, x, i, e, dq, depth));
	if (is_name_start((unsigned char)n)) {
		for (j = i + 1; j < e && is_name_char((unsigned char)s[j]); j++)
			;
		if ((v = x_lookup(p, x, s + i + 1, j - i - 1)) != NULL)
			x_value(p, x, v, dq);
		else
			x_raw(p, x, i, j);
		return (j);
	}
	if ((n >= '0' && n <= '9') || strchr("@*#?-$!", n) != NULL) {
		x_raw(p, x, i, i + 2);
		return (i + 2);
	}
	x_lit(p, x, "$", 1);
	return (i + 1);
}

/* Backslash at i; returns the offset after the escape. */
static size_t
x_backslash(struct parser *p, struct xout *x, size_t i, size_t e, bool dq)
{
	const char	*s = p->lx.s;

	if (i + 1 >= e) {
		x_lit(p, x, "\\", 1);
		return (e);
	}
	if (s[i + 1] == '\n')
		return (i + 2);
	if (!dq || strchr("$`\"\\", s[i + 1]) != NULL) {
		x_lit(p, x, s + i + 1, 1);
		return (i + 2);
	}
	x_lit(p, x, "\\", 1);
	return (i + 1);
}

/* Expand s[i..e) in mode m. */
static void
x_span(struct parser *p, struct xout *x, size_t i, size_t e, enum xmode m,
    int depth)
{
	const char	*s = p->lx.s, *q;
	bool		 dq = m == M_DQ || m == M_BDQ;
	size_t		 j;
	char		 c;

	if (depth > SH_MAX_DEPTH) {
		x_raw(p, x, i, e);
		return;
	}
	while (i < e && !p->toobig) {
		c = s[i];
		if (c == '\\') {
			i = x_backslash(p, x, i, e, dq);
		} else if (c == '$') {
			i = x_dollar(p, x, i, e, m, depth);
		} else if (c == '`') {
			if ((j = x_skip(p, i, e, C_BQ, 1, dq)) == NONE)
				j = e;
			x_raw(p, x, i, j);
			i = j;
		} else if (!dq && c == '\'') {
			q = memchr(s + i + 1, '\'', e - i - 1);
			j = q != NULL ? (size_t)(q - s) : e;
			x_lit(p, x, s + i + 1, j - i - 1);
			i = q != NULL ? j + 1 : e;
		} else if (m != M_DQ && c == '"') {
			if ((j = x_skip(p, i, e, C_DQ, 1, dq)) == NONE) {
				x_raw(p, x, i, e);
				return;
			}
			x->have = true;
			x_span(p, x, i + 1, j - 1, M_DQ, depth + 1);
			i = j;
		} else {
			for (j = i + 1; j < e && s[j] != '\\' && s[j] != '$' &&
			    s[j] != '`' && s[j] != '\'' && s[j] != '"'; j++)
				;
			if (m == M_BUNQ)
				x_split(p, x, s + i, j - i);
			else
				x_lit(p, x, s + i, j - i);
			i = j;
		}
	}
}

static void
x_free(struct xout *x)
{
	free(x->b.p);
	free(x->fo);
	memset(x, 0, sizeof(*x));
}

static void
x_reset(struct xout *x, bool split, const struct vtab *own)
{
	x->b.len = 0;
	x->nf = 0;
	x->fstart = 0;
	x->have = false;
	x->split = split;
	x->unresolved = false;
	x->own = own;
}

/* Expand s[i..e) without field splitting; the result is in p->x.b. */
static void
x_string(struct parser *p, const struct vtab *own, size_t i, size_t e,
    bool array)
{
	x_reset(&p->x, false, own);
	if (array)
		x_raw(p, &p->x, i, e);
	else
		x_span(p, &p->x, i, e, M_UNQ, 0);
	buf_add(&p->x.b, "", 0);
}

/*
 * Commands.
 */

/*
 * Set a variable in t (the script's or a command's own) to a copy of value.
 * With append (NAME+=), the old value comes from t, else from the script.
 * exported is 1 or 0, or -1 to keep the flag.
 */
static void
set_var(struct parser *p, struct vtab *t, const char *name, size_t nlen,
    const char *value, size_t vlen, bool unres, bool append, int line,
    int col, int exported)
{
	const struct var	*o = NULL;
	struct var		*v;
	char			*nv;
	size_t			 i, olen = 0;

	if (append && (o = vt_get(t, name, nlen)) == NULL && t != &p->tab)
		o = vt_get(&p->tab, name, nlen);
	if (o != NULL && x_budget(p, (olen = strlen(o->value)))) {
		nv = pool_alloc(p->pool, olen + vlen + 1);
		memcpy(nv, o->value, olen);
		memcpy(nv + olen, value, vlen);
		nv[olen + vlen] = '\0';
		unres = unres || o->unresolved;
	} else
		nv = pool_str(p->pool, value, vlen);
	if ((i = vt_find(t, name, nlen)) == NONE)
		name = pool_str(p->pool, name, nlen);
	else
		name = t->v[i].name;
	v = vt_set(t, name, nlen);
	v->value = nv;
	v->line = line;
	v->col = col;
	v->unresolved = unres;
	if (exported >= 0)
		v->exported = exported;
}

/* Apply NAME=value text (a word after export/env). */
static bool
set_from_text(struct parser *p, struct vtab *t, const struct sh_word *w,
    int exported)
{
	const char	*eq;
	size_t		 nl;
	bool		 app;

	if ((nl = assign_name(w->text, strlen(w->text), &app)) == 0)
		return (false);
	eq = w->text + nl + (app ? 2 : 1);
	set_var(p, t, w->text, nl, eq, strlen(eq), w->unresolved, app,
	    w->line, w->col, exported);
	return (true);
}

static bool
is_decl(const char *w)
{
	return (strcmp(w, "export") == 0 || strcmp(w, "readonly") == 0 ||
	    strcmp(w, "declare") == 0 || strcmp(w, "typeset") == 0 ||
	    strcmp(w, "local") == 0);
}

/* export, readonly, declare, typeset, local and unset. */
static void
run_builtin(struct parser *p, struct sh_cmd *c)
{
	const char	*w0 = c->words[0].text, *w;
	struct vtab	*t = &p->tab;
	size_t		 i, k;
	int		 exported = strcmp(w0, "export") == 0 ? 1 : -1;
	bool		 opts = true;

	if (strcmp(w0, "unset") == 0) {
		for (i = 1; i < c->nwords; i++) {
			w = c->words[i].text;
			if (opts && w[0] == '-') {
				if (strchr(w, 'f') != NULL)
					return;
				opts = strcmp(w, "--") != 0;
				continue;
			}
			opts = false;
			if ((k = vt_find(t, w, strlen(w))) != NONE)
				vt_unlink(t, k);
		}
		return;
	}
	if (!is_decl(w0))
		return;
	for (i = 1; i < c->nwords; i++) {
		w = c->words[i].text;
		if (opts && (w[0] == '-' || w[0] == '+') && w[1] != '\0') {
			if (strcmp(w, "--") == 0)
				opts = false;
			else if (w[0] == '-' && strchr(w, 'x') != NULL)
				exported = 1;
			else if (w[0] == '-' && strchr(w, 'n') != NULL &&
			    exported == 1)
				return;	/* export -n */
			else if (strchr(w, 'f') != NULL ||
			    strchr(w, 'p') != NULL)
				return;
			continue;
		}
		opts = false;
		if (set_from_text(p, t, &c->words[i], exported))
			continue;
		k = vt_find(t, w, strlen(w));
		if (exported == 1 && k != NONE && t->v[k].alive &&
		    !t->v[k].exported) {
			t->v[k].exported = true;
			t->dirtygen = ++t->gen;
		}
	}
}

/*
 * Wrappers that run the rest of the line as a command: their options, and
 * how many operands come before the command.
 */
struct wrapper {
	const char	*name;
	const char	*shortarg;	/* short options with an argument */
	const char	*longarg;	/* ",long,options,with,argument," */
	int		 operands;
	bool		 keyword;	/* matched as written, not by basename */
};

static const struct wrapper wrappers[] = {
	{ "nohup", "", ",", 0, false },
	{ "exec", "a", ",", 0, false },
	{ "time", "", ",", 0, false },
	{ "command", "", ",", 0, false },
	{ "nice", "n", ",adjustment,", 0, false },
	{ "setsid", "", ",", 0, false },
	{ "stdbuf", "ioe", ",input,output,error,", 0, false },
	{ "timeout", "sk", ",signal,kill-after,", 1, false },
	{ "taskset", "", ",", 1, false },
	{ "numactl", "CimNpPw", ",", 0, false },
	{ "!", "", ",", 0, true },
	{ "{", "", ",", 0, true },
	{ "then", "", ",", 0, true },
	{ "do", "", ",", 0, true },
	{ "else", "", ",", 0, true },
	{ "elif", "", ",", 0, true },
	{ "if", "", ",", 0, true },
	{ "while", "", ",", 0, true },
	{ "until", "", ",", 0, true },
	{ NULL, NULL, NULL, 0, false }
};

/* Options of `uv run` and `conda run` that take an argument. */
static const char uv_long[] = ",with,with-editable,with-requirements,python,"
    "project,directory,env-file,extra,group,only-group,no-group,index,"
    "default-index,index-url,extra-index-url,find-links,index-strategy,"
    "keyring-provider,resolution,prerelease,exclude-newer,link-mode,"
    "config-setting,package,cache-dir,config-file,color,refresh-package,"
    "upgrade-package,reinstall-package,no-binary-package,no-build-package,"
    "python-platform,no-extra,fork-strategy,exclude-newer-package,"
    "build-constraints,overrides,constraints,allow-insecure-host,"
    "name,prefix,cwd,";

static const char *
base(const char *w)
{
	const char	*sl = strrchr(w, '/');

	return (sl != NULL ? sl + 1 : w);
}

static bool
long_takes_arg(const char *list, const char *opt)
{
	size_t		 n = strlen(opt);
	const char	*q;

	if (n == 0)
		return (false);
	for (q = list; (q = strstr(q, opt)) != NULL; q++) {
		if (q > list && q[-1] == ',' && q[n] == ',')
			return (true);
	}
	return (false);
}

/*
 * Skip the options at words[i]; returns the index of the first operand.
 * A short option in shortarg ends its cluster and takes the rest or the
 * next word. If mod is not NULL, -m/--module MOD is returned in *mod.
 */
static size_t
skip_opts(const struct sh_cmd *c, size_t i, const char *shortarg,
    const char *longarg, const char **mod)
{
	const char	*w, *eq;
	char		 name[64];
	size_t		 k, n;

	for (; i < c->nwords; i++) {
		w = c->words[i].text;
		if (strcmp(w, "--") == 0)
			return (i + 1);
		if (w[0] != '-' || w[1] == '\0')
			return (i);
		if (w[1] == '-') {
			eq = strchr(w, '=');
			n = eq != NULL ? (size_t)(eq - w - 2) : strlen(w + 2);
			if (n >= sizeof(name))
				continue;
			memcpy(name, w + 2, n);
			name[n] = '\0';
			if (mod != NULL && strcmp(name, "module") == 0) {
				*mod = eq != NULL ? eq + 1 : (i + 1 <
				    c->nwords ? c->words[i + 1].text : "");
				return (eq != NULL ? i + 1 : i + 2);
			}
			if (eq == NULL && long_takes_arg(longarg, name))
				i++;
			continue;
		}
		for (k = 1; w[k] != '\0'; k++) {
			if (mod != NULL && w[k] == 'c') {
				*mod = "";	/* python -c: not a module */
				return (i);
			}
			if (mod != NULL && w[k] == 'm') {
				*mod = w[k + 1] != '\0' ? w + k + 1 :
				    (i + 1 < c->nwords ?
				    c->words[i + 1].text : "");
				return (w[k + 1] != '\0' ? i + 1 : i + 2);
			}
			if (strchr(shortarg, w[k]) != NULL) {
				if (w[k + 1] == '\0')
					i++;
				break;
			}
		}
	}
	return (i);
}

/* `env [options] [NAME=value]... cmd`: collect its environment. */
static size_t
skip_env(struct parser *p, const struct sh_cmd *c, size_t i, struct own *o)
{
	const char	*w, *u;
	size_t		 k;
	struct var	*v;

	for (i++; i < c->nwords; i++) {
		w = c->words[i].text;
		u = NULL;
		if (strcmp(w, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(w, "-") == 0 || strcmp(w, "-i") == 0 ||
		    strcmp(w, "--ignore-environment") == 0) {
			o->clear = true;
			while (o->t.head != NONE)
				vt_unlink(&o->t, o->t.head);
		} else if (strcmp(w, "-u") == 0 || strcmp(w, "--unset") == 0)
			u = ++i < c->nwords ? c->words[i].text : NULL;
		else if (strncmp(w, "--unset=", 8) == 0)
			u = w + 8;
		else if (strncmp(w, "-u", 2) == 0)
			u = w + 2;
		else if (strcmp(w, "-C") == 0 || strcmp(w, "--chdir") == 0)
			i++;
		else if (strcmp(w, "-S") == 0 || strncmp(w, "--split", 7) == 0)
			return (NONE);
		else if (w[0] != '-')
			break;
		if (u != NULL && *u != '\0') {
			k = strlen(u);
			v = vt_set(&o->t, pool_str(p->pool, u, k), k);
			v->value = "";
			v->del = true;
		}
	}
	for (; i < c->nwords; i++) {
		if (!set_from_text(p, &o->t, &c->words[i], 1))
			break;
	}
	return (i);
}

static bool
is_python(const char *b)
{
	if (strncmp(b, "python", 6) != 0)
		return (false);
	for (b += 6; *b >= '0' && *b <= '9'; b++)
		;
	while (*b == '.' || (*b >= '0' && *b <= '9'))
		b++;
	if (*b == 't' || *b == 'm')
		b++;
	return (*b == '\0');
}

static enum sh_kind
module_kind(const char *m)
{
	if (strcmp(m, "sglang.launch_server") == 0)
		return (SH_SERVER);
	if (strcmp(m, "sglang_router.launch_router") == 0)
		return (SH_ROUTER);
	return (SH_OTHER);
}

/* Set kind and argstart; env wrappers add to o. */
static void
classify(struct parser *p, struct sh_cmd *c, struct own *o)
{
	const struct wrapper	*wr;
	const char		*w, *b, *mod = NULL;
	size_t			 i = 0, n = c->nwords;

	c->kind = SH_OTHER;
	c->argstart = 0;
	while (i < n) {
		w = c->words[i].text;
		b = base(w);
		mod = NULL;
		for (wr = wrappers; wr->name != NULL; wr++) {
			if (wr->name[0] == (wr->keyword ? w : b)[0] &&
			    strcmp(wr->name, wr->keyword ? w : b) == 0)
				break;
		}
		if (wr->name != NULL && wr->keyword) {
			i++;
			continue;
		}
		if (wr->name != NULL) {
			i = skip_opts(c, i + 1, wr->shortarg, wr->longarg,
			    NULL) + wr->operands;
			continue;
		}
		if (strcmp(b, "env") == 0) {
			if ((i = skip_env(p, c, i, o)) == NONE)
				return;
			continue;
		}
		if ((strcmp(b, "uv") == 0 || strcmp(b, "conda") == 0 ||
		    strcmp(b, "mamba") == 0 || strcmp(b, "micromamba") == 0) &&
		    i + 1 < n && strcmp(c->words[i + 1].text, "run") == 0) {
			i = skip_opts(c, i + 2, strcmp(b, "uv") == 0 ?
			    "pCfP" : "np", uv_long,
			    strcmp(b, "uv") == 0 ? &mod : NULL);
			if (mod != NULL)
				break;
			continue;
		}
		if (is_python(b)) {
			i = skip_opts(c, i + 1, "WX", ",check-hash-based-pycs,",
			    &mod);
			break;
		}
		if (strcmp(b, "sglang") == 0 && i + 1 < n &&
		    strcmp(c->words[i + 1].text, "serve") == 0) {
			c->kind = SH_SERVER;
			c->argstart = i + 2;
		} else if (strcmp(b, "sglang.launch_server") == 0) {
			c->kind = SH_SERVER;
			c->argstart = i + 1;
		} else if (strcmp(b, "sgl-router") == 0 ||
		    strcmp(b, "sglang-router") == 0 ||
		    strcmp(b, "sglang_router.launch_router") == 0) {
			c->kind = SH_ROUTER;
			c->argstart = i + 1;
		}
		return;
	}
	if (mod != NULL && (c->kind = module_kind(mod)) != SH_OTHER)
		c->argstart = i > n ? n : i;
}

/* Copy variable v into e. */
static void
env_from(struct sh_env *e, const struct var *v)
{
	e->name = (char *)v->name;
	e->value = (char *)v->value;
	e->line = v->line;
	e->col = v->col;
	e->unresolved = v->unresolved;
	e->exported = v->exported;
}

static int
env_budget(struct parser *p, const struct sh_cmd *c, size_t n)
{
	if (n > SH_MAX_ENV - p->envtotal) {
		seterr(p, c->line, c->words[0].col,
		    "too many variables for this many commands");
		return (-1);
	}
	p->envtotal += n;
	return (0);
}

/*
 * The script's variables only. Since the last snapshot, if variables were
 * only added (at the end of the order), extend it in place: commands that
 * already point at it see only their first nenv entries.
 */
static int
plain_env(struct parser *p, struct sh_cmd *c)
{
	const struct vtab	*t = &p->tab;
	struct sh_env		*e = p->snap;
	size_t			 i, k, add, cap = p->capsnap;

	if (p->havesnap && p->snapgen == t->gen)
		goto done;
	if (!p->havesnap || t->dirtygen > p->snapgen || t->nalive < p->nsnap)
		p->nsnap = 0;
	add = t->nalive - p->nsnap;
	if (env_budget(p, c, add) != 0)
		return (-1);
	if (p->nsnap == 0 || t->nalive > cap) {
		cap = t->nalive < 8 ? 8 : t->nalive * 2;
		if (env_budget(p, c, p->nsnap) != 0)
			return (-1);
		e = pool_env(p->pool, cap);
		if (p->nsnap != 0)
			memcpy(e, p->snap, p->nsnap * sizeof(*e));
	}
	/* The new variables are the last add on the list. */
	for (i = t->tail, k = 1; k < add; k++)
		i = t->v[i].prev;
	for (k = p->nsnap; k < t->nalive; k++, i = t->v[i].next)
		env_from(&e[k], &t->v[i]);
	p->snap = e;
	p->capsnap = cap;
	p->nsnap = t->nalive;
	p->snapgen = t->gen;
	p->havesnap = true;
done:
	c->env = p->nsnap != 0 ? p->snap : NULL;
	c->nenv = p->nsnap;
	return (0);
}

/* The environment of a command: the script's variables, then its own. */
static int
build_env(struct parser *p, struct sh_cmd *c, const struct own *o)
{
	const struct vtab	*t = &p->tab;
	const struct var	*v;
	struct sh_env		*e;
	size_t			 i, k, n, cnt;

	if (o->t.head == NONE && !o->clear)
		return (plain_env(p, c));
	cnt = (o->clear ? 0 : t->nalive) + o->t.nalive;
	if (env_budget(p, c, cnt) != 0)
		return (-1);
	e = cnt != 0 ? pool_env(p->pool, cnt) : NULL;
	n = 0;
	for (i = o->clear ? NONE : t->head; i != NONE; i = t->v[i].next) {
		v = &t->v[i];
		k = vt_find(&o->t, v->name, v->namelen);
		if (k == NONE || !o->t.v[k].alive)
			env_from(&e[n++], v);
	}
	for (i = o->t.head; i != NONE; i = o->t.v[i].next) {
		if (!o->t.v[i].del)
			env_from(&e[n++], &o->t.v[i]);
	}
	c->env = n != 0 ? e : NULL;
	c->nenv = n;
	return (0);
}

/* Apply prefix assignments of a command without words to the script. */
static void
apply_own(struct parser *p, struct own *o)
{
	struct var	*v, *src;
	size_t		 i, k;

	for (i = o->t.head; i != NONE; i = o->t.v[i].next) {
		src = &o->t.v[i];
		k = vt_find(&p->tab, src->name, src->namelen);
		v = vt_set(&p->tab, src->name, src->namelen);
		if (k == NONE)
			v->exported = false;
		v->value = src->value;
		v->line = src->line;
		v->col = src->col;
		v->unresolved = src->unresolved;
	}
}

/* A VAR=value prefix: it sees the prefixes before it. */
static void
add_prefix(struct parser *p, const struct token *tok)
{
	const char	*s = p->lx.s + tok->start;
	size_t		 nl;
	bool		 app;

	nl = assign_name(s, tok->end - tok->start, &app);
	x_string(p, &p->own.t, tok->start + nl + (app ? 2 : 1), tok->end,
	    tok->array);
	set_var(p, &p->own.t, s, nl, p->x.b.p, p->x.b.len, p->x.unresolved,
	    app, tok->line, tok->col, 1);
}

/* Expand a word into fields of the current command. */
static void
add_word(struct parser *p, const struct token *tok)
{
	struct sh_cmd	*c = &p->cur;
	struct xout	*x = &p->x;
	bool		 split = !(p->decl && tok->assign);
	size_t		 i;
	void		*pp = c->words;

	x_reset(x, split, NULL);
	if (tok->array || p->lx.s[tok->start] == '<' ||
	    p->lx.s[tok->start] == '>')
		x_raw(p, x, tok->start, tok->end);
	else
		x_span(p, x, tok->start, tok->end, M_UNQ, 0);
	if (x->have || !split)
		x_endfield(x);
	grow(&pp, &p->curcap, c->nwords + x->nf, sizeof(*c->words));
	c->words = pp;
	for (i = 0; i < x->nf; i++) {
		c->words[c->nwords].text = pool_str(p->pool, x->b.p + x->fo[i],
		    strlen(x->b.p + x->fo[i]));
		c->words[c->nwords].line = tok->line;
		c->words[c->nwords].col = tok->col;
		c->words[c->nwords].unresolved = x->unresolved;
		c->nwords++;
	}
}

/* A word of the command being read. */
static int
cmd_word(struct parser *p, const struct token *tok)
{
	size_t	had = p->cur.nwords;

	if (!p->started) {
		p->started = true;
		p->cur.line = tok->line;
	}
	if (!p->inwords && tok->assign)
		add_prefix(p, tok);
	else {
		p->inwords = true;
		add_word(p, tok);
		if (had == 0 && p->cur.nwords > 0)
			p->decl = is_decl(p->cur.words[0].text);
	}
	if (p->toobig) {
		seterr(p, tok->line, tok->col, "expansion too large");
		return (-1);
	}
	return (0);
}

static void
cmd_reset(struct parser *p)
{
	memset(&p->cur, 0, sizeof(p->cur));
	p->curcap = 0;
	vt_free(&p->own.t);
	vt_init(&p->own.t);
	p->own.clear = false;
	p->started = p->inwords = p->decl = false;
}

/* The command being read is complete. */
static int
finish_cmd(struct parser *p)
{
	struct sh_cmd	*c = &p->cur;
	void		*pp;

	if (!p->started)
		return (0);
	c->endline = p->endline;
	if (c->nwords == 0) {
		apply_own(p, &p->own);
		free(c->words);
		cmd_reset(p);
		return (0);
	}
	if (p->curcap > c->nwords) {
		c->words = xreallocarray(c->words, c->nwords,
		    sizeof(*c->words));
	}
	run_builtin(p, c);
	classify(p, c, &p->own);
	if (p->toobig) {
		seterr(p, c->line, c->words[0].col, "expansion too large");
		return (-1);
	}
	if (build_env(p, c, &p->own) != 0)
		return (-1);
	pp = p->cmds;
	grow(&pp, &p->capcmds, p->ncmds + 1, sizeof(*p->cmds));
	p->cmds = pp;
	p->cmds[p->ncmds++] = *c;
	cmd_reset(p);
	return (0);
}

/* Private copy: CRLF becomes LF; NUL bytes are an error. */
static char *
copy_input(struct parser *p, const char *text, size_t len, size_t *outlen)
{
	char	*b;
	size_t	 i, o = 0, ls = 0;
	int	 line = 1;

	if (len > (size_t)INT_MAX) {
		seterr(p, 1, 1, "input too large");
		return (NULL);
	}
	b = xmalloc(len + 1);
	for (i = 0; i < len; i++) {
		if (text[i] == '\0') {
			seterr(p, line, (int)(i - ls + 1), "NUL byte in input");
			free(b);
			return (NULL);
		}
		if (text[i] == '\r' && (i + 1 == len || text[i + 1] == '\n'))
			continue;
		if (text[i] == '\n') {
			line++;
			ls = i + 1;
		}
		b[o++] = text[i];
	}
	b[o] = '\0';
	*outlen = o;
	return (b);
}

static void
parser_free(struct parser *p)
{
	size_t	i;

	for (i = 0; i < p->lx.nhd; i++)
		free(p->lx.hd[i].delim);
	free(p->lx.hd);
	free(p->lx.stk);
	free((char *)p->lx.s);
	free(p->cur.words);
	vt_free(&p->own.t);
	x_free(&p->x);
	vt_free(&p->tab);
}

static int
parse_loop(struct parser *p)
{
	struct token	 tok;

	for (;;) {
		if (next_token(p, &tok) != 0)
			return (-1);
		if (tok.type == T_WORD || tok.type == T_REDIR)
			p->endline = tok.endline;
		if (tok.type == T_WORD && p->intarget) {
			p->intarget = false;
			continue;
		}
		if (tok.type == T_WORD) {
			if (cmd_word(p, &tok) != 0)
				return (-1);
			continue;
		}
		if (tok.type == T_REDIR) {
			p->intarget = tok.target;
			continue;
		}
		p->intarget = false;
		if (finish_cmd(p) != 0)
			return (-1);
		if (tok.type == T_EOF)
			return (0);
	}
}

int
sh_parse(const char *text, size_t len, struct sh_script *out, char *err,
    size_t errlen)
{
	struct parser	 p;
	struct sh_script tmp;
	size_t		 n = 0;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	if (err != NULL && errlen != 0)
		err[0] = '\0';
	p.err = err;
	p.errlen = errlen;
	vt_init(&p.tab);
	vt_init(&p.own.t);
	if (text == NULL)
		len = 0;
	if ((p.lx.s = copy_input(&p, text != NULL ? text : "", len, &n)) ==
	    NULL)
		return (-1);
	p.lx.len = n;
	p.maxout = SH_MAX_OUT + 4 * n;
	p.lx.pline = 1;
	p.pool = xmalloc(sizeof(*p.pool));
	memset(p.pool, 0, sizeof(*p.pool));

	if (parse_loop(&p) != 0) {
		tmp.cmds = p.cmds;
		tmp.ncmds = p.ncmds;
		tmp.pool = p.pool;
		sh_script_free(&tmp);
		parser_free(&p);
		return (-1);
	}
	out->cmds = p.cmds;
	out->ncmds = p.ncmds;
	out->pool = p.pool;
	out->unclosed_heredoc = p.lx.unclosed;
	parser_free(&p);
	return (0);
}

void
sh_script_free(struct sh_script *s)
{
	size_t	i;

	if (s == NULL)
		return;
	for (i = 0; i < s->ncmds; i++)
		free(s->cmds[i].words);
	free(s->cmds);
	pool_free(s->pool);
	memset(s, 0, sizeof(*s));
}

static bool
is_plain(const char *s)
{
	if (*s == '\0')
		return (false);
	for (; *s != '\0'; s++) {
		if (!is_name_char((unsigned char)*s) &&
		    strchr("@%+=:,./-", *s) == NULL)
			return (false);
	}
	return (true);
}

char *
sh_quote(const char *s)
{
	size_t	 n = 2, i;
	char	*r, *o;

	if (is_plain(s))
		return (xstrndup(s, strlen(s)));
	for (i = 0; s[i] != '\0'; i++)
		n += s[i] == '\'' ? 4 : 1;
	r = o = xmalloc(n + 1);
	*o++ = '\'';
	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else
			*o++ = s[i];
	}
	*o++ = '\'';
	*o = '\0';
	return (r);
}
