/*
 * rcfile.c - the configuration file .pdwiz.yaml: read (every problem at
 * its FILE:LINE:COL), looked up by rule, its exclude: globs, and the
 * search for it upward from an input's directory (rcfile.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "io/rcfile.h"
#include "core/hashidx.h"
#include "core/util.h"
#include "core/ydoc.h"

#include <errno.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct rc_index {
	struct hidx		 ign, sev;
	const struct rc_item	*ignore, *severity;
};

struct rc_dir {
	char	*dir;		/* absolute, normalised */
	size_t	 len;
	size_t	 found;		/* its .pdwiz.yaml: found[] + 1; 0: none */
};

struct rc_cache {
	char		*cwd;		/* NULL: not asked yet, or unknown */
	bool		 cwd_asked;
	struct rc_dir	*d;
	size_t		 nd;
	struct hidx	 idx;		/* dir -> d[] */
	char		**found;	/* the files found, each once */
	size_t		 nfound;
};

static const char *const rc_keys[] = { "ignore", "severity", "facts",
    "exclude", "fail-on", NULL };
static const char *const sev_words[] = { "error", "warning", "note", "off",
    NULL };
static const char *const fail_words[] = { "error", "warning", NULL };

#define SHOWN_MAX	60		/* bytes of a value a message shows */
#define SHOWN_BUF	(SHOWN_MAX * 4 + 8)

/* ---- paths ---- */

/* The current directory, owned; NULL when it cannot be had. */
static char *
cwd_dup(void)
{
	size_t	 cap = 256;
	char	*b = NULL;

	for (;;) {
		b = xrealloc(b, cap);
		if (getcwd(b, cap) != NULL)
			return b;
		if (errno != ERANGE || cap > 65536) {
			free(b);
			return NULL;
		}
		cap *= 2;
	}
}

/*
 * path (absolute) normalised by name: no empty or "." parts, ".." drops
 * the part before it (none above the root). "/" for the root. Owned.
 */
static char *
norm_path(const char *s)
{
	size_t	 n = strlen(s), i = 0, j, o = 0;
	char	*out = xmalloc(n + 2);

	while (i < n) {
		while (i < n && s[i] == '/')
			i++;
		for (j = i; j < n && s[j] != '/'; j++)
			;
		if (j == i)
			break;
		if (j - i == 2 && s[i] == '.' && s[i + 1] == '.') {
			while (o > 0 && out[o - 1] != '/')
				o--;
			if (o > 0)
				o--;
		} else if (!(j - i == 1 && s[i] == '.')) {
			out[o++] = '/';
			memcpy(out + o, s + i, j - i);
			o += j - i;
		}
		i = j;
	}
	if (o == 0)
		out[o++] = '/';
	out[o] = '\0';
	return out;
}

/* path made absolute against cwd (when it is relative) and normalised;
 * NULL for a relative path without a cwd. */
static char *
abs_path(const char *cwd, const char *path)
{
	char	*j, *r;

	if (path[0] == '/')
		return norm_path(path);
	if (cwd == NULL)
		return NULL;
	j = xasprintf("%s/%s", cwd, path);
	r = norm_path(j);
	free(j);
	return r;
}

static char *
path_join(const char *dir, const char *name)
{
	return xasprintf("%s%s%s", dir, strcmp(dir, "/") == 0 ? "" : "/",
	    name);
}

/* ---- the glob ---- */

struct part {
	const char	*s;
	size_t		 n;
};

/* The parts of a '/'-separated string, empty and "." parts left out. */
static size_t
split_parts(const char *s, struct part **out)
{
	size_t		 i = 0, j, n = 0, cap = 1;
	struct part	*p;

	for (j = 0; s[j] != '\0'; j++)
		cap += s[j] == '/';
	p = xreallocarray(NULL, cap, sizeof *p);
	while (s[i] != '\0') {
		while (s[i] == '/')
			i++;
		for (j = i; s[j] != '\0' && s[j] != '/'; j++)
			;
		if (j > i && !(j - i == 1 && s[i] == '.')) {
			p[n].s = s + i;
			p[n].n = j - i;
			n++;
		}
		i = j;
	}
	*out = p;
	return n;
}

/* One part against one glob part: '*' any bytes, '?' one byte. The usual
 * backtracking to the last '*' only: O(len(p) * len(s)) at worst. */
static bool
part_match(const struct part *g, const struct part *s)
{
	size_t	i = 0, j = 0, star = 0, mark = 0;
	bool	starred = false;

	while (j < s->n) {
		if (i < g->n && g->s[i] == '*') {
			starred = true;
			star = ++i;
			mark = j;
		} else if (i < g->n && (g->s[i] == '?' || g->s[i] == s->s[j])) {
			i++;
			j++;
		} else if (starred) {
			i = star;
			j = ++mark;
		} else
			return false;
	}
	while (i < g->n && g->s[i] == '*')
		i++;
	return i == g->n;
}

static bool
dstar(const struct part *g)
{
	return g->n == 2 && g->s[0] == '*' && g->s[1] == '*';
}

bool
rc_glob_match(const char *glob, const char *path)
{
	struct part	*g, *s;
	size_t		 ng, ns, i, j, last, len = strlen(glob);
	bool		 dironly, anchored, hit = false, any, *row, *next, *t;

	dironly = len > 0 && glob[len - 1] == '/';
	while (len > 0 && glob[len - 1] == '/')
		len--;
	anchored = memchr(glob, '/', len) != NULL;
	ng = split_parts(glob, &g);
	ns = split_parts(path, &s);
	/* The parts a match may end at: s[0 .. last). */
	last = dironly && ns > 0 ? ns - 1 : ns;
	if (ng == 0 || ns == 0)
		goto out;
	if (!anchored) {
		for (j = 0; j < last && !hit; j++)
			hit = part_match(&g[0], &s[j]);
		goto out;
	}
	/* row[j]: g[0 .. i) names s[0 .. j). */
	row = xcalloc(ns + 1, sizeof *row);
	next = xcalloc(ns + 1, sizeof *next);
	row[0] = true;
	for (i = 0; i < ng; i++) {
		memset(next, 0, (ns + 1) * sizeof *next);
		if (dstar(&g[i])) {
			/* Any number of parts; a last "**" at least one (it
			 * names what is below, not the directory itself). */
			any = false;
			for (j = 0; j <= ns; j++) {
				if (i + 1 == ng) {
					next[j] = any;
					any = any || row[j];
				} else {
					any = any || row[j];
					next[j] = any;
				}
			}
		} else
			for (j = 0; j < ns; j++)
				next[j + 1] = row[j] && part_match(&g[i], &s[j]);
		t = row;
		row = next;
		next = t;
	}
	for (j = 1; j <= last && !hit; j++)
		hit = row[j];
	free(row);
	free(next);
out:
	free(g);
	free(s);
	return hit;
}

/* A glob with a '/' before its end: matched from the rc file's directory. */
static bool
glob_anchored(const char *glob)
{
	size_t	len = strlen(glob);

	while (len > 0 && glob[len - 1] == '/')
		len--;
	return memchr(glob, '/', len) != NULL;
}

bool
rcfile_excluded(const struct rcfile *rc, const char *path)
{
	char		*cwd = NULL, *abs;
	const char	*rel;
	size_t		 i, dl;
	bool		 inside, hit = false;

	if (rc->nexclude == 0 || rc->dir == NULL)
		return false;
	if (path[0] != '/' && (cwd = cwd_dup()) == NULL)
		return false;
	abs = abs_path(cwd, path);
	free(cwd);
	dl = strlen(rc->dir);
	if (strcmp(rc->dir, "/") == 0) {
		inside = true;
		rel = abs + 1;
	} else if (strncmp(abs, rc->dir, dl) == 0 && abs[dl] == '/') {
		inside = true;
		rel = abs + dl + 1;
	} else {
		inside = false;
		rel = strrchr(abs, '/') + 1;
	}
	for (i = 0; i < rc->nexclude && !hit; i++)
		if (inside || !glob_anchored(rc->exclude[i].name))
			hit = rc_glob_match(rc->exclude[i].name, rel);
	free(abs);
	return hit;
}

/* ---- reading ---- */

struct rcparse {
	const char	*name;
	struct buf	*why;
	int		 nerr;
	struct rcfile	*rc;
};

static void
perr(struct rcparse *p, const struct ynode *at, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
perr(struct rcparse *p, const struct ynode *at, const char *fmt, ...)
{
	va_list	ap;
	char	msg[1024];

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	buf_printf(p->why, "%s:%d:%d: %s\n", p->name, at->line, at->col, msg);
	p->nerr++;
}

/*
 * s[0..n) for a message: at most 60 bytes of it (then "..."), control
 * bytes (CR, ESC, DEL ...) as \xNN, so that a message stays one line and
 * no byte of the file reaches a terminal as a control. Written into out.
 */
static const char *
shown(const char *s, size_t n, char *out, size_t outlen)
{
	return text_shown(s, n, SHOWN_MAX, out, outlen);
}
/* A message of another reader (ydoc's, read_file's) as one line of why:
 * its control bytes as \xNN, as shown writes them. */
static void
put_line(struct buf *why, const char *msg)
{
	const unsigned char	*p;

	for (p = (const unsigned char *)msg; *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			buf_printf(why, "\\x%02x", *p);
		else
			buf_putc(why, (char)*p);
	buf_putc(why, '\n');
}

/* What a node is, for "..., not a list". */
static const char *
kind_name(const struct ynode *n)
{
	if (n->kind == YN_SEQ)
		return "a list";
	if (n->kind == YN_MAP)
		return "a mapping";
	return ynode_is_null(n) ? "nothing" : "a single value";
}

/* The word of words closest to s (at most 2 edits, or s the start of it:
 * "warn", "sev"), or NULL. */
static const char *
closest(const char *s, const char *const *words)
{
	const char	*best = NULL;
	size_t		 i, d, bestd = 3, n = strlen(s);

	for (i = 0; words[i] != NULL; i++)
		if ((d = n >= 3 && strncmp(words[i], s, n) == 0 ? 1 :
		    edit_distance_within(s, words[i], 2)) < bestd) {
			bestd = d;
			best = words[i];
		}
	return best;
}

static int
word_index(const char *s, const char *const *words)
{
	int	i;

	for (i = 0; words[i] != NULL; i++)
		if (strcmp(s, words[i]) == 0)
			return i;
	return -1;
}

static bool
good_chars(const char *s, size_t n, bool fact)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= '0' && s[i] <= '9') || s[i] == '-' ||
		    (fact && ((s[i] >= 'A' && s[i] <= 'Z') || s[i] == '_' ||
		    s[i] == '.'))))
			return false;
	return n > 0;
}

static bool
rule_id_ok(struct rcparse *p, const struct ynode *n)
{
	char	b[SHOWN_BUF];

	if (good_chars(n->str, n->len, false))
		return true;
	perr(p, n, "bad rule id '%s' (rule ids are a-z, 0-9 and '-')",
	    shown(n->str, n->len, b, sizeof b));
	return false;
}

static struct rc_item *
push_item(struct rc_item **items, size_t *n, const struct ynode *name,
    const struct ynode *value)
{
	struct rc_item	*it;

	*items = grow_pow2(*items, *n, sizeof **items);
	it = &(*items)[(*n)++];
	memset(it, 0, sizeof *it);
	it->name = xstrdup(name->str);
	it->line = name->line;
	it->col = name->col;
	if (value != NULL) {
		it->vline = value->line;
		it->vcol = value->col;
	}
	return it;
}

/* ignore: and exclude: (globs). */
static void
read_list(struct rcparse *p, const struct ynode *k, const struct ynode *v,
    struct rc_item **items, size_t *n, bool globs)
{
	const char	*what = globs ? "globs" : "rule ids";
	size_t		 i;

	if (ynode_is_null(v))
		return;
	if (v->kind != YN_SEQ) {
		perr(p, v, "'%s' takes a list of %s ([a, b]), not %s", k->str,
		    what, kind_name(v));
		return;
	}
	for (i = 0; i < v->nkids; i++) {
		const struct ynode	*it = v->kids[i];

		if (it->kind != YN_SCALAR || ynode_is_null(it)) {
			perr(p, it, "'%s' takes a list of %s: expected %s, "
			    "not %s", k->str, what, globs ? "a glob" :
			    "a rule id", kind_name(it));
			continue;
		}
		if (globs && it->len == 0) {
			perr(p, it, "an empty glob");
			continue;
		}
		if (!globs && !rule_id_ok(p, it))
			continue;
		push_item(items, n, it, NULL);
	}
}

static void
read_severity(struct rcparse *p, const struct ynode *k,
    const struct ynode *v)
{
	char		 b[SHOWN_BUF];
	struct rcfile	*rc = p->rc;
	const char	*best;
	size_t		 i;
	int		 w;

	if (ynode_is_null(v))
		return;
	if (v->kind != YN_MAP) {
		perr(p, v, "'%s' takes a mapping of rule ids to error, warning, "
		    "note or off ({rule: warning}), not %s", k->str,
		    kind_name(v));
		return;
	}
	for (i = 0; i + 1 < v->nkids; i += 2) {
		const struct ynode	*r = v->kids[i], *s = v->kids[i + 1];
		bool			 ok = rule_id_ok(p, r);

		if (s->kind != YN_SCALAR || ynode_is_null(s)) {
			perr(p, s, "the severity of '%s' is error, warning, "
			    "note or off, not %s", shown(r->str, r->len, b,
			    sizeof b), kind_name(s));
			continue;
		}
		if ((w = word_index(s->str, sev_words)) < 0) {
			if ((best = closest(s->str, sev_words)) != NULL)
				perr(p, s, "unknown severity '%s' (did you "
				    "mean '%s'?)", shown(s->str, s->len, b,
				    sizeof b), best);
			else
				perr(p, s, "unknown severity '%s' (error, "
				    "warning, note or off)", shown(s->str, s->len,
				    b, sizeof b));
			continue;
		}
		if (ok)
			push_item(&rc->severity, &rc->nseverity, r, s)->sev =
			    (enum rc_sev)w;
	}
}

static void
read_facts(struct rcparse *p, const struct ynode *k, const struct ynode *v)
{
	char		 b[SHOWN_BUF];
	struct rcfile	*rc = p->rc;
	size_t		 i;

	if (ynode_is_null(v))
		return;
	if (v->kind != YN_MAP) {
		perr(p, v, "'%s' takes a mapping of fact names to values "
		    "({platform: cuda}), not %s", k->str, kind_name(v));
		return;
	}
	for (i = 0; i + 1 < v->nkids; i += 2) {
		const struct ynode	*f = v->kids[i], *x = v->kids[i + 1];

		if (!good_chars(f->str, f->len, true)) {
			perr(p, f, "bad fact name '%s' (letters, digits, "
			    "'-', '_' and '.')", shown(f->str, f->len, b,
			    sizeof b));
			continue;
		}
		if (x->kind != YN_SCALAR || ynode_is_null(x)) {
			perr(p, x, "the fact '%s' takes a value (a word or a "
			    "number), not %s", f->str, kind_name(x));
			continue;
		}
		push_item(&rc->facts, &rc->nfacts, f, x)->value =
		    xstrdup(x->str);
	}
}

static void
read_fail_on(struct rcparse *p, const struct ynode *k, const struct ynode *v)
{
	char		 b[SHOWN_BUF];
	const char	*best;
	int		 w;

	if (v->kind != YN_SCALAR || ynode_is_null(v)) {
		perr(p, v, "'%s' is error or warning, not %s", k->str,
		    kind_name(v));
		return;
	}
	if ((w = word_index(v->str, fail_words)) < 0) {
		if ((best = closest(v->str, fail_words)) != NULL)
			perr(p, v, "'%s' is error or warning, not '%s' (did "
			    "you mean '%s'?)", k->str, shown(v->str, v->len, b,
			    sizeof b), best);
		else
			perr(p, v, "'%s' is error or warning, not '%s'",
			    k->str, shown(v->str, v->len, b, sizeof b));
		return;
	}
	p->rc->fail_on = w == 0 ? RC_FAIL_ERROR : RC_FAIL_WARNING;
	p->rc->fail_line = v->line;
	p->rc->fail_col = v->col;
}

static void
read_root(struct rcparse *p, const struct ynode *root)
{
	char		 b[SHOWN_BUF];
	struct rcfile	*rc = p->rc;
	const char	*best;
	size_t		 i;

	if (ynode_is_null(root))
		return;		/* "---" alone: nothing said */
	if (root->kind != YN_MAP) {
		perr(p, root, "expected a mapping of settings (ignore:, "
		    "severity:, facts:, exclude:, fail-on:), not %s",
		    kind_name(root));
		return;
	}
	for (i = 0; i + 1 < root->nkids; i += 2) {
		const struct ynode	*k = root->kids[i], *v = root->kids[i + 1];

		switch (word_index(k->str, rc_keys)) {
		case 0:
			read_list(p, k, v, &rc->ignore, &rc->nignore, false);
			break;
		case 1:
			read_severity(p, k, v);
			break;
		case 2:
			read_facts(p, k, v);
			break;
		case 3:
			read_list(p, k, v, &rc->exclude, &rc->nexclude, true);
			break;
		case 4:
			read_fail_on(p, k, v);
			break;
		default:
			if ((best = closest(k->str, rc_keys)) != NULL)
				perr(p, k, "unknown key '%s' (did you mean "
				    "'%s'?)", shown(k->str, k->len, b, sizeof b),
				    best);
			else
				perr(p, k, "unknown key '%s' (the keys are "
				    "ignore, severity, facts, exclude and "
				    "fail-on)", shown(k->str, k->len, b,
				    sizeof b));
			break;
		}
	}
}

static const char *
ign_key(const void *ctx, size_t i, size_t *len)
{
	const struct rc_index	*ix = ctx;

	*len = strlen(ix->ignore[i].name);
	return ix->ignore[i].name;
}

static const char *
sev_key(const void *ctx, size_t i, size_t *len)
{
	const struct rc_index	*ix = ctx;

	*len = strlen(ix->severity[i].name);
	return ix->severity[i].name;
}

static void
build_index(struct rcfile *rc)
{
	struct rc_index	*ix = xcalloc(1, sizeof *ix);
	size_t		 i;

	ix->ignore = rc->ignore;
	ix->severity = rc->severity;
	hidx_init(&ix->ign, ign_key, ix);
	hidx_init(&ix->sev, sev_key, ix);
	for (i = 0; i < rc->nignore; i++)
		hidx_add(&ix->ign, i);
	for (i = 0; i < rc->nseverity; i++)
		hidx_put(&ix->sev, i);
	rc->ix = ix;
}

void
rcfile_init(struct rcfile *rc)
{
	memset(rc, 0, sizeof *rc);
}

int
rcfile_parse(const char *name, const char *dir, const char *text,
    size_t len, struct rcfile *rc, struct buf *why)
{
	struct rcparse	 p;
	struct ynode	*root;
	char		 err[1024], *cwd = NULL;

	rcfile_free(rc);
	rc->path = xstrdup(name);
	if (dir == NULL)
		dir = ".";
	if (dir[0] != '/')
		cwd = cwd_dup();
	if ((rc->dir = abs_path(cwd, dir)) == NULL)
		rc->dir = xstrdup(dir);
	free(cwd);
	if ((root = ydoc_parse(name, text, len, true, err, sizeof err)) ==
	    NULL) {
		put_line(why, err);
		return -1;
	}
	memset(&p, 0, sizeof p);
	p.name = name;
	p.why = why;
	p.rc = rc;
	read_root(&p, root);
	ynode_free(root);
	build_index(rc);
	return p.nerr > 0 ? -1 : 0;
}

int
rcfile_load(const char *path, struct rcfile *rc, struct buf *why)
{
	char	 err[1024], *text, *copy;
	size_t	 len;
	int	 r;

	/* "-" is a file here: standard input is what is being checked. */
	if ((text = read_file(strcmp(path, "-") == 0 ? "./-" : path, RC_MAX,
	    &len, err, sizeof err)) == NULL) {
		put_line(why, err);
		return -1;
	}
	copy = xstrdup(path);
	r = rcfile_parse(path, dirname(copy), text, len, rc, why);
	free(copy);
	free(text);
	return r;
}

static void
free_items(struct rc_item *it, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(it[i].name);
		free(it[i].value);
	}
	free(it);
}

void
rcfile_free(struct rcfile *rc)
{
	free(rc->path);
	free(rc->dir);
	free_items(rc->ignore, rc->nignore);
	free_items(rc->severity, rc->nseverity);
	free_items(rc->facts, rc->nfacts);
	free_items(rc->exclude, rc->nexclude);
	if (rc->ix != NULL) {
		hidx_free(&rc->ix->ign);
		hidx_free(&rc->ix->sev);
		free(rc->ix);
	}
	rcfile_init(rc);
}

bool
rcfile_rule(const struct rcfile *rc, const char *rule, enum rc_sev *sev)
{
	size_t	len = strlen(rule);
	long	i;

	if (rc->ix == NULL)
		return false;
	if (hidx_find(&rc->ix->ign, rule, len) >= 0) {
		*sev = RC_OFF;
		return true;
	}
	if ((i = hidx_find(&rc->ix->sev, rule, len)) >= 0) {
		*sev = rc->severity[i].sev;
		return true;
	}
	return false;
}

/* ---- the search ---- */

static const char *
dir_key(const void *ctx, size_t i, size_t *len)
{
	const struct rc_cache	*c = ctx;

	*len = c->d[i].len;
	return c->d[i].dir;
}

void
rc_finder_init(struct rc_finder *f)
{
	memset(f, 0, sizeof *f);
}

/* Whether dir/name is there (anything: a file, a directory, a link). */
static bool
present(struct rc_finder *f, const char *dir, const char *name, char **path)
{
	struct stat	 st;
	char		*p = path_join(dir, name);
	bool		 there;

	f->nlookups++;
	there = lstat(p, &st) == 0;
	if (there && path != NULL)
		*path = p;
	else
		free(p);
	return there;
}

const char *
rcfile_find(struct rc_finder *f, const char *dir)
{
	struct rc_cache	*c;
	char		*d, *rc, *slash;
	size_t		 first, i, found = 0;
	long		 k;

	if (f->c == NULL) {
		f->c = xcalloc(1, sizeof *f->c);
		hidx_init(&f->c->idx, dir_key, f->c);
	}
	c = f->c;
	if (dir[0] != '/' && !c->cwd_asked) {
		c->cwd = cwd_dup();
		c->cwd_asked = true;
	}
	if ((d = abs_path(c->cwd, dir[0] != '\0' ? dir : ".")) == NULL)
		return NULL;
	first = c->nd;
	for (;;) {
		if ((k = hidx_find(&c->idx, d, strlen(d))) >= 0) {
			found = c->d[k].found;
			free(d);
			break;
		}
		c->d = grow_pow2(c->d, c->nd, sizeof *c->d);
		c->d[c->nd].dir = d;
		c->d[c->nd].len = strlen(d);
		c->d[c->nd].found = 0;
		hidx_add(&c->idx, c->nd++);
		if (present(f, d, RC_NAME, &rc)) {
			c->found = grow_pow2(c->found, c->nfound,
			    sizeof *c->found);
			c->found[c->nfound++] = rc;
			found = c->nfound;
			break;
		}
		if (strcmp(d, "/") == 0 || present(f, d, ".git", NULL))
			break;
		slash = strrchr(d, '/');
		d = xstrndup(d, slash == d ? 1 : (size_t)(slash - d));
	}
	for (i = first; i < c->nd; i++)
		c->d[i].found = found;
	return found > 0 ? c->found[found - 1] : NULL;
}

void
rc_finder_free(struct rc_finder *f)
{
	size_t	i;

	if (f->c != NULL) {
		for (i = 0; i < f->c->nd; i++)
			free(f->c->d[i].dir);
		free(f->c->d);
		for (i = 0; i < f->c->nfound; i++)
			free(f->c->found[i]);
		free(f->c->found);
		hidx_free(&f->c->idx);
		free(f->c->cwd);
		free(f->c);
	}
	rc_finder_init(f);
}
