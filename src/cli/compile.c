/* compile.c - `pdwiz compile-catalog`: write the compiled catalog image. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "cli/cliopt.h"
#include "core/catimg.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { C_OUTPUT = 1 };

static const struct cliopt compile_opts[] = {
	{ C_OUTPUT, "output", 'o', "FILE",
	    "where to write it (default: DATADIR/" CATIMG_FILE ")", 0 },
	{ 0, NULL, 0, NULL, NULL, 0 }
};

const struct clicmd cli_compile_catalog = {
	"compile-catalog", { "", NULL },
	"write the compiled catalog (make runs it)",
	compile_opts, cmd_compile_catalog, 0
};

static int
compile(const char *out)
{
	char		*dir, *path, err[2048];
	struct catalog	*cat;
	int		 rc = EXIT_OK;

	if ((dir = catalog_find_datadir(NULL)) == NULL) {
		fprintf(stderr, "pdwiz: cannot find the rules directory; set "
		    "PDWIZ_DATADIR to the folder that holds rules/ and forms/\n");
		return EXIT_USAGE;
	}
	path = out != NULL ? xstrdup(out) : xasprintf("%s/%s", dir,
	    CATIMG_FILE);
	if ((cat = catalog_load(dir, err, sizeof err)) == NULL) {
		fprintf(stderr, "pdwiz: %s\n", err);
		rc = EXIT_USAGE;
	} else if (catimg_write(cat, dir, path, err, sizeof err) != 0) {
		fprintf(stderr, "pdwiz: %s: %s\n", path, err);
		rc = EXIT_USAGE;
	}
	catalog_free(cat);
	free(dir);
	free(path);
	return rc;
}

/*
 * pdwiz compile-catalog [-o FILE]: the image is read back and compared
 * with what was written before the file is replaced.
 */
int
cmd_compile_catalog(int argc, char **argv)
{
	struct cliparse	 p;
	const char	*out = NULL;
	int		 id;

	cliparse_init(&p, &cli_compile_catalog, argc, argv);
	while ((id = cliparse_next(&p)) != CLIOPT_END) {
		switch (id) {
		case C_OUTPUT:
			out = p.arg;
			break;
		case CLIOPT_HELP:
			cli_help(stdout, &cli_compile_catalog);
			return EXIT_OK;
		case CLIOPT_OPERAND:
			cli_usage(stderr, &cli_compile_catalog);
			return EXIT_USAGE;
		default:
			return EXIT_USAGE;
		}
	}
	return compile(out);
}
