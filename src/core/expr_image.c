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
