/*
 * input.h - the one input classifier (input.c): read a file once, say what
 * it is, and give the launch commands it holds as one shell view, for
 * every entry point (pdwiz check, pdwiz import, the wizard's open).
 */
#ifndef PDWIZ_INPUT_H
#define PDWIZ_INPUT_H

#include <stdbool.h>
#include <stddef.h>

#include "core/catalog.h"
#include "core/util.h"
#include "core/ydoc.h"

struct result;
struct sh_script;
struct md_node;

#define INPUT_MAX	(16 * 1024 * 1024)

/* How to read a file (check --input): detect, or as the one named. */
enum input_mode { IN_AUTO, IN_SHELL, IN_CONFIG, IN_MARKDOWN, IN_K8S };

/* What was read: its text, its kind, and the YAML tree of the YAML kinds.
 * Everything is owned (input_free). */
struct input {
	char		*text;
	size_t		 len;
	char		*path;		/* copy of FILE for dirname(); NULL */
	const char	*base_dir;	/* --config paths are relative to it */
	enum { K_SHELL, K_SGCONFIG, K_DEPLOY, K_MANIFEST, K_RECIPE,
		K_LOG } kind;		/* K_LOG: text is the log's shell view */
	bool		 document;	/* Markdown: examples, not one deployment */
	struct md_node	*nodes;		/* a document's blocks that say which
					   node they run on */
	size_t		 nnodes;
	struct ynode	*yaml;		/* the YAML kinds: the tree (a manifest:
					   its documents) */
	char		*log;		/* K_LOG: the log itself (text is the
					   shell script it stands for, line
					   for line: io/pylog.h) */
	size_t		 loglen;
};

/* Read FILE ("-": standard input) as name; 0, or -1 with the reason
 * (FILE:LINE:COL where there is one) in why. */
int	input_read(const char *file, const char *name, struct input *,
	    struct buf *why);
/* What the text of in is, by mode: sets kind (a failed launch's log,
 * by a name ending in .log or by its traceback, argparse error or
 * server_args line, is K_LOG: its text becomes the shell view of the
 * configuration it shows) (and the YAML tree, the
 * document's shell view); 0; 1 when it holds nothing of SGLang's (YAML
 * that is no deployment, manifest, recipe or --config file; Markdown
 * without a shell block), the reason in why; -1 when it cannot be read
 * as what it looks like (a YAML syntax error, a Helm template), the
 * reason in why. */
int	input_classify(const struct catalog *, const char *name,
	    enum input_mode, struct input *, struct buf *why);
/* The launch commands of a shell script, a document, a manifest or an
 * srt-slurm recipe (the commands srtctl builds) as one shell view (a document's commands placed on the nodes its prose names);
 * the manifest reader's notes into notes. 0; 1 when it launches nothing
 * (a manifest without an SGLang container), or -1 when it cannot be read,
 * the reason in why (sc then empty). */
int	input_script(const char *name, const struct input *,
	    struct sh_script *, struct result *notes, struct buf *why);
void	input_free(struct input *);

/* A YAML tree that is a pdwiz deployment file (roles:, pdwiz:). */
bool	input_is_deployment(const struct ynode *);

#endif
