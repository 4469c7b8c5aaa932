/* facts.c - the fact options shared by the commands that check. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "core/fit_facts.h"
#include "core/util.h"
#include "io/server.h"

#include <stdlib.h>
#include <string.h>

int
cli_fact_opt(struct cli_facts *fs, int id, const char *arg)
{
	static const char *const names[] = { "model_arch", "platform",
	    "gpu_sm", "gpu", "gpu_mem_gib" };
	struct cli_fact	 f = { { 0 }, arg };
	const char	*eq;

	if (id < OPT_MODEL_ARCH || id > OPT_FACT)
		return 0;
	if (id != OPT_FACT)
		snprintf(f.name, sizeof f.name, "%s",
		    names[id - OPT_MODEL_ARCH]);
	else {
		eq = strchr(arg, '=');
		if (eq == NULL || eq == arg ||
		    (size_t)(eq - arg) >= sizeof f.name) {
			fprintf(stderr, "pdwiz: --fact takes NAME=VALUE\n");
			return -1;
		}
		snprintf(f.name, sizeof f.name, "%.*s", (int)(eq - arg), arg);
		f.value = eq + 1;
	}
	fs->f = xreallocarray(fs->f, fs->n + 1, sizeof *fs->f);
	fs->f[fs->n++] = f;
	return 1;
}

int
cli_facts_apply(const struct catalog *cat, struct config *cfg,
    const struct cli_facts *fs, struct buf *why)
{
	char	err[2048];
	size_t	i;

	for (i = 0; i < fs->n; i++) {
		const char	*what = NULL;

		if (facts_set(cat, cfg, fs->f[i].name, fs->f[i].value, err,
		    sizeof err) != 0)
			what = "";
		else if (strcmp(fs->f[i].name, "gpu") == 0 &&
		    fit_facts_gpu(cat, fs->f[i].value, err, sizeof err) ==
		    NULL)
			what = "--gpu: ";
		if (what != NULL) {
			fprintf(stderr, "pdwiz: %s%s\n", what, err);
			if (why != NULL && why->len == 0)
				buf_printf(why, "pdwiz: %s%s", what, err);
			return -1;
		}
	}
	return 0;
}

void
cli_facts_free(struct cli_facts *fs)
{
	free(fs->f);
	fs->f = NULL;
	fs->n = 0;
}
