/* expr_image.c - expressions and templates written into a catalog image. */
#include "expr_int.h"
#include "imgw.h"

#include "util.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/* Count the nodes and kids of e's tree, and give the image its strings
 * now, so that none is written inside the region. */
static void
count_tree(struct imgw *w, const struct expr *e, size_t *nn, size_t *nk)
{
	size_t	i;

	(*nn)++;
	*nk += e->nkids;
	if (e->v.t == V_STR || e->v.t == V_LIST)
		imgw_str(w, e->v.u.s);
	for (i = 0; i < e->nkids; i++)
		count_tree(w, e->kids[i], nn, nk);
}

/* Where the next node and the next kids go. */
struct xcur {
	size_t	nodes, in, kids, ik;
};

/* e's tree into the region: its kids first; the offset of its node. */
static size_t
put_tree(struct imgw *w, const struct expr *e, struct xcur *x)
{
	struct expr	 c;
	size_t		 kids = 0, off, i;

	if (e->nkids > 0) {
		kids = x->kids + x->ik * sizeof *e->kids;
		x->ik += e->nkids;
		for (i = 0; i < e->nkids; i++)
			imgw_ptr(w, kids + i * sizeof *e->kids,
			    put_tree(w, e->kids[i], x));
	}
	memset(&c, 0, sizeof c);
	c.k = e->k;
	c.op = e->op;
	c.slot = e->slot;
	c.nkids = e->nkids;
	off = x->nodes + x->in++ * sizeof c;
	memcpy(imgw_at(w, off), &c, sizeof c);
	imgw_value(w, off + offsetof(struct expr, v), e->v);	/* interned */
	imgw_ptr(w, off + offsetof(struct expr, kids), kids);
	return off;
}

void
expr_region_to_image(struct imgw *w, const size_t *fields,
    const struct expr *const *roots, size_t n, struct img_exprs *out)
{
	struct xcur	x;
	size_t		nn = 0, nk = 0, i;

	for (i = 0; i < n; i++)
		count_tree(w, roots[i], &nn, &nk);
	memset(&x, 0, sizeof x);
	x.nodes = nn > 0 ? imgw_alloc(w, nn * sizeof(struct expr)) : 0;
	x.kids = nk > 0 ? imgw_alloc(w, nk * sizeof(struct expr *)) : 0;
	for (i = 0; i < n; i++)
		imgw_ptr(w, fields[i], put_tree(w, roots[i], &x));
	out->nodes = x.nodes;
	out->nnodes = nn;
	out->kids = x.kids;
	out->nkids = nk;
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
		imgw_expr(w, so + offsetof(struct tseg, e), t->segs[i].e);
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

/*
 * One pass over the region, in order: a node's kids are nodes before it,
 * checked already, so that the region holds no cycle and the length of
 * the longest chain below each node is known when it is met (depth[]).
 * Each node is visited once, whatever points to it; the region's arrays
 * count against the image's budget once.
 */
bool
expr_region_ok(struct imgr *r, const struct img_exprs *x)
{
	const struct expr	*v;
	const struct expr *const *kv;
	uint16_t		*depth;
	size_t			 n = x->nnodes, i, j;
	bool			 ok = true;

	r->xnodes = NULL;
	r->nxnodes = 0;
	if (n == 0)
		return x->nkids == 0;
	/* Offsets inside the image before they make pointers. */
	if (x->nodes > r->size || x->kids > r->size)
		return false;
	v = (const void *)(r->base + x->nodes);
	kv = (const void *)(r->base + x->kids);
	if (!imgr_array(r, v, n, sizeof *v, _Alignof(struct expr)) ||
	    (x->nkids > 0 && !imgr_array(r, kv, x->nkids, sizeof *kv,
	    _Alignof(struct expr *))))
		return false;
	depth = xcalloc(n, sizeof *depth);
	for (i = 0; ok && i < n; i++) {
		const struct expr	*e = &v[i];
		int			 want = kind_nkids(e);
		uintptr_t		 ko = (uintptr_t)e->kids - (uintptr_t)kv;
		unsigned		 d = 0;

		if (!imgr_value(r, &e->v) || want == -2 ||
		    (want >= 0 && e->nkids != (size_t)want) ||
		    (e->k == E_NAME && !imgr_slot(r, e->slot))) {
			ok = false;
			break;
		}
		/* Its kids: a run of the kids array (ko / 8 <= nkids first,
		 * so that the subtraction cannot wrap), each a node before
		 * it, at a node's boundary. */
		if (e->nkids == 0)
			ok = e->kids == NULL;
		else
			ok = ko % sizeof *kv == 0 &&
			    ko / sizeof *kv <= x->nkids &&
			    e->nkids <= x->nkids - ko / sizeof *kv;
		for (j = 0; ok && j < e->nkids; j++) {
			uintptr_t	o = (uintptr_t)e->kids[j] - (uintptr_t)v;

			ok = o % sizeof *v == 0 && o / sizeof *v < i;
			if (ok && depth[o / sizeof *v] > d)
				d = depth[o / sizeof *v];
		}
		if (!ok || d >= EXPR_IMAGE_DEPTH) {
			ok = false;
			break;
		}
		depth[i] = (uint16_t)(d + 1);
		/* is_set() reads the slot of its name, not a value. */
		if (e->k == E_CALL && e->op == FN_IS_SET &&
		    e->kids[0]->k != E_NAME)
			ok = false;
	}
	free(depth);
	if (!ok)
		return false;
	r->xnodes = v;
	r->nxnodes = n;
	return true;
}

/* A node of the region last checked: in its array, at a node's start. */
bool
expr_image_ok(const struct imgr *r, const struct expr *e)
{
	uintptr_t	o = (uintptr_t)e - (uintptr_t)r->xnodes;

	return r->xnodes != NULL && o % sizeof *e == 0 &&
	    o / sizeof *e < r->nxnodes;
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
		    (s->e != NULL && !expr_image_ok(r, s->e)))
			return false;
	}
	return true;
}
