/*
 * emit.c - `pdwiz emit` and the wizard's export: check, then hand the
 * deployment to one emitter. Refuses a deployment with errors unless forced.
 */
#define _POSIX_C_SOURCE 200809L
#include "emit/emit.h"
#include "emit/emit_int.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct emit_format_info emit_formats[EMIT_NFORMATS] = {
	[EMIT_SHELL] = { "shell", "shell script", "shell script",
	    "launch script", "launch.sh", "-launch.sh", true },
	[EMIT_RUNBOOK] = { "runbook", "runbook", "runbook", "runbook",
	    "RUNBOOK.md", "-RUNBOOK.md", true },
	/* Several files (prefill.yaml, decode.yaml, launch.sh): a
	 * directory of their own, not the current one. */
	[EMIT_CONFIG] = { "config", "per-role config", "per-role --config YAML",
	    "--config YAML", "pd-config/", "-config/", true },
	[EMIT_K8S] = { "k8s", "k8s", "Kubernetes manifests", "Kubernetes",
	    "pd-k8s.yaml", "-k8s.yaml", true },
	/* Never the deployment file's own name. */
	[EMIT_YAML] = { "yaml", "deployment file", "deployment file",
	    "deployment file", "pd-pinned.yaml", "-pinned.yaml", false },
};

int
emit_format_parse(const char *s, enum emit_format *out)
{
	size_t	i;

	for (i = 0; i < EMIT_NFORMATS; i++)
		if (strcmp(s, emit_formats[i].name) == 0) {
			*out = (enum emit_format)i;
			return 0;
		}
	return -1;
}

const char *
emit_format_names(void)
{
	static char	names[128];
	size_t		i;

	if (names[0] == '\0')
		for (i = 0; i < EMIT_NFORMATS; i++)
			snprintf(names + strlen(names), sizeof names -
			    strlen(names), "%s%s", i > 0 ? "|" : "",
			    emit_formats[i].name);
	return names;
}

static void
one(struct emission *e, const char *name, char *data, unsigned mode)
{
	e->f = xcalloc(1, sizeof *e->f);
	e->f[0].name = xstrdup(name);
	e->f[0].data = data;
	e->f[0].mode = mode;
	e->n = 1;
}

int
deployment_emit(const struct catalog *cat, const struct deployment *d,
    enum emit_format fmt, unsigned flags, struct emission *out, char *err,
    size_t errlen)
{
	struct result		 res;
	struct deployment	 pinned;
	bool			 failing;
	char			*y;
	int			 rc = 0;

	memset(out, 0, sizeof *out);
	result_init(&res);
	deployment_check(cat, d, &res);
	failing = res.nerrors > 0;
	if (failing && !(flags & EMIT_FORCE)) {
		size_t	i;

		for (i = 0; i < res.n; i++)
			if (res.d[i].sev == SEV_ERROR)
				break;
		snprintf(err, errlen, "the deployment has %zu error%s (first: "
		    "%s [%s]); run pdwiz check, or emit with --force to get "
		    "output marked as failing validation", res.nerrors,
		    res.nerrors == 1 ? "" : "s", i < res.n ? res.d[i].msg : "?",
		    i < res.n ? res.d[i].id : "?");
		result_free(&res);
		return -1;
	}
	result_free(&res);
	/* Launch artifacts state every derived port, GPU and address. */
	deployment_copy(&pinned, d);
	deployment_pin(cat, &pinned);
	switch (fmt) {
	case EMIT_SHELL:
		one(out, "launch.sh", emit_shell(cat, &pinned, failing),
		    EMIT_MODE_SCRIPT);
		break;
	case EMIT_RUNBOOK:
		one(out, "RUNBOOK.md", emit_runbook(cat, &pinned, failing),
		    EMIT_MODE_DATA);
		break;
	case EMIT_K8S:
		one(out, "k8s.yaml", emit_k8s(cat, &pinned, failing),
		    EMIT_MODE_DATA);
		break;
	case EMIT_CONFIG:
		rc = emit_config(cat, &pinned, failing, out);
		break;
	case EMIT_YAML:
		if ((y = deployment_to_yaml(cat, (flags & EMIT_PIN) ?
		    &pinned : d)) == NULL) {
			snprintf(err, errlen, "YAML emitter failed");
			rc = -1;
			break;
		}
		if (failing) {
			char	*t = xasprintf("# %s\n%s", EMIT_FAILING_TEXT, y);

			free(y);
			y = t;
		}
		one(out, "deployment.yaml", y, EMIT_MODE_DATA);
		break;
	case EMIT_NFORMATS:
		snprintf(err, errlen, "no such output format");
		rc = -1;
		break;
	}
	deployment_free(&pinned);
	return rc;
}

void
emission_free(struct emission *e)
{
	size_t	i;

	for (i = 0; i < e->n; i++) {
		free(e->f[i].name);
		free(e->f[i].data);
	}
	free(e->f);
	memset(e, 0, sizeof *e);
}
