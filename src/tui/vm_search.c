/*
 * vm_search.c - search every visible field by label, option name, flag, choice
 * values and help text, saying why each hit matched.
 */
#include "tui/vm_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* Lower case, '-' and '_' as spaces, leading dashes dropped (malloc'd). */
static char *
norm(const char *src)
{
	char	*dst, *d;

	while (*src == '-')
		src++;
	dst = d = xstrdup(src);
	for (; *d != '\0'; d++)
		*d = *d == '-' || *d == '_' ? ' ' :
		    (char)tolower((unsigned char)*d);
	return dst;
}

static int
match_score(const char *hay, const char *q)
{
	char		*h = norm(hay);
	const char	*p = strstr(h, q);
	int		 score = p == NULL ? 0 : p == h ? 3 : 2;

	free(h);
	return score;
}

/* The best match of one term so far, and why. */
struct why {
	int		 best;
	enum vm_hit_why	 why;
	const char	*what;
	size_t		 at;
};

static void
consider(struct why *w, int score, enum vm_hit_why why, const char *what,
    size_t at)
{
	if (score > w->best) {
		w->best = score;
		w->why = why;
		w->what = what;
		w->at = at;
	}
}

/* Where term q starts in text (compared as norm does), or (size_t)-1. */
static size_t
find_in(const char *text, const char *q)
{
	char		*h = xstrdup(text), *d, *p;
	size_t		 at;

	for (d = h; *d != '\0'; d++)
		*d = *d == '-' || *d == '_' ? ' ' :
		    (char)tolower((unsigned char)*d);
	p = strstr(h, q);
	at = p == NULL ? (size_t)-1 : (size_t)(p - h);
	free(h);
	return at;
}

/* How well one field matches every term of q (0: not at all); *hit says
 * why, from the first term that matched only a value or the help. */
static int
field_score(const struct vm *vm, const struct vm_field *f, const char *q,
    struct vm_hit *hit)
{
	char	*qq = xstrdup(q), *tok, *save = NULL;
	int	 score = 0;
	size_t	 i, at;

	hit->why = VM_WHY_NAME;
	hit->what = NULL;
	hit->at = 0;
	for (tok = strtok_r(qq, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		struct why	w = { match_score(f->label, tok), VM_WHY_NAME,
				    NULL, 0 };

		if (!VM_IS_DKEY(f->key)) {
			const struct option	*o = &vm->cat->opts[f->key];

			consider(&w, match_score(o->name, tok), VM_WHY_NAME,
			    NULL, 0);
			if (o->flag)
				consider(&w, match_score(o->flag, tok),
				    VM_WHY_NAME, NULL, 0);
			for (i = 0; w.best == 0 && i < o->nchoices; i++)
				if (match_score(o->choices[i], tok) > 0)
					consider(&w, 1, VM_WHY_VALUE,
					    o->choices[i], 0);
			if (w.best == 0 && o->help &&
			    (at = find_in(o->help, tok)) != (size_t)-1)
				consider(&w, 1, VM_WHY_HELP, o->help, at);
		}
		if (w.best == 0) {
			score = 0;
			break;
		}
		if (w.why != VM_WHY_NAME && hit->what == NULL) {
			hit->why = w.why;
			hit->what = w.what;
			hit->at = w.at;
		}
		score += w.best;
	}
	free(qq);
	return score;
}

/* Put hit h into hits[0..*n) sorted by score (stable), at most max. */
static void
add_hit(struct vm_hit *hits, size_t *n, size_t max, const struct vm_hit *h)
{
	size_t	k;

	for (k = *n; k > 0 && hits[k - 1].score < h->score; k--)
		if (k < max)
			hits[k] = hits[k - 1];
	if (k < max) {
		hits[k] = *h;
		if (*n < max)
			(*n)++;
	}
}

/* Search pages from..npages-1 into hits. */
static void
search_pages(struct vm *vm, const char *q, size_t from, struct vm_hit *hits,
    size_t *n, size_t max)
{
	size_t		 i, j;
	struct vm_hit	 h;

	for (i = from; i < vm->npages; i++) {
		if (!vm->pvis[i])
			continue;
		for (j = 0; j < vm->pages[i].nf; j++) {
			if (!vm->fvis[i][j] || (h.score = field_score(vm,
			    &vm->pages[i].f[j], q, &h)) == 0)
				continue;
			h.page = (int)i;
			h.field = (int)j;
			/* The pages' own fields first, then All options. */
			if (!vm->pages[i].all)
				h.score += 1000;
			add_hit(hits, n, max, &h);
		}
	}
}

size_t
vm_search(struct vm *vm, const char *query, struct vm_hit *hits, size_t max)
{
	char		*q = norm(query);
	size_t		 n = 0, n0;

	if (q[0] != '\0' && max > 0) {
		n0 = vm->npages;
		search_pages(vm, q, 0, hits, &n, max);
		/* Fewer hits than asked for: the All options pages, built
		 * now if they were not (they come after every other page). */
		if (n < max && !vm->all_built && vm_all_options(vm) == 0)
			search_pages(vm, q, n0, hits, &n, max);
	}
	free(q);
	return n;
}

/* The help text around offset at: about 40 columns from a word start. */
static void
help_excerpt(struct buf *b, const char *help, size_t at)
{
	size_t	start = at, len = strlen(help), end;

	while (start > 0 && at - start < 12 && help[start - 1] != ' ')
		start--;
	if (at - start >= 12)
		start = at;
	end = start + 40 < len ? start + 40 : len;
	while (end < len && ((unsigned char)help[end] & 0xC0) == 0x80)
		end++;
	buf_printf(b, "help: %s%.*s%s", start > 0 ? "..." : "",
	    (int)(end - start), help + start, end < len ? "..." : "");
}

char *
vm_hit_text(const struct vm *vm, const struct vm_hit *h)
{
	const struct vm_page	*p = &vm->pages[h->page];
	const struct vm_field	*f = &p->f[h->field];
	struct buf		 b = { 0 };

	buf_puts(&b, f->label);
	if (h->why == VM_WHY_VALUE)
		buf_printf(&b, "  value: %s", h->what);
	else if (h->why == VM_WHY_HELP) {
		buf_puts(&b, "  ");
		help_excerpt(&b, h->what, h->at);
	}
	buf_printf(&b, "  [%s]", p->title);
	if (!VM_IS_DKEY(f->key) && vm->cat->opts[f->key].flag != NULL &&
	    strcmp(vm->cat->opts[f->key].flag, f->label) != 0)
		buf_printf(&b, "  %s", vm->cat->opts[f->key].flag);
	return buf_steal(&b);
}
