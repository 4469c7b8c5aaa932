/*
 * test_examples.c - every rule's before/after example (rules/README.md,
 * "Examples") is run as `pdwiz check` would run it: the before must make
 * the rule fire, the after must not, and the after must bring no error
 * the before did not have.
 *
 * An example is a shell snippet. A leading `pdwiz check OPTIONS --` sets
 * facts as on the command line (--gpu, --model-arch, --platform, --gpu-sm,
 * --fact NAME=VALUE) and the release (--sglang-version V); a word `...`
 * stands for arguments that do not matter
 * and is dropped. Deployment rules' examples are scripts with a prefill,
 * a decode and a router command, or deployment files (a top-level
 * `roles:`). An example marked `illustrative: true` has an after that
 * shows settings rather than a command the rule stays quiet on: its
 * before is asserted, its after only printed.
 *
 * The same pipeline runs the firing cases of the deployment corpus
 * (tests/deploy/corpus/RULE.fire*.sh|yaml): every deployment rule with
 * fixes must have a firing case where one of its verified fixes clears it,
 * and every fix offered there, applied to the file's deployment with
 * deployment_apply_fix, must clear it when the deployment is checked again.
 */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <string.h>

#include "core/config.h"
#include "core/ydoc.h"
#include "core/engine.h"
#include "deploy/deploy.h"
#include "io/server.h"
#include "io/shell.h"

static struct catalog	*cat;

/* The file a rule came from, whole (an image's are below cat->dir). */
static const char *
rfile(const struct rule *r)
{
	return catalog_rule_file(cat, r);
}

/*
 * The rules whose examples a pass runs: those whose place in the catalog
 * leaves split_rest when divided by split_of. Every rule in both passes
 * (the compiled image and the YAML), except with $PDWIZ_SPLIT_PASSES=N
 * (make check's memcheck run, ~25 times slower): the image pass takes the
 * first of N parts, the YAML pass the last, so that with 2 (or "1") every
 * example still runs once under memcheck, with 4 half of them.
 */
static size_t		 split_rest = 0, split_of = 1;

/* Everything `pdwiz check` reports on one example. */
struct outcome {
	struct result	 all;
	bool		 parsed;
};

static const char *
skip_space(const char *s)
{
	while (*s == ' ' || *s == '\t')
		s++;
	return s;
}

/* The next blank-separated word of *sp (owned), or NULL at the end. */
static char *
next_word(const char **sp)
{
	const char	*s = skip_space(*sp), *e = s;

	while (*e != '\0' && !isspace((unsigned char)*e))
		e++;
	*sp = e;
	return e == s ? NULL : xstrndup(s, (size_t)(e - s));
}

/* A leading `pdwiz check OPTIONS --`: the facts into base; returns the
 * rest of the text, or NULL with why. */
static const char *
read_prefix(const char *text, struct config *base, char *err, size_t errlen)
{
	static const struct {
		const char	*flag, *fact;
	} fl[] = {
		{ "--gpu", "gpu" }, { "--model-arch", "model_arch" },
		{ "--platform", "platform" }, { "--gpu-sm", "gpu_sm" },
		{ "--fact", NULL }, { "--sglang-version", NULL },
	};
	const char	*s = skip_space(text);
	char		*w;

	if (strncmp(s, "pdwiz check ", 12) != 0)
		return text;
	s += 12;
	while ((w = next_word(&s)) != NULL) {
		char	*arg, *name, *val, *eq;
		size_t	 i;
		int	 rc;

		if (strcmp(w, "--") == 0) {
			free(w);
			return s;
		}
		for (i = 0; i < sizeof fl / sizeof fl[0]; i++)
			if (strcmp(w, fl[i].flag) == 0)
				break;
		if (i == sizeof fl / sizeof fl[0] ||
		    (arg = next_word(&s)) == NULL) {
			snprintf(err, errlen, "pdwiz check option '%s' is not "
			    "one of --gpu, --model-arch, --platform, --gpu-sm, "
			    "--fact, --sglang-version (or lacks its value)", w);
			free(w);
			return NULL;
		}
		if (strcmp(w, "--sglang-version") == 0) {
			sgver_t	v = flaghist_parse(cat->hist, arg, err, errlen);

			free(w);
			free(arg);
			if (v == SGVER_UNKNOWN)
				return NULL;
			config_set_sgver(base, v);
			continue;
		}
		free(w);
		if (fl[i].fact != NULL) {
			name = xstrdup(fl[i].fact);
			val = arg;
		} else if ((eq = strchr(arg, '=')) != NULL) {
			name = xstrndup(arg, (size_t)(eq - arg));
			val = xstrdup(eq + 1);
			free(arg);
		} else {
			snprintf(err, errlen, "--fact takes NAME=VALUE: %s", arg);
			free(arg);
			return NULL;
		}
		rc = facts_set(cat, base, name, val, err, errlen);
		free(name);
		free(val);
		if (rc != 0)
			return NULL;
	}
	snprintf(err, errlen, "pdwiz check options without '--'");
	return NULL;
}

/* The text without its `...` words. */
static char *
drop_ellipses(const char *s)
{
	struct buf	b = { 0 };
	const char	*p = s;

	while (*p != '\0') {
		bool	start = p == s || isspace((unsigned char)p[-1]);

		if (start && strncmp(p, "...", 3) == 0 &&
		    (p[3] == '\0' || isspace((unsigned char)p[3]))) {
			p += 3;
			continue;
		}
		buf_putc(&b, *p++);
	}
	return b.s != NULL ? b.s : xstrdup("");
}

/* Run the example as `pdwiz check` runs a script. */
static int
check_text(const char *what, const char *text, struct outcome *o,
    char *err, size_t errlen)
{
	struct sh_script	 sc = { 0 };
	struct config		 base = { 0 };
	struct config		 effs[NPD_ROLE];
	const struct config	*eff[NPD_ROLE] = { NULL, NULL, NULL };
	struct config		*epd = NULL;	/* encoder disaggregation */
	const struct config	**epdp = NULL;
	size_t			 nepd = 0;
	const char		*rest;
	char			*clean;
	size_t			 i, nservers = 0;
	int			 rc = 0;

	memset(effs, 0, sizeof effs);
	result_init(&o->all);
	o->parsed = false;
	if (deployment_sniff(text, strlen(text))) {
		struct deployment	d;

		if (deployment_parse(cat, what, text, strlen(text), &d, err,
		    errlen) != 0)
			return -1;
		deployment_check(cat, &d, &o->all);
		deployment_free(&d);
		o->parsed = true;
		return 0;
	}
	config_init(&base, cat);
	if ((rest = read_prefix(text, &base, err, errlen)) == NULL) {
		config_free(&base);
		return -1;
	}
	clean = drop_ellipses(rest);
	if (sh_parse(clean, strlen(clean), &sc, err, errlen) != 0) {
		free(clean);
		config_free(&base);
		return -1;
	}
	for (i = 0; i < sc.ncmds; i++) {
		struct config	 cfg = { 0 };
		struct result	 diags, res;
		int		 mo, r = -1;

		if (sc.cmds[i].kind != SH_SERVER)
			continue;
		nservers++;
		result_init(&diags);
		result_init(&res);
		server_from_cmd(cat, &sc.cmds[i], &base, &cfg, &diags, NULL);
		result_take(&o->all, &diags, (int)i);
		engine_run(cat, &cfg, &res);
		mo = catalog_find(cat, "disaggregation_mode");
		if (mo >= 0 && res.eff.s != NULL &&
		    res.eff.s[mo].v.t == V_STR) {
			if (strcmp(res.eff.s[mo].v.u.s, "prefill") == 0)
				r = ROLE_PREFILL;
			else if (strcmp(res.eff.s[mo].v.u.s, "decode") == 0)
				r = ROLE_DECODE;
		}
		if (res.eff.s != NULL && deployment_encoder_cmd(&res.eff)) {
			epd = xreallocarray(epd, nepd + 1, sizeof *epd);
			memset(&epd[nepd], 0, sizeof *epd);
			config_copy(&epd[nepd++], &res.eff);
		}
		if (r >= 0 && eff[r] == NULL) {
			effs[r] = res.eff;
			memset(&res.eff, 0, sizeof res.eff);
			eff[r] = &effs[r];
		}
		result_take(&o->all, &res, (int)i);
		result_free(&res);
		result_free(&diags);
		config_free(&cfg);
	}
	if (nservers == 0) {
		snprintf(err, errlen, "%s: no SGLang server command", what);
		rc = -1;
	} else {
		struct result	cross;

		result_init(&cross);
		if (deployment_check_script(cat, what, &sc, eff, &cross) == 0)
			result_take(&o->all, &cross, 0);
		result_free(&cross);
		epdp = xcalloc(nepd + 1, sizeof *epdp);
		for (i = 0; i < nepd; i++)
			epdp[i] = &epd[i];
		result_init(&cross);
		deployment_check_encoders(cat, epdp, nepd, &cross);
		result_take(&o->all, &cross, 0);
		result_free(&cross);
		free(epdp);
		o->parsed = true;
	}
	for (i = 0; i < nepd; i++)
		config_free(&epd[i]);
	free(epd);
	for (i = 0; i < NPD_ROLE; i++)
		if (eff[i] != NULL)
			config_free(&effs[i]);
	sh_script_free(&sc);
	free(clean);
	config_free(&base);
	return rc;
}

static const struct diag *
find_rule(const struct result *res, const struct rule *r)
{
	size_t	i;

	for (i = 0; i < res->n; i++)
		if (res->d[i].rule == r && res->d[i].sev != SEV_UNKNOWN)
			return &res->d[i];
	return NULL;
}

static bool
unknown_in(const struct result *res, const struct rule *r)
{
	size_t	i;

	for (i = 0; i < res->n; i++)
		if (res->d[i].rule == r && res->d[i].sev == SEV_UNKNOWN)
			return true;
	return false;
}

static bool
has_error(const struct result *res, const struct diag *e)
{
	size_t	i;

	for (i = 0; i < res->n; i++)
		if (res->d[i].sev == SEV_ERROR && (res->d[i].rule != NULL ?
		    res->d[i].rule == e->rule :
		    strcmp(res->d[i].msg, e->msg) == 0))
			return true;
	return false;
}

struct tally {
	int	rules, run, failed, missing, illustrative;
};

/* Is the rule's example marked `illustrative: true` in its file? The last
 * file read is kept; r NULL releases it. */
static bool
illustrative(const struct rule *r)
{
	static char		*file;
	static struct ynode	*root;
	const struct ynode	*rs, *ex, *il;
	char			 err[1024];
	size_t			 i;

	if (r == NULL) {
		free(file);
		ynode_free(root);
		file = NULL;
		root = NULL;
		return false;
	}
	if (file == NULL || strcmp(file, rfile(r)) != 0) {
		free(file);
		ynode_free(root);
		file = xstrdup(rfile(r));
		root = ydoc_load(file, 8 << 20, err, sizeof err);
		if (root == NULL)
			fail_msg("%s", err);
	}
	rs = ynode_get(root, "rules");
	for (i = 0; rs != NULL && i < rs->nkids; i++) {
		const struct ynode	*id = ynode_get(rs->kids[i], "id");

		if (id == NULL || strcmp(id->str, r->id) != 0)
			continue;
		ex = ynode_get(rs->kids[i], "example");
		il = ex != NULL ? ynode_get(ex, "illustrative") : NULL;
		return il != NULL && strcmp(il->str, "true") == 0;
	}
	return false;
}

static void
run_example(const struct rule *r, struct tally *t)
{
	struct outcome		 before, after;
	const struct diag	*hit;
	char			 err[1024];
	size_t			 i;
	int			 failed = 0;
	bool			 ill;

	t->rules++;
	if (r->before == NULL || r->after == NULL) {
		printf("%s:%d: [%s] has no before/after example\n", rfile(r),
		    r->line, r->id);
		t->missing++;
		return;
	}
	t->run++;
	if ((ill = illustrative(r)))
		t->illustrative++;
	if (check_text("before", r->before, &before, err, sizeof err) != 0) {
		printf("%s:%d: [%s] before does not read: %s\n", rfile(r),
		    r->line, r->id, err);
		failed = 1;
	} else if (find_rule(&before.all, r) == NULL) {
		printf("%s:%d: [%s] before does not make it fire%s\n",
		    rfile(r), r->line, r->id, unknown_in(&before.all, r) ?
		    " (could not check: a fact is unknown)" : "");
		failed = 1;
	}
	if (check_text("after", r->after, &after, err, sizeof err) != 0) {
		printf("%s:%d: [%s] after does not read: %s\n", rfile(r),
		    r->line, r->id, err);
		failed = 1;
	} else if ((hit = find_rule(&after.all, r)) != NULL) {
		printf("%s:%d: [%s] after %s: %s\n", rfile(r), r->line, r->id,
		    ill ? "fires (illustrative, not asserted)" : "still fires",
		    hit->msg);
		if (!ill)
			failed = 1;
	} else if (before.parsed) {
		for (i = 0; i < after.all.n; i++) {
			const struct diag	*d = &after.all.d[i];

			if (d->sev == SEV_ERROR && !has_error(&before.all, d)) {
				printf("%s:%d: [%s] after adds an error: %s%s%s\n",
				    rfile(r), r->line, r->id, d->rule ?
				    d->rule->id : "", d->rule ? ": " : "",
				    d->msg);
				failed = 1;
			}
		}
	}
	result_free(&before.all);
	result_free(&after.all);
	t->failed += failed;
}

static void
test_examples(void **state)
{
	struct tally	t = { 0, 0, 0, 0, 0 };
	size_t		i;

	(void)state;
	for (i = 0; i < cat->nrules; i++)
		if (i % split_of == split_rest)
			run_example(&cat->rules[i], &t);
	for (i = 0; i < cat->ndrules; i++)
		if ((cat->nrules + i) % split_of == split_rest)
			run_example(&cat->drules[i], &t);
	(void)illustrative(NULL);
	printf("examples: %d rules, %d examples run, %d behave as written "
	    "(%d of them illustrative: before asserted, after shown), %d "
	    "fail, %d rules without an example\n", t.rules, t.run,
	    t.run - t.failed, t.illustrative, t.failed, t.missing);
	assert_int_equal(t.failed, 0);
	assert_int_equal(t.missing, 0);
	assert_true(t.run > 100);
}

static int
name_cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static char *
slurp(const char *path)
{
	FILE		*fp = fopen(path, "r");
	struct buf	 b = { 0 };
	char		 chunk[4096];
	size_t		 n;

	if (fp == NULL)
		fail_msg("%s: cannot open", path);
	while ((n = fread(chunk, 1, sizeof chunk, fp)) > 0)
		buf_add(&b, chunk, n);
	fclose(fp);
	return b.s != NULL ? b.s : xstrdup("");
}

/* The deployment of a corpus file: a deployment file, or a script
 * imported. */
static int
load_deployment(const char *name, const char *text, struct deployment *d)
{
	struct sh_script	sc = { 0 };
	char			err[1024];
	int			rc;

	if (deployment_sniff(text, strlen(text)))
		return deployment_parse(cat, name, text, strlen(text), d, err,
		    sizeof err);
	if (sh_parse(text, strlen(text), &sc, err, sizeof err) != 0)
		return -1;
	rc = deployment_import_script(cat, name, &sc, d, NULL, err,
	    sizeof err);
	sh_script_free(&sc);
	return rc;
}

/* Apply offered fix k of r to the file's deployment and check it again
 * whole: the rule must be gone. */
static bool
fix_clears(const char *name, const char *text, const struct rule *r,
    size_t k, enum severity sev)
{
	struct deployment	d;
	struct result		res;
	size_t			i;
	bool			gone = true;

	if (load_deployment(name, text, &d) != 0)
		return false;
	if (deployment_apply_fix(cat, r, k, &d) != 0) {
		deployment_free(&d);
		return false;
	}
	result_init(&res);
	deployment_check(cat, &d, &res);
	for (i = 0; i < res.n; i++)
		if (res.d[i].rule == r && res.d[i].sev == sev)
			gone = false;
	result_free(&res);
	deployment_free(&d);
	return gone;
}

static void
test_deploy_fixes(void **state)
{
	const char	*dir = "tests/deploy/corpus";
	DIR		*dp = opendir(dir);
	struct dirent	*de;
	char		**names = NULL;
	size_t		  n = 0, i, j;
	int		 *fixed, *fired, failures = 0, unfixed = 0, offered = 0;

	(void)state;
	assert_non_null(dp);
	while ((de = readdir(dp)) != NULL)
		if (strstr(de->d_name, ".fire.") != NULL) {
			names = xreallocarray(names, n + 1, sizeof *names);
			names[n++] = xasprintf("%s/%s", dir, de->d_name);
		}
	closedir(dp);
	qsort(names, n, sizeof *names, name_cmp);
	fixed = xcalloc(cat->ndrules + 1, sizeof *fixed);
	fired = xcalloc(cat->ndrules + 1, sizeof *fired);
	for (i = 0; i < n; i++) {
		const char	*base = strrchr(names[i], '/') + 1;
		char		*id = xstrndup(base, strcspn(base, "."));
		const struct rule *r = catalog_rule(cat, id);
		char		*text = slurp(names[i]);
		struct outcome	 o;
		char		 err[1024];

		if (r != NULL && r->deploy &&
		    check_text(names[i], text, &o, err, sizeof err) == 0) {
			size_t	ri = (size_t)(r - cat->drules);

			for (j = 0; j < o.all.n; j++) {
				const struct diag	*d = &o.all.d[j];
				size_t			 k;

				if (d->rule != r || d->sev == SEV_UNKNOWN)
					continue;
				fired[ri]++;
				for (k = 0; k < r->nfixes; k++) {
					if (!diag_fix_ok(d, k))
						continue;
					offered++;
					if (!fix_clears(names[i], text, r, k,
					    d->sev)) {
						printf("%s: [%s] offered fix "
						    "'%s' does not clear it\n",
						    names[i], id,
						    r->fixes[k].label);
						failures++;
					}
				}
				if (d->fixes_verified && d->fix_ok != 0)
					fixed[ri]++;
				if (r->nfixes > 0 && !d->fixes_verified) {
					printf("%s: [%s] fixes not verified\n",
					    names[i], id);
					failures++;
				}
			}
			result_free(&o.all);
		} else if (r != NULL && r->deploy) {
			printf("%s: %s\n", names[i], err);
			failures++;
		}
		free(text);
		free(id);
	}
	for (i = 0; i < cat->ndrules; i++) {
		const struct rule	*r = &cat->drules[i];

		if (fired[i] == 0) {
			printf("deployment rule %s: no firing case fires it\n",
			    r->id);
			failures++;
		} else if (r->nfixes > 0 && fixed[i] == 0) {
			printf("deployment rule %s (%s:%d): none of its fixes "
			    "clears it in any firing case\n", r->id, rfile(r),
			    r->line);
			unfixed++;
		}
	}
	printf("deployment fixes: %zu firing cases, %d fixes offered, %d "
	    "failed, %d rules whose fixes never clear them\n", n, offered,
	    failures, unfixed);
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	free(fixed);
	free(fired);
	assert_int_equal(failures, 0);
	assert_int_equal(unfixed, 0);
}

/*
 * SGLang's groups (sglang.groups, each option's group:), in the image as
 * in the YAML: every flag and variable in one, facts in none, in SGLang's
 * order (--model-path's group first, "Other" last).
 */
static void
test_groups(void **state)
{
	size_t	i, n = 0;
	int	q = catalog_find(cat, "quantization");

	(void)state;
	assert_true(cat->ngroups > 10);
	assert_true(q >= 0);
	assert_true(cat->opts[q].group >= 0);
	assert_string_equal(cat->groups[cat->opts[q].group],
	    "Quantization and data type");
	assert_int_equal(cat->opts[catalog_find(cat, "model_path")].group, 0);
	assert_string_equal(cat->groups[cat->ngroups - 1], "Other");
	for (i = 0; i < cat->nopts; i++) {
		const struct option	*o = &cat->opts[i];

		if (o->kind == OK_FLAG || o->kind == OK_ENV) {
			assert_true(o->group >= 0);
			assert_true((size_t)o->group < cat->ngroups);
			n++;
		} else
			assert_int_equal(o->group, -1);
	}
	assert_true(n > 500);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_groups),
		cmocka_unit_test(test_examples),
		cmocka_unit_test(test_deploy_fixes),
	};
	const char	*e;
	int		 rc;

	/* The image first: it is adopted only before the YAML is read. */
	/* $PDWIZ_SPLIT_PASSES=N (make check's memcheck run): the rules dealt
	 * into N parts, the image's pass taking the first and the YAML's
	 * the last ("1" means 2: each rule once). */
	e = getenv("PDWIZ_SPLIT_PASSES");
	if (e != NULL && strtol(e, NULL, 10) >= 1 && strtol(e, NULL, 10) <= 16)
		split_of = strtol(e, NULL, 10) == 1 ? 2 :
		    (size_t)strtol(e, NULL, 10);
	cat = test_catalog_image();
	rc = cmocka_run_group_tests_name("rule examples, compiled image",
	    tests, NULL, NULL);
	catalog_free(cat);
	split_rest = split_of - 1;
	cat = test_catalog_yaml();
	rc |= cmocka_run_group_tests_name("rule examples, YAML", tests, NULL,
	    NULL);
	catalog_free(cat);
	intern_free_all();
	return rc;
}
