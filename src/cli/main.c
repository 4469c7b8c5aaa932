/* main.c - pdwiz: command dispatch, --help, --version. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#ifndef PDWIZ_VERSION
#define PDWIZ_VERSION "0.1.0"
#endif

const char	*pdwiz_argv0 = "pdwiz";

static void
usage(FILE *f)
{
	fputs(
"usage: pdwiz [FILE | --import SCRIPT]    open the wizard\n"
"       pdwiz check [options] [FILE | -]  lint launch commands, a script or YAML\n"
"       pdwiz check [options] -- CMD ARGS...\n"
"       pdwiz import [-o FILE] SCRIPT     launch script -> deployment file\n"
"       pdwiz emit --format shell|runbook|config|k8s|yaml [--force] [-o DIR] DEPLOYMENT\n"
"       pdwiz explain RULE-ID             what a rule means and how to fix it\n"
"       pdwiz rules [--format text|json]  list the rules\n"
"       pdwiz coverage [--sglang-catalog RULES.md]\n"
"                                         map options and SGLang checks to rules\n"
"       pdwiz --help | --version\n"
"\n"
"check options:\n"
"  --format text|json     output format (default text)\n"
"  --input auto|shell|config\n"
"                         how to read FILE (default: detect)\n"
"  --model-arch ARCH      model architecture, e.g. DeepseekV3ForCausalLM\n"
"  --platform P           cuda, hip, npu, musa or xpu\n"
"  --gpu-sm N             GPU generation, e.g. 90 (Hopper), 100 (Blackwell)\n"
"  --fact NAME=VALUE      any other fact\n"
"  -v, --verbose          also show SGLang's overrides\n"
"\n"
"Exit status: 0 no errors, 1 errors found, 2 unusable input or usage.\n"
"See pdwiz(1).\n", f);
}

struct catalog *
cli_load_catalog(void)
{
	char		 err[2048];
	struct catalog	*cat = catalog_open_default(err, sizeof err);

	if (cat == NULL)
		fprintf(stderr, "pdwiz: %s\n", err);
	return cat;
}

int
use_color(FILE *f)
{
	const char	*nc = getenv("NO_COLOR");
	const char	*term = getenv("TERM");

	if (nc != NULL && *nc != '\0')
		return 0;
	if (term == NULL || strcmp(term, "dumb") == 0)
		return 0;
	return isatty(fileno(f));
}

static int
version(void)
{
	struct catalog	*cat = cli_load_catalog();
	size_t		 i;

	printf("pdwiz %s\n", PDWIZ_VERSION);
	if (cat == NULL)
		return EXIT_USAGE;
	printf("rules: %zu checks, %zu deployment checks, %zu options, "
	    "read from sgl-project/sglang at:\n", cat->nrules, cat->ndrules,
	    cat->nopts);
	printf("catalog: %s\n", cat->origin);
	for (i = 0; i < cat->ncommits; i++)
		printf("  %-8s %s %s\n", cat->commits[i].shortname ?
		    cat->commits[i].shortname : "", cat->commits[i].commit ?
		    cat->commits[i].commit : "?", cat->commits[i].path ?
		    cat->commits[i].path : "");
	catalog_free(cat);
	return EXIT_OK;
}

int	wizard_main(int argc, char **argv);
int	cmd_emit(int argc, char **argv);
int	cmd_import(int argc, char **argv);

int
main(int argc, char **argv)
{
	int	rc;

	pdwiz_argv0 = argv[0];
	if (argc >= 2 && (strcmp(argv[1], "--help") == 0 ||
	    strcmp(argv[1], "-h") == 0 || strcmp(argv[1], "help") == 0)) {
		usage(stdout);
		return EXIT_OK;
	}
	if (argc >= 2 && (strcmp(argv[1], "--version") == 0 ||
	    strcmp(argv[1], "-V") == 0))
		rc = version();
	else if (argc >= 2 && strcmp(argv[1], "check") == 0)
		rc = cmd_check(argc - 1, argv + 1);
	else if (argc >= 2 && strcmp(argv[1], "emit") == 0)
		rc = cmd_emit(argc - 1, argv + 1);
	else if (argc >= 2 && strcmp(argv[1], "import") == 0)
		rc = cmd_import(argc - 1, argv + 1);
	else if (argc >= 2 && strcmp(argv[1], "explain") == 0)
		rc = cmd_explain(argc - 1, argv + 1);
	else if (argc >= 2 && strcmp(argv[1], "rules") == 0)
		rc = cmd_rules(argc - 1, argv + 1);
	else if (argc >= 2 && strcmp(argv[1], "coverage") == 0)
		rc = cmd_coverage(argc - 1, argv + 1);
	else if (argc >= 2 && strcmp(argv[1], "compile-catalog") == 0)
		rc = cmd_compile_catalog(argc - 1, argv + 1);
	else if (argc >= 2 && argv[1][0] == '-' && strcmp(argv[1], "--import") != 0) {
		fprintf(stderr, "pdwiz: unknown option %s\n", argv[1]);
		usage(stderr);
		rc = EXIT_USAGE;
	} else
		rc = wizard_main(argc, argv);
	intern_free_all();
	return rc;
}
