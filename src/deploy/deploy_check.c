/* deploy_check.c - cross-role checks over a script already read. */
#define _POSIX_C_SOURCE 200809L
#include "deploy/deploy.h"
#include "io/shell.h"

int
deployment_check_script(const struct catalog *cat, const char *name,
    const struct sh_script *sc, const struct config *eff[3],
    struct result *out)
{
	struct deployment	d;
	char			err[512];

	if (deployment_import_script(cat, name, sc, &d, NULL, err,
	    sizeof err) != 0)
		return -1;
	deployment_check_cross(cat, &d, eff, out);
	deployment_free(&d);
	return 0;
}
