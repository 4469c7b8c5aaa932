/*
 * ascii.c - the ASCII fallbacks of the wizard's symbols. The table is the
 * one place a symbol's plain form is chosen.
 */
#include "tui/ascii.h"

#include <stddef.h>
#include <stdint.h>

#include "core/util.h"

static const struct {
	uint32_t	 cp;
	const char	*ascii;
} syms[] = {
	{ 0x00A0, " " },	/* no-break space */
	{ 0x00B7, "." },	/* middle dot: a free GPU */
	{ 0x00D7, "x" },	/* multiplication sign */
	{ 0x2013, "-" },	/* en dash */
	{ 0x2014, "--" },	/* em dash */
	{ 0x2018, "'" },
	{ 0x2019, "'" },
	{ 0x201C, "\"" },
	{ 0x201D, "\"" },
	{ 0x2022, "*" },	/* bullet */
	{ 0x2026, "..." },	/* ellipsis */
	{ 0x2190, "<-" },
	{ 0x2191, "^" },
	{ 0x2192, "->" },
	{ 0x2193, "v" },
	{ 0x2194, "<->" },
	{ 0x21D2, "=>" },
	{ 0x2260, "!=" },
	{ 0x2264, "<=" },
	{ 0x2265, ">=" },
	{ 0x2500, "-" },	/* box drawing */
	{ 0x2502, "|" },
	{ 0x250C, "+" },
	{ 0x2510, "+" },
	{ 0x2514, "+" },
	{ 0x2518, "+" },
	{ 0x251C, "+" },
	{ 0x2524, "+" },
	{ 0x252C, "+" },
	{ 0x2534, "+" },
	{ 0x253C, "+" },
	{ 0x2550, "=" },
	{ 0x2551, "|" },
	{ 0x2588, "#" },	/* full block */
	{ 0x25B2, "^" },
	{ 0x25B6, ">" },
	{ 0x25BC, "v" },
	{ 0x25C0, "<" },
	{ 0x25CF, "*" },	/* black circle */
	{ 0x25CB, "o" },	/* white circle */
	{ 0x2713, "ok" },	/* check mark */
	{ 0x2714, "ok" },
	{ 0x2717, "X" },	/* ballot x: unavailable, a collision */
	{ 0x2718, "X" },
	{ 0x26A0, "!" },	/* warning sign */
};

/* Decode one UTF-8 character at s; bytes used, 0 when broken. */
static size_t
decode(const unsigned char *s, uint32_t *cp)
{
	size_t	n, i;

	if (s[0] < 0x80) {
		*cp = s[0];
		return 1;
	}
	if ((s[0] & 0xE0) == 0xC0) {
		n = 2;
		*cp = s[0] & 0x1F;
	} else if ((s[0] & 0xF0) == 0xE0) {
		n = 3;
		*cp = s[0] & 0x0F;
	} else if ((s[0] & 0xF8) == 0xF0) {
		n = 4;
		*cp = s[0] & 0x07;
	} else
		return 0;
	for (i = 1; i < n; i++) {
		if ((s[i] & 0xC0) != 0x80)
			return 0;
		*cp = *cp << 6 | (s[i] & 0x3F);
	}
	return n;
}

char *
tui_ascii(const char *utf8)
{
	const unsigned char	*p = (const unsigned char *)utf8;
	struct buf		 b = { 0 };
	uint32_t		 cp;
	size_t			 n, i;

	while (*p != '\0') {
		if (*p < 0x80) {
			buf_putc(&b, (char)*p++);
			continue;
		}
		if ((n = decode(p, &cp)) == 0) {
			buf_putc(&b, '?');
			p++;
			continue;
		}
		p += n;
		for (i = 0; i < sizeof syms / sizeof syms[0]; i++)
			if (syms[i].cp == cp)
				break;
		buf_puts(&b, i < sizeof syms / sizeof syms[0] ?
		    syms[i].ascii : "?");
	}
	if (b.s == NULL)
		buf_puts(&b, "");
	return buf_steal(&b);
}
