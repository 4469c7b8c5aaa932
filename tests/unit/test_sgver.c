/* test_sgver.c - SGLang release numbers: parsing, order, printing, and the
 * release an image reference names. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <string.h>

#include "core/sgver.h"
#include "core/catalog.h"

static void
expect_text(const char *in, const char *canon)
{
	char	why[256] = "", buf[SGVER_TEXT_MAX];
	sgver_t	v = sgver_parse(in, why, sizeof why);

	if (v == SGVER_UNKNOWN)
		fail_msg("'%s' not parsed: %s", in, why);
	if (strcmp(sgver_format(v, buf, sizeof buf), canon) != 0)
		fail_msg("'%s' printed as '%s', want '%s'", in, buf, canon);
}

static void
test_parse(void **state)
{
	static const char *const bad[] = { "", "dev", "latest", "nightly",
		"main", "v", "0", "1.", "0.5.", "0.5.3-rc0",
		"0.5.3.post1x", "0.5.3 ", "0.1.2.3.4", "0.5.3rc0.post1",
		"99999.1.0", "0.256.0", "0.5.3rcx", "x0.5.3", NULL };
	char	why[256];
	size_t	i;

	(void)state;
	expect_text("0.5.18", "0.5.18");
	expect_text("v0.4.8.post1", "0.4.8.post1");
	expect_text("0.5.3rc0", "0.5.3rc0");
	expect_text("0.5.3.rc2", "0.5.3rc2");
	expect_text("V0.5.10", "0.5.10");
	expect_text("0.4.5.2", "0.4.5.2");
	expect_text("0.5.3.dev1", "0.5.3.dev1");
	expect_text("0.5", "0.5.0");
	expect_text("0.5.3post2", "0.5.3.post2");
	expect_text("0.5.3.post", "0.5.3.post0");
	expect_text("0.5.3rc", "0.5.3rc0");
	for (i = 0; bad[i] != NULL; i++) {
		why[0] = '\0';
		if (sgver_parse(bad[i], why, sizeof why) != SGVER_UNKNOWN)
			fail_msg("'%s' parsed as a release", bad[i]);
		if (why[0] == '\0')
			fail_msg("'%s': no reason given", bad[i]);
	}
	sgver_parse("dev", why, sizeof why);
	assert_non_null(strstr(why, "names no SGLang release"));
	assert_int_equal(sgver_parse(NULL, NULL, 0), SGVER_UNKNOWN);
}

static void
test_order(void **state)
{
	/* Ascending, as PEP 440 orders SGLang's tags. */
	static const char *const seq[] = { "0.1.20", "0.4.5", "0.4.5.post1",
		"0.4.5.2", "0.4.6", "0.4.8.post1", "0.4.10", "0.4.10.post2",
		"0.5.0rc0", "0.5.0rc2", "0.5.0", "0.5.3.dev0", "0.5.3rc0",
		"0.5.3rc2", "0.5.3", "0.5.3.post1", "0.5.3.post3", "0.5.4",
		"0.5.13.post2", "0.5.18", "1.0.0", NULL };
	size_t	i, j;

	(void)state;
	for (i = 0; seq[i] != NULL; i++)
		for (j = 0; seq[j] != NULL; j++) {
			int	c = sgver_cmp(sgver_parse(seq[i], NULL, 0),
			    sgver_parse(seq[j], NULL, 0));
			int	want = i < j ? -1 : i > j;

			if (c != want)
				fail_msg("cmp(%s, %s) = %d, want %d", seq[i],
				    seq[j], c, want);
		}
	assert_true(sgver_cmp(SGVER_UNKNOWN, sgver_parse("0.0.0.dev0", NULL,
	    0)) < 0);
	assert_int_equal(sgver_parse("v0.5.3", NULL, 0),
	    sgver_parse("0.5.3", NULL, 0));
}

static void
expect_image(const char *image, const char *canon)
{
	char	why[256] = "", buf[SGVER_TEXT_MAX];
	sgver_t	v = sglang_version_from_image(image, why, sizeof why);

	if (canon == NULL) {
		if (v != SGVER_UNKNOWN)
			fail_msg("'%s' gave %s, want unknown", image,
			    sgver_format(v, buf, sizeof buf));
		if (why[0] == '\0')
			fail_msg("'%s': no reason given", image);
		return;
	}
	if (v == SGVER_UNKNOWN)
		fail_msg("'%s': unknown (%s), want %s", image, why, canon);
	if (strcmp(sgver_format(v, buf, sizeof buf), canon) != 0)
		fail_msg("'%s' gave %s, want %s", image, buf, canon);
}

static void
test_image(void **state)
{
	char	why[256];

	(void)state;
	expect_image("lmsysorg/sglang:v0.4.8.post1", "0.4.8.post1");
	expect_image("lmsysorg/sglang:v0.5.3rc0", "0.5.3rc0");
	expect_image("docker.io/lmsysorg/sglang:v0.5.2-cu126", "0.5.2");
	expect_image("lmsysorg/sglang:0.5.18", "0.5.18");
	expect_image("registry.local:5000/lmsysorg/sglang:v0.5.4.post2",
	    "0.5.4.post2");
	expect_image("localhost/lmsysorg/sglang:v0.5.13.post1-rocm720-mi35x",
	    "0.5.13.post1");
	expect_image("lmsysorg/sglang:v0.5.9@sha256:0123abcd", "0.5.9");
	/* only SGLang's own images name its releases (issue 23) */
	expect_image("rocm/sgl-dev:v0.5.13.post1-rocm720-mi35x-20260623", NULL);
	expect_image("registry.local:5000/team/sglang:v0.5.4.post2", NULL);
	expect_image("lmsysorg/sglang-rocm:v0.5.10", NULL);
	expect_image("mirror.example/lmsysorg/sglang-dev:v0.5.10", NULL);
	expect_image("team/lmsysorg/sglang:v0.5.10", NULL);
	expect_image("lmsysorg/sglang:latest", NULL);
	expect_image("lmsysorg/sglang:dev", NULL);
	expect_image("lmsysorg/sglang:nightly-dev-20260101", NULL);
	expect_image("lmsysorg/sglang", NULL);
	expect_image("registry.local:5000/lmsysorg/sglang", NULL);
	expect_image("nvcr.io/nvidia/pytorch:24.05-py3", NULL);
	expect_image("vllm/vllm-openai:v0.5.3", NULL);
	expect_image("nvcr.io/nvidia/ai-dynamo/sglang-runtime:0.4.1", NULL);
	expect_image("lmsysorg/sglang-router:v0.1.4", NULL);
	expect_image("ghcr.io/moirai-internal/sgl-router:v0.2.1", NULL);
	expect_image("", NULL);
	sglang_version_from_image("nvcr.io/nvidia/ai-dynamo/sglang-runtime:0.4.1",
	    why, sizeof why);
	assert_non_null(strstr(why, "own release"));
	sglang_version_from_image("lmsysorg/sglang", why, sizeof why);
	assert_non_null(strstr(why, "no tag"));
	sglang_version_from_image("vllm/vllm-openai:v0.5.3", why, sizeof why);
	assert_non_null(strstr(why, "not an SGLang image"));
	sglang_version_from_image("rocm/sgl-dev:v0.5.13.post1", why, sizeof why);
	assert_non_null(strstr(why, "not SGLang's own"));
	assert_int_equal(sglang_version_from_image(NULL, NULL, 0),
	    SGVER_UNKNOWN);
}

/* The release a version that is none is checked as. */
static void
test_release_as(void **state)
{
	sgver_t			 rel[3];
	struct flag_history	 fh;
	char			 buf[SGVER_TEXT_MAX];
	bool			 r;

	(void)state;
	memset(&fh, 0, sizeof fh);
	rel[0] = sgver_parse("0.5.9", NULL, 0);
	rel[1] = sgver_parse("0.5.10rc0", NULL, 0);
	rel[2] = sgver_parse("0.5.13.post2", NULL, 0);
	fh.releases = rel;
	fh.nreleases = 3;
	assert_true(flaghist_release_as(&fh, rel[1], &r) == rel[1] && r);
	assert_string_equal(sgver_format(flaghist_release_as(&fh,
	    sgver_parse("0.5.9.post7", NULL, 0), &r), buf, sizeof buf),
	    "0.5.9");
	assert_false(r);
	/* 0.5.10 sorts after 0.5.10rc0, before 0.5.13.post2 */
	assert_true(flaghist_release_as(&fh, sgver_parse("0.5.10", NULL, 0),
	    &r) == rel[1] && !r);
	assert_true(flaghist_release_as(&fh, sgver_parse("0.5.14", NULL, 0),
	    &r) == sgver_parse("0.5.14", NULL, 0) && !r);
	assert_true(flaghist_release_as(&fh, sgver_parse("0.4.0", NULL, 0),
	    &r) == rel[0] && !r);
	assert_true(flaghist_release_as(&fh, SGVER_UNKNOWN, &r) ==
	    SGVER_UNKNOWN && r);
	assert_true(flaghist_release_as(NULL, rel[0], &r) == rel[0] && r);
}

/* A main commit the catalog names: its place among the releases, its
 * spellings, its text, and what the inventory and the ranges make of it. */
static void
test_commit(void **state)
{
	sgver_t			 rel[2];
	struct sg_commit	 c[2];
	struct flag_history	 fh;
	struct rule		 r;
	char			 buf[SGVER_TEXT_MAX], why[256] = "";
	bool			 isrel;

	(void)state;
	memset(&fh, 0, sizeof fh);
	memset(c, 0, sizeof c);
	rel[0] = sgver_parse("0.5.13.post2", NULL, 0);
	rel[1] = sgver_parse("0.5.14", NULL, 0);
	c[0].name = "3391ab3712";
	c[0].commit = "3391ab3712bbd4a47ee707156d1a4cbb8c7be20b";
	c[0].after = rel[0];
	c[0].v = sgver_commit(rel[0], 1);
	c[1].name = "008b79d235";
	c[1].commit = "008b79d2358b08adf9b6c879625030f890c8c4e2";
	c[1].after = rel[0];
	c[1].v = sgver_commit(rel[0], 2);
	fh.releases = rel;
	fh.nreleases = 2;
	fh.commits = c;
	fh.ncommits = 2;
	/* after its release, before the next; commits in list order */
	assert_true(sgver_is_commit(c[0].v) && !sgver_is_commit(rel[0]));
	assert_true(rel[0] < c[0].v && c[0].v < c[1].v && c[1].v < rel[1]);
	assert_true(sgver_parse("0.5.13.post99", NULL, 0) < c[0].v);
	assert_true(sgver_commit(SGVER_UNKNOWN, 1) == SGVER_UNKNOWN);
	assert_true(sgver_commit(rel[0], 0) == SGVER_UNKNOWN);
	/* spellings: the name, main@, a prefix of 7+ digits, the full hash */
	assert_true(flaghist_parse(&fh, "3391ab3712", NULL, 0) == c[0].v);
	assert_true(flaghist_parse(&fh, "main@3391ab3712", NULL, 0) == c[0].v);
	assert_true(flaghist_parse(&fh, "3391ab3", NULL, 0) == c[0].v);
	assert_true(flaghist_parse(&fh, c[1].commit, NULL, 0) == c[1].v);
	assert_true(flaghist_parse(&fh, "0.5.9", NULL, 0) ==
	    sgver_parse("0.5.9", NULL, 0));
	/* too short a prefix, an unknown hash, main@ of no commit */
	assert_true(flaghist_parse(&fh, "3391ab", why, sizeof why) ==
	    SGVER_UNKNOWN);
	assert_true(flaghist_parse(&fh, "deadbeef1", why, sizeof why) ==
	    SGVER_UNKNOWN);
	assert_non_null(strstr(why, "no commit of SGLang main that pdwiz "
	    "knows"));
	assert_true(flaghist_parse(&fh, "main@0.5.9", NULL, 0) ==
	    SGVER_UNKNOWN);
	assert_true(flaghist_parse(NULL, "3391ab3712", NULL, 0) ==
	    SGVER_UNKNOWN);
	/* text */
	assert_string_equal(flaghist_vname(&fh, c[0].v, buf, sizeof buf),
	    "main@3391ab3712");
	assert_string_equal(flaghist_vname(&fh, rel[0], buf, sizeof buf),
	    "0.5.13.post2");
	assert_string_equal(sgver_format(c[1].v, buf, sizeof buf),
	    "0.5.13+main.2");
	/* a named commit is checked as itself */
	assert_true(flaghist_release_as(&fh, c[0].v, &isrel) == c[0].v &&
	    isrel);
	/* the inventory's main line is the first commit only */
	fh.inv_main = true;
	fh.inv_main_commit = c[0].commit;
	assert_int_equal(flaginv_release(&fh, c[0].v), 0);
	assert_int_equal(flaginv_release(&fh, c[1].v), -1);
	/* ranges: after the first commit holds at the second, not at it */
	memset(&r, 0, sizeof r);
	r.newer_than = c[0].v;
	assert_false(rule_in_range(&r, c[0].v));
	assert_false(rule_in_range(&r, rel[0]));
	assert_true(rule_in_range(&r, c[1].v));
	assert_true(rule_in_range(&r, rel[1]));
	memset(&r, 0, sizeof r);
	r.newer_than = rel[0];
	assert_true(rule_in_range(&r, c[0].v));
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_image),
		cmocka_unit_test(test_release_as),
		cmocka_unit_test(test_commit),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
