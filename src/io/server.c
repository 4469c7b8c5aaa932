/* server.c - assemble a server configuration from what the operator wrote. */
#define _POSIX_C_SOURCE 200809L
#include "io/server.h"
#include "io/argv.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
model_facts(const struct catalog *cat, struct config *cfg)
{
	int	mo = catalog_find(cat, "model_path");

	if (mo >= 0 && cfg->s[mo].v.t == V_STR)
		catalog_model_facts(cat, cfg->s[mo].v.u.s, cfg);
}

/*
 * The sglang serve CLI (python/sglang/cli/serve.py) before SGLang's own
 * parser: it takes out --model-type BACKEND and --model-type=BACKEND
 * wherever they are (_extract_model_type_override, since v0.5.10), then
 * reads a first word that is no flag as --model-path WORD
 * (_normalize_positional_model_path, main 649ce5dd3d of 2026-07-11: in no
 * release up to v0.5.13.post2). A release older than these has neither.
 */
static bool
serve_positional(sgver_t v)
{
	return v == SGVER_UNKNOWN ||
	    sgver_cmp(v, sgver_parse("0.5.13.post2", NULL, 0)) > 0;
}

/* Is words[argstart + *i] the CLI's --model-type? Then *i is past it. */
static bool
serve_model_type(sgver_t v, const struct sh_cmd *cmd, size_t *i, size_t n)
{
	const char	*t = cmd->words[cmd->argstart + *i].text;

	if (v != SGVER_UNKNOWN &&
	    sgver_cmp(v, sgver_parse("0.5.10", NULL, 0)) < 0)
		return false;
	if (strncmp(t, "--model-type=", 13) == 0)
		return true;
	if (strcmp(t, "--model-type") != 0)
		return false;
	if (*i + 1 < n)
		++*i;
	return true;
}

int
server_from_cmd(const struct catalog *cat, const struct sh_cmd *cmd,
    const struct config *base, struct config *out, struct result *diags,
    const char *base_dir)
{
	struct env_entry	*env = xcalloc(cmd->nenv + 1, sizeof *env);
	struct argword		*w;
	size_t			 i, k, n = cmd->nwords - cmd->argstart;
	int			 nerr;

	config_copy(out, base);
	for (i = 0; i < cmd->nenv; i++) {
		env[i].name = cmd->env[i].name;
		env[i].value = cmd->env[i].value;
		env[i].line = cmd->env[i].line;
		env[i].col = cmd->env[i].col;
		env[i].unresolved = cmd->env[i].unresolved;
	}
	nerr = env_apply(cat, env, cmd->nenv, out, diags);
	free(env);
	w = xcalloc(n + 2, sizeof *w);
	/* The wrapper's own arguments (foreign) are not SGLang's. */
	for (i = k = 0; i < n; i++) {
		const struct sh_word	*sw = &cmd->words[cmd->argstart + i];

		if (sw->foreign)
			continue;
		if (cmd->serve && serve_model_type(out->sgver, cmd, &i, n))
			continue;
		if (cmd->serve && k == 0 && sw->text[0] != '-' &&
		    serve_positional(out->sgver)) {
			w[k].text = "--model-path";
			w[k].line = sw->line;
			w[k].col = sw->col;
			w[k++].src = SRC_CLI;
		}
		w[k].text = sw->text;
		w[k].line = sw->line;
		w[k].col = sw->col;
		w[k].unresolved = sw->unresolved;
		w[k++].src = SRC_CLI;
	}
	nerr += argv_parse(cat, w, k, out, diags, base_dir);
	free(w);
	/* A wrapper without SGLang's HTTP server binds no --port. */
	if (cmd->nohttp && (k = (size_t)catalog_find(cat, "port")) != (size_t)-1)
		config_set(out, (int)k, VAL_UNKNOWN, SRC_CLI, cmd->line, 1);
	model_facts(cat, out);
	return nerr;
}

int
server_from_sgconfig_ydoc(const struct catalog *cat, const char *name,
    const struct ynode *root, const struct config *base, struct config *out,
    struct result *diags)
{
	struct argword	*w;
	size_t		 n;
	size_t		 nerr = diags->nerrors;

	config_copy(out, base);
	sgconfig_read_ydoc(cat, name, root, &w, &n, diags);
	argv_parse(cat, w, n, out, diags, NULL);
	argwords_free(w, n);
	model_facts(cat, out);
	return (int)(diags->nerrors - nerr);
}

int
facts_set(const struct catalog *cat, struct config *cfg, const char *name,
    const char *value, char *err, size_t errlen)
{
	int			 o = catalog_find(cat, name);
	const struct option	*op;
	struct value		 v;
	size_t			 i, j;

	if (o < 0 || cat->opts[o].kind != OK_FACT) {
		snprintf(err, errlen, "unknown fact '%s'", name);
		return -1;
	}
	op = &cat->opts[o];
	if (val_parse(op->type, value, &v) != 0) {
		snprintf(err, errlen, "fact %s: invalid value '%s'", name, value);
		return -1;
	}
	if (op->type == T_STR && op->nchoices == 0 && strcmp(value, "null") == 0)
		v = VAL_NULL;	/* model_quant_method=null: not quantized */
	if (op->nchoices > 0) {
		for (i = 0; i < op->nchoices; i++)
			if (strcmp(op->choices[i], value) == 0)
				break;
		if (i == op->nchoices) {
			snprintf(err, errlen, "fact %s: '%s' is not one of the "
			    "known values", name, value);
			return -1;
		}
	}
	config_set(cfg, o, v, SRC_USER, 0, 0);
	if (strcmp(name, "model_id") == 0) {
		/* What a local path holds: the tables' facts of that id. */
		catalog_model_facts(cat, value, cfg);
		return 0;
	}
	if (strcmp(name, "model_arch") != 0)
		return 0;
	for (i = 0; i < cat->nmodels; i++) {
		const struct model_entry	*m = &cat->models[i];

		for (j = 0; j < m->n; j++)
			if (m->opt[j] == o && m->val[j].t == V_STR &&
			    strcmp(m->val[j].u.s, value) == 0)
				break;
		if (j == m->n)
			continue;
		for (j = 0; j < m->n; j++)
			if (cfg->s[m->opt[j]].src != SRC_USER)
				config_set(cfg, m->opt[j], m->val[j], SRC_USER,
				    0, 0);
		break;
	}
	return 0;
}
