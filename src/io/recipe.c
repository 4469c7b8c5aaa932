/* recipe.c - the SGLang servers of an srt-slurm recipe (recipe.h). */
#define _POSIX_C_SOURCE 200809L
#include "io/recipe.h"
#include "core/util.h"
#include "core/ydoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const struct ynode *
block(const struct ynode *root)
{
	const struct ynode	*b = ynode_get(root, "base");

	return b != NULL && b->kind == YN_MAP ? b : root;
}

bool
recipe_sniff(const struct ynode *root)
{
	const struct ynode	*b;

	if (root == NULL || root->kind != YN_MAP)
		return false;
	b = block(root);
	return ynode_get(b, "backend") != NULL &&
	    ynode_get(b, "resources") != NULL;
}

/* A whole number in map under key, or -1. */
static long
num(const struct ynode *map, const char *key)
{
	const struct ynode	*n = map != NULL ? ynode_get(map, key) : NULL;
	char			*end;
	long			 v;

	if (n == NULL || n->kind != YN_SCALAR)
		return -1;
	v = strtol(n->str, &end, 10);
	return end != n->str && *end == '\0' && v >= 0 ? v : -1;
}

static void
add_role(struct recipe *r, const char *mode, const struct ynode *cfg,
    const struct ynode *env, long nodes, long workers)
{
	struct recipe_role	*x;

	r->roles = xreallocarray(r->roles, r->nroles + 1, sizeof *r->roles);
	x = &r->roles[r->nroles++];
	x->mode = mode;
	x->config = cfg;
	x->env = env != NULL && env->kind == YN_MAP ? env : NULL;
	x->workers = workers;
	/* srtctl spreads a worker over nodes/workers nodes (--nnodes);
	 * with more workers than nodes, several share a node. */
	x->nodes_per_worker = nodes > 0 && workers > 0 && nodes >= workers &&
	    nodes % workers == 0 ? nodes / workers : 0;
}

/* One mode: its map, or its list of per-group maps (prefill_groups). */
static int
read_mode(struct recipe *r, const struct ynode *sc, const struct ynode *be,
    const struct ynode *res, const char *key, const char *mode,
    const char *res_key, char *err, size_t errlen)
{
	char			 k[64];
	const struct ynode	*cfg, *env;
	long			 nodes, workers;
	size_t			 i;

	snprintf(k, sizeof k, "%s_environment", res_key);
	env = ynode_get(be, k);
	snprintf(k, sizeof k, "%s_nodes", res_key);
	nodes = num(res, k);
	snprintf(k, sizeof k, "%s_workers", res_key);
	workers = num(res, k);
	if ((cfg = ynode_get(sc, key)) != NULL && cfg->kind == YN_MAP)
		add_role(r, mode, cfg, env, nodes, workers);
	else if (cfg != NULL && !ynode_is_null(cfg)) {
		snprintf(err, errlen, "%d:%d: backend.sglang_config.%s is not a "
		    "mapping of SGLang options", cfg->line, cfg->col, key);
		return -1;
	}
	snprintf(k, sizeof k, "%s_groups", key);
	if ((cfg = ynode_get(sc, k)) == NULL || cfg->kind != YN_SEQ)
		return 0;
	for (i = 0; i < cfg->nkids; i++)
		if (cfg->kids[i]->kind == YN_MAP)
			add_role(r, mode, cfg->kids[i], env, nodes > 0 &&
			    workers > 0 ? nodes / workers : -1, 1);
	return 0;
}

int
recipe_read(const struct ynode *root, struct recipe *out, char *err,
    size_t errlen)
{
	const struct ynode	*b = block(root), *be, *sc, *res, *fe, *t;
	struct buf		 sw = { 0 };
	size_t			 i;

	memset(out, 0, sizeof *out);
	out->base = b;
	be = ynode_get(b, "backend");
	res = ynode_get(b, "resources");
	if (be == NULL || be->kind != YN_MAP || (sc = ynode_get(be,
	    "sglang_config")) == NULL || sc->kind != YN_MAP) {
		t = be != NULL && be->kind == YN_MAP ? ynode_get(be, "type") :
		    NULL;
		if (t != NULL && t->kind == YN_SCALAR)
			snprintf(err, errlen, "an srt-slurm recipe without "
			    "backend.sglang_config (backend type %s): no SGLang "
			    "server to check", t->str);
		else
			snprintf(err, errlen, "an srt-slurm recipe without "
			    "backend.sglang_config: no SGLang server to check");
		return -1;
	}
	if (read_mode(out, sc, be, res, "prefill", "prefill", "prefill", err,
	    errlen) != 0 || read_mode(out, sc, be, res, "decode", "decode",
	    "decode", err, errlen) != 0 || read_mode(out, sc, be, res,
	    "aggregated", "null", "agg", err, errlen) != 0) {
		recipe_free(out);
		return -1;
	}
	if ((t = ynode_get(b, "model")) != NULL && (t = ynode_get(t, "path")) !=
	    NULL && t->kind == YN_SCALAR && strncmp(t->str, "hf:", 3) == 0)
		out->model = t->str + 3;
	fe = ynode_get(b, "frontend");
	t = fe != NULL ? ynode_get(fe, "type") : NULL;
	out->dynamo = t == NULL || (t->kind == YN_SCALAR &&
	    strcmp(t->str, "dynamo") == 0);
	for (i = 0; b != root && i + 1 < root->nkids; i += 2) {
		const char	*k = root->kids[i]->str;

		if (strcmp(k, "base") == 0)
			continue;
		buf_printf(&sw, "%s%s", sw.len ? ", " : "", k);
	}
	out->sweeps = sw.len ? buf_steal(&sw) : NULL;
	buf_free(&sw);
	if (out->nroles == 0) {
		snprintf(err, errlen, "an srt-slurm recipe whose "
		    "backend.sglang_config names no prefill, decode or "
		    "aggregated server");
		recipe_free(out);
		return -1;
	}
	return 0;
}

void
recipe_free(struct recipe *r)
{
	free(r->roles);
	free(r->sweeps);
	memset(r, 0, sizeof *r);
}
