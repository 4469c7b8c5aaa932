/* deploy_int.h - helpers shared by the deployment modules (not an API). */
#ifndef PDWIZ_DEPLOY_INT_H
#define PDWIZ_DEPLOY_INT_H

#include "deploy/deploy.h"

enum rtype { RT_STR, RT_INT, RT_BOOL };

struct router_opt {
	const char	*name;		/* dest, underscores; flag is --dashed */
	enum rtype	 type;
};

extern const struct router_opt	router_opts[];
const struct router_opt *router_opt_find(const char *);

void	kv_set(struct kv **, size_t *, const char *name, const char *value,
	    int line, int col);
int	kv_name_cmp(const void *, const void *);
const struct kv *kv_get(const struct kv *, size_t, const char *name);
void	role_spec_init(struct role_spec *);
void	role_spec_free(struct role_spec *);

int	deploy_resolve(const struct catalog *, const char *name);
int	deploy_check_value(const struct catalog *, int opt, const char *value,
	    char *err, size_t errlen);

const char *role_host(const struct role_spec *, int inst, int rank);
int	role_port(const struct role_spec *, int base, int inst);
int	role_bootstrap_port(const struct catalog *, const struct role_spec *,
	    int inst);
char	*url_for(const char *host, int port);
void	router_endpoints(const struct catalog *, const struct deployment *,
	    struct endpoint **pe, size_t *npe, struct endpoint **de,
	    size_t *nde);
void	endpoints_release(struct endpoint *, size_t);

const char *role_names_for_file(int);

/* Shared + role options (role wins), sorted by name; shallow copies, free
 * only the array. */
size_t	role_options(const struct deployment *, enum role, struct kv **);
/* Shared + role env (role wins), sorted; owned (free with kv_free_all). */
void	role_env(const struct deployment *, enum role, struct kv **, size_t *);
void	kv_free_all(struct kv *, size_t);
/* The failing-validation banner line, without comment markers. */
#define EMIT_FAILING_TEXT "THIS DEPLOYMENT FAILS pdwiz VALIDATION (emitted with --force); run: pdwiz check"

/* emit_shell.c: the launch script, shared by the shell and config formats. */
struct buf;
void	shell_command(struct buf *, const struct launch *, const char *indent,
	    bool (*skip)(void *, const struct launch *, const char *), void *arg, const char *extra);
char	*shell_script(const struct catalog *, const struct deployment *,
	    bool failing, bool (*skip)(void *, const struct launch *, const char *), void *arg,
	    const char *(*extra)(void *, const struct launch *),
	    const char *what);

/* Append src's diagnostics to dst keeping each one's cmd. */
void	result_move_keep(struct result *dst, struct result *src);

/* Split "http://host:port/..." into host (owned) and port; -1 if bad. */
int	url_split(const char *url, char **host, int *port);
bool	host_is_loopback(const char *);
bool	host_is_wildcard(const char *);

#endif
