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

/*
 * A shared field whose roles differ: the verified fixes as a list to
 * choose from ("1 use mooncake on both", "2 use nixl on both"); true with
 * the choice made (vm_fix_select), false when cancelled. With one fix or
 * none, nothing to choose: true.
 */
static bool
pick_alternative(struct ui *ui, int choice)
{
	const char	**labels;
	int		 *idx, h, w, c, i;
	char		 *p, *d;
	size_t		  n;
	bool		  split = vm_shared_split(ui->vm, &p, &d);

	if (!split)
		return true;
	n = vm_fix_alternatives(ui->vm, choice, &labels, &idx);
	if (n < 2) {
		free(labels);
		free(idx);
		free(p);
		free(d);
		return true;
	}
	for (;;) {
		char	*head = xasprintf("The roles differ (prefill %s, decode "
		    "%s): one value for both.", p, d);

		wiz_draw(ui);
		getmaxyx(stdscr, h, w);
		for (i = 0; i < (int)n + 4 && 3 + i < h - 1; i++)
			mvhline(3 + i, 0, ' ', w);
		attron(A_BOLD);
		wiz_put_cut(3, 2, w - 4, head);
		attroff(A_BOLD);
		free(head);
		for (i = 0; i < (int)n; i++) {
			char	*l = xasprintf("%d  %s", i + 1, labels[i]);

			wiz_put_cut(4 + i, 4, w - 6, l);
			free(l);
		}
		attron(A_BOLD);
		wiz_put(5 + (int)n, 2, w - 4, "Which? (a number; Esc cancels)");
		attroff(A_BOLD);
		refresh();
		c = wiz_getkey();
		if (c == KEY_RESIZE)
			continue;
		if (c >= '1' && c < '1' + (int)n) {
			vm_fix_select(ui->vm, idx[c - '1']);
			break;
		}
		if (c == 27 || c == -2 || c == 'q')
			break;
	}
	free(labels);
	free(idx);
	free(p);
	free(d);
	return c >= '1' && c < '1' + (int)n;
}

void
wiz_fix(struct ui *ui, int choice)
{
	struct buf	 msg = { 0 };
	char		*changes = NULL;
	bool		 more;

	if (!pick_alternative(ui, choice)) {
		wiz_set_status(ui, "fix not applied");
		return;
	}

	if (vm_fix_plan(ui->vm, choice, &changes, &more, &msg) != 0) {
		vm_fix_select(ui->vm, -1);
		wiz_set_status(ui, "%s", msg.s ? msg.s : "");
		buf_free(&msg);
		return;
	}
	if (more && !confirm(ui, msg.s ? msg.s : "fix", changes)) {
		vm_fix_select(ui->vm, -1);
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

void
wiz_fix_review(struct ui *ui, size_t i)
{
	struct buf	 msg = { 0 };
	char		*changes = NULL;

	if (vm_review_fix_plan(ui->vm, i, &changes, &msg) != 0) {
		vm_fix_select(ui->vm, -1);
		wiz_set_status(ui, "%s", msg.s ? msg.s : "");
		buf_free(&msg);
		return;
	}
	/* No field shows what it changes: always the list, and the question. */
	if (!confirm(ui, msg.s ? msg.s : "fix", changes)) {
		vm_fix_select(ui->vm, -1);
		wiz_set_status(ui, "fix not applied");
		free(changes);
		buf_free(&msg);
		return;
	}
	free(changes);
	(void)vm_review_fix(ui->vm, i, &msg);
	wiz_set_status(ui, "%s", msg.s ? msg.s : "");
	buf_free(&msg);
}
