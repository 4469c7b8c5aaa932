/* test_expr.c - the rule expression language: parsing, Python semantics,
 * three-valued logic and message templates. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <string.h>

#include "core/config.h"
#include "core/expr.h"

static struct catalog	*cat;

static int
resolve(void *arg, const char *name)
{
	(void)arg;
	return catalog_find(cat, name);
}

/* Evaluate text against cfg; returns Python str() of the result. */
static char *
ev(const struct config *cfg, const char *text)
{
	char			 err[256];
	size_t			 off;
	struct expr		*e = expr_parse(text, resolve, NULL, err,
	    sizeof err, &off);
	const struct config	*cfgs[1] = { cfg };
	struct evalctx		 ec = { cfgs, cat->nopts, NULL, false, -1 };
	struct buf		 b = { 0 };
	struct value		 v;

	if (e == NULL)
		fail_msg("parse '%s': %s at %zu", text, err, off);
	v = expr_eval(e, &ec);
	val_repr_py(&b, v);
	expr_free(e);
	return buf_steal(&b);
}

#define EXPECT(cfg, text, want) do {					\
	char	*got_ = ev(cfg, text);					\
	if (strcmp(got_, want) != 0)					\
		fail_msg("%s => %s, want %s", text, got_, want);	\
	free(got_);							\
} while (0)

static void
test_arith(void **state)
{
	struct config	c = { 0 };

	(void)state;
	config_init(&c, cat);
	EXPECT(&c, "1 + 2 * 3", "7");
	EXPECT(&c, "(1 + 2) * 3", "9");
	EXPECT(&c, "7 // 2", "3");
	EXPECT(&c, "-7 // 2", "-4");		/* floor division */
	EXPECT(&c, "-7 % 3", "2");		/* Python modulo */
	EXPECT(&c, "7 % -3", "-2");
	EXPECT(&c, "7 / 2", "3.5");
	EXPECT(&c, "1 / 0", "None");
	EXPECT(&c, "0.8 * 1", "0.8");
	EXPECT(&c, "16 % 2 == 0", "True");
	EXPECT(&c, "1 == 1.0", "True");
	EXPECT(&c, "'a' + 'b'", "'ab'");
	config_free(&c);
}

static void
test_logic(void **state)
{
	struct config	c = { 0 };

	(void)state;
	config_init(&c, cat);
	EXPECT(&c, "null or 8192", "8192");	/* Python or returns operand */
	EXPECT(&c, "0 or 8192", "8192");
	EXPECT(&c, "4096 or 8192", "4096");
	EXPECT(&c, "1 and 0", "0");
	EXPECT(&c, "not ''", "True");
	EXPECT(&c, "'nixl' in ['mooncake', 'nixl']", "True");
	EXPECT(&c, "'rdma' not in ['mooncake', 'nixl']", "True");
	EXPECT(&c, "'ab' in 'xaby'", "True");
	EXPECT(&c, "null < 1", "False");
	EXPECT(&c, "null == None", "True");
	EXPECT(&c, "lower('EFA') == 'efa'", "True");
	EXPECT(&c, "contains('a,expandable_segments:True', 'expandable_segments:True')",
	    "True");
	EXPECT(&c, "strip('  ') == ''", "True");
	EXPECT(&c, "min(3, 2) + max(3, 2)", "5");
	/* JSON as Python's json.loads reads it */
	EXPECT(&c, "json_get('{\"decode\": {\"backend\": \"foo\"}}', 'decode.backend')",
	    "'foo'");
	EXPECT(&c, "json_get('{\"a\": {\"b\": 1}, \"a\": {\"b\": 2.5}}', 'a.b')",
	    "2.5");
	EXPECT(&c, "json_get('{\"a\": true}', 'a.b')", "None");
	EXPECT(&c, "json_get('{\"a\": true}', 'a')", "True");
	EXPECT(&c, "json_get('{\"a\": [1, 2]}', 'a')", "'[1, 2]'");
	EXPECT(&c, "json_get('{\"a\": 1,}', 'a')", "None");
	EXPECT(&c, "json_str_object('{}')", "True");
	EXPECT(&c, "json_str_object(' {\"k\" : \"v\", \"k2\": \"\"} ')", "True");
	EXPECT(&c, "json_str_object('{\"k\": 4}')", "False");
	EXPECT(&c, "json_str_object('[\"k\"]')", "False");
	EXPECT(&c, "json_str_object('NaN')", "False");
	EXPECT(&c, "json_str_object('{bad')", "None");
	EXPECT(&c, "json_str_object(null)", "None");
	EXPECT(&c, "list_max(3)", "3");
	config_free(&c);
}

static void
test_names_and_unknown(void **state)
{
	struct config	c = { 0 };
	int		arch = catalog_find(cat, "model_arch");
	int		tp = catalog_find(cat, "tp_size");

	(void)state;
	assert_true(arch >= 0 && tp >= 0);
	config_init(&c, cat);
	EXPECT(&c, "tp_size", "1");
	EXPECT(&c, "disaggregation_transfer_backend", "'mooncake'");
	EXPECT(&c, "is_set(tp_size)", "False");
	config_set(&c, tp, val_int(16), SRC_CLI, 3, 1);
	EXPECT(&c, "tp_size // 8", "2");
	EXPECT(&c, "is_set(tp_size)", "True");
	/* facts start unknown: unknown propagates, and/or short-circuit */
	EXPECT(&c, "model_arch == 'X'", "<unknown>");
	EXPECT(&c, "false and model_arch == 'X'", "False");
	EXPECT(&c, "true or model_arch == 'X'", "True");
	EXPECT(&c, "model_arch == 'X' and false", "False");
	EXPECT(&c, "model_arch == 'X' or true", "True");
	EXPECT(&c, "not (model_arch == 'X')", "<unknown>");
	EXPECT(&c, "model_arch in ['A', 'B']", "<unknown>");
	config_set(&c, arch, val_str("A"), SRC_MODEL, 0, 0);
	EXPECT(&c, "model_arch in ['A', 'B']", "True");
	config_free(&c);
}

static void
test_parse_errors(void **state)
{
	static const struct {
		const char	*text;
		size_t		 off;
		const char	*msg;
	} bad[] = {
		{ "tp_size ==", 10, "unexpected end" },
		{ "tp_sizee > 1", 0, "unknown name 'tp_sizee'" },
		{ "tp_size = 1", 8, "expected '==' or '!='" },
		{ "(tp_size > 1", 12, "expected ')'" },
		{ "'abc", 0, "unterminated string" },
		{ "nosuchfn(1)", 0, "unknown function" },
		{ "min(1)", 0, "wrong number of arguments" },
		{ "tp_size not 1", 12, "expected 'in' after 'not'" },
		{ "1 2", 2, "unexpected '2'" },
		{ "tp_size > 1 }", 12, "unexpected '}'" },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		char		 err[256] = "";
		size_t		 off = 999;
		struct expr	*e = expr_parse(bad[i].text, resolve, NULL, err,
		    sizeof err, &off);

		if (e != NULL)
			fail_msg("'%s' parsed", bad[i].text);
		if (strstr(err, bad[i].msg) == NULL)
			fail_msg("'%s': message '%s' lacks '%s'", bad[i].text,
			    err, bad[i].msg);
		if (off != bad[i].off)
			fail_msg("'%s': offset %zu, want %zu", bad[i].text, off,
			    bad[i].off);
	}
}

static void
test_deep_nesting(void **state)
{
	char		 text[4096], err[256];
	size_t		 i, off;
	struct expr	*e;

	(void)state;
	for (i = 0; i < 1000; i++)
		text[i] = '(';
	strcpy(text + 1000, "1");
	e = expr_parse(text, resolve, NULL, err, sizeof err, &off);
	assert_null(e);
	assert_non_null(strstr(err, "nested too deeply"));
}

static void
test_templates(void **state)
{
	struct config	 c = { 0 };
	char		 err[256];
	size_t		 off;
	struct tmpl	*t;
	struct buf	 b = { 0 };
	const struct config *cfgs[1] = { &c };
	struct evalctx	 ec = { cfgs, 0, NULL, false, -1 };

	(void)state;
	ec.nopts = cat->nopts;
	config_init(&c, cat);
	config_set(&c, catalog_find(cat, "disaggregation_transfer_backend"),
	    val_str("nixl"), SRC_CLI, 1, 1);
	t = tmpl_parse("Got {disaggregation_transfer_backend!r}, "
	    "{disaggregation_transfer_backend}, {{braces}}, {tp_size * 2}, "
	    "{dist_init_addr!r}, {mem_fraction_static}.", resolve, NULL, err,
	    sizeof err, &off);
	assert_non_null(t);
	tmpl_render(t, &ec, &b);
	assert_string_equal(b.s, "Got 'nixl', nixl, {braces}, 2, None, None.");
	buf_free(&b);
	tmpl_free(t);
	/* A list of strings renders as Python's str() of it (SGLang's
	 * f"{supported_backends}"); a list of anything else is None. */
	t = tmpl_parse("one of {['triton', disaggregation_transfer_backend]}, "
	    "{[1, 2]}", resolve, NULL, err, sizeof err, &off);
	assert_non_null(t);
	b = (struct buf){ 0 };
	tmpl_render(t, &ec, &b);
	assert_string_equal(b.s, "one of ['triton', 'nixl'], None");
	buf_free(&b);
	tmpl_free(t);
	assert_null(tmpl_parse("a } b", resolve, NULL, err, sizeof err, &off));
	assert_null(tmpl_parse("a {tp_size b", resolve, NULL, err, sizeof err,
	    &off));
	config_free(&c);
}

static void
test_repr(void **state)
{
	struct buf	b = { 0 };

	(void)state;
	val_repr_py(&b, val_str("it's"));
	assert_string_equal(b.s, "\"it's\"");
	buf_free(&b);
	val_repr_py(&b, val_float(2.0));
	assert_string_equal(b.s, "2.0");
	buf_free(&b);
	val_repr_py(&b, val_float(0.1));
	assert_string_equal(b.s, "0.1");
	buf_free(&b);
	val_str_py(&b, val_bool(true));
	assert_string_equal(b.s, "True");
	buf_free(&b);
}

/* Floats print as Python's repr() prints them (what repr() gave for each),
 * so a value written back keeps its form: 9000.0, not 9e+03. */
static void
test_float_repr(void **state)
{
	static const struct {
		double		 v;
		const char	*py;
	} cases[] = {
		{ 9000, "9000.0" }, { 300, "300.0" }, { 0.8, "0.8" },
		{ 0.00125, "0.00125" }, { 1e16, "1e+16" }, { 1.5e20, "1.5e+20" },
		{ 1e-5, "1e-05" }, { 0.0001, "0.0001" },
		{ 123456789012345.0, "123456789012345.0" },
		{ 0.1 + 0.2, "0.30000000000000004" }, { -2.5, "-2.5" },
		{ 0, "0.0" }, { 1e15, "1000000000000000.0" }, { 0.85, "0.85" },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		struct buf	b = { 0 };

		val_str_py(&b, val_float(cases[i].v));
		if (strcmp(b.s, cases[i].py) != 0)
			fail_msg("%.17g printed as %s, Python prints %s",
			    cases[i].v, b.s, cases[i].py);
		buf_free(&b);
	}
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_arith),
		cmocka_unit_test(test_logic),
		cmocka_unit_test(test_names_and_unknown),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_deep_nesting),
		cmocka_unit_test(test_templates),
		cmocka_unit_test(test_float_repr),
		cmocka_unit_test(test_repr),
	};
	int	rc;

	cat = test_catalog();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	catalog_free(cat);
	intern_free_all();
	return rc;
}
