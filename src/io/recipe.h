/*
 * recipe.h - NVIDIA srt-slurm recipes: the SGLang servers they describe.
 *
 * An srt-slurm recipe (resources:, backend: with sglang_config:) holds, per
 * worker mode, a map whose keys are SGLang option names; srtctl turns each
 * into command-line flags of python -m sglang.launch_server (or
 * dynamo.sglang), after --model-path, --host, --port, --nccl-port,
 * --disaggregation-mode and, for a worker over several nodes,
 * --dist-init-addr/--nnodes/--node-rank of its own (srt-slurm
 * src/srtctl/backends/sglang.py@00660c91, build_worker_command). The
 * mode's environment map (prefill_environment, ...) is the server's
 * environment. A sweep file (base: plus zip_override_* blocks) is read
 * from its base block.
 */
#ifndef PDWIZ_RECIPE_H
#define PDWIZ_RECIPE_H

#include <stdbool.h>
#include <stddef.h>

struct ynode;

struct recipe_role {
	const char		*mode;		/* "prefill", "decode" or "null"
						   (aggregated) */
	const struct ynode	*config;	/* option map (borrowed) */
	const struct ynode	*env;		/* environment map, or NULL */
	long			 nodes_per_worker; /* 0: unknown or several
						   workers on one node */
	long			 workers;	/* -1: unknown */
};

struct recipe {
	struct recipe_role	*roles;		/* owned array */
	size_t			 nroles;
	const struct ynode	*base;		/* the block read (root or base:) */
	char			*sweeps;	/* owned: ", "-separated names of
						   the sweep blocks not expanded, or
						   NULL */
	bool			 dynamo;	/* frontend type dynamo: workers
						   run as dynamo.sglang */
	const char		*model;		/* an hf: model id (borrowed), or
						   NULL: a local model mounted at
						   /model, unknown here */
};

/* Whether root is an srt-slurm recipe (or a sweep of them). */
bool	recipe_sniff(const struct ynode *root);
/* Read root; 0, or -1 with a message in err. */
int	recipe_read(const struct ynode *root, struct recipe *out, char *err,
	    size_t errlen);
void	recipe_free(struct recipe *);

/* The words of the command srtctl runs for worker mode r, in order, each
 * given to put with where it stands in the recipe (the text may be
 * temporary: copy it). */
typedef void (*recipe_word_fn)(void *arg, const char *text, int line,
    int col);
void	recipe_words(const struct recipe *, const struct recipe_role *r,
	    recipe_word_fn put, void *arg);
/* Those commands, one per worker mode with its environment exported, as a
 * shell view at the modes' lines (for pdwiz import). 0, or -1 with err. */
struct sh_script;
int	recipe_script(const char *name, const struct ynode *root,
	    struct sh_script *out, char *err, size_t errlen);

#endif
