/*
 * catalog_open.c - find the data directory and open its catalog: the
 * compiled image when it is usable, else the YAML.
 */
#define _GNU_SOURCE
#include "catalog.h"
#include "catimg.h"
#include "util.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#ifndef PDWIZ_DATADIR_DEFAULT
#define PDWIZ_DATADIR_DEFAULT "/usr/local/share/pdwiz"
#endif

static int
dir_has_rules(const char *dir)
{
	char		*p = xasprintf("%s/rules/options.yaml", dir);
	struct stat	 st;
	int		 ok = stat(p, &st) == 0;

	free(p);
	return ok;
}

char *
catalog_find_datadir(const char *argv0)
{
	const char	*env = getenv("PDWIZ_DATADIR");
	char		 exe[PATH_MAX];
	ssize_t		 n;

	(void)argv0;
	if (env != NULL && *env != '\0')
		return xstrdup(env);
	n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n > 0) {
		char	*slash;

		exe[n] = '\0';
		if ((slash = strrchr(exe, '/')) != NULL) {
			*slash = '\0';
			if (dir_has_rules(exe))
				return xstrdup(exe);
			/* <prefix>/bin/pdwiz -> <prefix>/share/pdwiz */
			if ((slash = strrchr(exe, '/')) != NULL) {
				char	*p;

				*slash = '\0';
				p = xasprintf("%s/share/pdwiz", exe);
				if (dir_has_rules(p))
					return p;
				free(p);
			}
		}
	}
	if (dir_has_rules(PDWIZ_DATADIR_DEFAULT))
		return xstrdup(PDWIZ_DATADIR_DEFAULT);
	return NULL;
}

struct catalog *
catalog_open(const char *datadir, char *err, size_t errlen)
{
	const char	*off = getenv("PDWIZ_NO_IMAGE");
	char		 why[1024];
	struct catalog	*cat;
	char		*o;

	if (off != NULL && *off != '\0')
		snprintf(why, sizeof why, "PDWIZ_NO_IMAGE is set");
	else if ((cat = catimg_load(datadir, why, sizeof why)) != NULL) {
		o = xasprintf("compiled image %s/%s", datadir, CATIMG_FILE);
		cat->origin = intern(o);
		free(o);
		return cat;
	}
	if ((cat = catalog_load(datadir, err, errlen)) == NULL)
		return NULL;
	o = xasprintf("YAML in %s/rules (image not used: %s)", datadir, why);
	cat->origin = intern(o);
	free(o);
	return cat;
}

struct catalog *
catalog_open_default(char *err, size_t errlen)
{
	char		*dir = catalog_find_datadir(NULL);
	struct catalog	*cat;

	if (dir == NULL) {
		snprintf(err, errlen, "cannot find the rules directory; set "
		    "PDWIZ_DATADIR to the folder that holds rules/ and forms/");
		return NULL;
	}
	cat = catalog_open(dir, err, errlen);
	free(dir);
	return cat;
}

