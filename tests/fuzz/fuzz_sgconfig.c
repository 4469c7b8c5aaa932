/*
 * fuzz_sgconfig.c - SGLang --config YAML (sgconfig_read_text), the words it
 * yields through the argparse-faithful reader (argv_parse), then the rules.
 */
#include "fuzz.h"
#include "core/config.h"
#include "core/engine.h"
#include "io/argv.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog	*cat = fuzz_catalog();
	struct argword		*w = NULL;
	size_t			 n = 0;
	struct result		 res, run;
	struct config		 cfg;

	result_init(&res);
	(void)sgconfig_read_text(cat, "fuzz.yaml", (const char *)data, size,
	    &w, &n, &res);
	config_init(&cfg, cat);
	/* A relative --config inside must not find anything. */
	(void)argv_parse(cat, w, n, &cfg, &res, "/nonexistent-pdwiz-fuzz");
	result_init(&run);
	engine_run(cat, &cfg, &run);
	result_free(&run);
	config_free(&cfg);
	argwords_free(w, n);
	result_free(&res);
	return 0;
}
