/*
 * expr.h - the rule expression language (see rules/README.md).
 *
 * Names are resolved when parsing, through a callback, to "slots": an
 * integer the evaluator maps to a value (role * nopts + option index).
 */
#ifndef PDWIZ_EXPR_H
#define PDWIZ_EXPR_H

#include <stdbool.h>
#include <stddef.h>

#include "value.h"

struct expr;
struct tmpl;
struct config;
struct buf;

/* Return the slot for name, or -1 if unknown. */
typedef int (*expr_resolve_fn)(void *ctx, const char *name);

/*
 * Parse text. On error return NULL and write a message into err with the
 * 0-based byte offset of the problem in *erroff.
 */
struct expr	*expr_parse(const char *text, expr_resolve_fn, void *ctx,
		    char *err, size_t errlen, size_t *erroff);
void		 expr_free(struct expr *);

/* Parse a message template with {expr} and {expr!r} placeholders. */
struct tmpl	*tmpl_parse(const char *text, expr_resolve_fn, void *ctx,
		    char *err, size_t errlen, size_t *erroff);
void		 tmpl_free(struct tmpl *);

/* Evaluation context. */
struct evalctx {
	const struct config *const *cfgs;	/* indexed by slot / nopts */
	size_t			 nopts;
	const unsigned char	*taint;		/* per slot of cfgs[0], or NULL */
	bool			 read_taint;	/* out: a tainted slot was read */
	int			 unknown_slot;	/* out: first unknown slot read, -1 */
};

struct value	expr_eval(const struct expr *, struct evalctx *);
/* Render a template; unknown values render as <unknown>. */
void		tmpl_render(const struct tmpl *, struct evalctx *, struct buf *);

/* Call fn for every slot the expression reads. */
void		expr_slots(const struct expr *, void (*fn)(void *, int), void *);
void		tmpl_slots(const struct tmpl *, void (*fn)(void *, int), void *);

/*
 * Write into a catalog image (imgw.h). expr_region_to_image: the n
 * expressions roots[] (none NULL) as one region (struct img_exprs), each
 * field fields[i] pointed at roots[i]'s copy. tmpl_to_image: the offset
 * of the copy of t, 0 for NULL (its expressions through imgw_expr).
 */
struct imgw;
struct img_exprs;
void		expr_region_to_image(struct imgw *, const size_t *fields,
		    const struct expr *const *roots, size_t n,
		    struct img_exprs *);
size_t		tmpl_to_image(struct imgw *, const struct tmpl *);
/*
 * Read back from an image (imgw.h, struct imgr). expr_region_ok: is every
 * node of region x inside the image, of a known kind with the kids its
 * kind takes, each kid a node before it in the region, no chain of kids
 * longer than EXPR_IMAGE_DEPTH, every string inside the image and every
 * name a slot the rules being checked may read? It makes x the region
 * expr_image_ok checks against: is e a node of it?
 */
#define EXPR_IMAGE_DEPTH	1000
struct imgr;
bool		expr_region_ok(struct imgr *, const struct img_exprs *x);
bool		expr_image_ok(const struct imgr *, const struct expr *e);
bool		tmpl_image_ok(struct imgr *, const struct tmpl *);

#endif
