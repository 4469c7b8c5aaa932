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

#endif
