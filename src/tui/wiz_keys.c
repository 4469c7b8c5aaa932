/*
 * wiz_keys.c - the wizard's key bindings and actions (see wiz_keys.h), the
 * footer built from them for any width, and the key help.
 */
#include "tui/wiz_keys.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/util.h"
#include "tui/lineedit.h"

/* Keys with a NULL name are aliases the key help does not list. */
const struct wiz_key wiz_keys[] = {
	{ KEY_UP,	"↑",		WZ_UP },
	{ 'k',		"k",		WZ_UP },
	{ KEY_DOWN,	"↓",		WZ_DOWN },
	{ 'j',		"j",		WZ_DOWN },
	{ KEY_HOME,	"Home",		WZ_TOP },
	{ 'g',		"g",		WZ_TOP },
	{ KEY_END,	"End",		WZ_BOTTOM },
	{ 'G',		"G",		WZ_BOTTOM },
	{ '\n',		"Enter",	WZ_ENTER },
	{ '\r',		NULL,		WZ_ENTER },
	{ KEY_ENTER,	NULL,		WZ_ENTER },
	{ ' ',		"Space",	WZ_ENTER },
	{ KEY_DC,	"Delete",	WZ_CLEAR },
	{ KEY_BACKSPACE, "Backspace",	WZ_CLEAR },
	{ 127,		NULL,		WZ_CLEAR },
	{ 8,		NULL,		WZ_CLEAR },
	{ '\t',		"Tab",		WZ_NEXT_PAGE },
	{ KEY_NPAGE,	"PgDn",		WZ_NEXT_PAGE },
	{ KEY_BTAB,	"Shift-Tab",	WZ_PREV_PAGE },
	{ KEY_PPAGE,	"PgUp",		WZ_PREV_PAGE },
	{ '/',		"/",		WZ_SEARCH },
	{ '?',		"?",		WZ_HELP },
	{ 'h',		"h",		WZ_HELP },
	{ 'f',		"f",		WZ_FIX },
	{ 'u',		"u",		WZ_UNDO },
	{ 18,		"Ctrl-R",	WZ_REDO },
	{ 'P',		"P",		WZ_PIN },
	{ 'v',		"v",		WZ_PLACEMENT },
	{ 'p',		"p",		WZ_PREVIEW },
	{ 's',		"s",		WZ_SAVE },
	{ 'e',		"e",		WZ_EXPORT },
	{ 'q',		"q",		WZ_QUIT },
	{ KEY_F(10),	"F10",		WZ_QUIT },
	{ 27,		"Esc Esc",	WZ_ESC },
	{ 'r',		"r",		WZ_REVIEW },
	{ 'a',		"a",		WZ_ALL },
	{ '1',		"1-9",		WZ_GOTO_PAGE },
	{ '2',		NULL,		WZ_GOTO_PAGE },
	{ '3',		NULL,		WZ_GOTO_PAGE },
	{ '4',		NULL,		WZ_GOTO_PAGE },
	{ '5',		NULL,		WZ_GOTO_PAGE },
	{ '6',		NULL,		WZ_GOTO_PAGE },
	{ '7',		NULL,		WZ_GOTO_PAGE },
	{ '8',		NULL,		WZ_GOTO_PAGE },
	{ '9',		NULL,		WZ_GOTO_PAGE },
	{ 12,		"Ctrl-L",	WZ_REDRAW },
	{ KEY_F(1),	"F1",		WZ_KEYS },
	{ KEY_RESIZE,	NULL,		WZ_RESIZE },
};
const size_t wiz_nkeys = sizeof wiz_keys / sizeof wiz_keys[0];

/* In footer order. */
const struct wiz_action_info wiz_actions[NWZ] = {
	{ WZ_UP, "↑↓", "move", 1, "move up", WG_MOVE },
	{ WZ_DOWN, NULL, NULL, 0, "move down", WG_MOVE },
	{ WZ_TOP, NULL, NULL, 0, "first field", WG_MOVE },
	{ WZ_BOTTOM, NULL, NULL, 0, "last field", WG_MOVE },
	{ WZ_ENTER, "Enter", "edit", 2, "toggle, choose or edit; on the "
	    "review page, go to the field a problem is about", WG_CHANGE },
	{ WZ_NEXT_PAGE, "Tab", "page", 3, "next page", WG_MOVE },
	{ WZ_PREV_PAGE, NULL, NULL, 0, "previous page", WG_MOVE },
	{ WZ_SEARCH, "/", "search", 5, "search every option across pages, "
	    "incrementally; Enter jumps", WG_MOVE },
	{ WZ_HELP, "?", "help", 4, "help: the focused field, why a value is "
	    "unavailable and the fix; on the review page the problem's full "
	    "text; a message cut short in full", WG_LOOK },
	{ WZ_FIX, "f", "fix", 10, "apply the fix for the focused problem",
	    WG_CHANGE },
	{ WZ_UNDO, "u", "undo", 11, "undo", WG_CHANGE },
	{ WZ_REDO, "^R", "redo", 12, "redo", WG_CHANGE },
	{ WZ_PREVIEW, "p", "preview", 6, "preview: the launch script, "
	    "runbook, --config YAML and Kubernetes manifests, full screen",
	    WG_LOOK },
	{ WZ_SAVE, "s", "save", 8, "save the deployment file (asks before "
	    "overwriting)", WG_FILES },
	{ WZ_EXPORT, "e", "export", 7, "export a shell script, runbook, "
	    "per-role config YAML or Kubernetes manifests", WG_FILES },
	{ WZ_QUIT, "q", "quit", 9, "quit; asks to save when something "
	    "changed", WG_FILES },
	{ WZ_ESC, NULL, NULL, 0, "quit, as q", WG_FILES },
	{ WZ_REDRAW, NULL, NULL, 0, "redraw the screen", WG_LOOK },
	{ WZ_RESIZE, NULL, NULL, 0, NULL, WG_LOOK },
	{ WZ_CLEAR, NULL, NULL, 0, "clear the field: back to its default or "
	    "derived value", WG_CHANGE },
	{ WZ_PIN, "P", "pin", 1, "pin: write every derived GPU, port and host "
	    "as set values", WG_CHANGE },
	{ WZ_PLACEMENT, NULL, NULL, 0, "the whole placement picture: who owns "
	    "each GPU, ports", WG_LOOK },
	{ WZ_KEYS, NULL, NULL, 0, "this list of every key", WG_LOOK },
	{ WZ_REVIEW, NULL, NULL, 0, "go to the review page (every problem); "
	    "again: back to the page you came from", WG_MOVE },
	{ WZ_GOTO_PAGE, NULL, NULL, 0, "go to page 1-9, as the page line "
	    "numbers them", WG_MOVE },
	{ WZ_ALL, NULL, NULL, 0, "every flag and env var no page shows; "
	    "again: back", WG_MOVE },
};

static const char *const group_names[NWG] = {
	"Moving around", "Changing values", "Looking", "Files and quitting",
};

const struct wiz_view_key wiz_view_keys[] = {
	{ KEY_UP,	"↑",		WV_UP,		"scroll up a line" },
	{ 'k',		"k",		WV_UP,		NULL },
	{ KEY_DOWN,	"↓",		WV_DOWN,	"scroll down a line" },
	{ 'j',		"j",		WV_DOWN,	NULL },
	{ KEY_PPAGE,	"PgUp",		WV_PGUP,	"scroll up a screen" },
	{ KEY_NPAGE,	"PgDn",		WV_PGDN,	"scroll down a screen" },
	{ ' ',		"Space",	WV_PGDN,	NULL },
	{ KEY_HOME,	"Home",		WV_HOME,	"to the top" },
	{ 'g',		"g",		WV_HOME,	NULL },
	{ KEY_END,	"End",		WV_END,		"to the end" },
	{ 'G',		"G",		WV_END,		NULL },
	{ '\t',		"Tab",		WV_NEXT_VIEW,	"preview: the next view" },
	{ '1',		"1",		WV_VIEW1,	"preview: the launch script" },
	{ '2',		"2",		WV_VIEW2,	"preview: the runbook" },
	{ '3',		"3",		WV_VIEW3,	"preview: the --config YAML" },
	{ '4',		"4",		WV_VIEW4,	"preview: the Kubernetes "
	    "manifests" },
	{ '/',		"/",		WV_FIND,	"find text (case ignored)" },
	{ 'n',		"n",		WV_FIND_NEXT,	"the next match" },
	{ 'q',		"q",		WV_CLOSE,	"close" },
	{ 27,		"Esc",		WV_CLOSE,	NULL },
	{ KEY_F(1),	NULL,		WV_CLOSE,	NULL },
};
const size_t wiz_nview_keys = sizeof wiz_view_keys / sizeof wiz_view_keys[0];

const struct wiz_edit_key wiz_edit_keys[] = {
	{ KEY_LEFT,	"←",		LE_LEFT,	"cursor left" },
	{ KEY_RIGHT,	"→",		LE_RIGHT,	"cursor right" },
	{ KEY_HOME,	"Home",		LE_HOME,	"start of the line" },
	{ 1,		"Ctrl-A",	LE_HOME,	NULL },
	{ KEY_END,	"End",		LE_END,		"end of the line" },
	{ 5,		"Ctrl-E",	LE_END,		NULL },
	{ KEY_DC,	"Delete",	LE_DELETE,	"delete under the cursor" },
	{ 4,		"Ctrl-D",	LE_DELETE,	NULL },
	{ KEY_BACKSPACE, "Backspace",	LE_BACKSPACE,	"delete before the "
	    "cursor" },
	{ 127,		NULL,		LE_BACKSPACE,	NULL },
	{ 8,		NULL,		LE_BACKSPACE,	NULL },
	{ 21,		"Ctrl-U",	LE_KILL_START,	"delete to the start" },
	{ 23,		"Ctrl-W",	LE_KILL_WORD,	"delete the word before "
	    "the cursor" },
};
const size_t wiz_nedit_keys = sizeof wiz_edit_keys / sizeof wiz_edit_keys[0];

int
wiz_view_key_action(int code)
{
	size_t	i;

	for (i = 0; i < wiz_nview_keys; i++)
		if (wiz_view_keys[i].code == code)
			return (int)wiz_view_keys[i].act;
	return -1;
}

int
wiz_edit_key(int code)
{
	size_t	i;

	for (i = 0; i < wiz_nedit_keys; i++)
		if (wiz_edit_keys[i].code == code)
			return wiz_edit_keys[i].le;
	return -1;
}

int
wiz_key_action(int code)
{
	size_t	i;

	for (i = 0; i < wiz_nkeys; i++)
		if (wiz_keys[i].code == code)
			return (int)wiz_keys[i].act;
	return -1;
}

/* The columns of the character at p (at most len bytes), its length in
 * *k. */
static size_t
char_cols(const char *p, size_t len, size_t *k)
{
	mbstate_t	st;
	wchar_t		wc;
	size_t		n;
	int		cw;

	for (n = 1; n < len && ((unsigned char)p[n] & 0xc0) == 0x80; n++)
		;
	*k = n;
	if (MB_CUR_MAX == 1 || (unsigned char)p[0] < 0x80)
		return 1;
	memset(&st, 0, sizeof st);
	if (mbrtowc(&wc, p, n, &st) != n)
		return 1;
	/* As wiz_put draws it: what wcwidth does not know takes one. */
	cw = wcwidth(wc);
	return cw < 0 ? 1 : (size_t)cw;
}

size_t
wiz_cols(const char *s, size_t n)
{
	size_t	i = 0, cols = 0, k;

	while (i < n && s[i] != '\0') {
		cols += char_cols(s + i, n - i, &k);
		i += k;
	}
	return cols;
}

size_t
wiz_text_cols(const char *s)
{
	return wiz_cols(s, strlen(s));
}

size_t
wiz_bytes_for_cols(const char *p, size_t len, size_t cols)
{
	size_t	i = 0, used = 0, k, cw;

	while (i < len && p[i] != '\0') {
		cw = char_cols(p + i, len - i, &k);
		if (used + cw > cols)
			break;
		used += cw;
		i += k;
	}
	return i;
}

/* The footer with labels of keep <= drop left out, items sep apart. */
static char *
footer_at(int drop, const char *sep)
{
	struct buf	b = { 0 };
	size_t		i;

	for (i = 0; i < NWZ; i++) {
		const struct wiz_action_info	*a = &wiz_actions[i];

		if (a->foot_keys == NULL)
			continue;
		buf_puts(&b, b.s == NULL ? " " : sep);
		buf_puts(&b, a->foot_keys);
		if (a->foot_label != NULL && a->keep > drop)
			buf_printf(&b, " %s", a->foot_label);
	}
	return b.s != NULL ? buf_steal(&b) : xstrdup("");
}

char *
wiz_footer(int width)
{
	char	*f = footer_at(0, "  ");
	int	 drop, most = 0;
	size_t	 i;

	if (width >= 0 && wiz_text_cols(f) <= (size_t)width)
		return f;
	for (i = 0; i < NWZ; i++)
		if (wiz_actions[i].keep > most)
			most = wiz_actions[i].keep;
	for (drop = 0; drop <= most; drop++) {
		free(f);
		f = footer_at(drop, " ");
		if (width >= 0 && wiz_text_cols(f) <= (size_t)width)
			break;
	}
	return f;
}

/* One line of the key list: the keys, padded, then what they do. */
static void
key_line(struct buf *b, const char *keys, const char *help)
{
	size_t	cols;

	buf_printf(b, "  %s", keys);
	for (cols = wiz_text_cols(keys); cols < 18; cols++)
		buf_putc(b, ' ');
	buf_printf(b, " %s\n", help);
}

/* The names of the keys of one action of a table, ", " apart. */
#define KEY_NAMES(tab, n, field, want, out) do {			\
	size_t	k_;							\
	for (k_ = 0; k_ < (n); k_++) {					\
		if ((tab)[k_].field != (want) || (tab)[k_].name == NULL)	\
			continue;					\
		if ((out)->s != NULL)					\
			buf_puts((out), ", ");				\
		buf_puts((out), (tab)[k_].name);			\
	}								\
} while (0)

static void
main_keys(struct buf *b)
{
	size_t	g, i;

	for (g = 0; g < NWG; g++) {
		buf_printf(b, "%s%s:\n", g > 0 ? "\n" : "", group_names[g]);
		for (i = 0; i < NWZ; i++) {
			struct buf	keys = { 0 };

			if (wiz_actions[i].help == NULL ||
			    wiz_actions[i].group != (enum wiz_group)g)
				continue;
			KEY_NAMES(wiz_keys, wiz_nkeys, act, wiz_actions[i].act,
			    &keys);
			if (keys.s != NULL)
				key_line(b, keys.s, wiz_actions[i].help);
			buf_free(&keys);
		}
	}
}

char *
wiz_key_help(void)
{
	struct buf	b = { 0 };
	size_t		i;
	int		a;

	buf_puts(&b, "Keys (F1 anywhere shows this list)\n\n");
	main_keys(&b);
	buf_puts(&b, "\nIn the preview, help and text panes:\n");
	for (a = 0; a < NWV; a++)
		for (i = 0; i < wiz_nview_keys; i++) {
			struct buf	keys = { 0 };

			if (wiz_view_keys[i].act != (enum wiz_view_action)a ||
			    wiz_view_keys[i].help == NULL)
				continue;
			KEY_NAMES(wiz_view_keys, wiz_nview_keys, act,
			    (enum wiz_view_action)a, &keys);
			key_line(&b, keys.s, wiz_view_keys[i].help);
			buf_free(&keys);
			break;
		}
	buf_puts(&b, "\nWhen typing a value (Enter takes it, Esc cancels; a "
	    "pre-filled value is replaced by what you type):\n");
	for (i = 0; i < wiz_nedit_keys; i++) {
		struct buf	keys = { 0 };

		if (wiz_edit_keys[i].help == NULL)
			continue;
		KEY_NAMES(wiz_edit_keys, wiz_nedit_keys, le,
		    wiz_edit_keys[i].le, &keys);
		key_line(&b, keys.s, wiz_edit_keys[i].help);
		buf_free(&keys);
	}
	return buf_steal(&b);
}
