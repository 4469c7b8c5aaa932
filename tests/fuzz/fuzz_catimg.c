/*
 * fuzz_catimg.c - the compiled catalog's loader (catimg_check, as
 * catimg_load runs it at startup). The input is an image: it is given
 * this build's source id, its own size and its checksum (catimg_seal), so
 * that every mutation reaches what the loader checks past the checksum.
 * An image the loader accepts is then used: every option's name and
 * flags looked up, every rule found by its id, the per-server and the
 * deployment rules run on default configurations (conditions, messages,
 * overrides), the model facts and the flag history read.
 */
#include "fuzz.h"
#include "core/catimg.h"
#include "core/config.h"
#include "core/engine.h"

/* Interned strings made by the runs are freed this often. */
#define CATIMG_FREE	2000

static void
use(const struct catalog *img)
{
	const char		*dir = getenv("PDWIZ_DATADIR");
	struct catalog		 cat = *img;
	struct config		 cfg, roles[NSLOT_SCOPE];
	const struct config	*rp[NSLOT_SCOPE];
	struct result		 res;
	size_t			 i, a;

	/* The data directory (hardware and model size tables), as
	 * catimg_load sets it; the same pointer every run. */
	cat.dir = dir != NULL && *dir != '\0' ? dir : FUZZ_DATADIR;
	for (i = 0; i < cat.nopts; i++) {
		const struct option	*o = &cat.opts[i];
		int			 k = catalog_find(&cat, o->name);

		if (k < -1 || k >= (int)cat.nopts)
			abort();
		if (o->flag != NULL && (k = catalog_find_flag(&cat,
		    o->flag)) >= (int)cat.nopts)
			abort();
		for (a = 0; a < o->naliases; a++)
			if (catalog_find_flag(&cat, o->aliases[a]) >=
			    (int)cat.nopts)
				abort();
	}
	if (catalog_find(&cat, "no such option") >= (int)cat.nopts)
		abort();
	(void)catalog_suggest_flag(&cat, "--tp-sise");
	for (i = 0; i < cat.nrules; i++)
		if (catalog_rule(&cat, cat.rules[i].id) == NULL)
			abort();
	for (i = 0; cat.hist != NULL && i < cat.hist->n; i++) {
		const struct flag_hist	*e = &cat.hist->e[i];

		if (flaghist_find(&cat, e->flag) == NULL)
			abort();
		(void)flaghist_state(e, cat.hist->sglang_version);
		free(flaghist_advice(e, cat.hist->newer_than));
	}
	config_init(&cfg, &cat);
	(void)catalog_model_facts(&cat, "deepseek-ai/DeepSeek-V3", &cfg);
	result_init(&res);
	engine_run(&cat, &cfg, &res);
	result_free(&res);
	for (i = 0; i < NSLOT_SCOPE; i++) {
		config_init(&roles[i], &cat);
		rp[i] = &roles[i];
	}
	result_init(&res);
	engine_run_deploy(&cat, rp, &res);
	result_free(&res);
	for (i = 0; i < NSLOT_SCOPE; i++)
		config_free(&roles[i]);
	config_free(&cfg);
	/* what the catalog made on first use, on this copy */
	catalog_free_caches(&cat);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static unsigned long	 runs;
	const struct catalog	*cat;
	const char		*why;
	unsigned char		*img;

	if (size == 0)
		return 0;
	img = xmalloc(size);	/* aligned, as a mapping is */
	memcpy(img, data, size);
	(void)catimg_seal(img, size);
	if ((cat = catimg_check(img, size, &why)) != NULL)
		use(cat);
	else if (why == NULL)
		abort();
	free(img);
	if (++runs % CATIMG_FREE == 0)
		intern_free_all();
	return 0;
}
