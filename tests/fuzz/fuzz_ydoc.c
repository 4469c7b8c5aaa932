/*
 * fuzz_ydoc.c - the YAML tree reader (ydoc_parse): every tree it returns
 * keeps its promises (NUL-free scalars, depth <= YDOC_MAX_DEPTH, unique
 * mapping keys, even mapping arity, positive positions).
 */
#include "fuzz.h"
#include "core/ydoc.h"

static void
walk(const struct ynode *n, int depth)
{
	size_t	i, j;

	if (depth > YDOC_MAX_DEPTH + 1 || n->line < 1 || n->col < 1)
		abort();
	if (n->kind == YN_SCALAR) {
		if (n->str == NULL || strlen(n->str) != n->len ||
		    n->nkids != 0)
			abort();
		return;
	}
	if (n->kind == YN_MAP) {
		if (n->nkids % 2 != 0)
			abort();
		for (i = 0; i < n->nkids; i += 2) {
			if (n->kids[i]->kind != YN_SCALAR)
				abort();
			for (j = 0; j < i; j += 2)
				if (strcmp(n->kids[i]->str, n->kids[j]->str) == 0)
					abort();
			if (ynode_get(n, n->kids[i]->str) == NULL)
				abort();
		}
	}
	for (i = 0; i < n->nkids; i++)
		walk(n->kids[i], depth + 1);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const keys[] = { "rules", "options", "roles", NULL };
	char		 err[1024];
	struct ynode	*root;

	root = ydoc_parse("fuzz.yaml", (const char *)data, size, size % 2 == 0,
	    err, sizeof err);
	if (root != NULL) {
		walk(root, 1);
		(void)ynode_is_null(root);
		if (root->kind == YN_MAP)
			(void)ynode_check_keys(root, keys, "fuzz.yaml", err,
			    sizeof err);
		ynode_free(root);
	} else if (strncmp(err, "fuzz.yaml:", 10) != 0)
		abort();
	return 0;
}
