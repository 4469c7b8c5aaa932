/* server.h - one SGLang server command (shell words + env) to a config. */
#ifndef PDWIZ_SERVER_H
#define PDWIZ_SERVER_H

#include "core/catalog.h"
#include "core/config.h"
#include "core/engine.h"
#include "io/shell.h"

/*
 * base starts the config: defaults plus facts the user gave (--model-arch,
 * --platform). Then the command's environment, its arguments (with any
 * --config file) and facts looked up from --model-path. Reader diagnostics
 * go to diags. Returns the number of reader errors.
 */
int	server_from_cmd(const struct catalog *, const struct sh_cmd *,
	    const struct config *base, struct config *out, struct result *diags,
	    const char *base_dir);


/* Same from the file's YAML tree, already read (the caller keeps it). */
struct ynode;
int	server_from_sgconfig_ydoc(const struct catalog *, const char *name,
	    const struct ynode *root, const struct config *base,
	    struct config *out, struct result *diags);

/* Set a fact by name from text ("model_arch=DeepseekV3ForCausalLM");
 * model_arch also pulls the other facts of a models.yaml entry with that
 * architecture. Returns 0, or -1 with a message in err. */
int	facts_set(const struct catalog *, struct config *, const char *name,
	    const char *value, char *err, size_t errlen);

#endif
