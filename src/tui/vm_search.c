/*
 * vm_search.c - search every visible field by label, option name, flag and
 * help text.
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

/* How well one field matches every term of q (0: not at all). */
static int
field_score(const struct vm *vm, const struct vm_field *f, const char *q)
{
	char	*qq = xstrdup(q), *tok, *save = NULL;
	int	 score = 0, s;

	for (tok = strtok_r(qq, " ", &save); tok != NULL;
	    tok = strtok_r(NULL, " ", &save)) {
		int	best = match_score(f->label, tok);

		if (!VM_IS_DKEY(f->key)) {
			const struct option	*o = &vm->cat->opts[f->key];

			if ((s = match_score(o->name, tok)) > best)
				best = s;
			if (o->flag && (s = match_score(o->flag, tok)) > best)
				best = s;
			if (best == 0 && o->help && match_score(o->help, tok) > 0)
				best = 1;
		}
		if (best == 0) {
			score = 0;
			break;
		}
		score += best;
	}
	free(qq);
	return score;
}

size_t
vm_search(struct vm *vm, const char *query, struct vm_hit *hits, size_t max)
{
	char	*q = norm(query);
	size_t	 n = 0, i, j, k;
	int	 score;

	for (i = 0; q[0] != '\0' && i < vm->npages; i++) {
		if (!vm->pvis[i])
			continue;
		for (j = 0; j < vm->pages[i].nf; j++) {
			if (!vm->fvis[i][j] ||
			    (score = field_score(vm, &vm->pages[i].f[j], q)) == 0)
				continue;
			/* Insert sorted by score, stable. */
			for (k = n; k > 0 && hits[k - 1].score < score; k--)
				if (k < max)
					hits[k] = hits[k - 1];
			if (k < max) {
				hits[k].page = (int)i;
				hits[k].field = (int)j;
				hits[k].score = score;
				if (n < max)
					n++;
			}
		}
	}
	free(q);
	return n;
}

char *
vm_hit_text(const struct vm *vm, const struct vm_hit *h)
{
	const struct vm_page	*p = &vm->pages[h->page];
	const struct vm_field	*f = &p->f[h->field];

	if (!VM_IS_DKEY(f->key) && vm->cat->opts[f->key].flag != NULL &&
	    strcmp(vm->cat->opts[f->key].flag, f->label) != 0)
		return xasprintf("%s  %s  [%s]", f->label,
		    vm->cat->opts[f->key].flag, p->title);
	return xasprintf("%s  [%s]", f->label, p->title);
}
