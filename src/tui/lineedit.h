/*
 * lineedit.h - the wizard's one-line editor, without curses: a UTF-8 text
 * with a cursor (a byte offset on a character boundary). A pre-filled text
 * starts selected: the first character typed replaces it, Backspace or
 * Delete clears it, a movement key keeps it and ends the selection.
 */
#ifndef PDWIZ_TUI_LINEEDIT_H
#define PDWIZ_TUI_LINEEDIT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

struct lineedit {
	struct buf	 b;		/* the text (b.s NULL when empty) */
	size_t		 cur;		/* cursor, a byte offset into b.s */
	bool		 selected;	/* the whole text is selected */
};

/* Editing keys, as the caller maps its terminal's keys onto them. */
enum le_key {
	LE_LEFT = -100,
	LE_RIGHT,
	LE_HOME,		/* also Ctrl-A */
	LE_END,			/* also Ctrl-E */
	LE_BACKSPACE,
	LE_DELETE,
	LE_KILL_START,		/* Ctrl-U: delete from the start to the cursor */
	LE_KILL_WORD		/* Ctrl-W: delete the word before the cursor */
};

/* Start editing init (may be NULL), selected when not empty. */
void		 le_init(struct lineedit *, const char *init);
void		 le_free(struct lineedit *);
/* Apply one key: an le_key, or a byte of typed text (>= 32, not 127). */
void		 le_key(struct lineedit *, int key);
/* Type a whole string, byte by byte. */
void		 le_type(struct lineedit *, const char *s);
/* The text ("" when empty). */
const char	*le_text(const struct lineedit *);
/* Characters (UTF-8 code points) before the cursor. */
size_t		 le_cursor_chars(const struct lineedit *);

#endif
