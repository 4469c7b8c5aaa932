/*
 * fuzz.h - shared by the libFuzzer harnesses: the real catalog, loaded once.
 *
 * The catalog comes from $PDWIZ_DATADIR, else the source tree the harness
 * was built in (FUZZ_DATADIR). Readers intern strings and interned strings
 * live until intern_free_all(), so every FUZZ_RELOAD inputs the harness
 * frees everything and loads the catalog again: memory stays bounded over
 * millions of runs and LeakSanitizer still sees real leaks.
 */
#ifndef PDWIZ_FUZZ_H
#define PDWIZ_FUZZ_H

#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/catalog.h"
#include "core/util.h"

#ifndef FUZZ_DATADIR
#define FUZZ_DATADIR "."
#endif
#define FUZZ_RELOAD	50000

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct catalog	*fuzz_cat;
static unsigned long	 fuzz_runs;
static unsigned		 fuzz_gen;	/* catalog loads so far */

static inline void
fuzz_atexit(void)
{
	catalog_free(fuzz_cat);
	fuzz_cat = NULL;
	intern_free_all();
}

/* The catalog for this input. */
static inline const struct catalog *
fuzz_catalog(void)
{
	const char	*dir = getenv("PDWIZ_DATADIR");
	char		 err[2048];

	if (fuzz_cat != NULL && ++fuzz_runs % FUZZ_RELOAD == 0) {
		catalog_free(fuzz_cat);
		fuzz_cat = NULL;
		intern_free_all();
	}
	if (fuzz_cat == NULL) {
		if (fuzz_runs == 0)
			atexit(fuzz_atexit);
		fuzz_cat = catalog_load(dir && *dir ? dir : FUZZ_DATADIR, err,
		    sizeof err);
		fuzz_gen++;
		if (fuzz_cat == NULL) {
			fprintf(stderr, "fuzz: catalog: %s\n", err);
			abort();
		}
	}
	return fuzz_cat;
}

/* A NUL-terminated copy of the input. */
static inline char *
fuzz_text(const uint8_t *data, size_t size)
{
	char	*s = xmalloc(size + 1);

	if (size > 0)
		memcpy(s, data, size);
	s[size] = '\0';
	return s;
}

#endif
