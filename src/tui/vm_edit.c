/*
 * vm_edit.c - intents that change values: every change is a transaction of
 * cell edits, kept for undo and redo.
 */
#include "tui/vm_int.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "core/util.h"

char *
vmi_text_for(const struct vm *vm, int key, struct value v)
{
	struct buf		 b = { 0 };
	const struct option	*o;

	if (VM_IS_DKEY(key)) {
		if (v.t == V_NULL || v.t == V_UNKNOWN)
			return NULL;
		val_cli(&b, v);
		return buf_steal(&b);
	}
	o = &vm->cat->opts[key];
	if (v.t == V_UNKNOWN)
		return NULL;
	if (o->kind != OK_FACT && vmi_same_value(v, o->def))
		return NULL;			/* the default: leave it out */
	if (v.t == V_NULL)
		return NULL;
	val_cli(&b, v);
	return buf_steal(&b);
}

/*
 * The text for v in scope s: left out only when what would apply without
 * it equals it. On a role that is the shared value when there is one (a
 * role's TP 1 under a shared TP 4 is the role's own 1, though 1 is
 * SGLang's default), else the default.
 */
char *
vmi_text_in(struct vm *vm, enum vm_scope s, int key, struct value v)
{
	struct buf	 b = { 0 };
	char		*shared, *text;

	if (VM_IS_DKEY(key) || (s != SC_PREFILL && s != SC_DECODE) ||
	    v.t == V_UNKNOWN || v.t == V_NULL)
		return vmi_text_for(vm, key, v);
	shared = vmi_cell_get(vm, SC_SHARED, key);
	if (shared == NULL)
		return vmi_text_for(vm, key, v);
	val_cli(&b, v);
	text = buf_steal(&b);
	if (text != NULL && strcmp(text, shared) == 0) {
		free(text);
		text = NULL;		/* the shared value: leave it out */
	}
	free(shared);
	return text;
}

static void
txn_push(struct txnstack *s, struct vm_txn t)
{
	if (s->n == s->cap) {
		s->cap = s->cap ? s->cap * 2 : 16;
		s->t = xreallocarray(s->t, s->cap, sizeof *s->t);
	}
	s->t[s->n++] = t;
}

static bool
same_text(const char *a, const char *b)
{
	if (a == NULL || b == NULL)
		return a == b;
	return strcmp(a, b) == 0;
}

/* Record and apply one change into t. */
void
vmi_txn_set(struct vm *vm, struct vm_txn *t, enum vm_scope s, int key,
    const char *text)
{
	char		*old = vmi_cell_get(vm, s, key);
	struct vm_op	*op;

	if (same_text(old, text)) {
		free(old);
		return;
	}
	t->ops = xreallocarray(t->ops, t->n + 1, sizeof *t->ops);
	op = &t->ops[t->n++];
	memset(op, 0, sizeof *op);
	op->scope = s;
	op->key = key;
	op->keyed = true;
	op->old = old;
	op->new = text ? xstrdup(text) : NULL;
	if (VM_IS_DKEY(key)) {
		op->dold = xcalloc(1, sizeof *op->dold);
		deployment_copy(op->dold, &vm->dep);
	}
	vmi_cell_set(vm, s, key, text);
	if (VM_IS_DKEY(key)) {
		op->dnew = xcalloc(1, sizeof *op->dnew);
		deployment_copy(op->dnew, &vm->dep);
	}
}

void
vmi_txn_commit(struct vm *vm, struct vm_txn *t)
{
	if (t->n == 0) {
		free(t->ops);
		free(t->what);
		return;
	}
	t->page = vm->page;
	txn_push(&vm->undo, *t);
	vmi_txn_clear(&vm->redo);
	vm_refresh(vm);
}

static const struct vm_field *
get_field(const struct vm *vm, int page, int field)
{
	if (page < 0 || (size_t)page >= vm->npages || field < 0 ||
	    (size_t)field >= vm->pages[page].nf)
		return NULL;
	return &vm->pages[page].f[field];
}

int
vm_set(struct vm *vm, int page, int field, struct value v, struct buf *msg)
{
	const struct vm_field	*f = get_field(vm, page, field);
	struct vm_txn		 t = { 0 };
	char			*text;
	size_t			 i;

	if (f == NULL) {
		vmi_msg(msg, "no such field");
		return -1;
	}
	if (page == vm->page && field == vm->field) {
		const struct vm_row	*row = vm_focused(vm);

		for (i = 0; row != NULL && i < row->nchoices; i++) {
			if (!vmi_same_value(row->choices[i].v, v) ||
			    row->choices[i].blocker == NULL)
				continue;
			struct buf	m = { 0 };

			vm_choice_problem(vm, (int)i, &m);
			vmi_msg(msg, "refused: %s", m.s);
			buf_free(&m);
			return -1;
		}
	}
	/* "Same as prefill": the prefill's parallelism copied to the
	 * decode, option by option (one undoable change); off is what the
	 * decode's own values below make it. */
	if (f->key == VM_DKEY(DF_SAME_PAR)) {
		if (v.t != V_BOOL || !v.u.b) {
			vmi_msg(msg, "%s: set the decode's own values below "
			    "(each one is the decode's alone)", f->label);
			return 0;
		}
		t.what = xstrdup("decode parallelism same as prefill");
		for (i = 0; vmi_par_opts[i] != NULL; i++) {
			int	 o = catalog_find(vm->cat, vmi_par_opts[i]);
			char	*pt;

			if (o < 0)
				continue;
			pt = vmi_cell_get(vm, SC_PREFILL, o);
			vmi_txn_set(vm, &t, SC_DECODE, o, pt);
			free(pt);
		}
		vmi_txn_commit(vm, &t);
		vmi_msg(msg, "decode parallelism set to the prefill's (u "
		    "undoes it)");
		return 0;
	}
	text = vmi_text_in(vm, f->scope, f->key, v);
	t.what = xstrdup(f->label);
	vmi_txn_set(vm, &t, f->scope, f->key, text);
	/* A shared field is one value for both roles: a role's own value
	 * would hide it (the field would do nothing), so it goes. */
	if (f->scope == SC_SHARED && !VM_IS_DKEY(f->key)) {
		enum vm_scope	rs[2] = { SC_PREFILL, SC_DECODE };
		bool		dropped = false;

		for (i = 0; i < 2; i++) {
			char	*own = vmi_cell_get(vm, rs[i], f->key);

			if (own != NULL) {
				vmi_txn_set(vm, &t, rs[i], f->key, NULL);
				dropped = true;
			}
			free(own);
		}
		if (dropped) {
			struct buf	vb = { 0 };

			val_cli(&vb, v);
			vmi_txn_commit(vm, &t);
			vmi_msg(msg, "%s: %s on both roles", f->label,
			    vb.s != NULL ? vb.s : "(none)");
			buf_free(&vb);
			free(text);
			return 0;
		}
	}
	free(text);
	vmi_txn_commit(vm, &t);
	vmi_msg(msg, "%s set", f->label);
	return 0;
}

/* The values a numeric deployment field takes. */
static void
df_bounds(int df, long long *lo, long long *hi)
{
	*lo = 1;
	*hi = 1024;
	switch (df) {
	case DF_PORT:
	case DF_BOOTSTRAP:
	case DF_DIST_PORT:
		*hi = 65535;
		break;
	case DF_BASE_GPU:
		*lo = 0;
		*hi = 1023;
		break;
	case DF_INSTANCES:
	case DF_NODES:
		*hi = 4096;
		break;
	default:
		break;
	}
}

/* Unset a field's cell: a layout value goes back to the derived one. */
static int
clear_field(struct vm *vm, const struct vm_field *f, struct buf *msg)
{
	struct vm_txn	 tx = { 0 };
	char		*d;

	tx.what = xstrdup(f->label);
	vmi_txn_set(vm, &tx, f->scope, f->key, NULL);
	vmi_txn_commit(vm, &tx);
	if ((d = vmi_derived(vm, f->scope, f->key)) != NULL)
		vmi_msg(msg, "%s: back to derived (%s)", f->label, d);
	else
		vmi_msg(msg, "%s: back to the default", f->label);
	free(d);
	return 0;
}

int
vm_clear(struct vm *vm, struct buf *msg)
{
	const struct vm_row	*row = vm_focused(vm);

	if (row == NULL) {
		vmi_msg(msg, "no field here");
		return -1;
	}
	if (row->f->key == VM_DKEY(DF_PD)) {
		vmi_msg(msg, "%s cannot be cleared", row->f->label);
		return -1;
	}
	return clear_field(vm, row->f, msg);
}

/* The router's lists: true (with the reason) when they do not parse or
 * leave a role without a URL. */
static bool
urls_refused(const struct vm_field *f, const char *text, struct buf *msg)
{
	struct endpoint	*p = NULL, *d = NULL;
	size_t		 np = 0, nd = 0, i;
	char		 err[256];

	if (vmi_urls_parse(text, &p, &np, &d, &nd, err, sizeof err))
		vmi_msg(msg, "%s: %s", f->label, err);
	else if (np == 0 || nd == 0)
		vmi_msg(msg, "%s: the router needs at least one prefill "
		    "and one decode URL", f->label);
	for (i = 0; i < np; i++)
		free(p[i].url);
	for (i = 0; i < nd; i++)
		free(d[i].url);
	free(p);
	free(d);
	return np == 0 || nd == 0;
}

/* Does text name label's thing ("H100" in "Hopper (H100, H200)")? */
static bool
label_names(const char *label, const char *text)
{
	size_t	n = strlen(text);
	const char *p;

	if (label == NULL || n == 0)
		return false;
	for (p = label; *p != '\0'; p++)
		if (strncasecmp(p, text, n) == 0 &&
		    (p == label || !isalnum((unsigned char)p[-1])) &&
		    !isalnum((unsigned char)p[n]))
			return true;
	return false;
}

/* The named value text is another name of ("H100" for H100-SXM-80GB, as
 * --gpu takes it), else text. */
static const char *
canonical_name(const struct vm_field *f, const char *text)
{
	size_t	i, n = strlen(text);

	for (i = 0; i < f->nnamed; i++) {
		const char	*a = f->named[i].aliases;

		if (strcasecmp(f->named[i].value, text) == 0)
			return text;
		while (a != NULL && *a != '\0') {
			size_t	l = strcspn(a, "\n");

			if (l == n && strncasecmp(a, text, n) == 0)
				return f->named[i].value;
			a += l + (a[l] == '\n');
		}
	}
	return text;
}

/* The form's guides: named values and an identifier format. true (with
 * the reason in msg) when text is refused. */
static bool
guide_refuses(const struct vm_field *f, const char *text, struct buf *msg)
{
	size_t		i;
	const char	*p;
	struct buf	b = { 0 };

	if (f->identifier) {
		for (p = text; *p != '\0'; p++)
			if (!isalnum((unsigned char)*p) && *p != '_' &&
			    *p != '-')
				break;
		if (!isalpha((unsigned char)text[0]) || *p != '\0') {
			vmi_msg(msg, "%s: '%s' is not a name (a name starts "
			    "with a letter: letters, digits, _ and -)%s%s",
			    f->label, text, f->example ? "; e.g. " : "",
			    f->example ? f->example : "");
			return true;
		}
	}
	if (f->nnamed == 0)
		return false;
	for (i = 0; i < f->nnamed; i++)
		if (strcasecmp(f->named[i].value, text) == 0)
			return false;
	for (i = 0; i < f->nnamed; i++)
		if (label_names(f->named[i].label, text)) {
			vmi_msg(msg, "%s: '%s' is not a value here: %s is %s "
			    "(%s); type %s or choose it from the list",
			    f->label, text, text, f->named[i].value,
			    f->named[i].label, f->named[i].value);
			return true;
		}
	for (i = 0; i < f->nnamed && i < 8; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", f->named[i].value);
	vmi_msg(msg, "%s: '%s' is not one of %s%s", f->label, text, b.s,
	    f->nnamed > 8 ? ", ..." : "");
	buf_free(&b);
	return true;
}

int
vm_set_text(struct vm *vm, int page, int field, const char *text, struct buf *msg)
{
	const struct vm_field	*f = get_field(vm, page, field);
	struct value		 v;
	enum otype		 t;

	if (f == NULL) {
		vmi_msg(msg, "no such field");
		return -1;
	}
	while (*text == ' ')
		text++;
	if (*text == '\0')
		return clear_field(vm, f, msg);
	if (VM_IS_DKEY(f->key)) {
		switch (VM_DF(f->key)) {
		case DF_INSTANCES:
		case DF_NODES:
		case DF_GPUS:
		case DF_PORT:
		case DF_BASE_GPU:
		case DF_BOOTSTRAP:
		case DF_DIST_PORT:
		case DF_GPUS_PER_HOST:
			t = T_INT;
			break;
		case DF_PD:
		case DF_SAME_PAR:
			t = T_BOOL;
			break;
		default:
			t = T_STR;
			break;
		}
	} else
		t = vm->cat->opts[f->key].type;
	text = canonical_name(f, text);
	if (guide_refuses(f, text, msg))
		return -1;
	if (val_parse(t, text, &v) != 0) {
		vmi_msg(msg, "'%s' is not a valid %s", text,
		    t == T_INT ? "integer" : t == T_FLOAT ? "number" :
		    t <= T_BOOLOPT ? "on/off value" : "value");
		return -1;
	}
	if (f->key == VM_DKEY(DF_ROUTER_URLS) && urls_refused(f, text, msg))
		return -1;
	if (v.t == V_INT && ((f->has_min && v.u.i < f->min) ||
	    (f->has_max && v.u.i > f->max))) {
		if (f->has_min && f->has_max)
			vmi_msg(msg, "%s: '%s' is out of range: from %lld to "
			    "%lld", f->label, text, f->min, f->max);
		else if (f->has_min)
			vmi_msg(msg, "%s: '%s' is out of range: at least %lld",
			    f->label, text, f->min);
		else
			vmi_msg(msg, "%s: '%s' is out of range: at most %lld",
			    f->label, text, f->max);
		return -1;
	}
	if (VM_IS_DKEY(f->key) && t == T_INT && v.t == V_INT) {
		long long	lo, hi;

		df_bounds(VM_DF(f->key), &lo, &hi);
		if (v.u.i < lo || v.u.i > hi) {
			vmi_msg(msg, "%s: '%s' is not a number from %lld to "
			    "%lld", f->label, text, lo, hi);
			return -1;
		}
	}
	if (!VM_IS_DKEY(f->key) && vm->cat->opts[f->key].nchoices > 0 &&
	    v.t == V_STR) {
		const struct option	*o = &vm->cat->opts[f->key];
		size_t			 i;

		for (i = 0; i < o->nchoices; i++)
			if (strcmp(o->choices[i], text) == 0)
				break;
		if (i == o->nchoices) {
			vmi_msg(msg, "'%s' is not one of the choices",
			    text);
			return -1;
		}
	}
	return vm_set(vm, page, field, v, msg);
}

int
vm_toggle(struct vm *vm, struct buf *msg)
{
	const struct vm_row	*row = vm_focused(vm);
	size_t			 i;

	if (row == NULL || !row->is_bool) {
		vmi_msg(msg, "not an on/off field");
		return -1;
	}
	for (i = 0; i < row->nchoices; i++)
		if (!row->choices[i].current)
			return vm_set(vm, vm->page, row->field,
			    row->choices[i].v, msg);
	vmi_msg(msg, "nothing to toggle");
	return -1;
}

char *
vm_edit_text(struct vm *vm)
{
	const struct vm_row	*row = vm_focused(vm);
	char			*t;

	if (row == NULL)
		return xstrdup("");
	t = vmi_cell_get(vm, row->f->scope, row->f->key);
	return t ? t : xstrdup("");
}

static void
snapshot_free(struct deployment *d)
{
	if (d == NULL)
		return;
	deployment_free(d);
	free(d);
}

/* Replace the deployment with a copy of a snapshot. */
static void
snapshot_restore(struct vm *vm, const struct deployment *snap)
{
	deployment_free(&vm->dep);
	deployment_copy(&vm->dep, snap);
	vmi_dep_changed(vm);
}

/* Record a whole-deployment change into t: before, then after fn. */
void
vmi_txn_snapshot(struct vm *vm, struct vm_txn *t,
    void (*fn)(const struct catalog *, struct deployment *))
{
	struct vm_op	*op;
	char		*before = vmi_dump_state(vm), *after;

	t->ops = xreallocarray(t->ops, t->n + 1, sizeof *t->ops);
	op = &t->ops[t->n];
	memset(op, 0, sizeof *op);
	op->dold = xcalloc(1, sizeof *op->dold);
	deployment_copy(op->dold, &vm->dep);
	fn(vm->cat, &vm->dep);
	vmi_dep_changed(vm);
	after = vmi_dump_state(vm);
	if (strcmp(before, after) == 0) {
		snapshot_free(op->dold);
		op->dold = NULL;
	} else {
		op->dnew = xcalloc(1, sizeof *op->dnew);
		deployment_copy(op->dnew, &vm->dep);
		t->n++;
	}
	free(before);
	free(after);
}

void
vmi_txn_clear(struct txnstack *s)
{
	size_t	i, j;

	for (i = 0; i < s->n; i++) {
		for (j = 0; j < s->t[i].n; j++) {
			free(s->t[i].ops[j].old);
			free(s->t[i].ops[j].new);
			snapshot_free(s->t[i].ops[j].dold);
			snapshot_free(s->t[i].ops[j].dnew);
		}
		free(s->t[i].ops);
		free(s->t[i].what);
	}
	s->n = 0;
}

void
vmi_txn_abandon(struct vm *vm, struct vm_txn *t)
{
	size_t	i;

	for (i = t->n; i-- > 0;) {
		if (t->ops[i].dold != NULL)
			snapshot_restore(vm, t->ops[i].dold);
		else if (t->ops[i].dnew == NULL)
			vmi_cell_set(vm, t->ops[i].scope, t->ops[i].key,
			    t->ops[i].old);
		free(t->ops[i].old);
		free(t->ops[i].new);
		snapshot_free(t->ops[i].dold);
		snapshot_free(t->ops[i].dnew);
	}
	free(t->ops);
	free(t->what);
	memset(t, 0, sizeof *t);
	vm_refresh(vm);
}

/* Record a deployment rule's fix, applied to the whole deployment. */
int
vmi_txn_deploy_fix(struct vm *vm, struct vm_txn *t, const struct rule *r,
    size_t fix)
{
	struct vm_op	*op;
	struct deployment	 *before = xcalloc(1, sizeof *before);

	deployment_copy(before, &vm->dep);
	vmi_dep_changed(vm);
	if (deployment_apply_fix(vm->cat, r, fix, &vm->dep) != 0) {
		snapshot_restore(vm, before);
		snapshot_free(before);
		return -1;
	}
	t->ops = xreallocarray(t->ops, t->n + 1, sizeof *t->ops);
	op = &t->ops[t->n++];
	memset(op, 0, sizeof *op);
	op->dold = before;
	op->dnew = xcalloc(1, sizeof *op->dnew);
	deployment_copy(op->dnew, &vm->dep);
	return 0;
}

/* The field on page p that op changed, or -1. */
static int
op_field(const struct vm *vm, size_t p, const struct vm_op *op)
{
	const struct vm_page	*pg = &vm->pages[p];
	size_t			 j;

	if (!vm->pvis[p])
		return -1;
	for (j = 0; j < pg->nf; j++)
		if (pg->f[j].key == op->key && pg->f[j].scope == op->scope &&
		    vm->fvis[p][j])
			return (int)j;
	return -1;
}

/*
 * Focus what an undo or redo changed: the field of its first named change,
 * on the page it was made from when that page shows it, else on the first
 * page that does. A change with no field (pin, a deployment fix) leaves the
 * focus where it is.
 */
static void
show_change(struct vm *vm, const struct vm_txn *t)
{
	size_t	i, p;
	int	f;

	for (i = 0; i < t->n; i++) {
		if (!t->ops[i].keyed)
			continue;
		if (t->page >= 0 && (size_t)t->page < vm->npages &&
		    (f = op_field(vm, (size_t)t->page, &t->ops[i])) >= 0) {
			vm_goto(vm, t->page, f);
			return;
		}
		for (p = 0; p < vm->npages; p++)
			if ((f = op_field(vm, p, &t->ops[i])) >= 0) {
				vm_goto(vm, (int)p, f);
				return;
			}
	}
}

static int
undo_redo(struct vm *vm, struct txnstack *from, struct txnstack *to,
    bool undo, struct buf *msg)
{
	struct vm_txn	t;
	size_t		i;

	if (from->n == 0) {
		vmi_msg(msg, "nothing to %s", undo ? "undo" : "redo");
		return -1;
	}
	t = from->t[--from->n];
	if (undo)
		for (i = t.n; i-- > 0;) {
			if (t.ops[i].dold != NULL)
				snapshot_restore(vm, t.ops[i].dold);
			else
				vmi_cell_set(vm, t.ops[i].scope, t.ops[i].key,
				    t.ops[i].old);
		}
	else
		for (i = 0; i < t.n; i++) {
			if (t.ops[i].dnew != NULL)
				snapshot_restore(vm, t.ops[i].dnew);
			else
				vmi_cell_set(vm, t.ops[i].scope, t.ops[i].key,
				    t.ops[i].new);
		}
	txn_push(to, t);
	vmi_msg(msg, "%s: %s", undo ? "undone" : "redone", t.what);
	vm_refresh(vm);
	show_change(vm, &t);
	return 0;
}

int
vm_undo(struct vm *vm, struct buf *msg)
{
	return undo_redo(vm, &vm->undo, &vm->redo, true, msg);
}

int
vm_redo(struct vm *vm, struct buf *msg)
{
	return undo_redo(vm, &vm->redo, &vm->undo, false, msg);
}

size_t
vm_undo_depth(const struct vm *vm)
{
	return vm->undo.n;
}

size_t
vm_redo_depth(const struct vm *vm)
{
	return vm->redo.n;
}

