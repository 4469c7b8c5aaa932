/* deploy_int.h - helpers shared by the deployment modules (not an API). */
#ifndef PDWIZ_DEPLOY_INT_H
#define PDWIZ_DEPLOY_INT_H

#include "deploy/deploy.h"

/*
 * The router's options are catalog options named ROUTER_OPT_PREFIX + NAME
 * (rules/deploy/05-router-options.yaml); NAME is the dest spelling, the flag
 * is --NAME with dashes. router_opt_find: the option, or NULL.
 * router_opt_names: up to max - 1 NAMEs in catalog order, NULL-terminated.
 */
#define ROUTER_OPT_PREFIX	"deploy.router."
const struct option *router_opt_find(const struct catalog *, const char *name);
void	router_opt_names(const struct catalog *, const char **names,
	    size_t max);

void	kv_set(struct kv **, size_t *, const char *name, const char *value,
	    int line, int col);
/* kv_set of each of src[0..nsrc), in order, in time linear in the two
 * arrays (kv_set alone is linear in *n for each). */
void	kv_setv(struct kv **, size_t *, const struct kv *src, size_t nsrc);
int	kv_name_cmp(const void *, const void *);
const struct kv *kv_get(const struct kv *, size_t, const char *name);
void	role_spec_init(struct role_spec *);
/* A vector of owned strings: freed (each, then the array), copied. */
void	strv_free(char **, size_t);
char	**strv_copy(char *const *, size_t);
void	role_spec_free(struct role_spec *);

int	deploy_resolve(const struct catalog *, const char *name);
int	deploy_check_value(const struct catalog *, int opt, const char *value,
	    char *err, size_t errlen);

const char *role_host(const struct role_spec *, int inst, int rank);
void	router_endpoints(const struct catalog *, const struct deployment *,
	    struct endpoint **pe, size_t *npe, struct endpoint **de,
	    size_t *nde);
/* The same from the deployment's layout, worked out already. */
void	router_endpoints_in(const struct layout *, struct endpoint **pe,
	    size_t *npe, struct endpoint **de, size_t *nde);
void	endpoints_release(struct endpoint *, size_t);

const char *role_names_for_file(int);

/* One value of a server's config by option name (deploy_cfg.c): the
 * integer (def when not an integer), the string or NULL, true only for a
 * bool set true; cfg_unknown: a value the script leaves to run time. */
long long	 cfg_int(const struct config *, const char *name, long long def);
const char	*cfg_str(const struct config *, const char *name);
bool		 cfg_bool(const struct config *, const char *name);
bool		 cfg_unknown(const struct config *, const char *name);
/* A number the config states (not SGLang's default), else def. */
double		 cfg_num(const struct config *, const char *name, double def);

/* The phrases a deployment file's missing.ROLE says of what the source
 * left open (written by import, read back by the file's reader): which
 * of the role's machine, ports and options stay unknown. A text with none
 * of them (written by hand) leaves all three unknown. */
#define MISSING_HOST	"the machine it runs on is not stated"
#define MISSING_PORT	"a port is computed at run time"
#define MISSING_ARGS	"words of its command are expanded at run time"
#define MISSING_NODES	"the other nodes' hosts are not known"

/* Append src's diagnostics to dst keeping each one's cmd. */
void	result_move_keep(struct result *dst, struct result *src);

/* Split "http://host:port/..." into host (owned) and port; -1 if bad. */
int	url_split(const char *url, char **host, int *port);
bool	host_is_loopback(const char *);
bool	host_is_wildcard(const char *);

#endif
