/*
 * fit_facts.c - the memory estimate (fit.h) as facts the rules read.
 *
 * When a server's config names its accelerator (the gpu fact), the engine
 * asks for the estimate before it runs the rules: fit_estimated and the
 * fit_* facts then hold the numbers (rounded as they are shown), or stay
 * unknown where a fact the estimate needs is missing, so that rules say
 * "could not check" instead of guessing. Without a gpu nothing is set and
 * fit_estimated stays false.
 */
#define _POSIX_C_SOURCE 200809L
#include "fit_facts.h"
#include "fit.h"
#include "role.h"
#include "util.h"

#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* One local model directory, read once. */
static struct fit_model	 local;
static const char	*local_dir;	/* interned */
static int		 local_rc;

const struct fit_gpu *
fit_facts_gpu(const struct catalog *cat, const char *name, char *err,
    size_t errlen)
{
	const struct fit_db	*d = catalog_fit_db(cat, err, errlen);
	const struct fit_gpu	*g;
	struct buf		 b = { 0 };
	size_t			 i;

	if (d == NULL)
		return NULL;
	if ((g = fit_gpu_find(d, name)) != NULL)
		return g;
	for (i = 0; i < d->ngpus; i++)
		buf_printf(&b, "%s%s", i ? ", " : "", d->gpus[i].name);
	snprintf(err, errlen, "unknown accelerator '%s' (known: %s)", name,
	    b.s ? b.s : "none");
	buf_free(&b);
	return NULL;
}

static int
opt(const struct catalog *cat, const char *name)
{
	return catalog_find(cat, name);
}

static struct value
get(const struct config *cfg, const char *name)
{
	int	o = opt(cfg->cat, name);

	return o >= 0 ? cfg->s[o].v : VAL_UNKNOWN;
}

static long long
get_int(const struct config *cfg, const char *name, long long def)
{
	struct value	v = get(cfg, name);

	return v.t == V_INT ? v.u.i : def;
}

static double
get_num(const struct config *cfg, const char *name, double def)
{
	struct value	v = get(cfg, name);

	if (v.t == V_FLOAT)
		return v.u.f;
	return v.t == V_INT ? (double)v.u.i : def;
}

static bool
get_bool(const struct config *cfg, const char *name)
{
	struct value	v = get(cfg, name);

	return v.t == V_BOOL && v.u.b;
}

static const char *
get_str(const struct config *cfg, const char *name)
{
	struct value	v = get(cfg, name);

	return v.t == V_STR ? v.u.s : NULL;
}

/* The launch options of cfg that move memory. */
static void
params_of(const struct config *cfg, struct fit_params *p)
{
	const char	*spec = get_str(cfg, "speculative_algorithm");
	const char	*mode = get_str(cfg, "disaggregation_mode");
	const char	*a2a = get_str(cfg, "moe_a2a_backend");

	fit_params_init(p);
	p->sglang = cfg->sgver;
	if (mode != NULL)
		p->role = role_parse(mode) == ROLE_PREFILL ? FR_PREFILL :
		    role_parse(mode) == ROLE_DECODE ? FR_DECODE : FR_NONE;
	p->max_running_requests = (int)get_int(cfg, "max_running_requests",
	    0);
	p->spec_draft_tokens = (int)get_int(cfg,
	    "speculative_num_draft_tokens", 0);
	p->cuda_graph_max_bs = (int)get_int(cfg, "cuda_graph_max_bs_decode",
	    0);
	p->moe_a2a = a2a != NULL && strcmp(a2a, "none") != 0;
	p->deepep = a2a != NULL && strcmp(a2a, "deepep") == 0;
	p->disable_cuda_graph = get_bool(cfg, "disable_cuda_graph");
	p->disable_decode_graph = get_bool(cfg, "disable_decode_cuda_graph");
	p->disable_prefill_graph = get_bool(cfg,
	    "disable_prefill_cuda_graph");
	p->disable_piecewise = get_bool(cfg, "disable_piecewise_cuda_graph");
	p->cpu_offload_gb = get_num(cfg, "cpu_offload_gb", 0);
	p->max_total_tokens = (long)get_int(cfg, "max_total_tokens", 0);
	p->quantization = get_str(cfg, "quantization");
	p->kt = get_str(cfg, "kt_weight_path") != NULL;
	p->kt_gpu_experts = (int)get_int(cfg, "kt_num_gpu_experts", -1);
	p->tp = (int)get_int(cfg, "tp_size", 1);
	p->pp = (int)get_int(cfg, "pp_size", 1);
	p->ep = (int)get_int(cfg, "ep_size", 1);
	p->dp = (int)get_int(cfg, "dp_size", 1);
	p->dp_attention = get_bool(cfg, "enable_dp_attention");
	p->kv_cache_dtype = get_str(cfg, "kv_cache_dtype");
	p->mem_fraction_static = get_num(cfg, "mem_fraction_static", -1);
	p->context_len = (long)get_int(cfg, "context_length", 0);
	p->chunked_prefill_size = (long)get_int(cfg, "chunked_prefill_size",
	    0);
	p->page_size = (long)get_int(cfg, "page_size", 1);
	p->ep_redundant_experts = (int)get_int(cfg,
	    "ep_num_redundant_experts", 0);
	p->hicache = get_bool(cfg, "enable_hierarchical_cache");
	p->hicache_ratio = get_num(cfg, "hicache_ratio", 0);
	p->hicache_size_gib = get_num(cfg, "hicache_size", 0);
	if (spec != NULL && *spec != '\0')
		p->speculative = strcmp(spec, "NGRAM") == 0 ? FS_NGRAM :
		    strcmp(spec, "STANDALONE") == 0 ? FS_STANDALONE :
		    FS_DRAFT;
}

/* The model of cfg: the table's entry, or a local directory's config. */
static const struct fit_model *
model_of(const struct fit_db *d, const struct config *cfg)
{
	const char	*path = get_str(cfg, "model_path");
	const char	*id = get_str(cfg, "model_id");
	const char	*dir;
	struct stat	 st;
	char		 err[256];

	if (id != NULL)		/* --fact model_id: what the path holds */
		return fit_model_find(d, id);
	if (path == NULL)
		return NULL;
	if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
		dir = intern(path);
		if (dir != local_dir) {
			fit_model_clear(&local);
			memset(&local, 0, sizeof local);
			local_dir = dir;
			local_rc = fit_model_from_dir(path, &local, err,
			    sizeof err);
		}
		return local_rc == 1 ? &local : NULL;
	}
	return fit_model_find(d, path);
}

/* A draft model the table knows (--speculative-draft-model-path): its
 * layers and its weights per GPU at the server's parallelism. */
static void
draft_of(const struct fit_db *d, const struct fit_gpu *g,
    const struct config *cfg, struct fit_params *p)
{
	const char		*path = get_str(cfg,
	    "speculative_draft_model_path");
	const struct fit_model	*dm;
	struct fit_params	 q;
	struct fit_result	 r;

	if (p->speculative != FS_DRAFT && p->speculative != FS_STANDALONE)
		return;
	if (path == NULL || (dm = fit_model_find(d, path)) == NULL)
		return;
	q = *p;
	q.speculative = FS_NONE;
	q.cpu_offload_gb = 0;
	q.quantization = NULL;
	fit_estimate(dm, g, &q, &r);
	if (dm->layers > 0)
		p->draft_layers = dm->layers;
	if (r.weights.known)
		p->draft_weight_bytes = r.weights.v;
}

static void
set_fact(struct config *cfg, const char *name, struct value v)
{
	int	o = opt(cfg->cat, name);

	if (o >= 0)
		config_set(cfg, o, v, SRC_MODEL, 0, 0);
}

/* GiB rounded to one decimal, as messages show them; unknown stays. */
static void
set_gib(struct config *cfg, const char *name, const struct fit_val *v)
{
	if (v->known)
		set_fact(cfg, name, val_float(round(v->v / FIT_GIB * 10) /
		    10));
}

/* The estimate's figures unrounded, as a JSON object (the fit_figures
 * fact, shown by check --format json): GiB per GPU with four decimals,
 * the KV tokens, null where unknown. What the messages show is rounded to
 * one decimal, too coarse to hold a small model's weights against a log. */
static void
put_gib(char *b, size_t n, const char *key, const struct fit_val *v,
    bool comma)
{
	size_t	l = strlen(b);

	if (v->known)
		snprintf(b + l, n - l, "%s\"%s\":%.4f", comma ? "," : "", key,
		    v->v / FIT_GIB);
	else
		snprintf(b + l, n - l, "%s\"%s\":null", comma ? "," : "", key);
}

static void
set_figures(struct config *cfg, const struct fit_result *r)
{
	char	b[512];
	size_t	l;

	snprintf(b, sizeof b, "{");
	put_gib(b, sizeof b, "weights_gib", &r->weights, false);
	put_gib(b, sizeof b, "load_gib", &r->load, true);
	put_gib(b, sizeof b, "free_gib", &r->free_before, true);
	put_gib(b, sizeof b, "kv_pool_gib", &r->kv_pool, true);
	l = strlen(b);
	if (r->kv_tokens.known)
		snprintf(b + l, sizeof b - l, ",\"kv_tokens\":%lld}",
		    (long long)r->kv_tokens.v);
	else
		snprintf(b + l, sizeof b - l, ",\"kv_tokens\":null}");
	set_fact(cfg, "fit_figures", val_str(b));
}

/* The smallest tensor-parallel size (a power of two up to 64) whose
 * weights leave room for a KV pool; 0 when none does or it is unknown. */
static long long
tp_that_fits(const struct fit_model *m, const struct fit_gpu *g,
    const struct fit_params *p)
{
	struct fit_params	q = *p;
	struct fit_result	r;
	int			tp;

	if (p->tp < 1)		/* no size to double */
		return 0;
	for (tp = p->tp * 2; tp <= 64; tp *= 2) {
		q.tp = tp;
		if (fit_estimate(m, g, &q, &r) == FV_FITS ||
		    (r.kv_pool.known && r.kv_pool.v > 0 &&
		    r.verdict != FV_NO_WEIGHTS))
			return tp;
		if (r.verdict == FV_UNKNOWN)
			return 0;
	}
	return 0;
}

bool
fit_fact_from_gpu(const char *name)
{
	return strcmp(name, "platform") == 0 || strcmp(name, "gpu_sm") == 0 ||
	    strcmp(name, "gpu_arch") == 0 || strcmp(name, "gpu_mem_mib") == 0;
}

/* The platform, SM, architecture (gfx942, sm90) and memory an accelerator
 * implies, where not given (the facts fit_fact_from_gpu names). */
static void
settle_platform(struct config *cfg, const struct fit_gpu *g)
{
	int	o;

	if (g->platform != NULL && (o = opt(cfg->cat, "platform")) >= 0 &&
	    cfg->s[o].v.t == V_UNKNOWN)
		set_fact(cfg, "platform", val_str(g->platform));
	if (g->arch != NULL && strncmp(g->arch, "sm", 2) == 0 &&
	    (o = opt(cfg->cat, "gpu_sm")) >= 0 && cfg->s[o].v.t == V_UNKNOWN)
		set_fact(cfg, "gpu_sm", val_int(atoll(g->arch + 2)));
	if (g->arch != NULL && (o = opt(cfg->cat, "gpu_arch")) >= 0 &&
	    cfg->s[o].v.t == V_UNKNOWN)
		set_fact(cfg, "gpu_arch", val_str(g->arch));
	/* What SGLang's probe (nvidia-smi memory.total, rocminfo) reports:
	 * memory_bytes is reported_mib x 2^20 where that is known. */
	if (g->memory_bytes > 0 && (o = opt(cfg->cat, "gpu_mem_mib")) >= 0 &&
	    cfg->s[o].v.t == V_UNKNOWN)
		set_fact(cfg, "gpu_mem_mib", val_int((long long)
		    llround(g->memory_bytes / (1024.0 * 1024.0))));
}

void
fit_facts(const struct catalog *cat, struct config *cfg)
{
	const char		*name = get_str(cfg, "gpu");
	double			 gib = get_num(cfg, "gpu_mem_gib", -1);
	const struct fit_db	*d;
	const struct fit_gpu	*g;
	const struct fit_model	*m;
	struct fit_params	 p;
	struct fit_result	 r;
	long long		 tp;
	char			 dberr[512];
	static struct fit_gpu	 sized;
	static char		 sized_name[64];

	if (name == NULL && gib <= 0)
		return;
	set_fact(cfg, "fit_estimated", val_bool(true));
	if ((d = catalog_fit_db(cat, dberr, sizeof dberr)) == NULL) {
		set_fact(cfg, "fit_summary", val_str(dberr));
		return;
	}
	g = name != NULL ? fit_gpu_find(d, name) : NULL;
	/* --gpu-mem: the named accelerator with this memory, or a CUDA GPU
	 * of this memory on a fabric when none is named */
	if (gib > 0) {
		if (g != NULL) {
			sized = *g;
			snprintf(sized_name, sizeof sized_name, "%s with %g GiB",
			    g->name, gib);
		} else {
			memset(&sized, 0, sizeof sized);
			snprintf(sized_name, sizeof sized_name, "%g GiB GPU",
			    gib);
			sized.link = FL_FABRIC;
			if (name == NULL)
				set_fact(cfg, "gpu", val_str(sized_name));
		}
		sized.name = sized_name;
		sized.memory_gb = gib;
		sized.reported_mib = gib * 1024;
		sized.memory_bytes = gib * FIT_GIB;
		g = &sized;
	}
	if (g != NULL)
		settle_platform(cfg, g);
	m = model_of(d, cfg);
	params_of(cfg, &p);
	p.mem_fraction_scale = fit_aiter_scale(m, g, &p,
	    get_str(cfg, "attention_backend"));
	draft_of(d, g, cfg, &p);
	fit_estimate(m, g, &p, &r);
	set_fact(cfg, "fit_summary", val_str(r.summary));
	set_figures(cfg, &r);
	set_gib(cfg, "fit_weights_gib", &r.weights);
	set_fact(cfg, "fit_online_quant", val_bool(r.online_quant));
	set_gib(cfg, "fit_load_gib", &r.load);
	set_gib(cfg, "fit_free_gib", &r.free_before);
	set_gib(cfg, "fit_kv_pool_gib", &r.kv_pool);
	set_gib(cfg, "fit_headroom_gib", &r.headroom);
	set_gib(cfg, "fit_margin_gib", &r.margin);
	if (r.kv_tokens.known)
		set_fact(cfg, "fit_kv_tokens", val_int((long long)
		    r.kv_tokens.v));
	if (r.verdict == FV_NO_WEIGHTS || r.verdict == FV_NO_KV) {
		tp = tp_that_fits(m, g, &p);
		if (tp > 0)
			set_fact(cfg, "fit_tp_needed", val_int(tp));
	}
}
