/* util.h - allocation, growable buffers, small string helpers. */
#ifndef PDWIZ_UTIL_H
#define PDWIZ_UTIL_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

void	*xmalloc(size_t);
void	*xcalloc(size_t, size_t);
void	*xrealloc(void *, size_t);
void	*xreallocarray(void *, size_t, size_t);
char	*xstrdup(const char *);
char	*xstrndup(const char *, size_t);
char	*xasprintf(const char *, ...) __attribute__((format(printf, 1, 2)));
/*
 * Room for item n (0-based) of an array of items of sz bytes that only
 * grow_pow2 sizes: it doubles when n is a power of two, so appending n
 * items copies O(n) bytes, not one reallocation per item (which copies
 * the whole array each time on an allocator that cannot grow in place).
 */
void	*grow_pow2(void *, size_t n, size_t sz);

/* Growable byte buffer; always NUL-terminated once anything was added. */
struct buf {
	char	*s;
	size_t	 len, cap;
};
void	 buf_add(struct buf *, const char *, size_t);
void	 buf_puts(struct buf *, const char *);
void	 buf_putc(struct buf *, char);
void	 buf_printf(struct buf *, const char *, ...)
	    __attribute__((format(printf, 2, 3)));
char	*buf_steal(struct buf *);	/* returns owned string, resets buf */
void	 buf_free(struct buf *);

/* qsort that also takes an empty array (base may then be NULL, which
 * qsort itself does not allow). */
void	sort_items(void *base, size_t n, size_t size,
	    int (*cmp)(const void *, const void *));

/*
 * Open a file to read it: every input pdwiz reads comes through here.
 * Only a regular file is opened; anything else (a FIFO, a socket, a
 * device, a directory) is refused as "PATH: not a regular file (a FIFO)",
 * so that a FIFO never blocks pdwiz and a device is never opened. The
 * open itself is O_NONBLOCK (what it opens is checked again, with fstat,
 * in case the path changed); the descriptor returned reads blocking and
 * is close-on-exec. -1 with the message in err.
 */
int	 open_input(const char *path, char *err, size_t errlen);
/* "a FIFO", "a socket", "a character device", ... for a file's mode. */
const char	*file_kind(unsigned mode);
/*
 * Read a whole file (at most max bytes) opened by open_input, or standard
 * input for "-"; NULL + errno-ish message on failure.
 */
char	*read_file(const char *path, size_t max, size_t *len, char *err,
	    size_t errlen);
/*
 * Write atomically: temp file in the same directory, fsync, rename.
 * The file gets the permission bits of the regular file it replaces, or
 * else mode with the process umask applied, as open(2) would create it:
 * mode 0666 for data, 0777 for a script. write_file_atomic is 0666.
 * What is at path must be nothing yet, a regular file or a symbolic link
 * (replaced, its target left alone); a device, a FIFO, a socket or a
 * directory is refused (output_check). A path that names an open
 * descriptor (/dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N) is
 * written in place, to that descriptor.
 */
int	 write_file_atomic(const char *path, const char *data, size_t len,
	    char *err, size_t errlen);
int	 write_file_atomic_mode(const char *path, const char *data, size_t len,
	    unsigned mode, char *err, size_t errlen);
/* 0 when write_file_atomic may write path, else -1 and why in err. */
int	 output_check(const char *path, char *err, size_t errlen);

/* Line and column (1-based, the column in bytes) of byte offset off of
 * text, lines ending at LF. */
void	 text_pos(const char *text, size_t off, int *line, int *col);
/*
 * A model id or path prepared once for matching against many patterns
 * (model_id_init: s lower case, as model_id_match wants it). Of a local
 * path (/..., ./..., ~/...) the tails after its last MODEL_ID_TAILS
 * slashes are tried too; each match costs the pattern's length, not the
 * id's, unless its literal ends agree with the id's. An id longer than
 * MODEL_ID_MAX (PATH_MAX; a Hub id is at most 96 bytes) names no model.
 * A path into the Hugging Face cache (.../models--org--name/snapshots/...)
 * is matched as org/name too.
 */
#define MODEL_ID_TAILS	4
#define MODEL_ID_MAX	4096	/* longer matches nothing */
struct model_id {
	const char	*s;
	size_t		 n;
	size_t		 tail[MODEL_ID_TAILS];	/* offsets just past a slash */
	size_t		 ntails;
	char		 hub[256];	/* org/name of a Hugging Face cache
					   directory (models--org--name) on
					   the path, or "" */
};
void	 model_id_init(struct model_id *, const char *s);
/*
 * Does the glob pat (fnmatch, '*' across '/') match the model id, or the
 * end of a local path after one of its last slashes? A model table names Hub
 * ids (meta-llama/Llama-3.1-8B*); a server may load the same model from
 * /raid/models/meta-llama/Llama-3.1-8B-Instruct. id is lower case.
 */
bool	 model_id_match(const char *pat, const struct model_id *id);
/* s[0..n) for a one-line message: at most max bytes of it (then "..."),
 * control bytes (CR, ESC, DEL ...) as \xNN, so that no byte of an input
 * reaches a terminal as a control. Written into out (outlen bytes, at
 * least 8); returns out. */
const char *text_shown(const char *s, size_t n, size_t max, char *out,
	    size_t outlen);

/*
 * Offset of the first byte of text[0..len) that is not part of a
 * well-formed UTF-8 sequence (overlong forms, surrogates and code points
 * past U+10FFFF included), or len when it is all valid.
 */
size_t	 utf8_invalid_at(const char *text, size_t len);

/* Levenshtein distance, capped; for "did you mean". */
size_t	 edit_distance(const char *, const char *);
/*
 * The same when it is at most max, else some value > max; stops as soon
 * as every path is over max (cheap for the usual, hopeless candidate).
 */
size_t	 edit_distance_within(const char *, const char *, size_t max);

/* Interned strings: equal text -> same pointer. Never freed individually. */
const char	*intern(const char *);
const char	*intern_n(const char *, size_t);
void		 intern_free_all(void);
/*
 * Adopt the strings of a loaded image: tab[cap] (cap a power of two) holds
 * offsets from base of NUL-terminated strings, 0 for an empty slot, each
 * at str_hash & (cap - 1) or the next free slot after it. intern() then
 * returns those strings instead of copies. -1 when another table is
 * adopted already, or a string interned before is also in this one.
 */
int		 intern_adopt(const char *base, const uint32_t *tab, size_t cap);
/* FNV-1a over n bytes: the intern tables' hash. */
uint64_t	 str_hash(const char *, size_t);
/* The first p (a string) in s[0..n), or NULL: memmem(3), which C lacks. */
const char	*mem_find(const char *s, size_t n, const char *p);

#endif
