/* sgconfig.c - SGLang --config YAML files, checked like SGLang's merger. */
#define _POSIX_C_SOURCE 200809L
#include "io/argv.h"
#include "core/util.h"
#include "core/ydoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SGCONFIG_MAX	(4 * 1024 * 1024)

static void
push(struct argword **w, size_t *n, const char *text, const struct ynode *at)
{
	*w = xreallocarray(*w, *n + 1, sizeof **w);
	(*w)[*n].text = xstrdup(text);
	(*w)[*n].line = at->line;
	(*w)[*n].col = at->col;
	(*w)[*n].unresolved = false;
	(*w)[*n].src = SRC_CONFIG;
	(*n)++;
}

static void
err_at(struct result *out, const char *id, const char *name,
    const struct ynode *at, const char *msg)
{
	struct buf	b = { 0 };

	(void)name;
	buf_puts(&b, msg);
	result_add(out, id, SEV_ERROR, b.s, NULL, at ? at->line : 0,
	    at ? at->col : 0);
	buf_free(&b);
}

int
sgconfig_read_text(const struct catalog *cat, const char *name,
    const char *text, size_t len, struct argword **words, size_t *nwords,
    struct result *out)
{
	char		 err[1024];
	struct ynode	*root;
	int		 rc;

	*words = NULL;
	*nwords = 0;
	root = ydoc_parse(name, text, len, true, err, sizeof err);
	if (root == NULL) {
		result_add(out, "config-yaml", SEV_ERROR, err, NULL, 0, 0);
		return -1;
	}
	rc = sgconfig_read_ydoc(cat, name, root, words, nwords, out);
	ynode_free(root);
	return rc;
}

int
sgconfig_read_ydoc(const struct catalog *cat, const char *name,
    const struct ynode *root, struct argword **words, size_t *nwords,
    struct result *out)
{
	size_t		 i, j;
	int		 rc = 0;

	*words = NULL;
	*nwords = 0;
	if (root->kind != YN_MAP) {
		err_at(out, "config-not-dict", name, root,
		    "Config file must contain a dictionary at root level");
		return -1;
	}
	for (i = 0; i + 1 < root->nkids; i += 2) {
		const struct ynode	*k = root->kids[i], *v = root->kids[i + 1];
		char			*flag = xasprintf("--%s", k->str);
		int			 o = catalog_find_flag(cat, flag);
		const struct option	*op = o >= 0 ? &cat->opts[o] : NULL;

		if (op != NULL && (op->type == T_BOOLOPT ||
		    op->deprecated != NULL || !op->config_ok)) {
			struct buf	b = { 0 };
			const char	*action = op->type == T_BOOLOPT ?
			    "BooleanOptionalAction" : op->deprecated == NULL ?
			    "_StoreAction" : op->type == T_BOOL ?
			    "DeprecatedStoreTrueAction" :
			    "DeprecatedAliasStoreAction";

			buf_printf(&b, "Unsupported config option '%s' with "
			    "action '%s'", k->str, action);
			result_add(out, "config-unsupported-action", SEV_ERROR,
			    b.s, "keep this flag on the command line",
			    k->line, k->col);
			buf_free(&b);
			free(flag);
			rc = -1;
			continue;
		}
		if (v->kind == YN_MAP) {
			struct buf	b = { 0 };

			buf_printf(&b, "%s:%d:%d: value of '%s' is a mapping; "
			    "SGLang config files are flat (key: value)", name,
			    v->line, v->col, k->str);
			result_add(out, "config-nested", SEV_ERROR, b.s, NULL,
			    v->line, v->col);
			buf_free(&b);
			free(flag);
			rc = -1;
			continue;
		}
		if (v->kind == YN_SEQ) {
			if (v->nkids == 0) {
				free(flag);
				continue;	/* empty list skipped */
			}
			push(words, nwords, flag, k);
			for (j = 0; j < v->nkids; j++) {
				if (v->kids[j]->kind != YN_SCALAR) {
					err_at(out, "config-nested", name,
					    v->kids[j], "list items must be scalars");
					rc = -1;
					continue;
				}
				push(words, nwords, v->kids[j]->str, v->kids[j]);
			}
			free(flag);
			continue;
		}
		if (!v->quoted && (strcmp(v->str, "true") == 0 ||
		    strcmp(v->str, "false") == 0 || strcmp(v->str, "True") == 0 ||
		    strcmp(v->str, "False") == 0)) {
			bool	t = v->str[0] == 't' || v->str[0] == 'T';

			if (op != NULL && op->type == T_BOOL) {
				if (t)
					push(words, nwords, flag, k);
			} else {
				push(words, nwords, flag, k);
				push(words, nwords, t ? "true" : "false", v);
			}
			free(flag);
			continue;
		}
		push(words, nwords, flag, k);
		if (!ynode_is_null(v))
			push(words, nwords, v->str, v);
		else
			push(words, nwords, "None", v);
		free(flag);
	}
	return rc;
}

int
sgconfig_read(const struct catalog *cat, const char *path,
    struct argword **words, size_t *n, struct result *out)
{
	const char	*dot = strrchr(path, '.');
	struct stat	 st;
	char		 err[1024];
	char		*text;
	size_t		 len;
	int		 rc;

	*words = NULL;
	*n = 0;
	if (dot == NULL || (strcmp(dot, ".yaml") != 0 &&
	    strcmp(dot, ".yml") != 0)) {
		struct buf	b = { 0 };

		buf_printf(&b, "Config file must be YAML format, got: %s",
		    dot ? dot : "");
		result_add(out, "config-suffix", SEV_ERROR, b.s, NULL, 0, 0);
		buf_free(&b);
		return -1;
	}
	if (stat(path, &st) != 0) {
		struct buf	b = { 0 };

		buf_printf(&b, "Config file not found: %s", path);
		result_add(out, "config-not-found", SEV_ERROR, b.s, NULL, 0, 0);
		buf_free(&b);
		return -1;
	}
	if ((text = read_file(path, SGCONFIG_MAX, &len, err, sizeof err)) ==
	    NULL) {
		result_add(out, "config-read", SEV_ERROR, err, NULL, 0, 0);
		return -1;
	}
	rc = sgconfig_read_text(cat, path, text, len, words, n, out);
	free(text);
	return rc;
}
