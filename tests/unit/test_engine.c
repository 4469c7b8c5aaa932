/* test_engine.c - rule evaluation: SGLang's order and overrides, the
 * subtleties the issue names, availability (engine_blocks), unknown facts. */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <string.h>

#include "core/config.h"
#include "core/engine.h"
#include "io/server.h"
#include "io/shell.h"

static struct catalog	*cat;

/* Run the engine on one command line; returns the result (caller frees). */
static void
run(const char *cmd, const char *arch, struct result *res, struct config *cfg)
{
	struct sh_script	sc = { 0 };
	struct config		base = { 0 };
	struct result		diags;
	char			err[256];

	config_init(&base, cat);
	if (arch != NULL)
		assert_int_equal(facts_set(cat, &base, "model_arch", arch, err,
		    sizeof err), 0);
	assert_int_equal(sh_parse(cmd, strlen(cmd), &sc, err, sizeof err), 0);
	assert_true(sc.ncmds >= 1);
	result_init(&diags);
	result_init(res);
	config_init(cfg, cat);
	server_from_cmd(cat, &sc.cmds[sc.ncmds - 1], &base, cfg, &diags, NULL);
	if (diags.nerrors > 0)
		fail_msg("reader: %s", diags.d[0].msg);
	engine_run(cat, cfg, res);
	result_free(&diags);
	config_free(&base);
	sh_script_free(&sc);
}

static const struct diag *
find(const struct result *r, const char *id)
{
	size_t	i;

	for (i = 0; i < r->n; i++)
		if (strcmp(r->d[i].id, id) == 0)
			return &r->d[i];
	return NULL;
}

#define LAUNCH "python -m sglang.launch_server --model-path m "

static void
test_mooncake_tcp_is_mooncake(void **state)
{
	struct result	r;
	struct config	c;
	const char	*dsa = "DeepseekV32ForCausalLM";

	(void)state;
	run(LAUNCH "--disaggregation-mode prefill --enable-prefill-cp "
	    "--cp-strategy interleave --enable-dsa-cache-layer-split "
	    "--disaggregation-transfer-backend mooncake_tcp", dsa, &r, &c);
	assert_null(find(&r, "cp-dsa-cache-layer-split-backend"));
	assert_non_null(find(&r, "tb-mooncake-tcp-rewrite"));
	/* the effective config shows the rewrite and its provenance */
	assert_string_equal(r.eff.s[catalog_find(cat,
	    "disaggregation_transfer_backend")].v.u.s, "mooncake");
	assert_int_equal(r.eff.s[catalog_find(cat,
	    "disaggregation_transfer_backend")].src, SRC_OVERRIDE);
	assert_string_equal(r.eff.s[catalog_find(cat, "MC_FORCE_TCP")].v.u.s,
	    "1");
	result_free(&r);
	config_free(&c);
	run(LAUNCH "--disaggregation-mode prefill --enable-prefill-cp "
	    "--cp-strategy interleave --enable-dsa-cache-layer-split "
	    "--disaggregation-transfer-backend nixl", dsa, &r, &c);
	assert_non_null(find(&r, "cp-dsa-cache-layer-split-backend"));
	assert_string_equal(find(&r, "cp-dsa-cache-layer-split-backend")->msg,
	    "--enable-dsa-cache-layer-split currently only supports the "
	    "mooncake transfer backend (mooncake / mooncake_tcp). Got "
	    "--disaggregation-transfer-backend 'nixl'. mori/nixl support will "
	    "be added later by the community.");
	result_free(&r);
	config_free(&c);
}

static void
test_staging_only_in_pd(void **state)
{
	struct result	r;
	struct config	c;

	(void)state;
	run("SGLANG_DISAGG_STAGING_BUFFER=1 " LAUNCH
	    "--disaggregation-transfer-backend mori", NULL, &r, &c);
	assert_null(find(&r, "stg-backend"));
	result_free(&r);
	config_free(&c);
	run("SGLANG_DISAGG_STAGING_BUFFER=1 " LAUNCH
	    "--disaggregation-mode decode --disaggregation-transfer-backend mori",
	    NULL, &r, &c);
	assert_non_null(find(&r, "stg-backend"));
	assert_int_equal(find(&r, "stg-backend")->sev, SEV_ERROR);
	result_free(&r);
	config_free(&c);
}

static void
test_decode_hicache_needs_radix(void **state)
{
	struct result	r;
	struct config	c;
	int		rdx = catalog_find(cat, "disable_radix_cache");

	(void)state;
	run(LAUNCH "--disaggregation-mode decode --enable-hierarchical-cache",
	    NULL, &r, &c);
	assert_non_null(find(&r, "dec-chunk-cache-default"));
	assert_non_null(find(&r, "hc-radix-exclusive"));
	assert_true(r.eff.s[rdx].v.u.b);
	assert_int_equal(r.eff.s[rdx].src, SRC_OVERRIDE);
	result_free(&r);
	config_free(&c);
	run(LAUNCH "--disaggregation-mode decode --enable-hierarchical-cache "
	    "--disaggregation-decode-enable-radix-cache", NULL, &r, &c);
	assert_null(find(&r, "hc-radix-exclusive"));
	result_free(&r);
	config_free(&c);
}

static void
test_chunked_page_skips_decode(void **state)
{
	struct result	r;
	struct config	c;

	(void)state;
	run(LAUNCH "--disaggregation-mode prefill --page-size 64 "
	    "--chunked-prefill-size 1000", NULL, &r, &c);
	assert_non_null(find(&r, "pd-chunked-page"));
	result_free(&r);
	config_free(&c);
	run(LAUNCH "--disaggregation-mode decode --page-size 64 "
	    "--chunked-prefill-size 1000", NULL, &r, &c);
	assert_null(find(&r, "pd-chunked-page"));
	result_free(&r);
	config_free(&c);
}

static void
test_blocks(void **state)
{
	struct result		 r;
	struct config		 c;
	const struct rule	*why;
	int			 hc = catalog_find(cat, "enable_hierarchical_cache");
	int			 be = catalog_find(cat,
	    "disaggregation_transfer_backend");
	int			 drc = catalog_find(cat,
	    "disaggregation_decode_enable_radix_cache");

	(void)state;
	run(LAUNCH "--disaggregation-mode decode", NULL, &r, &c);
	why = engine_blocks(cat, &c, hc, val_bool(true));
	assert_non_null(why);
	assert_string_equal(why->id, "hc-radix-exclusive");
	assert_null(engine_blocks(cat, &c, hc, val_bool(false)));
	/* the fix: enabling decode radix cache makes the value available */
	config_set(&c, drc, val_bool(true), SRC_USER, 0, 0);
	assert_null(engine_blocks(cat, &c, hc, val_bool(true)));
	result_free(&r);
	config_free(&c);

	run(LAUNCH "--disaggregation-mode prefill --enable-prefill-cp "
	    "--cp-strategy interleave --enable-dsa-cache-layer-split",
	    "DeepseekV32ForCausalLM", &r, &c);
	why = engine_blocks(cat, &c, be, val_str("nixl"));
	assert_non_null(why);
	assert_string_equal(why->id, "cp-dsa-cache-layer-split-backend");
	assert_null(engine_blocks(cat, &c, be, val_str("mooncake")));
	assert_null(engine_blocks(cat, &c, be, val_str("mooncake_tcp")));
	result_free(&r);
	config_free(&c);
}

static void
test_unknown_fact(void **state)
{
	struct result		 r;
	struct config		 c;
	const struct diag	*d;

	(void)state;
	run("SGLANG_DISAGG_STAGING_BUFFER=1 " LAUNCH
	    "--disaggregation-mode prefill", NULL, &r, &c);
	d = find(&r, "stg-mla-prefill");
	assert_non_null(d);
	assert_int_equal(d->sev, SEV_UNKNOWN);
	assert_non_null(strstr(d->note, "could not check:"));
	result_free(&r);
	config_free(&c);
	run("SGLANG_DISAGG_STAGING_BUFFER=1 " LAUNCH
	    "--disaggregation-mode prefill", "LlamaForCausalLM", &r, &c);
	assert_null(find(&r, "stg-mla-prefill"));
	result_free(&r);
	config_free(&c);
}

static void
test_fix_applies(void **state)
{
	struct result		 r, r2;
	struct config		 c;
	const struct diag	*d;

	(void)state;
	run("SGLANG_DISAGG_STAGING_BUFFER=1 " LAUNCH
	    "--disaggregation-mode prefill --disaggregation-transfer-backend "
	    "mori", "LlamaForCausalLM", &r, &c);
	d = find(&r, "stg-backend");
	assert_non_null(d);
	assert_true(d->rule->nfixes > 0);
	engine_apply_fix(d->rule, 0, &c);
	result_init(&r2);
	engine_run(cat, &c, &r2);
	assert_null(find(&r2, "stg-backend"));
	result_free(&r2);
	result_free(&r);
	config_free(&c);
}

/*
 * A model pdwiz does not know, whose id names a model family: rules that
 * need an architecture of another family do not apply (not "could not
 * check"); what the family does not settle stays unknown.
 */
static void
test_family_not_applicable(void **state)
{
	struct result		 r;
	struct config		 c;
	const struct diag	*d;

	(void)state;
	/* Qwen, Llama, DeepSeek ids: the MiniCPM rules do not apply */
	run("python -m sglang.launch_server --model-path /models/qwen3-32b "
	    "--disaggregation-mode prefill --tp-size 8", NULL, &r, &c);
	assert_null(find(&r, "ms-minicpm-sparse-pd"));
	/* which Qwen architecture (and its heads) is not settled */
	d = find(&r, "model-tp-heads");
	assert_non_null(d);
	assert_int_equal(d->sev, SEV_UNKNOWN);
	result_free(&r);
	config_free(&c);
	run("python -m sglang.launch_server --model-path "
	    "/raid/models/meta-llama/Llama-3.1-8B-Instruct/ --tp-size 2 "
	    "--dp-size 2 --enable-dp-attention --disaggregation-mode decode",
	    NULL, &r, &c);
	assert_null(find(&r, "ms-minicpm-dp-attention"));
	assert_null(find(&r, "ms-minicpm-sparse-pd"));
	result_free(&r);
	config_free(&c);
	run("python -m sglang.launch_server --model-path "
	    "/data/DeepSeek-Custom-671B --disaggregation-mode prefill",
	    NULL, &r, &c);
	assert_null(find(&r, "ms-minicpm-sparse-pd"));
	result_free(&r);
	config_free(&c);
	/* an id that names no family: unknown as before */
	run("python -m sglang.launch_server --model-path /models/foo "
	    "--disaggregation-mode prefill", NULL, &r, &c);
	d = find(&r, "ms-minicpm-sparse-pd");
	assert_non_null(d);
	assert_int_equal(d->sev, SEV_UNKNOWN);
	assert_non_null(strstr(d->note, "model architecture unknown"));
	result_free(&r);
	config_free(&c);
	/* a MiniCPM the table does not know: SALA or not is not settled */
	run("python -m sglang.launch_server --model-path /models/minicpm-x "
	    "--disaggregation-mode prefill", NULL, &r, &c);
	d = find(&r, "ms-minicpm-sparse-pd");
	assert_non_null(d);
	assert_int_equal(d->sev, SEV_UNKNOWN);
	result_free(&r);
	config_free(&c);
	/* two families named: either's architectures may be the model's */
	run("python -m sglang.launch_server --model-path "
	    "/models/llama-minicpm-merge --disaggregation-mode prefill",
	    NULL, &r, &c);
	assert_non_null(find(&r, "ms-minicpm-sparse-pd"));
	result_free(&r);
	config_free(&c);
	/* a name that settles no architecture (a brand over many) */
	run("python -m sglang.launch_server --model-path "
	    "/models/Qwen-Nemotron-Custom --disaggregation-mode prefill",
	    NULL, &r, &c);
	assert_non_null(find(&r, "ms-minicpm-sparse-pd"));
	result_free(&r);
	config_free(&c);
	/* --model-arch still decides */
	run("python -m sglang.launch_server --model-path /models/qwen3-32b "
	    "--disaggregation-mode prefill", "MiniCPMSALAForCausalLM", &r, &c);
	d = find(&r, "ms-minicpm-sparse-pd");
	assert_non_null(d);
	assert_int_equal(d->sev, SEV_ERROR);
	result_free(&r);
	config_free(&c);
}

/* Negated membership is settled too: a Qwen is neither Llama nor Grok, so
 * SGLang's automatic EAGLE parameters are the chain ones. */
static void
test_family_not_in(void **state)
{
	struct result	r;
	struct config	c;

	(void)state;
	run("python -m sglang.launch_server --model-path /models/qwen3-32b "
	    "--speculative-algorithm EAGLE", NULL, &r, &c);
	assert_non_null(find(&r, "spec-eagle-auto-params"));
	assert_null(find(&r, "spec-eagle-auto-params-tree"));
	result_free(&r);
	config_free(&c);
	run("python -m sglang.launch_server --model-path /models/foo "
	    "--speculative-algorithm EAGLE", NULL, &r, &c);
	assert_null(find(&r, "spec-eagle-auto-params"));
	assert_null(find(&r, "spec-eagle-auto-params-tree"));
	result_free(&r);
	config_free(&c);
}

/*
 * The families of rules/models.yaml never exclude the architecture the
 * model table gives an id they name: every entry's id (its glob with the
 * wildcards dropped) is checked against its own model_arch.
 */
static void
test_families_admit_table(void **state)
{
	int	arch = catalog_find(cat, "model_arch");
	size_t	i, j, checked = 0;

	(void)state;
	assert_true(arch >= 0);
	assert_true(cat->nfamilies >= 10);
	for (i = 0; i < cat->nmodels; i++) {
		const struct model_entry	*m = &cat->models[i];
		struct config			 cfg;
		char				 id[256];
		size_t				 k = 0;
		const char			*p;

		for (p = m->match; *p != '\0' && k + 1 < sizeof id; p++)
			if (*p != '*')
				id[k++] = *p;
		id[k] = '\0';
		for (j = 0; j < m->n; j++)
			if (m->opt[j] == arch)
				break;
		if (j == m->n)
			continue;
		config_init(&cfg, cat);
		catalog_model_facts(cat, id, &cfg);
		if (catalog_arch_excluded(cat, &cfg, arch, m->val[j].u.s))
			fail_msg("%s: its families exclude %s", m->match,
			    m->val[j].u.s);
		if (cfg.s[cat->o_family].v.t != V_UNKNOWN)
			checked++;
		config_free(&cfg);
	}
	assert_true(checked >= 50);
}

/*
 * A could-not-check offers a fix only when applying it changes the
 * configuration and the rule is then decided (not unknown, not firing):
 * not "use TP 2" on a server that runs TP 2, nor a TP that leaves the
 * heads unknown.
 */
static void
test_unknown_fixes(void **state)
{
	struct result		 r;
	struct config		 c;
	const struct diag	*d;
	size_t			 i;

	(void)state;
	run(LAUNCH "--tp-size 2 --disaggregation-mode prefill", NULL, &r, &c);
	engine_verify_fixes(cat, &c, &r);
	d = find(&r, "model-tp-heads");
	assert_non_null(d);
	assert_int_equal(d->sev, SEV_UNKNOWN);
	assert_true(d->rule->nfixes >= 3);
	assert_true(d->fixes_verified);
	for (i = 0; i < d->rule->nfixes; i++)
		assert_false(diag_fix_ok(d, i));
	/* a fix that decides the rule whatever the unknown fact is kept */
	d = find(&r, "ms-minicpm-sparse-pd");
	assert_non_null(d);
	assert_int_equal(d->sev, SEV_UNKNOWN);
	assert_true(d->fixes_verified);
	assert_true(diag_fix_ok(d, 0));		/* SGLANG_MINICPM_FORCE_DENSE=1 */
	assert_true(diag_fix_ok(d, 1));		/* no PD disaggregation */
	result_free(&r);
	config_free(&c);
	/* the heads known, the TP size not: a TP that divides them decides it */
	run("python -m sglang.launch_server --model-path "
	    "meta-llama/Llama-3.1-8B-Instruct --tp-size $TP", NULL, &r, &c);
	engine_verify_fixes(cat, &c, &r);
	d = find(&r, "model-tp-heads");
	assert_non_null(d);
	assert_int_equal(d->sev, SEV_UNKNOWN);
	assert_true(diag_fix_ok(d, 0));		/* TP 4: 32 heads split */
	result_free(&r);
	config_free(&c);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_mooncake_tcp_is_mooncake),
		cmocka_unit_test(test_staging_only_in_pd),
		cmocka_unit_test(test_decode_hicache_needs_radix),
		cmocka_unit_test(test_chunked_page_skips_decode),
		cmocka_unit_test(test_blocks),
		cmocka_unit_test(test_unknown_fact),
		cmocka_unit_test(test_fix_applies),
		cmocka_unit_test(test_family_not_applicable),
		cmocka_unit_test(test_family_not_in),
		cmocka_unit_test(test_families_admit_table),
		cmocka_unit_test(test_unknown_fixes),
	};
	int	rc;

	cat = test_catalog_yaml();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	catalog_free(cat);
	intern_free_all();
	return rc;
}
