/* util.c - allocation, buffers, files, interning. */
#define _POSIX_C_SOURCE 200809L
#include "util.h"
#include "hashidx.h"

#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static void
oom(void)
{
	fputs("pdwiz: out of memory\n", stderr);
	abort();
}

void *
xmalloc(size_t n)
{
	void	*p = malloc(n ? n : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xcalloc(size_t n, size_t sz)
{
	void	*p = calloc(n ? n : 1, sz ? sz : 1);

	if (p == NULL)
		oom();
	return p;
}

void *
xrealloc(void *p, size_t n)
{
	p = realloc(p, n ? n : 1);
	if (p == NULL)
		oom();
	return p;
}

void *
xreallocarray(void *p, size_t n, size_t sz)
{
	if (sz != 0 && n > SIZE_MAX / sz)
		oom();
	return xrealloc(p, n * sz);
}

void *
grow_pow2(void *p, size_t n, size_t sz)
{
	if ((n & (n - 1)) == 0)
		p = xreallocarray(p, n ? n * 2 : 1, sz);
	return p;
}

char *
xstrdup(const char *s)
{
	return xstrndup(s, strlen(s));
}

char *
xstrndup(const char *s, size_t n)
{
	char	*p = xmalloc(n + 1);

	memcpy(p, s, n);
	p[n] = '\0';
	return p;
}

char *
xasprintf(const char *fmt, ...)
{
	struct buf	b = { 0 };
	va_list		ap;
	int		n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		oom();
	b.cap = (size_t)n + 1;
	b.s = xmalloc(b.cap);
	va_start(ap, fmt);
	vsnprintf(b.s, b.cap, fmt, ap);
	va_end(ap);
	return b.s;
}

void
buf_add(struct buf *b, const char *s, size_t n)
{
	if (b->len + n + 1 > b->cap) {
		size_t	cap = b->cap ? b->cap : 64;

		while (cap < b->len + n + 1)
			cap *= 2;
		b->s = xrealloc(b->s, cap);
		b->cap = cap;
	}
	memcpy(b->s + b->len, s, n);
	b->len += n;
	b->s[b->len] = '\0';
}

void
buf_puts(struct buf *b, const char *s)
{
	buf_add(b, s, strlen(s));
}

void
buf_putc(struct buf *b, char c)
{
	buf_add(b, &c, 1);
}

void
buf_printf(struct buf *b, const char *fmt, ...)
{
	va_list	ap;
	int	n;
	char	small[256];

	va_start(ap, fmt);
	n = vsnprintf(small, sizeof small, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	if ((size_t)n < sizeof small) {
		buf_add(b, small, (size_t)n);
		return;
	}
	buf_add(b, "", 0);
	if (b->len + (size_t)n + 1 > b->cap) {
		b->cap = b->len + (size_t)n + 1;
		b->s = xrealloc(b->s, b->cap);
	}
	va_start(ap, fmt);
	vsnprintf(b->s + b->len, (size_t)n + 1, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *
buf_steal(struct buf *b)
{
	char	*s = b->s ? b->s : xstrdup("");

	b->s = NULL;
	b->len = b->cap = 0;
	return s;
}

void
buf_free(struct buf *b)
{
	free(b->s);
	b->s = NULL;
	b->len = b->cap = 0;
}

void
sort_items(void *base, size_t n, size_t size,
    int (*cmp)(const void *, const void *))
{
	if (n > 1)
		qsort(base, n, size, cmp);
}

const char *
file_kind(unsigned mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISLNK(mode))
		return "a symbolic link";
	return S_ISREG(mode) ? "a regular file" : "of an unknown kind";
}

static int
not_regular(const char *path, const struct stat *st, char *err,
    size_t errlen)
{
	snprintf(err, errlen, "%s: not a regular file (%s)", path,
	    file_kind(st->st_mode));
	return -1;
}

int
open_input(const char *path, char *err, size_t errlen)
{
	struct stat	st;
	int		fd, fl;

	/* Not opened at all unless it is a regular file: a device may act
	 * on its open. */
	if (stat(path, &st) != 0) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	if (!S_ISREG(st.st_mode))
		return not_regular(path, &st, err, errlen);
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* What was opened, which may not be what was looked at. */
	if (fstat(fd, &st) != 0 || (fl = fcntl(fd, F_GETFL)) == -1 ||
	    fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return -1;
	}
	if (!S_ISREG(st.st_mode)) {
		close(fd);
		return not_regular(path, &st, err, errlen);
	}
	return fd;
}

char *
read_file(const char *path, size_t max, size_t *lenp, char *err, size_t errlen)
{
	struct buf	b = { 0 };
	char		chunk[65536];
	FILE		*f;
	size_t		n;
	int		fd;

	if (strcmp(path, "-") == 0)
		f = stdin;
	else if ((fd = open_input(path, err, errlen)) == -1)
		return NULL;
	else if ((f = fdopen(fd, "rb")) == NULL) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		close(fd);
		return NULL;
	}
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0) {
		if (b.len + n > max) {
			snprintf(err, errlen, "%s: file is larger than %zu bytes",
			    strcmp(path, "-") == 0 ? "<stdin>" : path, max);
			buf_free(&b);
			if (f != stdin)
				fclose(f);
			return NULL;
		}
		buf_add(&b, chunk, n);
	}
	if (ferror(f)) {
		snprintf(err, errlen, "%s: read error: %s", path, strerror(errno));
		buf_free(&b);
		if (f != stdin)
			fclose(f);
		return NULL;
	}
	if (f != stdin)
		fclose(f);
	buf_add(&b, "", 0);
	*lenp = b.len;
	return buf_steal(&b);
}

/*
 * The permission bits a new file at path gets: those of the regular file
 * it replaces (a symlink is followed to its target's bits), else mode less
 * the umask. umask(2) can only be read by setting it; pdwiz runs one
 * thread, so setting it back at once is safe.
 */
static mode_t
target_mode(const char *path, unsigned mode)
{
	struct stat	st;
	mode_t		mask;

	if (stat(path, &st) == 0 && S_ISREG(st.st_mode))
		return st.st_mode & 0777;
	mask = umask(077);
	umask(mask);
	return (mode_t)mode & 0777 & ~mask;
}

/*
 * The descriptor an output path names, when writing to it in place is
 * plainly what is meant: /dev/stdout, /dev/stderr, /dev/stdin, /dev/fd/N,
 * /proc/self/fd/N. Else -1.
 */
static int
path_fd(const char *path)
{
	const char	*p = NULL;
	char		*end;
	long		 n;

	if (strcmp(path, "/dev/stdin") == 0)
		return STDIN_FILENO;
	if (strcmp(path, "/dev/stdout") == 0)
		return STDOUT_FILENO;
	if (strcmp(path, "/dev/stderr") == 0)
		return STDERR_FILENO;
	if (strncmp(path, "/dev/fd/", 8) == 0)
		p = path + 8;
	else if (strncmp(path, "/proc/self/fd/", 14) == 0)
		p = path + 14;
	if (p == NULL || *p < '0' || *p > '9')
		return -1;
	errno = 0;
	n = strtol(p, &end, 10);
	if (*end != '\0' || errno != 0 || n > INT_MAX)
		return -1;
	return (int)n;
}

/* Write to an open descriptor, where it stands (a pipe, a terminal, the
 * file the shell redirected to). */
static int
write_fd(const char *path, int fd, const char *data, size_t len, char *err,
    size_t errlen)
{
	size_t	off = 0;

	if (fcntl(fd, F_GETFD) == -1) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	/* After what stdio holds for it. */
	if (fd == STDOUT_FILENO)
		fflush(stdout);
	else if (fd == STDERR_FILENO)
		fflush(stderr);
	while (off < len) {
		ssize_t	w = write(fd, data + off, len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			snprintf(err, errlen, "%s: %s", path, strerror(errno));
			return -1;
		}
		off += (size_t)w;
	}
	return 0;
}

int
output_check(const char *path, char *err, size_t errlen)
{
	struct stat	st;

	if (path_fd(path) >= 0 || lstat(path, &st) != 0 ||
	    S_ISREG(st.st_mode) || S_ISLNK(st.st_mode))
		return 0;
	snprintf(err, errlen, "%s: not a regular file (%s); pdwiz will not "
	    "replace it with its output", path, file_kind(st.st_mode));
	return -1;
}

int
write_file_atomic(const char *path, const char *data, size_t len, char *err,
    size_t errlen)
{
	return write_file_atomic_mode(path, data, len, 0666, err, errlen);
}

int
write_file_atomic_mode(const char *path, const char *data, size_t len,
    unsigned mode, char *err, size_t errlen)
{
	char	*tmp, *slash;
	int	 fd;
	size_t	 off = 0;
	mode_t	 want;

	if ((fd = path_fd(path)) >= 0)
		return write_fd(path, fd, data, len, err, errlen);
	if (output_check(path, err, errlen) != 0)
		return -1;
	tmp = xasprintf("%s.pdwiz-tmp.XXXXXX", path);
	want = target_mode(path, mode);
	if ((fd = mkstemp(tmp)) == -1) {
		int	e = errno;

		/* Name the directory that is missing, not the temporary. */
		slash = strrchr(tmp, '/');
		if (slash != NULL)
			*slash = '\0';
		if (e == ENOENT || e == ENOTDIR)
			snprintf(err, errlen, "%s: %s: %s", path,
			    slash != NULL ? tmp : ".", strerror(e));
		else
			snprintf(err, errlen, "%s: cannot create temporary file: "
			    "%s", path, strerror(e));
		free(tmp);
		return -1;
	}
	if (fchmod(fd, want) != 0)
		goto fail;
	while (off < len) {
		ssize_t	w = write(fd, data + off, len - off);

		if (w < 0) {
			if (errno == EINTR)
				continue;
			goto fail;
		}
		off += (size_t)w;
	}
	if (fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	free(tmp);
	return 0;
fail:
	snprintf(err, errlen, "%s: %s", path, strerror(errno));
	if (fd != -1)
		close(fd);
	unlink(tmp);
	free(tmp);
	return -1;
}

void
text_pos(const char *text, size_t off, int *line, int *col)
{
	size_t	i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else
			(*col)++;
	}
}

size_t
utf8_invalid_at(const char *text, size_t len)
{
	const unsigned char	*s = (const unsigned char *)text;
	size_t			 i = 0, n, k;
	unsigned long		 cp, min;

	while (i < len) {
		if (s[i] < 0x80) {
			i++;
			continue;
		}
		if ((s[i] & 0xE0) == 0xC0) {
			n = 1;
			cp = s[i] & 0x1F;
			min = 0x80;
		} else if ((s[i] & 0xF0) == 0xE0) {
			n = 2;
			cp = s[i] & 0x0F;
			min = 0x800;
		} else if ((s[i] & 0xF8) == 0xF0) {
			n = 3;
			cp = s[i] & 0x07;
			min = 0x10000;
		} else
			return i;
		if (len - i <= n)
			return i;
		for (k = 1; k <= n; k++) {
			if ((s[i + k] & 0xC0) != 0x80)
				return i;
			cp = cp << 6 | (s[i + k] & 0x3F);
		}
		if (cp < min || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
			return i;
		i += n + 1;
	}
	return len;
}

size_t
edit_distance(const char *a, const char *b)
{
	return edit_distance_within(a, b, 99);
}

size_t
edit_distance_within(const char *a, const char *b, size_t max)
{
	size_t	la = strlen(a), lb = strlen(b), i, j;
	size_t	row[65];

	if (la > 64 || lb > 64)
		return 99 > max ? 99 : max + 1;
	if ((la > lb ? la - lb : lb - la) > max)
		return max + 1;
	for (j = 0; j <= lb; j++)
		row[j] = j;
	for (i = 1; i <= la; i++) {
		size_t	prev = row[0], low;

		row[0] = low = i;
		for (j = 1; j <= lb; j++) {
			size_t	tmp = row[j];
			size_t	cost = a[i - 1] == b[j - 1] ? 0 : 1;
			size_t	best = prev + cost;

			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			row[j] = best;
			if (best < low)
				low = best;
			prev = tmp;
		}
		/* Entries never decrease down a column path: done. */
		if (low > max)
			return max + 1;
	}
	return row[lb];
}

/*
 * Interning: an open-addressing hash table of owned strings, and at most
 * one adopted read-only table of strings that live in a loaded image.
 * A string is in one table or the other, never both, so equal text still
 * means the same pointer. The owned table holds input (values of scripts
 * and configs), so it hashes keyed (hashidx.h); the image's is fixed by
 * the image.
 */
static char	**itab;
static size_t	  icap, icount;
static const char	*fbase;
static const uint32_t	*ftab;
static size_t		 fcap;

/*
 * Eight bytes a step (a multiply and a fold each), the rest a byte at a
 * time, then a finalizer (splitmix64's) so that the low bits a table's
 * mask keeps depend on every byte. The same in every process and on every
 * machine (the bytes are read in little-endian order).
 */
const char *
mem_find(const char *s, size_t n, const char *p)
{
	size_t		 k = strlen(p);
	const char	*q, *last;

	if (k == 0 || n < k)
		return NULL;
	/* memchr finds each candidate first byte (many bytes a step) */
	last = s + (n - k);
	for (q = s; q <= last && (q = memchr(q, p[0], (size_t)(last - q) +
	    1)) != NULL; q++)
		if (memcmp(q, p, k) == 0)
			return q;
	return NULL;
}

uint64_t
str_hash(const char *s, size_t n)
{
	const unsigned char	*p = (const unsigned char *)s;
	uint64_t		 h = 1469598103934665603ULL ^ n, w;
	size_t			 i = 0, k;

	for (; i + 8 <= n; i += 8) {
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
		memcpy(&w, p + i, sizeof w);
#else
		for (w = 0, k = 8; k-- > 0;)
			w = w << 8 | p[i + k];
#endif
		h = (h ^ w) * 0x9e3779b97f4a7c15ULL;
		h ^= h >> 32;
	}
	for (k = 0; i < n; i++, k += 8)
		h ^= (uint64_t)p[i] << k;
	h ^= h >> 30;
	h *= 0xbf58476d1ce4e5b9ULL;
	h ^= h >> 27;
	h *= 0x94d049bb133111ebULL;
	return h ^ (h >> 31);
}

static const char *
frozen_find(const char *s, size_t n, uint64_t h)
{
	size_t	i;

	if (ftab == NULL)
		return NULL;
	for (i = h & (fcap - 1); ftab[i] != 0; i = (i + 1) & (fcap - 1)) {
		const char	*f = fbase + ftab[i];

		if (strncmp(f, s, n) == 0 && f[n] == '\0')
			return f;
	}
	return NULL;
}

static void
itab_grow(void)
{
	size_t	  ncap = icap ? icap * 2 : 1024, i;
	char	**nt = xcalloc(ncap, sizeof *nt);

	for (i = 0; i < icap; i++) {
		if (itab[i] != NULL) {
			size_t	j = hash_keyed(itab[i], strlen(itab[i])) &
			    (ncap - 1);

			while (nt[j] != NULL)
				j = (j + 1) & (ncap - 1);
			nt[j] = itab[i];
		}
	}
	free(itab);
	itab = nt;
	icap = ncap;
}

const char *
intern_n(const char *s, size_t n)
{
	const char	*f = frozen_find(s, n, str_hash(s, n));
	size_t		 i;

	if (f != NULL)
		return f;
	if (icount * 2 >= icap)
		itab_grow();
	i = hash_keyed(s, n) & (icap - 1);
	while (itab[i] != NULL) {
		if (strncmp(itab[i], s, n) == 0 && itab[i][n] == '\0')
			return itab[i];
		i = (i + 1) & (icap - 1);
	}
	itab[i] = xstrndup(s, n);
	icount++;
	return itab[i];
}

const char *
intern(const char *s)
{
	return intern_n(s, strlen(s));
}

int
intern_adopt(const char *base, const uint32_t *tab, size_t cap)
{
	size_t	i;

	if (ftab != NULL)
		return ftab == tab ? 0 : -1;
	if (cap == 0 || (cap & (cap - 1)) != 0)
		return -1;
	fbase = base;
	ftab = tab;
	fcap = cap;
	for (i = 0; i < icap; i++) {
		if (itab[i] != NULL && frozen_find(itab[i], strlen(itab[i]),
		    str_hash(itab[i], strlen(itab[i]))) != NULL) {
			ftab = NULL;
			fbase = NULL;
			fcap = 0;
			return -1;
		}
	}
	return 0;
}

void
intern_free_all(void)
{
	size_t	i;

	for (i = 0; i < icap; i++)
		free(itab[i]);
	free(itab);
	itab = NULL;
	icap = icount = 0;
}

void
model_id_init(struct model_id *m, const char *s)
{
	size_t	i;

	const char	*h, *e, *sep;

	m->s = s;
	m->n = strlen(s);
	m->ntails = 0;
	m->hub[0] = '\0';
	if (s[0] != '/' && strncmp(s, "./", 2) != 0 && strncmp(s, "~/", 2) != 0)
		return;		/* a Hub id: as written */
	for (i = m->n; i > 0 && m->ntails < MODEL_ID_TAILS; i--)
		if (s[i - 1] == '/' && i < m->n)
			m->tail[m->ntails++] = i;
	if (m->n > MODEL_ID_MAX || (h = strstr(s, "/models--")) == NULL)
		return;
	h += strlen("/models--");
	e = h + strcspn(h, "/");
	sep = strstr(h, "--");
	if (sep == NULL || sep >= e || sep == h || sep + 2 == e ||
	    (size_t)(e - h) >= sizeof m->hub)
		return;
	snprintf(m->hub, sizeof m->hub, "%.*s/%.*s", (int)(sep - h), h,
	    (int)(e - sep - 2), sep + 2);
}

/*
 * Does the glob pat (fnmatch, no flags) match s[0..n)? Its literal head
 * (before the first special character) must start s and its literal tail
 * (after the last) end it, which takes the pattern's length; only when
 * both agree does fnmatch read s.
 */
static bool
glob_special(char c)
{
	return c == '*' || c == '?' || c == '[' || c == '\\';
}

static bool
glob_match(const char *pat, const char *s, size_t n)
{
	size_t	plen = strlen(pat), a, b;

	for (a = 0; a < plen && !glob_special(pat[a]); a++)
		;
	if (a == plen)
		return n == plen && memcmp(pat, s, n) == 0;
	if (a > n || memcmp(pat, s, a) != 0)
		return false;
	for (b = plen; b > a && !glob_special(pat[b - 1]) && pat[b - 1] != ']';
	    b--)
		;
	if (a + (plen - b) > n || memcmp(pat + b, s + n - (plen - b),
	    plen - b) != 0)
		return false;
	return fnmatch(pat, s, 0) == 0;
}

bool
model_id_match(const char *pat, const struct model_id *id)
{
	size_t	i;

	/* Longer than any path (PATH_MAX) or Hub id: no model's name. */
	if (id->n > MODEL_ID_MAX)
		return false;
	if (glob_match(pat, id->s, id->n))
		return true;
	for (i = 0; i < id->ntails; i++)
		if (glob_match(pat, id->s + id->tail[i], id->n - id->tail[i]))
			return true;
	return id->hub[0] != '\0' && glob_match(pat, id->hub, strlen(id->hub));
}

const char *
text_shown(const char *s, size_t n, size_t max, char *out, size_t outlen)
{
	size_t	i, o = 0;

	for (i = 0; i < n && i < max && o + 8 < outlen; i++) {
		unsigned char	c = (unsigned char)s[i];

		if (c < 0x20 || c == 0x7f)
			o += (size_t)snprintf(out + o, outlen - o, "\\x%02x", c);
		else
			out[o++] = (char)c;
	}
	if (i < n && o + 4 <= outlen) {
		memcpy(out + o, "...", 3);
		o += 3;
	}
	out[o] = '\0';
	return out;
}
