/* shell_heredoc.c - here-document delimiters and bodies. */

#include "io/shell_int.h"

#include <stdlib.h>
#include <string.h>

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
		buf_putc(b, s[i]);
	}
}

/* After << or <<- at lx->pos: read the delimiter word and queue the body. */
int
sh_lex_heredoc(struct parser *p, struct token *tok, bool strip)
{
	struct lexer	*lx = &p->lx;
	struct token	 w;
	struct heredoc	*h;
	struct buf	 b = { 0 };
	void		*pp;

	while (lx->pos < lx->len && (lx->s[lx->pos] == ' ' ||
	    lx->s[lx->pos] == '\t'))
		lx->pos++;
	if (lx->pos >= lx->len || sh_is_meta((unsigned char)lx->s[lx->pos]))
		return (0);
	memset(&w, 0, sizeof(w));
	if (sh_lex_word(p, &w) != 0)
		return (-1);
	tok->endline = w.endline;
	buf_add(&b, "", 0);
	unquote_delim(lx->s + w.start, w.end - w.start, &b);
	pp = lx->hd;
	sh_grow(&pp, &lx->caphd, lx->nhd + 1, sizeof(*lx->hd));
	lx->hd = pp;
	h = &lx->hd[lx->nhd++];
	h->len = b.len;
	h->delim = buf_steal(&b);
	h->strip = strip;
	h->line = tok->line;
	return (0);
}

/* At the start of a line: skip the bodies of the queued here-documents. */
void
sh_read_heredocs(struct lexer *lx)
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
