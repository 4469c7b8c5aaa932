/* fit_int.h - what the parts of the fit estimate share (private). */
#ifndef PDWIZ_FIT_INT_H
#define PDWIZ_FIT_INT_H

#include "fit.h"
#include "ydoc.h"

#define FIT_DATA_MAX	(4 * 1024 * 1024)
#define MIB		(1024.0 * 1024.0)

void		 fit_errf(char *err, size_t errlen, const char *fmt, ...)
		    __attribute__((format(printf, 3, 4)));
/* A plain scalar of a mapping, or NULL. */
const char	*fit_scalar(const struct ynode *map, const char *key);

#endif
