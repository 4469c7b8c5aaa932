/*
 * pyval.c - PyYAML's YAML 1.1 scalar resolution and CPython's int() and
 * float(), for the values SGLang's argument parser ends up with.
 *
 * Sources: PyYAML lib/yaml/resolver.py (Resolver's implicit resolvers:
 * bool, float, int, null, timestamp, value, tried in that order) and
 * lib/yaml/constructor.py (SafeConstructor.construct_yaml_int, _float,
 * _bool, _timestamp); CPython Objects/longobject.c (PyLong_FromString),
 * Objects/floatobject.c (PyFloat_FromString), Python/pystrtod.c and
 * Objects/unicodeobject.c (_PyUnicode_TransformDecimalAndSpaceToASCII).
 */
#define _POSIX_C_SOURCE 200809L
#include "io/pyval.h"
#include "core/util.h"

#include <limits.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Python refuses int <-> str conversions of more digits (3.11+). */
#define PY_MAX_STR_DIGITS	4300

/* The first code point of every run of ten Unicode decimal digits (Nd). */
static const uint32_t nd_zero[] = {
	0x30, 0x660, 0x6F0, 0x7C0, 0x966, 0x9E6, 0xA66, 0xAE6, 0xB66, 0xBE6,
	0xC66, 0xCE6, 0xD66, 0xDE6, 0xE50, 0xED0, 0xF20, 0x1040, 0x1090,
	0x17E0, 0x1810, 0x1946, 0x19D0, 0x1A80, 0x1A90, 0x1B50, 0x1BB0,
	0x1C40, 0x1C50, 0xA620, 0xA8D0, 0xA900, 0xA9D0, 0xA9F0, 0xAA50,
	0xABF0, 0xFF10, 0x104A0, 0x10D30, 0x11066, 0x110F0, 0x11136, 0x111D0,
	0x112F0, 0x11450, 0x114D0, 0x11650, 0x116C0, 0x11730, 0x118E0,
	0x11950, 0x11C50, 0x11D50, 0x11DA0, 0x16A60, 0x16AC0, 0x16B50,
	0x1D7CE, 0x1D7D8, 0x1D7E2, 0x1D7EC, 0x1D7F6, 0x1E140, 0x1E2F0,
	0x1E950, 0x1FBF0,
};

/* str.isspace() code points. */
static const uint32_t py_spaces[] = {
	0x9, 0xA, 0xB, 0xC, 0xD, 0x1C, 0x1D, 0x1E, 0x1F, 0x20, 0x85, 0xA0,
	0x1680, 0x2000, 0x2001, 0x2002, 0x2003, 0x2004, 0x2005, 0x2006, 0x2007,
	0x2008, 0x2009, 0x200A, 0x2028, 0x2029, 0x202F, 0x205F, 0x3000,
};

/* One UTF-8 code point at s (NUL-terminated); -1 if malformed. */
static long
utf8_cp(const char *s, size_t *len)
{
	const unsigned char	*u = (const unsigned char *)s;
	size_t			 n, i;
	long			 cp;

	if (u[0] < 0x80) {
		*len = 1;
		return u[0];
	}
	if ((u[0] & 0xE0) == 0xC0) {
		n = 2;
		cp = u[0] & 0x1F;
	} else if ((u[0] & 0xF0) == 0xE0) {
		n = 3;
		cp = u[0] & 0x0F;
	} else if ((u[0] & 0xF8) == 0xF0) {
		n = 4;
		cp = u[0] & 0x07;
	} else
		return -1;
	for (i = 1; i < n; i++) {
		if ((u[i] & 0xC0) != 0x80)
			return -1;
		cp = (cp << 6) | (u[i] & 0x3F);
	}
	*len = n;
	return cp;
}

static int
cp_digit(long cp)
{
	size_t	lo = 0, hi = sizeof nd_zero / sizeof nd_zero[0];

	while (lo < hi) {	/* last zero <= cp */
		size_t	mid = (lo + hi) / 2;

		if (nd_zero[mid] <= (uint32_t)cp)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == 0 || (uint32_t)cp - nd_zero[lo - 1] >= 10)
		return -1;
	return (int)((uint32_t)cp - nd_zero[lo - 1]);
}

int
py_digit(const char *s, size_t *len)
{
	long	cp = utf8_cp(s, len);

	return cp < 0 ? -1 : cp_digit(cp);
}

static bool
cp_space(long cp)
{
	size_t	i;

	for (i = 0; i < sizeof py_spaces / sizeof py_spaces[0]; i++)
		if (py_spaces[i] == (uint32_t)cp)
			return true;
	return false;
}

/*
 * What CPython parses after _PyUnicode_TransformDecimalAndSpaceToASCII:
 * spaces become ' ', decimal digits '0'-'9', other non-ASCII '?', with the
 * surrounding spaces stripped. Owned.
 */
static char *
to_ascii(const char *s)
{
	struct buf	 b = { 0 };
	size_t		 len, start, end;
	char		*r;

	buf_puts(&b, "");
	while (*s != '\0') {
		long	cp = utf8_cp(s, &len);
		int	d;

		if (cp < 0) {
			buf_putc(&b, '?');
			s++;
			continue;
		}
		if (cp_space(cp))
			buf_putc(&b, ' ');
		else if ((d = cp_digit(cp)) >= 0)
			buf_putc(&b, (char)('0' + d));
		else
			buf_putc(&b, cp < 0x80 ? (char)cp : '?');
		s += len;
	}
	r = buf_steal(&b);
	for (start = 0; r[start] == ' '; start++)
		;
	end = strlen(r);
	while (end > start && r[end - 1] == ' ')
		end--;
	memmove(r, r + start, end - start);
	r[end - start] = '\0';
	return r;
}

int
py_int(const char *s, long long *out)
{
	char		*a = to_ascii(s), *p = a;
	bool		 neg = false, over = false;
	unsigned long long	 v = 0, lim;
	size_t		 ndig = 0;
	int		 rc = -1;

	if (*p == '+' || *p == '-')
		neg = *p++ == '-';
	lim = neg ? (unsigned long long)LLONG_MAX + 1 : LLONG_MAX;
	if (*p < '0' || *p > '9')
		goto done;
	for (; *p != '\0'; p++) {
		if (*p == '_') {
			if (p[1] < '0' || p[1] > '9')
				goto done;
			continue;
		}
		if (*p < '0' || *p > '9')
			goto done;
		ndig++;
		if (v > (lim - (unsigned)(*p - '0')) / 10)
			over = true;
		else
			v = v * 10 + (unsigned)(*p - '0');
	}
	if (ndig > PY_MAX_STR_DIGITS)
		goto done;
	if (over)
		rc = 1;
	else {
		*out = neg ? (long long)(0 - v) : (long long)v;
		rc = 0;
	}
done:
	free(a);
	return rc;
}

static bool
isdig(char c)
{
	return c >= '0' && c <= '9';
}

/* float()'s grammar after the underscores are gone (pystrtod.c). */
static bool
float_syntax(const char *p)
{
	size_t	n = 0;

	if (*p == '+' || *p == '-')
		p++;
	if (strcasecmp(p, "inf") == 0 || strcasecmp(p, "infinity") == 0 ||
	    strcasecmp(p, "nan") == 0)
		return true;
	while (isdig(*p))
		p++, n++;
	if (*p == '.')
		for (p++; isdig(*p); p++)
			n++;
	if (n == 0)
		return false;
	if (*p == 'e' || *p == 'E') {
		p++;
		if (*p == '+' || *p == '-')
			p++;
		if (!isdig(*p))
			return false;
		while (isdig(*p))
			p++;
	}
	return *p == '\0';
}

int
py_float(const char *s, double *out)
{
	char	*a = to_ascii(s), *d, *q;
	char	 prev = '\0';
	int	 rc = -1;
	const char	*p;

	d = q = xmalloc(strlen(a) + 1);
	/* _Py_string_to_number_with_underscores: '_' only between digits */
	for (p = a; *p != '\0'; prev = *p++) {
		if (*p == '_') {
			if (!isdig(prev))
				goto done;
		} else {
			if (prev == '_' && !isdig(*p))
				goto done;
			*q++ = *p;
		}
	}
	*q = '\0';
	if (prev == '_' || !float_syntax(d))
		goto done;
	*out = strtod(d, NULL);
	rc = 0;
done:
	free(d);
	free(a);
	return rc;
}

void
py_float_str(double x, char *buf, size_t len)
{
	char	 e[40], digits[24];
	int	 p, exp10, decpt, nd = 0;
	char	*s;
	struct buf	b = { 0 };

	if (isnan(x)) {
		snprintf(buf, len, "nan");
		return;
	}
	if (isinf(x)) {
		snprintf(buf, len, "%sinf", x < 0 ? "-" : "");
		return;
	}
	/* the shortest digits that read back as x, as repr() picks them */
	for (p = 1; p <= 17; p++) {
		snprintf(e, sizeof e, "%.*e", p - 1, x);
		if (strtod(e, NULL) == x)
			break;
	}
	for (s = e + (e[0] == '-'); *s != 'e'; s++)
		if (isdig(*s))
			digits[nd++] = *s;
	exp10 = atoi(s + 1);
	while (nd > 1 && digits[nd - 1] == '0')
		nd--;
	digits[nd] = '\0';
	decpt = exp10 + 1;
	if (signbit(x))
		buf_putc(&b, '-');
	if (decpt <= -4 || decpt > 16) {
		buf_putc(&b, digits[0]);
		if (nd > 1)
			buf_printf(&b, ".%s", digits + 1);
		buf_printf(&b, "e%c%02d", exp10 < 0 ? '-' : '+', abs(exp10));
	} else if (decpt <= 0)
		buf_printf(&b, "0.%.*s%s", -decpt, "0000", digits);
	else if (decpt >= nd)
		buf_printf(&b, "%s%.*s.0", digits, decpt - nd,
		    "0000000000000000");
	else
		buf_printf(&b, "%.*s.%s", decpt, digits, digits + decpt);
	snprintf(buf, len, "%s", b.s);
	buf_free(&b);
}

/* ---- YAML 1.1 scalars as PyYAML's SafeLoader resolves them ---- */

/* (?::[0-5]?[0-9])+ at *p, consumed; false if there is none. */
static bool
m_sexa(const char **p)
{
	const char	*s = *p;
	int		 groups = 0;

	while (s[0] == ':' && isdig(s[1])) {
		if (s[1] <= '5' && isdig(s[2]))
			s += 3;
		else
			s += 2;
		groups++;
	}
	*p = s;
	return groups > 0;
}

static const char *
skip_sign(const char *s)
{
	return *s == '+' || *s == '-' ? s + 1 : s;
}

static const char *
skip_set(const char *s, const char *set)
{
	while (*s != '\0' && strchr(set, *s) != NULL)
		s++;
	return s;
}

/* (?:[eE][-+][0-9]+)? then the end */
static bool
m_exp_end(const char *s)
{
	if (*s == 'e' || *s == 'E') {
		if (s[1] != '+' && s[1] != '-')
			return false;
		s += 2;
		if (!isdig(*s))
			return false;
		s = skip_set(s, "0123456789");
	}
	return *s == '\0';
}

static bool
y11_is_float(const char *s)
{
	const char	*p = skip_sign(s);

	if (s[0] == '.' && isdig(s[1]))		/* \.[0-9][0-9_]*exp */
		return m_exp_end(skip_set(s + 1, "0123456789_"));
	if (strcmp(s, ".nan") == 0 || strcmp(s, ".NaN") == 0 ||
	    strcmp(s, ".NAN") == 0)
		return true;
	if (strcmp(p, ".inf") == 0 || strcmp(p, ".Inf") == 0 ||
	    strcmp(p, ".INF") == 0)
		return true;
	if (!isdig(*p))
		return false;
	p = skip_set(p, "0123456789_");
	if (*p == '.')				/* [0-9][0-9_]*\.[0-9_]*exp */
		return m_exp_end(skip_set(p + 1, "0123456789_"));
	if (!m_sexa(&p) || *p != '.')		/* sexagesimal \.[0-9_]* */
		return false;
	return *skip_set(p + 1, "0123456789_") == '\0';
}

static bool
y11_is_int(const char *s)
{
	const char	*p = skip_sign(s);

	if (p[0] == '0' && p[1] == 'b')
		return p[2] != '\0' && *skip_set(p + 2, "01_") == '\0';
	if (p[0] == '0' && p[1] == 'x')
		return p[2] != '\0' &&
		    *skip_set(p + 2, "0123456789abcdefABCDEF_") == '\0';
	if (p[0] == '0')
		return *skip_set(p + 1, "01234567_") == '\0';
	if (*p < '1' || *p > '9')
		return false;
	p = skip_set(p, "0123456789_");
	if (*p == '\0')
		return true;
	return m_sexa(&p) && *p == '\0';
}

/* the two timestamp forms: 1 date only, 2 date and time, 0 neither */
static int
y11_timestamp(const char *s)
{
	const char	*p = s;
	int		 i;

	for (i = 0; i < 10; i++)
		if (i == 4 || i == 7 ? s[i] != '-' : !isdig(s[i]))
			break;
	if (i == 10 && s[10] == '\0')
		return 1;
	for (i = 0; i < 4; i++)
		if (!isdig(*p++))
			return 0;
	if (*p++ != '-' || !isdig(*p++))
		return 0;
	/* [0-9][0-9]?-[0-9][0-9]?(?:[Tt]|[ \t]+)[0-9][0-9]?:..:..  */
	p += isdig(*p);
	if (*p++ != '-' || !isdig(*p++))
		return 0;
	p += isdig(*p);
	if (*p == 'T' || *p == 't')
		p++;
	else if (*p == ' ' || *p == '\t')
		p = skip_set(p, " \t");
	else
		return 0;
	if (!isdig(*p++))
		return 0;
	p += isdig(*p);
	for (i = 0; i < 2; i++)
		if (*p++ != ':' || !isdig(*p++) || !isdig(*p++))
			return 0;
	if (*p == '.')
		p = skip_set(p + 1, "0123456789");
	p = skip_set(p, " \t");
	if (*p == 'Z')
		p++;
	else if (*p == '+' || *p == '-') {
		if (!isdig(*++p))
			return 0;
		p += 1 + isdig(p[1]);
		if (*p == ':') {
			if (!isdig(p[1]) || !isdig(p[2]))
				return 0;
			p += 3;
		}
	}
	return *p == '\0' ? 2 : 0;
}

/* An integer in base-10^9 limbs, least significant first. */
#define BIG_LIMBS	((PY_MAX_STR_DIGITS + 8) / 9 + 1)
struct big {
	uint32_t	l[BIG_LIMBS];
	size_t		n;
	bool		over;
};

static void
big_muladd(struct big *b, unsigned mul, unsigned add)
{
	uint64_t	carry = add;
	size_t		i;

	for (i = 0; i < b->n; i++) {
		uint64_t	t = (uint64_t)b->l[i] * mul + carry;

		b->l[i] = (uint32_t)(t % 1000000000u);
		carry = t / 1000000000u;
	}
	while (carry != 0) {
		if (b->n == BIG_LIMBS) {
			b->over = true;
			return;
		}
		b->l[b->n++] = (uint32_t)(carry % 1000000000u);
		carry /= 1000000000u;
	}
}

static unsigned
xdigit(char c)
{
	return isdig(c) ? (unsigned)(c - '0') : (unsigned)((c | 0x20) - 'a' + 10);
}

/* str(sign * big); Y11_UNKNOWN past Python's 4300 digits. */
static void
big_str(const struct big *b, bool neg, struct y11 *out)
{
	struct buf	r = { 0 };
	size_t		i;

	if (b->over) {
		out->kind = Y11_UNKNOWN;
		out->text = xasprintf("an integer of more than %d digits",
		    PY_MAX_STR_DIGITS);
		return;
	}
	if (b->n == 0) {
		out->text = xstrdup("0");
		return;
	}
	buf_printf(&r, "%s%u", neg ? "-" : "", b->l[b->n - 1]);
	for (i = b->n - 1; i-- > 0;)
		buf_printf(&r, "%09u", b->l[i]);
	if (r.len - neg > PY_MAX_STR_DIGITS) {
		buf_free(&r);
		out->kind = Y11_UNKNOWN;
		out->text = xasprintf("an integer of more than %d digits",
		    PY_MAX_STR_DIGITS);
		return;
	}
	out->text = buf_steal(&r);
}

/* SafeConstructor.construct_yaml_int on v (underscores removed). */
static void
y11_int(char *v, struct y11 *out)
{
	struct big	 b = { .n = 0 };
	bool		 neg = v[0] == '-';
	unsigned	 base = 10;
	char		*p = v + (v[0] == '-' || v[0] == '+');

	out->kind = Y11_INT;
	if (p[0] == '0' && (p[1] == 'b' || p[1] == 'x')) {
		base = p[1] == 'b' ? 2 : 16;
		p += 2;
		if (*p == '\0') {
			out->kind = Y11_ERROR;
			out->text = xasprintf("invalid literal for int() with "
			    "base %u: ''", base);
			return;
		}
	} else if (p[0] == '0')
		base = 8;
	for (; *p != '\0'; p++) {
		if (*p == ':') {	/* sexagesimal: each part in base 60 */
			unsigned	part = (unsigned)atoi(p + 1);

			big_muladd(&b, 60, part);
			p += 1 + (isdig(p[2]) ? 1 : 0);
			continue;
		}
		big_muladd(&b, base, xdigit(*p));
	}
	big_str(&b, neg && b.n > 0, out);
}

/* SafeConstructor.construct_yaml_float on v (underscores removed). */
static void
y11_float(char *v, struct y11 *out)
{
	char	 buf[40], *p, *colon;
	double	 sign = v[0] == '-' ? -1.0 : 1.0, x = 0.0, base = 1.0;

	p = v + (v[0] == '-' || v[0] == '+');
	out->kind = Y11_FLOAT;
	if (strcasecmp(p, ".inf") == 0)
		x = sign * INFINITY;
	else if (strcasecmp(p, ".nan") == 0)
		x = NAN;
	else if ((colon = strrchr(p, ':')) != NULL) {
		/* digits reversed, value += digit * base; base *= 60 */
		for (;;) {
			x += strtod(colon + 1, NULL) * base;
			base *= 60;
			*colon = '\0';
			if ((colon = strrchr(p, ':')) == NULL)
				break;
		}
		x += strtod(p, NULL) * base;
		x *= sign;
	} else
		x = sign * strtod(p, NULL);
	py_float_str(x, buf, sizeof buf);
	out->text = xstrdup(buf);
}

static int
month_days(int y, int m)
{
	static const int	d[] = { 31, 28, 31, 30, 31, 30, 31, 31, 30, 31,
				    30, 31 };

	if (m == 2 && y % 4 == 0 && (y % 100 != 0 || y % 400 == 0))
		return 29;
	return d[m - 1];
}

static void
y11_date(const char *s, struct y11 *out)
{
	int	y = atoi(s), m = atoi(s + 5), d = atoi(s + 8);

	out->kind = Y11_ERROR;
	if (y < 1)
		out->text = xasprintf("year %d is out of range", y);
	else if (m < 1 || m > 12)
		out->text = xstrdup("month must be in 1..12");
	else if (d < 1 || d > month_days(y, m))
		out->text = xstrdup("day is out of range for month");
	else {
		out->kind = Y11_DATE;
		out->text = xstrdup(s);
	}
}

static char *
strip_underscores(const char *s)
{
	char	*r = xstrdup(s), *q = r;

	for (; *s != '\0'; s++)
		if (*s != '_')
			*q++ = *s;
	*q = '\0';
	return r;
}

void
y11_resolve(const char *s, bool quoted, struct y11 *out)
{
	static const char *const	bools[] = { "yes", "Yes", "YES", "no",
	    "No", "NO", "true", "True", "TRUE", "false", "False", "FALSE",
	    "on", "On", "ON", "off", "Off", "OFF" };
	size_t				i;
	char				*v;

	memset(out, 0, sizeof *out);
	if (quoted) {
		out->text = xstrdup(s);
		return;
	}
	for (i = 0; i < sizeof bools / sizeof bools[0]; i++)
		if (strcmp(s, bools[i]) == 0) {
			out->kind = Y11_BOOL;
			out->b = i < 3 || (i >= 6 && i < 9) || (i >= 12 &&
			    i < 15);
			out->text = xstrdup(out->b ? "True" : "False");
			return;
		}
	if (y11_is_float(s) || y11_is_int(s)) {
		v = strip_underscores(s);
		if (y11_is_float(s))
			y11_float(v, out);
		else
			y11_int(v, out);
		free(v);
		return;
	}
	if (strcmp(s, "<<") == 0 || strcmp(s, "=") == 0) {
		out->kind = Y11_ERROR;
		out->text = xasprintf("could not determine a constructor for "
		    "the tag 'tag:yaml.org,2002:%s'", s[0] == '<' ? "merge" :
		    "value");
		return;
	}
	if (*s == '\0' || strcmp(s, "~") == 0 || strcmp(s, "null") == 0 ||
	    strcmp(s, "Null") == 0 || strcmp(s, "NULL") == 0) {
		out->kind = Y11_NULL;
		out->text = xstrdup("None");
		return;
	}
	switch (y11_timestamp(s)) {
	case 1:
		y11_date(s, out);
		return;
	case 2:
		out->kind = Y11_UNKNOWN;
		out->text = xstrdup("a timestamp, which PyYAML reads as a "
		    "datetime");
		return;
	}
	out->text = xstrdup(s);
}
