/* catalog.c - load options, models and rules from the data directory. */
#define _GNU_SOURCE
#include "catalog.h"
#include "fit.h"
#include "config.h"
#include "expr.h"
#include "role.h"
#include "util.h"
#include "ydoc.h"

#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>


#define DATA_MAX	(8 * 1024 * 1024)
/* What a deployment rule's names start with to read a role's config. */
static const char *const role_prefix[NPD_ROLE] = { "prefill.", "decode.",
	"router." };

struct loadctx {
	struct catalog	*cat;
	const char	*file;
	char		*err;
	size_t		 errlen;
	bool		 deploy;	/* resolving names of a deploy rule */
};

/* ---- hashing ----
 * Unkeyed (FNV-1a), unlike the tables built from input (hashidx.h): these
 * hold the rules' names only and are written into the catalog image, so
 * they must hash alike in every process. A lookup of an input name walks
 * at most the longest run of slots of that fixed table.
 */

static uint64_t
hstr(const char *s)
{
	uint64_t	h = 1469598103934665603ULL;

	while (*s != '\0') {
		h ^= (unsigned char)*s++;
		h *= 1099511628211ULL;
	}
	return h;
}

/* Insert key -> idx; returns the existing index if key is present, else -1.
 * The caller keeps the table at most half full (hreserve). */
static int
hput(int **tab, size_t *cap, const char *key, int idx,
    const char *(*keyof)(const struct catalog *, int), const struct catalog *cat)
{
	size_t	i = hstr(key) & (*cap - 1);

	while ((*tab)[i] >= 0) {
		if (strcmp(keyof(cat, (*tab)[i]), key) == 0)
			return (*tab)[i];
		i = (i + 1) & (*cap - 1);
	}
	(*tab)[i] = idx;
	return -1;
}

/* Make room for `want` entries at load factor 1/2, re-inserting old ones. */
static void
hreserve(int **tab, size_t *cap, size_t want,
    const char *(*keyof)(const struct catalog *, int), const struct catalog *cat)
{
	int	*old = *tab;
	size_t	 oldcap = *cap, ncap = oldcap ? oldcap : 1024, i;

	while (ncap < want * 2)
		ncap *= 2;
	if (ncap == oldcap)
		return;
	*tab = xmalloc(ncap * sizeof **tab);
	memset(*tab, 0xff, ncap * sizeof **tab);
	*cap = ncap;
	for (i = 0; i < oldcap; i++)
		if (old[i] >= 0)
			hput(tab, cap, keyof(cat, old[i]), old[i], keyof, cat);
	free(old);
}

static const char *
name_of(const struct catalog *cat, int i)
{
	return cat->opts[i].name;
}

/* Flag hash stores idx*64+alias_no (alias 0 = primary) to recover spelling. */
static const char *
flag_of(const struct catalog *cat, int code)
{
	const struct option	*o = &cat->opts[code / 64];
	int			 a = code % 64;

	return a == 0 ? o->flag : o->aliases[a - 1];
}

int
catalog_find(const struct catalog *cat, const char *name)
{
	size_t	i;

	if (cat->hcap == 0)
		return -1;
	i = hstr(name) & (cat->hcap - 1);
	while (cat->hash[i] >= 0) {
		if (strcmp(cat->opts[cat->hash[i]].name, name) == 0)
			return cat->hash[i];
		i = (i + 1) & (cat->hcap - 1);
	}
	return -1;
}

int
catalog_find_flag(const struct catalog *cat, const char *flag)
{
	size_t	i;

	if (cat->fcap == 0)
		return -1;
	i = hstr(flag) & (cat->fcap - 1);
	while (cat->fhash[i] >= 0) {
		if (strcmp(flag_of(cat, cat->fhash[i]), flag) == 0)
			return cat->fhash[i] / 64;
		i = (i + 1) & (cat->fcap - 1);
	}
	return -1;
}

const char *
catalog_suggest_flag(const struct catalog *cat, const char *flag)
{
	const char	*best = NULL;
	size_t		 bestd, i, a, len = strlen(flag);

	bestd = len < 8 ? 2 : 3;
	for (i = 0; i < cat->nopts; i++) {
		const struct option	*o = &cat->opts[i];

		if (o->kind != OK_FLAG)
			continue;
		for (a = 0; a <= o->naliases; a++) {
			const char	*f = a == 0 ? o->flag : o->aliases[a - 1];
			size_t		 d;

			if (f == NULL)
				continue;
			/* The distance is at least the length difference. */
			d = strlen(f);
			if ((d > len ? d - len : len - d) > bestd)
				continue;
			d = edit_distance_within(flag, f, bestd);
			if (d < bestd || (d == bestd && best == NULL &&
			    d <= 1)) {
				bestd = d;
				best = f;
			}
		}
	}
	return best;
}

const char *
catalog_rule_file(const struct catalog *cat, const struct rule *r)
{
	char		*p;
	const char	*s;

	if (r->file == NULL || r->file[0] == '/' || cat->dir == NULL)
		return r->file;
	p = xasprintf("%s/%s", cat->dir, r->file);
	s = intern(p);
	free(p);
	return s;
}

const struct rule *
catalog_rule(const struct catalog *cat, const char *id)
{
	size_t	i;

	for (i = 0; i < cat->nrules; i++)
		if (strcmp(cat->rules[i].id, id) == 0)
			return &cat->rules[i];
	for (i = 0; i < cat->ndrules; i++)
		if (strcmp(cat->drules[i].id, id) == 0)
			return &cat->drules[i];
	return NULL;
}

const char *
severity_name(enum severity s)
{
	static const char *const n[] = { "error", "warning", "override",
		"unknown", "note" };

	return n[s];
}

const char *
stage_name(enum stage s)
{
	static const char *const n[] = { "launch", "startup",
		"first-request" };

	return n[s];
}

/* ---- scalar helpers ---- */

static int
want_scalar(struct loadctx *lc, const struct ynode *n, const char *what)
{
	if (n == NULL || n->kind != YN_SCALAR) {
		ynode_err(lc->err, lc->errlen, lc->file, n,
		    "%s must be a scalar", what);
		return -1;
	}
	return 0;
}

static const char *
opt_str(struct loadctx *lc, const struct ynode *map, const char *key,
    bool required, int *rc)
{
	const struct ynode	*n = ynode_get(map, key);

	if (n == NULL || ynode_is_null(n)) {
		if (required) {
			ynode_err(lc->err, lc->errlen, lc->file, map,
			    "missing required key '%s'", key);
			*rc = -1;
		}
		return NULL;
	}
	if (want_scalar(lc, n, key) != 0) {
		*rc = -1;
		return NULL;
	}
	return intern(n->str);
}

static int
yaml_bool(struct loadctx *lc, const struct ynode *n, bool *out)
{
	if (n == NULL)
		return 0;
	if (n->kind == YN_SCALAR && !n->quoted) {
		if (strcmp(n->str, "true") == 0) {
			*out = true;
			return 0;
		}
		if (strcmp(n->str, "false") == 0) {
			*out = false;
			return 0;
		}
	}
	ynode_err(lc->err, lc->errlen, lc->file, n,
	    "expected true or false");
	return -1;
}

/* Convert a YAML node into a value of the option's type. */
static int
yaml_value(struct loadctx *lc, const struct option *o, const struct ynode *n,
    struct value *out)
{
	if (ynode_is_null(n)) {
		*out = VAL_NULL;
		return 0;
	}
	if (o->type == T_LIST && n->kind == YN_SEQ) {
		struct buf	b = { 0 };
		size_t		i;

		for (i = 0; i < n->nkids; i++) {
			if (want_scalar(lc, n->kids[i], "list item") != 0) {
				buf_free(&b);
				return -1;
			}
			if (i > 0)
				buf_putc(&b, '\x1f');
			buf_puts(&b, n->kids[i]->str);
		}
		*out = (struct value){ .t = V_LIST, .u.s = intern(b.s ? b.s :
		    "") };
		buf_free(&b);
		return 0;
	}
	if (want_scalar(lc, n, "value") != 0)
		return -1;
	if ((o->type == T_BOOL || o->type == T_BOOLOPT) && o->kind != OK_ENV &&
	    (n->quoted || (strcmp(n->str, "true") != 0 &&
	    strcmp(n->str, "false") != 0))) {
		ynode_err(lc->err, lc->errlen, lc->file, n,
		    "%s takes true or false, not '%s'", o->name, n->str);
		return -1;
	}
	if (val_parse(o->type, n->str, out) != 0) {
		ynode_err(lc->err, lc->errlen, lc->file, n,
		    "%s takes %s, not '%s'", o->name,
		    o->type == T_INT ? "an integer" : "a number", n->str);
		return -1;
	}
	return 0;
}

static const char **
str_list(struct loadctx *lc, const struct ynode *n, size_t *count, int *rc)
{
	const char	**v;
	size_t		  i;

	*count = 0;
	if (n == NULL || ynode_is_null(n))
		return NULL;
	if (n->kind != YN_SEQ) {
		ynode_err(lc->err, lc->errlen, lc->file, n,
		    "expected a list");
		*rc = -1;
		return NULL;
	}
	v = xcalloc(n->nkids, sizeof *v);
	for (i = 0; i < n->nkids; i++) {
		if (want_scalar(lc, n->kids[i], "list item") != 0) {
			free(v);
			*rc = -1;
			return NULL;
		}
		v[i] = intern(n->kids[i]->str);
	}
	*count = n->nkids;
	return v;
}

/* ---- options ---- */

static const char *const option_keys[] = { "name", "kind", "flag", "aliases",
	"type", "default", "choices", "help", "config", "deprecated",
	"modelled", "label", "hint", "note", "group", NULL };

/* An option's kind and type from their names; -1 on an unknown one. */
static int
kind_type(struct loadctx *lc, const struct ynode *n, const char *kind,
    const char *type, struct option *o)
{
	static const char *const kinds[] = { "flag", "env", "fact", "deploy" };
	static const enum okind	 kindv[] = { OK_FLAG, OK_ENV, OK_FACT,
	    OK_DEPLOY };
	static const char *const types[] = { "bool", "boolopt", "int",
	    "float", "str", "list" };
	static const enum otype	 typev[] = { T_BOOL, T_BOOLOPT, T_INT,
	    T_FLOAT, T_STR, T_LIST };
	size_t			 i;

	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(kind, kinds[i]) == 0)
			break;
	if (i == sizeof kinds / sizeof kinds[0]) {
		ynode_err(lc->err, lc->errlen, lc->file, ynode_get(n, "kind"),
		    "kind must be flag, env, fact or deploy, not '%s'", kind);
		return -1;
	}
	o->kind = kindv[i];
	for (i = 0; i < sizeof types / sizeof types[0]; i++)
		if (strcmp(type, types[i]) == 0)
			break;
	if (i == sizeof types / sizeof types[0]) {
		ynode_err(lc->err, lc->errlen, lc->file, ynode_get(n, "type"),
		    "type must be bool, boolopt, int, float, str or list, "
		    "not '%s'", type);
		return -1;
	}
	o->type = typev[i];
	return 0;
}

/* Add a read option to the catalog and its name and flag tables. */
static int
add_option(struct loadctx *lc, const struct ynode *n, const struct option *op)
{
	struct catalog	*cat = lc->cat;
	struct option	 o = *op;
	size_t		 i;

	cat->opts = xreallocarray(cat->opts, cat->nopts + 1, sizeof *cat->opts);
	cat->opts[cat->nopts] = o;
	hreserve(&cat->hash, &cat->hcap, cat->nopts + 1, name_of, cat);
	cat->nflags += o.naliases + 1;
	hreserve(&cat->fhash, &cat->fcap, cat->nflags, flag_of, cat);
	if (hput(&cat->hash, &cat->hcap, o.name, (int)cat->nopts, name_of,
	    cat) >= 0) {
		ynode_err(lc->err, lc->errlen, lc->file, n,
		    "duplicate option name '%s'", o.name);
		goto fail_added;
	}
	for (i = 0; i <= o.naliases; i++) {
		const char	*f = i == 0 ? o.flag : o.aliases[i - 1];
		int		 prev;

		if (f == NULL)
			continue;
		prev = hput(&cat->fhash, &cat->fcap, f,
		    (int)(cat->nopts * 64 + i), flag_of, cat);
		if (prev >= 0) {
			ynode_err(lc->err, lc->errlen, lc->file, n,
			    "flag %s of '%s' is already used by '%s'", f,
			    o.name, cat->opts[prev / 64].name);
			goto fail_added;
		}
	}
	cat->nopts++;
	if (cat->nopts > 100000) {
		ynode_err(lc->err, lc->errlen, lc->file, n,
		    "too many options (limit 100000)");
		return -1;
	}
	return 0;
fail_added:
	cat->nopts++;	/* so catalog_free releases its arrays */
	return -1;
}

static int
load_option(struct loadctx *lc, const struct ynode *n)
{
	struct option	 o = { 0 };
	const char	*kind, *type, *group;
	int		 rc = 0;

	if (ynode_check_keys(n, option_keys, lc->file, lc->err, lc->errlen))
		return -1;
	o.line = n->line;
	o.name = opt_str(lc, n, "name", true, &rc);
	kind = opt_str(lc, n, "kind", true, &rc);
	type = opt_str(lc, n, "type", true, &rc);
	o.flag = opt_str(lc, n, "flag", false, &rc);
	o.help = opt_str(lc, n, "help", false, &rc);
	o.note = opt_str(lc, n, "note", false, &rc);
	o.deprecated = opt_str(lc, n, "deprecated", false, &rc);
	o.label = opt_str(lc, n, "label", false, &rc);
	o.hint = opt_str(lc, n, "hint", false, &rc);
	group = opt_str(lc, n, "group", false, &rc);
	if (rc != 0)
		return -1;
	o.group = -1;
	if (group != NULL) {
		size_t	g;

		for (g = 0; g < lc->cat->ngroups; g++)
			if (strcmp(lc->cat->groups[g], group) == 0)
				break;
		if (g == lc->cat->ngroups) {
			ynode_err(lc->err, lc->errlen, lc->file,
			    ynode_get(n, "group"), "group '%s' of '%s' is not "
			    "one of sglang.groups", group, o.name);
			return -1;
		}
		o.group = (int)g;
	}
	if (kind_type(lc, n, kind, type, &o) != 0)
		return -1;
	if (o.kind == OK_FLAG && o.flag == NULL) {
		ynode_err(lc->err, lc->errlen, lc->file, n,
		    "option '%s' of kind flag needs 'flag'", o.name);
		return -1;
	}
	o.aliases = str_list(lc, ynode_get(n, "aliases"), &o.naliases, &rc);
	o.choices = str_list(lc, ynode_get(n, "choices"), &o.nchoices, &rc);
	o.config_ok = o.kind == OK_FLAG;
	o.modelled = true;
	if (rc != 0 || yaml_bool(lc, ynode_get(n, "config"), &o.config_ok) ||
	    yaml_bool(lc, ynode_get(n, "modelled"), &o.modelled))
		goto fail;
	if (o.naliases >= 63) {
		ynode_err(lc->err, lc->errlen, lc->file, n, "too many aliases");
		goto fail;
	}
	if (o.kind == OK_FACT && ynode_get(n, "default") == NULL)
		o.def = VAL_UNKNOWN;
	else if (yaml_value(lc, &o, ynode_get(n, "default"), &o.def) != 0)
		goto fail;
	if (o.type == T_BOOL && o.def.t == V_NULL && o.kind == OK_FLAG)
		o.def = val_bool(false);
	return add_option(lc, n, &o);
fail:
	free(o.aliases);
	free(o.choices);
	return -1;
}

static int
load_options_file(struct loadctx *lc, const struct ynode *root)
{
	const struct ynode	*opts = ynode_get(root, "options");
	const struct ynode	*sg = ynode_get(root, "sglang");
	size_t			 i;

	if (sg != NULL) {
		const struct ynode	*cm = ynode_get(sg, "commits");

		for (i = 0; cm != NULL && cm->kind == YN_SEQ && i < cm->nkids;
		    i++) {
			struct commit_ref	c = { 0 };
			int			rc = 0;

			c.shortname = opt_str(lc, cm->kids[i], "short", false,
			    &rc);
			c.path = opt_str(lc, cm->kids[i], "path", false, &rc);
			c.commit = opt_str(lc, cm->kids[i], "commit", false,
			    &rc);
			if (rc != 0)
				return -1;
			lc->cat->commits = xreallocarray(lc->cat->commits,
			    lc->cat->ncommits + 1, sizeof *lc->cat->commits);
			lc->cat->commits[lc->cat->ncommits++] = c;
		}
		if (ynode_get(sg, "groups") != NULL) {
			int	rc = 0;

			lc->cat->groups = str_list(lc, ynode_get(sg, "groups"),
			    &lc->cat->ngroups, &rc);
			if (rc != 0)
				return -1;
		}
	}
	if (opts == NULL)
		return 0;
	if (opts->kind != YN_SEQ) {
		ynode_err(lc->err, lc->errlen, lc->file, opts,
		    "'options' must be a list");
		return -1;
	}
	for (i = 0; i < opts->nkids; i++)
		if (load_option(lc, opts->kids[i]) != 0)
			return -1;
	return 0;
}

/* ---- models ---- */

/* A list of globs, in lower case; NULL (and *rc -1) when not a non-empty
 * list of strings. */
static const char **
glob_list(struct loadctx *lc, const struct ynode *map, const char *key,
    size_t *count, int *rc)
{
	const struct ynode	 *n = ynode_get(map, key);
	const char		**v;
	size_t			  i, j;

	if (n == NULL || n->kind != YN_SEQ || n->nkids == 0) {
		ynode_err(lc->err, lc->errlen, lc->file, n ? n : map,
		    "'%s' must be a list of globs", key);
		*rc = -1;
		return NULL;
	}
	v = str_list(lc, n, count, rc);
	for (i = 0; v != NULL && i < *count; i++) {
		char	*lower = xstrdup(v[i]);

		for (j = 0; lower[j] != '\0'; j++)
			if (lower[j] >= 'A' && lower[j] <= 'Z')
				lower[j] = (char)(lower[j] + 32);
		v[i] = intern(lower);
		free(lower);
	}
	return v;
}

/* The families: which model ids name one, which architectures it has. */
static int
load_families(struct loadctx *lc, const struct ynode *root)
{
	static const char *const keys[] = { "family", "ids", "archs", "note",
	    NULL };
	const struct ynode	*fs = ynode_get(root, "families");
	size_t			 i, j;

	if (fs == NULL)
		return 0;
	if (fs->kind != YN_SEQ) {
		ynode_err(lc->err, lc->errlen, lc->file, fs,
		    "expected a list under 'families'");
		return -1;
	}
	for (i = 0; i < fs->nkids; i++) {
		const struct ynode	*f = fs->kids[i];
		struct model_family	 e = { 0 };
		int			 rc = 0;

		if (ynode_check_keys(f, keys, lc->file, lc->err, lc->errlen))
			return -1;
		e.name = opt_str(lc, f, "family", true, &rc);
		if (rc != 0)
			return -1;
		for (j = 0; j < lc->cat->nfamilies; j++)
			if (strcmp(lc->cat->families[j].name, e.name) == 0) {
				ynode_err(lc->err, lc->errlen, lc->file, f,
				    "family '%s' is listed twice", e.name);
				return -1;
			}
		e.ids = glob_list(lc, f, "ids", &e.nids, &rc);
		if (rc == 0)
			e.archs = glob_list(lc, f, "archs", &e.narchs, &rc);
		lc->cat->families = xreallocarray(lc->cat->families,
		    lc->cat->nfamilies + 1, sizeof *lc->cat->families);
		lc->cat->families[lc->cat->nfamilies++] = e;
		if (rc != 0)
			return -1;
	}
	return 0;
}

static int
load_models(struct loadctx *lc, const struct ynode *root)
{
	static const char *const keys[] = { "match", "facts", "note", NULL };
	const struct ynode	*ms = ynode_get(root, "models");
	size_t			 i, j;

	if (load_families(lc, root) != 0)
		return -1;
	if (ms == NULL || ms->kind != YN_SEQ) {
		ynode_err(lc->err, lc->errlen, lc->file, ms ? ms : root,
		    "expected a list under 'models'");
		return -1;
	}
	for (i = 0; i < ms->nkids; i++) {
		const struct ynode	*m = ms->kids[i], *facts;
		struct model_entry	 e = { 0 };
		int			 rc = 0;
		char			*lower;

		if (ynode_check_keys(m, keys, lc->file, lc->err, lc->errlen))
			return -1;
		e.match = opt_str(lc, m, "match", true, &rc);
		if (rc != 0)
			return -1;
		lower = xstrdup(e.match);
		for (j = 0; lower[j] != '\0'; j++)
			lower[j] = (char)((lower[j] >= 'A' && lower[j] <= 'Z') ?
			    lower[j] + 32 : lower[j]);
		e.match = intern(lower);
		free(lower);
		facts = ynode_get(m, "facts");
		if (facts == NULL || facts->kind != YN_MAP) {
			ynode_err(lc->err, lc->errlen, lc->file, m,
			    "model entry needs a 'facts' mapping");
			return -1;
		}
		e.n = facts->nkids / 2;
		e.opt = xcalloc(e.n, sizeof *e.opt);
		e.val = xcalloc(e.n, sizeof *e.val);
		lc->cat->models = xreallocarray(lc->cat->models,
		    lc->cat->nmodels + 1, sizeof *lc->cat->models);
		lc->cat->models[lc->cat->nmodels++] = e;
		for (j = 0; j < e.n; j++) {
			const struct ynode	*k = facts->kids[2 * j];
			int			 o = catalog_find(lc->cat, k->str);

			if (o < 0 || lc->cat->opts[o].kind != OK_FACT) {
				ynode_err(lc->err, lc->errlen, lc->file, k,
				    "'%s' is not a fact of the catalog",
				    k->str);
				return -1;
			}
			e.opt[j] = o;
			if (yaml_value(lc, &lc->cat->opts[o],
			    facts->kids[2 * j + 1], &e.val[j]) != 0)
				return -1;
		}
	}
	return 0;
}

/* A config.json integer, or -1. */
static long long
json_int(const struct ynode *root, const char *key)
{
	const struct ynode	*n = ynode_get(root, key);
	char			*end;
	long long		 v;

	if (n == NULL || n->kind != YN_SCALAR || n->str == NULL)
		return -1;
	v = strtoll(n->str, &end, 10);
	return end != n->str && *end == '\0' && v > 0 ? v : -1;
}

/* The attention and key/value heads of a config.json (a text model's:
 * num_attention_heads at the top), as facts; how many were set. */
static int
config_heads(const struct catalog *cat, const struct ynode *root,
    struct config *cfg)
{
	long long	h = json_int(root, "num_attention_heads");
	long long	kv = json_int(root, "num_key_value_heads");
	int		o, n = 0;

	if (h < 0)
		return 0;
	if (kv < 0)
		kv = h;
	if ((o = catalog_find(cat, "num_attention_heads")) >= 0 &&
	    cfg->s[o].src != SRC_USER) {
		config_set(cfg, o, val_int(h), SRC_MODEL, 0, 0);
		n++;
	}
	if ((o = catalog_find(cat, "num_kv_heads")) >= 0 &&
	    cfg->s[o].src != SRC_USER) {
		config_set(cfg, o, val_int(kv), SRC_MODEL, 0, 0);
		n++;
	}
	return n;
}

/*
 * Whether K and V rows differ in width, as SGLang's ModelConfig says
 * (has_asymmetric_kv): head_dim (hidden_size / num_attention_heads when
 * absent) against v_head_dim, swa_head_dim against swa_v_head_dim, each
 * absent one taking the other's value; read from text_config when the
 * config has one. Unknown when head_dim cannot be told. How many were set.
 */
static int
config_kv_asym(const struct catalog *cat, const struct ynode *root,
    struct config *cfg)
{
	const struct ynode	*t = ynode_get(root, "text_config");
	long long		 hd, v, shd, sv, hs, nh;
	int			 o;

	if ((o = catalog_find(cat, "kv_asymmetric")) < 0 ||
	    cfg->s[o].src == SRC_USER)
		return 0;
	if (t == NULL || t->kind != YN_MAP)
		t = root;
	hd = json_int(t, "head_dim");
	if (hd < 0) {
		hs = json_int(t, "hidden_size");
		nh = json_int(t, "num_attention_heads");
		if (hs < 0 || nh < 0)
			return 0;
		hd = hs / nh;
	}
	v = json_int(t, "v_head_dim");
	shd = json_int(t, "swa_head_dim");
	if (shd < 0)
		shd = hd;
	sv = json_int(t, "swa_v_head_dim");
	config_set(cfg, o, val_bool((v >= 0 && v != hd) ||
	    (sv >= 0 && sv != shd)), SRC_MODEL, 0, 0);
	return 1;
}

/*
 * The checkpoint's quantization as SGLang's ModelConfig reads it from a
 * local model directory (_parse_quant_hf_config, _find_quant_modelslim_
 * config): quant_model_description.json is modelslim; else config.json's
 * quantization_config (or compression_config) quant_method, in lower case;
 * none of them and no hf_quant_config.json is null (not quantized). A
 * quantization config without quant_method, or a standalone
 * hf_quant_config.json (ModelOpt), stays unknown. How many were set.
 */
static int
config_quant(const struct catalog *cat, const struct ynode *root,
    const char *model, struct config *cfg)
{
	const struct ynode	*q = ynode_get(root, "quantization_config");
	const struct ynode	*m;
	struct stat		 st;
	char			*p, *lower;
	int			 o, found;
	size_t			 i;

	if ((o = catalog_find(cat, "model_quant_method")) < 0 ||
	    cfg->s[o].src == SRC_USER)
		return 0;
	p = xasprintf("%s/quant_model_description.json", model);
	found = stat(p, &st) == 0 && S_ISREG(st.st_mode);
	free(p);
	if (found) {
		config_set(cfg, o, val_str("modelslim"), SRC_MODEL, 0, 0);
		return 1;
	}
	if (q == NULL || ynode_is_null(q))
		q = ynode_get(root, "compression_config");
	if (q != NULL && !ynode_is_null(q)) {
		m = q->kind == YN_MAP ? ynode_get(q, "quant_method") : NULL;
		if (m == NULL || m->kind != YN_SCALAR || ynode_is_null(m))
			return 0;
		lower = xstrdup(m->str);
		for (i = 0; lower[i] != '\0'; i++)
			if (lower[i] >= 'A' && lower[i] <= 'Z')
				lower[i] = (char)(lower[i] + 32);
		config_set(cfg, o, val_str(lower), SRC_MODEL, 0, 0);
		free(lower);
		return 1;
	}
	p = xasprintf("%s/hf_quant_config.json", model);
	found = stat(p, &st) == 0;
	free(p);
	if (found)
		return 0;
	config_set(cfg, o, VAL_NULL, SRC_MODEL, 0, 0);
	return 1;
}

/* The model families whose ids match the last component of model (a path
 * or an id; a trailing slash aside), in lower case, as arch_family. */
/* The families whose ids match the model's last path component, as the
 * arch_family fact's list (interned), or NULL when none. */
static const char *
families_of(const struct catalog *cat, const char *model)
{
	const char	*end = model + strlen(model), *start, *list;
	char		 name[256];
	struct buf	 b = { 0 };
	size_t		 i, j, len;

	while (end > model && end[-1] == '/')
		end--;
	for (start = end; start > model && start[-1] != '/'; start--)
		;
	len = (size_t)(end - start);
	if (len == 0 || len >= sizeof name)
		return NULL;
	for (i = 0; i < len; i++)
		name[i] = (char)(start[i] >= 'A' && start[i] <= 'Z' ?
		    start[i] + 32 : start[i]);
	name[len] = '\0';
	for (i = 0; i < cat->nfamilies; i++)
		for (j = 0; j < cat->families[i].nids; j++)
			if (fnmatch(cat->families[i].ids[j], name, 0) == 0) {
				if (b.len > 0)
					buf_putc(&b, '\x1f');
				buf_puts(&b, cat->families[i].name);
				break;
			}
	if (b.len == 0)
		return NULL;
	list = intern(b.s);
	buf_free(&b);
	return list;
}

/* The first entry of the model table that matches the model, or nmodels. */
static size_t
model_entry_of(const struct catalog *cat, const char *model)
{
	struct model_id	 mid;
	char		*lower = xstrdup(model);
	size_t		 i;

	for (i = 0; lower[i] != '\0'; i++)
		if (lower[i] >= 'A' && lower[i] <= 'Z')
			lower[i] = (char)(lower[i] + 32);
	model_id_init(&mid, lower);
	for (i = 0; i < cat->nmodels; i++)
		if (model_id_match(cat->models[i].match, &mid))
			break;
	free(lower);
	return i;
}

struct model_memo {
	char		*model;
	const char	*families;	/* families_of */
	size_t		 entry;		/* model_entry_of */
};

/* What the tables say of model: remembered for the last model asked. */
static const struct model_memo *
model_memo(const struct catalog *ccat, const char *model)
{
	/* Every catalog is allocated (never a const object), as for
	 * catalog_fit_db. */
	struct catalog		*cat = (struct catalog *)ccat;
	struct model_memo	*m = cat->memo;

	if (m != NULL && strcmp(m->model, model) == 0)
		return m;
	if (m == NULL)
		m = cat->memo = xcalloc(1, sizeof *m);
	free(m->model);
	m->model = xstrdup(model);
	m->families = families_of(cat, model);
	m->entry = model_entry_of(cat, model);
	return m;
}

static int
model_families(const struct catalog *cat, const char *model,
    struct config *cfg)
{
	const char	*list;

	if (cat->o_family < 0 || cfg->s[cat->o_family].src == SRC_USER)
		return 0;
	if ((list = model_memo(cat, model)->families) == NULL)
		return 0;
	config_set(cfg, cat->o_family, (struct value){ .t = V_LIST,
	    .u.s = list }, SRC_MODEL, 0, 0);
	return 1;
}

static const struct model_family *
family_named(const struct catalog *cat, const char *name, size_t len)
{
	size_t	i;

	for (i = 0; i < cat->nfamilies; i++)
		if (strlen(cat->families[i].name) == len &&
		    strncmp(cat->families[i].name, name, len) == 0)
			return &cat->families[i];
	return NULL;
}

bool
catalog_arch_excluded(const struct catalog *cat, const struct config *cfg,
    int opt, const char *arch)
{
	struct value	 fam;
	const char	*p;
	char		 a[256];
	size_t		 i, len = strlen(arch);
	bool		 named = false;

	if (opt < 0 || opt != cat->o_arch || cat->o_family < 0 ||
	    len >= sizeof a)
		return false;
	fam = cfg->s[cat->o_family].v;
	if (fam.t != V_LIST && fam.t != V_STR)
		return false;
	for (i = 0; i <= len; i++)
		a[i] = (char)(arch[i] >= 'A' && arch[i] <= 'Z' ? arch[i] + 32 :
		    arch[i]);
	for (p = fam.u.s; *p != '\0'; ) {
		const char			*e = strchr(p, '\x1f');
		size_t				 n = e ? (size_t)(e - p) :
		    strlen(p);
		const struct model_family	*f = family_named(cat, p, n);

		if (f == NULL)
			return false;	/* a family pdwiz does not know */
		for (i = 0; i < f->narchs; i++)
			if (fnmatch(f->archs[i], a, 0) == 0)
				return false;
		named = true;
		p += n + (e != NULL);
	}
	return named;
}

int
catalog_model_facts(const struct catalog *cat, const char *model,
    struct config *cfg)
{
	char		*cj;
	size_t		 i, j;
	int		 count = 0;
	struct stat	 st;

	if (model == NULL || *model == '\0')
		return 0;
	count += model_families(cat, model, cfg);
	/* A path longer than any the system opens is no local directory
	 * (and is not copied to find out). */
	if (strnlen(model, PATH_MAX) >= PATH_MAX)
		cj = NULL;
	else
		cj = xasprintf("%s/config.json", model);
	if (cj != NULL && stat(model, &st) == 0 && S_ISDIR(st.st_mode) &&
	    stat(cj, &st) == 0) {
		char		 err[512];
		struct ynode	*root = ydoc_load(cj, 4 * 1024 * 1024, err,
		    sizeof err);

		if (root != NULL && root->kind == YN_MAP) {
			const struct ynode	*a = ynode_get(root,
			    "architectures");
			int			 o;

			if (a != NULL && a->kind == YN_SEQ && a->nkids > 0 &&
			    a->kids[0]->kind == YN_SCALAR &&
			    (o = catalog_find(cat, "model_arch")) >= 0) {
				config_set(cfg, o, val_str(a->kids[0]->str),
				    SRC_MODEL, 0, 0);
				count++;
			}
			if ((o = catalog_find(cat, "is_mla")) >= 0) {
				config_set(cfg, o, val_bool(ynode_get(root,
				    "kv_lora_rank") != NULL &&
				    !ynode_is_null(ynode_get(root,
				    "kv_lora_rank"))), SRC_MODEL, 0, 0);
				count++;
			}
			if ((o = catalog_find(cat, "is_dsa")) >= 0) {
				config_set(cfg, o, val_bool(ynode_get(root,
				    "index_topk") != NULL), SRC_MODEL, 0, 0);
				count++;
			}
			if ((o = catalog_find(cat, "is_moe")) >= 0) {
				config_set(cfg, o, val_bool(
				    ynode_get(root, "n_routed_experts") ||
				    ynode_get(root, "num_experts") ||
				    ynode_get(root, "num_local_experts")),
				    SRC_MODEL, 0, 0);
				count++;
			}
			if ((o = catalog_find(cat, "is_multimodal")) >= 0) {
				config_set(cfg, o, val_bool(ynode_get(root,
				    "vision_config") != NULL), SRC_MODEL, 0, 0);
				count++;
			}
			count += config_heads(cat, root, cfg);
			count += config_kv_asym(cat, root, cfg);
			count += config_quant(cat, root, model, cfg);
		}
		ynode_free(root);
		free(cj);
		return count;
	}
	free(cj);
	if ((i = model_memo(cat, model)->entry) < cat->nmodels)
		for (j = 0; j < cat->models[i].n; j++) {
			int	o = cat->models[i].opt[j];

			if (cfg->s[o].src == SRC_USER)
				continue;	/* --fact wins */
			config_set(cfg, o, cat->models[i].val[j], SRC_MODEL, 0,
			    0);
			count++;
		}
	return count;
}

/* ---- rules ---- */

static int
resolve_name(void *arg, const char *name)
{
	struct loadctx	*lc = arg;
	size_t		 r;
	int		 o;

	if (lc->deploy) {
		for (r = 0; r < NPD_ROLE; r++) {
			size_t	pl = strlen(role_prefix[r]);

			if (strncmp(name, role_prefix[r], pl) == 0) {
				o = catalog_find(lc->cat, name + pl);
				if (o < 0)
					return -1;
				return slot_of(lc->cat->nopts,
				    role_scope((enum role)r), o);
			}
		}
	}
	o = catalog_find(lc->cat, name);
	if (o >= 0 && lc->cat->opts[o].kind == OK_DEPLOY && !lc->deploy)
		return -1;
	return o;
}

/* Report an expression error at the right column when the scalar is on one line. */
static void
expr_err(struct loadctx *lc, const struct ynode *n, const char *what,
    const char *msg, size_t off)
{
	bool	oneline = strchr(n->str, '\n') == NULL && n->line > 0;
	int	col = n->col + (oneline ? (int)off + (n->quoted ? 1 : 0) : 0);

	snprintf(lc->err, lc->errlen, "%s:%d:%d: %s: %s%s%.40s%s", lc->file,
	    n->line, col, what, msg, oneline ? "" : " (near '",
	    oneline ? "" : n->str + (off < n->len ? off : n->len),
	    oneline ? "" : "')");
}

static int
parse_assigns(struct loadctx *lc, const struct ynode *m, struct assign **out,
    size_t *nout)
{
	size_t	i;

	*out = NULL;
	*nout = 0;
	if (m == NULL)
		return 0;
	if (m->kind != YN_MAP) {
		ynode_err(lc->err, lc->errlen, lc->file, m,
		    "expected a mapping of option: expression");
		return -1;
	}
	*out = xcalloc(m->nkids / 2 + 1, sizeof **out);
	for (i = 0; i + 1 < m->nkids; i += 2) {
		const struct ynode	*k = m->kids[i], *v = m->kids[i + 1];
		struct assign		 a;
		char			 msg[256];
		size_t			 off;

		a.opt = resolve_name(lc, k->str);
		if (a.opt < 0) {
			ynode_err(lc->err, lc->errlen, lc->file, k,
			    "unknown option '%s'", k->str);
			return -1;
		}
		if (v->kind != YN_SCALAR) {
			ynode_err(lc->err, lc->errlen, lc->file, v,
			    "expected an expression");
			return -1;
		}
		a.e = expr_parse(ynode_is_null(v) ? "null" : v->str,
		    resolve_name, lc, msg, sizeof msg, &off);
		if (a.e == NULL) {
			expr_err(lc, v, "bad expression", msg, off);
			return -1;
		}
		(*out)[(*nout)++] = a;
	}
	return 0;
}

static int
parse_fixes(struct loadctx *lc, const struct ynode *fx, struct rule *r)
{
	static const char *const keys[] = { "label", "set", NULL };
	size_t	i, j;

	if (fx == NULL)
		return 0;
	if (fx->kind != YN_SEQ) {
		ynode_err(lc->err, lc->errlen, lc->file, fx,
		    "'fixes' must be a list");
		return -1;
	}
	r->fixes = xcalloc(fx->nkids + 1, sizeof *r->fixes);
	for (i = 0; i < fx->nkids; i++) {
		const struct ynode	*f = fx->kids[i], *set;
		struct fix		*x = &r->fixes[r->nfixes];
		int			 rc = 0;

		if (ynode_check_keys(f, keys, lc->file, lc->err, lc->errlen))
			return -1;
		x->label = opt_str(lc, f, "label", true, &rc);
		if (rc != 0)
			return -1;
		set = ynode_get(f, "set");
		if (set == NULL || set->kind != YN_MAP || set->nkids == 0) {
			ynode_err(lc->err, lc->errlen, lc->file, f,
			    "a fix needs a non-empty 'set' mapping");
			return -1;
		}
		x->opt = xcalloc(set->nkids / 2, sizeof *x->opt);
		x->val = xcalloc(set->nkids / 2, sizeof *x->val);
		r->nfixes++;
		for (j = 0; j + 1 < set->nkids; j += 2) {
			int	slot = resolve_name(lc, set->kids[j]->str);

			if (slot < 0) {
				ynode_err(lc->err, lc->errlen, lc->file,
				    set->kids[j], "unknown option '%s'",
				    set->kids[j]->str);
				return -1;
			}
			x->opt[x->n] = slot;
			if (yaml_value(lc, &lc->cat->opts[(size_t)slot %
			    lc->cat->nopts], set->kids[j + 1],
			    &x->val[x->n]) != 0)
				return -1;
			x->n++;
		}
	}
	return 0;
}

static void
add_read(void *arg, int slot)
{
	struct rule	*r = arg;
	size_t		 i;

	for (i = 0; i < r->nreads; i++)
		if (r->reads[i] == slot)
			return;
	r->reads = xreallocarray(r->reads, r->nreads + 1, sizeof *r->reads);
	r->reads[r->nreads++] = slot;
}

static const char *const rule_keys[] = { "id", "severity", "stage", "kind",
	"when", "message", "explain", "fixes", "example", "source", "set",
	"setdefault", "silent", "own_words", "note", "since", "after", "until",
	NULL };

static int
load_rule(struct loadctx *lc, const struct ynode *n, struct rule *r)
{
	const char		*sev, *stage, *when;
	const struct ynode	*ex, *src, *wn;
	char			 msg[256];
	size_t			 off;
	int			 rc = 0;

	if (ynode_check_keys(n, rule_keys, lc->file, lc->err, lc->errlen))
		return -1;
	r->file = lc->file;
	r->line = n->line;
	r->deploy = lc->deploy;
	r->id = opt_str(lc, n, "id", true, &rc);
	sev = opt_str(lc, n, "severity", true, &rc);
	stage = opt_str(lc, n, "stage", false, &rc);
	r->kind = opt_str(lc, n, "kind", false, &rc);
	when = opt_str(lc, n, "when", true, &rc);
	r->message_src = opt_str(lc, n, "message", true, &rc);
	r->explain = opt_str(lc, n, "explain", false, &rc);
	if (rc != 0)
		return -1;
	if (r->message_src[strspn(r->message_src, " \t\n")] == '\0') {
		ynode_err(lc->err, lc->errlen, lc->file,
		    ynode_get(n, "message"),
		    "empty message: a bare assert's message is \"" BARE_ASSERT
		    " ONE LINE\" (what the assert checks, in pdwiz's words)");
		return -1;
	}
	if (strcmp(sev, "error") == 0)
		r->sev = SEV_ERROR;
	else if (strcmp(sev, "warning") == 0)
		r->sev = SEV_WARNING;
	else if (strcmp(sev, "override") == 0)
		r->sev = SEV_OVERRIDE;
	else if (strcmp(sev, "note") == 0)
		r->sev = SEV_NOTE;
	else {
		ynode_err(lc->err, lc->errlen, lc->file,
		    ynode_get(n, "severity"),
		    "severity must be error, warning, override or note, not "
		    "'%s'", sev);
		return -1;
	}
	if (stage == NULL || strcmp(stage, "launch") == 0)
		r->stage = ST_LAUNCH;
	else if (strcmp(stage, "startup") == 0)
		r->stage = ST_STARTUP;
	else if (strcmp(stage, "first-request") == 0)
		r->stage = ST_FIRST_REQUEST;
	else {
		ynode_err(lc->err, lc->errlen, lc->file, ynode_get(n, "stage"),
		    "stage must be launch, startup or first-request, not '%s'",
		    stage);
		return -1;
	}
	if (yaml_bool(lc, ynode_get(n, "silent"), &r->silent) != 0 ||
	    yaml_bool(lc, ynode_get(n, "own_words"), &r->own_words) != 0 ||
	    rule_range_parse(lc->cat->hist, n, lc->file, r, lc->err,
	    lc->errlen) != 0)
		return -1;
	wn = ynode_get(n, "when");
	r->when_src = when;
	r->when = expr_parse(when, resolve_name, lc, msg, sizeof msg, &off);
	if (r->when == NULL) {
		expr_err(lc, wn, "bad condition", msg, off);
		return -1;
	}
	r->message = tmpl_parse(r->message_src, resolve_name, lc, msg,
	    sizeof msg, &off);
	if (r->message == NULL) {
		expr_err(lc, ynode_get(n, "message"), "bad message", msg, off);
		return -1;
	}
	if ((ex = ynode_get(n, "example")) != NULL) {
		static const char *const keys[] = { "before", "after",
			"illustrative", NULL };

		if (ynode_check_keys(ex, keys, lc->file, lc->err, lc->errlen))
			return -1;
		r->before = opt_str(lc, ex, "before", false, &rc);
		r->after = opt_str(lc, ex, "after", false, &rc);
	}
	if ((src = ynode_get(n, "source")) != NULL) {
		static const char *const keys[] = { "file", "function",
			"commit", "line", NULL };

		if (ynode_check_keys(src, keys, lc->file, lc->err, lc->errlen))
			return -1;
		r->src_file = opt_str(lc, src, "file", false, &rc);
		r->src_func = opt_str(lc, src, "function", false, &rc);
		r->src_commit = opt_str(lc, src, "commit", false, &rc);
	}
	if (rc != 0)
		return -1;
	if (parse_fixes(lc, ynode_get(n, "fixes"), r) != 0 ||
	    parse_assigns(lc, ynode_get(n, "set"), &r->set, &r->nset) != 0 ||
	    parse_assigns(lc, ynode_get(n, "setdefault"), &r->setdefault,
	    &r->nsetdefault) != 0)
		return -1;
	expr_slots(r->when, add_read, r);
	if (r->sev != SEV_OVERRIDE && (r->nset > 0 || r->nsetdefault > 0)) {
		ynode_err(lc->err, lc->errlen, lc->file, n,
		    "only override rules may have 'set' or 'setdefault'");
		return -1;
	}
	return 0;
}

static void
rule_free(struct rule *r)
{
	size_t	i;

	expr_free(r->when);
	tmpl_free(r->message);
	for (i = 0; i < r->nfixes; i++) {
		free(r->fixes[i].opt);
		free(r->fixes[i].val);
	}
	free(r->fixes);
	for (i = 0; i < r->nset; i++)
		expr_free(r->set[i].e);
	free(r->set);
	for (i = 0; i < r->nsetdefault; i++)
		expr_free(r->setdefault[i].e);
	free(r->setdefault);
	free(r->reads);
}

static int
load_rules_file(struct loadctx *lc, const struct ynode *root)
{
	const struct ynode	*rs = ynode_get(root, "rules");
	struct rule		**arr;
	size_t			 *cnt, i, j;
	static const char *const keys[] = { "rules", "options", NULL };

	if (ynode_check_keys(root, keys, lc->file, lc->err, lc->errlen))
		return -1;
	if (rs == NULL)
		return 0;
	if (rs->kind != YN_SEQ) {
		ynode_err(lc->err, lc->errlen, lc->file, rs,
		    "'rules' must be a list");
		return -1;
	}
	arr = lc->deploy ? &lc->cat->drules : &lc->cat->rules;
	cnt = lc->deploy ? &lc->cat->ndrules : &lc->cat->nrules;
	for (i = 0; i < rs->nkids; i++) {
		struct rule	*r;

		*arr = xreallocarray(*arr, *cnt + 1, sizeof **arr);
		r = &(*arr)[*cnt];
		memset(r, 0, sizeof *r);
		(*cnt)++;
		if (load_rule(lc, rs->kids[i], r) != 0)
			return -1;
		for (j = 0; j + 1 < *cnt; j++) {
			if ((*arr)[j].id == r->id) {
				ynode_err(lc->err, lc->errlen, lc->file,
				    rs->kids[i], "duplicate rule id '%s' "
				    "(first at %s:%d)", r->id, (*arr)[j].file,
				    (*arr)[j].line);
				return -1;
			}
		}
	}
	return 0;
}

static int
cmp_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Load every *.yaml in dir in name order through fn. */
static int
load_dir(struct loadctx *lc, const char *dir,
    int (*fn)(struct loadctx *, const struct ynode *))
{
	DIR		*d = opendir(dir);
	struct dirent	*de;
	char		**names = NULL;
	size_t		  n = 0, i;
	int		  rc = 0;

	if (d == NULL) {
		snprintf(lc->err, lc->errlen, "%s: cannot open directory", dir);
		return -1;
	}
	while ((de = readdir(d)) != NULL) {
		size_t	len = strlen(de->d_name);

		if (len > 5 && strcmp(de->d_name + len - 5, ".yaml") == 0 &&
		    de->d_name[0] != '.') {
			names = xreallocarray(names, n + 1, sizeof *names);
			names[n++] = xasprintf("%s/%s", dir, de->d_name);
		}
	}
	closedir(d);
	sort_items(names, n, sizeof *names, cmp_str);
	for (i = 0; i < n && rc == 0; i++) {
		struct ynode	*root = ydoc_load(names[i], DATA_MAX, lc->err,
		    lc->errlen);

		if (root == NULL) {
			rc = -1;
			break;
		}
		lc->file = intern(names[i]);
		if (root->kind != YN_MAP) {
			ynode_err(lc->err, lc->errlen, lc->file, root,
			    "expected a mapping at the top level");
			rc = -1;
		} else
			rc = fn(lc, root);
		ynode_free(root);
	}
	for (i = 0; i < n; i++)
		free(names[i]);
	free(names);
	return rc;
}

static int
load_one(struct loadctx *lc, const char *path,
    int (*fn)(struct loadctx *, const struct ynode *))
{
	struct ynode	*root = ydoc_load(path, DATA_MAX, lc->err, lc->errlen);
	int		 rc;

	if (root == NULL)
		return -1;
	lc->file = intern(path);
	if (root->kind != YN_MAP) {
		ynode_err(lc->err, lc->errlen, lc->file, root,
		    "expected a mapping at the top level");
		ynode_free(root);
		return -1;
	}
	rc = fn(lc, root);
	ynode_free(root);
	return rc;
}

/* The facts the model families speak for (options.yaml may lack them). */
static void
catalog_model_slots(struct catalog *cat)
{
	cat->o_arch = catalog_find(cat, "model_arch");
	cat->o_family = catalog_find(cat, "arch_family");
	if (cat->o_arch >= 0 && cat->opts[cat->o_arch].kind != OK_FACT)
		cat->o_arch = -1;
	if (cat->o_family >= 0 && cat->opts[cat->o_family].kind != OK_FACT)
		cat->o_family = -1;
}

struct catalog *
catalog_load(const char *datadir, char *err, size_t errlen)
{
	struct catalog	*cat = xcalloc(1, sizeof *cat);
	struct loadctx	 lc = { cat, NULL, err, errlen, false };
	char		*p;
	int		 rc;

	cat->o_arch = cat->o_family = -1;
	cat->dir = intern(datadir);
	p = xasprintf("YAML in %s/rules", datadir);
	cat->origin = intern(p);
	free(p);
	p = xasprintf("%s/rules/options.yaml", datadir);
	rc = load_one(&lc, p, load_options_file);
	free(p);
	if (rc != 0)
		goto fail;
	catalog_model_slots(cat);
	/* The flag history before the rules: its commits name versions that
	 * the rules' release ranges may use. */
	if (flaghist_attach(cat, datadir, err, errlen) != 0) {
		rc = -1;
		goto fail;
	}
	/* Deployment-level options first, so per-server rules can't see them. */
	p = xasprintf("%s/rules/models.yaml", datadir);
	rc = load_one(&lc, p, load_models);
	free(p);
	if (rc != 0)
		goto fail;
	p = xasprintf("%s/rules/checks", datadir);
	rc = load_dir(&lc, p, load_rules_file);
	free(p);
	if (rc != 0)
		goto fail;
	lc.deploy = true;
	p = xasprintf("%s/rules/deploy", datadir);
	{
		struct stat	st;

		if (stat(p, &st) == 0) {
			/* All deployment options first: slots depend on nopts. */
			rc = load_dir(&lc, p, load_options_file);
			if (rc == 0)
				rc = load_dir(&lc, p, load_rules_file);
		}
	}
	free(p);
	if (rc != 0 || rule_since_attach(cat, datadir, err, errlen) != 0)
		goto fail;
	return cat;
fail:
	catalog_free(cat);
	return NULL;
}

int
catalog_check_text(const struct catalog *base, enum catalog_text what,
    const char *name, const char *text, size_t len, char *err, size_t errlen)
{
	struct catalog	*cat = xcalloc(1, sizeof *cat);
	struct loadctx	 lc = { cat, intern(name), err, errlen,
	    what == CT_DEPLOY_RULES };
	struct ynode	*root;
	int		 rc = -1;

	if (what != CT_OPTIONS) {
		/* Borrow the options and their tables; own only what we add. */
		*cat = *base;
		cat->image = NULL;
		cat->hist = NULL;
		cat->rules = cat->drules = NULL;
		cat->nrules = cat->ndrules = 0;
		cat->models = NULL;
		cat->nmodels = 0;
		cat->families = NULL;
		cat->nfamilies = 0;
	} else
		cat->o_arch = cat->o_family = -1;
	if (len > DATA_MAX)
		snprintf(err, errlen, "%s: file is larger than %d bytes", name,
		    DATA_MAX);
	else if ((root = ydoc_parse(name, text, len, false, err,
	    errlen)) != NULL) {
		if (root->kind != YN_MAP)
			ynode_err(err, errlen, lc.file, root,
			    "expected a mapping at the top level");
		else if (what == CT_OPTIONS)
			rc = load_options_file(&lc, root);
		else if (what == CT_MODELS)
			rc = load_models(&lc, root);
		else
			rc = load_rules_file(&lc, root);
		ynode_free(root);
	}
	if (what != CT_OPTIONS) {
		cat->opts = NULL;
		cat->nopts = 0;
		cat->hash = cat->fhash = NULL;
		cat->commits = NULL;
		cat->ncommits = 0;
		cat->groups = NULL;
		cat->ngroups = 0;
	}
	catalog_free(cat);
	return rc;
}

const struct fit_db *
catalog_fit_db(const struct catalog *ccat, char *err, size_t errlen)
{
	/* Every catalog is allocated (never a const object): its lazily read
	 * tables may be set through the const pointer callers hold. */
	struct catalog	*cat = (struct catalog *)ccat;
	char		 e[512];

	if (cat->fit == NULL && cat->fit_err == NULL) {
		cat->fit = xcalloc(1, sizeof *cat->fit);
		e[0] = '\0';
		if (fit_db_load(cat->fit, cat->dir, e, sizeof e) != 0) {
			fit_db_free(cat->fit);
			free(cat->fit);
			cat->fit = NULL;
			cat->fit_err = xstrdup(e[0] != '\0' ? e : "cannot read "
			    "the hardware and model size tables");
		}
	}
	if (cat->fit == NULL)
		snprintf(err, errlen, "%s", cat->fit_err);
	return cat->fit;
}

void
catalog_free_caches(struct catalog *cat)
{
	if (cat->fit != NULL) {
		fit_db_free(cat->fit);
		free(cat->fit);
	}
	free(cat->fit_err);
	if (cat->memo != NULL) {
		free(cat->memo->model);
		free(cat->memo);
	}
	free(cat->defaults);
	cat->fit = NULL;
	cat->fit_err = NULL;
	cat->memo = NULL;
	cat->defaults = NULL;
	cat->ndefaults = 0;
}

void
catalog_free(struct catalog *cat)
{
	size_t	i;

	if (cat == NULL)
		return;
	catalog_free_caches(cat);
	if (cat->image != NULL) {
		free(cat);	/* the image, its flag history too, stays mapped */
		return;
	}
	flaghist_free(cat->hist);
	for (i = 0; i < cat->nopts; i++) {
		free(cat->opts[i].aliases);
		free(cat->opts[i].choices);
	}
	free(cat->opts);
	for (i = 0; i < cat->nrules; i++)
		rule_free(&cat->rules[i]);
	free(cat->rules);
	for (i = 0; i < cat->ndrules; i++)
		rule_free(&cat->drules[i]);
	free(cat->drules);
	for (i = 0; i < cat->nmodels; i++) {
		free(cat->models[i].opt);
		free(cat->models[i].val);
	}
	free(cat->models);
	for (i = 0; i < cat->nfamilies; i++) {
		free(cat->families[i].ids);
		free(cat->families[i].archs);
	}
	free(cat->families);
	free(cat->commits);
	free(cat->groups);
	free(cat->hash);
	free(cat->fhash);
	free(cat);
}
