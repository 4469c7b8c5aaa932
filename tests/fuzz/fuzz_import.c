/*
 * fuzz_import.c - importing a launch script as a deployment
 * (deployment_import: the shell reader, then argument and role placement),
 * then writing it as a deployment file and reading that back.
 *
 * Some imports write files the reader refuses (a script without a prefill,
 * decode or router; a multi-node instance with only some of its nodes):
 * known and reported. Those are counted and the count printed at exit;
 * with PDWIZ_FUZZ_STRICT=1 the first one aborts, to get a reproducer.
 */
#include "fuzz.h"
#include "core/engine.h"
#include "deploy/deploy.h"

static unsigned long	nimports, nunreadable;

static void
report(void)
{
	fprintf(stderr, "fuzz_import: %lu of %lu imports wrote a file that "
	    "does not read back\n", nunreadable, nimports);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog	*cat = fuzz_catalog();
	struct deployment	 d, d2;
	struct result		 notes;
	char			 err[4096];
	char			*text = fuzz_text(data, size), *y;
	const char		*strict = getenv("PDWIZ_FUZZ_STRICT");
	size_t			 i;

	if (nimports == 0)
		atexit(report);
	result_init(&notes);
	if (deployment_import(cat, "fuzz.sh", text, size, &d, &notes, err,
	    sizeof err) != 0)
		goto out;
	nimports++;
	if ((y = deployment_to_yaml(cat, &d)) == NULL) {
		/* Refused: only text that is not UTF-8 may cause it. */
		for (i = 0; i < size && data[i] < 0x80; i++)
			continue;
		if (i == size) {
			fprintf(stderr, "deployment_to_yaml failed\n");
			abort();
		}
		goto out;
	}
	if (deployment_parse(cat, "again.yaml", y, strlen(y), &d2, err,
	    sizeof err) != 0) {
		nunreadable++;
		if (strict != NULL && *strict == '1') {
			fprintf(stderr, "imported deployment does not read "
			    "back: %s\n---\n%s", err, y);
			abort();
		}
	}
	deployment_free(&d2);
	free(y);
out:
	deployment_free(&d);
	result_free(&notes);
	free(text);
	return 0;
}
