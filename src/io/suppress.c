/*
 * suppress.c - inline suppressions: the "pdwiz: disable=" comments of a
 * checked file (the syntax and what each form covers: suppress.h).
 *
 * One pass over the lines. A directive alone on its line is pending until
 * the next line that is code (or prose); then it covers that line, or,
 * when that line goes on with '\' (or opens a fenced block), the whole
 * command (or block): the group is closed, and its last line set, once,
 * where the command (or block) ends. Pending directives are always the
 * newest entries, so the pending set and each group are ranges of e[].
 *
 * Then the entries are grouped by rule id (a counting sort: they are
 * numbered as they are read, and each rule's entries stay in line order),
 * and each rule's run keeps, at every position, the entry reaching
 * furthest so far: a match is a binary search for the last entry starting
 * at or before the line, and one look at the entry reaching furthest up
 * to there.
 */
#define _POSIX_C_SOURCE 200809L
#include "io/suppress.h"
#include "core/hashidx.h"
#include "core/util.h"

#include <ctype.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SHOWN_MAX	40		/* bytes of a word a message shows */
#define SHOWN_BUF	(SHOWN_MAX * 4 + 8)

struct supp_rule {
	size_t	 off, len;	/* its id in names */
	size_t	 first, count;	/* its line entries: order[first ..
				   first + count) */
	size_t	 file;		/* its first disable-file entry + 1; 0: none */
};

struct supp_index {
	struct buf	  names;	/* the ids, each NUL-terminated */
	struct supp_rule *rules;
	size_t		  nrules;
	struct hidx	  idx;		/* id -> rule number */
	size_t		 *order;	/* line entries by rule, then by line */
	size_t		 *reach;	/* reach[k]: of a run's order[first ..
					   k], the entry whose to is largest */
};

/* The state of one scan. */
struct scan {
	struct suppress	*s;
	enum supp_style	 style;
	int		 line;
	size_t		 pend;		/* e[pend .. n): waiting for their line */
	bool		 cont;		/* e[cont0, cont1) cover a command */
	size_t		 cont0, cont1;
	int		 cont_last;
	bool		 blk;		/* e[blk0, blk1) cover a fenced block */
	size_t		 blk0, blk1;
	bool		 fence;		/* in a fenced block (Markdown) */
	char		 fch;		/* its fence character and length */
	size_t		 flen;
	bool		 full;		/* SUPP_MAX_ENTRIES reached */
};

static const char *
rule_key(const void *ctx, size_t i, size_t *len)
{
	const struct supp_index	*ix = ctx;

	*len = ix->rules[i].len;
	return ix->names.s + ix->rules[i].off;
}

static bool
blank(char c)
{
	return c == ' ' || c == '\t';
}

static size_t
skip_blanks(const char *l, size_t n, size_t k)
{
	while (k < n && blank(l[k]))
		k++;
	return k;
}

static bool
at(const char *l, size_t n, size_t k, const char *s)
{
	size_t	m = strlen(s);

	return k <= n && n - k >= m && memcmp(l + k, s, m) == 0;
}

static void
problem(struct scan *sc, size_t k, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* A malformed directive at column k + 1 of the current line. */
static void
problem(struct scan *sc, size_t k, const char *fmt, ...)
{
	struct suppress		*s = sc->s;
	struct supp_problem	*p;
	char			 msg[512];
	va_list			 ap;

	if (s->nbad > SUPP_MAX_PROBLEMS)
		return;
	if (s->nbad == SUPP_MAX_PROBLEMS)
		snprintf(msg, sizeof msg, "more than %d malformed directives: "
		    "the rest are not reported", SUPP_MAX_PROBLEMS);
	else {
		va_start(ap, fmt);
		vsnprintf(msg, sizeof msg, fmt, ap);
		va_end(ap);
	}
	s->bad = grow_pow2(s->bad, s->nbad, sizeof *s->bad);
	p = &s->bad[s->nbad++];
	p->line = sc->line;
	p->col = k >= INT_MAX ? INT_MAX : (int)k + 1;
	p->msg = xstrdup(msg);
}

/* The number of the rule id s[0..len): a new one, or the one it had. */
static size_t
rule_number(struct supp_index *ix, const char *s, size_t len)
{
	size_t	off = ix->names.len;
	long	r;

	buf_add(&ix->names, s, len);
	buf_putc(&ix->names, '\0');
	ix->rules = grow_pow2(ix->rules, ix->nrules, sizeof *ix->rules);
	memset(&ix->rules[ix->nrules], 0, sizeof ix->rules[0]);
	ix->rules[ix->nrules].off = off;
	ix->rules[ix->nrules].len = len;
	if ((r = hidx_add(&ix->idx, ix->nrules)) >= 0) {
		ix->names.len = off;
		ix->names.s[off] = '\0';
		return (size_t)r;
	}
	return ix->nrules++;
}

/* false when there are SUPP_MAX_ENTRIES already (said once). */
static bool
add_entry(struct scan *sc, const char *id, size_t len, size_t k, bool file)
{
	struct suppress		*s = sc->s;
	struct supp_entry	*e;

	if (s->n >= SUPP_MAX_ENTRIES) {
		if (!sc->full)
			problem(sc, k, "more than %d rule ids in directives: "
			    "the rest are not read", SUPP_MAX_ENTRIES);
		sc->full = true;
		return false;
	}
	s->e = grow_pow2(s->e, s->n, sizeof *s->e);
	e = &s->e[s->n++];
	memset(e, 0, sizeof *e);
	e->rid = rule_number(s->ix, id, len);
	e->line = sc->line;
	e->col = k >= INT_MAX ? INT_MAX : (int)k + 1;
	e->from = e->to = sc->line;
	e->file = file;
	if (file) {
		e->from = 1;
		e->to = INT_MAX;
	}
	return true;
}

/* The line entries of e[from, to) cover up to line last. */
static void
cover(struct scan *sc, size_t from, size_t to, int last)
{
	size_t	i;

	for (i = from; i < to; i++)
		if (!sc->s->e[i].file)
			sc->s->e[i].to = last;
}

static void
end_cont(struct scan *sc)
{
	if (sc->cont)
		cover(sc, sc->cont0, sc->cont1, sc->cont_last);
	sc->cont = false;
}

/* A line that goes on on the next one: its last byte (blanks aside) '\'. */
static bool
continued(const char *l, size_t n)
{
	while (n > 0 && blank(l[n - 1]))
		n--;
	return n > 0 && l[n - 1] == '\\';
}

/* A fence: up to 3 spaces, then 3 or more '`' or '~'; the character and
 * the count in *ch and *cnt, the offset after them in *end. */
static bool
fence_line(const char *l, size_t n, char *ch, size_t *cnt, size_t *end)
{
	size_t	i = 0, k;

	while (i < n && i < 3 && l[i] == ' ')
		i++;
	if (i >= n || (l[i] != '`' && l[i] != '~'))
		return false;
	for (k = i; k < n && l[k] == l[i]; k++)
		;
	if (k - i < 3)
		return false;
	*ch = l[i];
	*cnt = k - i;
	*end = k;
	return true;
}

/* Whether a rule id is words of [a-z0-9-]. */
static bool
good_id(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	return n > 0;
}

/* Whether word (n bytes) is within 2 edits of name (case aside). */
static bool
near(const char *word, size_t n, const char *name)
{
	char	w[32];
	size_t	i;

	if (n == 0 || n >= sizeof w)
		return false;
	for (i = 0; i < n; i++)
		w[i] = (char)tolower((unsigned char)word[i]);
	w[n] = '\0';
	return edit_distance_within(w, name, 2) <= 2;
}

/*
 * s[0..n) for a message: at most 40 bytes of it (then "..."), control
 * bytes (CR, ESC, DEL ...) as \xNN, so that a message stays one line and
 * no byte of the file reaches a terminal as a control. Written into out.
 */
static const char *
shown(const char *s, size_t n, char *out, size_t outlen)
{
	return text_shown(s, n, SHOWN_MAX, out, outlen);
}

/* The text from k to a blank, for a message. */
static const char *
word_at(const char *l, size_t n, size_t k, char *out, size_t outlen)
{
	size_t	e = k;

	while (e < n && !blank(l[e]))
		e++;
	return shown(l + k, e - k, out, outlen);
}

/*
 * The directive whose word starts at k (after "pdwiz:" and blanks) on
 * line l, which began at start ('#' or "<!--"); md: an HTML comment,
 * closed by "-->" on the line. Returns where the scan of the line goes
 * on (past start).
 */
static size_t
directive(struct scan *sc, const char *l, size_t n, size_t k, size_t start,
    bool md)
{
	struct suppress	*s = sc->s;
	size_t		 n0 = s->n, w0 = k, w, t0, nids = 0;
	bool		 file;
	char		 b[SHOWN_BUF];

	while (k < n && (isalpha((unsigned char)l[k]) || l[k] == '_' ||
	    (l[k] == '-' && !(md && at(l, n, k, "-->")))))
		k++;
	w = k - w0;
	k = skip_blanks(l, n, k);
	if (k >= n || l[k] != '=') {
		/* Prose ("# pdwiz: written by pdwiz emit"), unless the word
		 * is a directive's, or close to one. */
		if (near(l + w0, w, "disable") || near(l + w0, w,
		    "disable-file"))
			problem(sc, w0, "expected '=' and rule ids after "
			    "'%.*s' (pdwiz: disable=RULE[,RULE...])", (int)w,
			    l + w0);
		return k > start ? k : start + 1;
	}
	if (w == 7 && memcmp(l + w0, "disable", 7) == 0)
		file = false;
	else if (w == 12 && memcmp(l + w0, "disable-file", 12) == 0)
		file = true;
	else {
		if (w == 0)
			problem(sc, w0, "expected 'disable=' or "
			    "'disable-file=' after 'pdwiz:'");
		else if (near(l + w0, w, "disable") ||
		    near(l + w0, w, "disable-file"))
			problem(sc, w0, "unknown pdwiz directive '%.*s' (did "
			    "you mean '%s'?)", (int)w, l + w0,
			    near(l + w0, w, "disable") ? "disable" :
			    "disable-file");
		else
			problem(sc, w0, "unknown pdwiz directive '%.*s' "
			    "(there are disable= and disable-file=)", (int)w,
			    l + w0);
		return k + 1;
	}
	k = skip_blanks(l, n, k + 1);
	for (;;) {
		t0 = k;
		/* A '#' after a blank begins a reason, not an id. */
		while (k < n && !blank(l[k]) && l[k] != ',' &&
		    !(md && at(l, n, k, "-->")) &&
		    !(k == t0 && l[k] == '#' && blank(l[k - 1])))
			k++;
		if (k == t0) {
			problem(sc, t0, nids == 0 ? "no rule ids after '='" :
			    "a rule id is missing after ','");
			goto bad;
		}
		if (k - t0 == 3 && memcmp(l + t0, "all", 3) == 0) {
			problem(sc, t0, "'all' is not a rule id: name each "
			    "rule to silence");
			goto bad;
		}
		if (!good_id(l + t0, k - t0)) {
			problem(sc, t0, "bad rule id '%s' (rule ids are "
			    "a-z, 0-9 and '-')", shown(l + t0, k - t0, b,
			    sizeof b));
			goto bad;
		}
		if (!add_entry(sc, l + t0, k - t0, t0, file))
			goto bad;
		nids++;
		k = skip_blanks(l, n, k);
		if (k < n && l[k] == ',') {
			k = skip_blanks(l, n, k + 1);
			continue;
		}
		break;
	}
	/* A reason may follow, after a blank: "# why". */
	if (k < n && l[k] == '#' && blank(l[k - 1])) {
		if (!md)
			return k;
		while (k < n && !at(l, n, k, "-->"))
			k++;
	}
	if (md) {
		if (at(l, n, k, "-->"))
			return k + 3;
		if (k >= n)
			problem(sc, k, "expected '-->' to close the comment "
			    "on its line");
		else
			problem(sc, k, "unexpected '%s' after the rule ids "
			    "(rule ids are separated by ',')",
			    word_at(l, n, k, b, sizeof b));
		goto bad;
	}
	if (k >= n)
		return k;
	problem(sc, k, "unexpected '%s' after the rule ids (rule ids are "
	    "separated by ',')", word_at(l, n, k, b, sizeof b));
bad:
	s->n = n0;	/* a malformed directive suppresses nothing */
	return k > start ? k : start + 1;
}

/* After '#' or "<!--" at k: blanks, "pdwiz", blanks, ':'; the offset past
 * the ':' and its blanks, or 0. */
static size_t
pdwiz_tag(const char *l, size_t n, size_t k)
{
	k = skip_blanks(l, n, k);
	if (!at(l, n, k, "pdwiz"))
		return 0;
	k = skip_blanks(l, n, k + 5);
	if (k >= n || l[k] != ':')
		return 0;
	return skip_blanks(l, n, k + 1);
}

/* The '#' directives of a line: a '#' that starts the line or follows a
 * blank. */
static void
scan_hash(struct scan *sc, const char *l, size_t n)
{
	size_t	i = 0, k;

	while (i < n) {
		if (l[i] != '#' || (i > 0 && !blank(l[i - 1])) ||
		    (k = pdwiz_tag(l, n, i + 1)) == 0) {
			i++;
			continue;
		}
		i = directive(sc, l, n, k, i, false);
	}
}

/* The "<!-- pdwiz: ... -->" directives of a line of prose, outside its
 * code spans. */
static void
scan_md(struct scan *sc, const char *l, size_t n)
{
	size_t	i = 0, k, run, span = 0;

	while (i < n) {
		if (l[i] == '`') {
			for (run = 0; i < n && l[i] == '`'; i++)
				run++;
			if (span == 0)
				span = run;
			else if (run == span)
				span = 0;
			continue;
		}
		if (span > 0 || !at(l, n, i, "<!--") ||
		    (k = pdwiz_tag(l, n, i + 4)) == 0) {
			i++;
			continue;
		}
		i = directive(sc, l, n, k, i, true);
	}
}

enum lkind { L_BLANK, L_COMMENT, L_CODE, L_OPEN, L_CLOSE };

static void
scan_line(struct scan *sc, const char *l, size_t n)
{
	struct suppress	*s = sc->s;
	bool		 hashed = sc->style == SUPP_HASH || sc->fence;
	enum lkind	 kind;
	size_t		 f = skip_blanks(l, n, 0), cnt = 0, end = 0;
	char		 ch = 0;

	if (sc->style == SUPP_MARKDOWN && fence_line(l, n, &ch, &cnt, &end) &&
	    (!sc->fence || (ch == sc->fch && cnt >= sc->flen &&
	    skip_blanks(l, n, end) == n)))
		kind = sc->fence ? L_CLOSE : L_OPEN;
	else if (f == n)
		kind = L_BLANK;
	else if (hashed ? l[f] == '#' : at(l, n, f, "<!--"))
		kind = L_COMMENT;
	else
		kind = L_CODE;

	if (sc->cont && kind == L_CODE) {
		/* A line of a command begun above: already covered. */
		sc->cont_last = sc->line;
		if (!continued(l, n))
			end_cont(sc);
	} else {
		end_cont(sc);
		if ((kind == L_CODE || kind == L_OPEN) && sc->pend < s->n) {
			if (kind == L_OPEN) {
				sc->blk = true;
				sc->blk0 = sc->pend;
				sc->blk1 = s->n;
			} else if (hashed && continued(l, n)) {
				sc->cont = true;
				sc->cont0 = sc->pend;
				sc->cont1 = s->n;
				sc->cont_last = sc->line;
			} else
				cover(sc, sc->pend, s->n, sc->line);
			sc->pend = s->n;
		}
	}
	switch (kind) {
	case L_OPEN:
		sc->fence = true;
		sc->fch = ch;
		sc->flen = cnt;
		break;
	case L_CLOSE:
		/* What waited inside the block covers its own line only. */
		if (sc->blk)
			cover(sc, sc->blk0, sc->blk1, sc->line);
		sc->blk = false;
		sc->fence = false;
		break;
	default:
		if (hashed)
			scan_hash(sc, l, n);
		else
			scan_md(sc, l, n);
		break;
	}
	/* Directives after code cover their line only; those of a comment
	 * line wait, past blank lines, for the next line of code. */
	if (kind != L_COMMENT && kind != L_BLANK)
		sc->pend = s->n;
}

/* Group the line entries by rule (see the top of the file). */
static void
build_index(struct suppress *s)
{
	struct supp_index	*ix = s->ix;
	struct supp_rule	*r;
	size_t			 i, k, pos = 0, *fill;

	for (i = 0; i < s->n; i++) {
		r = &ix->rules[s->e[i].rid];
		if (!s->e[i].file)
			r->count++;
		else if (r->file == 0)
			r->file = i + 1;
		s->e[i].rule = ix->names.s + r->off;
	}
	for (i = 0; i < ix->nrules; i++) {
		ix->rules[i].first = pos;
		pos += ix->rules[i].count;
	}
	ix->order = xreallocarray(NULL, pos ? pos : 1, sizeof *ix->order);
	ix->reach = xreallocarray(NULL, pos ? pos : 1, sizeof *ix->reach);
	fill = xcalloc(ix->nrules ? ix->nrules : 1, sizeof *fill);
	for (i = 0; i < s->n; i++) {
		if (s->e[i].file)
			continue;
		r = &ix->rules[s->e[i].rid];
		ix->order[r->first + fill[s->e[i].rid]++] = i;
	}
	free(fill);
	for (i = 0; i < ix->nrules; i++) {
		r = &ix->rules[i];
		for (k = r->first; k < r->first + r->count; k++)
			ix->reach[k] = k == r->first || s->e[ix->order[k]].to >
			    s->e[ix->reach[k - 1]].to ? ix->order[k] :
			    ix->reach[k - 1];
	}
}

void
suppress_init(struct suppress *s)
{
	memset(s, 0, sizeof *s);
}

void
suppress_scan(struct suppress *s, const char *text, size_t len,
    enum supp_style style)
{
	struct scan	 sc;
	const char	*nl, *nul;
	size_t		 p = 0, q, c;

	suppress_free(s);
	s->ix = xcalloc(1, sizeof *s->ix);
	hidx_init(&s->ix->idx, rule_key, s->ix);
	memset(&sc, 0, sizeof sc);
	sc.s = s;
	sc.style = style;
	while (p < len && sc.line < INT_MAX - 1) {
		nl = memchr(text + p, '\n', len - p);
		q = nl != NULL ? (size_t)(nl - text) : len;
		c = q;
		if ((nul = memchr(text + p, '\0', q - p)) != NULL)
			c = (size_t)(nul - text);
		else if (c > p && text[c - 1] == '\r')
			c--;
		sc.line++;
		scan_line(&sc, text + p, c - p);
		if (nl == NULL)
			break;
		p = q + 1;
	}
	end_cont(&sc);
	if (sc.blk)
		cover(&sc, sc.blk0, sc.blk1, sc.line);
	build_index(s);
}

bool
suppress_match(struct suppress *s, const char *rule, int line)
{
	struct supp_index	*ix = s->ix;
	struct supp_rule	*r;
	struct supp_entry	*best;
	size_t			 lo, hi, mid;
	long			 k;

	if (ix == NULL || (k = hidx_find(&ix->idx, rule, strlen(rule))) < 0)
		return false;
	r = &ix->rules[k];
	if (r->file != 0) {
		s->work++;
		s->e[r->file - 1].used = true;
		return true;
	}
	lo = r->first;
	hi = r->first + r->count;
	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		s->work++;
		if (s->e[ix->order[mid]].from <= line)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == r->first)
		return false;
	s->work++;
	best = &s->e[ix->reach[lo - 1]];
	if (best->to < line)
		return false;
	best->used = true;
	return true;
}

const struct supp_entry *
suppress_next_unused(const struct suppress *s, size_t *pos)
{
	while (*pos < s->n)
		if (!s->e[(*pos)++].used)
			return &s->e[*pos - 1];
	return NULL;
}

void
suppress_free(struct suppress *s)
{
	size_t	i;

	for (i = 0; i < s->nbad; i++)
		free(s->bad[i].msg);
	free(s->bad);
	free(s->e);
	if (s->ix != NULL) {
		buf_free(&s->ix->names);
		free(s->ix->rules);
		hidx_free(&s->ix->idx);
		free(s->ix->order);
		free(s->ix->reach);
		free(s->ix);
	}
	suppress_init(s);
}
