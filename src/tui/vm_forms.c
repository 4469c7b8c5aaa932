/*
 * vm_forms.c - forms/NN-name.yaml into pages and fields. A per-role form
 * becomes one page per role, plus one for the single server of a non-PD
 * deployment.
 */
#include "tui/vm_int.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/expr.h"
#include "core/fit.h"
#include "core/util.h"
#include "core/ydoc.h"

#define FORM_MAX	(1024 * 1024)

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
	else if (role_parse(s) == ROLE_PREFILL)
		*out = SC_PREFILL;
	else if (role_parse(s) == ROLE_DECODE)
		*out = SC_DECODE;
	else if (role_parse(s) == ROLE_ROUTER)
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
	size_t	i;

	free(f->label);
	free(f->visible_src);
	expr_free(f->visible);
	for (i = 0; i < f->nnamed; i++) {
		free(f->named[i].value);
		free(f->named[i].label);
		free(f->named[i].aliases);
	}
	free(f->named);
	free(f->example);
}

static void
add_named(struct vm_field *f, const char *value, const char *label)
{
	f->named = xreallocarray(f->named, f->nnamed + 1, sizeof *f->named);
	f->named[f->nnamed].value = xstrdup(value);
	f->named[f->nnamed].label = label ? xstrdup(label) : NULL;
	f->named[f->nnamed].aliases = NULL;
	f->nnamed++;
}

/* choices: "accelerators" (rules/hardware.yaml), or a list of values or
 * {value, label} mappings, each valid for the option's type. */
static int
load_named(struct vm *vm, const char *file, const struct ynode *k,
    struct vm_field *f, char *err, size_t errlen)
{
	static const char *const ckeys[] = { "value", "label", NULL };
	size_t	i;

	if (k->kind == YN_SCALAR && strcmp(k->str, "accelerators") == 0) {
		const struct fit_db	*db;
		char			 e[512];

		if ((db = catalog_fit_db(vm->cat, e, sizeof e)) == NULL) {
			ynode_err(err, errlen, file, k, "accelerators: %s", e);
			return -1;
		}
		for (i = 0; i < db->ngpus; i++) {
			char	*l = xasprintf("%s, %s, %.0f GB",
			    db->gpus[i].platform, db->gpus[i].arch,
			    db->gpus[i].memory_gb);

			add_named(f, db->gpus[i].name, l);
			free(l);
			if (db->gpus[i].naliases > 0) {
				struct buf	a = { 0 };
				size_t		j;

				for (j = 0; j < db->gpus[i].naliases; j++)
					buf_printf(&a, "%s%s", j ? "\n" : "",
					    db->gpus[i].aliases[j]);
				f->named[f->nnamed - 1].aliases = buf_steal(&a);
			}
		}
		return 0;
	}
	if (k->kind != YN_SEQ || k->nkids == 0) {
		ynode_err(err, errlen, file, k, "choices: a list of values or "
		    "{value, label}, or \"accelerators\"");
		return -1;
	}
	for (i = 0; i < k->nkids; i++) {
		const struct ynode	*c = k->kids[i], *v = c, *l = NULL;
		struct value		 pv;

		if (c->kind == YN_MAP) {
			if (ynode_check_keys(c, ckeys, file, err, errlen) != 0)
				return -1;
			v = ynode_get(c, "value");
			l = ynode_get(c, "label");
		}
		if (v == NULL || v->kind != YN_SCALAR || (l != NULL &&
		    l->kind != YN_SCALAR) || (!VM_IS_DKEY(f->key) &&
		    val_parse(vm->cat->opts[f->key].type, v->str, &pv) != 0)) {
			ynode_err(err, errlen, file, c, "choices: a value of "
			    "the option's type (and a label)");
			return -1;
		}
		add_named(f, v->str, l ? l->str : NULL);
	}
	return 0;
}

/* min, max (numbers), format: identifier, example: the field's guides. */
static int
load_guides(struct vm *vm, const char *file, const struct ynode *n,
    struct vm_field *f, char *err, size_t errlen)
{
	const struct ynode	*k;
	struct value		 v;

	if ((k = ynode_get(n, "choices")) != NULL &&
	    load_named(vm, file, k, f, err, errlen) != 0)
		return -1;
	if ((k = ynode_get(n, "min")) != NULL) {
		if (k->kind != YN_SCALAR || val_parse(T_INT, k->str, &v) != 0) {
			ynode_err(err, errlen, file, k, "min: an integer");
			return -1;
		}
		f->has_min = true;
		f->min = v.u.i;
	}
	if ((k = ynode_get(n, "max")) != NULL) {
		if (k->kind != YN_SCALAR || val_parse(T_INT, k->str, &v) != 0) {
			ynode_err(err, errlen, file, k, "max: an integer");
			return -1;
		}
		f->has_max = true;
		f->max = v.u.i;
	}
	if ((k = ynode_get(n, "format")) != NULL) {
		if (k->kind != YN_SCALAR || strcmp(k->str, "identifier") != 0) {
			ynode_err(err, errlen, file, k, "format: identifier");
			return -1;
		}
		f->identifier = true;
	}
	if ((k = ynode_get(n, "example")) != NULL && k->kind == YN_SCALAR)
		f->example = xstrdup(k->str);
	return 0;
}

void
vmi_page_free(struct vm_page *p)
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
		return xstrdup(vmi_df_names[VM_DF(key)]);
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
		"role", "visible", "invert", "choices", "min", "max", "format",
		"example", NULL };
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
			    strcmp(dep->str, vmi_df_names[i]) == 0)
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
	return load_guides(vm, file, n, f, err, errlen);
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
	size_t		i, j;
	char		err[256];
	const struct ynode *k;

	p.title = xasprintf("%s (%s)", title, vmi_scope_names[role]);
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
		p.f[i].named = NULL;
		p.f[i].nnamed = 0;
		for (j = 0; j < src->f[i].nnamed; j++)
			add_named(&p.f[i], src->f[i].named[j].value,
			    src->f[i].named[j].label);
		p.f[i].example = src->f[i].example ?
		    xstrdup(src->f[i].example) : NULL;
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

/* roles: a non-empty list of prefill and decode. */
static int
check_roles(const char *name, const struct ynode *roles, char *err,
    size_t errlen)
{
	size_t	i;

	if (roles->kind != YN_SEQ || roles->nkids == 0) {
		ynode_err(err, errlen, name, roles,
		    "roles: a list of prefill, decode");
		return -1;
	}
	for (i = 0; i < roles->nkids; i++) {
		const struct ynode	*r = roles->kids[i];

		if (r->kind != YN_SCALAR || (role_parse(r->str) != ROLE_PREFILL &&
		    role_parse(r->str) != ROLE_DECODE)) {
			ynode_err(err, errlen, name, r,
			    "roles: prefill or decode");
			return -1;
		}
	}
	return 0;
}

/* The page's own keys: title, intro, review, placement, visible. */
static int
load_page_head(struct vm *vm, const char *name, const struct ynode *root,
    struct vm_page *p, char *err, size_t errlen)
{
	const struct ynode	*k = ynode_get(root, "title");

	if (k == NULL || k->kind != YN_SCALAR) {
		ynode_err(err, errlen, name, root, "a form needs a title");
		return -1;
	}
	if ((k = ynode_get(root, "roles")) != NULL &&
	    check_roles(name, k, err, errlen) != 0)
		return -1;
	p->title = xstrdup(ynode_get(root, "title")->str);
	p->file = xstrdup(name);
	if ((k = ynode_get(root, "intro")) != NULL && k->kind == YN_SCALAR)
		p->intro = xstrdup(k->str);
	if ((k = ynode_get(root, "review")) != NULL) {
		struct value	v;

		if (k->kind != YN_SCALAR || val_parse(T_BOOL, k->str, &v) != 0) {
			ynode_err(err, errlen, name, k, "review: true or false");
			return -1;
		}
		p->review = v.u.b;
	}
	if ((k = ynode_get(root, "placement")) != NULL) {
		struct value	v;

		if (k->kind != YN_SCALAR || val_parse(T_BOOL, k->str, &v) != 0) {
			ynode_err(err, errlen, name, k,
			    "placement: true or false");
			return -1;
		}
		p->placement = v.u.b;
	}
	if ((k = ynode_get(root, "visible")) != NULL &&
	    (p->visible = parse_cond(vm, name, k, err, errlen)) == NULL)
		return -1;
	return 0;
}

/* The page's fields; on error p->nf counts the fields to free. */
static int
load_page_fields(struct vm *vm, const char *name, const struct ynode *root,
    struct vm_page *p, bool role_page, char *err, size_t errlen)
{
	const struct ynode	*fl = ynode_get(root, "fields");
	size_t			 i;

	if (fl != NULL && fl->kind != YN_SEQ) {
		ynode_err(err, errlen, name, fl, "fields: expected a list");
		return -1;
	}
	if (fl == NULL && !p->review) {
		ynode_err(err, errlen, name, root, "a form needs fields");
		return -1;
	}
	p->f = xcalloc(fl && fl->nkids ? fl->nkids : 1, sizeof *p->f);
	for (i = 0; fl != NULL && i < fl->nkids; i++) {
		const struct ynode	*rn = ynode_get(fl->kids[i], "role");
		struct vm_field		*f = &p->f[i];

		p->nf = i + 1;
		if (load_field(vm, name, fl->kids[i], f, role_page, err,
		    errlen) != 0)
			return -1;
		if (rn == NULL)
			f->scope_is_page = role_page &&
			    (f->scope == SC_SHARED || VM_IS_DKEY(f->key));
		else
			f->scope_is_page = role_page &&
			    strcmp(rn->str, "server") == 0;
	}
	return 0;
}

int
vm_load_form_text(struct vm *vm, const char *name, const char *text,
    size_t len, char *err, size_t errlen)
{
	static const char *const keys[] = { "title", "intro", "roles",
		"review", "placement", "visible", "fields", NULL };
	struct ynode		*root;
	const struct ynode	*roles;
	struct vm_page		 p;
	size_t			 i;
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
	if (ynode_check_keys(root, keys, name, err, errlen) != 0 ||
	    load_page_head(vm, name, root, &p, err, errlen) != 0)
		goto out;
	roles = ynode_get(root, "roles");
	if (load_page_fields(vm, name, root, &p, roles != NULL, err,
	    errlen) != 0)
		goto out;
	if (roles == NULL) {
		add_page(vm, &p);
		memset(&p, 0, sizeof p);
	} else {
		for (i = 0; i < roles->nkids; i++)
			clone_page(vm, &p, strcmp(roles->kids[i]->str,
			    "prefill") == 0 ? SC_PREFILL : SC_DECODE, p.title,
			    name, root);
		/* The same page for the single server of a non-PD deployment. */
		clone_page(vm, &p, SC_SINGLE, p.title, name, root);
	}
	rc = 0;
	size_vis(vm);
out:
	vmi_page_free(&p);
	ynode_free(root);
	return rc;
}

/* Flags the deployment writes itself (as deploy_import.c keeps them). */
static const char *const managed_opts[] = { "model_path",
	"disaggregation_mode", "host", "port", "disaggregation_bootstrap_port",
	"base_gpu_id", "dist_init_addr", "nnodes", "node_rank", NULL };

/*
 * The "All options" pages, built from the catalog when first wanted (a in
 * the wizard, or a search the pages' own fields do not fill), never at
 * start: every flag and environment variable that no form shows and the
 * deployment does not write, by SGLang's groups (sglang.groups: in
 * SGLang's order, each in the catalog's order; the rows give each group a
 * heading), per role like the other server pages. They
 * go after every other page, so that no page index held anywhere (the
 * focus, undo, a search hit) moves; the rows point into the pages, so the
 * view is refreshed at once.
 */
int
vm_all_options(struct vm *vm)
{
	const struct catalog	*cat = vm->cat;
	bool			*shown;
	struct buf		 b = { 0 };
	size_t			 i, j, n0 = vm->npages, nf = 0;
	long			 g;
	char			 err[512];
	int			 rc;

	if (vm->all_built)
		return vm->all_first >= 0 ? 0 : -1;
	vm->all_built = true;
	vm->all_first = -1;
	if (n0 == 0)
		return -1;
	shown = xcalloc(cat->nopts + 1, sizeof *shown);
	for (i = 0; i < n0; i++)
		for (j = 0; j < vm->pages[i].nf; j++)
			if (!VM_IS_DKEY(vm->pages[i].f[j].key))
				shown[vm->pages[i].f[j].key] = true;
	for (i = 0; managed_opts[i] != NULL; i++) {
		int	o = catalog_find(cat, managed_opts[i]);

		if (o >= 0)
			shown[o] = true;
	}
	buf_puts(&b, "title: \"All options\"\n"
	    "intro: \"Every flag and env var no other page shows, under "
	    "SGLang's own groups.\"\n"
	    "roles: [prefill, decode]\nfields:\n");
	/* Group by group in SGLang's order (one pass each; -1: an option of
	 * no group, last), each in the catalog's order. */
	for (g = 0; g <= (long)cat->ngroups; g++) {
		long	want = g < (long)cat->ngroups ? g : -1;

		for (i = 0; i < cat->nopts; i++) {
			const struct option	*o = &cat->opts[i];
			long			 og = o->group >= 0 &&
			    (size_t)o->group < cat->ngroups ? o->group : -1;

			if (shown[i] || og != want ||
			    (o->kind != OK_FLAG && o->kind != OK_ENV))
				continue;
			buf_printf(&b, "  - option: %s\n", o->name);
			nf++;
		}
	}
	free(shown);
	rc = nf == 0 ? -1 : vm_load_form_text(vm, "(all options)", b.s, b.len,
	    err, sizeof err);
	buf_free(&b);
	if (rc != 0)
		return -1;
	for (i = n0; i < vm->npages; i++)
		vm->pages[i].all = true;
	vm->all_first = (int)n0;
	vm_refresh(vm);
	return 0;
}

bool
vm_all_built(const struct vm *vm)
{
	return vm->all_built && vm->all_first >= 0;
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

