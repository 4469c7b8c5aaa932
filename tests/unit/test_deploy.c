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
#include "deploy/layout.h"
#include "emit/emit.h"

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

/* 2 prefill + 2 decode, TP 2, on one host, nothing placed by hand. */
static const char packed[] =
    "pdwiz: 1\n"
    "model:\n"
    "  path: \"meta-llama/Llama-3.1-8B-Instruct\"\n"
    "shared:\n"
    "  options:\n"
    "    disaggregation_ib_device: \"mlx5_0\"\n"
    "    tp_size: 2\n"
    "roles:\n"
    "  prefill:\n"
    "    instances: 2\n"
    "  decode:\n"
    "    instances: 2\n"
    "  router: {}\n";

/* The argv of every launch, joined: what the deployment would run. */
static char *
plan_text(const struct deployment *d)
{
	struct plan	p;
	struct buf	b = { 0 };
	size_t		i, k;

	deployment_plan(cat, d, &p, NULL);
	for (i = 0; i < p.n; i++) {
		for (k = 0; k < p.l[i].argc; k++)
			buf_printf(&b, "%s ", p.l[i].argv[k]);
		buf_puts(&b, "\n");
	}
	plan_free(&p);
	return buf_steal(&b);
}

static void
test_layout_packed(void **state)
{
	struct deployment	 d;
	struct layout		 l;
	const struct lay_server	*s;
	char			 err[4096];
	static const int	 gpu[4] = { 0, 2, 4, 6 };
	static const int	 port[4] = { 30000, 30001, 30002, 30003 };
	int			 i;

	(void)state;
	assert_int_equal(parse(packed, &d, err, sizeof err), 0);
	deployment_layout(cat, &d, &l);
	assert_int_equal(l.n, 4);
	assert_int_equal(l.gpus_per_host, 8);
	assert_int_equal(l.gpus_src, LAY_DERIVED);
	for (i = 0; i < 4; i++) {
		s = layout_server(&l, i < 2 ? ROLE_PREFILL : ROLE_DECODE, i % 2,
		    0);
		assert_non_null(s);
		assert_string_equal(s->host, "127.0.0.1");
		assert_int_equal(s->ngpus, 2);
		assert_int_equal(s->base_gpu, gpu[i]);
		assert_int_equal(s->port, port[i]);
		assert_int_equal(s->gpu_src, LAY_DERIVED);
		assert_int_equal(s->port_src, LAY_DERIVED);
		assert_int_equal(s->bootstrap_port, i < 2 ? 8998 + i : -1);
		assert_null(s->dist_host);
	}
	assert_int_equal(l.nprefill, 2);
	assert_int_equal(l.ndecode, 2);
	assert_string_equal(l.prefill[1].url, "http://127.0.0.1:30001");
	assert_int_equal(l.prefill[1].bootstrap_port, 8999);
	assert_string_equal(l.decode[1].url, "http://127.0.0.1:30003");
	assert_string_equal(l.router_host, "127.0.0.1");
	assert_int_equal(l.router_port, 8000);
	assert_int_equal(l.urls_src, LAY_DERIVED);
	layout_free(&l);
	deployment_free(&d);
}

/* A user-set value is kept; the derived ones go around it. */
static void
test_layout_user_first(void **state)
{
	struct deployment	 d;
	struct layout		 l;
	char			 err[4096];

	(void)state;
	assert_int_equal(parse(packed, &d, err, sizeof err), 0);
	d.role[ROLE_DECODE].base_gpu_id = 0;
	d.role[ROLE_DECODE].gpu_step = 2;
	d.role[ROLE_DECODE].port = 30000;
	d.role[ROLE_DECODE].port_step = 1;
	deployment_layout(cat, &d, &l);
	assert_int_equal(layout_server(&l, ROLE_DECODE, 1, 0)->base_gpu, 2);
	assert_int_equal(layout_server(&l, ROLE_DECODE, 1, 0)->gpu_src,
	    LAY_USER);
	assert_int_equal(layout_server(&l, ROLE_PREFILL, 0, 0)->base_gpu, 4);
	assert_int_equal(layout_server(&l, ROLE_PREFILL, 1, 0)->base_gpu, 6);
	assert_int_equal(layout_server(&l, ROLE_PREFILL, 0, 0)->port, 30002);
	assert_int_equal(layout_server(&l, ROLE_DECODE, 1, 0)->port, 30001);
	layout_free(&l);
	/* the layout fields through the editing API: NULL derives again */
	assert_int_equal(deployment_set(cat, &d, ROLE_DECODE, "base_gpu_id",
	    NULL, err, sizeof err), 0);
	assert_int_equal(d.role[ROLE_DECODE].base_gpu_id, -1);
	assert_int_equal(deployment_set(cat, &d, ROLE_PREFILL,
	    "--disaggregation-bootstrap-port", "9000", err, sizeof err), 0);
	assert_int_equal(d.role[ROLE_PREFILL].bootstrap_port, 9000);
	assert_int_equal(deployment_set(cat, &d, ROLE_DECODE, "port", "x", err,
	    sizeof err), -1);
	assert_null(deployment_get(cat, &d, ROLE_DECODE, "port"));
	deployment_free(&d);
}

/* pin: every derived value written out; the plan does not change and the
 * file reads back with everything stated. */
static void
test_pin(void **state)
{
	struct deployment	 d, c, back;
	char			 err[4096], *before, *after, *y, *again;

	(void)state;
	assert_int_equal(parse(packed, &d, err, sizeof err), 0);
	before = plan_text(&d);
	deployment_copy(&c, &d);
	deployment_pin(cat, &c);
	after = plan_text(&c);
	assert_string_equal(before, after);
	assert_int_equal(c.gpus_per_host, 8);
	assert_int_equal(c.role[ROLE_DECODE].base_gpu_id, 4);
	assert_int_equal(c.role[ROLE_DECODE].gpu_step, 2);
	assert_int_equal(c.role[ROLE_DECODE].port, 30002);
	assert_int_equal(c.role[ROLE_DECODE].port_step, 1);
	assert_int_equal(c.role[ROLE_PREFILL].bootstrap_port, 8998);
	assert_int_equal(c.role[ROLE_PREFILL].gpus_per_node, 2);
	assert_int_equal(c.role[ROLE_ROUTER].port, 8000);
	assert_int_equal(c.role[ROLE_ROUTER].nprefill_urls, 2);
	/* the original is untouched */
	assert_int_equal(d.role[ROLE_DECODE].base_gpu_id, -1);
	assert_int_equal(d.role[ROLE_ROUTER].nprefill_urls, 0);
	y = deployment_to_yaml(cat, &c);
	assert_non_null(y);
	assert_non_null(strstr(y, "gpus_per_host: 8"));
	assert_non_null(strstr(y, "base_gpu_id: 4"));
	assert_non_null(strstr(y, "bootstrap_port: 8999"));
	assert_int_equal(parse(y, &back, err, sizeof err), 0);
	again = plan_text(&back);
	assert_string_equal(before, again);
	free(before);
	free(after);
	free(again);
	free(y);
	deployment_free(&back);
	deployment_free(&c);
	deployment_free(&d);
}

/* 2-node instances without a rendezvous port: one derived per instance. */
static void
test_layout_rendezvous(void **state)
{
	static const char	 text[] =
	    "pdwiz: 1\n"
	    "model:\n"
	    "  path: \"deepseek-ai/DeepSeek-V3\"\n"
	    "shared:\n"
	    "  options:\n"
	    "    disaggregation_ib_device: \"mlx5_0\"\n"
	    "    tp_size: 16\n"
	    "    trust_remote_code: true\n"
	    "roles:\n"
	    "  prefill:\n"
	    "    instances: 2\n"
	    "    nodes_per_instance: 2\n"
	    "    hosts: [\"10.0.0.1\", \"10.0.0.2\", \"10.0.0.1\", \"10.0.0.2\"]\n"
	    "  decode:\n"
	    "    instances: 1\n"
	    "    nodes_per_instance: 2\n"
	    "    hosts: [\"10.0.0.3\", \"10.0.0.4\"]\n"
	    "  router: {}\n";
	struct deployment	 d;
	struct layout		 l;
	struct result		 r;
	const struct lay_server	*a, *b;
	char			 err[4096];

	(void)state;
	assert_int_equal(parse(text, &d, err, sizeof err), 0);
	deployment_layout(cat, &d, &l);
	a = layout_server(&l, ROLE_PREFILL, 0, 1);
	b = layout_server(&l, ROLE_PREFILL, 1, 0);
	assert_string_equal(a->dist_host, "10.0.0.1");
	assert_int_equal(a->dist_port, 5000);
	assert_int_equal(a->dist_src, LAY_DERIVED);
	/* the second instance shares the hosts: its own rendezvous block, its
	 * own ports, and GPUs past the first's (which run out: 16 > 8) */
	assert_string_equal(b->dist_host, "10.0.0.1");
	assert_true(b->dist_port >= 5000 + LAY_DIST_SPAN);
	assert_true(b->port != a->port);
	assert_int_equal(b->base_gpu, 8);
	assert_int_equal(layout_server(&l, ROLE_DECODE, 0, 1)->dist_port, 5000);
	layout_free(&l);
	result_init(&r);
	deployment_check(cat, &d, &r);
	assert_true(has_rule(&r, "xs-gpu-overflow"));
	assert_false(has_rule(&r, "xs-port-collision"));
	assert_false(has_rule(&r, "xs-dist-init-addr"));
	result_free(&r);
	/* a rendezvous port the user set and SGLang cannot use */
	d.role[ROLE_DECODE].dist_init_port = 0;
	result_init(&r);
	deployment_check(cat, &d, &r);
	assert_true(has_rule(&r, "xs-dist-init-addr"));
	result_free(&r);
	deployment_free(&d);
}

/* A model the file reader would refuse (3 hosts for 1 node) is an error:
 * "0 errors" means the deployment saves. */
static void
test_check_unsavable(void **state)
{
	struct deployment	d;
	struct result		r;
	struct role_spec	*p;
	char			*y, why[1024];

	(void)state;
	deployment_default(&d, NULL);
	p = &d.role[ROLE_PREFILL];
	p->hosts = xreallocarray(p->hosts, 3, sizeof *p->hosts);
	p->hosts[1] = xstrdup("10.0.0.2");
	p->hosts[2] = xstrdup("10.0.0.3");
	p->nhosts = 3;
	result_init(&r);
	deployment_check(cat, &d, &r);
	assert_true(has_rule(&r, "deploy-file"));
	assert_true(r.nerrors > 0);
	result_free(&r);
	assert_null(deployment_to_yaml_checked(cat, &d, why, sizeof why));
	p->instances = 3;
	result_init(&r);
	deployment_check(cat, &d, &r);
	assert_false(has_rule(&r, "deploy-file"));
	result_free(&r);
	y = deployment_to_yaml_checked(cat, &d, why, sizeof why);
	assert_non_null(y);
	free(y);
	deployment_free(&d);
}

/* Two 2-node instances given one rendezvous address (a collision the
 * checks report) import as two instances, not one of four nodes. */
static void
test_import_shared_rendezvous(void **state)
{
	static const char	 sh[] =
	    "S='python3 -m sglang.launch_server --model-path m --tp-size 16'\n"
	    "$S --disaggregation-mode decode --host 10.0.0.1 --port 30000 "
	    "--dist-init-addr 10.0.0.1:5000 --nnodes 2 --node-rank 0\n"
	    "$S --disaggregation-mode decode --host 10.0.0.2 --port 30000 "
	    "--dist-init-addr 10.0.0.1:5000 --nnodes 2 --node-rank 1\n"
	    "$S --disaggregation-mode decode --host 10.0.0.1 --port 30000 "
	    "--base-gpu-id 8 --dist-init-addr 10.0.0.1:5000 --nnodes 2 "
	    "--node-rank 0\n"
	    "$S --disaggregation-mode decode --host 10.0.0.3 --port 30000 "
	    "--base-gpu-id 8 --dist-init-addr 10.0.0.1:5000 --nnodes 2 "
	    "--node-rank 1\n";
	struct deployment	 d;
	char			 err[1024];

	(void)state;
	assert_int_equal(deployment_import(cat, "t.sh", sh, strlen(sh), &d,
	    NULL, err, sizeof err), 0);
	assert_int_equal(d.role[ROLE_DECODE].instances, 2);
	assert_int_equal(d.role[ROLE_DECODE].nodes_per_instance, 2);
	assert_int_equal(d.role[ROLE_DECODE].nhosts, 4);
	assert_string_equal(d.role[ROLE_DECODE].hosts[3], "10.0.0.3");
	assert_int_equal(d.role[ROLE_DECODE].gpu_step, 8);
	deployment_free(&d);
}

/* Servers and a router bound to 0.0.0.0 on other machines: the emitted
 * script states each node's address, and imports with the same hosts. */
static void
test_wildcard_bind_hosts(void **state)
{
	struct deployment	 d, im;
	struct role_spec	*p;
	char			 err[1024], *sh;
	int			 r;

	(void)state;
	deployment_default(&d, NULL);
	for (r = ROLE_PREFILL; r <= ROLE_ROUTER; r++) {
		free(d.role[r].hosts[0]);
		d.role[r].hosts[0] = xstrdup(r == ROLE_DECODE ? "10.0.0.2" :
		    "10.0.0.1");
		d.role[r].bind_host = xstrdup(r == ROLE_DECODE ? "::" :
		    "0.0.0.0");
	}
	p = &d.role[ROLE_PREFILL];
	p->instances = 2;
	p->nodes_per_instance = 2;
	p->hosts = xreallocarray(p->hosts, 4, sizeof *p->hosts);
	p->hosts[1] = xstrdup("10.0.0.3");
	p->hosts[2] = xstrdup("10.0.0.4");
	p->hosts[3] = xstrdup("10.0.0.5");
	p->nhosts = 4;
	sh = emit_shell(cat, &d, false);
	assert_non_null(strstr(sh, "PDWIZ_NODE_HOST=10.0.0.5\n"));
	assert_int_equal(deployment_import(cat, "t.sh", sh, strlen(sh), &im,
	    NULL, err, sizeof err), 0);
	assert_int_equal(im.role[ROLE_PREFILL].nhosts, 4);
	assert_string_equal(im.role[ROLE_PREFILL].hosts[1], "10.0.0.3");
	assert_string_equal(im.role[ROLE_PREFILL].hosts[3], "10.0.0.5");
	assert_string_equal(im.role[ROLE_PREFILL].bind_host, "0.0.0.0");
	assert_string_equal(im.role[ROLE_DECODE].hosts[0], "10.0.0.2");
	assert_string_equal(im.role[ROLE_DECODE].bind_host, "::");
	assert_string_equal(im.role[ROLE_ROUTER].hosts[0], "10.0.0.1");
	assert_string_equal(im.role[ROLE_ROUTER].bind_host, "0.0.0.0");
	deployment_free(&im);
	free(sh);
	deployment_free(&d);
}

/* The GPUs of each machine travel with the launch script: its check sees a
 * GPU range past the machine's last GPU as the file's check does. */
static void
test_script_gpus_per_host(void **state)
{
	struct deployment	 d, im;
	struct result		 r;
	char			 err[1024], *sh;
	int			 want;

	(void)state;
	for (want = 4; want <= 8; want += 4) {
		deployment_default(&d, NULL);
		d.gpus_per_host = want;
		assert_int_equal(deployment_set(cat, &d, ROLE_PREFILL,
		    "tp_size", want == 4 ? "4" : "8", err, sizeof err), 0);
		result_init(&r);
		deployment_check(cat, &d, &r);
		assert_true(has_rule(&r, "xs-gpu-overflow"));
		result_free(&r);
		deployment_pin(cat, &d);
		sh = emit_shell(cat, &d, true);
		assert_int_equal(deployment_import(cat, "t.sh", sh, strlen(sh),
		    &im, NULL, err, sizeof err), 0);
		/* 8, the default, stays unstated as in a deployment file */
		assert_int_equal(im.gpus_per_host, want == 8 ? 0 : want);
		result_init(&r);
		deployment_check(cat, &im, &r);
		assert_true(has_rule(&r, "xs-gpu-overflow"));
		result_free(&r);
		deployment_free(&im);
		free(sh);
		deployment_free(&d);
	}
}

/* Ports counted past 65535 from a base near the top are an error, in the
 * file and in its script alike (the router's bootstrap port included). */
static void
test_port_range(void **state)
{
	struct deployment	 d, im;
	struct result		 r;
	struct layout		 lay;
	char			 err[1024], *sh;

	(void)state;
	deployment_default(&d, NULL);
	d.role[ROLE_PREFILL].instances = 2;
	assert_int_equal(deployment_set(cat, &d, ROLE_PREFILL,
	    "disaggregation_bootstrap_port", "65535", err, sizeof err), 0);
	result_init(&r);
	deployment_check(cat, &d, &r);
	assert_true(has_rule(&r, "xs-port-range"));
	result_free(&r);
	deployment_pin(cat, &d);
	sh = emit_shell(cat, &d, true);
	assert_int_equal(deployment_import(cat, "t.sh", sh, strlen(sh), &im,
	    NULL, err, sizeof err), 0);
	deployment_layout(cat, &im, &lay);
	assert_int_equal(lay.nprefill, 2);
	assert_int_equal(lay.prefill[1].bootstrap_port, 65536);
	layout_free(&lay);
	result_init(&r);
	deployment_check(cat, &im, &r);
	assert_true(has_rule(&r, "xs-port-range"));
	assert_false(has_rule(&r, "xs-router-bootstrap-port"));
	result_free(&r);
	deployment_free(&im);
	free(sh);
	deployment_free(&d);
	/* 1 P 1 D at the usual ports: none of it */
	deployment_default(&d, NULL);
	result_init(&r);
	deployment_check(cat, &d, &r);
	assert_false(has_rule(&r, "xs-port-range"));
	result_free(&r);
	deployment_free(&d);
}

/* The output formats' table is the one list: every row parses back to
 * itself, the --format words of pdwiz emit are the table's, and the wizard
 * exports and previews the rows marked for it, with a default path each. */
static void
test_format_table(void **state)
{
	enum emit_format	e;
	size_t			i, nw = 0;

	(void)state;
	assert_string_equal(emit_format_names(), EMIT_FORMAT_WORDS);
	for (i = 0; i < EMIT_NFORMATS; i++) {
		assert_int_equal(emit_format_parse(emit_formats[i].name, &e), 0);
		assert_int_equal((size_t)e, i);
		assert_non_null(emit_formats[i].key);
		assert_non_null(emit_formats[i].what);
		assert_non_null(emit_formats[i].tab);
		assert_non_null(emit_formats[i].path);
		nw += emit_formats[i].wizard;
	}
	assert_int_equal(nw, 4);
	assert_int_equal(emit_format_parse("nope", &e), -1);
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
		cmocka_unit_test(test_layout_packed),
		cmocka_unit_test(test_layout_user_first),
		cmocka_unit_test(test_pin),
		cmocka_unit_test(test_layout_rendezvous),
		cmocka_unit_test(test_check_unsavable),
		cmocka_unit_test(test_import_shared_rendezvous),
		cmocka_unit_test(test_wildcard_bind_hosts),
		cmocka_unit_test(test_script_gpus_per_host),
		cmocka_unit_test(test_port_range),
		cmocka_unit_test(test_format_table),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
