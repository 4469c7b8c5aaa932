/*
 * imgw.h - writer of a relocatable memory image (the compiled catalog).
 *
 * An image is one block of bytes in which every object sits at an offset
 * and every pointer field holds the offset of its target (0 for NULL)
 * while it is written; catimg.c adds the address the image is built for
 * (IMG_BASE) to them at the end, and records where each pointer field is.
 * Objects keep their native C layout, so that the block mapped at that
 * address is used in place, read-only; mapped anywhere else, the loader
 * adds the difference to exactly the recorded fields.
 *
 * Offsets stay valid across imgw_alloc; addresses from imgw_at do not.
 */
#ifndef PDWIZ_IMGW_H
#define PDWIZ_IMGW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "value.h"

struct catalog;

struct imgw;

/* n zeroed bytes, 8-aligned; returns their offset (never 0). */
size_t	 imgw_alloc(struct imgw *, size_t n);
/* Copy n bytes of src into a new object; returns its offset. */
size_t	 imgw_copy(struct imgw *, const void *src, size_t n);
void	*imgw_at(struct imgw *, size_t off);
/* Store a pointer to target (an offset, 0 = NULL) in the field at off. */
void	 imgw_ptr(struct imgw *, size_t field_off, size_t target_off);
/* The offset of a NUL-terminated copy of s, shared by equal strings;
 * 0 for NULL. Every such string is interned when the image is loaded. */
size_t	 imgw_str(struct imgw *, const char *s);
/* Write v at off (its string, if any, through imgw_str). */
void	 imgw_value(struct imgw *, size_t off, struct value v);
/* An array of n ints; 0 for an empty one. */
size_t	 imgw_ints(struct imgw *, const int *v, size_t n);

/*
 * The expressions of a set of rules (the per-server ones, the deployment
 * ones) sit together in a region of their own: every node in one array,
 * each after its kids (so that a walk in order meets a node's kids first,
 * and no cycle can be written), every kids array in another. A region is
 * checked in one pass over its nodes, and a pointer to an expression in
 * constant time: a node of the region, at a node's boundary.
 */
struct img_exprs {
	uint64_t	nodes, nnodes;	/* struct expr[nnodes] */
	uint64_t	kids, nkids;	/* struct expr *[nkids] */
};
struct expr;
/* Make the field at field_off point to e (NULL: leave it NULL) once the
 * region is written; imgw_exprs writes it. */
void	 imgw_expr(struct imgw *, size_t field_off, const struct expr *e);
/* The region of every expression imgw_expr was given since the last one:
 * written, its fields pointed at it, its place in *x. */
void	 imgw_exprs(struct imgw *, struct img_exprs *x);

/*
 * Reading an image back. The loader (catimg.c) takes an image for
 * untrusted input: every object the catalog reaches is checked with these
 * before anything uses it; expr_image_ok and tmpl_image_ok (expr.h) check
 * expressions and templates with them. They are inline (here, with what
 * they know of the image) because a check of the catalog calls them tens
 * of thousands of times at every start: each is a few compares, no
 * division, no call.
 *
 * Strings are checked in constant time: the image is read-only once
 * checked, so a string that starts before the last NUL byte of the image
 * ends inside it.
 */
struct imgr {
	const unsigned char	*base;
	size_t			 size;
	size_t			 strend;	/* one past the last NUL, or 0 */
	size_t			 budget;	/* bytes of objects left to visit */
	const struct catalog	*cat;		/* its options checked */
	size_t			 nslots;	/* of the rule being checked */
	bool			 deploy;
	size_t			 hdr;		/* bytes of header: no object */
	const struct expr	*xnodes;	/* the expression region checked */
	size_t			 nxnodes;
};

/* The offset of p past the header, or r->size when p is not there. */
static inline size_t
imgr_off(const struct imgr *r, const void *p)
{
	uintptr_t	a = (uintptr_t)p, b = (uintptr_t)r->base;

	/* One unsigned compare: a below b wraps around to a large offset. */
	if (a - b - r->hdr >= r->size - r->hdr)
		return r->size;
	return (size_t)(a - b);
}

/*
 * n objects of size bytes each at p, aligned to align (a power of two, an
 * _Alignof), wholly inside the image; p is NULL exactly when n is 0. What
 * is visited counts against the image's size, so that no walk over shared
 * or cyclic objects does more work than a walk over the image's own
 * objects would. n * size is computed with an overflow check, so that
 * neither n nor size, which come from the image, can wrap it.
 */
static inline bool
imgr_array(struct imgr *r, const void *p, size_t n, size_t size,
    size_t align)
{
	size_t	off, bytes;

	if (n == 0 || p == NULL)
		return n == 0 && p == NULL;
	off = imgr_off(r, p);
	if (off == r->size || (off & (align - 1)) != 0 || size == 0 ||
	    __builtin_mul_overflow(n, size, &bytes) || bytes > r->size - off ||
	    bytes > r->budget)
		return false;
	r->budget -= bytes;
	return true;
}

/* A string that starts and ends (NUL) inside the image; NULL if may_null. */
static inline bool
imgr_str(const struct imgr *r, const char *s, bool may_null)
{
	if (s == NULL)
		return may_null;
	return imgr_off(r, s) < r->strend;
}

/* A bool stored as 0 or 1 (any other byte is not a bool). */
static inline bool
imgr_bool(const bool *b)
{
	unsigned char	c;

	memcpy(&c, b, 1);
	return c <= 1;
}

/* A value of a known type; a string one's string inside the image. */
static inline bool
imgr_value(const struct imgr *r, const struct value *v)
{
	switch (v->t) {
	case V_UNKNOWN:
	case V_NULL:
	case V_INT:
	case V_FLOAT:
		return true;
	case V_BOOL:
		return imgr_bool(&v->u.b);
	case V_STR:
	case V_LIST:
		return imgr_str(r, v->u.s, false);
	}
	return false;
}

/* A slot the rule being checked may read or write (catimg.c). */
bool	 imgr_slot(const struct imgr *, int slot);

#endif
