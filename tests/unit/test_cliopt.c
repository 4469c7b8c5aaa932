/*
 * test_cliopt.c - unit tests for the command-line option parser and the
 * usage text generated from a command's option table (src/cli/cliopt.c).
 */

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cliopt.h"

enum { T_FORMAT = 1, T_OUT, T_VERBOSE, T_FORCE };

static const struct cliopt topts[] = {
	{ T_FORMAT, "format", 0, "text|json", "output format", 0 },
	{ T_OUT, "output", 'o', "FILE", "write to FILE", 0 },
	{ T_VERBOSE, "verbose", 'v', NULL, "say more", 0 },
	{ T_FORCE, "force", 0, NULL, NULL, 0 },		/* not listed */
	{ 0, NULL, 0, NULL, NULL, 0 }
};

static const struct clicmd tcmd = {
	"demo", { "[FILE | -]", "-- CMD ARGS..." }, "a demonstration", topts,
	NULL, 0
};

/* One expected step: what cliparse_next returns and the argument it sets. */
struct step {
	int		 rc;
	const char	*arg;
};

/* Parse words (split on ' ') and compare every step, END included. */
static void
run_steps(const struct clicmd *cmd, const char *line, const struct step *want,
    struct cliparse *out)
{
	char	*copy = strdup(line), *argv[32], *w;
	int	 argc = 0, k = 0, rc;

	argv[argc++] = (char *)"demo";
	for (w = strtok(copy, " "); w != NULL; w = strtok(NULL, " "))
		argv[argc++] = w;
	argv[argc] = NULL;
	cliparse_init(out, cmd, argc, argv);
	out->errf = NULL;
	do {
		rc = cliparse_next(out);
		if (rc != want[k].rc)
			fail_msg("%s: step %d: got %d, want %d (%s)", line, k,
			    rc, want[k].rc, out->err);
		if (want[k].arg == NULL)
			assert_null(out->arg);
		else {
			assert_non_null(out->arg);
			assert_string_equal(out->arg, want[k].arg);
		}
		k++;
	} while (rc != CLIOPT_END && rc != CLIOPT_ERROR && rc != CLIOPT_HELP);
	/* Pointers into argv are only compared above; release the copy. */
	free(copy);
}

static void
test_long_forms(void **state)
{
	static const struct step	want[] = {
		{ T_FORMAT, "json" }, { T_FORMAT, "text" }, { T_VERBOSE, NULL },
		{ T_OUT, "x.yaml" }, { T_FORMAT, "" }, { CLIOPT_END, NULL }
	};
	struct cliparse			p;

	(void)state;
	run_steps(&tcmd, "--format json --format=text --verbose "
	    "--output=x.yaml --format=", want, &p);
	assert_int_equal(p.dashdash, -1);
}

static void
test_short_forms(void **state)
{
	static const struct step	want[] = {
		{ T_OUT, "a" }, { T_OUT, "b" }, { T_VERBOSE, NULL },
		{ CLIOPT_END, NULL }
	};
	struct cliparse			p;

	(void)state;
	run_steps(&tcmd, "-o a -ob -v", want, &p);
}

/* An option's value is the next word even when it starts with a dash. */
static void
test_value_with_dash(void **state)
{
	static const struct step	want[] = {
		{ T_FORMAT, "--verbose" }, { T_OUT, "-" }, { CLIOPT_END, NULL }
	};
	struct cliparse			p;

	(void)state;
	run_steps(&tcmd, "--format --verbose -o -", want, &p);
}

static void
test_operands(void **state)
{
	static const struct step	want[] = {
		{ CLIOPT_OPERAND, "file.sh" }, { T_VERBOSE, NULL },
		{ CLIOPT_OPERAND, "-" }, { CLIOPT_END, NULL }
	};
	struct cliparse			p;

	(void)state;
	run_steps(&tcmd, "file.sh -v -", want, &p);
}

/* After "--" every word is an operand, and dashdash says where they start. */
static void
test_dashdash(void **state)
{
	static const struct step	want[] = {
		{ T_VERBOSE, NULL }, { CLIOPT_OPERAND, "--tp" },
		{ CLIOPT_OPERAND, "8" }, { CLIOPT_OPERAND, "--" },
		{ CLIOPT_OPERAND, "-v" }, { CLIOPT_END, NULL }
	};
	static const struct step	last[] = {
		{ CLIOPT_OPERAND, "f" }, { CLIOPT_END, NULL }
	};
	struct cliparse			p;

	(void)state;
	run_steps(&tcmd, "-v -- --tp 8 -- -v", want, &p);
	assert_int_equal(p.dashdash, 3);
	run_steps(&tcmd, "f --", last, &p);
	assert_int_equal(p.dashdash, 3);
	assert_int_equal(p.dashdash, p.argc);
}

static void
test_help(void **state)
{
	static const struct step	lng[] = {
		{ T_VERBOSE, NULL }, { CLIOPT_HELP, NULL }
	};
	static const struct step	shrt[] = { { CLIOPT_HELP, NULL } };
	static const struct step	after[] = {
		{ CLIOPT_OPERAND, "--help" }, { CLIOPT_END, NULL }
	};
	struct cliparse			p;

	(void)state;
	run_steps(&tcmd, "-v --help", lng, &p);
	run_steps(&tcmd, "-h", shrt, &p);
	run_steps(&tcmd, "-- --help", after, &p);
}

/* A table that uses -h and --help itself gets them as options. */
static void
test_help_in_table(void **state)
{
	static const struct cliopt	o[] = {
		{ 7, "help", 'h', NULL, "this text", 0 },
		{ 0, NULL, 0, NULL, NULL, 0 }
	};
	static const struct clicmd	c = { NULL, { NULL, NULL }, NULL, o,
	    NULL, 0 };
	static const struct step	want[] = {
		{ 7, NULL }, { 7, NULL }, { CLIOPT_END, NULL }
	};
	struct cliparse			p;

	(void)state;
	run_steps(&c, "-h --help", want, &p);
}

static void
expect_error(const char *line, const char *msg)
{
	struct cliparse	p;
	char		*copy = strdup(line), *argv[16], *w;
	int		 argc = 0, rc;

	argv[argc++] = (char *)"demo";
	for (w = strtok(copy, " "); w != NULL; w = strtok(NULL, " "))
		argv[argc++] = w;
	cliparse_init(&p, &tcmd, argc, argv);
	p.errf = NULL;
	while ((rc = cliparse_next(&p)) != CLIOPT_END && rc != CLIOPT_ERROR)
		;
	if (rc != CLIOPT_ERROR)
		fail_msg("%s: no error", line);
	assert_string_equal(p.err, msg);
	free(copy);
}

static void
test_errors(void **state)
{
	(void)state;
	expect_error("--bogus", "pdwiz demo: unknown option --bogus (see "
	    "pdwiz demo --help)");
	expect_error("--bogus=1", "pdwiz demo: unknown option --bogus (see "
	    "pdwiz demo --help)");
	expect_error("-x", "pdwiz demo: unknown option -x (see pdwiz demo "
	    "--help)");
	expect_error("-vx", "pdwiz demo: unknown option -vx (see pdwiz demo "
	    "--help)");
	expect_error("--form json", "pdwiz demo: unknown option --form (see "
	    "pdwiz demo --help)");
	expect_error("f --format", "pdwiz: --format needs a value");
	expect_error("-o", "pdwiz: -o needs a value");
	expect_error("--verbose=yes", "pdwiz: --verbose takes no value");
	expect_error("--help=1", "pdwiz demo: unknown option --help (see "
	    "pdwiz demo --help)");
}

/* The top-level command (no name) names no subcommand in its messages, and
 * an error is printed to errf. */
static void
test_error_printed(void **state)
{
	static const struct clicmd	top = { NULL, { NULL, NULL }, NULL,
	    topts, NULL, 0 };
	struct cliparse			p;
	char				*argv[] = { (char *)"pdwiz",
	    (char *)"--nope", NULL };
	char				*buf = NULL;
	size_t				 len = 0;

	(void)state;
	cliparse_init(&p, &top, 2, argv);
	p.errf = open_memstream(&buf, &len);
	assert_non_null(p.errf);
	assert_int_equal(cliparse_next(&p), CLIOPT_ERROR);
	fclose(p.errf);
	assert_string_equal(buf, "pdwiz: unknown option --nope (see pdwiz "
	    "--help)\n");
	free(buf);
}

static void
test_choice(void **state)
{
	static const char *const c[] = { "auto", "shell", "config", NULL };

	(void)state;
	assert_int_equal(cli_choice("auto", c), 0);
	assert_int_equal(cli_choice("config", c), 2);
	assert_int_equal(cli_choice("conf", c), -1);
	assert_int_equal(cli_choice("", c), -1);
}

/* Run a printer into a string. */
static char *
capture(void (*fn)(FILE *, const struct clicmd *), const struct clicmd *c)
{
	char	*buf = NULL;
	size_t	 len = 0;
	FILE	*f = open_memstream(&buf, &len);

	assert_non_null(f);
	fn(f, c);
	fclose(f);
	return buf;
}

static void
test_usage_text(void **state)
{
	static const struct cliopt	few[] = {
		{ 1, "format", 0, "shell|yaml", "what", CLIOPT_REQUIRED },
		{ 2, "force", 0, NULL, "anyway", 0 },
		{ 3, "output-dir", 'o', "DIR", "where", 0 },
		{ 0, NULL, 0, NULL, NULL, 0 }
	};
	static const struct clicmd	emitish = { "emit",
	    { "DEPLOYMENT", NULL }, "write it", few, NULL, 0 };
	char				*s;

	(void)state;
	/* Three listed options or fewer: spelled out; more: [options]. */
	s = capture(cli_usage, &emitish);
	assert_string_equal(s, "usage: pdwiz emit --format shell|yaml "
	    "[--force] [-o DIR] DEPLOYMENT\n");
	free(s);
	s = capture(cli_usage, &tcmd);
	assert_string_equal(s, "usage: pdwiz demo [--format text|json] "
	    "[-o FILE] [-v] [FILE | -]\n"
	    "       pdwiz demo [--format text|json] [-o FILE] [-v] "
	    "-- CMD ARGS...\n");
	free(s);
}

static void
test_help_text(void **state)
{
	char	*s;

	(void)state;
	s = capture(cli_help, &tcmd);
	assert_string_equal(s,
	    "usage: pdwiz demo [--format text|json] [-o FILE] [-v] [FILE | -]\n"
	    "       pdwiz demo [--format text|json] [-o FILE] [-v] "
	    "-- CMD ARGS...\n"
	    "\n"
	    "a demonstration\n"
	    "\n"
	    "options:\n"
	    "  --format text|json     output format\n"
	    "  -o, --output FILE      write to FILE\n"
	    "  -v, --verbose          say more\n");
	free(s);
}

/* The summary column of pdwiz --help, and a synopsis too long for it. */
static void
test_synopsis_summary(void **state)
{
	static const struct cliopt	one[] = {
		{ 1, "sglang-catalog", 0, "RULES.md", "map", 0 },
		{ 0, NULL, 0, NULL, NULL, 0 }
	};
	static const struct clicmd	cov = { "coverage", { NULL, NULL },
	    "map options", one, NULL, 0 };
	static const struct clicmd	wiz = { NULL,
	    { "[FILE | --import SCRIPT]", NULL }, "open the wizard", one,
	    NULL, CLICMD_PLAIN };
	char				*buf = NULL;
	size_t				 len = 0;
	FILE				*f = open_memstream(&buf, &len);

	(void)state;
	cli_synopsis(f, &wiz, true, 41);
	cli_synopsis(f, &cov, false, 41);
	fclose(f);
	assert_string_equal(buf,
	    "usage: pdwiz [FILE | --import SCRIPT]    open the wizard\n"
	    "       pdwiz coverage [--sglang-catalog RULES.md]\n"
	    "                                         map options\n");
	free(buf);
}

/* A long option and its argument too wide for the help column. */
static void
test_options_wrap(void **state)
{
	static const struct cliopt	o[] = {
		{ 1, "input", 0, "auto|shell|config", "how to read", 0 },
		{ 2, NULL, 'x', NULL, "short only", 0 },
		{ 0, NULL, 0, NULL, NULL, 0 }
	};
	static const struct clicmd	c = { "x", { NULL, NULL }, NULL, o,
	    NULL, 0 };
	char				*s;

	(void)state;
	s = capture(cli_options, &c);
	assert_string_equal(s,
	    "  --input auto|shell|config\n"
	    "                         how to read\n"
	    "  -x                     short only\n");
	free(s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_long_forms),
		cmocka_unit_test(test_short_forms),
		cmocka_unit_test(test_value_with_dash),
		cmocka_unit_test(test_operands),
		cmocka_unit_test(test_dashdash),
		cmocka_unit_test(test_help),
		cmocka_unit_test(test_help_in_table),
		cmocka_unit_test(test_errors),
		cmocka_unit_test(test_error_printed),
		cmocka_unit_test(test_choice),
		cmocka_unit_test(test_usage_text),
		cmocka_unit_test(test_help_text),
		cmocka_unit_test(test_synopsis_summary),
		cmocka_unit_test(test_options_wrap),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
