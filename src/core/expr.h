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

/* Write into a catalog image (imgw.h); the offset of the copy, 0 for NULL. */
struct imgw;
size_t		expr_to_image(struct imgw *, const struct expr *);
size_t		tmpl_to_image(struct imgw *, const struct tmpl *);
/*
 * Read back from an image (imgw.h, struct imgr): is every node, its kids
 * and its strings inside the image, of a known kind with the kids its kind
 * takes, no deeper than EXPR_IMAGE_DEPTH, and every name a slot the rule
 * may read?
 */
#define EXPR_IMAGE_DEPTH	1000
struct imgr;
bool		expr_image_ok(struct imgr *, const struct expr *, int depth);
bool		tmpl_image_ok(struct imgr *, const struct tmpl *);

#endif
