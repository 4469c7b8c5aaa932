/* main.c - pdwiz: command dispatch, --help, --version. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "core/util.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* From the file VERSION, given by the Makefile. */
#ifndef PDWIZ_VERSION
#error "PDWIZ_VERSION is not defined: build with make (it reads VERSION)"
#endif

const char	*pdwiz_argv0 = "pdwiz";

int	wizard_main(int argc, char **argv);

static const struct clicmd *const commands[] = {
	&cli_check, &cli_import, &cli_emit, &cli_explain, &cli_rules,
	&cli_coverage, &cli_compile_catalog, NULL
};

enum { M_IMPORT = 1, M_HELP, M_VERSION, M_PAGES };

static const struct cliopt pdwiz_opts[] = {
	{ M_IMPORT, "import", 0, "SCRIPT",
	    "open the wizard on a deployment imported from SCRIPT", 0 },
	{ M_PAGES, "pages", 0, NULL,
	    "a new deployment opens on the full pages, without the quick start",
	    0 },
	{ M_HELP, "help", 'h', NULL, "this text", 0 },
	{ M_VERSION, "version", 'V', NULL,
	    "the version and the SGLang commits the rules were read from", 0 },
	{ 0, NULL, 0, NULL, NULL, 0 }
};

static const struct clicmd cli_pdwiz = {
	NULL, { "[--pages] [FILE | --import SCRIPT]", NULL }, "open the wizard",
	pdwiz_opts, wizard_main, CLICMD_PLAIN
};

#define SUMMARY_COL	41

static void
usage(FILE *f)
{
	size_t	i;

	cli_synopsis(f, &cli_pdwiz, true, SUMMARY_COL);
	for (i = 0; commands[i] != NULL; i++)
		cli_synopsis(f, commands[i], false, SUMMARY_COL);
	fputs("       pdwiz --help | --version\n", f);
	for (i = 0; commands[i] != NULL; i++) {
		if (commands[i]->opts == NULL)
			continue;
		fprintf(f, "\n%s options:\n", commands[i]->name);
		cli_options(f, commands[i]);
	}
	fputs("\nExit status: 0 no errors, 1 errors found, 2 unusable input or "
	    "usage.\nSee pdwiz COMMAND --help and pdwiz(1).\n", f);
}

static const struct clicmd *
find_command(const char *name)
{
	size_t	i;

	for (i = 0; commands[i] != NULL; i++)
		if (strcmp(commands[i]->name, name) == 0)
			return commands[i];
	return NULL;
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

/* The errno of the first write to stdout that failed (close_stdout). */
static int	stdout_errno;

void
cli_puts(const char *s)
{
	if (fputs(s, stdout) == EOF && stdout_errno == 0)
		stdout_errno = errno;
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


/*
 * Which SGLang the rules model: the release the flag history says the
 * catalog is newer than, and the reading of every citation against one
 * SGLang tree (rules/sglang-state.tsv, its summary line).
 */
static void
version_state(const struct catalog *cat)
{
	char	 vs[32], line[512], err[512], *dir = catalog_find_datadir(NULL);
	char	*p;
	FILE	*f;
	int	 fd;

	if (cat->hist != NULL && cat->hist->sglang_version != SGVER_UNKNOWN)
		printf("SGLang modelled: %s\n", sgver_format(
		    cat->hist->sglang_version, vs, sizeof vs));
	else if (cat->hist != NULL && cat->hist->newer_than != SGVER_UNKNOWN)
		printf("SGLang modelled: main, newer than release %s; the cited "
		    "files mix two stages of SGLang's arg_groups refactor "
		    "(rules/README.md, \"Which SGLang the catalog models\")\n",
		    sgver_format(cat->hist->newer_than, vs, sizeof vs));
	for (size_t i = 0; cat->hist != NULL && i < cat->hist->ncommits; i++) {
		const struct sg_commit	*c = &cat->hist->commits[i];

		printf("SGLang commit known as a version: main@%s (%s, after "
		    "release %s)%s\n", c->name, c->date, sgver_format(c->after,
		    vs, sizeof vs), cat->hist->inv_main_commit != NULL &&
		    strcmp(cat->hist->inv_main_commit, c->commit) == 0 ?
		    ", with its own flags (rules/flag-inventory.tsv)" : "");
	}
	if (dir == NULL)
		return;
	p = xasprintf("%s/rules/sglang-state.tsv", dir);
	if ((fd = open_input(p, err, sizeof err)) == -1)
		f = NULL;
	else if ((f = fdopen(fd, "r")) == NULL)
		close(fd);
	if (f != NULL) {
		while (fgets(line, sizeof line, f) != NULL)
			if (strncmp(line, "# sgcite: ", 10) == 0)
				printf("citations: %s", line + 10);
		fclose(f);
	}
	free(p);
	free(dir);
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
	version_state(cat);
	for (i = 0; i < cat->ncommits; i++)
		printf("  %-8s %s %s\n", cat->commits[i].shortname ?
		    cat->commits[i].shortname : "", cat->commits[i].commit ?
		    cat->commits[i].commit : "?", cat->commits[i].path ?
		    cat->commits[i].path : "");
	catalog_free(cat);
	return EXIT_OK;
}

/* pdwiz help [COMMAND] */
static int
help(int argc, char **argv)
{
	const struct clicmd	*c;

	if (argc < 3) {
		usage(stdout);
		return EXIT_OK;
	}
	if ((c = find_command(argv[2])) == NULL) {
		fprintf(stderr, "pdwiz: no command %s (see pdwiz --help)\n",
		    argv[2]);
		return EXIT_USAGE;
	}
	cli_help(stdout, c);
	return EXIT_OK;
}

/* pdwiz [FILE | --import SCRIPT], --help, --version. */
static int
top_level(int argc, char **argv)
{
	struct cliparse	 p;
	char		*wargv[4];

	cliparse_init(&p, &cli_pdwiz, argc, argv);
	switch (cliparse_next(&p)) {
	case CLIOPT_HELP:
	case M_HELP:
		usage(stdout);
		return EXIT_OK;
	case M_VERSION:
		return version();
	case M_IMPORT:
		if (p.i < argc) {
			fprintf(stderr, "pdwiz: --import takes one SCRIPT\n");
			return EXIT_USAGE;
		}
		wargv[0] = argv[0];
		wargv[1] = (char *)"--import";
		wargv[2] = (char *)p.arg;
		wargv[3] = NULL;
		return wizard_main(3, wargv);
	case CLIOPT_ERROR:
		return EXIT_USAGE;
	case M_PAGES:
	default:
		return wizard_main(argc, argv);
	}
}

/*
 * Flush and close stdout, so that a report cut short (a full disk, a
 * closed descriptor) is never taken for success: exit status 2 then.
 * Closing an stdout that was closed from the start and never written
 * is no failure. A write that failed before (its data dropped from the
 * buffer, so the flush has nothing to fail on) says why with its errno.
 */
static int
close_stdout(int rc)
{
	int	err = 0, last = errno;

	/* A stream that failed earlier may have dropped what was left, so
	 * the flush writes nothing: the failed write's errno is then still
	 * errno, when it is one a write gives. */
	if (last != ENOSPC && last != EDQUOT && last != EFBIG &&
	    last != EPIPE && last != EBADF)
		last = 0;
	errno = 0;
	if (fflush(stdout) != 0 || ferror(stdout))
		err = stdout_errno ? stdout_errno : errno ? errno :
		    last ? last : EIO;
	if (fclose(stdout) != 0 && err == 0 && errno != EBADF)
		err = errno;
	if (err == 0)
		return rc;
	fprintf(stderr, "pdwiz: standard output: %s\n", strerror(err));
	return EXIT_USAGE;
}

int
main(int argc, char **argv)
{
	const struct clicmd	*c;
	int			 rc;

	pdwiz_argv0 = argv[0];
	if (argc >= 2 && (c = find_command(argv[1])) != NULL)
		rc = c->run(argc - 1, argv + 1);
	else if (argc >= 2 && strcmp(argv[1], "help") == 0)
		rc = help(argc, argv);
	else
		rc = top_level(argc, argv);
	intern_free_all();
	return close_stdout(rc);
}
