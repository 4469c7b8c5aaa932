/*
 * fuzz_import.c - importing a launch script as a deployment
 * (deployment_import: the shell reader, then argument and role placement).
 * A script that deployment_import_complete accepts (what `pdwiz import`
 * and `pdwiz emit` then write) must give a deployment file that reads
 * back and writes the same bytes again; one it refuses must say so with
 * the script's name.
 */
#include "fuzz.h"
#include "core/engine.h"
#include "deploy/deploy.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog	*cat = fuzz_catalog();
	struct deployment	 d, d2;
	struct result		 notes;
	char			 err[4096];
	char			*text = fuzz_text(data, size), *y, *y2;

	result_init(&notes);
	if (deployment_import(cat, "fuzz.sh", text, size, &d, &notes, err,
	    sizeof err) != 0) {
		if (strncmp(err, "fuzz.sh", 7) != 0)
			abort();
		goto out;
	}
	if (deployment_import_complete(cat, &d, "fuzz.sh", err,
	    sizeof err) != 0) {
		if (strncmp(err, "fuzz.sh", 7) != 0)
			abort();
		goto out;
	}
	if ((y = deployment_to_yaml(cat, &d)) == NULL)
		abort();	/* complete means writable */
	if (deployment_parse(cat, "again.yaml", y, strlen(y), &d2, err,
	    sizeof err) != 0) {
		fprintf(stderr, "imported deployment does not read back: "
		    "%s\n---\n%s", err, y);
		abort();
	}
	y2 = deployment_to_yaml(cat, &d2);
	if (y2 == NULL || strcmp(y, y2) != 0) {
		fprintf(stderr, "imported deployment changes when read back:"
		    "\n%s---\n%s", y, y2 ? y2 : "(null)");
		abort();
	}
	free(y2);
	deployment_free(&d2);
	free(y);
out:
	deployment_free(&d);
	result_free(&notes);
	free(text);
	return 0;
}
