/*
 * wiz_fix.c - f: apply the fix of the focused field (or of a greyed
 * choice). A fix that changes more than the field lists every change it
 * will make, the side effects of an earlier fix it takes back included, and
 * asks first; u undoes all of it in one step.
 */
#include "tui/wiz.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"

/* The change list in a box over the pages, and the question under it:
 * true for y (or Enter). */
static bool
confirm(struct ui *ui, const char *what, const char *changes)
{
	struct lines	ls;
	int		h, w, c, i, bh;
	char		*head;

	head = xasprintf("%s. It changes:", what);
	for (;;) {
		wiz_draw(ui);
		getmaxyx(stdscr, h, w);
		if (w < MIN_W || h < MIN_H) {
			free(head);
			return false;
		}
		{
			struct lines	hl;
			int		hn;

			wiz_wrap(head, w - 4, 3, &hl);
			hn = (int)hl.n;
			wiz_wrap(changes, w - 6, (size_t)(h - 8 - hn), &ls);
			bh = (int)ls.n + 3 + hn;
			for (i = 0; i < bh; i++)
				mvhline(3 + i, 0, ' ', w);
			attron(A_BOLD);
			for (i = 0; i < hn; i++)
				wiz_put_cut(3 + i, 2, w - 4, hl.l[i]);
			attroff(A_BOLD);
			for (i = 0; i < (int)ls.n; i++)
				wiz_put_cut(3 + hn + i, 2, w - 4, ls.l[i]);
			attron(A_BOLD);
			wiz_put(4 + hn + (int)ls.n, 2, w - 4, "Apply all of it? "
			    "(y/n; u undoes it later in one step)");
			attroff(A_BOLD);
			wiz_lines_free(&ls);
			wiz_lines_free(&hl);
		}
		refresh();
		c = wiz_getkey();
		if (c == KEY_RESIZE)
			continue;
		free(head);
		return c == 'y' || c == 'Y' || c == '\n' || c == '\r' ||
		    c == KEY_ENTER;
	}
}

void
wiz_fix(struct ui *ui, int choice)
{
	struct buf	 msg = { 0 };
	char		*changes = NULL;
	bool		 more;

	if (vm_fix_plan(ui->vm, choice, &changes, &more, &msg) != 0) {
		wiz_set_status(ui, "%s", msg.s ? msg.s : "");
		buf_free(&msg);
		return;
	}
	if (more && !confirm(ui, msg.s ? msg.s : "fix", changes)) {
		wiz_set_status(ui, "fix not applied");
		free(changes);
		buf_free(&msg);
		return;
	}
	free(changes);
	(void)vm_fix_choice(ui->vm, choice, &msg);
	wiz_set_status(ui, "%s", msg.s ? msg.s : "");
	buf_free(&msg);
}
