/*
 * manifest_int.h - private to the manifest reader (manifest*.c):
 * manifest.c walks the documents to their pod templates and pods;
 * manifest_cmd.c turns one container of one pod into shell commands.
 */
#ifndef PDWIZ_MANIFEST_INT_H
#define PDWIZ_MANIFEST_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/ydoc.h"
#include "io/shell.h"

/* The file being read, for positions inside multi-line scalars. */
struct msrc {
	const char	*name;
	const char	*text;
	size_t		 len;
	size_t		*lines;		/* offset of each line's start */
	size_t		 nlines;
	struct sh_script *out;		/* the commands read so far */
	struct result	*notes;		/* or NULL */
};

/* A variable a controller injects into every container of a pod. */
struct minject {
	const char	*name;
	char		 value[32];
};

/* One container of one pod: base, and the leader's or workers' patch of
 * the same container (or NULL). */
struct mpod {
	const struct ynode	*container;
	const struct ynode	*patch;
	const char		*machine;	/* owned by the output script */
	bool			 repeat;
	const struct minject	*inject;
	size_t			 ninject;
};

/* Read one container; 0, or -1 with the error. */
int	mcontainer_read(struct msrc *, const struct mpod *, char *err,
	    size_t errlen);

/* Position of byte offset off of the file. */
void	msrc_pos(const struct msrc *, size_t off, int *line, int *col);
/* Byte offset of a line and column (1-based) of the file. */
size_t	msrc_off(const struct msrc *, int line, int col);

#endif
