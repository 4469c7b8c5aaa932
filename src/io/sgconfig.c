/* sgconfig.c - SGLang --config YAML files, checked like SGLang's merger. */
#define _POSIX_C_SOURCE 200809L
#include "io/argv.h"
#include "io/pyval.h"
#include "core/util.h"
#include "core/ydoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define SGCONFIG_MAX	(4 * 1024 * 1024)

static void
push_u(struct argword **w, size_t *n, const char *text, const struct ynode *at,
    bool unresolved)
{
	*w = xreallocarray(*w, *n + 1, sizeof **w);
	(*w)[*n].text = xstrdup(text);
	(*w)[*n].line = at->line;
	(*w)[*n].col = at->col;
	(*w)[*n].unresolved = unresolved;
	(*w)[*n].src = SRC_CONFIG;
	(*n)++;
}

static void
push(struct argword **w, size_t *n, const char *text, const struct ynode *at)
{
	push_u(w, n, text, at, false);
}

static void
err_at(struct result *out, const char *id, const struct ynode *at,
    const char *msg)
{
	result_add(out, id, SEV_ERROR, msg, NULL, at ? at->line : 0,
	    at ? at->col : 0);
}

/*
 * A scalar as SGLang's merger passes it on: yaml.safe_load's value (YAML
 * 1.1: yes/on/off booleans, 0x10, 010 octal, 1_0, 1:30, .inf ...), then
 * str() of it. Returns -1 after an error (safe_load raises), else 0.
 */
static int
resolve(const struct ynode *v, struct y11 *y, struct result *out)
{
	y11_resolve(v->str, v->quoted, y);
	if (y->kind == Y11_ERROR) {
		struct buf	b = { 0 };

		buf_printf(&b, "yaml.safe_load fails on '%s': %s", v->str,
		    y->text);
		err_at(out, "config-yaml", v, b.s);
		buf_free(&b);
		free(y->text);
		y->text = NULL;
		return -1;
	}
	return 0;
}

/* An option SGLang's config loader refuses; -1 (error added) or 0. */
static int
check_action(const struct option *op, const struct ynode *k,
    struct result *out)
{
	struct buf	 b = { 0 };
	const char	*action;

	if (op == NULL || (op->type != T_BOOLOPT && op->deprecated == NULL &&
	    op->config_ok))
		return 0;
	action = op->type == T_BOOLOPT ? "BooleanOptionalAction" :
	    op->deprecated == NULL ? "_StoreAction" : op->type == T_BOOL ?
	    "DeprecatedStoreTrueAction" : "DeprecatedAliasStoreAction";
	buf_printf(&b, "Unsupported config option '%s' with action '%s'",
	    k->str, action);
	result_add(out, "config-unsupported-action", SEV_ERROR, b.s,
	    "keep this flag on the command line", k->line, k->col);
	buf_free(&b);
	return -1;
}

/* A list value: the flag, then str() of each item. */
static int
push_list(const char *flag, const struct ynode *k, const struct ynode *v,
    struct argword **words, size_t *nwords, struct result *out)
{
	struct y11	y;
	size_t		j;
	int		rc = 0;

	if (v->nkids == 0)
		return 0;	/* empty list skipped */
	push(words, nwords, flag, k);
	for (j = 0; j < v->nkids; j++) {
		if (v->kids[j]->kind != YN_SCALAR) {
			err_at(out, "config-nested", v->kids[j],
			    "list items must be scalars");
			rc = -1;
			continue;
		}
		if (resolve(v->kids[j], &y, out) != 0) {
			rc = -1;
			continue;
		}
		push_u(words, nwords, y.text, v->kids[j],
		    y.kind == Y11_UNKNOWN);
		free(y.text);
	}
	return rc;
}

/* One key: value pair of the file as words; -1 after an error, else 0. */
static int
push_key(const struct catalog *cat, const struct ynode *k,
    const struct ynode *v, const char *flag, struct argword **words,
    size_t *nwords, struct result *out)
{
	int			 o = catalog_find_flag(cat, flag);
	const struct option	*op = o >= 0 ? &cat->opts[o] : NULL;
	struct y11		 y;

	if (check_action(op, k, out) != 0)
		return -1;
	if (v->kind == YN_MAP) {
		struct buf	b = { 0 };

		buf_printf(&b, "value of '%s' is a mapping; SGLang config "
		    "files are flat (key: value)", k->str);
		result_add(out, "config-nested", SEV_ERROR, b.s, NULL,
		    v->line, v->col);
		buf_free(&b);
		return -1;
	}
	if (v->kind == YN_SEQ)
		return push_list(flag, k, v, words, nwords, out);
	if (resolve(v, &y, out) != 0)
		return -1;
	if (y.kind == Y11_BOOL) {
		/* store_true: the flag when true; else --key true/false */
		if (op != NULL && op->type == T_BOOL) {
			if (y.b)
				push(words, nwords, flag, k);
		} else {
			push(words, nwords, flag, k);
			push(words, nwords, y.b ? "true" : "false", v);
		}
	} else {
		push(words, nwords, flag, k);
		push_u(words, nwords, y.text, v, y.kind == Y11_UNKNOWN);
	}
	free(y.text);
	return 0;
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
	size_t		 i;
	int		 rc = 0;

	(void)name;	/* diagnostics carry line and column; the caller
			 * names the file */
	*words = NULL;
	*nwords = 0;
	if (root->kind != YN_MAP) {
		err_at(out, "config-not-dict", root,
		    "Config file must contain a dictionary at root level");
		return -1;
	}
	for (i = 0; i + 1 < root->nkids; i += 2) {
		const struct ynode	*k = root->kids[i];
		struct y11		 ky;
		char			*flag;

		/* f"--{key}" of the key safe_load made (on: -> --True) */
		if (resolve(k, &ky, out) != 0) {
			rc = -1;
			continue;
		}
		flag = xasprintf("--%s", ky.text);
		free(ky.text);
		if (push_key(cat, k, root->kids[i + 1], flag, words, nwords,
		    out) != 0)
			rc = -1;
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
	/* SGLang open()s it: a directory fails at once. */
	if (S_ISDIR(st.st_mode)) {
		struct buf	b = { 0 };

		buf_printf(&b, "--config %s is a directory: SGLang's open() of "
		    "it raises IsADirectoryError: [Errno 21] Is a directory: "
		    "'%s'", path, path);
		result_add(out, "config-is-directory", SEV_ERROR, b.s, NULL, 0,
		    0);
		buf_free(&b);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		struct buf	b = { 0 };

		buf_printf(&b, "--config %s is not a regular file (%s, which "
		    "pdwiz does not read); its options are not checked", path,
		    file_kind(st.st_mode));
		result_add(out, "config-not-regular", SEV_WARNING, b.s, NULL, 0,
		    0);
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
