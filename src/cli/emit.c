/* emit.c - `pdwiz emit` and `pdwiz import`: deployments in and out. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "core/util.h"
#include "deploy/deploy.h"
#include "emit/emit.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INPUT_MAX	(16 * 1024 * 1024)

enum { E_FORMAT = 1, E_FORCE, E_OUTDIR, E_PIN };

static const struct cliopt emit_opts[] = {
	{ E_FORMAT, "format", 0, EMIT_FORMAT_WORDS,
	    "what to write", CLIOPT_REQUIRED },
	{ E_FORCE, "force", 0, NULL, "emit despite errors (marked failing)",
	    0 },
	{ E_OUTDIR, "output-dir", 'o', "DIR",
	    "write the files into DIR, not to stdout (- is stdout)", 0 },
	{ E_PIN, "pin", 0, NULL, "with --format yaml: write every derived "
	    "GPU, port and address out", 0 },
	{ 0, NULL, 0, NULL, NULL, 0 }
};

const struct clicmd cli_emit = {
	"emit", { "DEPLOYMENT", NULL },
	"write launch material for a deployment", emit_opts,
	cmd_emit, 0
};

enum { I_OUTPUT = 1, I_KEEP_GOING };

static const struct cliopt import_opts[] = {
	{ I_OUTPUT, "output", 'o', "FILE",
	    "write the deployment file to FILE, not to stdout (- is stdout)",
	    0 },
	{ I_KEEP_GOING, "keep-going", 0, NULL, "write the deployment even "
	    "when words of the script could not be placed (each is reported)",
	    0 },
	{ 0, NULL, 0, NULL, NULL, 0 }
};

const struct clicmd cli_import = {
	"import", { "SCRIPT", NULL }, "launch script -> deployment file",
	import_opts, cmd_import, 0
};

/*
 * The import's notes on stderr as FILE:LINE:COL: error|warning: MESSAGE.
 * Returns the number of errors: words or values the deployment does not
 * hold.
 */
static size_t
print_notes(const char *name, const struct result *notes)
{
	size_t	i, nlost = 0;

	for (i = 0; i < notes->n; i++) {
		const struct diag	*n = &notes->d[i];
		bool			 err = n->sev == SEV_ERROR;

		nlost += err;
		if (n->line <= 0)
			fprintf(stderr, "%s: %s: %s\n", name, err ? "error" :
			    "warning", n->msg);
		else
			fprintf(stderr, "%s:%d:%d: %s: %s\n", name, n->line,
			    n->col > 0 ? n->col : 1, err ? "error" : "warning",
			    n->msg);
	}
	return nlost;
}

/* The roles an imported script has no command for: left out of the
 * deployment (missing.ROLE), not filled in. */
static void
print_left_out(const char *name, const struct deployment *d)
{
	int	r;

	for (r = ROLE_PREFILL; r <= ROLE_ROUTER; r++)
		if (!d->role[r].enabled && d->role[r].missing != NULL)
			fprintf(stderr, "%s: warning: %s; the deployment leaves "
			    "the %s out (missing.%s), and the checks that need "
			    "it report that they could not check\n", name,
			    d->role[r].missing, role_name((enum role)r),
			    role_name((enum role)r));
}

/*
 * Load FILE as a deployment: a deployment YAML file, or a launch script
 * that is imported first. Import notes go to stderr. What the import
 * cannot place fails it (-1) unless keep_going. 0, or -1 (printed).
 */
static int
load_any(const struct catalog *cat, const char *file, struct deployment *d,
    bool keep_going, const char *cmd)
{
	char		*text, err[8192];
	const char	*nul;
	size_t		 len, nlost;
	struct result	 notes;
	const char	*name = strcmp(file, "-") == 0 ? "<stdin>" : file;
	int		 rc, line, col;

	if ((text = read_file(file, INPUT_MAX, &len, err, sizeof err)) == NULL) {
		fprintf(stderr, "pdwiz: %s\n", err);
		return -1;
	}
	if ((nul = memchr(text, '\0', len)) != NULL) {
		text_pos(text, (size_t)(nul - text), &line, &col);
		fprintf(stderr, "%s:%d:%d: binary input (a NUL byte); expected "
		    "a launch script or a deployment file\n", name, line, col);
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
	nlost = print_notes(name, &notes);
	if (rc == 0)
		print_left_out(name, d);
	if (rc == 0 && nlost > 0 && !keep_going) {
		fprintf(stderr, "pdwiz %s: %zu thing%s in %s could not be "
		    "placed in the deployment (above); nothing written (%s "
		    "proceeds without them)\n", cmd, nlost, nlost == 1 ? "" :
		    "s", name, strcmp(cmd, "import") == 0 ? "--keep-going" :
		    "--force");
		deployment_free(d);
		rc = -1;
	}
	result_free(&notes);
	free(text);
	return rc;
}

/* One emitted file into dir, with its mode (a script is executable). */
static int
write_out(const char *dir, const struct emit_file *f)
{
	char	*path = xasprintf("%s/%s", dir, f->name), err[1024];
	int	 rc;

	rc = write_file_atomic_mode(path, f->data, strlen(f->data), f->mode,
	    err, sizeof err);
	if (rc != 0)
		fprintf(stderr, "pdwiz: %s\n", err);
	free(path);
	return rc;
}

struct emit_args {
	enum emit_format	 fmt;
	bool			 have_fmt;
	unsigned		 flags;
	const char		*file, *dir;
};

/* -1: go on; else the exit status. */
static int
emit_args(int argc, char **argv, struct emit_args *a)
{
	struct cliparse	p;
	int		id;

	cliparse_init(&p, &cli_emit, argc, argv);
	while ((id = cliparse_next(&p)) != CLIOPT_END) {
		switch (id) {
		case CLIOPT_HELP:
			cli_help(stdout, &cli_emit);
			return EXIT_OK;
		case CLIOPT_ERROR:
			return EXIT_USAGE;
		case E_FORMAT:
			if (emit_format_parse(p.arg, &a->fmt) != 0) {
				fprintf(stderr, "pdwiz emit: --format takes shell, "
				    "runbook, config, k8s or yaml\n");
				return EXIT_USAGE;
			}
			a->have_fmt = true;
			break;
		case E_FORCE:
			a->flags |= EMIT_FORCE;
			break;
		case E_PIN:
			a->flags |= EMIT_PIN;
			break;
		case E_OUTDIR:
			a->dir = strcmp(p.arg, "-") == 0 ? NULL : p.arg;
			break;
		default:
			if (a->file != NULL) {
				fprintf(stderr, "pdwiz emit: only one "
				    "DEPLOYMENT\n");
				return EXIT_USAGE;
			}
			a->file = p.arg;
		}
	}
	if (!a->have_fmt || a->file == NULL) {
		fprintf(stderr, "pdwiz emit: %s\n", a->file == NULL ?
		    "which DEPLOYMENT file? (a .yaml that pdwiz or pdwiz "
		    "import saved)" : "which --format? (shell, runbook, "
		    "config, k8s or yaml)");
		cli_usage(stderr, &cli_emit);
		return EXIT_USAGE;
	}
	return -1;
}

int
cmd_emit(int argc, char **argv)
{
	struct catalog		*cat;
	struct deployment	 d;
	struct emission		 em;
	struct emit_args	 a = { EMIT_SHELL, false, 0, NULL, NULL };
	char			 err[2048];
	int			 rc;
	size_t			 k;

	if ((rc = emit_args(argc, argv, &a)) >= 0)
		return rc;
	rc = EXIT_USAGE;
	if ((cat = cli_load_catalog()) == NULL)
		return EXIT_USAGE;
	if (load_any(cat, a.file, &d, (a.flags & EMIT_FORCE) != 0, "emit") !=
	    0)
		goto out;
	if (deployment_emit(cat, &d, a.fmt, a.flags, &em, err, sizeof err) !=
	    0) {
		fprintf(stderr, "pdwiz emit: %s\n", err);
		deployment_free(&d);
		rc = EXIT_FOUND;
		goto out;
	}
	rc = EXIT_OK;
	for (k = 0; k < em.n; k++) {
		if (a.dir != NULL) {
			if (write_out(a.dir, &em.f[k]) != 0)
				rc = EXIT_USAGE;
		} else {
			if (em.n > 1)
				printf("%s==> %s <==\n", k ? "\n" : "",
				    em.f[k].name);
			cli_puts(em.f[k].data);
		}
	}
	emission_free(&em);
	deployment_free(&d);
out:
	catalog_free(cat);
	return rc;
}

/* -1: go on; else the exit status. */
static int
import_args(int argc, char **argv, const char **file, const char **outp,
    bool *keep_going)
{
	struct cliparse	p;
	int		id;

	cliparse_init(&p, &cli_import, argc, argv);
	while ((id = cliparse_next(&p)) != CLIOPT_END) {
		switch (id) {
		case CLIOPT_HELP:
			cli_help(stdout, &cli_import);
			return EXIT_OK;
		case CLIOPT_ERROR:
			return EXIT_USAGE;
		case I_OUTPUT:
			*outp = strcmp(p.arg, "-") == 0 ? NULL : p.arg;
			break;
		case I_KEEP_GOING:
			*keep_going = true;
			break;
		default:
			if (*file != NULL) {
				fprintf(stderr, "pdwiz import: only one "
				    "SCRIPT\n");
				return EXIT_USAGE;
			}
			*file = p.arg;
		}
	}
	if (*file == NULL) {
		cli_usage(stderr, &cli_import);
		return EXIT_USAGE;
	}
	return -1;
}

int
cmd_import(int argc, char **argv)
{
	struct catalog		*cat;
	struct deployment	 d;
	const char		*file = NULL, *outp = NULL;
	char			*y, err[1024];
	int			 rc;
	bool			 keep_going = false;

	if ((rc = import_args(argc, argv, &file, &outp, &keep_going)) >= 0)
		return rc;
	rc = EXIT_USAGE;
	if ((cat = cli_load_catalog()) == NULL)
		return EXIT_USAGE;
	if (load_any(cat, file, &d, keep_going, "import") != 0)
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
		cli_puts(y);
		rc = EXIT_OK;
	}
	free(y);
	deployment_free(&d);
out:
	catalog_free(cat);
	return rc;
}
