/*
 * flaghist.c - rules/flag-history.yaml: which SGLang releases have which
 * flags, and the release ranges of rules.
 */
#define _POSIX_C_SOURCE 200809L
#include "catalog.h"
#include "util.h"
#include "ydoc.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define HIST_MAX	(1024 * 1024)

struct hctx {
	const char			*file;
	char				*err;
	size_t				 errlen;
	const struct flag_history	*fh;	/* its commits name versions */
};

/* A scalar at key of map (NULL when absent or null); -1 on a non-scalar. */
static int
scalar(struct hctx *h, const struct ynode *map, const char *key,
    const char **out)
{
	const struct ynode	*n = ynode_get(map, key);

	*out = NULL;
	if (n == NULL || ynode_is_null(n))
		return 0;
	if (n->kind != YN_SCALAR) {
		ynode_err(h->err, h->errlen, h->file, n, "'%s' must be a "
		    "scalar", key);
		return -1;
	}
	*out = intern(n->str);
	return 0;
}

/* A release number at key of map; absent or null is 0. */
static int
release(struct hctx *h, const struct ynode *map, const char *key,
    sgver_t *out)
{
	const char	*s;
	char		 why[256];

	*out = SGVER_UNKNOWN;
	if (scalar(h, map, key, &s) != 0)
		return -1;
	if (s == NULL)
		return 0;
	if ((*out = flaghist_parse(h->fh, s, why, sizeof why)) ==
	    SGVER_UNKNOWN) {
		ynode_err(h->err, h->errlen, h->file, ynode_get(map, key),
		    "%s: %s", key, why);
		return -1;
	}
	return 0;
}

static bool
all_hex(const char *s, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' &&
		    s[i] <= 'f')))
			return false;
	return true;
}

sgver_t
flaghist_parse(const struct flag_history *fh, const char *s, char *why,
    size_t whylen)
{
	const char	*h = s;
	size_t		 i, n;
	bool		 at = false;

	if (s == NULL)
		return SGVER_UNKNOWN;
	if (strncmp(h, "main@", 5) == 0) {
		h += 5;
		at = true;
	}
	n = strlen(h);
	for (i = 0; fh != NULL && i < fh->ncommits; i++) {
		const struct sg_commit	*c = &fh->commits[i];

		if (strcmp(h, c->name) == 0 || (n >= 7 && all_hex(h, n) &&
		    strncmp(c->commit, h, n) == 0))
			return c->v;
	}
	if (at || (n >= 7 && n <= 40 && all_hex(h, n))) {
		if (why != NULL && whylen > 0)
			snprintf(why, whylen, "'%s' is no release number and no "
			    "commit of SGLang main that pdwiz knows (the commits "
			    "of rules/flag-history.yaml: %s)", s, fh != NULL &&
			    fh->ncommits > 0 ? fh->commits[fh->ncommits - 1].name :
			    "none");
		return SGVER_UNKNOWN;
	}
	return sgver_parse(s, why, whylen);
}

const struct sg_commit *
flaghist_commit(const struct flag_history *fh, sgver_t v)
{
	size_t	i;

	if (fh == NULL || !sgver_is_commit(v))
		return NULL;
	for (i = 0; i < fh->ncommits; i++)
		if (fh->commits[i].v == v)
			return &fh->commits[i];
	return NULL;
}

const char *
flaghist_vname(const struct flag_history *fh, sgver_t v, char *buf,
    size_t len)
{
	const struct sg_commit	*c = flaghist_commit(fh, v);

	if (c == NULL)
		return sgver_format(v, buf, len);
	snprintf(buf, len, "main@%s", c->name);
	return buf;
}

/*
 * commits: main's commits the catalog names, oldest first, each after a
 * release; a commit's version sorts after that release, commits after the
 * same release in list order.
 */
static int
commits(struct hctx *h, const struct ynode *list, struct flag_history *fh)
{
	static const char *const keys[] = { "name", "commit", "date", "after",
		"note", NULL };
	size_t	i, j, k = 0;

	if (list == NULL)
		return 0;
	if (list->kind != YN_SEQ) {
		ynode_err(h->err, h->errlen, h->file, list,
		    "'commits' must be a list");
		return -1;
	}
	fh->commits = xcalloc(list->nkids + 1, sizeof *fh->commits);
	for (i = 0; i < list->nkids; i++) {
		const struct ynode	*n = list->kids[i];
		struct sg_commit	*c = &fh->commits[i];
		const char		*after;
		char			 why[256];

		if (n->kind != YN_MAP || ynode_check_keys(n, keys, h->file,
		    h->err, h->errlen) != 0 ||
		    scalar(h, n, "name", &c->name) != 0 ||
		    scalar(h, n, "commit", &c->commit) != 0 ||
		    scalar(h, n, "date", &c->date) != 0 ||
		    scalar(h, n, "after", &after) != 0) {
			if (n->kind != YN_MAP)
				ynode_err(h->err, h->errlen, h->file, n,
				    "a commit is a map (name, commit, date, "
				    "after, note)");
			return -1;
		}
		if (c->commit == NULL || strlen(c->commit) != 40 ||
		    !all_hex(c->commit, 40)) {
			ynode_err(h->err, h->errlen, h->file, n, "commit: the "
			    "full hash, 40 hex digits in lower case");
			return -1;
		}
		if (c->name == NULL || strlen(c->name) < 7 ||
		    strlen(c->name) > 40 || strncmp(c->commit, c->name,
		    strlen(c->name)) != 0) {
			ynode_err(h->err, h->errlen, h->file, n, "name: the "
			    "hash's first 7 to 40 digits");
			return -1;
		}
		if (c->date == NULL || strlen(c->date) != 10) {
			ynode_err(h->err, h->errlen, h->file, n, "date: "
			    "YYYY-MM-DD");
			return -1;
		}
		if (after == NULL || (c->after = sgver_parse(after, why,
		    sizeof why)) == SGVER_UNKNOWN) {
			ynode_err(h->err, h->errlen, h->file, n, "after: %s",
			    after != NULL ? why : "the newest release it is "
			    "later than");
			return -1;
		}
		if (i > 0 && (sgver_cmp(c->after, c[-1].after) < 0 ||
		    strcmp(c->date, c[-1].date) < 0)) {
			ynode_err(h->err, h->errlen, h->file, n, "commits: "
			    "oldest first (by release and date)");
			return -1;
		}
		for (j = 0; j < i; j++)
			if (strncmp(fh->commits[j].commit, c->commit, 7) == 0) {
				ynode_err(h->err, h->errlen, h->file, n,
				    "commits: a commit is listed twice");
				return -1;
			}
		k = i > 0 && c[-1].after == c->after ? k + 1 : 1;
		c->v = sgver_commit(c->after, (unsigned)k);
	}
	fh->ncommits = list->nkids;
	return 0;
}

/*
 * Every evidence item names what it is for and a source: a pull request,
 * an issue, a release note, or a file version (repo, path, commit). The
 * first pull request (else the first file version) is what messages cite.
 */
static int
evidence(struct hctx *h, const struct ynode *list, struct flag_hist *f)
{
	static const char *const keys[] = { "for", "repo", "path", "tag",
		"commit", "pr", "issue", "release_note", "note", NULL };
	const char	*cite_src = NULL;
	size_t		 i;

	if (list == NULL || list->kind != YN_SEQ || list->nkids == 0) {
		ynode_err(h->err, h->errlen, h->file, list, "an entry needs "
		    "'evidence': a list of sources");
		return -1;
	}
	for (i = 0; i < list->nkids; i++) {
		const struct ynode	*e = list->kids[i];
		const char		*pr, *repo, *path, *commit, *issue,
					*note, *forwhat, *tag;

		if (e->kind != YN_MAP || ynode_check_keys(e, keys, h->file,
		    h->err, h->errlen) != 0 || scalar(h, e, "for", &forwhat) ||
		    scalar(h, e, "pr", &pr) || scalar(h, e, "repo", &repo) ||
		    scalar(h, e, "path", &path) || scalar(h, e, "commit",
		    &commit) || scalar(h, e, "issue", &issue) || scalar(h, e,
		    "release_note", &note) || scalar(h, e, "tag", &tag)) {
			if (e->kind != YN_MAP)
				ynode_err(h->err, h->errlen, h->file, e,
				    "an evidence item is a mapping");
			return -1;
		}
		if (forwhat == NULL || (pr == NULL && issue == NULL &&
		    note == NULL && (repo == NULL || path == NULL ||
		    commit == NULL))) {
			ynode_err(h->err, h->errlen, h->file, e, "evidence "
			    "needs 'for' and a pr, an issue, a release_note, "
			    "or a repo, path and commit");
			return -1;
		}
		if (pr != NULL && f->cite == NULL &&
		    strcmp(forwhat, "introduced") != 0)
			f->cite = pr;
		if (cite_src == NULL && repo != NULL) {
			char	*c = xasprintf("%s@%s%s%.12s%s", path,
			    tag ? tag : "", tag ? " (" : "", commit,
			    tag ? ")" : "");

			cite_src = intern(c);
			free(c);
		}
		if (f->cite_introduced == NULL &&
		    strcmp(forwhat, "introduced") == 0)
			f->cite_introduced = pr != NULL ? pr : cite_src;
	}
	if (f->cite == NULL)
		f->cite = f->cite_introduced != NULL ? f->cite_introduced :
		    cite_src;
	return 0;
}

static int
entry(struct hctx *h, const struct ynode *n, struct flag_hist *f)
{
	static const char *const keys[] = { "flag", "module", "introduced",
		"deprecated", "rejected", "removed", "takes_value",
		"replaced_by", "message", "note", "evidence", NULL };
	const char	*flag, *module, *tv;

	if (n->kind != YN_MAP) {
		ynode_err(h->err, h->errlen, h->file, n, "an entry is a "
		    "mapping");
		return -1;
	}
	memset(f, 0, sizeof *f);
	f->line = n->line;
	if (ynode_check_keys(n, keys, h->file, h->err, h->errlen) != 0 ||
	    scalar(h, n, "flag", &flag) || scalar(h, n, "module", &module) ||
	    scalar(h, n, "takes_value", &tv) ||
	    scalar(h, n, "replaced_by", &f->replaced_by) ||
	    scalar(h, n, "message", &f->message) ||
	    scalar(h, n, "note", &f->note) ||
	    release(h, n, "introduced", &f->introduced) ||
	    release(h, n, "deprecated", &f->deprecated) ||
	    release(h, n, "rejected", &f->rejected) ||
	    release(h, n, "removed", &f->removed))
		return -1;
	if ((flag == NULL) == (module == NULL) || (flag != NULL &&
	    strncmp(flag, "--", 2) != 0)) {
		ynode_err(h->err, h->errlen, h->file, n, "an entry has one "
		    "of 'flag' (--name) or 'module'");
		return -1;
	}
	if (tv != NULL && strcmp(tv, "true") != 0 && strcmp(tv, "false")) {
		ynode_err(h->err, h->errlen, h->file, ynode_get(n,
		    "takes_value"), "takes_value is true or false");
		return -1;
	}
	f->flag = flag != NULL ? flag : module;
	f->module = module != NULL;
	f->takes_value = tv != NULL && strcmp(tv, "true") == 0;
	if ((f->removed && f->introduced && f->removed <= f->introduced) ||
	    (f->rejected && f->introduced && f->rejected <= f->introduced)) {
		ynode_err(h->err, h->errlen, h->file, n, "removed or rejected "
		    "before it was introduced");
		return -1;
	}
	return evidence(h, ynode_get(n, "evidence"), f);
}

static int
cmp_sgver(const void *a, const void *b)
{
	return sgver_cmp(*(const sgver_t *)a, *(const sgver_t *)b);
}

/* releases: the release tags, each a release number, kept in order. */
static int
releases(struct hctx *h, const struct ynode *list, struct flag_history *fh)
{
	char	why[256];
	size_t	i;

	if (list == NULL)
		return 0;
	if (list->kind != YN_SEQ) {
		ynode_err(h->err, h->errlen, h->file, list,
		    "'releases' must be a list of release numbers");
		return -1;
	}
	fh->releases = xcalloc(list->nkids + 1, sizeof *fh->releases);
	for (i = 0; i < list->nkids; i++) {
		const struct ynode	*k = list->kids[i];

		if (k->kind != YN_SCALAR || (fh->releases[i] =
		    sgver_parse(k->str, why, sizeof why)) == SGVER_UNKNOWN) {
			ynode_err(h->err, h->errlen, h->file, k, "releases: %s",
			    k->kind == YN_SCALAR ? why : "not a release number");
			return -1;
		}
	}
	fh->nreleases = list->nkids;
	qsort(fh->releases, fh->nreleases, sizeof *fh->releases, cmp_sgver);
	for (i = 1; i < fh->nreleases; i++)
		if (fh->releases[i] == fh->releases[i - 1]) {
			ynode_err(h->err, h->errlen, h->file, list,
			    "releases: a release is listed twice");
			return -1;
		}
	return 0;
}

sgver_t
flaghist_release_as(const struct flag_history *fh, sgver_t v, bool *release)
{
	size_t	i;

	*release = true;
	if (fh == NULL || fh->nreleases == 0 || v == SGVER_UNKNOWN ||
	    flaghist_commit(fh, v) != NULL)
		return v;
	for (i = 0; i < fh->nreleases; i++)
		if (fh->releases[i] == v)
			return v;
	*release = false;
	if (sgver_cmp(v, fh->releases[fh->nreleases - 1]) > 0)
		return v;
	for (i = fh->nreleases; i-- > 0; )
		if (sgver_cmp(fh->releases[i], v) < 0)
			return fh->releases[i];
	return fh->releases[0];
}

static int
load(struct hctx *h, const struct ynode *root, struct flag_history *fh)
{
	static const char *const keys[] = { "sglang_version",
		"sglang_newer_than", "sglang_newer_than_evidence", "releases",
		"commits", "entries", NULL };
	const struct ynode	*es = ynode_get(root, "entries");
	size_t			 i, j;

	if (root->kind != YN_MAP || ynode_check_keys(root, keys, h->file,
	    h->err, h->errlen) != 0 ||
	    release(h, root, "sglang_version", &fh->sglang_version) ||
	    release(h, root, "sglang_newer_than", &fh->newer_than) ||
	    releases(h, ynode_get(root, "releases"), fh) ||
	    commits(h, ynode_get(root, "commits"), fh))
		return -1;
	if (es == NULL || es->kind != YN_SEQ) {
		ynode_err(h->err, h->errlen, h->file, es ? es : root,
		    "'entries' must be a list");
		return -1;
	}
	fh->e = xcalloc(es->nkids + 1, sizeof *fh->e);
	for (i = 0; i < es->nkids; i++, fh->n++) {
		if (entry(h, es->kids[i], &fh->e[i]) != 0)
			return -1;
		for (j = 0; j < i; j++)
			if (fh->e[j].flag == fh->e[i].flag) {
				ynode_err(h->err, h->errlen, h->file,
				    es->kids[i], "'%s' is already at line %d",
				    fh->e[i].flag, fh->e[j].line);
				return -1;
			}
	}
	return 0;
}

/* ---- rules/flag-inventory.tsv ---- */

#define INV_MAX		(4 * 1024 * 1024)
#define INV_COLS	7

/* The release index of name among the inventory's releases, or -1. */
static int
inv_index(const struct flag_history *fh, const char *name, size_t len)
{
	char	buf[SGVER_TEXT_MAX], why[64];
	sgver_t	v;
	size_t	i;

	if (len == 4 && strncmp(name, "main", 4) == 0)
		return fh->inv_main ? (int)fh->ninv_rel : -1;
	if (len >= sizeof buf)
		return -1;
	memcpy(buf, name, len);
	buf[len] = '\0';
	if ((v = sgver_parse(buf, why, sizeof why)) == SGVER_UNKNOWN)
		return -1;
	for (i = 0; i < fh->ninv_rel; i++)
		if (fh->inv_rel[i] == v)
			return (int)i;
	return -1;
}

static int
cmp_inv(const void *a, const void *b)
{
	const struct flag_inv	*x = a, *y = b;
	int			 c = strcmp(x->flag, y->flag);

	return c != 0 ? c : x->lo < y->lo ? -1 : x->lo > y->lo;
}

/* "0.4.0..0.5.9,0.5.11..main": one row of r per run; -1 on bad text. */
static int
inv_runs(struct flag_history *fh, const char *text, const struct flag_inv *r,
    size_t *cap)
{
	const char	*p = text;

	while (*p != '\0') {
		size_t		 n = strcspn(p, ","), a;
		const char	*dots = NULL;
		int		 lo, hi;

		for (a = 0; a + 1 < n; a++)
			if (p[a] == '.' && p[a + 1] == '.') {
				dots = p + a;
				break;
			}
		lo = inv_index(fh, p, dots ? (size_t)(dots - p) : n);
		hi = dots ? inv_index(fh, dots + 2, n - (size_t)(dots + 2 - p)) :
		    lo;
		if (lo < 0 || hi < lo)
			return -1;
		if (fh->ninv == *cap) {
			*cap = *cap ? *cap * 2 : 256;
			fh->inv = xreallocarray(fh->inv, *cap, sizeof *fh->inv);
		}
		fh->inv[fh->ninv] = *r;
		fh->inv[fh->ninv].lo = (uint32_t)lo;
		fh->inv[fh->ninv].hi = (uint32_t)hi;
		fh->ninv++;
		p += n;
		if (*p == ',' && *++p == '\0')
			return -1;
	}
	return p == text ? -1 : 0;
}

/* One line of the inventory into fh; NULL, or what is wrong with it. */
static const char *
inv_line(struct flag_history *fh, char *line, size_t *cap)
{
	char		*col[INV_COLS], *p = line, why[64];
	size_t		 n = 0;
	struct flag_inv	 r;
	sgver_t		 v;

	while (n < INV_COLS) {
		col[n++] = p;
		if ((p = strchr(p, '\t')) == NULL)
			break;
		*p++ = '\0';
	}
	if (p != NULL && n == INV_COLS)
		return "too many columns";
	if (strcmp(col[0], "R") == 0) {
		if (n != 3)
			return "a release line is R, the release, its commit";
		if (fh->inv_main)
			return "main is the last release";
		if (fh->ninv > 0)
			return "the releases come before the flags";
		if (strcmp(col[1], "main") == 0) {
			if (strlen(col[2]) != 40)
				return "main's commit is its full hash";
			fh->inv_main = true;
			fh->inv_main_commit = intern(col[2]);
			return NULL;
		}
		if ((v = sgver_parse(col[1], why, sizeof why)) == SGVER_UNKNOWN)
			return "not a release number";
		if (fh->ninv_rel > 0 &&
		    sgver_cmp(v, fh->inv_rel[fh->ninv_rel - 1]) <= 0)
			return "the releases are not in version order";
		fh->inv_rel = xreallocarray(fh->inv_rel, fh->ninv_rel + 1,
		    sizeof *fh->inv_rel);
		fh->inv_rel[fh->ninv_rel++] = v;
		return NULL;
	}
	if (strcmp(col[0], "F") != 0)
		return "a line is R (a release) or F (a flag)";
	if (n != INV_COLS)
		return "a flag line is F, flag, releases, dest, nargs, default, "
		    "choices";
	if (strncmp(col[1], "--", 2) != 0)
		return "a flag starts with --";
	if (strlen(col[4]) != 1 || strchr("01?*+", col[4][0]) == NULL)
		return "nargs is 0, 1, ?, * or +";
	memset(&r, 0, sizeof r);
	r.flag = intern(col[1]);
	r.dest = intern(col[3]);
	r.nargs = col[4][0];
	r.dflt = intern(col[5]);
	r.choices = strcmp(col[6], "-") == 0 ? NULL : intern(col[6]);
	if (inv_runs(fh, col[2], &r, cap) != 0)
		return "releases are runs (A or A..B, by commas) of the R lines";
	return NULL;
}

/* rules/flag-inventory.tsv of datadir into fh (absent: none). */
/*
 * Each line of text that is neither empty nor a # comment, ended in place,
 * to fn; the first complaint, its line number in *lineno.
 */
static const char *
each_line(char *text, const char *(*fn)(void *, char *), void *ctx,
    int *lineno)
{
	const char	*bad = NULL;
	char		*p, *nl;

	*lineno = 0;
	for (p = text; bad == NULL && *p != '\0'; p = nl) {
		++*lineno;
		if ((nl = strchr(p, '\n')) != NULL)
			*nl++ = '\0';
		else
			nl = p + strlen(p);
		if (*p != '#' && *p != '\0')
			bad = fn(ctx, p);
	}
	return bad;
}

struct inv_ctx {
	struct flag_history	*fh;
	size_t			 cap;
};

static const char *
inv_each(void *ctx, char *line)
{
	struct inv_ctx	*c = ctx;

	return inv_line(c->fh, line, &c->cap);
}

static int
inv_load(struct flag_history *fh, const char *datadir, char *err,
    size_t errlen)
{
	char		*path = xasprintf("%s/rules/flag-inventory.tsv", datadir);
	char		*text;
	const char	*bad;
	struct stat	 st;
	struct inv_ctx	 c = { fh, 0 };
	size_t		 len, i;
	int		 lineno;

	if (stat(path, &st) != 0) {
		free(path);
		return 0;
	}
	if ((text = read_file(path, INV_MAX, &len, err, errlen)) == NULL) {
		free(path);
		return -1;
	}
	bad = each_line(text, inv_each, &c, &lineno);
	if (bad == NULL && fh->ninv_rel == 0)
		bad = "no release (R line)", lineno = 1;
	if (bad != NULL) {
		snprintf(err, errlen, "%s:%d: %s", path, lineno, bad);
		free(text);
		free(path);
		return -1;
	}
	sort_items(fh->inv, fh->ninv, sizeof *fh->inv, cmp_inv);
	for (i = 1; i < fh->ninv; i++)
		if (fh->inv[i].flag == fh->inv[i - 1].flag &&
		    fh->inv[i].lo <= fh->inv[i - 1].hi) {
			snprintf(err, errlen, "%s: %s: two rows for one release",
			    path, fh->inv[i].flag);
			free(text);
			free(path);
			return -1;
		}
	free(text);
	free(path);
	return 0;
}

int
flaginv_release(const struct flag_history *fh, sgver_t v)
{
	size_t			 i;
	const struct sg_commit	*c;

	if (fh == NULL || v == SGVER_UNKNOWN)
		return -1;
	if ((c = flaghist_commit(fh, v)) != NULL)
		return fh->inv_main && fh->inv_main_commit != NULL &&
		    strcmp(c->commit, fh->inv_main_commit) == 0 ?
		    (int)fh->ninv_rel : -1;
	for (i = 0; i < fh->ninv_rel; i++)
		if (fh->inv_rel[i] == v)
			return (int)i;
	return -1;
}

/* The first row of flag, or fh->ninv. */
static size_t
inv_first(const struct flag_history *fh, const char *flag)
{
	size_t	lo = 0, hi = fh->ninv;

	while (lo < hi) {
		size_t	mid = lo + (hi - lo) / 2;

		if (strcmp(fh->inv[mid].flag, flag) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

const struct flag_inv *
flaginv_find(const struct flag_history *fh, const char *flag, int r)
{
	size_t	i;

	if (fh == NULL || r < 0 || flag == NULL)
		return NULL;
	for (i = inv_first(fh, flag); i < fh->ninv &&
	    strcmp(fh->inv[i].flag, flag) == 0; i++)
		if (fh->inv[i].lo <= (uint32_t)r && (uint32_t)r <= fh->inv[i].hi)
			return &fh->inv[i];
	return NULL;
}

void
flaginv_elsewhere(const struct flag_history *fh, const char *flag, int r,
    int *earlier, int *later)
{
	size_t	i;

	*earlier = *later = -1;
	if (fh == NULL || r < 0 || flag == NULL)
		return;
	for (i = inv_first(fh, flag); i < fh->ninv &&
	    strcmp(fh->inv[i].flag, flag) == 0; i++) {
		if (fh->inv[i].hi < (uint32_t)r)
			*earlier = (int)fh->inv[i].hi;
		else if (fh->inv[i].lo > (uint32_t)r && *later < 0)
			*later = (int)fh->inv[i].lo;
	}
}

const char *
flaginv_name(const struct flag_history *fh, int r, char *buf, size_t len)
{
	size_t	i;

	if (r >= 0 && (size_t)r < fh->ninv_rel)
		return sgver_format(fh->inv_rel[r], buf, len);
	for (i = 0; fh->inv_main_commit != NULL && i < fh->ncommits; i++)
		if (strcmp(fh->commits[i].commit, fh->inv_main_commit) == 0)
			return flaghist_vname(fh, fh->commits[i].v, buf, len);
	snprintf(buf, len, "main");
	return buf;
}

int
flaghist_attach(struct catalog *cat, const char *datadir, char *err,
    size_t errlen)
{
	char			*p = xasprintf("%s/rules/flag-history.yaml",
	    datadir);
	struct stat		 st;
	struct ynode		*root;
	struct flag_history	*fh;
	struct hctx		 h = { NULL, err, errlen, NULL };
	int			 rc;

	if (stat(p, &st) != 0) {
		free(p);
		return 0;
	}
	if ((root = ydoc_load(p, HIST_MAX, err, errlen)) == NULL) {
		free(p);
		return -1;
	}
	h.file = intern(p);
	free(p);
	fh = xcalloc(1, sizeof *fh);
	fh->file = h.file;
	h.fh = fh;
	rc = load(&h, root, fh);
	ynode_free(root);
	if (rc == 0)
		rc = inv_load(fh, datadir, err, errlen);
	if (rc != 0) {
		flaghist_free(fh);
		return -1;
	}
	flaghist_free(cat->hist);
	cat->hist = fh;
	return 0;
}

/* ---- rules/rule-since.tsv ---- */

#define SINCE_MAX	(1024 * 1024)

/* One line: rule, since|after|until, a version, the evidence. */
static const char *
since_line(void *ctx, char *p)
{
	struct catalog		*cat = ctx;
	char			*col[4], why[256];
	size_t			 n = 0;
	const struct rule	*cr;
	struct rule		*r;
	sgver_t			 v;

	while (n < 4) {
		col[n++] = p;
		if ((p = strchr(p, '\t')) == NULL)
			break;
		*p++ = '\0';
	}
	if (n != 4 || p != NULL)
		return "a line is the rule, since, after or until, a version, "
		    "the evidence";
	if ((cr = catalog_rule(cat, col[0])) == NULL)
		return "no such rule";
	/* the loading catalog's own rule, written in place */
	r = cr >= cat->rules && cr < cat->rules + cat->nrules ?
	    &cat->rules[cr - cat->rules] : &cat->drules[cr - cat->drules];
	if (r->since != SGVER_UNKNOWN || r->newer_than != SGVER_UNKNOWN ||
	    r->until != SGVER_UNKNOWN)
		return "the rule has a range of its own (since/after/until in "
		    "its YAML)";
	if ((v = flaghist_parse(cat->hist, col[2], why, sizeof why)) ==
	    SGVER_UNKNOWN)
		return "not a release number or a commit of flag-history.yaml";
	if (strcmp(col[1], "since") == 0)
		r->since = v;
	else if (strcmp(col[1], "after") == 0)
		r->newer_than = v;
	else if (strcmp(col[1], "until") == 0)
		r->until = v;
	else
		return "the range is since, after or until";
	return NULL;
}

int
rule_since_attach(struct catalog *cat, const char *datadir, char *err,
    size_t errlen)
{
	char		*path = xasprintf("%s/rules/rule-since.tsv", datadir);
	char		*text;
	const char	*bad;
	struct stat	 st;
	size_t		 len;
	int		 lineno;

	if (stat(path, &st) != 0) {
		free(path);
		return 0;
	}
	if ((text = read_file(path, SINCE_MAX, &len, err, errlen)) == NULL) {
		free(path);
		return -1;
	}
	bad = each_line(text, since_line, cat, &lineno);
	if (bad != NULL)
		snprintf(err, errlen, "%s:%d:1: %s", path, lineno, bad);
	free(text);
	free(path);
	return bad != NULL ? -1 : 0;
}

void
flaghist_free(struct flag_history *fh)
{
	if (fh == NULL)
		return;
	free(fh->e);
	free(fh->releases);
	free(fh->inv);
	free(fh->inv_rel);
	free(fh->commits);
	free(fh);
}

const struct flag_hist *
flaghist_find(const struct catalog *cat, const char *flag)
{
	size_t	i;

	if (cat->hist == NULL || flag == NULL)
		return NULL;
	for (i = 0; i < cat->hist->n; i++)
		if (strcmp(cat->hist->e[i].flag, flag) == 0)
			return &cat->hist->e[i];
	return NULL;
}

int
rule_range_parse(const struct flag_history *fh, const struct ynode *rule,
    const char *file, struct rule *r, char *err, size_t errlen)
{
	struct hctx	h = { file, err, errlen, fh };
	sgver_t		lo;

	if (release(&h, rule, "since", &r->since) != 0 ||
	    release(&h, rule, "after", &r->newer_than) != 0 ||
	    release(&h, rule, "until", &r->until) != 0)
		return -1;
	if (r->since != SGVER_UNKNOWN && r->newer_than != SGVER_UNKNOWN) {
		ynode_err(err, errlen, file, ynode_get(rule, "after"),
		    "give 'since' or 'after', not both");
		return -1;
	}
	lo = r->since > r->newer_than ? r->since : r->newer_than;
	if (lo != SGVER_UNKNOWN && r->until != SGVER_UNKNOWN &&
	    r->until <= lo) {
		ynode_err(err, errlen, file, ynode_get(rule, "until"),
		    "'until' must be a later release than 'since' or 'after'");
		return -1;
	}
	return 0;
}

bool
rule_in_range(const struct rule *r, sgver_t v)
{
	if (v == SGVER_UNKNOWN)
		return true;
	return (r->since == SGVER_UNKNOWN || v >= r->since) &&
	    (r->newer_than == SGVER_UNKNOWN || v > r->newer_than) &&
	    (r->until == SGVER_UNKNOWN || v < r->until);
}

/* ", removed in 0.5.4.post1" and the like, for the releases h gives. */
static void
milestones(struct buf *b, const struct flag_hist *h)
{
	char	v[SGVER_TEXT_MAX];
	bool	any = false;

	if (h->deprecated) {
		buf_printf(b, " (deprecated in SGLang %s", sgver_format(h->deprecated,
		    v, sizeof v));
		any = true;
	}
	if (h->rejected) {
		buf_printf(b, "%srejected from %s%s", any ? ", " : " (",
		    any ? "" : "SGLang ",
		    sgver_format(h->rejected, v, sizeof v));
		any = true;
	}
	if (h->removed) {
		buf_printf(b, "%sremoved in %s%s", any ? ", " : " (",
		    any ? "" : "SGLang ",
		    sgver_format(h->removed, v, sizeof v));
		any = true;
	}
	if (any)
		buf_putc(b, ')');
}

char *
flaghist_advice(const struct flag_hist *h, sgver_t v)
{
	struct buf	b = { 0 };
	char		vs[SGVER_TEXT_MAX], is[SGVER_TEXT_MAX];

	if (v != SGVER_UNKNOWN && h->introduced != SGVER_UNKNOWN &&
	    v < h->introduced) {
		buf_printf(&b, "%s was added in SGLang %s; SGLang %s does not "
		    "have it", h->flag, sgver_format(h->introduced, is,
		    sizeof is), sgver_format(v, vs, sizeof vs));
		if (h->cite_introduced != NULL)
			buf_printf(&b, " [%s]", h->cite_introduced);
		return buf_steal(&b);
	} else if (h->replaced_by != NULL) {
		buf_printf(&b, "%s was replaced by %s", h->flag,
		    h->replaced_by);
		milestones(&b, h);
	} else if (h->removed || h->rejected) {
		buf_printf(&b, "%s is gone from SGLang", h->flag);
		milestones(&b, h);
		if (h->note != NULL)
			buf_printf(&b, "; %s", h->note);
	} else {
		buf_printf(&b, "%s is not in the SGLang this catalog models",
		    h->flag);
		if (h->note != NULL)
			buf_printf(&b, " (%s)", h->note);
	}
	if (h->cite != NULL)
		buf_printf(&b, " [%s]", h->cite);
	return buf_steal(&b);
}

enum flag_state
flaghist_state(const struct flag_hist *h, sgver_t v)
{
	if (v == SGVER_UNKNOWN)
		return FS_UNKNOWN;
	if (h->removed && v >= h->removed)
		return FS_ABSENT;
	if (h->introduced && v < h->introduced)
		return FS_ABSENT;
	if (h->rejected && v >= h->rejected)
		return FS_REJECTED;
	if (h->introduced || h->removed || h->rejected)
		return FS_ACCEPTED;
	return FS_UNKNOWN;
}
