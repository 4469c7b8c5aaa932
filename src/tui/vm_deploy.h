/*
 * vm_deploy.h - the wizard's narrow door to src/deploy: everything the
 * view-model needs from the deployment model goes through these calls, so
 * the view-model depends on one small interface and not on the deployment
 * model's internals.
 */
#ifndef PDWIZ_TUI_VM_DEPLOY_H
#define PDWIZ_TUI_VM_DEPLOY_H

#include <stdbool.h>
#include <stddef.h>

#include "core/catalog.h"
#include "core/config.h"
#include "core/engine.h"
#include "deploy/deploy.h"
#include "emit/emit.h"

/* A fresh 1P1D deployment (model may be NULL). */
void	 vmd_default(const struct catalog *, struct deployment *,
	    const char *model);
void	 vmd_free(struct deployment *);
/* Load a deployment file; on -1, *d is still initialised. */
int	 vmd_load(const struct catalog *, const char *path,
	    struct deployment *, char *err, size_t errlen);
/* Import a launch script; notes (malloc'd or NULL) list what was odd. */
int	 vmd_import(const struct catalog *, const char *path,
	    struct deployment *, char **notes, char *err, size_t errlen);
/* The typed config of one role (out initialised here); diags (or NULL)
 * gets what reading its command reports (argparse's errors, an empty
 * --model-path), as pdwiz check of the deployment reports it. */
void	 vmd_role_config(const struct catalog *, const struct deployment *,
	    enum role, struct config *out, struct result *diags);
/* Cross-role rules over per-role effective configs, and the deployment's
 * shape (deployment_check_shape). */
void	 vmd_check_cross(const struct catalog *, const struct deployment *,
	    const struct config *eff[3], struct result *out);
/* The same two over lay, deployment_layout of d worked out already (or
 * NULL): the refresh places the deployment once. */
struct layout;
void	 vmd_role_config_in(const struct catalog *, const struct deployment *,
	    const struct layout *lay, enum role, struct config *out,
	    struct result *diags);
void	 vmd_check_cross_in(const struct catalog *, const struct deployment *,
	    const struct layout *lay, const struct config *eff[3],
	    struct result *out);
/* The launch commands as the shell emitter writes them (malloc'd). */
char	*vmd_preview(const struct catalog *, const struct deployment *);
/* The deployment file text (malloc'd), or NULL with msg. */
char	*vmd_to_yaml(const struct catalog *, const struct deployment *,
	    char *msg, size_t msglen);
/* Emit format ("shell", "runbook", "config", "k8s"): 0 or -1 with msg. */
int	 vmd_emit(const struct catalog *, const struct deployment *,
	    const char *format, bool force, struct emission *out, char *msg,
	    size_t msglen);

#endif
