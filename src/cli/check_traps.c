/*
 * check_traps.c - shell mistakes in launch scripts that bash accepts and
 * that silently change what runs, reported as warnings on their line:
 *
 *  - a line that starts with an option: bash runs it as a command of its
 *    own ("--tp: command not found") and the server above never gets those
 *    options; usually a comment inside a backslash continuation or a
 *    missing backslash ended the server's command early;
 *  - unquoted braces with a comma or ".." in a server's arguments: bash
 *    brace-expands them ({"a":1,"b":2} becomes two words).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/check.h"
#include "core/util.h"
#include "io/shell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Line n (1-based) of text, its length in *len; NULL past the end. */
static const char *
line_at(const char *text, size_t len, int n, size_t *llen)
{
	const char	*p = text, *end = text + len, *nl;

	while (--n > 0) {
		if ((nl = memchr(p, '\n', (size_t)(end - p))) == NULL)
			return NULL;
		p = nl + 1;
	}
	if (p >= end)
		return NULL;
	nl = memchr(p, '\n', (size_t)(end - p));
	*llen = nl != NULL ? (size_t)(nl - p) : (size_t)(end - p);
	return p;
}

static bool
is_comment_line(const char *l, size_t n)
{
	size_t	i = 0;

	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	return i < n && l[i] == '#';
}

static bool
ends_with_backslash(const char *l, size_t n)
{
	while (n > 0 && (l[n - 1] == ' ' || l[n - 1] == '\t' ||
	    l[n - 1] == '\r'))
		n--;
	return n > 0 && l[n - 1] == '\\';
}

/* The command that ends before command i starts. */
static const struct sh_cmd *
command_before(const struct sh_script *sc, size_t i)
{
	return i > 0 ? &sc->cmds[i - 1] : NULL;
}

/* Offset of an unquoted comment (#) in line s, or n. */
static size_t
comment_at(const char *s, size_t n)
{
	size_t	i;
	char	q;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '\'' || s[i] == '"') {
			for (q = s[i++]; i < n && s[i] != q; i++)
				if (q == '"' && s[i] == '\\')
					i++;
		} else if (s[i] == '#' && (i == 0 || s[i - 1] == ' ' ||
		    s[i - 1] == '\t'))
			return i;
	}
	return n;
}

/*
 * A case pattern ("--model)" or "-h|--help)") starts with an option too,
 * but it is no command: the word is followed by ')' or '|'.
 */
static bool
case_pattern(const char *text, size_t len, const struct sh_word *w)
{
	size_t		 n, i;
	const char	*s = line_at(text, len, w->line, &n);

	if (s == NULL || w->col < 1 || (size_t)w->col > n)
		return false;
	for (i = (size_t)w->col - 1; i < n && s[i] != ' ' && s[i] != '\t' &&
	    s[i] != ')' && s[i] != '|'; i++)
		;
	return i < n && (s[i] == ')' || s[i] == '|');
}

static void
orphan_option(struct check *ck, const struct sh_script *sc, size_t i,
    const char *text, size_t len)
{
	const struct sh_cmd	*c = &sc->cmds[i], *prev = command_before(sc,
	    i);
	struct buf		 b = { 0 };
	int			 l, comment = 0;

	/* A comment line between the two, after a continued line? */
	for (l = c->line - 1; prev != NULL && l > prev->endline; l--) {
		size_t		 n, pn;
		const char	*s = line_at(text, len, l, &n);
		const char	*p = line_at(text, len, l - 1, &pn);

		if (s != NULL && is_comment_line(s, n) && p != NULL &&
		    (ends_with_backslash(p, pn) || is_comment_line(p, pn))) {
			comment = l;
			while (comment - 1 > prev->endline && (p = line_at(text,
			    len, comment - 1, &pn)) != NULL &&
			    is_comment_line(p, pn))
				comment--;
			break;
		}
	}
	if (comment > 0) {
		buf_printf(&b, "a comment inside a backslash continuation ends "
		    "the command: bash runs line %d on as a separate command "
		    "named '%s'", c->line, c->words[0].text);
		if (prev != NULL)
			buf_printf(&b, ", and the command at line %d never gets "
			    "those options", prev->line);
		buf_puts(&b, " (move the comment above the command)");
		check_warn_at(ck, "shell-comment-in-continuation", b.s, comment, 1);
		buf_free(&b);
		return;
	}
	if (prev != NULL && c->line > 1) {
		size_t		 pn, k;
		const char	*p = line_at(text, len, c->line - 1, &pn);

		if (p != NULL && ends_with_backslash(p, pn) &&
		    (k = comment_at(p, pn)) < pn) {
			buf_printf(&b, "the trailing backslash on line %d is part "
			    "of the comment that starts at column %zu, so it does "
			    "not continue the line: the command at line %d ends "
			    "there and bash runs line %d as a separate command "
			    "named '%s' (move the comment out of the command)",
			    c->line - 1, k + 1, prev->line, c->line,
			    c->words[0].text);
			check_warn_at(ck, "shell-backslash-in-comment", b.s,
			    c->line - 1, (int)k + 1);
			buf_free(&b);
			return;
		}
	}
	buf_printf(&b, "bash runs this line as a command named '%s'",
	    c->words[0].text);
	if (prev != NULL)
		buf_printf(&b, ": the command at line %d ended before it (is a "
		    "trailing backslash missing on line %d?) and never gets "
		    "these options", prev->line, c->line - 1);
	check_warn_at(ck, "shell-orphan-option", b.s, c->line, c->words[0].col);
	buf_free(&b);
}

/* Past the quoted string that starts at s[i] (its closing quote). */
static size_t
skip_quoted(const char *s, size_t n, size_t i)
{
	char	q = s[i];

	for (i++; i < n && s[i] != q; i++)
		if (q == '"' && s[i] == '\\')
			i++;
	return i;
}

/*
 * Does a brace expansion start at s[i] ('{')? Bash expands it when an
 * unquoted comma, or "..", stands inside it before its unquoted '}' and
 * no unquoted blank comes first (quoted parts inside do not stop it).
 */
static bool
expands(const char *s, size_t n, size_t i)
{
	bool	sep = false;

	for (i++; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '\'' || s[i] == '"')
			i = skip_quoted(s, n, i);
		else if (s[i] == ' ' || s[i] == '\t' || s[i] == '{')
			return false;
		else if (s[i] == ',' || (s[i] == '.' && i + 1 < n &&
		    s[i + 1] == '.'))
			sep = true;
		else if (s[i] == '}')
			return sep;
	}
	return false;
}

/* Column (1-based) of an unquoted brace expansion in line s, or 0. */
static int
brace_at(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		if (s[i] == '\\')
			i++;
		else if (s[i] == '\'' || s[i] == '"')
			i = skip_quoted(s, n, i);
		else if (s[i] == '#' && (i == 0 || s[i - 1] == ' ' ||
		    s[i - 1] == '\t'))
			return 0;
		else if (s[i] == '{' && (i == 0 || s[i - 1] != '$') &&
		    expands(s, n, i))
			return (int)i + 1;
	}
	return 0;
}

static void
unquoted_braces(struct check *ck, const struct sh_cmd *c, const char *text,
    size_t len)
{
	int	l, col;

	for (l = c->line; l <= c->endline; l++) {
		size_t		 n;
		const char	*s = line_at(text, len, l, &n);

		if (s == NULL || (col = brace_at(s, n)) == 0)
			continue;
		check_warn_at(ck, "shell-brace-expansion", "bash brace-expands the "
		    "unquoted braces here into several words, so the server "
		    "does not get this value as written: put it in single "
		    "quotes", l, col);
		return;
	}
}

void
check_shell_traps(struct check *ck, const struct sh_script *sc,
    const char *text, size_t len)
{
	size_t	i;

	for (i = 0; i < sc->ncmds; i++) {
		const struct sh_cmd	*c = &sc->cmds[i];

		if (c->kind == SH_OTHER && c->nwords > 0 &&
		    strncmp(c->words[0].text, "--", 2) == 0 &&
		    c->words[0].text[2] != '\0' &&
		    !case_pattern(text, len, &c->words[0]))
			orphan_option(ck, sc, i, text, len);
		else if (c->kind == SH_SERVER || c->kind == SH_ROUTER)
			unquoted_braces(ck, c, text, len);
	}
}
