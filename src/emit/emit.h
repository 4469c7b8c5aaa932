/*
 * emit.h - the emitters: a deployment as deterministic bytes (a launch
 * script, a runbook, SGLang --config files, Kubernetes manifests, the
 * deployment file), shared by `pdwiz emit` and the wizard's export.
 * Built on the public deployment API (deploy/deploy.h) only.
 */
#ifndef PDWIZ_EMIT_H
#define PDWIZ_EMIT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/catalog.h"
#include "deploy/deploy.h"

enum emit_format { EMIT_SHELL, EMIT_RUNBOOK, EMIT_CONFIG, EMIT_K8S, EMIT_YAML,
	EMIT_NFORMATS };

#define EMIT_FORCE	0x1	/* emit despite errors; output marked failing */
#define EMIT_PIN	0x2	/* yaml: every derived value written out */

/* File modes before the umask: scripts are executable, the rest is data. */
#define EMIT_MODE_DATA		0666
#define EMIT_MODE_SCRIPT	0777

struct emit_file {
	char		*name;		/* suggested file name */
	char		*data;
	unsigned	 mode;		/* EMIT_MODE_DATA or EMIT_MODE_SCRIPT */
};

struct emission {
	struct emit_file	*f;
	size_t			 n;
};

/*
 * The output formats, one row each (emit.c): a new emitter is its file and
 * one row here. Every view takes its words from this table: pdwiz emit's
 * --format, the wizard's export keys, preview tabs and default paths.
 */
struct emit_format_info {
	const char	*name;		/* --format word: "shell" */
	const char	*key;		/* "shell script", by its key in the
					   wizard's export question */
	const char	*what;		/* "shell script": "export ... to:" */
	const char	*tab;		/* "launch script": the preview's tab */
	const char	*path;		/* the wizard's default export path
					   (a new deployment's) */
	const char	*suffix;	/* ... after the stem of the
					   deployment's file, beside it
					   (llama.yaml: llama-launch.sh) */
	bool		 wizard;	/* exported and previewed by the wizard */
};
extern const struct emit_format_info emit_formats[EMIT_NFORMATS];
int	emit_format_parse(const char *, enum emit_format *);
/* The --format words joined by "|", from the table: static. */
const char *emit_format_names(void);
/* The same words for the static option table of pdwiz emit
 * (tests/unit/test_deploy.c holds it equal to emit_format_names()). */
#define EMIT_FORMAT_WORDS	"shell|runbook|config|k8s|yaml"
/*
 * Check, then emit. A deployment with errors is refused (-1, reason in
 * err) unless EMIT_FORCE. One file for every format but config (one YAML
 * per role plus the launch script that uses them).
 */
int	deployment_emit(const struct catalog *, const struct deployment *,
	    enum emit_format, unsigned flags, struct emission *, char *err,
	    size_t errlen);
void	emission_free(struct emission *);

/* Single formats (no checking; failing = mark output as failing validation). */
char	*emit_shell(const struct catalog *, const struct deployment *,
	    bool failing);
char	*emit_runbook(const struct catalog *, const struct deployment *,
	    bool failing);
char	*emit_k8s(const struct catalog *, const struct deployment *,
	    bool failing);
int	 emit_config(const struct catalog *, const struct deployment *,
	    bool failing, struct emission *);

#endif
