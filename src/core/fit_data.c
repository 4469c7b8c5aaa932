/* fit_data.c - the fit estimate's data: accelerators and model sizes. */
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

/* ---- dtypes ---- */

static const struct {
	const char	*name;
	enum fit_dtype	 t;
	double		 bytes;
} dtypes[] = {
	{ "bf16", FD_BF16, 2.0 },
	{ "fp16", FD_FP16, 2.0 },
	{ "fp32", FD_FP32, 4.0 },
	/* 4-bit integers, one bf16 scale per 32 (compressed-tensors
	 * pack-quantized, symmetric: no zero point) */
	{ "int4-g32", FD_INT4_G32, 0.5 + 2.0 / 32.0 },
	{ "fp8", FD_FP8, 1.0 },
	/* one fp32 scale per 128 x 128 block */
	{ "fp8-block128", FD_FP8_BLOCK128, 1.0 + 4.0 / 16384.0 },
	/* 4-bit values, one e8m0 scale per 32 */
	{ "mxfp4", FD_MXFP4, 0.5 + 1.0 / 32.0 },
	/* 4-bit values, one fp8 scale per 16 */
	{ "nvfp4", FD_NVFP4, 0.5 + 1.0 / 16.0 },
	/* 8-bit values, one e8m0 scale per 32 */
	{ "mxfp8", FD_MXFP8, 1.0 + 1.0 / 32.0 },
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

/* ---- loading the data files ---- */

void
fit_errf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
}

const char *
fit_scalar(const struct ynode *map, const char *key)
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
	const char	*s = fit_scalar(map, key);

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
	    "qk_rope_head_dim", "index_head_dim", "experts",
	    "experts_per_token",
	    "sliding_layers", "linear_layers", "vision_layers",
	    "vision_hidden_size", "context_length", "rope_caches",
	    "rope_cache_positions", "dtype",
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
	    get_long(n, "index_head_dim", &m->index_head_dim, file, err,
	    errlen) != 0 ||
	    get_long(n, "experts", &m->experts, file, err, errlen) != 0 ||
	    get_long(n, "experts_per_token", &m->experts_per_token, file, err,
	    errlen) != 0 ||
	    get_long(n, "sliding_layers", &m->sliding_layers, file, err,
	    errlen) != 0 ||
	    get_long(n, "linear_layers", &m->linear_layers, file, err,
	    errlen) != 0 ||
	    get_long(n, "vision_layers", &m->vision_layers, file, err,
	    errlen) != 0 ||
	    get_long(n, "vision_hidden_size", &m->vision_hidden_size, file,
	    err, errlen) != 0 ||
	    get_long(n, "context_length", &m->context_length, file, err,
	    errlen) != 0 ||
	    get_long(n, "rope_caches", &m->rope_caches, file, err,
	    errlen) != 0 ||
	    get_long(n, "rope_cache_positions", &m->rope_cache_positions,
	    file, err, errlen) != 0 ||
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
	if ((s = fit_scalar(n, "tied_embeddings")) != NULL)
		m->tied_embeddings = strcmp(s, "true") == 0;
	if ((s = fit_scalar(n, "kv_layout")) != NULL) {
		if (strcmp(s, "mha") == 0)
			m->kv_layout = FK_MHA;
		else if (strcmp(s, "mla") == 0)
			m->kv_layout = FK_MLA;
		else if (strcmp(s, "hybrid-swa") == 0)
			m->kv_layout = FK_HYBRID_SWA;
		else if (strcmp(s, "hybrid-linear") == 0)
			m->kv_layout = FK_HYBRID_LINEAR;
		else {
			ynode_err(err, errlen, file, ynode_get(n, "kv_layout"),
			    "kv_layout must be mha, mla, hybrid-swa or "
			    "hybrid-linear");
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
	struct model_id		 mid;
	size_t			 i, j;
	const struct fit_model	*found = NULL;

	if (id == NULL || *id == '\0')
		return NULL;
	lower = xstrdup(id);
	for (i = 0; lower[i] != '\0'; i++)
		if (lower[i] >= 'A' && lower[i] <= 'Z')
			lower[i] = (char)(lower[i] + 32);
	model_id_init(&mid, lower);
	for (i = 0; i < db->nmodels && found == NULL; i++)
		for (j = 0; j < db->nmatch[i]; j++)
			if (model_id_match(db->match[i][j], &mid)) {
				found = &db->models[i];
				break;
			}
	free(lower);
	return found;
}

