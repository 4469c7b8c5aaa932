/*
 * deploy_yaml_write.c - write a deployment as the YAML file deploy_yaml.c
 * reads back (share/deployment-format.md), with libyaml's emitter.
 */
#define _POSIX_C_SOURCE 200809L
#include "deploy/deploy.h"
#include "deploy/deploy_int.h"
#include "core/util.h"
#include "core/ydoc.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

struct yw {
	yaml_emitter_t	e;
	struct buf	out;
	bool		failed;
};

static int
yw_write(void *arg, unsigned char *data, size_t size)
{
	struct yw	*w = arg;

	buf_add(&w->out, (const char *)data, size);
	return 1;
}

static void
yw_ev(struct yw *w, yaml_event_t *ev)
{
	if (w->failed) {
		yaml_event_delete(ev);
		return;
	}
	if (!yaml_emitter_emit(&w->e, ev))
		w->failed = true;
}

static void
yw_scalar(struct yw *w, const char *s, bool quoted)
{
	yaml_event_t	ev;

	/* Fails (ev left unset) on text that is not UTF-8. */
	if (!yaml_scalar_event_initialize(&ev, NULL, NULL,
	    (yaml_char_t *)(uintptr_t)s, (int)strlen(s), !quoted, 1, quoted ?
	    YAML_DOUBLE_QUOTED_SCALAR_STYLE : YAML_PLAIN_SCALAR_STYLE)) {
		w->failed = true;
		return;
	}
	yw_ev(w, &ev);
}

static void
yw_int(struct yw *w, int v)
{
	char	tmp[32];

	snprintf(tmp, sizeof tmp, "%d", v);
	yw_scalar(w, tmp, false);
}

static void
yw_map(struct yw *w, bool start, bool flow)
{
	yaml_event_t	ev;

	if (start)
		yaml_mapping_start_event_initialize(&ev, NULL, NULL, 1, flow ?
		    YAML_FLOW_MAPPING_STYLE : YAML_BLOCK_MAPPING_STYLE);
	else
		yaml_mapping_end_event_initialize(&ev);
	yw_ev(w, &ev);
}

static void
yw_seq(struct yw *w, bool start, bool flow)
{
	yaml_event_t	ev;

	if (start)
		yaml_sequence_start_event_initialize(&ev, NULL, NULL, 1, flow ?
		    YAML_FLOW_SEQUENCE_STYLE : YAML_BLOCK_SEQUENCE_STYLE);
	else
		yaml_sequence_end_event_initialize(&ev);
	yw_ev(w, &ev);
}

static void
yw_key(struct yw *w, const char *k)
{
	yw_scalar(w, k, false);
}

/* A kv value as YAML: typed scalars plain, strings quoted, lists as seqs. */
static void
yw_kv_value(struct yw *w, const struct catalog *cat, const struct kv *k)
{
	int			 o = catalog_find(cat, k->name);
	enum otype		 t = o >= 0 ? cat->opts[o].type : T_STR;
	const char		*v = k->value ? k->value : "";
	struct value		 pv;

	if (o >= 0 && cat->opts[o].kind == OK_ENV)
		t = T_STR;	/* env values are text */
	if (t == T_LIST) {
		const char	*p = v, *q;

		yw_seq(w, true, true);
		while (*p != '\0') {
			char	*item;

			q = strchr(p, '\x1f');
			if (q == NULL)
				q = p + strlen(p);
			item = xstrndup(p, (size_t)(q - p));
			yw_scalar(w, item, true);
			free(item);
			p = *q ? q + 1 : q;
		}
		yw_seq(w, false, true);
		return;
	}
	if ((t == T_INT || t == T_FLOAT || t == T_BOOL || t == T_BOOLOPT) &&
	    val_parse(t, v, &pv) == 0 && strcmp(v, "") != 0) {
		yw_scalar(w, v, false);
		return;
	}
	yw_scalar(w, v, true);
}

static int
kv_cmp(const void *a, const void *b)
{
	return strcmp(((const struct kv *)a)->name, ((const struct kv *)b)->name);
}

static void
yw_kvs(struct yw *w, const struct catalog *cat, const char *key,
    const struct kv *arr, size_t n, bool router)
{
	struct kv	*s;
	size_t		 i;

	if (n == 0)
		return;
	s = xcalloc(n, sizeof *s);
	memcpy(s, arr, n * sizeof *s);
	sort_items(s, n, sizeof *s, kv_cmp);
	yw_key(w, key);
	yw_map(w, true, false);
	for (i = 0; i < n; i++) {
		yw_key(w, s[i].name);
		if (router) {
			const struct option	*ro = router_opt_find(cat,
			    s[i].name);

			yw_scalar(w, s[i].value ? s[i].value : "", ro == NULL ||
			    ro->type == T_STR);
		} else
			yw_kv_value(w, cat, &s[i]);
	}
	yw_map(w, false, false);
	free(s);
}

/* env, then unchecked_env: the variables the catalog does not know. */
static void
yw_env(struct yw *w, const struct catalog *cat, const struct kv *arr,
    size_t n)
{
	struct kv	*known = xcalloc(n + 1, sizeof *known);
	struct kv	*other = xcalloc(n + 1, sizeof *other);
	size_t		 i, nk = 0, no = 0;

	for (i = 0; i < n; i++) {
		int	o = catalog_find(cat, arr[i].name);

		if (o >= 0 && cat->opts[o].kind == OK_ENV)
			known[nk++] = arr[i];
		else
			other[no++] = arr[i];
	}
	yw_kvs(w, cat, "env", known, nk, false);
	yw_kvs(w, cat, "unchecked_env", other, no, false);
	free(known);
	free(other);
}

static void
yw_strs(struct yw *w, const char *key, char **v, size_t n, bool flow)
{
	size_t	i;

	yw_key(w, key);
	yw_seq(w, true, flow);
	for (i = 0; i < n; i++)
		yw_scalar(w, v[i], true);
	yw_seq(w, false, flow);
}

static void
yw_role(struct yw *w, const struct catalog *cat, const struct role_spec *r,
    enum role role)
{
	size_t	i;

	yw_key(w, role_name(role));
	yw_map(w, true, false);
	if (role != ROLE_ROUTER) {
		yw_key(w, "instances");
		yw_int(w, r->instances);
		yw_key(w, "nodes_per_instance");
		yw_int(w, r->nodes_per_instance);
		if (r->gpus_per_node > 0) {
			yw_key(w, "gpus_per_node");
			yw_int(w, r->gpus_per_node);
		}
	}
	if (r->nhosts > 0)
		yw_strs(w, "hosts", r->hosts, r->nhosts, true);
	if (role != ROLE_ROUTER && r->pod_hosts) {
		yw_key(w, "pod_hosts");
		yw_scalar(w, "true", false);
	}
	if (r->bind_host != NULL) {
		yw_key(w, "bind_host");
		yw_scalar(w, r->bind_host, true);
	}
	if (r->port >= 0) {
		yw_key(w, "port");
		yw_int(w, r->port);
	}
	if (role != ROLE_ROUTER) {
		if (r->port_step != 0) {
			yw_key(w, "port_step");
			yw_int(w, r->port_step);
		}
		if (role == ROLE_PREFILL && r->bootstrap_port >= 0) {
			yw_key(w, "bootstrap_port");
			yw_int(w, r->bootstrap_port);
		}
		if (r->dist_init_port >= 0) {
			yw_key(w, "dist_init_port");
			yw_int(w, r->dist_init_port);
		}
		if (r->base_gpu_id >= 0) {
			yw_key(w, "base_gpu_id");
			yw_int(w, r->base_gpu_id);
		}
		if (r->gpu_step != 0) {
			yw_key(w, "gpu_step");
			yw_int(w, r->gpu_step);
		}
		if (r->model != NULL) {
			yw_key(w, "model");
			yw_scalar(w, r->model, true);
		}
		yw_kvs(w, cat, "options", r->opts, r->nopts, false);
		if (r->nextra_args > 0)
			yw_strs(w, "extra_args", r->extra_args, r->nextra_args,
			    true);
		yw_env(w, cat, r->env, r->nenv);
	} else {
		if (r->policy != NULL) {
			yw_key(w, "policy");
			yw_scalar(w, r->policy, true);
		}
		yw_kvs(w, cat, "options", r->opts, r->nopts, true);
		yw_env(w, cat, r->env, r->nenv);
		for (i = 0; i < 2; i++) {
			const struct endpoint	*e = i == 0 ? r->prefill_urls :
			    r->decode_urls;
			size_t			 n = i == 0 ? r->nprefill_urls :
			    r->ndecode_urls, j;

			if (n == 0)
				continue;
			yw_key(w, i == 0 ? "prefill_urls" : "decode_urls");
			yw_seq(w, true, false);
			for (j = 0; j < n; j++) {
				yw_map(w, true, true);
				yw_key(w, "url");
				yw_scalar(w, e[j].url, true);
				if (i == 0 && e[j].bootstrap_port >= 0) {
					yw_key(w, "bootstrap_port");
					yw_int(w, e[j].bootstrap_port);
				} else if (i == 0 && e[j].bad_port != NULL) {
					yw_key(w, "bootstrap_port");
					yw_scalar(w, e[j].bad_port, true);
				}
				yw_map(w, false, true);
			}
			yw_seq(w, false, false);
		}
		if (r->nextra_args > 0)
			yw_strs(w, "extra_args", r->extra_args, r->nextra_args,
			    true);
	}
	yw_map(w, false, false);
}

static void
yw_missing(struct yw *w, const struct deployment *d)
{
	int	i, n = 0;

	for (i = 0; i < NPD_ROLE; i++) {
		if (d->role[i].missing == NULL)
			continue;
		if (n++ == 0) {
			yw_key(w, "missing");
			yw_map(w, true, false);
		}
		yw_key(w, role_name((enum role)i));
		yw_scalar(w, d->role[i].missing, true);
	}
	if (n > 0)
		yw_map(w, false, false);
}

char *
deployment_to_yaml(const struct catalog *cat, const struct deployment *d)
{
	struct yw	w;
	yaml_event_t	ev;
	int		i;

	memset(&w, 0, sizeof w);
	if (!yaml_emitter_initialize(&w.e))
		return NULL;
	yaml_emitter_set_output(&w.e, yw_write, &w);
	yaml_emitter_set_unicode(&w.e, 1);
	yaml_emitter_set_width(&w.e, -1);
	yaml_emitter_set_indent(&w.e, 2);
	yaml_stream_start_event_initialize(&ev, YAML_UTF8_ENCODING);
	yw_ev(&w, &ev);
	yaml_document_start_event_initialize(&ev, NULL, NULL, NULL, 1);
	yw_ev(&w, &ev);
	yw_map(&w, true, false);
	yw_key(&w, "pdwiz");
	yw_int(&w, DEPLOY_FORMAT_VERSION);
	if (d->name != NULL) {
		yw_key(&w, "name");
		yw_scalar(&w, d->name, true);
	}
	if (d->sglang_version != NULL) {
		yw_key(&w, "sglang");
		yw_scalar(&w, d->sglang_version, true);
	}
	if (d->gpus_per_host < 0) {
		/* An import's: the script does not say. */
		yw_key(&w, "gpus_per_host");
		yw_scalar(&w, "null", false);
	} else if (d->gpus_per_host > 0) {
		yw_key(&w, "gpus_per_host");
		yw_int(&w, d->gpus_per_host);
	}
	yw_key(&w, "model");
	yw_map(&w, true, false);
	yw_key(&w, "path");
	yw_scalar(&w, d->model ? d->model : "", true);
	if (d->nfacts > 0)
		yw_kvs(&w, cat, "facts", d->facts, d->nfacts, false);
	yw_map(&w, false, false);
	yw_missing(&w, d);
	if (d->nshared + d->nshared_env > 0) {
		yw_key(&w, "shared");
		yw_map(&w, true, false);
		yw_kvs(&w, cat, "options", d->shared, d->nshared, false);
		yw_env(&w, cat, d->shared_env, d->nshared_env);
		yw_map(&w, false, false);
	}
	yw_key(&w, "roles");
	yw_map(&w, true, false);
	for (i = 0; i < NPD_ROLE; i++)
		if (d->role[i].enabled)
			yw_role(&w, cat, &d->role[i], (enum role)i);
	yw_map(&w, false, false);
	if (d->k8s_image != NULL || d->k8s_namespace != NULL) {
		yw_key(&w, "k8s");
		yw_map(&w, true, false);
		if (d->k8s_image != NULL) {
			yw_key(&w, "image");
			yw_scalar(&w, d->k8s_image, true);
		}
		if (d->k8s_namespace != NULL) {
			yw_key(&w, "namespace");
			yw_scalar(&w, d->k8s_namespace, true);
		}
		yw_map(&w, false, false);
	}
	yw_map(&w, false, false);
	yaml_document_end_event_initialize(&ev, 1);
	yw_ev(&w, &ev);
	yaml_stream_end_event_initialize(&ev);
	yw_ev(&w, &ev);
	if (w.failed && getenv("PDWIZ_DEBUG_YAML"))
		fprintf(stderr, "yaml emitter: %s\n", w.e.problem ? w.e.problem : "?");
	yaml_emitter_delete(&w.e);
	if (w.failed) {
		buf_free(&w.out);
		return NULL;
	}
	return buf_steal(&w.out);
}

char *
deployment_to_yaml_checked(const struct catalog *cat,
    const struct deployment *d, char *why, size_t whylen)
{
	struct deployment	 back;
	char			*y, err[4096];
	const char		*msg = err, *sep;

	if ((y = deployment_to_yaml(cat, d)) == NULL) {
		snprintf(why, whylen, "cannot be written (text that is not "
		    "UTF-8?)");
		return NULL;
	}
	if (deployment_parse(cat, "", y, strlen(y), &back, err,
	    sizeof err) != 0) {
		/* Drop the ":line:col: " of a text that is not a file. */
		if (*err == ':' && (sep = strstr(err, ": ")) != NULL)
			msg = sep + 2;
		snprintf(why, whylen, "would not read back: %s", msg);
		free(y);
		y = NULL;
	}
	deployment_free(&back);
	return y;
}
