/* test_readers.c - the YAML tree reader, the argparse-faithful argument
 * reader, environment variables and SGLang --config files. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <fnmatch.h>
#include <string.h>

#include "core/config.h"
#include "core/engine.h"
#include "core/ydoc.h"
#include "io/argv.h"
#include "io/rcfile.h"
#include "io/walk.h"

#include <stdlib.h>
#include <unistd.h>

static struct catalog	*cat;

/* A textbook full-matrix Levenshtein, to check the bounded one against. */
static size_t
ref_distance(const char *a, const char *b)
{
	size_t	la = strlen(a), lb = strlen(b), i, j;
	size_t	m[20][20];

	for (i = 0; i <= la; i++)
		m[i][0] = i;
	for (j = 0; j <= lb; j++)
		m[0][j] = j;
	for (i = 1; i <= la; i++)
		for (j = 1; j <= lb; j++) {
			size_t	v = m[i - 1][j - 1] + (a[i - 1] != b[j - 1]);

			if (m[i - 1][j] + 1 < v)
				v = m[i - 1][j] + 1;
			if (m[i][j - 1] + 1 < v)
				v = m[i][j - 1] + 1;
			m[i][j] = v;
		}
	return m[la][lb];
}

/*
 * edit_distance_within(a, b, max) is exact up to max and over max beyond:
 * 20,000 random pairs over a 3-letter alphabet (so distances vary).
 */
static void
test_edit_distance(void **state)
{
	unsigned	seed = 12345;
	int		n;

	(void)state;
	assert_int_equal(edit_distance("--page-size", "--page-sise"), 1);
	assert_int_equal(edit_distance("", "abc"), 3);
	assert_true(edit_distance_within("--tp-size", "--disaggregation-mode",
	    3) > 3);
	for (n = 0; n < 20000; n++) {
		char	a[20], b[20];
		size_t	la, lb, i, max, want, got;

		seed = seed * 1103515245u + 12345u;
		la = (seed >> 16) % 19;
		seed = seed * 1103515245u + 12345u;
		lb = (seed >> 16) % 19;
		for (i = 0; i < la; i++) {
			seed = seed * 1103515245u + 12345u;
			a[i] = "abc"[(seed >> 16) % 3];
		}
		for (i = 0; i < lb; i++) {
			seed = seed * 1103515245u + 12345u;
			b[i] = "abc"[(seed >> 16) % 3];
		}
		a[la] = b[lb] = '\0';
		max = n % 6;
		want = ref_distance(a, b);
		got = edit_distance_within(a, b, max);
		if (want <= max)
			assert_int_equal(got, want);
		else
			assert_true(got > max);
		assert_int_equal(edit_distance(a, b), want);
	}
}

/* utf8_invalid_at: the first byte that is not well-formed UTF-8. */
static void
test_utf8_invalid_at(void **state)
{
	static const struct {
		const char	*s;
		size_t		 want;
	} t[] = {
		{ "", 0 },
		{ "plain ascii", 11 },
		{ "caf\xc3\xa9", 5 },			/* é */
		{ "\xe2\x82\xac" "1", 4 },			/* € */
		{ "\xf0\x9f\x98\x80", 4 },		/* U+1F600 */
		{ "caf\xe9", 3 },			/* Latin-1 é */
		{ "a\xc3", 1 },			/* cut short */
		{ "\xc0\xaf", 0 },			/* overlong '/' */
		{ "\xe0\x80\xaf", 0 },		/* overlong */
		{ "x\xed\xa0\x80", 1 },		/* surrogate D800 */
		{ "\xf4\x90\x80\x80", 0 },		/* past U+10FFFF */
		{ "ok\x80", 2 },			/* lone continuation */
		{ "\xff", 0 },
		{ "\xc3\xa9\xc3(", 2 },			/* bad continuation */
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		size_t	got = utf8_invalid_at(t[i].s, strlen(t[i].s));

		if (got != t[i].want)
			fail_msg("case %zu: %zu, want %zu", i, got, t[i].want);
	}
}

static void
test_ydoc_bad(void **state)
{
	static const struct {
		const char	*text;
		const char	*want;
	} bad[] = {
		{ "a: 1\na: 2\n", "t.yaml:2:1: duplicate key 'a' (first at line 1)" },
		{ "a: 1\nb: *x\n", "t.yaml:2:4: YAML alias *x names no anchor" },
		{ "a: &x [1, *x]\n", "refers to a node that contains it" },
		{ "a: &x 1\nb:\n  <<: *x\n", "t.yaml:3:3: a merge key (<<)" },
		{ "a: &x {p: 1}\nb:\n  <<: [*x, 2]\n", "t.yaml:3:3: a merge key" },
		{ "a: [1, 2\n", "t.yaml:" },
		{ "a: 1\n---\nb: 2\n", "more than one YAML document" },
		{ "a:\n\tb: 1\n", "t.yaml:" },
		{ "", "t.yaml:1:1: file is empty" },
		{ "? [a]\n: 1\n", "mapping keys must be plain strings" },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char		 err[512] = "";
		struct ynode	*n = ydoc_parse("t.yaml", bad[i].text,
		    strlen(bad[i].text), false, err, sizeof err);

		if (n != NULL)
			fail_msg("'%s' parsed", bad[i].text);
		if (strstr(err, bad[i].want) == NULL)
			fail_msg("'%s': got '%s', want '%s'", bad[i].text, err,
			    bad[i].want);
	}
}

/* Anchors, aliases and merge keys as PyYAML reads them; streams; BOM. */
static void
test_ydoc_anchors(void **state)
{
	static const char	 t[] = "a: &a {p: 1, q: 2}\nb: &b {q: 3, r: 4}\n"
	    "c:\n  <<: [*a, *b]\n  p: 9\nd: *a\n\"<<\": {s: 1}\n";
	static const char	 st[] = "\xEF\xBB\xBF---\nx: &v 1\n---\n---\n"
	    "y: 2\n...\n";
	static const char	 nest[] = "o: &o [&i [1, 2], *i, &s x]\np: *o\n"
	    "m: &m {a: &n {b: 1}, c: *n}\nz: *m\nq: &o y\nr: *o\n";
	char			 err[512] = "";
	struct ynode		*n, *c;
	size_t			 i;

	(void)state;
	n = ydoc_parse("t.yaml", t, strlen(t), false, err, sizeof err);
	assert_non_null(n);
	c = ynode_get(n, "c");
	assert_int_equal(c->nkids, 6);			/* p, q, r; no << */
	assert_string_equal(ynode_get(c, "p")->str, "9");	/* own key wins */
	assert_string_equal(ynode_get(c, "q")->str, "2");	/* earlier map wins */
	assert_string_equal(ynode_get(c, "r")->str, "4");
	assert_int_equal(ynode_get(c, "r")->line, 2);	/* where it is written */
	assert_int_equal(ynode_get(c, "r")->col, 17);
	assert_int_equal(ynode_get(ynode_get(n, "d"), "q")->line, 1);
	assert_non_null(ynode_get(n, "<<"));		/* quoted: a plain key */
	ynode_free(n);
	n = ydoc_parse("s.yaml", st, strlen(st), false, err, sizeof err);
	assert_null(n);
	assert_non_null(strstr(err, "more than one YAML document"));
	n = ydoc_parse_stream("s.yaml", st, strlen(st), err, sizeof err);
	assert_non_null(n);
	assert_int_equal(n->kind, YN_SEQ);
	assert_int_equal(n->nkids, 2);			/* the empty one left out */
	assert_int_equal(ynode_get(n->kids[1], "y")->line, 5);
	ynode_free(n);
	n = ydoc_parse_stream("s.yaml", "x: *v\n---\ny: &v 1\n", 18, err,
	    sizeof err);
	assert_null(n);					/* anchors stay in their document */
	/* Anchored collections inside anchored collections complete as they
	 * close; an anchor named again is the newer one from there on. */
	n = ydoc_parse("n.yaml", nest, strlen(nest), false, err, sizeof err);
	assert_non_null(n);
	c = ynode_get(n, "p");
	assert_int_equal(c->nkids, 3);
	assert_int_equal(c->kids[1]->nkids, 2);
	assert_string_equal(c->kids[2]->str, "x");
	assert_string_equal(ynode_get(ynode_get(ynode_get(n, "z"), "c"),
	    "b")->str, "1");
	assert_string_equal(ynode_get(n, "r")->str, "y");
	ynode_free(n);
	/* An alias bomb: nine levels of nine is 387 million nodes. */
	{
		struct buf	b = { 0 };

		buf_puts(&b, "a0: &a0 [x, x, x, x, x, x, x, x, x]\n");
		for (i = 1; i < 10; i++)
			buf_printf(&b, "a%zu: &a%zu [*a%zu, *a%zu, *a%zu, *a%zu, "
			    "*a%zu, *a%zu, *a%zu, *a%zu, *a%zu]\n", i, i, i - 1,
			    i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1, i - 1);
		n = ydoc_parse("bomb.yaml", b.s, b.len, false, err, sizeof err);
		assert_null(n);
		assert_non_null(strstr(err, "YAML aliases expand to more than"));
		buf_free(&b);
	}
}

static void
test_ydoc_limits(void **state)
{
	struct buf	 b = { 0 };
	char		 err[512];
	struct ynode	*n;
	size_t		 i;

	(void)state;
	for (i = 0; i < 100000; i++)
		buf_putc(&b, '[');
	n = ydoc_parse("deep.yaml", b.s, b.len, false, err, sizeof err);
	assert_null(n);
	assert_non_null(strstr(err, "nesting deeper than 64"));
	buf_free(&b);
	n = ydoc_parse("nul.yaml", "a: 1\nb\0: 2", 10, false, err, sizeof err);
	assert_null(n);
	assert_string_equal(err, "nul.yaml:2:2: NUL byte in input");
	n = ydoc_parse("u.yaml", "a: \xff\xfe\n", 6, false, err, sizeof err);
	assert_null(n);
	n = ydoc_parse("ok.yaml", "a: 1\nb: [x, y]\n", 15, false, err,
	    sizeof err);
	assert_non_null(n);
	assert_int_equal(ynode_get(n, "b")->line, 2);
	assert_int_equal(ynode_get(n, "b")->col, 4);
	ynode_free(n);
}

/* Parse words (space separated) as SGLang arguments. */
static void
parse(const char *line, struct config *cfg, struct result *res)
{
	struct argword	 w[64];
	char		*copy = xstrdup(line), *save = NULL, *tok;
	size_t		 n = 0;

	config_init(cfg, cat);
	result_init(res);
	for (tok = strtok_r(copy, " ", &save); tok != NULL && n < 64;
	    tok = strtok_r(NULL, " ", &save)) {
		w[n].text = tok;
		w[n].line = 1;
		w[n].col = (int)(tok - copy) + 1;
		w[n].unresolved = false;
		w[n].src = SRC_CLI;
		n++;
	}
	argv_parse(cat, w, n, cfg, res, NULL);
	/* Messages are copied into res; the words may go. */
	free(copy);
}

static const char *
first_error(const struct result *r)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		if (r->d[i].sev == SEV_ERROR)
			return r->d[i].msg;
	return "";
}

static void
test_argparse_messages(void **state)
{
	static const struct {
		const char	*args;
		const char	*want;
	} cases[] = {
		{ "--model-path m --tp-sizee 2",
		  "unrecognized arguments: --tp-sizee 2" },
		{ "--model-path m --tp-size x",
		  "argument --tp-size: invalid int value: 'x'" },
		{ "--model-path m --mem-fraction-static high",
		  "argument --mem-fraction-static: invalid float value: 'high'" },
		{ "--model-path m --disaggregation-transfer-backend rdma",
		  "argument --disaggregation-transfer-backend: invalid choice: "
		  "'rdma' (choose from 'mooncake', 'nixl', 'ascend', 'fake', "
		  "'mori', 'mooncake_tcp')" },
		{ "--model-path m --tp-size",
		  "argument --tp-size: expected one argument" },
		{ "--model-path m --enable-dp-attention=1",
		  "argument --enable-dp-attention: ignored explicit argument '1'" },
		{ "--tp-size 2", "the following arguments are required: --model-path" },
		{ "--model-path m --config a.json",
		  "Config file must be YAML format, got: .json" },
		{ "--model-path m --config nope.yaml",
		  "Config file not found: nope.yaml" },
		{ "--model-path m --config",
		  "No config file specified after --config flag!" },
		/* A list option's value after '=' is one word: the next
		 * word is an option again. */
		{ "--model-path m --numa-node=0 --tp-size 2 --tp-sizee 3",
		  "unrecognized arguments: --tp-sizee 3" },
		{ "--model-path m --tp-size 2 --numa-node=0",
		  "" },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct config	c;
		struct result	r;

		parse(cases[i].args, &c, &r);
		if (strcmp(first_error(&r), cases[i].want) != 0)
			fail_msg("%s: got '%s', want '%s'", cases[i].args,
			    first_error(&r), cases[i].want);
		result_free(&r);
		config_free(&c);
	}
}

/*
 * Flag names and option lists of any length reach the messages whole: an
 * ambiguous prefix lists its first six candidates, an unknown flag of
 * hundreds of bytes is quoted in full.
 */
static void
test_argparse_long_words(void **state)
{
	struct config	 c;
	struct result	 r;
	struct buf	 line = { 0 }, want = { 0 };
	const char	*msg, *q;
	size_t		 i, commas = 0;

	(void)state;
	parse("--model-path m --disagg 1", &c, &r);
	msg = first_error(&r);
	assert_int_equal(strncmp(msg, "ambiguous option: --disagg could match "
	    "--disaggregation-", 56), 0);
	for (q = msg; (q = strstr(q, ", ")) != NULL; q++)
		commas++;
	assert_int_equal(commas, 5);
	result_free(&r);
	config_free(&c);

	buf_puts(&line, "--model-path m --");
	for (i = 0; i < 600; i++)
		buf_putc(&line, "abc"[i % 3]);
	parse(line.s, &c, &r);
	buf_printf(&want, "unrecognized arguments: %s", line.s + 15);
	assert_string_equal(first_error(&r), want.s);
	result_free(&r);
	config_free(&c);
	buf_free(&line);
	buf_free(&want);
}

static void
test_argparse_values(void **state)
{
	struct config	c;
	struct result	r;
	int		tp = catalog_find(cat, "tp_size");
	int		dpa = catalog_find(cat, "enable_dp_attention");
	int		be = catalog_find(cat, "disaggregation_transfer_backend");

	(void)state;
	parse("--model m --tensor-parallel-size 4 --enable-dp-attention "
	    "--disaggregation-transfer-backend=nixl", &c, &r);
	assert_int_equal(r.nerrors, 0);
	assert_int_equal(c.s[tp].v.u.i, 4);
	assert_int_equal(c.s[tp].src, SRC_CLI);
	assert_int_equal(c.s[tp].col, 11);	/* points at the flag */
	assert_true(c.s[dpa].v.u.b);
	assert_string_equal(c.s[be].v.u.s, "nixl");
	result_free(&r);
	config_free(&c);
	/* the last occurrence wins, like argparse */
	parse("--model m --tp-size 2 --tp-size 8", &c, &r);
	assert_int_equal(c.s[tp].v.u.i, 8);
	result_free(&r);
	config_free(&c);
}

static void
test_env(void **state)
{
	struct config		c;
	struct result		r;
	struct env_entry	e[] = {
		{ "SGLANG_DISAGG_STAGING_BUFFER", "1", 1, 1, false },
		{ "SGLANG_DISAGGREGATION_QUEUE_SIZE", "many", 2, 1, false },
		{ "SOME_OTHER_VAR", "x", 3, 1, false },
	};
	int			sb = catalog_find(cat, "SGLANG_DISAGG_STAGING_BUFFER");

	(void)state;
	config_init(&c, cat);
	result_init(&r);
	assert_int_equal(env_apply(cat, e, 3, &c, &r), 1);
	assert_true(c.s[sb].v.t == V_BOOL && c.s[sb].v.u.b);
	assert_int_equal(c.s[sb].src, SRC_ENV);
	assert_string_equal(r.d[0].msg, "environment variable "
	    "SGLANG_DISAGGREGATION_QUEUE_SIZE: invalid int value: 'many'");
	result_free(&r);
	config_free(&c);
}

static void
test_sgconfig(void **state)
{
	static const char	 good[] =
	    "model-path: meta-llama/Meta-Llama-3-8B-Instruct\n"
	    "host: 0.0.0.0\nport: 30000\ntensor-parallel-size: 2\n"
	    "enable-dp-attention: true\ntrust-remote-code: false\n";
	struct argword		*w;
	size_t			 n, i;
	struct result		 r;
	struct config		 c;

	(void)state;
	result_init(&r);
	assert_int_equal(sgconfig_read_text(cat, "c.yaml", good,
	    sizeof good - 1, &w, &n, &r), 0);
	assert_int_equal(r.n, 0);
	config_init(&c, cat);
	argv_parse(cat, w, n, &c, &r, NULL);
	assert_int_equal(r.nerrors, 0);
	assert_int_equal(c.s[catalog_find(cat, "tp_size")].v.u.i, 2);
	assert_int_equal(c.s[catalog_find(cat, "tp_size")].src, SRC_CONFIG);
	assert_int_equal(c.s[catalog_find(cat, "tp_size")].line, 4);
	assert_false(c.s[catalog_find(cat, "trust_remote_code")].v.u.b);
	for (i = 0; i < n; i++)
		assert_true(w[i].src == SRC_CONFIG);
	argwords_free(w, n);
	config_free(&c);
	result_free(&r);

	result_init(&r);
	sgconfig_read_text(cat, "c.yaml", "- a\n- b\n", 8, &w, &n, &r);
	assert_string_equal(r.d[0].msg,
	    "Config file must contain a dictionary at root level");
	argwords_free(w, n);
	result_free(&r);

	result_init(&r);
	sgconfig_read_text(cat, "c.yaml", "enable-tp-lm-head-all-to-all: true\n",
	    35, &w, &n, &r);
	assert_string_equal(r.d[0].msg, "Unsupported config option "
	    "'enable-tp-lm-head-all-to-all' with action 'BooleanOptionalAction'");
	argwords_free(w, n);
	result_free(&r);
}

static bool
id_match(const char *pat, const char *s)
{
	struct model_id	m;

	model_id_init(&m, s);
	return model_id_match(pat, &m);
}

/* A model table's Hub id matches the id, and a local path ending in it. */
static void
test_model_id_match(void **state)
{
	static const char *const pats[] = { "meta-llama/*llama-3*-8b*",
	    "*/glm-5*", "deepseek-ai/deepseek-v3", "qwen/qwen3-[0-9]*b",
	    "*", "a?c", "*x", "x*", "a\\*b", "[!a]*", "*/qwen3-8b",
	    "deepseek-ai/deepseek-r1-*-qwen-7b" };
	static const char *const ids[] = { "meta-llama/llama-3.1-8b-instruct",
	    "deepseek-ai/deepseek-v3", "deepseek-ai/deepseek-v3x", "qwen/qwen3-8b",
	    "qwen/qwen3-b", "abc", "a*b", "axb", "x", "", "zai/glm-5-fp8",
	    "deepseek-ai/deepseek-r1-distill-qwen-7b", "xx", "b" };
	size_t	i, j;

	(void)state;
	assert_true(id_match("meta-llama/*llama-3*-8b*",
	    "meta-llama/llama-3.1-8b-instruct"));
	assert_true(id_match("meta-llama/*llama-3*-8b*",
	    "/raid/models/meta-llama/llama-3.1-8b-instruct"));
	assert_true(id_match("meta-llama/*llama-3*-8b*",
	    "./meta-llama/llama-3.1-8b-instruct"));
	assert_true(id_match("*/glm-5*", "/data/zai/glm-5-fp8"));
	/* A Hub id is matched as written, not by its tail. */
	assert_false(id_match("meta-llama/*llama-3*-8b*",
	    "mirror/meta-llama/llama-3.1-8b-instruct"));
	assert_false(id_match("meta-llama/*llama-3*-8b*",
	    "/models/llama-3.1-8b-instruct"));
	assert_false(id_match("deepseek-ai/deepseek-v3*", "/models/"));
	/* A Hugging Face cache directory names its model. */
	assert_true(id_match("qwen/qwen3-30b-a3b*fp8*", "/models/hub/models--"
	    "qwen--qwen3-30b-a3b-fp8/snapshots/d206a1b"));
	assert_false(id_match("qwen/qwen3-30b-a3b*fp8*", "/models/hub/models--"
	    "qwen3-30b-a3b-fp8/snapshots/d206a1b"));
	assert_false(id_match("qwen/qwen3-30b-a3b*fp8*",
	    "models--qwen--qwen3-30b-a3b-fp8"));	/* a Hub id, as written */
	/* Of a local path, the tails after its last four slashes. */
	assert_true(id_match("qwen/qwen3-8b", "/a/b/c/qwen/qwen3-8b"));
	assert_false(id_match("b/c/d/e/qwen/qwen3-8b",
	    "/a/b/c/d/e/qwen/qwen3-8b"));
	/* Longer than any path: no model's, whatever the pattern. */
	{
		char	*big = xmalloc(MODEL_ID_MAX + 2);

		memset(big, 'a', MODEL_ID_MAX + 1);
		big[MODEL_ID_MAX + 1] = '\0';
		assert_false(id_match("*", big));
		big[MODEL_ID_MAX] = '\0';
		assert_true(id_match("*", big));
		free(big);
	}
	/* The literal ends decide no differently from fnmatch itself. */
	for (i = 0; i < sizeof pats / sizeof *pats; i++)
		for (j = 0; j < sizeof ids / sizeof *ids; j++)
			if (id_match(pats[i], ids[j]) !=
			    (fnmatch(pats[i], ids[j], 0) == 0))
				fail_msg("%s on '%s': not as fnmatch", pats[i],
				    ids[j]);
}

/* --exclude globs as .pdwiz.yaml's (rc_glob_match). */
static void
test_exclude_glob(void **state)
{
	static const struct { const char *pat, *path; bool want; } t[] = {
		{ "vendor", "vendor/a.sh", true },
		{ "vendor", "x/vendor/y/a.sh", true },
		{ "vendor", "vendors/a.sh", false },
		{ "vendor/", "x/vendor/a.sh", true },
		{ "*.md", "docs/a.md", true },
		{ "*.md", "docs/a.md.sh", false },
		{ "docs/*.md", "docs/a.md", true },
		{ "docs/*.md", "docs/x/a.md", false },
		{ "docs/**/*.md", "docs/x/y/a.md", true },
		{ "docs/**/*.md", "docs/a.md", true },
		{ "**/ignored/*.sh", "r/ignored/b.sh", true },
		{ "**/ignored/*.sh", "ignored/b.sh", true },
		{ "**/ignored/*.sh", "r/ignored/x/b.sh", false },
		{ "./deploy/*.sh", "deploy/a.sh", true },
		{ "deploy/*.sh", "./deploy/a.sh", true },
		{ "a?c", "abc", true },
		{ "a?c", "a/c", false },
		{ "deploy", "deploy/a.sh", true },
		{ "deploy/a.sh", "deploy/a.sh", true },
		{ "*", "x/y", true },
		{ "x/*", "x/y/z", true },	/* the folder x/y, and what is in it */
		{ "docs/**/b.md", "docs/xb.md", false },
		{ "docs/**/b.md", "docs/x/b.md", true },
		{ "**", "a/b/c", true },
		{ "a/**", "a/b/c", true },
		{ "*a*a*a*a*a*a*a*a*b", "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"
		    "aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaac", false },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++)
		if (rc_glob_match(t[i].pat, t[i].path) != t[i].want)
			fail_msg("rc_glob_match(%s, %s) is %d, want %d", t[i].pat,
			    t[i].path, !t[i].want, t[i].want);
}

/* Candidates by name, or by a "#!" line naming a shell. */
static void
test_walk_candidate(void **state)
{
	char	dir[] = "/tmp/pdwiz-walk-XXXXXX", path[256];
	FILE	*f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	assert_true(walk_candidate("a/b.sh"));
	assert_true(walk_candidate("a/b.yml"));
	assert_true(walk_candidate("README.markdown"));
	assert_false(walk_candidate("a/b.py"));
	assert_false(walk_candidate("a/b.sh.orig"));
	snprintf(path, sizeof path, "%s/launch", dir);
	assert_non_null(f = fopen(path, "w"));
	fputs("#!/usr/bin/env bash\npython -m sglang.launch_server\n", f);
	fclose(f);
	assert_true(walk_candidate(path));
	assert_non_null(f = fopen(path, "w"));
	fputs("#!/usr/bin/python3\nprint(1)\n", f);
	fclose(f);
	assert_false(walk_candidate(path));
	assert_non_null(f = fopen(path, "w"));
	fputs("plain text\n", f);
	fclose(f);
	assert_false(walk_candidate(path));
	unlink(path);
	rmdir(dir);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_ydoc_bad),
		cmocka_unit_test(test_ydoc_limits),
		cmocka_unit_test(test_model_id_match),
		cmocka_unit_test(test_exclude_glob),
		cmocka_unit_test(test_walk_candidate),
		cmocka_unit_test(test_ydoc_anchors),
		cmocka_unit_test(test_edit_distance),
		cmocka_unit_test(test_utf8_invalid_at),
		cmocka_unit_test(test_argparse_messages),
		cmocka_unit_test(test_argparse_long_words),
		cmocka_unit_test(test_argparse_values),
		cmocka_unit_test(test_env),
		cmocka_unit_test(test_sgconfig),
	};
	int	rc;

	cat = test_catalog();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	catalog_free(cat);
	intern_free_all();
	return rc;
}
