/*
 * wiz_draw.c - drawing the wizard's screen from view-model snapshots.
 *
 * Layout, top to bottom: header, page title, intro, fields (scrolling),
 * status line (as many lines as the message needs), key hints. Every state has a text
 * marker (colour only repeats it); the real cursor sits on the focused item.
 */
#include "tui/wiz.h"

#include <curses.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "core/util.h"
#include "tui/ascii.h"
#include "tui/wiz_keys.h"

bool		 wiz_use_colors;
const char	*wiz_mark_x = "x";
bool		 wiz_utf8;

int
wiz_attr(int pair, int fallback)
{
	if (wiz_use_colors)
		return COLOR_PAIR(pair) | fallback;
	return fallback;
}

int
wiz_put(int y, int x, int cols, const char *s)
{
	size_t		 len = strlen(s), n, i;
	wchar_t		*w;
	int		 used = 0, cw;

	if (cols <= 0)
		return 0;
	if (!wiz_utf8) {
		char	*a = tui_ascii(s);
		int	 used_a = (int)strlen(a) < cols ? (int)strlen(a) : cols;

		mvaddnstr(y, x, a, used_a);
		free(a);
		return used_a;
	}
	w = xcalloc(len + 1, sizeof *w);
	n = mbstowcs(w, s, len + 1);
	if (n == (size_t)-1) {
		free(w);
		mvaddnstr(y, x, s, cols);
		return (int)len < cols ? (int)len : cols;
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
	free(w);
	return used;
}

/* Put s at (y, x) in at most cols columns; a text that does not fit ends
 * with "…" ("~" without UTF-8), so nothing is cut without saying so. */
int
wiz_put_cut(int y, int x, int cols, const char *s)
{
	int	used;

	if (cols <= 0)
		return 0;
	if ((int)wiz_text_cols(s) <= cols)
		return wiz_put(y, x, cols, s);
	used = wiz_put(y, x, cols - 1, s);
	return used + wiz_put(y, x + used, 1, wiz_utf8 ? "…" : "~");
}

/* Bytes of p that fill at most cols columns (wcwidth's: a CJK character
 * takes two). */
static size_t
bytes_for_cols(const char *p, size_t len, size_t cols)
{
	return wiz_bytes_for_cols(p, len, cols);
}

/*
 * Wrapping counts the columns each character takes; a line broken in two keeps its
 * indent on the lines it continues on (at most half the width).
 */
void
wiz_wrap_code(const char *text, int width, struct lines *out)
{
	const char	*mark = wiz_utf8 ? "↪ " : "+ ";
	char		*ascii = wiz_utf8 ? NULL : tui_ascii(text);
	const char	*p = ascii != NULL ? ascii : text;
	struct buf	 line = { 0 };

	out->l = NULL;
	out->n = 0;
	if (width < 10)
		width = 10;
	while (*p != '\0') {
		const char	*nl = strchr(p, '\n');
		size_t		 len = nl ? (size_t)(nl - p) : strlen(p), i, col;
		const char	*q;
		bool		 first = true;

		/* Tabs to the next stop of 4 columns. */
		line.len = 0;
		if (line.s != NULL)
			line.s[0] = '\0';
		for (i = 0, col = 0; i < len; i++) {
			if (p[i] == '\t') {
				do
					buf_putc(&line, ' ');
				while (++col % 4 != 0);
				continue;
			}
			buf_putc(&line, p[i]);
			if (((unsigned char)p[i] & 0xc0) != 0x80)
				col++;
		}
		q = line.s != NULL ? line.s : "";
		/* Lines longer than the screen go on under a mark. */
		do {
			size_t	room = (size_t)width - (first ? 0 : 2);
			size_t	take = bytes_for_cols(q, strlen(q), room);

			if (take == 0 && *q != '\0')	/* wide: one */
				for (take = 1; ((unsigned char)q[take] &
				    0xc0) == 0x80; take++)
					;

			out->l = xreallocarray(out->l, out->n + 1,
			    sizeof *out->l);
			out->l[out->n++] = xasprintf("%s%.*s", first ? "" :
			    mark, (int)take, q);
			q += take;
			first = false;
		} while (*q != '\0');
		p += len + (nl != NULL);
	}
	buf_free(&line);
	free(ascii);
}

void
wiz_wrap(const char *text, int width, size_t max, struct lines *out)
{
	char		*ascii = wiz_utf8 ? NULL : tui_ascii(text);
	const char	*p = ascii != NULL ? ascii : text;
	size_t		 indent = 0;
	bool		 cont = false;

	out->l = NULL;
	out->n = 0;
	if (width < 10)
		width = 10;
	while (*p != '\0' && out->n < max) {
		const char	*nl = strchr(p, '\n');
		size_t		 len = nl ? (size_t)(nl - p) : strlen(p);
		size_t		 pad = cont ? indent : 0;
		size_t		 take;

		if (!cont) {
			for (indent = 0; indent < len && p[indent] == ' ';
			    indent++)
				;
			if (indent > (size_t)width / 2)
				indent = (size_t)width / 2;
		}
		take = bytes_for_cols(p, len, (size_t)width - pad);
		if (take < len) {
			size_t	fit = take;

			while (take > 0 && p[take] != ' ')
				take--;
			if (take == 0)
				take = fit;
		}
		out->l = xreallocarray(out->l, out->n + 1, sizeof *out->l);
		out->l[out->n++] = xasprintf("%*s%.*s", (int)pad, "", (int)take,
		    p);
		p += take;
		cont = take < len;
		if (!cont && nl != NULL)
			p++;
		else if (cont)
			while (*p == ' ')
				p++;
	}
	/* Lines left out: the last one shown says so, never cut silently. */
	if (*p != '\0' && out->n > 0) {
		char	*l = out->l[out->n - 1];
		size_t	 k = strlen(l);
		size_t	 cut = bytes_for_cols(l, k, (size_t)width - 1);

		out->l[out->n - 1] = xasprintf("%.*s%s", (int)cut, l,
		    wiz_utf8 ? "…" : "~");
		free(l);
	}
	free(ascii);
}

void
wiz_lines_free(struct lines *ls)
{
	size_t	i;

	for (i = 0; i < ls->n; i++)
		free(ls->l[i]);
	free(ls->l);
	ls->l = NULL;
	ls->n = 0;
}

void
wiz_set_status(struct ui *ui, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	free(ui->status);
	ui->status = xmalloc((size_t)(n < 0 ? 0 : n) + 1);
	ui->status[0] = '\0';
	va_start(ap, fmt);
	if (n >= 0)
		vsnprintf(ui->status, (size_t)n + 1, fmt, ap);
	va_end(ap);
	ui->status_sticky = true;
}

void
wiz_draw_too_small(void)
{
	int		 h, w;
	char		*m;
	struct lines	 ls;
	size_t		 i;

	getmaxyx(stdscr, h, w);
	erase();
	m = xasprintf("pdwiz needs at least %dx%d; this terminal is %dx%d. "
	    "Enlarge it, or q to quit.", MIN_W, MIN_H, w, h);
	wiz_wrap(m, w - 1, 8, &ls);
	for (i = 0; i < ls.n && (int)i < h; i++)
		wiz_put((int)i, 0, w, ls.l[i]);
	wiz_lines_free(&ls);
	free(m);
	move(0, 0);
	refresh();
}

static void
draw_header(struct ui *ui, int w)
{
	const struct vm_page	*p = vm_page(ui->vm, (size_t)vm_cur_page(ui->vm));
	char			*l;
	const char		*r;
	size_t			 ne, nw, no, nu, i, shown = 0, idx = 0;

	vm_counts(ui->vm, &ne, &nw, &no);
	for (i = 0; i < vm_npages(ui->vm); i++)
		if (vm_page_visible(ui->vm, i) && !vm_page(ui->vm, i)->all) {
			shown++;
			if ((int)i == vm_cur_page(ui->vm))
				idx = shown;
		}
	nu = vm_unchecked(ui->vm);
	{
		/*
		 * The counts at the right; at the left the title, cut with
		 * "…" when long, and " [modified]" whole, always: an unsaved
		 * deployment says so at any width. Before the title is cut
		 * short, "pdwiz" goes, then the counts take their short words.
		 */
		const char	*title = vm_title(ui->vm);
		const char	*mark = vm_dirty(ui->vm) ? " [modified]" : "";
		char		*rs[2];
		struct {
			const char	*pre;
			int		 r;
		} cand[] = { { " pdwiz  ", 0 }, { " ", 0 }, { " ", 1 } };
		int		 k, pick = -1, room, rooms[3], x, tc, mc;

		rs[0] = nu > 0 ? xasprintf("%zu error%s %zu warning%s %zu "
		    "not checked ", ne, ne == 1 ? "" : "s", nw, nw == 1 ? "" :
		    "s", nu) : xasprintf("%zu error%s %zu warning%s ", ne,
		    ne == 1 ? "" : "s", nw, nw == 1 ? "" : "s");
		rs[1] = nu > 0 ? xasprintf("%zu err %zu warn %zu unchecked ",
		    ne, nw, nu) : xasprintf("%zu err %zu warn ", ne, nw);
		tc = (int)wiz_text_cols(title);
		mc = (int)wiz_text_cols(mark);
		for (k = 0; k < 3; k++)
			rooms[k] = w - (int)strlen(rs[cand[k].r]) - 1 -
			    (int)strlen(cand[k].pre) - mc;
		/* The first that shows the title whole with the counts in
		 * full, else the first that leaves it 16 columns, else the
		 * shortest. */
		for (k = 0; k < 2 && pick < 0; k++)
			if (tc <= rooms[k])
				pick = k;
		for (k = 0; k < 3 && pick < 0; k++)
			if (rooms[k] >= 16)
				pick = k;
		if (pick < 0)
			pick = 2;
		room = rooms[pick];
		r = rs[cand[pick].r];
		attron(A_REVERSE);
		mvhline(0, 0, ' ', w);
		x = wiz_put(0, 0, w, cand[pick].pre);
		if (room > 0)
			x += wiz_put_cut(0, x, room, title);
		x += wiz_put(0, x, w - x, mark);
		if (x + (int)strlen(r) < w)
			wiz_put(0, w - (int)strlen(r), (int)strlen(r), r);
		attroff(A_REVERSE);
		free(rs[0]);
		free(rs[1]);
	}
	l = p->all ? xasprintf(" all  %s", p->title) :
	    xasprintf(" %zu/%zu  %s", idx, shown, p->title);
	attron(wiz_attr(C_TITLE, A_BOLD));
	wiz_put(1, 0, w, l);
	attroff(wiz_attr(C_TITLE, A_BOLD));
	free(l);
}

/* A row's value as shown, and its markers (error, unavailable values). */
static void
row_text(const struct vm_row *row, struct buf *val, struct buf *mark)
{
	const struct vm_choice	*blocked = NULL;
	size_t			 i;

	if (row->is_bool)
		buf_printf(val, "[%s] %s", row->on ? "x" : " ", row->value);
	else if (row->nchoices > 0)
		buf_printf(val, "<%s>", row->value);
	else
		buf_printf(val, "%s", row->value);
	if (row->error)
		buf_puts(mark, "!! ERROR ");
	else if (row->warning)
		buf_puts(mark, "! warning ");
	if (row->nblocked == 0)
		return;
	if (!row->is_bool) {
		buf_printf(mark, "%s %zu unavailable", wiz_mark_x,
		    row->nblocked);
		return;
	}
	for (i = 0; i < row->nchoices; i++)
		if (row->choices[i].blocker != NULL)
			blocked = &row->choices[i];
	if (blocked != NULL)
		buf_printf(mark, "%s %s unavailable", wiz_mark_x, blocked->text);
}

static int
draw_intro(struct ui *ui, int y, int w, int maxlines)
{
	const struct vm_page	*p = vm_page(ui->vm, (size_t)vm_cur_page(ui->vm));
	struct lines		 ls;
	size_t			 i;

	if (p->intro == NULL || maxlines <= 0)
		return y;
	wiz_wrap(p->intro, w - 2, (size_t)maxlines < 4 ? (size_t)maxlines : 4,
	    &ls);
	for (i = 0; i < ls.n; i++)
		wiz_put(y++, 1, w - 2, ls.l[i]);
	wiz_lines_free(&ls);
	return y;
}

/* The right part of a row as one text: value, note and markers. */
static char *
row_rest(const struct vm_row *row, const char *note)
{
	struct buf	 val = { 0 }, mark = { 0 };
	char		*r;

	row_text(row, &val, &mark);
	r = xasprintf("%s%s%s%s%s", val.s ? val.s : "", note[0] ? " " : "",
	    note, mark.s ? " " : "", mark.s ? mark.s : "");
	buf_free(&val);
	buf_free(&mark);
	return r;
}

/*
 * One field's row at y; returns the lines it took. What does not fit ends
 * with "…"; the focused row is shown whole instead, its value, note and
 * markers wrapped under the value column on as many lines as they need
 * (at most maxl).
 */
static int
draw_row(const struct vm_row *row, int y, int w, int lw, bool focus,
    int maxl)
{
	struct buf	 val = { 0 }, mark = { 0 };
	const char	*note;
	int		 x, a = 0;

	row_text(row, &val, &mark);
	/* "(default)" only where there is room for it. */
	note = w < 100 && strcmp(row->note, "(default)") == 0 ? "" :
	    row->note;
	if (focus && maxl > 1) {
		char		*rest = row_rest(row, note);
		struct lines	 ls;
		int		 i;

		if (lw + 1 + (int)wiz_text_cols(rest) > w) {
			wiz_wrap(rest, w - lw - 1, (size_t)maxl, &ls);
			attron(A_REVERSE);
			for (i = 0; i < (int)ls.n; i++) {
				mvhline(y + i, 0, ' ', w);
				wiz_put(y + i, 0, 2, i == 0 ? ">" : " ");
				if (i == 0)
					wiz_put_cut(y, 2, lw - 2, row->f->label);
				wiz_put(y + i, lw + 1, w - lw - 1, ls.l[i]);
			}
			attroff(A_REVERSE);
			i = (int)ls.n;
			wiz_lines_free(&ls);
			free(rest);
			buf_free(&val);
			buf_free(&mark);
			return i > 0 ? i : 1;
		}
		free(rest);
	}
	if (focus)
		attron(A_REVERSE);
	mvhline(y, 0, ' ', w);
	wiz_put(y, 0, 2, focus ? ">" : " ");
	wiz_put_cut(y, 2, lw - 2, row->f->label);
	x = lw + 1;
	/* A long value leaves room for the error marker. */
	x += wiz_put_cut(y, x, w - x - (row->error && w - x > 30 ? 10 : 0),
	    val.s ? val.s : "") + 1;
	if (focus)
		attroff(A_REVERSE);
	if (row->forced)
		a = wiz_attr(C_FORCED, A_DIM);
	if (note[0] != '\0' && x < w) {
		attron(a);
		x += wiz_put_cut(y, x, w - x, note) + 1;
		attroff(a);
	}
	if (mark.s != NULL && x < w) {
		a = row->error ? wiz_attr(C_ERROR, A_BOLD) :
		    wiz_attr(C_BLOCKED, A_BOLD);
		attron(a);
		wiz_put_cut(y, x, w - x, mark.s);
		attroff(a);
	}
	buf_free(&val);
	buf_free(&mark);
	return 1;
}

/*
 * An All options page's group heading above a row: SGLang's name of the
 * group, bold, with a rule; not a row (the cursor never stops on it).
 */
static void
draw_heading(const char *name, int y, int w)
{
	char	*l = xasprintf("%s %s %s", wiz_utf8 ? "──" : "--", name,
	    wiz_utf8 ? "──" : "--");
	int	 a = wiz_attr(C_TITLE, A_BOLD) | A_BOLD;

	mvhline(y, 0, ' ', w);
	attron(a);
	wiz_put_cut(y, 1, w - 1, l);
	attroff(a);
	free(l);
}

/* The lines rows top..cur take (a heading is one more; so is the group
 * of the top row, shown above it when it does not begin it), cur's own
 * being curl. */
static int
rows_lines(const struct vm_row *rows, int top, int cur, int curl)
{
	int	i, n = rows[top].heading == NULL && rows[top].group != NULL;

	for (i = top; i <= cur; i++)
		n += (i == cur ? curl : 1) + (rows[i].heading != NULL);
	return n;
}

/* Keep the focused row (cur) within the height rows from ui->top. */
static void
scroll_to(struct ui *ui, int cur, int height)
{
	if (cur < ui->top)
		ui->top = cur;
	if (cur >= ui->top + height)
		ui->top = cur - height + 1;
	if (ui->top < 0)
		ui->top = 0;
}

/* Draw the fields; *cy, *cx: the cursor position. */
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
	scroll_to(ui, cur, height);
	lw = w < 90 ? w * 2 / 5 : 36;
	/* A longer label on the page widens the column, up to half the
	 * screen ("staging buffer (heterogeneous TP)" at 80 columns). */
	for (i = 0; i < n; i++) {
		int	need = (int)wiz_text_cols(rows[i].f->label) + 3;

		if (need > lw)
			lw = need < w / 2 ? need : w / 2;
	}
	/* The focused row shown whole may take more lines: keep them in
	 * view too. */
	if (cur >= 0 && (size_t)cur < n) {
		char	*rest = row_rest(&rows[cur], w < 100 &&
		    strcmp(rows[cur].note, "(default)") == 0 ? "" :
		    rows[cur].note);
		int	 cols = w - lw - 1 > 1 ? w - lw - 1 : 1;
		int	 extra = ((int)wiz_text_cols(rest) + cols - 1) / cols - 1;

		if (lw + 1 + (int)wiz_text_cols(rest) <= w || extra < 0)
			extra = 0;
		if (extra > height / 3)
			extra = height / 3;
		free(rest);
		scroll_to(ui, cur, height - extra > 0 ? height - extra : 1);
		/* Headings take lines too: the focused row (and its own
		 * heading) stay in view. */
		while (ui->top < cur &&
		    rows_lines(rows, ui->top, cur, 1 + extra) > height)
			ui->top++;
	}
	/* The unavailable values of the rows shown (an All options page
	 * leaves the others unchecked). */
	vm_rows_check(ui->vm, (size_t)ui->top, (size_t)height);
	{
		int	y = y0;

		for (i = (size_t)ui->top; i < n && y < y1; i++) {
			bool	f = (int)i == cur;

			/* The group's heading; at the top, the group
			 * of a row that does not begin it, too. */
			if (rows[i].heading != NULL || (i == (size_t)ui->top &&
			    rows[i].group != NULL)) {
				draw_heading(rows[i].group, y++, w);
				if (y >= y1)
					break;
			}
			if (f)
				*cy = y;
			y += draw_row(&rows[i], y, w, lw, f, f ? (y1 - y <
			    height / 3 + 1 ? y1 - y : height / 3 + 1) : 1);
		}
	}
	if (n == 0)
		wiz_put(y0, 2, w - 2, "(nothing to set here for this deployment)");
}

static void
draw_review(struct ui *ui, int y0, int y1, int w, int *cy, int *cx)
{
	static const char *const	 sev[] = { "ERROR", "warning",
		"override", "not checked", "note" };
	const struct vm_review_item	*it;
	size_t				 n = vm_review(ui->vm, &it), i;
	int				 cur = vm_cur_row(ui->vm);
	int				 height = y1 - y0;

	*cy = y0;
	*cx = 0;
	if (n == 0) {
		wiz_put(y0, 2, w - 2, "No problems: SGLang would accept every "
		    "server of this deployment.");
		return;
	}
	scroll_to(ui, cur, height);
	for (i = (size_t)ui->top; i < n && (int)(i - (size_t)ui->top) < height;
	    i++) {
		int	 y = y0 + (int)(i - (size_t)ui->top);
		bool	 focus = (int)i == cur;
		int	 a = it[i].sev == SEV_ERROR ? wiz_attr(C_ERROR, A_BOLD) :
		    it[i].sev == SEV_WARNING ? wiz_attr(C_WARN, 0) : 0;
		char	*l = xasprintf("%-10s %-11s %s %s",
		    vm_scope_name(it[i].role), sev[it[i].sev],
		    it[i].page < 0 ? " " : "→", it[i].msg);

		if (focus)
			a |= A_REVERSE;
		attron(a);
		mvhline(y, 0, ' ', w);
		wiz_put(y, 0, 2, focus ? ">" : " ");
		wiz_put_cut(y, 2, w - 2, l);
		attroff(a);
		free(l);
		if (focus)
			*cy = y;
	}
}

static void
draw_keys(int y, int w)
{
	char	*k = wiz_footer(w);

	attron(A_REVERSE);
	mvhline(y, 0, ' ', w);
	wiz_put(y, 0, w, k);
	attroff(A_REVERSE);
	free(k);
}

/* The review page's status: the focused problem's whole message. */
static char *
review_status(struct ui *ui)
{
	const struct vm_review_item	*it;
	size_t				 n = vm_review(ui->vm, &it);
	int				 cur = vm_cur_row(ui->vm);

	if (cur < 0 || (size_t)cur >= n)
		return xstrdup("");
	return xasprintf("%s  [%s? full text]", it[cur].msg, it[cur].page >= 0 ?
	    "Enter go to the field, " : "Enter or ");
}

/* The status: a message, else the focused field's problem, else a note. */
static char *
status_text(struct ui *ui, const struct vm_page *p)
{
	const struct vm_row	*row;
	struct buf		 prob = { 0 };

	if (ui->status_sticky)
		return xstrdup(ui->status ? ui->status : "");
	if (p->review)
		return review_status(ui);
	row = vm_focused(ui->vm);
	if (vm_focus_problem(ui->vm, &prob) != NULL) {
		buf_puts(&prob, "  [f fix, ? why]");
		return buf_steal(&prob);
	}
	buf_free(&prob);
	if (row != NULL && row->forced)
		return xasprintf("%s: %s", row->f->label, row->note);
	if (row != NULL && vm_load_note(ui->vm) != NULL)
		return xstrdup(vm_load_note(ui->vm));
	return xstrdup("");
}

/*
 * The status wrapped to the screen's width, at most a third of its height;
 * a longer message ends in a line that says ? shows it whole, and is kept
 * in ui->cut for ?.
 */
static void
status_lines(struct ui *ui, const struct vm_page *p, int h, int w,
    struct lines *ls, int *attr)
{
	char	*st = status_text(ui, p);
	size_t	 max = (size_t)(h / 3 > 2 ? h / 3 : 2);

	free(ui->cut);
	ui->cut = NULL;
	*attr = strstr(st, "unavailable") || strstr(st, "error") ?
	    wiz_attr(C_ERROR, A_BOLD) : (int)A_BOLD;
	wiz_wrap(st, w - 1, (size_t)-1, ls);
	if (ls->n > max) {
		while (ls->n > max - 1)
			free(ls->l[--ls->n]);
		ls->l[ls->n++] = xstrdup("... (? shows the whole message)");
		ui->cut = st;
		return;
	}
	free(st);
}

static void
draw_status(const struct lines *ls, int attr, int h, int w)
{
	size_t	i;

	attron(attr);
	for (i = 0; i < ls->n; i++) {
		int	sy = h - 1 - (int)ls->n + (int)i;

		mvhline(sy, 0, ' ', w);
		wiz_put(sy, 0, w, ls->l[i]);
	}
	attroff(attr);
}

/*
 * The placement picture of a page that shows one, at the bottom of the
 * rows y0..*y1: it takes what the items (nitems rows) leave, at least 7
 * lines; what does not fit is counted on its last line. *y1 moves up
 * above it.
 */
static void
draw_placement(struct ui *ui, int y0, int *y1, int w, size_t nitems)
{
	char		*pic = vm_placement(ui->vm, wiz_utf8, w - 2);
	struct lines	 ls = { NULL, 0 };
	const char	*p = pic;
	int		 height = *y1 - y0, ph, i, y;

	while (p != NULL && *p != '\0') {
		const char	*nl = strchr(p, '\n');
		size_t		 len = nl ? (size_t)(nl - p) : strlen(p);

		ls.l = xreallocarray(ls.l, ls.n + 1, sizeof *ls.l);
		ls.l[ls.n++] = xstrndup(p, len);
		p = nl ? nl + 1 : NULL;
	}
	free(pic);
	if (ls.n == 0 || height < 6) {
		wiz_lines_free(&ls);
		return;
	}
	ph = (int)ls.n;
	if ((int)nitems + 1 + ph > height) {
		ph = height - (int)nitems - 1;
		if (ph < 7)
			ph = 7;
		if (ph > height / 2 && ph > height - (int)nitems - 1)
			ph = height / 2;
		if (ph > (int)ls.n)
			ph = (int)ls.n;
	}
	y = *y1 - ph;
	for (i = 0; i < ph; i++) {
		const char	*line = ls.l[i];
		char		*more = NULL;

		if (i == ph - 1 && ph < (int)ls.n)
			line = more = xasprintf("  ... %d more line%s "
			    "(v shows the whole picture)",
			    (int)ls.n - ph + 1, (int)ls.n - ph + 1 == 1 ? "" :
			    "s");
		if (i == 0)
			attron(A_BOLD);
		else if (strstr(line, wiz_utf8 ? "✗" : " X ") != NULL ||
		    strstr(line, "!") != NULL)
			attron(wiz_attr(C_ERROR, 0));
		wiz_put(y + i, 1, w - 2, line);
		attrset(A_NORMAL);
		free(more);
	}
	*y1 = y - 1;
	wiz_lines_free(&ls);
}

void
wiz_draw(struct ui *ui)
{
	int			 h, w, y, y1, cy, cx, sa;
	const struct vm_page	*p;
	struct lines		 st;

	getmaxyx(stdscr, h, w);
	if (w < MIN_W || h < MIN_H) {
		wiz_draw_too_small();
		return;
	}
	erase();
	p = vm_page(ui->vm, (size_t)vm_cur_page(ui->vm));
	draw_header(ui, w);
	y = draw_intro(ui, 2, w, h >= 20 ? 2 : 1);
	y++;
	/* The status takes the lines it needs above the keys. */
	status_lines(ui, p, h, w, &st, &sa);
	y1 = h - 1 - (st.n > 1 ? (int)st.n : 1) - (h >= 20 && st.n <= 1);
	if (y1 < y + 1)
		y1 = y + 1;
	if (p->placement) {
		const struct vm_review_item	*it;
		const struct vm_row		*rows;
		size_t				 ni = p->review ?
		    vm_review(ui->vm, &it) : vm_rows(ui->vm, &rows);

		draw_placement(ui, y, &y1, w, ni > 0 ? ni : 1);
	}
	if (p->review)
		draw_review(ui, y, y1, w, &cy, &cx);
	else
		draw_fields(ui, y, y1, w, &cy, &cx);
	draw_status(&st, sa, h, w);
	wiz_lines_free(&st);
	draw_keys(h - 1, w);
	move(cy, cx);
	refresh();
}
