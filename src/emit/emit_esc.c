/*
 * emit_esc.c - the escaping discipline of the emitters, one writer per
 * output language: YAML scalars, one-line text (YAML and shell comments,
 * Markdown), Markdown inline code, shell words on one line, and canonical
 * numbers.
 */
#define _POSIX_C_SOURCE 200809L
#include "emit/emit_int.h"
#include "core/util.h"
#include "core/value.h"
#include "io/shell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * The length of a line-breaking or control sequence at p (0: none): a C0
 * byte, DEL, or the UTF-8 of a C1 control (U+0080..U+009F, NEL among
 * them), LS (U+2028) or PS (U+2029).
 */
static size_t
ctl_len(const unsigned char *p)
{
	if (*p < 0x20 || *p == 0x7f)
		return 1;
	if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f)
		return 2;
	if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 || p[2] == 0xa9))
		return 3;
	return 0;
}

void
yaml_str(struct buf *b, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;

	buf_putc(b, '"');
	for (; *p != '\0'; p++) {
		switch (*p) {
		case '"':
			buf_puts(b, "\\\"");
			continue;
		case '\\':
			buf_puts(b, "\\\\");
			continue;
		case '\t':
			buf_puts(b, "\\t");
			continue;
		case '\n':
			buf_puts(b, "\\n");
			continue;
		case '\r':
			buf_puts(b, "\\r");
			continue;
		default:
			break;
		}
		if (*p < 0x20 || *p == 0x7f)
			buf_printf(b, "\\x%02x", *p);
		else if (p[0] == 0xc2 && p[1] >= 0x80 && p[1] <= 0x9f) {
			buf_printf(b, "\\x%02x", p[1]);
			p++;
		} else if (p[0] == 0xe2 && p[1] == 0x80 && (p[2] == 0xa8 ||
		    p[2] == 0xa9)) {
			buf_printf(b, "\\u%04x", p[2] == 0xa8 ? 0x2028 : 0x2029);
			p += 2;
		} else if (*p == 0xef && p[1] == 0xbb && p[2] == 0xbf) {
			buf_puts(b, "\\ufeff");
			p += 2;
		} else
			buf_putc(b, (char)*p);
	}
	buf_putc(b, '"');
}

void
one_line(struct buf *b, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	size_t			 n;

	for (; *p != '\0'; p++) {
		if ((n = ctl_len(p)) > 0) {
			buf_putc(b, ' ');
			p += n - 1;
		} else
			buf_putc(b, (char)*p);
	}
}

void
md_code(struct buf *b, const char *s, bool cell)
{
	struct buf	 t = { 0 };
	size_t		 run = 0, most = 0, i;
	const char	*x;

	one_line(&t, s);
	x = t.s != NULL ? t.s : "";
	for (i = 0; x[i] != '\0'; i++) {
		run = x[i] == '`' ? run + 1 : 0;
		if (run > most)
			most = run;
	}
	for (i = 0; i <= most; i++)
		buf_putc(b, '`');
	if (most > 0 || x[0] == ' ' || x[0] == '\0')
		buf_putc(b, ' ');
	for (i = 0; x[i] != '\0'; i++) {
		if (cell && x[i] == '|')
			buf_putc(b, '\\');
		buf_putc(b, x[i]);
	}
	if (most > 0 || (i > 0 && x[i - 1] == ' ') || x[0] == '\0')
		buf_putc(b, ' ');
	for (i = 0; i <= most; i++)
		buf_putc(b, '`');
	buf_free(&t);
}

/*
 * Is s a decimal numeral every YAML loader reads as the number it says
 * (-?(0|[1-9][0-9]*)(\.[0-9]+)?): no leading zero (YAML 1.1 octal), no
 * underscore, sign, exponent or radix prefix?
 */
static bool
plain_decimal(const char *s)
{
	const char	*p = s + (*s == '-');
	size_t		 n = strspn(p, "0123456789");

	if (n == 0 || (p[0] == '0' && n > 1))
		return false;
	p += n;
	if (*p == '.') {
		n = strspn(p + 1, "0123456789");
		if (n == 0)
			return false;
		p += 1 + n;
	}
	return *p == '\0';
}

/* A number in its written form when that is a plain decimal numeral
 * (9000 stays 9000, 300.0 stays 300.0), else canonically. */
void
yaml_number(struct buf *b, enum otype t, const char *s)
{
	struct value	v;

	if (val_parse(t, s, &v) != 0)
		yaml_str(b, s);
	else if ((v.t == V_INT || v.t == V_FLOAT) && plain_decimal(s))
		buf_puts(b, s);
	else if (v.t == V_INT)
		buf_printf(b, "%lld", v.u.i);
	else if (v.t == V_FLOAT)
		val_repr_py(b, v);
	else
		yaml_str(b, s);
}

void
sh_word_line(struct buf *b, const char *s)
{
	const unsigned char	*p = (const unsigned char *)s;
	char			*q;
	bool			 ctl = false;

	for (; *p != '\0'; p++)
		if (ctl_len(p) > 0)
			ctl = true;
	if (!ctl) {
		q = sh_quote(s);
		buf_puts(b, q);
		free(q);
		return;
	}
	buf_puts(b, "$'");
	for (p = (const unsigned char *)s; *p != '\0'; p++) {
		size_t	n = ctl_len(p), i;

		if (*p == '\\' || *p == '\'')
			buf_printf(b, "\\%c", *p);
		else if (*p == '\n')
			buf_puts(b, "\\n");
		else if (n > 0) {
			for (i = 0; i < n; i++)
				buf_printf(b, "\\x%02x", p[i]);
			p += n - 1;
		} else
			buf_putc(b, (char)*p);
	}
	buf_putc(b, '\'');
}

bool
env_name(const char *s)
{
	const char	*p;

	for (p = s; *p == '_' || (*p >= 'a' && *p <= 'z') ||
	    (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9'); p++)
		;
	return *p == '\0' && p != s;
}
