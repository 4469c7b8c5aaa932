/*
 * wiz_keys.h - the wizard's keys: one table of (key, action) bindings and
 * one of actions with their footer text and help. The key handler, the
 * footer and the key help are all read from these tables, so they cannot
 * disagree. No curses in this interface (the unit tests use it).
 */
#ifndef PDWIZ_TUI_WIZ_KEYS_H
#define PDWIZ_TUI_WIZ_KEYS_H

#include <stdbool.h>
#include <stddef.h>

enum wiz_action {
	WZ_UP = 0,
	WZ_DOWN,
	WZ_TOP,
	WZ_BOTTOM,
	WZ_ENTER,
	WZ_NEXT_PAGE,
	WZ_PREV_PAGE,
	WZ_SEARCH,
	WZ_HELP,
	WZ_FIX,
	WZ_UNDO,
	WZ_REDO,
	WZ_PREVIEW,
	WZ_SAVE,
	WZ_EXPORT,
	WZ_QUIT,
	WZ_ESC,
	WZ_REDRAW,
	WZ_RESIZE,
	WZ_CLEAR,
	WZ_PIN,
	WZ_PLACEMENT,
	WZ_KEYS,
	WZ_REVIEW,
	WZ_GOTO_PAGE,
	WZ_ALL,
	NWZ
};

/* One key and what it does. */
struct wiz_key {
	int		 code;		/* curses key code */
	const char	*name;		/* as the key help shows it */
	enum wiz_action	 act;
};

/* What an action is for: the key screen lists the keys in these groups. */
enum wiz_group { WG_MOVE, WG_CHANGE, WG_LOOK, WG_FILES, NWG };

/* One action: how the footer and the key help show it. */
struct wiz_action_info {
	enum wiz_action	 act;
	const char	*foot_keys;	/* footer key text; NULL: not in it */
	const char	*foot_label;	/* footer word after the keys */
	int		 keep;		/* footer: labels with the lowest keep
					   are dropped first when narrow */
	const char	*help;		/* key help; NULL: not listed */
	enum wiz_group	 group;
};

/* Keys of the full-screen views (the preview, help and text panes). */
enum wiz_view_action {
	WV_UP = 0, WV_DOWN, WV_PGUP, WV_PGDN, WV_HOME, WV_END,
	WV_NEXT_VIEW, WV_VIEW1, WV_VIEW2, WV_VIEW3, WV_VIEW4,
	WV_FIND, WV_FIND_NEXT, WV_CLOSE, NWV
};

struct wiz_view_key {
	int			 code;
	const char		*name;		/* NULL: an alias not listed */
	enum wiz_view_action	 act;
	const char		*help;
};

/* Keys of the line editor (prompts): the lineedit.h key each gives. */
struct wiz_edit_key {
	int		 code;
	const char	*name;		/* NULL: an alias not listed */
	int		 le;		/* LE_* of lineedit.h */
	const char	*help;
};

extern const struct wiz_key		wiz_keys[];
extern const size_t			wiz_nkeys;
extern const struct wiz_action_info	wiz_actions[NWZ];

extern const struct wiz_view_key	wiz_view_keys[];
extern const size_t			wiz_nview_keys;
extern const struct wiz_edit_key	wiz_edit_keys[];
extern const size_t			wiz_nedit_keys;

/* The view action of a key code, or -1. */
int	 wiz_view_key_action(int code);
/* The line editor's key for a key code, or -1 (a character to insert). */
int	 wiz_edit_key(int code);

/* The action bound to a key code, or -1. */
int	 wiz_key_action(int code);
/* The footer for a screen this many columns wide (malloc'd). Every
 * footer key is always there; labels go, least needed first, when it
 * does not fit. */
char	*wiz_footer(int width);
/* Display columns of UTF-8 text: in a UTF-8 locale as wcwidth counts
 * them (a CJK character or an emoji two, a combining mark none, any other
 * one), else one per character (the ASCII screen). */
size_t	 wiz_text_cols(const char *);
/* The same for the first n bytes of s. */
size_t	 wiz_cols(const char *s, size_t n);
/* Bytes of the whole characters of p (len bytes) that fill at most cols
 * columns. */
size_t	 wiz_bytes_for_cols(const char *p, size_t len, size_t cols);
/* Every key and what it does, one line each, grouped by purpose: the
 * wizard's keys, then those of the full-screen views and of prompts
 * (malloc'd). */
char	*wiz_key_help(void);
/* Does the key handler (wizard.c) handle this action? */
bool	 wiz_action_handled(enum wiz_action);

#endif
