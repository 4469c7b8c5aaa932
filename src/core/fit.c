/* fit.c - will it fit: weights, KV cache and memory per GPU, before launch. */
#include "fit.h"
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

#define FIT_DATA_MAX	(4 * 1024 * 1024)
#define MIB		(1024.0 * 1024.0)

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

/* ---- dtypes ---- */

static const struct {
	const char	*name;
	enum fit_dtype	 t;
	double		 bytes;
} dtypes[] = {
	{ "bf16", FD_BF16, 2.0 },
	{ "fp16", FD_FP16, 2.0 },
	{ "fp32", FD_FP32, 4.0 },
	{ "fp8", FD_FP8, 1.0 },
	/* one fp32 scale per 128 x 128 block */
	{ "fp8-block128", FD_FP8_BLOCK128, 1.0 + 4.0 / 16384.0 },
	/* 4-bit values, one e8m0 scale per 32 */
	{ "mxfp4", FD_MXFP4, 0.5 + 1.0 / 32.0 },
	/* 4-bit values, one fp8 scale per 16 */
	{ "nvfp4", FD_NVFP4, 0.5 + 1.0 / 16.0 },
};

double
fit_dtype_bytes(enum fit_dtype t)
{
	size_t	i;

	for (i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
		if (dtypes[i].t == t)
			return dtypes[i].bytes;
	return 0;
}

enum fit_dtype
fit_dtype_parse(const char *s)
{
	size_t	i;

	if (s == NULL)
		return FD_UNKNOWN;
	if (strcmp(s, "bfloat16") == 0)
		return FD_BF16;
	if (strcmp(s, "float16") == 0 || strcmp(s, "half") == 0)
		return FD_FP16;
	if (strcmp(s, "float32") == 0 || strcmp(s, "float") == 0)
		return FD_FP32;
	for (i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
		if (strcmp(dtypes[i].name, s) == 0)
			return dtypes[i].t;
	return FD_UNKNOWN;
}

const char *
fit_dtype_name(enum fit_dtype t)
{
	size_t	i;

	for (i = 0; i < sizeof dtypes / sizeof dtypes[0]; i++)
		if (dtypes[i].t == t)
			return dtypes[i].name;
	return "unknown";
}

/* ---- loading the data files ---- */

static void
errf(char *err, size_t errlen, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static void
errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

static const char *
scalar(const struct ynode *map, const char *key)
{
	const struct ynode	*n = ynode_get(map, key);

	if (n == NULL || n->kind != YN_SCALAR || ynode_is_null(n))
		return NULL;
	return n->str;
}

/* A required or optional string of a mapping; -1 on a wrong kind. */
static int
get_str(const struct ynode *map, const char *key, bool required,
    char **out, const char *file, char *err, size_t errlen)
{
	const struct ynode	*n = ynode_get(map, key);

	*out = NULL;
	if (n == NULL || ynode_is_null(n)) {
		if (!required)
			return 0;
		ynode_err(err, errlen, file, map, "missing '%s'", key);
		return -1;
	}
	if (n->kind != YN_SCALAR || n->len == 0) {
		ynode_err(err, errlen, file, n, "'%s' must be a string", key);
		return -1;
	}
	*out = xstrdup(n->str);
	return 0;
}

/* A non-negative number; absent leaves *out alone. */
static int
get_num(const struct ynode *map, const char *key, double *out,
    const char *file, char *err, size_t errlen)
{
	const struct ynode	*n = ynode_get(map, key);
	char			*end;
	double			 v;

	if (n == NULL)
		return 0;
	if (n->kind != YN_SCALAR || n->len == 0) {
		ynode_err(err, errlen, file, n, "'%s' must be a number", key);
		return -1;
	}
	errno = 0;
	v = strtod(n->str, &end);
	if (*end != '\0' || errno != 0 || !isfinite(v) || v < 0) {
		ynode_err(err, errlen, file, n,
		    "'%s' must be a non-negative number, not '%s'", key,
		    n->str);
		return -1;
	}
	*out = v;
	return 0;
}

static int
get_long(const struct ynode *map, const char *key, long *out,
    const char *file, char *err, size_t errlen)
{
	double	v = -1;

	if (get_num(map, key, &v, file, err, errlen) != 0)
		return -1;
	if (v < 0)
		return 0;
	if (v != floor(v) || v > 1e15) {
		ynode_err(err, errlen, file, ynode_get(map, key),
		    "'%s' must be a whole number", key);
		return -1;
	}
	*out = (long)v;
	return 0;
}

static int
get_strlist(const struct ynode *map, const char *key, char ***out,
    size_t *n, bool lower, const char *file, char *err, size_t errlen)
{
	const struct ynode	*s = ynode_get(map, key);
	size_t			 i, j;

	*out = NULL;
	*n = 0;
	if (s == NULL)
		return 0;
	if (s->kind == YN_SCALAR) {
		*out = xcalloc(1, sizeof **out);
		(*out)[0] = xstrdup(s->str);
		*n = 1;
	} else if (s->kind == YN_SEQ) {
		*out = xcalloc(s->nkids ? s->nkids : 1, sizeof **out);
		for (i = 0; i < s->nkids; i++) {
			if (s->kids[i]->kind != YN_SCALAR) {
				ynode_err(err, errlen, file, s->kids[i],
				    "'%s' must list strings", key);
				return -1;
			}
			(*out)[(*n)++] = xstrdup(s->kids[i]->str);
		}
	} else {
		ynode_err(err, errlen, file, s, "'%s' must be a list", key);
		return -1;
	}
	if (lower)
		for (i = 0; i < *n; i++)
			for (j = 0; (*out)[i][j] != '\0'; j++)
				if ((*out)[i][j] >= 'A' && (*out)[i][j] <= 'Z')
					(*out)[i][j] = (char)((*out)[i][j] + 32);
	return 0;
}

static int
get_dtype(const struct ynode *map, const char *key, enum fit_dtype *out,
    const char *file, char *err, size_t errlen)
{
	const char	*s = scalar(map, key);

	if (s == NULL)
		return 0;
	if ((*out = fit_dtype_parse(s)) == FD_UNKNOWN) {
		ynode_err(err, errlen, file, ynode_get(map, key),
		    "'%s': unknown dtype '%s'", key, s);
		return -1;
	}
	return 0;
}

static void
gpu_clear(struct fit_gpu *g)
{
	size_t	i;

	free(g->name);
	for (i = 0; i < g->naliases; i++)
		free(g->aliases[i]);
	free(g->aliases);
	free(g->platform);
	free(g->arch);
	free(g->source);
	memset(g, 0, sizeof *g);
}

static int
load_gpu(const struct ynode *n, struct fit_gpu *g, const char *file,
    char *err, size_t errlen)
{
	static const char *const keys[] = { "name", "aliases", "platform",
	    "arch", "link", "memory_gb", "reported_mib", "memory_bytes",
	    "source", "reported_source", NULL };
	char		*link = NULL;
	double		 want;

	if (n->kind != YN_MAP) {
		ynode_err(err, errlen, file, n, "an accelerator is a mapping");
		return -1;
	}
	if (ynode_check_keys(n, keys, file, err, errlen) != 0 ||
	    get_str(n, "name", true, &g->name, file, err, errlen) != 0 ||
	    get_strlist(n, "aliases", &g->aliases, &g->naliases, false, file,
	    err, errlen) != 0 ||
	    get_str(n, "platform", true, &g->platform, file, err, errlen) != 0 ||
	    get_str(n, "arch", true, &g->arch, file, err, errlen) != 0 ||
	    get_str(n, "link", true, &link, file, err, errlen) != 0 ||
	    get_str(n, "source", true, &g->source, file, err, errlen) != 0 ||
	    get_num(n, "memory_gb", &g->memory_gb, file, err, errlen) != 0 ||
	    get_num(n, "reported_mib", &g->reported_mib, file, err,
	    errlen) != 0 ||
	    get_num(n, "memory_bytes", &g->memory_bytes, file, err,
	    errlen) != 0) {
		free(link);
		return -1;
	}
	if (strcmp(link, "pcie") == 0)
		g->link = FL_PCIE;
	else if (strcmp(link, "nvlink") == 0 || strcmp(link, "xgmi") == 0 ||
	    strcmp(link, "hccs") == 0)
		g->link = FL_FABRIC;
	else {
		ynode_err(err, errlen, file, ynode_get(n, "link"),
		    "link must be nvlink, xgmi, hccs or pcie");
		free(link);
		return -1;
	}
	free(link);
	if (strcmp(g->platform, "cuda") != 0 && strcmp(g->platform, "hip") != 0 &&
	    strcmp(g->platform, "npu") != 0) {
		ynode_err(err, errlen, file, ynode_get(n, "platform"),
		    "platform must be cuda, hip or npu");
		return -1;
	}
	if (g->memory_gb <= 0) {
		ynode_err(err, errlen, file, n, "missing 'memory_gb'");
		return -1;
	}
	want = g->reported_mib > 0 ? g->reported_mib * MIB :
	    g->memory_gb * FIT_GIB;
	if (g->memory_bytes != want) {
		ynode_err(err, errlen, file, ynode_get(n, "memory_bytes") ?
		    ynode_get(n, "memory_bytes") : n,
		    "memory_bytes must be %.0f (%s)", want,
		    g->reported_mib > 0 ? "reported_mib x 2^20" :
		    "memory_gb x 2^30");
		return -1;
	}
	return 0;
}

static int
load_model(const struct ynode *n, struct fit_model *m, char ***match,
    size_t *nmatch, const char *file, char *err, size_t errlen)
{
	static const char *const keys[] = { "match", "id", "source", "arch",
	    "params_total", "expert_params", "embed_params",
	    "replicated_params", "tied_embeddings", "layers", "hidden_size",
	    "attention_heads", "kv_heads", "head_dim", "kv_lora_rank",
	    "qk_rope_head_dim", "experts", "experts_per_token",
	    "sliding_layers", "dtype",
	    "expert_dtype", "embed_dtype", "kv_layout", NULL };
	const char	*s;

	memset(m, 0, sizeof *m);
	m->expert_params = -1;
	m->weight_bytes = -1;
	if (n->kind != YN_MAP) {
		ynode_err(err, errlen, file, n, "a model is a mapping");
		return -1;
	}
	if (ynode_check_keys(n, keys, file, err, errlen) != 0 ||
	    get_strlist(n, "match", match, nmatch, true, file, err,
	    errlen) != 0 ||
	    get_str(n, "id", true, &m->id, file, err, errlen) != 0 ||
	    get_str(n, "source", true, &m->source, file, err, errlen) != 0 ||
	    get_str(n, "arch", true, &m->arch, file, err, errlen) != 0 ||
	    get_num(n, "params_total", &m->params_total, file, err,
	    errlen) != 0 ||
	    get_num(n, "expert_params", &m->expert_params, file, err,
	    errlen) != 0 ||
	    get_num(n, "embed_params", &m->embed_params, file, err,
	    errlen) != 0 ||
	    get_num(n, "replicated_params", &m->replicated_params, file, err,
	    errlen) != 0 ||
	    get_long(n, "layers", &m->layers, file, err, errlen) != 0 ||
	    get_long(n, "hidden_size", &m->hidden_size, file, err,
	    errlen) != 0 ||
	    get_long(n, "attention_heads", &m->attention_heads, file, err,
	    errlen) != 0 ||
	    get_long(n, "kv_heads", &m->kv_heads, file, err, errlen) != 0 ||
	    get_long(n, "head_dim", &m->head_dim, file, err, errlen) != 0 ||
	    get_long(n, "kv_lora_rank", &m->kv_lora_rank, file, err,
	    errlen) != 0 ||
	    get_long(n, "qk_rope_head_dim", &m->qk_rope_head_dim, file, err,
	    errlen) != 0 ||
	    get_long(n, "experts", &m->experts, file, err, errlen) != 0 ||
	    get_long(n, "experts_per_token", &m->experts_per_token, file, err,
	    errlen) != 0 ||
	    get_long(n, "sliding_layers", &m->sliding_layers, file, err,
	    errlen) != 0 ||
	    get_dtype(n, "dtype", &m->dtype, file, err, errlen) != 0 ||
	    get_dtype(n, "expert_dtype", &m->expert_dtype, file, err,
	    errlen) != 0 ||
	    get_dtype(n, "embed_dtype", &m->embed_dtype, file, err,
	    errlen) != 0)
		return -1;
	if (*nmatch == 0) {
		ynode_err(err, errlen, file, n, "missing 'match'");
		return -1;
	}
	if ((s = scalar(n, "tied_embeddings")) != NULL)
		m->tied_embeddings = strcmp(s, "true") == 0;
	if ((s = scalar(n, "kv_layout")) != NULL) {
		if (strcmp(s, "mha") == 0)
			m->kv_layout = FK_MHA;
		else if (strcmp(s, "mla") == 0)
			m->kv_layout = FK_MLA;
		else if (strcmp(s, "hybrid-swa") == 0)
			m->kv_layout = FK_HYBRID_SWA;
		else {
			ynode_err(err, errlen, file, ynode_get(n, "kv_layout"),
			    "kv_layout must be mha, mla or hybrid-swa");
			return -1;
		}
	}
	if (m->expert_params > m->params_total ||
	    m->embed_params + m->replicated_params +
	    (m->expert_params > 0 ? m->expert_params : 0) > m->params_total) {
		ynode_err(err, errlen, file, n,
		    "expert, embedding and replicated parameters exceed "
		    "params_total");
		return -1;
	}
	if (m->expert_params > 0 && m->expert_dtype == FD_UNKNOWN)
		m->expert_dtype = m->dtype;
	return 0;
}

static int
parse_hw(struct fit_db *db, const char *name, const char *text, size_t len,
    char *err, size_t errlen)
{
	struct ynode		*root = ydoc_parse(name, text, len, false, err,
	    errlen);
	const struct ynode	*list;
	size_t			 i;
	int			 rc = -1;

	if (root == NULL)
		return -1;
	list = ynode_get(root, "accelerators");
	if (root->kind != YN_MAP || list == NULL || list->kind != YN_SEQ) {
		ynode_err(err, errlen, name, root,
		    "expected a mapping with an 'accelerators' list");
		goto out;
	}
	db->gpus = xcalloc(list->nkids ? list->nkids : 1, sizeof *db->gpus);
	for (i = 0; i < list->nkids; i++) {
		if (load_gpu(list->kids[i], &db->gpus[db->ngpus], name, err,
		    errlen) != 0) {
			gpu_clear(&db->gpus[db->ngpus]);
			goto out;
		}
		db->ngpus++;
	}
	rc = 0;
out:
	ynode_free(root);
	return rc;
}

static int
parse_models(struct fit_db *db, const char *name, const char *text,
    size_t len, char *err, size_t errlen)
{
	struct ynode		*root = ydoc_parse(name, text, len, false, err,
	    errlen);
	const struct ynode	*list;
	size_t			 i, j, n;
	int			 rc = -1;

	if (root == NULL)
		return -1;
	list = ynode_get(root, "models");
	if (root->kind != YN_MAP || list == NULL || list->kind != YN_SEQ) {
		ynode_err(err, errlen, name, root,
		    "expected a mapping with a 'models' list");
		goto out;
	}
	n = list->nkids ? list->nkids : 1;
	db->models = xcalloc(n, sizeof *db->models);
	db->match = xcalloc(n, sizeof *db->match);
	db->nmatch = xcalloc(n, sizeof *db->nmatch);
	for (i = 0; i < list->nkids; i++) {
		size_t	k = db->nmodels;

		if (load_model(list->kids[i], &db->models[k], &db->match[k],
		    &db->nmatch[k], name, err, errlen) != 0) {
			fit_model_clear(&db->models[k]);
			for (j = 0; j < db->nmatch[k]; j++)
				free(db->match[k][j]);
			free(db->match[k]);
			db->match[k] = NULL;
			db->nmatch[k] = 0;
			goto out;
		}
		db->nmodels++;
	}
	rc = 0;
out:
	ynode_free(root);
	return rc;
}

int
fit_db_parse(struct fit_db *db, const char *hwname, const char *hw,
    size_t hwlen, const char *modelsname, const char *models,
    size_t modelslen, char *err, size_t errlen)
{
	memset(db, 0, sizeof *db);
	if ((hw != NULL && parse_hw(db, hwname, hw, hwlen, err, errlen) != 0) ||
	    (models != NULL && parse_models(db, modelsname, models, modelslen,
	    err, errlen) != 0)) {
		fit_db_free(db);
		return -1;
	}
	return 0;
}

int
fit_db_load(struct fit_db *db, const char *datadir, char *err, size_t errlen)
{
	char	*hwp = xasprintf("%s/rules/hardware.yaml", datadir);
	char	*mp = xasprintf("%s/rules/model-sizes.yaml", datadir);
	char	*hw = NULL, *models = NULL;
	size_t	 hwlen = 0, mlen = 0;
	int	 rc = -1;

	memset(db, 0, sizeof *db);
	if ((hw = read_file(hwp, FIT_DATA_MAX, &hwlen, err, errlen)) == NULL ||
	    (models = read_file(mp, FIT_DATA_MAX, &mlen, err, errlen)) == NULL)
		goto out;
	rc = fit_db_parse(db, hwp, hw, hwlen, mp, models, mlen, err, errlen);
out:
	free(hw);
	free(models);
	free(hwp);
	free(mp);
	return rc;
}

void
fit_db_free(struct fit_db *db)
{
	size_t	i, j;

	for (i = 0; i < db->ngpus; i++)
		gpu_clear(&db->gpus[i]);
	free(db->gpus);
	for (i = 0; i < db->nmodels; i++) {
		fit_model_clear(&db->models[i]);
		for (j = 0; j < db->nmatch[i]; j++)
			free(db->match[i][j]);
		free(db->match[i]);
	}
	free(db->models);
	free(db->match);
	free(db->nmatch);
	memset(db, 0, sizeof *db);
}

/* ---- lookup ---- */

/* Lowercase letters and digits only: "H100-SXM" and "h100 sxm" are one. */
static void
norm_name(const char *s, char *out, size_t outlen)
{
	size_t	n = 0;

	for (; *s != '\0' && n + 1 < outlen; s++) {
		char	c = *s;

		if (c >= 'A' && c <= 'Z')
			c = (char)(c + 32);
		if ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9'))
			out[n++] = c;
	}
	out[n] = '\0';
}

const struct fit_gpu *
fit_gpu_find(const struct fit_db *db, const char *name)
{
	char	want[128], have[128];
	size_t	i, j;

	if (name == NULL)
		return NULL;
	norm_name(name, want, sizeof want);
	if (want[0] == '\0')
		return NULL;
	/* "NVIDIA H100 80GB HBM3" as nvidia-smi names it */
	if (strncmp(want, "nvidia", 6) == 0 && want[6] != '\0')
		memmove(want, want + 6, strlen(want + 6) + 1);
	for (i = 0; i < db->ngpus; i++) {
		norm_name(db->gpus[i].name, have, sizeof have);
		if (strcmp(want, have) == 0)
			return &db->gpus[i];
		for (j = 0; j < db->gpus[i].naliases; j++) {
			norm_name(db->gpus[i].aliases[j], have, sizeof have);
			if (strcmp(want, have) == 0)
				return &db->gpus[i];
		}
	}
	return NULL;
}

const struct fit_model *
fit_model_find(const struct fit_db *db, const char *id)
{
	char			*lower;
	size_t			 i, j;
	const struct fit_model	*found = NULL;

	if (id == NULL || *id == '\0')
		return NULL;
	lower = xstrdup(id);
	for (i = 0; lower[i] != '\0'; i++)
		if (lower[i] >= 'A' && lower[i] <= 'Z')
			lower[i] = (char)(lower[i] + 32);
	for (i = 0; i < db->nmodels && found == NULL; i++)
		for (j = 0; j < db->nmatch[i]; j++)
			if (fnmatch(db->match[i][j], lower, 0) == 0) {
				found = &db->models[i];
				break;
			}
	free(lower);
	return found;
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
	const char	*s = scalar(map, key);
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
	const char	*s = scalar(map, key);

	return s != NULL && strcmp(s, "true") == 0;
}

static bool
starts(const char *s, const char *prefix)
{
	return s != NULL && strncmp(s, prefix, strlen(prefix)) == 0;
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
	}
	if (E > 0 && Im <= 0)
		Im = I;			/* Mixtral: experts use intermediate_size */
	if (Is <= 0)
		Is = Im;
	emb = V * H * (m->tied_embeddings ? 1 : 2);
	total = emb + H;
	for (i = 0; i < m->layers; i++) {
		total += att + 2 * H;
		if (E > 0 && moe_layer(c, i)) {
			expert += E * 3 * H * Im;
			total += E * 3 * H * Im + H * E;
			if (scalar(c, "topk_method") != NULL &&
			    strcmp(scalar(c, "topk_method"), "noaux_tc") == 0)
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

static void
config_facts(const struct ynode *root, struct fit_model *m)
{
	const struct ynode	*c = text_config(root);
	const struct ynode	*a = ynode_get(root, "architectures");
	const struct ynode	*q = ynode_get(root, "quantization_config");
	const struct ynode	*lt = ynode_get(c, "layer_types");
	const char		*s;
	size_t			 i;

	if (a != NULL && a->kind == YN_SEQ && a->nkids > 0 &&
	    a->kids[0]->kind == YN_SCALAR)
		m->arch = xstrdup(a->kids[0]->str);
	m->layers = json_long(c, "num_hidden_layers");
	m->hidden_size = json_long(c, "hidden_size");
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
	m->experts = json_long(c, "n_routed_experts");
	if (m->experts == 0)
		m->experts = json_long(c, "num_experts");
	if (m->experts == 0)
		m->experts = json_long(c, "num_local_experts");
	m->experts_per_token = json_long(c, "num_experts_per_tok");
	m->expert_params = m->experts > 0 ? -1 : 0;
	if ((s = scalar(c, "tie_word_embeddings")) != NULL)
		m->tied_embeddings = strcmp(s, "true") == 0;
	m->kv_layout = m->kv_lora_rank > 0 ? FK_MLA : FK_MHA;
	if (lt != NULL && lt->kind == YN_SEQ)
		for (i = 0; i < lt->nkids; i++)
			if (lt->kids[i]->kind == YN_SCALAR &&
			    strstr(lt->kids[i]->str, "sliding") != NULL) {
				m->kv_layout = FK_HYBRID_SWA;
				m->sliding_layers++;
			}
	if ((s = scalar(c, "torch_dtype")) == NULL)
		s = scalar(c, "dtype");
	m->dtype = fit_dtype_parse(s);
	m->embed_dtype = m->dtype;
	if (q != NULL && q->kind == YN_MAP) {
		const char		*meth = scalar(q, "quant_method");
		const struct ynode	*bs = ynode_get(q, "weight_block_size");

		if (meth != NULL && strcmp(meth, "fp8") == 0)
			m->dtype = bs != NULL ? FD_FP8_BLOCK128 : FD_FP8;
		else if (meth != NULL && strcmp(meth, "mxfp4") == 0)
			m->expert_dtype = FD_MXFP4;
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
		errf(err, errlen, "%s: not a JSON object", name);
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
		const char		*s = md ? scalar(md, "total_size") : NULL;
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
 * Tokens of the KV pool. A sliding-window model splits the same bytes
 * between its full-attention layers and its window layers, which hold
 * swa_full_tokens_ratio as many tokens:
 *   full x full_layers + ratio x full x window_layers = tokens x layers.
 */
static void
pool_tokens(const struct fit_model *m, const struct fit_params *p,
    struct fit_result *r)
{
	double	t = floor(r->kv_pool.v / r->kv_per_token.v);
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

enum fit_verdict
fit_estimate(const struct fit_model *m, const struct fit_gpu *g,
    const struct fit_params *pin, struct fit_result *r)
{
	struct fit_params	 p = *pin;
	double			 rest;
	int			 world;

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
	world = p.tp * p.pp;

	/* the accelerator */
	if (g == NULL) {
		unknown(&r->capacity, "unknown: accelerator");
		unknown(&r->free_before, "unknown: accelerator");
	} else {
		known(&r->capacity, gpu_capacity(g));
	}
	if (p.free_gib >= 0)
		known(&r->free_before, p.free_gib * FIT_GIB);
	else if (g != NULL) {
		known(&r->free_before, fit_free_before(g, world));
		r->free_estimated = true;
	}

	/* the static fraction */
	if (p.mem_fraction_static > 0)
		known(&r->mem_fraction, p.mem_fraction_static);
	else if (g != NULL) {
		known(&r->mem_fraction, fit_default_mem_fraction(
		    gpu_capacity(g) / MIB, &p));
		r->mem_fraction_derived = true;
	} else
		unknown(&r->mem_fraction, "unknown: accelerator (for "
		    "SGLang's default mem-fraction-static)");

	/* the model */
	if (m == NULL) {
		unknown(&r->weights, "unknown: model");
		unknown(&r->kv_per_token, "unknown: model");
	} else {
		weights_per_gpu(m, &p, &r->weights);
		kv_cell(m, &p, &r->kv_per_token);
	}

	/* the KV pool: what the weights leave of the static budget */
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
		pool_tokens(m, &p, r);
	if (!r->kv_tokens.known && r->swa_tokens.why[0] == '\0')
		unknown_as(&r->swa_tokens, &r->kv_tokens);
	if (!r->kv_tokens.known)
		unknown_as(&r->requests_at_context, &r->kv_tokens);
	else if (p.context_len <= 0)
		unknown(&r->requests_at_context, "unknown: context length");
	else
		known(&r->requests_at_context,
		    r->kv_tokens.v / (double)p.context_len);

	/* HiCache: a host pool per rank, ratio x the device pool or a size */
	if (!p.hicache)
		unknown(&r->host_pool, "unknown: HiCache not enabled");
	else if (p.hicache_size_gib > 0)
		known(&r->host_pool, p.hicache_size_gib * FIT_GIB);
	else if (r->kv_pool.known && r->kv_tokens.known)
		known(&r->host_pool, (p.hicache_ratio > 0 ? p.hicache_ratio :
		    2.0) * r->kv_tokens.v * r->kv_per_token.v);
	else
		unknown_as(&r->host_pool, r->kv_pool.known ? &r->kv_tokens :
		    &r->kv_pool);
	if (r->host_pool.known && r->kv_per_token.known)
		known(&r->host_tokens, floor(r->host_pool.v /
		    r->kv_per_token.v));
	else
		unknown_as(&r->host_tokens, r->host_pool.known ?
		    &r->kv_per_token : &r->host_pool);

	/* the verdict */
	if (r->weights.known && r->free_before.known &&
	    r->weights.v >= r->free_before.v)
		r->verdict = FV_NO_WEIGHTS;
	else if (r->kv_pool.known && r->kv_pool.v <= 0)
		r->verdict = FV_NO_KV;
	else if (r->kv_tokens.known && p.context_len > 0)
		r->verdict = r->kv_tokens.v >= (double)p.context_len ?
		    FV_FITS : FV_SHORT;
	else if (r->kv_tokens.known)
		r->verdict = r->kv_tokens.v > 0 ? FV_FITS : FV_NO_KV;
	else
		r->verdict = FV_UNKNOWN;
	summarize(m, g, &p, r);
	return r->verdict;
}
