/*
 * fit.h - will it fit: weights, KV cache and memory per GPU, before launch.
 *
 * A pure estimate of what one SGLang server process holds on each of its
 * GPUs, from facts about the model (rules/model-sizes.yaml or a local
 * config.json) and the accelerator (rules/hardware.yaml), and the launch
 * options that move memory (tp, pp, ep, dp attention, KV cache dtype,
 * mem-fraction-static, chunked prefill, HiCache ...).
 *
 * The arithmetic follows SGLang's own: the static budget is
 * mem_fraction_static x (free memory before the weights load); what the
 * weights leave of it is the KV pool; the pool divided by the per-token
 * cell size is max_total_num_tokens.
 *
 * Every output is three-valued: known with a value, or unknown with the
 * name of the missing fact. Nothing is guessed silently: values that rest
 * on an estimate (the memory the CUDA context and collectives take before
 * the weights load) say so in the summary.
 *
 * Sizes are bytes; "GiB" in messages is 2^30 bytes (what SGLang's logs call
 * "GB").
 */
#ifndef PDWIZ_FIT_H
#define PDWIZ_FIT_H

#include <stdbool.h>
#include <stddef.h>

#include "sgver.h"

#define FIT_GIB		(1024.0 * 1024.0 * 1024.0)
/* per-GPU buffers the model's modules allocate as they load (fit.c) */
#define FIT_LOAD_BUFFERS_GIB	0.1

/* Storage of one group of weights (bytes per parameter, scales included). */
enum fit_dtype {
	FD_UNKNOWN = 0, FD_BF16, FD_FP16, FD_FP32, FD_FP8, FD_FP8_BLOCK128,
	FD_MXFP4, FD_NVFP4, FD_MXFP8,
	FD_INT4_G32	/* int4 values, a bf16 scale per 32 (compressed-tensors) */
};

enum fit_kv_layout { FK_UNKNOWN = 0, FK_MHA, FK_MLA, FK_HYBRID_SWA,
	FK_HYBRID_LINEAR	/* linear-attention (GDN) layers keep a state per
				   request; the others are full attention */
};

enum fit_link { FL_UNKNOWN = 0, FL_PCIE, FL_FABRIC };

struct fit_gpu {
	char		*name;		/* canonical */
	char		**aliases;
	size_t		 naliases;
	char		*platform;	/* cuda, hip, npu */
	char		*arch;		/* sm90, gfx942, ascend910b ... */
	enum fit_link	 link;
	double		 memory_gb;	/* the vendor's label */
	double		 reported_mib;	/* the driver's total; 0 unknown */
	double		 memory_bytes;
	char		*source;
};

/* Model facts; a count of 0 (or a negative size) is an unknown fact. */
struct fit_model {
	char		*id;
	char		*source;
	char		*arch;
	double		 params_total;
	double		 expert_params;	/* < 0 unknown; 0 dense */
	double		 embed_params;
	double		 replicated_params;
	double		 weight_bytes;	/* a checkpoint's total, when only that is known */
	bool		 tied_embeddings;
	long		 layers, hidden_size, attention_heads, kv_heads, head_dim;
	long		 kv_lora_rank, qk_rope_head_dim;
	long		 index_head_dim;	/* DSA (MLA with a sparse-attention
					   indexer): its key dim; 0 none */
	long		 experts, experts_per_token;
	long		 sliding_layers;	/* hybrid-swa: sliding-window layers */
	long		 linear_layers;	/* hybrid-linear: linear-attention layers */
	long		 vision_layers;	/* a vision tower's layers (SGLang lowers
					   the default fraction for it); 0 none */
	long		 vision_hidden_size;
	long		 context_length;	/* max_position_embeddings; 0
					   unknown */
	long		 rope_caches;	/* cos/sin caches the model class
					   builds beside get_rope's shared
					   one (one a layer); 0 none */
	long		 rope_cache_positions;	/* the positions each covers */
	enum fit_dtype	 dtype, expert_dtype, embed_dtype;
	enum fit_kv_layout kv_layout;
};

struct fit_db {
	struct fit_gpu	*gpus;
	size_t		 ngpus;
	struct fit_model *models;
	char		***match;	/* per model: lowercase globs */
	size_t		*nmatch;
	size_t		 nmodels;
};

/*
 * Load rules/hardware.yaml and rules/model-sizes.yaml under datadir; 0, or
 * -1 with "file:line:col: message" in err. fit_db_parse does the same from
 * memory (either text may be NULL to leave that half empty).
 */
int		 fit_db_load(struct fit_db *, const char *datadir, char *err,
		    size_t errlen);
int		 fit_db_parse(struct fit_db *, const char *hwname,
		    const char *hw, size_t hwlen, const char *modelsname,
		    const char *models, size_t modelslen, char *err,
		    size_t errlen);
void		 fit_db_free(struct fit_db *);

/* An accelerator by name or alias (case, '-', '_', ' ' ignored); NULL. */
const struct fit_gpu	*fit_gpu_find(const struct fit_db *, const char *name);
/* A model by HF id or path (first matching glob); NULL. */
const struct fit_model	*fit_model_find(const struct fit_db *, const char *id);

/*
 * Read a local model directory: config.json (and its quantization_config),
 * model.safetensors.index.json or the *.safetensors files for the weight
 * bytes. 1 when dir holds a config.json, 0 when it does not, -1 on a read
 * error (err says why). The model's strings are owned: fit_model_clear.
 */
int		 fit_model_from_dir(const char *dir, struct fit_model *,
		    char *err, size_t errlen);
/* The same from config.json text; weight_bytes stays unknown. */
int		 fit_model_from_config(const char *name, const char *json,
		    size_t len, struct fit_model *, char *err, size_t errlen);
void		 fit_model_clear(struct fit_model *);

/*
 * The KV bytes per token of a DSA model (DeepSeek-V3.2): the MLA latent
 * and rope key of each layer, plus the indexer's key and its scale, for
 * kv_cache_dtype (NULL or "auto": fp8 on an accelerator of SM 100 and up,
 * bf16 otherwise, as SGLang chooses) over ceil(layers / pp) layers. False
 * for a dtype SGLang does not take for DSA.
 */
bool		 fit_dsa_cell(const struct fit_model *, const char *kv_cache_dtype,
		    const struct fit_gpu *, int pp, double *bytes);

/*
 * The share of the KV pool that holds KV: a linear-attention hybrid gives
 * mamba_full_memory_ratio / (1 + ratio) of it (SGLang's default ratio 0.9)
 * to the per-request states; 1 for every other layout.
 */
double		 fit_kv_share(const struct fit_model *);

double		 fit_dtype_bytes(enum fit_dtype);
enum fit_dtype	 fit_dtype_parse(const char *);

/* SGLang's speculative decoding families, as its memory defaults see them. */
enum fit_spec { FS_NONE = 0, FS_DRAFT, FS_STANDALONE, FS_NGRAM };

/* The server's PD role (--disaggregation-mode): null, prefill, decode. */
enum fit_role { FR_NONE = 0, FR_PREFILL, FR_DECODE };

/* Launch options; fit_params_init sets SGLang's defaults and "not given". */
struct fit_params {
	int		 tp, pp, ep, dp;
	bool		 dp_attention;
	const char	*kv_cache_dtype;	/* NULL or "auto": the model's */
	double		 mem_fraction_static;	/* < 0: not given */
	long		 context_len;		/* 0: unknown */
	long		 chunked_prefill_size;	/* 0: default; < 0 disabled */
	long		 max_prefill_tokens;
	int		 cuda_graph_max_bs;	/* 0: default */
	bool		 piecewise_cuda_graph;
	long		 piecewise_cuda_graph_max_tokens;	/* 0: default */
	long		 page_size;
	enum fit_spec	 speculative;
	int		 ep_redundant_experts;
	double		 swa_full_tokens_ratio;	/* <= 0: SGLang's 0.8 */
	bool		 disable_hybrid_swa_memory;
	bool		 hicache;
	double		 hicache_ratio;		/* <= 0: SGLang's 2.0 */
	double		 hicache_size_gib;	/* > 0 overrides the ratio */
	double		 free_gib;	/* measured free memory before the
					   weights load; < 0: estimate */
	/* What SGLang's default fraction depends on beyond the above: */
	enum fit_role	 role;
	sgver_t		 sglang;	/* the release; 0: SGLang main (the
					   catalog's) */
	int		 max_running_requests;	/* 0: not given */
	int		 spec_draft_tokens;	/* 0: not given */
	bool		 deepep;		/* --moe-a2a-backend deepep */
	bool		 moe_a2a;		/* any a2a backend but none */
	bool		 disable_cuda_graph;
	bool		 disable_decode_graph;
	bool		 disable_prefill_graph;
	bool		 disable_piecewise;	/* 0.5.10 - 0.5.13's switch */
	double		 cpu_offload_gb;	/* weights kept in host memory */
	long		 max_total_tokens;	/* 0: not given; caps the pool */
	/* What SGLang multiplies the fraction by after settling it (the
	 * aiter attention backend's share, fit_aiter_scale); 1: nothing */
	double		 mem_fraction_scale;
	const char	*quantization;	/* --quantization; NULL: none */
	/* KTransformers (--kt-weight-path): each MoE layer keeps
	 * --kt-num-gpu-experts of its experts on the GPUs, the rest on the
	 * CPU */
	bool		 kt;
	int		 kt_gpu_experts;	/* < 0: not given */
	/* Speculative decoding with a draft model (EAGLE, EAGLE3, NEXTN, MTP,
	 * STANDALONE): its layers scale the KV cell by 1 + draft/target
	 * layers, its weights load before the pool is sized. */
	long		 draft_layers;		/* 0: not known */
	double		 draft_weight_bytes;	/* per GPU; < 0: not known */
	/* Set by fit_estimate from the model and the accelerator (a caller
	 * of fit_default_mem_fraction sets them itself): */
	bool		 mla;		/* the model's attention is MLA */
	bool		 non_cuda;	/* a HIP, NPU ... accelerator */
};
void		 fit_params_init(struct fit_params *);

/* One output: known with v, or unknown because of why. */
struct fit_val {
	bool	known;
	double	v;
	char	why[96];
};

enum fit_verdict {
	FV_UNKNOWN = 0,		/* a fact is missing */
	FV_FITS,		/* room for at least one request at context length */
	FV_SHORT,		/* weights fit, the KV pool holds less than one
				   request at context length */
	FV_NO_KV,		/* weights fit the GPU, not the static budget */
	FV_NO_WEIGHTS,		/* weights alone exceed the free memory */
	FV_TIGHT		/* fits, but what stays free after the pool is
				   less than the margin for CUDA graphs and
				   backend workspaces */
};

/* The estimate for one server process, per GPU. */
struct fit_result {
	struct fit_val	 capacity;	/* bytes the runtime reports */
	struct fit_val	 free_before;	/* bytes free before the weights load */
	bool		 free_estimated;/* free_before rests on an estimate */
	struct fit_val	 weights;	/* bytes of weights per GPU (the
					   draft model's included) */
	struct fit_val	 load;		/* what the weights take while they
					   load: with online quantization
					   (--quantization of a checkpoint
					   stored otherwise) the stored
					   dtype, quantized after the load */
	bool		 online_quant;
	struct fit_val	 draft_weights;	/* the draft model's share of it */
	bool		 draft_estimated;	/* draft layers or weights
						   rest on an estimate */
	struct fit_val	 mem_fraction;	/* mem_fraction_static used */
	bool		 mem_fraction_derived;	/* SGLang's default, not given */
	struct fit_val	 kv_pool;	/* bytes of the KV pool */
	bool		 kv_capped;	/* by --max-total-tokens */
	struct fit_val	 kv_per_token;	/* bytes per token on one GPU */
	struct fit_val	 kv_tokens;	/* max_total_num_tokens (for a
					   sliding-window model: the full
					   attention layers' tokens) */
	struct fit_val	 swa_tokens;	/* the sliding-window layers' tokens */
	struct fit_val	 requests_at_context;	/* kv_tokens / context_len */
	struct fit_val	 headroom;	/* bytes free after the weights and
					   the pool: free_before x (1 - mf) */
	struct fit_val	 margin;	/* what is allocated after the pool
					   (fit_post_pool_mib), bytes */
	struct fit_val	 host_pool;	/* HiCache host bytes per GPU */
	struct fit_val	 host_tokens;
	enum fit_verdict verdict;
	char		 summary[512];	/* one line, no newline */
};

/*
 * Estimate for model m on accelerator g with launch options p (either of m
 * and g may be NULL: the outputs that need it are unknown). Fills r; returns
 * r->verdict.
 */
enum fit_verdict fit_estimate(const struct fit_model *m,
		    const struct fit_gpu *g, const struct fit_params *p,
		    struct fit_result *r);

/* SGLang's mem_fraction_static default for a GPU of gpu_mib MiB. */
double		 fit_default_mem_fraction(double gpu_mib,
		    const struct fit_params *p);
/* The factor SGLang applies to that default for a model's vision tower
 * (1 without one, or in a release or role that does not). */
double		 fit_vision_factor(const struct fit_model *m,
		    const struct fit_params *p);

/*
 * The margin for what SGLang allocates after the KV pool, in MiB: backend
 * metadata (512), the CUDA graphs its default reserve counts for this
 * role and release (decode graph, DP-attention padding, prefill or
 * piecewise graph) and DeepEP's buffers; activations are not in it.
 */
double		 fit_post_pool_mib(double gpu_mib, const struct fit_params *p);

/* SGLang's factor on the static fraction for the aiter attention backend
 * (backend: --attention-backend, NULL when not given); 1 for none. */
double		 fit_aiter_scale(const struct fit_model *m,
		    const struct fit_gpu *g, const struct fit_params *p,
		    const char *backend);

/* Free memory expected before the weights load, in bytes. */
double		 fit_free_before(const struct fit_gpu *g, int world);


#endif
