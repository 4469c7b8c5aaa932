/* test_deploy.c - the deployment model: file errors, editing, plan, checks. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "testutil.h"
#include "deploy/deploy.h"

static struct catalog	*cat;

static const char base[] =
    "pdwiz: 1\n"
    "name: \"t\"\n"
    "model:\n"
    "  path: \"meta-llama/Llama-3.1-8B-Instruct\"\n"
    "shared:\n"
    "  options:\n"
    "    disaggregation_ib_device: \"mlx5_0\"\n"
    "roles:\n"
    "  prefill:\n"
    "    instances: 1\n"
    "    gpus_per_node: 1\n"
    "    hosts: [\"127.0.0.1\"]\n"
    "    port: 30000\n"
    "    base_gpu_id: 0\n"
    "  decode:\n"
    "    instances: 1\n"
    "    gpus_per_node: 1\n"
    "    hosts: [\"127.0.0.1\"]\n"
    "    port: 30001\n"
    "    base_gpu_id: 1\n"
    "  router:\n"
    "    hosts: [\"127.0.0.1\"]\n"
    "    port: 8000\n";

static int
setup(void **state)
{
	(void)state;
	cat = test_catalog();
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	catalog_free(cat);
	return 0;
}

static int
parse(const char *text, struct deployment *d, char *err, size_t errlen)
{
	return deployment_parse(cat, "t.yaml", text, strlen(text), d, err,
	    errlen);
}

static bool
has_rule(const struct result *r, const char *id)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->d[i].id, id) == 0)
			return true;
	return false;
}

static void
test_parse_clean(void **state)
{
	struct deployment	d;
	struct result		r;
	char			err[4096];

	(void)state;
	assert_int_equal(parse(base, &d, err, sizeof err), 0);
	assert_string_equal(d.model, "meta-llama/Llama-3.1-8B-Instruct");
	assert_int_equal(d.role[ROLE_DECODE].base_gpu_id, 1);
	result_init(&r);
	deployment_check(cat, &d, &r);
	assert_int_equal(r.nerrors, 0);
	result_free(&r);
	deployment_free(&d);
}

static void
test_parse_errors(void **state)
{
	struct deployment	 d;
	char			 err[4096], *t;
	const char		*p;

	(void)state;
	/* unknown key with a suggestion, wrong type: all reported with positions */
	t = xstrdup(base);
	p = strstr(t, "    port: 30001");
	memcpy((char *)p, "    pert: 30001", 15);
	assert_int_equal(parse(t, &d, err, sizeof err), -1);
	assert_non_null(strstr(err, "t.yaml:19:5: unknown key 'pert' in "
	    "roles.decode (did you mean 'port'?)"));
	free(t);
	/* a required key (ports are derived when left out; instances are not) */
	t = xstrdup(base);
	p = strstr(t, "    instances: 1\n    gpus_per_node: 1\n    hosts: [\"127.0.0.1\"]\n    port: 30001");
	memcpy((char *)p, "    instancez: 1", 16);
	assert_int_equal(parse(t, &d, err, sizeof err), -1);
	assert_non_null(strstr(err, "t.yaml:16:5: unknown key 'instancez' in "
	    "roles.decode (did you mean 'instances'?)"));
	assert_non_null(strstr(err, "missing required key 'instances'"));
	free(t);
	t = xasprintf("%s", base);
	p = strstr(t, "instances: 1");
	memcpy((char *)p, "instances: x", 12);
	assert_int_equal(parse(t, &d, err, sizeof err), -1);
	assert_non_null(strstr(err, "t.yaml:10:16: instances must be an integer"));
	free(t);
	/* duplicate key comes from the YAML reader */
	t = xasprintf("%sname: \"again\"\n", base);
	assert_int_equal(parse(t, &d, err, sizeof err), -1);
	assert_non_null(strstr(err, "t.yaml:24:"));
	free(t);
}

static void
test_set_get_roundtrip(void **state)
{
	struct deployment	 d, d2;
	char			 err[4096], *y, *y2;

	(void)state;
	assert_int_equal(parse(base, &d, err, sizeof err), 0);
	assert_int_equal(deployment_set(cat, &d, ROLE_PREFILL, "--page-size",
	    "64", err, sizeof err), 0);
	assert_string_equal(deployment_get(cat, &d, ROLE_PREFILL, "page_size"),
	    "64");
	assert_int_equal(deployment_set(cat, &d, ROLE_DECODE,
	    "SGLANG_DISAGGREGATION_WAITING_TIMEOUT", "600", err, sizeof err), 0);
	assert_int_equal(deployment_set(cat, &d, ROLE_DECODE, "tp_size", "x",
	    err, sizeof err), -1);
	assert_int_equal(deployment_set(cat, &d, ROLE_DECODE, "no_such_flag",
	    "1", err, sizeof err), -1);
	y = deployment_to_yaml(cat, &d);
	assert_non_null(y);
	assert_int_equal(parse(y, &d2, err, sizeof err), 0);
	y2 = deployment_to_yaml(cat, &d2);
	assert_string_equal(y, y2);
	assert_non_null(strstr(y, "page_size: 64"));
	free(y);
	free(y2);
	deployment_free(&d2);
	/* remove again */
	assert_int_equal(deployment_set(cat, &d, ROLE_PREFILL, "page_size", NULL,
	    err, sizeof err), 0);
	assert_null(deployment_get(cat, &d, ROLE_PREFILL, "page_size"));
	deployment_free(&d);
}

/* Router options come from the catalog: set, read back through the file,
 * and written on the router's command line by type. */
static void
test_router_options(void **state)
{
	struct deployment	 d, d2;
	struct plan		 p;
	char			 err[4096], *y;
	size_t			 i, k;
	bool			 timeout = false, retries = false;

	(void)state;
	assert_int_equal(parse(base, &d, err, sizeof err), 0);
	assert_int_equal(deployment_set(cat, &d, ROLE_ROUTER,
	    "request_timeout_secs", "5", err, sizeof err), 0);
	assert_int_equal(deployment_set(cat, &d, ROLE_ROUTER, "disable_retries",
	    "true", err, sizeof err), 0);
	assert_int_equal(deployment_set(cat, &d, ROLE_ROUTER, "policy",
	    "random", err, sizeof err), 0);
	assert_int_equal(deployment_set(cat, &d, ROLE_ROUTER, "tp_size", "2",
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "unknown router option"));
	assert_true(router_opt_is_flag(cat, "disable_retries"));
	assert_false(router_opt_is_flag(cat, "request_timeout_secs"));
	assert_false(router_opt_is_flag(cat, "no_such_option"));
	y = deployment_to_yaml(cat, &d);
	assert_non_null(y);
	assert_int_equal(parse(y, &d2, err, sizeof err), 0);
	assert_string_equal(deployment_get(cat, &d2, ROLE_ROUTER,
	    "request_timeout_secs"), "5");
	assert_string_equal(deployment_get(cat, &d2, ROLE_ROUTER, "policy"),
	    "random");
	free(y);
	deployment_plan(cat, &d2, &p, NULL);
	for (i = 0; i < p.n; i++) {
		if (p.l[i].role != ROLE_ROUTER)
			continue;
		for (k = 0; k < p.l[i].argc; k++) {
			const char	*a = p.l[i].argv[k];

			if (strcmp(a, "--request-timeout-secs") == 0)
				timeout = k + 1 < p.l[i].argc &&
				    strcmp(p.l[i].argv[k + 1], "5") == 0;
			if (strcmp(a, "--disable-retries") == 0)
				retries = k + 1 == p.l[i].argc ||
				    strncmp(p.l[i].argv[k + 1], "--", 2) == 0;
		}
	}
	assert_true(timeout);
	assert_true(retries);
	plan_free(&p);
	deployment_free(&d2);
	deployment_free(&d);
}

/* Slots: role x option and back (core/role.h). */
static void
test_slots(void **state)
{
	size_t	n = cat->nopts;
	int	o = catalog_find(cat, "tp_size"), r, slot;

	(void)state;
	assert_true(o >= 0);
	assert_true(slot_is_self(n, slot_of(n, SCOPE_SELF, o)));
	assert_int_equal(slot_role(n, slot_of(n, SCOPE_SELF, o)), -1);
	for (r = 0; r < NPD_ROLE; r++) {
		slot = slot_of(n, role_scope((enum role)r), o);
		assert_false(slot_is_self(n, slot));
		assert_int_equal(slot_role(n, slot), r);
		assert_int_equal(slot_opt(n, slot), o);
		assert_int_equal(slot_scope(n, slot), r + 1);
	}
	assert_true(role_scope(ROLE_ROUTER) < NSLOT_SCOPE);
}

static void
test_cross_rules(void **state)
{
	struct deployment	d;
	struct result		r;
	char			err[4096];

	(void)state;
	assert_int_equal(parse(base, &d, err, sizeof err), 0);
	deployment_set(cat, &d, ROLE_PREFILL, "page_size", "64", err,
	    sizeof err);
	result_init(&r);
	deployment_check(cat, &d, &r);
	assert_true(has_rule(&r, "xs-page-size"));
	result_free(&r);
	/* same port and GPUs on one host */
	d.role[ROLE_DECODE].port = 30000;
	d.role[ROLE_DECODE].base_gpu_id = 0;
	deployment_set(cat, &d, ROLE_PREFILL, "page_size", NULL, err, sizeof err);
	result_init(&r);
	deployment_check(cat, &d, &r);
	assert_false(has_rule(&r, "xs-page-size"));
	assert_true(has_rule(&r, "xs-port-collision"));
	assert_true(has_rule(&r, "xs-gpu-collision"));
	result_free(&r);
	deployment_free(&d);
}

static void
test_plan_multinode(void **state)
{
	struct deployment	 d;
	struct plan		 p;
	struct config		 c;
	char			 err[4096], *t;
	size_t			 i, n = 0;

	(void)state;
	t = xstrdup(base);
	assert_int_equal(parse(t, &d, err, sizeof err), 0);
	free(t);
	d.role[ROLE_PREFILL].nodes_per_instance = 2;
	d.role[ROLE_PREFILL].dist_init_port = 5000;
	d.role[ROLE_PREFILL].hosts = realloc(d.role[ROLE_PREFILL].hosts,
	    2 * sizeof(char *));
	d.role[ROLE_PREFILL].hosts[0][0] = '\0';
	free(d.role[ROLE_PREFILL].hosts[0]);
	d.role[ROLE_PREFILL].hosts[0] = xstrdup("10.0.0.1");
	d.role[ROLE_PREFILL].hosts[1] = xstrdup("10.0.0.2");
	d.role[ROLE_PREFILL].nhosts = 2;
	deployment_plan(cat, &d, &p, NULL);
	for (i = 0; i < p.n; i++) {
		const struct launch	*l = &p.l[i];
		size_t			 k;

		if (l->role != ROLE_PREFILL)
			continue;
		n++;
		for (k = 0; k + 1 < l->argc; k++)
			if (strcmp(l->argv[k], "--dist-init-addr") == 0)
				assert_string_equal(l->argv[k + 1],
				    "10.0.0.1:5000");
	}
	assert_int_equal(n, 2);
	plan_free(&p);
	assert_int_equal(deployment_role_config(cat, &d, ROLE_PREFILL, &c, NULL),
	    0);
	assert_int_equal(c.s[catalog_find(cat, "nnodes")].v.u.i, 2);
	config_free(&c);
	deployment_free(&d);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_parse_clean),
		cmocka_unit_test(test_parse_errors),
		cmocka_unit_test(test_set_get_roundtrip),
		cmocka_unit_test(test_router_options),
		cmocka_unit_test(test_slots),
		cmocka_unit_test(test_cross_rules),
		cmocka_unit_test(test_plan_multinode),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
