/*
 * vm_deploy.c - adapter from the wizard to src/deploy (see vm_deploy.h).
 *
 * src/deploy models PD deployments only; the non-PD (single server) role
 * is assembled here (single_role_config, single_preview).
 */
#include "tui/vm_deploy.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/describe.h"
#include "core/util.h"
#include "io/server.h"

/* The wizard's default: deployment_default with the router's host left
 * to the layout (the first prefill's), so that the router stays on a host
 * of the deployment when the servers' hosts change. */
static void
wizard_default(struct deployment *d, const char *model)
{
	struct role_spec	*rr = &d->role[ROLE_ROUTER];
	size_t			 i;

	deployment_default(d, model);
	for (i = 0; i < rr->nhosts; i++)
		free(rr->hosts[i]);
	free(rr->hosts);
	rr->hosts = NULL;
	rr->nhosts = 0;
}

void
vmd_default(const struct catalog *cat, struct deployment *d,
    const char *model)
{
	(void)cat;
	wizard_default(d, model);
}

void
vmd_free(struct deployment *d)
{
	deployment_free(d);
}

int
vmd_load(const struct catalog *cat, const char *path, struct deployment *d,
    char *err, size_t errlen)
{
	if (deployment_load(cat, path, d, err, errlen) == 0)
		return 0;
	deployment_free(d);
	deployment_default(d, NULL);
	return -1;
}

int
vmd_import(const struct catalog *cat, const char *path, struct deployment *d,
    char **notes, char *err, size_t errlen)
{
	struct result	 r;
	struct buf	 b = { 0 };
	char		*text;
	size_t		 len, i;
	int		 rc;

	*notes = NULL;
	if ((text = read_file(path, 16 * 1024 * 1024, &len, err, errlen)) ==
	    NULL) {
		deployment_default(d, NULL);
		return -1;
	}
	result_init(&r);
	deployment_init(d);
	rc = deployment_import(cat, path, text, len, d, &r, err, errlen);
	free(text);
	if (rc != 0) {
		deployment_free(d);
		deployment_default(d, NULL);
		result_free(&r);
		return -1;
	}
	/*
	 * A script with only some of the roles (a prefill node's script, say)
	 * is a start: the missing roles come from the default deployment, and
	 * the note says so. One node of a multi-node instance is not: where
	 * the others run is unknown, so it is refused as pdwiz import does.
	 */
	{
		struct deployment	def;
		int			role;

		wizard_default(&def, d->model != NULL && *d->model ?
		    d->model : NULL);
		if (d->model == NULL || *d->model == '\0') {
			free(d->model);
			d->model = xstrdup(def.model);
		}
		for (role = ROLE_PREFILL; role <= ROLE_ROUTER; role++) {
			struct role_spec	tmp;

			if (d->role[role].enabled)
				continue;
			tmp = d->role[role];
			d->role[role] = def.role[role];
			def.role[role] = tmp;
			buf_printf(&b, "%sno %s command in the script: the %s "
			    "starts from pdwiz's defaults", b.len ? "\n" : "",
			    role_name((enum role)role),
			    role_name((enum role)role));
		}
		deployment_free(&def);
	}
	if (deployment_import_complete(cat, d, path, err, errlen) != 0) {
		buf_free(&b);
		deployment_free(d);
		deployment_default(d, NULL);
		result_free(&r);
		return -1;
	}
	/* One note per line: the review page lists each on its own. */
	for (i = 0; i < r.n; i++) {
		if (b.len > 0)
			buf_puts(&b, "\n");
		if (r.d[i].line > 0)
			buf_printf(&b, "%s:%d: ", path, r.d[i].line);
		buf_puts(&b, r.d[i].msg);
	}
	*notes = b.s;
	result_free(&r);
	return 0;
}

static void
apply_kv(const struct catalog *cat, struct config *c, const struct kv *l,
    size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		int		o = catalog_find(cat, l[i].name);
		struct value	v;

		if (o < 0)
			continue;
		if (l[i].value == NULL)
			v = val_bool(true);
		else if (val_parse(cat->opts[o].type, l[i].value, &v) != 0)
			continue;
		config_set(c, o, v, SRC_USER, l[i].line, l[i].col);
	}
}

/* The config of a non-PD server: defaults, model facts, options. */
static void
single_role_config(const struct catalog *cat, const struct deployment *d,
    enum role r, struct config *out)
{
	int	o;
	size_t	i;
	char	err[256];

	config_init(out, cat);
	if (r == ROLE_ROUTER)
		return;
	if (d->model != NULL) {
		if ((o = catalog_find(cat, "model_path")) >= 0)
			config_set(out, o, val_str(d->model), SRC_USER, 0, 0);
		catalog_model_facts(cat, d->model, out);
	}
	for (i = 0; i < d->nfacts; i++)
		if (d->facts[i].value != NULL)
			(void)facts_set(cat, out, d->facts[i].name,
			    d->facts[i].value, err, sizeof err);
	if ((o = catalog_find(cat, "disaggregation_mode")) >= 0 &&
	    r != ROLE_SINGLE)
		config_set(out, o, val_str(r == ROLE_PREFILL ? "prefill" :
		    "decode"), SRC_USER, 0, 0);
	apply_kv(cat, out, d->shared, d->nshared);
	apply_kv(cat, out, d->shared_env, d->nshared_env);
	apply_kv(cat, out, d->role[r].opts, d->role[r].nopts);
	apply_kv(cat, out, d->role[r].env, d->role[r].nenv);
}

void
vmd_role_config(const struct catalog *cat, const struct deployment *d,
    enum role r, struct config *out, struct result *diags)
{
	vmd_role_config_in(cat, d, NULL, r, out, diags);
}

void
vmd_role_config_in(const struct catalog *cat, const struct deployment *d,
    const struct layout *lay, enum role r, struct config *out,
    struct result *diags)
{
	/* src/deploy has no non-PD server: build that one here. */
	if (r == ROLE_SINGLE)
		single_role_config(cat, d, r, out);
	else
		(void)deployment_role_config_in(cat, d, lay, r, out, diags);
}

void
vmd_check_cross(const struct catalog *cat, const struct deployment *d,
    const struct config *eff[3], struct result *out)
{
	vmd_check_cross_in(cat, d, NULL, eff, out);
}

void
vmd_check_cross_in(const struct catalog *cat, const struct deployment *d,
    const struct layout *lay, const struct config *eff[3],
    struct result *out)
{
	deployment_check_cross_in(cat, d, lay, eff, out);
	deployment_check_shape(cat, d, out);
}

static void
preview_role(const struct catalog *cat, const struct deployment *d,
    enum role r, struct buf *b)
{
	struct config	c;
	size_t		i;

	single_role_config(cat, d, r, &c);
	buf_printf(b, "# %s\n", r == ROLE_SINGLE ? "server" : (r == ROLE_PREFILL ? "prefill" : "decode"));
	for (i = 0; i < cat->nopts; i++) {
		struct buf	s = { 0 };

		if (!config_is_set(&c, (int)i) || cat->opts[i].kind != OK_ENV)
			continue;
		describe_setting(cat, (int)i, c.s[i].v, &s);
		buf_printf(b, "%s \\\n", s.s ? s.s : "");
		buf_free(&s);
	}
	buf_puts(b, "python -m sglang.launch_server");
	for (i = 0; i < cat->nopts; i++) {
		struct buf	s = { 0 };

		if (!config_is_set(&c, (int)i) || cat->opts[i].kind != OK_FLAG)
			continue;
		describe_setting(cat, (int)i, c.s[i].v, &s);
		buf_printf(b, " \\\n    %s", s.s ? s.s : "");
		buf_free(&s);
	}
	if (d->role[r].port > 0)
		buf_printf(b, " \\\n    --port %d", d->role[r].port);
	buf_puts(b, "\n\n");
	config_free(&c);
}

/* A preview of the non-PD server command. */
static char *
single_preview(const struct catalog *cat, const struct deployment *d)
{
	struct buf	b = { 0 };

	buf_puts(&b, "#!/bin/sh\n# preview\n");
	if (d->role[ROLE_SINGLE].enabled)
		preview_role(cat, d, ROLE_SINGLE, &b);
	else {
		preview_role(cat, d, ROLE_PREFILL, &b);
		preview_role(cat, d, ROLE_DECODE, &b);
		buf_printf(&b, "# router\npython -m sglang_router.launch_router "
		    "--pd-disaggregation --port %d\n", d->role[ROLE_ROUTER].port);
	}
	return buf_steal(&b);
}

/*
 * The commands of the shell emission, without its script scaffolding:
 * the "# role instance ..." comment and the body of each run_* function.
 * Takes ownership of script.
 */
static char *
launch_lines(char *script)
{
	struct buf	 b = { 0 };
	const char	*p = script;
	bool		 in_fn = false;

	while (p != NULL && *p != '\0') {
		const char	*nl = strchr(p, '\n');
		size_t		 len = nl ? (size_t)(nl - p) : strlen(p);

		if (strncmp(p, "case ", 5) == 0)
			break;
		if (!in_fn && len > 2 && p[0] == '#' && p[1] == ' ' &&
		    strncmp(p, "# shellcheck", 12) != 0 && nl != NULL &&
		    strncmp(nl + 1, "run_", 4) == 0) {
			buf_add(&b, p, len);
			buf_putc(&b, '\n');
		} else if (strncmp(p, "run_", 4) == 0)
			in_fn = true;
		else if (in_fn && len == 1 && p[0] == '}') {
			in_fn = false;
			buf_putc(&b, '\n');
		} else if (in_fn) {
			const char	*q = p;
			size_t		 l = len;

			while (l > 0 && *q == '\t') {
				buf_puts(&b, "  ");
				q++;
				l--;
			}
			if (l > 5 && strncmp(q, "exec ", 5) == 0) {
				q += 5;
				l -= 5;
			}
			buf_add(&b, q, l);
			buf_putc(&b, '\n');
		}
		p = nl ? nl + 1 : NULL;
	}
	free(script);
	if (b.s == NULL)
		buf_puts(&b, "");
	return b.s;
}

char *
vmd_preview(const struct catalog *cat, const struct deployment *d)
{
	/* src/deploy has no non-PD server: preview that one here. */
	if (d->role[ROLE_SINGLE].enabled)
		return single_preview(cat, d);
	return launch_lines(emit_shell(cat, d, false));
}

char *
vmd_to_yaml(const struct catalog *cat, const struct deployment *d, char *msg,
    size_t msglen)
{
	char	 why[1024];
	char	*y = deployment_to_yaml_checked(cat, d, why, sizeof why);

	/* Never write a file pdwiz itself would refuse to open. */
	if (y == NULL)
		snprintf(msg, msglen, "not written: the file %s", why);
	return y;
}

int
vmd_emit(const struct catalog *cat, const struct deployment *d,
    const char *format, bool force, struct emission *out, char *msg,
    size_t msglen)
{
	enum emit_format	f;

	memset(out, 0, sizeof *out);
	if (emit_format_parse(format, &f) != 0) {
		snprintf(msg, msglen, "unknown export format '%s'", format);
		return -1;
	}
	return deployment_emit(cat, d, f, force ? EMIT_FORCE : 0, out, msg,
	    msglen);
}
