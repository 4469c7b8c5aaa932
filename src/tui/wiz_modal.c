/*
 * wiz_modal.c - the wizard's modal interactions: line prompts, questions,
 * the text box, choosing a value, search, save, export and quit.
 */
#include "tui/wiz.h"

#include <ctype.h>
#include <curses.h>
#include <sys/stat.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "emit/emit.h"
#include "tui/lineedit.h"
#include "tui/wiz_keys.h"

volatile sig_atomic_t	wiz_got_signal;

int
wiz_getkey(void)
{
	int	c;

	for (;;) {
		c = getch();
		if (wiz_got_signal)
			return -2;
		if (c != ERR)
			return c;
	}
}

/* The text of a message buffer ("" when nothing was put in it). */
static const char *
text_of(const struct buf *b)
{
	return b->s != NULL ? b->s : "";
}

static bool
is_enter(int c)
{
	return c == '\n' || c == '\r' || c == KEY_ENTER;
}

static bool
is_backspace(int c)
{
	return c == KEY_BACKSPACE || c == 127 || c == 8;
}

/* Show text in bold ending at the status row, wrapped onto the lines
 * above it when long, with the cursor after it. */
static void
status_row(const char *text)
{
	struct lines	ls;
	int		h, w, i, y0;

	getmaxyx(stdscr, h, w);
	wiz_wrap(text, w - 1, (size_t)(h / 3 > 1 ? h / 3 : 1), &ls);
	if (ls.n == 0) {
		mvhline(h - 2, 0, ' ', w);
		move(h - 2, 0);
		refresh();
		return;
	}
	y0 = h - 1 - (int)ls.n;
	attron(A_BOLD);
	for (i = 0; i < (int)ls.n; i++) {
		mvhline(y0 + i, 0, ' ', w);
		wiz_put(y0 + i, 0, w, ls.l[i]);
	}
	attroff(A_BOLD);
	i = (int)wiz_text_cols(ls.l[ls.n - 1]);
	move(h - 2, i < w ? i : w - 1);
	wiz_lines_free(&ls);
	refresh();
}

/* No key is waiting to be read. */
static bool
typeahead_empty(void)
{
	int	c;

	timeout(0);
	c = getch();
	timeout(250);
	if (c == ERR)
		return true;
	ungetch(c);
	return false;
}

/* The offset of the character after the one at offset at of s. */
static size_t
next_char(const char *s, size_t at)
{
	if (s[at] == '\0')
		return at;
	for (at++; ((unsigned char)s[at] & 0xc0) == 0x80; at++)
		;
	return at;
}

/*
 * The prompt at the status row, as "label: [text]": the label in bold,
 * the text between brackets, scrolled sideways so that the cursor stays in
 * view ("<" when its start is hidden, ">" when its end is); a selected
 * pre-filled text is drawn in reverse. Everything is counted in columns
 * (a CJK character or an emoji takes two), so the cursor sits on its
 * character and the closing mark after the text, never over it. The hint
 * (what an empty answer means) on the row above, never in the way of the
 * text.
 */
static void
prompt_row(const char *label, const char *hint, const struct lineedit *le)
{
	const char	*text = le_text(le);
	size_t		 tlen = strlen(text);
	size_t		 cur = wiz_cols(text, le->cur), first = 0, len, shown;
	size_t		 curw;
	int		 h, w, x, avail;

	getmaxyx(stdscr, h, w);
	if (hint != NULL && hint[0] != '\0') {
		mvhline(h - 3, 0, ' ', w);
		attron(A_DIM);
		wiz_put_cut(h - 3, 0, w, hint);
		attroff(A_DIM);
	}
	mvhline(h - 2, 0, ' ', w);
	attron(A_BOLD);
	x = wiz_put_cut(h - 2, 0, w / 2, label);
	x += wiz_put(h - 2, x, 2, ": ");
	attroff(A_BOLD);
	x += wiz_put(h - 2, x, 1, "[");
	avail = w - 2 - x;
	if (avail < 3)
		avail = 3;
	/* The cursor's character (one column at the end) must be shown
	 * whole: whole characters go off the start until it is. */
	curw = le->cur < tlen ? wiz_cols(text + le->cur,
	    next_char(text, le->cur) - le->cur) : 1;
	if (cur + curw > (size_t)avail) {
		wiz_put(h - 2, x++, 1, "<");
		avail--;
		while (first < le->cur && wiz_cols(text + first, le->cur -
		    first) + curw > (size_t)avail)
			first = next_char(text, first);
	}
	len = wiz_cols(text + first, tlen - first);
	if (le->selected)
		attron(A_REVERSE);
	shown = (size_t)wiz_put(h - 2, x, avail, text + first);
	if (le->selected)
		attroff(A_REVERSE);
	wiz_put(h - 2, x + (int)shown, 1, len > shown ? ">" : "]");
	move(h - 2, x + (int)(cur - wiz_cols(text, first)));
	refresh();
}

/* The editing key for a curses key code (the table of wiz_keys.c), or
 * the code itself. */
static int
le_code(int c)
{
	int	k = wiz_edit_key(c);

	return k != -1 ? k : c;
}

char *
wiz_prompt(struct ui *ui, const char *label, const char *init)
{
	return wiz_prompt_hint(ui, label, NULL, init);
}

char *
wiz_prompt_hint(struct ui *ui, const char *label, const char *hint,
    const char *init)
{
	struct lineedit	le;
	char		*out;
	int		c;

	le_init(&le, init);
	for (;;) {
		/* A paste arrives as many keys: draw once they are read. */
		if (typeahead_empty()) {
			wiz_draw(ui);
			prompt_row(label, hint, &le);
		}
		c = wiz_getkey();
		if (c == -2 || c == 27) {
			le_free(&le);
			return NULL;
		}
		if (is_enter(c)) {
			out = xstrdup(le_text(&le));
			le_free(&le);
			return out;
		}
		if (c == KEY_RESIZE)
			continue;
		le_key(&le, le_code(c));
	}
}

int
wiz_ask(struct ui *ui, const char *q)
{
	int	c;

	for (;;) {
		wiz_draw(ui);
		status_row(q);
		c = wiz_getkey();
		if (c != KEY_RESIZE)
			return c;
	}
}

/* The first choice shown in a box of bh rows with cur in view. */
static int
choice_first(int cur, int bh)
{
	return cur - (bh - 3) < 0 ? 0 : cur - (bh - 3);
}

/* One line of the box: the choice's marks, text and availability. */
static char *
choice_line(const struct vm_row *row, int i, int cur)
{
	const struct vm_choice	*ch = &row->choices[i];

	return xasprintf("%s %s %s%s%s%s", i == cur ? ">" : " ",
	    ch->current ? "(*)" : "( )", ch->text, ch->blocker ? "  " : "",
	    ch->blocker ? wiz_mark_x : "", ch->blocker ? " unavailable" : "");
}

/* The box of values at the right, cur highlighted, as wide as its widest
 * line needs (40 columns at least, the screen at most: at 80 columns
 * "Hopper: H100, H200, H20, H800" is not cut); returns its height. A box
 * too short for every value says how many are above and below; typed is
 * the type-ahead so far. */
static int
choice_box(const struct vm_row *row, int cur, int h, int w, int *bx,
    const char *typed)
{
	int	bh = (int)row->nchoices + 2, bw = 40, by = 3, i, first;
	char	*hint;

	for (i = 0; i < (int)row->nchoices; i++) {
		char	*l = choice_line(row, i, cur);
		int	 need = (int)wiz_text_cols(l) + 2;

		if (need > bw)
			bw = need;
		free(l);
	}
	if ((int)wiz_text_cols(row->f->label) + 2 > bw)
		bw = (int)wiz_text_cols(row->f->label) + 2;
	if (bw > w - 4)
		bw = w - 4 > 10 ? w - 4 : 10;
	/* Above the message rows and the footer (choice_message). */
	if (bh > h - 6)
		bh = h - 6;
	*bx = w - bw - 2 < 2 ? 2 : w - bw - 2;
	/* Erase what is under the box, and a column either side. */
	for (i = 0; i < bh; i++)
		mvhline(by + i, *bx - 1, ' ', w - *bx + 1);
	attron(A_BOLD);
	wiz_put_cut(by, *bx + 1, bw - 2, row->f->label);
	attroff(A_BOLD);
	first = choice_first(cur, bh);
	for (i = first; i < (int)row->nchoices && i - first < bh - 2; i++) {
		const struct vm_choice	*ch = &row->choices[i];
		int			 a = i == cur ? A_REVERSE : 0;
		char			*l = choice_line(row, i, cur);

		if (ch->blocker != NULL)
			a |= wiz_attr(C_BLOCKED, A_DIM);
		attron(a);
		mvhline(by + 1 + i - first, *bx, ' ', bw);
		wiz_put_cut(by + 1 + i - first, *bx + 1, bw - 2, l);
		attroff(a);
		free(l);
	}
	/* The last row: what is out of view, and the type-ahead. */
	{
		int	above = first, below = (int)row->nchoices - first -
		    (bh - 2);

		if (below < 0)
			below = 0;
		if (above > 0 && below > 0)
			hint = xasprintf("%s %d above, %d below (scroll)",
			    wiz_utf8 ? "↕" : "+-", above, below);
		else if (above > 0)
			hint = xasprintf("%s %d more above", wiz_utf8 ? "↑" :
			    "^", above);
		else if (below > 0)
			hint = xasprintf("%s %d more below", wiz_utf8 ? "↓" :
			    "v", below);
		else
			hint = xstrdup("");
		if (typed != NULL && typed[0] != '\0') {
			char	*t = xasprintf("%s%stype-ahead: %s", hint,
			    hint[0] != '\0' ? "  " : "", typed);
			char	*sc;

			/* Too wide for the box (the arrow is one column of
			 * 3 bytes): the scroll hint without "(scroll)", so
			 * that what was typed is never cut. */
			if ((int)strlen(t) - (wiz_utf8 ? 2 : 0) > bw - 2 &&
			    (sc = strstr(t, " (scroll)")) != NULL)
				memmove(sc, sc + 9, strlen(sc + 9) + 1);
			free(hint);
			hint = t;
		}
		attron(A_DIM);
		wiz_put(by + bh - 1, *bx + 1, bw - 2, hint);
		attroff(A_DIM);
		free(hint);
	}
	return bh;
}

/* The message under the box: why the value is refused or unavailable,
 * wrapped; one longer than a third of the screen says ? shows it. */
static void
choice_message(const char *msg, int h, int w)
{
	struct lines	ls;
	size_t		k, max = (size_t)(h / 3 > 2 ? h / 3 : 2);

	mvhline(h - 2, 0, ' ', w);
	mvhline(h - 3, 0, ' ', w);
	if (msg[0] == '\0') {
		wiz_put(h - 2, 0, w, "Enter choose  type to jump  f fix  ? help  "
		    "Esc back");
		return;
	}
	wiz_wrap(msg, w - 1, (size_t)-1, &ls);
	if (ls.n > max) {
		while (ls.n > max - 1)
			free(ls.l[--ls.n]);
		ls.l[ls.n++] = xstrdup("... (? shows the whole message)");
	}
	attron(wiz_attr(C_ERROR, A_BOLD));
	for (k = 0; k < ls.n; k++) {
		mvhline(h - 1 - (int)ls.n + (int)k, 0, ' ', w);
		wiz_put(h - 1 - (int)ls.n + (int)k, 0, w, ls.l[k]);
	}
	attroff(wiz_attr(C_ERROR, A_BOLD));
	wiz_lines_free(&ls);
}

/* ? in the choice box: the message about value cur in full, then the
 * field's help. */
static void
choice_help(struct ui *ui, int cur, const char *refused)
{
	struct buf	 msg = { 0 };
	char		*h = vm_help(ui->vm), *all;

	if (refused != NULL)
		buf_puts(&msg, refused);
	else
		vm_choice_problem(ui->vm, cur, &msg);
	all = xasprintf("%s%s%s", text_of(&msg), msg.len > 0 ? "\n\n" : "",
	    h != NULL ? h : "");
	wiz_textbox(ui, "Help", all);
	free(all);
	free(h);
	buf_free(&msg);
}

/* Draw the choice box; false when the screen is too small for it. */
static bool
choice_draw(struct ui *ui, const struct vm_row *row, int cur,
    const char *refused, const char *typed)
{
	struct buf	msg = { 0 };
	int		h, w, bx, bh, i;

	wiz_draw(ui);
	getmaxyx(stdscr, h, w);
	if (w < MIN_W || h < MIN_H)
		return false;
	bh = choice_box(row, cur, h, w, &bx, typed);
	/* Erase the page's status under the box: the box's own message
	 * goes there. */
	for (i = h - 1 - (h / 3 > 1 ? h / 3 : 1); i < h - 1; i++)
		if (i >= 3 + bh)
			mvhline(i, 0, ' ', w);
	if (refused != NULL)
		buf_puts(&msg, refused);
	else
		vm_choice_problem(ui->vm, cur, &msg);
	choice_message(text_of(&msg), h, w);
	buf_free(&msg);
	move(3 + 1 + cur - choice_first(cur, bh), bx + 1);
	refresh();
	return true;
}

/* Type-ahead: the first value from the top whose text begins with typed,
 * else one with a word that does ("hopper" finds "90  Hopper: H100");
 * case and punctuation ignored. -1 when none. */
static int
choice_find(const struct vm_row *row, const char *typed)
{
	int		 i;
	const char	*p;

	for (i = 0; i < (int)row->nchoices; i++)
		if (vm_typeahead_match(row->choices[i].text, typed))
			return i;
	for (i = 0; i < (int)row->nchoices; i++)
		for (p = strchr(row->choices[i].text, ' '); p != NULL;
		    p = strchr(p + 1, ' '))
			if (vm_typeahead_match(p + 1, typed))
				return i;
	return -1;
}

/*
 * Pick one of the focused field's values. Up/Down (j/k), Home/End,
 * PgUp/PgDn move; typing letters or digits jumps to the first value that
 * begins with them (Backspace takes one back, Esc clears them first). A
 * letter that is a key of the box (j k q, and f on an unavailable value)
 * is that key unless typing has begun or a value begins with it (f on an
 * unavailable value always fixes).
 */
static void
pick_choice(struct ui *ui)
{
	const struct vm_row	*row = vm_focused(ui->vm);
	int			 cur = 0, c, i, page;
	struct buf		 msg = { 0 };
	char			*refused = NULL, typed[32] = "";
	size_t			 tl;

	if (row == NULL || row->nchoices == 0)
		return;
	for (i = 0; i < (int)row->nchoices; i++)
		if (row->choices[i].current)
			cur = i;
	for (;;) {
		row = vm_focused(ui->vm);
		if (row == NULL || row->nchoices == 0)
			break;
		if (cur >= (int)row->nchoices)
			cur = (int)row->nchoices - 1;
		if (!choice_draw(ui, row, cur, refused, typed)) {
			c = wiz_getkey();
			if (c == -2 || c == 27 || c == 'q')
				break;
			continue;
		}
		free(refused);
		refused = NULL;
		c = wiz_getkey();
		tl = strlen(typed);
		page = LINES - 6 > 1 ? LINES - 6 : 1;
		if (c == 27 && tl > 0) {
			typed[0] = '\0';
			continue;
		}
		if (c == -2 || c == 27 || (c == 'q' && tl == 0 &&
		    choice_find(row, "q") < 0))
			break;
		if (is_backspace(c) && tl > 0) {
			typed[tl - 1] = '\0';
			if (tl > 1 && (i = choice_find(row, typed)) >= 0)
				cur = i;
			continue;
		}
		if (c == 'f' && tl == 0 && row->choices[cur].blocker != NULL) {
			wiz_fix(ui, cur);
			break;
		}
		if (c < 128 && c > ' ' && (isalnum(c) || c == '-' ||
		    c == '_' || c == '.') && (tl > 0 || ((c != 'j' &&
		    c != 'k' && c != 'f') || choice_find(row,
		    (char[]){ (char)c, '\0' }) >= 0))) {
			if (tl + 1 < sizeof typed) {
				typed[tl] = (char)c;
				typed[tl + 1] = '\0';
			}
			if ((i = choice_find(row, typed)) >= 0)
				cur = i;
			else
				refused = xasprintf("no value begins with '%s' "
				    "(Backspace takes a letter back, Esc "
				    "clears)", typed);
			continue;
		}
		typed[0] = '\0';
		if ((c == KEY_DOWN || c == 'j') && cur + 1 < (int)row->nchoices)
			cur++;
		else if ((c == KEY_UP || c == 'k') && cur > 0)
			cur--;
		else if (c == KEY_HOME)
			cur = 0;
		else if (c == KEY_END)
			cur = (int)row->nchoices - 1;
		else if (c == KEY_NPAGE)
			cur = cur + page < (int)row->nchoices ? cur + page :
			    (int)row->nchoices - 1;
		else if (c == KEY_PPAGE)
			cur = cur - page > 0 ? cur - page : 0;
		else if (c == '?' || c == KEY_F(1)) {
			if (c == '?')
				choice_help(ui, cur, refused);
			else
				wiz_key_screen(ui);
		} else if (c == 'f') {
			wiz_fix(ui, cur);
			break;
		} else if (is_enter(c) || c == ' ') {
			if (vm_set(ui->vm, vm_cur_page(ui->vm), row->field,
			    row->choices[cur].v, &msg) != 0) {
				refused = xstrdup(text_of(&msg));
				continue;
			}
			wiz_set_status(ui, "%s", text_of(&msg));
			break;
		}
	}
	buf_free(&msg);
	free(refused);
}

void
wiz_edit_field(struct ui *ui)
{
	const struct vm_row	*row = vm_focused(ui->vm);
	char			*init, *text, *label, *hint;
	struct buf		 msg = { 0 };
	bool			 prefilled = false;

	if (row == NULL)
		return;
	if (row->is_bool) {
		if (vm_toggle(ui->vm, &msg) != 0 ||
		    strstr(text_of(&msg), "set") != NULL)
			wiz_set_status(ui, "%s", text_of(&msg));
		buf_free(&msg);
		return;
	}
	if (row->nchoices > 0) {
		pick_choice(ui);
		return;
	}
	init = vm_edit_text(ui->vm);
	/* Nothing set: the value in effect, pre-filled (when it is one to
	 * type: not "(none)" or a description); given back unchanged, it
	 * stays unset. */
	if (init[0] == '\0' && row->value[0] != '\0' &&
	    row->value[0] != '(' && row->value[0] != '<' &&
	    strchr(row->value, ' ') == NULL) {
		free(init);
		init = xstrdup(row->value);
		prefilled = true;
	}
	/* A layout value: empty goes back to the derived one. */
	if (row->derived)
		hint = xasprintf("(empty = derived %s)  Enter sets it, Esc "
		    "cancels", row->value);
	else
		hint = xasprintf("(empty = %s)  Enter sets it, Esc cancels",
		    row->layout ? "derived" : "default");
	label = xstrdup(row->f->label);
	text = wiz_prompt_hint(ui, label, hint, init);
	free(label);
	free(hint);
	/* Unchanged is no change, unless the roles differ (a shared field
	 * split between them): then the value shown is the prefill's, and
	 * Enter on it sets it for both. */
	if (text != NULL && prefilled && strcmp(text, init) == 0) {
		char	*sp, *sd;
		bool	 split = vm_shared_split(ui->vm, &sp, &sd);

		free(sp);
		free(sd);
		if (split)
			prefilled = false;
	}
	if (text != NULL && prefilled && strcmp(text, init) == 0) {
		free(text);
		free(init);
		wiz_set_status(ui, "%s unchanged", row->f->label);
		return;
	}
	free(init);
	if (text == NULL) {
		wiz_set_status(ui, "cancelled");
		return;
	}
	vm_set_text(ui->vm, vm_cur_page(ui->vm), row->field, text, &msg);
	wiz_set_status(ui, "%s", text_of(&msg));
	buf_free(&msg);
	free(text);
}

/* The search box: the query's matches under the title, sel highlighted. */
static void
search_draw(struct ui *ui, const char *q, const struct vm_hit *hits,
    size_t n, int sel)
{
	int	h, w, bh;
	size_t	i;
	char	*l;

	wiz_draw(ui);
	getmaxyx(stdscr, h, w);
	if (w < MIN_W || h < MIN_H)
		return;
	bh = (int)n + 1;
	if (bh > h - 5)
		bh = h - 5;
	for (i = 0; (int)i < bh; i++)
		mvhline(3 + (int)i, 0, ' ', w);
	attron(A_BOLD);
	wiz_put(3, 1, w - 2, n ? "matches (Enter jumps):" :
	    q[0] ? "no match" : "type to search every option");
	attroff(A_BOLD);
	for (i = 0; i < n && (int)i + 1 < bh; i++) {
		l = vm_hit_text(ui->vm, &hits[i]);
		if ((int)i == sel)
			attron(A_REVERSE);
		wiz_put_cut(4 + (int)i, 1, w - 2, l);
		if ((int)i == sel)
			attroff(A_REVERSE);
		free(l);
	}
	l = xasprintf("/%s", q);
	mvhline(h - 2, 0, ' ', w);
	wiz_put(h - 2, 0, w, l);
	move(h - 2, (int)strlen(l) < w ? (int)strlen(l) : w - 1);
	free(l);
	refresh();
}

void
wiz_search(struct ui *ui)
{
	struct buf	 q = { 0 };
	size_t		 n;
	struct vm_hit	 hits[12];
	int		 sel = 0, c;
	char		*l;

	buf_puts(&q, "");
	for (;;) {
		n = vm_search(ui->vm, q.s, hits, 12);
		if (sel >= (int)n)
			sel = n > 0 ? (int)n - 1 : 0;
		search_draw(ui, q.s, hits, n, sel);
		c = wiz_getkey();
		if (c == -2 || c == 27)
			break;
		if (is_enter(c)) {
			if (n > 0) {
				vm_goto(ui->vm, hits[sel].page, hits[sel].field);
				l = vm_hit_text(ui->vm, &hits[sel]);
				wiz_set_status(ui, "found: %s", l);
				free(l);
			}
			break;
		}
		if (c == KEY_DOWN && sel + 1 < (int)n)
			sel++;
		else if (c == KEY_UP && sel > 0)
			sel--;
		else if (is_backspace(c)) {
			if (q.len > 0)
				q.s[--q.len] = '\0';
			sel = 0;
		} else if (c >= 32 && c < 256) {
			buf_putc(&q, (char)c);
			sel = 0;
		}
	}
	buf_free(&q);
}

/* Do paths a and b name one file (the same path, or the same inode)? */
static bool
same_file(const char *a, const char *b)
{
	struct stat	sa, sb;

	if (a == NULL || b == NULL)
		return false;
	if (strcmp(a, b) == 0)
		return true;
	return stat(a, &sa) == 0 && stat(b, &sb) == 0 &&
	    sa.st_dev == sb.st_dev && sa.st_ino == sb.st_ino;
}

bool
wiz_save(struct ui *ui)
{
	char		*path, *q;
	struct buf	 msg = { 0 };
	int		 rc, c;

	path = wiz_prompt(ui, "save deployment to", ui->save_path ?
	    ui->save_path : vm_path(ui->vm) ? vm_path(ui->vm) :
	    "deployment.yaml");
	if (path == NULL || *path == '\0') {
		free(path);
		wiz_set_status(ui, "not saved");
		return false;
	}
	/* The file the wizard opened (or last saved) is just saved: only a
	 * different file that exists is asked about (and one that did not
	 * load, which what is shown did not come from). */
	rc = vm_save(ui->vm, path, !vm_load_failed(ui->vm) &&
	    same_file(path, vm_path(ui->vm)), &msg);
	if (rc == 1) {
		q = xasprintf("%s exists. Overwrite it? (y/n) ", path);
		c = wiz_ask(ui, q);
		free(q);
		if (c != 'y' && c != 'Y') {
			wiz_set_status(ui, "not saved");
			buf_free(&msg);
			free(path);
			return false;
		}
		rc = vm_save(ui->vm, path, true, &msg);
	}
	wiz_set_status(ui, "%s", text_of(&msg));
	buf_free(&msg);
	if (rc == 0) {
		free(ui->save_path);
		ui->save_path = path;
		return true;
	}
	free(path);
	return false;
}

/* Ask a yes/no question built from fmt and msg. */
static bool
confirm(struct ui *ui, const char *fmt, const char *msg)
{
	char	*q = xasprintf(fmt, msg);
	int	 c = wiz_ask(ui, q);

	free(q);
	return c == 'y' || c == 'Y';
}

/* Export to path, asking before overwriting or exporting despite errors. */
static void
export_to(struct ui *ui, const char *fmt, const char *path)
{
	struct buf	msg = { 0 };
	unsigned	flags = 0;
	int		rc;

	for (;;) {
		rc = vm_export(ui->vm, fmt, path, flags, &msg);
		if (rc == 1) {
			if (!confirm(ui, "%s. Overwrite? (y/n) ", text_of(&msg)))
				break;
			flags |= VM_EXPORT_OVERWRITE;
			continue;
		}
		if (rc == 2) {
			if (!confirm(ui, "%s: export anyway, marked as failing "
			    "validation? (y/n) ", text_of(&msg)))
				break;
			flags |= VM_EXPORT_FAILING;
			continue;
		}
		wiz_set_status(ui, "%s", text_of(&msg));
		buf_free(&msg);
		return;
	}
	wiz_set_status(ui, "export cancelled");
	buf_free(&msg);
}

void
wiz_export(struct ui *ui)
{
	struct buf	 ask = { 0 };
	char		*q, *path;
	const char	*fmt;
	enum emit_format e;
	size_t		 n;
	int		 c;

	/* The formats and their words come from the emitters' table. */
	buf_puts(&ask, "export:");
	for (n = 0; (fmt = vm_export_format(n)) != NULL && n < 9; n++)
		if (emit_format_parse(fmt, &e) == 0)
			buf_printf(&ask, " %zu %s ", n + 1, emit_formats[e].key);
	buf_puts(&ask, " (Esc cancels) ");
	c = wiz_ask(ui, ask.s);
	buf_free(&ask);
	/* Type-ahead: the one format whose word begins with the letter. */
	if (c > ' ' && c < 127 && !(c >= '0' && c <= '9')) {
		size_t	k, hit = n, hits = 0;

		for (k = 0; k < n; k++)
			if (emit_format_parse(vm_export_format(k), &e) == 0 &&
			    emit_formats[e].key[0] == c) {
				hit = k;
				hits++;
			}
		if (hits == 1)
			c = '1' + (int)hit;
	}
	if (c < '1' || c > '0' + (int)n) {
		wiz_set_status(ui, "export cancelled");
		return;
	}
	fmt = vm_export_format((size_t)(c - '1'));
	(void)emit_format_parse(fmt, &e);
	q = xasprintf("export %s to", emit_formats[e].what);
	{
		char	*def = vm_export_default_path(ui->vm, fmt);

		path = wiz_prompt(ui, q, def);
		free(def);
	}
	free(q);
	if (path == NULL || *path == '\0') {
		free(path);
		wiz_set_status(ui, "export cancelled");
		return;
	}
	export_to(ui, fmt, path);
	free(path);
}

/* Show the unsaved changes and the question; returns the answer. */
static int
quit_ask(const char *text)
{
	struct lines	ls;
	size_t		i;
	int		c, h, w;

	for (;;) {
		getmaxyx(stdscr, h, w);
		erase();
		wiz_wrap(text, w - 4, (size_t)-1, &ls);
		attron(A_REVERSE);
		mvhline(0, 0, ' ', w);
		wiz_put(0, 1, w - 2, "Quit pdwiz");
		attroff(A_REVERSE);
		for (i = 0; i < ls.n && (int)i < h - 2; i++)
			wiz_put((int)i + 1, 2, w - 4, ls.l[i]);
		move(h - 1 > (int)ls.n + 1 ? (int)ls.n + 1 : h - 1, 2);
		wiz_lines_free(&ls);
		refresh();
		c = wiz_getkey();
		if (c != KEY_RESIZE)
			return c;
	}
}

void
wiz_quit(struct ui *ui)
{
	char	*ch, *text;
	int	 c;

	if (!vm_dirty(ui->vm)) {
		ui->quit = true;
		return;
	}
	ch = vm_changes(ui->vm);
	text = xasprintf("Unsaved changes:\n\n%s\nSave them? y = save, "
	    "n = quit without saving, c or Esc = keep editing", ch);
	free(ch);
	c = quit_ask(text);
	free(text);
	if (c == 'n' || c == 'N' || c == -2)
		ui->quit = true;
	else if (c == 'y' || c == 'Y') {
		if (wiz_save(ui))
			ui->quit = true;
	} else
		wiz_set_status(ui, "quit cancelled");
}

void
wiz_review_enter(struct ui *ui)
{
	const struct vm_review_item	*it;
	size_t				 n = vm_review(ui->vm, &it);
	int				 cur = vm_cur_row(ui->vm);

	if (cur < 0 || (size_t)cur >= n)
		return;
	if (it[cur].page < 0) {
		char	*t = vm_review_text(ui->vm, (size_t)cur);

		wiz_textbox(ui, "Problem", t);
		free(t);
		return;
	}
	vm_goto(ui->vm, it[cur].page, it[cur].field);
	wiz_set_status(ui, "%s", it[cur].msg);
}
