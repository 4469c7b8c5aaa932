/*
 * wiz_keys.c - the wizard's key bindings and actions (see wiz_keys.h), the
 * footer built from them for any width, and the key help.
 */
#include "tui/wiz_keys.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

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
	{ 27,		"Esc Esc",	WZ_ESC },
	{ 12,		"Ctrl-L",	WZ_REDRAW },
	{ KEY_RESIZE,	NULL,		WZ_RESIZE },
};
const size_t wiz_nkeys = sizeof wiz_keys / sizeof wiz_keys[0];

/* In footer order. */
const struct wiz_action_info wiz_actions[NWZ] = {
	{ WZ_UP, "↑↓", "move", 1, "move up" },
	{ WZ_DOWN, NULL, NULL, 0, "move down" },
	{ WZ_TOP, NULL, NULL, 0, "first field" },
	{ WZ_BOTTOM, NULL, NULL, 0, "last field" },
	{ WZ_ENTER, "Enter", "edit", 2, "toggle, choose or edit; on the "
	    "review page, go to the field a problem is about" },
	{ WZ_NEXT_PAGE, "Tab", "page", 3, "next page" },
	{ WZ_PREV_PAGE, NULL, NULL, 0, "previous page" },
	{ WZ_SEARCH, "/", "search", 5, "search every option across pages, "
	    "incrementally; Enter jumps" },
	{ WZ_HELP, "?", "help", 4, "help: the focused field, why a value is "
	    "unavailable and the fix; these keys" },
	{ WZ_FIX, "f", "fix", 10, "apply the fix for the focused problem" },
	{ WZ_UNDO, "u", "undo", 11, "undo" },
	{ WZ_REDO, "^R", "redo", 12, "redo" },
	{ WZ_PREVIEW, "p", "preview", 6, "show or hide the live preview of "
	    "the launch commands" },
	{ WZ_SAVE, "s", "save", 8, "save the deployment file (asks before "
	    "overwriting)" },
	{ WZ_EXPORT, "e", "export", 7, "export a shell script, runbook, "
	    "per-role config YAML or Kubernetes manifests" },
	{ WZ_QUIT, "q", "quit", 9, "quit; asks to save when something "
	    "changed" },
	{ WZ_ESC, NULL, NULL, 0, "quit, as q" },
	{ WZ_REDRAW, NULL, NULL, 0, "redraw the screen" },
	{ WZ_RESIZE, NULL, NULL, 0, NULL },
	{ WZ_CLEAR, NULL, NULL, 0, "clear the field: back to its default or "
	    "derived value" },
	{ WZ_PIN, "P", "pin", 1, "pin: write every derived GPU, port and host "
	    "as set values" },
	{ WZ_PLACEMENT, NULL, NULL, 0, "the whole placement picture: who owns "
	    "each GPU, ports" },
};

int
wiz_key_action(int code)
{
	size_t	i;

	for (i = 0; i < wiz_nkeys; i++)
		if (wiz_keys[i].code == code)
			return (int)wiz_keys[i].act;
	return -1;
}

size_t
wiz_text_cols(const char *s)
{
	size_t	n = 0;

	for (; *s != '\0'; s++)
		if (((unsigned char)*s & 0xc0) != 0x80)
			n++;
	return n;
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

char *
wiz_key_help(void)
{
	struct buf	b = { 0 };
	size_t		i, k, cols;

	buf_puts(&b, "Keys:\n");
	for (i = 0; i < NWZ; i++) {
		struct buf	keys = { 0 };

		if (wiz_actions[i].help == NULL)
			continue;
		for (k = 0; k < wiz_nkeys; k++) {
			if (wiz_keys[k].act != wiz_actions[i].act ||
			    wiz_keys[k].name == NULL)
				continue;
			if (keys.s != NULL)
				buf_puts(&keys, ", ");
			buf_puts(&keys, wiz_keys[k].name);
		}
		if (keys.s == NULL)
			continue;
		buf_printf(&b, "  %s", keys.s);
		for (cols = wiz_text_cols(keys.s); cols < 18; cols++)
			buf_putc(&b, ' ');
		buf_printf(&b, " %s\n", wiz_actions[i].help);
		buf_free(&keys);
	}
	return buf_steal(&b);
}
