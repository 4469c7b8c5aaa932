/*
 * catimg.c - the compiled catalog: a loaded catalog written as one
 * relocatable image (imgw.h), and mapped back at startup instead of
 * parsing the YAML in rules/.
 *
 * The file is a header, the objects in their native layout with pointers
 * as they are when the file is mapped at IMG_BASE (the expressions of the
 * rules and of the deployment rules each in a region of their own,
 * imgw.h), a relocation list, the table of its strings (adopted by
 * intern()), and the list of the YAML files it was compiled from with the
 * size and hash of each, and nothing else: no time, no path of the data
 * directory, so that the same sources give the same bytes (a reproducible
 * build). An image is used only when everything agrees: magic, format,
 * the build of pdwiz that wrote it, its checksum, every relocation in
 * bounds, and the same source files with the same contents (how closely
 * that is checked: catimg.h, enum catimg_trust).
 * The checksum tells damage, not intent: past it the image is read as
 * untrusted input, and every count, offset, pointer and string of the
 * catalog is checked against the mapping (and every index, kind and
 * expression against what catalog_load would have made) before anything
 * uses it. Otherwise the caller reads the YAML and is told why.
 *
 * Mapped where it was written for (IMG_BASE, free in every process of a
 * 64-bit Linux unless something else took it), the image is used as it
 * is, read-only and shared with the page cache: nothing is relocated or
 * copied on write. Anywhere else it is relocated in a private mapping.
 */
#define _POSIX_C_SOURCE 200809L
#include "catimg.h"
#include "expr.h"
#include "imgw.h"
#include "role.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#ifndef PDWIZ_SRC_ID
#define PDWIZ_SRC_ID ""
#endif

#define IMG_MAGIC	"PDWZCAT"
#define IMG_VERSION	9
#if UINTPTR_MAX == 0xffffffffffffffffu && defined(MAP_FIXED_NOREPLACE)
#define IMG_BASE	UINT64_C(0x3e0000000000)
#else
#define IMG_BASE	UINT64_C(0)	/* always relocated */
#endif
#define IMG_MAX		(64u * 1024 * 1024)
#define SRC_MAX		(8u * 1024 * 1024)
#define OPTS_MAX	100000	/* as catalog_load allows */

/* Every field of these is written below by name: a new field must be. */
#if UINTPTR_MAX == 0xffffffffffffffffu
_Static_assert(sizeof(struct option) == 128, "catimg: update put_option");
_Static_assert(sizeof(struct rule) == 216, "catimg: update put_rule");
_Static_assert(sizeof(struct fix) == 32, "catimg: update put_fixes");
_Static_assert(sizeof(struct model_entry) == 32, "catimg: update put_models");
_Static_assert(sizeof(struct commit_ref) == 24, "catimg: update put_commits");
_Static_assert(sizeof(struct catalog) == 240, "catimg: update put_catalog");
_Static_assert(sizeof(struct model_family) == 40, "catimg: update put_families");
#endif

struct img_hdr {
	char		magic[8];
	uint32_t	version;
	uint32_t	ptrsize;
	char		srcid[32];	/* the build of pdwiz that wrote it */
	uint64_t	size;		/* of the whole file */
	uint64_t	sum;		/* of every byte after the header */
	uint64_t	cat;		/* the struct catalog */
	uint64_t	relocs, nrelocs;	/* uint64_t offsets of pointers */
	uint64_t	strtab, strcap;		/* uint32_t string offsets */
	uint64_t	srcs, nsrcs;		/* struct img_src */
	struct img_exprs exprs[2];	/* of the rules, of the deployment
					 * rules (imgw.h) */
};

struct img_src {
	uint64_t	path;		/* offset of its path below datadir */
	uint64_t	size;
	uint64_t	hash;		/* of its contents */
};

/* ---- checksums ---- */

/*
 * Eight lanes of 64-bit sums over 64-byte blocks, each lane also folded
 * into a running sum of its sums (Fletcher's, so that a block moved, or
 * two swapped, changes the result); then the sixteen sums and the tail
 * mixed in. Cheap enough to run over the whole image at every start (the
 * loop is 4 loads and 8 adds of two lanes each per block), and good at
 * what it is for: a truncated, overwritten or shuffled file. Not against
 * intent: what it covers is checked past it as untrusted input.
 */
typedef uint64_t	u64x2 __attribute__((vector_size(16)));

static uint64_t
sum64(const unsigned char *p, size_t n)
{
	u64x2		s0 = { 0 }, s1 = { 0 }, s2 = { 0 }, s3 = { 0 };
	u64x2		t0 = { 0 }, t1 = { 0 }, t2 = { 0 }, t3 = { 0 };
	uint64_t	r = 0x9e3779b97f4a7c15u, v[16];
	size_t		i = 0, j;

	for (; i + 64 <= n; i += 64) {
		u64x2	w0, w1, w2, w3;

		memcpy(&w0, p + i, sizeof w0);
		memcpy(&w1, p + i + 16, sizeof w1);
		memcpy(&w2, p + i + 32, sizeof w2);
		memcpy(&w3, p + i + 48, sizeof w3);
		s0 += w0;
		s1 += w1;
		s2 += w2;
		s3 += w3;
		t0 += s0;
		t1 += s1;
		t2 += s2;
		t3 += s3;
	}
	memcpy(v, &s0, 16);
	memcpy(v + 2, &s1, 16);
	memcpy(v + 4, &s2, 16);
	memcpy(v + 6, &s3, 16);
	memcpy(v + 8, &t0, 16);
	memcpy(v + 10, &t1, 16);
	memcpy(v + 12, &t2, 16);
	memcpy(v + 14, &t3, 16);
	for (j = 0; j < 16; j++)
		r = (r ^ v[j]) * 0x100000001b3u;
	for (; i < n; i++)
		r = (r ^ p[i]) * 0x100000001b3u;
	return r ^ n;
}

/* ---- the source files ---- */

static int
cmp_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/*
 * The source files are looked at below the data directory opened once
 * (dfd, -1 when it cannot be: then none is there), by paths relative to
 * it: each stat walks rules/NAME, not the whole path from / again.
 */
static int
open_datadir(const char *datadir)
{
	return open(datadir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
}

static void
list_dir(int dfd, const char *sub, char ***v, size_t *n)
{
	int		 fd = openat(dfd, sub, O_RDONLY | O_DIRECTORY |
			    O_CLOEXEC);
	DIR		*d = fd >= 0 ? fdopendir(fd) : NULL;
	struct dirent	*de;
	size_t		 first = *n;

	if (d == NULL) {
		if (fd >= 0)
			close(fd);
		return;
	}
	while ((de = readdir(d)) != NULL) {
		size_t	len = strlen(de->d_name);

		if (len > 5 && strcmp(de->d_name + len - 5, ".yaml") == 0 &&
		    de->d_name[0] != '.') {
			*v = xreallocarray(*v, *n + 1, sizeof **v);
			(*v)[(*n)++] = xasprintf("%s/%s", sub, de->d_name);
		}
	}
	closedir(d);
	sort_items(*v + first, *n - first, sizeof **v, cmp_name);
}

/* The files catalog_load reads, below the data directory dfd, in its
 * order. */
static char **
list_sources(int dfd, size_t *n)
{
	char		**v = xcalloc(2, sizeof *v);
	struct stat	  st;

	v[0] = xstrdup("rules/options.yaml");
	v[1] = xstrdup("rules/models.yaml");
	*n = 2;
	if (fstatat(dfd, "rules/flag-history.yaml", &st, 0) == 0) {
		v = xreallocarray(v, *n + 1, sizeof *v);
		v[(*n)++] = xstrdup("rules/flag-history.yaml");
		if (fstatat(dfd, "rules/flag-inventory.tsv", &st, 0) == 0) {
			v = xreallocarray(v, *n + 1, sizeof *v);
			v[(*n)++] = xstrdup("rules/flag-inventory.tsv");
		}
	}
	list_dir(dfd, "rules/checks", &v, n);
	list_dir(dfd, "rules/deploy", &v, n);
	if (fstatat(dfd, "rules/rule-since.tsv", &st, 0) == 0) {
		v = xreallocarray(v, *n + 1, sizeof *v);
		v[(*n)++] = xstrdup("rules/rule-since.tsv");
	}
	return v;
}

static void
free_list(char **v, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

/* Size and contents hash of datadir/rel; -1 when it cannot be read. */
static int
hash_source(const char *datadir, const char *rel, struct img_src *out)
{
	char		*p = xasprintf("%s/%s", datadir, rel), err[256];
	size_t		 len;
	char		*text = read_file(p, SRC_MAX, &len, err, sizeof err);

	free(p);
	if (text == NULL)
		return -1;
	out->size = len;
	out->hash = sum64((const unsigned char *)text, len);
	free(text);
	return 0;
}

/* Is a older than b? */
static bool
older(const struct timespec *a, const struct timespec *b)
{
	return a->tv_sec < b->tv_sec || (a->tv_sec == b->tv_sec &&
	    a->tv_nsec < b->tv_nsec);
}

/*
 * Is datadir/rel still what s describes? Its size first, at the cost of a
 * stat. Then, for an image beside its sources, its contents, unless the
 * file is older than the image (make's rule: written before the image
 * was, so the image was compiled from it); a file as new as the image or
 * newer (an edit, a checkout, a touch, a copy) is hashed. An installed
 * image is not hashed against: its sizes must agree, no more.
 */
static bool
source_same(const char *datadir, int dfd, const char *rel,
    const struct img_src *s, enum catimg_trust trust,
    const struct timespec *img_mtime)
{
	struct stat	 st;
	struct img_src	 now;

	if (fstatat(dfd, rel, &st, 0) != 0 || (uint64_t)st.st_size != s->size)
		return false;
	if (trust == CATIMG_INSTALLED || older(&st.st_mtim, img_mtime))
		return true;
	return hash_source(datadir, rel, &now) == 0 && now.size == s->size &&
	    now.hash == s->hash;
}

/* ---- the writer ---- */

struct imgw {
	unsigned char	*b;
	size_t		 len, cap;
	uint64_t	*rel;
	size_t		 nrel, relcap;
	uint32_t	*st;		/* strings: str_hash & (stcap - 1) */
	size_t		 stn, stcap;
	/* Expressions to write with the next region (imgw_expr). */
	size_t		*xfield;
	const struct expr **xroot;
	size_t		 nx, xcap;
};

size_t
imgw_alloc(struct imgw *w, size_t n)
{
	size_t	off = (w->len + 7) & ~(size_t)7;

	if (off + n > w->cap) {
		size_t	ncap = w->cap ? w->cap : 65536;

		while (ncap < off + n)
			ncap *= 2;
		w->b = xrealloc(w->b, ncap);
		w->cap = ncap;
	}
	memset(w->b + w->len, 0, off + n - w->len);
	w->len = off + n;
	return off;
}

size_t
imgw_copy(struct imgw *w, const void *src, size_t n)
{
	size_t	off = imgw_alloc(w, n);

	memcpy(w->b + off, src, n);
	return off;
}

void *
imgw_at(struct imgw *w, size_t off)
{
	return w->b + off;
}

void
imgw_ptr(struct imgw *w, size_t field, size_t target)
{
	uint64_t	v = target;

	memcpy(w->b + field, &v, sizeof v);
	if (target == 0)
		return;
	if (w->nrel == w->relcap) {
		w->relcap = w->relcap ? w->relcap * 2 : 4096;
		w->rel = xreallocarray(w->rel, w->relcap, sizeof *w->rel);
	}
	w->rel[w->nrel++] = field;
}

void
imgw_expr(struct imgw *w, size_t field, const struct expr *e)
{
	if (e == NULL)
		return;
	if (w->nx == w->xcap) {
		w->xcap = w->xcap ? w->xcap * 2 : 1024;
		w->xfield = xreallocarray(w->xfield, w->xcap,
		    sizeof *w->xfield);
		w->xroot = xreallocarray(w->xroot, w->xcap, sizeof *w->xroot);
	}
	w->xfield[w->nx] = field;
	w->xroot[w->nx++] = e;
}

void
imgw_exprs(struct imgw *w, struct img_exprs *x)
{
	expr_region_to_image(w, w->xfield, w->xroot, w->nx, x);
	w->nx = 0;
}

static void
st_grow(struct imgw *w)
{
	size_t		 ncap = w->stcap ? w->stcap * 2 : 4096, i;
	uint32_t	*nt = xcalloc(ncap, sizeof *nt);

	for (i = 0; i < w->stcap; i++) {
		if (w->st[i] != 0) {
			const char	*s = (const char *)w->b + w->st[i];
			size_t		 j = str_hash(s, strlen(s)) & (ncap - 1);

			while (nt[j] != 0)
				j = (j + 1) & (ncap - 1);
			nt[j] = w->st[i];
		}
	}
	free(w->st);
	w->st = nt;
	w->stcap = ncap;
}

size_t
imgw_str(struct imgw *w, const char *s)
{
	size_t	n, i, off;

	if (s == NULL)
		return 0;
	n = strlen(s);
	if ((w->stn + 1) * 2 > w->stcap)
		st_grow(w);
	for (i = str_hash(s, n) & (w->stcap - 1); w->st[i] != 0;
	    i = (i + 1) & (w->stcap - 1))
		if (strcmp((const char *)w->b + w->st[i], s) == 0)
			return w->st[i];
	off = imgw_copy(w, s, n + 1);
	w->st[i] = (uint32_t)off;
	w->stn++;
	return off;
}

void
imgw_value(struct imgw *w, size_t off, struct value v)
{
	struct value	c;

	memset(&c, 0, sizeof c);
	c.t = v.t;
	if (v.t == V_STR || v.t == V_LIST) {
		memcpy(w->b + off, &c, sizeof c);
		imgw_ptr(w, off + offsetof(struct value, u.s),
		    imgw_str(w, v.u.s));
		return;
	}
	if (v.t == V_BOOL)
		c.u.b = v.u.b;
	else if (v.t == V_INT)
		c.u.i = v.u.i;
	else if (v.t == V_FLOAT)
		c.u.f = v.u.f;
	memcpy(w->b + off, &c, sizeof c);
}

size_t
imgw_ints(struct imgw *w, const int *v, size_t n)
{
	return n > 0 ? imgw_copy(w, v, n * sizeof *v) : 0;
}

static size_t
put_strs(struct imgw *w, const char *const *v, size_t n)
{
	size_t	off, i;

	if (n == 0)
		return 0;
	off = imgw_alloc(w, n * sizeof *v);
	for (i = 0; i < n; i++)
		imgw_ptr(w, off + i * sizeof *v, imgw_str(w, v[i]));
	return off;
}

static size_t
put_values(struct imgw *w, const struct value *v, size_t n)
{
	size_t	off, i;

	if (n == 0)
		return 0;
	off = imgw_alloc(w, n * sizeof *v);
	for (i = 0; i < n; i++)
		imgw_value(w, off + i * sizeof *v, v[i]);
	return off;
}

#define PTR(base, type, field, target) \
	imgw_ptr(w, (base) + offsetof(type, field), (target))

static size_t
put_options(struct imgw *w, const struct option *v, size_t n)
{
	size_t	arr = n ? imgw_alloc(w, n * sizeof *v) : 0, i;

	for (i = 0; i < n; i++) {
		const struct option	*o = &v[i];
		size_t			 off = arr + i * sizeof *v;
		struct option		 c;

		memset(&c, 0, sizeof c);
		c.kind = o->kind;
		c.type = o->type;
		c.naliases = o->naliases;
		c.nchoices = o->nchoices;
		c.config_ok = o->config_ok;
		c.modelled = o->modelled;
		c.line = o->line;
		c.group = o->group;
		memcpy(imgw_at(w, off), &c, sizeof c);
		PTR(off, struct option, name, imgw_str(w, o->name));
		PTR(off, struct option, flag, imgw_str(w, o->flag));
		PTR(off, struct option, aliases,
		    put_strs(w, o->aliases, o->naliases));
		imgw_value(w, off + offsetof(struct option, def), o->def);
		PTR(off, struct option, choices,
		    put_strs(w, o->choices, o->nchoices));
		PTR(off, struct option, help, imgw_str(w, o->help));
		PTR(off, struct option, note, imgw_str(w, o->note));
		PTR(off, struct option, deprecated,
		    imgw_str(w, o->deprecated));
		PTR(off, struct option, label, imgw_str(w, o->label));
		PTR(off, struct option, hint, imgw_str(w, o->hint));
	}
	return arr;
}

static size_t
put_fixes(struct imgw *w, const struct fix *v, size_t n)
{
	size_t	arr = n ? imgw_alloc(w, n * sizeof *v) : 0, i;

	for (i = 0; i < n; i++) {
		size_t		off = arr + i * sizeof *v;
		struct fix	c;

		memset(&c, 0, sizeof c);
		c.n = v[i].n;
		memcpy(imgw_at(w, off), &c, sizeof c);
		PTR(off, struct fix, label, imgw_str(w, v[i].label));
		PTR(off, struct fix, opt, imgw_ints(w, v[i].opt, v[i].n));
		PTR(off, struct fix, val, put_values(w, v[i].val, v[i].n));
	}
	return arr;
}

static size_t
put_assigns(struct imgw *w, const struct assign *v, size_t n)
{
	size_t	arr = n ? imgw_alloc(w, n * sizeof *v) : 0, i;

	for (i = 0; i < n; i++) {
		size_t		off = arr + i * sizeof *v;
		struct assign	c;

		memset(&c, 0, sizeof c);
		c.opt = v[i].opt;
		memcpy(imgw_at(w, off), &c, sizeof c);
		imgw_expr(w, off + offsetof(struct assign, e), v[i].e);
	}
	return arr;
}

/* A rule's file is kept below datadir, made whole again when loaded. */
static const char *
rel_path(const char *datadir, const char *path)
{
	size_t	n = strlen(datadir);

	if (path != NULL && strncmp(path, datadir, n) == 0 && path[n] == '/')
		return path + n + 1;
	return path;
}

/* The rules v[0..n), and then the region of their expressions in *x. */
static size_t
put_rules(struct imgw *w, const struct rule *v, size_t n,
    const char *datadir, struct img_exprs *x)
{
	size_t	arr = n ? imgw_alloc(w, n * sizeof *v) : 0, i;

	for (i = 0; i < n; i++) {
		const struct rule	*r = &v[i];
		size_t			 off = arr + i * sizeof *v;
		struct rule		 c;

		memset(&c, 0, sizeof c);
		c.sev = r->sev;
		c.stage = r->stage;
		c.deploy = r->deploy;
		c.silent = r->silent;
		c.own_words = r->own_words;
		c.nfixes = r->nfixes;
		c.nset = r->nset;
		c.nsetdefault = r->nsetdefault;
		c.line = r->line;
		c.nreads = r->nreads;
		c.since = r->since;
		c.until = r->until;
		c.newer_than = r->newer_than;
		memcpy(imgw_at(w, off), &c, sizeof c);
		PTR(off, struct rule, id, imgw_str(w, r->id));
		PTR(off, struct rule, kind, imgw_str(w, r->kind));
		imgw_expr(w, off + offsetof(struct rule, when), r->when);
		PTR(off, struct rule, when_src, imgw_str(w, r->when_src));
		PTR(off, struct rule, message, tmpl_to_image(w, r->message));
		PTR(off, struct rule, message_src,
		    imgw_str(w, r->message_src));
		PTR(off, struct rule, explain, imgw_str(w, r->explain));
		PTR(off, struct rule, fixes, put_fixes(w, r->fixes, r->nfixes));
		PTR(off, struct rule, set, put_assigns(w, r->set, r->nset));
		PTR(off, struct rule, setdefault,
		    put_assigns(w, r->setdefault, r->nsetdefault));
		PTR(off, struct rule, before, imgw_str(w, r->before));
		PTR(off, struct rule, after, imgw_str(w, r->after));
		PTR(off, struct rule, src_file, imgw_str(w, r->src_file));
		PTR(off, struct rule, src_func, imgw_str(w, r->src_func));
		PTR(off, struct rule, src_commit, imgw_str(w, r->src_commit));
		PTR(off, struct rule, file,
		    imgw_str(w, rel_path(datadir, r->file)));
		PTR(off, struct rule, reads, imgw_ints(w, r->reads, r->nreads));
	}
	imgw_exprs(w, x);
	return arr;
}

static size_t
put_models(struct imgw *w, const struct model_entry *v, size_t n)
{
	size_t	arr = n ? imgw_alloc(w, n * sizeof *v) : 0, i;

	for (i = 0; i < n; i++) {
		size_t			off = arr + i * sizeof *v;
		struct model_entry	c;

		memset(&c, 0, sizeof c);
		c.n = v[i].n;
		memcpy(imgw_at(w, off), &c, sizeof c);
		PTR(off, struct model_entry, match, imgw_str(w, v[i].match));
		PTR(off, struct model_entry, opt,
		    imgw_ints(w, v[i].opt, v[i].n));
		PTR(off, struct model_entry, val,
		    put_values(w, v[i].val, v[i].n));
	}
	return arr;
}

static size_t
put_families(struct imgw *w, const struct model_family *v, size_t n)
{
	size_t	arr = n ? imgw_alloc(w, n * sizeof *v) : 0, i;

	for (i = 0; i < n; i++) {
		size_t			off = arr + i * sizeof *v;
		struct model_family	c;

		memset(&c, 0, sizeof c);
		c.nids = v[i].nids;
		c.narchs = v[i].narchs;
		memcpy(imgw_at(w, off), &c, sizeof c);
		PTR(off, struct model_family, name, imgw_str(w, v[i].name));
		PTR(off, struct model_family, ids,
		    put_strs(w, v[i].ids, v[i].nids));
		PTR(off, struct model_family, archs,
		    put_strs(w, v[i].archs, v[i].narchs));
	}
	return arr;
}

static size_t
put_commits(struct imgw *w, const struct commit_ref *v, size_t n)
{
	size_t	arr = n ? imgw_alloc(w, n * sizeof *v) : 0, i;

	for (i = 0; i < n; i++) {
		size_t	off = arr + i * sizeof *v;

		PTR(off, struct commit_ref, shortname,
		    imgw_str(w, v[i].shortname));
		PTR(off, struct commit_ref, path, imgw_str(w, v[i].path));
		PTR(off, struct commit_ref, commit, imgw_str(w, v[i].commit));
	}
	return arr;
}

/* The flag history (rules/flag-history.yaml), or 0 when there is none. */
static size_t
put_hist(struct imgw *w, const struct flag_history *fh)
{
	struct flag_history	h;
	size_t			off, arr, i;

	if (fh == NULL)
		return 0;
	memset(&h, 0, sizeof h);
	h.n = fh->n;
	h.sglang_version = fh->sglang_version;
	h.newer_than = fh->newer_than;
	h.nreleases = fh->nreleases;
	h.ninv = fh->ninv;
	h.ninv_rel = fh->ninv_rel;
	h.inv_main = fh->inv_main;
	h.ncommits = fh->ncommits;
	off = imgw_copy(w, &h, sizeof h);
	PTR(off, struct flag_history, inv_main_commit,
	    imgw_str(w, fh->inv_main_commit));
	arr = fh->ncommits ? imgw_alloc(w, fh->ncommits * sizeof *fh->commits) :
	    0;
	for (i = 0; i < fh->ncommits; i++) {
		const struct sg_commit	*e = &fh->commits[i];
		struct sg_commit	 c;
		size_t			 eo = arr + i * sizeof c;

		memset(&c, 0, sizeof c);
		c.after = e->after;
		c.v = e->v;
		memcpy(imgw_at(w, eo), &c, sizeof c);
		PTR(eo, struct sg_commit, name, imgw_str(w, e->name));
		PTR(eo, struct sg_commit, commit, imgw_str(w, e->commit));
		PTR(eo, struct sg_commit, date, imgw_str(w, e->date));
	}
	if (fh->ncommits > 0)
		PTR(off, struct flag_history, commits, arr);
	arr = fh->n ? imgw_alloc(w, fh->n * sizeof *fh->e) : 0;
	for (i = 0; i < fh->n; i++) {
		const struct flag_hist	*e = &fh->e[i];
		struct flag_hist	 c;
		size_t			 eo = arr + i * sizeof c;

		memset(&c, 0, sizeof c);
		c.module = e->module;
		c.takes_value = e->takes_value;
		c.introduced = e->introduced;
		c.deprecated = e->deprecated;
		c.rejected = e->rejected;
		c.removed = e->removed;
		c.line = e->line;
		memcpy(imgw_at(w, eo), &c, sizeof c);
		PTR(eo, struct flag_hist, flag, imgw_str(w, e->flag));
		PTR(eo, struct flag_hist, replaced_by,
		    imgw_str(w, e->replaced_by));
		PTR(eo, struct flag_hist, message, imgw_str(w, e->message));
		PTR(eo, struct flag_hist, note, imgw_str(w, e->note));
		PTR(eo, struct flag_hist, cite, imgw_str(w, e->cite));
		PTR(eo, struct flag_hist, cite_introduced,
		    imgw_str(w, e->cite_introduced));
	}
	PTR(off, struct flag_history, e, arr);
	if (fh->nreleases > 0)
		PTR(off, struct flag_history, releases, imgw_copy(w,
		    fh->releases, fh->nreleases * sizeof *fh->releases));
	if (fh->ninv_rel > 0)
		PTR(off, struct flag_history, inv_rel, imgw_copy(w,
		    fh->inv_rel, fh->ninv_rel * sizeof *fh->inv_rel));
	arr = fh->ninv ? imgw_alloc(w, fh->ninv * sizeof *fh->inv) : 0;
	for (i = 0; i < fh->ninv; i++) {
		const struct flag_inv	*e = &fh->inv[i];
		struct flag_inv		 c;
		size_t			 eo = arr + i * sizeof c;

		memset(&c, 0, sizeof c);
		c.lo = e->lo;
		c.hi = e->hi;
		c.nargs = e->nargs;
		memcpy(imgw_at(w, eo), &c, sizeof c);
		PTR(eo, struct flag_inv, flag, imgw_str(w, e->flag));
		PTR(eo, struct flag_inv, dest, imgw_str(w, e->dest));
		PTR(eo, struct flag_inv, dflt, imgw_str(w, e->dflt));
		PTR(eo, struct flag_inv, choices, imgw_str(w, e->choices));
	}
	if (fh->ninv > 0)
		PTR(off, struct flag_history, inv, arr);
	return off;
}

static size_t
put_catalog(struct imgw *w, const struct catalog *cat, const char *datadir,
    struct img_exprs x[2])
{
	struct catalog	c;
	size_t		off;

	memset(&c, 0, sizeof c);
	c.nopts = cat->nopts;
	c.nrules = cat->nrules;
	c.ndrules = cat->ndrules;
	c.nmodels = cat->nmodels;
	c.ncommits = cat->ncommits;
	c.hcap = cat->hcap;
	c.fcap = cat->fcap;
	c.nflags = cat->nflags;
	c.nroles = cat->nroles;
	c.nfamilies = cat->nfamilies;
	c.o_arch = cat->o_arch;
	c.o_family = cat->o_family;
	c.ngroups = cat->ngroups;
	/* fit, fit_err, memo, defaults: made on first use
	 * (catalog_fit_db, catalog_model_facts, config_init), never
	 * stored */
	off = imgw_copy(w, &c, sizeof c);
	PTR(off, struct catalog, opts, put_options(w, cat->opts, cat->nopts));
	PTR(off, struct catalog, rules,
	    put_rules(w, cat->rules, cat->nrules, datadir, &x[0]));
	PTR(off, struct catalog, drules,
	    put_rules(w, cat->drules, cat->ndrules, datadir, &x[1]));
	PTR(off, struct catalog, models,
	    put_models(w, cat->models, cat->nmodels));
	PTR(off, struct catalog, commits,
	    put_commits(w, cat->commits, cat->ncommits));
	PTR(off, struct catalog, hash, imgw_ints(w, cat->hash, cat->hcap));
	PTR(off, struct catalog, fhash, imgw_ints(w, cat->fhash, cat->fcap));
	PTR(off, struct catalog, hist, put_hist(w, cat->hist));
	PTR(off, struct catalog, families,
	    put_families(w, cat->families, cat->nfamilies));
	PTR(off, struct catalog, groups,
	    put_strs(w, cat->groups, cat->ngroups));
	return off;
}

static void
imgw_free(struct imgw *w)
{
	free(w->b);
	free(w->rel);
	free(w->st);
	free(w->xfield);
	free(w->xroot);
}

static int
fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

/* The whole image of cat in w; -1 when a source cannot be read. */
static int
build(struct imgw *w, const struct catalog *cat, const char *datadir,
    char *err, size_t errlen)
{
	struct img_hdr	 h;
	char		**srcs;
	size_t		  nsrcs, i, soff, roff, stoff;
	int		  dfd;

	memset(w, 0, sizeof *w);
	imgw_alloc(w, sizeof h);
	memset(&h, 0, sizeof h);
	memcpy(h.magic, IMG_MAGIC, sizeof IMG_MAGIC);
	h.version = IMG_VERSION;
	h.ptrsize = sizeof(void *);
	snprintf(h.srcid, sizeof h.srcid, "%s", PDWIZ_SRC_ID);
	h.cat = put_catalog(w, cat, datadir, h.exprs);
	if ((dfd = open_datadir(datadir)) < 0)
		return fail(err, errlen, "%s: %s", datadir, strerror(errno));
	srcs = list_sources(dfd, &nsrcs);
	close(dfd);
	soff = imgw_alloc(w, nsrcs * sizeof(struct img_src));
	for (i = 0; i < nsrcs; i++) {
		struct img_src	s;

		memset(&s, 0, sizeof s);
		if (hash_source(datadir, srcs[i], &s) != 0) {
			fail(err, errlen, "%s/%s: cannot read", datadir,
			    srcs[i]);
			free_list(srcs, nsrcs);
			return -1;
		}
		s.path = imgw_str(w, srcs[i]);
		memcpy(imgw_at(w, soff + i * sizeof s), &s, sizeof s);
	}
	free_list(srcs, nsrcs);
	h.srcs = soff;
	h.nsrcs = nsrcs;
	/* No strings after this point: the table is final. */
	stoff = imgw_copy(w, w->st, w->stcap * sizeof *w->st);
	h.strtab = stoff;
	h.strcap = w->stcap;
	roff = imgw_copy(w, w->rel, w->nrel * sizeof *w->rel);
	h.relocs = roff;
	h.nrelocs = w->nrel;
	for (i = 0; i < w->nrel; i++) {	/* as mapped at IMG_BASE */
		uint64_t	v;

		memcpy(&v, w->b + w->rel[i], sizeof v);
		v += IMG_BASE;
		memcpy(w->b + w->rel[i], &v, sizeof v);
	}
	h.size = w->len;
	h.sum = sum64(w->b + sizeof h, w->len - sizeof h);
	memcpy(w->b, &h, sizeof h);
	return 0;
}

/* ---- the loader ---- */

struct mapped {
	unsigned char	*base;
	size_t		 size;
	char		*path;
	bool		 adopted;
	struct timespec	 mtime;		/* of the image file */
	struct stat	 st;		/* the file's identity, when mapped */
};

/* An adopted image stays mapped: intern() hands out its strings. */
static struct mapped	live;

/* Check the header and relocate base[0..size) in place; NULL or why not. */
static const char *
relocate(unsigned char *base, size_t size)
{
	struct img_hdr	 h;
	uint64_t	*rel, delta, fspan, tspan;
	size_t		 i;
	bool		 moved;

	if (size < sizeof h)
		return "shorter than its header";
	memcpy(&h, base, sizeof h);
	if (memcmp(h.magic, IMG_MAGIC, sizeof IMG_MAGIC) != 0)
		return "not a pdwiz catalog image";
	if (h.version != IMG_VERSION || h.ptrsize != sizeof(void *))
		return "written in another format";
	if (PDWIZ_SRC_ID[0] == '\0' || strncmp(h.srcid, PDWIZ_SRC_ID,
	    sizeof h.srcid) != 0)
		return "written by another build of pdwiz";
	if (h.size != size)
		return "damaged (its size is wrong)";
	if (sum64(base + sizeof h, size - sizeof h) != h.sum)
		return "damaged (its checksum is wrong)";
	if ((uintptr_t)base % 8 != 0)
		return "not aligned in memory";
	/* No sum of an offset and a length: either could be anything. */
	if (h.relocs % 8 != 0 || h.relocs < sizeof h || h.relocs > size ||
	    h.nrelocs > (size - h.relocs) / 8 || h.strtab % 8 != 0 ||
	    h.strtab < sizeof h || h.strtab > size ||
	    h.strcap > (size - h.strtab) / 4 || h.srcs % 8 != 0 ||
	    h.srcs < sizeof h || h.srcs > size || h.nsrcs > (size - h.srcs) /
	    sizeof(struct img_src) || h.cat % 8 != 0 || h.cat < sizeof h ||
	    h.cat > size || size - h.cat < sizeof(struct catalog))
		return "damaged (a table is out of bounds)";
	/* Where it was written for, its pointers are what they say: each is
	 * checked as a relocation would be, and nothing is written. */
	moved = (uint64_t)(uintptr_t)base != IMG_BASE;
	delta = (uint64_t)(uintptr_t)base - IMG_BASE;
	rel = (uint64_t *)(void *)(base + h.relocs);
	/* One compare a bound: below its lower bound, f - sizeof h and
	 * t - (IMG_BASE + sizeof h) wrap to more than any span. A relocation
	 * means size >= sizeof h + 8 (relocs >= sizeof h, above), so the
	 * spans do not wrap. */
	fspan = size - sizeof h - 7;	/* sizeof h <= f <= size - 8 */
	tspan = size - sizeof h;	/* sizeof h <= t - IMG_BASE < size */
	for (i = 0; i < h.nrelocs; i++) {
		uint64_t	f = rel[i], t;

		if ((f & 7) != 0 || f - sizeof h >= fspan)
			return "damaged (a relocation is out of bounds)";
		memcpy(&t, base + f, sizeof t);
		if (t - (IMG_BASE + sizeof h) >= tspan)
			return "damaged (a pointer is out of bounds)";
		if (moved) {
			t += delta;
			memcpy(base + f, &t, sizeof t);
		}
	}
	return NULL;
}

/* ---- checking what an image holds ---- */

bool
imgr_slot(const struct imgr *r, int slot)
{
	if (slot < 0 || (size_t)slot >= r->nslots)
		return false;
	/* A per-server rule reads no deployment fact (resolve_name). */
	return r->deploy || r->cat->opts[slot].kind != OK_DEPLOY;
}

/* A value of option o (what yaml_value makes of it), or null. */
static bool
value_of(struct imgr *r, const struct value *v, const struct option *o)
{
	if (!imgr_value(r, v))
		return false;
	switch (v->t) {
	case V_NULL:
		return true;
	case V_BOOL:
		return o->type == T_BOOL || o->type == T_BOOLOPT;
	case V_INT:
		return o->type == T_INT;
	case V_FLOAT:
		return o->type == T_FLOAT;
	case V_STR:
		return o->type == T_STR;
	case V_LIST:
		return o->type == T_LIST;
	case V_UNKNOWN:
		break;
	}
	return false;
}

static bool
check_strs(struct imgr *r, const char *const *v, size_t n)
{
	size_t	i;

	if (!imgr_array(r, v, n, sizeof *v, _Alignof(const char *)))
		return false;
	for (i = 0; i < n; i++)
		if (!imgr_str(r, v[i], false))
			return false;
	return true;
}

static bool
check_option(struct imgr *r, const struct option *o)
{
	if (!imgr_str(r, o->name, false) || (unsigned)o->kind > OK_DEPLOY ||
	    (unsigned)o->type > T_LIST ||
	    !imgr_str(r, o->flag, o->kind != OK_FLAG) || o->naliases >= 63 ||
	    !check_strs(r, o->aliases, o->naliases) ||
	    !check_strs(r, o->choices, o->nchoices) ||
	    !imgr_str(r, o->help, true) || !imgr_str(r, o->note, true) ||
	    !imgr_str(r, o->deprecated, true) ||
	    !imgr_str(r, o->label, true) || !imgr_str(r, o->hint, true) ||
	    !imgr_bool(&o->config_ok) || !imgr_bool(&o->modelled))
		return false;
	if (o->def.t == V_UNKNOWN)
		return o->kind == OK_FACT;
	return value_of(r, &o->def, o);
}

/*
 * A name (flags: flag spelling) table of cap entries: a power of two with
 * a free entry, so that every search ends; each entry an option (flags:
 * option * 64 + 0 for its flag, n for its alias n), or negative.
 */
static bool
check_table(struct imgr *r, const int *t, size_t cap, bool flags)
{
	const struct catalog	*cat = r->cat;
	size_t			 i, o, a;
	bool			 free_entry = false;

	if (cap == 0)
		return t == NULL;
	if ((cap & (cap - 1)) != 0 || !imgr_array(r, t, cap, sizeof *t,
	    _Alignof(int)))
		return false;
	for (i = 0; i < cap; i++) {
		if (t[i] < 0) {
			free_entry = true;
			continue;
		}
		o = flags ? (size_t)t[i] / 64 : (size_t)t[i];
		a = flags ? (size_t)t[i] % 64 : 0;
		if (o >= cat->nopts || a > cat->opts[o].naliases ||
		    (flags && a == 0 && cat->opts[o].flag == NULL))
			return false;
	}
	return free_entry;
}

/* A fix: its label, and values of the options its slots name. */
static bool
check_fix(struct imgr *r, const struct fix *f)
{
	size_t	i;

	if (!imgr_str(r, f->label, false) || f->n == 0 ||
	    !imgr_array(r, f->opt, f->n, sizeof *f->opt, _Alignof(int)) ||
	    !imgr_array(r, f->val, f->n, sizeof *f->val,
	    _Alignof(struct value)))
		return false;
	for (i = 0; i < f->n; i++)
		if (!imgr_slot(r, f->opt[i]) || !value_of(r, &f->val[i],
		    &r->cat->opts[(size_t)f->opt[i] % r->cat->nopts]))
			return false;
	return true;
}

static bool
check_assigns(struct imgr *r, const struct assign *v, size_t n)
{
	size_t	i;

	if (!imgr_array(r, v, n, sizeof *v, _Alignof(struct assign)))
		return false;
	for (i = 0; i < n; i++)
		if (!imgr_slot(r, v[i].opt) || v[i].e == NULL ||
		    !expr_image_ok(r, v[i].e))
			return false;
	return true;
}

static bool
check_rule(struct imgr *r, const struct rule *ru)
{
	size_t	i;

	if (!imgr_str(r, ru->id, false) || (unsigned)ru->sev > SEV_NOTE ||
	    ru->sev == SEV_UNKNOWN || (unsigned)ru->stage > ST_FIRST_REQUEST ||
	    !imgr_str(r, ru->kind, true) || !imgr_bool(&ru->deploy) ||
	    ru->deploy != r->deploy || !imgr_bool(&ru->silent) ||
	    !imgr_bool(&ru->own_words) ||
	    ru->when == NULL || !expr_image_ok(r, ru->when) ||
	    !imgr_str(r, ru->when_src, false) || ru->message == NULL ||
	    !tmpl_image_ok(r, ru->message) ||
	    !imgr_str(r, ru->message_src, false) ||
	    !imgr_str(r, ru->explain, true) || !imgr_str(r, ru->before, true) ||
	    !imgr_str(r, ru->after, true) || !imgr_str(r, ru->src_file, true) ||
	    !imgr_str(r, ru->src_func, true) ||
	    !imgr_str(r, ru->src_commit, true) ||
	    !imgr_str(r, ru->file, false) ||
	    !imgr_array(r, ru->fixes, ru->nfixes, sizeof *ru->fixes,
	    _Alignof(struct fix)) ||
	    (ru->sev != SEV_OVERRIDE && (ru->nset > 0 ||
	    ru->nsetdefault > 0)) ||
	    !check_assigns(r, ru->set, ru->nset) ||
	    !check_assigns(r, ru->setdefault, ru->nsetdefault) ||
	    !imgr_array(r, ru->reads, ru->nreads, sizeof *ru->reads,
	    _Alignof(int)))
		return false;
	for (i = 0; i < ru->nfixes; i++)
		if (!check_fix(r, &ru->fixes[i]))
			return false;
	for (i = 0; i < ru->nreads; i++)
		if (!imgr_slot(r, ru->reads[i]))
			return false;
	return true;
}

/* Per-server rules (deploy false) or deployment rules, x their
 * expressions. */
static bool
check_rules(struct imgr *r, const struct rule *v, size_t n, bool deploy,
    const struct img_exprs *x)
{
	size_t	i;

	/* A config's slot keeps the index of the rule that set it (short). */
	if (n > SHRT_MAX || !imgr_array(r, v, n, sizeof *v,
	    _Alignof(struct rule)))
		return false;
	r->deploy = deploy;
	r->nslots = deploy ? NSLOT_SCOPE * r->cat->nopts : r->cat->nopts;
	if (!expr_region_ok(r, x))
		return false;
	for (i = 0; i < n; i++)
		if (!check_rule(r, &v[i]))
			return false;
	return true;
}

static bool
check_models(struct imgr *r, const struct model_entry *v, size_t n)
{
	const struct catalog	*cat = r->cat;
	size_t			 i, j;

	if (!imgr_array(r, v, n, sizeof *v, _Alignof(struct model_entry)))
		return false;
	for (i = 0; i < n; i++) {
		if (!imgr_str(r, v[i].match, false) || !imgr_array(r, v[i].opt,
		    v[i].n, sizeof *v[i].opt, _Alignof(int)) ||
		    !imgr_array(r, v[i].val, v[i].n, sizeof *v[i].val,
		    _Alignof(struct value)))
			return false;
		for (j = 0; j < v[i].n; j++)
			if (v[i].opt[j] < 0 || (size_t)v[i].opt[j] >=
			    cat->nopts || cat->opts[v[i].opt[j]].kind !=
			    OK_FACT || !value_of(r, &v[i].val[j],
			    &cat->opts[v[i].opt[j]]))
				return false;
	}
	return true;
}

static bool
check_families(struct imgr *r, const struct model_family *v, size_t n)
{
	size_t	i;

	if (!imgr_array(r, v, n, sizeof *v, _Alignof(struct model_family)))
		return false;
	for (i = 0; i < n; i++)
		if (!imgr_str(r, v[i].name, false) ||
		    !check_strs(r, v[i].ids, v[i].nids) ||
		    !check_strs(r, v[i].archs, v[i].narchs))
			return false;
	return true;
}

/* A fact the families speak for: -1, or a fact of the catalog. */
static bool
fact_index(const struct catalog *cat, int o)
{
	return o == -1 || (o >= 0 && (size_t)o < cat->nopts &&
	    cat->opts[o].kind == OK_FACT);
}

static bool
check_commits(struct imgr *r, const struct commit_ref *v, size_t n)
{
	size_t	i;

	if (!imgr_array(r, v, n, sizeof *v, _Alignof(struct commit_ref)))
		return false;
	for (i = 0; i < n; i++)
		if (!imgr_str(r, v[i].shortname, true) ||
		    !imgr_str(r, v[i].path, true) ||
		    !imgr_str(r, v[i].commit, true))
			return false;
	return true;
}

static bool
check_hist(struct imgr *r, const struct flag_history *h)
{
	size_t	i;

	if (h == NULL)
		return true;
	if (!imgr_array(r, h, 1, sizeof *h, _Alignof(struct flag_history)) ||
	    !imgr_str(r, h->file, true) || !imgr_array(r, h->e, h->n,
	    sizeof *h->e, _Alignof(struct flag_hist)) ||
	    !imgr_array(r, h->releases, h->nreleases, sizeof *h->releases,
	    _Alignof(sgver_t)) || !imgr_bool(&h->inv_main) ||
	    !imgr_array(r, h->inv_rel, h->ninv_rel, sizeof *h->inv_rel,
	    _Alignof(sgver_t)) || !imgr_array(r, h->inv, h->ninv,
	    sizeof *h->inv, _Alignof(struct flag_inv)) ||
	    h->ninv_rel > UINT32_MAX - 1 ||
	    !imgr_str(r, h->inv_main_commit, true) ||
	    !imgr_array(r, h->commits, h->ncommits, sizeof *h->commits,
	    _Alignof(struct sg_commit)))
		return false;
	for (i = 0; i < h->ncommits; i++)
		if (!imgr_str(r, h->commits[i].name, false) ||
		    !imgr_str(r, h->commits[i].commit, false) ||
		    !imgr_str(r, h->commits[i].date, false) ||
		    !sgver_is_commit(h->commits[i].v))
			return false;
	for (i = 0; i < h->ninv; i++) {
		const struct flag_inv	*e = &h->inv[i];
		uint32_t		 top = (uint32_t)h->ninv_rel -
		    (h->inv_main ? 0 : 1);

		if (!imgr_str(r, e->flag, false) || !imgr_str(r, e->dest,
		    false) || !imgr_str(r, e->dflt, false) ||
		    !imgr_str(r, e->choices, true) || e->lo > e->hi ||
		    h->ninv_rel == 0 || e->hi > top || e->nargs == '\0' ||
		    strchr("01?*+", e->nargs) == NULL ||
		    (i > 0 && strcmp(h->inv[i - 1].flag, e->flag) > 0))
			return false;
	}
	for (i = 0; i < h->n; i++) {
		const struct flag_hist	*e = &h->e[i];

		if (!imgr_str(r, e->flag, false) || !imgr_bool(&e->module) ||
		    !imgr_bool(&e->takes_value) ||
		    !imgr_str(r, e->replaced_by, true) ||
		    !imgr_str(r, e->message, true) ||
		    !imgr_str(r, e->note, true) ||
		    !imgr_str(r, e->cite, true) ||
		    !imgr_str(r, e->cite_introduced, true))
			return false;
	}
	return true;
}

/* The string table intern() adopts, and the source list's paths. */
static const char *
check_tables(const struct imgr *r, const struct img_hdr *h)
{
	const unsigned char	*st = r->base + h->strtab;
	const struct img_src	*s;
	size_t			 i;
	bool			 free_slot = false;

	if (h->strcap == 0 || (h->strcap & (h->strcap - 1)) != 0)
		return "damaged (its string table is out of bounds)";
	for (i = 0; i < h->strcap; i++) {
		uint32_t	v;

		memcpy(&v, st + i * sizeof v, sizeof v);
		if (v == 0)
			free_slot = true;
		else if (v < sizeof *h || v >= r->strend)
			return "damaged (its string table is out of bounds)";
	}
	if (!free_slot)
		return "damaged (its string table has no free slot)";
	s = (const struct img_src *)(const void *)(r->base + h->srcs);
	for (i = 0; i < h->nsrcs; i++)
		if (s[i].path < sizeof *h || s[i].path >= r->strend)
			return "damaged (its list of sources is out of bounds)";
	return NULL;
}

/*
 * Everything the catalog of the relocated image base[0..size) reaches;
 * NULL or why not. Nothing may write to the image after this.
 */
static const char *
check_image(const unsigned char *base, size_t size)
{
	struct img_hdr		 h;
	struct imgr		 r;
	const struct catalog	*cat;
	const char		*bad;
	size_t			 i;

	memcpy(&h, base, sizeof h);
	memset(&r, 0, sizeof r);
	r.base = base;
	r.size = size;
	r.budget = size;
	r.hdr = sizeof h;
	for (i = size; i > 0 && r.strend == 0; i--)
		if (base[i - 1] == '\0')
			r.strend = i;
	if ((bad = check_tables(&r, &h)) != NULL)
		return bad;
	cat = (const struct catalog *)(const void *)(base + h.cat);
	if (!imgr_array(&r, cat, 1, sizeof *cat, _Alignof(struct catalog)) ||
	    cat->dir != NULL || cat->origin != NULL || cat->image != NULL ||
	    cat->fit != NULL || cat->fit_err != NULL || cat->memo != NULL ||
	    cat->defaults != NULL || cat->ndefaults != 0 ||
	    cat->nopts == 0 || cat->nopts > OPTS_MAX ||
	    !imgr_array(&r, cat->opts, cat->nopts, sizeof *cat->opts,
	    _Alignof(struct option)))
		return "damaged (its catalog is out of bounds)";
	if (cat->ngroups > OPTS_MAX ||
	    !check_strs(&r, cat->groups, cat->ngroups))
		return "damaged (its option groups are out of bounds)";
	for (i = 0; i < cat->nopts; i++)
		if (!check_option(&r, &cat->opts[i]) ||
		    cat->opts[i].group < -1 ||
		    cat->opts[i].group >= (long long)cat->ngroups)
			return "damaged (an option is out of bounds or "
			    "malformed)";
	r.cat = cat;
	if (!check_table(&r, cat->hash, cat->hcap, false) ||
	    !check_table(&r, cat->fhash, cat->fcap, true))
		return "damaged (its option tables are out of bounds)";
	if (!check_rules(&r, cat->rules, cat->nrules, false, &h.exprs[0]))
		return "damaged (a rule is out of bounds or malformed)";
	if (!check_rules(&r, cat->drules, cat->ndrules, true, &h.exprs[1]))
		return "damaged (a deployment rule is out of bounds or "
		    "malformed)";
	if (!check_models(&r, cat->models, cat->nmodels))
		return "damaged (a model entry is out of bounds or malformed)";
	if (!check_families(&r, cat->families, cat->nfamilies) ||
	    !fact_index(cat, cat->o_arch) || !fact_index(cat, cat->o_family))
		return "damaged (a model family is out of bounds or malformed)";
	if (!check_commits(&r, cat->commits, cat->ncommits))
		return "damaged (its commits are out of bounds)";
	if (!check_hist(&r, cat->hist))
		return "damaged (its flag history is out of bounds)";
	return NULL;
}

/* Same files, same contents as when it was written? NULL or which not. */
static char *
stale_source(const unsigned char *base, const char *datadir,
    enum catimg_trust trust, const struct timespec *img_mtime)
{
	struct img_hdr		 h;
	const struct img_src	*s;
	char			**now, *why = NULL;
	size_t			  n, i;
	int			  dfd = open_datadir(datadir);

	memcpy(&h, base, sizeof h);
	s = (const struct img_src *)(const void *)(base + h.srcs);
	now = list_sources(dfd, &n);
	for (i = 0; i < n || i < h.nsrcs; i++) {
		const char	*was = i < h.nsrcs && s[i].path < h.size ?
		    (const char *)base + s[i].path : NULL;

		if (i >= n || was == NULL || strcmp(was, now[i]) != 0) {
			why = xasprintf("the set of rule files changed (%s)",
			    i < n ? now[i] : was ? was : "?");
			break;
		}
		if (!source_same(datadir, dfd, now[i], &s[i], trust,
		    img_mtime)) {
			why = xasprintf("%s changed since it was compiled",
			    now[i]);
			break;
		}
	}
	free_list(now, n);
	if (dfd >= 0)
		close(dfd);
	return why;
}

static int
map_file(const char *path, struct mapped *m, char *why, size_t whylen)
{
	int		fd = open_input(path, why, whylen);
	struct stat	st;
	void		*p;

	if (fd < 0)
		return -1;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || st.st_size <= 0 ||
	    (uint64_t)st.st_size > IMG_MAX) {
		close(fd);
		return fail(why, whylen, "%s: not a file of a sane size",
		    path);
	}
	p = MAP_FAILED;
#if IMG_BASE != 0
	/* Where it was written for, read-only: used as it is. A kernel
	 * that takes the address as a mere hint may put it elsewhere. */
	p = mmap((void *)(uintptr_t)IMG_BASE, (size_t)st.st_size, PROT_READ,
	    MAP_PRIVATE | MAP_FIXED_NOREPLACE, fd, 0);
	if (p != MAP_FAILED && (uint64_t)(uintptr_t)p != IMG_BASE) {
		munmap(p, (size_t)st.st_size);
		p = MAP_FAILED;
	}
#endif
	if (p == MAP_FAILED)	/* anywhere, to be relocated */
		p = mmap(NULL, (size_t)st.st_size, PROT_READ | PROT_WRITE,
		    MAP_PRIVATE, fd, 0);
	close(fd);
	if (p == MAP_FAILED)
		return fail(why, whylen, "%s: %s", path, strerror(errno));
	m->base = p;
	m->size = (size_t)st.st_size;
	m->mtime = st.st_mtim;
	m->st = st;
	return 0;
}

/* ---- the images this user has checked ---- */

/*
 * check_image proves that an image's layout is safe to use, and the proof
 * holds for exactly those bytes, wherever they are mapped (a relocation
 * moves every pointer by the same amount, within the same bounds). A file
 * of the user's own (in the cache directory: both the user's, writable by
 * no one else) lists the images checked, each by its device, inode, size,
 * modification and change times and checksum. Writing to a file changes
 * its change time, which only the kernel sets; so a file found there with
 * the same identity holds the bytes that were checked, and is not checked
 * again (its header and checksum still are, by relocate). No HOME, a list
 * someone else could have written, a full disk: the image is checked, as
 * before. PDWIZ_NO_CHECKED=1 turns the list off.
 */
#define CHECKED_MAX	16
#define CHECKED_FILE	"checked-images"

struct img_id {
	unsigned long long	v[8];	/* dev ino size mtime(s, ns) ctime(s, ns)
					   sum */
};

static void
img_id_of(const struct mapped *m, struct img_id *id)
{
	struct img_hdr	h;

	memcpy(&h, m->base, sizeof h);
	id->v[0] = (unsigned long long)m->st.st_dev;
	id->v[1] = (unsigned long long)m->st.st_ino;
	id->v[2] = (unsigned long long)m->st.st_size;
	id->v[3] = (unsigned long long)m->st.st_mtim.tv_sec;
	id->v[4] = (unsigned long long)m->st.st_mtim.tv_nsec;
	id->v[5] = (unsigned long long)m->st.st_ctim.tv_sec;
	id->v[6] = (unsigned long long)m->st.st_ctim.tv_nsec;
	id->v[7] = (unsigned long long)h.sum;
}

/* The directory of the list ($XDG_CACHE_HOME/pdwiz, ~/.cache/pdwiz), or
 * NULL; owned. */
static char *
checked_dir(void)
{
	const char	*x = getenv("XDG_CACHE_HOME"), *home = getenv("HOME");
	const char	*off = getenv("PDWIZ_NO_CHECKED");

	if (off != NULL && *off != '\0' && strcmp(off, "0") != 0)
		return NULL;
	if (x != NULL && x[0] == '/')
		return xasprintf("%s/pdwiz", x);
	if (home != NULL && home[0] == '/')
		return xasprintf("%s/.cache/pdwiz", home);
	return NULL;
}

/* Is what st describes the user's own and writable by no one else? */
static bool
users_own(const struct stat *st)
{
	return st->st_uid == geteuid() && (st->st_mode & 022) == 0;
}

/* The list's entries into ids (at most max); how many. */
static size_t
checked_read(const char *dir, struct img_id *ids, size_t max)
{
	char		*path, buf[CHECKED_MAX * 8 * 24 + 64], *p, *nl;
	struct stat	 st;
	size_t		 n = 0, len = 0;
	ssize_t		 k;
	int		 fd;

	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || !users_own(&st))
		return 0;
	path = xasprintf("%s/%s", dir, CHECKED_FILE);
	fd = open(path, O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
	free(path);
	if (fd < 0)
		return 0;
	if (fstat(fd, &st) != 0 || !S_ISREG(st.st_mode) || !users_own(&st)) {
		close(fd);
		return 0;
	}
	while (len < sizeof buf - 1 && (k = read(fd, buf + len,
	    sizeof buf - 1 - len)) > 0)
		len += (size_t)k;
	close(fd);
	buf[len] = '\0';
	for (p = buf; n < max && (nl = strchr(p, '\n')) != NULL; p = nl + 1) {
		struct img_id	id;

		*nl = '\0';
		if (sscanf(p, "%llu %llu %llu %llu %llu %llu %llu %llu",
		    &id.v[0], &id.v[1], &id.v[2], &id.v[3], &id.v[4],
		    &id.v[5], &id.v[6], &id.v[7]) == 8)
			ids[n++] = id;
	}
	return n;
}

static bool
checked_before(const struct mapped *m)
{
	struct img_id	ids[CHECKED_MAX], id;
	char		*dir = checked_dir();
	size_t		 n, i;

	if (dir == NULL)
		return false;
	n = checked_read(dir, ids, CHECKED_MAX);
	free(dir);
	img_id_of(m, &id);
	for (i = 0; i < n; i++)
		if (memcmp(&ids[i], &id, sizeof id) == 0)
			return true;
	return false;
}

/* Add m's image to the list (the newest CHECKED_MAX kept), written to a
 * new file and renamed over the old; failures are silent. */
static void
checked_add(const struct mapped *m)
{
	struct img_id	 ids[CHECKED_MAX], id;
	struct buf	 b = { 0 };
	struct stat	 st;
	char		*dir = checked_dir(), *parent, *path, *tmp, *slash;
	size_t		 n, i, first;
	int		 fd;

	if (dir == NULL)
		return;
	parent = xstrdup(dir);
	if ((slash = strrchr(parent, '/')) != NULL && slash != parent) {
		*slash = '\0';
		(void)mkdir(parent, 0700);	/* ~/.cache */
	}
	free(parent);
	(void)mkdir(dir, 0700);
	if (stat(dir, &st) != 0 || !S_ISDIR(st.st_mode) || !users_own(&st)) {
		free(dir);	/* not a directory of the user's own: no list */
		return;
	}
	n = checked_read(dir, ids, CHECKED_MAX);
	img_id_of(m, &id);
	first = n >= CHECKED_MAX ? n - CHECKED_MAX + 1 : 0;
	for (i = first; i < n; i++)
		buf_printf(&b, "%llu %llu %llu %llu %llu %llu %llu %llu\n",
		    ids[i].v[0], ids[i].v[1], ids[i].v[2], ids[i].v[3],
		    ids[i].v[4], ids[i].v[5], ids[i].v[6], ids[i].v[7]);
	buf_printf(&b, "%llu %llu %llu %llu %llu %llu %llu %llu\n", id.v[0],
	    id.v[1], id.v[2], id.v[3], id.v[4], id.v[5], id.v[6], id.v[7]);
	path = xasprintf("%s/%s", dir, CHECKED_FILE);
	tmp = xasprintf("%s.%ld", path, (long)getpid());
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
	    0600);
	if (fd >= 0) {
		bool	ok = write(fd, b.s, b.len) == (ssize_t)b.len;

		if (close(fd) != 0 || !ok || rename(tmp, path) != 0)
			(void)unlink(tmp);
	}
	free(tmp);
	free(path);
	free(dir);
	buf_free(&b);
}

static struct catalog *
use_image(const struct mapped *m, const char *datadir)
{
	struct img_hdr	 h;
	struct catalog	*cat = xmalloc(sizeof *cat);

	memcpy(&h, m->base, sizeof h);
	/* Only the struct catalog is copied, for the fields that are the
	 * process's (dir, origin, image, fit): everything it points to is
	 * the image's, used in place and never written. A rule's file stays
	 * relative to dir (catalog_rule_file makes it whole). */
	memcpy(cat, m->base + h.cat, sizeof *cat);
	cat->dir = intern(datadir);
	cat->image = m->base;
	cat->fit = NULL;
	cat->fit_err = NULL;
	cat->memo = NULL;
	cat->defaults = NULL;
	cat->ndefaults = 0;
	return cat;
}

/* Relocate base[0..size) and check what it holds; NULL or why not. */
static const char *
open_image(unsigned char *base, size_t size)
{
	const char	*bad = relocate(base, size);

	return bad != NULL ? bad : check_image(base, size);
}

struct catalog *
catimg_load(const char *datadir, const char *path_in, enum catimg_trust trust,
    char *why, size_t whylen)
{
	char			*path;
	struct mapped		 m = { 0 };
	struct img_hdr		 h;
	const char		*bad;
	char			*stale;

	path = xstrdup(path_in);
	if (live.base != NULL) {
		if (strcmp(live.path, path) != 0) {
			fail(why, whylen, "%s: another image is in use", path);
			free(path);
			return NULL;
		}
		free(path);
		if ((stale = stale_source(live.base, datadir, trust,
		    &live.mtime)) != NULL) {
			fail(why, whylen, "%s", stale);
			free(stale);
			return NULL;
		}
		return use_image(&live, datadir);
	}
	if (map_file(path, &m, why, whylen) != 0) {
		free(path);
		return NULL;
	}
	/* Read-only from its relocation on: what is checked stays so. */
	if ((bad = relocate(m.base, m.size)) == NULL) {
		mprotect(m.base, m.size, PROT_READ);
		if (!checked_before(&m) && (bad = check_image(m.base,
		    m.size)) == NULL)
			checked_add(&m);
	}
	if (bad != NULL || (stale = stale_source(m.base, datadir, trust,
	    &m.mtime)) != NULL) {
		if (bad != NULL)
			fail(why, whylen, "%s: %s", path, bad);
		else {
			fail(why, whylen, "%s", stale);
			free(stale);
		}
		munmap(m.base, m.size);
		free(path);
		return NULL;
	}
	memcpy(&h, m.base, sizeof h);
	if (intern_adopt((const char *)m.base,
	    (const uint32_t *)(const void *)(m.base + h.strtab),
	    h.strcap) != 0) {
		fail(why, whylen, "%s: its strings clash with ones already in "
		    "use", path);
		munmap(m.base, m.size);
		free(path);
		return NULL;
	}
	m.path = path;
	m.adopted = true;
	live = m;
	return use_image(&live, datadir);
}

const struct catalog *
catimg_check(unsigned char *img, size_t size, const char **why)
{
	struct img_hdr	h;

	if ((*why = open_image(img, size)) != NULL)
		return NULL;
	memcpy(&h, img, sizeof h);
	return (const struct catalog *)(const void *)(img + h.cat);
}

int
catimg_seal(unsigned char *img, size_t size)
{
	struct img_hdr	h;

	if (size < sizeof h)
		return -1;
	memcpy(&h, img, sizeof h);
	memset(h.srcid, 0, sizeof h.srcid);
	snprintf(h.srcid, sizeof h.srcid, "%s", PDWIZ_SRC_ID);
	h.size = size;
	h.sum = sum64(img + sizeof h, size - sizeof h);
	memcpy(img, &h, sizeof h);
	return 0;
}


/*
 * Read w back as the loader would, into a private copy, and write that
 * again: the two images must be the same to the byte.
 */
static int
verify(struct imgw *w, const char *datadir, char *err, size_t errlen)
{
	unsigned char	*copy = xmalloc(w->len);
	struct img_hdr	 h;
	struct imgw	 again;
	const char	*bad;
	int		 rc = -1;

	memcpy(copy, w->b, w->len);
	memcpy(&h, copy, sizeof h);
	if ((bad = open_image(copy, w->len)) != NULL)
		fail(err, errlen, "the image does not read back: %s", bad);
	else if (build(&again, (const struct catalog *)(void *)
	    (copy + h.cat), datadir, err, errlen) == 0) {
		if (again.len != w->len || memcmp(again.b, w->b, w->len) != 0)
			fail(err, errlen, "the image read back differs from "
			    "what was written");
		else
			rc = 0;
	}
	if (bad == NULL)
		imgw_free(&again);
	free(copy);
	return rc;
}

int
catimg_write(const struct catalog *cat, const char *datadir,
    const char *path, char *err, size_t errlen)
{
	struct imgw	w;
	int		rc;

	if (PDWIZ_SRC_ID[0] == '\0')
		return fail(err, errlen, "this build of pdwiz has no source "
		    "id, so its images could never be used");
	if (build(&w, cat, datadir, err, errlen) != 0) {
		imgw_free(&w);
		return -1;
	}
	rc = verify(&w, datadir, err, errlen);
	if (rc == 0)
		rc = write_file_atomic(path, (const char *)w.b, w.len, err,
		    errlen);
	imgw_free(&w);
	return rc;
}
