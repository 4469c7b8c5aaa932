/* fit_model.c - model size facts from a local model directory. */
#include "fit_int.h"
#include "util.h"

#include <dirent.h>
#include <errno.h>
#include <fnmatch.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the KV pool of a linear-attention hybrid ---- */

/* SGLang's default --mamba-full-memory-ratio: the per-request states get
 * ratio / (1 + ratio) of the pool (mem_cache/kv_cache_configurator.py);
 * boot logs show the split: 13.04 + 0.46 GiB of states to 15.03 of KV (the
 * worked example of SGLang's compute-mamba-ratio skill), 7.29 + 0.13 to
 * 4.15 + 4.15 (Qwen3.5 in ktransformers issue 1870) */
#define MAMBA_FULL_MEMORY_RATIO	0.9

double
fit_kv_share(const struct fit_model *m)
{
	if (m != NULL && m->kv_layout == FK_HYBRID_LINEAR)
		return 1 / (1 + MAMBA_FULL_MEMORY_RATIO);
	return 1;
}

/* ---- the KV cell of a DSA model ---- */

/* SGLang's block of fp8 values per scale in the DSA pools */
#define DSA_QUANT_BLOCK	128

bool
fit_dsa_cell(const struct fit_model *m, const char *kvd,
    const struct fit_gpu *g, int pp, double *bytes)
{
	bool	fp8, hip = g != NULL && g->platform != NULL &&
	    strcmp(g->platform, "hip") == 0;
	long	sm = g != NULL && g->arch != NULL &&
	    strncmp(g->arch, "sm", 2) == 0 ? atol(g->arch + 2) : 0;
	double	lat, idx, layers;

	if (kvd == NULL || strcmp(kvd, "auto") == 0)
		fp8 = sm >= 100;
	else if (strcmp(kvd, "fp8_e4m3") == 0 || strcmp(kvd, "fp8") == 0)
		fp8 = true;
	else if (strcmp(kvd, "bf16") == 0 || strcmp(kvd, "bfloat16") == 0)
		fp8 = false;
	else
		return false;
	if (pp < 1)
		pp = 1;
	layers = (double)((m->layers + pp - 1) / pp);
	if (!fp8)
		lat = (double)(m->kv_lora_rank + m->qk_rope_head_dim) * 2;
	else if (hip)
		/* ROCm's DSA kernels read the raw fp8 latent and rope */
		lat = (double)(m->kv_lora_rank + m->qk_rope_head_dim);
	else
		/* fp8 latent, a 4-byte scale per block, the rope key in bf16 */
		lat = (double)m->kv_lora_rank +
		    (double)(m->kv_lora_rank / DSA_QUANT_BLOCK) * 4 +
		    (double)m->qk_rope_head_dim * 2;
	/* the indexer's fp8 key and its scale, one byte each */
	idx = (double)m->index_head_dim +
	    (double)(m->index_head_dim / DSA_QUANT_BLOCK) * 4;
	*bytes = (lat + idx) * layers;
	return true;
}

/* ---- a local model directory ---- */

void
fit_model_clear(struct fit_model *m)
{
	free(m->id);
	free(m->source);
	free(m->arch);
	memset(m, 0, sizeof *m);
}

static long
json_long(const struct ynode *map, const char *key)
{
	const char	*s = fit_scalar(map, key);
	char		*end;
	double		 v;

	if (s == NULL)
		return 0;
	errno = 0;
	v = strtod(s, &end);
	if (*end != '\0' || errno != 0 || !isfinite(v) || v < 0 || v > 1e15 ||
	    v != floor(v))
		return 0;
	return (long)v;
}

/* The text-model part of a config: top level or text_config. */
static const struct ynode *
text_config(const struct ynode *root)
{
	const struct ynode	*t = ynode_get(root, "text_config");

	if (ynode_get(root, "num_hidden_layers") == NULL && t != NULL &&
	    t->kind == YN_MAP)
		return t;
	return root;
}

static bool
json_true(const struct ynode *map, const char *key)
{
	const char	*s = fit_scalar(map, key);

	return s != NULL && strcmp(s, "true") == 0;
}

static bool
starts(const char *s, const char *prefix)
{
	return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
}

/* Is layer i a linear-attention (Gated DeltaNet) layer? From layer_types,
 * else full_attention_interval (every interval-th layer is full attention,
 * as Qwen3-Next's config computes it). */
static bool
linear_layer(const struct ynode *c, long i)
{
	const struct ynode	*lt = ynode_get(c, "layer_types");
	long			 every = json_long(c, "full_attention_interval");

	if (lt != NULL && lt->kind == YN_SEQ && (size_t)i < lt->nkids &&
	    lt->kids[i]->kind == YN_SCALAR)
		return strcmp(lt->kids[i]->str, "linear_attention") == 0;
	return every > 1 && (i + 1) % every != 0;
}

/* Is layer i a routed-expert layer? */
static bool
moe_layer(const struct ynode *c, long i)
{
	long			 k = json_long(c, "first_k_dense_replace");
	long			 freq = json_long(c, "moe_layer_freq");
	long			 step = json_long(c, "decoder_sparse_step");
	const struct ynode	*only = ynode_get(c, "mlp_only_layers");
	size_t			 j;

	if (i < k)
		return false;
	if (freq > 1 && (i - k) % freq != 0)
		return false;
	if (step > 1 && (i + 1) % step != 0)
		return false;
	if (only != NULL && only->kind == YN_SEQ)
		for (j = 0; j < only->nkids; j++)
			if (only->kids[j]->kind == YN_SCALAR &&
			    atol(only->kids[j]->str) == i)
				return false;
	return true;
}

/*
 * Parameter counts from the tensor shapes a config implies: embedding and
 * head, attention (GQA or MLA, with the q/k/v biases of the Qwen2 family,
 * the q/k norms of Qwen3 and the attention_bias flag), dense MLPs, routed
 * and shared experts with their router, norms. Unknown (0) when a shape is
 * missing. Small per-architecture extras (expert biases, attention sinks)
 * are left out; they are below 0.1% of any model here.
 */
static void
config_params(const struct ynode *c, struct fit_model *m)
{
	double	H = (double)m->hidden_size, nh = (double)m->attention_heads;
	double	kv = (double)m->kv_heads, hd = (double)m->head_dim;
	double	V = (double)json_long(c, "vocab_size");
	double	I = (double)json_long(c, "intermediate_size");
	double	Im = (double)json_long(c, "moe_intermediate_size");
	double	Is = (double)json_long(c, "shared_expert_intermediate_size");
	double	ns = (double)json_long(c, "n_shared_experts");
	double	E = (double)m->experts;
	double	ql = (double)json_long(c, "q_lora_rank");
	double	kvl = (double)m->kv_lora_rank, rope = (double)m->qk_rope_head_dim;
	double	nope = (double)json_long(c, "qk_nope_head_dim");
	double	vd = (double)json_long(c, "v_head_dim");
	double	idim = (double)m->index_head_dim;
	/* Gated DeltaNet (linear attention) */
	double	lnk = (double)json_long(c, "linear_num_key_heads");
	double	lnv = (double)json_long(c, "linear_num_value_heads");
	double	lkd = (double)json_long(c, "linear_key_head_dim");
	double	lvd = (double)json_long(c, "linear_value_head_dim");
	double	lck = (double)json_long(c, "linear_conv_kernel_dim");
	double	lin = 0;
	double	inh = (double)json_long(c, "index_n_heads");
	double	att, repl = 0, total, expert = 0, emb;
	long	i;

	if (m->layers <= 0 || H <= 0 || nh <= 0 || V <= 0)
		return;
	if (m->kv_lora_rank > 0) {
		if (rope <= 0 || nope <= 0 || vd <= 0)
			return;
		att = ql > 0 ? H * ql + ql + ql * nh * (nope + rope) :
		    H * nh * (nope + rope);
		att += H * (kvl + rope) + kvl + kvl * nh * (nope + vd) +
		    nh * vd * H;
		repl = (ql > 0 ? H * ql : 0) + H * (kvl + rope);
		/* DSA's indexer, replicated on every rank: its query from
		 * the q latent, one key, the key's LayerNorm, the head
		 * weights */
		if (idim > 0 && inh > 0) {
			double	ix = (ql > 0 ? ql : H) * inh * idim +
			    H * idim + 2 * idim + H * inh;

			att += ix;
			repl += ix;
		}
	} else {
		if (kv <= 0 || hd <= 0)
			return;
		att = H * nh * hd + 2 * H * kv * hd + nh * hd * H;
		if (starts(m->arch, "Qwen2"))
			att += nh * hd + 2 * kv * hd;
		else if (json_true(c, "attention_bias"))
			att += nh * hd + 2 * kv * hd + H;
		if (starts(m->arch, "Qwen3"))
			att += 2 * hd;
		/* a gated output (Qwen3-Next, Qwen3.5): q_proj twice as wide */
		if (m->linear_layers > 0)
			att += H * nh * hd;
	}
	if (m->linear_layers > 0) {
		if (lnk <= 0 || lnv <= 0 || lkd <= 0 || lvd <= 0 || lck <= 0)
			return;
		/* in_proj_qkvz, in_proj_ba, the conv over q, k and v,
		 * dt_bias and A_log, the gated norm, out_proj */
		lin = H * (2 * lnk * lkd + 2 * lnv * lvd) + H * 2 * lnv +
		    (2 * lnk * lkd + lnv * lvd) * lck + 2 * lnv + lvd +
		    lnv * lvd * H;
	}
	if (E > 0 && Im <= 0)
		Im = I;			/* Mixtral: experts use intermediate_size */
	if (Is <= 0)
		Is = Im;
	emb = V * H * (m->tied_embeddings ? 1 : 2);
	total = emb + H;
	for (i = 0; i < m->layers; i++) {
		total += (m->linear_layers > 0 && linear_layer(c, i) ? lin :
		    att) + 2 * H;
		if (E > 0 && moe_layer(c, i)) {
			expert += E * 3 * H * Im;
			total += E * 3 * H * Im + H * E;
			if (fit_scalar(c, "topk_method") != NULL &&
			    strcmp(fit_scalar(c, "topk_method"), "noaux_tc") == 0)
				total += E;
			if (ns > 0)
				total += ns * 3 * H * Is;
			else if (json_long(c, "shared_expert_intermediate_size")) {
				total += 3 * H * Is + H;	/* + its gate */
			}
		} else {
			if (I <= 0)
				return;
			total += 3 * H * I;
		}
	}
	m->params_total = total;
	m->expert_params = expert;
	m->embed_params = emb;
	m->replicated_params = m->layers * repl;
}

/* The only group of compressed-tensors weights, when it is 4-bit integers
 * in groups of 32 (a scale each, symmetric) and the ignored modules leave
 * the attention in the checkpoint's dtype: Kimi-K2.5's routed experts. */
static bool
int4_g32_experts(const struct ynode *q)
{
	const char		*fmt = fit_scalar(q, "format");
	const struct ynode	*g = ynode_get(q, "config_groups");
	const struct ynode	*w, *ign = ynode_get(q, "ignore");
	const char		*s;
	size_t			 i;
	bool			 attn = false;

	if (g == NULL || g->kind != YN_MAP || g->nkids != 2)
		return false;
	if (fmt != NULL && strcmp(fmt, "pack-quantized") != 0)
		return false;
	w = ynode_get(g->kids[1], "weights");	/* kids: key, value */
	if (w == NULL || w->kind != YN_MAP ||
	    (s = fit_scalar(w, "num_bits")) == NULL || strcmp(s, "4") != 0 ||
	    (s = fit_scalar(w, "group_size")) == NULL || strcmp(s, "32") != 0 ||
	    (s = fit_scalar(w, "type")) == NULL || strcmp(s, "int") != 0 ||
	    ((s = fit_scalar(w, "symmetric")) != NULL &&
	    strcmp(s, "true") != 0))
		return false;
	if (ign != NULL && ign->kind == YN_SEQ)
		for (i = 0; i < ign->nkids; i++)
			if (ign->kids[i]->kind == YN_SCALAR &&
			    strstr(ign->kids[i]->str, "self_attn") != NULL)
				attn = true;
	return attn;
}

/* A vision tower (vision_config): its layers and width, MoonViT's vt_
 * names too; SGLang takes 24 and 1024 for what the config leaves out. */
static void
vision_facts(const struct ynode *v, struct fit_model *m)
{
	if (v == NULL || v->kind != YN_MAP)
		return;
	if ((m->vision_layers = json_long(v, "num_hidden_layers")) == 0 &&
	    (m->vision_layers = json_long(v, "vt_num_hidden_layers")) == 0)
		m->vision_layers = 24;
	if ((m->vision_hidden_size = json_long(v, "hidden_size")) == 0 &&
	    (m->vision_hidden_size = json_long(v, "vt_hidden_size")) == 0)
		m->vision_hidden_size = 1024;
}

static void
config_facts(const struct ynode *root, struct fit_model *m)
{
	const struct ynode	*c = text_config(root);
	const struct ynode	*a = ynode_get(root, "architectures");
	const struct ynode	*q = ynode_get(root, "quantization_config");
	const struct ynode	*lt = ynode_get(c, "layer_types");

	/* a multimodal wrapper may keep it with the text model */
	if (q == NULL)
		q = ynode_get(c, "quantization_config");
	const char		*s;
	size_t			 i;

	if (a != NULL && a->kind == YN_SEQ && a->nkids > 0 &&
	    a->kids[0]->kind == YN_SCALAR)
		m->arch = xstrdup(a->kids[0]->str);
	m->layers = json_long(c, "num_hidden_layers");
	m->hidden_size = json_long(c, "hidden_size");
	m->context_length = json_long(c, "max_position_embeddings");
	/* Grok-2's rope scaling: SGLang's models/grok.py builds a cache a
	 * layer, over original_max_position_embeddings x scaling_factor
	 * positions, beside get_rope's (fit.c rope_cache_bytes) */
	if (m->arch != NULL && strcmp(m->arch, "Grok1ForCausalLM") == 0 &&
	    fit_scalar(c, "rope_type") != NULL && m->layers > 0) {
		m->rope_caches = m->layers + 1;
		m->rope_cache_positions = json_long(c,
		    "original_max_position_embeddings") *
		    json_long(c, "scaling_factor");
	}
	vision_facts(ynode_get(root, "vision_config"), m);
	m->attention_heads = json_long(c, "num_attention_heads");
	m->kv_heads = json_long(c, "num_key_value_heads");
	if (m->kv_heads == 0)
		m->kv_heads = m->attention_heads;
	m->head_dim = json_long(c, "head_dim");
	if (m->head_dim == 0 && m->attention_heads > 0 && m->hidden_size > 0 &&
	    m->hidden_size % m->attention_heads == 0)
		m->head_dim = m->hidden_size / m->attention_heads;
	m->kv_lora_rank = json_long(c, "kv_lora_rank");
	m->qk_rope_head_dim = json_long(c, "qk_rope_head_dim");
	if (m->kv_lora_rank > 0)
		m->index_head_dim = json_long(c, "index_head_dim");
	m->experts = json_long(c, "n_routed_experts");
	if (m->experts == 0)
		m->experts = json_long(c, "num_experts");
	if (m->experts == 0)
		m->experts = json_long(c, "num_local_experts");
	m->experts_per_token = json_long(c, "num_experts_per_tok");
	m->expert_params = m->experts > 0 ? -1 : 0;
	if ((s = fit_scalar(c, "tie_word_embeddings")) != NULL)
		m->tied_embeddings = strcmp(s, "true") == 0;
	m->kv_layout = m->kv_lora_rank > 0 ? FK_MLA : FK_MHA;
	if (lt != NULL && lt->kind == YN_SEQ)
		for (i = 0; i < lt->nkids; i++)
			if (lt->kids[i]->kind == YN_SCALAR &&
			    strstr(lt->kids[i]->str, "sliding") != NULL) {
				m->kv_layout = FK_HYBRID_SWA;
				m->sliding_layers++;
			}
	if (m->kv_layout == FK_MHA && (json_long(c, "linear_num_value_heads") >
	    0 || json_long(c, "full_attention_interval") > 1)) {
		long	l;

		for (l = 0; l < m->layers; l++)
			if (linear_layer(c, l))
				m->linear_layers++;
		if (m->linear_layers > 0)
			m->kv_layout = FK_HYBRID_LINEAR;
	}
	if ((s = fit_scalar(c, "torch_dtype")) == NULL)
		s = fit_scalar(c, "dtype");
	m->dtype = fit_dtype_parse(s);
	m->embed_dtype = m->dtype;
	if (q != NULL && q->kind == YN_MAP) {
		const char		*meth = fit_scalar(q, "quant_method");
		const struct ynode	*bs = ynode_get(q, "weight_block_size");

		if (meth != NULL && strcmp(meth, "fp8") == 0)
			m->dtype = bs != NULL ? FD_FP8_BLOCK128 : FD_FP8;
		else if (meth != NULL && strcmp(meth, "mxfp4") == 0)
			m->expert_dtype = FD_MXFP4;
		else if (int4_g32_experts(q))
			m->expert_dtype = FD_INT4_G32;
		else
			m->dtype = FD_UNKNOWN;	/* another scheme: not modelled */
	}
	if (m->expert_dtype == FD_UNKNOWN)
		m->expert_dtype = m->dtype;
	config_params(c, m);
}

int
fit_model_from_config(const char *name, const char *json, size_t len,
    struct fit_model *m, char *err, size_t errlen)
{
	struct ynode	*root = ydoc_parse(name, json, len, false, err, errlen);

	memset(m, 0, sizeof *m);
	m->expert_params = -1;
	m->weight_bytes = -1;
	if (root == NULL)
		return -1;
	if (root->kind != YN_MAP) {
		fit_errf(err, errlen, "%s: not a JSON object", name);
		ynode_free(root);
		return -1;
	}
	m->id = xstrdup(name);
	m->source = xstrdup(name);
	config_facts(root, m);
	ynode_free(root);
	return 1;
}

/* The bytes of a checkpoint: the index's total_size, else the files. */
static double
checkpoint_bytes(const char *dir)
{
	char		*p = xasprintf("%s/model.safetensors.index.json", dir);
	char		 err[256];
	struct ynode	*root = ydoc_load(p, 64 * 1024 * 1024, err, sizeof err);
	double		 total = -1;
	DIR		*d;
	struct dirent	*de;

	free(p);
	if (root != NULL) {
		const struct ynode	*md = ynode_get(root, "metadata");
		const char		*s = md ? fit_scalar(md, "total_size") : NULL;
		char			*end;

		if (s != NULL) {
			total = strtod(s, &end);
			if (*end != '\0' || !(total > 0))
				total = -1;
		}
		ynode_free(root);
		if (total > 0)
			return total;
	}
	if ((d = opendir(dir)) == NULL)
		return -1;
	while ((de = readdir(d)) != NULL) {
		size_t		 n = strlen(de->d_name);
		struct stat	 st;

		if (n <= 12 || strcmp(de->d_name + n - 12, ".safetensors") != 0)
			continue;
		p = xasprintf("%s/%s", dir, de->d_name);
		if (stat(p, &st) == 0 && S_ISREG(st.st_mode))
			total = (total < 0 ? 0 : total) + (double)st.st_size;
		free(p);
	}
	closedir(d);
	return total;
}

int
fit_model_from_dir(const char *dir, struct fit_model *m, char *err,
    size_t errlen)
{
	char		*cj = xasprintf("%s/config.json", dir);
	char		*text;
	size_t		 len;
	struct stat	 st;
	int		 rc;

	memset(m, 0, sizeof *m);
	m->expert_params = -1;
	m->weight_bytes = -1;
	if (stat(cj, &st) != 0) {
		free(cj);
		return 0;
	}
	if ((text = read_file(cj, FIT_DATA_MAX, &len, err, errlen)) == NULL) {
		free(cj);
		return -1;
	}
	rc = fit_model_from_config(cj, text, len, m, err, errlen);
	free(text);
	free(cj);
	if (rc == 1) {
		free(m->id);
		m->id = xstrdup(dir);
		m->weight_bytes = checkpoint_bytes(dir);
	}
	return rc;
}

