/*
 * shell.c - read shell snippets the way an operator writes launch scripts:
 * the public API (sh_parse, sh_script_free, sh_quote) and the parse loop.
 * The design of the reader is described in shell_int.h.
 */

#include "io/shell_int.h"

#include <limits.h>
#include <stdlib.h>
#include <string.h>

/*
 * Private copy: CR LF becomes LF (p->lx.crlf remembers where, for quoted
 * text); NUL bytes are an error.
 */
static char *
copy_input(struct parser *p, const char *text, size_t len, size_t *outlen)
{
	char	*b;
	void	*pp;
	size_t	 i, o = 0, ls = 0;
	int	 line = 1;

	if (len > (size_t)INT_MAX) {
		sh_seterr(p, 1, 1, "input too large");
		return (NULL);
	}
	b = xmalloc(len + 1);
	for (i = 0; i < len; i++) {
		if (text[i] == '\0') {
			sh_seterr(p, line, (int)(i - ls + 1), "NUL byte in input");
			free(b);
			free(p->lx.crlf);
			p->lx.crlf = NULL;
			return (NULL);
		}
		if (text[i] == '\r' && (i + 1 == len || text[i + 1] == '\n')) {
			if (i + 1 < len) {
				pp = p->lx.crlf;
				sh_grow(&pp, &p->lx.capcrlf, p->lx.ncrlf + 1,
				    sizeof(*p->lx.crlf));
				p->lx.crlf = pp;
				p->lx.crlf[p->lx.ncrlf++] = o;
			}
			continue;
		}
		if (text[i] == '\n') {
			line++;
			ls = i + 1;
		}
		b[o++] = text[i];
	}
	b[o] = '\0';
	*outlen = o;
	return (b);
}

static void
parser_free(struct parser *p)
{
	size_t	i;

	for (i = 0; i < p->lx.nhd; i++)
		free(p->lx.hd[i].delim);
	free(p->lx.hd);
	free(p->lx.stk);
	free(p->lx.crlf);
	free((char *)p->lx.s);
	free(p->cur.words);
	sh_vt_free(&p->own.t);
	sh_x_free(&p->x);
	sh_vt_free(&p->tab);
}

static int
parse_loop(struct parser *p)
{
	struct token	 tok;

	for (;;) {
		if (sh_next_token(p, &tok) != 0)
			return (-1);
		if (tok.type == T_WORD || tok.type == T_REDIR)
			p->endline = tok.endline;
		if (tok.type == T_WORD && p->intarget) {
			p->intarget = false;
			continue;
		}
		if (tok.type == T_WORD) {
			if (sh_cmd_word(p, &tok) != 0)
				return (-1);
			continue;
		}
		if (tok.type == T_REDIR) {
			p->intarget = tok.target;
			continue;
		}
		p->intarget = false;
		if (sh_finish_cmd(p) != 0)
			return (-1);
		if (tok.type == T_EOF)
			return (0);
	}
}

int
sh_parse(const char *text, size_t len, struct sh_script *out, char *err,
    size_t errlen)
{
	struct parser	 p;
	struct sh_script tmp;
	size_t		 n = 0;

	memset(out, 0, sizeof(*out));
	memset(&p, 0, sizeof(p));
	if (err != NULL && errlen != 0)
		err[0] = '\0';
	p.err = err;
	p.errlen = errlen;
	sh_vt_init(&p.tab);
	sh_vt_init(&p.own.t);
	if (text == NULL)
		len = 0;
	if ((p.lx.s = copy_input(&p, text != NULL ? text : "", len, &n)) ==
	    NULL)
		return (-1);
	p.lx.len = n;
	p.maxout = SH_MAX_OUT + 4 * n;
	p.lx.pline = 1;
	p.pool = xcalloc(1, sizeof(*p.pool));

	if (parse_loop(&p) != 0) {
		tmp.cmds = p.cmds;
		tmp.ncmds = p.ncmds;
		tmp.pool = p.pool;
		sh_script_free(&tmp);
		parser_free(&p);
		return (-1);
	}
	out->cmds = p.cmds;
	out->ncmds = p.ncmds;
	out->pool = p.pool;
	out->unclosed_heredoc = p.lx.unclosed;
	parser_free(&p);
	return (0);
}

void
sh_script_free(struct sh_script *s)
{
	size_t	i;

	if (s == NULL)
		return;
	for (i = 0; i < s->ncmds; i++)
		free(s->cmds[i].words);
	free(s->cmds);
	sh_pool_free(s->pool);
	memset(s, 0, sizeof(*s));
}

static bool
is_plain(const char *s)
{
	if (*s == '\0')
		return (false);
	for (; *s != '\0'; s++) {
		unsigned char	c = (unsigned char)*s;

		/* a letter or a digit first: most bytes of a long word */
		if ((unsigned)((c | 0x20) - 'a') < 26u ||
		    (unsigned)(c - '0') < 10u)
			continue;
		if (c != '_' && strchr("@%+=:,./-", c) == NULL)
			return (false);
	}
	return (true);
}

char *
sh_quote(const char *s)
{
	size_t	 n = 2, i;
	char	*r, *o;

	if (is_plain(s))
		return (xstrdup(s));
	for (i = 0; s[i] != '\0'; i++)
		n += s[i] == '\'' ? 4 : 1;
	r = o = xmalloc(n + 1);
	*o++ = '\'';
	for (i = 0; s[i] != '\0'; i++) {
		if (s[i] == '\'') {
			memcpy(o, "'\\''", 4);
			o += 4;
		} else
			*o++ = s[i];
	}
	*o++ = '\'';
	*o = '\0';
	return (r);
}
