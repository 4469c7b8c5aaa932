/*
 * wizard.c - the curses front end of the wizard: draws view-model snapshots
 * (vm.h) and turns keys into intents. It decides nothing about SGLang.
 *
 * Layout, top to bottom: header, page title, intro, fields (scrolling),
 * optional preview pane, status line, key hints. Every state has a text
 * marker (colour only repeats it); the real cursor sits on the focused item.
 */
#include <curses.h>
#include <langinfo.h>
#include <locale.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <wchar.h>

#include "cli/cli.h"
#include "core/util.h"
#include "tui/vm.h"

int	wizard_main(int, char **);

#define MIN_W	56
#define MIN_H	14

enum { C_TITLE = 1, C_ERROR, C_WARN, C_FORCED, C_BLOCKED, C_OK };

static volatile sig_atomic_t	 got_signal;
static bool			 curses_on;
static bool			 use_colors;
static const char		*mark_x = "x";	/* unavailable marker */

static void
ui_end(void)
{
	if (curses_on) {
		endwin();
		curses_on = false;
	}
}

static void
on_term_signal(int sig)
{
	got_signal = sig;
}

static void
on_fatal_signal(int sig)
{
	/* Restore the terminal before dying (endwin is what every curses
	 * program does here; we are about to exit anyway). */
	if (curses_on)
		endwin();
	signal(sig, SIG_DFL);
	raise(sig);
}

/* ---- drawing helpers ---- */

static int
attr_of(int pair, int fallback)
{
	if (use_colors)
		return COLOR_PAIR(pair) | fallback;
	return fallback;
}

/* Put s at (y, x), at most cols columns, UTF-8 aware. Returns columns used. */
static int
put(int y, int x, int cols, const char *s)
{
	wchar_t		 w[1024];
	size_t		 n;
	int		 used = 0, cw;
	size_t		 i;

	if (cols <= 0)
		return 0;
	n = mbstowcs(w, s, 1023);
	if (n == (size_t)-1) {
		mvaddnstr(y, x, s, cols);
		return (int)strlen(s) < cols ? (int)strlen(s) : cols;
	}
	w[n] = L'\0';
	for (i = 0; i < n; i++) {
		if (w[i] == L'\n' || w[i] == L'\t')
			w[i] = L' ';
		cw = wcwidth(w[i]);
		if (cw < 0)
			cw = 1;
		if (used + cw > cols)
			break;
		used += cw;
	}
	mvaddnwstr(y, x, w, (int)i);
	return used;
}

static void
hline_at(int y, int w)
{
	mvhline(y, 0, ACS_HLINE, w);
}

/* Wrap text into lines of at most width columns (ASCII-ish widths). */
static size_t
wrap(const char *text, int width, char lines[][256], size_t max)
{
	size_t		 n = 0;
	const char	*p = text;

	if (width < 10)
		width = 10;
	if (width > 255)
		width = 255;
	while (*p != '\0' && n < max) {
		const char	*nl = strchr(p, '\n');
		size_t		 len = nl ? (size_t)(nl - p) : strlen(p);
		size_t		 take = len;

		if (take > (size_t)width) {
			take = (size_t)width;
			while (take > 0 && p[take] != ' ')
				take--;
			if (take == 0)
				take = (size_t)width;
		}
		memcpy(lines[n], p, take);
		lines[n][take] = '\0';
		n++;
		p += take;
		if (take == len && nl != NULL)
			p++;
		else
			while (*p == ' ')
				p++;
	}
	return n;
}

/* ---- state of the front end ---- */

struct ui {
	struct vm	*vm;
	bool		 preview;
	char		 status[1024];
	bool		 status_sticky;		/* keep until next key */
	int		 top;			/* first visible row */
	bool		 quit;
	char		*save_path;
};

static void
set_status(struct ui *ui, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
set_status(struct ui *ui, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(ui->status, sizeof ui->status, fmt, ap);
	va_end(ap);
	ui->status_sticky = true;
}

static void
draw_too_small(void)
{
	int	h, w;
	char	m[128];

	getmaxyx(stdscr, h, w);
	erase();
	snprintf(m, sizeof m, "pdwiz needs at least %dx%d; this terminal is "
	    "%dx%d. Enlarge it, or q to quit.", MIN_W, MIN_H, w, h);
	{
		char	l[8][256];
		size_t	n = wrap(m, w - 1, l, 8), i;

		for (i = 0; i < n && (int)i < h; i++)
			put((int)i, 0, w, l[i]);
	}
	move(0, 0);
	refresh();
}

static void
draw_header(struct ui *ui, int w)
{
	const struct vm_page	*p = vm_page(ui->vm, (size_t)vm_cur_page(ui->vm));
	char			 l[512], r[128];
	size_t			 ne, nw, no, i, shown = 0, idx = 0;

	vm_counts(ui->vm, &ne, &nw, &no);
	for (i = 0; i < vm_npages(ui->vm); i++)
		if (vm_page_visible(ui->vm, i)) {
			shown++;
			if ((int)i == vm_cur_page(ui->vm))
				idx = shown;
		}
	snprintf(l, sizeof l, " pdwiz  %s%s", vm_path(ui->vm) ?
	    vm_path(ui->vm) : "new deployment", vm_dirty(ui->vm) ?
	    " [modified]" : "");
	snprintf(r, sizeof r, "%zu error%s %zu warning%s ", ne, ne == 1 ?
	    "" : "s", nw, nw == 1 ? "" : "s");
	attron(A_REVERSE);
	mvhline(0, 0, ' ', w);
	put(0, 0, w, l);
	if ((int)(strlen(l) + strlen(r) + 2) < w)
		put(0, w - (int)strlen(r), (int)strlen(r), r);
	attroff(A_REVERSE);
	snprintf(l, sizeof l, " %zu/%zu  %s", idx, shown, p->title);
	attron(attr_of(C_TITLE, A_BOLD));
	put(1, 0, w, l);
	attroff(attr_of(C_TITLE, A_BOLD));
}

static void
row_text(const struct vm_row *row, char *val, size_t vlen, char *mark,
    size_t mlen)
{
	size_t	i;

	if (row->is_bool)
		snprintf(val, vlen, "[%s] %s", row->on ? "x" : " ", row->value);
	else if (row->nchoices > 0)
		snprintf(val, vlen, "<%s>", row->value);
	else
		snprintf(val, vlen, "%s", row->value);
	mark[0] = '\0';
	if (row->error)
		snprintf(mark, mlen, "!! ERROR ");
	else if (row->warning)
		snprintf(mark, mlen, "! warning ");
	if (row->nblocked > 0) {
		size_t	l = strlen(mark);

		if (row->is_bool) {
			for (i = 0; i < row->nchoices; i++)
				if (row->choices[i].blocker != NULL)
					snprintf(mark + l, mlen - l,
					    "%s %s unavailable", mark_x,
					    row->choices[i].text);
		} else
			snprintf(mark + l, mlen - l, "%s %zu unavailable",
			    mark_x, row->nblocked);
	}
}

static int
draw_intro(struct ui *ui, int y, int w, int maxlines)
{
	const struct vm_page	*p = vm_page(ui->vm, (size_t)vm_cur_page(ui->vm));
	char			 l[4][256];
	size_t			 n, i;

	if (p->intro == NULL || maxlines <= 0)
		return y;
	n = wrap(p->intro, w - 2, l, (size_t)maxlines < 4 ? (size_t)maxlines : 4);
	for (i = 0; i < n; i++)
		put(y++, 1, w - 2, l[i]);
	return y;
}

/* Draw the fields; returns the cursor position. */
static void
draw_fields(struct ui *ui, int y0, int y1, int w, int *cy, int *cx)
{
	const struct vm_row	*rows;
	size_t			 n = vm_rows(ui->vm, &rows), i;
	int			 cur = vm_cur_row(ui->vm);
	int			 height = y1 - y0, lw;

	*cy = y0;
	*cx = 0;
	if (height <= 0)
		return;
	if (cur < ui->top)
		ui->top = cur;
	if (cur >= ui->top + height)
		ui->top = cur - height + 1;
	if (ui->top < 0)
		ui->top = 0;
	lw = w < 90 ? w * 2 / 5 : 36;
	for (i = (size_t)ui->top; i < n && (int)(i - (size_t)ui->top) < height;
	    i++) {
		const struct vm_row	*row = &rows[i];
		int			 y = y0 + (int)(i - (size_t)ui->top);
		char			 val[256], mark[128], note[256];
		int			 x, a = 0;
		bool			 focus = (int)i == cur;

		row_text(row, val, sizeof val, mark, sizeof mark);
		/* "(default)" only where there is room for it. */
		snprintf(note, sizeof note, "%s", w < 100 &&
		    strcmp(row->note, "(default)") == 0 ? "" : row->note);
		if (focus)
			attron(A_REVERSE);
		mvhline(y, 0, ' ', w);
		put(y, 0, 2, focus ? ">" : " ");
		put(y, 2, lw - 2, row->f->label);
		x = lw + 1;
		x += put(y, x, w - x, val) + 1;
		if (focus)
			attroff(A_REVERSE);
		if (row->forced)
			a = attr_of(C_FORCED, A_DIM);
		if (note[0] != '\0' && x < w) {
			attron(a);
			x += put(y, x, w - x, note) + 1;
			attroff(a);
		}
		if (mark[0] != '\0' && x < w) {
			a = row->error ? attr_of(C_ERROR, A_BOLD) :
			    attr_of(C_BLOCKED, A_BOLD);
			attron(a);
			put(y, x, w - x, mark);
			attroff(a);
		}
		if (focus) {
			*cy = y;
			*cx = 0;
		}
	}
	if (n == 0)
		put(y0, 2, w - 2, "(nothing to set here for this deployment)");
}

static void
draw_review(struct ui *ui, int y0, int y1, int w, int *cy, int *cx)
{
	const struct vm_review_item	*it;
	size_t				 n = vm_review(ui->vm, &it), i;
	int				 cur = vm_cur_row(ui->vm);
	int				 height = y1 - y0;
	static const char *const	 sev[] = { "ERROR", "warning",
		"override", "not checked" };

	(void)cur;
	*cy = y0;
	*cx = 0;
	cur = 0;
	{
		/* vm keeps the focused item index in its field slot */
		const struct vm_page	*p;

		p = vm_page(ui->vm, (size_t)vm_cur_page(ui->vm));
		(void)p;
	}
	cur = vm_cur_row(ui->vm);
	if (n == 0) {
		put(y0, 2, w - 2, "No problems: SGLang would accept every "
		    "server of this deployment.");
		return;
	}
	if (cur < ui->top)
		ui->top = cur;
	if (cur >= ui->top + height)
		ui->top = cur - height + 1;
	for (i = (size_t)ui->top; i < n && (int)(i - (size_t)ui->top) < height;
	    i++) {
		int	y = y0 + (int)(i - (size_t)ui->top);
		char	l[1024];
		bool	focus = (int)i == cur;
		int	a = it[i].sev == SEV_ERROR ? attr_of(C_ERROR, A_BOLD) :
		    it[i].sev == SEV_WARNING ? attr_of(C_WARN, 0) : 0;

		snprintf(l, sizeof l, "%-10s %-11s %s %s", vm_scope_name(
		    it[i].role), sev[it[i].sev], it[i].page < 0 ? " " : "→",
		    it[i].msg);
		if (focus)
			a |= A_REVERSE;
		attron(a);
		mvhline(y, 0, ' ', w);
		put(y, 0, 2, focus ? ">" : " ");
		put(y, 2, w - 2, l);
		attroff(a);
		if (focus)
			*cy = y;
	}
}

static void
draw_preview(struct ui *ui, int y0, int y1, int w)
{
	char		*text = vm_preview(ui->vm);
	const char	*p = text;
	int		 y = y0;

	hline_at(y0 - 1, w);
	put(y0 - 1, 2, w - 4, " preview: launch commands (p hides) ");
	while (p != NULL && *p != '\0' && y < y1) {
		const char	*nl = strchr(p, '\n');
		size_t		 len = nl ? (size_t)(nl - p) : strlen(p);
		char		 line[512];

		if (len >= sizeof line)
			len = sizeof line - 1;
		memcpy(line, p, len);
		line[len] = '\0';
		put(y++, 0, w, line);
		p = nl ? nl + 1 : NULL;
	}
	free(text);
}

static void
draw_keys(int y, int w)
{
	const char	*k;

	if (w >= 100)
		k = " ↑↓ move  Enter edit  Tab page  / search  ? help  f fix  "
		    "u undo  ^R redo  p preview  s save  e export  q quit";
	else if (w >= 80)
		k = " ↑↓ Enter Tab  /search ?help f fix u undo p preview "
		    "s save e export q quit";
	else
		k = " ↑↓ Enter Tab / ? f u ^R p s e q";
	attron(A_REVERSE);
	mvhline(y, 0, ' ', w);
	put(y, 0, w, k);
	attroff(A_REVERSE);
}

static void
draw(struct ui *ui)
{
	int			 h, w, y, y1, cy, cx, fh;
	const struct vm_page	*p;
	char			 st[1024];

	getmaxyx(stdscr, h, w);
	if (w < MIN_W || h < MIN_H) {
		draw_too_small();
		return;
	}
	erase();
	p = vm_page(ui->vm, (size_t)vm_cur_page(ui->vm));
	draw_header(ui, w);
	y = draw_intro(ui, 2, w, h >= 20 ? 2 : 1);
	y++;
	y1 = h - (h >= 20 ? 3 : 2);
	fh = y1 - y;
	if (ui->preview && fh > 6) {
		int	ph = fh / 2;

		draw_preview(ui, y1 - ph + 1, y1, w);
		y1 = y1 - ph;
	}
	if (p->review)
		draw_review(ui, y, y1, w, &cy, &cx);
	else
		draw_fields(ui, y, y1, w, &cy, &cx);
	/* Status: a message, else the focused field's problem, else help. */
	st[0] = '\0';
	if (ui->status_sticky)
		snprintf(st, sizeof st, "%s", ui->status);
	else if (!p->review) {
		const struct vm_row	*row = vm_focused(ui->vm);

		if (vm_focus_problem(ui->vm, st, sizeof st) != NULL)
			strncat(st, "  [f fix, ? why]", sizeof st - strlen(st) - 1);
		else if (row != NULL && row->forced)
			snprintf(st, sizeof st, "%s: %s", row->f->label,
			    row->note);
		else if (row != NULL && vm_load_note(ui->vm) != NULL)
			snprintf(st, sizeof st, "%s", vm_load_note(ui->vm));
	}
	if (st[0] != '\0') {
		int	a = strstr(st, "unavailable") || strstr(st, "error") ?
		    attr_of(C_ERROR, A_BOLD) : (int)A_BOLD;
		char	l[3][256];
		size_t	n = wrap(st, w - 1, l, 2), i;

		/* A long message takes the line above too (over the fields). */
		attron(a);
		for (i = 0; i < n; i++) {
			int	sy = h - 1 - (int)n + (int)i;

			mvhline(sy, 0, ' ', w);
			put(sy, 0, w, l[i]);
		}
		attroff(a);
	}
	draw_keys(h - 1, w);
	move(cy, cx);
	refresh();
}

/* ---- modal helpers ---- */

static int
getkey(void)
{
	int	c;

	for (;;) {
		c = getch();
		if (got_signal)
			return -2;
		if (c != ERR)
			return c;
	}
}

/* Read a line at the status row. Returns malloc'd text or NULL (Esc). */
static char *
prompt(struct ui *ui, const char *label, const char *init)
{
	char	buf[512];
	size_t	len;
	int	c, h, w;

	snprintf(buf, sizeof buf, "%s", init ? init : "");
	len = strlen(buf);
	for (;;) {
		char	line[1024];

		draw(ui);
		getmaxyx(stdscr, h, w);
		snprintf(line, sizeof line, "%s%s", label, buf);
		mvhline(h - 2, 0, ' ', w);
		attron(A_BOLD);
		put(h - 2, 0, w, line);
		attroff(A_BOLD);
		move(h - 2, (int)strlen(line) < w ? (int)strlen(line) : w - 1);
		refresh();
		c = getkey();
		if (c == -2 || c == 27)
			return NULL;
		if (c == '\n' || c == '\r' || c == KEY_ENTER)
			return xstrdup(buf);
		if (c == KEY_BACKSPACE || c == 127 || c == 8) {
			if (len > 0)
				buf[--len] = '\0';
		} else if (c == 21) {		/* ^U */
			len = 0;
			buf[0] = '\0';
		} else if (c >= 32 && c < 256 && len + 1 < sizeof buf) {
			buf[len++] = (char)c;
			buf[len] = '\0';
		}
	}
}

/* Ask a one-key question at the status row; returns the key. */
static int
ask(struct ui *ui, const char *q)
{
	int	h, w, c;

	for (;;) {
		draw(ui);
		getmaxyx(stdscr, h, w);
		mvhline(h - 2, 0, ' ', w);
		attron(A_BOLD);
		put(h - 2, 0, w, q);
		attroff(A_BOLD);
		move(h - 2, (int)strlen(q) < w ? (int)strlen(q) : w - 1);
		refresh();
		c = getkey();
		if (c != KEY_RESIZE)
			return c;
	}
}

/* A scrollable text box over the screen; any of q Esc ? Enter closes. */
static void
textbox(struct ui *ui, const char *title, const char *text)
{
	static char	lines[400][256];
	size_t		n, i;
	int		top = 0, c, h, w;

	(void)ui;
	for (;;) {
		getmaxyx(stdscr, h, w);
		if (w < MIN_W || h < MIN_H) {
			draw_too_small();
			c = getkey();
			if (c == -2 || c == 'q')
				return;
			continue;
		}
		n = wrap(text, w - 4, lines, 400);
		erase();
		attron(A_REVERSE);
		mvhline(0, 0, ' ', w);
		put(0, 1, w - 2, title);
		attroff(A_REVERSE);
		for (i = 0; (int)i < h - 2 && (size_t)top + i < n; i++)
			put((int)i + 1, 2, w - 4, lines[(size_t)top + i]);
		attron(A_REVERSE);
		mvhline(h - 1, 0, ' ', w);
		put(h - 1, 1, w - 2, " ↑↓ PgUp PgDn scroll   q/Esc close");
		attroff(A_REVERSE);
		move(1, 2);
		refresh();
		c = getkey();
		if (c == -2 || c == 'q' || c == 27 || c == '?' || c == '\n' ||
		    c == '\r' || c == KEY_ENTER)
			return;
		if ((c == KEY_DOWN || c == 'j') && top + h - 2 < (int)n)
			top++;
		else if ((c == KEY_UP || c == 'k') && top > 0)
			top--;
		else if (c == KEY_NPAGE || c == ' ')
			top = top + h - 3 < (int)n ? top + h - 3 : top;
		else if (c == KEY_PPAGE)
			top = top > h - 3 ? top - (h - 3) : 0;
	}
}

/* Pick one of the focused field's values. */
static void
pick_choice(struct ui *ui)
{
	const struct vm_row	*row = vm_focused(ui->vm);
	int			 cur = 0, c, h, w, i, bw, bh, by, bx;
	char			 msg[1024], refused[1024] = "";

	if (row == NULL || row->nchoices == 0)
		return;
	for (i = 0; i < (int)row->nchoices; i++)
		if (row->choices[i].current)
			cur = i;
	for (;;) {
		row = vm_focused(ui->vm);
		if (row == NULL || row->nchoices == 0)
			return;
		if (cur >= (int)row->nchoices)
			cur = (int)row->nchoices - 1;
		draw(ui);
		getmaxyx(stdscr, h, w);
		if (w < MIN_W || h < MIN_H) {
			c = getkey();
			if (c == -2 || c == 27 || c == 'q')
				return;
			continue;
		}
		bh = (int)row->nchoices + 2;
		if (bh > h - 4)
			bh = h - 4;
		bw = 40;
		by = 3;
		bx = w - bw - 2;
		if (bx < 2)
			bx = 2;
		for (i = 0; i < bh; i++)
			mvhline(by + i, bx, ' ', bw);
		attron(A_BOLD);
		put(by, bx + 1, bw - 2, row->f->label);
		attroff(A_BOLD);
		{
			int	first = cur - (bh - 3) < 0 ? 0 : cur - (bh - 3);

			for (i = first; i < (int)row->nchoices &&
			    i - first < bh - 2; i++) {
				const struct vm_choice	*ch = &row->choices[i];
				char			 l[128];
				int			 a = i == cur ? A_REVERSE : 0;

				if (ch->blocker != NULL)
					a |= attr_of(C_BLOCKED, A_DIM);
				snprintf(l, sizeof l, "%s %s %s%s",
				    i == cur ? ">" : " ", ch->current ? "(*)" :
				    "( )", ch->text, ch->blocker ? "  " : "");
				if (ch->blocker)
					snprintf(l + strlen(l), sizeof l -
					    strlen(l), "%s unavailable", mark_x);
				attron(a);
				mvhline(by + 1 + i - first, bx, ' ', bw);
				put(by + 1 + i - first, bx + 1, bw - 2, l);
				attroff(a);
			}
		}
		if (refused[0] != '\0')
			snprintf(msg, sizeof msg, "%s", refused);
		else
			vm_choice_problem(ui->vm, cur, msg, sizeof msg);
		refused[0] = '\0';
		mvhline(h - 2, 0, ' ', w);
		mvhline(h - 3, 0, ' ', w);
		if (msg[0] != '\0') {
			char	l[2][256];
			size_t	n = wrap(msg, w - 1, l, 2), k;

			attron(attr_of(C_ERROR, A_BOLD));
			for (k = 0; k < n; k++)
				put(h - 1 - (int)n + (int)k, 0, w, l[k]);
			attroff(attr_of(C_ERROR, A_BOLD));
		} else
			put(h - 2, 0, w, "Enter choose  f fix  Esc back");
		{
			int	first = cur - (bh - 3) < 0 ? 0 : cur - (bh - 3);

			move(by + 1 + cur - first, bx + 1);
		}
		refresh();
		c = getkey();
		if (c == -2 || c == 27 || c == 'q')
			return;
		if ((c == KEY_DOWN || c == 'j') && cur + 1 < (int)row->nchoices)
			cur++;
		else if ((c == KEY_UP || c == 'k') && cur > 0)
			cur--;
		else if (c == 'f') {
			if (vm_fix_choice(ui->vm, cur, msg, sizeof msg) == 0)
				set_status(ui, "%s", msg);
			else
				set_status(ui, "%s", msg);
			return;
		} else if (c == '\n' || c == '\r' || c == KEY_ENTER || c == ' ') {
			struct value	v = row->choices[cur].v;

			if (vm_set(ui->vm, vm_cur_page(ui->vm), row->field, v,
			    msg, sizeof msg) != 0) {
				snprintf(refused, sizeof refused, "%s", msg);
				continue;
			}
			set_status(ui, "%s", msg);
			return;
		}
	}
}

static void
edit_field(struct ui *ui)
{
	const struct vm_row	*row = vm_focused(ui->vm);
	char			*init, *text, label[256], msg[1024];

	if (row == NULL)
		return;
	if (row->is_bool) {
		if (vm_toggle(ui->vm, msg, sizeof msg) != 0 ||
		    strstr(msg, "set") != NULL)
			set_status(ui, "%s", msg);
		return;
	}
	if (row->nchoices > 0) {
		pick_choice(ui);
		return;
	}
	init = vm_edit_text(ui->vm);
	snprintf(label, sizeof label, "%s (empty = default): ", row->f->label);
	text = prompt(ui, label, init);
	free(init);
	if (text == NULL) {
		set_status(ui, "cancelled");
		return;
	}
	vm_set_text(ui->vm, vm_cur_page(ui->vm), row->field, text, msg,
	    sizeof msg);
	set_status(ui, "%s", msg);
	free(text);
}

static void
search(struct ui *ui)
{
	char		 q[256] = "", l[512];
	size_t		 len = 0, n, i;
	struct vm_hit	 hits[12];
	int		 sel = 0, c, h, w;

	for (;;) {
		n = vm_search(ui->vm, q, hits, 12);
		if (sel >= (int)n)
			sel = n > 0 ? (int)n - 1 : 0;
		draw(ui);
		getmaxyx(stdscr, h, w);
		if (w >= MIN_W && h >= MIN_H) {
			int	bh = (int)n + 1;

			if (bh > h - 5)
				bh = h - 5;
			for (i = 0; (int)i < bh; i++)
				mvhline(3 + (int)i, 0, ' ', w);
			attron(A_BOLD);
			put(3, 1, w - 2, n ? "matches (Enter jumps):" :
			    q[0] ? "no match" : "type to search every option");
			attroff(A_BOLD);
			for (i = 0; i < n && (int)i + 1 < bh; i++) {
				vm_hit_text(ui->vm, &hits[i], l, sizeof l);
				if ((int)i == sel)
					attron(A_REVERSE);
				put(4 + (int)i, 1, w - 2, l);
				if ((int)i == sel)
					attroff(A_REVERSE);
			}
			snprintf(l, sizeof l, "/%s", q);
			mvhline(h - 2, 0, ' ', w);
			put(h - 2, 0, w, l);
			move(h - 2, (int)strlen(l) < w ? (int)strlen(l) : w - 1);
			refresh();
		}
		c = getkey();
		if (c == -2 || c == 27)
			return;
		if (c == '\n' || c == '\r' || c == KEY_ENTER) {
			if (n > 0) {
				vm_goto(ui->vm, hits[sel].page, hits[sel].field);
				vm_hit_text(ui->vm, &hits[sel], l, sizeof l);
				set_status(ui, "found: %s", l);
			}
			return;
		}
		if (c == KEY_DOWN && sel + 1 < (int)n)
			sel++;
		else if (c == KEY_UP && sel > 0)
			sel--;
		else if (c == KEY_BACKSPACE || c == 127 || c == 8) {
			if (len > 0)
				q[--len] = '\0';
			sel = 0;
		} else if (c >= 32 && c < 256 && len + 1 < sizeof q) {
			q[len++] = (char)c;
			q[len] = '\0';
			sel = 0;
		}
	}
}

/* Save with confirmation before overwriting; true when saved. */
static bool
save(struct ui *ui)
{
	char	*path, msg[1024];
	int	 rc;

	path = prompt(ui, "save deployment to: ", ui->save_path ?
	    ui->save_path : vm_path(ui->vm) ? vm_path(ui->vm) :
	    "deployment.yaml");
	if (path == NULL || *path == '\0') {
		free(path);
		set_status(ui, "not saved");
		return false;
	}
	rc = vm_save(ui->vm, path, false, msg, sizeof msg);
	if (rc == 1) {
		char	q[1024];
		int	c;

		snprintf(q, sizeof q, "%s exists. Overwrite it? (y/n) ", path);
		c = ask(ui, q);
		if (c == 'y' || c == 'Y')
			rc = vm_save(ui->vm, path, true, msg, sizeof msg);
		else {
			set_status(ui, "not saved");
			free(path);
			return false;
		}
	}
	set_status(ui, "%s", msg);
	if (rc == 0) {
		free(ui->save_path);
		ui->save_path = path;
		return true;
	}
	free(path);
	return false;
}

static void
export(struct ui *ui)
{
	static const char *const names[] = { "shell script", "runbook",
		"per-role --config YAML", "Kubernetes manifests" };
	char		 q[1200], msg[1024], *path;
	const char	*fmt;
	int		 c, rc;
	unsigned	 flags = 0;

	c = ask(ui, "export: 1 shell script  2 runbook  3 per-role config  "
	    "4 k8s  (Esc cancels) ");
	if (c < '1' || c > '4') {
		set_status(ui, "export cancelled");
		return;
	}
	fmt = vm_export_format((size_t)(c - '1'));
	snprintf(q, sizeof q, "export %s to: ", names[c - '1']);
	path = prompt(ui, q, vm_export_default_path(fmt));
	if (path == NULL || *path == '\0') {
		free(path);
		set_status(ui, "export cancelled");
		return;
	}
	for (;;) {
		rc = vm_export(ui->vm, fmt, path, flags, msg, sizeof msg);
		if (rc == 1) {
			snprintf(q, sizeof q, "%s. Overwrite? (y/n) ", msg);
			c = ask(ui, q);
			if (c != 'y' && c != 'Y')
				break;
			flags |= VM_EXPORT_OVERWRITE;
			continue;
		}
		if (rc == 2) {
			snprintf(q, sizeof q, "%s: export anyway, marked as "
			    "failing validation? (y/n) ", msg);
			c = ask(ui, q);
			if (c != 'y' && c != 'Y')
				break;
			flags |= VM_EXPORT_FAILING;
			continue;
		}
		set_status(ui, "%s", msg);
		free(path);
		return;
	}
	set_status(ui, "export cancelled");
	free(path);
}

/* Quit, asking to save only when something changed. */
static void
quit(struct ui *ui)
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
	for (;;) {
		int	h, w;
		char	l[64][256];
		size_t	n, i;

		getmaxyx(stdscr, h, w);
		erase();
		n = wrap(text, w - 4, l, 64);
		attron(A_REVERSE);
		mvhline(0, 0, ' ', w);
		put(0, 1, w - 2, "Quit pdwiz");
		attroff(A_REVERSE);
		for (i = 0; i < n && (int)i < h - 2; i++)
			put((int)i + 1, 2, w - 4, l[i]);
		move(h - 1 > (int)n + 1 ? (int)n + 1 : h - 1, 2);
		refresh();
		c = getkey();
		if (c == KEY_RESIZE)
			continue;
		break;
	}
	free(text);
	if (c == 'n' || c == 'N' || c == -2)
		ui->quit = true;
	else if (c == 'y' || c == 'Y') {
		if (save(ui))
			ui->quit = true;
	} else
		set_status(ui, "quit cancelled");
}

static void
review_enter(struct ui *ui)
{
	const struct vm_review_item	*it;
	size_t				 n = vm_review(ui->vm, &it);
	int				 cur = vm_cur_row(ui->vm);

	if (cur < 0 || (size_t)cur >= n)
		return;
	if (it[cur].page < 0) {
		set_status(ui, "no field for this: %s", it[cur].id);
		return;
	}
	vm_goto(ui->vm, it[cur].page, it[cur].field);
	set_status(ui, "%s", it[cur].msg);
}

/* ---- main loop ---- */

static void
key(struct ui *ui, int c, bool *last_esc)
{
	const struct vm_page	*p = vm_page(ui->vm, (size_t)vm_cur_page(ui->vm));
	char			 msg[1024];
	bool			 esc = false;
	int			 h, w;

	getmaxyx(stdscr, h, w);
	if (c != KEY_RESIZE)
		ui->status_sticky = false;
	if (w < MIN_W || h < MIN_H) {
		if (c == 'q')
			quit(ui);
		return;
	}
	switch (c) {
	case KEY_RESIZE:
		break;
	case KEY_UP:
	case 'k':
		vm_move(ui->vm, -1);
		break;
	case KEY_DOWN:
	case 'j':
		vm_move(ui->vm, 1);
		break;
	case KEY_HOME:
	case 'g':
		vm_move(ui->vm, -10000);
		break;
	case KEY_END:
	case 'G':
		vm_move(ui->vm, 10000);
		break;
	case '\t':
	case KEY_NPAGE:
		vm_page_step(ui->vm, 1);
		ui->top = 0;
		break;
	case KEY_BTAB:
	case KEY_PPAGE:
		vm_page_step(ui->vm, -1);
		ui->top = 0;
		break;
	case '\n':
	case '\r':
	case KEY_ENTER:
	case ' ':
		if (p->review)
			review_enter(ui);
		else
			edit_field(ui);
		break;
	case '?':
	case 'h': {
		char	*t = vm_help(ui->vm);

		textbox(ui, "Help", t);
		free(t);
		break;
	}
	case 'f':
		vm_fix(ui->vm, msg, sizeof msg);
		set_status(ui, "%s", msg);
		break;
	case 'u':
		vm_undo(ui->vm, msg, sizeof msg);
		set_status(ui, "%s", msg);
		break;
	case 18:	/* ^R */
		vm_redo(ui->vm, msg, sizeof msg);
		set_status(ui, "%s", msg);
		break;
	case 'p':
		ui->preview = !ui->preview;
		break;
	case '/':
		search(ui);
		break;
	case 's':
		save(ui);
		break;
	case 'e':
		export(ui);
		break;
	case 'q':
		quit(ui);
		break;
	case 27:
		if (*last_esc)
			quit(ui);
		else
			esc = true;
		break;
	case 12:	/* ^L */
		clear();
		break;
	default:
		break;
	}
	*last_esc = esc;
}

static void
ui_start(void)
{
	const char	*nc = getenv("NO_COLOR");

	if (getenv("ESCDELAY") == NULL)
		setenv("ESCDELAY", "25", 1);
	initscr();
	curses_on = true;
	cbreak();
	noecho();
	nonl();
	keypad(stdscr, TRUE);
	set_escdelay(25);
	timeout(250);
	curs_set(1);
	use_colors = (nc == NULL || *nc == '\0') && has_colors();
	if (use_colors) {
		start_color();
		use_default_colors();
		init_pair(C_TITLE, COLOR_CYAN, -1);
		init_pair(C_ERROR, COLOR_RED, -1);
		init_pair(C_WARN, COLOR_YELLOW, -1);
		init_pair(C_FORCED, COLOR_BLUE, -1);
		init_pair(C_BLOCKED, COLOR_MAGENTA, -1);
		init_pair(C_OK, COLOR_GREEN, -1);
	}
}

static int
usage_error(const char *m)
{
	fprintf(stderr, "pdwiz: %s\nusage: pdwiz [FILE | --import SCRIPT]\n", m);
	return EXIT_USAGE;
}

static bool
is_yaml_name(const char *f)
{
	size_t	n = strlen(f);

	return (n > 5 && strcmp(f + n - 5, ".yaml") == 0) ||
	    (n > 4 && strcmp(f + n - 4, ".yml") == 0);
}

int
wizard_main(int argc, char **argv)
{
	struct catalog		*cat;
	struct vm		*vm;
	struct ui		 ui;
	const char		*file = NULL, *script = NULL;
	char			 err[4096], *forms;
	struct sigaction	 sa;
	bool			 last_esc = false;
	int			 rc = EXIT_OK;

	if (argc >= 2 && strcmp(argv[1], "--import") == 0) {
		if (argc != 3)
			return usage_error("--import needs one SCRIPT");
		script = argv[2];
	} else if (argc == 2)
		file = argv[1];
	else if (argc > 2)
		return usage_error("too many arguments");
	if (file != NULL && access(file, F_OK) != 0 && !is_yaml_name(file)) {
		/* Most likely a mistyped command, not a new deployment. */
		fprintf(stderr, "pdwiz: %s: no such file; a new deployment file "
		    "is named *.yaml (commands: check, emit, import, explain, "
		    "rules, coverage; see pdwiz --help)\n", file);
		return EXIT_USAGE;
	}
	setlocale(LC_ALL, "");
	if (strcmp(nl_langinfo(CODESET), "UTF-8") == 0)
		mark_x = "✗";
	if ((cat = cli_load_catalog()) == NULL)
		return EXIT_USAGE;
	vm = vm_new(cat);
	forms = xasprintf("%s/forms", cat->dir);
	if (vm_load_forms(vm, forms, err, sizeof err) != 0) {
		fprintf(stderr, "pdwiz: %s\n", err);
		free(forms);
		vm_free(vm);
		catalog_free(cat);
		return EXIT_USAGE;
	}
	free(forms);
	if (file != NULL) {
		struct stat	st;

		/* A new file: start fresh and offer it as the save path. */
		if (stat(file, &st) == 0)
			(void)vm_open_file(vm, file, err, sizeof err);
	} else if (script != NULL)
		(void)vm_import_script(vm, script, err, sizeof err);
	if (!isatty(STDIN_FILENO) || !isatty(STDOUT_FILENO)) {
		fprintf(stderr, "pdwiz: the wizard needs a terminal; for "
		    "scripts use pdwiz check\n");
		vm_free(vm);
		catalog_free(cat);
		return EXIT_USAGE;
	}
	vm_refresh(vm);
	memset(&ui, 0, sizeof ui);
	ui.vm = vm;
	if (file != NULL && vm_path(vm) == NULL) {
		ui.save_path = xstrdup(file);
		set_status(&ui, "%s: new deployment (s saves it there)", file);
	}
	if (vm_load_note(vm) != NULL)
		set_status(&ui, "%s", vm_load_note(vm));

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_term_signal;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	sa.sa_handler = on_fatal_signal;
	sigaction(SIGSEGV, &sa, NULL);
	sigaction(SIGBUS, &sa, NULL);
	sigaction(SIGABRT, &sa, NULL);
	sigaction(SIGFPE, &sa, NULL);
	atexit(ui_end);

	ui_start();
	while (!ui.quit && !got_signal) {
		int	c;

		draw(&ui);
		c = getkey();
		if (c == -2)
			break;
		key(&ui, c, &last_esc);
	}
	ui_end();
	if (got_signal) {
		fprintf(stderr, "pdwiz: interrupted%s\n", vm_dirty(vm) ?
		    "; unsaved changes were discarded" : "");
		rc = 128 + (int)got_signal;
	}
	free(ui.save_path);
	vm_free(vm);
	catalog_free(cat);
	return rc;
}
