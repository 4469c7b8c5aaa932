/* shell_expand.c - quote removal, parameter expansion, field splitting. */

#include "io/shell_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Count produced bytes; past the limit, stop producing. */
bool
sh_x_budget(struct parser *p, size_t n)
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
	if (sh_x_budget(p, n))
		buf_add(&x->b, s, n);
}

/*
 * Quoted text s[i..i+n) of the input, with the CR of each CR LF line end
 * put back: inside quotes it is part of the value.
 */
/* Index of the first CR LF newline at or after offset i. */
static size_t
crlf_from(const struct lexer *lx, size_t i)
{
	size_t	lo = 0, hi = lx->ncrlf, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (lx->crlf[mid] < i)
			lo = mid + 1;
		else
			hi = mid;
	}
	return (lo);
}

static bool
was_crlf(const struct lexer *lx, size_t i)
{
	size_t	k = crlf_from(lx, i);

	return (k < lx->ncrlf && lx->crlf[k] == i);
}

static void
x_quoted(struct parser *p, struct xout *x, size_t i, size_t n)
{
	const struct lexer	*lx = &p->lx;
	size_t			 lo = crlf_from(lx, i), e = i + n;

	x->have = true;
	for (; lo < lx->ncrlf && lx->crlf[lo] < e; lo++) {
		x_lit(p, x, lx->s + i, lx->crlf[lo] - i);
		x_lit(p, x, "\r", 1);
		i = lx->crlf[lo];
	}
	x_lit(p, x, lx->s + i, e - i);
}

void
sh_x_endfield(struct xout *x)
{
	void	*pp = x->fo;

	buf_add(&x->b, "", 1);
	sh_grow(&pp, &x->capf, x->nf + 1, sizeof(*x->fo));
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
				sh_x_endfield(x);
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
void
sh_x_raw(struct parser *p, struct xout *x, size_t i, size_t j)
{
	x_lit(p, x, p->lx.s + i, j - i);
	x->unresolved = true;
}

static void
x_value(struct parser *p, struct xout *x, const struct var *v, bool quoted)
{
	size_t	n = v->array ? strcspn(v->value, (const char[]){ SH_ASEP,
	    '\0' }) : strlen(v->value);

	if (quoted || v->unresolved)
		x_lit(p, x, v->value, n);
	else
		x_split(p, x, v->value, n);
	if (v->unresolved)
		x->unresolved = true;
}

static const struct var *
x_lookup(struct parser *p, struct xout *x, const char *name, size_t n)
{
	size_t	i;

	if (x->own != NULL && (i = sh_vt_find(x->own, name, n)) != NONE &&
	    x->own->v[i].alive)
		return (x->own->v[i].del ? NULL : &x->own->v[i]);
	return (sh_vt_get(&p->tab, name, n));
}

/* End of a construct inside [.., e), or NONE. */
static size_t
x_skip(struct parser *p, size_t i, size_t e, enum ctx t, size_t oplen,
    bool in_dq)
{
	size_t	j = sh_skip_from(p, i, t, oplen, in_dq, false);

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
	struct buf		 b = { 0 };
	int			 v, d, m;
	char			 c;

	buf_add(&b, "", 0);
	while (i < e) {
		if (s[i] != '\\' || i + 1 >= e) {
			if (s[i] == '\n' && was_crlf(&p->lx, i))
				buf_putc(&b, '\r');
			buf_putc(&b, s[i++]);
			continue;
		}
		c = s[i + 1];
		i += 2;
		if ((k = strchr(from, c)) != NULL && c != '\0') {
			buf_putc(&b, to[k - from]);
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
		buf_putc(&b, (char)(v & 0xff));
	}
	x_lit(p, x, b.s, b.len);
	buf_free(&b);
}

/* Number of elements of array value a. */
static size_t
a_count(const char *a)
{
	size_t	n = 0;

	for (; *a != '\0'; a++)
		n += *a == SH_ASEP;
	return (n);
}

/*
 * ${A[@]} and ${A[*]}: every element. Quoted [@] gives one field per
 * element (the text around the expansion joins the first and the last);
 * quoted [*] and an assignment give one field, the elements joined by a
 * space; unquoted, each element is split further.
 */
static void
x_elements(struct parser *p, struct xout *x, const struct var *v, bool dq,
    bool star)
{
	const char	*e = v->value, *end;
	bool		 first = true, joined = !x->split || (dq && star);

	if (*e == '\0' && dq && !star)
		x->dropempty = true;
	for (; *e != '\0'; e = end + 1, first = false) {
		end = strchr(e, SH_ASEP);
		if (!first && joined)
			x_lit(p, x, " ", 1);
		else if (!first && (dq || x->have))
			sh_x_endfield(x);
		if (dq || !x->split)
			x_lit(p, x, e, (size_t)(end - e));
		else
			x_split(p, x, e, (size_t)(end - e));
	}
}

/* Element i of array value a, or NULL. */
static const char *
a_elem(const char *a, size_t i, size_t *len)
{
	const char	*end;

	for (; *a != '\0'; a = end + 1, i--) {
		end = strchr(a, SH_ASEP);
		if (i == 0) {
			*len = (size_t)(end - a);
			return (a);
		}
	}
	return (NULL);
}

/*
 * ${NAME[SUB]} and ${#NAME[SUB]} / ${#NAME}, with the name at s[ns..k)
 * and the closing brace at ie: returns false (the caller keeps the text)
 * for anything else, such as ${A[@]:1} or a subscript that is not a
 * plain number.
 */
static bool
x_subscript(struct parser *p, struct xout *x, const struct var *v, size_t k,
    size_t ie, bool dq, bool count)
{
	const char	*s = p->lx.s, *el;
	char		 num[32];
	size_t		 j, len = 0, idx;
	char		 sub = '\0';

	if (v == NULL || v->unresolved)
		return (false);
	if (k < ie && s[k] == '[') {
		for (j = k + 1; j < ie && s[j] != ']'; j++)
			;
		if (j + 1 != ie || j == k + 1)
			return (false);
		sub = s[k + 1];
		if (j == k + 2 && (sub == '@' || sub == '*'))
			;
		else {
			for (idx = 0, sub = '#', k++; k < j; k++) {
				if (s[k] < '0' || s[k] > '9' || idx > 100000)
					return (false);
				idx = idx * 10 + (size_t)(s[k] - '0');
			}
		}
	} else if (k != ie)
		return (false);
	if (count) {
		if (sub == '@' || sub == '*')
			j = v->array ? a_count(v->value) : 1;
		else if (v->array && (el = a_elem(v->value, sub == '#' ? idx :
		    0, &len)) != NULL)
			j = len;
		else
			j = v->array ? 0 : strlen(v->value);
		snprintf(num, sizeof num, "%zu", j);
		x_lit(p, x, num, strlen(num));
		return (true);
	}
	if (sub == '@' || sub == '*') {
		if (v->array)
			x_elements(p, x, v, dq, sub == '*');
		else
			x_value(p, x, v, dq);
		return (true);
	}
	if (!v->array) {
		if (sub != '#' || idx == 0)
			x_value(p, x, v, dq);
		return (true);
	}
	if ((el = a_elem(v->value, sub == '#' ? idx : 0, &len)) != NULL) {
		char	*t = xstrndup(el, len);
		bool	 ph = sh_placeholder(t);

		free(t);
		if (ph)		/* ('your decode ip1' ...): for the reader */
			return (false);
		if (dq)
			x_lit(p, x, el, len);
		else
			x_split(p, x, el, len);
	}
	return (true);
}

/* ${...} at i; returns the offset after it. */
static size_t
x_brace(struct parser *p, struct xout *x, size_t i, size_t e, bool dq,
    int depth)
{
	const char		*s = p->lx.s;
	const struct var	*v;
	size_t			 j, k, ie, ns;
	bool			 colon, set, count;
	char			 op;

	if ((j = x_skip(p, i, e, C_BRACE, 2, dq)) == NONE) {
		sh_x_raw(p, x, i, e);
		return (e);
	}
	ie = j - 1;
	ns = k = i + 2;
	count = k + 1 < ie && s[k] == '#' &&
	    sh_is_name_start((unsigned char)s[k + 1]);
	if (count)
		ns = ++k;
	if (k >= ie || !sh_is_name_start((unsigned char)s[k])) {
		sh_x_raw(p, x, i, j);
		return (j);
	}
	while (k < ie && sh_is_name_char((unsigned char)s[k]))
		k++;
	v = x_lookup(p, x, s + ns, k - ns);
	if (count || s[k] == '[') {
		if (!x_subscript(p, x, v, k, ie, dq, count))
			sh_x_raw(p, x, i, j);
		return (j);
	}
	if (k == ie) {
		if (v != NULL)
			x_value(p, x, v, dq);
		else
			sh_x_raw(p, x, i, j);
		return (j);
	}
	colon = s[k] == ':';
	if (colon)
		k++;
	if (k >= ie || strchr("-=+?", s[k]) == NULL) {
		sh_x_raw(p, x, i, j);
		return (j);
	}
	op = s[k++];
	set = v != NULL && (!colon || v->value[0] != '\0');
	if (op == '?' && !set)
		sh_x_raw(p, x, i, j);
	else if (op == '+' && set)
		sh_x_span(p, x, k, ie, dq ? M_BDQ : M_BUNQ, depth + 1);
	else if ((op == '-' || op == '=') && !set)
		sh_x_span(p, x, k, ie, dq ? M_BDQ : M_BUNQ, depth + 1);
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
			sh_x_raw(p, x, i, e);
			return (e);
		}
		x->have = true;
		if (n == '"')
			sh_x_span(p, x, i + 2, j - 1, M_DQ, depth + 1);
		else
			x_ansic(p, x, i + 2, j - 1);
		return (j);
	}
	if (n == '(') {
		if ((j = x_skip(p, i, e, C_PAREN, 2, dq)) == NONE)
			j = e;
		sh_x_raw(p, x, i, j);
		return (j);
	}
	if (n == '{')
		return (x_brace(p, x, i, e, dq, depth));
	if (sh_is_name_start((unsigned char)n)) {
		for (j = i + 1; j < e && sh_is_name_char((unsigned char)s[j]); j++)
			;
		if ((v = x_lookup(p, x, s + i + 1, j - i - 1)) != NULL)
			x_value(p, x, v, dq);
		else
			sh_x_raw(p, x, i, j);
		return (j);
	}
	if ((n >= '0' && n <= '9') || strchr("@*#?-$!", n) != NULL) {
		sh_x_raw(p, x, i, i + 2);
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
void
sh_x_span(struct parser *p, struct xout *x, size_t i, size_t e, enum xmode m,
    int depth)
{
	const char	*s = p->lx.s, *q;
	bool		 dq = m == M_DQ || m == M_BDQ;
	size_t		 j;
	char		 c;

	if (depth > SH_MAX_DEPTH) {
		sh_x_raw(p, x, i, e);
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
			sh_x_raw(p, x, i, j);
			i = j;
		} else if (!dq && c == '\'') {
			q = memchr(s + i + 1, '\'', e - i - 1);
			j = q != NULL ? (size_t)(q - s) : e;
			x_quoted(p, x, i + 1, j - i - 1);
			i = q != NULL ? j + 1 : e;
		} else if (m != M_DQ && c == '"') {
			if ((j = x_skip(p, i, e, C_DQ, 1, dq)) == NONE) {
				sh_x_raw(p, x, i, e);
				return;
			}
			x->have = true;
			sh_x_span(p, x, i + 1, j - 1, M_DQ, depth + 1);
			i = j;
		} else {
			/* the bytes that end a literal run */
			static const bool	stop[256] = { ['\\'] = true,
			    ['$'] = true, ['`'] = true, ['\''] = true,
			    ['"'] = true };

			for (j = i + 1; j < e && !stop[(unsigned char)s[j]]; j++)
				;
			if (m == M_BUNQ)
				x_split(p, x, s + i, j - i);
			else if (dq)
				x_quoted(p, x, i, j - i);
			else
				x_lit(p, x, s + i, j - i);
			i = j;
		}
	}
}

void
sh_x_free(struct xout *x)
{
	buf_free(&x->b);
	free(x->fo);
	memset(x, 0, sizeof(*x));
}

void
sh_x_reset(struct xout *x, bool split, const struct vtab *own)
{
	x->b.len = 0;
	x->nf = 0;
	x->fstart = 0;
	x->have = false;
	x->split = split;
	x->unresolved = false;
	x->dropempty = false;
	x->own = own;
}

/* Expand s[i..e) without field splitting; the result is in p->x.b. */
void
sh_x_string(struct parser *p, const struct vtab *own, size_t i, size_t e,
    bool array)
{
	sh_x_reset(&p->x, false, own);
	if (array)
		sh_x_raw(p, &p->x, i, e);
	else
		sh_x_span(p, &p->x, i, e, M_UNQ, 0);
	buf_add(&p->x.b, "", 0);
}

/*
 * The elements of an array assignment (a b "c d" $X) at [i, e) (the
 * parentheses included): each word expanded and split like a command's,
 * every resulting field ended by SH_ASEP, in p->x.b. An element bash
 * would read another way ([k]=v, a separator byte in a value) makes the
 * whole array unresolved.
 */
void
sh_x_array(struct parser *p, const struct vtab *own, size_t i, size_t e)
{
	const char	*s = p->lx.s;
	struct xout	 y = { 0 };
	size_t		 ws, k, n;
	enum ctx	 t;

	sh_x_reset(&p->x, false, own);
	sh_x_reset(&y, true, own);
	for (i++, e--; i < e && !p->toobig; ) {
		if (s[i] == ' ' || s[i] == '\t' || s[i] == '\n') {
			i++;
			continue;
		}
		if (s[i] == '#') {
			while (i < e && s[i] != '\n')
				i++;
			continue;
		}
		if (s[i] == '[')
			p->x.unresolved = true;
		for (ws = i; i < e && s[i] != ' ' && s[i] != '\t' &&
		    s[i] != '\n'; ) {
			if (s[i] == '\\')
				i += 2;
			else if ((n = sh_opener(s, i, e, &t)) != 0) {
				k = sh_skip_from(p, i, t, n, false, false);
				i = k == NONE || k > e ? e : k;
			} else
				i++;
		}
		if (i > e)
			i = e;
		sh_x_span(p, &y, ws, i, M_UNQ, 0);
		if (y.have)
			sh_x_endfield(&y);
	}
	for (k = 0; k < y.nf; k++) {
		const char	*f = y.b.s + y.fo[k];

		if (strchr(f, SH_ASEP) != NULL)
			p->x.unresolved = true;
		if (sh_x_budget(p, strlen(f) + 1)) {
			buf_add(&p->x.b, f, strlen(f));
			buf_putc(&p->x.b, SH_ASEP);
		}
	}
	if (y.unresolved)
		p->x.unresolved = true;
	buf_add(&p->x.b, "", 0);
	sh_x_free(&y);
}

/*
 * A value a document leaves for the reader to fill in: xxx, <your-model>,
 * YOUR_MODEL_PATH, "your prefill ip1", PLACEHOLDER_IP, "..." (or a word
 * holding one). Such a
 * value is unknown, never a finding.
 */
bool
sh_placeholder(const char *v)
{
	size_t	i, n = strlen(v);

	if (n >= 3 && strspn(v, "xX") == n)
		return (true);
	if (strcmp(v, "...") == 0 || strcmp(v, "\xe2\x80\xa6") == 0)
		return (true);
	if ((strncmp(v, "YOUR", 4) == 0 || strncmp(v, "your", 4) == 0 ||
	    strncmp(v, "Your", 4) == 0) && (v[4] == '_' || v[4] == '-' ||
	    (v[4] == ' ' && isalpha((unsigned char)v[5]))))
		return (true);
	if (strstr(v, "PLACEHOLDER") != NULL)
		return (true);
	for (i = 0; i < n; i++)
		if (v[i] == '<' && sh_placeholder_at(v, i, n) != 0)
			return (true);
	return (false);
}
