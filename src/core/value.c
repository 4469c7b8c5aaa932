/* value.c - Python-like values. */
#define _POSIX_C_SOURCE 200809L
#include "value.h"
#include "catalog.h"
#include "util.h"

#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

struct value
val_bool(bool b)
{
	return (struct value){ .t = V_BOOL, .u.b = b };
}

struct value
val_int(long long i)
{
	return (struct value){ .t = V_INT, .u.i = i };
}

struct value
val_float(double f)
{
	return (struct value){ .t = V_FLOAT, .u.f = f };
}

struct value
val_str(const char *s)
{
	return (struct value){ .t = V_STR, .u.s = intern(s) };
}

bool
val_truthy(struct value v)
{
	switch (v.t) {
	case V_BOOL:
		return v.u.b;
	case V_INT:
		return v.u.i != 0;
	case V_FLOAT:
		return v.u.f != 0.0;
	case V_STR:
	case V_LIST:
		return v.u.s[0] != '\0';
	default:
		return false;
	}
}

static bool
is_num(struct value v)
{
	return v.t == V_INT || v.t == V_FLOAT || v.t == V_BOOL;
}

static double
num(struct value v)
{
	if (v.t == V_FLOAT)
		return v.u.f;
	if (v.t == V_BOOL)
		return v.u.b;
	return (double)v.u.i;
}

bool
val_equal(struct value a, struct value b)
{
	if (a.t == V_UNKNOWN || b.t == V_UNKNOWN)
		return false;
	if (is_num(a) && is_num(b)) {
		if (a.t != V_FLOAT && b.t != V_FLOAT)
			return (a.t == V_BOOL ? a.u.b : a.u.i) ==
			    (b.t == V_BOOL ? b.u.b : b.u.i);
		return num(a) == num(b);
	}
	if (a.t != b.t)
		return false;
	if (a.t == V_NULL)
		return true;
	return a.u.s == b.u.s;
}

/*
 * Python's repr of a float: the fewest digits that read back as the same
 * double, positional from 1e-4 up to 1e16 (9000.0, 0.00125) and with an
 * exponent outside that (1e+16, 1e-05); always with a dot or an exponent.
 */
static void
float_py(struct buf *b, double f)
{
	char	s[64];
	int	prec, exp;

	if (isnan(f)) {
		buf_puts(b, "nan");
		return;
	}
	if (isinf(f)) {
		buf_puts(b, f < 0 ? "-inf" : "inf");
		return;
	}
	for (prec = 1; prec <= 17; prec++) {
		snprintf(s, sizeof s, "%.*e", prec - 1, f);
		if (strtod(s, NULL) == f)
			break;
	}
	exp = atoi(strchr(s, 'e') + 1);
	if (f != 0 && (exp < -4 || exp >= 16)) {
		buf_puts(b, s);
		return;
	}
	snprintf(s, sizeof s, "%.*f", prec - 1 - exp > 0 ? prec - 1 - exp : 0,
	    f);
	if (strchr(s, '.') == NULL)
		strcat(s, ".0");
	buf_puts(b, s);
}

void
val_str_py(struct buf *b, struct value v)
{
	switch (v.t) {
	case V_UNKNOWN:
		buf_puts(b, "<unknown>");
		break;
	case V_NULL:
		buf_puts(b, "None");
		break;
	case V_BOOL:
		buf_puts(b, v.u.b ? "True" : "False");
		break;
	case V_INT:
		buf_printf(b, "%lld", v.u.i);
		break;
	case V_FLOAT:
		float_py(b, v.u.f);
		break;
	case V_STR:
		buf_puts(b, v.u.s);
		break;
	case V_LIST: {
		const char	*p = v.u.s;

		buf_putc(b, '[');
		while (*p != '\0') {
			const char	*e = strchr(p, '\x1f');
			size_t		 n = e ? (size_t)(e - p) : strlen(p);

			buf_putc(b, '\'');
			buf_add(b, p, n);
			buf_putc(b, '\'');
			p += n;
			if (*p == '\x1f') {
				buf_puts(b, ", ");
				p++;
			}
		}
		buf_putc(b, ']');
		break;
	}
	}
}

void
val_repr_py(struct buf *b, struct value v)
{
	const char	*p;
	char		 q;

	if (v.t != V_STR) {
		val_str_py(b, v);
		return;
	}
	/* Python prefers single quotes unless the string has ' and no ". */
	q = (strchr(v.u.s, '\'') && !strchr(v.u.s, '"')) ? '"' : '\'';
	buf_putc(b, q);
	for (p = v.u.s; *p != '\0'; p++) {
		unsigned char	c = (unsigned char)*p;

		if (c == '\\')
			buf_puts(b, "\\\\");
		else if (c == (unsigned char)q)
			buf_printf(b, "\\%c", q);
		else if (c == '\n')
			buf_puts(b, "\\n");
		else if (c == '\t')
			buf_puts(b, "\\t");
		else if (c == '\r')
			buf_puts(b, "\\r");
		else if (c < 0x20 || c == 0x7f)
			buf_printf(b, "\\x%02x", c);
		else
			buf_putc(b, (char)c);
	}
	buf_putc(b, q);
}

void
val_cli(struct buf *b, struct value v)
{
	switch (v.t) {
	case V_BOOL:
		buf_puts(b, v.u.b ? "true" : "false");
		break;
	case V_NULL:
		buf_puts(b, "null");
		break;
	default:
		val_str_py(b, v);
		break;
	}
}

static int
parse_int(const char *s, long long *out)
{
	char		*end;
	long long	 i;

	while (*s == ' ' || *s == '\t')
		s++;
	if (*s == '\0')
		return -1;
	errno = 0;
	i = strtoll(s, &end, 10);
	if (errno != 0)
		return -1;
	while (*end == ' ' || *end == '\t')
		end++;
	if (*end != '\0')
		return -1;
	*out = i;
	return 0;
}

int
val_parse(enum otype t, const char *s, struct value *out)
{
	switch (t) {
	case T_BOOL:
	case T_BOOLOPT:
		if (strcasecmp(s, "true") == 0 || strcmp(s, "1") == 0 ||
		    strcasecmp(s, "yes") == 0 || strcasecmp(s, "on") == 0) {
			*out = val_bool(true);
			return 0;
		}
		if (strcasecmp(s, "false") == 0 || strcmp(s, "0") == 0 ||
		    strcasecmp(s, "no") == 0 || strcasecmp(s, "off") == 0 ||
		    *s == '\0') {
			*out = val_bool(false);
			return 0;
		}
		return -1;
	case T_INT: {
		long long	i;

		if (parse_int(s, &i) != 0)
			return -1;
		*out = val_int(i);
		return 0;
	}
	case T_FLOAT: {
		char	*end;
		double	 f;

		while (*s == ' ' || *s == '\t')
			s++;
		if (*s == '\0')
			return -1;
		errno = 0;
		f = strtod(s, &end);
		if (errno != 0 || *end != '\0')
			return -1;
		*out = val_float(f);
		return 0;
	}
	case T_STR:
		*out = val_str(s);
		return 0;
	case T_LIST:
		*out = (struct value){ .t = V_LIST, .u.s = intern(s) };
		return 0;
	}
	return -1;
}
