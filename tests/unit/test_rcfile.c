/* test_rcfile.c - the configuration file .pdwiz.yaml (io/rcfile): reading
 * it, its errors at their places, the exclude: globs, the search upward. */
#include "testutil.h"
#include "io/rcfile.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static int
parse(struct rcfile *rc, const char *text, struct buf *why)
{
	rcfile_init(rc);
	buf_free(why);
	return rcfile_parse("rc.yaml", "/r", text, strlen(text), rc, why);
}

static void
test_full(void **state)
{
	struct rcfile	 rc;
	struct buf	 why = { 0 };
	enum rc_sev	 sev;

	(void)state;
	assert_int_equal(parse(&rc,
	    "# pdwiz settings for this repository\n"	/* 1 */
	    "ignore: [gpu-mem-low, tp-size]\n"		/* 2 */
	    "severity:\n"				/* 3 */
	    "  xs-dist-init-addr: warning\n"		/* 4 */
	    "  chunked-prefill: off\n"			/* 5 */
	    "  note-rule: note\n"			/* 6 */
	    "  up: \"error\"\n"				/* 7 */
	    "facts:\n"					/* 8 */
	    "  platform: cuda\n"			/* 9 */
	    "  gpu: H100\n"				/* 10 */
	    "  sglang-version: 0.5.3\n"			/* 11 */
	    "  model_arch: DeepseekV3ForCausalLM\n"	/* 12 */
	    "exclude:\n"				/* 13 */
	    "  - vendor/**\n"				/* 14 */
	    "  - '*.md'\n"				/* 15 */
	    "fail-on: warning\n",			/* 16 */
	    &why), 0);
	assert_int_equal(why.len, 0);
	assert_string_equal(rc.path, "rc.yaml");
	assert_string_equal(rc.dir, "/r");
	assert_int_equal(rc.nignore, 2);
	assert_string_equal(rc.ignore[1].name, "tp-size");
	assert_int_equal(rc.ignore[1].line, 2);
	assert_int_equal(rc.ignore[1].col, 23);
	assert_int_equal(rc.nseverity, 4);
	assert_string_equal(rc.severity[0].name, "xs-dist-init-addr");
	assert_int_equal(rc.severity[0].sev, RC_WARNING);
	assert_int_equal(rc.severity[0].line, 4);
	assert_int_equal(rc.severity[0].col, 3);
	assert_int_equal(rc.severity[0].vline, 4);
	assert_int_equal(rc.severity[0].vcol, 22);
	assert_int_equal(rc.severity[1].sev, RC_OFF);
	assert_int_equal(rc.severity[2].sev, RC_NOTE);
	assert_int_equal(rc.severity[3].sev, RC_ERROR);
	assert_int_equal(rc.nfacts, 4);
	assert_string_equal(rc.facts[2].name, "sglang-version");
	assert_string_equal(rc.facts[2].value, "0.5.3");
	assert_int_equal(rc.facts[2].vline, 11);
	assert_int_equal(rc.facts[2].vcol, 19);
	assert_string_equal(rc.facts[3].value, "DeepseekV3ForCausalLM");
	assert_int_equal(rc.nexclude, 2);
	assert_string_equal(rc.exclude[1].name, "*.md");
	assert_int_equal(rc.exclude[1].line, 15);
	assert_int_equal(rc.exclude[1].col, 5);
	assert_int_equal(rc.fail_on, RC_FAIL_WARNING);
	assert_int_equal(rc.fail_line, 16);
	assert_int_equal(rc.fail_col, 10);

	assert_true(rcfile_rule(&rc, "gpu-mem-low", &sev));
	assert_int_equal(sev, RC_OFF);
	assert_true(rcfile_rule(&rc, "xs-dist-init-addr", &sev));
	assert_int_equal(sev, RC_WARNING);
	assert_true(rcfile_rule(&rc, "chunked-prefill", &sev));
	assert_int_equal(sev, RC_OFF);
	assert_true(rcfile_rule(&rc, "up", &sev));
	assert_int_equal(sev, RC_ERROR);
	assert_false(rcfile_rule(&rc, "other", &sev));
	assert_false(rcfile_rule(&rc, "tp-siz", &sev));

	assert_true(rcfile_excluded(&rc, "/r/vendor/x/run.sh"));
	assert_true(rcfile_excluded(&rc, "/r/docs/a/README.md"));
	assert_true(rcfile_excluded(&rc, "/r/./docs/../README.md"));
	assert_false(rcfile_excluded(&rc, "/r/launch.sh"));
	assert_false(rcfile_excluded(&rc, "/r/sub/vendor/x.sh"));
	/* Outside /r: by the name only. */
	assert_true(rcfile_excluded(&rc, "/elsewhere/x.md"));
	assert_false(rcfile_excluded(&rc, "/elsewhere/vendor/x.sh"));
	assert_false(rcfile_excluded(&rc, "/rr/vendor/x.sh"));
	rcfile_free(&rc);
	buf_free(&why);
}

/* Nothing at all is a configuration; so are keys with no value. */
static void
test_empty(void **state)
{
	static const char *const texts[] = { "", "\n\n", "# nothing yet\n",
	    "---\n", "{}\n", "ignore:\nseverity:\nfacts: ~\nexclude: []\n" };
	struct rcfile	 rc;
	struct buf	 why = { 0 };
	enum rc_sev	 sev;
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof texts / sizeof texts[0]; i++) {
		if (parse(&rc, texts[i], &why) != 0)
			fail_msg("'%s': %s", texts[i], why.s);
		assert_int_equal(rc.nignore + rc.nseverity + rc.nfacts +
		    rc.nexclude, 0);
		assert_int_equal(rc.fail_on, RC_FAIL_UNSET);
		assert_false(rcfile_rule(&rc, "a", &sev));
		assert_false(rcfile_excluded(&rc, "/r/x.sh"));
		rcfile_free(&rc);
	}
	assert_int_equal(parse(&rc, "\nfail-on: 'error'\n", &why), 0);
	assert_int_equal(rc.fail_on, RC_FAIL_ERROR);
	assert_int_equal(rc.fail_line, 2);
	assert_int_equal(rc.fail_col, 10);
	rcfile_free(&rc);
	/* A struct never read says nothing. */
	rcfile_init(&rc);
	assert_false(rcfile_rule(&rc, "a", &sev));
	assert_false(rcfile_excluded(&rc, "x.sh"));
	rcfile_free(&rc);
	buf_free(&why);
}

struct err_case {
	const char	*text;
	const char	*msg;		/* the whole message */
};

/* Each problem, at its place. */
static void
test_errors(void **state)
{
	static const struct err_case	cases[] = {
		{ "ignored: [a]\n", "rc.yaml:1:1: unknown key 'ignored' (did "
		    "you mean 'ignore'?)" },
		{ "x: 1\nfail_on: error\n", "rc.yaml:1:1: unknown key 'x' (the "
		    "keys are ignore, severity, facts, exclude and fail-on)\n"
		    "rc.yaml:2:1: unknown key 'fail_on' (did you mean "
		    "'fail-on'?)" },
		{ "severity: [a]\n", "rc.yaml:1:11: 'severity' takes a mapping "
		    "of rule ids to error, warning, note or off ({rule: "
		    "warning}), not a list" },
		{ "ignore:\n  a: b\n", "rc.yaml:2:3: 'ignore' takes a list of "
		    "rule ids ([a, b]), not a mapping" },
		{ "ignore: tp-size\n", "rc.yaml:1:9: 'ignore' takes a list of "
		    "rule ids ([a, b]), not a single value" },
		{ "ignore: [a, [b], ~, Tp_Size]\n", "rc.yaml:1:13: 'ignore' "
		    "takes a list of rule ids: expected a rule id, not a list\n"
		    "rc.yaml:1:18: 'ignore' takes a list of rule ids: expected "
		    "a rule id, not nothing\n"
		    "rc.yaml:1:21: bad rule id 'Tp_Size' (rule ids are a-z, "
		    "0-9 and '-')" },
		{ "severity:\n  a: warn\n  b: fatal\n  c: [error]\n  D: note\n"
		    "  e:\n",
		    "rc.yaml:2:6: unknown severity 'warn' (did you mean "
		    "'warning'?)\n"
		    "rc.yaml:3:6: unknown severity 'fatal' (error, warning, "
		    "note or off)\n"
		    "rc.yaml:4:6: the severity of 'c' is error, warning, note "
		    "or off, not a list\n"
		    "rc.yaml:5:3: bad rule id 'D' (rule ids are a-z, 0-9 and "
		    "'-')\n"
		    "rc.yaml:6:5: the severity of 'e' is error, warning, note "
		    "or off, not nothing" },
		{ "facts: [cuda]\n", "rc.yaml:1:8: 'facts' takes a mapping of "
		    "fact names to values ({platform: cuda}), not a list" },
		{ "facts:\n  gpu:\n  platform: {a: b}\n  'a b': c\n",
		    "rc.yaml:2:7: the fact 'gpu' takes a value (a word or a "
		    "number), not nothing\n"
		    "rc.yaml:3:13: the fact 'platform' takes a value (a word "
		    "or a number), not a mapping\n"
		    "rc.yaml:4:3: bad fact name 'a b' (letters, digits, '-', "
		    "'_' and '.')" },
		{ "exclude: ['', {a: b}]\nexclude2: 1\n",
		    "rc.yaml:1:11: an empty glob\n"
		    "rc.yaml:1:15: 'exclude' takes a list of globs: expected "
		    "a glob, not a mapping\n"
		    "rc.yaml:2:1: unknown key 'exclude2' (did you mean "
		    "'exclude'?)" },
		{ "fail-on: warn\n", "rc.yaml:1:10: 'fail-on' is error or "
		    "warning, not 'warn' (did you mean 'warning'?)" },
		{ "fail-on: [error]\n", "rc.yaml:1:10: 'fail-on' is error or "
		    "warning, not a list" },
		{ "fail-on: never\n", "rc.yaml:1:10: 'fail-on' is error or "
		    "warning, not 'never'" },
		{ "ignore: []\nignore: [a]\n", "rc.yaml:2:1: duplicate key "
		    "'ignore' (first at line 1)" },
		{ "severity:\n  a: off\n  a: note\n", "rc.yaml:3:3: duplicate "
		    "key 'a' (first at line 2)" },
		{ "ignore: [a\n", "rc.yaml:2:1: did not find expected ',' or "
		    "']' while parsing a flow sequence" },
		{ "- ignore\n", "rc.yaml:1:1: expected a mapping of settings "
		    "(ignore:, severity:, facts:, exclude:, fail-on:), not a "
		    "list" },
		{ "ignore\n", "rc.yaml:1:1: expected a mapping of settings "
		    "(ignore:, severity:, facts:, exclude:, fail-on:), not a "
		    "single value" },
		{ "a: 1\n---\nb: 2\n", "rc.yaml:2:1: more than one YAML "
		    "document in the file" },
		/* A value in a message: one line, no control byte, at most
		 * 60 bytes of it. */
		{ "ignore: [\"a\\e[31mb\\nc\\rd\"]\n", "rc.yaml:1:10: bad rule "
		    "id 'a\\x1b[31mb\\x0ac\\x0dd' (rule ids are a-z, 0-9 and "
		    "'-')" },
		{ "fail-on: xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		    "xxxxxxxxxxxxxxxxxxxxxxxx\n", "rc.yaml:1:10: 'fail-on' is "
		    "error or warning, not 'xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
		    "xxxxxxxxxxxxxxxxxxxxxxxx...'" },
		{ "\"a\\nb\": 1\n\"a\\nb\": 2\n", "rc.yaml:2:1: duplicate key "
		    "'a\\x0ab' (first at line 1)" },
	};
	struct rcfile	rc;
	struct buf	why = { 0 };
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		int	r = parse(&rc, cases[i].text, &why);
		size_t	n = strlen(cases[i].msg);

		if (r != -1 || why.len != n + 1 || why.s[n] != '\n' ||
		    strncmp(why.s, cases[i].msg, n) != 0)
			fail_msg("case %zu: %d\n%s\nwanted\n%s", i, r,
			    why.s ? why.s : "", cases[i].msg);
		rcfile_free(&rc);
	}
	buf_free(&why);
}

/* A NUL byte is refused at its place. */
static void
test_nul(void **state)
{
	static const char	text[] = "ignore: [a]\nfacts: {gpu: \"H\0\"}\n";
	struct rcfile		rc;
	struct buf		why = { 0 };

	(void)state;
	rcfile_init(&rc);
	assert_int_equal(rcfile_parse("rc.yaml", NULL, text, sizeof text - 1,
	    &rc, &why), -1);
	assert_non_null(strstr(why.s, "rc.yaml:2:"));
	assert_non_null(strstr(why.s, "NUL"));
	rcfile_free(&rc);
	buf_free(&why);
}

struct glob_case {
	const char	*glob, *path;
	bool		 match;
};

static void
test_glob(void **state)
{
	static const struct glob_case	cases[] = {
		/* Without '/': a name at any depth, a file's or a
		 * directory's. */
		{ "*.md", "README.md", true },
		{ "*.md", "docs/a/b.md", true },
		{ "*.md", "docs/a.mdx", false },
		{ "*.md", "a.md/x.sh", true },
		{ "vendor", "vendor", true },
		{ "vendor", "a/vendor/x.sh", true },
		{ "vendor", "a/vendors/x.sh", false },
		{ "run?.sh", "x/run1.sh", true },
		{ "run?.sh", "x/run12.sh", false },
		{ "run?.sh", "x/run/.sh", false },
		{ "*", "anything/at/all", true },
		{ "a*b*c", "axxbyyc", true },
		{ "a*b*c", "axxbyy", false },
		{ "*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa", false },
		/* With '/': from the top; a directory names what is
		 * below it. */
		{ "docs/old", "docs/old", true },
		{ "docs/old", "docs/old/a.sh", true },
		{ "docs/old", "x/docs/old/a.sh", false },
		{ "/docs/*.sh", "docs/a.sh", true },
		{ "/docs/*.sh", "docs/sub/a.sh", false },
		{ "docs/*.sh", "a/docs/x.sh", false },
		{ "./docs/x.sh", "docs/x.sh", true },
		{ "docs/x.sh", "./docs//x.sh", true },
		/* "**": any number of directories. */
		{ "**/x.sh", "x.sh", true },
		{ "**/x.sh", "a/b/c/x.sh", true },
		{ "**/x.sh", "a/b/c/y.sh", false },
		{ "a/**", "a/x", true },
		{ "a/**", "a/b/c/d", true },
		{ "a/**", "a", false },
		{ "a/**", "b/a/x", false },
		{ "a/**/b", "a/b", true },
		{ "a/**/b", "a/x/y/b", true },
		{ "a/**/b", "a/x/y/b/z.sh", true },
		{ "a/**/b", "a/x/y/c", false },
		{ "a/**/*.yaml", "a/k8s/p/d.yaml", true },
		{ "a/**/**/b", "a/b", true },
		{ "a**b", "axyb", true },
		{ "a**b", "ax/yb", false },
		{ "**", "a/b", true },
		/* Ending in '/': directories only. */
		{ "build/", "build/x.sh", true },
		{ "build/", "a/build/x.sh", true },
		{ "build/", "build", false },
		{ "a/build/", "a/build", false },
		{ "a/build/", "a/build/x", true },
		/* Other bytes are themselves. */
		{ "[ab].sh", "[ab].sh", true },
		{ "[ab].sh", "a.sh", false },
		{ "a\\*", "a\\x", true },
		/* Nothing names nothing. */
		{ "", "a", false },
		{ "/", "a", false },
		{ "a", "", false },
		{ "a", ".", false },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++)
		if (rc_glob_match(cases[i].glob, cases[i].path) !=
		    cases[i].match)
			fail_msg("rc_glob_match('%s', '%s') is not %s",
			    cases[i].glob, cases[i].path,
			    cases[i].match ? "true" : "false");
}

/* ---- files: a temporary tree ---- */

struct tree {
	char	 root[PATH_MAX];
	char	*made[64];	/* in the order made: removed backwards */
	size_t	 n;
};

static const char *
tpath(struct tree *t, const char *rel)
{
	static char	p[4][PATH_MAX];
	static int	k;

	k = (k + 1) % 4;
	if (snprintf(p[k], sizeof p[k], "%s/%s", t->root, rel) >=
	    (int)sizeof p[k])
		fail_msg("path too long: %s/%s", t->root, rel);
	return p[k];
}

/* kind 'd': a directory; 'f': a file holding text; 'p': a FIFO. */
static void
make(struct tree *t, const char *rel, char kind, const char *text)
{
	const char	*p = tpath(t, rel);
	FILE		*f;

	if (kind == 'd')
		assert_int_equal(mkdir(p, 0700), 0);
	else if (kind == 'p')
		assert_int_equal(mkfifo(p, 0600), 0);
	else {
		assert_non_null(f = fopen(p, "w"));
		fputs(text, f);
		assert_int_equal(fclose(f), 0);
	}
	assert_true(t->n < sizeof t->made / sizeof t->made[0]);
	t->made[t->n++] = xstrdup(p);
}

static void
tree_init(struct tree *t)
{
	char	tmpl[] = "/tmp/pdwiz-rc.XXXXXX", cwd[PATH_MAX];

	memset(t, 0, sizeof *t);
	assert_non_null(mkdtemp(tmpl));
	/* The physical path (getcwd's), so that the finder's answers for
	 * relative directories are under it. */
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(tmpl), 0);
	assert_non_null(getcwd(t->root, sizeof t->root));
	assert_int_equal(chdir(cwd), 0);
}

static void
tree_free(struct tree *t)
{
	struct stat	st;

	while (t->n > 0) {
		char	*p = t->made[--t->n];

		if (lstat(p, &st) == 0 && S_ISDIR(st.st_mode))
			rmdir(p);
		else
			unlink(p);
		free(p);
	}
	rmdir(t->root);
}

/* Found upward; a repository's root is the last directory looked in; the
 * nearest file wins; each directory is looked into once. */
static void
test_find(void **state)
{
	struct tree		 t;
	struct rc_finder	 f;
	const char		*a, *b;
	char			 cwd[PATH_MAX];

	(void)state;
	tree_init(&t);
	make(&t, ".pdwiz.yaml", 'f', "ignore: [outer]\n");
	make(&t, "repo", 'd', NULL);
	make(&t, "repo/.git", 'd', NULL);
	make(&t, "repo/sub", 'd', NULL);
	make(&t, "repo/sub/x", 'd', NULL);
	make(&t, "wt", 'd', NULL);
	make(&t, "wt/.git", 'f', "gitdir: /elsewhere\n");
	make(&t, "wt/.pdwiz.yaml", 'f', "ignore: [wt]\n");
	make(&t, "wt/a", 'd', NULL);
	make(&t, "wt/a/b", 'd', NULL);
	make(&t, "wt/a/c", 'd', NULL);
	make(&t, "wt/n", 'd', NULL);
	make(&t, "wt/n/.pdwiz.yaml", 'f', "ignore: [nested]\n");
	make(&t, "wt/n/deep", 'd', NULL);
	make(&t, "plain", 'd', NULL);
	make(&t, "plain/d", 'd', NULL);

	rc_finder_init(&f);
	/* In a repository without one: none, not the one above it. */
	assert_null(rcfile_find(&f, tpath(&t, "repo/sub/x")));
	assert_int_equal(f.nlookups, 6);
	assert_null(rcfile_find(&f, tpath(&t, "repo")));
	assert_int_equal(f.nlookups, 6);
	/* Outside any repository: the nearest above. */
	assert_non_null(a = rcfile_find(&f, tpath(&t, "plain/d")));
	assert_string_equal(a, tpath(&t, ".pdwiz.yaml"));
	/* At a worktree's root (.git a file), from below it. */
	f.nlookups = 0;
	assert_non_null(a = rcfile_find(&f, tpath(&t, "wt/a/b")));
	assert_string_equal(a, tpath(&t, "wt/.pdwiz.yaml"));
	assert_int_equal(f.nlookups, 5);
	for (int i = 0; i < 200; i++)
		assert_ptr_equal(rcfile_find(&f, tpath(&t, "wt/a/b")), a);
	assert_int_equal(f.nlookups, 5);
	/* A sibling: its own directory, then the cache. */
	assert_ptr_equal(rcfile_find(&f, tpath(&t, "wt/a/c")), a);
	assert_int_equal(f.nlookups, 7);
	/* By name: "..", ".", doubled '/'. */
	assert_ptr_equal(rcfile_find(&f, tpath(&t, "wt/a/b/../c/.//")), a);
	assert_int_equal(f.nlookups, 7);
	/* The nearest wins. */
	assert_non_null(b = rcfile_find(&f, tpath(&t, "wt/n/deep")));
	assert_string_equal(b, tpath(&t, "wt/n/.pdwiz.yaml"));
	assert_ptr_equal(rcfile_find(&f, tpath(&t, "wt/n")), b);
	/* Relative to the current directory. */
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(tpath(&t, "wt/a")), 0);
	assert_ptr_equal(rcfile_find(&f, "b"), a);
	assert_ptr_equal(rcfile_find(&f, "."), a);
	assert_ptr_equal(rcfile_find(&f, ""), a);
	assert_ptr_equal(rcfile_find(&f, "../n/deep"), b);
	assert_int_equal(f.nlookups, 10);
	assert_int_equal(chdir(cwd), 0);
	rc_finder_free(&f);
	/* A finder freed can be used again. */
	assert_string_equal(rcfile_find(&f, tpath(&t, "wt/a")),
	    tpath(&t, "wt/.pdwiz.yaml"));
	rc_finder_free(&f);
	tree_free(&t);
}

/* Loading: a file; what is not a regular file is refused, a FIFO without
 * waiting for a writer. */
static void
test_load(void **state)
{
	struct tree		 t;
	struct rcfile		 rc;
	struct rc_finder	 f;
	struct buf		 why = { 0 };
	const char		*p;
	char			 cwd[PATH_MAX], *want;
	enum rc_sev		 sev;

	(void)state;
	tree_init(&t);
	make(&t, "ok", 'd', NULL);
	make(&t, "ok/.pdwiz.yaml", 'f', "ignore: [a]\nexclude: [gen/**]\n");
	make(&t, "dir", 'd', NULL);
	make(&t, "dir/.pdwiz.yaml", 'd', NULL);
	make(&t, "fifo", 'd', NULL);
	make(&t, "fifo/.pdwiz.yaml", 'p', NULL);
	make(&t, "bad", 'd', NULL);
	make(&t, "bad/.pdwiz.yaml", 'f', "ignore: [a]\nseverity: {b: loud}\n"
	    "fail-on: 1\n");
	make(&t, "-", 'f', "ignore: [dash]\n");

	rcfile_init(&rc);
	assert_int_equal(rcfile_load(tpath(&t, "ok/.pdwiz.yaml"), &rc, &why),
	    0);
	assert_true(rcfile_rule(&rc, "a", &sev));
	assert_string_equal(rc.dir, tpath(&t, "ok"));
	assert_true(rcfile_excluded(&rc, tpath(&t, "ok/gen/x/run.sh")));
	assert_false(rcfile_excluded(&rc, tpath(&t, "ok/run.sh")));
	assert_false(rcfile_excluded(&rc, tpath(&t, "gen/x.sh")));
	rcfile_free(&rc);

	/* What the finder gives is refused when it is no regular file. */
	rc_finder_init(&f);
	assert_non_null(p = rcfile_find(&f, tpath(&t, "dir")));
	assert_int_equal(rcfile_load(p, &rc, &why), -1);
	want = xasprintf("%s: not a regular file (a directory)\n", p);
	assert_string_equal(why.s, want);
	free(want);
	rcfile_free(&rc);
	buf_free(&why);
	assert_non_null(p = rcfile_find(&f, tpath(&t, "fifo")));
	assert_int_equal(rcfile_load(p, &rc, &why), -1);
	want = xasprintf("%s: not a regular file (a FIFO)\n", p);
	assert_string_equal(why.s, want);
	free(want);
	rcfile_free(&rc);
	buf_free(&why);
	rc_finder_free(&f);

	/* Every problem of a file, named by its path. */
	assert_int_equal(rcfile_load(tpath(&t, "bad/.pdwiz.yaml"), &rc, &why),
	    -1);
	want = xasprintf("%s:2:15: unknown severity 'loud' (error, warning, "
	    "note or off)\n%s:3:10: 'fail-on' is error or warning, not '1'\n",
	    tpath(&t, "bad/.pdwiz.yaml"), tpath(&t, "bad/.pdwiz.yaml"));
	assert_string_equal(why.s, want);
	free(want);
	rcfile_free(&rc);
	buf_free(&why);

	/* Missing. */
	assert_int_equal(rcfile_load(tpath(&t, "none.yaml"), &rc, &why), -1);
	assert_non_null(strstr(why.s, "none.yaml: No such file"));
	rcfile_free(&rc);
	buf_free(&why);

	/* "-" is the file of that name, and the directory is the current
	 * one. */
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(t.root), 0);
	assert_int_equal(rcfile_load("-", &rc, &why), 0);
	assert_true(rcfile_rule(&rc, "dash", &sev));
	assert_string_equal(rc.dir, t.root);
	assert_string_equal(rc.path, "-");
	assert_int_equal(chdir(cwd), 0);
	rcfile_free(&rc);
	tree_free(&t);
}

/* exclude: against paths relative to the current directory. */
static void
test_exclude_relative(void **state)
{
	struct tree	 t;
	struct rcfile	 rc;
	struct buf	 why = { 0 };
	char		 cwd[PATH_MAX];
	static const char text[] = "exclude: [old/, '**/gen/*.sh', x.sh]\n";

	(void)state;
	tree_init(&t);
	make(&t, "sub", 'd', NULL);
	assert_non_null(getcwd(cwd, sizeof cwd));
	assert_int_equal(chdir(tpath(&t, "sub")), 0);
	rcfile_init(&rc);
	assert_int_equal(rcfile_parse(".pdwiz.yaml", "..", text,
	    sizeof text - 1, &rc, &why), 0);
	assert_string_equal(rc.dir, t.root);
	assert_true(rcfile_excluded(&rc, "old/a.sh"));
	assert_true(rcfile_excluded(&rc, "../old/a.sh"));
	assert_false(rcfile_excluded(&rc, "../old"));
	assert_true(rcfile_excluded(&rc, "k/gen/a.sh"));
	assert_false(rcfile_excluded(&rc, "k/gen/a.yaml"));
	assert_true(rcfile_excluded(&rc, "deep/x.sh"));
	assert_false(rcfile_excluded(&rc, "y.sh"));
	assert_true(rcfile_excluded(&rc, "/x.sh"));
	assert_false(rcfile_excluded(&rc, "/gen/a.sh"));
	assert_int_equal(chdir(cwd), 0);
	rcfile_free(&rc);
	buf_free(&why);
	tree_free(&t);
}

/* Reading is linear: 100,000 ignored rules and severities, each found. */
static void
test_large(void **state)
{
	struct buf	 text = { 0 }, why = { 0 };
	struct rcfile	 rc;
	enum rc_sev	 sev;
	char		 id[32];
	size_t		 i;

	(void)state;
	buf_puts(&text, "ignore:\n");
	for (i = 0; i < 50000; i++)
		buf_printf(&text, "  - rule-%zu\n", i);
	buf_puts(&text, "severity:\n");
	for (i = 0; i < 50000; i++)
		buf_printf(&text, "  sev-%zu: %s\n", i, i % 2 ? "note" : "off");
	rcfile_init(&rc);
	assert_int_equal(rcfile_parse("big.yaml", "/", text.s, text.len, &rc,
	    &why), 0);
	assert_int_equal(rc.nignore, 50000);
	assert_int_equal(rc.nseverity, 50000);
	for (i = 0; i < 50000; i++) {
		snprintf(id, sizeof id, "rule-%zu", i);
		assert_true(rcfile_rule(&rc, id, &sev));
		assert_int_equal(sev, RC_OFF);
		snprintf(id, sizeof id, "sev-%zu", i);
		assert_true(rcfile_rule(&rc, id, &sev));
		assert_int_equal(sev, i % 2 ? RC_NOTE : RC_OFF);
	}
	assert_int_equal(rc.severity[49999].line, 50003 + 49999);
	rcfile_free(&rc);
	buf_free(&text);
	buf_free(&why);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_full),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_nul),
		cmocka_unit_test(test_glob),
		cmocka_unit_test(test_find),
		cmocka_unit_test(test_load),
		cmocka_unit_test(test_exclude_relative),
		cmocka_unit_test(test_large),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
