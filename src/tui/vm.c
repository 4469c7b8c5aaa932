/*
 * vm.c - the wizard's view-model (see vm.h). It holds no domain rules: what
 * is allowed comes from the engine (engine_run, engine_blocks), what a
 * deployment is and how it is written comes from src/deploy. This file binds
 * form fields to deployment cells and keeps the interaction state.
 */
#include "tui/vm.h"

#include <ctype.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/describe.h"
#include "core/expr.h"
#include "core/util.h"
#include "core/ydoc.h"
#include "deploy/deploy.h"
#include "io/server.h"
#include "tui/vm_deploy.h"

#define FORM_MAX	(1024 * 1024)

struct vm_op {
	enum vm_scope	 scope;
	int		 key;
	char		*old, *new;	/* text; NULL = unset */
};

struct vm_txn {
	struct vm_op	*ops;
	size_t		 n;
	char		*what;
};

struct txnstack {
	struct vm_txn	*t;
	size_t		 n, cap;
};

struct vm {
	const struct catalog	*cat;
	struct deployment	 dep;
	char			*path;
	char			*baseline;	/* canonical dump when loaded/saved */
	char			*load_note;
	enum severity		 load_sev;	/* of load_note: error (a file that
						   did not load) or warning */

	struct vm_page		*pages;
	size_t			 npages;
	bool			*pvis;		/* per page, last refresh */
	bool			**fvis;		/* per page, per field */
	size_t			 nvis;		/* pages fvis was sized for */

	int			 page, field;	/* focus: field index in page */

	/* per-role configs and results (index: enum vm_scope) */
	struct config		 cfg[NSCOPE];
	struct result		 res[NSCOPE];
	bool			 have[NSCOPE];
	struct result		 cross;

	struct vm_row		*rows;
	size_t			 nrows, rowcap;

	struct vm_review_item	*review;
	size_t			 nreview;

	struct txnstack		 undo, redo;

	int			 o_model, o_mode;
};

static const char *const scope_names[NSCOPE] = {
	"deployment", "shared", "prefill", "decode", "router", "server"
};

static const char *const df_names[NDF] = {
	"pd", "instances", "nodes_per_instance", "gpus_per_node", "hosts",
	"port", "policy", "name"
};

static const char *const router_policies[] = {
	"random", "round_robin", "cache_aware", "power_of_two", NULL
};

static void	vm_refresh_review(struct vm *);

const char *
vm_scope_name(enum vm_scope s)
{
	return s < NSCOPE ? scope_names[s] : "?";
}

/* ---- scopes and roles ---- */

static bool
is_pd(const struct vm *vm)
{
	return !vm->dep.role[ROLE_SINGLE].enabled;
}

static enum role
scope_role(enum vm_scope s)
{
	switch (s) {
	case SC_PREFILL:
		return ROLE_PREFILL;
	case SC_DECODE:
		return ROLE_DECODE;
	case SC_ROUTER:
		return ROLE_ROUTER;
	case SC_SINGLE:
		return ROLE_SINGLE;
	default:
		return NROLE;
	}
}

static bool
scope_active(const struct vm *vm, enum vm_scope s)
{
	switch (s) {
	case SC_PREFILL:
	case SC_DECODE:
	case SC_ROUTER:
		return is_pd(vm);
	case SC_SINGLE:
		return !is_pd(vm);
	default:
		return true;
	}
}

/* The server roles a cell of scope s reaches. */
static size_t
scope_servers(const struct vm *vm, enum vm_scope s, enum vm_scope out[2])
{
	switch (s) {
	case SC_PREFILL:
	case SC_DECODE:
	case SC_SINGLE:
		out[0] = s;
		return scope_active(vm, s) ? 1 : 0;
	case SC_ROUTER:
		return 0;
	default:
		if (is_pd(vm)) {
			out[0] = SC_PREFILL;
			out[1] = SC_DECODE;
			return 2;
		}
		out[0] = SC_SINGLE;
		return 1;
	}
}

/* The config a field of scope s is displayed from. */
static enum vm_scope
scope_view(const struct vm *vm, enum vm_scope s)
{
	enum vm_scope	r[2];

	if (scope_servers(vm, s, r) > 0)
		return r[0];
	return is_pd(vm) ? SC_PREFILL : SC_SINGLE;
}

/* ---- deployment cells: (scope, key) <-> text ---- */

static struct kv **
cell_list(struct vm *vm, enum vm_scope s, int opt, size_t **np)
{
	const struct option	*o = &vm->cat->opts[opt];
	struct deployment	*d = &vm->dep;
	bool			 env = o->kind == OK_ENV;
	enum role		 r;

	if (o->kind == OK_FACT) {
		*np = &d->nfacts;
		return &d->facts;
	}
	if (s == SC_SHARED || s == SC_DEPLOY) {
		*np = env ? &d->nshared_env : &d->nshared;
		return env ? &d->shared_env : &d->shared;
	}
	r = scope_role(s);
	*np = env ? &d->role[r].nenv : &d->role[r].nopts;
	return env ? &d->role[r].env : &d->role[r].opts;
}

static struct kv *
kv_find(struct kv *l, size_t n, const char *name)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (strcmp(l[i].name, name) == 0)
			return &l[i];
	return NULL;
}

static void
kv_put(struct kv **l, size_t *n, const char *name, const char *value)
{
	struct kv	*k = kv_find(*l, *n, name);
	size_t		 i;

	if (value == NULL) {
		if (k == NULL)
			return;
		i = (size_t)(k - *l);
		free(k->name);
		free(k->value);
		memmove(&(*l)[i], &(*l)[i + 1], (*n - i - 1) * sizeof **l);
		(*n)--;
		return;
	}
	if (k == NULL) {
		*l = xreallocarray(*l, *n + 1, sizeof **l);
		k = &(*l)[(*n)++];
		memset(k, 0, sizeof *k);
		k->name = xstrdup(name);
	} else
		free(k->value);
	k->value = xstrdup(value);
}

static char *
int_text(int i, int unset)
{
	return i == unset ? NULL : xasprintf("%d", i);
}

static char *
hosts_text(const struct role_spec *rs)
{
	struct buf	b = { 0 };
	size_t		i;

	for (i = 0; i < rs->nhosts; i++) {
		if (i > 0)
			buf_putc(&b, ',');
		buf_puts(&b, rs->hosts[i]);
	}
	return b.s;
}

/* Current text of a cell (malloc'd), NULL when unset. */
static char *
cell_get(struct vm *vm, enum vm_scope s, int key)
{
	struct deployment	*d = &vm->dep;
	enum role		 r = scope_role(s);
	struct kv		**l, *k;
	size_t			*np;

	if (!VM_IS_DKEY(key)) {
		if (key == vm->o_model)
			return d->model ? xstrdup(d->model) : NULL;
		l = cell_list(vm, s, key, &np);
		k = kv_find(*l, *np, vm->cat->opts[key].name);
		if (k == NULL)
			return NULL;
		return xstrdup(k->value ? k->value : "true");
	}
	if (r == NROLE)
		r = is_pd(vm) ? ROLE_PREFILL : ROLE_SINGLE;
	switch (VM_DF(key)) {
	case DF_PD:
		return xstrdup(is_pd(vm) ? "true" : "false");
	case DF_INSTANCES:
		return int_text(d->role[r].instances, 0);
	case DF_NODES:
		return int_text(d->role[r].nodes_per_instance, 0);
	case DF_GPUS:
		return int_text(d->role[r].gpus_per_node, 0);
	case DF_HOSTS:
		return hosts_text(&d->role[r]);
	case DF_PORT:
		return int_text(d->role[r].port, -1);
	case DF_POLICY:
		return d->role[ROLE_ROUTER].policy ?
		    xstrdup(d->role[ROLE_ROUTER].policy) : NULL;
	case DF_NAME:
		return d->name ? xstrdup(d->name) : NULL;
	}
	return NULL;
}

static void
set_hosts(struct role_spec *rs, const char *text)
{
	size_t		i;
	const char	*p = text, *q;

	for (i = 0; i < rs->nhosts; i++)
		free(rs->hosts[i]);
	free(rs->hosts);
	rs->hosts = NULL;
	rs->nhosts = 0;
	while (p != NULL && *p != '\0') {
		while (*p == ' ' || *p == ',')
			p++;
		if (*p == '\0')
			break;
		for (q = p; *q != '\0' && *q != ',' && *q != ' '; q++)
			;
		rs->hosts = xreallocarray(rs->hosts, rs->nhosts + 1,
		    sizeof *rs->hosts);
		rs->hosts[rs->nhosts++] = xstrndup(p, (size_t)(q - p));
		p = q;
	}
}

static void
set_int(int *dst, const char *text, int unset)
{
	*dst = text == NULL ? unset : atoi(text);
}

static void
set_str(char **dst, const char *text)
{
	free(*dst);
	*dst = text ? xstrdup(text) : NULL;
}

static void
set_pd(struct deployment *d, bool pd)
{
	d->role[ROLE_PREFILL].enabled = pd;
	d->role[ROLE_DECODE].enabled = pd;
	d->role[ROLE_ROUTER].enabled = pd;
	d->role[ROLE_SINGLE].enabled = !pd;
	if (!pd && d->role[ROLE_SINGLE].instances == 0) {
		d->role[ROLE_SINGLE].instances = 1;
		d->role[ROLE_SINGLE].nodes_per_instance = 1;
		d->role[ROLE_SINGLE].gpus_per_node =
		    d->role[ROLE_PREFILL].gpus_per_node;
	}
}

/* Set a cell (text NULL: unset). */
static void
cell_set(struct vm *vm, enum vm_scope s, int key, const char *text)
{
	struct deployment	*d = &vm->dep;
	enum role		 r = scope_role(s), rr;
	struct kv		**l;
	size_t			*np;

	if (!VM_IS_DKEY(key)) {
		if (key == vm->o_model) {
			set_str(&d->model, text);
			return;
		}
		l = cell_list(vm, s, key, &np);
		kv_put(l, np, vm->cat->opts[key].name, text);
		return;
	}
	if (VM_DF(key) == DF_PD) {
		set_pd(d, text != NULL && strcmp(text, "true") == 0);
		return;
	}
	if (VM_DF(key) == DF_POLICY) {
		set_str(&d->role[ROLE_ROUTER].policy, text);
		return;
	}
	if (VM_DF(key) == DF_NAME) {
		set_str(&d->name, text);
		return;
	}
	for (rr = 0; rr < NROLE; rr++) {
		struct role_spec	*rs = &d->role[rr];

		/* Deployment-wide topology goes to every server role. */
		if (r != NROLE ? rr != r : rr == ROLE_ROUTER)
			continue;
		switch (VM_DF(key)) {
		case DF_INSTANCES:
			set_int(&rs->instances, text, 0);
			break;
		case DF_NODES:
			set_int(&rs->nodes_per_instance, text, 0);
			break;
		case DF_GPUS:
			set_int(&rs->gpus_per_node, text, 0);
			break;
		case DF_HOSTS:
			set_hosts(rs, text);
			break;
		case DF_PORT:
			set_int(&rs->port, text, -1);
			break;
		default:
			break;
		}
	}
}

/* A canonical, order-independent dump of every cell, for dirty tracking. */
static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void
dump_kv(char ***lines, size_t *n, const char *scope, const struct kv *l,
    size_t nl)
{
	size_t	i;

	for (i = 0; i < nl; i++) {
		*lines = xreallocarray(*lines, *n + 1, sizeof **lines);
		(*lines)[(*n)++] = xasprintf("%s\t%s\t%s", scope, l[i].name,
		    l[i].value ? l[i].value : "true");
	}
}

static char *
dump_state(struct vm *vm)
{
	const struct deployment	*d = &vm->dep;
	char			**lines = NULL, *t;
	size_t			 n = 0, i;
	struct buf		 b = { 0 };
	enum role		 r;
	int			 df;

	dump_kv(&lines, &n, "deployment", d->facts, d->nfacts);
	dump_kv(&lines, &n, "shared", d->shared, d->nshared);
	dump_kv(&lines, &n, "shared", d->shared_env, d->nshared_env);
	for (r = 0; r < NROLE; r++) {
		enum vm_scope	s = r == ROLE_PREFILL ? SC_PREFILL :
		    r == ROLE_DECODE ? SC_DECODE : r == ROLE_ROUTER ? SC_ROUTER :
		    SC_SINGLE;

		dump_kv(&lines, &n, scope_names[s], d->role[r].opts,
		    d->role[r].nopts);
		dump_kv(&lines, &n, scope_names[s], d->role[r].env,
		    d->role[r].nenv);
		for (df = DF_INSTANCES; df <= DF_PORT; df++) {
			t = cell_get(vm, s, VM_DKEY(df));
			lines = xreallocarray(lines, n + 1, sizeof *lines);
			lines[n++] = xasprintf("%s\t%s\t%s", scope_names[s],
			    df_names[df], t ? t : "");
			free(t);
		}
	}
	for (df = 0; df < NDF; df++) {
		if (df >= DF_INSTANCES && df <= DF_PORT)
			continue;
		t = cell_get(vm, SC_DEPLOY, VM_DKEY(df));
		lines = xreallocarray(lines, n + 1, sizeof *lines);
		lines[n++] = xasprintf("deployment\t%s\t%s", df_names[df],
		    t ? t : "");
		free(t);
	}
	lines = xreallocarray(lines, n + 1, sizeof *lines);
	lines[n++] = xasprintf("deployment\tmodel\t%s",
	    d->model ? d->model : "");
	sort_items(lines, n, sizeof *lines, cmp_str);
	for (i = 0; i < n; i++) {
		buf_puts(&b, lines[i]);
		buf_putc(&b, '\n');
		free(lines[i]);
	}
	free(lines);
	if (b.s == NULL)
		buf_puts(&b, "");
	return b.s;
}

static void
set_baseline(struct vm *vm)
{
	free(vm->baseline);
	vm->baseline = dump_state(vm);
}

bool
vm_dirty(const struct vm *vm)
{
	char	*now = dump_state((struct vm *)vm);
	bool	 d = strcmp(now, vm->baseline) != 0;

	free(now);
	return d;
}

/* Lines of a dump as "scope\tname" -> value, for the change list. */
static const char *
dump_find(const char *dump, const char *scope_name, size_t keylen)
{
	const char	*p = dump;

	while (p != NULL && *p != '\0') {
		if (strncmp(p, scope_name, keylen) == 0 && p[keylen] == '\t')
			return p + keylen + 1;
		p = strchr(p, '\n');
		if (p != NULL)
			p++;
	}
	return NULL;
}

static void
changes_one_way(struct buf *b, const char *from, const char *to, bool added)
{
	const char	*p = to;

	while (p != NULL && *p != '\0') {
		const char	*nl = strchr(p, '\n');
		const char	*t1 = strchr(p, '\t');
		const char	*t2 = t1 ? strchr(t1 + 1, '\t') : NULL;
		size_t		 keylen, vlen;
		const char	*other;

		if (nl == NULL || t2 == NULL || t2 > nl)
			break;
		keylen = (size_t)(t2 - p);
		vlen = (size_t)(nl - t2 - 1);
		other = dump_find(from, p, keylen);
		if (other == NULL && added) {
			buf_printf(b, "  %.*s: %.*s: set to %.*s\n",
			    (int)(t1 - p), p, (int)(t2 - t1 - 1), t1 + 1,
			    (int)vlen, t2 + 1);
		} else if (other == NULL) {
			buf_printf(b, "  %.*s: %.*s: removed (was %.*s)\n",
			    (int)(t1 - p), p, (int)(t2 - t1 - 1), t1 + 1,
			    (int)vlen, t2 + 1);
		} else if (added) {
			const char	*onl = strchr(other, '\n');
			size_t		 olen = onl ? (size_t)(onl - other) :
			    strlen(other);

			if (olen != vlen || strncmp(other, t2 + 1, vlen) != 0)
				buf_printf(b, "  %.*s: %.*s: %.*s -> %.*s\n",
				    (int)(t1 - p), p, (int)(t2 - t1 - 1),
				    t1 + 1, (int)olen, olen ? other : "(unset)",
				    (int)vlen, vlen ? t2 + 1 : "(unset)");
		}
		p = nl + 1;
	}
}

char *
vm_changes(const struct vm *vm)
{
	char		*now = dump_state((struct vm *)vm);
	struct buf	 b = { 0 };

	changes_one_way(&b, vm->baseline, now, true);
	changes_one_way(&b, now, vm->baseline, false);
	free(now);
	if (b.s == NULL)
		buf_puts(&b, "");
	return b.s;
}

/* ---- forms ---- */

struct resolvectx {
	const struct catalog	*cat;
};

static int
form_resolve(void *arg, const char *name)
{
	struct resolvectx	*rc = arg;
	int			 o = catalog_find(rc->cat, name);

	if (o >= 0 && rc->cat->opts[o].kind == OK_DEPLOY)
		return -1;
	return o;
}

static struct expr *
parse_cond(struct vm *vm, const char *file, const struct ynode *n, char *err,
    size_t errlen)
{
	struct resolvectx	 rc = { vm->cat };
	char			 m[256];
	size_t			 off = 0;
	struct expr		*e;

	if (n->kind != YN_SCALAR) {
		ynode_err(err, errlen, file, n, "visible: expected a condition");
		return NULL;
	}
	e = expr_parse(n->str, form_resolve, &rc, m, sizeof m, &off);
	if (e == NULL) {
		bool	oneline = strchr(n->str, '\n') == NULL;

		snprintf(err, errlen, "%s:%d:%d: bad condition: %s", file,
		    n->line, n->col + (oneline ? (int)off +
		    (n->quoted ? 1 : 0) : 0), m);
	}
	return e;
}

static int
parse_scope(const char *s, enum vm_scope *out, bool role_page)
{
	if (strcmp(s, "shared") == 0)
		*out = SC_SHARED;
	else if (strcmp(s, "deploy") == 0 || strcmp(s, "deployment") == 0)
		*out = SC_DEPLOY;
	else if (strcmp(s, "prefill") == 0)
		*out = SC_PREFILL;
	else if (strcmp(s, "decode") == 0)
		*out = SC_DECODE;
	else if (strcmp(s, "router") == 0)
		*out = SC_ROUTER;
	else if (strcmp(s, "server") == 0 && role_page)
		*out = SC_SHARED;	/* replaced by the page role */
	else
		return -1;
	return 0;
}

static void
field_free(struct vm_field *f)
{
	free(f->label);
	free(f->visible_src);
	expr_free(f->visible);
}

static void
page_free(struct vm_page *p)
{
	size_t	i;

	free(p->title);
	free(p->intro);
	free(p->file);
	expr_free(p->visible);
	for (i = 0; i < p->nf; i++)
		field_free(&p->f[i]);
	free(p->f);
}

static char *
default_label(const struct vm *vm, int key)
{
	const struct option	*o;

	if (VM_IS_DKEY(key))
		return xstrdup(df_names[VM_DF(key)]);
	o = &vm->cat->opts[key];
	if (o->label != NULL)
		return xstrdup(o->label);
	return xstrdup(o->flag ? o->flag : o->name);
}

static int
load_field(struct vm *vm, const char *file, const struct ynode *n,
    struct vm_field *f, bool role_page, char *err, size_t errlen)
{
	static const char *const keys[] = { "option", "deploy", "label",
		"role", "visible", "invert", NULL };
	const struct ynode	*opt, *dep, *k;
	size_t			 i;

	memset(f, 0, sizeof *f);
	f->line = n->line;
	f->col = n->col;
	if (n->kind != YN_MAP) {
		ynode_err(err, errlen, file, n, "a field must be a mapping");
		return -1;
	}
	if (ynode_check_keys(n, keys, file, err, errlen) != 0)
		return -1;
	opt = ynode_get(n, "option");
	dep = ynode_get(n, "deploy");
	if ((opt == NULL) == (dep == NULL)) {
		ynode_err(err, errlen, file, n,
		    "a field needs exactly one of 'option' or 'deploy'");
		return -1;
	}
	if (opt != NULL) {
		int	o;

		if (opt->kind != YN_SCALAR ||
		    (o = catalog_find(vm->cat, opt->str)) < 0) {
			ynode_err(err, errlen, file, opt, "unknown option '%s'",
			    opt->kind == YN_SCALAR ? opt->str : "?");
			return -1;
		}
		f->key = o;
		f->scope = vm->cat->opts[o].kind == OK_FACT ||
		    o == vm->o_model ? SC_DEPLOY : SC_SHARED;
	} else {
		for (i = 0; i < NDF; i++)
			if (dep->kind == YN_SCALAR &&
			    strcmp(dep->str, df_names[i]) == 0)
				break;
		if (i == NDF) {
			ynode_err(err, errlen, file, dep,
			    "unknown deployment field '%s'",
			    dep->kind == YN_SCALAR ? dep->str : "?");
			return -1;
		}
		f->key = VM_DKEY(i);
		f->scope = i == DF_POLICY ? SC_ROUTER : SC_DEPLOY;
	}
	if ((k = ynode_get(n, "role")) != NULL) {
		if (k->kind != YN_SCALAR ||
		    parse_scope(k->str, &f->scope, role_page) != 0) {
			ynode_err(err, errlen, file, k, "role must be shared, "
			    "deploy, prefill, decode, router or server");
			return -1;
		}
	} else if (role_page && !VM_IS_DKEY(f->key) &&
	    vm->cat->opts[f->key].kind != OK_FACT)
		f->scope = SC_SHARED;	/* the page's role, set by caller */
	if ((k = ynode_get(n, "label")) != NULL && k->kind == YN_SCALAR)
		f->label = xstrdup(k->str);
	else
		f->label = default_label(vm, f->key);
	if ((k = ynode_get(n, "invert")) != NULL) {
		struct value	v;

		if (k->kind != YN_SCALAR || val_parse(T_BOOL, k->str, &v) != 0 ||
		    VM_IS_DKEY(f->key) || vm->cat->opts[f->key].type > T_BOOLOPT) {
			ynode_err(err, errlen, file, k,
			    "invert: true or false, on bool options only");
			return -1;
		}
		f->invert = v.u.b;
	}
	if ((k = ynode_get(n, "visible")) != NULL) {
		if ((f->visible = parse_cond(vm, file, k, err, errlen)) == NULL)
			return -1;
		f->visible_src = xstrdup(k->str);
	}
	return 0;
}

static void
add_page(struct vm *vm, struct vm_page *p)
{
	vm->pages = xreallocarray(vm->pages, vm->npages + 1, sizeof *vm->pages);
	vm->pages[vm->npages++] = *p;
}

/* Deep-copy a page for another role. */
static void
clone_page(struct vm *vm, const struct vm_page *src, enum vm_scope role,
    const char *title, const char *file, const struct ynode *root)
{
	struct vm_page	p = *src;
	size_t		i;
	char		err[256];
	const struct ynode *k;

	p.title = xasprintf("%s (%s)", title, scope_names[role]);
	p.intro = src->intro ? xstrdup(src->intro) : NULL;
	p.file = xstrdup(file);
	p.role = role;
	p.visible = NULL;
	if ((k = ynode_get(root, "visible")) != NULL)
		p.visible = parse_cond(vm, file, k, err, sizeof err);
	p.f = xcalloc(src->nf ? src->nf : 1, sizeof *p.f);
	for (i = 0; i < src->nf; i++) {
		p.f[i] = src->f[i];
		p.f[i].label = xstrdup(src->f[i].label);
		p.f[i].visible_src = src->f[i].visible_src ?
		    xstrdup(src->f[i].visible_src) : NULL;
		p.f[i].visible = NULL;
		if (p.f[i].visible_src != NULL) {
			struct resolvectx	rc = { vm->cat };
			size_t			off;

			p.f[i].visible = expr_parse(p.f[i].visible_src,
			    form_resolve, &rc, err, sizeof err, &off);
		}
		if (src->f[i].scope_is_page)
			p.f[i].scope = role;
	}
	add_page(vm, &p);
}

/* (Re)size the visibility arrays vm_refresh fills to the loaded pages. */
static void
size_vis(struct vm *vm)
{
	size_t	i;

	for (i = 0; i < vm->nvis; i++)
		free(vm->fvis[i]);
	free(vm->fvis);
	free(vm->pvis);
	vm->pvis = xcalloc(vm->npages ? vm->npages : 1, sizeof *vm->pvis);
	vm->fvis = xcalloc(vm->npages ? vm->npages : 1, sizeof *vm->fvis);
	for (i = 0; i < vm->npages; i++)
		vm->fvis[i] = xcalloc(vm->pages[i].nf + 1, sizeof **vm->fvis);
	vm->nvis = vm->npages;
}

int
vm_load_form_text(struct vm *vm, const char *name, const char *text,
    size_t len, char *err, size_t errlen)
{
	static const char *const keys[] = { "title", "intro", "roles",
		"review", "visible", "fields", NULL };
	struct ynode		*root;
	const struct ynode	*k, *fl, *roles;
	struct vm_page		 p;
	size_t			 i;
	bool			 role_page;
	int			 rc = -1;

	root = ydoc_parse(name, text, len, false, err, errlen);
	if (root == NULL)
		return -1;
	memset(&p, 0, sizeof p);
	p.role = SC_SHARED;
	if (root->kind != YN_MAP) {
		ynode_err(err, errlen, name, root, "a form must be a mapping");
		goto out;
	}
	if (ynode_check_keys(root, keys, name, err, errlen) != 0)
		goto out;
	k = ynode_get(root, "title");
	if (k == NULL || k->kind != YN_SCALAR) {
		ynode_err(err, errlen, name, root, "a form needs a title");
		goto out;
	}
	roles = ynode_get(root, "roles");
	role_page = roles != NULL;
	if (roles != NULL) {
		if (roles->kind != YN_SEQ || roles->nkids == 0) {
			ynode_err(err, errlen, name, roles,
			    "roles: a list of prefill, decode");
			goto out;
		}
		for (i = 0; i < roles->nkids; i++) {
			const struct ynode	*r = roles->kids[i];

			if (r->kind != YN_SCALAR || (strcmp(r->str, "prefill")
			    != 0 && strcmp(r->str, "decode") != 0)) {
				ynode_err(err, errlen, name, r,
				    "roles: prefill or decode");
				goto out;
			}
		}
	}
	p.title = xstrdup(k->str);
	p.file = xstrdup(name);
	if ((k = ynode_get(root, "intro")) != NULL && k->kind == YN_SCALAR)
		p.intro = xstrdup(k->str);
	if ((k = ynode_get(root, "review")) != NULL) {
		struct value	v;

		if (k->kind != YN_SCALAR || val_parse(T_BOOL, k->str, &v) != 0) {
			ynode_err(err, errlen, name, k, "review: true or false");
			goto out;
		}
		p.review = v.u.b;
	}
	if ((k = ynode_get(root, "visible")) != NULL &&
	    (p.visible = parse_cond(vm, name, k, err, errlen)) == NULL)
		goto out;
	fl = ynode_get(root, "fields");
	if (fl != NULL && fl->kind != YN_SEQ) {
		ynode_err(err, errlen, name, fl, "fields: expected a list");
		goto out;
	}
	if (fl == NULL && !p.review) {
		ynode_err(err, errlen, name, root, "a form needs fields");
		goto out;
	}
	p.f = xcalloc(fl && fl->nkids ? fl->nkids : 1, sizeof *p.f);
	for (i = 0; fl != NULL && i < fl->nkids; i++) {
		const struct ynode	*rn = ynode_get(fl->kids[i], "role");

		if (load_field(vm, name, fl->kids[i], &p.f[i], role_page, err,
		    errlen) != 0) {
			p.nf = i + 1;	/* free what the failed field holds */
			goto out;
		}
		p.nf = i + 1;
		if (rn == NULL)
			p.f[i].scope_is_page = role_page &&
			    (p.f[i].scope == SC_SHARED ||
			    VM_IS_DKEY(p.f[i].key));
		else
			p.f[i].scope_is_page = role_page &&
			    strcmp(rn->str, "server") == 0;
	}
	if (!role_page) {
		add_page(vm, &p);
		memset(&p, 0, sizeof p);
		rc = 0;
		size_vis(vm);
		goto out;
	}
	{
		char	*title = xstrdup(p.title);

		for (i = 0; i < roles->nkids; i++)
			clone_page(vm, &p, strcmp(roles->kids[i]->str,
			    "prefill") == 0 ? SC_PREFILL : SC_DECODE, title,
			    name, root);
		/* The same page for the single server of a non-PD deployment. */
		clone_page(vm, &p, SC_SINGLE, title, name, root);
		free(title);
	}
	rc = 0;
	size_vis(vm);
out:
	page_free(&p);
	ynode_free(root);
	return rc;
}

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

int
vm_load_forms(struct vm *vm, const char *dir, char *err, size_t errlen)
{
	DIR		*dp = opendir(dir);
	struct dirent	*de;
	char		**names = NULL;
	size_t		 n = 0, i, len;
	int		 rc = 0;

	if (dp == NULL) {
		snprintf(err, errlen, "%s: cannot open the forms directory",
		    dir);
		return -1;
	}
	while ((de = readdir(dp)) != NULL) {
		len = strlen(de->d_name);
		if (len > 5 && strcmp(de->d_name + len - 5, ".yaml") == 0) {
			names = xreallocarray(names, n + 1, sizeof *names);
			names[n++] = xasprintf("%s/%s", dir, de->d_name);
		}
	}
	closedir(dp);
	sort_items(names, n, sizeof *names, cmp_name);
	for (i = 0; i < n; i++) {
		if (rc == 0) {
			size_t	 tl;
			char	*text = read_file(names[i], FORM_MAX, &tl, err,
			    errlen);

			if (text == NULL)
				rc = -1;
			else if (vm_load_form_text(vm, names[i], text, tl, err,
			    errlen) != 0)
				rc = -1;
			free(text);
		}
		free(names[i]);
	}
	free(names);
	if (rc == 0 && vm->npages == 0) {
		snprintf(err, errlen, "%s: no forms (*.yaml)", dir);
		rc = -1;
	}
	size_vis(vm);
	vm->page = 0;
	vm->field = 0;
	return rc;
}

/* ---- life cycle ---- */

struct vm *
vm_new(const struct catalog *cat)
{
	struct vm	*vm = xcalloc(1, sizeof *vm);

	vm->cat = cat;
	vm->o_model = catalog_find(cat, "model_path");
	vm->o_mode = catalog_find(cat, "disaggregation_mode");
	vmd_default(cat, &vm->dep, NULL);
	set_baseline(vm);
	return vm;
}

static void
txn_clear(struct txnstack *s)
{
	size_t	i, j;

	for (i = 0; i < s->n; i++) {
		for (j = 0; j < s->t[i].n; j++) {
			free(s->t[i].ops[j].old);
			free(s->t[i].ops[j].new);
		}
		free(s->t[i].ops);
		free(s->t[i].what);
	}
	s->n = 0;
}

static void
rows_clear(struct vm *vm)
{
	size_t	i;

	for (i = 0; i < vm->nrows; i++)
		free(vm->rows[i].choices);
	vm->nrows = 0;
}

static void
review_clear(struct vm *vm)
{
	size_t	i;

	for (i = 0; i < vm->nreview; i++)
		free(vm->review[i].msg);
	free(vm->review);
	vm->review = NULL;
	vm->nreview = 0;
}

static void
results_clear(struct vm *vm)
{
	size_t	i;

	for (i = 0; i < NSCOPE; i++) {
		if (vm->have[i]) {
			config_free(&vm->cfg[i]);
			result_free(&vm->res[i]);
		}
		vm->have[i] = false;
	}
	result_free(&vm->cross);
}

void
vm_free(struct vm *vm)
{
	size_t	i;

	if (vm == NULL)
		return;
	for (i = 0; i < vm->npages; i++)
		page_free(&vm->pages[i]);
	for (i = 0; i < vm->nvis; i++)
		free(vm->fvis[i]);
	free(vm->pages);
	free(vm->pvis);
	free(vm->fvis);
	rows_clear(vm);
	free(vm->rows);
	review_clear(vm);
	results_clear(vm);
	txn_clear(&vm->undo);
	free(vm->undo.t);
	txn_clear(&vm->redo);
	free(vm->redo.t);
	vmd_free(&vm->dep);
	free(vm->path);
	free(vm->baseline);
	free(vm->load_note);
	free(vm);
}

int
vm_open_file(struct vm *vm, const char *path, char *err, size_t errlen)
{
	struct deployment	d;
	int			rc;

	rc = vmd_load(vm->cat, path, &d, err, errlen);
	free(vm->path);
	vm->path = xstrdup(path);
	if (rc != 0) {
		/* Open anyway and show the problems: never refuse. */
		free(vm->load_note);
		vm->load_note = xstrdup(err);
		vm->load_sev = SEV_ERROR;
		vmd_free(&d);
		set_baseline(vm);
		return -1;
	}
	vmd_free(&vm->dep);
	vm->dep = d;
	set_baseline(vm);
	return 0;
}

int
vm_import_script(struct vm *vm, const char *path, char *err, size_t errlen)
{
	struct deployment	d;
	char			*notes = NULL;
	int			 rc;

	rc = vmd_import(vm->cat, path, &d, &notes, err, errlen);
	if (rc != 0) {
		free(vm->load_note);
		vm->load_note = xstrdup(err);
		vm->load_sev = SEV_ERROR;
		vmd_free(&d);
		free(notes);
		return -1;
	}
	vmd_free(&vm->dep);
	vm->dep = d;
	free(vm->load_note);
	vm->load_note = notes;
	vm->load_sev = SEV_WARNING;
	/* An import is unsaved work: the baseline is the empty deployment. */
	{
		struct vm	tmp;

		memset(&tmp, 0, sizeof tmp);
		tmp.cat = vm->cat;
		tmp.o_model = vm->o_model;
		vmd_default(vm->cat, &tmp.dep, NULL);
		free(vm->baseline);
		vm->baseline = dump_state(&tmp);
		vmd_free(&tmp.dep);
	}
	return 0;
}

const char *
vm_path(const struct vm *vm)
{
	return vm->path;
}

const char *
vm_load_note(const struct vm *vm)
{
	return vm->load_note;
}

/* ---- pages, focus ---- */

size_t
vm_npages(const struct vm *vm)
{
	return vm->npages;
}

const struct vm_page *
vm_page(const struct vm *vm, size_t i)
{
	return i < vm->npages ? &vm->pages[i] : NULL;
}

bool
vm_page_visible(const struct vm *vm, size_t i)
{
	return i < vm->npages && vm->pvis[i];
}

bool
vm_field_visible(const struct vm *vm, size_t p, size_t f)
{
	return p < vm->npages && f < vm->pages[p].nf && vm->fvis[p][f];
}

int
vm_cur_page(const struct vm *vm)
{
	return vm->page;
}

int
vm_cur_row(const struct vm *vm)
{
	size_t	i;

	if (vm->npages > 0 && vm->pages[vm->page].review)
		return vm->field;	/* index of the focused review item */

	for (i = 0; i < vm->nrows; i++)
		if (vm->rows[i].field == vm->field)
			return (int)i;
	return 0;
}

size_t
vm_rows(const struct vm *vm, const struct vm_row **out)
{
	*out = vm->rows;
	return vm->nrows;
}

const struct vm_row *
vm_focused(const struct vm *vm)
{
	if (vm->nrows == 0)
		return NULL;
	return &vm->rows[vm_cur_row(vm)];
}

void
vm_move(struct vm *vm, int delta)
{
	int	r, n;

	if (vm->pages[vm->page].review) {
		n = (int)vm->nreview;
		r = vm->field + delta;
		vm->field = n == 0 ? 0 : r < 0 ? 0 : r >= n ? n - 1 : r;
		return;
	}
	if (vm->nrows == 0)
		return;
	r = vm_cur_row(vm) + delta;
	n = (int)vm->nrows;
	r = r < 0 ? 0 : r >= n ? n - 1 : r;
	vm->field = vm->rows[r].field;
}

void
vm_page_step(struct vm *vm, int delta)
{
	int	p = vm->page, n = (int)vm->npages, i;

	/* Wrap around: Tab from the review page goes back to the start. */
	for (i = 0; i < n; i++) {
		p = (p + (delta > 0 ? 1 : n - 1)) % n;
		if (vm->pvis[p])
			break;
	}
	if (i == n || p == vm->page)
		return;
	vm->page = p;
	vm->field = 0;
	vm_refresh(vm);
	if (vm->nrows > 0)
		vm->field = vm->rows[0].field;
}

void
vm_goto(struct vm *vm, int page, int field)
{
	if (page < 0 || (size_t)page >= vm->npages)
		return;
	vm->page = page;
	vm->field = field < 0 ? 0 : field;
	vm_refresh(vm);
}

/* ---- model work ---- */

static void
build_configs(struct vm *vm)
{
	enum vm_scope	s;
	const struct config *eff[3] = { NULL, NULL, NULL };

	results_clear(vm);
	for (s = SC_PREFILL; s < NSCOPE; s++) {
		if (!scope_active(vm, s))
			continue;
		vmd_role_config(vm->cat, &vm->dep, scope_role(s), &vm->cfg[s]);
		result_init(&vm->res[s]);
		if (s != SC_ROUTER)
			engine_run(vm->cat, &vm->cfg[s], &vm->res[s]);
		else
			config_copy(&vm->res[s].eff, &vm->cfg[s]);
		vm->have[s] = true;
	}
	result_init(&vm->cross);
	if (is_pd(vm)) {
		eff[0] = &vm->res[SC_PREFILL].eff;
		eff[1] = &vm->res[SC_DECODE].eff;
		eff[2] = &vm->res[SC_ROUTER].eff;
		vmd_check_cross(vm->cat, &vm->dep, eff, &vm->cross);
	}
}

static bool
eval_visible(const struct vm *vm, const struct expr *e, enum vm_scope s)
{
	const struct config	*cfgs[1];
	struct evalctx		 ec = { 0 };
	enum vm_scope		 v = scope_view(vm, s);
	struct value		 r;

	if (e == NULL)
		return true;
	if (!vm->have[v])
		return true;
	cfgs[0] = &vm->res[v].eff;
	ec.cfgs = cfgs;
	ec.nopts = vm->cat->nopts;
	ec.unknown_slot = -1;
	r = expr_eval(e, &ec);
	return r.t == V_UNKNOWN ? false : val_truthy(r);
}

static void
compute_visibility(struct vm *vm)
{
	size_t	i, j;

	for (i = 0; i < vm->npages; i++) {
		const struct vm_page	*p = &vm->pages[i];

		vm->pvis[i] = scope_active(vm, p->role) &&
		    eval_visible(vm, p->visible, p->role == SC_SHARED ?
		    SC_SHARED : p->role);
		for (j = 0; j < p->nf; j++)
			vm->fvis[i][j] = eval_visible(vm, p->f[j].visible,
			    p->f[j].scope);
	}
}

/* The effective value of a field (for display), and its slot. */
static const struct slot *
field_slot(const struct vm *vm, const struct vm_field *f)
{
	enum vm_scope	v;

	if (VM_IS_DKEY(f->key))
		return NULL;
	v = f->scope == SC_ROUTER ? SC_ROUTER : scope_view(vm, f->scope);
	if (!vm->have[v])
		return NULL;
	return &vm->res[v].eff.s[f->key];
}

static const struct slot *
field_input(const struct vm *vm, const struct vm_field *f)
{
	enum vm_scope	v;

	if (VM_IS_DKEY(f->key))
		return NULL;
	v = f->scope == SC_ROUTER ? SC_ROUTER : scope_view(vm, f->scope);
	if (!vm->have[v])
		return NULL;
	return &vm->cfg[v].s[f->key];
}

static void
value_text(char *out, size_t len, struct value v, enum otype t)
{
	struct buf	b = { 0 };

	if (v.t == V_UNKNOWN)
		snprintf(out, len, "unknown");
	else if (v.t == V_NULL)
		snprintf(out, len, "(none)");
	else if (v.t == V_BOOL)
		snprintf(out, len, "%s", v.u.b ? "on" : "off");
	else {
		val_cli(&b, v);
		snprintf(out, len, "%s", b.s ? b.s : "");
		buf_free(&b);
	}
	(void)t;
}

static bool
same_value(struct value a, struct value b)
{
	if (a.t != b.t)
		return false;
	if (a.t == V_UNKNOWN || a.t == V_NULL)
		return true;
	return val_equal(a, b);
}

/* Candidate values of a field. */
static size_t
field_candidates(const struct vm *vm, const struct vm_field *f,
    struct value *out, size_t max)
{
	size_t			 n = 0, i;
	const struct option	*o;

	if (VM_IS_DKEY(f->key)) {
		if (VM_DF(f->key) == DF_PD) {
			out[n++] = val_bool(false);
			out[n++] = val_bool(true);
		} else if (VM_DF(f->key) == DF_POLICY) {
			for (i = 0; router_policies[i] != NULL && n < max; i++)
				out[n++] = val_str(router_policies[i]);
		}
		return n;
	}
	o = &vm->cat->opts[f->key];
	if (o->type == T_BOOL || o->type == T_BOOLOPT) {
		out[n++] = val_bool(false);
		out[n++] = val_bool(true);
		return n;
	}
	if (o->nchoices == 0)
		return 0;
	if (o->def.t == V_NULL || o->kind == OK_FACT)
		out[n++] = o->kind == OK_FACT ? VAL_UNKNOWN : VAL_NULL;
	for (i = 0; i < o->nchoices && n < max; i++) {
		struct value	v;

		if (val_parse(o->type, o->choices[i], &v) == 0)
			out[n++] = v;
	}
	return n;
}

static struct value
dfield_value(struct vm *vm, const struct vm_field *f)
{
	char		*t = cell_get(vm, f->scope, f->key);
	struct value	 v = VAL_NULL;

	if (t == NULL)
		return v;
	switch (VM_DF(f->key)) {
	case DF_PD:
		v = val_bool(strcmp(t, "true") == 0);
		break;
	case DF_INSTANCES:
	case DF_NODES:
	case DF_GPUS:
	case DF_PORT:
		v = val_int(atoll(t));
		break;
	default:
		v = val_str(t);
		break;
	}
	free(t);
	return v;
}

static void
compute_choices(struct vm *vm, struct vm_row *row)
{
	const struct vm_field	*f = row->f;
	struct value		 cand[64], cur;
	size_t			 n, i, k, nr;
	enum vm_scope		 roles[2];
	const struct slot	*sl = field_slot(vm, f);

	n = field_candidates(vm, f, cand, 64);
	row->choices = n ? xcalloc(n, sizeof *row->choices) : NULL;
	row->nchoices = n;
	row->nblocked = 0;
	if (VM_IS_DKEY(f->key))
		cur = dfield_value(vm, f);
	else {
		const struct slot *in = field_input(vm, f);

		cur = in ? in->v : VAL_UNKNOWN;
		if (sl != NULL && vm->cat->opts[f->key].kind == OK_FACT)
			cur = sl->v;
	}
	nr = VM_IS_DKEY(f->key) ? 0 : scope_servers(vm, f->scope, roles);
	for (i = 0; i < n; i++) {
		struct vm_choice	*c = &row->choices[i];

		c->v = cand[i];
		c->current = same_value(cand[i], cur);
		if (cand[i].t == V_BOOL)
			snprintf(c->text, sizeof c->text, "%s",
			    (cand[i].u.b != f->invert) ? "on" : "off");
		else
			value_text(c->text, sizeof c->text, cand[i],
			    T_STR);
		if (c->current || cand[i].t == V_UNKNOWN)
			continue;
		for (k = 0; k < nr; k++) {
			if (!vm->have[roles[k]])
				continue;
			c->blocker = engine_blocks(vm->cat, &vm->cfg[roles[k]],
			    f->key, cand[i]);
			if (c->blocker != NULL) {
				c->blocked_in = roles[k];
				row->nblocked++;
				break;
			}
		}
	}
}

/* Does a diagnostic point at this field? */
static bool
diag_hits(const struct vm *vm, const struct vm_field *f, enum vm_scope s,
    const struct diag *d)
{
	enum vm_scope	r[2];
	size_t		n, i;

	if (VM_IS_DKEY(f->key) || d->opt != f->key)
		return false;
	if (s == SC_DEPLOY && d->rule != NULL && d->rule->deploy)
		return true;
	n = scope_servers(vm, f->scope, r);
	for (i = 0; i < n; i++)
		if (r[i] == s)
			return true;
	return f->scope == SC_ROUTER && s == SC_ROUTER;
}

static void
row_diags(struct vm *vm, struct vm_row *row)
{
	enum vm_scope	s;
	size_t		i;

	for (s = SC_PREFILL; s < NSCOPE; s++) {
		if (!vm->have[s])
			continue;
		for (i = 0; i < vm->res[s].n; i++) {
			const struct diag	*d = &vm->res[s].d[i];

			if (!diag_hits(vm, row->f, s, d))
				continue;
			if (d->sev == SEV_ERROR)
				row->error = true;
			else if (d->sev == SEV_WARNING)
				row->warning = true;
		}
	}
	for (i = 0; i < vm->cross.n; i++) {
		const struct diag	*d = &vm->cross.d[i];

		if (d->opt >= 0 && (size_t)d->opt % vm->cat->nopts ==
		    (size_t)(VM_IS_DKEY(row->f->key) ? -1 : row->f->key) &&
		    d->sev == SEV_ERROR)
			row->error = true;
	}
}

static void
build_row(struct vm *vm, struct vm_row *row)
{
	const struct vm_field	*f = row->f;
	const struct slot	*sl = field_slot(vm, f), *in = field_input(vm, f);

	row->value[0] = row->note[0] = '\0';
	if (VM_IS_DKEY(f->key)) {
		struct value	v = dfield_value(vm, f);

		row->is_bool = v.t == V_BOOL;
		row->on = row->is_bool && v.u.b;
		if (v.t == V_NULL)
			snprintf(row->value, sizeof row->value, "%s",
			    VM_DF(f->key) == DF_POLICY ? "(router default)" :
			    "(not set)");
		else
			value_text(row->value, sizeof row->value, v, T_STR);
	} else if (sl != NULL) {
		const struct option	*o = &vm->cat->opts[f->key];

		row->is_bool = o->type == T_BOOL || o->type == T_BOOLOPT;
		row->on = sl->v.t == V_BOOL && (sl->v.u.b != f->invert);
		if (row->is_bool && sl->v.t == V_BOOL)
			snprintf(row->value, sizeof row->value, "%s",
			    row->on ? "on" : "off");
		else
			value_text(row->value, sizeof row->value, sl->v,
			    o->type);
		if (sl->src == SRC_OVERRIDE && (in == NULL ||
		    !same_value(in->v, sl->v))) {
			const struct rule	*r = &vm->cat->rules[sl->rule];
			struct buf		 b = { 0 };
			struct evalctx		 ec = { 0 };
			const struct config	*cfgs[1];

			cfgs[0] = &vm->res[scope_view(vm, f->scope)].eff;
			ec.cfgs = cfgs;
			ec.nopts = vm->cat->nopts;
			ec.unknown_slot = -1;
			tmpl_render(r->message, &ec, &b);
			row->forced = true;
			snprintf(row->note, sizeof row->note, "(forced: %s)",
			    b.s ? b.s : r->id);
			buf_free(&b);
		} else if (sl->src == SRC_MODEL)
			snprintf(row->note, sizeof row->note, "(from model)");
		else if (sl->src == SRC_DEFAULT)
			snprintf(row->note, sizeof row->note, "(default)");
		if (f->scope == SC_SHARED && is_pd(vm) && !row->forced &&
		    vm->have[SC_DECODE] && vm->have[SC_PREFILL] &&
		    !same_value(vm->res[SC_PREFILL].eff.s[f->key].v,
		    vm->res[SC_DECODE].eff.s[f->key].v)) {
			char	dv[64];

			value_text(dv, sizeof dv,
			    vm->res[SC_DECODE].eff.s[f->key].v, o->type);
			snprintf(row->note, sizeof row->note,
			    "(prefill; decode: %s)", dv);
		}
	}
	row_diags(vm, row);
	compute_choices(vm, row);
}

static void
build_rows(struct vm *vm)
{
	const struct vm_page	*p = &vm->pages[vm->page];
	size_t			 i;

	rows_clear(vm);
	if (p->review)
		return;
	if (vm->rowcap < p->nf) {
		vm->rowcap = p->nf;
		vm->rows = xreallocarray(vm->rows, vm->rowcap, sizeof *vm->rows);
	}
	for (i = 0; i < p->nf; i++) {
		struct vm_row	*row;

		if (!vm->fvis[vm->page][i])
			continue;
		row = &vm->rows[vm->nrows++];
		memset(row, 0, sizeof *row);
		row->field = (int)i;
		row->f = &p->f[i];
		build_row(vm, row);
	}
	/* Keep the focus on a visible field. */
	for (i = 0; i < vm->nrows; i++)
		if (vm->rows[i].field == vm->field)
			return;
	if (vm->nrows > 0) {
		for (i = 0; i < vm->nrows; i++)
			if (vm->rows[i].field > vm->field)
				break;
		vm->field = vm->rows[i < vm->nrows ? i : vm->nrows - 1].field;
	}
}

void
vm_refresh(struct vm *vm)
{
	if (vm->npages == 0) {
		build_configs(vm);
		return;
	}
	build_configs(vm);
	compute_visibility(vm);
	if (!vm->pvis[vm->page]) {
		size_t	i;

		for (i = 0; i < vm->npages; i++)
			if (vm->pvis[i])
				break;
		/* Move to the nearest shown page. */
		if (i < vm->npages) {
			size_t	j, best = i;

			for (j = 0; j < vm->npages; j++)
				if (vm->pvis[j] && (int)j <= vm->page)
					best = j;
			vm->page = (int)best;
		}
	}
	build_rows(vm);
	if (vm->pages[vm->page].review)
		vm_refresh_review(vm);
}

void
vm_counts(const struct vm *vm, size_t *errors, size_t *warnings,
    size_t *overrides)
{
	size_t	s;

	*errors = vm->cross.nerrors;
	*warnings = vm->cross.nwarnings;
	*overrides = vm->cross.noverrides;
	for (s = SC_PREFILL; s < NSCOPE; s++) {
		if (!vm->have[s])
			continue;
		*errors += vm->res[s].nerrors;
		*warnings += vm->res[s].nwarnings;
		*overrides += vm->res[s].noverrides;
	}
}

const struct config *
vm_config(const struct vm *vm, enum vm_scope role)
{
	return role < NSCOPE && vm->have[role] ? &vm->cfg[role] : NULL;
}

const struct result *
vm_result(const struct vm *vm, enum vm_scope role)
{
	return role < NSCOPE && vm->have[role] ? &vm->res[role] : NULL;
}

/* ---- intents ---- */

static char *
text_for(const struct vm *vm, int key, struct value v)
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
	if (o->kind != OK_FACT && same_value(v, o->def))
		return NULL;			/* the default: leave it out */
	if (v.t == V_NULL)
		return NULL;
	val_cli(&b, v);
	return buf_steal(&b);
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
static void
txn_set(struct vm *vm, struct vm_txn *t, enum vm_scope s, int key,
    const char *text)
{
	char		*old = cell_get(vm, s, key);
	struct vm_op	*op;

	if (same_text(old, text)) {
		free(old);
		return;
	}
	t->ops = xreallocarray(t->ops, t->n + 1, sizeof *t->ops);
	op = &t->ops[t->n++];
	op->scope = s;
	op->key = key;
	op->old = old;
	op->new = text ? xstrdup(text) : NULL;
	cell_set(vm, s, key, text);
}

static void
txn_commit(struct vm *vm, struct vm_txn *t)
{
	if (t->n == 0) {
		free(t->ops);
		free(t->what);
		return;
	}
	txn_push(&vm->undo, *t);
	txn_clear(&vm->redo);
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

static const char *
field_name(const struct vm *vm, const struct vm_field *f)
{
	return f->label;
	(void)vm;
}

int
vm_set(struct vm *vm, int page, int field, struct value v, char *msg,
    size_t msglen)
{
	const struct vm_field	*f = get_field(vm, page, field);
	struct vm_txn		 t = { 0 };
	char			*text;
	size_t			 i;

	if (f == NULL) {
		snprintf(msg, msglen, "no such field");
		return -1;
	}
	if (page == vm->page && field == vm->field) {
		const struct vm_row	*row = vm_focused(vm);

		for (i = 0; row != NULL && i < row->nchoices; i++) {
			if (!same_value(row->choices[i].v, v) ||
			    row->choices[i].blocker == NULL)
				continue;
			char	m[1024];

			vm_choice_problem(vm, (int)i, m, sizeof m);
			snprintf(msg, msglen, "refused: %s", m);
			return -1;
		}
	}
	text = text_for(vm, f->key, v);
	t.what = xasprintf("%s", field_name(vm, f));
	txn_set(vm, &t, f->scope, f->key, text);
	free(text);
	txn_commit(vm, &t);
	snprintf(msg, msglen, "%s set", field_name(vm, f));
	return 0;
}

int
vm_set_text(struct vm *vm, int page, int field, const char *text, char *msg,
    size_t msglen)
{
	const struct vm_field	*f = get_field(vm, page, field);
	struct value		 v;
	enum otype		 t;

	if (f == NULL) {
		snprintf(msg, msglen, "no such field");
		return -1;
	}
	while (*text == ' ')
		text++;
	if (*text == '\0') {
		struct vm_txn	tx = { 0 };

		tx.what = xstrdup(f->label);
		txn_set(vm, &tx, f->scope, f->key, NULL);
		txn_commit(vm, &tx);
		snprintf(msg, msglen, "%s: back to the default", f->label);
		return 0;
	}
	if (VM_IS_DKEY(f->key)) {
		switch (VM_DF(f->key)) {
		case DF_INSTANCES:
		case DF_NODES:
		case DF_GPUS:
		case DF_PORT:
			t = T_INT;
			break;
		case DF_PD:
			t = T_BOOL;
			break;
		default:
			t = T_STR;
			break;
		}
	} else
		t = vm->cat->opts[f->key].type;
	if (val_parse(t, text, &v) != 0) {
		snprintf(msg, msglen, "'%s' is not a valid %s", text,
		    t == T_INT ? "integer" : t == T_FLOAT ? "number" :
		    t <= T_BOOLOPT ? "on/off value" : "value");
		return -1;
	}
	if (!VM_IS_DKEY(f->key) && vm->cat->opts[f->key].nchoices > 0 &&
	    v.t == V_STR) {
		const struct option	*o = &vm->cat->opts[f->key];
		size_t			 i;

		for (i = 0; i < o->nchoices; i++)
			if (strcmp(o->choices[i], text) == 0)
				break;
		if (i == o->nchoices) {
			snprintf(msg, msglen, "'%s' is not one of the choices",
			    text);
			return -1;
		}
	}
	return vm_set(vm, page, field, v, msg, msglen);
}

int
vm_toggle(struct vm *vm, char *msg, size_t msglen)
{
	const struct vm_row	*row = vm_focused(vm);
	size_t			 i;

	if (row == NULL || !row->is_bool) {
		snprintf(msg, msglen, "not an on/off field");
		return -1;
	}
	for (i = 0; i < row->nchoices; i++)
		if (!row->choices[i].current)
			return vm_set(vm, vm->page, row->field,
			    row->choices[i].v, msg, msglen);
	snprintf(msg, msglen, "nothing to toggle");
	return -1;
}

char *
vm_edit_text(struct vm *vm)
{
	const struct vm_row	*row = vm_focused(vm);
	char			*t;

	if (row == NULL)
		return xstrdup("");
	t = cell_get(vm, row->f->scope, row->f->key);
	return t ? t : xstrdup("");
}

/* The problem of the focused field: an error on it, else a blocked value. */
static const struct rule *
focus_rule(struct vm *vm, int want, const struct vm_choice **blocked,
    enum vm_scope *in, char *msg, size_t msglen)
{
	const struct vm_row	*row = vm_focused(vm);
	enum vm_scope		 s;
	size_t			 i;

	*blocked = NULL;
	*in = SC_SHARED;
	if (row == NULL)
		return NULL;
	for (s = SC_PREFILL; want < 0 && s < NSCOPE; s++) {
		if (!vm->have[s])
			continue;
		for (i = 0; i < vm->res[s].n; i++) {
			const struct diag	*d = &vm->res[s].d[i];

			if (d->sev != SEV_ERROR || d->rule == NULL ||
			    !diag_hits(vm, row->f, s, d))
				continue;
			snprintf(msg, msglen, "error (%s): %s", scope_names[s],
			    d->msg);
			*in = s;
			return d->rule;
		}
	}
	for (i = 0; i < row->nchoices; i++) {
		const struct vm_choice	*c = &row->choices[i];
		struct buf		 b = { 0 };
		struct result		 r;
		struct config		 tmp = { 0 };
		size_t			 j;

		if (c->blocker == NULL || (want >= 0 && (size_t)want != i))
			continue;
		/* Render the message as SGLang would print it. */
		config_copy(&tmp, &vm->cfg[c->blocked_in]);
		tmp.s[row->f->key].v = c->v;
		tmp.s[row->f->key].src = SRC_USER;
		result_init(&r);
		engine_run(vm->cat, &tmp, &r);
		for (j = 0; j < r.n; j++)
			if (r.d[j].rule == c->blocker) {
				buf_puts(&b, r.d[j].msg);
				break;
			}
		snprintf(msg, msglen, "%s unavailable%s%s: %s", c->text,
		    is_pd(vm) ? " on " : "", is_pd(vm) ?
		    scope_names[c->blocked_in] : "", b.s ? b.s :
		    c->blocker->message_src);
		buf_free(&b);
		result_free(&r);
		config_free(&tmp);
		*blocked = c;
		*in = c->blocked_in;
		return c->blocker;
	}
	return NULL;
}

const struct rule *
vm_focus_problem(struct vm *vm, char *msg, size_t msglen)
{
	const struct vm_choice	*c;
	enum vm_scope		 in;

	if (msglen > 0)
		msg[0] = '\0';
	return focus_rule(vm, -1, &c, &in, msg, msglen);
}

void
vm_choice_problem(struct vm *vm, int choice, char *msg, size_t msglen)
{
	const struct vm_choice	*c;
	enum vm_scope		 in;

	if (msglen > 0)
		msg[0] = '\0';
	(void)focus_rule(vm, choice, &c, &in, msg, msglen);
}

/* Where a fix's setting goes, given the focused field and the role. */
static enum vm_scope
fix_scope(struct vm *vm, int opt, enum vm_scope field_scope, enum vm_scope in)
{
	char	*t;
	size_t	 i, j;
	bool	 shared_field = false, role_field = false;

	if (vm->cat->opts[opt].kind == OK_FACT || opt == vm->o_model)
		return SC_DEPLOY;
	if (in == SC_SHARED || in == SC_DEPLOY)
		in = field_scope;
	if (in >= SC_PREFILL && (t = cell_get(vm, in, opt)) != NULL) {
		free(t);
		return in;
	}
	for (i = 0; i < vm->npages; i++)
		for (j = 0; j < vm->pages[i].nf; j++) {
			if (vm->pages[i].f[j].key != opt)
				continue;
			if (vm->pages[i].f[j].scope == SC_SHARED)
				shared_field = true;
			if (vm->pages[i].f[j].scope == in)
				role_field = true;
		}
	if (role_field)
		return in;
	if (shared_field || field_scope == SC_SHARED)
		return SC_SHARED;
	return in >= SC_PREFILL ? in : SC_SHARED;
}

static bool
fix_touches(const struct catalog *cat, const struct fix *fx, int opt)
{
	size_t	i;

	for (i = 0; i < fx->n; i++)
		if ((size_t)fx->opt[i] % cat->nopts == (size_t)opt)
			return true;
	return false;
}

int
vm_fix(struct vm *vm, char *msg, size_t msglen)
{
	return vm_fix_choice(vm, -1, msg, msglen);
}

int
vm_fix_choice(struct vm *vm, int choice, char *msg, size_t msglen)
{
	const struct vm_row	*row = vm_focused(vm);
	const struct vm_choice	*c;
	const struct rule	*r;
	const struct fix	*fx = NULL;
	enum vm_scope		 in;
	struct vm_txn		 t = { 0 };
	struct buf		 b = { 0 };
	char			 m[512];
	size_t			 i;
	int			 key;
	enum vm_scope		 fscope;

	r = focus_rule(vm, choice, &c, &in, m, sizeof m);
	if (row == NULL || r == NULL) {
		snprintf(msg, msglen, "nothing to fix here");
		return -1;
	}
	key = row->f->key;
	fscope = row->f->scope;
	for (i = 0; i < r->nfixes; i++)
		if (VM_IS_DKEY(key) || !fix_touches(vm->cat, &r->fixes[i], key)) {
			fx = &r->fixes[i];
			break;
		}
	if (fx == NULL && c == NULL && r->nfixes > 0)
		fx = &r->fixes[0];
	if (fx == NULL) {
		snprintf(msg, msglen, "rule %s has no fix that keeps this "
		    "choice", r->id);
		return -1;
	}
	t.what = xasprintf("fix: %s", fx->label);
	for (i = 0; i < fx->n; i++) {
		size_t		 nopts = vm->cat->nopts;
		int		 o = (int)((size_t)fx->opt[i] % nopts);
		size_t		 role = (size_t)fx->opt[i] / nopts;
		enum vm_scope	 s;
		char		*text;

		if (r->deploy && role > 0)
			s = role == 1 ? SC_PREFILL : role == 2 ? SC_DECODE :
			    SC_ROUTER;
		else
			s = fix_scope(vm, o, fscope, in);
		text = fx->val[i].t == V_NULL ? NULL :
		    text_for(vm, o, fx->val[i]);
		txn_set(vm, &t, s, o, text);
		/* A role value would hide the shared one: drop it. */
		if (s == SC_SHARED) {
			txn_set(vm, &t, SC_PREFILL, o, NULL);
			txn_set(vm, &t, SC_DECODE, o, NULL);
		}
		free(text);
	}
	describe_fix(vm->cat, fx, &b);
	snprintf(msg, msglen, "applied: %s (%s)", fx->label, b.s ? b.s : "");
	buf_free(&b);
	txn_commit(vm, &t);
	return 0;
}

static int
undo_redo(struct vm *vm, struct txnstack *from, struct txnstack *to,
    bool undo, char *msg, size_t msglen)
{
	struct vm_txn	t;
	size_t		i;

	if (from->n == 0) {
		snprintf(msg, msglen, "nothing to %s", undo ? "undo" : "redo");
		return -1;
	}
	t = from->t[--from->n];
	if (undo)
		for (i = t.n; i-- > 0;)
			cell_set(vm, t.ops[i].scope, t.ops[i].key, t.ops[i].old);
	else
		for (i = 0; i < t.n; i++)
			cell_set(vm, t.ops[i].scope, t.ops[i].key, t.ops[i].new);
	txn_push(to, t);
	snprintf(msg, msglen, "%s: %s", undo ? "undone" : "redone", t.what);
	vm_refresh(vm);
	return 0;
}

int
vm_undo(struct vm *vm, char *msg, size_t msglen)
{
	return undo_redo(vm, &vm->undo, &vm->redo, true, msg, msglen);
}

int
vm_redo(struct vm *vm, char *msg, size_t msglen)
{
	return undo_redo(vm, &vm->redo, &vm->undo, false, msg, msglen);
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

/* ---- help ---- */

struct termctx {
	const struct catalog	*cat;
	const struct config	*cfg;
	struct buf		*b;
	int			 seen[16];
	size_t			 nseen;
};

static void
term_cb(void *arg, int slot)
{
	struct termctx		*tc = arg;
	size_t			 o = (size_t)slot % tc->cat->nopts, i;
	struct buf		 v = { 0 };

	for (i = 0; i < tc->nseen; i++)
		if (tc->seen[i] == (int)o)
			return;
	if (tc->nseen < 16)
		tc->seen[tc->nseen++] = (int)o;
	if ((size_t)slot / tc->cat->nopts != 0)
		return;
	if (tc->cfg->s[o].v.t == V_UNKNOWN)
		buf_puts(&v, "unknown");
	else
		val_repr_py(&v, tc->cfg->s[o].v);
	buf_printf(tc->b, "      %s = %s\n", tc->cat->opts[o].name,
	    v.s ? v.s : "");
	buf_free(&v);
}

static void
help_rule(struct vm *vm, struct buf *b, const struct rule *r,
    const struct config *with, int focused_opt)
{
	struct termctx	 tc = { 0 };
	struct result	 res;
	size_t		 i;
	bool		 first = true;

	result_init(&res);
	engine_run(vm->cat, with, &res);
	for (i = 0; i < res.n; i++)
		if (res.d[i].rule == r) {
			buf_printf(b, "    SGLang: %s\n", res.d[i].msg);
			break;
		}
	buf_printf(b, "    rule %s (%s:%d)\n    fails because: %s\n", r->id,
	    r->file ? r->file : "?", r->line, r->when_src);
	buf_printf(b, "    where:\n");
	tc.cat = vm->cat;
	tc.cfg = &res.eff;
	tc.b = b;
	expr_slots(r->when, term_cb, &tc);
	for (i = 0; i < r->nfixes; i++) {
		struct buf	d = { 0 };
		bool		mine = fix_touches(vm->cat, &r->fixes[i],
		    focused_opt);

		describe_fix(vm->cat, &r->fixes[i], &d);
		buf_printf(b, "    fix%s: %s (%s)\n", !mine && first ?
		    " [f]" : "", r->fixes[i].label, d.s ? d.s : "");
		if (!mine)
			first = false;
		buf_free(&d);
	}
	result_free(&res);
}

char *
vm_help(struct vm *vm)
{
	const struct vm_row	*row = vm_focused(vm);
	const struct vm_field	*f;
	struct buf		 b = { 0 };
	size_t			 i;
	enum vm_scope		 s;

	if (vm->pages[vm->page].review) {
		buf_puts(&b, "Review: every problem of the deployment, by role "
		    "and severity.\nEnter jumps to the field that causes it.\n");
		return buf_steal(&b);
	}
	if (row == NULL)
		return xstrdup("no field here\n");
	f = row->f;
	buf_printf(&b, "%s", f->label);
	if (!VM_IS_DKEY(f->key)) {
		const struct option	*o = &vm->cat->opts[f->key];
		struct buf		 d = { 0 };

		buf_printf(&b, "  (%s%s, %s)\n\n", o->kind == OK_FACT ?
		    "fact " : o->kind == OK_ENV ? "environment " : "",
		    o->flag ? o->flag : o->name, scope_names[f->scope]);
		buf_printf(&b, "%s\n\n", o->help ? o->help : "");
		if (o->kind == OK_FACT)
			buf_puts(&d, "unknown unless the model says");
		else if (o->def.t == V_NULL)
			buf_puts(&d, "None");
		else
			val_str_py(&d, o->def);
		buf_printf(&b, "default:   %s\n", d.s ? d.s : "");
		buf_free(&d);
		buf_printf(&b, "effective: %s %s\n", row->value, row->note);
		if (o->note)
			buf_printf(&b, "note:      %s\n", o->note);
	} else
		buf_printf(&b, "  (deployment: %s)\n\ncurrent: %s\n",
		    df_names[VM_DF(f->key)], row->value);
	if (f->visible_src)
		buf_printf(&b, "shown when: %s\n", f->visible_src);
	for (i = 0; i < row->nchoices; i++) {
		const struct vm_choice	*c = &row->choices[i];
		struct config		 tmp = { 0 };

		if (c->blocker == NULL)
			continue;
		buf_printf(&b, "\n%s is unavailable%s%s:\n", c->text,
		    is_pd(vm) ? " on " : "", is_pd(vm) ?
		    scope_names[c->blocked_in] : "");
		config_copy(&tmp, &vm->cfg[c->blocked_in]);
		tmp.s[f->key].v = c->v;
		tmp.s[f->key].src = SRC_USER;
		help_rule(vm, &b, c->blocker, &tmp, f->key);
		config_free(&tmp);
	}
	for (s = SC_PREFILL; s < NSCOPE; s++) {
		if (!vm->have[s])
			continue;
		for (i = 0; i < vm->res[s].n; i++) {
			const struct diag	*d = &vm->res[s].d[i];

			if (d->rule == NULL || !diag_hits(vm, f, s, d))
				continue;
			buf_printf(&b, "\n%s (%s): %s\n", severity_name(d->sev),
			    scope_names[s], d->msg);
			if (d->sev == SEV_ERROR || d->sev == SEV_WARNING)
				help_rule(vm, &b, d->rule, &vm->cfg[s],
				    f->key);
			else if (d->rule->explain)
				buf_printf(&b, "    %s\n", d->rule->explain);
		}
	}
	return buf_steal(&b);
}

/* ---- search ---- */

static void
norm(char *dst, size_t len, const char *src)
{
	size_t	i = 0;

	while (*src == '-')
		src++;
	for (; *src != '\0' && i + 1 < len; src++)
		dst[i++] = *src == '-' || *src == '_' ? ' ' :
		    (char)tolower((unsigned char)*src);
	dst[i] = '\0';
}

static int
match_score(const char *hay, const char *q)
{
	char		 h[512];
	const char	*p;

	norm(h, sizeof h, hay);
	if ((p = strstr(h, q)) == NULL)
		return 0;
	return p == h ? 3 : 2;
}

size_t
vm_search(struct vm *vm, const char *query, struct vm_hit *hits, size_t max)
{
	char	 q[256], *tok, *save = NULL;
	size_t	 n = 0, i, j, k;

	norm(q, sizeof q, query);
	if (q[0] == '\0')
		return 0;
	for (i = 0; i < vm->npages; i++) {
		if (!vm->pvis[i])
			continue;
		for (j = 0; j < vm->pages[i].nf; j++) {
			const struct vm_field	*f = &vm->pages[i].f[j];
			char			 qq[256];

			if (!vm->fvis[i][j])
				continue;
			int			 score = 0, s;

			memcpy(qq, q, sizeof qq);
			for (tok = strtok_r(qq, " ", &save); tok != NULL;
			    tok = strtok_r(NULL, " ", &save)) {
				int	best = match_score(f->label, tok);

				if (!VM_IS_DKEY(f->key)) {
					const struct option *o =
					    &vm->cat->opts[f->key];

					if ((s = match_score(o->name, tok)) > best)
						best = s;
					if (o->flag && (s = match_score(o->flag,
					    tok)) > best)
						best = s;
					if (best == 0 && o->help &&
					    match_score(o->help, tok) > 0)
						best = 1;
				}
				if (best == 0) {
					score = 0;
					break;
				}
				score += best;
			}
			if (score == 0)
				continue;
			/* Insert sorted by score, stable. */
			for (k = n; k > 0 && hits[k - 1].score < score; k--)
				if (k < max)
					hits[k] = hits[k - 1];
			if (k < max) {
				hits[k].page = (int)i;
				hits[k].field = (int)j;
				hits[k].score = score;
				if (n < max)
					n++;
			}
		}
	}
	return n;
}

void
vm_hit_text(const struct vm *vm, const struct vm_hit *h, char *out,
    size_t len)
{
	const struct vm_page	*p = &vm->pages[h->page];
	const struct vm_field	*f = &p->f[h->field];

	if (!VM_IS_DKEY(f->key) && vm->cat->opts[f->key].flag != NULL &&
	    strcmp(vm->cat->opts[f->key].flag, f->label) != 0)
		snprintf(out, len, "%s  %s  [%s]", f->label,
		    vm->cat->opts[f->key].flag, p->title);
	else
		snprintf(out, len, "%s  [%s]", f->label, p->title);
}

/* ---- review ---- */

static int
find_field_for(const struct vm *vm, int opt, enum vm_scope role, int *field)
{
	size_t	i, j;
	int	best = -1, bestf = -1, rank = 0;

	for (i = 0; i < vm->npages; i++) {
		if (!vm->pvis[i])
			continue;
		for (j = 0; j < vm->pages[i].nf; j++) {
			const struct vm_field	*f = &vm->pages[i].f[j];
			int			 r;

			if (f->key != opt)
				continue;
			r = f->scope == role ? 3 : f->scope == SC_SHARED ? 2 : 1;
			if (r > rank) {
				rank = r;
				best = (int)i;
				bestf = (int)j;
			}
		}
	}
	*field = bestf;
	return best;
}

struct slotlist {
	int	s[32];
	size_t	n;
};

static void
slot_collect(void *arg, int slot)
{
	struct slotlist	*sl = arg;

	if (sl->n < 32)
		sl->s[sl->n++] = slot;
}

static void
review_add(struct vm *vm, enum vm_scope role, const struct diag *d)
{
	struct vm_review_item	*it;
	size_t			 i;
	int			 opt = d->opt < 0 ? -1 :
	    (int)((size_t)d->opt % vm->cat->nopts);

	for (i = 0; i < vm->nreview; i++)
		if (vm->review[i].role == role && vm->review[i].id == d->id &&
		    strcmp(vm->review[i].msg, d->msg) == 0)
			return;
	vm->review = xreallocarray(vm->review, vm->nreview + 1,
	    sizeof *vm->review);
	it = &vm->review[vm->nreview++];
	it->role = role;
	it->sev = d->sev;
	it->id = d->id;
	it->msg = xstrdup(d->msg);
	it->page = opt < 0 ? -1 : find_field_for(vm, opt, role, &it->field);
	if (it->page < 0 && d->rule != NULL) {
		/* No field for the option it points at: try what it reads. */
		struct slotlist	sl = { { 0 }, 0 };
		size_t		k;

		expr_slots(d->rule->when, slot_collect, &sl);
		for (k = 0; k < sl.n && it->page < 0; k++)
			it->page = find_field_for(vm, (int)((size_t)sl.s[k] %
			    vm->cat->nopts), role, &it->field);
	}
	if (it->page < 0)
		it->field = -1;
}

static void
review_load_note(struct vm *vm)
{
	const char	*p = vm->load_note;

	while (p != NULL && *p != '\0') {
		const char		*nl = strchr(p, '\n');
		size_t			 len = nl ? (size_t)(nl - p) : strlen(p);
		struct vm_review_item	*it;

		vm->review = xreallocarray(vm->review, vm->nreview + 1,
		    sizeof *vm->review);
		it = &vm->review[vm->nreview++];
		it->role = SC_DEPLOY;
		it->sev = vm->load_sev;
		it->id = "load";
		it->msg = xstrndup(p, len);
		it->page = it->field = -1;
		p = nl ? nl + 1 : NULL;
	}
}

static int
review_cmp(const void *a, const void *b)
{
	const struct vm_review_item	*x = a, *y = b;

	if (x->role != y->role)
		return (int)x->role - (int)y->role;
	if (x->sev != y->sev)
		return (int)x->sev - (int)y->sev;
	return 0;
}

static void
vm_refresh_review(struct vm *vm)
{
	struct vm_review_item	*tmp;
	enum vm_scope		 s;
	size_t			 i;

	review_clear(vm);
	review_load_note(vm);
	for (s = SC_PREFILL; s < NSCOPE; s++) {
		if (!vm->have[s])
			continue;
		for (i = 0; i < vm->res[s].n; i++)
			review_add(vm, s, &vm->res[s].d[i]);
	}
	for (i = 0; i < vm->cross.n; i++)
		review_add(vm, SC_DEPLOY, &vm->cross.d[i]);
	/* Stable sort by role then severity (insertion order kept). */
	if (vm->nreview > 1) {
		size_t	j, k;

		tmp = xcalloc(vm->nreview, sizeof *tmp);
		k = 0;
		for (s = 0; s < NSCOPE; s++)
			for (j = SEV_ERROR; j <= SEV_UNKNOWN; j++)
				for (i = 0; i < vm->nreview; i++)
					if (vm->review[i].role == s &&
					    vm->review[i].sev == j)
						tmp[k++] = vm->review[i];
		memcpy(vm->review, tmp, k * sizeof *tmp);
		free(tmp);
	}
	(void)review_cmp;
}

size_t
vm_review(struct vm *vm, const struct vm_review_item **out)
{
	*out = vm->review;
	return vm->nreview;
}

/* ---- preview, save, export ---- */

/* The launch commands; those of the current page's role come first. */
char *
vm_preview(struct vm *vm)
{
	char		*all = vmd_preview(vm->cat, &vm->dep), *p;
	enum vm_scope	 role = vm->npages ? vm->pages[vm->page].role :
	    SC_SHARED;
	struct buf	 first = { 0 }, rest = { 0 };
	char		 tag[32];

	if (role != SC_PREFILL && role != SC_DECODE)
		return all;
	snprintf(tag, sizeof tag, "# %s ", scope_names[role]);
	p = all;
	while (p != NULL && *p != '\0') {
		char	*end = strstr(p, "\n\n");
		size_t	 len = end ? (size_t)(end - p) + 2 : strlen(p);

		buf_add(strncmp(p, tag, strlen(tag)) == 0 ? &first : &rest, p,
		    len);
		p = end ? end + 2 : NULL;
	}
	free(all);
	if (rest.s != NULL)
		buf_puts(&first, rest.s);
	buf_free(&rest);
	if (first.s == NULL)
		buf_puts(&first, "");
	return first.s;
}

static int
write_guarded(const char *path, const char *data, size_t len, bool force,
    char *msg, size_t msglen)
{
	struct stat	st;
	char		err[512];

	if (!force && stat(path, &st) == 0) {
		snprintf(msg, msglen, "%s exists", path);
		return 1;
	}
	if (write_file_atomic(path, data, len, err, sizeof err) != 0) {
		snprintf(msg, msglen, "%s", err);
		return -1;
	}
	return 0;
}

int
vm_save(struct vm *vm, const char *path, bool force, char *msg,
    size_t msglen)
{
	char	*y;
	int	 rc;

	if (!is_pd(vm)) {
		snprintf(msg, msglen, "not saved: deployment files describe "
		    "PD deployments; turn PD disaggregation back on "
		    "(Topology) to save");
		return -1;
	}
	y = vmd_to_yaml(vm->cat, &vm->dep, msg, msglen);
	if (y == NULL)
		return -1;
	rc = write_guarded(path, y, strlen(y), force, msg, msglen);
	free(y);
	if (rc != 0)
		return rc;
	free(vm->path);
	vm->path = xstrdup(path);
	set_baseline(vm);
	snprintf(msg, msglen, "saved %s", path);
	return 0;
}

static const char *const export_formats[] = { "shell", "runbook", "config",
	"k8s", NULL };

const char *
vm_export_format(size_t i)
{
	return i < 4 ? export_formats[i] : NULL;
}

const char *
vm_export_default_path(const char *format)
{
	if (strcmp(format, "shell") == 0)
		return "launch.sh";
	if (strcmp(format, "runbook") == 0)
		return "RUNBOOK.md";
	if (strcmp(format, "config") == 0)
		return "./";
	return "pd-k8s.yaml";
}

/*
 * Export: one file to path, or (several files) each under its suggested
 * name in the directory of path. Refused while the deployment has errors
 * unless VM_EXPORT_FAILING (the output is then marked as failing).
 */
int
vm_export(struct vm *vm, const char *format, const char *path,
    unsigned flags, char *msg, size_t msglen)
{
	struct emission	 e;
	size_t		 i, ne, nw, no;
	int		 rc = 0;
	bool		 force = flags & VM_EXPORT_OVERWRITE;
	char		*dir, *slash, *p;
	struct stat	 st;

	if (!is_pd(vm)) {
		snprintf(msg, msglen, "not exported: the emitters write PD "
		    "deployments; turn PD disaggregation back on (Topology)");
		return -1;
	}
	vm_counts(vm, &ne, &nw, &no);
	if (ne > 0 && !(flags & VM_EXPORT_FAILING)) {
		snprintf(msg, msglen, "the deployment has %zu error%s", ne,
		    ne == 1 ? "" : "s");
		return 2;
	}
	if (vmd_emit(vm->cat, &vm->dep, format, (flags & VM_EXPORT_FAILING)
	    != 0, &e, msg, msglen) != 0)
		return -1;
	if (e.n == 1 && !(stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
		rc = write_guarded(path, e.f[0].data, strlen(e.f[0].data),
		    force, msg, msglen);
		if (rc == 0)
			snprintf(msg, msglen, "exported %s to %s", format, path);
		emission_free(&e);
		return rc;
	}
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
		dir = xstrdup(path);
	else {
		dir = xstrdup(path);
		if ((slash = strrchr(dir, '/')) != NULL)
			*slash = '\0';
		else {
			free(dir);
			dir = xstrdup(".");
		}
	}
	for (i = 0; i < e.n && rc == 0 && !force; i++) {
		p = xasprintf("%s/%s", dir, e.f[i].name);
		if (stat(p, &st) == 0) {
			snprintf(msg, msglen, "%s exists", p);
			rc = 1;
		}
		free(p);
	}
	for (i = 0; i < e.n && rc == 0; i++) {
		p = xasprintf("%s/%s", dir, e.f[i].name);
		rc = write_guarded(p, e.f[i].data, strlen(e.f[i].data), true,
		    msg, msglen);
		free(p);
	}
	if (rc == 0)
		snprintf(msg, msglen, "exported %s: %zu files in %s", format,
		    e.n, dir);
	free(dir);
	emission_free(&e);
	return rc;
}
