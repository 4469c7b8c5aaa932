/*
 * wiz_quick.c - the quick start screen of a new deployment: model,
 * accelerator (a list: Left/Right, or type the start of a name or an
 * alias), GPUs per node, number of nodes (and their hosts when more than
 * one), transfer backend and shape, one question a row. Enter accepts a row and goes to
 * the next; Enter on the last makes the deployment (vm_quick_apply) and
 * the wizard opens on the review. Esc skips to the full pages.
 */
#include "tui/wiz.h"

#include <curses.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "tui/lineedit.h"
#include "tui/wiz_keys.h"

enum { Q_MODEL, Q_ACCEL, Q_GPUS, Q_NODES, Q_HOSTS, Q_BACKEND, Q_SHAPE,
	NQ };

static const char *const q_label[NQ] = {
	"model path or HF id", "accelerator", "GPUs per node (1-16)",
	"number of nodes", "hosts, comma-separated", "transfer backend",
	"shape (xPyD)"
};

/* A row that is a list, not a line of text. */
static bool
is_list(int q)
{
	return q == Q_BACKEND || q == Q_ACCEL;
}

struct quick {
	struct lineedit	 le[NQ];
	size_t		 backend;	/* index of vm_quick_backend */
	size_t		 accel;		/* index of vm_quick_accel */
	char		 typed[32];	/* the accelerator's type-ahead */
	int		 cur;
	char		*err;		/* the last refusal, or NULL */
	bool		 hosts_edited;	/* else they follow the node count */
};

static bool
row_shown(struct quick *qs, int q)
{
	return q != Q_HOSTS || atoi(le_text(&qs->le[Q_NODES])) > 1;
}

/* What each question asks, for the quick start's help (? and F1). */
static const char *const q_help[NQ] = {
	"the model to serve: a Hugging Face id (meta-llama/Llama-3.1-8B-"
	"Instruct) or a local model directory. Its architecture and size are "
	"read for the memory estimate.",
	"the GPU model of every node (the fact gpu): the memory estimate "
	"reads it. A list: Left/Right (or Space) step through it, Home/End "
	"go to its ends; type the start of a name or an alias (h1: H100, b2: "
	"B200) to jump to it, Backspace takes a letter back.",
	"how many GPUs each machine has (1-16): the placement packs "
	"instances onto them and the exports state it (PDWIZ_GPUS_PER_HOST).",
	"how many machines: instances get whole nodes when there are at "
	"least as many nodes as instances, else an equal share of one.",
	"one host name or address per node, comma-separated (node1,node2 "
	"until you edit them).",
	"the KV transfer backend of every server "
	"(--disaggregation-transfer-backend): Left/Right choose, or type the "
	"start of a name (ni: nixl).",
	"how many prefill and decode instances: xPyD, e.g. 1P1D or 2P4D. "
	"Each gets an equal share of the GPUs; TP is that share."
};

/* The quick start's help: the focused question, the keys, then the
 * other questions. Nothing in it changes an answer. */
static char *
quick_help(struct quick *qs)
{
	struct buf	b = { 0 };
	int		q;

	buf_printf(&b, "%s: %s\n\n", q_label[qs->cur], q_help[qs->cur]);
	buf_puts(&b, "Keys of the quick start:\n"
	    "  Enter              accept the row and go to the next; on the "
	    "last, make the deployment\n"
	    "  Up/Down, Tab       move between the rows\n"
	    "  Left/Right         choose in a list (accelerator, backend); "
	    "move in a line\n"
	    "  Esc                skip to the full pages (pdwiz's default "
	    "deployment)\n"
	    "  F10                quit (nothing made yet)\n"
	    "  ?, F1              this help (q/Esc close it)\n\n");
	buf_puts(&b, "The quick start: a few questions, one a row; pdwiz "
	    "derives the rest (TP, GPUs, ports, the router) and opens the "
	    "review, where the pages refine it.\n");
	for (q = 0; q < NQ; q++)
		if (q != qs->cur && row_shown(qs, q))
			buf_printf(&b, "\n%s: %s\n", q_label[q], q_help[q]);
	return buf_steal(&b);
}

/* The answers as a vm_quick; -1 with the reason for a bad row. */
static int
answers(struct ui *ui, struct quick *qs, struct vm_quick *q, int *bad,
    char *err, size_t errlen)
{
	char	*end;
	long	 n;

	free(q->model);
	q->model = xstrdup(le_text(&qs->le[Q_MODEL]));
	free(q->backend);
	q->backend = xstrdup(vm_quick_backend(ui->vm, qs->backend));
	free(q->gpu);
	q->gpu = vm_quick_accel(ui->vm, qs->accel) != NULL ?
	    xstrdup(vm_quick_accel(ui->vm, qs->accel)->value) : NULL;
	free(q->hosts);
	q->hosts = xstrdup(le_text(&qs->le[Q_HOSTS]));
	*bad = Q_GPUS;
	n = strtol(le_text(&qs->le[Q_GPUS]), &end, 10);
	if (*end != '\0' || end == le_text(&qs->le[Q_GPUS]) || n < 1 ||
	    n > 16) {
		snprintf(err, errlen, "GPUs per node: a number from 1 to 16 "
		    "(got '%s')", le_text(&qs->le[Q_GPUS]));
		return -1;
	}
	q->gpus_per_node = (int)n;
	*bad = Q_NODES;
	n = strtol(le_text(&qs->le[Q_NODES]), &end, 10);
	if (*end != '\0' || end == le_text(&qs->le[Q_NODES]) || n < 1 ||
	    n > 4096) {
		snprintf(err, errlen, "number of nodes: a number from 1 to "
		    "4096 (got '%s')", le_text(&qs->le[Q_NODES]));
		return -1;
	}
	q->nodes = (int)n;
	*bad = Q_SHAPE;
	if (vm_quick_shape(le_text(&qs->le[Q_SHAPE]), &q->nprefill,
	    &q->ndecode, err, errlen) != 0)
		return -1;
	*bad = Q_MODEL;
	return 0;
}

static void
quick_draw(struct ui *ui, struct quick *qs, const char *summary)
{
	int	h, w, y = 5, q, cx = 0, cy = 0, x;

	getmaxyx(stdscr, h, w);
	erase();
	if (w < MIN_W || h < MIN_H) {
		wiz_draw_too_small();
		return;
	}
	attron(A_REVERSE);
	mvhline(0, 0, ' ', w);
	wiz_put(0, 1, w - 2, "pdwiz  quick start: a new PD deployment");
	attroff(A_REVERSE);
	wiz_put(2, 1, w - 2, "A few questions; pdwiz derives the rest (TP, "
	    "GPUs, ports, the router)");
	wiz_put(3, 1, w - 2, "and opens the review. The pages refine it "
	    "afterwards.");
	for (q = 0; q < NQ; q++) {
		char	*v;

		if (!row_shown(qs, q))
			continue;
		if (q == qs->cur)
			attron(A_BOLD);
		wiz_put(y, 0, 2, q == qs->cur ? ">" : " ");
		wiz_put(y, 2, 26, q_label[q]);
		if (q == Q_BACKEND)
			v = xasprintf("%s %s %s%s%s%s", wiz_utf8 ? "◀" : "<",
			    vm_quick_backend(ui->vm, qs->backend),
			    wiz_utf8 ? "▶" : ">", q == qs->cur &&
			    qs->typed[0] != '\0' ? "  (typed: " : "",
			    q == qs->cur ? qs->typed : "", q == qs->cur &&
			    qs->typed[0] != '\0' ? ")" : "");
		else if (q == Q_ACCEL && vm_quick_accel(ui->vm, qs->accel)) {
			const struct vm_named *n = vm_quick_accel(ui->vm,
			    qs->accel);

			v = xasprintf("%s %s %s  %s%s%s%s", wiz_utf8 ? "◀" :
			    "<", n->value, wiz_utf8 ? "▶" : ">",
			    n->label != NULL ? n->label : "",
			    qs->typed[0] != '\0' ? "  (typed: " : "",
			    qs->typed, qs->typed[0] != '\0' ? ")" : "");
		} else
			v = xstrdup(le_text(&qs->le[q]));
		x = wiz_put_cut(y, 28, w - 29, v);
		if (q == qs->cur) {
			attroff(A_BOLD);
			cy = y;
			cx = 28 + (q == Q_BACKEND ? x : q == Q_ACCEL ?
			    (int)strlen(qs->typed) + 2 :
			    (int)wiz_cols(le_text(&qs->le[q]),
			    qs->le[q].cur));
		}
		free(v);
		y++;
	}
	y++;
	if (qs->err != NULL || summary != NULL) {
		struct lines	ls;
		size_t		i;
		int		a = qs->err ? wiz_attr(C_ERROR, A_BOLD) : 0;

		wiz_wrap(qs->err ? qs->err : summary, w - 2, 4, &ls);
		attron(a);
		for (i = 0; i < ls.n; i++)
			wiz_put(y + (int)i, 1, w - 2, ls.l[i]);
		attroff(a);
		wiz_lines_free(&ls);
	}
	attron(A_REVERSE);
	mvhline(h - 1, 0, ' ', w);
	wiz_put(h - 1, 1, w - 2, qs->cur == Q_ACCEL ?
	    (wiz_utf8 ? "type a name (h1: H100)  ←→ choose  Enter next  ↑↓ "
	    "move  ? help  Esc skip" : "type a name (h1: H100)  Left/Right choose  "
	    "Enter next  Up/Down move  Esc skip") : qs->cur == Q_BACKEND ?
	    (wiz_utf8 ? "type a name  ←→ choose  Enter next  ↑↓ move  Esc "
	    "skip to the full pages" : "type a name  Left/Right choose  "
	    "Enter next  Up/Down move  Esc skip to the full pages") :
	    (wiz_utf8 ? "Enter next  ↑↓ move  ? help  Esc skip to the full pages" :
	    "Enter next  Up/Down move  ? help  Esc skip to the full pages"));
	attroff(A_REVERSE);
	move(cy, cx < w ? cx : w - 1);
	refresh();
}

/* The layout's line, then what the pages would say of it: "; as it
 * stands: 2 errors, the first: ..." (checked, then taken back). */
static char *
with_trial(struct ui *ui, struct vm_quick *q, char *line)
{
	char	*first, *t;
	size_t	 ne = vm_quick_trial(ui->vm, q, &first);

	if (ne == 0) {
		free(first);
		return line;
	}
	t = xasprintf("%s; as it stands: %zu error%s, the first: %s", line,
	    ne, ne == 1 ? "" : "s", first != NULL ? first : "");
	free(first);
	free(line);
	return t;
}

/* What the answers lead to, for the line under the questions. */
static char *
summary(struct ui *ui, struct quick *qs, struct vm_quick *q)
{
	char	err[256];
	int	bad, tp, npi;

	if (answers(ui, qs, q, &bad, err, sizeof err) != 0 ||
	    vm_quick_check(ui->vm, q, &tp, &npi, err, sizeof err) != 0)
		return xstrdup(err);
	if (npi > 1)
		return with_trial(ui, q, xasprintf("%s %dP%dD: each instance "
		    "TP %d over %d nodes of %d GPUs%s%s", wiz_utf8 ? "→" :
		    "->", q->nprefill, q->ndecode, tp, npi, q->gpus_per_node,
		    q->gpu != NULL ? " of " : "", q->gpu != NULL ? q->gpu :
		    ""));
	{
		int	used = tp * (q->nprefill + q->ndecode);
		int	all = q->gpus_per_node * q->nodes;
		char	idle[64] = "";

		if (used < all)
			snprintf(idle, sizeof idle, " (%d of %d GPUs used)",
			    used, all);
		return with_trial(ui, q, xasprintf("%s %dP%dD: each instance "
		    "TP %d on %d GPU%s%s%s%s", wiz_utf8 ? "→" : "->",
		    q->nprefill, q->ndecode, tp, tp, tp == 1 ? "" : "s",
		    q->gpu != NULL ? " of " : "", q->gpu != NULL ? q->gpu : "",
		    idle));
	}
}

static int
key_code(int c)
{
	switch (c) {
	case KEY_LEFT:		return LE_LEFT;
	case KEY_RIGHT:		return LE_RIGHT;
	case KEY_HOME: case 1:	return LE_HOME;
	case KEY_END: case 5:	return LE_END;
	case KEY_DC: case 4:	return LE_DELETE;
	case 21:		return LE_KILL_START;
	case 23:		return LE_KILL_WORD;
	case KEY_BACKSPACE: case 127: case 8:
				return LE_BACKSPACE;
	default:		return c >= 32 && c < 256 && c != 127 ? c : 0;
	}
}

static void
step(struct quick *qs, int d)
{
	int	q = qs->cur;

	do
		q += d;
	while (q >= 0 && q < NQ && !row_shown(qs, q));
	if (q >= 0 && q < NQ) {
		qs->cur = q;
		qs->typed[0] = '\0';
		/* Back on an answer: typing replaces it, as on the pages
		 * (a movement key keeps it). */
		if (!is_list(q) && le_text(&qs->le[q])[0] != '\0') {
			qs->le[q].selected = true;
			qs->le[q].cur = strlen(le_text(&qs->le[q]));
		}
	}
}

static void
backend_key(struct ui *ui, struct quick *qs, int c)
{
	size_t	n = 0, len = strlen(qs->typed), i;
	char	try[sizeof qs->typed];

	while (vm_quick_backend(ui->vm, n) != NULL)
		n++;
	if (c == KEY_RIGHT || c == ' ' || c == KEY_LEFT) {
		qs->backend = c == KEY_LEFT ? (qs->backend + n - 1) % n :
		    (qs->backend + 1) % n;
		qs->typed[0] = '\0';
		return;
	}
	/* Type-ahead, as for the accelerator: "ni" is nixl. */
	if (c == KEY_BACKSPACE || c == 127 || c == 8) {
		if (len > 0)
			qs->typed[--len] = '\0';
		return;
	}
	if (c < 33 || c >= 127 || len + 1 >= sizeof qs->typed)
		return;
	/* len + 1 < sizeof qs->typed (above), and try is as large */
	memcpy(try, qs->typed, len);
	try[len] = (char)c;
	try[len + 1] = '\0';
	for (i = 0; i < n; i++)
		if (vm_typeahead_match(vm_quick_backend(ui->vm, i), try))
			break;
	if (i == n) {
		free(qs->err);
		qs->err = xasprintf("transfer backend: none begins with '%s' "
		    "(Left/Right list them)", try);
		return;
	}
	free(qs->err);
	qs->err = NULL;
	memcpy(qs->typed, try, sizeof try);
	qs->backend = i;
}

/* The accelerator's keys: Left/Right step through the list; a typed
 * letter or digit extends the type-ahead and jumps to the first name or
 * alias beginning with it (a letter that matches nothing so extended
 * starts again from it); Backspace takes one back. */
static void
accel_key(struct ui *ui, struct quick *qs, int c)
{
	size_t	n = 0, len = strlen(qs->typed);
	char	try[sizeof qs->typed];
	int	i;

	while (vm_quick_accel(ui->vm, n) != NULL)
		n++;
	if (n == 0)
		return;
	free(qs->err);
	qs->err = NULL;
	if (c == KEY_RIGHT || c == ' ' || c == KEY_LEFT) {
		qs->accel = c == KEY_LEFT ? (qs->accel + n - 1) % n :
		    (qs->accel + 1) % n;
		qs->typed[0] = '\0';
		return;
	}
	if (c == KEY_HOME || c == KEY_END) {
		qs->accel = c == KEY_HOME ? 0 : n - 1;
		qs->typed[0] = '\0';
		return;
	}
	if (c == KEY_BACKSPACE || c == 127 || c == 8) {
		if (len > 0)
			qs->typed[--len] = '\0';
		if ((i = vm_quick_accel_find(ui->vm, qs->typed)) >= 0)
			qs->accel = (size_t)i;
		return;
	}
	if (c < 32 || c >= 127 || len + 1 >= sizeof qs->typed)
		return;
	/* len + 1 < sizeof qs->typed (above), and try is as large */
	memcpy(try, qs->typed, len);
	try[len] = (char)c;
	try[len + 1] = '\0';
	if ((i = vm_quick_accel_find(ui->vm, try)) < 0) {
		snprintf(try, sizeof try, "%c", c);
		i = vm_quick_accel_find(ui->vm, try);
	}
	if (i < 0) {
		qs->err = xasprintf("accelerator: none of rules/hardware.yaml's "
		    "names begins with '%s%c' (Left/Right list them)",
		    qs->typed, c);
		return;
	}
	memcpy(qs->typed, try, sizeof try);
	qs->accel = (size_t)i;
}

/* Enter: check the answers up to this row; the last makes the deployment.
 * true when done. */
static bool
accept(struct ui *ui, struct quick *qs, struct vm_quick *q)
{
	char		err[256];
	int		bad, last = Q_SHAPE;
	struct buf	msg = { 0 };

	free(qs->err);
	qs->err = NULL;
	if (answers(ui, qs, q, &bad, err, sizeof err) != 0 &&
	    bad <= qs->cur) {
		qs->err = xstrdup(err);
		qs->cur = bad;
		return false;
	}
	if (qs->cur != last) {
		step(qs, 1);
		return false;
	}
	if (vm_quick_apply(ui->vm, q, &msg) != 0) {
		qs->err = xstrdup(msg.s ? msg.s : "");
		buf_free(&msg);
		return false;
	}
	wiz_set_status(ui, "%s", msg.s ? msg.s : "");
	buf_free(&msg);
	return true;
}

void
wiz_quick_start(struct ui *ui)
{
	struct quick	 qs;
	struct vm_quick	 q;
	char		*sum, *hosts;
	int		 c, i;

	memset(&qs, 0, sizeof qs);
	vm_quick_init(ui->vm, &q);
	le_init(&qs.le[Q_MODEL], q.model);
	le_init(&qs.le[Q_GPUS], "8");
	le_init(&qs.le[Q_NODES], "1");
	le_init(&qs.le[Q_HOSTS], NULL);
	le_init(&qs.le[Q_SHAPE], "1P1D");
	le_init(&qs.le[Q_ACCEL], NULL);
	le_init(&qs.le[Q_BACKEND], NULL);
	for (i = 0; vm_quick_accel(ui->vm, (size_t)i) != NULL; i++)
		if (q.gpu != NULL && strcmp(q.gpu,
		    vm_quick_accel(ui->vm, (size_t)i)->value) == 0)
			qs.accel = (size_t)i;
	for (;;) {
		/* Hosts follow the node count until the user edits them. */
		if (!qs.hosts_edited) {
			int		 n = atoi(le_text(&qs.le[Q_NODES]));
			struct buf	 b = { 0 };

			for (i = 1; i <= n && n > 1 && n <= 64; i++)
				buf_printf(&b, "%snode%d", i > 1 ? "," : "", i);
			hosts = b.s ? b.s : xstrdup("");
			if (strcmp(hosts, le_text(&qs.le[Q_HOSTS])) != 0) {
				le_free(&qs.le[Q_HOSTS]);
				le_init(&qs.le[Q_HOSTS], hosts);
			}
			free(hosts);
		}
		sum = summary(ui, &qs, &q);
		quick_draw(ui, &qs, sum);
		free(sum);
		c = wiz_getkey();
		if (c == -2)
			break;
		if (c == 27) {
			wiz_set_status(ui, "quick start skipped: the full "
			    "pages, from pdwiz's default deployment");
			break;
		}
		if (c == KEY_F(10)) {		/* nothing made yet to save */
			ui->quit = true;
			break;
		}
		/* Help, on every row: never an answer (no model, host,
		 * number or name has a '?'). */
		if (c == '?' || c == KEY_F(1)) {
			char	*t = quick_help(&qs);

			wiz_textbox(ui, "Quick start help", t);
			free(t);
			continue;
		}
		if (c == '\n' || c == '\r' || c == KEY_ENTER) {
			if (accept(ui, &qs, &q))
				break;
			continue;
		}
		/* An edit answers anew: the refusal of the last Enter goes
		 * (the line under the questions says what this one leads
		 * to). */
		if (c != KEY_UP && c != KEY_BTAB && c != KEY_DOWN &&
		    c != '\t' && c != KEY_RESIZE) {
			free(qs.err);
			qs.err = NULL;
		}
		if (c == KEY_UP || c == KEY_BTAB)
			step(&qs, -1);
		else if (c == KEY_DOWN || c == '\t')
			step(&qs, 1);
		else if (qs.cur == Q_BACKEND)
			backend_key(ui, &qs, c);
		else if (qs.cur == Q_ACCEL)
			accel_key(ui, &qs, c);
		else if (key_code(c) != 0) {
			le_key(&qs.le[qs.cur], key_code(c));
			qs.hosts_edited |= qs.cur == Q_HOSTS;
		}
	}
	for (i = 0; i < NQ; i++)
		le_free(&qs.le[i]);
	free(qs.err);
	vm_quick_free(&q);
}
