/*
 * fuzz_expr.c - the rule expression language: expr_parse and tmpl_parse
 * with names resolved over the real catalog (per-server and deployment
 * name spaces), then evaluation and rendering.
 *
 * The first input byte chooses: bit 0 template (else expression), bit 1
 * deployment names (prefill.x, decode.x, router.x), bit 2 give the
 * evaluator unknown roles. The rest is the text.
 */
#include "fuzz.h"
#include "core/config.h"
#include "core/expr.h"
#include "core/role.h"

static const char *const prefix[] = { "prefill.", "decode.", "router." };

struct rctx {
	const struct catalog	*cat;
	int			 deploy;
};

static int
resolve(void *arg, const char *name)
{
	const struct rctx	*rc = arg;
	size_t			 r;
	int			 o;

	if (rc->deploy) {
		for (r = 0; r < NPD_ROLE; r++) {
			size_t	pl = strlen(prefix[r]);

			if (strncmp(name, prefix[r], pl) == 0) {
				o = catalog_find(rc->cat, name + pl);
				return o < 0 ? -1 : slot_of(rc->cat->nopts,
				    role_scope((enum role)r), o);
			}
		}
	}
	return catalog_find(rc->cat, name);
}

static void
slot_ok(void *arg, int slot)
{
	const struct catalog	*cat = arg;

	if (slot < 0 || (size_t)slot >= NSLOT_SCOPE * cat->nopts)
		abort();
}

/* Default configs for the four roles, made once per catalog load. */
static struct config		 cfg[4];
static unsigned			 cfg_gen;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog	*cat = fuzz_catalog();
	struct rctx		 rc = { cat, 0 };
	const struct config	*cfgs[4];
	struct evalctx		 ec;
	char			 err[256], *text;
	size_t			 off = 0, i;
	unsigned		 mode;
	struct buf		 b = { 0 };

	if (size == 0)
		return 0;
	mode = data[0];
	rc.deploy = (mode & 2) != 0;
	text = fuzz_text(data + 1, size - 1);
	if (cfg_gen != fuzz_gen) {
		for (i = 0; i < 4; i++) {
			if (cfg_gen != 0)
				config_free(&cfg[i]);
			config_init(&cfg[i], cat);
		}
		cfg_gen = fuzz_gen;
	}
	for (i = 0; i < 4; i++)
		cfgs[i] = (mode & 4) && i > 1 ? NULL : &cfg[i];
	ec = (struct evalctx){ cfgs, cat->nopts, NULL, false, -1 };
	if (mode & 1) {
		struct tmpl	*t = tmpl_parse(text, resolve, &rc, err,
		    sizeof err, &off);

		if (t != NULL) {
			tmpl_slots(t, slot_ok, (void *)cat);
			tmpl_render(t, &ec, &b);
			tmpl_free(t);
		} else if (off > size - 1)
			abort();
	} else {
		struct expr	*e = expr_parse(text, resolve, &rc, err,
		    sizeof err, &off);

		if (e != NULL) {
			struct value	v;

			expr_slots(e, slot_ok, (void *)cat);
			v = expr_eval(e, &ec);
			val_repr_py(&b, v);
			buf_free(&b);
			val_str_py(&b, v);
			expr_free(e);
		} else if (off > size - 1)
			abort();
	}
	buf_free(&b);
	free(text);
	return 0;
}
