/* emit_int.h - what the emitters share among themselves (not an API). */
#ifndef PDWIZ_EMIT_INT_H
#define PDWIZ_EMIT_INT_H

#include <stdbool.h>

#include "deploy/deploy.h"
#include "emit/emit.h"

/* The failing-validation banner line, without comment markers. */
#define EMIT_FAILING_TEXT "THIS DEPLOYMENT FAILS pdwiz VALIDATION (emitted with --force); run: pdwiz check"

/*
 * The launch script (emit_shell.c), shared by the shell and config formats.
 * skip(arg, launch, flag) may drop a flag with its values; extra(arg,
 * launch) gives words put right after the program name; what says what the
 * script goes with (NULL: nothing).
 */
char	*shell_script(const struct catalog *, const struct deployment *,
	    bool failing,
	    bool (*skip)(void *, const struct launch *, const char *),
	    void *arg, const char *(*extra)(void *, const struct launch *),
	    const char *what);

#endif
