/*
 * msgmatch.c - rule messages as templates, indexed by their rarest word
 * (msgmatch.h).
 *
 * A template "L0{h1}L1{h2}...Lk" matches a text T when T = L0 v1 L1 ...
 * vk Lk for some values vi. Placing each middle literal at its leftmost
 * occurrence after the previous one finds a match whenever there is one
 * (any match can slide its middle literals left), so one pass of strstr
 * per literal decides it: no backtracking, linear in the text.
 */
#define _POSIX_C_SOURCE 200809L
#include "msgmatch.h"
#include "hashidx.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* argparse's messages, as pdwiz's argument reader (io/argv.c) gives them. */
static const struct {
	const char	*id, *text;
} argparse_tmpl[] = {
	{ "argparse-unrecognized", "unrecognized arguments: {words}" },
	{ "argparse-choice",
	    "argument {flag}: invalid choice: {value} (choose from {choices})" },
	{ "argparse-type", "argument {flag}: invalid {type} value: {value}" },
	{ "argparse-missing-value", "argument {flag}: expected one argument" },
	{ "argparse-missing-value",
	    "argument {flag}: expected at least one argument" },
	{ "argparse-ambiguous", "ambiguous option: {flag} could match {flags}" },
	{ "argparse-required", "the following arguments are required: {args}" },
	{ "argparse-explicit",
	    "argument {flag}: ignored explicit argument {value}" },
};

/* Unanchored matches need this many literal bytes. */
#define MM_MIN_INNER	24
/* Words in more templates than this do not find candidates for
 * mm_closest (they are in every other message). */
#define MM_COMMON	40

struct tpl {
	const struct rule	*rule;
	const char		*id, *src;
	unsigned		 kind;
	char			**lit;		/* nholes + 1, normalised */
	size_t			*litlen;
	char			**hole;
	size_t			 nholes;
	size_t			 litsum;
	size_t			*words;		/* its literal words in order
						   (word table indexes) */
	size_t			 nwords;
};

struct word {
	char	*w;
	size_t	 len;
	size_t	*all, nall;		/* templates that have it */
	size_t	*key, nkey;		/* templates indexed under it */
};

struct mm_index {
	const struct catalog *cat;
	struct tpl	*t;
	size_t		 nt;
	struct word	*w;
	size_t		 nw;
	struct hidx	 wi;
	size_t		*scan;		/* templates with no key word */
	size_t		 nscan;
};

static bool
wordc(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	    (c >= '0' && c <= '9') || c == '_';
}

static bool
space(char c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' ||
	    c == '\v';
}

/* s[0..n) with each whitespace run one space; trimmed when trim. */
static char *
norm(const char *s, size_t n, bool trim)
{
	char	*o = xmalloc(n + 1), *q = o;
	size_t	 i;
	bool	 sp = false;

	for (i = 0; i < n; i++) {
		if (space(s[i])) {
			sp = true;
			continue;
		}
		if (sp && (!trim || q != o))
			*q++ = ' ';
		sp = false;
		*q++ = s[i];
	}
	if (sp && !trim)
		*q++ = ' ';
	*q = '\0';
	return o;
}

static const char *
word_key(const void *ctx, size_t i, size_t *len)
{
	const struct mm_index	*x = ctx;

	*len = x->w[i].len;
	return x->w[i].w;
}

/* The word table's index of s[0..n), added when add; -1 when absent. */
static long
word_id(struct mm_index *x, const char *s, size_t n, bool add)
{
	long	i = hidx_find(&x->wi, s, n);

	if (i >= 0 || !add)
		return i;
	x->w = grow_pow2(x->w, x->nw, sizeof *x->w);
	memset(&x->w[x->nw], 0, sizeof x->w[x->nw]);
	x->w[x->nw].w = xstrndup(s, n);
	x->w[x->nw].len = n;
	hidx_add(&x->wi, x->nw);
	return (long)x->nw++;
}

static void
post(size_t **list, size_t *n, size_t t)
{
	if (*n > 0 && (*list)[*n - 1] == t)
		return;
	*list = grow_pow2(*list, *n, sizeof **list);
	(*list)[(*n)++] = t;
}

/* Split a template's text into literals and holes ("{{" and "}}" are
 * braces). */
static void
tpl_parse(struct tpl *t, const char *src)
{
	struct buf	 cur = { 0 };
	const char	*p = src;
	size_t		 i;

	buf_puts(&cur, "");
	while (*p != '\0') {
		if ((p[0] == '{' && p[1] == '{') || (p[0] == '}' &&
		    p[1] == '}')) {
			buf_putc(&cur, p[0]);
			p += 2;
			continue;
		}
		if (*p == '{') {
			const char	*e = p + 1;
			char		 q = 0;
			int		 nest = 0;

			for (; *e != '\0'; e++) {
				if (q != 0) {
					if (*e == q)
						q = 0;
				} else if (*e == '\'' || *e == '"')
					q = *e;
				else if (*e == '{')
					nest++;
				else if (*e == '}' && nest-- == 0)
					break;
			}
			t->lit = xreallocarray(t->lit, t->nholes + 1,
			    sizeof *t->lit);
			t->lit[t->nholes] = buf_steal(&cur);
			buf_puts(&cur, "");
			t->hole = xreallocarray(t->hole, t->nholes + 1,
			    sizeof *t->hole);
			const char	*a = p + 1, *b = e;

			while (a < b && *a == ' ')
				a++;
			while (b > a && b[-1] == ' ')
				b--;
			t->hole[t->nholes++] = xstrndup(a, (size_t)(b - a));
			p = *e == '}' ? e + 1 : e;
			continue;
		}
		buf_putc(&cur, *p++);
	}
	t->lit = xreallocarray(t->lit, t->nholes + 1, sizeof *t->lit);
	t->lit[t->nholes] = buf_steal(&cur);
	t->litlen = xcalloc(t->nholes + 1, sizeof *t->litlen);
	for (i = 0; i <= t->nholes; i++) {
		char	*n = norm(t->lit[i], strlen(t->lit[i]), false);

		free(t->lit[i]);
		t->lit[i] = n;
	}
	/* the template's own ends are trimmed, as the text is */
	{
		char	*f = t->lit[0], *l;
		size_t	 k;

		if (f[0] == ' ')
			memmove(f, f + 1, strlen(f));
		l = t->lit[t->nholes];
		k = strlen(l);
		if (k > 0 && l[k - 1] == ' ')
			l[k - 1] = '\0';
	}
	for (i = 0; i <= t->nholes; i++) {
		t->litlen[i] = strlen(t->lit[i]);
		t->litsum += t->litlen[i];
	}
}

/* The next word of s[0..n) from *p: [*b, *e); false at the end. */
static bool
next_word(const char *s, size_t n, size_t *p, size_t *b, size_t *e)
{
	while (*p < n && !wordc(s[*p]))
		(*p)++;
	if (*p == n)
		return false;
	*b = *p;
	while (*p < n && wordc(s[*p]))
		(*p)++;
	*e = *p;
	return true;
}

/* The literal words of t into the table; the rarest inner one (not
 * glued to a hole) is its key, chosen once every template is in. */
static void
tpl_words(struct mm_index *x, size_t ti)
{
	struct tpl	*t = &x->t[ti];
	size_t		 i;

	for (i = 0; i <= t->nholes; i++) {
		const char	*s = t->lit[i];
		size_t		 n = t->litlen[i], p = 0;

		size_t	b, e;

		while (next_word(s, n, &p, &b, &e)) {
			long	w;

			if (e - b < 2)
				continue;
			w = word_id(x, s + b, e - b, true);
			t->words = grow_pow2(t->words, t->nwords,
			    sizeof *t->words);
			t->words[t->nwords++] = (size_t)w;
			post(&x->w[w].all, &x->w[w].nall, ti);
		}
	}
}

static void
tpl_key(struct mm_index *x, size_t ti)
{
	struct tpl	*t = &x->t[ti];
	long		 best = -1;
	size_t		 i;

	for (i = 0; i <= t->nholes; i++) {
		const char	*s = t->lit[i];
		size_t		 n = t->litlen[i], p = 0;

		size_t	b, e;

		while (next_word(s, n, &p, &b, &e)) {
			long	w;

			if (e - b < 2 || (b == 0 && i > 0) ||
			    (e == n && i < t->nholes))
				continue;	/* glued to a hole */
			w = word_id(x, s + b, e - b, false);
			if (best < 0 || x->w[w].nall < x->w[best].nall ||
			    (x->w[w].nall == x->w[best].nall &&
			    x->w[w].len > x->w[best].len))
				best = w;
		}
	}
	if (best >= 0)
		post(&x->w[best].key, &x->w[best].nkey, ti);
	else if (t->litsum > 0)
		post(&x->scan, &x->nscan, ti);
}

static void
tpl_add(struct mm_index *x, const struct rule *r, const char *id,
    const char *src, unsigned kind)
{
	struct tpl	*t;

	x->t = grow_pow2(x->t, x->nt, sizeof *x->t);
	t = &x->t[x->nt];
	memset(t, 0, sizeof *t);
	t->rule = r;
	t->id = id;
	t->src = src;
	t->kind = kind;
	tpl_parse(t, src);
	tpl_words(x, x->nt++);
}

struct mm_index *
mm_index_new(const struct catalog *cat)
{
	struct mm_index	*x = xcalloc(1, sizeof *x);
	size_t		 i;

	x->cat = cat;
	hidx_init(&x->wi, word_key, x);
	for (i = 0; i < cat->nrules + cat->ndrules; i++) {
		const struct rule *r = i < cat->nrules ? &cat->rules[i] :
		    &cat->drules[i - cat->nrules];

		if (r->silent || r->message_src == NULL ||
		    *r->message_src == '\0')
			continue;
		tpl_add(x, r, r->id, r->message_src, MM_RULES);
	}
	for (i = 0; i < sizeof argparse_tmpl / sizeof argparse_tmpl[0]; i++)
		tpl_add(x, NULL, argparse_tmpl[i].id, argparse_tmpl[i].text,
		    MM_ARGPARSE);
	for (i = 0; i < x->nt; i++)
		tpl_key(x, i);
	return x;
}

void
mm_index_free(struct mm_index *x)
{
	size_t	i, j;

	if (x == NULL)
		return;
	for (i = 0; i < x->nt; i++) {
		for (j = 0; j <= x->t[i].nholes; j++)
			free(x->t[i].lit[j]);
		for (j = 0; j < x->t[i].nholes; j++)
			free(x->t[i].hole[j]);
		free(x->t[i].lit);
		free(x->t[i].litlen);
		free(x->t[i].hole);
		free(x->t[i].words);
	}
	free(x->t);
	for (i = 0; i < x->nw; i++) {
		free(x->w[i].w);
		free(x->w[i].all);
		free(x->w[i].key);
	}
	free(x->w);
	free(x->scan);
	hidx_free(&x->wi);
	free(x);
}

void
mm_hits_free(struct mm_hit *h, size_t n)
{
	size_t	i, j;

	for (i = 0; i < n; i++) {
		for (j = 0; j < h[i].nholes; j++)
			free(h[i].holes[j].value);
		free(h[i].holes);
	}
	free(h);
}

static const char *
find(const char *hay, const char *needle, size_t nlen)
{
	return nlen == 0 ? hay : strstr(hay, needle);
}

/* Match t against text (normalised, n bytes): the hole values' spans
 * into v (2 per hole); whole when the text is nothing but it. */
static bool
tpl_match(const struct tpl *t, const char *text, size_t n, size_t *v,
    bool *whole)
{
	size_t		 k = t->nholes, i, pos, f, tries;
	const char	*occ;

	/* anchored: the text is the message */
	if (strncmp(text, t->lit[0], t->litlen[0]) == 0) {
		pos = t->litlen[0];
		for (i = 1; i < k; i++) {
			occ = find(text + pos, t->lit[i], t->litlen[i]);
			if (occ == NULL)
				break;
			v[2 * (i - 1)] = pos;
			v[2 * (i - 1) + 1] = (size_t)(occ - text);
			pos = (size_t)(occ - text) + t->litlen[i];
		}
		if (i >= k || k == 0) {
			size_t	ll = t->litlen[k];

			if (k == 0 ? n == ll : (n >= ll && n - ll >= pos &&
			    strcmp(text + n - ll, t->lit[k]) == 0)) {
				if (k > 0) {
					v[2 * (k - 1)] = pos;
					v[2 * (k - 1) + 1] = n - ll;
				}
				*whole = true;
				return true;
			}
		}
	}
	/* inside a longer text: enough literal text to be sure */
	if (t->litsum < MM_MIN_INNER)
		return false;
	for (f = 0; f <= k && t->litlen[f] == 0; f++)
		;
	if (f > k)
		return false;
	occ = text;
	for (tries = 0; tries < 4 && (occ = strstr(occ, t->lit[f])) != NULL;
	    tries++, occ++) {
		size_t	start = (size_t)(occ - text);

		pos = start + t->litlen[f];
		if (f > 0) {	/* a leading hole: the word before it */
			size_t	b = start;

			while (b > 0 && text[b - 1] == ' ')
				b--;
			size_t	e = b;

			while (b > 0 && text[b - 1] != ' ')
				b--;
			for (i = 0; i + 1 < f; i++)
				v[2 * i] = v[2 * i + 1] = b;
			v[2 * (f - 1)] = b;
			v[2 * (f - 1) + 1] = e;
		}
		for (i = f + 1; i <= k; i++) {
			const char *o;

			if (i == k && t->litlen[k] == 0) {
				v[2 * (k - 1)] = pos;
				v[2 * (k - 1) + 1] = n;
				pos = n;
				continue;
			}
			if ((o = find(text + pos, t->lit[i], t->litlen[i])) ==
			    NULL)
				break;
			v[2 * (i - 1)] = pos;
			v[2 * (i - 1) + 1] = (size_t)(o - text);
			pos = (size_t)(o - text) + t->litlen[i];
		}
		if (i > k) {
			*whole = false;
			return true;
		}
	}
	return false;
}

static int
hit_cmp(const void *a, const void *b)
{
	const struct mm_hit	*x = a, *y = b;

	if (x->whole != y->whole)
		return x->whole ? -1 : 1;
	if (x->lit != y->lit)
		return x->lit > y->lit ? -1 : 1;
	return strcmp(x->id, y->id);
}

static void
try_tpl(const struct mm_index *x, size_t ti, const char *text, size_t n,
    unsigned mask, unsigned char *tried, struct mm_hit **out, size_t *nout)
{
	const struct tpl	*t = &x->t[ti];
	size_t			*v, i;
	bool			 whole = false;
	struct mm_hit		*h;

	if (tried[ti] || !(t->kind & mask))
		return;
	tried[ti] = 1;
	v = xcalloc(2 * t->nholes + 2, sizeof *v);
	if (!tpl_match(t, text, n, v, &whole)) {
		free(v);
		return;
	}
	*out = grow_pow2(*out, *nout, sizeof **out);
	h = &(*out)[(*nout)++];
	memset(h, 0, sizeof *h);
	h->rule = t->rule;
	h->id = t->id;
	h->tmpl = t->src;
	h->lit = t->litsum;
	h->whole = whole;
	h->nholes = t->nholes;
	h->holes = xcalloc(t->nholes + 1, sizeof *h->holes);
	for (i = 0; i < t->nholes; i++) {
		h->holes[i].expr = t->hole[i];
		h->holes[i].value = xstrndup(text + v[2 * i],
		    v[2 * i + 1] > v[2 * i] ? v[2 * i + 1] - v[2 * i] : 0);
	}
	free(v);
}

size_t
mm_match(const struct mm_index *x, const char *text, unsigned mask,
    struct mm_hit **out)
{
	char		*t = norm(text, strlen(text), true);
	size_t		 n = strlen(t), p = 0, i, nout = 0;
	unsigned char	*tried = xcalloc(x->nt + 1, 1);

	*out = NULL;
	while (p < n) {
		size_t	b, e;
		long	w;

		while (p < n && !wordc(t[p]))
			p++;
		b = p;
		while (p < n && wordc(t[p]))
			p++;
		e = p;
		if (e - b < 2 || (w = hidx_find(&x->wi, t + b, e - b)) < 0)
			continue;
		for (i = 0; i < x->w[w].nkey; i++)
			try_tpl(x, x->w[w].key[i], t, n, mask, tried, out,
			    &nout);
	}
	for (i = 0; i < x->nscan; i++)
		try_tpl(x, x->scan[i], t, n, mask, tried, out, &nout);
	sort_items(*out, nout, sizeof **out, hit_cmp);
	free(tried);
	free(t);
	return nout;
}

/* The words of the text (in order, table indexes; -1 for words no
 * template has), at most max. */
static size_t
text_words(const struct mm_index *x, const char *t, long *out, size_t max)
{
	size_t	n = strlen(t), p = 0, k = 0;

	while (p < n && k < max) {
		size_t	b, e;

		while (p < n && !wordc(t[p]))
			p++;
		b = p;
		while (p < n && wordc(t[p]))
			p++;
		e = p;
		if (e - b >= 2)
			out[k++] = hidx_find(&x->wi, t + b, e - b);
	}
	return k;
}

/* The longest common subsequence of two word sequences. */
static size_t
lcs(const long *a, size_t na, const size_t *b, size_t nb)
{
	size_t	*prev = xcalloc(nb + 1, sizeof *prev);
	size_t	*cur = xcalloc(nb + 1, sizeof *cur), *sw;
	size_t	 i, j, r;

	for (i = 1; i <= na; i++) {
		for (j = 1; j <= nb; j++) {
			if (a[i - 1] >= 0 && (size_t)a[i - 1] == b[j - 1])
				cur[j] = prev[j - 1] + 1;
			else
				cur[j] = prev[j] > cur[j - 1] ? prev[j] :
				    cur[j - 1];
		}
		sw = prev;
		prev = cur;
		cur = sw;
	}
	r = prev[nb];
	free(prev);
	free(cur);
	return r;
}

static int
near_cmp(const void *a, const void *b)
{
	const struct mm_near	*x = a, *y = b;

	if (x->percent != y->percent)
		return x->percent > y->percent ? -1 : 1;
	return strcmp(x->id, y->id);
}

#define MM_TEXT_WORDS	512
#define MM_CANDIDATES	16

size_t
mm_closest(const struct mm_index *x, const char *text, struct mm_near *out,
    size_t max)
{
	char		*t = norm(text, strlen(text), true);
	long		*tw = xcalloc(MM_TEXT_WORDS, sizeof *tw);
	unsigned	*count = xcalloc(x->nt + 1, sizeof *count);
	size_t		 cand[MM_CANDIDATES], ncand = 0, n, i, j, k, nout = 0;
	struct mm_near	*all = NULL;

	unsigned char	*seen = xcalloc(x->nw + 1, 1);

	n = text_words(x, t, tw, MM_TEXT_WORDS);
	for (i = 0; i < n; i++) {
		if (tw[i] < 0 || x->w[tw[i]].nall > MM_COMMON || seen[tw[i]])
			continue;
		seen[tw[i]] = 1;	/* each word counts once */
		for (j = 0; j < x->w[tw[i]].nall; j++)
			count[x->w[tw[i]].all[j]]++;
	}
	free(seen);
	/* the templates sharing the most rare words */
	for (i = 0; i < x->nt; i++) {
		if (count[i] < 2 || !(x->t[i].kind & MM_RULES))
			continue;
		if (ncand < MM_CANDIDATES) {
			cand[ncand++] = i;
			continue;
		}
		for (k = 0, j = 1; j < ncand; j++)
			if (count[cand[j]] < count[cand[k]])
				k = j;
		if (count[i] > count[cand[k]])
			cand[k] = i;
	}
	for (i = 0; i < ncand; i++) {
		const struct tpl	*tp = &x->t[cand[i]];
		size_t			 l = lcs(tw, n, tp->words, tp->nwords);

		if (tp->nwords == 0 || l * 10 < tp->nwords * 6 || l * 2 < n)
			continue;
		all = grow_pow2(all, nout, sizeof *all);
		all[nout].rule = tp->rule;
		all[nout].id = tp->id;
		all[nout].tmpl = tp->src;
		all[nout].percent = (unsigned)(l * 100 / tp->nwords);
		nout++;
	}
	sort_items(all, nout, sizeof *all, near_cmp);
	if (nout > max)
		nout = max;
	if (nout > 0)
		memcpy(out, all, nout * sizeof *out);
	free(all);
	free(count);
	free(tw);
	free(t);
	return nout;
}

size_t
mm_bare(const struct mm_index *x, const char *func, const struct rule **out,
    size_t max)
{
	const struct catalog	*cat = x->cat;
	size_t			 i, n = 0;

	for (i = 0; func != NULL && i < cat->nrules + cat->ndrules; i++) {
		const struct rule *r = i < cat->nrules ? &cat->rules[i] :
		    &cat->drules[i - cat->nrules];

		if (r->message_src == NULL || *r->message_src != '\0' ||
		    r->src_func == NULL || strcmp(r->src_func, func) != 0)
			continue;
		if (n < max)
			out[n] = r;
		n++;
	}
	return n < max ? n : max;
}
