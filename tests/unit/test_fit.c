/* test_fit.c - the fit estimate: weights, KV cache and memory per GPU,
 * against hand-checked arithmetic and against real SGLang startup logs
 * (tests/fit/calibration.tsv). */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <math.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/fit.h"

#define MIB	(1024.0 * 1024.0)
/* what the estimate adds to the parameters' bytes on every GPU (fit.h) */
#define BUFS	(FIT_LOAD_BUFFERS_GIB * FIT_GIB)

static struct fit_db	db;

static const char *
datadir(void)
{
	const char	*d = getenv("PDWIZ_DATADIR");

	return d ? d : ".";
}

static int
setup(void **state)
{
	char	err[1024];

	(void)state;
	if (fit_db_load(&db, datadir(), err, sizeof err) != 0) {
		fprintf(stderr, "fit data: %s\n", err);
		return -1;
	}
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	fit_db_free(&db);
	return 0;
}

static const struct fit_model *
model(const char *id)
{
	const struct fit_model	*m = fit_model_find(&db, id);

	if (m == NULL)
		fail_msg("no model facts for %s", id);
	return m;
}

static const struct fit_gpu *
gpu(const char *name)
{
	const struct fit_gpu	*g = fit_gpu_find(&db, name);

	if (g == NULL)
		fail_msg("no accelerator %s", name);
	return g;
}

static void
near(double got, double want, double tol)
{
	if (fabs(got - want) > tol)
		fail_msg("got %.6f, want %.6f (+-%g)", got, want, tol);
}

/* ---- lookups ---- */

static void
test_gpu_names(void **state)
{
	(void)state;
	assert_string_equal(gpu("H100")->name, "H100-SXM-80GB");
	assert_string_equal(gpu("h100-sxm")->name, "H100-SXM-80GB");
	assert_string_equal(gpu("H100-80G")->name, "H100-SXM-80GB");
	assert_string_equal(gpu("NVIDIA H100 80GB HBM3")->name,
	    "H100-SXM-80GB");
	assert_string_equal(gpu("h100_pcie")->name, "H100-PCIe-80GB");
	assert_string_equal(gpu("H200")->name, "H200-141GB");
	assert_string_equal(gpu("h20")->name, "H20-96GB");
	assert_string_equal(gpu("B200")->name, "B200-180GB");
	assert_string_equal(gpu("gb300")->name, "GB300");
	assert_string_equal(gpu("mi355x")->name, "MI355X");
	assert_string_equal(gpu("910B3")->name, "Ascend-910B");
	assert_string_equal(gpu("Ascend910C")->name, "Ascend-910C");
	assert_null(fit_gpu_find(&db, "H300"));
	assert_null(fit_gpu_find(&db, ""));
	assert_null(fit_gpu_find(&db, "nvidia"));
	/* every accelerator names its datasheet */
	{
		size_t	i;

		for (i = 0; i < db.ngpus; i++)
			assert_true(strlen(db.gpus[i].source) > 20);
	}
	assert_int_equal(gpu("H200")->reported_mib, 143771);
	assert_string_equal(gpu("MI300X")->platform, "hip");
	assert_string_equal(gpu("910B")->platform, "npu");
}

/* The accelerators issue #25 lists, and what their drivers report (MiB;
 * 0: no public figure found, the label is used). rules/hardware.yaml says
 * where each figure was seen. */
static void
test_gpu_facts(void **state)
{
	static const struct {
		const char	*name, *canon;
		double		 reported_mib;
	} want[] = {
		{ "A10", "A10-24GB", 23028 },
		{ "A100 40GB", "A100-40GB", 40960 },
		{ "A100", "A100-80GB", 81920 },
		{ "A30", "A30-24GB", 24576 },
		{ "A40", "A40-48GB", 46068 },
		{ "A6000", "RTX-A6000-48GB", 49140 },
		{ "L4", "L4-24GB", 23034 },
		{ "L40", "L40-48GB", 46068 },
		{ "L40S", "L40S-48GB", 46068 },
		{ "RTX 3090", "RTX-3090-24GB", 24576 },
		{ "RTX 4090", "RTX-4090-24GB", 24564 },
		{ "RTX 5080", "RTX-5080-16GB", 16303 },
		{ "RTX 5090", "RTX-5090-32GB", 32607 },
		{ "H100 SXM", "H100-SXM-80GB", 81559 },
		{ "H100 PCIe", "H100-PCIe-80GB", 81559 },
		{ "H100 NVL", "H100-NVL-94GB", 95830 },
		{ "H20", "H20-96GB", 97871 },
		{ "H200", "H200-141GB", 143771 },
		{ "H800", "H800-80GB", 0 },
		{ "B200", "B200-180GB", 183359 },
		{ "B300", "B300-288GB", 275040 },
		{ "GB200", "GB200", 189471 },
		{ "GB300", "GB300", 284208 },
		{ "MI250X", "MI250X", 0 },
		{ "MI300X", "MI300X", 196288 },
		{ "MI308X", "MI308X", 0 },
		{ "MI325X", "MI325X", 0 },
		{ "MI355X", "MI355X", 0 },
		{ "910B", "Ascend-910B", 65536 },
		{ "910C", "Ascend-910C", 0 },
	};
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof want / sizeof want[0]; i++) {
		const struct fit_gpu	*g = gpu(want[i].name);

		assert_string_equal(g->name, want[i].canon);
		near(g->reported_mib, want[i].reported_mib, 0);
		near(g->memory_bytes, want[i].reported_mib > 0 ?
		    want[i].reported_mib * MIB : g->memory_gb * FIT_GIB, 0);
		assert_non_null(g->source);
	}
}

static void
test_model_names(void **state)
{
	const struct fit_model	*m;
	size_t			 i;

	(void)state;
	assert_string_equal(model("deepseek-ai/DeepSeek-R1")->id,
	    "deepseek-ai/DeepSeek-V3");
	assert_string_equal(model("deepseek-ai/DeepSeek-V3-0324")->id,
	    "deepseek-ai/DeepSeek-V3");
	/* V3.2 (DSA) is its own entry, not the V3 the globs before it match */
	assert_string_equal(model("deepseek-ai/DeepSeek-V3.2-Exp")->id,
	    "deepseek-ai/DeepSeek-V3.2-Exp");
	assert_int_equal(model("/models/DeepSeek-V3.2")->index_head_dim, 128);
	assert_int_equal(model("deepseek-ai/DeepSeek-V3")->index_head_dim, 0);
	assert_string_equal(model("Qwen/Qwen3-235B-A22B-FP8")->id,
	    "Qwen/Qwen3-235B-A22B-FP8");
	assert_string_equal(model("Qwen/Qwen3-235B-A22B-Instruct-2507")->id,
	    "Qwen/Qwen3-235B-A22B");
	assert_string_equal(model("meta-llama/Meta-Llama-3.1-8B-Instruct")->id,
	    "meta-llama/Llama-3.1-8B-Instruct");
	assert_null(fit_model_find(&db, "meta-llama/Llama-3.1-405B-Instruct-FP8"));
	assert_null(fit_model_find(&db, "nobody/nothing"));
	m = model("deepseek-ai/DeepSeek-V3");
	assert_int_equal(m->layers, 61);
	assert_int_equal(m->kv_lora_rank, 512);
	assert_int_equal(m->qk_rope_head_dim, 64);
	assert_int_equal(m->experts, 256);
	assert_int_equal(m->dtype, FD_FP8_BLOCK128);
	/* 671B total, 37B active as the paper states */
	near(m->params_total / 1e9, 671.0, 0.5);
	near((m->params_total - m->expert_params * (1 - 8.0 / 256)) / 1e9,
	    37.5, 0.6);
	for (i = 0; i < db.nmodels; i++)
		assert_true(strlen(db.models[i].source) > 20);
}

/* ---- KV bytes per token ---- */

static double
cell(const char *id, int tp, int pp, int dp, bool dpattn, const char *kvd)
{
	struct fit_params	p;
	struct fit_result	r;

	fit_params_init(&p);
	p.tp = tp;
	p.pp = pp;
	p.dp = dp;
	p.dp_attention = dpattn;
	p.kv_cache_dtype = kvd;
	fit_estimate(model(id), gpu("H200"), &p, &r);
	if (!r.kv_per_token.known)
		fail_msg("%s: %s", id, r.kv_per_token.why);
	return r.kv_per_token.v;
}

static double
cell_on(const char *id, const char *g, int tp, int pp, const char *kvd)
{
	struct fit_params	p;
	struct fit_result	r;

	fit_params_init(&p);
	p.tp = tp;
	p.pp = pp;
	p.kv_cache_dtype = kvd;
	fit_estimate(model(id), gpu(g), &p, &r);
	if (!r.kv_per_token.known)
		fail_msg("%s: %s", id, r.kv_per_token.why);
	return r.kv_per_token.v;
}

static void
test_kv_cell(void **state)
{
	(void)state;
	/* GQA: 2 x kv_heads/tp x head_dim x layers x 2 bytes */
	near(cell("meta-llama/Llama-3.1-8B-Instruct", 1, 1, 1, false, NULL),
	    2.0 * 8 * 128 * 32 * 2, 0);
	near(cell("meta-llama/Llama-3.1-8B-Instruct", 8, 1, 1, false, "auto"),
	    2.0 * 1 * 128 * 32 * 2, 0);
	/* more ranks than KV heads: one head each, replicated */
	near(cell("meta-llama/Llama-3.1-70B-Instruct", 16, 1, 1, false,
	    NULL), 2.0 * 1 * 128 * 80 * 2, 0);
	near(cell("meta-llama/Llama-3.1-8B-Instruct", 1, 1, 1, false,
	    "fp8_e4m3"), 2.0 * 8 * 128 * 32 * 1, 0);
	/* pipeline stages hold their layers only */
	near(cell("meta-llama/Llama-3.1-8B-Instruct", 1, 2, 1, false, NULL),
	    2.0 * 8 * 128 * 16 * 2, 0);
	near(cell("Qwen/Qwen3-235B-A22B", 1, 4, 1, false, NULL),
	    2.0 * 4 * 128 * 24 * 2, 0);	/* ceil(94 / 4) */
	/* DP attention: KV heads split over tp/dp */
	near(cell("Qwen/Qwen3-235B-A22B", 8, 1, 4, true, NULL),
	    2.0 * 2 * 128 * 94 * 2, 0);
	/* MLA: (kv_lora_rank + qk_rope_head_dim) x layers x bytes, any TP */
	near(cell("deepseek-ai/DeepSeek-V3", 8, 1, 1, false, NULL),
	    (512.0 + 64) * 61 * 2, 0);
	near(cell("deepseek-ai/DeepSeek-V3", 16, 1, 16, true, "fp8_e5m2"),
	    (512.0 + 64) * 61, 0);
	near(cell("deepseek-ai/DeepSeek-V2-Lite", 1, 1, 1, false, NULL),
	    (512.0 + 64) * 27 * 2, 0);
	/* DSA: the latent layout plus the indexer's key (128) and scale (4);
	 * "auto" is bf16 below SM 100 (H200), fp8 from it (B200) */
	near(cell("deepseek-ai/DeepSeek-V3.2-Exp", 8, 1, 1, false, NULL),
	    ((512.0 + 64) * 2 + 132) * 61, 0);
	near(cell_on("deepseek-ai/DeepSeek-V3.2", "B200", 8, 1, NULL),
	    (512.0 + 16 + 64 * 2 + 132) * 61, 0);
	near(cell_on("deepseek-ai/DeepSeek-V3.2", "H200", 8, 1, "fp8_e4m3"),
	    (512.0 + 16 + 64 * 2 + 132) * 61, 0);
	near(cell_on("deepseek-ai/DeepSeek-V3.2", "B200", 8, 2, "bf16"),
	    ((512.0 + 64) * 2 + 132) * 31, 0);
	/* ROCm reads the raw fp8 latent; auto is bf16 there */
	near(cell_on("deepseek-ai/DeepSeek-V3.2", "MI355X", 8, 1, "fp8_e4m3"),
	    (512.0 + 64 + 132) * 61, 0);
	near(cell_on("deepseek-ai/DeepSeek-V3.2", "MI355X", 8, 1, NULL),
	    ((512.0 + 64) * 2 + 132) * 61, 0);
	/* a linear-attention hybrid: KV in its 12 full-attention layers only
	 * (2 KV heads of 256), one head a rank from TP 2 */
	near(cell("Qwen/Qwen3-Next-80B-A3B-Instruct", 1, 1, 1, false, NULL),
	    2.0 * 2 * 256 * 12 * 2, 0);
	near(cell("Qwen/Qwen3-Next-80B-A3B-Thinking", 4, 1, 1, false, NULL),
	    2.0 * 1 * 256 * 12 * 2, 0);
	/* and 1 / 1.9 of the pool: the states take the rest */
	{
		struct fit_params	p;
		struct fit_result	r;

		fit_params_init(&p);
		p.tp = 4;
		p.free_gib = 130;
		p.mem_fraction_static = 0.8;
		fit_estimate(model("Qwen/Qwen3-Next-80B-A3B-Instruct"),
		    gpu("H200"), &p, &r);
		assert_true(r.kv_tokens.known);
		near(r.kv_tokens.v, floor(r.kv_pool.v / 1.9 / 12288.0), 0);
		near(fit_kv_share(model("Qwen/Qwen3-8B")), 1, 0);
	}
	/* SGLang takes only bf16 or fp8_e4m3 for DSA */
	{
		struct fit_params	p;
		struct fit_result	r;

		fit_params_init(&p);
		p.kv_cache_dtype = "fp8_e5m2";
		fit_estimate(model("deepseek-ai/DeepSeek-V3.2"), gpu("B200"), &p,
		    &r);
		assert_false(r.kv_per_token.known);
		assert_non_null(strstr(r.kv_per_token.why, "DSA"));
	}
}

/* ---- weights per GPU ---- */

static double
weights(const char *id, int tp, int pp, int dp, bool dpattn)
{
	struct fit_params	p;
	struct fit_result	r;

	fit_params_init(&p);
	p.tp = tp;
	p.pp = pp;
	p.dp = dp;
	p.dp_attention = dpattn;
	fit_estimate(model(id), NULL, &p, &r);
	if (!r.weights.known)
		fail_msg("%s: %s", id, r.weights.why);
	return r.weights.v - BUFS;	/* the parameters' bytes */
}

static void
test_weights(void **state)
{
	double	fp8 = 1 + 4.0 / 16384;
	double	dense, want;

	(void)state;
	near(weights("meta-llama/Llama-3.1-8B-Instruct", 1, 1, 1, false),
	    8030261248.0 * 2, 1);
	near(weights("meta-llama/Llama-3.1-70B-Instruct", 4, 1, 1, false),
	    70553706496.0 * 2 / 4, 1);
	/* DeepSeek-V3 FP8 at TP8: experts and the rest split 8 ways, the
	 * MLA down-projections whole on each rank, bf16 embedding + head */
	dense = 671026419200.0 - 653908770816.0 - 1853358080.0 - 923467776.0;
	want = 653908770816.0 * fp8 / 8 + 923467776.0 * fp8 +
	    dense * fp8 / 8 + 1853358080.0 * 2 / 8;
	near(weights("deepseek-ai/DeepSeek-V3", 8, 1, 1, false), want, 1);
	/* about 84 GB (10^9) per GPU before any KV cache */
	near(want / 1e9, 84.9, 0.1);
	/* DP attention 8: attention and dense layers, input embedding whole */
	want = 653908770816.0 * fp8 / 8 + 923467776.0 * fp8 + dense * fp8 +
	    1853358080.0 / 2 * 2 + 1853358080.0 / 2 * 2 / 8;
	near(weights("deepseek-ai/DeepSeek-V3", 8, 1, 8, true), want, 1);
	/* pipeline: half the layers, the larger end's vocab matrix */
	want = (8030261248.0 - 1050673152.0) * 2 / 2 + 1050673152.0;
	near(weights("meta-llama/Llama-3.1-8B-Instruct", 1, 2, 1, false),
	    want, 1);
	/* MXFP4 experts: 4.25 bits per parameter */
	want = 114701598720.0 * 0.53125 +
	    (116829156672.0 - 114701598720.0) * 2;
	near(weights("openai/gpt-oss-120b", 1, 1, 1, false), want, 1);
	/* tied embeddings are one matrix */
	near(weights("Qwen/Qwen3-0.6B", 1, 1, 1, false), 596049920.0 * 2, 1);
}

/* ---- SGLang's default mem_fraction_static ---- */

static sgver_t
release(const char *v)
{
	sgver_t	r = sgver_parse(v, NULL, 0);

	if (r == SGVER_UNKNOWN)
		fail_msg("bad release %s", v);
	return r;
}

static void
test_default_fraction(void **state)
{
	struct fit_params	p;

	(void)state;
	/* SGLang main (no release given), no PD role, a non-MLA model on
	 * CUDA: the prefill graph adds 8 MiB per capture size up to the
	 * chunk. Up to 8192: 8 (4..32) + 14 (48..256) + 8 (288..512) + 8
	 * (576..1024) + 12 (1280..4096) + 8 (4608..8192) = 58 sizes. */
	fit_params_init(&p);
	/* H100 TP1: 512 + 8192 x 1.5 + 256 x 2 + 1 x 1024 / 8 + 58 x 8
	 * = 13904 MiB; (81559 - 13904) / 81559 = 0.8295 */
	near(fit_default_mem_fraction(81559, &p), 0.830, 1e-9);
	/* H200 TP8: 512 + 12288 + 512 x 2 + 1024 + 464 = 15312 MiB */
	p.tp = 8;
	near(fit_default_mem_fraction(143771, &p), 0.893, 1e-9);
	/* DP attention adds 3 x bs x dp, and 1.5 x bs x dp above bs 300 */
	p.dp_attention = true;
	p.dp = 8;
	near(fit_default_mem_fraction(143771, &p),
	    round((143771 - (15312 + 512 * 8 * 4.5)) / 143771.0 * 1000) /
	    1000, 1e-9);
	/* a small GPU: chunk 2048, bs 24, 42 capture sizes up to 2048; the
	 * 10 GiB floor does not apply */
	fit_params_init(&p);
	near(fit_default_mem_fraction(23034, &p),
	    round((23034 - (512 + 3072 + 48 + 128 + 42 * 8)) / 23034.0 *
	    1000) / 1000, 1e-9);
	/* 0.5.3 - 0.5.9: no prefill graph term; more than 60 GiB: at least
	 * 10 GiB reserved; EAGLE adds 2 GiB on top */
	p.sglang = release("0.5.9");
	near(fit_default_mem_fraction(81559, &p),
	    round((81559 - 13440) / 81559.0 * 1000) / 1000, 1e-9);
	p.chunked_prefill_size = 2048;
	p.cuda_graph_max_bs = 8;
	p.speculative = FS_DRAFT;
	near(fit_default_mem_fraction(81559, &p),
	    round((81559 - 12288) / 81559.0 * 1000) / 1000, 1e-9);
}

/*
 * The PD roles at SGLang main (server_args.py _handle_gpu_memory_settings,
 * reserve_for_graph_mb, reserve_for_deepep_a2a_mb), for the case:
 * DeepSeek-V3 (MLA) on H200 (143771 MiB), TP 8, DP attention 8, decode
 * graph max bs 512 (>= 90 GiB class, TP >= 4), chunk 8192.
 */
static void
test_fraction_roles(void **state)
{
	struct fit_params	p;

	(void)state;
	fit_params_init(&p);
	p.tp = 8;
	p.dp = 8;
	p.dp_attention = true;
	p.mla = true;
	/* decode: activations max(512 running x 1 draft token, 2048) x 1.5
	 * = 3072; 512 + 3072 + 1024 (TP 8) = 4608; decode graph 512 x 2 =
	 * 1024; DP attention 512 x 8 x 3 + 512 x 8 x 1.5 = 18432; no
	 * prefill graph: 24064 MiB; (143771 - 24064) / 143771 = 0.8326 */
	p.role = FR_DECODE;
	near(fit_default_mem_fraction(143771, &p), 0.833, 1e-9);
	/* with DeepEP: + 2048 for its all-to-all buffers after the floor:
	 * 26112 -> 0.8184 */
	p.deepep = p.moe_a2a = true;
	near(fit_default_mem_fraction(143771, &p), 0.818, 1e-9);
	/* MTP with 4 draft tokens and 1024 running requests: activations
	 * 4096 x 1.5 = 6144; 512 + 6144 + 1024 + 1024 + 18432 + 2048 =
	 * 29184 -> 0.7970 */
	p.max_running_requests = 1024;
	p.spec_draft_tokens = 4;
	near(fit_default_mem_fraction(143771, &p), 0.797, 1e-9);
	/* prefill: 512 + 8192 x 1.5 + 1024 = 13824; no decode graph, no DP
	 * attention term; the MLA prefill graph 1536: 15360 -> 0.8932 */
	fit_params_init(&p);
	p.tp = 8;
	p.dp = 8;
	p.dp_attention = true;
	p.mla = true;
	p.role = FR_PREFILL;
	near(fit_default_mem_fraction(143771, &p), 0.893, 1e-9);
	/* with DeepEP: the breakable prefill graph adds 1024 (the decode
	 * graph's 2048 is not there): 16384 -> 0.8860 */
	p.deepep = p.moe_a2a = true;
	near(fit_default_mem_fraction(143771, &p), 0.886, 1e-9);
	/* no role, DeepEP: 13824 + 1024 + 18432 + 1536 + 1024 = 35840,
	 * + 2048 = 37888 -> 0.7365 */
	p.role = FR_NONE;
	near(fit_default_mem_fraction(143771, &p), 0.736, 1e-9);
	/* --disable-cuda-graph: no graph terms, DP attention stays:
	 * 13824 + 18432 = 32256 -> 0.7756 */
	p.disable_cuda_graph = true;
	near(fit_default_mem_fraction(143771, &p), 0.776, 1e-9);
}

/* Older releases' defaults (each release's server_args.py). */
/* A vision tower lowers the default fraction: Kimi-K2.5's MoonViT (27 x
 * 1152) on an MI355X at 0.5.8.post1, as its log has it (0.8260405859375). */
static void
test_vision_factor(void **state)
{
	const struct fit_model	*kimi = model("moonshotai/Kimi-K2.5");
	struct fit_params	 p;

	(void)state;
	fit_params_init(&p);
	p.tp = 8;
	p.sglang = release("0.5.8.post1");
	near(fit_default_mem_fraction(gpu("MI355X")->memory_gb * 1024, &p) *
	    fit_vision_factor(kimi, &p), 0.8260405859375, 1e-9);
	near(fit_vision_factor(model("meta-llama/Llama-3.1-8B-Instruct"), &p),
	    1, 1e-12);
	p.sglang = release("0.4.9.post2");	/* before the adjustment */
	near(fit_vision_factor(kimi, &p), 1, 1e-12);
	p.sglang = SGVER_UNKNOWN;		/* main: not for a decode server */
	p.role = FR_DECODE;
	near(fit_vision_factor(kimi, &p), 1, 1e-12);
	p.role = FR_PREFILL;
	near(fit_vision_factor(kimi, &p), 0.95 * (1 - 0.1 * (27.0 * 1152 *
	    1152 / (24.0 * 1024 * 1024) - 1)), 1e-12);
}

static void
test_fraction_releases(void **state)
{
	struct fit_params	p;

	(void)state;
	/* 0.4.6: by TP size up to 80 GiB, else 13 GiB reserved */
	fit_params_init(&p);
	p.sglang = release("0.4.6");
	near(fit_default_mem_fraction(81559, &p), 0.88, 1e-9);
	p.tp = 4;
	near(fit_default_mem_fraction(81559, &p), 0.85, 1e-9);
	near(fit_default_mem_fraction(143771, &p),
	    (143771 - 13312) / 143771.0, 1e-9);
	/* before 0.4.5.post3 the table held on any GPU; TP 8 was 0.83 before
	 * 0.3.6 and 0.82 in 0.3.6.x */
	p.sglang = release("0.4.5.post2");
	near(fit_default_mem_fraction(143771, &p), 0.85, 1e-9);
	p.sglang = release("0.3.3");
	p.tp = 1;
	near(fit_default_mem_fraction(196608, &p), 0.88, 1e-9);
	p.tp = 8;
	near(fit_default_mem_fraction(81559, &p), 0.83, 1e-9);
	p.sglang = release("0.3.6.post1");
	near(fit_default_mem_fraction(81559, &p), 0.82, 1e-9);
	p.sglang = release("0.4.0");
	near(fit_default_mem_fraction(81559, &p), 0.81, 1e-9);
	/* 0.5.1: by class; H200 TP 8: (12 + 8 / 2) GiB, DP attention
	 * + 4 GiB: 20480 -> 0.8575 */
	p.sglang = release("0.5.1");
	p.tp = 8;
	p.dp = 8;
	p.dp_attention = true;
	near(fit_default_mem_fraction(143771, &p), 0.858, 1e-9);
	/* H100 TP 1: (9.5 + 0.5) GiB -> 0.8744 */
	fit_params_init(&p);
	p.sglang = release("0.5.1");
	near(fit_default_mem_fraction(81559, &p), 0.874, 1e-9);
	/* 0.5.13.post2 is role-blind: the DeepSeek-V3 case is
	 * 512 + 12288 + 1024 + 1024 + 18432 = 33280 (the piecewise graph is
	 * off under DP attention) -> 0.7685 for prefill and decode */
	fit_params_init(&p);
	p.sglang = release("0.5.13.post2");
	p.tp = 8;
	p.dp = 8;
	p.dp_attention = true;
	p.mla = true;
	p.role = FR_DECODE;
	near(fit_default_mem_fraction(143771, &p), 0.769, 1e-9);
	p.role = FR_PREFILL;
	near(fit_default_mem_fraction(143771, &p), 0.769, 1e-9);
	/* its piecewise graph on by default (no role, no DP attention): an
	 * MLA model 1.5 GiB; EAGLE 4 GiB after the floor. H100 TP 1: 512 +
	 * 12288 + 512 + 128 + 1536 = 14976 + 4096 = 19072 -> 0.7662 */
	fit_params_init(&p);
	p.sglang = release("0.5.13.post2");
	p.mla = true;
	p.speculative = FS_DRAFT;
	near(fit_default_mem_fraction(81559, &p), 0.766, 1e-9);
}

/* The launch flags that move memory besides parallelism (SGLang main:
 * pool_configurator.py's cell sizes, kv_cache_configurator.py's token cap,
 * the online quantization methods). */
static void
test_accounting(void **state)
{
	const struct fit_model	*llama = model("meta-llama/Llama-3.1-8B-Instruct");
	const struct fit_model	*dsv3 = model("deepseek-ai/DeepSeek-V3");
	struct fit_params	 p;
	struct fit_result	 a, b;

	(void)state;
	/* --quantization fp8 on a bf16 checkpoint: linear layers 1 byte,
	 * the embeddings and head stay bf16 */
	fit_params_init(&p);
	fit_estimate(llama, gpu("H100"), &p, &a);
	p.quantization = "fp8";
	fit_estimate(llama, gpu("H100"), &p, &b);
	assert_true(a.weights.known && b.weights.known);
	near(b.weights.v, a.weights.v - (llama->params_total -
	    llama->embed_params) * 1.0, 1);
	assert_true(b.kv_tokens.v > a.kv_tokens.v);
	/* on an FP8 checkpoint it changes nothing */
	fit_params_init(&p);
	p.tp = 8;
	fit_estimate(dsv3, gpu("H200"), &p, &a);
	p.quantization = "fp8";
	fit_estimate(dsv3, gpu("H200"), &p, &b);
	near(b.weights.v, a.weights.v, 0);
	/* --max-total-tokens caps the pool */
	fit_params_init(&p);
	p.max_total_tokens = 100000;
	fit_estimate(llama, gpu("H100"), &p, &a);
	near(a.kv_tokens.v, 100000, 0);
	assert_true(a.kv_capped);
	near(a.kv_pool.v, 100000.0 * 131072, 0);
	p.max_total_tokens = 100000000;
	fit_estimate(llama, gpu("H100"), &p, &a);
	assert_false(a.kv_capped);
	/* FP4 KV: half a byte per value and a one-byte scale per 16. MLA:
	 * 576 x 61 / 2 + 576 / 16 x 61 = 17568 + 2196 = 19764 */
	fit_params_init(&p);
	p.tp = 8;
	p.kv_cache_dtype = "fp4_e2m1";
	fit_estimate(dsv3, gpu("H200"), &p, &a);
	near(a.kv_per_token.v, 19764, 0);
	/* MHA (8 KV heads x 128, 32 layers): 2 x 8 x 128 x 32 / 2 = 32768,
	 * scales 65536 / 16 = 4096, one FP8 K+V workspace 2 x 8 x 128 = 2048 */
	fit_params_init(&p);
	p.kv_cache_dtype = "fp4_e2m1";
	fit_estimate(llama, gpu("H100"), &p, &a);
	near(a.kv_per_token.v, 32768 + 4096 + 2048, 0);
	/* MXFP8: one byte per value, a scale per 32: 65536 + 2048 */
	p.kv_cache_dtype = "mxfp8";
	fit_estimate(llama, gpu("H100"), &p, &a);
	near(a.kv_per_token.v, 65536 + 2048, 0);
	/* --cpu-offload-gb 4: 4 GiB of the weights stay on the host */
	fit_params_init(&p);
	fit_estimate(llama, gpu("H100"), &p, &a);
	p.cpu_offload_gb = 4;
	fit_estimate(llama, gpu("H100"), &p, &b);
	near(b.weights.v, a.weights.v - 4 * FIT_GIB, 1);
	/* KTransformers: 8 of DeepSeek-V3's 256 routed experts per layer on
	 * the GPUs, the rest on the CPU */
	fit_params_init(&p);
	p.tp = 8;
	fit_estimate(dsv3, gpu("H200"), &p, &a);
	p.kt = true;
	fit_estimate(dsv3, gpu("H200"), &p, &b);
	assert_false(b.weights.known);
	assert_non_null(strstr(b.weights.why, "kt-num-gpu-experts"));
	p.kt_gpu_experts = 8;
	fit_estimate(dsv3, gpu("H200"), &p, &b);
	near(b.weights.v, a.weights.v - dsv3->expert_params *
	    fit_dtype_bytes(dsv3->expert_dtype) * (256 - 8) / 256 / 8, 1);
	/* speculative: the cell grows by 1 + draft / target layers, 70272 x
	 * (1 + 1 / 61) = 71424; the draft's weights count against the pool */
	fit_params_init(&p);
	p.tp = 8;
	fit_estimate(dsv3, gpu("H200"), &p, &a);
	p.speculative = FS_DRAFT;
	p.draft_layers = 1;
	p.draft_weight_bytes = 3 * FIT_GIB;
	fit_estimate(dsv3, gpu("H200"), &p, &b);
	near(b.kv_per_token.v, 71424, 0);
	near(b.weights.v, a.weights.v + 3 * FIT_GIB, 1);
	assert_false(b.draft_estimated);
	/* an EAGLE/NextN draft without its facts: one layer of the target,
	 * estimated and said so */
	p.draft_layers = 0;
	p.draft_weight_bytes = -1;
	fit_estimate(dsv3, gpu("H200"), &p, &b);
	near(b.kv_per_token.v, 71424, 0);
	assert_true(b.draft_estimated && b.draft_weights.known);
	near(b.draft_weights.v, (a.weights.v - BUFS - dsv3->embed_params / 2 *
	    2 / 8) / 61, 1e6);
	assert_non_null(strstr(b.summary, "draft"));
	/* STANDALONE without the draft's facts: could not check */
	p.speculative = FS_STANDALONE;
	fit_estimate(dsv3, gpu("H200"), &p, &b);
	assert_false(b.kv_per_token.known);
	assert_false(b.weights.known);
	/* NGRAM has no draft model */
	p.speculative = FS_NGRAM;
	fit_estimate(dsv3, gpu("H200"), &p, &b);
	near(b.kv_per_token.v, 70272, 0);
	near(b.weights.v, a.weights.v, 0);
}

/* The margin for what is allocated after the pool: within it the verdict
 * is tight, not fits. */
static void
test_tight(void **state)
{
	const struct fit_model	*dsv3 = model("deepseek-ai/DeepSeek-V3");
	const struct fit_model	*llama = model("meta-llama/Llama-3.1-8B-Instruct");
	struct fit_params	 p;
	struct fit_result	 r;

	(void)state;
	/* the margin: 512 metadata + decode graph 512 x 2 + DP attention
	 * 512 x 8 x 4.5 + the MLA prefill graph 1536 = 21504 MiB */
	fit_params_init(&p);
	p.tp = 8;
	p.dp = 8;
	p.dp_attention = true;
	p.mla = true;
	near(fit_post_pool_mib(143771, &p), 21504, 0);
	/* with SGLang's default fraction the pool leaves more than that
	 * (fit_estimate takes MLA from the model) */
	assert_int_equal(fit_estimate(dsv3, gpu("H200"), &p, &r), FV_FITS);
	assert_true(r.headroom.known && r.margin.known);
	near(r.margin.v, 21504 * MIB, 0);
	near(r.headroom.v, r.free_before.v * (1 - r.mem_fraction.v), 1);
	assert_true(r.headroom.v > r.margin.v);
	/* 0.95 leaves 5% of about 139 GiB: tight, said with the figures */
	p.mem_fraction_static = 0.95;
	assert_int_equal(fit_estimate(dsv3, gpu("H200"), &p, &r), FV_TIGHT);
	assert_true(r.headroom.v < r.margin.v);
	assert_non_null(strstr(r.summary, "tight: 6.9 GiB free after the "
	    "pool, 21.0 GiB margin"));
	/* Llama-3.1-8B on H100 at TP 1: 512 + 256 x 2 + 58 prefill graph
	 * sizes x 8 = 1488 MiB; 0.98 of 79.6 GiB leaves 1.59 GiB, 0.99 not */
	fit_params_init(&p);
	p.mem_fraction_static = 0.98;
	assert_int_equal(fit_estimate(llama, gpu("H100"), &p, &r), FV_FITS);
	near(r.margin.v, 1488 * MIB, 0);
	p.mem_fraction_static = 0.99;
	assert_int_equal(fit_estimate(llama, gpu("H100"), &p, &r), FV_TIGHT);
	/* a prefill server has no decode graph nor DP-attention padding */
	fit_params_init(&p);
	p.tp = 8;
	p.dp = 8;
	p.dp_attention = true;
	p.mla = true;
	p.role = FR_PREFILL;
	near(fit_post_pool_mib(143771, &p), 512 + 1536, 0);
}

/* ---- the acceptance cases ---- */

static void
test_acceptance(void **state)
{
	struct fit_params	p;
	struct fit_result	r;

	(void)state;
	fit_params_init(&p);
	p.tp = 8;
	p.context_len = 163840;
	/* DeepSeek-V3 FP8 at TP 8 on H100 80GB: the weights do not fit */
	assert_int_equal(fit_estimate(model("deepseek-ai/DeepSeek-V3"),
	    gpu("H100"), &p, &r), FV_NO_WEIGHTS);
	assert_true(r.weights.known);
	near((r.weights.v - BUFS) / 1e9, 84.9, 0.1);
	assert_non_null(strstr(r.summary, "does not fit"));
	print_message("  %s\n", r.summary);
	/* on H200: fits, with a KV estimate */
	assert_int_equal(fit_estimate(model("deepseek-ai/DeepSeek-V3"),
	    gpu("H200"), &p, &r), FV_FITS);
	assert_true(r.kv_tokens.known);
	assert_true(r.mem_fraction_derived);
	/* 512 + 12288 + 1024 + 1024 + 1536 (MLA prefill graph) = 16384 */
	near(r.mem_fraction.v, 0.886, 1e-9);
	near(r.kv_per_token.v, 70272, 0);
	assert_true(r.kv_tokens.v > 500000 && r.kv_tokens.v < 800000);
	assert_true(r.requests_at_context.known);
	print_message("  %s\n", r.summary);
	/* Llama-3.1-8B on one H100: a KV token count */
	fit_params_init(&p);
	p.context_len = 131072;
	assert_int_equal(fit_estimate(model("meta-llama/Llama-3.1-8B-Instruct"),
	    gpu("H100"), &p, &r), FV_FITS);
	assert_true(r.kv_tokens.known);
	assert_true(r.free_estimated);
	/* (0.830 x (81559 MiB - 1 GiB) - 8.03e9 x 2 - buffers) / 128 KiB */
	near(r.kv_tokens.v, floor((0.830 * (81559.0 * 1048576 - FIT_GIB) -
	    8030261248.0 * 2 - BUFS) / 131072), 0);
	print_message("  %s\n", r.summary);
}

/* ---- three-valued outputs ---- */

/* An FP8 MoE on gfx942 with SGLang <= 0.4.8.post1: could not check. */
static void
test_fnuz_experts(void **state)
{
	const struct fit_model	*r1 = model("deepseek-ai/DeepSeek-R1");
	struct fit_params	 p;
	struct fit_result	 r;

	(void)state;
	fit_params_init(&p);
	p.tp = 8;
	p.sglang = sgver_parse("0.4.8.post1", NULL, 0);
	assert_int_equal(fit_estimate(r1, gpu("MI300X"), &p, &r), FV_UNKNOWN);
	assert_false(r.weights.known);
	assert_non_null(strstr(r.weights.why, "sglang#7691"));
	/* a later release, SGLang main, gfx950, a bf16 model: estimated */
	p.sglang = sgver_parse("0.4.9", NULL, 0);
	fit_estimate(r1, gpu("MI300X"), &p, &r);
	assert_true(r.weights.known);
	p.sglang = 0;
	fit_estimate(r1, gpu("MI300X"), &p, &r);
	assert_true(r.weights.known);
	p.sglang = sgver_parse("0.4.8.post1", NULL, 0);
	fit_estimate(r1, gpu("MI355X"), &p, &r);
	assert_true(r.weights.known);
	p.tp = 1;
	fit_estimate(model("Qwen/Qwen3-30B-A3B"), gpu("MI300X"), &p, &r);
	assert_true(r.weights.known);
}

/* Grok-2's own rope caches: 65 of 131072 x 128, float32 on CUDA, bf16 on
 * HIP, whole on every rank; a local Grok1ForCausalLM config gets them. */
static void
test_rope_caches(void **state)
{
	const struct fit_model	*g2 = model("xai-org/grok-2");
	struct fit_params	 p;
	struct fit_result	 cuda, hip;
	struct fit_model	 m;
	char			 err[256];
	const char		*cfg;

	(void)state;
	fit_params_init(&p);
	p.tp = 8;
	fit_estimate(g2, gpu("H100"), &p, &cuda);
	fit_estimate(g2, gpu("MI300X"), &p, &hip);
	assert_true(cuda.weights.known && hip.weights.known);
	near(cuda.weights.v - hip.weights.v, 65.0 * 131072 * 128 * 2, 1);
	/* without them: the parameters (every one split 8 ways) and the load
	 * buffers */
	near(cuda.weights.v - 65.0 * 131072 * 128 * 4 - BUFS,
	    269515497472.0 * 2 / 8, 1);
	fit_estimate(model("Qwen/Qwen3-0.6B"), gpu("H100"), &p, &cuda);
	near(cuda.weights.v - BUFS, weights("Qwen/Qwen3-0.6B", 8, 1, 1, false),
	    1);
	cfg = "{\"architectures\": [\"Grok1ForCausalLM\"], "
	    "\"num_hidden_layers\": 64, \"max_position_embeddings\": 131072, "
	    "\"rope_type\": \"original\", "
	    "\"original_max_position_embeddings\": 8192, "
	    "\"scaling_factor\": 16.0}";
	assert_int_equal(fit_model_from_config("c.json", cfg, strlen(cfg), &m,
	    err, sizeof err), 1);
	assert_int_equal(m.rope_caches, 65);
	assert_int_equal(m.rope_cache_positions, 131072);
	fit_model_clear(&m);
}

static void
test_unknowns(void **state)
{
	struct fit_params	p;
	struct fit_result	r;

	(void)state;
	fit_params_init(&p);
	assert_int_equal(fit_estimate(NULL, gpu("H100"), &p, &r), FV_UNKNOWN);
	assert_false(r.weights.known);
	assert_string_equal(r.weights.why, "unknown: model");
	assert_false(r.kv_tokens.known);
	assert_true(r.capacity.known);
	/* no accelerator and no fraction: the pool is unknown, and says why */
	fit_estimate(model("meta-llama/Llama-3.1-8B-Instruct"), NULL, &p, &r);
	assert_true(r.weights.known);
	assert_true(r.kv_per_token.known);
	assert_false(r.kv_tokens.known);
	assert_non_null(strstr(r.kv_tokens.why, "accelerator"));
	/* a measured free memory and a given fraction need no accelerator */
	p.free_gib = 78.59;
	p.mem_fraction_static = 0.88;
	fit_estimate(model("meta-llama/Llama-3.1-8B-Instruct"), NULL, &p, &r);
	assert_true(r.kv_tokens.known);
	assert_false(r.free_estimated);
	/* a sliding-window model without its layer count */
	fit_params_init(&p);
	{
		struct fit_model	m = *model("openai/gpt-oss-120b");

		m.sliding_layers = 0;
		fit_estimate(&m, gpu("H100"), &p, &r);
		assert_true(r.weights.known);
		assert_true(r.kv_per_token.known);
		assert_false(r.kv_tokens.known);
		assert_false(r.swa_tokens.known);
		assert_non_null(strstr(r.kv_tokens.why, "sliding-window"));
		assert_non_null(strstr(r.summary, "sliding-window"));
		assert_int_equal(r.verdict, FV_UNKNOWN);
	}
	/* an unknown KV dtype */
	p.kv_cache_dtype = "int3";
	fit_estimate(model("meta-llama/Llama-3.1-8B-Instruct"), gpu("H100"),
	    &p, &r);
	assert_false(r.kv_per_token.known);
	assert_non_null(strstr(r.kv_per_token.why, "int3"));
	/* weights fit the GPU but not the static budget */
	fit_params_init(&p);
	p.mem_fraction_static = 0.15;
	assert_int_equal(fit_estimate(model("meta-llama/Llama-3.1-8B-Instruct"),
	    gpu("H100"), &p, &r), FV_NO_KV);
	near(r.kv_pool.v, 0, 0);
	/* a pool shorter than one request at the context length */
	fit_params_init(&p);
	p.mem_fraction_static = 0.3;
	p.context_len = 1000000;
	assert_int_equal(fit_estimate(model("meta-llama/Llama-3.1-8B-Instruct"),
	    gpu("H100"), &p, &r), FV_SHORT);
}

/* gpt-oss: half its layers slide; SGLang splits the pool between them */
static void
test_sliding_window(void **state)
{
	struct fit_params	p;
	struct fit_result	r;
	double			t, full;

	(void)state;
	fit_params_init(&p);
	fit_estimate(model("openai/gpt-oss-120b"), gpu("H200"), &p, &r);
	assert_true(r.kv_tokens.known);
	near(r.kv_per_token.v, 2.0 * 8 * 64 * 36 * 2, 0);
	t = floor(r.kv_pool.v / r.kv_per_token.v);
	full = floor(t * 36 / (0.8 * 18 + 18));
	near(r.kv_tokens.v, full, 0);
	near(r.swa_tokens.v, floor(full * 0.8), 0);
	print_message("  %s\n", r.summary);
	p.swa_full_tokens_ratio = 0.5;
	fit_estimate(model("openai/gpt-oss-120b"), gpu("H200"), &p, &r);
	near(r.kv_tokens.v, floor(t * 36 / (0.5 * 18 + 18)), 0);
	p.disable_hybrid_swa_memory = true;
	fit_estimate(model("openai/gpt-oss-120b"), gpu("H200"), &p, &r);
	near(r.kv_tokens.v, t, 0);
	assert_false(r.swa_tokens.known);
}

static void
test_hicache(void **state)
{
	struct fit_params	p;
	struct fit_result	r;

	(void)state;
	fit_params_init(&p);
	fit_estimate(model("meta-llama/Llama-3.1-8B-Instruct"), gpu("H100"),
	    &p, &r);
	assert_false(r.host_pool.known);
	p.hicache = true;
	fit_estimate(model("meta-llama/Llama-3.1-8B-Instruct"), gpu("H100"),
	    &p, &r);
	assert_true(r.host_pool.known);
	near(r.host_pool.v, 2.0 * r.kv_tokens.v * 131072, 0);
	near(r.host_tokens.v, 2.0 * r.kv_tokens.v, 0);
	p.hicache_ratio = 4;
	fit_estimate(model("meta-llama/Llama-3.1-8B-Instruct"), gpu("H100"),
	    &p, &r);
	near(r.host_tokens.v, 4.0 * r.kv_tokens.v, 0);
	p.hicache_size_gib = 100;
	fit_estimate(model("meta-llama/Llama-3.1-8B-Instruct"), gpu("H100"),
	    &p, &r);
	near(r.host_pool.v, 100 * FIT_GIB, 0);
	near(r.host_tokens.v, floor(100 * FIT_GIB / 131072), 0);
}

/* ---- a local model directory ---- */

static const char ds_config[] =
    "{\n"
    "  \"architectures\": [\"DeepseekV3ForCausalLM\"],\n"
    "  \"hidden_size\": 7168,\n"
    "  \"num_hidden_layers\": 61,\n"
    "  \"num_attention_heads\": 128,\n"
    "  \"num_key_value_heads\": 128,\n"
    "  \"kv_lora_rank\": 512,\n"
    "  \"qk_rope_head_dim\": 64,\n"
    "  \"n_routed_experts\": 256,\n"
    "  \"num_experts_per_tok\": 8,\n"
    "  \"torch_dtype\": \"bfloat16\",\n"
    "  \"tie_word_embeddings\": false,\n"
    "  \"q_lora_rank\": null,\n"
    "  \"quantization_config\": {\"activation_scheme\": \"dynamic\",\n"
    "    \"fmt\": \"e4m3\", \"quant_method\": \"fp8\",\n"
    "    \"weight_block_size\": [128, 128]}\n"
    "}\n";

static void
write_text(const char *path, const char *text)
{
	FILE	*f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void
test_local_dir(void **state)
{
	char			 dir[] = "/tmp/pdwiz-fit-XXXXXX";
	char			 err[512], *p;
	const char		*cfg;
	struct fit_model	 m;
	struct fit_params	 pa;
	struct fit_result	 r;

	(void)state;
	assert_int_equal(fit_model_from_config("c.json", ds_config,
	    strlen(ds_config), &m, err, sizeof err), 1);
	assert_string_equal(m.arch, "DeepseekV3ForCausalLM");
	assert_int_equal(m.layers, 61);
	assert_int_equal(m.kv_layout, FK_MLA);
	assert_int_equal(m.dtype, FD_FP8_BLOCK128);
	assert_int_equal(m.experts, 256);
	fit_params_init(&pa);
	pa.tp = 8;
	fit_estimate(&m, gpu("H200"), &pa, &r);
	assert_false(r.weights.known);	/* no checkpoint size */
	assert_true(r.kv_per_token.known);
	near(r.kv_per_token.v, 576.0 * 61 * 2, 0);
	assert_int_equal(m.vision_layers, 0);
	fit_model_clear(&m);
	/* a vision tower: its own names, MoonViT's vt_ ones, SGLang's 24 x
	 * 1024 for what is left out */
	cfg = "{\"architectures\": [\"X\"], \"num_hidden_layers\": 2, "
	    "\"vision_config\": {\"vt_num_hidden_layers\": 27, "
	    "\"vt_hidden_size\": 1152}}";
	assert_int_equal(fit_model_from_config("c.json", cfg, strlen(cfg),
	    &m, err, sizeof err), 1);
	assert_int_equal(m.vision_layers, 27);
	assert_int_equal(m.vision_hidden_size, 1152);
	fit_model_clear(&m);
	cfg = "{\"architectures\": [\"X\"], \"num_hidden_layers\": 2, "
	    "\"vision_config\": {\"depth\": 32, \"hidden_size\": 1280}}";
	assert_int_equal(fit_model_from_config("c.json", cfg, strlen(cfg),
	    &m, err, sizeof err), 1);
	assert_int_equal(m.vision_layers, 24);
	assert_int_equal(m.vision_hidden_size, 1280);
	fit_model_clear(&m);

	assert_non_null(mkdtemp(dir));
	assert_int_equal(fit_model_from_dir(dir, &m, err, sizeof err), 0);
	p = xasprintf("%s/config.json", dir);
	write_text(p, ds_config);
	free(p);
	p = xasprintf("%s/model.safetensors.index.json", dir);
	write_text(p, "{\"metadata\": {\"total_size\": 688586727753},\n"
	    " \"weight_map\": {\"a\": \"model-00001-of-000163.safetensors\"}}\n");
	assert_int_equal(fit_model_from_dir(dir, &m, err, sizeof err), 1);
	near(m.weight_bytes, 688586727753.0, 0);
	fit_estimate(&m, gpu("H100"), &pa, &r);
	assert_true(r.weights.known);
	near(r.weights.v, 688586727753.0 / 8 + BUFS, 1);
	assert_int_equal(r.verdict, FV_NO_WEIGHTS);
	/* DP attention needs the expert share, which a size alone lacks */
	pa.dp_attention = true;
	pa.dp = 8;
	fit_estimate(&m, gpu("H200"), &pa, &r);
	assert_false(r.weights.known);
	assert_non_null(strstr(r.weights.why, "expert share"));
	fit_model_clear(&m);
	unlink(p);
	free(p);
	/* no index: the .safetensors files */
	p = xasprintf("%s/model.safetensors", dir);
	write_text(p, "0123456789");
	assert_int_equal(fit_model_from_dir(dir, &m, err, sizeof err), 1);
	near(m.weight_bytes, 10, 0);
	fit_model_clear(&m);
	unlink(p);
	free(p);
	p = xasprintf("%s/config.json", dir);
	write_text(p, "{\"a\": 1, \"a\": 2}");
	assert_int_equal(fit_model_from_dir(dir, &m, err, sizeof err), -1);
	fit_model_clear(&m);
	unlink(p);
	free(p);
	rmdir(dir);
}

/*
 * The parameter counts a config.json implies equal the ones of
 * rules/model-sizes.yaml (which equal the model cards'): the two are
 * counted independently, so each checks the other.
 */
static const struct {
	const char	*id;
	const char	*config;
	double		 tol;	/* relative */
} configs[] = {
	{ "meta-llama/Llama-3.1-8B-Instruct",
	  "{\"architectures\": [\"LlamaForCausalLM\"], \"attention_bias\": false,"
	  " \"hidden_size\": 4096, \"intermediate_size\": 14336,"
	  " \"num_attention_heads\": 32, \"num_hidden_layers\": 32,"
	  " \"num_key_value_heads\": 8, \"tie_word_embeddings\": false,"
	  " \"torch_dtype\": \"bfloat16\", \"vocab_size\": 128256}", 0 },
	{ "Qwen/Qwen2.5-7B-Instruct",
	  "{\"architectures\": [\"Qwen2ForCausalLM\"], \"hidden_size\": 3584,"
	  " \"intermediate_size\": 18944, \"num_attention_heads\": 28,"
	  " \"num_hidden_layers\": 28, \"num_key_value_heads\": 4,"
	  " \"tie_word_embeddings\": false, \"torch_dtype\": \"bfloat16\","
	  " \"vocab_size\": 152064}", 0 },
	{ "Qwen/Qwen3-0.6B",
	  "{\"architectures\": [\"Qwen3ForCausalLM\"], \"head_dim\": 128,"
	  " \"hidden_size\": 1024, \"intermediate_size\": 3072,"
	  " \"num_attention_heads\": 16, \"num_hidden_layers\": 28,"
	  " \"num_key_value_heads\": 8, \"tie_word_embeddings\": true,"
	  " \"torch_dtype\": \"bfloat16\", \"vocab_size\": 151936}", 0 },
	{ "Qwen/Qwen3-30B-A3B",
	  "{\"architectures\": [\"Qwen3MoeForCausalLM\"], \"head_dim\": 128,"
	  " \"hidden_size\": 2048, \"intermediate_size\": 6144,"
	  " \"moe_intermediate_size\": 768, \"num_experts\": 128,"
	  " \"num_experts_per_tok\": 8, \"decoder_sparse_step\": 1,"
	  " \"mlp_only_layers\": [], \"num_attention_heads\": 32,"
	  " \"num_hidden_layers\": 48, \"num_key_value_heads\": 4,"
	  " \"tie_word_embeddings\": false, \"torch_dtype\": \"bfloat16\","
	  " \"vocab_size\": 151936}", 0 },
	{ "mistralai/Mixtral-8x7B-Instruct-v0.1",
	  "{\"architectures\": [\"MixtralForCausalLM\"], \"hidden_size\": 4096,"
	  " \"intermediate_size\": 14336, \"num_attention_heads\": 32,"
	  " \"num_experts_per_tok\": 2, \"num_hidden_layers\": 32,"
	  " \"num_key_value_heads\": 8, \"num_local_experts\": 8,"
	  " \"sliding_window\": null, \"tie_word_embeddings\": false,"
	  " \"torch_dtype\": \"bfloat16\", \"vocab_size\": 32000}", 0 },
	{ "deepseek-ai/DeepSeek-V3",
	  "{\"architectures\": [\"DeepseekV3ForCausalLM\"],"
	  " \"first_k_dense_replace\": 3, \"hidden_size\": 7168,"
	  " \"intermediate_size\": 18432, \"kv_lora_rank\": 512,"
	  " \"moe_intermediate_size\": 2048, \"moe_layer_freq\": 1,"
	  " \"n_routed_experts\": 256, \"n_shared_experts\": 1,"
	  " \"num_attention_heads\": 128, \"num_experts_per_tok\": 8,"
	  " \"num_hidden_layers\": 61, \"num_key_value_heads\": 128,"
	  " \"num_nextn_predict_layers\": 1, \"q_lora_rank\": 1536,"
	  " \"qk_nope_head_dim\": 128, \"qk_rope_head_dim\": 64,"
	  " \"tie_word_embeddings\": false, \"topk_method\": \"noaux_tc\","
	  " \"torch_dtype\": \"bfloat16\", \"v_head_dim\": 128,"
	  " \"vocab_size\": 129280, \"quantization_config\": {"
	  "\"activation_scheme\": \"dynamic\", \"fmt\": \"e4m3\","
	  " \"quant_method\": \"fp8\", \"weight_block_size\": [128, 128]}}", 0 },
	{ "deepseek-ai/DeepSeek-V3.2-Exp",
	  "{\"architectures\": [\"DeepseekV32ForCausalLM\"],"
	  " \"first_k_dense_replace\": 3, \"hidden_size\": 7168,"
	  " \"index_head_dim\": 128, \"index_n_heads\": 64,"
	  " \"index_topk\": 2048,"
	  " \"intermediate_size\": 18432, \"kv_lora_rank\": 512,"
	  " \"moe_intermediate_size\": 2048, \"moe_layer_freq\": 1,"
	  " \"n_routed_experts\": 256, \"n_shared_experts\": 1,"
	  " \"num_attention_heads\": 128, \"num_experts_per_tok\": 8,"
	  " \"num_hidden_layers\": 61, \"num_key_value_heads\": 128,"
	  " \"num_nextn_predict_layers\": 1, \"q_lora_rank\": 1536,"
	  " \"qk_nope_head_dim\": 128, \"qk_rope_head_dim\": 64,"
	  " \"tie_word_embeddings\": false, \"topk_method\": \"noaux_tc\","
	  " \"torch_dtype\": \"bfloat16\", \"v_head_dim\": 128,"
	  " \"vocab_size\": 129280, \"quantization_config\": {"
	  "\"activation_scheme\": \"dynamic\", \"fmt\": \"e4m3\","
	  " \"quant_method\": \"fp8\", \"weight_block_size\": [128, 128]}}", 0 },
	{ "deepseek-ai/DeepSeek-V2-Lite",
	  "{\"architectures\": [\"DeepseekV2ForCausalLM\"],"
	  " \"first_k_dense_replace\": 1, \"hidden_size\": 2048,"
	  " \"intermediate_size\": 10944, \"kv_lora_rank\": 512,"
	  " \"moe_intermediate_size\": 1408, \"moe_layer_freq\": 1,"
	  " \"n_routed_experts\": 64, \"n_shared_experts\": 2,"
	  " \"num_attention_heads\": 16, \"num_experts_per_tok\": 6,"
	  " \"num_hidden_layers\": 27, \"num_key_value_heads\": 16,"
	  " \"q_lora_rank\": null, \"qk_nope_head_dim\": 128,"
	  " \"qk_rope_head_dim\": 64, \"tie_word_embeddings\": false,"
	  " \"topk_method\": \"greedy\", \"torch_dtype\": \"bfloat16\","
	  " \"v_head_dim\": 128, \"vocab_size\": 102400}", 0 },
	/* int4 experts in groups of 32, the rest bf16; the quantization
	 * config kept with the text model */
	{ "moonshotai/Kimi-K2.5",
	  "{\"architectures\": [\"KimiK25ForConditionalGeneration\"],"
	  " \"model_type\": \"kimi_k25\", \"text_config\": {"
	  " \"first_k_dense_replace\": 1, \"hidden_size\": 7168,"
	  " \"intermediate_size\": 18432, \"kv_lora_rank\": 512,"
	  " \"moe_intermediate_size\": 2048, \"moe_layer_freq\": 1,"
	  " \"n_routed_experts\": 384, \"n_shared_experts\": 1,"
	  " \"num_attention_heads\": 64, \"num_experts_per_tok\": 8,"
	  " \"num_hidden_layers\": 61, \"num_key_value_heads\": 64,"
	  " \"q_lora_rank\": 1536, \"qk_nope_head_dim\": 128,"
	  " \"qk_rope_head_dim\": 64, \"tie_word_embeddings\": false,"
	  " \"topk_method\": \"noaux_tc\", \"torch_dtype\": \"bfloat16\","
	  " \"v_head_dim\": 128, \"vocab_size\": 163840,"
	  " \"quantization_config\": {\"quant_method\": \"compressed-tensors\","
	  " \"format\": \"pack-quantized\", \"config_groups\": {\"group_0\":"
	  " {\"targets\": [\"Linear\"], \"weights\": {\"num_bits\": 4,"
	  " \"group_size\": 32, \"strategy\": \"group\", \"type\": \"int\","
	  " \"symmetric\": true}}}, \"ignore\": [\"lm_head\","
	  " \"re:.*self_attn.*\", \"re:.*shared_experts.*\"]}}}", 0 },
	{ "Qwen/Qwen3-Next-80B-A3B-Instruct",
	  "{\"architectures\": [\"Qwen3NextForCausalLM\"],"
	  " \"decoder_sparse_step\": 1, \"dtype\": \"bfloat16\","
	  " \"full_attention_interval\": 4, \"head_dim\": 256,"
	  " \"hidden_size\": 2048, \"intermediate_size\": 5120,"
	  " \"linear_conv_kernel_dim\": 4, \"linear_key_head_dim\": 128,"
	  " \"linear_num_key_heads\": 16, \"linear_num_value_heads\": 32,"
	  " \"linear_value_head_dim\": 128, \"mlp_only_layers\": [],"
	  " \"moe_intermediate_size\": 512, \"num_attention_heads\": 16,"
	  " \"num_experts\": 512, \"num_experts_per_tok\": 10,"
	  " \"num_hidden_layers\": 48, \"num_key_value_heads\": 2,"
	  " \"shared_expert_intermediate_size\": 512,"
	  " \"tie_word_embeddings\": false, \"vocab_size\": 151936}", 0 },
	{ "zai-org/GLM-4.6",
	  "{\"architectures\": [\"Glm4MoeForCausalLM\"], \"attention_bias\": true,"
	  " \"first_k_dense_replace\": 3, \"head_dim\": 128,"
	  " \"hidden_size\": 5120, \"intermediate_size\": 12288,"
	  " \"moe_intermediate_size\": 1536, \"n_routed_experts\": 160,"
	  " \"n_shared_experts\": 1, \"num_attention_heads\": 96,"
	  " \"num_experts_per_tok\": 8, \"num_hidden_layers\": 92,"
	  " \"num_key_value_heads\": 8, \"num_nextn_predict_layers\": 1,"
	  " \"tie_word_embeddings\": false, \"torch_dtype\": \"bfloat16\","
	  " \"use_qk_norm\": true, \"vocab_size\": 151552}", 0 },
	{ "openai/gpt-oss-20b",
	  "{\"architectures\": [\"GptOssForCausalLM\"], \"attention_bias\": true,"
	  " \"head_dim\": 64, \"hidden_size\": 2880, \"intermediate_size\": 2880,"
	  " \"layer_types\": [\"sliding_attention\", \"full_attention\"],"
	  " \"num_attention_heads\": 64, \"num_experts_per_tok\": 4,"
	  " \"num_hidden_layers\": 24, \"num_key_value_heads\": 8,"
	  " \"num_local_experts\": 32, \"tie_word_embeddings\": false,"
	  " \"vocab_size\": 201088, \"torch_dtype\": \"bfloat16\","
	  " \"quantization_config\": {\"quant_method\": \"mxfp4\"}}", 0.001 },
	/* expert biases and attention sinks are not counted (0.03%) */
	{ "openai/gpt-oss-120b",
	  "{\"architectures\": [\"GptOssForCausalLM\"], \"attention_bias\": true,"
	  " \"head_dim\": 64, \"hidden_size\": 2880, \"intermediate_size\": 2880,"
	  " \"layer_types\": [\"sliding_attention\", \"full_attention\"],"
	  " \"num_attention_heads\": 64, \"num_experts_per_tok\": 4,"
	  " \"num_hidden_layers\": 36, \"num_key_value_heads\": 8,"
	  " \"num_local_experts\": 128, \"tie_word_embeddings\": false,"
	  " \"vocab_size\": 201088, \"torch_dtype\": \"bfloat16\","
	  " \"quantization_config\": {\"quant_method\": \"mxfp4\"}}", 0.001 },
};

static void
test_config_params(void **state)
{
	size_t	i;

	(void)state;
	for (i = 0; i < sizeof configs / sizeof configs[0]; i++) {
		const struct fit_model	*want = model(configs[i].id);
		struct fit_model	 m;
		struct fit_params	 p;
		struct fit_result	 a, b;
		char			 err[256];

		assert_int_equal(fit_model_from_config(configs[i].id,
		    configs[i].config, strlen(configs[i].config), &m, err,
		    sizeof err), 1);
		print_message("  %-40s %.0f params, %.0f in experts\n",
		    configs[i].id, m.params_total, m.expert_params);
		near(m.params_total, want->params_total,
		    want->params_total * configs[i].tol);
		near(m.expert_params, want->expert_params,
		    want->expert_params * configs[i].tol);
		near(m.embed_params, want->embed_params, 0);
		near(m.replicated_params, want->replicated_params, 0);
		assert_int_equal(m.dtype, want->dtype);
		assert_int_equal(m.expert_dtype, want->dtype == FD_UNKNOWN ?
		    FD_UNKNOWN : want->expert_dtype ? want->expert_dtype :
		    want->dtype);
		assert_int_equal(m.kv_layout, want->kv_layout);
		assert_int_equal(m.index_head_dim, want->index_head_dim);
		assert_int_equal(m.linear_layers, want->linear_layers);
		/* and so the same estimate */
		fit_params_init(&p);
		p.tp = 8;
		fit_estimate(&m, gpu("H200"), &p, &a);
		fit_estimate(want, gpu("H200"), &p, &b);
		assert_true(a.weights.known);
		near(a.weights.v, b.weights.v, b.weights.v *
		    (configs[i].tol + 1e-12));
		assert_int_equal(a.kv_per_token.known, b.kv_per_token.known);
		if (a.kv_per_token.known)
			near(a.kv_per_token.v, b.kv_per_token.v, 0);
		fit_model_clear(&m);
	}
	/* int4 in groups of 128, or with the attention quantized too, is
	 * not a layout the estimate knows: the dtype is unknown */
	{
		static const char *const other[] = {
		    "{\"architectures\": [\"X\"], \"num_hidden_layers\": 2,"
		    " \"torch_dtype\": \"bfloat16\", \"quantization_config\":"
		    " {\"quant_method\": \"compressed-tensors\", \"config_groups\":"
		    " {\"g\": {\"weights\": {\"num_bits\": 4, \"group_size\": 128,"
		    " \"type\": \"int\"}}}, \"ignore\": [\"re:.*self_attn.*\"]}}",
		    "{\"architectures\": [\"X\"], \"num_hidden_layers\": 2,"
		    " \"torch_dtype\": \"bfloat16\", \"quantization_config\":"
		    " {\"quant_method\": \"compressed-tensors\", \"config_groups\":"
		    " {\"g\": {\"weights\": {\"num_bits\": 4, \"group_size\": 32,"
		    " \"type\": \"int\"}}}, \"ignore\": [\"lm_head\"]}}",
		};
		struct fit_model	 m;
		char			 err[256];

		for (i = 0; i < sizeof other / sizeof other[0]; i++) {
			assert_int_equal(fit_model_from_config("x", other[i],
			    strlen(other[i]), &m, err, sizeof err), 1);
			assert_int_equal(m.dtype, FD_UNKNOWN);
			fit_model_clear(&m);
		}
	}
}

/* ---- the data files' checks ---- */

static void
test_bad_data(void **state)
{
	struct fit_db	d;
	char		err[512];
	const char	*hw;

	(void)state;
	hw = "accelerators:\n  - name: X\n    platform: cuda\n    arch: sm90\n"
	    "    link: nvlink\n    memory_gb: 80\n    memory_bytes: 80\n"
	    "    source: s\n";
	assert_int_equal(fit_db_parse(&d, "hw", hw, strlen(hw), NULL, NULL, 0,
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "memory_bytes must be 85899345920"));
	hw = "accelerators:\n  - name: X\n    platfrom: cuda\n";
	assert_int_equal(fit_db_parse(&d, "hw", hw, strlen(hw), NULL, NULL, 0,
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "platfrom"));
	hw = "models:\n  - match: x\n    id: x\n    source: s\n    arch: A\n"
	    "    params_total: 10\n    expert_params: 20\n";
	assert_int_equal(fit_db_parse(&d, NULL, NULL, 0, "m", hw, strlen(hw),
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "exceed"));
	hw = "models:\n  - match: x\n    id: x\n    source: s\n    arch: A\n"
	    "    dtype: int7\n";
	assert_int_equal(fit_db_parse(&d, NULL, NULL, 0, "m", hw, strlen(hw),
	    err, sizeof err), -1);
	assert_non_null(strstr(err, "int7"));
	hw = "models:\n  - match: [x]\n    id: x\n    source: s\n    arch: A\n"
	    "    layers: -3\n";
	assert_int_equal(fit_db_parse(&d, NULL, NULL, 0, "m", hw, strlen(hw),
	    err, sizeof err), -1);
}

/* SGLang's 0.85 (0.90 in 0.5.4.post1) on the fraction for aiter with a
 * context over 8192 (server_args.py; model_runner.py from 0.4.7). */
static void
test_aiter_scale(void **state)
{
	const struct fit_model	*q06 = model("Qwen/Qwen3-0.6B");
	const struct fit_model	*l3 = model("meta-llama/Meta-Llama-3-8B-Instruct");
	const struct fit_model	*dsv3 = model("deepseek-ai/DeepSeek-V3");
	const struct fit_model	*kimi = model("moonshotai/Kimi-K2.5");
	const struct fit_gpu	*mi = gpu("MI355X"), *h100 = gpu("H100");
	struct fit_params	 p;

	(void)state;
	fit_params_init(&p);
	near(p.mem_fraction_scale, 1, 0);
	near(fit_aiter_scale(q06, mi, &p, NULL), 0.85, 1e-12);
	near(fit_aiter_scale(q06, h100, &p, NULL), 1, 0);
	near(fit_aiter_scale(q06, h100, &p, "aiter"), 0.85, 1e-12);
	near(fit_aiter_scale(q06, mi, &p, "triton"), 1, 0);
	near(fit_aiter_scale(l3, mi, &p, NULL), 1, 0);	/* 8192: not over */
	p.context_len = 16384;
	near(fit_aiter_scale(l3, mi, &p, NULL), 0.85, 1e-12);
	p.context_len = 0;
	p.tp = 8;			/* MLA: 128 KV heads / 8 = 16: aiter */
	near(fit_aiter_scale(dsv3, mi, &p, NULL), 0.85, 1e-12);
	near(fit_aiter_scale(kimi, mi, &p, NULL), 1, 0);	/* 64 / 8: triton */
	p.tp = 1;
	p.sglang = release("0.5.4.post1");
	near(fit_aiter_scale(q06, mi, &p, NULL), 0.90, 1e-12);
	p.sglang = release("0.4.6.post5");
	near(fit_aiter_scale(q06, mi, &p, NULL), 1, 0);
	p.sglang = release("0.4.7");
	near(fit_aiter_scale(q06, mi, &p, NULL), 0.85, 1e-12);
}

/* ---- calibration against real startup logs ---- */

/* The columns the unit test reads, by name (the table has more: the
 * end-to-end suite tests/fit/run.sh reads the command and GPU). */
enum { C_CASE, C_MODEL, C_GPU, C_TP, C_DP, C_DPATTN, C_FRAC, C_FREE, C_W,
	C_KV, C_EXPECT, C_NOTE, NCOLS };
static const char *const colname[NCOLS] = { "case", "model", "gpu", "tp",
	"dp", "dp_attention", "mem_fraction", "free_gib", "weights_gib",
	"kv_tokens", "expect", "note" };
#define MAXCOL	32

static int
split_tabs(char *line, char **col)
{
	int	n = 0;
	char	*s = line;

	while (n < MAXCOL) {
		col[n++] = s;
		if ((s = strchr(s, '\t')) == NULL)
			break;
		*s++ = '\0';
	}
	return n;
}

/* Where each column the test reads is in the header; fails on a missing
 * one. */
static void
header_index(char **hdr, int n, int *at)
{
	int	i, j;

	for (i = 0; i < NCOLS; i++) {
		at[i] = -1;
		for (j = 0; j < n; j++)
			if (strcmp(hdr[j], colname[i]) == 0)
				at[i] = j;
		if (at[i] < 0)
			fail_msg("calibration.tsv: no column '%s'", colname[i]);
	}
}

static bool
num(const char *s, double *v)
{
	char	*end;

	if (strcmp(s, "-") == 0)
		return false;
	*v = strtod(s, &end);
	if (*end != '\0')
		fail_msg("bad number '%s' in calibration.tsv", s);
	return true;
}

static const char *
pct(double v, char *buf, size_t len)
{
	if (isnan(v))
		return "-";
	snprintf(buf, len, "%.1f%%", v);
	return buf;
}

static void
test_calibration(void **state)
{
	char	*path = xasprintf("%s/tests/fit/calibration.tsv", datadir());
	char	 err[512], *text, *line, *save = NULL;
	size_t	 len;
	int	 rows = 0, checked_w = 0, checked_kv = 0, misses = 0;
	int	 fails = 0, ncol = 0, at[NCOLS];

	(void)state;
	text = read_file(path, 1 << 20, &len, err, sizeof err);
	if (text == NULL)
		fail_msg("%s", err);
	print_message("%-26s %-7s %8s %8s %7s  %9s %9s %7s  %s\n", "case",
	    "free", "W log", "W est", "W err", "KV log", "KV est", "KV err",
	    "expect");
	for (line = strtok_r(text, "\n", &save); line != NULL;
	    line = strtok_r(NULL, "\n", &save)) {
		char			*all[MAXCOL];
		const char		*c[NCOLS];
		int			 i, n;
		const struct fit_model	*m;
		const struct fit_gpu	*g = NULL;
		struct fit_params	 p;
		struct fit_result	 r;
		double			 wlog = 0, tlog = 0, v;
		double			 werr = NAN, terr = NAN;
		bool			 hw, ht, goal;
		char			 wbuf[16] = "-", tbuf[16] = "-";
		char			 we[16], te[16];

		if (line[0] == '#')
			continue;
		n = split_tabs(line, all);
		if (ncol == 0) {
			header_index(all, n, at);
			ncol = n;
			continue;
		}
		if (n != ncol)
			fail_msg("calibration.tsv: %d columns, not %d, in '%s'",
			    n, ncol, all[0]);
		for (i = 0; i < NCOLS; i++)
			c[i] = all[at[i]];
		rows++;
		/* a model the table lacks: its row must say miss */
		m = fit_model_find(&db, c[C_MODEL]);
		if (strcmp(c[C_GPU], "-") != 0)
			g = gpu(c[C_GPU]);
		fit_params_init(&p);
		p.tp = atoi(c[C_TP]);
		p.dp = atoi(c[C_DP]);
		p.dp_attention = atoi(c[C_DPATTN]) != 0;
		if (strcmp(c[C_FRAC], "default") != 0 && num(c[C_FRAC], &v))
			p.mem_fraction_static = v;
		if (num(c[C_FREE], &v))
			p.free_gib = v;
		hw = num(c[C_W], &wlog);
		ht = num(c[C_KV], &tlog);
		goal = strcmp(c[C_EXPECT], "goal") == 0;
		if (strcmp(c[C_FRAC], "-") == 0)
			ht = false;	/* no fraction: KV not comparable */
		if (g == NULL && p.free_gib < 0)
			ht = false;	/* nor without the free memory */
		fit_estimate(m, g, &p, &r);
		if (hw && r.weights.known) {
			werr = (r.weights.v / FIT_GIB - wlog) / wlog * 100;
			snprintf(wbuf, sizeof wbuf, "%.2f",
			    r.weights.v / FIT_GIB);
			checked_w++;
		}
		if (ht && r.kv_tokens.known) {
			terr = (r.kv_tokens.v - tlog) / tlog * 100;
			snprintf(tbuf, sizeof tbuf, "%.0f", r.kv_tokens.v);
			checked_kv++;
		}
		print_message("%-26s %-7s %8s %8s %7s  %9s %9s %7s  %s\n",
		    c[C_CASE], strcmp(c[C_FREE], "-") ? "log" : "hw", c[C_W], wbuf,
		    pct(werr, we, sizeof we), c[C_KV], tbuf,
		    pct(terr, te, sizeof te), c[C_EXPECT]);
		if (!goal) {
			misses++;
			print_message("%26s note: %s\n", "", c[C_NOTE]);
			continue;
		}
		if (hw && !r.weights.known) {
			print_message("  %s: weights %s\n", c[C_CASE],
			    r.weights.why);
			fails++;
		}
		if (ht && !r.kv_tokens.known) {
			print_message("  %s: KV %s\n", c[C_CASE], r.kv_tokens.why);
			fails++;
		}
		/* the load filled the card (avail mem 0.00 after it): the
		 * logged figure is what the card held, a floor (check.py) */
		if (!isnan(werr) && p.free_gib >= 0 && p.free_gib == wlog) {
			if (werr < -5) {
				print_message("  %s: weights %.1f%% below the "
				    "card's floor\n", c[C_CASE], werr);
				fails++;
			}
		} else if (!isnan(werr) && fabs(werr) > 5) {
			print_message("  %s: weights off by %.1f%%\n", c[C_CASE],
			    werr);
			fails++;
		}
		if (!isnan(terr) && fabs(terr) > 15) {
			print_message("  %s: KV tokens off by %.1f%%\n", c[C_CASE],
			    terr);
			fails++;
		}
	}
	print_message("%d rows (%d weights, %d KV compared; %d listed as "
	    "misses)\n", rows, checked_w, checked_kv, misses);
	free(text);
	free(path);
	assert_true(rows >= 10);
	assert_int_equal(fails, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_gpu_names),
		cmocka_unit_test(test_gpu_facts),
		cmocka_unit_test(test_model_names),
		cmocka_unit_test(test_kv_cell),
		cmocka_unit_test(test_weights),
		cmocka_unit_test(test_default_fraction),
		cmocka_unit_test(test_fraction_roles),
		cmocka_unit_test(test_fraction_releases),
		cmocka_unit_test(test_vision_factor),
		cmocka_unit_test(test_accounting),
		cmocka_unit_test(test_tight),
		cmocka_unit_test(test_acceptance),
		cmocka_unit_test(test_fnuz_experts),
		cmocka_unit_test(test_rope_caches),
		cmocka_unit_test(test_unknowns),
		cmocka_unit_test(test_sliding_window),
		cmocka_unit_test(test_hicache),
		cmocka_unit_test(test_local_dir),
		cmocka_unit_test(test_config_params),
		cmocka_unit_test(test_bad_data),
		cmocka_unit_test(test_aiter_scale),
		cmocka_unit_test(test_calibration),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
