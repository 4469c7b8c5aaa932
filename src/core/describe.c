/* describe.c - render settings and fixes as operator-facing text. */
#include "describe.h"

#include <string.h>

void
describe_setting(const struct catalog *cat, int opt, struct value v,
    struct buf *b)
{
	const struct option	*o = &cat->opts[opt];

	switch (o->kind) {
	case OK_FLAG:
		if (v.t == V_NULL || (o->type == T_BOOL && v.t == V_BOOL &&
		    !v.u.b)) {
			buf_printf(b, "remove %s", o->flag);
			return;
		}
		if (o->type == T_BOOL) {
			buf_puts(b, o->flag);
			return;
		}
		if (o->type == T_BOOLOPT && v.t == V_BOOL) {
			if (v.u.b)
				buf_puts(b, o->flag);
			else
				buf_printf(b, "--no-%s", o->flag + 2);
			return;
		}
		buf_printf(b, "%s ", o->flag);
		val_cli(b, v);
		return;
	case OK_ENV:
		if (v.t == V_NULL) {
			buf_printf(b, "unset %s", o->name);
			return;
		}
		buf_printf(b, "%s=", o->name);
		if (v.t == V_BOOL)
			buf_puts(b, v.u.b ? "1" : "0");
		else
			val_cli(b, v);
		return;
	case OK_DEPLOY:
		/* A deployment fact cleared: what it stands for is derived. */
		if (v.t == V_NULL) {
			buf_puts(b, "pdwiz works them out");
			return;
		}
		buf_printf(b, "%s = ", o->name);
		val_cli(b, v);
		return;
	default:
		buf_printf(b, "%s = ", o->name);
		val_cli(b, v);
		return;
	}
}

void
describe_fix(const struct catalog *cat, const struct fix *f, struct buf *b)
{
	static const char *const roles[] = { "", "prefill: ", "decode: ",
		"router: " };
	size_t	i;

	for (i = 0; i < f->n; i++) {
		size_t	role = (size_t)f->opt[i] / cat->nopts;

		if (i > 0)
			buf_puts(b, ", ");
		buf_puts(b, roles[role < 4 ? role : 0]);
		describe_setting(cat, (int)((size_t)f->opt[i] % cat->nopts),
		    f->val[i], b);
	}
}
