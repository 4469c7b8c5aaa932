/*
 * wiz.h - private to the curses front end (wizard.c, wiz_draw.c,
 * wiz_modal.c, wiz_pane.c): the front end's state and the helpers its files share.
 */
#ifndef PDWIZ_TUI_WIZ_H
#define PDWIZ_TUI_WIZ_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>

#include "tui/vm.h"

#define MIN_W	56
#define MIN_H	14

enum { C_TITLE = 1, C_ERROR, C_WARN, C_FORCED, C_BLOCKED, C_OK };

struct ui {
	struct vm	*vm;
	char		*status;		/* owned; NULL: none */
	bool		 status_sticky;		/* keep until next key */
	bool		 esc_armed;		/* the last key was one Esc */
	int		 top;			/* first visible row */
	bool		 quit;
	char		*save_path;
	char		*cut;			/* owned: the status text last
						   drawn cut short, or NULL */
	int		 key;			/* the key being handled */
	int		 back_page;		/* r on the review: the page r
						   came from; -1 none */
	int		 all_back;		/* a on All options: the page a
						   came from; -1 none */
};

/* Lines of wrapped text, each owned. */
struct lines {
	char	**l;
	size_t	  n;
};

extern volatile sig_atomic_t	 wiz_got_signal;
extern bool			 wiz_use_colors;
extern const char		*wiz_mark_x;	/* unavailable marker */
extern bool			 wiz_utf8;	/* the locale is UTF-8 */

/* Drawing (wiz_draw.c). */
int	 wiz_attr(int pair, int fallback);
/* Put s at (y, x), at most cols columns, UTF-8 aware; columns used. */
int	 wiz_put(int y, int x, int cols, const char *s);
/* The same; a text that does not fit ends with "…" ("~" without UTF-8). */
int	 wiz_put_cut(int y, int x, int cols, const char *s);
/* Wrap text into at most max lines of at most width columns. */
void	 wiz_wrap(const char *text, int width, size_t max, struct lines *);
/* Code (the preview): tabs to stops of 4, a line longer than width cut
 * where it reaches it and continued on lines that begin with "↪ " ("+ "
 * without UTF-8); no word is moved. */
void	 wiz_wrap_code(const char *text, int width, struct lines *);
void	 wiz_lines_free(struct lines *);
void	 wiz_draw_too_small(void);
void	 wiz_draw(struct ui *);
void	 wiz_set_status(struct ui *, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));

/* Handle one key (wiz_actions.c). */
void	 wiz_key(struct ui *, int c);

/* Modal interaction (wiz_modal.c). */
/* The next key; -2 when a signal asks to stop. */
int	 wiz_getkey(void);
/* Read a line at the status row: malloc'd text, or NULL (Esc). */
char	*wiz_prompt(struct ui *, const char *label, const char *init);
/* The same with a hint on the row above (what an empty answer means). */
char	*wiz_prompt_hint(struct ui *, const char *label, const char *hint,
	    const char *init);
/* Ask a one-key question at the status row; returns the key. */
int	 wiz_ask(struct ui *, const char *q);
/* Full-screen scrollable views (wiz_pane.c): a text, and the preview. */
void	 wiz_textbox(struct ui *, const char *title, const char *text);
void	 wiz_preview_screen(struct ui *);
/* Every key, grouped by purpose (F1). */
void	 wiz_key_screen(struct ui *);
void	 wiz_edit_field(struct ui *);
void	 wiz_search(struct ui *);
/* Save with confirmation before overwriting; true when saved. */
bool	 wiz_save(struct ui *);
void	 wiz_export(struct ui *);
/* Quit, asking to save only when something changed. */
void	 wiz_quit(struct ui *);
void	 wiz_review_enter(struct ui *);

/* f: apply the fix of the focused field (choice -1) or of one greyed
 * choice, asking first when it changes more than the field (wiz_fix.c). */
void	 wiz_fix(struct ui *, int choice);
/* f on review row i whose problem belongs to no field: its rule's verified
 * fix, the changes listed and asked first; or why there is none. */
void	 wiz_fix_review(struct ui *, size_t i);

/* The quick start screen of a new deployment (wiz_quick.c). */
void	 wiz_quick_start(struct ui *);

#endif
