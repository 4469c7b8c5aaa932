/*
 * imgw.h - writer of a relocatable memory image (the compiled catalog).
 *
 * An image is one block of bytes in which every object sits at an offset
 * and every pointer field holds the offset of its target (0 for NULL).
 * The writer records where each pointer field is; the loader adds the
 * address the block was mapped at to exactly those fields. Objects keep
 * their native C layout, so after relocation the block is used in place.
 *
 * Offsets stay valid across imgw_alloc; addresses from imgw_at do not.
 */
#ifndef PDWIZ_IMGW_H
#define PDWIZ_IMGW_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "value.h"

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
 * Reading an image back. The loader (catimg.c) takes an image for
 * untrusted input: after relocation, every object the catalog reaches is
 * checked with these before anything uses it; expr_image_ok and
 * tmpl_image_ok (expr.h) check expressions and templates with them.
 */
struct imgr;

/*
 * n objects of size bytes each at p, aligned to align, wholly inside the
 * image; p is NULL exactly when n is 0. What is visited counts against the
 * image's size, so that no walk over shared or cyclic objects does more
 * work than a walk over the image's own objects would.
 */
bool	 imgr_array(struct imgr *, const void *p, size_t n, size_t size,
	    size_t align);
/* A string that starts and ends (NUL) inside the image; NULL if may_null. */
bool	 imgr_str(struct imgr *, const char *s, bool may_null);
/* A value of a known type; a string one's string inside the image. */
bool	 imgr_value(struct imgr *, const struct value *);
/* A slot the rule being checked may read or write. */
bool	 imgr_slot(struct imgr *, int slot);
/* A bool stored as 0 or 1 (any other byte is not a bool). */
bool	 imgr_bool(struct imgr *, const bool *);

#endif
