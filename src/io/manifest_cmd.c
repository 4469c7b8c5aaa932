/*
 * manifest_cmd.c - one container of one pod to shell commands.
 *
 * The container's env, command and args are expanded the way the kubelet
 * expands them ($(VAR) from the env, $$ for a literal $), then written out
 * as a small shell script the shell reader reads: one line exporting the
 * env, then either the words of command + args (each quoted, so each stays
 * one word) or the text of a `sh -c` script. The commands read from it get
 * the positions of the manifest back: a word of command/args the line and
 * column of its list item; a word of a script the place in the scalar
 * where its text is written (searched for in order; a word made by an
 * expansion gets the place of the word before it).
 */
#define _POSIX_C_SOURCE 200809L
#include "io/manifest_int.h"
#include "core/engine.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct mvar {
	const char	*name;		/* the YAML's text, or the injection's */
	char		*value;		/* owned */
	bool		 unknown;	/* valueFrom, or refers to an unknown */
	int		 line, col;
};

struct menv {
	struct mvar	*v;
	size_t		 n;
};

/* One word of command + args, expanded. */
struct mword {
	char			*text;		/* owned */
	bool			 unknown;
	const struct ynode	*node;
};

static const struct mvar *
menv_find(const struct menv *e, const char *name, size_t len)
{
	size_t	i;

	for (i = e->n; i-- > 0;)
		if (strlen(e->v[i].name) == len &&
		    memcmp(e->v[i].name, name, len) == 0)
			return &e->v[i];
	return NULL;
}

/*
 * Kubernetes' expansion of command, args and env values: $(NAME) is the
 * value of NAME when the container defines it, $$ is a $, anything else
 * stays as written. A reference to a variable not defined, or defined by
 * valueFrom, stays as written and makes the result unknown.
 */
static char *
k8s_expand(const char *s, const struct menv *env, bool *unknown)
{
	struct buf		 b = { 0 };
	const struct mvar	*v;
	const char		*close;

	while (*s != '\0') {
		if (s[0] == '$' && s[1] == '$') {
			buf_putc(&b, '$');
			s += 2;
			continue;
		}
		if (s[0] == '$' && s[1] == '(' &&
		    (close = strchr(s + 2, ')')) != NULL) {
			v = menv_find(env, s + 2, (size_t)(close - s - 2));
			if (v != NULL && !v->unknown)
				buf_puts(&b, v->value);
			else {
				buf_add(&b, s, (size_t)(close - s + 1));
				*unknown = true;
			}
			s = close + 1;
			continue;
		}
		buf_putc(&b, *s++);
	}
	return buf_steal(&b);
}

static void
menv_add(struct menv *e, const char *name, char *value, bool unknown,
    int line, int col)
{
	struct mvar	*v;

	e->v = xreallocarray(e->v, e->n + 1, sizeof *e->v);
	v = &e->v[e->n++];
	v->name = name;
	v->value = value;
	v->unknown = unknown;
	v->line = line;
	v->col = col;
}

static void
menv_free(struct menv *e)
{
	size_t	i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].value);
	free(e->v);
}

/* One env item ({name, value} or {name, valueFrom}) onto e. */
static void
env_item(struct menv *e, const struct ynode *it)
{
	const struct ynode	*n = ynode_get(it, "name");
	const struct ynode	*v = ynode_get(it, "value");
	bool			 unknown = false;
	char			*val;

	if (n == NULL || n->kind != YN_SCALAR || n->len == 0)
		return;
	if (ynode_get(it, "valueFrom") != NULL)
		val = xstrdup(""), unknown = true;
	else if (v != NULL && v->kind == YN_SCALAR && !ynode_is_null(v))
		val = k8s_expand(v->str, e, &unknown);
	else
		val = xstrdup("");
	menv_add(e, n->str, val, unknown, n->line, n->col);
}

/* The container's environment: what the controller injects, the
 * container's env, then the patch's (an entry of the same name replaces
 * the container's, as a strategic merge does). */
static void
env_build(struct menv *e, const struct mpod *p)
{
	const struct ynode	*base = ynode_get(p->container, "env");
	const struct ynode	*pat = p->patch ? ynode_get(p->patch, "env") :
	    NULL;
	size_t			 i, j;

	for (i = 0; i < p->ninject; i++)
		menv_add(e, p->inject[i].name, xstrdup(p->inject[i].value),
		    false, 0, 0);
	for (i = 0; base != NULL && base->kind == YN_SEQ && i < base->nkids;
	    i++) {
		const struct ynode	*n = ynode_get(base->kids[i], "name");
		bool			 patched = false;

		for (j = 0; n != NULL && pat != NULL && pat->kind == YN_SEQ &&
		    j < pat->nkids; j++) {
			const struct ynode *pn = ynode_get(pat->kids[j], "name");

			if (pn != NULL && pn->kind == YN_SCALAR &&
			    n->kind == YN_SCALAR && strcmp(pn->str, n->str) == 0)
				patched = true;
		}
		if (!patched)
			env_item(e, base->kids[i]);
	}
	for (j = 0; pat != NULL && pat->kind == YN_SEQ && j < pat->nkids; j++)
		env_item(e, pat->kids[j]);
}

/* command, then args; each from the patch when it gives them. */
static size_t
words_build(struct mword **out, const struct mpod *p, const struct menv *e)
{
	static const char *const keys[] = { "command", "args" };
	struct mword	*w = NULL;
	size_t		 n = 0, i, k;

	for (k = 0; k < 2; k++) {
		const struct ynode	*l = p->patch ? ynode_get(p->patch,
		    keys[k]) : NULL;

		if (l == NULL)
			l = ynode_get(p->container, keys[k]);
		for (i = 0; l != NULL && l->kind == YN_SEQ && i < l->nkids;
		    i++) {
			const struct ynode	*it = l->kids[i];

			w = xreallocarray(w, n + 1, sizeof *w);
			w[n].node = it;
			w[n].unknown = it->kind != YN_SCALAR;
			w[n].text = it->kind == YN_SCALAR ? k8s_expand(it->str, e,
			    &w[n].unknown) : xstrdup("");
			n++;
		}
	}
	*out = w;
	return n;
}

/*
 * A whole command line in the first command item ("python3 -m
 * sglang.launch_server --port 30000" as one string): Kubernetes runs no
 * shell, so it looks for a program of that name and the container does
 * not start. Reported; the line is then read as the shell would, so the
 * rest of the checks still see what was meant.
 */
static void
one_item_note(struct msrc *m, const struct mword *w)
{
	char	msg[512];

	if (m->notes != NULL) {
		snprintf(msg, sizeof msg, "the container's command is one item "
		    "holding a whole command line ('%.60s%s'): Kubernetes runs "
		    "no shell, so it looks for a program of that name and the "
		    "container fails to start (\"executable file not found\"); "
		    "give each word its own item, or run it with sh -c",
		    w[0].text, strlen(w[0].text) > 60 ? "..." : "");
		result_add(m->notes, "manifest-command-one-item", SEV_ERROR, msg,
		    NULL, w[0].node->line, w[0].node->col);
	}
}

/* The index of the script of "sh -c SCRIPT" (bash, dash, ash; options
 * like -ec, -xc before it), or 0 when the words are a plain command. */
static size_t
sh_c_script(const struct mword *w, size_t n)
{
	const char	*b;
	size_t		 i;

	if (n < 3)
		return 0;
	b = strrchr(w[0].text, '/');
	b = b ? b + 1 : w[0].text;
	if (strcmp(b, "sh") != 0 && strcmp(b, "bash") != 0 &&
	    strcmp(b, "dash") != 0 && strcmp(b, "ash") != 0)
		return 0;
	for (i = 1; i + 1 < n && w[i].text[0] == '-'; i++)
		if (w[i].text[1] != '-' && strchr(w[i].text, 'c') != NULL)
			return i + 1;
	return 0;
}

static bool
is_name(const char *s)
{
	if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
	    *s == '_'))
		return false;
	for (s++; *s != '\0'; s++)
		if (!((*s >= 'A' && *s <= 'Z') || (*s >= 'a' && *s <= 'z') ||
		    (*s >= '0' && *s <= '9') || *s == '_'))
			return false;
	return true;
}

static void
put_quoted(struct buf *b, const char *s)
{
	buf_putc(b, '\'');
	for (; *s != '\0'; s++) {
		if (*s == '\'')
			buf_puts(b, "'\\''");
		else
			buf_putc(b, *s);
	}
	buf_putc(b, '\'');
}

/*
 * Line 1: the env. What the controller injects is set without export (a
 * script can expand it; the reader does not count it as the container's
 * own environment), the container's env is exported; an unknown value is
 * $(NAME), which the shell reader cannot expand.
 */
static void
header(struct buf *b, const struct menv *e)
{
	size_t	i;
	bool	any = false;
	int	pass;

	for (pass = 0; pass < 2; pass++) {
		for (i = 0; i < e->n; i++) {
			if (!is_name(e->v[i].name) || (e->v[i].line == 0) !=
			    (pass == 0))
				continue;
			if (pass == 1)
				buf_puts(b, any ? " " : "export ");
			any = any || pass == 1;
			buf_printf(b, "%s=", e->v[i].name);
			if (e->v[i].unknown)
				buf_printf(b, "$(%s)", e->v[i].name);
			else
				put_quoted(b, e->v[i].value);
			if (pass == 0)
				buf_puts(b, "; ");
		}
	}
	buf_putc(b, '\n');
}

/* Environment entries of the header get the place of their env item. */
static void
place_env(struct sh_cmd *c, const struct menv *e)
{
	size_t			 i;
	const struct mvar	*v;

	for (i = 0; i < c->nenv; i++) {
		struct sh_env	*x = &c->env[i];

		if (x->line != 1)
			continue;
		v = menv_find(e, x->name, strlen(x->name));
		x->line = v != NULL && v->line > 0 ? v->line : c->line;
		x->col = v != NULL && v->line > 0 ? v->col : 1;
	}
}

/* Find s in the file between *cur and end; the place found, or *cur. */
static void
place_search(const struct msrc *m, size_t *cur, size_t end, const char *s,
    int *line, int *col)
{
	size_t	n = strlen(s), o;

	for (o = *cur; n > 0 && o + n <= end; o++)
		if (memcmp(m->text + o, s, n) == 0) {
			msrc_pos(m, o, line, col);
			*cur = o + n;
			return;
		}
	msrc_pos(m, *cur < m->len ? *cur : m->len, line, col);
}

/* The commands of a sh -c script, placed in the scalar that holds it. */
static void
place_script(const struct msrc *m, struct sh_script *sub,
    const struct ynode *sn, const struct menv *e)
{
	size_t	cur = msrc_off(m, sn->line, sn->col);
	size_t	end = msrc_off(m, sn->endline, sn->endcol), i, j;
	int	line, col;

	for (i = 0; i < sub->ncmds; i++) {
		struct sh_cmd	*c = &sub->cmds[i];

		for (j = 0; j < c->nwords; j++) {
			place_search(m, &cur, end, c->words[j].text, &line, &col);
			c->words[j].line = line;
			c->words[j].col = col;
		}
		c->line = c->nwords > 0 ? c->words[0].line : sn->line;
		c->endline = c->nwords > 0 ? c->words[c->nwords - 1].line :
		    sn->line;
		place_env(c, e);
		for (j = 0; j < c->nenv; j++)
			if (c->env[j].line > sn->endline || c->env[j].line <
			    sn->line) {
				c->env[j].line = c->line;
				c->env[j].col = 1;
			}
	}
}

/* The words of a plain command, placed at their list items. */
static void
place_words(struct sh_script *sub, const struct mword *w, size_t n,
    const struct menv *e)
{
	size_t	i, j;

	for (i = 0; i < sub->ncmds; i++) {
		struct sh_cmd	*c = &sub->cmds[i];

		if (c->nwords != n || n == 0)
			continue;
		for (j = 0; j < n; j++) {
			c->words[j].line = w[j].node->line;
			c->words[j].col = w[j].node->col;
			c->words[j].unresolved |= w[j].unknown;
		}
		c->line = w[0].node->line;
		c->endline = w[n - 1].node->line;
		place_env(c, e);
	}
}

/* Keep the SGLang commands only, marked with their pod. */
static void
keep_sglang(struct msrc *m, struct sh_script *sub, const struct mpod *p)
{
	const struct ynode	*img = p->patch ? ynode_get(p->patch, "image") :
	    NULL;
	const char		*image = NULL;
	size_t			 i, o = 0;

	if (img == NULL)
		img = ynode_get(p->container, "image");
	if (img != NULL && img->kind == YN_SCALAR)
		image = sh_script_str(m->out, img->str);
	for (i = 0; i < sub->ncmds; i++) {
		struct sh_cmd	*c = &sub->cmds[i];

		if (c->kind == SH_OTHER || c->nwords == 0) {
			free(c->words);
			continue;
		}
		c->machine = p->machine;
		c->image = image;
		c->repeat = p->repeat;
		sub->cmds[o++] = *c;
	}
	sub->ncmds = o;
	sub->unclosed_heredoc = 0;
}

int
mcontainer_read(struct msrc *m, const struct mpod *p, char *err,
    size_t errlen)
{
	struct menv		 e = { 0 };
	struct mword		*w = NULL;
	struct sh_script	 sub = { 0 };
	struct buf		 b = { 0 };
	char			 perr[512];
	const struct ynode	*sn;
	size_t			 n, i, si;
	int			 rc = 0, line;

	env_build(&e, p);
	n = words_build(&w, p, &e);
	si = sh_c_script(w, n);
	header(&b, &e);
	if (si == 0 && n > 0 && strpbrk(w[0].text, " \t\n") != NULL) {
		buf_puts(&b, w[0].text);
		for (i = 1; i < n; i++) {
			buf_putc(&b, ' ');
			put_quoted(&b, w[i].text);
		}
		si = n;		/* placed like a script, from item 0 */
	} else if (si > 0)
		buf_puts(&b, w[si].text);
	for (i = 0; si == 0 && i < n; i++) {
		if (i > 0)
			buf_putc(&b, ' ');
		put_quoted(&b, w[i].text);
	}
	sn = n == 0 ? NULL : si == n ? w[0].node : si > 0 ? w[si].node : NULL;
	if (n > 0 && sh_parse(b.s, b.len, &sub, perr, sizeof perr) != 0) {
		const struct ynode	*at = sn != NULL ? sn : w[0].node;

		line = atoi(perr) - 1;
		snprintf(err, errlen, "%s:%d:%d: in the %s script of this "
		    "container: %s", m->name, at->line + (line > 0 ? line : 0),
		    at->col, w[0].text, strchr(perr, ' ') ? strchr(perr, ' ') +
		    1 : perr);
		rc = -1;
	} else if (n > 0) {
		if (sn != NULL)
			place_script(m, &sub, sn, &e);
		else
			place_words(&sub, w, n, &e);
		keep_sglang(m, &sub, p);
		if (si == n && sub.ncmds > 0 && !p->repeat)
			one_item_note(m, w);
		sh_script_move(m->out, &sub);
	}
	sh_script_free(&sub);
	buf_free(&b);
	for (i = 0; i < n; i++)
		free(w[i].text);
	free(w);
	menv_free(&e);
	return rc;
}
