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
/* Where make install puts the compiled catalog: it is specific to the
 * architecture (and the build), the YAML beside it is not. */
#ifndef PDWIZ_LIBDIR_DEFAULT
#define PDWIZ_LIBDIR_DEFAULT "/usr/local/lib/pdwiz"
#endif

#define SHARE_TAIL	"/share/pdwiz"

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

/*
 * The installed image of an installed data directory, or NULL: the
 * configured one (PDWIZ_DATADIR_DEFAULT -> PDWIZ_LIBDIR_DEFAULT), or one
 * moved with its prefix (PREFIX/share/pdwiz -> PREFIX/lib/pdwiz).
 */
static char *
installed_image(const char *datadir)
{
	size_t	n = strlen(datadir), t = strlen(SHARE_TAIL);

	while (n > 1 && datadir[n - 1] == '/')
		n--;
	if (n == strlen(PDWIZ_DATADIR_DEFAULT) &&
	    strncmp(datadir, PDWIZ_DATADIR_DEFAULT, n) == 0)
		return xasprintf("%s/catalog.img", PDWIZ_LIBDIR_DEFAULT);
	if (n >= t && strncmp(datadir + n - t, SHARE_TAIL, t) == 0)
		return xasprintf("%.*s/lib/pdwiz/catalog.img", (int)(n - t),
		    datadir);
	return NULL;
}

/*
 * The image of datadir: its own rules/catalog.img when there is one (a
 * source tree, a copy given compile-catalog), held to its sources; else,
 * for an installed data directory, the installed one (trusted with them),
 * which is the one named when neither is there.
 */
static struct catalog *
open_image(const char *datadir, char **path, char *why, size_t whylen)
{
	struct stat		 st;
	char			*inst;
	enum catimg_trust	 trust = CATIMG_BESIDE;
	struct catalog		*cat;

	*path = xasprintf("%s/%s", datadir, CATIMG_FILE);
	if (stat(*path, &st) != 0 && (inst = installed_image(datadir)) !=
	    NULL) {
		free(*path);
		*path = inst;
		trust = CATIMG_INSTALLED;
	}
	cat = catimg_load(datadir, *path, trust, why, whylen);
	if (cat == NULL) {
		free(*path);
		*path = NULL;
	}
	return cat;
}

struct catalog *
catalog_open(const char *datadir, char *err, size_t errlen)
{
	const char	*off = getenv("PDWIZ_NO_IMAGE");
	char		 why[1024];
	struct catalog	*cat;
	char		*o, *path;

	if (off != NULL && *off != '\0')
		snprintf(why, sizeof why, "PDWIZ_NO_IMAGE is set");
	else if ((cat = open_image(datadir, &path, why, sizeof why)) != NULL) {
		o = xasprintf("compiled image %s", path);
		cat->origin = intern(o);
		free(o);
		free(path);
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

