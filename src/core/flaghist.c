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
	const char	*file;
	char		*err;
	size_t		 errlen;
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
	if ((*out = sgver_parse(s, why, sizeof why)) == SGVER_UNKNOWN) {
		ynode_err(h->err, h->errlen, h->file, ynode_get(map, key),
		    "%s: %s", key, why);
		return -1;
	}
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
	if (fh == NULL || fh->nreleases == 0 || v == SGVER_UNKNOWN)
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
		"entries", NULL };
	const struct ynode	*es = ynode_get(root, "entries");
	size_t			 i, j;

	if (root->kind != YN_MAP || ynode_check_keys(root, keys, h->file,
	    h->err, h->errlen) != 0 ||
	    release(h, root, "sglang_version", &fh->sglang_version) ||
	    release(h, root, "sglang_newer_than", &fh->newer_than) ||
	    releases(h, ynode_get(root, "releases"), fh))
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

int
flaghist_attach(struct catalog *cat, const char *datadir, char *err,
    size_t errlen)
{
	char			*p = xasprintf("%s/rules/flag-history.yaml",
	    datadir);
	struct stat		 st;
	struct ynode		*root;
	struct flag_history	*fh;
	struct hctx		 h = { NULL, err, errlen };
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
	rc = load(&h, root, fh);
	ynode_free(root);
	if (rc != 0) {
		flaghist_free(fh);
		return -1;
	}
	flaghist_free(cat->hist);
	cat->hist = fh;
	return 0;
}

void
flaghist_free(struct flag_history *fh)
{
	if (fh == NULL)
		return;
	free(fh->e);
	free(fh->releases);
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
rule_range_parse(const struct ynode *rule, const char *file, struct rule *r,
    char *err, size_t errlen)
{
	struct hctx	h = { file, err, errlen };
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
