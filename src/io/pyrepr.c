/*
 * pyrepr.c - Python's repr() of a value, read back (pyrepr.h).
 *
 * Source of the forms: CPython Objects/unicodeobject.c (unicode_repr:
 * quotes, \\ \n \r \t, \xhh below U+0100, \uhhhh, \Uhhhhhhhh for what is
 * not printable), Objects/bytesobject.c, Objects/floatobject.c
 * (float_repr: inf, nan, 1e-05), Objects/listobject.c, tupleobject.c,
 * setobject.c, dictobject.c, and Lib/dataclasses.py (__repr__:
 * "Name(field=repr(value), ...)"); Enum's repr is "<Class.NAME: value>".
 */
#define _POSIX_C_SOURCE 200809L
#include "io/pyrepr.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct rd {
	const char	*t;
	size_t		 len, p;
	bool		 cut;
	char		*err;
	size_t		 errlen;
	int		 depth;
};

static struct pyv	*value(struct rd *);

static struct pyv *
mk(enum pyk k, size_t off)
{
	struct pyv	*v = xcalloc(1, sizeof *v);

	v->k = k;
	v->off = off;
	return v;
}

void
pyv_free(struct pyv *v)
{
	size_t	i;

	if (v == NULL)
		return;
	for (i = 0; i < v->nitems; i++) {
		pyv_free(v->items[i]);
		if (v->names != NULL)
			free(v->names[i]);
	}
	free(v->items);
	free(v->names);
	free(v->s);
	free(v);
}

const struct pyv *
pyv_kwarg(const struct pyv *call, const char *name)
{
	size_t	i;

	if (call == NULL || call->k != PY_CALL || call->names == NULL)
		return NULL;
	for (i = 0; i < call->nitems; i++)
		if (call->names[i] != NULL && strcmp(call->names[i], name) == 0)
			return call->items[i];
	return NULL;
}

static void
cut_at(struct rd *r, const char *what)
{
	if (!r->cut && r->err != NULL)
		snprintf(r->err, r->errlen, "cut short at byte %zu: %s", r->len,
		    what);
	r->cut = true;
}

static void
skipws(struct rd *r)
{
	while (r->p < r->len && (r->t[r->p] == ' ' || r->t[r->p] == '\t' ||
	    r->t[r->p] == '\n' || r->t[r->p] == '\r'))
		r->p++;
}

static bool
is_id0(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' ||
	    (unsigned char)c >= 0x80;
}

static bool
is_id(char c)
{
	return is_id0(c) || (c >= '0' && c <= '9');
}

static int
hexval(char c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	if (c >= 'A' && c <= 'F')
		return c - 'A' + 10;
	return -1;
}

static void
put_utf8(struct buf *b, unsigned long cp)
{
	char	u[4];

	if (cp < 0x80) {
		buf_putc(b, (char)cp);
		return;
	}
	if (cp < 0x800) {
		u[0] = (char)(0xC0 | (cp >> 6));
		u[1] = (char)(0x80 | (cp & 0x3F));
		buf_add(b, u, 2);
	} else if (cp < 0x10000) {
		u[0] = (char)(0xE0 | (cp >> 12));
		u[1] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[2] = (char)(0x80 | (cp & 0x3F));
		buf_add(b, u, 3);
	} else {
		if (cp > 0x10FFFF)
			cp = 0xFFFD;
		u[0] = (char)(0xF0 | (cp >> 18));
		u[1] = (char)(0x80 | ((cp >> 12) & 0x3F));
		u[2] = (char)(0x80 | ((cp >> 6) & 0x3F));
		u[3] = (char)(0x80 | (cp & 0x3F));
		buf_add(b, u, 4);
	}
}

/* \xhh, \uhhhh, \Uhhhhhhhh: w hex digits at t[p]; -1 when malformed. */
static long
hexn(const struct rd *r, size_t p, int w)
{
	long	v = 0;
	int	i, h;

	if (p + (size_t)w > r->len)
		return -1;
	for (i = 0; i < w; i++) {
		if ((h = hexval(r->t[p + (size_t)i])) < 0)
			return -1;
		v = v * 16 + h;
	}
	return v;
}

/* One escape after the backslash at r->p - 1, into b. */
static void
escape(struct rd *r, struct buf *b, bool bytes)
{
	char	c = r->t[r->p++];
	long	v;
	int	w = 0, n;

	switch (c) {
	case 'n': buf_putc(b, '\n'); return;
	case 't': buf_putc(b, '\t'); return;
	case 'r': buf_putc(b, '\r'); return;
	case 'a': buf_putc(b, '\a'); return;
	case 'b': buf_putc(b, '\b'); return;
	case 'f': buf_putc(b, '\f'); return;
	case 'v': buf_putc(b, '\v'); return;
	case '\\': case '\'': case '"': buf_putc(b, c); return;
	case '\n': return;	/* a line continuation */
	case 'x': w = 2; break;
	case 'u': w = bytes ? 0 : 4; break;
	case 'U': w = bytes ? 0 : 8; break;
	default: break;
	}
	if (c >= '0' && c <= '7') {
		v = c - '0';
		for (n = 1; n < 3 && r->p < r->len && r->t[r->p] >= '0' &&
		    r->t[r->p] <= '7'; n++)
			v = v * 8 + (r->t[r->p++] - '0');
		if (bytes)
			buf_putc(b, (char)(v & 0xFF));
		else
			put_utf8(b, (unsigned long)v);
		return;
	}
	if (w > 0 && (v = hexn(r, r->p, w)) >= 0) {
		r->p += (size_t)w;
		if (bytes)
			buf_putc(b, (char)v);
		else
			put_utf8(b, (unsigned long)v);
		return;
	}
	/* Python keeps an unknown escape as it is. */
	buf_putc(b, '\\');
	buf_putc(b, c);
}

/* A string or bytes literal: prefix letters already seen (raw, bytes),
 * r->p at the quote. */
static struct pyv *
string(struct rd *r, size_t off, bool raw, bool bytes)
{
	char		 q = r->t[r->p++];
	struct buf	 b = { 0 };
	struct pyv	*v = mk(bytes ? PY_BYTES : PY_STR, off);

	buf_puts(&b, "");
	for (;;) {
		if (r->p >= r->len) {
			cut_at(r, "inside a string");
			break;
		}
		if (r->t[r->p] == q) {
			r->p++;
			break;
		}
		if (r->t[r->p] == '\\' && r->p + 1 < r->len) {
			r->p++;
			if (raw) {
				buf_putc(&b, '\\');
				buf_putc(&b, r->t[r->p++]);
			} else
				escape(r, &b, bytes);
			continue;
		}
		buf_putc(&b, r->t[r->p++]);
	}
	v->n = b.len;
	v->s = buf_steal(&b);
	return v;
}

/* Text up to the next ',' ')' ']' '}' at this depth (quotes and nested
 * brackets skipped): what pdwiz cannot read, kept whole. */
static struct pyv *
opaque(struct rd *r, size_t off)
{
	int	nest = 0;
	char	q = 0;

	while (r->p < r->len) {
		char	c = r->t[r->p];

		if (q != 0) {
			if (c == '\\')
				r->p++;
			else if (c == q)
				q = 0;
		} else if (c == '\'' || c == '"')
			q = c;
		else if (c == '(' || c == '[' || c == '{' || c == '<')
			nest++;
		else if ((c == ')' || c == ']' || c == '}' || c == '>') &&
		    nest > 0)
			nest--;
		else if (nest == 0 && (c == ',' || c == ')' || c == ']' ||
		    c == '}'))
			break;
		r->p++;
	}
	if (r->p > r->len)
		r->p = r->len;
	if (r->p >= r->len && (nest > 0 || q != 0))
		cut_at(r, "inside a value");
	struct pyv	*v = mk(PY_OTHER, off);

	v->s = xstrndup(r->t + off, r->p - off);
	v->n = strlen(v->s);
	while (v->n > 0 && (v->s[v->n - 1] == ' ' || v->s[v->n - 1] == '\n'))
		v->s[--v->n] = '\0';
	return v;
}

static void
push(struct pyv *c, struct pyv *item, char *name)
{
	c->items = xreallocarray(c->items, c->nitems + 1, sizeof *c->items);
	if (c->k == PY_CALL) {
		c->names = xreallocarray(c->names, c->nitems + 1,
		    sizeof *c->names);
		c->names[c->nitems] = name;
	} else
		free(name);
	c->items[c->nitems++] = item;
}

/* A keyword "name=" (not "==") at r->p: the name, r->p past '='. */
static char *
keyword(struct rd *r)
{
	size_t	p = r->p, s = p;

	if (p >= r->len || !is_id0(r->t[p]))
		return NULL;
	while (p < r->len && is_id(r->t[p]))
		p++;
	size_t	e = p;

	while (p < r->len && r->t[p] == ' ')
		p++;
	if (p >= r->len || r->t[p] != '=' || (p + 1 < r->len &&
	    r->t[p + 1] == '='))
		return NULL;
	r->p = p + 1;
	return xstrndup(r->t + s, e - s);
}

/* The items of a container up to close (r->p past the opener). */
static void
items(struct rd *r, struct pyv *c, char close)
{
	for (;;) {
		struct pyv	*it, *val;
		char		*name = NULL;
		size_t		 at;

		skipws(r);
		if (r->p >= r->len) {
			cut_at(r, "inside a list, dict or call");
			return;
		}
		if (r->t[r->p] == close) {
			r->p++;
			return;
		}
		if (r->t[r->p] == ',') {	/* a stray comma */
			r->p++;
			continue;
		}
		at = r->p;
		if (c->k == PY_CALL)
			name = keyword(r);
		it = value(r);
		if (it == NULL)
			it = opaque(r, r->p);
		push(c, it, name);
		skipws(r);
		if (c->k == PY_DICT && r->p < r->len && r->t[r->p] == ':') {
			r->p++;
			val = value(r);
			push(c, val != NULL ? val : opaque(r, r->p), NULL);
			skipws(r);
		} else if (c->k == PY_DICT) {	/* a set after all */
			c->k = c->nitems == 1 ? PY_SET : c->k;
		}
		if (r->p < r->len && r->t[r->p] == ',')
			r->p++;
		else if (r->p < r->len && r->t[r->p] != close) {
			/* Not a separator: read the rest as opaque. */
			struct pyv	*o = opaque(r, r->p);

			pyv_free(o);
			if (r->p == at)
				r->p++;
		}
	}
}

static struct pyv *
container(struct rd *r, enum pyk k, char close, size_t off, char *callee)
{
	struct pyv	*c = mk(k, off);

	c->s = callee;
	if (callee != NULL)
		c->n = strlen(callee);
	if (++r->depth > PYREPR_MAX_DEPTH) {
		/* Too deep to be a configuration: the rest is opaque. */
		r->depth--;
		free(c->s);
		c->k = PY_OTHER;
		r->p = off;
		free(c);
		return opaque(r, off);
	}
	r->p++;
	items(r, c, close);
	r->depth--;
	/* {1, 2} read as a dict until its first item had no ':' */
	if (c->k == PY_DICT && c->nitems % 2 == 1)
		c->k = PY_SET;
	return c;
}

static struct pyv *
number(struct rd *r, size_t off)
{
	size_t		 p = r->p;
	bool		 fl = false;
	struct pyv	*v;

	if (p < r->len && (r->t[p] == '-' || r->t[p] == '+'))
		p++;
	if (p + 3 <= r->len && (strncmp(r->t + p, "inf", 3) == 0 ||
	    strncmp(r->t + p, "nan", 3) == 0) && (p + 3 == r->len ||
	    !is_id(r->t[p + 3]))) {
		p += 3;
		fl = true;
	} else {
		while (p < r->len && ((r->t[p] >= '0' && r->t[p] <= '9') ||
		    r->t[p] == '_'))
			p++;
		if (p < r->len && r->t[p] == '.') {
			fl = true;
			p++;
			while (p < r->len && r->t[p] >= '0' && r->t[p] <= '9')
				p++;
		}
		if (p < r->len && (r->t[p] == 'e' || r->t[p] == 'E')) {
			size_t	q = p + 1;

			if (q < r->len && (r->t[q] == '-' || r->t[q] == '+'))
				q++;
			if (q < r->len && r->t[q] >= '0' && r->t[q] <= '9') {
				fl = true;
				p = q;
				while (p < r->len && r->t[p] >= '0' &&
				    r->t[p] <= '9')
					p++;
			}
		}
	}
	v = mk(fl ? PY_FLOAT : PY_INT, off);
	v->s = xstrndup(r->t + r->p, p - r->p);
	v->n = p - r->p;
	r->p = p;
	return v;
}

static struct pyv *
name_or_call(struct rd *r, size_t off)
{
	size_t		 p = r->p;
	struct pyv	*v;
	char		*nm;

	while (p < r->len && (is_id(r->t[p]) || (r->t[p] == '.' &&
	    p + 1 < r->len && is_id0(r->t[p + 1]))))
		p++;
	nm = xstrndup(r->t + r->p, p - r->p);
	r->p = p;
	if (strcmp(nm, "None") == 0 || strcmp(nm, "True") == 0 ||
	    strcmp(nm, "False") == 0) {
		v = mk(nm[0] == 'N' ? PY_NONE : PY_BOOL, off);
		v->b = nm[0] == 'T';
		free(nm);
		return v;
	}
	if (strcmp(nm, "inf") == 0 || strcmp(nm, "nan") == 0) {
		v = mk(PY_FLOAT, off);
		v->s = nm;
		v->n = 3;
		return v;
	}
	if (r->p < r->len && r->t[r->p] == '(')
		return container(r, PY_CALL, ')', off, nm);
	v = mk(PY_NAME, off);
	v->s = nm;
	v->n = strlen(nm);
	return v;
}

/* <...>: an object's repr, to its matching '>' (quotes skipped). */
static struct pyv *
angle(struct rd *r, size_t off)
{
	int		 nest = 0;
	char		 q = 0;
	struct pyv	*v;

	while (r->p < r->len) {
		char	c = r->t[r->p++];

		if (q != 0) {
			if (c == '\\' && r->p < r->len)
				r->p++;
			else if (c == q)
				q = 0;
		} else if (c == '\'' || c == '"')
			q = c;
		else if (c == '<')
			nest++;
		else if (c == '>' && --nest == 0)
			break;
	}
	if (nest > 0)
		cut_at(r, "inside a <...> repr");
	v = mk(PY_OTHER, off);
	v->s = xstrndup(r->t + off, r->p - off);
	v->n = strlen(v->s);
	return v;
}

static struct pyv *
value(struct rd *r)
{
	size_t	off;
	char	c;

	skipws(r);
	if (r->p >= r->len)
		return NULL;
	off = r->p;
	c = r->t[r->p];
	if (c == '\'' || c == '"')
		return string(r, off, false, false);
	if (strchr("rRbBuUfF", c) != NULL) {
		size_t	p = r->p;
		bool	raw = false, bytes = false;

		while (p < r->len && p - r->p < 2 &&
		    strchr("rRbBuUfF", r->t[p]) != NULL) {
			raw = raw || r->t[p] == 'r' || r->t[p] == 'R';
			bytes = bytes || r->t[p] == 'b' || r->t[p] == 'B';
			p++;
		}
		if (p < r->len && (r->t[p] == '\'' || r->t[p] == '"')) {
			r->p = p;
			return string(r, off, raw, bytes);
		}
	}
	if ((c >= '0' && c <= '9') || ((c == '-' || c == '+') &&
	    r->p + 1 < r->len && ((r->t[r->p + 1] >= '0' &&
	    r->t[r->p + 1] <= '9') || r->t[r->p + 1] == 'i' ||
	    r->t[r->p + 1] == 'n')))
		return number(r, off);
	if (c == '[')
		return container(r, PY_LIST, ']', off, NULL);
	if (c == '(')
		return container(r, PY_TUPLE, ')', off, NULL);
	if (c == '{')
		return container(r, PY_DICT, '}', off, NULL);
	if (c == '<')
		return angle(r, off);
	if (strncmp(r->t + r->p, "...", 3) == 0 && r->p + 3 <= r->len) {
		struct pyv	*v = mk(PY_OTHER, off);

		r->p += 3;
		v->s = xstrdup("...");
		v->n = 3;
		return v;
	}
	if (is_id0(c))
		return name_or_call(r, off);
	return opaque(r, off);
}

struct pyv *
pyrepr_parse(const char *text, size_t len, size_t *pos, bool *cut, char *err,
    size_t errlen)
{
	struct rd	 r = { .t = text, .len = len, .p = *pos, .err = err,
			    .errlen = errlen };
	struct pyv	*v;

	if (err != NULL && errlen > 0)
		err[0] = '\0';
	v = value(&r);
	*pos = r.p;
	*cut = r.cut;
	return v;
}
