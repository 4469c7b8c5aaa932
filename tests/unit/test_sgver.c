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

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_parse),
		cmocka_unit_test(test_order),
		cmocka_unit_test(test_image),
		cmocka_unit_test(test_release_as),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
