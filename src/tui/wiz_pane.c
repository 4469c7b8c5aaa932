/*
 * wiz_pane.c - full-screen scrollable views: the help, the key list, a
 * message too long for the status line, the placement picture, and the
 * preview (the launch script, runbook, --config YAML and Kubernetes
 * manifests, switched with Tab or 1-4). Every view scrolls (arrows, PgUp,
 * PgDn, Home, End) and finds text (/, then n for the next match); the keys
 * come from the view key table of wiz_keys.c.
 */
#include "tui/wiz.h"

#include <curses.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "tui/lineedit.h"
#include "tui/wiz_keys.h"

struct pane {
	struct ui	*ui;
	const char	*title;
	char		*text;		/* owned */
	bool		 preview;	/* the views of vm_preview_text */
	size_t		 view;
	int		 top;
	long		 hit;		/* line of the last match, -1 */
	char		*query;		/* owned, NULL: none */
	char		*note;		/* owned: "not found", ... */
};

/* The wrapped lines of the text, joined back with newlines for search. */
static char *
joined(const struct lines *ls)
{
	struct buf	b = { 0 };
	size_t		i;

	for (i = 0; i < ls->n; i++)
		buf_printf(&b, "%s\n", ls->l[i]);
	return b.s != NULL ? buf_steal(&b) : xstrdup("");
}

static void
pane_title(const struct pane *pn, int w)
{
	struct buf	b = { 0 };
	size_t		i;

	attron(A_REVERSE);
	mvhline(0, 0, ' ', w);
	if (!pn->preview) {
		wiz_put(0, 1, w - 2, pn->title);
		attroff(A_REVERSE);
		return;
	}
	buf_puts(&b, "Preview:");
	for (i = 0; vm_preview_name(i) != NULL; i++)
		buf_printf(&b, i == pn->view ? " [%zu %s]" : "  %zu %s ", i + 1,
		    vm_preview_name(i));
	wiz_put(0, 1, w - 2, b.s);
	attroff(A_REVERSE);
	buf_free(&b);
}

/* The bottom line: keys, where we are, and a note. */
static void
pane_footer(const struct pane *pn, int n, int body, int h, int w)
{
	char	*where, *l;
	int	 last = pn->top + body < n ? pn->top + body : n;

	where = last >= n ? xasprintf("%d-%d/%d (end)", n ? pn->top + 1 : 0,
	    last, n) : xasprintf("%d-%d/%d", pn->top + 1, last, n);
	/* A note (a search's outcome) goes first, where it is not cut. */
	if (pn->note != NULL)
		l = xasprintf(" %s  %s  q close", pn->note, where);
	else
		l = xasprintf(" ↑↓ PgUp PgDn Home End%s  / find n next  q close"
		    "  %s", pn->preview ? "  Tab 1-4 view" : "", where);
	attron(A_REVERSE);
	mvhline(h - 1, 0, ' ', w);
	wiz_put(h - 1, 0, w, l);
	attroff(A_REVERSE);
	free(where);
	free(l);
}

static void
pane_draw(struct pane *pn, const struct lines *ls, int h, int w)
{
	int	i, body = h - 2;

	erase();
	pane_title(pn, w);
	for (i = 0; i < body && (size_t)(pn->top + i) < ls->n; i++) {
		bool	hit = pn->hit == pn->top + i;

		if (hit)
			attron(A_REVERSE);
		wiz_put(i + 1, 0, 1, hit ? ">" : " ");
		wiz_put(i + 1, 1, w - 1, ls->l[pn->top + i]);
		if (hit)
			attroff(A_REVERSE);
	}
	pane_footer(pn, (int)ls->n, body, h, w);
	move(pn->hit >= pn->top && pn->hit < pn->top + body ?
	    (int)(pn->hit - pn->top) + 1 : 1, 0);
	refresh();
}

/* Read the text to find at the bottom line; NULL when cancelled. */
static char *
pane_ask(int h, int w)
{
	struct lineedit	le;
	char		*out = NULL;
	int		c, k;

	le_init(&le, NULL);
	for (;;) {
		mvhline(h - 1, 0, ' ', w);
		attron(A_BOLD);
		wiz_put(h - 1, 0, 6, "find: ");
		attroff(A_BOLD);
		wiz_put(h - 1, 6, w - 7, le_text(&le));
		k = 6 + (int)wiz_cols(le_text(&le), le.cur);
		move(h - 1, k < w ? k : w - 1);
		refresh();
		c = wiz_getkey();
		if (c == -2 || c == 27)
			break;
		if (c == '\n' || c == '\r' || c == KEY_ENTER) {
			out = xstrdup(le_text(&le));
			break;
		}
		if (c == KEY_RESIZE)
			continue;
		k = wiz_edit_key(c);
		le_key(&le, k != -1 ? k : c);
	}
	le_free(&le);
	return out;
}

/* Find the query from line from on; the view scrolls to the match. */
static void
pane_find(struct pane *pn, const struct lines *ls, long from, int body)
{
	char	*all = joined(ls);
	long	 at = vm_text_find(all, from, pn->query);

	free(all);
	free(pn->note);
	pn->note = NULL;
	if (at < 0) {
		pn->note = xasprintf("not found: %s", pn->query);
		pn->hit = -1;
		return;
	}
	if (at < from)
		pn->note = xstrdup("(from the top)");
	pn->hit = at;
	if (at < pn->top || at >= pn->top + body)
		pn->top = (int)at - body / 3 > 0 ? (int)at - body / 3 : 0;
}

static void
pane_set_view(struct pane *pn, size_t v)
{
	if (!pn->preview || vm_preview_name(v) == NULL)
		return;
	pn->view = v;
	free(pn->text);
	pn->text = vm_preview_text(pn->ui->vm, v);
	pn->top = 0;
	pn->hit = -1;
}

/* One key; false when the pane closes. */
static bool
pane_key(struct pane *pn, const struct lines *ls, int c, int h, int w)
{
	int	body = h - 2, n = (int)ls->n, maxtop = n - body > 0 ? n - body : 0;

	switch (wiz_view_key_action(c)) {
	case WV_CLOSE:
		return false;
	case WV_UP:	pn->top--; break;
	case WV_DOWN:	pn->top++; break;
	case WV_PGUP:	pn->top -= body - 1; break;
	case WV_PGDN:	pn->top += body - 1; break;
	case WV_HOME:	pn->top = 0; break;
	case WV_END:	pn->top = maxtop; break;
	case WV_NEXT_VIEW:
		if (pn->preview)
			pane_set_view(pn, vm_preview_name(pn->view + 1) ?
			    pn->view + 1 : 0);
		break;
	case WV_VIEW1: pane_set_view(pn, 0); break;
	case WV_VIEW2: pane_set_view(pn, 1); break;
	case WV_VIEW3: pane_set_view(pn, 2); break;
	case WV_VIEW4: pane_set_view(pn, 3); break;
	case WV_FIND: {
		char	*q = pane_ask(h, w);

		if (q != NULL && *q != '\0') {
			free(pn->query);
			pn->query = q;
			pane_find(pn, ls, pn->top, body);
		} else
			free(q);
		break;
	}
	case WV_FIND_NEXT:
		if (pn->query != NULL)
			pane_find(pn, ls, pn->hit >= 0 ? pn->hit + 1 : pn->top,
			    body);
		break;
	default:
		/* Enter and ? close the help they opened. */
		if (c == '\n' || c == '\r' || c == KEY_ENTER || c == '?' ||
		    c == -2)
			return false;
	}
	if (pn->top > maxtop)
		pn->top = maxtop;
	if (pn->top < 0)
		pn->top = 0;
	return true;
}

static void
pane_run(struct pane *pn)
{
	struct lines	ls;
	int		h, w, c;
	bool		go = true;

	pn->hit = -1;
	while (go) {
		getmaxyx(stdscr, h, w);
		if (w < MIN_W || h < MIN_H) {
			wiz_draw_too_small();
			c = wiz_getkey();
			if (c == -2 || c == 'q')
				break;
			continue;
		}
		if (pn->preview)
			wiz_wrap_code(pn->text, w - 2, &ls);
		else
			wiz_wrap(pn->text, w - 2, (size_t)-1, &ls);
		if (pn->top > (int)ls.n - (h - 2))
			pn->top = (int)ls.n - (h - 2) > 0 ? (int)ls.n - (h - 2) :
			    0;
		pane_draw(pn, &ls, h, w);
		c = wiz_getkey();
		if (c != KEY_RESIZE) {
			free(pn->note);
			pn->note = NULL;
			go = c != -2 && pane_key(pn, &ls, c, h, w);
		}
		wiz_lines_free(&ls);
	}
	free(pn->text);
	free(pn->query);
	free(pn->note);
}

void
wiz_textbox(struct ui *ui, const char *title, const char *text)
{
	struct pane	pn;

	memset(&pn, 0, sizeof pn);
	pn.ui = ui;
	pn.title = title;
	pn.text = xstrdup(text);
	pane_run(&pn);
}

void
wiz_preview_screen(struct ui *ui)
{
	struct pane	pn;

	memset(&pn, 0, sizeof pn);
	pn.ui = ui;
	pn.preview = true;
	pn.text = vm_preview_text(ui->vm, 0);
	pane_run(&pn);
}

void
wiz_key_screen(struct ui *ui)
{
	char	*k = wiz_key_help();

	wiz_textbox(ui, "Keys", k);
	free(k);
}
