/* import_int.h - the importer's modules (deploy_import*.c); not an API. */
#ifndef PDWIZ_IMPORT_INT_H
#define PDWIZ_IMPORT_INT_H

#include <stdarg.h>

#include "deploy/deploy.h"
#include "io/argv.h"
#include "io/shell.h"

/* An import note: SEV_ERROR for what the deployment does not hold,
 * SEV_WARNING for what is kept with a caveat; line 0: the whole script. */
void	imp_vnote(struct result *, enum severity, int line, int col,
	    const char *fmt, va_list);
/* The argument reader's errors on a server command: the words it
 * refused onto extra (owned strings), the rest as import errors. */
void	imp_reader_losses(const struct catalog *, struct result *,
	    const struct sh_cmd *, const struct result *diags, char ***extra,
	    size_t *nextra);
/* An option the deployment's layout sets itself (model_path, port,
 * node_rank, ...): never one of a role's options. */
bool	imp_is_managed(const char *name);
/* The words of the --config file a command names (free with
 * argwords_free), or none. */
void	imp_config_words(const struct catalog *, const struct sh_cmd *,
	    const char *base_dir, struct argword **, size_t *);
/* A value as the script or its --config file wrote it (owned). */
char	*imp_written_text(const struct sh_cmd *, const struct argword *cw,
	    size_t ncw, const struct option *, const struct slot *);
/* Keep an export outside the catalog (as unchecked env)? */
bool	imp_keep_unchecked_env(const struct sh_env *, struct result *);
/* State what the script lacks in d (missing.ROLE) and in notes. */
void	imp_mark_missing(struct deployment *, struct result *);
/* The directory of the script name (owned), or NULL for standard input. */
char	*imp_script_dir(const char *name);

#endif
