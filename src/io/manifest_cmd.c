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
#include "io/manifest.h"
#include "io/manifest_int.h"
#include "core/engine.h"
#include "core/hashidx.h"
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

/* The container's env in order, and its names hashed: a name maps to
 * its newest entry. */
struct menv {
	struct mvar	*v;
	size_t		 n, cap;
	struct hidx	 idx;
	size_t		 budget;	/* bytes expansions may still make */
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
	long	i = hidx_find(&e->idx, name, len);

	return i >= 0 ? &e->v[i] : NULL;
}

static const char *
menv_key(const void *ctx, size_t i, size_t *len)
{
	const char	*name = ((const struct menv *)ctx)->v[i].name;

	*len = strlen(name);
	return name;
}

/* Add n bytes to b when the budget allows; false when not. */
static bool
budget_add(struct buf *b, struct menv *e, const char *s, size_t n)
{
	if (n > e->budget)
		return false;
	e->budget -= n;
	buf_add(b, s, n);
	return true;
}

/*
 * Kubernetes' expansion of command, args and env values: $(NAME) is the
 * value of NAME when the container defines it, $$ is a $, anything else
 * stays as written. A reference to a variable not defined, or defined by
 * valueFrom, stays as written and makes the result unknown. What the
 * expansions of one container make is capped (MANIFEST_MAX_EXPAND: a few
 * lines of $(A) doubling $(B) would make gigabytes): NULL past the cap.
 */
static char *
k8s_expand(const char *s, struct menv *env, bool *unknown)
{
	struct buf		 b = { 0 };
	const struct mvar	*v;
	const char		*close;
	size_t			 n;
	bool			 ok = true;

	while (*s != '\0' && ok) {
		if (s[0] == '$' && s[1] == '$') {
			ok = budget_add(&b, env, "$", 1);
			s += 2;
			continue;
		}
		if (s[0] == '$' && s[1] == '(' &&
		    (close = strchr(s + 2, ')')) != NULL) {
			v = menv_find(env, s + 2, (size_t)(close - s - 2));
			if (v != NULL && !v->unknown)
				ok = budget_add(&b, env, v->value,
				    strlen(v->value));
			else {
				ok = budget_add(&b, env, s,
				    (size_t)(close - s + 1));
				*unknown = true;
			}
			s = close + 1;
			continue;
		}
		n = strcspn(s, "$");
		ok = budget_add(&b, env, s, n > 0 ? n : 1);
		s += n > 0 ? n : 1;
	}
	if (!ok) {
		buf_free(&b);
		return NULL;
	}
	buf_add(&b, "", 0);
	return buf_steal(&b);
}

static void
menv_add(struct menv *e, const char *name, char *value, bool unknown,
    int line, int col)
{
	struct mvar	*v;

	if (e->n == e->cap) {
		e->cap = e->cap ? e->cap * 2 : 16;
		e->v = xreallocarray(e->v, e->cap, sizeof *e->v);
	}
	v = &e->v[e->n];
	v->name = name;
	v->value = value;
	v->unknown = unknown;
	v->line = line;
	v->col = col;
	hidx_put(&e->idx, e->n++);
}

static void
menv_free(struct menv *e)
{
	size_t	i;

	for (i = 0; i < e->n; i++)
		free(e->v[i].value);
	free(e->v);
	hidx_free(&e->idx);
}

static void
too_large(const struct msrc *m, const struct ynode *at, char *err,
    size_t errlen)
{
	snprintf(err, errlen, "%s:%d:%d: expansion too large (the container's "
	    "$(VAR) references make more than %zu bytes)", m->name, at->line,
	    at->col, MANIFEST_MAX_EXPAND);
}

/* One env item ({name, value} or {name, valueFrom}) onto e; -1 past the
 * expansion cap. */
static int
env_item(struct menv *e, const struct ynode *it)
{
	const struct ynode	*n = ynode_get(it, "name");
	const struct ynode	*v = ynode_get(it, "value");
	bool			 unknown = false;
	char			*val;

	if (n == NULL || n->kind != YN_SCALAR || n->len == 0)
		return 0;
	if (ynode_get(it, "valueFrom") != NULL)
		val = xstrdup(""), unknown = true;
	else if (v != NULL && v->kind == YN_SCALAR && !ynode_is_null(v)) {
		if ((val = k8s_expand(v->str, e, &unknown)) == NULL)
			return -1;
	} else
		val = xstrdup("");
	menv_add(e, n->str, val, unknown, n->line, n->col);
	return 0;
}

/* The name of env item i of a list (ctx), when it has one. */
static const struct ynode *
item_name(const struct ynode *list, size_t i)
{
	const struct ynode	*n = ynode_get(list->kids[i], "name");

	return n != NULL && n->kind == YN_SCALAR ? n : NULL;
}

static const char *
item_key(const void *ctx, size_t i, size_t *len)
{
	const struct ynode	*n = item_name(ctx, i);

	*len = n->len;
	return n->str;
}

/* The container's environment: what the controller injects, the
 * container's env, then the patch's (an entry of the same name replaces
 * the container's, as a strategic merge does). 0, or -1 with the item
 * whose expansion passed the cap in *at. */
static int
env_build(struct menv *e, const struct mpod *p, const struct ynode **at)
{
	const struct ynode	*base = ynode_get(p->container, "env");
	const struct ynode	*pat = p->patch ? ynode_get(p->patch, "env") :
	    NULL;
	struct hidx		 patched;
	size_t			 i;
	int			 rc = 0;

	if (pat != NULL && pat->kind != YN_SEQ)
		pat = NULL;
	hidx_init(&patched, item_key, pat);
	for (i = 0; pat != NULL && i < pat->nkids; i++)
		if (item_name(pat, i) != NULL)
			hidx_put(&patched, i);
	for (i = 0; i < p->ninject; i++)
		menv_add(e, p->inject[i].name, xstrdup(p->inject[i].value),
		    false, 0, 0);
	for (i = 0; base != NULL && base->kind == YN_SEQ && i < base->nkids &&
	    rc == 0; i++) {
		const struct ynode	*n = item_name(base, i);

		if (n == NULL || hidx_find(&patched, n->str, n->len) < 0)
			if ((rc = env_item(e, base->kids[i])) != 0)
				*at = ynode_get(base->kids[i], "value");
	}
	for (i = 0; pat != NULL && i < pat->nkids && rc == 0; i++)
		if ((rc = env_item(e, pat->kids[i])) != 0)
			*at = ynode_get(pat->kids[i], "value");
	hidx_free(&patched);
	return rc;
}

/* command, then args; each from the patch when it gives them. The words
 * made so far in *out, *n; -1 with the item past the expansion cap in *at. */
static int
words_build(struct mword **out, size_t *n, const struct mpod *p,
    struct menv *e, const struct ynode **at)
{
	static const char *const keys[] = { "command", "args" };
	struct mword	*w = NULL;
	size_t		 i, k, cap = 0;

	*n = 0;
	for (k = 0; k < 2; k++) {
		const struct ynode	*l = p->patch ? ynode_get(p->patch,
		    keys[k]) : NULL;

		if (l == NULL)
			l = ynode_get(p->container, keys[k]);
		for (i = 0; l != NULL && l->kind == YN_SEQ && i < l->nkids;
		    i++) {
			const struct ynode	*it = l->kids[i];
			struct mword		*x;

			if (*n == cap) {
				cap = cap ? cap * 2 : 16;
				w = xreallocarray(w, cap, sizeof *w);
			}
			x = &w[*n];
			x->node = it;
			x->unknown = it->kind != YN_SCALAR;
			x->text = it->kind == YN_SCALAR ? k8s_expand(it->str, e,
			    &x->unknown) : xstrdup("");
			*out = w;
			if (x->text == NULL) {
				*at = it;
				return -1;
			}
			(*n)++;
		}
	}
	*out = w;
	return 0;
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

/*
 * The search of a script's words in the scalar that holds it, in order.
 * Both halves are kept linear in the script: a word an expansion made is
 * not in the file, and each search for one would read the rest of the
 * script, so the searches compare at most budget bytes in all (past it,
 * twice the word's length and 64 more each); and the place is counted on
 * from the last one, not from the start of its line (a script of one long
 * line).
 */
struct msearch {
	size_t	cur, end;	/* the search goes on at cur */
	size_t	budget;
	size_t	off;		/* the last place found, and its position */
	int	line, col;
};

static void
msearch_pos(const struct msrc *m, struct msearch *q, size_t off)
{
	size_t	next = (size_t)q->line < m->nlines ? m->lines[q->line] :
	    m->len + 1, i;

	if (off > m->len)
		off = m->len;
	if (q->line == 0 || off < q->off || off >= next)
		msrc_pos(m, off, &q->line, &q->col);
	else
		for (i = q->off; i < off; i++)
			if (((unsigned char)m->text[i] & 0xC0) != 0x80)
				q->col++;
	q->off = off;
}

/* Find s from q->cur on: its place, or that of q->cur. */
static void
place_search(const struct msrc *m, struct msearch *q, const char *s,
    int *line, int *col)
{
	size_t	n = strlen(s), o, k, cost = 0;
	size_t	max = q->budget > 2 * n + 64 ? q->budget : 2 * n + 64;
	size_t	at = q->cur;

	for (o = q->cur; n > 0 && o + n <= q->end && cost < max; o++) {
		for (k = 0; k < n && m->text[o + k] == s[k]; k++)
			;
		cost += k + 1;
		if (k == n) {
			at = o;
			q->cur = o + n;
			break;
		}
	}
	q->budget -= cost < q->budget ? cost : q->budget;
	msearch_pos(m, q, at);
	*line = q->line;
	*col = q->col;
}

/* The commands of a sh -c script, placed in the scalar that holds it. */
static void
place_script(const struct msrc *m, struct sh_script *sub,
    const struct ynode *sn, const struct menv *e)
{
	struct msearch	q;
	size_t		i, j;
	int		line, col;

	memset(&q, 0, sizeof q);
	q.cur = msrc_off(m, sn->line, sn->col);
	q.end = msrc_off(m, sn->endline, sn->endcol);
	q.budget = (q.end > q.cur ? 8 * (q.end - q.cur) : 0) + 65536;
	for (i = 0; i < sub->ncmds; i++) {
		struct sh_cmd	*c = &sub->cmds[i];

		for (j = 0; j < c->nwords; j++) {
			place_search(m, &q, c->words[j].text, &line, &col);
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

/*
 * The GPUs a container is granted: its resources' nvidia.com/gpu limit (a
 * request of an extended resource must equal the limit, so a request alone
 * says the same), the patch's over the template's; 0 when none is written
 * or it is no plain count. The device plugin gives the container exactly
 * that many, so that is what its server can use on its node.
 */
static int
gpu_limit(const struct ynode *c)
{
	static const char *const kinds[] = { "limits", "requests" };
	const struct ynode	*r = ynode_get(c, "resources"), *n;
	size_t			 i;

	for (i = 0; r != NULL && i < 2; i++) {
		char	*end;
		long	 v;

		n = ynode_get(ynode_get(r, kinds[i]), "nvidia.com/gpu");
		if (n == NULL || n->kind != YN_SCALAR)
			continue;
		v = strtol(n->str, &end, 10);
		return end != n->str && *end == '\0' && v >= 1 && v <= 1024 ?
		    (int)v : 0;
	}
	return 0;
}

/* Keep the SGLang commands only, marked with their pod. */
static void
keep_sglang(struct msrc *m, struct sh_script *sub, const struct mpod *p)
{
	const struct ynode	*img = p->patch ? ynode_get(p->patch, "image") :
	    NULL;
	const char		*image = NULL;
	size_t			 i, o = 0;
	int			 gpus = 0;

	if (img == NULL)
		img = ynode_get(p->container, "image");
	if (img != NULL && img->kind == YN_SCALAR)
		image = sh_script_str(m->out, img->str);
	if (p->patch == NULL || (gpus = gpu_limit(p->patch)) == 0)
		gpus = gpu_limit(p->container);
	for (i = 0; i < sub->ncmds; i++) {
		struct sh_cmd	*c = &sub->cmds[i];

		if (c->kind == SH_OTHER || c->nwords == 0) {
			free(c->words);
			continue;
		}
		c->machine = p->machine;
		c->image = image;
		c->gpus = gpus;
		c->repeat = p->repeat;
		sub->cmds[o++] = *c;
	}
	sub->ncmds = o;
	sub->unclosed_heredoc = 0;
}

/* The words of the container (and its env) as a script, read. */
static int
read_words(struct msrc *m, const struct mpod *p, const struct menv *e,
    const struct mword *w, size_t n, char *err, size_t errlen)
{
	struct sh_script	 sub = { 0 };
	struct buf		 b = { 0 };
	char			 perr[512];
	const struct ynode	*sn;
	size_t			 i, si = sh_c_script(w, n);
	int			 rc = 0, line;

	header(&b, e);
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
			place_script(m, &sub, sn, e);
		else
			place_words(&sub, w, n, e);
		keep_sglang(m, &sub, p);
		if (si == n && sub.ncmds > 0 && !p->repeat)
			one_item_note(m, w);
		sh_script_move(m->out, &sub);
	}
	sh_script_free(&sub);
	buf_free(&b);
	return rc;
}

int
mcontainer_read(struct msrc *m, const struct mpod *p, char *err,
    size_t errlen)
{
	struct menv		 e;
	struct mword		*w = NULL;
	const struct ynode	*at = NULL;
	size_t			 n = 0, i;
	int			 rc;

	memset(&e, 0, sizeof e);
	hidx_init(&e.idx, menv_key, &e);
	e.budget = MANIFEST_MAX_EXPAND;
	if ((rc = env_build(&e, p, &at)) == 0)
		rc = words_build(&w, &n, p, &e, &at);
	if (rc != 0)
		too_large(m, at, err, errlen);
	else
		rc = read_words(m, p, &e, w, n, err, errlen);
	for (i = 0; i < n; i++)
		free(w[i].text);
	free(w);
	menv_free(&e);
	return rc;
}
