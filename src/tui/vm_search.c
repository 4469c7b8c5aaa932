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

static void
norm(char *dst, size_t len, const char *src)
{
	size_t	i = 0;

	while (*src == '-')
		src++;
	for (; *src != '\0' && i + 1 < len; src++)
		dst[i++] = *src == '-' || *src == '_' ? ' ' :
		    (char)tolower((unsigned char)*src);
	dst[i] = '\0';
}

static int
match_score(const char *hay, const char *q)
{
	char		 h[512];
	const char	*p;

	norm(h, sizeof h, hay);
	if ((p = strstr(h, q)) == NULL)
		return 0;
	return p == h ? 3 : 2;
}

size_t
vm_search(struct vm *vm, const char *query, struct vm_hit *hits, size_t max)
{
	char	 q[256], *tok, *save = NULL;
	size_t	 n = 0, i, j, k;

	norm(q, sizeof q, query);
	if (q[0] == '\0')
		return 0;
	for (i = 0; i < vm->npages; i++) {
		if (!vm->pvis[i])
			continue;
		for (j = 0; j < vm->pages[i].nf; j++) {
			const struct vm_field	*f = &vm->pages[i].f[j];
			char			 qq[256];

			if (!vm->fvis[i][j])
				continue;
			int			 score = 0, s;

			memcpy(qq, q, sizeof qq);
			for (tok = strtok_r(qq, " ", &save); tok != NULL;
			    tok = strtok_r(NULL, " ", &save)) {
				int	best = match_score(f->label, tok);

				if (!VM_IS_DKEY(f->key)) {
					const struct option *o =
					    &vm->cat->opts[f->key];

					if ((s = match_score(o->name, tok)) > best)
						best = s;
					if (o->flag && (s = match_score(o->flag,
					    tok)) > best)
						best = s;
					if (best == 0 && o->help &&
					    match_score(o->help, tok) > 0)
						best = 1;
				}
				if (best == 0) {
					score = 0;
					break;
				}
				score += best;
			}
			if (score == 0)
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
	return n;
}

void
vm_hit_text(const struct vm *vm, const struct vm_hit *h, char *out,
    size_t len)
{
	const struct vm_page	*p = &vm->pages[h->page];
	const struct vm_field	*f = &p->f[h->field];

	if (!VM_IS_DKEY(f->key) && vm->cat->opts[f->key].flag != NULL &&
	    strcmp(vm->cat->opts[f->key].flag, f->label) != 0)
		snprintf(out, len, "%s  %s  [%s]", f->label,
		    vm->cat->opts[f->key].flag, p->title);
	else
		snprintf(out, len, "%s  [%s]", f->label, p->title);
}

