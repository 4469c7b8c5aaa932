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
#include "core/hashidx.h"
#include "core/util.h"
#include "io/shell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The lines of the script: found by number without counting them from
 * the start each time (a script of 65,536 commands has as many lines). */
struct tlines {
	const char	*text;
	size_t		 len;
	size_t		*start;		/* offset of each line */
	size_t		 n;
};

static void
tlines_init(struct tlines *tl, const char *text, size_t len)
{
	const char	*p = text, *end = text + len, *nl;
	size_t		 cap = 16;

	tl->text = text;
	tl->len = len;
	tl->n = 0;
	tl->start = xreallocarray(NULL, cap, sizeof *tl->start);
	while (p < end) {
		if (tl->n == cap) {
			cap *= 2;
			tl->start = xreallocarray(tl->start, cap,
			    sizeof *tl->start);
		}
		tl->start[tl->n++] = (size_t)(p - text);
		nl = memchr(p, '\n', (size_t)(end - p));
		p = nl != NULL ? nl + 1 : end;
	}
}

/* Line n (1-based) of the text, its length in *len; NULL past the end. */
static const char *
line_at(const struct tlines *tl, int n, size_t *llen)
{
	const char	*p, *end = tl->text + tl->len, *nl;

	if (n < 1)		/* as counting from the start did */
		n = 1;
	if ((size_t)n > tl->n)
		return NULL;
	p = tl->text + tl->start[n - 1];
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
case_pattern(const struct tlines *tl, const struct sh_word *w)
{
	size_t		 n, i;
	const char	*s = line_at(tl, w->line, &n);

	if (s == NULL || w->col < 1 || (size_t)w->col > n)
		return false;
	for (i = (size_t)w->col - 1; i < n && s[i] != ' ' && s[i] != '\t' &&
	    s[i] != ')' && s[i] != '|'; i++)
		;
	return i < n && (s[i] == ')' || s[i] == '|');
}

static void
orphan_option(struct check *ck, const struct sh_script *sc, size_t i,
    const struct tlines *tl)
{
	const struct sh_cmd	*c = &sc->cmds[i], *prev = command_before(sc,
	    i);
	struct buf		 b = { 0 };
	int			 l, comment = 0;

	/* A comment line between the two, after a continued line? */
	for (l = c->line - 1; prev != NULL && l > prev->endline; l--) {
		size_t		 n, pn;
		const char	*s = line_at(tl, l, &n);
		const char	*p = line_at(tl, l - 1, &pn);

		if (s != NULL && is_comment_line(s, n) && p != NULL &&
		    (ends_with_backslash(p, pn) || is_comment_line(p, pn))) {
			comment = l;
			while (comment - 1 > prev->endline && (p = line_at(tl,
			    comment - 1, &pn)) != NULL &&
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
		const char	*p = line_at(tl, c->line - 1, &pn);

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
	/* the bytes the loop below looks at; others are passed in a run */
	static const bool	 special[256] = { ['\\'] = true, ['\''] = true,
	    ['"'] = true, ['#'] = true, ['{'] = true };
	size_t			 i;

	for (i = 0; i < n; i++) {
		while (i < n && !special[(unsigned char)s[i]])
			i++;
		if (i >= n)
			break;
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
unquoted_braces(struct check *ck, const struct sh_cmd *c,
    const struct tlines *tl)
{
	int	l, col;

	for (l = c->line; l <= c->endline; l++) {
		size_t		 n;
		const char	*s = line_at(tl, l, &n);

		if (s == NULL || (col = brace_at(s, n)) == 0)
			continue;
		check_warn_at(ck, "shell-brace-expansion", "bash brace-expands the "
		    "unquoted braces here into several words, so the server "
		    "does not get this value as written: put it in single "
		    "quotes", l, col);
		return;
	}
}

/*
 * Environment variables the catalog marks deprecated (SGLang no longer
 * reads them, or reads another name): a warning where each is set, once
 * per assignment even when several commands inherit it.
 */
/* The lines already warned about, hashed by their number's bytes. */
struct seen_lines {
	int		*line;
	size_t		 n;
	struct hidx	 idx;
};

static const char *
seen_key(const void *ctx, size_t i, size_t *len)
{
	*len = sizeof(int);
	return (const char *)&((const struct seen_lines *)ctx)->line[i];
}

/* Is line new? It is seen from here on. */
static bool
seen_first(struct seen_lines *s, int line)
{
	if (hidx_find(&s->idx, (const char *)&line, sizeof line) >= 0)
		return false;
	if ((s->n & (s->n - 1)) == 0)
		s->line = xreallocarray(s->line, s->n ? s->n * 2 : 1,
		    sizeof *s->line);
	s->line[s->n] = line;
	hidx_put(&s->idx, s->n++);
	return true;
}

static void
deprecated_env(struct check *ck, const struct sh_script *sc)
{
	struct buf		 b = { 0 };
	struct seen_lines	 seen = { 0 };
	size_t			 i, j;

	hidx_init(&seen.idx, seen_key, &seen);
	for (i = 0; i < sc->ncmds; i++) {
		const struct sh_cmd	*c = &sc->cmds[i];

		if (c->kind != SH_SERVER)
			continue;
		for (j = 0; j < c->nenv; j++) {
			const struct sh_env	*e = &c->env[j];
			int			 o = catalog_find(ck->cat, e->name);

			if (o < 0 || ck->cat->opts[o].kind != OK_ENV ||
			    ck->cat->opts[o].deprecated == NULL ||
			    !seen_first(&seen, e->line))
				continue;
			b.len = 0;
			buf_printf(&b, "%s is deprecated or ignored: %s", e->name,
			    ck->cat->opts[o].deprecated);
			check_warn_at(ck, "env-deprecated", b.s, e->line, e->col);
		}
	}
	free(seen.line);
	hidx_free(&seen.idx);
	buf_free(&b);
}

/* An entry point that newer SGLang no longer has. */
static void
gone(struct check *ck, const struct sh_cmd *c)
{
	struct buf	b = { 0 };

	buf_printf(&b, "python -m sglang.srt.disaggregation.mini_lb is the old "
	    "PD load balancer (still in sglang 0.5.2, sgl-project/sglang issue "
	    "#10110); newer SGLang moved it into sglang_router "
	    "(sgl-router/py_src/sglang_router/mini_lb.py@d81deabe; the commit "
	    "that removed the old module is not pinned here), where Python "
	    "stops with \"No module named\": use %s, or "
	    "python -m sglang_router.launch_router --pd-disaggregation for "
	    "the Rust router", c->gone);
	check_warn_at(ck, "router-mini-lb-gone", b.s, c->line, c->words[0].col);
	buf_free(&b);
}

/* The value of option flag among words [from, to), or NULL. */
static const char *
word_opt(const struct sh_cmd *c, size_t from, size_t to, const char *flag,
    const char *alt)
{
	const char	*v = NULL, *w;
	size_t		 i, n;

	for (i = from; i < to; i++) {
		w = c->words[i].text;
		n = strlen(flag);
		if ((strncmp(w, flag, n) == 0 && w[n] == '=') ||
		    (alt != NULL && strncmp(w, alt, strlen(alt)) == 0 &&
		    w[strlen(alt)] == '='))
			v = strchr(w, '=') + 1;
		else if ((strcmp(w, flag) == 0 || (alt != NULL &&
		    strcmp(w, alt) == 0)) && i + 1 < to)
			v = c->words[++i].text;
	}
	return v;
}

/* Does a docker -p/--publish value publish container port port? */
static bool
publishes(const char *v, long port)
{
	const char	*cp = strrchr(v, ':');
	char		*end;
	long		 lo, hi;

	cp = cp != NULL ? cp + 1 : v;
	lo = strtol(cp, &end, 10);
	hi = lo;
	if (*end == '-')
		hi = strtol(end + 1, &end, 10);
	return port >= lo && port <= hi;
}

/*
 * A prefill in a docker container on a bridged network (no --network
 * host): only the ports given with -p are reachable from outside, and the
 * decode must reach the prefill's bootstrap server (8998 unless
 * --disaggregation-bootstrap-port says otherwise) and its KV transfer
 * engine, which listens on ports it picks at run time.
 */
static void
docker_bridge(struct check *ck, const struct sh_cmd *c)
{
	const char	*net, *mode, *bp, *w;
	struct buf	 b = { 0 }, pub = { 0 };
	size_t		 i, img = c->argstart;
	long		 port = 8998;
	bool		 published = false;

	mode = word_opt(c, c->argstart, c->nwords, "--disaggregation-mode",
	    NULL);
	if (role_parse(mode) != ROLE_PREFILL)
		return;
	while (img > 0 && strcmp(c->words[img - 1].text, "run") != 0)
		img--;
	net = word_opt(c, img, c->argstart, "--network", "--net");
	if (net != NULL && (strcmp(net, "host") == 0 || strncmp(net,
	    "container:", 10) == 0 || strchr(net, '$') != NULL))
		return;		/* docker's default network is a bridge */
	for (i = img; i < c->argstart; i++)
		if (strcmp(c->words[i].text, "-P") == 0 ||
		    strcmp(c->words[i].text, "--publish-all") == 0)
			return;
	if ((bp = word_opt(c, c->argstart, c->nwords,
	    "--disaggregation-bootstrap-port", NULL)) != NULL) {
		char	*end;

		port = strtol(bp, &end, 10);
		if (*end != '\0' || end == bp)
			return;
	}
	for (i = img; i < c->argstart; i++) {
		w = c->words[i].text;
		if ((strcmp(w, "-p") == 0 || strcmp(w, "--publish") == 0) &&
		    i + 1 < c->argstart) {
			w = c->words[++i].text;
			buf_printf(&pub, "%s%s", pub.len ? ", " : "", w);
			published = published || publishes(w, port);
		}
	}
	if (published) {
		buf_free(&pub);
		return;
	}
	buf_printf(&b, "the prefill runs in a docker container on a bridged "
	    "network (no --network host) that publishes %s%s: its bootstrap "
	    "port %ld and the ports of its KV transfer engine are not "
	    "reachable from a decode outside the container, so the transfer "
	    "never starts (run it with --network host)",
	    pub.len ? "only " : "no port", pub.len ? pub.s : "", port);
	check_warn_at(ck, "docker-bridge-prefill", b.s, c->line,
	    c->words[0].col);
	buf_free(&b);
	buf_free(&pub);
}

void
check_shell_traps(struct check *ck, const struct sh_script *sc,
    const char *text, size_t len)
{
	struct tlines	tl;
	size_t		i;

	tlines_init(&tl, text, len);
	deprecated_env(ck, sc);
	for (i = 0; i < sc->ncmds; i++) {
		const struct sh_cmd	*c = &sc->cmds[i];

		if (c->gone != NULL)
			gone(ck, c);
		if (c->kind == SH_SERVER && c->wrapper != NULL &&
		    strcmp(c->wrapper, "docker run") == 0)
			docker_bridge(ck, c);
	}

	for (i = 0; i < sc->ncmds; i++) {
		const struct sh_cmd	*c = &sc->cmds[i];

		if (c->kind == SH_OTHER && c->nwords > 0 &&
		    strncmp(c->words[0].text, "--", 2) == 0 &&
		    c->words[0].text[2] != '\0' &&
		    !case_pattern(&tl, &c->words[0]))
			orphan_option(ck, sc, i, &tl);
		else if (c->kind == SH_SERVER || c->kind == SH_ROUTER)
			unquoted_braces(ck, c, &tl);
	}
	free(tl.start);
}
