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

/* A YAML 1.1 boolean as PyYAML reads an unquoted scalar: 1, 0, or -1. */
static int
yaml_bool(const struct ynode *v)
{
	static const char *const t[] = { "true", "True", "TRUE", "yes", "Yes",
	    "YES", "on", "On", "ON", NULL };
	static const char *const f[] = { "false", "False", "FALSE", "no", "No",
	    "NO", "off", "Off", "OFF", NULL };
	size_t	i;

	if (v->kind != YN_SCALAR || v->quoted)
		return -1;
	for (i = 0; t[i] != NULL; i++)
		if (strcmp(v->str, t[i]) == 0)
			return 1;
	for (i = 0; f[i] != NULL; i++)
		if (strcmp(v->str, f[i]) == 0)
			return 0;
	return -1;
}

/* Keys srtctl sets itself and drops from the recipe's map. */
static bool
srtctl_owns(const char *flag)
{
	static const char *const k[] = { "--model-path", "--served-model-name",
	    "--nccl-port", "--grpc-port", NULL };
	size_t	i;

	for (i = 0; k[i] != NULL; i++)
		if (strcmp(flag, k[i]) == 0)
			return true;
	return false;
}

/*
 * The map as srtctl's _config_to_cli_args writes it (srt-slurm
 * src/srtctl/backends/sglang.py@00660c91): keys sorted, '_' as '-', true
 * a bare flag, false and null nothing, a list the flag and its items,
 * anything else the flag and its text.
 */
static void
map_words(struct words *ws, const struct ynode *m)
{
	const struct ynode	**keys;
	size_t			  i, j, n = m->nkids / 2;

	keys = xcalloc(n + 1, sizeof *keys);
	for (i = 0; i < n; i++)
		keys[i] = m->kids[2 * i];
	for (i = 1; i < n; i++)		/* insertion sort: small maps */
		for (j = i; j > 0 && strcmp(keys[j - 1]->str, keys[j]->str) > 0;
		    j--) {
			const struct ynode	*t = keys[j];

			keys[j] = keys[j - 1];
			keys[j - 1] = t;
		}
	for (i = 0; i < n; i++) {
		const struct ynode	*k = keys[i], *v = ynode_get(m, k->str);
		char			*flag = xasprintf("--%s", k->str), *c;
		int			 b = yaml_bool(v);

		for (c = flag + 2; *c != '\0'; c++)
			if (*c == '_')
				*c = '-';
		if (srtctl_owns(flag) || b == 0 || ynode_is_null(v)) {
			free(flag);
			continue;
		}
		word(ws, owned(ws, flag), k->line, k->col);
		if (v->kind == YN_SEQ) {
			for (j = 0; j < v->nkids; j++)
				if (v->kids[j]->kind == YN_SCALAR)
					word(ws, v->kids[j]->str, v->kids[j]->line,
					    v->kids[j]->col);
		} else if (v->kind == YN_SCALAR && b < 0)
			word(ws, v->str, v->line, v->col);
		else if (v->kind == YN_MAP) {
			word(ws, "${JSON}", v->line, v->col);	/* a JSON dump */
		}
	}
	free(keys);
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
	char		 nn[32];
	size_t		 j;
	int		 k, line = r->config->line;

	word(&ws, "python3", line, 1);
	word(&ws, "-m", line, 1);
	word(&ws, rc->dynamo ? "dynamo.sglang" : "sglang.launch_server", line,
	    1);
	word(&ws, "--model-path", line, 1);
	word(&ws, rc->model != NULL ? rc->model : "${MODEL}", line, 1);
	word(&ws, "--host", line, 1);
	word(&ws, "0.0.0.0", line, 1);
	if (strcmp(r->mode, "null") != 0) {
		word(&ws, "--disaggregation-mode", line, 1);
		word(&ws, r->mode, line, 1);
	}
	if (r->nodes_per_worker > 1) {
		/* srtctl's own rendezvous: the worker's head node, chosen
		 * when the job runs. */
		snprintf(nn, sizeof nn, "%ld", r->nodes_per_worker);
		word(&ws, "--nnodes", line, 1);
		word(&ws, owned(&ws, xstrdup(nn)), line, 1);
		word(&ws, "--dist-init-addr", line, 1);
		word(&ws, "${HEAD_NODE}:${DIST_PORT}", line, 1);
		word(&ws, "--node-rank", line, 1);
		word(&ws, "${NODE_RANK}", line, 1);
	}
	map_words(&ws, r->config);
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
		int	r = strcmp(rc->roles[i].mode, "prefill") == 0 ? 0 :
		    strcmp(rc->roles[i].mode, "decode") == 0 ? 1 : -1;

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
