/*
 * shell_cmd.c - assemble simple commands: words, assignments, builtins and
 * environments.
 */

#include "io/shell_int.h"

#include <stdlib.h>
#include <string.h>

/*
 * Set a variable in t (the script's or a command's own) to a copy of value.
 * With append (NAME+=), the old value comes from t, else from the script.
 * exported is 1 or 0, or -1 to keep the flag.
 */
static void
set_var(struct parser *p, struct vtab *t, const char *name, size_t nlen,
    const char *value, size_t vlen, bool unres, bool append, int line,
    int col, int exported, bool array)
{
	const struct var	*o = NULL;
	struct var		*v;
	char			*nv;
	size_t			 i, olen = 0, sep;

	if (append && (o = sh_vt_get(t, name, nlen)) == NULL && t != &p->tab)
		o = sh_vt_get(&p->tab, name, nlen);
	/* NAME+=(..) on a scalar: the scalar is element 0; NAME+=x on an
	 * array appends to element 0, which is not modelled. */
	if (o != NULL && o->array && !array)
		unres = true;
	sep = o != NULL && array && !o->array && o->value[0] != '\0';
	if (o != NULL && sh_x_budget(p, (olen = strlen(o->value)) + sep)) {
		nv = sh_pool_alloc(p->pool, olen + sep + vlen + 1);
		memcpy(nv, o->value, olen);
		if (sep)
			nv[olen++] = SH_ASEP;
		memcpy(nv + olen, value, vlen);
		nv[olen + vlen] = '\0';
		unres = unres || o->unresolved;
		array = array || o->array;
	} else
		nv = sh_pool_str(p->pool, value, vlen);
	if ((i = sh_vt_find(t, name, nlen)) == NONE)
		name = sh_pool_str(p->pool, name, nlen);
	else
		name = t->v[i].name;
	v = sh_vt_set(t, name, nlen);
	v->value = nv;
	v->line = line;
	v->col = col;
	v->unresolved = unres || (!array && sh_placeholder(nv));
	v->array = array;
	if (exported >= 0)
		v->exported = exported;
}

/* Apply NAME=value text (a word after export/env). */
bool
sh_set_from_text(struct parser *p, struct vtab *t, const struct sh_word *w,
    int exported)
{
	const char	*eq;
	size_t		 nl;
	bool		 app;

	if ((nl = sh_assign_name(w->text, strlen(w->text), &app)) == 0)
		return (false);
	eq = w->text + nl + (app ? 2 : 1);
	set_var(p, t, w->text, nl, eq, strlen(eq), w->unresolved, app,
	    w->line, w->col, exported, false);
	return (true);
}

static bool
is_decl(const char *w)
{
	return (strcmp(w, "export") == 0 || strcmp(w, "readonly") == 0 ||
	    strcmp(w, "declare") == 0 || strcmp(w, "typeset") == 0 ||
	    strcmp(w, "local") == 0);
}

/* export, readonly, declare, typeset, local and unset. */
static void
run_builtin(struct parser *p, struct sh_cmd *c)
{
	const char	*w0 = c->words[0].text, *w;
	struct vtab	*t = &p->tab;
	size_t		 i, k;
	int		 exported = strcmp(w0, "export") == 0 ? 1 : -1;
	bool		 opts = true;

	if (strcmp(w0, "unset") == 0) {
		for (i = 1; i < c->nwords; i++) {
			w = c->words[i].text;
			if (opts && w[0] == '-') {
				if (strchr(w, 'f') != NULL)
					return;
				opts = strcmp(w, "--") != 0;
				continue;
			}
			opts = false;
			if ((k = sh_vt_find(t, w, strlen(w))) != NONE)
				sh_vt_unlink(t, k);
		}
		return;
	}
	if (!is_decl(w0))
		return;
	for (i = 1; i < c->nwords; i++) {
		w = c->words[i].text;
		if (opts && (w[0] == '-' || w[0] == '+') && w[1] != '\0') {
			if (strcmp(w, "--") == 0)
				opts = false;
			else if (w[0] == '-' && strchr(w, 'x') != NULL)
				exported = 1;
			else if (w[0] == '-' && strchr(w, 'n') != NULL &&
			    exported == 1)
				return;	/* export -n */
			else if (strchr(w, 'f') != NULL ||
			    strchr(w, 'p') != NULL)
				return;
			continue;
		}
		opts = false;
		if (sh_set_from_text(p, t, &c->words[i], exported))
			continue;
		k = sh_vt_find(t, w, strlen(w));
		if (exported == 1 && k != NONE && t->v[k].alive &&
		    !t->v[k].exported) {
			t->v[k].exported = true;
			t->dirtygen = ++t->gen;
		}
	}
}

/* Copy variable v into e. */
static void
env_from(struct sh_env *e, const struct var *v)
{
	e->name = (char *)v->name;
	e->value = (char *)v->value;
	e->line = v->line;
	e->col = v->col;
	e->unresolved = v->unresolved || v->array;
	e->exported = v->exported && !v->array;	/* bash exports no array */
}

static int
env_budget(struct parser *p, const struct sh_cmd *c, size_t n)
{
	if (n > SH_MAX_ENV - p->envtotal) {
		sh_seterr(p, c->line, c->words[0].col,
		    "too many variables for this many commands");
		return (-1);
	}
	p->envtotal += n;
	return (0);
}

/*
 * The script's variables only. Since the last snapshot, if variables were
 * only added (at the end of the order), extend it in place: commands that
 * already point at it see only their first nenv entries.
 */
static int
plain_env(struct parser *p, struct sh_cmd *c)
{
	const struct vtab	*t = &p->tab;
	struct sh_env		*e = p->snap;
	size_t			 i, k, add, cap = p->capsnap;

	if (p->havesnap && p->snapgen == t->gen)
		goto done;
	if (!p->havesnap || t->dirtygen > p->snapgen || t->nalive < p->nsnap)
		p->nsnap = 0;
	add = t->nalive - p->nsnap;
	if (env_budget(p, c, add) != 0)
		return (-1);
	if (p->nsnap == 0 || t->nalive > cap) {
		cap = t->nalive < 8 ? 8 : t->nalive * 2;
		if (env_budget(p, c, p->nsnap) != 0)
			return (-1);
		e = sh_pool_env(p->pool, cap);
		if (p->nsnap != 0)
			memcpy(e, p->snap, p->nsnap * sizeof(*e));
	}
	/* The new variables are the last add on the list. */
	for (i = t->tail, k = 1; k < add; k++)
		i = t->v[i].prev;
	for (k = p->nsnap; k < t->nalive; k++, i = t->v[i].next)
		env_from(&e[k], &t->v[i]);
	p->snap = e;
	p->capsnap = cap;
	p->nsnap = t->nalive;
	p->snapgen = t->gen;
	p->havesnap = true;
done:
	c->env = p->nsnap != 0 ? p->snap : NULL;
	c->nenv = p->nsnap;
	return (0);
}

/* The environment of a command: the script's variables, then its own. */
static int
build_env(struct parser *p, struct sh_cmd *c, const struct own *o)
{
	const struct vtab	*t = &p->tab;
	const struct var	*v;
	struct sh_env		*e;
	size_t			 i, k, n, cnt;

	if (o->t.head == NONE && !o->clear)
		return (plain_env(p, c));
	cnt = (o->clear ? 0 : t->nalive) + o->t.nalive;
	if (env_budget(p, c, cnt) != 0)
		return (-1);
	e = cnt != 0 ? sh_pool_env(p->pool, cnt) : NULL;
	n = 0;
	for (i = o->clear ? NONE : t->head; i != NONE; i = t->v[i].next) {
		v = &t->v[i];
		k = sh_vt_find(&o->t, v->name, v->namelen);
		if (k == NONE || !o->t.v[k].alive)
			env_from(&e[n++], v);
	}
	for (i = o->t.head; i != NONE; i = o->t.v[i].next) {
		if (!o->t.v[i].del)
			env_from(&e[n++], &o->t.v[i]);
	}
	c->env = n != 0 ? e : NULL;
	c->nenv = n;
	return (0);
}

/* Apply prefix assignments of a command without words to the script. */
static void
apply_own(struct parser *p, struct own *o)
{
	struct var	*v, *src;
	size_t		 i, k;

	for (i = o->t.head; i != NONE; i = o->t.v[i].next) {
		src = &o->t.v[i];
		k = sh_vt_find(&p->tab, src->name, src->namelen);
		v = sh_vt_set(&p->tab, src->name, src->namelen);
		if (k == NONE)
			v->exported = false;
		v->value = src->value;
		v->line = src->line;
		v->col = src->col;
		v->unresolved = src->unresolved;
		v->array = src->array;
	}
}

/* A VAR=value prefix: it sees the prefixes before it. */
static void
add_prefix(struct parser *p, const struct token *tok)
{
	const char	*s = p->lx.s + tok->start;
	size_t		 nl;
	bool		 app;

	nl = sh_assign_name(s, tok->end - tok->start, &app);
	if (tok->array)
		sh_x_array(p, &p->own.t, tok->start + nl + (app ? 2 : 1),
		    tok->end);
	else
		sh_x_string(p, &p->own.t, tok->start + nl + (app ? 2 : 1),
		    tok->end, false);
	set_var(p, &p->own.t, s, nl, p->x.b.s, p->x.b.len, p->x.unresolved,
	    app, tok->line, tok->col, 1, tok->array);
}

/* Expand a word into fields of the current command. */
static void
add_word(struct parser *p, const struct token *tok)
{
	struct sh_cmd	*c = &p->cur;
	struct xout	*x = &p->x;
	bool		 split = !(p->decl && tok->assign);
	size_t		 i;
	void		*pp = c->words;

	sh_x_reset(x, split, NULL);
	if (tok->array || p->lx.s[tok->start] == '<' ||
	    p->lx.s[tok->start] == '>')
		sh_x_raw(p, x, tok->start, tok->end);
	else
		sh_x_span(p, x, tok->start, tok->end, M_UNQ, 0);
	if (x->dropempty && x->have && x->b.len == x->fstart)
		x->have = false;	/* "${EMPTY[@]}" is no word */
	if (x->have || (!split && x->nf == 0 && !x->dropempty))
		sh_x_endfield(x);
	sh_grow(&pp, &p->curcap, c->nwords + x->nf, sizeof(*c->words));
	c->words = pp;
	for (i = 0; i < x->nf; i++) {
		c->words[c->nwords].text = sh_pool_str(p->pool, x->b.s + x->fo[i],
		    strlen(x->b.s + x->fo[i]));
		c->words[c->nwords].line = tok->line;
		c->words[c->nwords].col = tok->col;
		c->words[c->nwords].unresolved = x->unresolved ||
		    sh_placeholder(c->words[c->nwords].text);
		c->words[c->nwords].foreign = false;
		c->nwords++;
	}
}

/* A word of the command being read. */
int
sh_cmd_word(struct parser *p, const struct token *tok)
{
	size_t	had = p->cur.nwords;

	if (!p->started) {
		p->started = true;
		p->cur.line = tok->line;
	}
	if (!p->inwords && tok->assign)
		add_prefix(p, tok);
	else {
		p->inwords = true;
		add_word(p, tok);
		if (had == 0 && p->cur.nwords > 0)
			p->decl = is_decl(p->cur.words[0].text);
	}
	if (p->toobig) {
		sh_seterr(p, tok->line, tok->col, "expansion too large");
		return (-1);
	}
	return (0);
}

static void
cmd_reset(struct parser *p)
{
	memset(&p->cur, 0, sizeof(p->cur));
	p->curcap = 0;
	sh_vt_free(&p->own.t);
	sh_vt_init(&p->own.t);
	p->own.clear = false;
	p->started = p->inwords = p->decl = false;
}

/* The command being read is complete. */
int
sh_finish_cmd(struct parser *p)
{
	struct sh_cmd	*c = &p->cur;
	void		*pp;

	if (!p->started)
		return (0);
	c->endline = p->endline;
	if (c->nwords == 0) {
		apply_own(p, &p->own);
		free(c->words);
		cmd_reset(p);
		return (0);
	}
	if (p->curcap > c->nwords) {
		c->words = xreallocarray(c->words, c->nwords,
		    sizeof(*c->words));
	}
	run_builtin(p, c);
	sh_classify(p, c, &p->own);
	if (p->toobig) {
		sh_seterr(p, c->line, c->words[0].col, "expansion too large");
		return (-1);
	}
	if (build_env(p, c, &p->own) != 0)
		return (-1);
	pp = p->cmds;
	sh_grow(&pp, &p->capcmds, p->ncmds + 1, sizeof(*p->cmds));
	p->cmds = pp;
	p->cmds[p->ncmds++] = *c;
	cmd_reset(p);
	return (0);
}

