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

double
fit_default_mem_fraction(double gpu_mib, const struct fit_params *p)
{
	long	chunk = p->chunked_prefill_size;
	int	bs = p->cuda_graph_max_bs;
	double	reserved;

	/* chunked_prefill_size and cuda_graph_max_bs by memory class */
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
	/* MiB held outside the static pool: activations, graphs, metadata */
	reserved = 512;
	if (chunk > 0)
		reserved += (chunk > 2048 ? chunk : 2048) * 1.5;
	else
		reserved += (p->max_prefill_tokens > 2048 ?
		    p->max_prefill_tokens : 2048) * 1.5;
	reserved += bs * 2.0;
	reserved += p->tp * p->pp / 8.0 * 1024;
	if (p->dp_attention) {
		reserved += (double)bs * p->dp * 3;
		if (bs > 300)
			reserved += (double)bs * p->dp * 1.5;
	}
	if (p->piecewise_cuda_graph) {
		long	maxt = p->piecewise_cuda_graph_max_tokens ?
		    p->piecewise_cuda_graph_max_tokens : chunk;
		long	n = 0, s;

		/* the capture sizes SGLang generates up to maxt */
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
		reserved += n * 8.0;
	}
	if (gpu_mib > 60 * 1024 && reserved < 10 * 1024)
		reserved = 10 * 1024;
	if (p->speculative == FS_STANDALONE)
		reserved += 6 * 1024;
	else if (p->speculative == FS_DRAFT)
		reserved += 2 * 1024;
	return round((gpu_mib - reserved) / gpu_mib * 1000) / 1000;
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
	    strcmp(s, "fp8") == 0)
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
	long	layers, heads;

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
		/* the latent and the rope key, whole on every rank */
		known(c, (double)(m->kv_lora_rank + m->qk_rope_head_dim) *
		    layers * b);
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
		known(c, 2.0 * heads * m->head_dim * layers * b);
		return;
	case FK_HYBRID_LINEAR:	/* fit_estimate: its full-attention layers */
	case FK_UNKNOWN:
		break;
	}
	unknown(c, "unknown: attention layout of %s", m->id);
}

const char *
fit_verdict_name(enum fit_verdict v)
{
	switch (v) {
	case FV_FITS:
		return "fits";
	case FV_SHORT:
		return "fits, KV pool shorter than one request";
	case FV_NO_KV:
		return "no room for the KV cache";
	case FV_NO_WEIGHTS:
		return "weights do not fit";
	case FV_UNKNOWN:
		break;
	}
	return "unknown";
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

/* The accelerator's side: capacity, free memory, the static fraction. */
static void
estimate_gpu(const struct fit_gpu *g, const struct fit_params *p,
    struct fit_result *r)
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
		known(&r->mem_fraction, p->mem_fraction_static);
	else if (g != NULL) {
		known(&r->mem_fraction, fit_default_mem_fraction(
		    gpu_capacity(g) / MIB, p));
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
	else
		pool_tokens(m, p, r);
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

static enum fit_verdict
verdict(const struct fit_params *p, const struct fit_result *r)
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

enum fit_verdict
fit_estimate(const struct fit_model *m, const struct fit_gpu *g,
    const struct fit_params *pin, struct fit_result *r)
{
	struct fit_params	 p = *pin;

	memset(r, 0, sizeof *r);
	if (p.tp < 1)
		p.tp = 1;
	if (p.pp < 1)
		p.pp = 1;
	if (p.ep < 1)
		p.ep = 1;
	if (p.dp < 1)
		p.dp = 1;
	if (p.page_size < 1)
		p.page_size = 1;
	estimate_gpu(g, &p, r);
	if (m == NULL) {
		unknown(&r->weights, "unknown: model");
		unknown(&r->kv_per_token, "unknown: model");
	} else {
		weights_per_gpu(m, &p, &r->weights);
		kv_cell(m, &p, &r->kv_per_token);
	}
	layout_cell(m, g, &p, &r->kv_per_token);
	estimate_pool(m, &p, r);
	estimate_host(&p, r);
	r->verdict = verdict(&p, r);
	summarize(m, g, &p, r);
	return r->verdict;
}
