/* testutil.h - shared helpers for the cmocka suites. */
#ifndef PDWIZ_TESTUTIL_H
#define PDWIZ_TESTUTIL_H

#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/catalog.h"
#include "core/util.h"

/* The catalog of the source tree (PDWIZ_DATADIR or the current directory)
 * as pdwiz opens it: its compiled image when that is usable. */
static inline struct catalog *
test_catalog(void)
{
	const char	*dir = getenv("PDWIZ_DATADIR");
	char		 err[2048];
	struct catalog	*cat = catalog_open(dir ? dir : ".", err, sizeof err);

	if (cat == NULL)
		fail_msg("catalog: %s", err);
	return cat;
}

/* The catalog read from its YAML, whatever image there is. */
static inline struct catalog *
test_catalog_yaml(void)
{
	const char	*dir = getenv("PDWIZ_DATADIR");
	char		 err[2048];
	struct catalog	*cat = catalog_load(dir ? dir : ".", err, sizeof err);

	if (cat == NULL)
		fail_msg("catalog: %s", err);
	return cat;
}

/*
 * The same from the compiled image (make builds it); fails when the image
 * is not used. Call it before anything interns the YAML's strings.
 */
static inline struct catalog *
test_catalog_image(void)
{
	const char	*dir = getenv("PDWIZ_DATADIR");
	char		 err[2048];
	struct catalog	*cat = catalog_open(dir ? dir : ".", err, sizeof err);

	if (cat == NULL)
		fail_msg("catalog: %s", err);
	if (cat->image == NULL)
		fail_msg("catalog not from its image: %s", cat->origin);
	return cat;
}

#endif
