/*
 * fuzz_rules.c - the catalog loaders: an options file, a models file, a
 * rules file (rules/checks) or a deployment rules file (rules/deploy),
 * read from memory against the real catalog (catalog_check_text). The
 * first input byte chooses which; the rest is the file.
 */
#include "fuzz.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog	*cat = fuzz_catalog();
	char			 err[1024];
	enum catalog_text	 what;

	if (size == 0)
		return 0;
	what = (enum catalog_text)(data[0] % 4);
	if (catalog_check_text(cat, what, "fuzz.yaml", (const char *)data + 1,
	    size - 1, err, sizeof err) != 0 &&
	    strncmp(err, "fuzz.yaml", 9) != 0)
		abort();
	return 0;
}
