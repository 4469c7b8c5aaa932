/*
 * test_corpus.c - the table-driven rule corpus (tests/corpus/NN-name.yaml).
 * Every case runs a real shell snippet through the shell reader, the
 * argument reader and the engine. Every rule must have at least one case
 * that fires and one that stays quiet.
 */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "core/config.h"
#include "core/engine.h"
#include "core/ydoc.h"
#include "io/server.h"
#include "io/shell.h"

static struct catalog	*cat;

/* The file a rule came from, whole (an image's are below cat->dir). */
static const char *
rfile(const struct rule *r)
{
	return catalog_rule_file(cat, r);
}

struct tally {
	int	fire, quiet;
	int	fixed;		/* firing cases that one of its fixes clears */
};

static int
run_case(const char *file, const struct ynode *c, struct tally *t)
{
	const struct ynode	*rule = ynode_get(c, "rule");
	const struct ynode	*expect = ynode_get(c, "expect");
	const struct ynode	*cmd = ynode_get(c, "cmd");
	const struct ynode	*facts = ynode_get(c, "facts");
	const struct ynode	*msg = ynode_get(c, "message");
	const struct ynode	*sgv = ynode_get(c, "sglang");
	struct sh_script	 sc = { 0 };
	struct config		 base = { 0 }, cfg = { 0 };
	struct result		 diags, res;
	const struct rule	*r;
	char			 err[512];
	size_t			 i;
	int			 failed = 0, found = 0, sev = -1;
	const struct diag	*hit = NULL;

	if (rule == NULL || expect == NULL || cmd == NULL) {
		printf("%s:%d: case needs rule, expect and cmd\n", file, c->line);
		return 1;
	}
	r = catalog_rule(cat, rule->str);
	if (r == NULL) {
		printf("%s:%d: no rule '%s'\n", file, rule->line, rule->str);
		return 1;
	}
	config_init(&base, cat);
	if (sgv != NULL && (sgv->kind != YN_SCALAR || (base.sgver =
	    sgver_parse(sgv->str, err, sizeof err)) == SGVER_UNKNOWN)) {
		printf("%s:%d: sglang: %s\n", file, sgv->line, err);
		config_free(&base);
		return 1;
	}
	for (i = 0; facts != NULL && i + 1 < facts->nkids; i += 2) {
		if (facts_set(cat, &base, facts->kids[i]->str,
		    facts->kids[i + 1]->str, err, sizeof err) != 0) {
			printf("%s:%d: %s\n", file, facts->kids[i]->line, err);
			config_free(&base);
			return 1;
		}
	}
	if (sh_parse(cmd->str, cmd->len, &sc, err, sizeof err) != 0) {
		printf("%s:%d: shell: %s\n", file, cmd->line, err);
		config_free(&base);
		return 1;
	}
	result_init(&diags);
	result_init(&res);
	for (i = 0; i < sc.ncmds; i++)
		if (sc.cmds[i].kind == SH_SERVER)
			break;
	if (i == sc.ncmds) {
		printf("%s:%d: no SGLang server command in cmd\n", file,
		    cmd->line);
		failed = 1;
		goto out;
	}
	server_from_cmd(cat, &sc.cmds[i], &base, &cfg, &diags, NULL);
	for (i = 0; i < diags.n; i++)
		if (diags.d[i].sev == SEV_ERROR) {
			printf("%s:%d: [%s] reader error: %s\n", file, c->line,
			    rule->str, diags.d[i].msg);
			failed = 1;
		}
	engine_run(cat, &cfg, &res);
	engine_verify_fixes(cat, &cfg, &res);
	for (i = 0; i < res.n; i++) {
		if (res.d[i].rule == r) {
			found = 1;
			sev = (int)res.d[i].sev;
			hit = &res.d[i];
		}
	}
	if (strcmp(expect->str, "fire") == 0) {
		t->fire++;
		if (!found || sev == SEV_UNKNOWN) {
			printf("%s:%d: [%s] expected to fire, %s\n", file,
			    c->line, rule->str, found ? "got unknown" :
			    "did not fire");
			failed = 1;
		} else if (hit->fixes_verified && hit->fix_ok != 0) {
			t->fixed++;
		}
		if (found && sev != SEV_UNKNOWN && msg != NULL &&
		    strcmp(hit->msg, msg->str) != 0) {
			printf("%s:%d: [%s] message differs\n  want: %s\n  got:  "
			    "%s\n", file, c->line, rule->str, msg->str, hit->msg);
			failed = 1;
		}
	} else if (strcmp(expect->str, "quiet") == 0) {
		t->quiet++;
		if (found) {
			printf("%s:%d: [%s] expected quiet, got %s: %s\n", file,
			    c->line, rule->str, severity_name((enum severity)sev),
			    hit->msg);
			failed = 1;
		}
	} else if (strcmp(expect->str, "unknown") == 0) {
		if (sev != SEV_UNKNOWN) {
			printf("%s:%d: [%s] expected unknown, got %s\n", file,
			    c->line, rule->str, found ?
			    severity_name((enum severity)sev) : "nothing");
			failed = 1;
		}
	} else {
		printf("%s:%d: expect must be fire, quiet or unknown\n", file,
		    expect->line);
		failed = 1;
	}
out:
	result_free(&res);
	result_free(&diags);
	config_free(&cfg);
	config_free(&base);
	sh_script_free(&sc);
	return failed;
}

static int
cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
test_corpus(void **state)
{
	DIR		*d = opendir("tests/corpus");
	struct dirent	*de;
	char		**names = NULL;
	size_t		  n = 0, i, j, cases = 0;
	int		  failures = 0, missing = 0, unfixed = 0;
	struct tally	 *t;

	(void)state;
	assert_non_null(d);
	while ((de = readdir(d)) != NULL) {
		size_t	len = strlen(de->d_name);

		if (len > 5 && strcmp(de->d_name + len - 5, ".yaml") == 0) {
			names = xreallocarray(names, n + 1, sizeof *names);
			names[n++] = xasprintf("tests/corpus/%s", de->d_name);
		}
	}
	closedir(d);
	qsort(names, n, sizeof *names, cmp);
	t = xcalloc(cat->nrules + cat->ndrules + 1, sizeof *t);
	for (i = 0; i < n; i++) {
		char		 err[1024];
		struct ynode	*root = ydoc_load(names[i], 8 << 20, err,
		    sizeof err);
		const struct ynode *cs;

		if (root == NULL) {
			printf("%s\n", err);
			failures++;
			continue;
		}
		cs = ynode_get(root, "cases");
		for (j = 0; cs != NULL && cs->kind == YN_SEQ && j < cs->nkids;
		    j++) {
			const struct ynode	*rn = ynode_get(cs->kids[j], "rule");
			const struct rule	*r = rn ? catalog_rule(cat, rn->str) :
			    NULL;
			size_t			 ri = 0;

			if (r != NULL && !r->deploy)
				ri = (size_t)(r - cat->rules);
			else if (r != NULL)
				continue;	/* deploy cases: other suite */
			failures += run_case(names[i], cs->kids[j],
			    r ? &t[ri] : &t[cat->nrules]);
			cases++;
		}
		ynode_free(root);
	}
	for (i = 0; i < cat->nrules; i++) {
		if (t[i].fire == 0 || t[i].quiet == 0) {
			printf("rule %s (%s:%d) lacks a %s case\n",
			    cat->rules[i].id, rfile(&cat->rules[i]),
			    cat->rules[i].line, t[i].fire == 0 ? "firing" :
			    "quiet");
			missing++;
		}
	}
	/* A rule's fixes must clear it in at least one of its firing cases
	 * (offered fixes are verified, so a fix that never works would
	 * never be seen). */
	for (i = 0; i < cat->nrules; i++) {
		const struct rule	*r = &cat->rules[i];

		if (r->nfixes > 0 && (r->sev == SEV_ERROR ||
		    r->sev == SEV_WARNING) && t[i].fire > 0 && t[i].fixed == 0) {
			printf("rule %s (%s:%d): none of its fixes clears it in "
			    "any firing case\n", r->id, rfile(r), r->line);
			unfixed++;
		}
	}
	printf("corpus: %zu cases over %zu rules, %d failed, %d rules "
	    "without both cases, %d rules whose fixes never clear them\n",
	    cases, cat->nrules, failures, missing, unfixed);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(t);
	assert_int_equal(failures, 0);
	assert_int_equal(missing, 0);
	assert_int_equal(unfixed, 0);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_corpus),
	};
	int	rc;

	/* The image first: it is adopted only before the YAML is read. */
	cat = test_catalog_image();
	rc = cmocka_run_group_tests_name("corpus, compiled image", tests,
	    NULL, NULL);
	catalog_free(cat);
	cat = test_catalog();
	rc |= cmocka_run_group_tests_name("corpus, YAML", tests, NULL, NULL);
	catalog_free(cat);
	intern_free_all();
	return rc;
}
