/* json.c - JSON string escaping with UTF-8 validation. */
#include "io/json.h"

#include <string.h>

/* Length of a valid UTF-8 sequence at s, or 0. */
static size_t
utf8_len(const unsigned char *s)
{
	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf && (s[1] & 0xc0) == 0x80)
		return 2;
	if (s[0] >= 0xe0 && s[0] <= 0xef && (s[1] & 0xc0) == 0x80 &&
	    (s[2] & 0xc0) == 0x80) {
		if (s[0] == 0xe0 && s[1] < 0xa0)
			return 0;
		if (s[0] == 0xed && s[1] >= 0xa0)
			return 0;
		return 3;
	}
	if (s[0] >= 0xf0 && s[0] <= 0xf4 && (s[1] & 0xc0) == 0x80 &&
	    (s[2] & 0xc0) == 0x80 && (s[3] & 0xc0) == 0x80) {
		if (s[0] == 0xf0 && s[1] < 0x90)
			return 0;
		if (s[0] == 0xf4 && s[1] >= 0x90)
			return 0;
		return 4;
	}
	return 0;
}

void
json_str(struct buf *b, const char *s)
{
	const unsigned char	*p = (const unsigned char *)(s ? s : "");

	buf_putc(b, '"');
	while (*p != '\0') {
		size_t	n;

		switch (*p) {
		case '"':
			buf_puts(b, "\\\"");
			p++;
			continue;
		case '\\':
			buf_puts(b, "\\\\");
			p++;
			continue;
		case '\n':
			buf_puts(b, "\\n");
			p++;
			continue;
		case '\t':
			buf_puts(b, "\\t");
			p++;
			continue;
		case '\r':
			buf_puts(b, "\\r");
			p++;
			continue;
		default:
			break;
		}
		if (*p < 0x20 || *p == 0x7f) {
			buf_printf(b, "\\u%04x", *p);
			p++;
			continue;
		}
		n = utf8_len(p);
		if (n == 0) {
			buf_puts(b, "\\ufffd");
			p++;
			continue;
		}
		buf_add(b, (const char *)p, n);
		p += n;
	}
	buf_putc(b, '"');
}

void
json_value(struct buf *b, struct value v)
{
	struct buf	t = { 0 };

	switch (v.t) {
	case V_NULL:
	case V_UNKNOWN:
		buf_puts(b, "null");
		return;
	case V_BOOL:
		buf_puts(b, v.u.b ? "true" : "false");
		return;
	case V_INT:
	case V_FLOAT:
		val_str_py(&t, v);
		if (strcmp(t.s, "nan") == 0 || strstr(t.s, "inf") != NULL)
			json_str(b, t.s);
		else
			buf_puts(b, t.s);
		buf_free(&t);
		return;
	default:
		val_str_py(&t, v);
		json_str(b, t.s);
		buf_free(&t);
		return;
	}
}
