/* shell_lex.c - cut a script into words, operators and redirections. */

#include "io/shell_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

bool
sh_is_name_start(int c)
{
	return ((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_');
}

bool
sh_is_name_char(int c)
{
	return (sh_is_name_start(c) || (c >= '0' && c <= '9'));
}

bool
sh_is_meta(int c)
{
	return (c == ' ' || c == '\t' || c == '\n' || c == ';' || c == '&' ||
	    c == '|' || c == '(' || c == ')' || c == '<' || c == '>');
}

/* Length of NAME in NAME= or NAME+= at s, or 0. Sets *append. */
size_t
sh_assign_name(const char *s, size_t n, bool *append)
{
	size_t	i = 0;

	*append = false;
	/* no '=' (most words, a long one too): no assignment, no scan */
	if (n == 0 || !sh_is_name_start((unsigned char)s[0]) ||
	    memchr(s, '=', n) == NULL)
		return (0);
	while (i < n && sh_is_name_char((unsigned char)s[i]))
		i++;
	if (i < n && s[i] == '=')
		return (i);
	if (i + 1 < n && s[i] == '+' && s[i + 1] == '=') {
		*append = true;
		return (i);
	}
	return (0);
}

/* Line and column (1-based, bytes) of offset off. */
static void
pos_at(struct lexer *lx, size_t off, int *line, int *col)
{
	const char	*q;

	if (off > lx->len)
		off = lx->len;
	if (off < lx->pcur) {
		lx->pcur = lx->pls = 0;
		lx->pline = 1;
	}
	while (lx->pcur < off) {
		q = memchr(lx->s + lx->pcur, '\n', off - lx->pcur);
		if (q == NULL) {
			lx->pcur = off;
			break;
		}
		lx->pline++;
		lx->pls = lx->pcur = (size_t)(q - lx->s) + 1;
	}
	*line = lx->pline;
	*col = (int)(off - lx->pls + 1);
}

/*
 * If a construct opens at s[i] in context where, return the length of the
 * opener and its type in *t, else 0.
 */
static size_t
opener(const char *s, size_t i, size_t end, enum ctx where, bool in_dq,
    enum ctx *t)
{
	char	c = s[i], n = i + 1 < end ? s[i + 1] : '\0';

	if (c == '$' && n == '(') {
		*t = C_PAREN;
		return (2);
	}
	if (c == '$' && n == '{') {
		*t = C_BRACE;
		return (2);
	}
	if (c == '`') {
		*t = C_BQ;
		return (1);
	}
	if (where == C_DQ)
		return (0);
	if (c == '"') {
		*t = C_DQ;
		return (1);
	}
	if (where == C_BRACE && in_dq)
		return (0);
	if (c == '\'') {
		*t = C_SQ;
		return (1);
	}
	if (c == '$' && n == '\'') {
		*t = C_ANSIC;
		return (2);
	}
	if (c == '$' && n == '"') {
		*t = C_DQ;
		return (2);
	}
	return (0);
}

/* opener() for an unquoted word (array elements). */
size_t
sh_opener(const char *s, size_t i, size_t end, enum ctx *t)
{
	return (opener(s, i, end, C_PAREN, false, t));
}

static void
push(struct lexer *lx, enum ctx type, size_t off, bool in_dq)
{
	void	*pp = lx->stk;

	sh_grow(&pp, &lx->capstk, lx->nstk + 1, sizeof(*lx->stk));
	lx->stk = pp;
	lx->stk[lx->nstk].type = type;
	lx->stk[lx->nstk].off = off;
	lx->stk[lx->nstk].depth = 0;
	lx->stk[lx->nstk].in_dq = in_dq;
	lx->nstk++;
}

static size_t
unterminated(struct parser *p, const struct frame *f, bool report)
{
	static const char *what[] = {
		"single quote", "double quote", "single quote", "backquote",
		"parameter expansion", "parenthesis"
	};
	const char	*s = p->lx.s;
	int		 line, col;

	if (!report)
		return (NONE);
	pos_at(&p->lx, f->off, &line, &col);
	if (f->type == C_PAREN && s[f->off] == '$')
		sh_seterr(p, line, col, "unterminated command substitution");
	else if (f->type == C_PAREN && s[f->off] != '(')
		sh_seterr(p, line, col, "unterminated process substitution");
	else
		sh_seterr(p, line, col, "unterminated %s", what[f->type]);
	return (NONE);
}

/*
 * Find the end of the construct of the given type whose opener (oplen
 * bytes) is at pos. Returns the offset just past it, or NONE if it is not
 * closed (with an error if report).
 */
size_t
sh_skip_from(struct parser *p, size_t pos, enum ctx type, size_t oplen,
    bool in_dq, bool report)
{
	struct lexer	*lx = &p->lx;
	const char	*s = lx->s, *q;
	size_t		 end = lx->len, i, n;
	struct frame	*f;
	enum ctx	 nt;
	bool		 cdq;
	char		 c;

	lx->nstk = 0;
	push(lx, type, pos, in_dq);
	i = pos + oplen;
	while (lx->nstk > 0) {
		f = &lx->stk[lx->nstk - 1];
		if (i >= end)
			return (unterminated(p, f, report));
		c = s[i];
		switch (f->type) {
		case C_SQ:
			q = memchr(s + i, '\'', end - i);
			if (q == NULL)
				return (unterminated(p, f, report));
			i = (size_t)(q - s) + 1;
			lx->nstk--;
			continue;
		case C_ANSIC:
		case C_BQ:
			if (c == '\\')
				i += 2;
			else if (c == (f->type == C_BQ ? '`' : '\'')) {
				i++;
				lx->nstk--;
			} else
				i++;
			continue;
		case C_DQ:
			/* Fast path for long double-quoted strings. */
			while (i < end && s[i] != '"' && s[i] != '\\' &&
			    s[i] != '$' && s[i] != '`')
				i++;
			if (i >= end)
				continue;
			c = s[i];
			break;
		default:
			break;
		}
		if (c == '\\') {
			i += 2;
			continue;
		}
		if ((f->type == C_DQ && c == '"') ||
		    (f->type == C_BRACE && c == '}')) {
			i++;
			lx->nstk--;
			continue;
		}
		if (f->type == C_PAREN && c == '(') {
			f->depth++;
			i++;
			continue;
		}
		if (f->type == C_PAREN && c == ')') {
			if (f->depth-- == 0)
				lx->nstk--;
			i++;
			continue;
		}
		if ((n = opener(s, i, end, f->type, f->in_dq, &nt)) != 0) {
			cdq = f->type == C_DQ || (f->type == C_BRACE && f->in_dq);
			push(lx, nt, i, cdq);
			i += n;
			continue;
		}
		i++;
	}
	return (i);
}

/*
 * A document placeholder <NAME> at s[i] (<your-model>, <INFRA_NODE_IP>,
 * <path/to/model>): its length, else 0. Bash would read it as two
 * redirections; in a launch command it only ever stands for a value the
 * reader fills in, so it is read as (part of) a word.
 */
size_t
sh_placeholder_at(const char *s, size_t i, size_t len)
{
	size_t	j = i + 1;

	if (i >= len || s[i] != '<' || j >= len || !(isalpha((unsigned char)s[j])
	    || s[j] == '_'))
		return (0);
	while (j < len && (isalnum((unsigned char)s[j]) ||
	    strchr("_.-/:", s[j]) != NULL))
		j++;
	return (j < len && s[j] == '>' ? j + 1 - i : 0);
}

/*
 * The characters sh_lex_word passes over one by one: not a metacharacter,
 * a backslash, a quote, '$', '`' or '<' (a placeholder's start), nor NUL.
 */
static const bool not_plain[256] = {
	['\0'] = true, [' '] = true, ['\t'] = true, ['\n'] = true, [';'] = true,
	['&'] = true, ['|'] = true, ['('] = true, [')'] = true, ['<'] = true,
	['>'] = true, ['\\'] = true, ['\''] = true, ['"'] = true, ['$'] = true,
	['`'] = true,
};

/* Scan a word at lx->pos. */
int
sh_lex_word(struct parser *p, struct token *tok)
{
	struct lexer	*lx = &p->lx;
	const char	*s = lx->s;
	size_t		 i = lx->pos, start = lx->pos, n, nl;
	enum ctx	 t;
	bool		 app;
	int		 line, col;

	tok->type = T_WORD;
	tok->start = start;
	pos_at(lx, start, &tok->line, &tok->col);
	if ((s[i] == '<' || s[i] == '>') && i + 1 < lx->len && s[i + 1] == '(') {
		/* Process substitution <(cmd) or >(cmd). */
		if ((i = sh_skip_from(p, i, C_PAREN, 2, false, true)) == NONE)
			return (-1);
	}
	while (i < lx->len) {
		/* A run of characters that neither end the word nor open
		 * anything: a few comparisons each (a long word is mostly
		 * these). */
		{
			const size_t	len = lx->len;

			while (i < len && !not_plain[(unsigned char)s[i]])
				i++;
			if (i >= len)
				break;
		}
		if ((n = sh_placeholder_at(s, i, lx->len)) != 0) {
			i += n;
			continue;
		}
		if (sh_is_meta((unsigned char)s[i])) {
			if (s[i] != '(')
				break;
			nl = sh_assign_name(s + start, i - start, &app);
			if (nl == 0 ||
			    i - start != nl + 1 + (app ? 1 : 0))
				break;
			/* NAME=(...) array assignment. */
			if ((i = sh_skip_from(p, i, C_PAREN, 1, false, true)) ==
			    NONE)
				return (-1);
			tok->array = true;
			continue;
		}
		if (s[i] == '\\') {
			if (i + 1 >= lx->len) {
				pos_at(lx, i, &line, &col);
				sh_seterr(p, line, col,
				    "backslash at end of input");
				return (-1);
			}
			i += 2;
			continue;
		}
		if ((n = opener(s, i, lx->len, C_PAREN, false, &t)) != 0) {
			if ((i = sh_skip_from(p, i, t, n, false, true)) == NONE)
				return (-1);
			continue;
		}
		i++;
	}
	tok->end = i;
	tok->assign = sh_assign_name(s + start, i - start, &app) != 0;
	pos_at(lx, i - 1, &tok->endline, &col);
	lx->pos = i;
	return (0);
}

/* Operators: longest first. */
static const struct {
	const char	*op;
	enum ttype	 type;
	bool		 target;
} ops[] = {
	{ ";;&", T_SEP, false },
	{ "<<<", T_REDIR, true },
	{ "<<-", T_REDIR, false },	/* here-document, strip tabs */
	{ "&>>", T_REDIR, true },
	{ ";;", T_SEP, false },
	{ ";&", T_SEP, false },
	{ "&&", T_SEP, false },
	{ "||", T_SEP, false },
	{ "|&", T_SEP, false },
	{ "<<", T_REDIR, false },	/* here-document */
	{ ">>", T_REDIR, true },
	{ ">&", T_REDIR, true },
	{ "<&", T_REDIR, true },
	{ ">|", T_REDIR, true },
	{ "<>", T_REDIR, true },
	{ "&>", T_REDIR, true },
	{ ";", T_SEP, false },
	{ "&", T_SEP, false },
	{ "|", T_SEP, false },
	{ "(", T_SEP, false },
	{ ")", T_SEP, false },
	{ "<", T_REDIR, true },
	{ ">", T_REDIR, true }
};

int
sh_next_token(struct parser *p, struct token *tok)
{
	struct lexer	*lx = &p->lx;
	const char	*s = lx->s, *q;
	size_t		 i, j, n;
	int		 col;

	memset(tok, 0, sizeof(*tok));
again:
	while (lx->pos < lx->len) {
		if (s[lx->pos] == ' ' || s[lx->pos] == '\t')
			lx->pos++;
		else if (s[lx->pos] == '\\' && lx->pos + 1 < lx->len &&
		    s[lx->pos + 1] == '\n')
			lx->pos += 2;
		else
			break;
	}
	i = lx->pos;
	if (i >= lx->len) {
		tok->type = T_EOF;
		pos_at(lx, i, &tok->line, &tok->col);
		tok->endline = tok->line;
		return (0);
	}
	if (s[i] == '#') {
		q = memchr(s + i, '\n', lx->len - i);
		lx->pos = q != NULL ? (size_t)(q - s) : lx->len;
		goto again;
	}
	tok->start = i;
	pos_at(lx, i, &tok->line, &tok->col);
	tok->endline = tok->line;
	if (s[i] == '\n') {
		tok->type = T_NEWLINE;
		lx->pos = i + 1;
		if (lx->nhd != 0)
			sh_read_heredocs(lx);
		return (0);
	}

	if (strchr("0123456789;&|()<>", s[i]) == NULL ||
	    sh_placeholder_at(s, i, lx->len) != 0)
		return (sh_lex_word(p, tok));

	/* An fd number before a redirection: 2>&1, 10<file. */
	j = i;
	while (j < lx->len && s[j] >= '0' && s[j] <= '9')
		j++;
	if (j == i || j >= lx->len || (s[j] != '<' && s[j] != '>') ||
	    (j + 1 < lx->len && s[j + 1] == '('))
		j = i;
	if ((s[j] == '<' || s[j] == '>') && j + 1 < lx->len &&
	    s[j + 1] == '(')
		return (sh_lex_word(p, tok));

	for (n = 0; n < sizeof(ops) / sizeof(ops[0]); n++) {
		if (ops[n].op[0] != s[j] ||
		    strncmp(s + j, ops[n].op, strlen(ops[n].op)) != 0)
			continue;
		tok->type = ops[n].type;
		tok->target = ops[n].target;
		lx->pos = j + strlen(ops[n].op);
		pos_at(lx, lx->pos - 1, &tok->endline, &col);
		if (strncmp(ops[n].op, "<<", 2) == 0 && ops[n].op[2] != '<')
			return (sh_lex_heredoc(p, tok, ops[n].op[2] == '-'));
		return (0);
	}
	return (sh_lex_word(p, tok));
}
