/* recipe.c - the SGLang servers of an srt-slurm recipe (recipe.h). */
#define _POSIX_C_SOURCE 200809L
#include "io/recipe.h"
#include "core/util.h"
#include "core/ydoc.h"
#include "io/shell.h"

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
map_words(const struct ynode *m, recipe_word_fn put, void *arg)
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
		put(arg, flag, k->line, k->col);
		free(flag);
		if (v->kind == YN_SEQ) {
			for (j = 0; j < v->nkids; j++)
				if (v->kids[j]->kind == YN_SCALAR)
					put(arg, v->kids[j]->str,
					    v->kids[j]->line, v->kids[j]->col);
		} else if (v->kind == YN_SCALAR && b < 0)
			put(arg, v->str, v->line, v->col);
		else if (v->kind == YN_MAP) {
			put(arg, "${JSON}", v->line, v->col);	/* a JSON dump */
		}
	}
	free(keys);
}

void
recipe_words(const struct recipe *rc, const struct recipe_role *r,
    recipe_word_fn put, void *arg)
{
	char	nn[32];
	int	line = r->config->line;

	put(arg, "python3", line, 1);
	put(arg, "-m", line, 1);
	put(arg, rc->dynamo ? "dynamo.sglang" : "sglang.launch_server", line,
	    1);
	put(arg, "--model-path", line, 1);
	put(arg, rc->model != NULL ? rc->model : "${MODEL}", line, 1);
	put(arg, "--host", line, 1);
	put(arg, "0.0.0.0", line, 1);
	if (strcmp(r->mode, "null") != 0) {
		put(arg, "--disaggregation-mode", line, 1);
		put(arg, r->mode, line, 1);
	}
	if (r->nodes_per_worker > 1) {
		/* srtctl's own rendezvous: the worker's head node, chosen
		 * when the job runs. */
		snprintf(nn, sizeof nn, "%ld", r->nodes_per_worker);
		put(arg, "--nnodes", line, 1);
		put(arg, nn, line, 1);
		put(arg, "--dist-init-addr", line, 1);
		put(arg, "${HEAD_NODE}:${DIST_PORT}", line, 1);
		put(arg, "--node-rank", line, 1);
		put(arg, "${NODE_RANK}", line, 1);
	}
	map_words(r->config, put, arg);
}

/* recipe_script's callback: the word, quoted, onto the command line. */
static void
put_quoted(void *arg, const char *text, int line, int col)
{
	struct buf	*b = arg;
	char		*q = sh_quote(text);

	(void)line;
	(void)col;
	if (b->len > 0 && b->s[b->len - 1] != '\n')
		buf_putc(b, ' ');
	buf_puts(b, q);
	free(q);
}

int
recipe_script(const char *name, const struct ynode *root,
    struct sh_script *out, char *err, size_t errlen)
{
	struct recipe	 rc;
	char		 perr[512];
	size_t		 i, j;

	memset(out, 0, sizeof *out);
	if (recipe_read(root, &rc, err, errlen) != 0)
		return -1;
	for (i = 0; i < rc.nroles; i++) {
		const struct recipe_role	*r = &rc.roles[i];
		struct sh_script		 one = { 0 };
		struct buf			 b = { 0 };

		/* The mode's environment, then its command. */
		for (j = 0; r->env != NULL && j + 1 < r->env->nkids; j += 2) {
			char	*q;

			if (r->env->kids[j + 1]->kind != YN_SCALAR)
				continue;
			q = sh_quote(r->env->kids[j + 1]->str);
			buf_printf(&b, "export %s=%s\n", r->env->kids[j]->str, q);
			free(q);
		}
		recipe_words(&rc, r, put_quoted, &b);
		buf_putc(&b, '\n');
		if (sh_parse(b.s, b.len, &one, perr, sizeof perr) != 0) {
			snprintf(err, errlen, "%s:%d:%d: the %s command srtctl "
			    "builds: %s", name, r->config->line,
			    r->config->col, r->mode, perr);
			buf_free(&b);
			sh_script_free(&one);
			sh_script_free(out);
			recipe_free(&rc);
			return -1;
		}
		/* Every command at its mode's map: where its options are. */
		for (j = 0; j < one.ncmds; j++)
			one.cmds[j].line = one.cmds[j].endline =
			    r->config->line;
		sh_script_move(out, &one);
		sh_script_free(&one);
		buf_free(&b);
	}
	recipe_free(&rc);
	return 0;
}
