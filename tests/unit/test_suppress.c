/* test_suppress.c - inline "pdwiz: disable=" directives (io/suppress). */
#include "testutil.h"
#include "io/suppress.h"

#include <limits.h>
#include <stdio.h>
#include <string.h>

static void
scan(struct suppress *s, const char *text, enum supp_style style)
{
	suppress_init(s);
	suppress_scan(s, text, strlen(text), style);
}

/* The lines of 1 .. max that a directive for rule covers, as a string of
 * '1' and '.' (the matches mark directives used: see unused_ids). */
static char *
covered(struct suppress *s, const char *rule, int max)
{
	static char	out[128];
	int		l;

	for (l = 1; l <= max; l++)
		out[l - 1] = suppress_match(s, rule, l) ? '1' : '.';
	out[max] = '\0';
	return out;
}

/* "rule@line:col" of every unused entry, space-separated. */
static char *
unused_ids(const struct suppress *s)
{
	static char		 out[1024];
	const struct supp_entry	*e;
	size_t			 pos = 0, o = 0;

	out[0] = '\0';
	while ((e = suppress_next_unused(s, &pos)) != NULL)
		o += (size_t)snprintf(out + o, sizeof out - o, "%s%s@%d:%d",
		    o ? " " : "", e->rule, e->line, e->col);
	return out;
}

/* A directive alone on its line covers it and the next line of code; one
 * after code, its own line only. */
static void
test_lines(void **state)
{
	struct suppress	s;

	(void)state;
	scan(&s,
	    "#!/bin/sh\n"				/* 1 */
	    "# pdwiz: disable=tp-size\n"		/* 2 */
	    "python -m sglang.launch_server --tp 3\n"	/* 3 */
	    "python -m sglang.launch_server --tp 3\n"	/* 4 */
	    "echo hi  # pdwiz: disable=echo-rule\n"	/* 5 */
	    "echo hi\n",				/* 6 */
	    SUPP_HASH);
	assert_int_equal(s.n, 2);
	assert_int_equal(s.nbad, 0);
	assert_string_equal(s.e[0].rule, "tp-size");
	assert_int_equal(s.e[0].line, 2);
	assert_int_equal(s.e[0].col, 18);
	assert_int_equal(s.e[0].from, 2);
	assert_int_equal(s.e[0].to, 3);
	assert_false(s.e[0].file);
	assert_string_equal(covered(&s, "tp-size", 6), ".11...");
	assert_string_equal(covered(&s, "echo-rule", 6), "....1.");
	assert_string_equal(covered(&s, "other", 6), "......");
	suppress_free(&s);
}

/* Blank lines and comment lines between a directive and its line are
 * skipped (and covered: no finding is on them); directives stack. */
static void
test_stack(void **state)
{
	struct suppress	s;

	(void)state;
	scan(&s,
	    "# pdwiz: disable=a\n"	/* 1 */
	    "\n"			/* 2 */
	    "# why: see the runbook\n"	/* 3 */
	    "# pdwiz: disable=b,c\n"	/* 4 */
	    "  \t\n"			/* 5 */
	    "cmd\n"			/* 6 */
	    "cmd\n",			/* 7 */
	    SUPP_HASH);
	assert_string_equal(covered(&s, "a", 7), "111111.");
	assert_string_equal(covered(&s, "b", 7), "...111.");
	assert_string_equal(covered(&s, "c", 7), "...111.");
	suppress_free(&s);
	/* At the end of the text a directive covers its own line. */
	scan(&s, "cmd\n# pdwiz: disable=a\n\n", SUPP_HASH);
	assert_string_equal(covered(&s, "a", 3), ".1.");
	suppress_free(&s);
}

/* Before a command continued with '\', the whole command. */
static void
test_continued(void **state)
{
	struct suppress	s;

	(void)state;
	scan(&s,
	    "# pdwiz: disable=x\n"			/* 1 */
	    "python -m sglang.launch_server \\\n"	/* 2 */
	    "    --model-path m \\\t \n"		/* 3 */
	    "    --tp 3  # pdwiz: disable=y\n"		/* 4 */
	    "echo next\n"				/* 5 */
	    "a \\\n"					/* 6 */
	    "\n"					/* 7 */
	    "b\n",					/* 8 */
	    SUPP_HASH);
	assert_string_equal(covered(&s, "x", 8), "1111....");
	assert_string_equal(covered(&s, "y", 8), "...1....");
	suppress_free(&s);
	/* A command still open at the end of the text. */
	scan(&s, "# pdwiz: disable=x\ncmd \\\n  --a \\\n", SUPP_HASH);
	assert_string_equal(covered(&s, "x", 4), "111.");
	suppress_free(&s);
}

/* disable-file: every line, wherever it is written. */
static void
test_file(void **state)
{
	struct suppress	s;

	(void)state;
	scan(&s,
	    "cmd one\n"
	    "cmd two\n"
	    "  # pdwiz: disable-file=a, b\n"
	    "cmd three\n",
	    SUPP_HASH);
	assert_int_equal(s.n, 2);
	assert_true(s.e[0].file);
	assert_int_equal(s.e[0].line, 3);
	assert_int_equal(s.e[0].col, 25);
	assert_int_equal(s.e[1].col, 28);
	assert_string_equal(covered(&s, "a", 5), "11111");
	assert_true(suppress_match(&s, "b", 1000000));
	assert_true(suppress_match(&s, "b", INT_MAX));
	assert_false(suppress_match(&s, "c", 3));
	suppress_free(&s);
}

/* Blanks around ':', '=' and ','; a reason after the ids; a directive
 * after another tool's. */
static void
test_spacing(void **state)
{
	struct suppress	s;

	(void)state;
	scan(&s,
	    "#pdwiz:disable=a, b\n"					/* 1 */
	    "x\n"							/* 2 */
	    "#\tpdwiz :  disable = c ,d\n"				/* 3 */
	    "x\n"							/* 4 */
	    "# pdwiz: disable=e # the GPUs are set by Slurm\n"		/* 5 */
	    "x\n"							/* 6 */
	    "# shellcheck disable=SC2034 # pdwiz: disable=f\n"		/* 7 */
	    "x\n"							/* 8 */
	    "x # pdwiz: disable=g # pdwiz: disable=h\n",		/* 9 */
	    SUPP_HASH);
	assert_int_equal(s.nbad, 0);
	assert_int_equal(s.n, 8);
	assert_string_equal(covered(&s, "a", 9), "11.......");
	assert_string_equal(covered(&s, "b", 9), "11.......");
	assert_string_equal(covered(&s, "c", 9), "..11.....");
	assert_string_equal(covered(&s, "d", 9), "..11.....");
	assert_string_equal(covered(&s, "e", 9), "....11...");
	assert_string_equal(covered(&s, "f", 9), "......11.");
	assert_string_equal(covered(&s, "g", 9), "........1");
	assert_string_equal(covered(&s, "h", 9), "........1");
	suppress_free(&s);
}

/* YAML: a comment after a value; a '#' inside a word starts none, nor
 * one right after a quote. The scan does not parse quotes: after a blank
 * inside one, a '#' starts a directive (suppress.h says so). */
static void
test_yaml(void **state)
{
	struct suppress	s;

	(void)state;
	scan(&s,
	    "args:\n"						/* 1 */
	    "  - --tp-size=3  # pdwiz: disable=tp\n"		/* 2 */
	    "  - url: http://h/#pdwiz:disable=no\n"		/* 3 */
	    "  # pdwiz: disable=block\n"			/* 4 */
	    "  - |\n"						/* 5 */
	    "    python -m sglang.launch_server \\\n"		/* 6 */
	    "      --tp 3\n"					/* 7 */
	    "  - echo \"# pdwiz: disable=quoted\"\n"		/* 8 */
	    "  - 'a # pdwiz: disable=inside'\n",		/* 9 */
	    SUPP_HASH);
	assert_int_equal(s.nbad, 1);
	assert_int_equal(s.bad[0].line, 9);
	assert_int_equal(s.bad[0].col, 25);
	assert_non_null(strstr(s.bad[0].msg, "bad rule id 'inside''"));
	assert_string_equal(covered(&s, "tp", 9), ".1.......");
	assert_string_equal(covered(&s, "no", 9), ".........");
	assert_string_equal(covered(&s, "block", 9), "...11....");
	assert_string_equal(covered(&s, "quoted", 9), ".........");
	suppress_free(&s);
}

struct bad_case {
	const char	*text;
	int		 col;
	const char	*msg;		/* a part of the message */
};

/* Each malformed directive is one problem at its place and covers
 * nothing, not even its good ids. */
static void
test_malformed(void **state)
{
	static const struct bad_case	cases[] = {
		{ "# pdwiz: disable\n", 10, "expected '=' and rule ids after "
		    "'disable'" },
		{ "x  # pdwiz: disable-file a\n", 13, "after 'disable-file'" },
		{ "# pdwiz: disabel=a\n", 10, "unknown pdwiz directive "
		    "'disabel' (did you mean 'disable'?)" },
		{ "# pdwiz: disable_file=a\n", 10, "did you mean "
		    "'disable-file'?" },
		{ "# pdwiz: enable=a\n", 10, "unknown pdwiz directive "
		    "'enable'" },
		{ "# pdwiz: =a\n", 10, "expected 'disable=' or 'disable-file='" },
		{ "# pdwiz: disable=\n", 18, "no rule ids after '='" },
		{ "# pdwiz: disable=  # why\n", 20, "no rule ids" },
		{ "# pdwiz: disable=a,,b\n", 20, "a rule id is missing after ','" },
		{ "# pdwiz: disable=a,\n", 20, "missing after ','" },
		{ "# pdwiz: disable=a,TP-Size\n", 20, "bad rule id 'TP-Size'" },
		{ "# pdwiz: disable=tp_size\n", 18, "bad rule id 'tp_size'" },
		{ "# pdwiz: disable=all\n", 18, "'all' is not a rule id" },
		{ "# pdwiz: disable=a b\n", 20, "unexpected 'b' after the rule "
		    "ids" },
		{ "# pdwiz: disable=a#b\n", 18, "bad rule id 'a#b'" },
		{ "# pdwiz: disable=a\033]0;x\a\n", 18, "bad rule id "
		    "'a\\x1b]0;x\\x07'" },
		{ "# pdwiz: disable=a \r\rb\n", 20, "unexpected '\\x0d\\x0db'" },
		{ "# pdwiz: disable=a,0123456789012345678901234567890123456789"
		    "0123456789_\n", 20, "bad rule id '0123456789012345678901"
		    "234567890123456789...'" },
	};
	struct suppress	s;
	size_t		i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		scan(&s, cases[i].text, SUPP_HASH);
		if (s.nbad != 1)
			fail_msg("%s: %zu problems", cases[i].text, s.nbad);
		assert_int_equal(s.n, 0);
		assert_int_equal(s.bad[0].line, 1);
		if (s.bad[0].col != cases[i].col ||
		    strstr(s.bad[0].msg, cases[i].msg) == NULL)
			fail_msg("%s: %d:%d: %s", cases[i].text, s.bad[0].line,
			    s.bad[0].col, s.bad[0].msg);
		assert_false(suppress_match(&s, "a", 1));
		assert_false(suppress_match(&s, "a", 2));
		suppress_free(&s);
	}
	/* A problem on a later line, and a good directive after it. */
	scan(&s, "x\n\n   # pdwiz: disable=\ncmd\n# pdwiz: disable=z\ncmd\n",
	    SUPP_HASH);
	assert_int_equal(s.nbad, 1);
	assert_int_equal(s.bad[0].line, 3);
	assert_int_equal(s.bad[0].col, 21);
	assert_string_equal(covered(&s, "z", 6), "....11");
	suppress_free(&s);
}

/* A comment that only mentions pdwiz is no directive and no problem. */
static void
test_prose(void **state)
{
	struct suppress	s;

	(void)state;
	scan(&s,
	    "# pdwiz: written by pdwiz emit\n"
	    "# pdwiz:\n"
	    "# pdwizard: disable=x\n"
	    "# pdwiz import reads this: disable=x\n"
	    "# see pdwiz: disable=x\n"
	    "#pdwiz disable=x\n",
	    SUPP_HASH);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.nbad, 0);
	suppress_free(&s);
}

/* Used and unused: a match marks the directive that covered it; the rest
 * are listed in the order written, with their places. */
static void
test_unused(void **state)
{
	struct suppress	s;

	(void)state;
	scan(&s,
	    "# pdwiz: disable=a,b\n"		/* 1 */
	    "cmd\n"				/* 2 */
	    "# pdwiz: disable=a\n"		/* 3 */
	    "cmd\n"				/* 4 */
	    "# pdwiz: disable-file=c,c\n",	/* 5 */
	    SUPP_HASH);
	assert_string_equal(unused_ids(&s), "a@1:18 b@1:20 a@3:18 c@5:23 "
	    "c@5:25");
	assert_true(suppress_match(&s, "a", 4));
	assert_true(suppress_match(&s, "c", 1));
	assert_false(suppress_match(&s, "b", 4));
	assert_string_equal(unused_ids(&s), "a@1:18 b@1:20 c@5:25");
	assert_true(suppress_match(&s, "a", 2));
	assert_true(suppress_match(&s, "b", 2));
	assert_string_equal(unused_ids(&s), "c@5:25");
	/* Equal ids share a number; the entry's rule points at its id. */
	assert_int_equal(s.e[0].rid, s.e[2].rid);
	assert_int_not_equal(s.e[0].rid, s.e[1].rid);
	suppress_free(&s);
}

/* Several directives cover one line: the one reaching furthest is
 * marked; the other one really silences nothing. */
static void
test_overlap(void **state)
{
	struct suppress	s;

	(void)state;
	scan(&s,
	    "# pdwiz: disable=a\n"		/* 1 */
	    "cmd \\\n"				/* 2 */
	    "  --x \\\n"			/* 3 */
	    "  --y  # pdwiz: disable=a\n"	/* 4 */
	    "cmd  # pdwiz: disable=a\n",	/* 5 */
	    SUPP_HASH);
	assert_true(suppress_match(&s, "a", 4));
	assert_true(s.e[0].used);
	assert_false(s.e[1].used);
	assert_true(suppress_match(&s, "a", 5));
	assert_true(s.e[2].used);
	assert_string_equal(unused_ids(&s), "a@4:25");
	suppress_free(&s);
}

/* Markdown: the HTML comment form; before a fenced block, the block. */
static void
test_markdown(void **state)
{
	struct suppress	s;

	(void)state;
	scan(&s,
	    "# Launch\n"					/* 1 */
	    "<!-- pdwiz: disable=prose -->\n"			/* 2 */
	    "Run this on node 1.\n"				/* 3 */
	    "\n"						/* 4 */
	    "<!-- pdwiz: disable=blk, two # why -->\n"		/* 5 */
	    "\n"						/* 6 */
	    "```bash\n"						/* 7 */
	    "python -m sglang.launch_server \\\n"		/* 8 */
	    "  --tp 3\n"					/* 9 */
	    "# pdwiz: disable=inner\n"				/* 10 */
	    "echo <!-- pdwiz: disable=literal -->\n"		/* 11 */
	    "```\n"						/* 12 */
	    "after `<!-- pdwiz: disable=span -->` text\n"	/* 13 */
	    "text <!-- pdwiz: disable=inline -->\n"		/* 14 */
	    "# pdwiz: disable=heading\n"			/* 15 */
	    "text\n",						/* 16 */
	    SUPP_MARKDOWN);
	assert_int_equal(s.nbad, 0);
	assert_string_equal(covered(&s, "prose", 16), ".11.............");
	assert_string_equal(covered(&s, "blk", 16), "....11111111....");
	assert_string_equal(covered(&s, "two", 16), "....11111111....");
	assert_string_equal(covered(&s, "inner", 16), ".........11.....");
	assert_string_equal(covered(&s, "literal", 16), "................");
	assert_string_equal(covered(&s, "span", 16), "................");
	assert_string_equal(covered(&s, "inline", 16), ".............1..");
	assert_string_equal(covered(&s, "heading", 16), "................");
	suppress_free(&s);
	/* The disable-file form; a block never closed runs to the end; a
	 * fence closes only with its own character, at least as long. */
	scan(&s,
	    "<!--pdwiz:disable-file=f-->\n"	/* 1 */
	    "<!-- pdwiz: disable=b -->\n"	/* 2 */
	    "~~~~sh\n"				/* 3 */
	    "```\n"				/* 4 */
	    "~~~\n"				/* 5 */
	    "x\n",				/* 6 */
	    SUPP_MARKDOWN);
	assert_int_equal(s.nbad, 0);
	assert_string_equal(covered(&s, "f", 6), "111111");
	assert_string_equal(covered(&s, "b", 7), ".11111.");
	suppress_free(&s);
	/* A directive inside a block waits no longer than the block. */
	scan(&s, "```\n# pdwiz: disable=a\n```\ntext\n", SUPP_MARKDOWN);
	assert_string_equal(covered(&s, "a", 4), ".1..");
	suppress_free(&s);
}

static void
test_markdown_bad(void **state)
{
	struct suppress	s;

	(void)state;
	scan(&s,
	    "<!-- pdwiz: disable=a\n"
	    "-->\n"
	    "x <!-- pdwiz: disable=b c -->\n"
	    "<!-- pdwiz: disabel=d -->\n"
	    "<!-- a comment of another tool -->\n",
	    SUPP_MARKDOWN);
	assert_int_equal(s.n, 0);
	assert_int_equal(s.nbad, 3);
	assert_int_equal(s.bad[0].line, 1);
	assert_int_equal(s.bad[0].col, 22);
	assert_non_null(strstr(s.bad[0].msg, "'-->'"));
	assert_int_equal(s.bad[1].line, 3);
	assert_int_equal(s.bad[1].col, 25);
	assert_non_null(strstr(s.bad[1].msg, "unexpected 'c'"));
	assert_int_equal(s.bad[2].line, 4);
	assert_int_equal(s.bad[2].col, 13);
	assert_non_null(strstr(s.bad[2].msg, "did you mean 'disable'?"));
	suppress_free(&s);
}

/* CR LF line ends; a NUL ends its line's content; a text without a last
 * newline; a second scan replaces the first. */
static void
test_bytes(void **state)
{
	static const char	text[] = "# pdwiz: disable=a\r\ncmd\r\n"
	    "cmd\0 # pdwiz: disable=b\n"
	    "# pdwiz: disable=c\0,d\n"
	    "cmd";
	struct suppress		s;

	(void)state;
	suppress_init(&s);
	assert_false(suppress_match(&s, "a", 1));
	suppress_scan(&s, text, sizeof text - 1, SUPP_HASH);
	assert_int_equal(s.nbad, 0);
	assert_string_equal(covered(&s, "a", 5), "11...");
	assert_string_equal(covered(&s, "b", 5), ".....");
	assert_string_equal(covered(&s, "c", 5), "...11");
	assert_string_equal(covered(&s, "d", 5), ".....");
	suppress_scan(&s, "# pdwiz: disable=z\nx\n", 21, SUPP_HASH);
	assert_int_equal(s.n, 1);
	assert_false(suppress_match(&s, "a", 2));
	assert_true(suppress_match(&s, "z", 2));
	suppress_free(&s);
	scan(&s, "", SUPP_HASH);
	assert_int_equal(s.n, 0);
	assert_false(suppress_match(&s, "a", 1));
	suppress_free(&s);
}

static size_t
log2_ceil(size_t n)
{
	size_t	b = 0;

	while (((size_t)1 << b) < n)
		b++;
	return b;
}

/*
 * 100,000 lines: 25,000 commands each after a directive for one of 7
 * rules, with commands between. Every line is matched against every rule;
 * the entries a match looks at stay within log2 of a rule's entries (+1)
 * each: no match walks the entries.
 */
static void
test_large(void **state)
{
	static const char *const rules[] = { "r0", "r1", "r2", "r3", "r4",
	    "r5", "r6" };
	struct buf	 b = { 0 };
	struct suppress	 s;
	size_t		 i, r, matches = 0, per;
	int		 line;

	(void)state;
	for (i = 0; i < 25000; i++)
		buf_printf(&b, "# pdwiz: disable=%s\ncmd %zu\ncmd\n\n",
		    rules[i % 7], i);
	suppress_init(&s);
	suppress_scan(&s, b.s, b.len, SUPP_HASH);
	assert_int_equal(s.n, 25000);
	assert_int_equal(s.nbad, 0);
	for (line = 1; line <= 100000; line++)
		for (r = 0; r < 7; r++) {
			bool	want = (size_t)((line - 1) / 4) % 7 == r &&
			    (line - 1) % 4 < 2;

			if (suppress_match(&s, rules[r], line) != want)
				fail_msg("%s at line %d", rules[r], line);
			matches++;
		}
	per = log2_ceil(25000 / 7 + 1) + 1;
	assert_true(s.work <= matches * per);
	assert_null(suppress_next_unused(&s, &(size_t){ 0 }));
	suppress_free(&s);
	buf_free(&b);

	/* 200,000 directive lines before one command: each waits once, and
	 * all of them cover that command. */
	for (i = 0; i < 200000; i++)
		buf_puts(&b, "#pdwiz: disable=a\n");
	buf_puts(&b, "cmd\ncmd\n");
	suppress_init(&s);
	suppress_scan(&s, b.s, b.len, SUPP_HASH);
	assert_int_equal(s.n, 200000);
	assert_int_equal(s.e[0].to, 200001);
	assert_int_equal(s.e[199999].to, 200001);
	assert_true(suppress_match(&s, "a", 200001));
	assert_false(suppress_match(&s, "a", 200002));
	assert_true(s.work <= 2 * (log2_ceil(200000) + 1));
	suppress_free(&s);
	buf_free(&b);
}

/* What a text can make the scan keep is bounded: past SUPP_MAX_PROBLEMS
 * problems one more says the rest are not listed; past SUPP_MAX_ENTRIES
 * ids one problem says the rest are not read. */
static void
test_limits(void **state)
{
	struct buf	 b = { 0 };
	struct suppress	 s;
	size_t		 i, k;

	(void)state;
	for (i = 0; i < 3 * SUPP_MAX_PROBLEMS; i++)
		buf_puts(&b, "# pdwiz: disabel=a\n");
	suppress_init(&s);
	suppress_scan(&s, b.s, b.len, SUPP_HASH);
	assert_int_equal(s.nbad, SUPP_MAX_PROBLEMS + 1);
	assert_int_equal(s.bad[SUPP_MAX_PROBLEMS].line, SUPP_MAX_PROBLEMS + 1);
	assert_non_null(strstr(s.bad[SUPP_MAX_PROBLEMS].msg,
	    "the rest are not reported"));
	suppress_free(&s);
	buf_free(&b);

	/* Lines of 1,000 ids, one line more than the limit holds. */
	for (i = 0; i <= SUPP_MAX_ENTRIES / 1000; i++) {
		buf_puts(&b, "# pdwiz: disable-file=r0");
		for (k = 1; k < 1000; k++)
			buf_printf(&b, ",r%zu", k);
		buf_putc(&b, '\n');
	}
	buf_puts(&b, "# pdwiz: disable=late\ncmd\n");
	suppress_init(&s);
	suppress_scan(&s, b.s, b.len, SUPP_HASH);
	assert_int_equal(s.n, SUPP_MAX_ENTRIES);
	assert_int_equal(s.nbad, 1);
	assert_int_equal(s.bad[0].line, SUPP_MAX_ENTRIES / 1000 + 1);
	assert_int_equal(s.bad[0].col, 23);
	assert_non_null(strstr(s.bad[0].msg, "the rest are not read"));
	assert_true(suppress_match(&s, "r999", 5));
	assert_false(suppress_match(&s, "late", SUPP_MAX_ENTRIES / 1000 + 3));
	suppress_free(&s);
	buf_free(&b);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_lines),
		cmocka_unit_test(test_stack),
		cmocka_unit_test(test_continued),
		cmocka_unit_test(test_file),
		cmocka_unit_test(test_spacing),
		cmocka_unit_test(test_yaml),
		cmocka_unit_test(test_malformed),
		cmocka_unit_test(test_prose),
		cmocka_unit_test(test_unused),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_markdown),
		cmocka_unit_test(test_markdown_bad),
		cmocka_unit_test(test_bytes),
		cmocka_unit_test(test_large),
		cmocka_unit_test(test_limits),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
