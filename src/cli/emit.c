/* emit.c - `pdwiz emit` and `pdwiz import`: deployments in and out. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "core/util.h"
#include "deploy/deploy.h"
#include "emit/emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#define INPUT_MAX	(16 * 1024 * 1024)

int	cmd_emit(int argc, char **argv);
int	cmd_import(int argc, char **argv);

/*
 * Load FILE as a deployment: a deployment YAML file, or a launch script
 * that is imported first. Import notes go to stderr. 0, or -1 (printed).
 */
static int
load_any(const struct catalog *cat, const char *file, struct deployment *d)
{
	char		*text, err[8192];
	size_t		 len, i;
	struct result	 notes;
	const char	*name = strcmp(file, "-") == 0 ? "<stdin>" : file;
	int		 rc;

	if ((text = read_file(file, INPUT_MAX, &len, err, sizeof err)) == NULL) {
		fprintf(stderr, "pdwiz: %s\n", err);
		return -1;
	}
	if (memchr(text, '\0', len) != NULL) {
		fprintf(stderr, "%s: binary input (NUL byte)\n", name);
		free(text);
		return -1;
	}
	if (deployment_sniff(text, len)) {
		rc = deployment_parse(cat, name, text, len, d, err, sizeof err);
		if (rc != 0)
			fprintf(stderr, "%s\n", err);
		free(text);
		return rc;
	}
	result_init(&notes);
	rc = deployment_import(cat, name, text, len, d, &notes, err,
	    sizeof err);
	if (rc == 0 && deployment_import_complete(cat, d, name, err,
	    sizeof err) != 0) {
		deployment_free(d);
		rc = -1;
	}
	if (rc != 0)
		fprintf(stderr, "%s\n", err);
	for (i = 0; i < notes.n; i++)
		fprintf(stderr, "%s:%d: warning: %s\n", name, notes.d[i].line,
		    notes.d[i].msg);
	result_free(&notes);
	free(text);
	return rc;
}

static int
write_out(const char *dir, const char *name, const char *data)
{
	char	*path = xasprintf("%s/%s", dir, name), err[512];
	int	 rc;

	rc = write_file_atomic(path, data, strlen(data), err, sizeof err);
	if (rc != 0)
		fprintf(stderr, "pdwiz: %s\n", err);
	else if (strcmp(name + strlen(name) - 3, ".sh") == 0)
		chmod(path, 0755);
	free(path);
	return rc;
}

int
cmd_emit(int argc, char **argv)
{
	struct catalog		*cat;
	struct deployment	 d;
	struct emission		 em;
	enum emit_format	 fmt = EMIT_SHELL;
	const char		*file = NULL, *dir = NULL;
	bool			 have_fmt = false;
	unsigned		 flags = 0;
	char			 err[2048];
	int			 i, rc = EXIT_USAGE;
	size_t			 k;

	for (i = 1; i < argc; i++) {
		const char	*a = argv[i], *v = NULL;

		if (strncmp(a, "--format=", 9) == 0)
			v = a + 9;
		else if (strcmp(a, "--format") == 0 && i + 1 < argc)
			v = argv[++i];
		if (v != NULL) {
			if (emit_format_parse(v, &fmt) != 0) {
				fprintf(stderr, "pdwiz emit: --format takes shell, "
				    "runbook, config, k8s or yaml\n");
				return EXIT_USAGE;
			}
			have_fmt = true;
		} else if (strcmp(a, "--force") == 0)
			flags |= EMIT_FORCE;
		else if ((strcmp(a, "-o") == 0 || strcmp(a, "--output-dir") == 0)
		    && i + 1 < argc)
			dir = argv[++i];
		else if (a[0] == '-' && a[1] != '\0') {
			fprintf(stderr, "pdwiz emit: unknown option %s\n", a);
			return EXIT_USAGE;
		} else if (file == NULL)
			file = a;
		else {
			fprintf(stderr, "pdwiz emit: only one DEPLOYMENT\n");
			return EXIT_USAGE;
		}
	}
	if (!have_fmt || file == NULL) {
		fprintf(stderr, "usage: pdwiz emit --format shell|runbook|config|"
		    "k8s|yaml [--force] [-o DIR] DEPLOYMENT\n");
		return EXIT_USAGE;
	}
	if ((cat = cli_load_catalog()) == NULL)
		return EXIT_USAGE;
	if (load_any(cat, file, &d) != 0)
		goto out;
	if (deployment_emit(cat, &d, fmt, flags, &em, err, sizeof err) != 0) {
		fprintf(stderr, "pdwiz emit: %s\n", err);
		deployment_free(&d);
		rc = EXIT_FOUND;
		goto out;
	}
	rc = EXIT_OK;
	for (k = 0; k < em.n; k++) {
		if (dir != NULL) {
			if (write_out(dir, em.f[k].name, em.f[k].data) != 0)
				rc = EXIT_USAGE;
		} else {
			if (em.n > 1)
				printf("%s==> %s <==\n", k ? "\n" : "",
				    em.f[k].name);
			fputs(em.f[k].data, stdout);
		}
	}
	emission_free(&em);
	deployment_free(&d);
out:
	catalog_free(cat);
	return rc;
}

int
cmd_import(int argc, char **argv)
{
	struct catalog		*cat;
	struct deployment	 d;
	const char		*file = NULL, *outp = NULL;
	char			*y, err[512];
	int			 i, rc = EXIT_USAGE;

	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "-o") == 0 && i + 1 < argc)
			outp = argv[++i];
		else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "pdwiz import: unknown option %s\n",
			    argv[i]);
			return EXIT_USAGE;
		} else if (file == NULL)
			file = argv[i];
		else {
			fprintf(stderr, "pdwiz import: only one SCRIPT\n");
			return EXIT_USAGE;
		}
	}
	if (file == NULL) {
		fprintf(stderr, "usage: pdwiz import [-o FILE] SCRIPT\n");
		return EXIT_USAGE;
	}
	if ((cat = cli_load_catalog()) == NULL)
		return EXIT_USAGE;
	if (load_any(cat, file, &d) != 0)
		goto out;
	if ((y = deployment_to_yaml(cat, &d)) == NULL) {
		fprintf(stderr, "pdwiz import: YAML emitter failed\n");
		deployment_free(&d);
		goto out;
	}
	if (outp != NULL) {
		if (write_file_atomic(outp, y, strlen(y), err, sizeof err) != 0)
			fprintf(stderr, "pdwiz: %s\n", err);
		else
			rc = EXIT_OK;
	} else {
		fputs(y, stdout);
		rc = EXIT_OK;
	}
	free(y);
	deployment_free(&d);
out:
	catalog_free(cat);
	return rc;
}
