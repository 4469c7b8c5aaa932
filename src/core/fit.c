/* fit.c - will it fit: weights, KV cache and memory per GPU, before launch. */
#include "fit_int.h"
#include "util.h"
#include "ydoc.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>


/*
 * Memory a process holds before its weights load: the CUDA (HIP, CANN)
 * context and allocator, then what distributed init adds. Both estimates
 * come from SGLang startup logs (tests/fit/calibration.tsv): one rank
 * starts about 1 GiB below the reported total; "Init torch distributed
 * ends. mem usage" is about 2 GiB on an NVLink fabric (custom all-reduce
 * and NCCL buffers) and about 0.15 GiB over PCIe.
 */
#define CONTEXT_GIB	1.0
#define DIST_FABRIC_GIB	2.0
#define DIST_PCIE_GIB	0.15

/*
 * What SGLang's "Load weight end. mem usage" counts beyond the parameters:
 * the buffers the model's modules allocate as they are built (rotary
 * caches, norms' and samplers' work tensors) and the allocator's rounding.
 * Over the 13 dense bf16 TP-1 rows of tests/fit/calibration.tsv the logged
 * figure exceeds the parameters' bytes by 0.02 to 0.21 GiB, median 0.09
 * (more at TP 4: 0.20 to 0.28); 0.1 GiB per GPU is that median. It matters
 * only for small models (Qwen3-0.6B: 1.11 GiB of parameters, 1.25 logged).
 * FIT_LOAD_BUFFERS_GIB (fit.h) is added to every known weights figure.
 */

/* ---- the estimate ---- */

void
fit_params_init(struct fit_params *p)
{
	memset(p, 0, sizeof *p);
	p->tp = p->pp = p->ep = p->dp = 1;
	p->mem_fraction_static = -1;
	p->max_prefill_tokens = 16384;
	p->page_size = 1;
	p->free_gib = -1;
	p->draft_weight_bytes = -1;
	p->kt_gpu_experts = -1;
	p->mem_fraction_scale = 1;
}

static void
known(struct fit_val *v, double x)
{
	v->known = true;
	v->v = x;
	v->why[0] = '\0';
}

static void
unknown(struct fit_val *v, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static void
unknown(struct fit_val *v, const char *fmt, ...)
{
	va_list	ap;

	v->known = false;
	v->v = 0;
	va_start(ap, fmt);
	vsnprintf(v->why, sizeof v->why, fmt, ap);
	va_end(ap);
}

/* Propagate: dst is unknown for the reason src is. */
static void
unknown_as(struct fit_val *dst, const struct fit_val *src)
{
	dst->known = false;
	dst->v = 0;
	snprintf(dst->why, sizeof dst->why, "%s", src->why);
}

/* The number of prefill (piecewise) CUDA graph sizes SGLang captures up
 * to maxt tokens: steps of 4 to 32, 16 to 256, 32 to 512, 64 to 1024, 256
 * to 4096, then 512. */
static long
prefill_graph_sizes(long maxt)
{
	long	n = 0, s;

	for (s = 4; s <= 32 && s <= maxt; s += 4)
		n++;
	for (s = 48; s <= 256 && s <= maxt; s += 16)
		n++;
	for (s = 288; s <= 512 && s <= maxt; s += 32)
		n++;
	for (s = 576; s <= 1024 && s <= maxt; s += 64)
		n++;
	for (s = 1280; s <= 4096 && s <= maxt; s += 256)
		n++;
	for (s = 4608; s <= maxt; s += 512)
		n++;
	return n;
}

/*
 * How SGLang has chosen mem_fraction_static when it is not given, by the
 * first release of each way (read in each release's server_args.py):
 *   ERA_TP_TABLE  up to 0.4.7: a table by TP size (0.88 at TP 1 ... 0.79
 *                 at TP 16; TP 8 0.83 before 0.3.6, 0.82 in 0.3.6.x, 0.81
 *                 from 0.4.0); from 0.4.5.post3 only for GPUs up to 80 GiB,
 *                 a larger one keeps 13 GiB
 *   ERA_CLASS     0.4.8 - 0.5.2: a reserve by memory class and parallel size
 *   ERA_TERMS     0.5.3 - 0.5.9: a reserve summed from activations, graphs,
 *                 parallel size and DP attention, with a 10 GiB floor
 *   ERA_PIECEWISE 0.5.10 - 0.5.13.post2: the same with the piecewise CUDA
 *                 graph on by default (1.5 GiB for an MLA model); EAGLE
 *                 reserves 4 GiB instead of 2
 *   ERA_ROLES     after 0.5.13.post2 (SGLang main): the reserve depends on
 *                 the PD role; a decode server sizes activations by its
 *                 running requests, a prefill server keeps no decode graph
 */
enum mf_era { ERA_TP_TABLE, ERA_CLASS, ERA_TERMS, ERA_PIECEWISE, ERA_ROLES };

static enum mf_era
mf_era(sgver_t v)
{
	if (v == SGVER_UNKNOWN)
		return ERA_ROLES;
	if (sgver_cmp(v, sgver_parse("0.4.8", NULL, 0)) < 0)
		return ERA_TP_TABLE;
	if (sgver_cmp(v, sgver_parse("0.5.3", NULL, 0)) < 0)
		return ERA_CLASS;
	if (sgver_cmp(v, sgver_parse("0.5.10", NULL, 0)) < 0)
		return ERA_TERMS;
	if (sgver_cmp(v, sgver_parse("0.5.13.post2", NULL, 0)) <= 0)
		return ERA_PIECEWISE;
	return ERA_ROLES;
}

/* 0.4.8 - 0.5.2: MiB reserved by memory class, plus fixed terms. */
static double
class_reserve(double gpu_mib, const struct fit_params *p)
{
	double	par = (double)p->tp * p->pp;
	double	r;

	if (gpu_mib < 35 * 1024)
		r = (2.8 + par / 10) * 1024;
	else if (gpu_mib < 90 * 1024)
		r = (9.5 + par / 2) * 1024;
	else if (gpu_mib < 160 * 1024)
		r = (12 + par / 2) * 1024;
	else
		r = 32 * 1024;
	if (p->speculative == FS_STANDALONE && sgver_cmp(p->sglang,
	    sgver_parse("0.5.2", NULL, 0)) >= 0)
		r += 6 * 1024;
	else if (p->speculative != FS_NONE)
		r += 2 * 1024;
	if (p->dp_attention)
		r += 4 * 1024;
	return r;
}

/* 0.5.10 - 0.5.13.post2 turn the piecewise graph off, before the memory
 * defaults, for these (the ones a launch command shows). */
static bool
piecewise_default_on(const struct fit_params *p)
{
	return !p->disable_piecewise && !p->disable_cuda_graph &&
	    !p->dp_attention && p->pp <= 1 && !p->non_cuda && !p->moe_a2a &&
	    p->cpu_offload_gb <= 0 && !p->hicache && p->role == FR_NONE;
}

/* SGLang main's prefill graph (breakable on CUDA) is off for these. */
static bool
prefill_graph_on(const struct fit_params *p)
{
	return !p->disable_cuda_graph && !p->disable_prefill_graph &&
	    p->role != FR_DECODE && !p->non_cuda &&
	    (!p->moe_a2a || p->deepep);
}

/*
 * The MiB SGLang's summed reserve keeps out of the static pool (0.5.3 and
 * later); *graphs gets its part for what is allocated after the pool:
 * backend metadata, CUDA graphs (decode, DP attention padding, prefill or
 * piecewise) and DeepEP's buffers, not the activations.
 */
static double
term_reserve(double gpu_mib, const struct fit_params *p, enum mf_era era,
    double *graphs)
{
	long		chunk = p->chunked_prefill_size;
	int		bs = p->cuda_graph_max_bs;
	double		reserved, act, g = 512;
	bool		decode_graph;

	/* chunked_prefill_size and the decode graph's max batch by class */
	if (gpu_mib < 20 * 1024) {
		if (chunk == 0)
			chunk = 2048;
		if (bs == 0)
			bs = 8;
	} else if (gpu_mib < 35 * 1024) {
		if (chunk == 0)
			chunk = 2048;
		if (bs == 0)
			bs = p->tp < 4 ? 24 : 80;
	} else if (gpu_mib < 60 * 1024) {
		if (chunk == 0)
			chunk = 4096;
		if (bs == 0)
			bs = p->tp < 4 ? 32 : 160;
	} else if (gpu_mib < 160 * 1024) {
		if (chunk == 0)
			chunk = 8192;
		if (bs == 0)
			bs = p->tp < 4 ? 256 : 512;
	} else {
		if (chunk == 0)
			chunk = 16384;
		if (bs == 0)
			bs = 512;
	}
	/* the tokens the activation working set scales with */
	if (era == ERA_ROLES && p->role == FR_DECODE)
		act = (double)(p->max_running_requests > 0 ?
		    p->max_running_requests : bs) *
		    (p->spec_draft_tokens > 0 ? p->spec_draft_tokens : 1);
	else if (chunk > 0)
		act = (double)chunk;
	else
		act = (double)p->max_prefill_tokens;
	if (act < 2048)
		act = 2048;
	/* MiB held outside the static pool: metadata, activations, graphs */
	reserved = act * 1.5 + p->tp * p->pp / 8.0 * 1024;
	decode_graph = era != ERA_ROLES || (!p->disable_cuda_graph &&
	    !p->disable_decode_graph && p->role != FR_PREFILL);
	if (decode_graph)
		g += bs * 2.0;
	if (p->dp_attention && (era != ERA_ROLES || p->role != FR_PREFILL)) {
		g += (double)bs * p->dp * 3;
		if (bs > 300)
			g += (double)bs * p->dp * 1.5;
	}
	if ((era == ERA_TERMS && p->piecewise_cuda_graph) ||
	    (era == ERA_PIECEWISE && (p->piecewise_cuda_graph ||
	    piecewise_default_on(p)))) {
		long	maxt = p->piecewise_cuda_graph_max_tokens ?
		    p->piecewise_cuda_graph_max_tokens : chunk;

		if (p->max_total_tokens > 0 && p->max_total_tokens < maxt)
			maxt = p->max_total_tokens;
		if (era == ERA_PIECEWISE && p->mla)
			g += 1.5 * 1024;
		else
			g += prefill_graph_sizes(maxt) * 8.0;
	}
	if (era == ERA_ROLES && prefill_graph_on(p)) {
		long	maxt = chunk;

		if (p->max_total_tokens > 0 && p->max_total_tokens < maxt)
			maxt = p->max_total_tokens;
		g += p->mla ? 1.5 * 1024 : prefill_graph_sizes(maxt) * 8.0;
		if (p->deepep)
			g += 1024;
	}
	reserved += g;
	if (gpu_mib > 60 * 1024 && reserved < 10 * 1024)
		reserved = 10 * 1024;
	if (era == ERA_ROLES) {
		/* DeepEP's all-to-all buffers in the decode graph */
		if (p->deepep && decode_graph) {
			reserved += 2 * 1024;
			g += 2 * 1024;
		}
	} else if (p->speculative == FS_STANDALONE)
		reserved += 6 * 1024;
	else if (p->speculative == FS_DRAFT)
		reserved += (era == ERA_PIECEWISE ? 4 : 2) * 1024;
	if (graphs != NULL)
		*graphs = g;
	return reserved;
}

double
fit_default_mem_fraction(double gpu_mib, const struct fit_params *p)
{
	enum mf_era	era = mf_era(p->sglang);

	if (era == ERA_TP_TABLE) {
		double	tp8 = 0.81;

		if (gpu_mib > 81920 && sgver_cmp(p->sglang,
		    sgver_parse("0.4.5.post3", NULL, 0)) >= 0)
			return (gpu_mib - 13 * 1024) / gpu_mib;
		if (sgver_cmp(p->sglang, sgver_parse("0.3.6", NULL, 0)) < 0)
			tp8 = 0.83;
		else if (sgver_cmp(p->sglang, sgver_parse("0.4.0", NULL, 0)) < 0)
			tp8 = 0.82;
		return p->tp >= 16 ? 0.79 : p->tp >= 8 ? tp8 : p->tp >= 4 ?
		    0.85 : p->tp >= 2 ? 0.87 : 0.88;
	}
	if (era == ERA_CLASS)
		return round((gpu_mib - class_reserve(gpu_mib, p)) / gpu_mib *
		    1000) / 1000;
	return round((gpu_mib - term_reserve(gpu_mib, p, era, NULL)) /
	    gpu_mib * 1000) / 1000;
}

double
fit_post_pool_mib(double gpu_mib, const struct fit_params *p)
{
	enum mf_era	era = mf_era(p->sglang);
	double		g;

	/* before 0.5.3 SGLang did not sum the terms; they are main's */
	term_reserve(gpu_mib, p, era < ERA_TERMS ? ERA_ROLES : era, &g);
	return g;
}

static double
gpu_capacity(const struct fit_gpu *g)
{
	return g->reported_mib > 0 ? g->reported_mib * MIB :
	    g->memory_gb * FIT_GIB;
}

double
fit_free_before(const struct fit_gpu *g, int world)
{
	double	over = CONTEXT_GIB;

	if (world > 1)
		over += g->link == FL_PCIE ? DIST_PCIE_GIB : DIST_FABRIC_GIB;
	return gpu_capacity(g) - over * FIT_GIB;
}

static long
ceil_div(long a, long b)
{
	return (a + b - 1) / b;
}

/*
 * The model as an online --quantization stores it: a 16- or 32-bit
 * checkpoint's linear and MoE layers become fp8 (or mxfp8), or only its
 * MoE layers mxfp4; embeddings and the output head keep their dtype. A
 * checkpoint already quantized is left as it is.
 */
static void
online_quant(struct fit_model *m, const char *q)
{
	enum fit_dtype	dense = FD_UNKNOWN, expert = FD_UNKNOWN;

	if (q == NULL || m->dtype == FD_UNKNOWN ||
	    fit_dtype_bytes(m->dtype) < 2)
		return;
	if (strcmp(q, "fp8") == 0)
		dense = expert = FD_FP8;
	else if (strcmp(q, "mxfp8") == 0)
		dense = expert = FD_MXFP8;
	else if (strcmp(q, "mxfp4") == 0)
		expert = FD_MXFP4;
	else
		return;
	if (m->embed_dtype == FD_UNKNOWN)
		m->embed_dtype = m->dtype;
	if (m->expert_dtype == FD_UNKNOWN)
		m->expert_dtype = m->dtype;
	if (dense != FD_UNKNOWN)
		m->dtype = dense;
	if (expert != FD_UNKNOWN && fit_dtype_bytes(m->expert_dtype) >= 2)
		m->expert_dtype = expert;
}

/* Bytes of weights one GPU holds. */
static void
weights_per_gpu(const struct fit_model *m, const struct fit_params *p,
    struct fit_val *w)
{
	double	db = fit_dtype_bytes(m->dtype);
	double	eb = fit_dtype_bytes(m->expert_dtype);
	double	bb = fit_dtype_bytes(m->embed_dtype ? m->embed_dtype :
	    m->dtype);
	int	attn_tp = p->dp_attention && p->dp > 0 ? p->tp / p->dp : p->tp;
	double	expert, dense, repl, emb_in, emb_out, layers_share;

	if (attn_tp < 1)
		attn_tp = 1;
	if (m->params_total <= 0 || (m->dtype == FD_UNKNOWN &&
	    m->weight_bytes > 0)) {
		/* only the checkpoint's bytes: split evenly */
		if (m->weight_bytes <= 0) {
			unknown(w, "unknown: weight size of %s", m->id);
			return;
		}
		if (p->dp_attention) {
			unknown(w, "unknown: expert share of %s (dp attention "
			    "replicates the rest)", m->id);
			return;
		}
		known(w, m->weight_bytes / p->tp / p->pp);
		return;
	}
	if (m->dtype == FD_UNKNOWN) {
		unknown(w, "unknown: weight dtype of %s", m->id);
		return;
	}
	if (m->expert_params < 0) {
		unknown(w, "unknown: expert parameters of %s", m->id);
		return;
	}
	if (m->expert_params > 0 && (m->experts <= 0 ||
	    eb == 0)) {
		unknown(w, "unknown: expert count or dtype of %s", m->id);
		return;
	}
	/* routed experts: spread over every rank (EP groups x MoE TP) */
	expert = 0;
	if (m->expert_params > 0)
		expert = m->expert_params * eb *
		    (double)(m->experts + p->ep_redundant_experts) /
		    (double)m->experts / p->tp;
	/* KTransformers: only the GPU experts of each layer are here */
	if (p->kt && m->expert_params > 0) {
		if (p->kt_gpu_experts < 0) {
			unknown(w, "unknown: --kt-num-gpu-experts (experts of "
			    "%s kept on the GPUs)", m->id);
			return;
		}
		expert = m->expert_params * eb * (p->kt_gpu_experts <
		    m->experts ? (double)p->kt_gpu_experts : m->experts) /
		    (double)m->experts / p->tp;
	}
	repl = m->replicated_params * db;
	dense = (m->params_total - m->expert_params - m->embed_params -
	    m->replicated_params) * db / attn_tp;
	/* input embedding and output head; a tied pair is one tensor */
	if (m->tied_embeddings) {
		emb_in = m->embed_params * bb / p->tp;
		emb_out = 0;
	} else {
		emb_in = m->embed_params / 2 * bb /
		    (p->dp_attention ? 1 : p->tp);
		emb_out = m->embed_params / 2 * bb / p->tp;
	}
	layers_share = 1;
	if (p->pp > 1) {
		if (m->layers <= 0) {
			unknown(w, "unknown: layer count of %s", m->id);
			return;
		}
		layers_share = (double)ceil_div(m->layers, p->pp) /
		    (double)m->layers;
		/* the first stage embeds, the last projects to the vocab */
		known(w, (expert + repl + dense) * layers_share +
		    (emb_in > emb_out ? emb_in : emb_out));
		return;
	}
	known(w, expert + repl + dense + emb_in + emb_out);
}

static double
kv_dtype_bytes(const char *s, bool *ok)
{
	*ok = true;
	if (s == NULL || strcmp(s, "auto") == 0 || strcmp(s, "bf16") == 0 ||
	    strcmp(s, "bfloat16") == 0 || strcmp(s, "fp16") == 0 ||
	    strcmp(s, "float16") == 0 || strcmp(s, "half") == 0)
		return 2;
	if (strcmp(s, "fp8_e4m3") == 0 || strcmp(s, "fp8_e5m2") == 0 ||
	    strcmp(s, "fp8") == 0 || strcmp(s, "mxfp8") == 0)
		return 1;
	if (strcmp(s, "fp4_e2m1") == 0)
		return 0.5;
	*ok = false;
	return 0;
}

/* Bytes of KV cache per token on one GPU. */
static void
kv_cell(const struct fit_model *m, const struct fit_params *p,
    struct fit_val *c)
{
	bool	ok;
	double	b = kv_dtype_bytes(p->kv_cache_dtype, &ok);
	int	attn_tp = p->dp_attention && p->dp > 0 ? p->tp / p->dp : p->tp;
	bool	fp4 = p->kv_cache_dtype != NULL &&
	    strcmp(p->kv_cache_dtype, "fp4_e2m1") == 0;
	bool	mxfp8 = p->kv_cache_dtype != NULL &&
	    strcmp(p->kv_cache_dtype, "mxfp8") == 0;
	long	layers, heads;
	double	dim, cell;

	if (attn_tp < 1)
		attn_tp = 1;
	if (!ok) {
		unknown(c, "unknown: size of kv-cache-dtype %s",
		    p->kv_cache_dtype);
		return;
	}
	if (m->layers <= 0) {
		unknown(c, "unknown: layer count of %s", m->id);
		return;
	}
	layers = ceil_div(m->layers, p->pp);
	switch (m->kv_layout) {
	case FK_MLA:
		if (m->kv_lora_rank <= 0 || m->qk_rope_head_dim <= 0) {
			unknown(c, "unknown: kv_lora_rank/qk_rope_head_dim "
			    "of %s", m->id);
			return;
		}
		/* the latent and the rope key, whole on every rank; FP4
		 * adds a one-byte scale per 16 of them */
		dim = (double)(m->kv_lora_rank + m->qk_rope_head_dim);
		cell = dim * layers * b;
		if (fp4)
			cell += floor(dim / 16) * layers;
		known(c, cell);
		return;
	case FK_MHA:
	case FK_HYBRID_SWA:
		/* a sliding-window model sizes its pools from this cell too */
		if (m->kv_heads <= 0 || m->head_dim <= 0) {
			unknown(c, "unknown: KV heads/head_dim of %s", m->id);
			return;
		}
		/* KV heads split over attention TP, at least one each */
		heads = m->kv_heads / attn_tp;
		if (heads < 1)
			heads = 1;
		cell = 2.0 * heads * m->head_dim * layers * b;
		/* FP4: a one-byte scale per 16 values, and one shared FP8
		 * dequantisation workspace (K and V of one layer); MXFP8: a
		 * scale per 32 */
		if (fp4)
			cell += 2.0 * heads * m->head_dim * layers / 16 +
			    2.0 * heads * m->head_dim;
		else if (mxfp8)
			cell += 2.0 * heads * m->head_dim * layers / 32;
		known(c, cell);
		return;
	case FK_HYBRID_LINEAR:	/* fit_estimate: its full-attention layers */
	case FK_UNKNOWN:
		break;
	}
	unknown(c, "unknown: attention layout of %s", m->id);
}

/*
 * Speculative decoding with a draft model: SGLang scales the target's KV
 * cell by 1 + draft layers / target layers (the draft keeps its own KV
 * with the target's per-layer size), and the draft's weights are resident
 * when the pool is sized. Without the draft's own facts, an EAGLE, EAGLE3
 * or NextN/MTP draft is taken as one layer of the target sharing its
 * embeddings and output head (an estimate, and said so).
 */
static void
draft(const struct fit_model *m, const struct fit_params *p,
    struct fit_result *r)
{
	long		dl = p->draft_layers;
	long		layers = ceil_div(m->layers, p->pp);
	struct fit_model body;
	struct fit_val	bw;

	unknown(&r->draft_weights, "unknown: no draft model");
	if (p->speculative != FS_DRAFT && p->speculative != FS_STANDALONE)
		return;
	if (dl <= 0 && p->speculative == FS_DRAFT) {
		dl = 1;
		r->draft_estimated = true;
	}
	if (dl <= 0 || m->layers <= 0) {
		unknown(&r->kv_per_token, "unknown: the draft model's layers");
		unknown_as(&r->draft_weights, &r->kv_per_token);
	} else if (r->kv_per_token.known)
		known(&r->kv_per_token, floor(r->kv_per_token.v *
		    (1 + (double)dl / (double)layers)));
	if (p->draft_weight_bytes >= 0)
		known(&r->draft_weights, p->draft_weight_bytes);
	else if (p->speculative == FS_DRAFT && m->layers > 0) {
		body = *m;
		body.embed_params = 0;
		body.weight_bytes = m->weight_bytes > 0 &&
		    m->params_total <= 0 ? m->weight_bytes : 0;
		weights_per_gpu(&body, p, &bw);
		if (bw.known) {
			known(&r->draft_weights, bw.v * (p->pp > 1 ?
			    (double)m->layers / ceil_div(m->layers, p->pp) :
			    1) / m->layers);
			r->draft_estimated = true;
		} else
			unknown_as(&r->draft_weights, &bw);
	} else
		unknown(&r->draft_weights, "unknown: the draft model's size");
	if (!r->weights.known)
		return;
	if (r->draft_weights.known)
		known(&r->weights, r->weights.v + r->draft_weights.v);
	else
		unknown_as(&r->weights, &r->draft_weights);
}

/*
 * An FP8 (e4m3fn) MoE checkpoint on a gfx942 part (MI300X, MI308X, MI325X:
 * e4m3fnuz hardware) with SGLang up to 0.4.8.post1: the one such startup
 * log pdwiz has (sglang#7691, DeepSeek-R1 at TP 8 with DP attention, EP
 * MoE and AITER on MI300X) held 166.59 GiB per GPU where the checkpoint
 * is 92 GiB, about its experts twice, while the experts were converted
 * for the hardware; and SGLang then found no room for the pool. What such
 * a server holds is not known from its command: could not check. Later
 * releases and other parts (gfx950 reads e4m3fn) are estimated as usual.
 */
static void
fnuz_experts(const struct fit_model *m, const struct fit_gpu *g,
    const struct fit_params *p, struct fit_result *r)
{
	enum fit_dtype	e = m->expert_dtype;

	if (g == NULL || g->arch == NULL || strcmp(g->arch, "gfx942") != 0 ||
	    m->expert_params <= 0 || (e != FD_FP8 && e != FD_FP8_BLOCK128) ||
	    p->sglang == 0 || sgver_cmp(p->sglang, sgver_parse("0.4.8.post1",
	    NULL, 0)) > 0 || !r->weights.known)
		return;
	unknown(&r->weights, "unknown: SGLang <= 0.4.8.post1 held an FP8 "
	    "MoE's experts twice on %s (sglang#7691)", g->name);
}

/*
 * The cos/sin caches a model class builds for itself, beside the one
 * get_rope shares among the layers (inside FIT_LOAD_BUFFERS_GIB): SGLang's
 * models/grok.py makes a ScalingRotaryEmbedding in every layer for
 * Grok-2's rope_type "original", each [positions, head_dim] and held whole
 * on every rank. RotaryEmbedding keeps a cache in float32 on CUDA ("cache
 * needs to be in FP32 for numerical stability") and casts it to the
 * model's dtype (bf16) elsewhere (layers/rotary_embedding.py).
 */
static double
rope_cache_bytes(const struct fit_model *m, const struct fit_params *p)
{
	if (m->rope_caches <= 0 || m->rope_cache_positions <= 0 ||
	    m->head_dim <= 0)
		return 0;
	return (double)m->rope_caches * (double)m->rope_cache_positions *
	    (double)m->head_dim * (p->non_cuda ? 2 : 4);
}

/*
 * The weights while they load. SGLang's default loader creates the
 * parameters of an online-quantized layer (--quantization fp8 of a bf16
 * checkpoint ...) in the checkpoint's own dtype, loads every one, and only
 * then quantizes module by module (model_loader/loader.py,
 * load_weights_and_postprocess; layers/quantization/fp8.py create_weights):
 * the load needs the stored size. Without online quantization it is the
 * weights figure itself.
 */
static void
load_peak(const struct fit_model *m, const struct fit_params *p,
    struct fit_result *r)
{
	struct fit_params	q = *p;
	double			off = p->cpu_offload_gb * FIT_GIB;

	if (!r->online_quant || !r->weights.known) {
		r->load = r->weights;
		return;
	}
	q.quantization = NULL;
	weights_per_gpu(m, &q, &r->load);
	if (!r->load.known)
		return;
	if (r->draft_weights.known)
		r->load.v += r->draft_weights.v;
	if (off > 0)
		r->load.v = r->load.v > off ? r->load.v - off : 0;
	r->load.v += FIT_LOAD_BUFFERS_GIB * FIT_GIB + rope_cache_bytes(m, p);
}

/* --cpu-offload-gb keeps up to that much of each GPU's weights in host
 * memory. */
static void
offload(const struct fit_params *p, struct fit_result *r)
{
	double	off = p->cpu_offload_gb * FIT_GIB;

	if (off > 0 && r->weights.known)
		known(&r->weights, r->weights.v > off ? r->weights.v - off : 0);
}

static void
summarize(const struct fit_model *m, const struct fit_gpu *g,
    const struct fit_params *p, struct fit_result *r)
{
	struct buf	 b = { 0 };
	char		*s;

	buf_printf(&b, "%s on %s, tp %d", m ? m->id : "(model?)",
	    g ? g->name : "(GPU?)", p->tp);
	if (p->pp > 1)
		buf_printf(&b, " pp %d", p->pp);
	if (p->ep > 1)
		buf_printf(&b, " ep %d", p->ep);
	if (p->dp_attention)
		buf_printf(&b, " dp-attention %d", p->dp);
	buf_puts(&b, ": ");
	if (!r->weights.known) {
		buf_printf(&b, "weights %s", r->weights.why);
	} else {
		buf_printf(&b, "weights %.1f GiB/GPU", r->weights.v / FIT_GIB);
		if (r->draft_weights.known)
			buf_printf(&b, " (draft %.1f GiB%s)",
			    r->draft_weights.v / FIT_GIB, r->draft_estimated ?
			    ", estimated as one target layer" : "");
		if (r->online_quant && r->load.known)
			buf_printf(&b, " (%.1f GiB while they load, before "
			    "--quantization %s)", r->load.v / FIT_GIB,
			    p->quantization);
		if (r->verdict == FV_NO_WEIGHTS)
			buf_printf(&b, " exceed the %.1f GiB free%s: does "
			    "not fit", r->free_before.v / FIT_GIB,
			    r->free_estimated ? " (estimated)" : "");
		else if (r->verdict == FV_NO_KV)
			buf_printf(&b, " exceed the static budget %.3f x "
			    "%.1f GiB: no KV cache", r->mem_fraction.v,
			    r->free_before.v / FIT_GIB);
		else if (!r->kv_tokens.known)
			buf_printf(&b, "; KV %s", r->kv_tokens.why);
		else {
			buf_printf(&b, ", mem-fraction-static %.3f%s, KV pool "
			    "%.1f GiB, %.0f B/token -> %.0f tokens",
			    r->mem_fraction.v, r->mem_fraction_derived ?
			    " (SGLang default)" : "", r->kv_pool.v / FIT_GIB,
			    r->kv_per_token.v, r->kv_tokens.v);
			if (r->kv_capped)
				buf_puts(&b, " (--max-total-tokens)");
			if (r->swa_tokens.known)
				buf_printf(&b, " in full-attention layers, "
				    "%.0f in window layers", r->swa_tokens.v);
			if (r->requests_at_context.known)
				buf_printf(&b, " (%.1f requests of %ld)",
				    r->requests_at_context.v, p->context_len);
			if (r->host_tokens.known)
				buf_printf(&b, ", host pool %.1f GiB %.0f "
				    "tokens", r->host_pool.v / FIT_GIB,
				    r->host_tokens.v);
			if (r->verdict == FV_TIGHT)
				buf_printf(&b, "; tight: %.1f GiB free after "
				    "the pool, %.1f GiB margin for CUDA graphs "
				    "and workspaces", r->headroom.v / FIT_GIB,
				    r->margin.v / FIT_GIB);
			if (r->free_estimated)
				buf_puts(&b, " [free memory estimated]");
		}
	}
	s = buf_steal(&b);
	snprintf(r->summary, sizeof r->summary, "%s", s);
	free(s);
}

/*
 * The KV cell of the layouts kv_cell leaves to others: a linear-attention
 * hybrid's KV is in its full-attention layers only; a DSA model has its own
 * latent layout plus the indexer (fit_dsa_cell, fit_model.c).
 */
static void
layout_cell(const struct fit_model *m, const struct fit_gpu *g,
    const struct fit_params *p, struct fit_val *c)
{
	struct fit_model	full;

	if (m == NULL)
		return;
	if (m->kv_layout == FK_HYBRID_LINEAR) {
		full = *m;
		full.kv_layout = FK_MHA;
		full.layers = m->layers - m->linear_layers;
		if (m->linear_layers > 0 && full.layers > 0)
			kv_cell(&full, p, c);
		else
			unknown(c, "unknown: linear-attention layer count of "
			    "%s", m->id);
	}
	if (m->index_head_dim > 0 && c->known &&
	    !fit_dsa_cell(m, p->kv_cache_dtype, g, p->pp, &c->v))
		unknown(c, "unknown: kv-cache-dtype %s for DSA",
		    p->kv_cache_dtype);
}

/*
 * Tokens of the KV pool. A sliding-window model splits the same bytes
 * between its full-attention layers and its window layers, which hold
 * swa_full_tokens_ratio as many tokens:
 *   full x full_layers + ratio x full x window_layers = tokens x layers.
 */
static void
pool_tokens(const struct fit_model *m, const struct fit_params *p,
    struct fit_result *r)
{
	double	t = floor(r->kv_pool.v * fit_kv_share(m) / r->kv_per_token.v);
	double	page = (double)p->page_size;
	double	ratio = p->swa_full_tokens_ratio > 0 ?
	    p->swa_full_tokens_ratio : 0.8;
	double	full, ls, lf;

	if (m->kv_layout != FK_HYBRID_SWA || p->disable_hybrid_swa_memory) {
		known(&r->kv_tokens, floor(t / page) * page);
		unknown(&r->swa_tokens, "unknown: no sliding-window layers");
		return;
	}
	if (m->sliding_layers <= 0 || m->sliding_layers >= m->layers) {
		unknown(&r->kv_tokens, "unknown: sliding-window layer count "
		    "of %s", m->id);
		unknown_as(&r->swa_tokens, &r->kv_tokens);
		return;
	}
	ls = (double)m->sliding_layers;
	lf = (double)(m->layers - m->sliding_layers);
	full = floor(t * (double)m->layers / (ratio * ls + lf));
	known(&r->kv_tokens, floor(full / page) * page);
	known(&r->swa_tokens, floor(floor(full * ratio) / page) * page);
}

/*
 * SGLang 0.4.9.post3 and later lower a default fraction for a multimodal
 * model by its vision tower: x 0.95, and x (1 - 0.1 (c - 1)) held to
 * [0.8, 1.05], c being the tower's layers x hidden^2 over a ViT-L/14's
 * (24 x 1024^2). SGLang main leaves a PD decode server's fraction alone
 * (the encoder runs at prefill). 1 for a model without one.
 */
double
fit_vision_factor(const struct fit_model *m, const struct fit_params *p)
{
	double	c, f;

	if (m == NULL || m->vision_layers <= 0 || m->vision_hidden_size <= 0)
		return 1;
	if (p->sglang != SGVER_UNKNOWN && sgver_cmp(p->sglang,
	    sgver_parse("0.4.9.post3", NULL, 0)) < 0)
		return 1;
	if (mf_era(p->sglang) == ERA_ROLES && p->role == FR_DECODE)
		return 1;
	c = (double)m->vision_layers * m->vision_hidden_size *
	    m->vision_hidden_size / (24.0 * 1024 * 1024);
	f = 1 - 0.1 * (c - 1);
	if (f < 0.8)
		f = 0.8;
	if (f > 1.05)
		f = 1.05;
	return 0.95 * f;
}

/*
 * SGLang's cut of the static fraction for the aiter attention backend (AMD's
 * kernels): with a context longer than 8192 tokens it multiplies
 * mem_fraction_static, given or default, by 0.85 before the pool is sized
 * (model_runner.py from 0.4.7, sgl-project/sglang#6564; server_args.py from
 * 0.5.4.post1, which had 0.90, sglang#12136, back to 0.85 in sglang#12317).
 * The backend is aiter when --attention-backend says so, or when it is not
 * given on ROCm for an MHA model, or an MLA model whose GPUs each hold 16
 * or 128 KV heads (SGLang's default; triton otherwise; a DSA model gets
 * its own backend). The context is --context-length, else the model's
 * max_position_embeddings; where neither is known the cut is taken (the
 * smaller pool). 1 where SGLang makes no cut.
 */
double
fit_aiter_scale(const struct fit_model *m, const struct fit_gpu *g,
    const struct fit_params *p, const char *backend)
{
	bool	hip = g != NULL && g->platform != NULL &&
	    strcmp(g->platform, "hip") == 0;
	long	ctx = p->context_len > 0 ? p->context_len :
	    m != NULL ? m->context_length : 0;
	long	heads;

	if (p->sglang != SGVER_UNKNOWN &&
	    sgver_cmp(p->sglang, sgver_parse("0.4.7", NULL, 0)) < 0)
		return 1;
	if (backend != NULL) {
		if (strcmp(backend, "aiter") != 0)
			return 1;
	} else {
		if (!hip || m == NULL || m->index_head_dim > 0)
			return 1;
		if (m->kv_layout == FK_MLA) {
			heads = m->kv_heads / (p->tp > 0 ? p->tp : 1);
			if (heads < 1)
				heads = 1;
			if (heads != 16 && heads != 128)
				return 1;
		} else if (m->kv_layout == FK_UNKNOWN)
			return 1;
	}
	if (ctx > 0 && ctx <= 8192)
		return 1;
	if (p->sglang != SGVER_UNKNOWN &&
	    sgver_cmp(p->sglang, sgver_parse("0.5.4.post1", NULL, 0)) == 0)
		return 0.90;
	return 0.85;
}

/* The accelerator's side: capacity, free memory, the static fraction. */
static void
estimate_gpu(const struct fit_model *m, const struct fit_gpu *g,
    const struct fit_params *p, struct fit_result *r)
{
	if (g == NULL) {
		unknown(&r->capacity, "unknown: accelerator");
		unknown(&r->free_before, "unknown: accelerator");
	} else
		known(&r->capacity, gpu_capacity(g));
	if (p->free_gib >= 0)
		known(&r->free_before, p->free_gib * FIT_GIB);
	else if (g != NULL) {
		known(&r->free_before, fit_free_before(g, p->tp * p->pp));
		r->free_estimated = true;
	}
	if (p->mem_fraction_static > 0)
		known(&r->mem_fraction, p->mem_fraction_static *
		    (p->mem_fraction_scale > 0 ? p->mem_fraction_scale : 1));
	else if (g != NULL) {
		known(&r->mem_fraction, fit_default_mem_fraction(
		    gpu_capacity(g) / MIB, p) * fit_vision_factor(m, p) *
		    (p->mem_fraction_scale > 0 ? p->mem_fraction_scale : 1));
		r->mem_fraction_derived = true;
	} else
		unknown(&r->mem_fraction, "unknown: accelerator (for "
		    "SGLang's default mem-fraction-static)");
}

/* The KV pool (what the weights leave of the static budget), its tokens
 * and the requests of a full context it holds. */
static void
estimate_pool(const struct fit_model *m, const struct fit_params *p,
    struct fit_result *r)
{
	double	rest;

	if (!r->weights.known)
		unknown_as(&r->kv_pool, &r->weights);
	else if (!r->free_before.known)
		unknown_as(&r->kv_pool, &r->free_before);
	else if (!r->mem_fraction.known)
		unknown_as(&r->kv_pool, &r->mem_fraction);
	else {
		rest = r->free_before.v * r->mem_fraction.v - r->weights.v;
		known(&r->kv_pool, rest > 0 ? rest : 0);
	}
	if (!r->kv_pool.known)
		unknown_as(&r->kv_tokens, &r->kv_pool);
	else if (!r->kv_per_token.known)
		unknown_as(&r->kv_tokens, &r->kv_per_token);
	else {
		pool_tokens(m, p, r);
		/* --max-total-tokens caps what the profile gives */
		if (p->max_total_tokens > 0 && r->kv_tokens.known &&
		    r->kv_tokens.v > (double)p->max_total_tokens) {
			known(&r->kv_tokens, (double)p->max_total_tokens);
			known(&r->kv_pool, r->kv_tokens.v * r->kv_per_token.v);
			r->kv_capped = true;
		}
	}
	if (!r->kv_tokens.known && r->swa_tokens.why[0] == '\0')
		unknown_as(&r->swa_tokens, &r->kv_tokens);
	if (!r->kv_tokens.known)
		unknown_as(&r->requests_at_context, &r->kv_tokens);
	else if (p->context_len <= 0)
		unknown(&r->requests_at_context, "unknown: context length");
	else
		known(&r->requests_at_context,
		    r->kv_tokens.v / (double)p->context_len);
}

/* HiCache: a host pool per rank, ratio x the device pool or a size. */
static void
estimate_host(const struct fit_params *p, struct fit_result *r)
{
	if (!p->hicache)
		unknown(&r->host_pool, "unknown: HiCache not enabled");
	else if (p->hicache_size_gib > 0)
		known(&r->host_pool, p->hicache_size_gib * FIT_GIB);
	else if (r->kv_pool.known && r->kv_tokens.known)
		known(&r->host_pool, (p->hicache_ratio > 0 ?
		    p->hicache_ratio : 2.0) * r->kv_tokens.v *
		    r->kv_per_token.v);
	else
		unknown_as(&r->host_pool, r->kv_pool.known ? &r->kv_tokens :
		    &r->kv_pool);
	if (r->host_pool.known && r->kv_per_token.known)
		known(&r->host_tokens, floor(r->host_pool.v /
		    r->kv_per_token.v));
	else
		unknown_as(&r->host_tokens, r->host_pool.known ?
		    &r->kv_per_token : &r->host_pool);
}

/* What stays free after the weights and the pool, and the margin. */
static void
estimate_margin(const struct fit_params *p, struct fit_result *r)
{
	if (r->capacity.known)
		known(&r->margin, fit_post_pool_mib(r->capacity.v / MIB, p) *
		    MIB);
	else
		unknown_as(&r->margin, &r->capacity);
	if (!r->free_before.known)
		unknown_as(&r->headroom, &r->free_before);
	else if (!r->mem_fraction.known)
		unknown_as(&r->headroom, &r->mem_fraction);
	else if (!r->kv_pool.known)
		unknown_as(&r->headroom, &r->kv_pool);
	else
		/* a --max-total-tokens cap leaves the rest free too */
		known(&r->headroom, r->free_before.v - r->weights.v -
		    r->kv_pool.v);
}

static enum fit_verdict
verdict_pool(const struct fit_params *p, const struct fit_result *r)
{
	if (r->weights.known && r->free_before.known &&
	    r->weights.v >= r->free_before.v)
		return FV_NO_WEIGHTS;
	if (r->kv_pool.known && r->kv_pool.v <= 0)
		return FV_NO_KV;
	if (r->kv_tokens.known && p->context_len > 0)
		return r->kv_tokens.v >= (double)p->context_len ? FV_FITS :
		    FV_SHORT;
	if (r->kv_tokens.known)
		return r->kv_tokens.v > 0 ? FV_FITS : FV_NO_KV;
	return FV_UNKNOWN;
}

static enum fit_verdict
verdict(const struct fit_params *p, const struct fit_result *r)
{
	enum fit_verdict	v = verdict_pool(p, r);

	if (v == FV_FITS && r->headroom.known && r->margin.known &&
	    r->headroom.v < r->margin.v)
		return FV_TIGHT;
	return v;
}

enum fit_verdict
fit_estimate(const struct fit_model *m, const struct fit_gpu *g,
    const struct fit_params *pin, struct fit_result *r)
{
	struct fit_params	 p = *pin;

	memset(r, 0, sizeof *r);
	/* A tp or pp below 1 (--tp-size 0) is no split of the weights
	 * SGLang can run: unknown, not the estimate of some other size. */
	bool			 badsize = pin->tp < 1 || pin->pp < 1;

	if (badsize)
		p.tp = p.pp = 1;
	if (p.pp < 1)
		p.pp = 1;
	if (p.ep < 1)
		p.ep = 1;
	if (p.dp < 1)
		p.dp = 1;
	if (p.page_size < 1)
		p.page_size = 1;
	if (m != NULL)
		p.mla = m->kv_layout == FK_MLA;
	if (g != NULL)
		p.non_cuda = g->platform != NULL &&
		    strcmp(g->platform, "cuda") != 0;
	estimate_gpu(m, g, &p, r);
	if (m == NULL || badsize) {
		const char	*why = badsize ? "unknown: a tensor or pipeline "
		    "parallel size below 1" : "unknown: model";

		unknown(&r->weights, "%s", why);
		unknown(&r->kv_per_token, "%s", why);
		unknown(&r->draft_weights, "%s", why);
	} else {
		struct fit_model	mq = *m;

		online_quant(&mq, p.quantization);
		r->online_quant = mq.dtype != m->dtype ||
		    mq.expert_dtype != m->expert_dtype;
		weights_per_gpu(&mq, &p, &r->weights);
		kv_cell(&mq, &p, &r->kv_per_token);
		draft(&mq, &p, r);
		offload(&p, r);
		if (r->weights.known)	/* not offloaded: the modules' own */
			r->weights.v += FIT_LOAD_BUFFERS_GIB * FIT_GIB +
			    rope_cache_bytes(m, &p);
		fnuz_experts(&mq, g, &p, r);
		load_peak(m, &p, r);
	}
	layout_cell(m, g, &p, &r->kv_per_token);
	estimate_pool(m, &p, r);
	estimate_host(&p, r);
	estimate_margin(&p, r);
	r->verdict = verdict(&p, r);
	if (badsize) {			/* the sizes as given */
		p.tp = pin->tp;
		p.pp = pin->pp;
	}
	summarize(m, g, &p, r);
	return r->verdict;
}
