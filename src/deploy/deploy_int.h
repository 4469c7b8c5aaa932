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
void	router_endpoints(const struct catalog *, const struct deployment *,
	    struct endpoint **pe, size_t *npe, struct endpoint **de,
	    size_t *nde);
void	endpoints_release(struct endpoint *, size_t);

const char *role_names_for_file(int);

/* Append src's diagnostics to dst keeping each one's cmd. */
void	result_move_keep(struct result *dst, struct result *src);

/* Split "http://host:port/..." into host (owned) and port; -1 if bad. */
int	url_split(const char *url, char **host, int *port);
bool	host_is_loopback(const char *);
bool	host_is_wildcard(const char *);

#endif
