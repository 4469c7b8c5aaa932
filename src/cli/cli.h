/* cli.h - the command-line front end (thin views over the model). */
#ifndef PDWIZ_CLI_H
#define PDWIZ_CLI_H

#include <stdio.h>

#include "cli/cliopt.h"
#include "core/catalog.h"
#include "core/config.h"

#define EXIT_OK		0
#define EXIT_FOUND	1	/* errors found in what was checked */
#define EXIT_USAGE	2	/* unusable input or usage */

struct catalog	*cli_load_catalog(void);
int		 cmd_check(int argc, char **argv);
int		 cmd_emit(int argc, char **argv);
int		 cmd_import(int argc, char **argv);
int		 cmd_explain(int argc, char **argv);
int		 cmd_rules(int argc, char **argv);
int		 cmd_coverage(int argc, char **argv);
int		 cmd_compile_catalog(int argc, char **argv);
int		 use_color(FILE *);
/*
 * fputs to stdout. The errno of a write that fails is kept for the message
 * at exit: stdio forgets it once the failed buffer is dropped, and a large
 * report written at once leaves nothing for the last flush to fail on.
 */
void		 cli_puts(const char *);

/* The subcommands, in the order pdwiz --help lists them. */
extern const struct clicmd	cli_check, cli_import, cli_emit, cli_explain,
				cli_rules, cli_coverage, cli_compile_catalog;

/*
 * Fact options (--model-arch, --platform, --gpu-sm, --gpu, --fact NAME=VALUE):
 * CLI_FACT_OPTS goes into a command's option table; cli_fact_opt collects
 * each one as the parser returns it, cli_facts_apply sets them on a config
 * once the catalog is loaded.
 */
enum { OPT_MODEL_ARCH = 100, OPT_PLATFORM, OPT_GPU_SM, OPT_GPU, OPT_GPU_MEM,
    OPT_FACT };

#define CLI_FACT_OPTS \
	{ OPT_MODEL_ARCH, "model-arch", 0, "ARCH", \
	    "model architecture, e.g. DeepseekV3ForCausalLM", 0 }, \
	{ OPT_PLATFORM, "platform", 0, "P", "cuda, hip, npu, musa or xpu", 0 }, \
	{ OPT_GPU_SM, "gpu-sm", 0, "N", \
	    "GPU generation, e.g. 90 (Hopper), 100 (Blackwell)", 0 }, \
	{ OPT_GPU, "gpu", 0, "NAME", \
	    "accelerator (H100, H200, B200, MI300X, 910B ...): settles the " \
	    "platform and SM, and estimates memory per GPU", 0 }, \
	{ OPT_GPU_MEM, "gpu-mem", 0, "GiB", \
	    "the accelerator's memory (what the driver reports), for one " \
	    "--gpu does not know or instead of its figure", 0 }, \
	{ OPT_FACT, "fact", 0, "NAME=VALUE", "any other fact", 0 }

struct cli_fact {
	char		 name[128];
	const char	*value;		/* points into argv */
};

struct cli_facts {
	struct cli_fact	*f;
	size_t		 n;
};

/* 1 if id is a fact option (collected), 0 if not, -1 on a bad --fact. */
int	cli_fact_opt(struct cli_facts *, int id, const char *arg);
/* 0, or -1 after printing why a fact was refused. */
struct buf;
/* why (may be NULL) also gets the message. */
int	cli_facts_apply(const struct catalog *, struct config *,
	    const struct cli_facts *, struct buf *why);
void	cli_facts_free(struct cli_facts *);

extern const char	*pdwiz_argv0;

#endif
