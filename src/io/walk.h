/*
 * walk.h - the files of a directory that `pdwiz check DIR` reads (walk.c).
 *
 * In a git work tree they are the files git would commit there (tracked,
 * and untracked but not ignored: `git ls-files -co --exclude-standard`);
 * elsewhere, or without git, every file found walking the directory, the
 * .git folders left out. Of those only the ones that can hold launch
 * commands by their name: shell scripts (.sh, .bash, or no extension and a
 * "#!" line naming a shell), YAML (.yaml, .yml) and Markdown (.md,
 * .markdown); never .pdwiz.yaml, pdwiz's own configuration. A file named
 * on the command line is always read, whatever its name.
 */
#ifndef PDWIZ_WALK_H
#define PDWIZ_WALK_H

#include <stdbool.h>
#include <stddef.h>

#include "core/util.h"

struct pathlist {
	char	**p;		/* owned, sorted by walk_dir */
	size_t	  n;
};

/* Append the candidate files under dir to *out, sorted; 0, or -1 with the
 * reason in why (dir unreadable). */
int	walk_dir(const char *dir, struct pathlist *out, struct buf *why);
/* Can the file at path (a regular file) hold launch commands, by its name
 * or its "#!" line? */
bool	walk_candidate(const char *path);
void	pathlist_add(struct pathlist *, const char *);
void	pathlist_free(struct pathlist *);

#endif
