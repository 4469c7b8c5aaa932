/*
 * wiz_actions.c - what each action of the key table (wiz_keys.h) does, and
 * the key handler that looks keys up in that table.
 */
#include "tui/wiz.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "tui/wiz_keys.h"

typedef void	(*handler)(struct ui *);

static void
act_up(struct ui *ui)
{
	vm_move(ui->vm, -1);
}

static void
act_down(struct ui *ui)
{
	vm_move(ui->vm, 1);
}

static void
act_top(struct ui *ui)
{
	vm_move(ui->vm, -10000);
}

static void
act_bottom(struct ui *ui)
{
	vm_move(ui->vm, 10000);
}

static void
act_next_page(struct ui *ui)
{
	vm_page_step(ui->vm, 1);
	ui->top = 0;
}

static void
act_prev_page(struct ui *ui)
{
	vm_page_step(ui->vm, -1);
	ui->top = 0;
}

static void
act_enter(struct ui *ui)
{
	if (vm_page(ui->vm, (size_t)vm_cur_page(ui->vm))->review)
		wiz_review_enter(ui);
	else
		wiz_edit_field(ui);
}

static void
act_keys(struct ui *ui)
{
	wiz_key_screen(ui);
}

/* A message cut short on the status line, in full; else the focused
 * field's help (on the review page the problem's full text); on no
 * field, every key. */
static void
act_help(struct ui *ui)
{
	char	*t = vm_help(ui->vm), *all;

	if (ui->cut != NULL) {
		all = xasprintf("%s%s%s", ui->cut, t ? "\n\n" : "", t ? t : "");
		wiz_textbox(ui, "Message", all);
		free(all);
	} else if (t == NULL)
		act_keys(ui);
	else
		wiz_textbox(ui, "Help (F1: every key)", t);
	free(t);
}

/* Run an intent of the view-model and show its message. */
static void
intent(struct ui *ui, int (*fn)(struct vm *, struct buf *))
{
	struct buf	msg = { 0 };

	(void)fn(ui->vm, &msg);
	wiz_set_status(ui, "%s", msg.s ? msg.s : "");
	buf_free(&msg);
}

/* f: the focused field's problem; on the review page, the selected
 * problem's, from the field it belongs to (where the fix is shown), or
 * from the review itself when it belongs to no field. */
static void
act_fix(struct ui *ui)
{
	const struct vm_review_item	*it;
	size_t				 n;
	int				 cur;

	if (vm_page(ui->vm, (size_t)vm_cur_page(ui->vm))->review) {
		n = vm_review(ui->vm, &it);
		cur = vm_cur_row(ui->vm);
		if (cur < 0 || (size_t)cur >= n) {
			wiz_set_status(ui, "nothing to fix here: no problem is "
			    "listed");
			return;
		}
		/* No fix to try: say so, and what to do instead, here. */
		{
			struct buf	msg = { 0 };
			bool		ok = vm_review_fixable(ui->vm,
			    (size_t)cur, &msg);

			if (!ok)
				wiz_set_status(ui, "%s", msg.s ? msg.s : "");
			buf_free(&msg);
			if (!ok)
				return;
		}
		/* A deployment-level problem no field sets: its rule's fix,
		 * from the review. */
		if (it[cur].page < 0) {
			wiz_fix_review(ui, (size_t)cur);
			return;
		}
		{
			char		*id = it[cur].id != NULL ?
			    xstrdup(it[cur].id) : NULL;
			enum vm_scope	 role = it[cur].role;

			vm_goto(ui->vm, it[cur].page, it[cur].field);
			vm_fix_for(ui->vm, id, role);
			wiz_fix(ui, -1);
			vm_fix_for(ui->vm, NULL, SC_SHARED);
			free(id);
		}
		/* Fixed from the review: one key goes back to it. */
		if (ui->status != NULL && strncmp(ui->status, "applied", 7) ==
		    0) {
			char	*st = xstrdup(ui->status);

			wiz_set_status(ui, "%s  [r: back to the review]", st);
			free(st);
		}
		return;
	}
	wiz_fix(ui, -1);
}

static void
act_undo(struct ui *ui)
{
	intent(ui, vm_undo);
}

static void
act_redo(struct ui *ui)
{
	intent(ui, vm_redo);
}

static void
act_clear(struct ui *ui)
{
	if (vm_page(ui->vm, (size_t)vm_cur_page(ui->vm))->review)
		return;
	intent(ui, vm_clear);
}

static void
act_pin(struct ui *ui)
{
	intent(ui, vm_pin);
}

static void
act_placement(struct ui *ui)
{
	int	 h, w;
	char	*pic;

	getmaxyx(stdscr, h, w);
	(void)h;
	if ((pic = vm_placement(ui->vm, wiz_utf8, w - 4)) == NULL) {
		wiz_set_status(ui, "no placement: only a PD deployment has one");
		return;
	}
	wiz_textbox(ui, "Placement", pic);
	free(pic);
}

static void
act_preview(struct ui *ui)
{
	wiz_preview_screen(ui);
}

static void
act_save(struct ui *ui)
{
	(void)wiz_save(ui);
}

/* Esc twice quits; one Esc arms it, any other key disarms it. */
static void
act_esc(struct ui *ui)
{
	ui->esc_armed = !ui->esc_armed;
	if (!ui->esc_armed)
		wiz_quit(ui);
	else
		wiz_set_status(ui, "Esc: press Esc again to quit (any other "
		    "key goes on)");
}

/* The index of the review page, or -1. */
static int
review_page(struct ui *ui)
{
	size_t	i;

	for (i = 0; i < vm_npages(ui->vm); i++)
		if (vm_page(ui->vm, i)->review)
			return (int)i;
	return -1;
}

/* r: to the review; on it, back to the page r came from. */
static void
act_review(struct ui *ui)
{
	int	rp = review_page(ui), cur = vm_cur_page(ui->vm);

	if (rp < 0)
		return;
	if (cur == rp) {
		if (ui->back_page >= 0 && vm_page_visible(ui->vm,
		    (size_t)ui->back_page)) {
			vm_goto(ui->vm, ui->back_page, 0);
			vm_move(ui->vm, -10000);
			ui->top = 0;
		}
		ui->back_page = -1;
		return;
	}
	ui->back_page = cur;
	vm_goto(ui->vm, rp, 0);
	ui->top = 0;
	wiz_set_status(ui, "review: r again goes back to %s",
	    vm_page(ui->vm, (size_t)cur)->title);
}

/*
 * a: the All options page of the current page's role (the first shown
 * when the page is not a role's); on it, back to the page a came from.
 */
static void
act_all(struct ui *ui)
{
	int			 cur, first = -1, want = -1;
	const struct vm_page	*cp;
	size_t			 i;

	/* Built the first time it is wanted (the pages move in memory). */
	if (vm_all_options(ui->vm) != 0) {
		wiz_set_status(ui, "no All options page: every option is on "
		    "a page");
		return;
	}
	cur = vm_cur_page(ui->vm);
	cp = vm_page(ui->vm, (size_t)cur);
	if (cp->all) {
		if (ui->all_back >= 0 && vm_page_visible(ui->vm,
		    (size_t)ui->all_back))
			vm_goto(ui->vm, ui->all_back, 0);
		else
			vm_goto(ui->vm, 0, 0);
		vm_move(ui->vm, -10000);
		ui->top = 0;
		ui->all_back = -1;
		return;
	}
	for (i = 0; i < vm_npages(ui->vm); i++) {
		const struct vm_page	*p = vm_page(ui->vm, i);

		if (!p->all || !vm_page_visible(ui->vm, i))
			continue;
		if (first < 0)
			first = (int)i;
		if (want < 0 && p->role == cp->role)
			want = (int)i;
	}
	if (want < 0)
		want = first;
	if (want < 0) {
		wiz_set_status(ui, "no All options page");
		return;
	}
	ui->all_back = cur;
	vm_goto(ui->vm, want, 0);
	vm_move(ui->vm, -10000);
	ui->top = 0;
	wiz_set_status(ui, "all options: / finds one, a goes back to %s",
	    cp->title);
}

/* 1-9: the page of that number among the pages shown (as "4/11"). */
static void
act_goto_page(struct ui *ui)
{
	int	want = ui->key - '0';
	size_t	i, shown = 0;

	for (i = 0; i < vm_npages(ui->vm); i++)
		if (vm_page_visible(ui->vm, i) && !vm_page(ui->vm, i)->all &&
		    (int)++shown == want) {
			if ((int)i != vm_cur_page(ui->vm)) {
				vm_goto(ui->vm, (int)i, 0);
				vm_move(ui->vm, -10000);
				ui->top = 0;
			}
			return;
		}
	wiz_set_status(ui, "no page %d: there are %zu", want, shown);
}

static void
act_redraw(struct ui *ui)
{
	(void)ui;
	clear();
}

static void
act_resize(struct ui *ui)
{
	(void)ui;
}

static const handler handlers[NWZ] = {
	[WZ_UP] = act_up,
	[WZ_DOWN] = act_down,
	[WZ_TOP] = act_top,
	[WZ_BOTTOM] = act_bottom,
	[WZ_ENTER] = act_enter,
	[WZ_CLEAR] = act_clear,
	[WZ_NEXT_PAGE] = act_next_page,
	[WZ_PREV_PAGE] = act_prev_page,
	[WZ_SEARCH] = wiz_search,
	[WZ_HELP] = act_help,
	[WZ_FIX] = act_fix,
	[WZ_UNDO] = act_undo,
	[WZ_REDO] = act_redo,
	[WZ_PIN] = act_pin,
	[WZ_PLACEMENT] = act_placement,
	[WZ_KEYS] = act_keys,
	[WZ_PREVIEW] = act_preview,
	[WZ_SAVE] = act_save,
	[WZ_EXPORT] = wiz_export,
	[WZ_QUIT] = wiz_quit,
	[WZ_ESC] = act_esc,
	[WZ_REVIEW] = act_review,
	[WZ_ALL] = act_all,
	[WZ_GOTO_PAGE] = act_goto_page,
	[WZ_REDRAW] = act_redraw,
	[WZ_RESIZE] = act_resize,
};

bool
wiz_action_handled(enum wiz_action a)
{
	return a < NWZ && handlers[a] != NULL;
}

void
wiz_key(struct ui *ui, int c)
{
	int	act = wiz_key_action(c), h, w;

	getmaxyx(stdscr, h, w);
	if (c != KEY_RESIZE)
		ui->status_sticky = false;
	if (w < MIN_W || h < MIN_H) {
		if (act == WZ_QUIT)
			wiz_quit(ui);
		return;
	}
	if (act != WZ_ESC)
		ui->esc_armed = false;
	ui->key = c;
	if (act >= 0 && handlers[act] != NULL)
		handlers[act](ui);
}
