/*
 * config.h - one SGLang server's configuration: a value for every catalog
 * option, each with its provenance (where the value came from).
 */
#ifndef PDWIZ_CONFIG_H
#define PDWIZ_CONFIG_H

#include <stddef.h>

#include "catalog.h"
#include "value.h"

enum source {
	SRC_DEFAULT = 0,	/* SGLang's default */
	SRC_MODEL,		/* fact from the model table or config.json */
	SRC_CLI,		/* command line */
	SRC_CONFIG,		/* --config YAML file */
	SRC_ENV,		/* environment variable */
	SRC_USER,		/* set in the wizard / deployment file / --fact */
	SRC_OVERRIDE		/* SGLang's resolver changed it (rule) */
};

struct slot {
	struct value	 v;
	unsigned char	 src;
	short		 rule;		/* SRC_OVERRIDE: index of the rule */
	int		 line, col;	/* where it was given, if known */
};

struct config {
	const struct catalog	*cat;
	struct slot		*s;	/* cat->nopts entries */
	sgver_t			 sgver;	/* the SGLang release it runs, or 0 */
	sgver_t			 sgver_asked;	/* the version asked for when it is
						   no release (sgver: the release
						   it is checked as), else 0 */
};

void	config_init(struct config *, const struct catalog *);	/* all defaults */
void	config_copy(struct config *dst, const struct config *src);	/* dst initialised */
void	config_free(struct config *);
/* The SGLang release v (0: none said), as the release it is checked as
 * when it is none of the releases known (flaghist_release_as). */
void	config_set_sgver(struct config *, sgver_t v);
void	config_set(struct config *, int opt, struct value, enum source,
	    int line, int col);
/* True when the option was given explicitly (CLI, config file, env, user). */
int	config_is_set(const struct config *, int opt);

#endif
