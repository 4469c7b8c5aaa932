/* describe.h - words for settings and fixes, shared by every view. */
#ifndef PDWIZ_DESCRIBE_H
#define PDWIZ_DESCRIBE_H

#include "catalog.h"
#include "util.h"

/* "--tp-size 2", "--enable-x", "remove --enable-x", "SGLANG_X=1", "unset X" */
void	describe_setting(const struct catalog *, int opt, struct value,
	    struct buf *);
/* All settings of a fix joined by ", " (role prefix for deploy fixes). */
void	describe_fix(const struct catalog *, const struct fix *, struct buf *);

#endif
