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
 * How an image is held to its sources (the YAML files below datadir it
 * was compiled from; the same set of files, of the same sizes, always):
 *   CATIMG_BESIDE     an image in datadir itself (a source tree, a copy
 *                     compiled with compile-catalog): each file older than
 *                     the image is taken as compiled into it, any other is
 *                     hashed and must have the contents it had.
 *   CATIMG_INSTALLED  an image installed with its data directory (make
 *                     install, a package): installed together, replaced
 *                     together; no file is read or hashed.
 */
enum catimg_trust { CATIMG_BESIDE, CATIMG_INSTALLED };

/*
 * The catalog of datadir from the image at path, or NULL and why it cannot
 * be used (missing, damaged, written by another build, not what its
 * sources now say). The image stays mapped for the life of the process.
 */
struct catalog	*catimg_load(const char *datadir, const char *path,
		    enum catimg_trust, char *why, size_t whylen);

/*
 * For the tests and the fuzz harness. catimg_check: relocate the image
 * img[0..size) (8-aligned) in place and check it as catimg_load does, its
 * sources aside: the catalog in it (its rules' files still relative to
 * the data directory; nothing adopted, nothing kept), or NULL and why not.
 * catimg_seal: give img[0..size) this build's source id, its size and its
 * checksum, as if this build had written it; -1 when shorter than a
 * header.
 */
const struct catalog *catimg_check(unsigned char *img, size_t size,
		    const char **why);
int		 catimg_seal(unsigned char *img, size_t size);

#endif
