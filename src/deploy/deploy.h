/*
 * deploy.h - a PD deployment: prefill and decode instances and a router,
 * over one or more nodes. The unit pdwiz reasons about and emits.
 *
 * The model is plain data (text values, as an operator writes them) so the
 * wizard can edit it in memory; deployment_role_config() and
 * deployment_plan() turn it into typed configs and launch commands. The file
 * format is documented in share/deployment-format.md.
 *
 * Stability: the wizard builds on this header. Add functions and fields at
 * the end of structs; do not change existing signatures.
 */
#ifndef PDWIZ_DEPLOY_H
#define PDWIZ_DEPLOY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/catalog.h"
#include "core/config.h"
#include "core/engine.h"
#include "core/role.h"

#define DEPLOY_FORMAT_VERSION	1

struct kv {				/* an SGLang option or env var, as text */
	char	*name;			/* option name (dest) or env var name */
	char	*value;			/* NULL = flag without value / unset;
					   lists: items joined by '\x1f' */
	int	 line, col;		/* in the deployment file / script */
};

struct endpoint {			/* a router --prefill / --decode entry */
	char	*url;
	int	 bootstrap_port;	/* -1: not given on the router line */
	int	 line, col;
	const char *bad_port;		/* interned: the word after a --prefill
					 * URL that is neither a number nor
					 * 'none' (the router refuses it) */
};

struct role_spec {
	bool		 enabled;
	int		 instances;		/* prefill/decode instances (router: 1) */
	int		 nodes_per_instance;
	int		 gpus_per_node;		/* 0 = not stated (import) */
	char		**hosts;		/* one per node, instance-major */
	size_t		 nhosts;
	int		 port;			/* HTTP port (router: its port) */
	int		 bootstrap_port;	/* prefill; -1 = SGLang default */
	int		 dist_init_port;	/* multi-node rendezvous port; -1 none */
	int		 base_gpu_id;		/* -1 = not given */
	struct kv	*opts;			/* SGLang options for this role */
	size_t		 nopts;
	struct kv	*env;
	size_t		 nenv;
	char		*policy;		/* router: --policy (NULL: default) */
	int		 port_step;		/* instance i: port + i*port_step, also
						   bootstrap and dist-init ports */
	int		 gpu_step;		/* instance i: base_gpu_id + i*gpu_step */
	struct endpoint	*prefill_urls;		/* router: explicit list (import);
						   empty = generated from the plan */
	size_t		 nprefill_urls;
	struct endpoint	*decode_urls;
	size_t		 ndecode_urls;
	char		**extra_args;		/* words passed through as given,
						   after the options: the
						   router's flags pdwiz does not
						   model; a server's words
						   SGLang's argparse refuses */
	size_t		 nextra_args;
	int		 line;			/* where the role was defined */
	int		*inst_line;		/* imported: the line of each
						   instance's first command (ninst_line
						   of them; past them: line) */
	char		**inst_bind;		/* imported: the --host each of those
						   commands gives (NULL: none; SGLang
						   binds 127.0.0.1), ninst_line of
						   them, or NULL */
	size_t		 ninst_line;
	char		*bind_host;		/* --host for servers/router; NULL =
						   the node's host */
	bool		 host_unstated;		/* imported: bound to 0.0.0.0 or ::
						   with no word of the machine, or
						   an address computed at run time;
						   hosts hold 127.0.0.1 */
	bool		 port_unstated;		/* imported: a port computed at run
						   time ($((...)), ${VAR}) */
	bool		 args_unstated;		/* imported: words of the command
						   expanded at run time stand for
						   options ($EXTRA_ARGS); what they
						   set is unknown */
	bool		 workers_discovered;	/* imported router without a
						   --prefill/--decode list: its
						   workers come by service
						   discovery or at run time */
	bool		 nohttp;		/* imported: its servers run behind a
						   wrapper that opens no SGLang HTTP
						   server (dynamo.sglang), so they
						   hold no --port */
	bool		 pod_hosts;		/* imported from a manifest: hosts are
						   the pods' stable DNS names, one
						   machine each */
	char		*missing;		/* what the source lacked of this
						   role (the file's missing.ROLE):
						   with enabled false the role is
						   absent, not deployed; with
						   enabled, some of its nodes are
						   not known. NULL: complete */
	char		*model;			/* server: a --model-path of its
						   own (NULL: the deployment's
						   model) */
	int		 model_line;
};

struct deployment {
	char		*name;
	char		*model;			/* --model-path */
	struct kv	*facts;			/* model facts given explicitly */
	size_t		 nfacts;
	char		*sglang_version;
	struct kv	*shared;		/* options shared by prefill+decode */
	size_t		 nshared;
	struct kv	*shared_env;
	size_t		 nshared_env;
	struct role_spec role[NROLE];
	char		*path;			/* file it was loaded from */
	char		*k8s_image;		/* k8s: container image (NULL: default) */
	char		*k8s_namespace;		/* NULL: none written */
	int		 model_line;
	int		 gpus_per_host;		/* GPUs of each machine; 0 = not
						   stated (8 assumed), -1 = unknown
						   (read from a script) */
};

const char	*role_name(enum role);		/* "prefill", "decode", "router" */
/* The --model-path role r's servers run: its own, else the deployment's
 * ("" when none). */
const char	*deployment_role_model(const struct deployment *, enum role r);

void	deployment_init(struct deployment *);	/* empty, all ports -1 */
void	deployment_free(struct deployment *);
/* A minimal valid 1P1D on one host: the wizard's starting point. */
void	deployment_default(struct deployment *, const char *model);

/*
 * Read/write the deployment YAML file. Read errors: every problem as
 * "file:line:col: message" lines in err, return -1 (the CLI exits 2).
 */
int	deployment_load(const struct catalog *, const char *path,
	    struct deployment *, char *err, size_t errlen);
int	deployment_parse(const struct catalog *, const char *name,
	    const char *text, size_t len, struct deployment *, char *err,
	    size_t errlen);
char	*deployment_to_yaml(const struct catalog *, const struct deployment *);
/*
 * deployment_to_yaml, then read back with deployment_parse: the text, or
 * NULL with why ("would not read back: <the reader's message>" or "cannot
 * be written: ..."). The importer's completeness check and the wizard's
 * save go through it, so neither hands out a file pdwiz would refuse.
 */
char	*deployment_to_yaml_checked(const struct catalog *,
	    const struct deployment *, char *why, size_t whylen);
/*
 * Is this text (or YAML tree) a deployment file: a YAML mapping with a
 * top-level roles or pdwiz key, whatever its layout?
 */
struct ynode;
bool	deployment_sniff(const char *text, size_t len);
bool	deployment_sniff_ydoc(const struct ynode *);

/*
 * Edit in memory. name is an option name (tp_size), a flag spelling
 * (--tp-size) or an environment variable known to the catalog; value NULL
 * removes it. For ROLE_ROUTER, name is a router option by its dest name
 * (policy, prefill_policy, ...: the catalog's deploy.router.NAME options).
 * Returns 0, or -1 with a message in err.
 */
int	deployment_set(const struct catalog *, struct deployment *, enum role,
	    const char *name, const char *value, char *err, size_t errlen);
int	deployment_set_shared(const struct catalog *, struct deployment *,
	    const char *name, const char *value, char *err, size_t errlen);
/* The value text as given for the role (role, then shared), or NULL. */
const char *deployment_get(const struct catalog *, const struct deployment *,
	    enum role, const char *name);
int	deployment_set_fact(const struct catalog *, struct deployment *,
	    const char *name, const char *value, char *err, size_t errlen);

/* What a role's missing.ROLE (set) says is unknown - its machine, ports,
 * options - into its *_unstated flags, as the deployment file's reader
 * takes them: for the wizard, which checks an import as its saved file
 * reads back. */
void	deployment_read_unstated(struct role_spec *);

/* One launch command of the expanded deployment. */
struct launch {
	enum role	 role;
	int		 instance, node_rank;
	const char	*host;		/* points into the deployment */
	bool		 host_unstated;	/* the source did not say which
					   machine (role host_unstated):
					   host stands in for it */
	char		**argv;		/* full argv incl. python -m ... ; owned */
	size_t		 argc;
	struct kv	*env;		/* owned */
	size_t		 nenv;
	struct config	 cfg;		/* the server's config (not for the router) */
	int		*argline;	/* per argv word: file line (0 unknown) */
	int		*argcol;
	size_t		 argstart;	/* first SGLang argument in argv */
	size_t		 extra_start;	/* first of the role's extra_args
					   (words passed through as given);
					   argc when none */
};

/* The line launch la's command came from: its instance's, else its
 * role's. */
int	launch_line(const struct deployment *, const struct launch *la);
/* The address a server launch binds: its imported instance's own --host
 * when the script's instances differ, else the plan's; NULL: SGLang's
 * default, 127.0.0.1. */
const char *launch_bind(const struct deployment *, const struct launch *la);

struct plan {
	struct launch	*l;
	size_t		 n;
};

/*
 * Expand instances x nodes into launch commands (multi-node: --nnodes,
 * --node-rank, --dist-init-addr MASTER:PORT; router lists every instance,
 * or the explicit endpoint list). Launch configs are read back through
 * SGLang's argument parser; reader diagnostics go to diags (may be NULL).
 * Returns the number of reader errors.
 */
int	deployment_plan(const struct catalog *, const struct deployment *,
	    struct plan *, struct result *diags);
void	plan_free(struct plan *);
/*
 * The same over lay, deployment_layout of d worked out already (d not
 * changed since), or NULL to work it out: one refresh of the wizard, one
 * check, places the deployment once, not once per call.
 */
struct layout;
int	deployment_plan_in(const struct catalog *, const struct deployment *,
	    const struct layout *lay, struct plan *, struct result *diags);

/*
 * The representative config of a role (instance 0, node rank 0): defaults,
 * model facts, shared settings, role options, per-node settings, read
 * through SGLang's parser. out is initialised here. ROLE_ROUTER gets
 * defaults plus host/port. Returns reader errors (diags may be NULL).
 */
int	deployment_role_config(const struct catalog *, const struct deployment *,
	    enum role, struct config *out, struct result *diags);
int	deployment_role_config_in(const struct catalog *,
	    const struct deployment *, const struct layout *lay, enum role,
	    struct config *out, struct result *diags);

/*
 * Per-server rules on every command + cross-role rules on the whole.
 * Diagnostics: cmd = index of the launch in the plan (cross-role ones: the
 * first launch of the role they are attributed to), line/col in the file.
 */
void	deployment_check(const struct catalog *, const struct deployment *,
	    struct result *out);

/*
 * Cross-role rules only, on per-role effective configs (the engine's
 * result eff; any may be NULL). cmd of each diagnostic = enum role it is
 * attributed to. Used by `pdwiz check` on scripts.
 */
/* The deployment's shape as its file reader checks it (a model path, one
 * host per node or one for all, ...): a "deploy-file" error when the
 * deployment would not read back. Part of deployment_check; the wizard's
 * verdict runs it too. */
void	deployment_check_shape(const struct catalog *,
	    const struct deployment *, struct result *out);
void	deployment_check_cross(const struct catalog *, const struct deployment *,
	    const struct config *eff[NPD_ROLE], struct result *out);
void	deployment_check_cross_in(const struct catalog *,
	    const struct deployment *, const struct layout *lay,
	    const struct config *eff[NPD_ROLE], struct result *out);
/*
 * Apply fix i of deployment rule r to d, as deployment_check_cross applies
 * it when it verifies the fix (rules/README.md, "Fixes of deployment
 * rules"). 0, or -1 when the fix cannot be applied (d may be partly
 * changed: apply it to a copy).
 */
int	deployment_apply_fix(const struct catalog *, const struct rule *r,
	    size_t i, struct deployment *d);
/* Role a cross-role diagnostic belongs to (by the options its rule reads). */
enum role deploy_diag_role(const struct catalog *, const struct diag *,
	    const struct config *eff[NPD_ROLE]);

/*
 * Import a launch script (prefill/decode/router commands, exports, several
 * nodes). Things that cannot be placed are reported in notes (warnings,
 * with lines), never dropped silently. Returns 0, or -1 with err.
 */
int	deployment_import(const struct catalog *, const char *name,
	    const char *text, size_t len, struct deployment *,
	    struct result *notes, char *err, size_t errlen);
/*
 * Can an imported deployment be written as a deployment file that reads
 * back? A script may hold only some of the commands (pdwiz check reads
 * those); a file needs prefill, decode and router, and every node of a
 * multi-node instance. 0, or -1 with err saying what the script lacks.
 */
int	deployment_import_complete(const struct catalog *,
	    const struct deployment *, const char *name, char *err,
	    size_t errlen);

/* ---- layout: ports, URLs and option lists the plan and the emitters share ---- */

/* Port of instance inst counted from base (port_step apart); base < 0 stays. */
int	role_port(const struct role_spec *, int base, int inst);
/* The bootstrap port prefill instance inst serves on (SGLang's default when
 * the role does not set one). */
int	role_bootstrap_port(const struct catalog *, const struct role_spec *,
	    int inst);
/* "http://host:port" (an IPv6 host in brackets); owned. */
char	*url_for(const char *host, int port);
/* Shared + role options (role wins), sorted by name; shallow copies, free
 * only the array. */
size_t	role_options(const struct deployment *, enum role, struct kv **);
/* Shared + role env (role wins), sorted; owned (free with kv_free_all). */
void	role_env(const struct deployment *, enum role, struct kv **, size_t *);
void	kv_free_all(struct kv *, size_t);
/* Is name (dest spelling) a router option written as a bare flag? */
bool	router_opt_is_flag(const struct catalog *, const char *name);

/*
 * Where everything runs (deploy/layout.h): values the user left out are
 * derived. deployment_pin writes the derived values into d as if the user
 * had set them (hosts, ports, port and GPU steps, bootstrap and rendezvous
 * ports, base GPUs, GPUs per node, the router's host, port and lists), so
 * the file states everything and plans the same. deployment_copy: a deep
 * copy (dst initialised here).
 */
void	deployment_pin(const struct catalog *, struct deployment *);
void	deployment_copy(struct deployment *dst, const struct deployment *src);

/* ---- readers over input already parsed (pdwiz check reads once) ---- */

struct sh_script;
struct ynode;
/* deployment_parse on the document's YAML tree (the caller keeps it). */
int	deployment_from_ydoc(const struct catalog *, const char *name,
	    const struct ynode *root, struct deployment *, char *err,
	    size_t errlen);
/* deployment_import on a script the shell reader has read. */
int	deployment_import_script(const struct catalog *, const char *name,
	    const struct sh_script *, struct deployment *,
	    struct result *notes, char *err, size_t errlen);
/*
 * The cross-role checks of a script's commands: the script imported as a
 * deployment, then deployment_check_cross with the per-role effective
 * configs. Returns 0, or -1 when the commands do not form a deployment
 * (nothing added to out).
 */
/*
 * Encoder disaggregation across the server commands of one input (cfgs,
 * n of them: their effective configurations, values left to run time kept
 * unknown): each --encoder-urls entry no --encoder-only server of the input
 * listens on. Diagnostics (rules reading deploy.encoder_*) are appended to
 * out at the line of the --encoder-urls option, cmd -1.
 */
void	deployment_check_encoders(const struct catalog *,
	    const struct config *const *cfgs, size_t n, struct result *out);
/* Is this server part of encoder disaggregation: --encoder-only, or naming
 * encoders with --encoder-urls (the configs deployment_check_encoders
 * wants)? */
bool	deployment_encoder_cmd(const struct config *);
int	deployment_check_script(const struct catalog *, const char *name,
	    const struct sh_script *, const struct config *eff[3],
	    struct result *out);

#endif
