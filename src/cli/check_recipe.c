/*
 * check_recipe.c - `pdwiz check` on an srt-slurm recipe: every worker
 * mode's SGLang options (backend.sglang_config) through the per-server
 * checks, with the mode's environment and what srtctl adds to the command
 * line itself (--disaggregation-mode, and --nnodes for a worker spread
 * over several nodes).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/check.h"
#include "core/util.h"
#include "core/ydoc.h"
#include "io/recipe.h"
#include "io/server.h"
#include "io/shell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Words of the command being built, and the strings they own. */
struct words {
	struct sh_word	*w;
	size_t		 n;
	char		**own;
	size_t		 nown;
};

static void
word(struct words *ws, const char *text, int line, int col)
{
	ws->w = xreallocarray(ws->w, ws->n + 1, sizeof *ws->w);
	memset(&ws->w[ws->n], 0, sizeof ws->w[ws->n]);
	ws->w[ws->n].text = (char *)text;
	ws->w[ws->n].line = line;
	ws->w[ws->n].col = col;
	ws->w[ws->n].unresolved = strchr(text, '$') != NULL;
	ws->n++;
}

static const char *
owned(struct words *ws, char *s)
{
	ws->own = xreallocarray(ws->own, ws->nown + 1, sizeof *ws->own);
	ws->own[ws->nown++] = s;
	return s;
}

/* recipe_words' callback: the word, copied (its text may be temporary). */
static void
put_word(void *arg, const char *text, int line, int col)
{
	struct words	*ws = arg;

	word(ws, owned(ws, xstrdup(text)), line, col);
}

/* The mode's environment map. */
static struct sh_env *
role_env(const struct recipe_role *r, size_t *n)
{
	struct sh_env	*e;
	size_t		 i;

	*n = 0;
	if (r->env == NULL)
		return NULL;
	e = xcalloc(r->env->nkids / 2 + 1, sizeof *e);
	for (i = 0; i + 1 < r->env->nkids; i += 2) {
		const struct ynode	*k = r->env->kids[i], *v = r->env->kids[i + 1];

		if (v->kind != YN_SCALAR)
			continue;
		e[*n].name = k->str;
		e[*n].value = v->str;
		e[*n].line = k->line;
		e[*n].col = k->col;
		e[*n].exported = true;
		e[(*n)++].unresolved = strchr(v->str, '$') != NULL;
	}
	return e;
}

/* One worker mode's command, kept for the cross-role checks. */
struct built {
	struct words	 ws;
	struct sh_cmd	 c;
	struct config	 eff;	/* after SGLang's overrides */
	int		 k;	/* index in ck->cmds */
};

static void
built_free(struct built *b)
{
	size_t	j;

	config_free(&b->eff);
	free(b->c.env);
	for (j = 0; j < b->ws.nown; j++)
		free(b->ws.own[j]);
	free(b->ws.own);
	free(b->ws.w);
}

static void
check_role(struct check *ck, const struct config *base,
    const struct recipe *rc, const struct recipe_role *r, struct built *b)
{
	struct words	 ws = { 0 };
	struct sh_cmd	 c = { 0 };
	struct config	 cfg = { 0 };
	struct result	 diags, res;
	const char	**text;
	size_t		 j;
	int		 k, line = r->config->line;

	recipe_words(rc, r, put_word, &ws);
	c.kind = SH_SERVER;
	c.words = ws.w;
	c.nwords = ws.n;
	c.argstart = 3;
	c.line = c.endline = line;
	c.wrapper = rc->dynamo ? "dynamo.sglang" : NULL;
	c.nohttp = rc->dynamo;
	c.env = role_env(r, &c.nenv);
	result_init(&diags);
	result_init(&res);
	server_from_cmd(ck->cat, &c, base, &cfg, &diags, NULL);
	text = xcalloc(ws.n + 1, sizeof *text);
	for (j = 0; j < ws.n; j++)
		text[j] = ws.w[j].text;
	check_add_cmd(ck, SH_SERVER, line, r->mode, text, ws.n);
	free(text);
	k = (int)ck->ncmds - 1;
	for (j = 0; j < diags.n; j++)
		if (diags.d[j].line == 0)
			diags.d[j].line = line;
	result_take(&ck->all, &diags, k);
	engine_run(ck->cat, &cfg, &res);
	engine_verify_fixes(ck->cat, &cfg, &res);
	for (j = 0; j < res.n; j++)
		if (res.d[j].line == 0)
			res.d[j].line = line;
	b->eff = res.eff;
	memset(&res.eff, 0, sizeof res.eff);
	result_take(&ck->all, &res, k);
	result_free(&res);
	result_free(&diags);
	config_free(&cfg);
	b->ws = ws;
	b->c = c;
	b->k = k;
}

/*
 * Prefill against decode, as for a script: page size, KV dtype, backend
 * and the rest of what both roles must agree on. Each worker runs on
 * Slurm nodes of its own that the recipe does not name, so what depends
 * on machines and ports stays "could not check".
 */
static void
cross(struct check *ck, struct built *b, const struct recipe *rc)
{
	struct sh_script	 sc = { 0 };
	const struct config	*eff[3] = { NULL, NULL, NULL };
	int			 first[3] = { -1, -1, -1 };
	size_t			 i;

	for (i = 0; i < rc->nroles; i++) {
		int	r = role_parse(rc->roles[i].mode);

		if (r == ROLE_ROUTER)
			r = -1;

		if (r >= 0 && first[r] < 0) {
			first[r] = b[i].k;
			eff[r] = &b[i].eff;
		}
	}
	if (first[0] < 0 || first[1] < 0)
		return;
	sc.cmds = xcalloc(rc->nroles, sizeof *sc.cmds);
	for (i = 0; i < rc->nroles; i++)
		sc.cmds[sc.ncmds++] = b[i].c;
	check_cross_cmds(ck, &sc, eff, first);
	free(sc.cmds);
}

int
check_recipe(struct check *ck, const struct config *base,
    const struct ynode *root)
{
	struct recipe	rc;
	struct built	*bs;
	char		err[512];
	size_t		i;

	if (recipe_read(root, &rc, err, sizeof err) != 0) {
		fprintf(stderr, "%s: %s\n", ck->name, err);
		if (ck->why.len == 0)
			buf_printf(&ck->why, "%s: %s", ck->name, err);
		return -1;
	}
	bs = xcalloc(rc.nroles + 1, sizeof *bs);
	for (i = 0; i < rc.nroles; i++)
		check_role(ck, base, &rc, &rc.roles[i], &bs[i]);
	cross(ck, bs, &rc);
	for (i = 0; i < rc.nroles; i++)
		built_free(&bs[i]);
	free(bs);
	if (rc.sweeps != NULL) {
		struct result	r;
		struct buf	b = { 0 };

		buf_printf(&b, "only the base block of this sweep is checked; "
		    "the override blocks %s (lists that srtctl zips into "
		    "several deployments) are not expanded", rc.sweeps);
		result_init(&r);
		result_add(&r, "recipe-sweep-not-expanded", SEV_NOTE, b.s, NULL,
		    rc.base->line, 1);
		result_take(&ck->all, &r, 0);
		result_free(&r);
		buf_free(&b);
	}
	recipe_free(&rc);
	return 0;
}
