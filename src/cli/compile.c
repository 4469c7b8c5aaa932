/* compile.c - `pdwiz compile-catalog`: write the compiled catalog image. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "core/catimg.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * pdwiz compile-catalog [-o FILE]: read the YAML of the data directory and
 * write its image (by default DATADIR/rules/catalog.img), checked by
 * reading it back before anything is written.
 */
int
cmd_compile_catalog(int argc, char **argv)
{
	char		*dir, *out = NULL, err[2048];
	struct catalog	*cat;
	int		 rc;

	if (argc == 3 && strcmp(argv[1], "-o") == 0)
		out = xstrdup(argv[2]);
	else if (argc != 1) {
		fprintf(stderr, "usage: pdwiz compile-catalog [-o FILE]\n");
		return EXIT_USAGE;
	}
	if ((dir = catalog_find_datadir(NULL)) == NULL) {
		fprintf(stderr, "pdwiz: cannot find the rules directory; set "
		    "PDWIZ_DATADIR to the folder that holds rules/ and forms/\n");
		free(out);
		return EXIT_USAGE;
	}
	if (out == NULL)
		out = xasprintf("%s/%s", dir, CATIMG_FILE);
	if ((cat = catalog_load(dir, err, sizeof err)) == NULL) {
		fprintf(stderr, "pdwiz: %s\n", err);
		rc = EXIT_USAGE;
	} else if (catimg_write(cat, dir, out, err, sizeof err) != 0) {
		fprintf(stderr, "pdwiz: %s: %s\n", out, err);
		rc = EXIT_USAGE;
	} else
		rc = EXIT_OK;
	catalog_free(cat);
	free(dir);
	free(out);
	return rc;
}
