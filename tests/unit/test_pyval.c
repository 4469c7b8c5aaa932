/*
 * test_pyval.c - values as SGLang's Python reads them, table-driven from
 * tests/unit/pyval.tsv (written by pyval-gen.py with the real PyYAML and
 * CPython): YAML 1.1 scalars as PyYAML's safe loader resolves them, the
 * words SGLang's --config merger makes of them, CPython's int() / float().
 */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "core/config.h"
#include "core/engine.h"
#include "io/argv.h"
#include "io/pyval.h"

static struct catalog	*cat;

/* Undo the table's escapes (\t \n \\ \xHH \uHHHH) in place. */
static void
unescape(char *s)
{
	char		*q = s;
	unsigned	 cp;

	while (*s != '\0') {
		if (*s != '\\') {
			*q++ = *s++;
			continue;
		}
		s++;
		if (*s == 't' || *s == 'n') {
			*q++ = *s == 't' ? '\t' : '\n';
			s++;
		} else if (*s == 'x' || *s == 'u') {
			int	w = *s == 'x' ? 2 : 4;

			sscanf(s + 1, w == 2 ? "%2x" : "%4x", &cp);
			s += 1 + w;
			if (cp < 0x80)
				*q++ = (char)cp;
			else if (cp < 0x800) {
				*q++ = (char)(0xC0 | cp >> 6);
				*q++ = (char)(0x80 | (cp & 0x3F));
			} else {
				*q++ = (char)(0xE0 | cp >> 12);
				*q++ = (char)(0x80 | ((cp >> 6) & 0x3F));
				*q++ = (char)(0x80 | (cp & 0x3F));
			}
		} else
			*q++ = *s++;
	}
	*q = '\0';
}

static const char *
kind_name(enum y11_kind k)
{
	static const char *const	names[] = { "str", "NoneType", "bool",
	    "int", "float", "date", "datetime", "error" };

	return names[k];
}

/* One YAML row: the resolver, then the words of "host: <s>". */
static int
yaml_row(const char *in, const char *typ, const char *want)
{
	struct y11	 y;
	struct argword	*w = NULL;
	struct result	 r = { 0 };
	size_t		 n = 0;
	char		*doc = xasprintf("host: %s\n", in);
	int		 bad = 0, rc;

	y11_resolve(in, false, &y);
	if (strcmp(kind_name(y.kind), typ) != 0 || (y.kind != Y11_ERROR &&
	    y.kind != Y11_UNKNOWN && strcmp(y.text, want) != 0)) {
		print_message("yaml '%s': got %s '%s', Python has %s '%s'\n",
		    in, kind_name(y.kind), y.text, typ, want);
		bad = 1;
	}
	free(y.text);
	/* the merger: --host, then str(value) (bools: lowercase) */
	rc = sgconfig_read_text(cat, "c.yaml", doc, strlen(doc), &w, &n, &r);
	if (strcmp(typ, "error") == 0) {
		if (rc == 0 || r.nerrors == 0) {
			print_message("config '%s': loads, Python raises\n", in);
			bad = 1;
		}
	} else if (rc != 0 || n != 2 || strcmp(w[0].text, "--host") != 0 ||
	    w[1].unresolved != (strcmp(typ, "datetime") == 0) ||
	    (!w[1].unresolved && strcmp(w[1].text, strcmp(typ, "bool") == 0 ?
	    (want[0] == 'T' ? "true" : "false") : want) != 0)) {
		print_message("config '%s': got %zu words '%s', want '%s'\n",
		    in, n, n > 1 ? w[1].text : "", want);
		bad = 1;
	}
	argwords_free(w, n);
	result_free(&r);
	free(doc);
	return bad;
}

static int
int_row(const char *in, const char *typ, const char *want)
{
	long long	v = 0;
	int		rc = py_int(in, &v);
	char		got[32];

	snprintf(got, sizeof got, "%lld", v);
	if (strcmp(typ, "error") == 0 ? rc == -1 : rc == 1 ||
	    (rc == 0 && strcmp(got, want) == 0))
		return 0;
	print_message("int('%s'): got rc %d %s, Python has %s %s\n", in, rc,
	    got, typ, want);
	return 1;
}

static int
float_row(const char *in, const char *typ, const char *want)
{
	double	v = 0;
	int	rc = py_float(in, &v);
	char	got[40];

	py_float_str(v, got, sizeof got);
	if (strcmp(typ, "error") == 0 ? rc == -1 : rc == 0 &&
	    strcmp(got, want) == 0)
		return 0;
	print_message("float('%s'): got rc %d %s, Python has %s %s\n", in,
	    rc, got, typ, want);
	return 1;
}

static void
test_table(void **state)
{
	const char	*dir = getenv("PDWIZ_DATADIR");
	char		*path, line[512];
	FILE		*f;
	int		 rows = 0, bad = 0;

	(void)state;
	path = xasprintf("%s/tests/unit/pyval.tsv", dir ? dir : ".");
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f) != NULL) {
		char	*what, *in, *typ, *want, *save = NULL;

		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		what = line;
		in = strchr(what, '\t');
		assert_non_null(in);
		*in++ = '\0';
		typ = strchr(in, '\t');
		assert_non_null(typ);
		*typ++ = '\0';
		want = strchr(typ, '\t');
		assert_non_null(want);
		*want++ = '\0';
		(void)save;
		unescape(in);
		unescape(want);
		rows++;
		if (strcmp(what, "yaml") == 0)
			bad += yaml_row(in, typ, want);
		else if (strcmp(what, "int") == 0)
			bad += int_row(in, typ, want);
		else
			bad += float_row(in, typ, want);
	}
	fclose(f);
	free(path);
	print_message("%d rows, %d differ from Python\n", rows, bad);
	assert_true(rows > 200);
	assert_int_equal(bad, 0);
}

/* One argparse row: the words after "--model-path m", then dest's value
 * or the error. */
static int
argv_row(char *line)
{
	struct argword	 w[8];
	struct config	 cfg;
	struct result	 r;
	char		*dest = line, *want, *tok, *next;
	char		 got[256];
	size_t		 n = 0, i;
	int		 o, bad;

	want = strchr(dest, '\t');
	*want++ = '\0';
	tok = strchr(want, '\t');
	*tok++ = '\0';
	memset(w, 0, sizeof w);
	w[n++].text = "--model-path";
	w[n++].text = "m";
	for (; tok != NULL && n < 8; tok = next) {
		if ((next = strchr(tok, '\t')) != NULL)
			*next++ = '\0';
		unescape(tok);
		w[n++].text = tok;
	}
	for (i = 0; i < n; i++) {
		w[i].line = 1;
		w[i].col = (int)i + 1;
		w[i].src = SRC_CLI;
	}
	config_init(&cfg, cat);
	result_init(&r);
	argv_parse(cat, w, n, &cfg, &r, NULL);
	got[0] = '\0';
	for (i = 0; i < r.n; i++)
		if (r.d[i].sev == SEV_ERROR) {
			snprintf(got, sizeof got, "err %s", r.d[i].id);
			break;
		}
	o = catalog_find(cat, dest);
	assert_true(o >= 0);
	if (got[0] == '\0') {
		struct value	v = cfg.s[o].v;

		if (v.t == V_INT)
			snprintf(got, sizeof got, "int %lld", v.u.i);
		else if (v.t == V_FLOAT) {
			strcpy(got, "float ");
			py_float_str(v.u.f, got + 6, sizeof got - 6);
		} else if (v.t == V_STR)
			snprintf(got, sizeof got, "str %s", v.u.s);
		else
			snprintf(got, sizeof got, "type %d", (int)v.t);
	}
	unescape(want);
	bad = strcmp(got, want) != 0;
	if (bad)
		print_message("argv '%s' ...: got '%s', want '%s'\n", w[2].text,
		    got, want);
	result_free(&r);
	config_free(&cfg);
	return bad;
}

static void
test_argv_table(void **state)
{
	const char	*dir = getenv("PDWIZ_DATADIR");
	char		*path, line[512];
	FILE		*f;
	int		 rows = 0, bad = 0;

	(void)state;
	path = xasprintf("%s/tests/unit/argv.tsv", dir ? dir : ".");
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof line, f) != NULL) {
		line[strcspn(line, "\n")] = '\0';
		if (line[0] == '#' || line[0] == '\0')
			continue;
		rows++;
		bad += argv_row(line);
	}
	fclose(f);
	free(path);
	print_message("%d argv rows, %d differ\n", rows, bad);
	assert_true(rows > 30);
	assert_int_equal(bad, 0);
}

/* repr() of floats that are not in the table's spellings. */
static void
test_float_repr(void **state)
{
	static const struct { double x; const char *s; } t[] = {
		{ 0.0, "0.0" }, { 1e22, "1e+22" }, { 1.5e300, "1.5e+300" },
		{ 123456.789, "123456.789" }, { 1e-7, "1e-07" },
		{ 0.3, "0.3" }, { 2.0 / 3.0, "0.6666666666666666" },
		{ 9007199254740993.0, "9007199254740992.0" },
		{ 1e16, "1e+16" }, { 9999999999999998.0, "9999999999999998.0" },
	};
	char	buf[40];
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof t / sizeof t[0]; i++) {
		py_float_str(t[i].x, buf, sizeof buf);
		assert_string_equal(buf, t[i].s);
	}
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_table),
		cmocka_unit_test(test_float_repr),
		cmocka_unit_test(test_argv_table),
	};
	int			rc;

	cat = test_catalog();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	catalog_free(cat);
	return rc;
}
