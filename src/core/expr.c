/* expr.c - parse and evaluate rule expressions (three-valued, Python-like). */
#define _POSIX_C_SOURCE 200809L
#include "expr.h"
#include "config.h"
#include "expr_int.h"
#include "role.h"
#include "util.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <math.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define EXPR_MAX_DEPTH	64

static const struct {
	const char	*name;
	int		 nargs;
} fns[] = {
	{ "lower", 1 }, { "upper", 1 }, { "contains", 2 },
	{ "startswith", 2 }, { "endswith", 2 }, { "min", 2 }, { "max", 2 },
	{ "int", 1 }, { "str", 1 }, { "len", 1 }, { "is_set", 1 },
	{ "strip", 1 }, { "json_get", 2 }, { "json_str_object", 1 },
	{ "list_max", 1 }, { "nparts", 2 }, { "sglang_at_most", 1 },
};

int
expr_fn_nargs(int fn)
{
	if (fn < 0 || (size_t)fn >= sizeof fns / sizeof fns[0])
		return -1;
	return fns[fn].nargs;
}

/* ---- lexer ---- */

enum tok { T_EOF, T_NUM, T_STRLIT, T_IDENT, T_OP, T_LP, T_RP, T_LB, T_RB,
	T_COMMA, T_STOP, T_ERR };	/* T_STOP: '}' or '!' ending a placeholder */

struct lexer {
	const char	*s;
	size_t		 pos, tpos;	/* current position, start of token */
	enum tok	 t;
	char		 text[256];	/* identifier / operator / string */
	struct value	 num;
	char		*err;
	size_t		 errlen;
	size_t		 erroff;
	bool		 failed;
	expr_resolve_fn	 resolve;
	void		*rctx;
	int		 depth;
};

static void
lex_fail(struct lexer *l, size_t off, const char *fmt, const char *arg)
{
	if (l->failed)
		return;
	l->failed = true;
	l->erroff = off;
	snprintf(l->err, l->errlen, fmt, arg);
}

/* A number at p: digits, '.', exponent, '_' separators as Python has. */
static void
lex_number(struct lexer *l, size_t p)
{
	const char	*s = l->s;
	size_t		 q = p, i, n = 0;
	bool		 isf = false;
	char		 buf[64], *end;

	while (isdigit((unsigned char)s[q]) || s[q] == '.' || s[q] == 'e' ||
	    s[q] == 'E' || s[q] == '_' || ((s[q] == '+' || s[q] == '-') &&
	    q > p && (s[q - 1] == 'e' || s[q - 1] == 'E'))) {
		if (s[q] == '.' || s[q] == 'e' || s[q] == 'E')
			isf = true;
		q++;
	}
	if (q - p >= sizeof buf) {
		lex_fail(l, p, "number too long%s", "");
		l->t = T_ERR;
		return;
	}
	for (i = p; i < q; i++)
		if (s[i] != '_')
			buf[n++] = s[i];
	buf[n] = '\0';
	errno = 0;
	if (isf)
		l->num = val_float(strtod(buf, &end));
	else
		l->num = val_int(strtoll(buf, &end, 10));
	if (*end != '\0' || errno != 0) {
		lex_fail(l, p, "bad number '%s'", buf);
		l->t = T_ERR;
		return;
	}
	l->t = T_NUM;
	l->pos = q;
}

/* A quoted string at p ('...' or "..."; a backslash keeps the next byte). */
static void
lex_string(struct lexer *l, size_t p)
{
	const char	*s = l->s;
	char		 q = s[p];
	size_t		 n = 0, i = p + 1;

	while (s[i] != q) {
		if (s[i] == '\0') {
			lex_fail(l, p, "unterminated string%s", "");
			l->t = T_ERR;
			return;
		}
		if (s[i] == '\\' && s[i + 1] != '\0')
			i++;
		if (n + 1 >= sizeof l->text) {
			lex_fail(l, p, "string literal too long%s", "");
			l->t = T_ERR;
			return;
		}
		l->text[n++] = s[i++];
	}
	l->text[n] = '\0';
	l->t = T_STRLIT;
	l->pos = i + 1;
}

/* A name at p: letters, digits, '_', and dots between parts. */
static void
lex_ident(struct lexer *l, size_t p)
{
	const char	*s = l->s;
	size_t		 q = p, n;

	while (isalnum((unsigned char)s[q]) || s[q] == '_' || (s[q] == '.' &&
	    (isalpha((unsigned char)s[q + 1]) || s[q + 1] == '_')))
		q++;
	n = q - p;
	if (n >= sizeof l->text) {
		lex_fail(l, p, "name too long%s", "");
		l->t = T_ERR;
		return;
	}
	memcpy(l->text, s + p, n);
	l->text[n] = '\0';
	l->t = T_IDENT;
	l->pos = q;
}

/* A comparison at p: ==, !=, <, <=, >, >=. */
static void
lex_compare(struct lexer *l, size_t p)
{
	const char	*s = l->s;

	l->t = T_OP;
	l->text[0] = s[p];
	l->text[1] = '\0';
	if (s[p + 1] == '=') {
		l->text[1] = '=';
		l->text[2] = '\0';
		l->pos++;
	} else if (s[p] == '=' || s[p] == '!') {
		lex_fail(l, p, "expected '==' or '!='%s", "");
		l->t = T_ERR;
	}
}

/* Punctuation and operators at p. */
static void
lex_punct(struct lexer *l, size_t p)
{
	const char	*s = l->s;
	static const char	 single[] = "()[],}";
	static const enum tok	 stok[] = { T_LP, T_RP, T_LB, T_RB, T_COMMA,
	    T_STOP };
	const char		*at = strchr(single, s[p]);

	l->pos = p + 1;
	if (at != NULL && *at != '\0') {
		l->t = stok[at - single];
		return;
	}
	switch (s[p]) {
	case '!':
		if (s[p + 1] != '=') {
			l->t = T_STOP;
			return;
		}
		/* FALLTHROUGH */
	case '=':
	case '<':
	case '>':
		lex_compare(l, p);
		return;
	case '/':
		l->t = T_OP;
		strcpy(l->text, s[p + 1] == '/' ? "//" : "/");
		if (s[p + 1] == '/')
			l->pos++;
		return;
	case '+':
	case '-':
	case '*':
	case '%':
		l->t = T_OP;
		l->text[0] = s[p];
		l->text[1] = '\0';
		return;
	default: {
		char	c[2] = { s[p], '\0' };

		lex_fail(l, p, "unexpected character '%s'", c);
		l->t = T_ERR;
		return;
	}
	}
}

static void
lex_next(struct lexer *l)
{
	const char	*s = l->s;
	size_t		 p = l->pos;

	while (s[p] == ' ' || s[p] == '\t' || s[p] == '\n' || s[p] == '\r')
		p++;
	l->tpos = p;
	l->text[0] = '\0';
	if (s[p] == '\0') {
		l->t = T_EOF;
		l->pos = p;
	} else if (isdigit((unsigned char)s[p]) ||
	    (s[p] == '.' && isdigit((unsigned char)s[p + 1])))
		lex_number(l, p);
	else if (s[p] == '\'' || s[p] == '"')
		lex_string(l, p);
	else if (isalpha((unsigned char)s[p]) || s[p] == '_')
		lex_ident(l, p);
	else
		lex_punct(l, p);
}

/* ---- parser ---- */

static struct expr *
node(enum ekind k, int op)
{
	struct expr	*e = xcalloc(1, sizeof *e);

	e->k = k;
	e->op = op;
	e->slot = -1;
	return e;
}

static void
kid(struct expr *e, struct expr *k)
{
	e->kids = xreallocarray(e->kids, e->nkids + 1, sizeof *e->kids);
	e->kids[e->nkids++] = k;
}

static struct expr	*p_or(struct lexer *);

static bool
is_word(struct lexer *l, const char *w)
{
	return l->t == T_IDENT && strcmp(l->text, w) == 0;
}

/* Items up to closer (']' or ')'), comma-separated, as kids of e. */
static int
p_items(struct lexer *l, struct expr *e, enum tok closer, const char *want)
{
	while (l->t != closer) {
		struct expr	*item = p_or(l);

		if (l->failed) {
			expr_free(item);
			return -1;
		}
		kid(e, item);
		if (l->t == T_COMMA)
			lex_next(l);
		else if (l->t != closer) {
			lex_fail(l, l->tpos, "expected %s", want);
			return -1;
		}
	}
	lex_next(l);
	return 0;
}

static struct expr *
lit(struct lexer *l, struct value v)
{
	struct expr	*e = node(E_LIT, 0);

	e->v = v;
	lex_next(l);
	return e;
}

/* name(args...), the '(' current; npos where the name started. */
static struct expr *
p_call(struct lexer *l, const char *name, size_t npos)
{
	struct expr	*e;
	size_t		 i;

	for (i = 0; i < sizeof fns / sizeof fns[0]; i++)
		if (strcmp(fns[i].name, name) == 0)
			break;
	if (i == sizeof fns / sizeof fns[0]) {
		lex_fail(l, npos, "unknown function '%s'", name);
		return NULL;
	}
	e = node(E_CALL, (int)i);
	lex_next(l);
	if (p_items(l, e, T_RP, "',' or ')'") != 0) {
		expr_free(e);
		return NULL;
	}
	if ((int)e->nkids != fns[i].nargs) {
		lex_fail(l, npos, "wrong number of arguments to %s()", name);
		expr_free(e);
		return NULL;
	}
	if (i == FN_IS_SET && e->kids[0]->k != E_NAME) {
		lex_fail(l, npos, "is_set() takes an option name%s", "");
		expr_free(e);
		return NULL;
	}
	if (i == FN_SGLANG_AT_MOST && (e->kids[0]->k != E_LIT ||
	    e->kids[0]->v.t != V_STR || sgver_parse(e->kids[0]->v.u.s, NULL,
	    0) == SGVER_UNKNOWN)) {
		lex_fail(l, npos, "sglang_at_most() takes a release number in "
		    "quotes%s", "");
		expr_free(e);
		return NULL;
	}
	return e;
}

/* A constant word, a call or an option name. */
static struct expr *
p_ident(struct lexer *l)
{
	struct expr	*e;
	char		 name[256];
	size_t		 npos = l->tpos;

	if (is_word(l, "true") || is_word(l, "True"))
		return lit(l, val_bool(true));
	if (is_word(l, "false") || is_word(l, "False"))
		return lit(l, val_bool(false));
	if (is_word(l, "null") || is_word(l, "None"))
		return lit(l, VAL_NULL);
	snprintf(name, sizeof name, "%s", l->text);
	lex_next(l);
	if (l->t == T_LP)
		return p_call(l, name, npos);
	e = node(E_NAME, 0);
	e->slot = l->resolve(l->rctx, name);
	if (e->slot < 0) {
		lex_fail(l, npos, "unknown name '%s'", name);
		expr_free(e);
		return NULL;
	}
	return e;
}

static struct expr *
p_atom(struct lexer *l)
{
	struct expr	*e;

	if (l->failed)
		return NULL;
	switch (l->t) {
	case T_NUM:
		return lit(l, l->num);
	case T_STRLIT:
		return lit(l, val_str(l->text));
	case T_LP:
		lex_next(l);
		e = p_or(l);
		if (l->failed) {
			expr_free(e);
			return NULL;
		}
		if (l->t != T_RP) {
			lex_fail(l, l->tpos, "expected ')'%s", "");
			expr_free(e);
			return NULL;
		}
		lex_next(l);
		return e;
	case T_LB:
		e = node(E_LIST, 0);
		lex_next(l);
		if (p_items(l, e, T_RB, "',' or ']'") != 0) {
			expr_free(e);
			return NULL;
		}
		return e;
	case T_IDENT:
		return p_ident(l);
	case T_EOF:
		lex_fail(l, l->tpos, "unexpected end of expression%s", "");
		return NULL;
	default: {
		char	c[2] = { l->s[l->tpos], '\0' };

		lex_fail(l, l->tpos, "unexpected '%s'", l->text[0] ? l->text :
		    c);
		return NULL;
	}
	}
}

static struct expr *
p_unary(struct lexer *l)
{
	if (l->t == T_OP && strcmp(l->text, "-") == 0) {
		struct expr	*e = node(E_NEG, 0), *a;

		lex_next(l);
		if (++l->depth > EXPR_MAX_DEPTH) {
			lex_fail(l, l->tpos, "expression nested too deeply%s", "");
			expr_free(e);
			return NULL;
		}
		a = p_unary(l);
		l->depth--;
		if (a == NULL) {
			expr_free(e);
			return NULL;
		}
		kid(e, a);
		return e;
	}
	return p_atom(l);
}

static struct expr *
binary(int kind, int op, struct expr *a, struct expr *b)
{
	struct expr	*e = node((enum ekind)kind, op);

	kid(e, a);
	kid(e, b);
	return e;
}

static struct expr *
p_prod(struct lexer *l)
{
	struct expr	*a = p_unary(l);

	while (a != NULL && !l->failed && l->t == T_OP &&
	    (strcmp(l->text, "*") == 0 || strcmp(l->text, "/") == 0 ||
	    strcmp(l->text, "//") == 0 || strcmp(l->text, "%") == 0)) {
		int		 op = l->text[0] == '*' ? OP_MUL :
		    l->text[0] == '%' ? OP_MOD :
		    l->text[1] == '/' ? OP_FDIV : OP_DIV;
		struct expr	*b;

		lex_next(l);
		if ((b = p_unary(l)) == NULL) {
			expr_free(a);
			return NULL;
		}
		a = binary(E_ARITH, op, a, b);
	}
	return a;
}

static struct expr *
p_sum(struct lexer *l)
{
	struct expr	*a = p_prod(l);

	while (a != NULL && !l->failed && l->t == T_OP &&
	    (strcmp(l->text, "+") == 0 || strcmp(l->text, "-") == 0)) {
		int		 op = l->text[0] == '+' ? OP_ADD : OP_SUB;
		struct expr	*b;

		lex_next(l);
		if ((b = p_prod(l)) == NULL) {
			expr_free(a);
			return NULL;
		}
		a = binary(E_ARITH, op, a, b);
	}
	return a;
}

static struct expr *
p_cmp(struct lexer *l)
{
	struct expr	*a = p_sum(l), *b;
	int		 kind, op = 0;

	if (a == NULL || l->failed)
		return a;
	if (l->t == T_OP && (l->text[0] == '=' || l->text[0] == '!' ||
	    l->text[0] == '<' || l->text[0] == '>')) {
		kind = E_CMP;
		if (strcmp(l->text, "==") == 0)
			op = OP_EQ;
		else if (strcmp(l->text, "!=") == 0)
			op = OP_NE;
		else if (strcmp(l->text, "<") == 0)
			op = OP_LT;
		else if (strcmp(l->text, "<=") == 0)
			op = OP_LE;
		else if (strcmp(l->text, ">") == 0)
			op = OP_GT;
		else
			op = OP_GE;
		lex_next(l);
	} else if (is_word(l, "in")) {
		kind = E_IN;
		lex_next(l);
	} else if (is_word(l, "not")) {
		lex_next(l);
		if (!is_word(l, "in")) {
			lex_fail(l, l->tpos, "expected 'in' after 'not'%s", "");
			expr_free(a);
			return NULL;
		}
		kind = E_NOTIN;
		lex_next(l);
	} else
		return a;
	if ((b = p_sum(l)) == NULL) {
		expr_free(a);
		return NULL;
	}
	return binary(kind, op, a, b);
}

static struct expr *
p_not(struct lexer *l)
{
	if (is_word(l, "not")) {
		struct expr	*e = node(E_NOT, 0), *a;

		lex_next(l);
		if (++l->depth > EXPR_MAX_DEPTH) {
			lex_fail(l, l->tpos, "expression nested too deeply%s", "");
			expr_free(e);
			return NULL;
		}
		a = p_not(l);
		l->depth--;
		if (a == NULL) {
			expr_free(e);
			return NULL;
		}
		kid(e, a);
		return e;
	}
	return p_cmp(l);
}

static struct expr *
p_and(struct lexer *l)
{
	struct expr	*a = p_not(l), *b;

	while (a != NULL && !l->failed && is_word(l, "and")) {
		lex_next(l);
		if ((b = p_not(l)) == NULL) {
			expr_free(a);
			return NULL;
		}
		a = binary(E_AND, 0, a, b);
	}
	return a;
}

static struct expr *
p_or(struct lexer *l)
{
	struct expr	*a, *b;

	if (++l->depth > EXPR_MAX_DEPTH) {
		lex_fail(l, l->tpos, "expression nested too deeply%s", "");
		return NULL;
	}
	a = p_and(l);
	while (a != NULL && !l->failed && is_word(l, "or")) {
		lex_next(l);
		if ((b = p_and(l)) == NULL) {
			expr_free(a);
			return NULL;
		}
		a = binary(E_OR, 0, a, b);
	}
	l->depth--;
	if (l->failed) {
		expr_free(a);
		return NULL;
	}
	return a;
}

static struct expr *
parse_at(const char *text, size_t *pos, bool until_brace, expr_resolve_fn fn,
    void *ctx, char *err, size_t errlen, size_t *erroff)
{
	struct lexer	 l = { 0 };
	struct expr	*e;

	l.s = text;
	l.pos = *pos;
	l.err = err;
	l.errlen = errlen;
	l.resolve = fn;
	l.rctx = ctx;
	lex_next(&l);
	e = p_or(&l);
	if (e != NULL && !l.failed) {
		if (until_brace) {
			/* The template parser checks what follows. */
			*pos = l.tpos;
		} else if (l.t != T_EOF) {
			char	c[2] = { text[l.tpos], '\0' };

			lex_fail(&l, l.tpos, "unexpected '%s' after expression",
			    l.text[0] ? l.text : c);
		}
	}
	if (l.failed) {
		expr_free(e);
		*erroff = l.erroff;
		return NULL;
	}
	return e;
}

struct expr *
expr_parse(const char *text, expr_resolve_fn fn, void *ctx, char *err,
    size_t errlen, size_t *erroff)
{
	size_t	pos = 0;

	return parse_at(text, &pos, false, fn, ctx, err, errlen, erroff);
}

void
expr_free(struct expr *e)
{
	size_t	i;

	if (e == NULL)
		return;
	for (i = 0; i < e->nkids; i++)
		expr_free(e->kids[i]);
	free(e->kids);
	free(e);
}

/* ---- templates ---- */

struct tmpl *
tmpl_parse(const char *text, expr_resolve_fn fn, void *ctx, char *err,
    size_t errlen, size_t *erroff)
{
	struct tmpl	*t = xcalloc(1, sizeof *t);
	struct buf	 lit = { 0 };
	size_t		 p = 0;

	for (;;) {
		struct tseg	 seg = { 0 };
		char		 c = text[p];

		if (c == '{' && text[p + 1] == '{') {
			buf_putc(&lit, '{');
			p += 2;
			continue;
		}
		if (c == '}' && text[p + 1] == '}') {
			buf_putc(&lit, '}');
			p += 2;
			continue;
		}
		if (c == '}') {
			snprintf(err, errlen, "single '}' in message (use '}}')");
			*erroff = p;
			goto fail;
		}
		if (c != '{' && c != '\0') {
			buf_putc(&lit, c);
			p++;
			continue;
		}
		seg.lit = intern(lit.s ? lit.s : "");
		buf_free(&lit);
		if (c == '\0') {
			t->segs = xreallocarray(t->segs, t->nsegs + 1,
			    sizeof *t->segs);
			t->segs[t->nsegs++] = seg;
			break;
		}
		p++;
		seg.e = parse_at(text, &p, true, fn, ctx, err, errlen, erroff);
		if (seg.e == NULL)
			goto fail;
		if (strncmp(text + p, "!r}", 3) == 0) {
			seg.repr = true;
			p += 3;
		} else if (strncmp(text + p, "!s}", 3) == 0)
			p += 3;
		else if (text[p] == '}')
			p++;
		else {
			snprintf(err, errlen, "expected '}' to close placeholder");
			*erroff = p;
			expr_free(seg.e);
			goto fail;
		}
		t->segs = xreallocarray(t->segs, t->nsegs + 1, sizeof *t->segs);
		t->segs[t->nsegs++] = seg;
	}
	return t;
fail:
	buf_free(&lit);
	tmpl_free(t);
	return NULL;
}

void
tmpl_free(struct tmpl *t)
{
	size_t	i;

	if (t == NULL)
		return;
	for (i = 0; i < t->nsegs; i++)
		expr_free(t->segs[i].e);
	free(t->segs);
	free(t);
}

/* ---- evaluation ---- */

static struct value
slot_value(struct evalctx *c, int slot)
{
	int			 scope = slot_scope(c->nopts, slot);
	int			 opt = slot_opt(c->nopts, slot);
	const struct config	*cfg = c->cfgs[scope];
	struct value		 v;

	if (cfg == NULL)
		v = VAL_UNKNOWN;
	else
		v = cfg->s[opt].v;
	if (c->taint != NULL && scope == SCOPE_SELF && c->taint[opt])
		c->read_taint = true;
	if (v.t == V_UNKNOWN && c->unknown_slot < 0)
		c->unknown_slot = slot;
	return v;
}

static bool
numeric(struct value v)
{
	return v.t == V_INT || v.t == V_FLOAT || v.t == V_BOOL;
}

static double
as_f(struct value v)
{
	return v.t == V_FLOAT ? v.u.f : v.t == V_BOOL ? v.u.b : (double)v.u.i;
}

static long long
as_i(struct value v)
{
	return v.t == V_BOOL ? v.u.b : v.u.i;
}

static struct value
arith(int op, struct value a, struct value b)
{
	if (a.t == V_STR && b.t == V_STR && op == OP_ADD) {
		char		*s = xasprintf("%s%s", a.u.s, b.u.s);
		struct value	 v = val_str(s);

		free(s);
		return v;
	}
	if (!numeric(a) || !numeric(b))
		return VAL_NULL;
	if (a.t != V_FLOAT && b.t != V_FLOAT && op != OP_DIV) {
		long long	x = as_i(a), y = as_i(b), r;

		switch (op) {
		/*
		 * Python ints do not overflow; past long long the result is
		 * computed in floating point (close, and never undefined).
		 */
		case OP_ADD:
			if (__builtin_add_overflow(x, y, &r))
				return val_float((double)x + (double)y);
			return val_int(r);
		case OP_SUB:
			if (__builtin_sub_overflow(x, y, &r))
				return val_float((double)x - (double)y);
			return val_int(r);
		case OP_MUL:
			if (__builtin_mul_overflow(x, y, &r))
				return val_float((double)x * (double)y);
			return val_int(r);
		case OP_FDIV:
			if (y == 0)
				return VAL_NULL;
			if (x == LLONG_MIN && y == -1)
				return val_float(-(double)x);
			r = x / y;
			if ((x % y != 0) && ((x < 0) != (y < 0)))
				r--;
			return val_int(r);
		case OP_MOD:
			if (y == 0)
				return VAL_NULL;
			if (y == -1)
				return val_int(0);
			r = x % y;
			if (r != 0 && ((r < 0) != (y < 0)))
				r += y;
			return val_int(r);
		}
	} else {
		double	x = as_f(a), y = as_f(b);

		switch (op) {
		case OP_ADD:
			return val_float(x + y);
		case OP_SUB:
			return val_float(x - y);
		case OP_MUL:
			return val_float(x * y);
		case OP_DIV:
			return y == 0 ? VAL_NULL : val_float(x / y);
		case OP_FDIV:
			return y == 0 ? VAL_NULL : val_float(floor(x / y));
		case OP_MOD:
			return y == 0 ? VAL_NULL :
			    val_float(x - y * floor(x / y));
		}
	}
	return VAL_NULL;
}

static struct value
compare(int op, struct value a, struct value b)
{
	int	c;

	if (op == OP_EQ)
		return val_bool(val_equal(a, b));
	if (op == OP_NE)
		return val_bool(!val_equal(a, b));
	if (numeric(a) && numeric(b)) {
		double	x = as_f(a), y = as_f(b);

		c = x < y ? -1 : x > y ? 1 : 0;
	} else if (a.t == V_STR && b.t == V_STR)
		c = strcmp(a.u.s, b.u.s);
	else
		return val_bool(false);
	switch (op) {
	case OP_LT:
		return val_bool(c < 0);
	case OP_LE:
		return val_bool(c <= 0);
	case OP_GT:
		return val_bool(c > 0);
	default:
		return val_bool(c >= 0);
	}
}

static struct value
member(const struct expr *list, struct value a, struct value b,
    struct evalctx *c)
{
	size_t	i;
	bool	unknown = false;

	if (list->k == E_LIST) {
		for (i = 0; i < list->nkids; i++) {
			struct value	item = expr_eval(list->kids[i], c);

			if (item.t == V_UNKNOWN)
				unknown = true;
			else if (val_equal(a, item))
				return val_bool(true);
		}
		return unknown ? VAL_UNKNOWN : val_bool(false);
	}
	if (b.t == V_STR && a.t == V_STR)
		return val_bool(strstr(b.u.s, a.u.s) != NULL);
	if (b.t == V_LIST && a.t == V_STR) {
		const char	*p = b.u.s;
		size_t		 n = strlen(a.u.s);

		while (*p != '\0') {
			const char	*e = strchr(p, '\x1f');
			size_t		 len = e ? (size_t)(e - p) : strlen(p);

			if (len == n && strncmp(p, a.u.s, n) == 0)
				return val_bool(true);
			p += len + (e != NULL);
		}
	}
	return val_bool(false);
}

/*
 * x, a name whose value is unknown, compared with the known value v: do
 * the facts of its configuration settle that it is not v? (The model's
 * architecture, when the model id names families none of whose
 * architectures v is: catalog_arch_excluded.)
 */
static bool
excluded(const struct expr *x, struct value v, struct evalctx *c)
{
	const struct config	*cfg;

	if (x->k != E_NAME || v.t != V_STR)
		return false;
	cfg = c->cfgs[slot_scope(c->nopts, x->slot)];
	return cfg != NULL && catalog_arch_excluded(cfg->cat, cfg,
	    slot_opt(c->nopts, x->slot), v.u.s);
}

/* The same for every item of a list literal. */
static bool
excluded_all(const struct expr *x, const struct expr *list, struct evalctx *c)
{
	size_t	i;

	if (list->k != E_LIST || x->k != E_NAME)
		return false;
	for (i = 0; i < list->nkids; i++)
		if (!excluded(x, expr_eval(list->kids[i], c), c))
			return false;
	return true;
}

/* ---- JSON, as Python's json.loads reads it (for json_get and
 * json_str_object): the values of an option or an environment variable
 * that SGLang parses as JSON. Python's extras are accepted (NaN,
 * Infinity, -Infinity); control characters inside strings are not (its
 * strict mode). ---- */

static const char *
js_ws(const char *p)
{
	while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
		p++;
	return p;
}

static void
js_utf8(struct buf *out, unsigned long cp)
{
	char	u[4];
	size_t	n;

	if (cp < 0x80) {
		u[0] = (char)cp;
		n = 1;
	} else if (cp < 0x800) {
		u[0] = (char)(0xc0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3f));
		n = 2;
	} else if (cp < 0x10000) {
		u[0] = (char)(0xe0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[2] = (char)(0x80 | (cp & 0x3f));
		n = 3;
	} else {
		u[0] = (char)(0xf0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
		u[3] = (char)(0x80 | (cp & 0x3f));
		n = 4;
	}
	if (out != NULL)
		buf_add(out, u, n);
}

static bool
js_hex4(const char *p, unsigned long *cp)
{
	int	i;

	*cp = 0;
	for (i = 0; i < 4; i++) {
		if (!isxdigit((unsigned char)p[i]))
			return false;
		*cp = *cp * 16 + (unsigned long)(isdigit((unsigned char)p[i]) ?
		    p[i] - '0' : (tolower((unsigned char)p[i]) - 'a' + 10));
	}
	return true;
}

/* A string at p (at its '"'); its text decoded into out (when not NULL).
 * The end, or NULL when it is no JSON string. */
static const char *
js_string(const char *p, struct buf *out)
{
	unsigned long	cp, lo;

	if (*p++ != '"')
		return NULL;
	for (;;) {
		unsigned char	ch = (unsigned char)*p;

		if (ch == '\0' || ch < 0x20)
			return NULL;
		if (ch == '"')
			return p + 1;
		if (ch != '\\') {
			if (out != NULL)
				buf_add(out, p, 1);
			p++;
			continue;
		}
		p++;
		switch (*p) {
		case '"': case '\\': case '/':
			if (out != NULL)
				buf_add(out, p, 1);
			break;
		case 'b': js_utf8(out, '\b'); break;
		case 'f': js_utf8(out, '\f'); break;
		case 'n': js_utf8(out, '\n'); break;
		case 'r': js_utf8(out, '\r'); break;
		case 't': js_utf8(out, '\t'); break;
		case 'u':
			if (!js_hex4(p + 1, &cp))
				return NULL;
			p += 4;
			if (cp >= 0xd800 && cp < 0xdc00 && p[1] == '\\' &&
			    p[2] == 'u' && js_hex4(p + 3, &lo) &&
			    lo >= 0xdc00 && lo < 0xe000) {
				cp = 0x10000 + ((cp - 0xd800) << 10) +
				    (lo - 0xdc00);
				p += 6;
			}
			js_utf8(out, cp);
			break;
		default:
			return NULL;
		}
		p++;
	}
}

static const char *
js_number(const char *p)
{
	const char	*q = p;

	if (*q == '-')
		q++;
	if (strncmp(q, "Infinity", 8) == 0)
		return q + 8;
	if (q == p && strncmp(q, "NaN", 3) == 0)
		return q + 3;
	if (*q == '0')
		q++;
	else if (isdigit((unsigned char)*q))
		while (isdigit((unsigned char)*q))
			q++;
	else
		return NULL;
	if (*q == '.') {
		if (!isdigit((unsigned char)*++q))
			return NULL;
		while (isdigit((unsigned char)*q))
			q++;
	}
	if (*q == 'e' || *q == 'E') {
		q++;
		if (*q == '+' || *q == '-')
			q++;
		if (!isdigit((unsigned char)*q))
			return NULL;
		while (isdigit((unsigned char)*q))
			q++;
	}
	return q;
}

/* One value at p (no leading white space); its end, or NULL. */
static const char *
js_value(const char *p, int depth)
{
	if (depth > EXPR_MAX_DEPTH)
		return NULL;
	switch (*p) {
	case '"':
		return js_string(p, NULL);
	case '{':
	case '[': {
		char	close = *p == '{' ? '}' : ']';
		bool	obj = *p == '{';

		p = js_ws(p + 1);
		if (*p == close)
			return p + 1;
		for (;;) {
			if (obj) {
				if ((p = js_string(p, NULL)) == NULL)
					return NULL;
				p = js_ws(p);
				if (*p++ != ':')
					return NULL;
				p = js_ws(p);
			}
			if ((p = js_value(p, depth + 1)) == NULL)
				return NULL;
			p = js_ws(p);
			if (*p == close)
				return p + 1;
			if (*p++ != ',')
				return NULL;
			p = js_ws(p);
		}
	}
	case 't':
		return strncmp(p, "true", 4) == 0 ? p + 4 : NULL;
	case 'f':
		return strncmp(p, "false", 5) == 0 ? p + 5 : NULL;
	case 'n':
		return strncmp(p, "null", 4) == 0 ? p + 4 : NULL;
	default:
		return js_number(p);
	}
}

/* s is one JSON document: its value's start, or NULL. */
static const char *
js_doc(const char *s)
{
	const char	*p = js_ws(s), *e;

	if ((e = js_value(p, 0)) == NULL || *js_ws(e) != '\0')
		return NULL;
	return p;
}

/* The value at p (valid JSON) as a value of the language: strings,
 * numbers, booleans and null as themselves, an object or array as its
 * JSON text. */
static struct value
js_to_value(const char *p)
{
	struct buf	b = { 0 };
	struct value	r;
	const char	*e = js_value(p, 0);

	if (*p == '"') {
		js_string(p, &b);
		r = val_str(b.s ? b.s : "");
		buf_free(&b);
		return r;
	}
	if (*p == 't' || *p == 'f')
		return val_bool(*p == 't');
	if (*p == 'n')
		return VAL_NULL;
	if (*p == '{' || *p == '[' || e == NULL)
		return (struct value){ .t = V_STR,
		    .u.s = intern_n(p, e ? (size_t)(e - p) : strlen(p)) };
	{
		char	*num = xstrndup(p, (size_t)(e - p));
		bool	 isint = strpbrk(num, ".eEIN") == NULL;

		if (isint && val_parse(T_INT, num, &r) == 0) {
			free(num);
			return r;
		}
		if (strstr(num, "Infinity") != NULL)
			r = val_float(num[0] == '-' ? -HUGE_VAL : HUGE_VAL);
		else if (strcmp(num, "NaN") == 0)
			r = val_float(NAN);
		else
			r = val_float(strtod(num, NULL));
		free(num);
		return r;
	}
}

/* json_get(s, 'a.b'): the member b of the member a of the JSON object s
 * (the last one of a repeated key, as Python keeps it); null when s is
 * no JSON document or a member is missing. */
static struct value
js_get(const char *s, const char *path)
{
	const char	*p = js_doc(s);

	if (p == NULL)
		return VAL_NULL;
	while (*path != '\0') {
		const char	*dot = strchr(path, '.');
		size_t		 n = dot ? (size_t)(dot - path) : strlen(path);
		const char	*hit = NULL;

		if (*p != '{')
			return VAL_NULL;
		p = js_ws(p + 1);
		while (*p == '"') {
			struct buf	k = { 0 };
			bool		 eq;

			p = js_ws(js_string(p, &k));
			eq = k.len == n && (n == 0 || memcmp(k.s, path, n) == 0);
			buf_free(&k);
			p = js_ws(p + 1);	/* ':' */
			if (eq)
				hit = p;
			p = js_ws(js_value(p, 0));
			if (*p == ',')
				p = js_ws(p + 1);
		}
		if (hit == NULL)
			return VAL_NULL;
		p = hit;
		path += n + (dot != NULL);
	}
	return js_to_value(p);
}

/* json_str_object(s): true when s is a JSON object whose values are all
 * strings, false for any other JSON document, null when s is no JSON. */
static struct value
js_str_object(const char *s)
{
	const char	*p = js_doc(s);

	if (p == NULL)
		return VAL_NULL;
	if (*p != '{')
		return val_bool(false);
	p = js_ws(p + 1);
	while (*p == '"') {
		p = js_ws(js_string(p, NULL));
		p = js_ws(p + 1);
		if (*p != '"')
			return val_bool(false);
		p = js_ws(js_value(p, 0));
		if (*p == ',')
			p = js_ws(p + 1);
	}
	return val_bool(true);
}

/* nparts(s, sep): how many parts of s split at sep are not blank, as
 * Python's [d.strip() for d in s.split(sep) if d.strip()] counts them. */
static long long
nparts(const char *s, const char *sep)
{
	size_t		 n = strlen(sep);
	long long	 k = 0;
	bool		 any = false;	/* the current part is not blank */

	while (*s != '\0') {
		if (strncmp(s, sep, n) == 0) {
			k += any;
			any = false;
			s += n;
			continue;
		}
		if (!isspace((unsigned char)*s))
			any = true;
		s++;
	}
	return k + any;
}

/* list_max(x): the largest item of a list of integers (a list option's
 * words); null for an empty list or an item that is no integer. */
static struct value
list_max(struct value a)
{
	const char	*s, *e;
	struct value	 best = VAL_NULL, v;

	if (a.t == V_INT)
		return a;
	if (a.t != V_LIST && a.t != V_STR)
		return VAL_NULL;
	for (s = a.u.s; ; s = e + 1) {
		char	*w;

		e = strchr(s, '\x1f');
		w = xstrndup(s, e ? (size_t)(e - s) : strlen(s));
		if (val_parse(T_INT, w, &v) != 0 || v.t != V_INT) {
			free(w);
			return VAL_NULL;
		}
		free(w);
		if (best.t != V_INT || v.u.i > best.u.i)
			best = v;
		if (e == NULL)
			break;
	}
	return best;
}

static struct value
call(const struct expr *e, struct evalctx *c)
{
	struct value	a, b = VAL_NULL;
	struct buf	bb = { 0 };
	struct value	r;
	size_t		i;

	if (e->op == FN_SGLANG_AT_MOST) {
		/* the release the configuration runs is known and is this one
		 * or older (a main commit is newer than its release) */
		const struct config	*cfg = c->cfgs[0];
		size_t			 k;

		for (k = 0; cfg == NULL && k < NSLOT_SCOPE; k++)
			cfg = c->cfgs[k];
		if (cfg == NULL || cfg->sgver == SGVER_UNKNOWN)
			return val_bool(false);
		return val_bool(sgver_cmp(cfg->sgver,
		    sgver_parse(e->kids[0]->v.u.s, NULL, 0)) <= 0);
	}
	if (e->op == FN_IS_SET) {
		int			 slot = e->kids[0]->slot;
		const struct config	*cfg = c->cfgs[slot_scope(c->nopts,
		    slot)];

		if (cfg == NULL)
			return VAL_UNKNOWN;
		return val_bool(config_is_set(cfg, slot_opt(c->nopts, slot)));
	}
	a = expr_eval(e->kids[0], c);
	if (e->nkids > 1)
		b = expr_eval(e->kids[1], c);
	if (a.t == V_UNKNOWN || b.t == V_UNKNOWN)
		return VAL_UNKNOWN;
	switch (e->op) {
	case FN_LOWER:
	case FN_UPPER:
	case FN_STRIP:
		if (a.t != V_STR)
			return a;
		if (e->op == FN_STRIP) {
			const char	*s = a.u.s, *end;

			while (*s == ' ' || *s == '\t' || *s == '\n')
				s++;
			end = s + strlen(s);
			while (end > s && (end[-1] == ' ' || end[-1] == '\t' ||
			    end[-1] == '\n'))
				end--;
			return (struct value){ .t = V_STR,
			    .u.s = intern_n(s, (size_t)(end - s)) };
		}
		buf_puts(&bb, a.u.s);
		for (i = 0; i < bb.len; i++)
			bb.s[i] = (char)(e->op == FN_LOWER ?
			    tolower((unsigned char)bb.s[i]) :
			    toupper((unsigned char)bb.s[i]));
		r = val_str(bb.s ? bb.s : "");
		buf_free(&bb);
		return r;
	case FN_CONTAINS:
		if (a.t != V_STR || b.t != V_STR)
			return val_bool(false);
		return val_bool(strstr(a.u.s, b.u.s) != NULL);
	case FN_STARTSWITH:
		if (a.t != V_STR || b.t != V_STR)
			return val_bool(false);
		return val_bool(strncmp(a.u.s, b.u.s, strlen(b.u.s)) == 0);
	case FN_ENDSWITH: {
		size_t	la, lb;

		if (a.t != V_STR || b.t != V_STR)
			return val_bool(false);
		la = strlen(a.u.s);
		lb = strlen(b.u.s);
		return val_bool(la >= lb && strcmp(a.u.s + la - lb, b.u.s) == 0);
	}
	case FN_MIN:
	case FN_MAX:
		if (!numeric(a) || !numeric(b))
			return VAL_NULL;
		if (as_f(a) <= as_f(b))
			return e->op == FN_MIN ? a : b;
		return e->op == FN_MIN ? b : a;
	case FN_INT:
		if (a.t == V_FLOAT) {
			/* int(inf), int(nan): Python raises; so do we (None). */
			if (!(a.u.f > -9.2e18 && a.u.f < 9.2e18))
				return VAL_NULL;
			return val_int((long long)a.u.f);
		}
		if (a.t == V_BOOL)
			return val_int(a.u.b);
		if (a.t == V_STR) {
			if (val_parse(T_INT, a.u.s, &r) == 0)
				return r;
			return VAL_NULL;
		}
		return a;
	case FN_STR:
		val_str_py(&bb, a);
		r = val_str(bb.s ? bb.s : "");
		buf_free(&bb);
		return r;
	case FN_LEN:
		if (a.t == V_STR)
			return val_int((long long)strlen(a.u.s));
		return val_int(0);
	case FN_JSON_GET:
		if (a.t != V_STR || b.t != V_STR)
			return VAL_NULL;
		return js_get(a.u.s, b.u.s);
	case FN_JSON_STR_OBJECT:
		if (a.t != V_STR)
			return VAL_NULL;
		return js_str_object(a.u.s);
	case FN_LIST_MAX:
		return list_max(a);
	case FN_NPARTS:
		if (a.t != V_STR || b.t != V_STR || b.u.s[0] == '\0')
			return VAL_NULL;
		return val_int(nparts(a.u.s, b.u.s));
	}
	return VAL_NULL;
}

/*
 * A list literal outside 'in' (which reads it itself): a list of strings
 * is a V_LIST value (a message's {['a', 'b']} renders as Python's
 * ['a', 'b']); any other list is null, as before.
 */
static struct value
eval_list(const struct expr *e, struct evalctx *c)
{
	struct buf	bb = { 0 };
	struct value	v, r;
	size_t		i;

	for (i = 0; i < e->nkids; i++) {
		v = expr_eval(e->kids[i], c);
		if (v.t == V_UNKNOWN) {
			buf_free(&bb);
			return v;
		}
		if (v.t != V_STR || strchr(v.u.s, '\x1f') != NULL) {
			buf_free(&bb);
			return VAL_NULL;
		}
		if (i > 0)
			buf_putc(&bb, '\x1f');
		buf_puts(&bb, v.u.s);
	}
	r = (struct value){ .t = V_LIST, .u.s = intern(bb.s ? bb.s : "") };
	buf_free(&bb);
	return r;
}

struct value
expr_eval(const struct expr *e, struct evalctx *c)
{
	struct value	a, b;
	int		u = c->unknown_slot;

	switch (e->k) {
	case E_LIT:
		return e->v;
	case E_NAME:
		return slot_value(c, e->slot);
	case E_LIST:
		return eval_list(e, c);
	case E_NOT:
		a = expr_eval(e->kids[0], c);
		if (a.t == V_UNKNOWN)
			return a;
		return val_bool(!val_truthy(a));
	case E_NEG:
		a = expr_eval(e->kids[0], c);
		if (a.t == V_INT && a.u.i == LLONG_MIN)
			return val_float(-(double)a.u.i);
		if (a.t == V_INT)
			return val_int(-a.u.i);
		if (a.t == V_FLOAT)
			return val_float(-a.u.f);
		return a.t == V_UNKNOWN ? a : VAL_NULL;
	case E_AND:
		a = expr_eval(e->kids[0], c);
		if (a.t != V_UNKNOWN && !val_truthy(a))
			return a;
		b = expr_eval(e->kids[1], c);
		if (a.t == V_UNKNOWN)
			return (b.t != V_UNKNOWN && !val_truthy(b)) ? b : a;
		return b;
	case E_OR:
		a = expr_eval(e->kids[0], c);
		if (a.t != V_UNKNOWN && val_truthy(a))
			return a;
		b = expr_eval(e->kids[1], c);
		/* Unknown or True is True; unknown or 1 is a value, either
		 * the unknown one or 1, so unknown ("x or 1" as a default). */
		if (a.t == V_UNKNOWN)
			return (b.t == V_BOOL && val_truthy(b)) ? b : a;
		return b;
	case E_CMP:
		a = expr_eval(e->kids[0], c);
		b = expr_eval(e->kids[1], c);
		if ((e->op == OP_EQ || e->op == OP_NE) &&
		    ((a.t == V_UNKNOWN && excluded(e->kids[0], b, c)) ||
		    (b.t == V_UNKNOWN && excluded(e->kids[1], a, c)))) {
			c->unknown_slot = u;	/* settled: not unknown */
			return val_bool(e->op == OP_NE);
		}
		if (a.t == V_UNKNOWN || b.t == V_UNKNOWN)
			return VAL_UNKNOWN;
		return compare(e->op, a, b);
	case E_ARITH:
		a = expr_eval(e->kids[0], c);
		b = expr_eval(e->kids[1], c);
		if (a.t == V_UNKNOWN || b.t == V_UNKNOWN)
			return VAL_UNKNOWN;
		return arith(e->op, a, b);
	case E_IN:
	case E_NOTIN:
		a = expr_eval(e->kids[0], c);
		b = e->kids[1]->k == E_LIST ? VAL_NULL :
		    expr_eval(e->kids[1], c);
		if (a.t == V_UNKNOWN && excluded_all(e->kids[0], e->kids[1],
		    c)) {
			c->unknown_slot = u;	/* settled: not unknown */
			return val_bool(e->k == E_NOTIN);
		}
		if (a.t == V_UNKNOWN || b.t == V_UNKNOWN)
			return VAL_UNKNOWN;
		b = member(e->kids[1], a, b, c);
		if (b.t == V_UNKNOWN || e->k == E_IN)
			return b;
		return val_bool(!b.u.b);
	case E_CALL:
		return call(e, c);
	}
	return VAL_UNKNOWN;
}

void
tmpl_render(const struct tmpl *t, struct evalctx *c, struct buf *b)
{
	size_t	i;

	for (i = 0; i < t->nsegs; i++) {
		buf_puts(b, t->segs[i].lit);
		if (t->segs[i].e != NULL) {
			struct value	v = expr_eval(t->segs[i].e, c);

			if (t->segs[i].repr)
				val_repr_py(b, v);
			else
				val_str_py(b, v);
		}
	}
}

void
expr_slots(const struct expr *e, void (*fn)(void *, int), void *arg)
{
	size_t	i;

	if (e == NULL)
		return;
	if (e->k == E_NAME)
		fn(arg, e->slot);
	for (i = 0; i < e->nkids; i++)
		expr_slots(e->kids[i], fn, arg);
}

void
tmpl_slots(const struct tmpl *t, void (*fn)(void *, int), void *arg)
{
	size_t	i;

	for (i = 0; i < t->nsegs; i++)
		expr_slots(t->segs[i].e, fn, arg);
}
