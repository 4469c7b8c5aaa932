/*
 * shell_merge.c - one script out of several: a manifest's containers are
 * read one by one (each its own command line or sh -c script) and their
 * commands gathered into one script for the checks.
 */

#include "io/shell_int.h"

#include <stdlib.h>
#include <string.h>

static struct sh_pool *
pool_of(struct sh_script *s)
{
	if (s->pool == NULL)
		s->pool = xcalloc(1, sizeof *s->pool);
	return s->pool;
}

void
sh_script_move(struct sh_script *dst, struct sh_script *src)
{
	struct sh_pool	*dp, *sp = src->pool;
	size_t		 i, need = dst->ncmds + src->ncmds;

	/* Room for the commands of many moves: doubled, not one move's. */
	if (src->ncmds > 0 && need > dst->cmdcap) {
		dst->cmdcap = need > 2 * dst->ncmds ? need : 2 * dst->ncmds;
		dst->cmds = xreallocarray(dst->cmds, dst->cmdcap,
		    sizeof *dst->cmds);
	}
	if (src->ncmds > 0) {
		memcpy(dst->cmds + dst->ncmds, src->cmds, src->ncmds *
		    sizeof *src->cmds);
		dst->ncmds += src->ncmds;
	}
	free(src->cmds);
	if (sp != NULL) {
		dp = pool_of(dst);
		/* The source's chunks go behind the destination's: new strings
		 * keep filling dst's current chunk. */
		if (dp->chunks == NULL)
			dp->chunks = sp->chunks;
		else
			dp->last->next = sp->chunks;
		if (sp->chunks != NULL)
			dp->last = sp->last;
		for (i = 0; i < sp->nenv; i++) {
			void	*pp = dp->env;

			sh_grow(&pp, &dp->capenv, dp->nenv + 1, sizeof *dp->env);
			dp->env = pp;
			dp->env[dp->nenv++] = sp->env[i];
		}
		free(sp->env);
		free(sp);
	}
	memset(src, 0, sizeof *src);
}

const char *
sh_script_str(struct sh_script *dst, const char *s)
{
	return sh_pool_str(pool_of(dst), s, strlen(s));
}
