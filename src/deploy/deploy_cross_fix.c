/*
 * deploy_cross_fix.c - applying and verifying the fixes of the deployment
 * rules: a fix is offered only when applying it to a copy of the
 * deployment clears its diagnostic (decides a could-not-check) without a
 * new error.
 */
#define _POSIX_C_SOURCE 200809L
#include "deploy/deploy.h"
#include "deploy/deploy_int.h"
#include "deploy/deploy_cross.h"
#include "deploy/layout.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/*
 * Fixes of deployment rules. A fix names role slots (prefill.page_size) or
 * deployment facts (deploy.router_missing). A role slot is set in the
 * role's options of a copy of the deployment, as the wizard would write it;
 * null removes the role's own value (a value shared by both roles stays
 * with the other role), so the deployment's model, the shared value or
 * SGLang's default applies. A deployment fact set to null means "let pdwiz
 * derive what the fact is computed from": the copy drops the explicit
 * values that the layout derives (the router's lists, the rendezvous,
 * ports, base GPUs). The router's options (deploy.router.NAME) are set on
 * the router. Anything else cannot be applied, and the fix is not offered.
 * A script does not say how many GPUs its nodes have: its import records
 * the GPUs each command uses as gpus_per_node, so a fix that changes a
 * role's parallelism drops that record (the GPUs become unknown again).
 */

static bool
sizes_gpus(const char *name)
{
	static const char *const n[] = { "tp_size", "pp_size", "dp_size",
	    "nnodes", "enable_dp_attention", NULL };
	size_t	i;

	for (i = 0; n[i] != NULL; i++)
		if (strcmp(n[i], name) == 0)
			return true;
	return false;
}

/* Drop the role's own value of name; a shared value moves to the other
 * PD role so that only this role loses it. */
static int
role_unset(const struct catalog *cat, struct deployment *d, enum role r,
    const char *name)
{
	char		 err[256];
	int		 o = deploy_resolve(cat, name);
	const struct kv	*k = NULL;
	enum role	 other = r == ROLE_PREFILL ? ROLE_DECODE : ROLE_PREFILL;

	if (o >= 0 && strcmp(name, "model_path") != 0) {
		if (cat->opts[o].kind == OK_ENV)
			k = kv_get(d->shared_env, d->nshared_env,
			    cat->opts[o].name);
		else
			k = kv_get(d->shared, d->nshared, cat->opts[o].name);
	}
	if (k != NULL) {
		bool	 env = cat->opts[o].kind == OK_ENV;
		char	*v = k->value ? xstrdup(k->value) : NULL;
		int	 rc = 0;

		if (kv_get(env ? d->role[other].env : d->role[other].opts,
		    env ? d->role[other].nenv : d->role[other].nopts,
		    cat->opts[o].name) == NULL)
			rc = deployment_set(cat, d, other, cat->opts[o].name, v,
			    err, sizeof err);
		free(v);
		if (rc != 0 || deployment_set_shared(cat, d, cat->opts[o].name,
		    NULL, err, sizeof err) != 0)
			return -1;
	}
	return deployment_set(cat, d, r, name, NULL, err, sizeof err);
}

static void
drop_dist_init(const struct catalog *cat, struct deployment *d)
{
	char	err[256];
	int	r;

	(void)deployment_set_shared(cat, d, "dist_init_addr", NULL, err,
	    sizeof err);
	for (r = ROLE_PREFILL; r <= ROLE_DECODE; r++) {
		d->role[r].dist_init_port = -1;
		(void)deployment_set(cat, d, (enum role)r, "dist_init_addr",
		    NULL, err, sizeof err);
	}
}

/* A deployment fact set to null: derive what it is computed from. */
static int
derive_fact(const struct catalog *cat, struct deployment *d,
    const char *name, bool touched[NPD_ROLE])
{
	struct role_spec	*rr = &d->role[ROLE_ROUTER];
	int			 r;

	if (strncmp(name, "deploy.router_", 14) == 0) {
		endpoints_release(rr->prefill_urls, rr->nprefill_urls);
		endpoints_release(rr->decode_urls, rr->ndecode_urls);
		rr->prefill_urls = rr->decode_urls = NULL;
		rr->nprefill_urls = rr->ndecode_urls = 0;
		return 0;
	}
	if (strcmp(name, "deploy.rendezvous_invalid") == 0) {
		drop_dist_init(cat, d);
		touched[ROLE_PREFILL] = touched[ROLE_DECODE] = true;
		return 0;
	}
	for (r = ROLE_PREFILL; r <= ROLE_DECODE; r++) {
		struct role_spec	*rs = &d->role[r];

		if (strcmp(name, "deploy.port_collision") == 0) {
			rs->port = rs->bootstrap_port = -1;
			rs->dist_init_port = -1;
		} else if (strcmp(name, "deploy.port_invalid") == 0) {
			rs->port = rs->bootstrap_port = -1;
			rs->port_step = 0;
		} else if (strcmp(name, "deploy.gpu_collision") == 0 ||
		    strcmp(name, "deploy.gpu_overflow") == 0)
			rs->base_gpu_id = -1;
		else
			return -1;
	}
	if (strcmp(name, "deploy.port_collision") == 0) {
		drop_dist_init(cat, d);
		rr->port = -1;		/* the router's too */
	}
	touched[ROLE_PREFILL] = touched[ROLE_DECODE] = true;
	return 0;
}

/* Apply fix fx of a deployment rule to d; touched: roles whose options
 * changed. 0, or -1 when the fix cannot be applied. */
static int
deploy_apply_fix(const struct catalog *cat, const struct fix *fx,
    struct deployment *d, bool touched[NPD_ROLE])
{
	size_t	nopts = cat->nopts, i;
	char	err[256];

	for (i = 0; i < fx->n; i++) {
		int		 role = slot_role(nopts, fx->opt[i]);
		int		 o = slot_opt(nopts, fx->opt[i]);
		const char	*name = cat->opts[o].name;
		struct buf	 b = { 0 };
		int		 rc;

		if (fx->val[i].t != V_NULL)
			val_cli(&b, fx->val[i]);
		if (role < 0) {
			if (strncmp(name, ROUTER_OPT_PREFIX,
			    strlen(ROUTER_OPT_PREFIX)) == 0)
				rc = deployment_set(cat, d, ROLE_ROUTER, name +
				    strlen(ROUTER_OPT_PREFIX), b.s, err,
				    sizeof err);
			else
				rc = fx->val[i].t == V_NULL ?
				    derive_fact(cat, d, name, touched) : -1;
		} else if (role == ROLE_ROUTER) {
			rc = -1;
		} else if (cat->opts[o].kind == OK_FACT) {
			rc = deployment_set_fact(cat, d, name, b.s, err,
			    sizeof err);
			touched[ROLE_PREFILL] = touched[ROLE_DECODE] = true;
		} else {
			rc = b.s == NULL ? role_unset(cat, d, (enum role)role,
			    name) : deployment_set(cat, d, (enum role)role,
			    name, b.s, err, sizeof err);
			touched[role] = true;
			if (d->gpus_per_host < 0 && sizes_gpus(name))
				d->role[role].gpus_per_node = 0;
		}
		buf_free(&b);
		if (rc != 0)
			return -1;
	}
	return 0;
}

int
deployment_apply_fix(const struct catalog *cat, const struct rule *r,
    size_t i, struct deployment *d)
{
	bool	touched[NPD_ROLE] = { false, false, false };

	if (!r->deploy || i >= r->nfixes)
		return -1;
	return deploy_apply_fix(cat, &r->fixes[i], d, touched);
}

/* The role's effective config and its errors, from the deployment. */
static void
role_eval(const struct catalog *cat, const struct deployment *d, enum role r,
    struct result *res)
{
	struct config	cfg;
	struct result	rd;

	result_init(&rd);
	result_init(res);
	(void)deployment_role_config(cat, d, r, &cfg, &rd);
	engine_run(cat, &cfg, res);
	result_take(res, &rd, 0);
	result_free(&rd);
	config_free(&cfg);
}

static bool
has_rule_sev(const struct result *res, const struct rule *r,
    enum severity sev)
{
	size_t	i;

	for (i = 0; i < res->n; i++)
		if (res->d[i].rule == r && res->d[i].sev == sev)
			return true;
	return false;
}

/* Is every error of after also an error of before (same rule, or for
 * reader errors the same text)? */
static bool
no_new_error(const struct result *before, const struct result *after)
{
	size_t	i, j;

	for (i = 0; i < after->n; i++) {
		const struct diag	*a = &after->d[i];
		bool			 old = false;

		if (a->sev != SEV_ERROR)
			continue;
		for (j = 0; j < before->n && !old; j++)
			old = before->d[j].sev == SEV_ERROR &&
			    before->d[j].rule == a->rule && (a->rule != NULL ||
			    strcmp(before->d[j].msg, a->msg) == 0);
		if (!old)
			return false;
	}
	return true;
}

#define DFIX_MAX	32	/* fixes fix_ok can speak for */

/* Does fix j of diagnostic dg clear it without a new error? */
static bool
fix_works(const struct catalog *cat, const struct deployment *d,
    const struct config *eff[NPD_ROLE], const struct result *res,
    const struct diag *dg, size_t j)
{
	struct deployment	 d2;
	struct config		 e2[NPD_ROLE];
	const struct config	*ep[NPD_ROLE];
	bool			 touched[NPD_ROLE] = { false, false, false };
	bool			 ok;
	struct cross		 x;
	int			 r;

	deployment_copy(&d2, d);
	if (deploy_apply_fix(cat, &dg->rule->fixes[j], &d2, touched) != 0) {
		deployment_free(&d2);
		return false;
	}
	ok = true;
	memset(e2, 0, sizeof e2);
	for (r = 0; r < NPD_ROLE; r++) {
		struct result	 was, now;

		ep[r] = eff[r];
		if (!touched[r] || r == ROLE_ROUTER)
			continue;
		role_eval(cat, d, (enum role)r, &was);
		role_eval(cat, &d2, (enum role)r, &now);
		ok = ok && no_new_error(&was, &now);
		e2[r] = now.eff;
		memset(&now.eff, 0, sizeof now.eff);
		ep[r] = &e2[r];
		result_free(&was);
		result_free(&now);
	}
	cross_eval(cat, &d2, NULL, ep, &x);
	ok = ok && !has_rule_sev(&x.res, dg->rule, dg->sev) &&
	    (dg->sev != SEV_UNKNOWN ||
	    !has_rule_sev(&x.res, dg->rule, dg->rule->sev)) &&
	    no_new_error(res, &x.res);
	cross_free(&x);
	for (r = 0; r < NPD_ROLE; r++)
		if (ep[r] == &e2[r])
			config_free(&e2[r]);
	deployment_free(&d2);
	return ok;
}

/* Verify the fixes of every error, warning, note and could-not-check (see
 * the comment above): a could-not-check offers a fix that decides it,
 * neither unknown nor firing in the fixed copy; one that changes nothing
 * leaves it unknown. */
void
verify_fixes(const struct catalog *cat, const struct deployment *d,
    const struct config *eff[NPD_ROLE], struct result *res)
{
	size_t	i, j;

	for (i = 0; i < res->n; i++) {
		struct diag	*dg = &res->d[i];

		if (dg->rule == NULL || dg->rule->nfixes == 0 ||
		    (dg->sev != SEV_ERROR && dg->sev != SEV_WARNING &&
		    dg->sev != SEV_NOTE && dg->sev != SEV_UNKNOWN))
			continue;
		dg->fixes_verified = true;
		dg->fix_ok = 0;
		for (j = 0; j < dg->rule->nfixes && j < DFIX_MAX; j++)
			if (fix_works(cat, d, eff, res, dg, j))
				dg->fix_ok |= 1u << j;
	}
}

