/*
 * test_deploy_prop.c - property: pdwiz's verdict on a deployment is the one
 * its artifacts get. Random deployments are built through the public model
 * API (deployment_default, deployment_set, deployment_set_shared,
 * deployment_set_fact and the role_spec fields) and checked with
 * deployment_check.
 *
 * A deployment with 0 errors must
 *   (a) write as YAML that reads back (deployment_parse) into a deployment
 *       whose YAML is byte-equal, and which checks with the same rule ids;
 *   (b) go through every emitter (shell, runbook, config, k8s, yaml);
 *   (c) give a launch script that checks, as `pdwiz check` checks a script
 *       (every server command through the reader and the per-server rules,
 *       then deployment_check_script), with 0 errors and the file's
 *       warning ids;
 *   (d) give a launch script that imports (deployment_import) into an
 *       equivalent deployment: see equivalent() for what is compared.
 * A deployment with errors must give, exported with EMIT_FORCE, a script
 * whose check reports the same set of error rule ids and the same set of
 * warning rule ids (see file_only_ids for the ids that legitimately differ).
 *
 * Seed: $PDWIZ_PROP_SEED (decimal or 0x hex; "random": from the clock),
 * else PROP_SEED, so `make test` is deterministic; count:
 * $PDWIZ_PROP_COUNT (default PROP_COUNT; under valgrind, where a deployment
 * costs ~50 times more, VG_COUNT, and in the ASan build, ~4 times slower,
 * ASAN_COUNT, unless the variable is set). Deployment i
 * is generated from (seed, i) alone, so PDWIZ_PROP_SEED=S PDWIZ_PROP_FROM=i
 * PDWIZ_PROP_COUNT=1 replays it. Every failure prints the seed, the index
 * and the deployment's YAML.
 */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/engine.h"
#include "deploy/deploy.h"
#include "deploy/layout.h"
#include "emit/emit.h"
#include "io/server.h"
#include "io/shell.h"

#define PROP_SEED	0x5eedULL
#define PROP_COUNT	10000
#define VG_COUNT	150
#define ASAN_COUNT	3000

/* Built with AddressSanitizer (gcc defines the macro, clang the feature). */
#if defined(__SANITIZE_ADDRESS__)
#define PROP_ASAN	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PROP_ASAN	1
#endif
#endif
#ifndef PROP_ASAN
#define PROP_ASAN	0
#endif

static struct catalog	*cat;
static uint64_t		 rng;

/* splitmix64: deployment i's stream depends on (seed, i) only. */
static uint64_t
next64(void)
{
	uint64_t	z = (rng += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

static unsigned
rnd(unsigned n)
{
	return (unsigned)(next64() % n);
}

static bool
chance(unsigned pct)
{
	return rnd(100) < pct;
}

#define PICK(a)	((a)[rnd(sizeof (a) / sizeof (a)[0])])

/* ---- the generator ---- */

static const char *const models[] = {
	"meta-llama/Llama-3.1-8B-Instruct", "deepseek-ai/DeepSeek-V3",
	"Qwen/Qwen2.5-7B-Instruct", "org/custom-model",
};
static const char *const hostpool[] = {
	"10.0.0.1", "10.0.0.2", "10.0.0.3", "10.0.0.4", "node-a", "fd00::5",
	"127.0.0.1",
};
static const char *const names[] = { "pd", "my deploy", "Prod_PD.v2",
	"x'y \"z\"", "llama-70b" };
static const char *const backends[] = { "mooncake", "nixl", "mooncake",
	"mooncake_tcp", "nixl", "fake" };
static const char *const pages[] = { "1", "16", "32", "64" };
static const char *const dtypes[] = { "auto", "fp8_e4m3", "bf16" };
static const char *const policies[] = { "random", "round_robin",
	"cache_aware", "power_of_two" };

static void
set_ok(struct deployment *d, int r, const char *name, const char *value)
{
	char	err[512];
	int	rc = r < 0 ? deployment_set_shared(cat, d, name, value, err,
	    sizeof err) : deployment_set(cat, d, (enum role)r, name, value,
	    err, sizeof err);

	if (rc != 0)
		fail_msg("deployment_set%s(%s, %s): %s", r < 0 ? "_shared" : "",
		    name, value ? value : "NULL", err);
}

static void
set_hosts(struct role_spec *rs, size_t n, const char *const *pool,
    size_t npool, bool distinct)
{
	size_t	i;

	for (i = 0; i < rs->nhosts; i++)
		free(rs->hosts[i]);
	free(rs->hosts);
	rs->hosts = n ? xcalloc(n, sizeof *rs->hosts) : NULL;
	rs->nhosts = n;
	for (i = 0; i < n; i++)
		rs->hosts[i] = distinct ? xasprintf("10.1.%u.%zu", rnd(3), i) :
		    xstrdup(pool[rnd((unsigned)npool)]);
}

/* Parallelism, placement and ports of prefill or decode. */
static void
gen_server_role(struct deployment *d, enum role r, bool local)
{
	static const char *const tps[] = { "1", "2", "4", "8" };
	struct role_spec	*rs = &d->role[r];
	int			 ngpus, span;
	unsigned		 h;

	rs->instances = chance(65) ? 1 : 2 + (int)rnd(2);
	rs->nodes_per_instance = chance(80) ? 1 : chance(85) ? 2 : 4;
	if (chance(75))
		set_ok(d, r, chance(80) ? "tp_size" : "--tp-size",
		    rs->nodes_per_instance > 1 && chance(85) ? "16" : PICK(tps));
	if (chance(15)) {
		set_ok(d, r, "dp_size", chance(50) ? "2" : "4");
		if (chance(60))
			set_ok(d, r, "enable_dp_attention", "true");
	}
	if (chance(8))
		set_ok(d, r, "pp_size", "2");
	layout_role_gpus(cat, d, r, &ngpus, &span);
	rs->gpus_per_node = chance(85) ? ngpus : chance(50) ? 0 :
	    1 + (int)rnd(8);
	/* Hosts: one for all, one per node, none, or a wrong count. */
	h = local && chance(90) ? 0 : 20 + rnd(80);
	/* A multi-node instance needs a host per node: mostly given. */
	if (rs->nodes_per_instance > 1 && (h < 50 || (h >= 90 && h < 95)) &&
	    chance(85))
		h = 50 + rnd(40);
	if (h < 20)
		;			/* deployment_default's 127.0.0.1 */
	else if (h < 50)
		set_hosts(rs, 1, hostpool, 6, false);
	else if (h < 75)
		set_hosts(rs, (size_t)(rs->instances * rs->nodes_per_instance),
		    hostpool, sizeof hostpool / sizeof hostpool[0], false);
	else if (h < 90)
		set_hosts(rs, (size_t)(rs->instances * rs->nodes_per_instance),
		    NULL, 0, true);
	else if (h < 95)
		set_hosts(rs, 0, NULL, 0, false);
	else
		set_hosts(rs, 1 + rnd(4), hostpool, 4, false);
	if (chance(10))
		set_ok(d, r, chance(50) ? "port" : "--port",
		    chance(80) ? (r == ROLE_PREFILL ? "30000" : "30010") :
		    (chance(50) ? "31000" : "8000"));
	if (chance(rs->port >= 0 ? 60 : 5))
		rs->port_step = chance(80) ? (int)(1 + rnd(20)) : 0;
	if (r == ROLE_PREFILL && chance(15))
		set_ok(d, r, chance(50) ? "disaggregation_bootstrap_port" :
		    "--disaggregation-bootstrap-port", chance(70) ? "8998" :
		    "9100");
	if (chance(10)) {
		char	v[16];

		snprintf(v, sizeof v, "%u", rnd(9));
		set_ok(d, r, chance(50) ? "base_gpu_id" : "--base-gpu-id", v);
	}
	if (chance(rs->base_gpu_id >= 0 ? 60 : 5))
		rs->gpu_step = chance(70) ? span : (int)rnd(9);
	if (chance(rs->nodes_per_instance > 1 ? 20 : 3))
		rs->dist_init_port = chance(90) ? 5000 + (int)rnd(3) * 50 :
		    (int)rnd(2);
	if (chance(5))
		rs->bind_host = xstrdup(chance(70) ? "0.0.0.0" : "::");
	if (chance(8))
		set_ok(d, r, "disaggregation_transfer_backend", PICK(backends));
	if (chance(6))
		set_ok(d, r, "page_size", PICK(pages));
	if (chance(5))
		set_ok(d, r, "kv_cache_dtype", PICK(dtypes));
	if (chance(8))
		set_ok(d, r, "mem_fraction_static", chance(70) ? "0.8" : "0.95");
	if (chance(6))
		set_ok(d, r, "chunked_prefill_size", chance(70) ? "4096" :
		    "8191");
	if (chance(5))
		set_ok(d, r, "SGLANG_DISAGGREGATION_THREAD_POOL_SIZE",
		    chance(70) ? "8" : "2");
	if (chance(4))
		set_ok(d, r, "served_model_name", chance(50) ? "my model" :
		    "it's \"$HOME\"");
	if (chance(3))
		set_ok(d, r, "cuda_graph_bs_decode", chance(50) ? "1\x1f" "2\x1f" "4" :
		    "8");
	/* Values at the edge of the port and GPU ranges. */
	if (chance(2))
		set_ok(d, r, "port", chance(50) ? "65530" : "1");
	if (chance(2))
		rs->dist_init_port = 65530;
	if (chance(2))
		set_ok(d, r, "base_gpu_id", chance(50) ? "1023" : "7");
	if (r == ROLE_PREFILL && chance(2))
		set_ok(d, r, "disaggregation_bootstrap_port", chance(50) ?
		    "30000" : "65535");
}

static void
gen_router(struct deployment *d)
{
	struct role_spec	*rs = &d->role[ROLE_ROUTER];

	if (chance(30))
		set_ok(d, ROLE_ROUTER, "policy", PICK(policies));
	if (chance(10))
		set_ok(d, ROLE_ROUTER, "prefill_policy", PICK(policies));
	if (chance(5))
		set_ok(d, ROLE_ROUTER, "decode_policy", PICK(policies));
	if (chance(5))
		set_ok(d, ROLE_ROUTER, "worker_startup_timeout_secs", "900");
	if (chance(10))
		set_ok(d, ROLE_ROUTER, "request_timeout_secs",
		    chance(80) ? "600" : "30");
	if (chance(10))
		set_ok(d, ROLE_ROUTER, "disable_retries", chance(50) ? "true" :
		    "false");
	if (chance(5))
		set_ok(d, ROLE_ROUTER, "disable_circuit_breaker", "true");
	if (chance(20))
		rs->port = chance(80) ? 8000 : chance(50) ? 30000 : 65535;
	if (chance(20))
		set_hosts(rs, 1, hostpool, sizeof hostpool / sizeof hostpool[0],
		    false);
	else if (chance(80))
		set_hosts(rs, 0, NULL, 0, false);
	if (chance(5))
		rs->bind_host = xstrdup("0.0.0.0");
}

/* The router's lists stated by the user: the layout's, sometimes with an
 * instance left out or a wrong bootstrap port. */
static void
gen_router_lists(struct deployment *d)
{
	struct role_spec	*rs = &d->role[ROLE_ROUTER];
	struct layout		 lay;
	size_t			 i, skip = (size_t)-1;
	int			 wrong = -1;

	deployment_layout(cat, d, &lay);
	if (chance(30) && lay.nprefill + lay.ndecode > 0)
		skip = rnd((unsigned)(lay.nprefill + lay.ndecode));
	if (chance(20) && lay.nprefill > 0)
		wrong = (int)rnd((unsigned)lay.nprefill);
	rs->prefill_urls = xcalloc(lay.nprefill + 1, sizeof *rs->prefill_urls);
	for (i = 0; i < lay.nprefill; i++) {
		struct endpoint	*e;

		if (i == skip)
			continue;
		e = &rs->prefill_urls[rs->nprefill_urls++];
		*e = lay.prefill[i];
		e->url = xstrdup(lay.prefill[i].url);
		if ((int)i == wrong)
			e->bootstrap_port = chance(50) ? -1 : 9999;
	}
	rs->decode_urls = xcalloc(lay.ndecode + 1, sizeof *rs->decode_urls);
	for (i = 0; i < lay.ndecode; i++) {
		struct endpoint	*e;

		if (lay.nprefill + i == skip)
			continue;
		e = &rs->decode_urls[rs->ndecode_urls++];
		*e = lay.decode[i];
		e->url = xstrdup(lay.decode[i].url);
	}
	layout_free(&lay);
}

static void
gen(struct deployment *d)
{
	char	err[512];
	bool	local;

	deployment_default(d, PICK(models));
	if (chance(10)) {
		free(d->name);
		d->name = xstrdup(PICK(names));
	}
	if (chance(10))
		d->sglang_version = xstrdup(chance(50) ? "0.5.6" : "0.4.10");
	if (chance(5))
		d->k8s_namespace = xstrdup(chance(50) ? "inference" : "ml-prod");
	if (chance(5))
		d->k8s_image = xstrdup("lmsysorg/sglang:v0.5.6");
	if (chance(30))
		d->gpus_per_host = chance(50) ? 8 : chance(50) ? 4 :
		    chance(80) ? 16 : 2;
	if (chance(50))
		set_ok(d, -1, "disaggregation_transfer_backend",
		    PICK(backends));
	if (chance(40))
		set_ok(d, -1, "page_size", PICK(pages));
	if (chance(25))
		set_ok(d, -1, "kv_cache_dtype", PICK(dtypes));
	if (chance(30))
		set_ok(d, -1, "--disaggregation-ib-device", "mlx5_0");
	if (chance(5))
		set_ok(d, -1, "trust_remote_code", "true");
	if (chance(4))
		set_ok(d, -1, "SGLANG_DISAGGREGATION_THREAD_POOL_SIZE", "6");
	if (chance(6) && deployment_set_fact(cat, d, "is_mla",
	    chance(50) ? "true" : "false", err, sizeof err) != 0)
		fail_msg("deployment_set_fact: %s", err);
	local = chance(40);		/* all on one machine, mostly */
	gen_server_role(d, ROLE_PREFILL, local);
	gen_server_role(d, ROLE_DECODE, local);
	gen_router(d);
	if (chance(8))
		gen_router_lists(d);
}

/* ---- checking ---- */

struct counts {
	unsigned	generated, clean, witherr;
	unsigned	roundtrip, emitted, script_clean, imported;
	unsigned	forced, same_ids, file_only, cli;
	unsigned	failures;
};

struct ctx {
	uint64_t		 seed;
	unsigned		 index;
	const struct deployment	*d;
	struct counts		*c;
	bool			 failed;
};

/* Report a failed property: seed, index, the deployment's YAML. */
static void
failf(struct ctx *x, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
failf(struct ctx *x, const char *fmt, ...)
{
	va_list	 ap;
	char	*y;

	x->c->failures++;
	if (x->failed || x->c->failures > 20) {
		x->failed = true;
		return;
	}
	x->failed = true;
	fprintf(stderr, "FAIL seed=0x%016" PRIx64 " index=%u: ", x->seed,
	    x->index);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fprintf(stderr, "\n  replay: PDWIZ_PROP_SEED=0x%016" PRIx64
	    " PDWIZ_PROP_FROM=%u PDWIZ_PROP_COUNT=1\n--- deployment ---\n",
	    x->seed, x->index);
	y = deployment_to_yaml(cat, x->d);
	fprintf(stderr, "%s--- end ---\n", y ? y : "(no YAML)\n");
	free(y);
}

/* The ids of severity sev in r, sorted and unique, as one string. */
static char *
ids_of(const struct result *r, enum severity sev)
{
	const char	**v = xcalloc(r->n + 1, sizeof *v);
	struct buf	  b = { 0 };
	size_t		  n = 0, i, j;

	for (i = 0; i < r->n; i++)
		if (r->d[i].sev == sev)
			v[n++] = r->d[i].id;
	for (i = 1; i < n; i++)		/* insertion sort: few ids */
		for (j = i; j > 0 && strcmp(v[j - 1], v[j]) > 0; j--) {
			const char	*t = v[j];

			v[j] = v[j - 1];
			v[j - 1] = t;
		}
	for (i = 0; i < n; i++)
		if (i == 0 || strcmp(v[i], v[i - 1]) != 0)
			buf_printf(&b, "%s%s", b.len ? " " : "", v[i]);
	buf_putc(&b, '\0');
	free(v);
	return buf_steal(&b);
}

/*
 * A script checked as `pdwiz check` checks one: every server command read
 * (with the deployment's model facts as the base config, as --fact gives
 * them) and run through the per-server rules; then the cross-role rules over
 * the script imported, with the first prefill and decode command's effective
 * configs. Returns -1 when the script does not parse.
 */
static int
check_script(const struct deployment *d, const char *text,
    struct result *out, char *err, size_t errlen)
{
	struct sh_script	 sc = { 0 };
	struct config		 base, eff[NPD_ROLE];
	const struct config	*effp[NPD_ROLE] = { NULL, NULL, NULL };
	size_t			 i;
	int			 r;

	memset(eff, 0, sizeof eff);
	if (sh_parse(text, strlen(text), &sc, err, errlen) != 0)
		return -1;
	config_init(&base, cat);
	/* checked for the deployment's SGLang, as `pdwiz check
	 * --sglang-version` of its script would be */
	if (d->sglang_version != NULL)
		config_set_sgver(&base, sgver_parse(d->sglang_version, NULL, 0));
	for (i = 0; i < d->nfacts; i++)
		if (d->facts[i].value != NULL && facts_set(cat, &base,
		    d->facts[i].name, d->facts[i].value, err, errlen) != 0)
			fail_msg("fact %s: %s", d->facts[i].name, err);
	for (i = 0; i < sc.ncmds; i++) {
		struct config	 cfg = { 0 };
		struct result	 diags, res;
		int		 mo;

		if (sc.cmds[i].kind != SH_SERVER)
			continue;
		result_init(&diags);
		result_init(&res);
		server_from_cmd(cat, &sc.cmds[i], &base, &cfg, &diags, NULL);
		result_take(out, &diags, (int)i);
		engine_run(cat, &cfg, &res);
		engine_verify_fixes(cat, &cfg, &res);
		mo = catalog_find(cat, "disaggregation_mode");
		r = mo >= 0 && cfg.s[mo].v.t == V_STR ?
		    (strcmp(cfg.s[mo].v.u.s, "prefill") == 0 ? ROLE_PREFILL :
		    strcmp(cfg.s[mo].v.u.s, "decode") == 0 ? ROLE_DECODE : -1) :
		    -1;
		if (r >= 0 && effp[r] == NULL) {
			eff[r] = res.eff;
			memset(&res.eff, 0, sizeof res.eff);
			effp[r] = &eff[r];
		}
		result_take(out, &res, (int)i);
		result_free(&res);
		result_free(&diags);
		config_free(&cfg);
	}
	if (effp[ROLE_PREFILL] != NULL && effp[ROLE_DECODE] != NULL)
		deployment_check_script(cat, "launch.sh", &sc, effp, out);
	for (i = 0; i < NPD_ROLE; i++)
		if (effp[i] != NULL)
			config_free(&eff[i]);
	config_free(&base);
	sh_script_free(&sc);
	return 0;
}

/*
 * The in-process check_script against the real `pdwiz check`: for every
 * CLI_EVERY-th deployment the script is written to a file and checked by
 * the binary ($PDWIZ, else pdwiz in $PDWIZ_DATADIR; skipped, and said so,
 * when there is none), and its error and warning ids must be the ones
 * check_script found. This keeps the mirror above honest as `pdwiz check`
 * grows (script-level warnings of its own included).
 */
#define CLI_EVERY	250

static const char *
pdwiz_binary(void)
{
	static char	 path[4096];
	static int	 state;		/* 0 unknown, 1 found, -1 none */
	const char	*e = getenv("PDWIZ"), *dir = getenv("PDWIZ_DATADIR");

	if (state == 0) {
		if (e != NULL && *e != '\0')
			snprintf(path, sizeof path, "%s", e);
		else
			snprintf(path, sizeof path, "%s/pdwiz", dir ? dir : ".");
		state = access(path, X_OK) == 0 ? 1 : -1;
		if (state < 0)
			printf("deploy-prop: no pdwiz binary at %s: scripts "
			    "are checked in-process only\n", path);
	}
	return state > 0 ? path : NULL;
}

/* The ids of severity sev ("error", "warning") in pdwiz check's JSON. */
static char *
json_ids(const char *json, const char *sev)
{
	struct result	 r;
	const char	*p = json, *e;
	char		 id[256], sv[32];
	char		*out;

	result_init(&r);
	while ((p = strstr(p, ",\"rule\":\"")) != NULL) {
		p += 9;
		if ((e = strchr(p, '"')) == NULL || (size_t)(e - p) >= sizeof id)
			break;
		snprintf(id, sizeof id, "%.*s", (int)(e - p), p);
		if (strncmp(e, "\",\"severity\":\"", 14) != 0)
			continue;
		p = e + 14;
		if ((e = strchr(p, '"')) == NULL || (size_t)(e - p) >= sizeof sv)
			break;
		snprintf(sv, sizeof sv, "%.*s", (int)(e - p), p);
		if (strcmp(sv, sev) == 0)
			result_add(&r, id, SEV_ERROR, "", NULL, 0, 0);
	}
	out = ids_of(&r, SEV_ERROR);
	result_free(&r);
	return out;
}

static void
cli_compare(struct ctx *x, const struct deployment *d, const char *sh,
    const struct result *mine)
{
	const char	*bin = pdwiz_binary();
	char		 tmp[] = "/tmp/pdwiz-prop.XXXXXX";
	struct buf	 cmd = { 0 }, out = { 0 };
	char		*q, *a, *b, chunk[4096];
	FILE		*f = NULL;
	size_t		 i, n;
	int		 fd, k;

	if (bin == NULL)
		return;
	if ((fd = mkstemp(tmp)) < 0 || (f = fdopen(fd, "w")) == NULL)
		fail_msg("mkstemp: cannot write a script");
	fputs(sh, f);
	fclose(f);
	q = sh_quote(bin);
	buf_printf(&cmd, "%s check --format json --input shell", q);
	free(q);
	if (d->sglang_version != NULL) {
		q = sh_quote(d->sglang_version);
		buf_printf(&cmd, " --sglang-version %s", q);
		free(q);
	}
	for (i = 0; i < d->nfacts; i++) {
		char	*fv;

		if (d->facts[i].value == NULL)
			continue;
		fv = xasprintf("%s=%s", d->facts[i].name, d->facts[i].value);
		q = sh_quote(fv);
		buf_printf(&cmd, " --fact %s", q);
		free(q);
		free(fv);
	}
	buf_printf(&cmd, " %s 2>/dev/null", tmp);
	if ((f = popen(cmd.s, "r")) == NULL)
		fail_msg("popen %s", cmd.s);
	while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
		buf_add(&out, chunk, n);
	pclose(f);
	buf_putc(&out, '\0');
	unlink(tmp);
	x->c->cli++;
	for (k = 0; k < 2; k++) {
		a = ids_of(mine, k ? SEV_WARNING : SEV_ERROR);
		b = json_ids(out.s, k ? "warning" : "error");
		if (strcmp(a, b) != 0)
			failf(x, "pdwiz check of the script reports %s ids "
			    "[%s], the in-process check [%s]\n%s",
			    k ? "warning" : "error", b, a, sh);
		free(a);
		free(b);
	}
	buf_free(&out);
	buf_free(&cmd);
}

/* ---- equivalence of a deployment and its script imported ---- */

static bool
str_eq(const char *a, const char *b)
{
	return (a == NULL && b == NULL) || (a != NULL && b != NULL &&
	    strcmp(a, b) == 0);
}

static const char *
nz(const char *s)
{
	return s ? s : "(null)";
}

/* Two kv lists (sorted by name) as "name=value" differences. */
static bool
kv_eq(const struct kv *a, size_t na, const struct kv *b, size_t nb,
    char *why, size_t whylen, const char *what)
{
	size_t	i;

	for (i = 0; i < na || i < nb; i++) {
		if (i >= na || i >= nb || strcmp(a[i].name, b[i].name) != 0 ||
		    !str_eq(a[i].value, b[i].value)) {
			snprintf(why, whylen, "%s: %s=%s in the deployment, "
			    "%s=%s imported", what, i < na ? a[i].name : "-",
			    i < na ? nz(a[i].value) : "-", i < nb ?
			    b[i].name : "-", i < nb ? nz(b[i].value) : "-");
			return false;
		}
	}
	return true;
}

/* The router's options as the command line states them: a flag option is
 * on or absent (false is not written), others name=value. */
static void
router_opts(const struct role_spec *rs, struct kv **out, size_t *n)
{
	size_t	i;

	*out = xcalloc(rs->nopts + 1, sizeof **out);
	*n = 0;
	for (i = 0; i < rs->nopts; i++) {
		const struct kv	*k = &rs->opts[i];

		if (router_opt_is_flag(cat, k->name)) {
			struct value	v;

			if (k->value != NULL && (val_parse(T_BOOL, k->value,
			    &v) != 0 || !v.u.b))
				continue;
			(*out)[*n].name = k->name;
			(*out)[(*n)++].value = (char *)"true";
		} else
			(*out)[(*n)++] = *k;
	}
}

/* A router prefill entry's bootstrap port; without one the router uses
 * 8998, as the checks (xs-router-bootstrap-port) and import read it. */
static int
router_bootstrap(const struct endpoint *e)
{
	return e->bootstrap_port >= 0 ? e->bootstrap_port : 8998;
}

static int
kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->name,
	    ((const struct kv *)b)->name);
}

/*
 * Is im (the launch script imported) equivalent to d (the deployment the
 * script was emitted from)? What `./launch.sh NODE` runs must be the same:
 *  - the model path; prefill and decode instances and nodes per instance;
 *    which roles are enabled;
 *  - every server of the layout: its host, --host, GPU range (base GPU, GPUs
 *    used, span), the GPUs of its machine, HTTP and bootstrap ports,
 *    rendezvous host and port, the DP-attention ZMQ port use; compared
 *    through deployment_layout, so a value written as a field in one and
 *    derived in the other is the same when it comes out the same;
 *  - per role the effective SGLang options (shared + role, role winning) and
 *    environment; how they are split between shared and role is not
 *    compared (a script has no shared section);
 *  - the router: host, --host, port, its prefill list (URL, bootstrap port;
 *    an entry without one is the router's default 8998, as the checks and
 *    import read it) and decode list, policy, options (flags as on/absent),
 *    extra words.
 * Not compared, because a launch script does not carry them: the
 * deployment's name, model facts (given to `pdwiz check` with --fact), the
 * GPUs per node a role states (a script states the GPUs each command uses),
 * the SGLang version, the k8s image and namespace, and line numbers.
 */
static bool
equivalent(const struct deployment *d, const struct deployment *im,
    char *why, size_t whylen)
{
	struct layout	la, lb;
	bool		ok = false;
	size_t		i, na, nb;
	int		r;

	if (!str_eq(d->model, im->model)) {
		snprintf(why, whylen, "model %s, imported %s", nz(d->model),
		    nz(im->model));
		return false;
	}
	for (r = 0; r < NPD_ROLE; r++) {
		const struct role_spec	*a = &d->role[r], *b = &im->role[r];

		if (a->enabled != b->enabled || (r != ROLE_ROUTER &&
		    (a->instances != b->instances ||
		    a->nodes_per_instance != b->nodes_per_instance))) {
			snprintf(why, whylen, "%s: enabled %d/%d, instances "
			    "%d/%d, nodes per instance %d/%d", role_name(r),
			    a->enabled, b->enabled, a->instances, b->instances,
			    a->nodes_per_instance, b->nodes_per_instance);
			return false;
		}
	}
	deployment_layout(cat, d, &la);
	deployment_layout(cat, im, &lb);
	if (la.n != lb.n) {
		snprintf(why, whylen, "%zu servers, imported %zu", la.n, lb.n);
		goto out;
	}
	for (i = 0; i < la.n; i++) {
		const struct lay_server	*a = &la.s[i], *b = &lb.s[i];

		if (a->role != b->role || a->instance != b->instance ||
		    a->node_rank != b->node_rank || !str_eq(a->host, b->host) ||
		    !str_eq(a->bind, b->bind) || a->base_gpu != b->base_gpu ||
		    a->ngpus != b->ngpus || a->gpu_span != b->gpu_span ||
		    a->port != b->port || a->bootstrap_port != b->bootstrap_port ||
		    !str_eq(a->dist_host, b->dist_host) ||
		    a->dist_port != b->dist_port || a->dp_zmq != b->dp_zmq ||
		    a->host_gpus != b->host_gpus) {
			snprintf(why, whylen, "server %zu (%s %d rank %d): host "
			    "%s/%s bind %s/%s gpu %d+%d(%d)/%d+%d(%d) port %d/%d "
			    "bootstrap %d/%d dist %s:%d/%s:%d zmq %d/%d machine "
			    "GPUs %d/%d", i,
			    role_name(a->role), a->instance, a->node_rank,
			    nz(a->host), nz(b->host), nz(a->bind), nz(b->bind),
			    a->base_gpu, a->ngpus, a->gpu_span, b->base_gpu,
			    b->ngpus, b->gpu_span, a->port, b->port,
			    a->bootstrap_port, b->bootstrap_port,
			    nz(a->dist_host), a->dist_port, nz(b->dist_host),
			    b->dist_port, a->dp_zmq, b->dp_zmq, a->host_gpus,
			    b->host_gpus);
			goto out;
		}
	}
	if (!str_eq(la.router_host, lb.router_host) ||
	    !str_eq(la.router_bind, lb.router_bind) ||
	    la.router_port != lb.router_port || la.nprefill != lb.nprefill ||
	    la.ndecode != lb.ndecode) {
		snprintf(why, whylen, "router %s (--host %s) :%d with %zu+%zu "
		    "workers, imported %s (--host %s) :%d with %zu+%zu",
		    nz(la.router_host), nz(la.router_bind), la.router_port,
		    la.nprefill, la.ndecode, nz(lb.router_host),
		    nz(lb.router_bind), lb.router_port, lb.nprefill, lb.ndecode);
		goto out;
	}
	for (i = 0; i < la.nprefill + la.ndecode; i++) {
		const struct endpoint	*a = i < la.nprefill ? &la.prefill[i] :
		    &la.decode[i - la.nprefill];
		const struct endpoint	*b = i < lb.nprefill ? &lb.prefill[i] :
		    &lb.decode[i - lb.nprefill];

		if (!str_eq(a->url, b->url) || (i < la.nprefill &&
		    router_bootstrap(a) != router_bootstrap(b))) {
			snprintf(why, whylen, "router list entry %zu: %s %d, "
			    "imported %s %d", i, nz(a->url), a->bootstrap_port,
			    nz(b->url), b->bootstrap_port);
			goto out;
		}
	}
	for (r = 0; r < NPD_ROLE; r++) {
		struct kv	*a, *b;
		bool		 same;

		if (r == ROLE_ROUTER) {
			router_opts(&d->role[r], &a, &na);
			router_opts(&im->role[r], &b, &nb);
			qsort(a, na, sizeof *a, kv_cmp);
			qsort(b, nb, sizeof *b, kv_cmp);
		} else {
			na = role_options(d, (enum role)r, &a);
			nb = role_options(im, (enum role)r, &b);
		}
		same = kv_eq(a, na, b, nb, why, whylen, role_name(r));
		free(a);
		free(b);
		if (!same)
			goto out;
		role_env(d, (enum role)r, &a, &na);
		role_env(im, (enum role)r, &b, &nb);
		same = kv_eq(a, na, b, nb, why, whylen, "environment");
		kv_free_all(a, na);
		kv_free_all(b, nb);
		if (!same)
			goto out;
	}
	{
		const struct role_spec	*a = &d->role[ROLE_ROUTER],
		    *b = &im->role[ROLE_ROUTER];

		if (!str_eq(a->policy, b->policy) ||
		    a->nextra_args != b->nextra_args) {
			snprintf(why, whylen, "router policy %s/%s, %zu/%zu "
			    "extra words", nz(a->policy), nz(b->policy),
			    a->nextra_args, b->nextra_args);
			goto out;
		}
		for (i = 0; i < a->nextra_args; i++)
			if (strcmp(a->extra_args[i], b->extra_args[i]) != 0) {
				snprintf(why, whylen, "router word %s, imported "
				    "%s", a->extra_args[i], b->extra_args[i]);
				goto out;
			}
	}
	ok = true;
out:
	layout_free(&la);
	layout_free(&lb);
	return ok;
}

/* ---- the properties ---- */

/*
 * Rule ids a deployment file can report and its launch script cannot, with
 * why:
 *  - xs-prefill-gpus, xs-decode-gpus: an instance needing more GPUs than
 *    its nodes have. The file states GPUs per node (gpus_per_node, else
 *    per machine); a script states only the GPUs each command uses, which
 *    import takes as the node's, so the rule cannot fire on a script.
 *  - deploy-file: the model has a shape the deployment file reader refuses
 *    (hosts neither one for all nor one per node, a port out of range); a
 *    script is written node by node and has no such shape.
 * When the file reports one of these and the script does not, the id is
 * taken out of the file's list (and counted) before the lists are compared;
 * every other id must be in both.
 */
static const char *const file_only_ids[] = { "xs-prefill-gpus",
	"xs-decode-gpus", "deploy-file", NULL };

static unsigned	file_only_n[sizeof file_only_ids / sizeof file_only_ids[0]];

/* Drop from a (sorted ids, space-separated) the file-only ids b lacks,
 * counting each. */
static bool
file_only(char *a, const char *b)
{
	bool	dropped = false;
	size_t	k;

	for (k = 0; file_only_ids[k] != NULL; k++) {
		size_t	 n = strlen(file_only_ids[k]);
		char	*p = a;

		if (strstr(b, file_only_ids[k]) != NULL)
			continue;
		while ((p = strstr(p, file_only_ids[k])) != NULL) {
			if ((p == a || p[-1] == ' ') && (p[n] == ' ' ||
			    p[n] == '\0')) {
				if (p[n] == ' ')
					n++;
				else if (p > a)
					*--p = '\0', n = 0;
				memmove(p, p + n, strlen(p + n) + 1);
				file_only_n[k]++;
				dropped = true;
				break;
			}
			p += n;
		}
	}
	return dropped;
}

static char *
emit_one(const struct deployment *d, enum emit_format fmt, unsigned flags,
    char *err, size_t errlen)
{
	struct emission	 e;
	char		*s = NULL;
	size_t		 i;

	if (deployment_emit(cat, d, fmt, flags, &e, err, errlen) != 0)
		return NULL;
	for (i = 0; i < e.n; i++)
		if (strcmp(e.f[i].name, "launch.sh") == 0 ||
		    (fmt != EMIT_CONFIG && i == 0))
			s = xstrdup(e.f[i].data);
	if (s == NULL)
		snprintf(err, errlen, "no file in the emission");
	emission_free(&e);
	return s;
}

static void
prop_clean(struct ctx *x, const struct deployment *d, const struct result *r)
{
	static const enum emit_format	 fmts[] = { EMIT_SHELL, EMIT_RUNBOOK,
	    EMIT_CONFIG, EMIT_K8S, EMIT_YAML };
	struct deployment		 d2, im, pinned;
	struct result			 r2, notes;
	char				 err[8192], why[1024];
	char				*y1, *y2, *sh = NULL, *a, *b;
	size_t				 i;

	/* (a) the file reads back equal and checks the same */
	if ((y1 = deployment_to_yaml(cat, d)) == NULL) {
		failf(x, "(a) deployment_to_yaml failed");
		return;
	}
	if (deployment_parse(cat, "prop.yaml", y1, strlen(y1), &d2, err,
	    sizeof err) != 0)
		failf(x, "(a) its YAML does not read back:\n%s", err);
	else {
		y2 = deployment_to_yaml(cat, &d2);
		if (y2 == NULL || strcmp(y1, y2) != 0)
			failf(x, "(a) read back, the YAML differs:\n%s",
			    y2 ? y2 : "(none)");
		else {
			result_init(&r2);
			deployment_check(cat, &d2, &r2);
			a = ids_of(r, SEV_WARNING);
			b = ids_of(&r2, SEV_WARNING);
			if (r2.nerrors != 0 || strcmp(a, b) != 0)
				failf(x, "(a) read back, it checks with %zu "
				    "errors, warnings [%s], not [%s]",
				    r2.nerrors, b, a);
			else
				x->c->roundtrip++;
			free(a);
			free(b);
			result_free(&r2);
		}
		free(y2);
		deployment_free(&d2);
	}
	free(y1);

	/* (b) every emitter */
	for (i = 0; i < sizeof fmts / sizeof fmts[0]; i++) {
		char	*s = emit_one(d, fmts[i], 0, err, sizeof err);

		if (s == NULL || s[0] == '\0') {
			failf(x, "(b) emitter %zu failed: %s", i, err);
			free(s);
			continue;
		}
		x->c->emitted++;
		if (fmts[i] == EMIT_SHELL)
			sh = s;
		else
			free(s);
	}
	if (sh == NULL)
		return;

	/* (c) the script checks clean */
	result_init(&r2);
	if (check_script(d, sh, &r2, err, sizeof err) != 0)
		failf(x, "(c) the script does not parse: %s\n%s", err, sh);
	else if (r2.nerrors != 0) {
		a = ids_of(&r2, SEV_ERROR);
		failf(x, "(c) the script checks with %zu errors [%s]:\n%s",
		    r2.nerrors, a, sh);
		free(a);
	} else {
		if (x->index % CLI_EVERY == 0)
			cli_compare(x, d, sh, &r2);
		a = ids_of(r, SEV_WARNING);
		b = ids_of(&r2, SEV_WARNING);
		file_only(a, b);
		if (strcmp(a, b) != 0)
			failf(x, "(c) the script checks clean with warnings "
			    "[%s], the file with [%s]:\n%s", b, a, sh);
		else
			x->c->script_clean++;
		free(a);
		free(b);
	}
	result_free(&r2);

	/* (d) the script imports equivalent */
	result_init(&notes);
	if (deployment_import(cat, "launch.sh", sh, strlen(sh), &im, &notes,
	    err, sizeof err) != 0)
		failf(x, "(d) the script does not import: %s\n%s", err, sh);
	else {
		deployment_copy(&pinned, d);
		deployment_pin(cat, &pinned);
		if (!equivalent(&pinned, &im, why, sizeof why)) {
			y1 = deployment_to_yaml(cat, &im);
			failf(x, "(d) imported, not equivalent: %s\n--- imported "
			    "---\n%s--- script ---\n%s", why, nz(y1), sh);
			free(y1);
		} else if (notes.n > 0)
			failf(x, "(d) imported with %zu notes (first: %s %s)",
			    notes.n, notes.d[0].id, notes.d[0].msg);
		else
			x->c->imported++;
		deployment_free(&pinned);
		deployment_free(&im);
	}
	result_free(&notes);
	free(sh);
}

static void
prop_errors(struct ctx *x, const struct deployment *d, const struct result *r)
{
	struct result	 r2;
	char		 err[8192], *sh, *a[2], *b[2];
	int		 k;

	if ((sh = emit_one(d, EMIT_SHELL, EMIT_FORCE, err, sizeof err)) ==
	    NULL) {
		failf(x, "forced export failed: %s", err);
		return;
	}
	x->c->forced++;
	result_init(&r2);
	if (check_script(d, sh, &r2, err, sizeof err) != 0) {
		failf(x, "the forced script does not parse: %s\n%s", err, sh);
		result_free(&r2);
		free(sh);
		return;
	}
	if (x->index % CLI_EVERY == 0)
		cli_compare(x, d, sh, &r2);
	for (k = 0; k < 2; k++) {
		a[k] = ids_of(r, k ? SEV_WARNING : SEV_ERROR);
		b[k] = ids_of(&r2, k ? SEV_WARNING : SEV_ERROR);
		if (file_only(a[k], b[k]))
			x->c->file_only++;
	}
	if (strcmp(a[0], b[0]) != 0 || strcmp(a[1], b[1]) != 0)
		failf(x, "file and script disagree:\n  file errors   [%s]\n  "
		    "script errors [%s]\n  file warnings   [%s]\n  script "
		    "warnings [%s]\n--- script ---\n%s", a[0], b[0], a[1], b[1],
		    sh);
	else
		x->c->same_ids++;
	for (k = 0; k < 2; k++) {
		free(a[k]);
		free(b[k]);
	}
	result_free(&r2);
	free(sh);
}

static bool
under_valgrind(void)
{
	const char	*p = getenv("LD_PRELOAD");

	return p != NULL && strstr(p, "vgpreload") != NULL;
}

static unsigned long long
env_num(const char *name, unsigned long long def)
{
	const char	*s = getenv(name);
	char		*end;
	unsigned long long v;

	if (s == NULL || *s == '\0')
		return def;
	v = strtoull(s, &end, 0);
	if (*end != '\0')
		fail_msg("%s: '%s' is not a number", name, s);
	return v;
}

static void
test_deploy_prop(void **state)
{
	struct counts	 c = { 0 };
	uint64_t	 seed;
	unsigned	 n, from, i;
	const char	*e;
	struct timespec	 t0, t1;

	(void)state;
	if ((e = getenv("PDWIZ_PROP_SEED")) != NULL && strcmp(e, "random") == 0)
		seed = (uint64_t)time(NULL) * 2654435761ULL;
	else
		seed = (uint64_t)env_num("PDWIZ_PROP_SEED", PROP_SEED);
	n = (unsigned)env_num("PDWIZ_PROP_COUNT", under_valgrind() ?
	    VG_COUNT : PROP_ASAN ? ASAN_COUNT : PROP_COUNT);
	from = (unsigned)env_num("PDWIZ_PROP_FROM", 0);
	printf("deploy-prop: seed 0x%016" PRIx64 " (PDWIZ_PROP_SEED), %u "
	    "deployments from %u (PDWIZ_PROP_COUNT, PDWIZ_PROP_FROM)\n", seed,
	    n, from);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (i = from; i < from + n; i++) {
		struct deployment	d;
		struct result		r;
		struct ctx		x = { seed, i, &d, &c, false };

		rng = seed ^ ((uint64_t)i * 0xd1b54a32d192ed03ULL);
		gen(&d);
		c.generated++;
		result_init(&r);
		deployment_check(cat, &d, &r);
		if (r.nerrors == 0) {
			c.clean++;
			prop_clean(&x, &d, &r);
		} else {
			c.witherr++;
			prop_errors(&x, &d, &r);
		}
		result_free(&r);
		deployment_free(&d);
	}
	clock_gettime(CLOCK_MONOTONIC, &t1);
	printf("deploy-prop: %u generated, %u clean, %u with errors "
	    "(%.1f s)\n", c.generated, c.clean, c.witherr,
	    (double)(t1.tv_sec - t0.tv_sec) +
	    (double)(t1.tv_nsec - t0.tv_nsec) / 1e9);
	printf("deploy-prop: clean: (a) %u read back equal, (b) %u emissions "
	    "of %u, (c) %u scripts checked clean (same warnings), (d) %u "
	    "imported "
	    "equivalent\n", c.roundtrip, c.emitted, 5 * c.clean,
	    c.script_clean, c.imported);
	printf("deploy-prop: with errors: %u forced scripts, %u with the same "
	    "rule ids (%u lists with a file-only id left out)\n", c.forced,
	    c.same_ids, c.file_only);
	printf("deploy-prop: %u scripts also checked by the pdwiz binary, "
	    "with the same ids\n", c.cli);
	for (i = 0; file_only_ids[i] != NULL; i++)
		printf("deploy-prop: file-only %s left out %u times\n",
		    file_only_ids[i], file_only_n[i]);
	printf("deploy-prop: %u failures\n", c.failures);
	if (c.failures > 0)
		fail_msg("%u property failures (seed 0x%016" PRIx64 ")",
		    c.failures, seed);
}

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

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_deploy_prop),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
