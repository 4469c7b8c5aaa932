/*
 * deploy_cross.c - cross-role checks. The rules themselves are data
 * (rules/deploy/ files); the deployment-level facts they read (deploy.*
 * options of rules/deploy/00-facts.yaml) are computed by
 * deploy_cross_router.c (router lists against the instances) and
 * deploy_cross_hosts.c (what shares a machine). This file sets the facts,
 * runs the rules and attributes each diagnostic to a role and a line;
 * deploy_cross_fix.c verifies the fixes.
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

/* The role whose process a str fact describes (diagnostic attribution). */
void
fact_role(struct facts *f, const char *name, enum role r)
{
	int	o = catalog_find(f->cat, name);

	if (o >= 0 && f->role != NULL)
		f->role[o] = (signed char)r;
}

void
fact_str(struct facts *f, const char *name, const char *s, int line)
{
	int	o = catalog_find(f->cat, name);

	if (o < 0)
		return;
	config_set(f->cfg, o, s ? val_str(s) : VAL_NULL, SRC_USER, line, 0);
}

void
fact_val(struct facts *f, const char *name, struct value v)
{
	int	o = catalog_find(f->cat, name);

	if (o >= 0)
		config_set(f->cfg, o, v, SRC_USER, 0, 0);
}

static void
role_cb(void *arg, int slot)
{
	int	*slots = arg;

	if (slots[0] < 64)
		slots[1 + slots[0]++] = slot;
}

enum role
deploy_diag_role(const struct catalog *cat, const struct diag *dg,
    const struct config *eff[NPD_ROLE])
{
	int	slots[65] = { 0 };
	int	i, first = -1;

	if (dg->rule == NULL)
		return ROLE_PREFILL;
	rule_slots(dg->rule, role_cb, slots);
	for (i = 1; i <= slots[0]; i++) {
		int	r = slot_role(cat->nopts, slots[i]);
		int	o = slot_opt(cat->nopts, slots[i]);

		if (r < 0) {
			const char	*n = cat->opts[o].name;

			if (strncmp(n, "deploy.router", 13) == 0)
				return ROLE_ROUTER;
			if (strncmp(n, "deploy.decode", 13) == 0)
				return ROLE_DECODE;
			if (strncmp(n, "deploy.prefill", 14) == 0)
				return ROLE_PREFILL;
			continue;
		}
		if (first < 0)
			first = r;
		if (r < NPD_ROLE && eff[r] != NULL && config_is_set(eff[r], o))
			return (enum role)r;
	}
	return first >= 0 ? (enum role)first : ROLE_PREFILL;
}

/* Line of the first option of role r the rule reads that was set. */
static int
diag_line(const struct catalog *cat, const struct diag *dg, enum role role,
    const struct config *eff[NPD_ROLE])
{
	int	slots[65] = { 0 };
	int	i;

	if (dg->rule == NULL || eff[role] == NULL)
		return 0;
	rule_slots(dg->rule, role_cb, slots);
	for (i = 1; i <= slots[0]; i++) {
		int	o = slot_opt(cat->nopts, slots[i]);

		if (slot_role(cat->nopts, slots[i]) == (int)role &&
		    config_is_set(eff[role], o) &&
		    eff[role]->s[o].line > 0)
			return eff[role]->s[o].line;
	}
	return 0;
}

/* The role a fact the rule reads is about (ROLE_SINGLE: none). */
struct fact_scan {
	const struct facts	*f;
	int			 role;
};

static void
fact_scan_cb(void *arg, int slot)
{
	struct fact_scan	*fs = arg;
	size_t			 nopts = fs->f->cat->nopts;
	int			 o = slot_opt(nopts, slot);

	if (fs->role < 0 && slot_role(nopts, slot) < 0 &&
	    fs->f->role[o] >= 0 && config_is_set(fs->f->cfg, o) &&
	    fs->f->cfg->s[o].v.t != V_NULL)
		fs->role = fs->f->role[o];
}

static enum role
fact_diag_role(const struct facts *f, const struct diag *dg)
{
	struct fact_scan	fs = { f, -1 };

	if (dg->rule != NULL)
		rule_slots(dg->rule, fact_scan_cb, &fs);
	return fs.role >= 0 ? (enum role)fs.role : ROLE_SINGLE;
}

/* The deployment facts and the deployment rules over d, unattributed. */

void
cross_eval(const struct catalog *cat, const struct deployment *d,
    const struct config *eff[NPD_ROLE], struct cross *x)
{
	struct plan		 p;
	const struct config	*roles[NSLOT_SCOPE];
	int			 r;

	config_init(&x->dc, cat);
	x->f.cat = cat;
	x->f.cfg = &x->dc;
	x->f.role = xcalloc(cat->nopts + 1, 1);
	memset(x->f.role, -1, cat->nopts + 1);
	deployment_plan(cat, d, &p, NULL);
	router_facts(&x->f, d, &p);
	resource_facts(&x->f, d, &p);
	roles[SCOPE_SELF] = &x->dc;
	for (r = 0; r < NPD_ROLE; r++)
		roles[role_scope((enum role)r)] = eff[r];
	result_init(&x->res);
	engine_run_deploy(cat, roles, &x->res);
	plan_free(&p);
}

void
cross_free(struct cross *x)
{
	result_free(&x->res);
	config_free(&x->dc);
	free(x->f.role);
}

void
deployment_check_cross(const struct catalog *cat, const struct deployment *d,
    const struct config *eff[NPD_ROLE], struct result *out)
{
	struct cross	 x;
	size_t		 i;

	cross_eval(cat, d, eff, &x);
	verify_fixes(cat, d, eff, &x.res);
	for (i = 0; i < x.res.n; i++) {
		struct diag	*dg = &x.res.d[i];
		enum role	 dr = fact_diag_role(&x.f, dg);
		int		 ln;

		if (dr == ROLE_SINGLE)
			dr = deploy_diag_role(cat, dg, eff);
		ln = diag_line(cat, dg, dr, eff);

		if (ln > 0 && (dg->line == 0 || dg->opt < 0 ||
		    cat->opts[dg->opt].kind != OK_DEPLOY ||
		    !config_is_set(&x.dc, dg->opt)))
			dg->line = ln;
		if (dg->line == 0)
			dg->line = d->role[dr].line;
		dg->cmd = (int)dr;
	}
	result_move_keep(out, &x.res);
	cross_free(&x);
}

