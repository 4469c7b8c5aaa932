/*
 * fuzz_suppress.c - the inline suppressions (suppress_scan, io/suppress.c);
 * the first byte chooses the style (odd: Markdown). Every entry keeps its
 * promises (an id of [a-z0-9-], not "all"; a place inside the text; its
 * own line inside what it covers), every problem has a place, the limits
 * hold, and suppress_match agrees with a walk over the entries.
 */
#include "fuzz.h"
#include "io/suppress.h"

#include <limits.h>

static bool
good_id(const char *s)
{
	size_t	i;

	for (i = 0; s[i] != '\0'; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-'))
			return false;
	return i > 0 && strcmp(s, "all") != 0;
}

/* Whether some entry for rule covers line: what suppress_match answers. */
static bool
walk(const struct suppress *s, const char *rule, int line)
{
	size_t	i;

	for (i = 0; i < s->n; i++)
		if (strcmp(s->e[i].rule, rule) == 0 && (s->e[i].file ||
		    (s->e[i].from <= line && line <= s->e[i].to)))
			return true;
	return false;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct suppress		 s;
	const char		*text = (const char *)data + 1;
	size_t			 len = size > 0 ? size - 1 : 0, i, k, pos = 0;
	int			 lines = 1, l;
	enum supp_style		 style;

	if (size == 0)
		return 0;
	style = data[0] & 1 ? SUPP_MARKDOWN : SUPP_HASH;
	for (i = 0; i + 1 < len; i++)
		lines += text[i] == '\n';
	suppress_init(&s);
	suppress_scan(&s, text, len, style);
	if (s.n > SUPP_MAX_ENTRIES || s.nbad > SUPP_MAX_PROBLEMS + 1)
		abort();
	for (i = 0; i < s.n; i++) {
		const struct supp_entry	*e = &s.e[i];

		if (!good_id(e->rule) || e->line < 1 || e->line > lines ||
		    e->col < 1 || (size_t)e->col > len)
			abort();
		if (e->file ? e->from != 1 || e->to != INT_MAX :
		    e->from != e->line || e->to < e->line || e->to > lines)
			abort();
		if (i > 0 && e->line < s.e[i - 1].line)
			abort();
	}
	for (i = 0; i < s.nbad; i++)
		if (s.bad[i].line < 1 || s.bad[i].line > lines ||
		    s.bad[i].col < 1 || s.bad[i].msg[0] == '\0')
			abort();
	/* The lookup against the walk, for a few rules on every line of a
	 * small text; the last lookup's rule marked, the walk unmoved. */
	if (s.n <= 500 && lines <= 200)
		for (k = 0; k < s.n && k < 8; k++)
			for (l = 0; l <= lines + 1; l++)
				if (suppress_match(&s, s.e[k].rule, l) !=
				    walk(&s, s.e[k].rule, l))
					abort();
	(void)suppress_match(&s, "no-such-rule", 1);
	/* Every entry's own line is covered (by it, or one reaching as far). */
	for (i = 0; i < s.n; i++)
		if (!suppress_match(&s, s.e[i].rule, s.e[i].line))
			abort();
	while (suppress_next_unused(&s, &pos) != NULL)
		;
	if (pos != s.n)
		abort();
	suppress_free(&s);
	return 0;
}
