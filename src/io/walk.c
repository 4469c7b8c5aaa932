/* walk.c - the files of a directory that `pdwiz check DIR` reads. */
#define _POSIX_C_SOURCE 200809L
#include "io/walk.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

extern char	**environ;

void
pathlist_add(struct pathlist *l, const char *p)
{
	l->p = grow_pow2(l->p, l->n, sizeof *l->p);
	l->p[l->n++] = xstrdup(p);
}

void
pathlist_free(struct pathlist *l)
{
	size_t	i;

	for (i = 0; i < l->n; i++)
		free(l->p[i]);
	free(l->p);
	l->p = NULL;
	l->n = 0;
}

static bool
ends_with(const char *s, const char *suffix)
{
	size_t	n = strlen(s), m = strlen(suffix);

	return n > m && strcmp(s + n - m, suffix) == 0;
}

bool
walk_candidate(const char *path)
{
	static const char *const exts[] = { ".sh", ".bash", ".yaml", ".yml",
	    ".md", ".markdown", NULL };
	const char	*base = strrchr(path, '/');
	char		 head[128];
	ssize_t		 n;
	size_t		 i;
	int		 fd;

	base = base != NULL ? base + 1 : path;
	if (strcmp(base, ".pdwiz.yaml") == 0)
		return false;	/* pdwiz's own configuration */
	for (i = 0; exts[i] != NULL; i++)
		if (ends_with(base, exts[i]))
			return true;
	if (strchr(base, '.') != NULL)
		return false;
	/* No extension: a script by its "#!" line. O_NONBLOCK: a FIFO that
	 * sits in the tree does not stop the walk (it is no regular file and
	 * is refused by its reader anyway). */
	if ((fd = open(path, O_RDONLY | O_NONBLOCK | O_NOCTTY)) < 0)
		return false;
	n = read(fd, head, sizeof head - 1);
	close(fd);
	if (n < 3 || head[0] != '#' || head[1] != '!')
		return false;
	head[n] = '\0';
	head[strcspn(head, "\n")] = '\0';
	return strstr(head, "sh") != NULL;
}

static int
cmp_path(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* dir joined with rel ("." adds nothing). */
static char *
join(const char *dir, const char *rel)
{
	size_t	n = strlen(dir);

	if (strcmp(dir, ".") == 0)
		return xstrdup(rel);
	return xasprintf("%s%s%s", dir, n > 0 && dir[n - 1] == '/' ? "" : "/",
	    rel);
}

static bool
is_regular(const char *path)
{
	struct stat	st;

	return lstat(path, &st) == 0 && S_ISREG(st.st_mode);
}

/* The files git would commit under dir; 0, or -1 when dir is no git work
 * tree or git cannot be run (the caller walks it then). */
static int
git_files(const char *dir, struct pathlist *out)
{
	static char		 a_git[] = "git", a_c[] = "-C",
	    a_ls[] = "ls-files", a_z[] = "-z", a_co[] = "-co",
	    a_ex[] = "--exclude-standard";
	char			*dirw = xstrdup(dir);
	char			*argv[] = { a_git, a_c, dirw, a_ls, a_z, a_co,
	    a_ex, NULL };
	posix_spawn_file_actions_t fa;
	struct buf		 b = { 0 };
	char			 chunk[65536];
	int			 p[2], status;
	ssize_t			 n;
	size_t			 i, start;
	pid_t			 pid;

	if (pipe(p) != 0) {
		free(dirw);
		return -1;
	}
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_adddup2(&fa, p[1], 1);
	posix_spawn_file_actions_addclose(&fa, p[0]);
	posix_spawn_file_actions_addopen(&fa, 2, "/dev/null", O_WRONLY, 0);
	if (posix_spawnp(&pid, "git", &fa, NULL, argv, environ) != 0) {
		posix_spawn_file_actions_destroy(&fa);
		close(p[0]);
		close(p[1]);
		free(dirw);
		return -1;
	}
	posix_spawn_file_actions_destroy(&fa);
	free(dirw);
	close(p[1]);
	while ((n = read(p[0], chunk, sizeof chunk)) != 0) {
		if (n < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		buf_add(&b, chunk, (size_t)n);
	}
	close(p[0]);
	while (waitpid(pid, &status, 0) < 0 && errno == EINTR)
		;
	if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) {
		buf_free(&b);
		return -1;
	}
	for (i = start = 0; i < b.len; i++) {
		char	*path;

		if (b.s[i] != '\0')
			continue;
		path = join(dir, b.s + start);
		if (is_regular(path) && walk_candidate(path))
			pathlist_add(out, path);
		free(path);
		start = i + 1;
	}
	buf_free(&b);
	return 0;
}

/* Every candidate under dir, depth first; .git left out. Symbolic links
 * are not followed (a link loop cannot make the walk endless). */
static int
walk_tree(const char *dir, struct pathlist *out, struct buf *why)
{
	DIR		*d;
	struct dirent	*e;
	struct stat	 st;
	int		 rc = 0;

	if ((d = opendir(dir)) == NULL) {
		buf_printf(why, "pdwiz: %s: %s", dir, strerror(errno));
		return -1;
	}
	while (rc == 0 && (e = readdir(d)) != NULL) {
		char	*path;

		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0 ||
		    strcmp(e->d_name, ".git") == 0)
			continue;
		path = join(dir, e->d_name);
		if (lstat(path, &st) == 0) {
			if (S_ISDIR(st.st_mode))
				rc = walk_tree(path, out, why);
			else if (S_ISREG(st.st_mode) && walk_candidate(path))
				pathlist_add(out, path);
		}
		free(path);
	}
	closedir(d);
	return rc;
}

int
walk_dir(const char *dir, struct pathlist *out, struct buf *why)
{
	size_t	from = out->n;

	if (git_files(dir, out) != 0 && walk_tree(dir, out, why) != 0)
		return -1;
	qsort(out->p + from, out->n - from, sizeof *out->p, cmp_path);
	return 0;
}
