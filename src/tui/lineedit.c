/*
 * lineedit.c - a one-line editor over UTF-8 text: the cursor moves, and
 * text is deleted, by whole characters (a continuation byte never starts
 * or ends an edit).
 */
#include "tui/lineedit.h"

#include <string.h>

static bool
is_cont(unsigned char c)
{
	return (c & 0xC0) == 0x80;
}

void
le_init(struct lineedit *le, const char *init)
{
	memset(le, 0, sizeof *le);
	if (init != NULL && init[0] != '\0') {
		buf_puts(&le->b, init);
		le->cur = le->b.len;
		le->selected = true;
	}
}

void
le_free(struct lineedit *le)
{
	buf_free(&le->b);
	memset(le, 0, sizeof *le);
}

const char *
le_text(const struct lineedit *le)
{
	return le->b.s != NULL ? le->b.s : "";
}

size_t
le_cursor_chars(const struct lineedit *le)
{
	size_t	i, n = 0;

	for (i = 0; i < le->cur; i++)
		if (!is_cont((unsigned char)le->b.s[i]))
			n++;
	return n;
}

/* The start of the character before offset at. */
static size_t
prev_char(const struct lineedit *le, size_t at)
{
	if (at == 0)
		return 0;
	at--;
	while (at > 0 && is_cont((unsigned char)le->b.s[at]))
		at--;
	return at;
}

/* The start of the character after the one at offset at. */
static size_t
next_char(const struct lineedit *le, size_t at)
{
	if (at >= le->b.len)
		return le->b.len;
	at++;
	while (at < le->b.len && is_cont((unsigned char)le->b.s[at]))
		at++;
	return at;
}

/* Delete bytes [from, to) and leave the cursor at from. */
static void
cut(struct lineedit *le, size_t from, size_t to)
{
	if (to <= from)
		return;
	memmove(le->b.s + from, le->b.s + to, le->b.len - to + 1);
	le->b.len -= to - from;
	le->cur = from;
}

static void
clear(struct lineedit *le)
{
	cut(le, 0, le->b.len);
}

static void
insert(struct lineedit *le, char c)
{
	size_t	tail = le->b.len - le->cur;

	buf_putc(&le->b, c);
	memmove(le->b.s + le->cur + 1, le->b.s + le->cur, tail);
	le->b.s[le->cur] = c;
	le->cur++;
}

static bool
is_space(char c)
{
	return c == ' ' || c == '\t';
}

/* Ctrl-W: spaces before the cursor, then the word before them. */
static void
kill_word(struct lineedit *le)
{
	size_t	at = le->cur;

	while (at > 0 && is_space(le->b.s[at - 1]))
		at--;
	while (at > 0 && !is_space(le->b.s[at - 1]))
		at--;
	cut(le, at, le->cur);
}

void
le_key(struct lineedit *le, int key)
{
	bool	was = le->selected;

	le->selected = false;
	switch (key) {
	case LE_LEFT:
		le->cur = prev_char(le, le->cur);
		return;
	case LE_RIGHT:
		le->cur = next_char(le, le->cur);
		return;
	case LE_HOME:
		le->cur = 0;
		return;
	case LE_END:
		le->cur = le->b.len;
		return;
	case LE_BACKSPACE:
		if (was)
			clear(le);
		else
			cut(le, prev_char(le, le->cur), le->cur);
		return;
	case LE_DELETE:
		if (was)
			clear(le);
		else
			cut(le, le->cur, next_char(le, le->cur));
		return;
	case LE_KILL_START:
		cut(le, 0, le->cur);
		return;
	case LE_KILL_WORD:
		kill_word(le);
		return;
	default:
		break;
	}
	if (key < 32 || key == 127 || key > 255)
		return;
	if (was)
		clear(le);
	insert(le, (char)key);
}

void
le_type(struct lineedit *le, const char *s)
{
	for (; *s != '\0'; s++)
		le_key(le, (unsigned char)*s);
}
