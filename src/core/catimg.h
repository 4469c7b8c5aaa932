/*
 * catimg.h - the compiled catalog: the catalog of rules/ written as one
 * image that is mapped at startup instead of parsing the YAML.
 */
#ifndef PDWIZ_CATIMG_H
#define PDWIZ_CATIMG_H

#include <stddef.h>

#include "catalog.h"

/* Below the data directory. */
#define CATIMG_FILE	"rules/catalog.img"

/*
 * Write cat, loaded from datadir's YAML, as an image at path; it is read
 * back and compared before it is written. 0, or -1 and a message.
 */
int		 catimg_write(const struct catalog *, const char *datadir,
		    const char *path, char *err, size_t errlen);

/*
 * The catalog from datadir's image, or NULL and why it cannot be used
 * (missing, damaged, written by another build, older than its sources).
 * The image stays mapped for the life of the process.
 */
struct catalog	*catimg_load(const char *datadir, char *why, size_t whylen);

#endif
