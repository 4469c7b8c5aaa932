/*
 * fuzz_deploy.c - the deployment-file reader (deployment_parse). A file it
 * accepts must survive the round trip: written back with
 * deployment_to_yaml, read again, written again to the same bytes. Then
 * the whole check (plan, per-server and cross-role rules) and the shell
 * emitter run on it.
 */
#include "fuzz.h"
#include "core/engine.h"
#include "deploy/deploy.h"
#include "emit/emit.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog	*cat = fuzz_catalog();
	struct deployment	 d, d2;
	char			 err[4096];
	char			*y1, *y2, *sh;
	struct result		 res;

	if (deployment_parse(cat, "fuzz.yaml", (const char *)data, size, &d,
	    err, sizeof err) != 0) {
		if (strncmp(err, "fuzz.yaml", 9) != 0)
			abort();
		deployment_free(&d);
		return 0;
	}
	y1 = deployment_to_yaml(cat, &d);
	if (y1 == NULL) {
		fprintf(stderr, "a file that reads does not write\n");
		abort();
	}
	if (deployment_parse(cat, "again.yaml", y1, strlen(y1), &d2, err,
	    sizeof err) != 0) {
		fprintf(stderr, "written file does not read back: %s\n---\n%s",
		    err, y1);
		abort();
	}
	y2 = deployment_to_yaml(cat, &d2);
	if (y2 == NULL || strcmp(y1, y2) != 0) {
		fprintf(stderr, "round trip changed the file:\n%s---\n%s", y1,
		    y2 ? y2 : "(null)");
		abort();
	}
	result_init(&res);
	deployment_check(cat, &d, &res);
	result_free(&res);
	sh = emit_shell(cat, &d, false);
	free(sh);
	free(y1);
	free(y2);
	deployment_free(&d2);
	deployment_free(&d);
	return 0;
}
