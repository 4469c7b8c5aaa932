/*
 * argv.h - SGLang server arguments, parsed the way SGLang's argparse parser
 * does it (same errors, same messages), into a config with provenance.
 * Also environment variables and the --config YAML merge.
 */
#ifndef PDWIZ_ARGV_H
#define PDWIZ_ARGV_H

#include <stdbool.h>
#include <stddef.h>

#include "core/catalog.h"
#include "core/config.h"
#include "core/engine.h"

struct argword {
	const char	*text;
	int		 line, col;
	bool		 unresolved;	/* contains shell expansions pdwiz can't know */
	unsigned char	 src;		/* enum source: SRC_CLI or SRC_CONFIG */
};

/*
 * Parse words into cfg (which holds defaults). --config FILE is merged like
 * SGLang does (file options first, command line wins); a relative FILE is
 * taken relative to base_dir (NULL: current directory). Diagnostics go to
 * out. Returns the number of errors added.
 */
int	argv_parse(const struct catalog *, const struct argword *, size_t n,
	    struct config *cfg, struct result *out, const char *base_dir);

/* Set typed environment variables known to the catalog. */
struct env_entry {
	const char	*name, *value;
	int		 line, col;
	bool		 unresolved;
};
int	env_apply(const struct catalog *, const struct env_entry *, size_t n,
	    struct config *cfg, struct result *out);

/*
 * Read an SGLang --config YAML file into argument words, with the checks of
 * SGLang's config merger. Returns 0, or -1 after adding an error to out.
 * *words (owned, free with argwords_free) get SRC_CONFIG.
 */
int	sgconfig_read(const struct catalog *, const char *path,
	    struct argword **words, size_t *n, struct result *out);
int	sgconfig_read_text(const struct catalog *, const char *name,
	    const char *text, size_t len, struct argword **words, size_t *n,
	    struct result *out);
/* Same from a YAML tree already read (the caller keeps it). */
struct ynode;
int	sgconfig_read_ydoc(const struct catalog *, const char *name,
	    const struct ynode *root, struct argword **words, size_t *n,
	    struct result *out);
void	argwords_free(struct argword *, size_t);
/* The file a command's --config PATH names, as argv_parse opens it
 * (relative to base_dir, "$(dirname "$0")/" the script's directory);
 * owned. */
char	*argv_config_path(const char *path, const char *base_dir);

#endif
