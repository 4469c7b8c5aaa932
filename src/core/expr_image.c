/* expr_image.c - expressions and templates written into a catalog image. */
#include "expr_int.h"
#include "imgw.h"

#include <string.h>

size_t
expr_to_image(struct imgw *w, const struct expr *e)
{
	struct expr	 c;
	size_t		 off, kids = 0, i;

	if (e == NULL)
		return 0;
	if (e->nkids > 0) {
		kids = imgw_alloc(w, e->nkids * sizeof *e->kids);
		for (i = 0; i < e->nkids; i++)
			imgw_ptr(w, kids + i * sizeof *e->kids,
			    expr_to_image(w, e->kids[i]));
	}
	memset(&c, 0, sizeof c);
	c.k = e->k;
	c.op = e->op;
	c.slot = e->slot;
	c.nkids = e->nkids;
	off = imgw_copy(w, &c, sizeof c);
	imgw_value(w, off + offsetof(struct expr, v), e->v);
	imgw_ptr(w, off + offsetof(struct expr, kids), kids);
	return off;
}

size_t
tmpl_to_image(struct imgw *w, const struct tmpl *t)
{
	struct tmpl	 c;
	size_t		 off, segs = 0, i;

	if (t == NULL)
		return 0;
	if (t->nsegs > 0)
		segs = imgw_alloc(w, t->nsegs * sizeof *t->segs);
	for (i = 0; i < t->nsegs; i++) {
		size_t		 so = segs + i * sizeof *t->segs;
		struct tseg	 s;

		memset(&s, 0, sizeof s);
		s.repr = t->segs[i].repr;
		memcpy(imgw_at(w, so), &s, sizeof s);
		imgw_ptr(w, so + offsetof(struct tseg, lit),
		    imgw_str(w, t->segs[i].lit));
		imgw_ptr(w, so + offsetof(struct tseg, e),
		    expr_to_image(w, t->segs[i].e));
	}
	memset(&c, 0, sizeof c);
	c.nsegs = t->nsegs;
	off = imgw_copy(w, &c, sizeof c);
	imgw_ptr(w, off + offsetof(struct tmpl, segs), segs);
	return off;
}

/* The kids a node of kind k takes: -1 for any number (a list). */
static int
kind_nkids(const struct expr *e)
{
	switch (e->k) {
	case E_LIT:
	case E_NAME:
		return 0;
	case E_LIST:
		return -1;
	case E_NOT:
	case E_NEG:
		return 1;
	case E_AND:
	case E_OR:
	case E_IN:
	case E_NOTIN:
		return 2;
	case E_CMP:
		return e->op >= OP_EQ && e->op <= OP_GE ? 2 : -2;
	case E_ARITH:
		return e->op >= OP_ADD && e->op <= OP_MOD ? 2 : -2;
	case E_CALL:
		return expr_fn_nargs(e->op) >= 0 ? expr_fn_nargs(e->op) : -2;
	}
	return -2;
}

bool
expr_image_ok(struct imgr *r, const struct expr *e, int depth)
{
	int	want;
	size_t	i;

	if (depth > EXPR_IMAGE_DEPTH || !imgr_array(r, e, 1, sizeof *e,
	    _Alignof(struct expr)) || !imgr_value(r, &e->v))
		return false;
	want = kind_nkids(e);
	if (want == -2 || (want >= 0 && e->nkids != (size_t)want) ||
	    (e->k == E_NAME && !imgr_slot(r, e->slot)) ||
	    !imgr_array(r, e->kids, e->nkids, sizeof *e->kids,
	    _Alignof(struct expr *)))
		return false;
	for (i = 0; i < e->nkids; i++)
		if (e->kids[i] == NULL || !expr_image_ok(r, e->kids[i],
		    depth + 1))
			return false;
	/* is_set() reads the slot of its name, not a value. */
	return e->k != E_CALL || e->op != FN_IS_SET || e->kids[0]->k == E_NAME;
}

bool
tmpl_image_ok(struct imgr *r, const struct tmpl *t)
{
	size_t	i;

	if (!imgr_array(r, t, 1, sizeof *t, _Alignof(struct tmpl)) ||
	    !imgr_array(r, t->segs, t->nsegs, sizeof *t->segs,
	    _Alignof(struct tseg)))
		return false;
	for (i = 0; i < t->nsegs; i++) {
		const struct tseg	*s = &t->segs[i];

		if (!imgr_str(r, s->lit, false) || !imgr_bool(&s->repr) ||
		    (s->e != NULL && !expr_image_ok(r, s->e, 0)))
			return false;
	}
	return true;
}
