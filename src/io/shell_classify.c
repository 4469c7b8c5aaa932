/*
 * shell_classify.c - what a command runs, past wrappers (nohup, env, uv
 * run, ...): python -m MODULE, sglang serve, sgl-router.
 */

#include "io/shell_int.h"

#include <stdlib.h>
#include <string.h>

/*
 * Wrappers that run the rest of the line as a command: their options, and
 * how many operands come before the command.
 */
struct wrapper {
	const char	*name;
	const char	*shortarg;	/* short options with an argument */
	const char	*longarg;	/* ",long,options,with,argument," */
	int		 operands;
	bool		 keyword;	/* matched as written, not by basename */
};

static const struct wrapper wrappers[] = {
	{ "nohup", "", ",", 0, false },
	{ "exec", "a", ",", 0, false },
	{ "time", "", ",", 0, false },
	{ "command", "", ",", 0, false },
	{ "nice", "n", ",adjustment,", 0, false },
	{ "setsid", "", ",", 0, false },
	{ "stdbuf", "ioe", ",input,output,error,", 0, false },
	{ "timeout", "sk", ",signal,kill-after,", 1, false },
	{ "taskset", "", ",", 1, false },
	{ "numactl", "CimNpPw", ",", 0, false },
	{ "!", "", ",", 0, true },
	{ "{", "", ",", 0, true },
	{ "then", "", ",", 0, true },
	{ "do", "", ",", 0, true },
	{ "else", "", ",", 0, true },
	{ "elif", "", ",", 0, true },
	{ "if", "", ",", 0, true },
	{ "while", "", ",", 0, true },
	{ "until", "", ",", 0, true },
	{ NULL, NULL, NULL, 0, false }
};

/* Options of `uv run` and `conda run` that take an argument. */
static const char uv_long[] = ",with,with-editable,with-requirements,python,"
    "project,directory,env-file,extra,group,only-group,no-group,index,"
    "default-index,index-url,extra-index-url,find-links,index-strategy,"
    "keyring-provider,resolution,prerelease,exclude-newer,link-mode,"
    "config-setting,package,cache-dir,config-file,color,refresh-package,"
    "upgrade-package,reinstall-package,no-binary-package,no-build-package,"
    "python-platform,no-extra,fork-strategy,exclude-newer-package,"
    "build-constraints,overrides,constraints,allow-insecure-host,"
    "name,prefix,cwd,";

static const char *
base(const char *w)
{
	const char	*sl = strrchr(w, '/');

	return (sl != NULL ? sl + 1 : w);
}

/* Whether the n bytes at opt are a name in list (",a,b,"). */
static bool
long_takes_arg(const char *list, const char *opt, size_t n)
{
	const char	*q;

	if (n == 0)
		return (false);
	for (q = strchr(list, opt[0]); q != NULL; q = strchr(q + 1, opt[0])) {
		if (q > list && q[-1] == ',' && strncmp(q, opt, n) == 0 &&
		    q[n] == ',')
			return (true);
	}
	return (false);
}

/*
 * Skip the options at words[i]; returns the index of the first operand.
 * A short option in shortarg ends its cluster and takes the rest or the
 * next word. If mod is not NULL, -m/--module MOD is returned in *mod.
 */
static size_t
skip_opts(const struct sh_cmd *c, size_t i, const char *shortarg,
    const char *longarg, const char **mod)
{
	const char	*w, *eq;
	size_t		 k, n;

	for (; i < c->nwords; i++) {
		w = c->words[i].text;
		if (strcmp(w, "--") == 0)
			return (i + 1);
		if (w[0] != '-' || w[1] == '\0')
			return (i);
		if (w[1] == '-') {
			eq = strchr(w, '=');
			n = eq != NULL ? (size_t)(eq - w - 2) : strlen(w + 2);
			if (mod != NULL && n == 6 &&
			    strncmp(w + 2, "module", 6) == 0) {
				*mod = eq != NULL ? eq + 1 : (i + 1 <
				    c->nwords ? c->words[i + 1].text : "");
				return (eq != NULL ? i + 1 : i + 2);
			}
			if (eq == NULL && long_takes_arg(longarg, w + 2, n))
				i++;
			continue;
		}
		for (k = 1; w[k] != '\0'; k++) {
			if (mod != NULL && w[k] == 'c') {
				*mod = "";	/* python -c: not a module */
				return (i);
			}
			if (mod != NULL && w[k] == 'm') {
				*mod = w[k + 1] != '\0' ? w + k + 1 :
				    (i + 1 < c->nwords ?
				    c->words[i + 1].text : "");
				return (w[k + 1] != '\0' ? i + 1 : i + 2);
			}
			if (strchr(shortarg, w[k]) != NULL) {
				if (w[k + 1] == '\0')
					i++;
				break;
			}
		}
	}
	return (i);
}

/* `env [options] [NAME=value]... cmd`: collect its environment. */
static size_t
skip_env(struct parser *p, const struct sh_cmd *c, size_t i, struct own *o)
{
	const char	*w, *u;
	size_t		 k;
	struct var	*v;

	for (i++; i < c->nwords; i++) {
		w = c->words[i].text;
		u = NULL;
		if (strcmp(w, "--") == 0) {
			i++;
			break;
		}
		if (strcmp(w, "-") == 0 || strcmp(w, "-i") == 0 ||
		    strcmp(w, "--ignore-environment") == 0) {
			o->clear = true;
			while (o->t.head != NONE)
				sh_vt_unlink(&o->t, o->t.head);
		} else if (strcmp(w, "-u") == 0 || strcmp(w, "--unset") == 0)
			u = ++i < c->nwords ? c->words[i].text : NULL;
		else if (strncmp(w, "--unset=", 8) == 0)
			u = w + 8;
		else if (strncmp(w, "-u", 2) == 0)
			u = w + 2;
		else if (strcmp(w, "-C") == 0 || strcmp(w, "--chdir") == 0)
			i++;
		else if (strcmp(w, "-S") == 0 || strncmp(w, "--split", 7) == 0)
			return (NONE);
		else if (w[0] != '-')
			break;
		if (u != NULL && *u != '\0') {
			k = strlen(u);
			v = sh_vt_set(&o->t, sh_pool_str(p->pool, u, k), k);
			v->value = "";
			v->del = true;
		}
	}
	for (; i < c->nwords; i++) {
		if (!sh_set_from_text(p, &o->t, &c->words[i], 1))
			break;
	}
	return (i);
}

/* Options of docker run (and podman run) that take a value. */
static const char docker_long[] = ",add-host,annotation,attach,blkio-weight,"
    "blkio-weight-device,cap-add,cap-drop,cgroup-parent,cgroupns,cidfile,"
    "cpu-period,cpu-quota,cpu-rt-period,cpu-rt-runtime,cpu-shares,cpus,"
    "cpuset-cpus,cpuset-mems,device,device-cgroup-rule,device-read-bps,"
    "device-read-iops,device-write-bps,device-write-iops,dns,dns-option,"
    "dns-search,domainname,entrypoint,env,env-file,expose,gpus,group-add,"
    "health-cmd,health-interval,health-retries,health-start-interval,"
    "health-start-period,health-timeout,hostname,ip,ip6,ipc,isolation,"
    "kernel-memory,label,label-file,link,link-local-ip,log-driver,log-opt,"
    "mac-address,memory,memory-reservation,memory-swap,memory-swappiness,"
    "mount,name,network,net,network-alias,net-alias,pid,pids-limit,"
    "platform,publish,pull,restart,runtime,security-opt,shm-size,"
    "stop-signal,stop-timeout,storage-opt,sysctl,tmpfs,ulimit,user,userns,"
    "uts,volume,volumes-from,workdir,";

/*
 * docker run [options] IMAGE [COMMAND...]: the index of the command after
 * the image, or NONE (no command: the image's own, which pdwiz cannot see;
 * or an --entrypoint that replaces how the words are run). The container
 * gets only the environment given with -e NAME=value, not the script's.
 */
static size_t
skip_docker(struct parser *p, const struct sh_cmd *c, size_t i, struct own *o)
{
	const char	*w;
	bool		 entry = false;

	o->clear = true;
	while (o->t.head != NONE)
		sh_vt_unlink(&o->t, o->t.head);
	for (i += 2; i < c->nwords; i++) {
		w = c->words[i].text;
		if (w[0] != '-' || w[1] == '\0')
			break;
		if (strcmp(w, "--") == 0) {
			i++;
			break;
		}
		if (strncmp(w, "--entrypoint", 12) == 0)
			entry = true;
		if ((strcmp(w, "-e") == 0 || strcmp(w, "--env") == 0) &&
		    i + 1 < c->nwords) {
			(void)sh_set_from_text(p, &o->t, &c->words[++i], 1);
			continue;
		}
		if (strncmp(w, "--env=", 6) == 0 || (w[1] == 'e' && w[2] != '\0')) {
			struct sh_word	 e = c->words[i];

			e.text += w[1] == 'e' ? 2 : 6;
			(void)sh_set_from_text(p, &o->t, &e, 1);
			continue;
		}
		if (w[1] == '-') {
			if (strchr(w, '=') == NULL &&
			    long_takes_arg(docker_long, w + 2, strlen(w + 2)))
				i++;
		} else if (strchr("acehlmpuvw", w[strlen(w) - 1]) != NULL &&
		    strchr("acehlmpuvw", w[1]) != NULL && w[2] == '\0')
			i++;
	}
	if (entry || i + 1 >= c->nwords)
		return (NONE);
	return (i + 1);
}

static bool
is_python(const char *b)
{
	if (strncmp(b, "python", 6) != 0)
		return (false);
	for (b += 6; *b >= '0' && *b <= '9'; b++)
		;
	while (*b == '.' || (*b >= '0' && *b <= '9'))
		b++;
	if (*b == 't' || *b == 'm')
		b++;
	return (*b == '\0');
}

/*
 * Options of Dynamo's SGLang worker (python -m dynamo.sglang) that are not
 * SGLang's: its parser takes them, then hands every other word to SGLang's
 * ServerArgs parser. Names from ai-dynamo/dynamo: DYNAMO_ARGS in
 * components/backends/sglang/src/dynamo/sglang/args.py (08d91980) and
 * DynamoRuntimeArgGroup / DynamoSGLangArgGroup in
 * components/src/dynamo/common/configuration/groups/runtime_args.py
 * (007ec174) and components/src/dynamo/sglang/backend_args.py (02ae17cc).
 * nargs: 0 a switch (its --no- form too), 1 one value, '?' an optional
 * value, '*' any number of values.
 */
struct dynflag {
	const char	*name;
	char		 nargs;
};

static const struct dynflag dynamo_flags[] = {
	{ "endpoint", 1 }, { "migration-limit", 1 }, { "namespace", 1 },
	{ "component", 1 }, { "kv-state-endpoint", 1 },
	{ "discovery-backend", 1 }, { "request-plane", 1 },
	{ "response-plane", 1 }, { "event-plane", 1 }, { "store-kv", 1 },
	{ "fpm-trace", 0 }, { "connector", '*' },
	{ "dyn-tool-call-parser", 1 }, { "dyn-reasoning-parser", 1 },
	{ "dyn-default-thinking-mode", 1 },
	{ "exclude-tools-when-tool-choice-none", 0 },
	{ "dyn-enable-structural-tag", 0 }, { "dyn-structural-tag-scope", 1 },
	{ "dyn-structural-tag-schema", 1 }, { "dyn-structural-tag", '?' },
	{ "custom-jinja-template", 1 }, { "endpoint-types", 1 },
	{ "dyn-endpoint-types", 1 }, { "dump-config-to", 1 },
	{ "multimodal-embedding-cache-capacity-gb", 1 },
	{ "multimodal-embedding-cache-publisher", 0 },
	{ "output-modalities", '*' }, { "media-output-fs-url", 1 },
	{ "media-output-http-url", 1 }, { "health-check-payload", 1 },
	{ "engine-request-limit", 1 }, { "tcp-tls-cert-path", 1 },
	{ "tcp-tls-key-path", 1 }, { "tcp-tls-ca-cert-path", 1 },
	{ "tcp-tls-insecure", 0 }, { "tcp-tls-server-name", 1 },
	{ "tcp-tls-handshake-timeout", 1 }, { "tcp-tls-client-cert-path", 1 },
	{ "tcp-tls-client-key-path", 1 }, { "tcp-tls-client-ca-cert-path", 1 },
	{ "nats-tls-ca-cert-path", 1 }, { "nats-tls-insecure", 0 },
	{ "nats-tls-client-cert-path", 1 }, { "nats-tls-client-key-path", 1 },
	{ "use-sglang-tokenizer", 0 }, { "multimodal-processor", 0 },
	{ "multimodal-encode-worker", 0 }, { "multimodal-worker", 0 },
	{ "embedding-worker", 0 }, { "image-diffusion-worker", 0 },
	{ "video-generation-worker", 0 }, { "disagg-config", 1 },
	{ "disagg-config-key", 1 }, { "afd-attention-ratio", 1 },
	{ "afd-ffn-endpoint", 1 }, { "afd-microbatch-size", 1 },
	{ "afd-sync-timeout-ms", 1 }, { "enable-local-indexer", 0 },
	{ "durable-kv-events", 0 }, { "version", 0 },
	{ NULL, 0 }
};

static const struct dynflag *
dynamo_flag(const char *w)
{
	const struct dynflag	*f;
	size_t			 n;
	bool			 neg;

	if (strncmp(w, "--", 2) != 0)
		return (NULL);
	w += 2;
	n = strcspn(w, "=");
	for (f = dynamo_flags; f->name != NULL; f++) {
		neg = f->nargs == 0 && strncmp(w, "no-", 3) == 0;
		if (strlen(f->name) == n - (neg ? 3 : 0) &&
		    strncmp(w + (neg ? 3 : 0), f->name, n - (neg ? 3 : 0)) == 0)
			return (f);
	}
	return (NULL);
}

/* Mark Dynamo's own options (and their values) from words[i] on. */
static void
mark_dynamo(struct sh_cmd *c, size_t i)
{
	const struct dynflag	*f;

	while (i < c->nwords) {
		if ((f = dynamo_flag(c->words[i].text)) == NULL) {
			i++;
			continue;
		}
		c->words[i].foreign = true;
		if (strchr(c->words[i++].text, '=') != NULL || f->nargs == 0)
			continue;
		do {
			if (i >= c->nwords || (c->words[i].text[0] == '-' &&
			    c->words[i].text[1] != '\0'))
				break;
			c->words[i++].foreign = true;
		} while (f->nargs == '*');
	}
}

/*
 * Entry points by module name. dynamo.sglang (with its older .worker and
 * .decode_worker forms, ai-dynamo/dynamo components/backends/sglang/src/
 * dynamo/sglang/{worker,decode_worker}/__main__.py at 9ac963d5) runs SGLang
 * as an engine inside Dynamo's worker: no SGLang HTTP server, and the
 * worker registers itself with Dynamo's discovery. The old PD load
 * balancer sglang.srt.disaggregation.mini_lb is a router; it lives on as
 * sglang_router's --mini-lb.
 */
static enum sh_kind
module_kind(struct sh_cmd *c, const char *m)
{
	if (strcmp(m, "sglang.launch_server") == 0)
		return (SH_SERVER);
	if (strcmp(m, "sglang_router.launch_router") == 0)
		return (SH_ROUTER);
	if (strcmp(m, "dynamo.sglang") == 0 ||
	    strcmp(m, "dynamo.sglang.worker") == 0 ||
	    strcmp(m, "dynamo.sglang.decode_worker") == 0) {
		c->wrapper = "dynamo.sglang";
		c->nohttp = true;
		return (SH_SERVER);
	}
	if (strcmp(m, "sglang.srt.disaggregation.mini_lb") == 0) {
		c->gone = "python -m sglang_router.launch_router "
		    "--pd-disaggregation --mini-lb";
		return (SH_ROUTER);
	}
	return (SH_OTHER);
}

/* Set kind and argstart; env wrappers add to o. */
void
sh_classify(struct parser *p, struct sh_cmd *c, struct own *o)
{
	const struct wrapper	*wr;
	const char		*w, *b, *mod = NULL;
	size_t			 i = 0, n = c->nwords;

	c->kind = SH_OTHER;
	c->argstart = 0;
	c->serve = false;
	while (i < n) {
		w = c->words[i].text;
		b = base(w);
		mod = NULL;
		for (wr = wrappers; wr->name != NULL; wr++) {
			if (wr->name[0] == (wr->keyword ? w : b)[0] &&
			    strcmp(wr->name, wr->keyword ? w : b) == 0)
				break;
		}
		if (wr->name != NULL && wr->keyword) {
			i++;
			continue;
		}
		if (wr->name != NULL) {
			i = skip_opts(c, i + 1, wr->shortarg, wr->longarg,
			    NULL) + wr->operands;
			continue;
		}
		if ((strcmp(b, "docker") == 0 || strcmp(b, "podman") == 0) &&
		    i + 1 < n && strcmp(c->words[i + 1].text, "run") == 0) {
			if ((i = skip_docker(p, c, i, o)) == NONE)
				return;
			c->wrapper = "docker run";
			continue;
		}
		if (strcmp(b, "env") == 0) {
			if ((i = skip_env(p, c, i, o)) == NONE)
				return;
			continue;
		}
		if ((strcmp(b, "uv") == 0 || strcmp(b, "conda") == 0 ||
		    strcmp(b, "mamba") == 0 || strcmp(b, "micromamba") == 0) &&
		    i + 1 < n && strcmp(c->words[i + 1].text, "run") == 0) {
			i = skip_opts(c, i + 2, strcmp(b, "uv") == 0 ?
			    "pCfP" : "np", uv_long,
			    strcmp(b, "uv") == 0 ? &mod : NULL);
			if (mod != NULL)
				break;
			continue;
		}
		/* A wrapper script named just before the interpreter it
		 * starts (run-with-new-libstdc.sh python3 -m ...). */
		if (i + 1 < n && strlen(b) > 3 &&
		    strcmp(b + strlen(b) - 3, ".sh") == 0 &&
		    is_python(base(c->words[i + 1].text))) {
			c->wrapper = w;
			i++;
			continue;
		}
		if (is_python(b)) {
			i = skip_opts(c, i + 1, "WX", ",check-hash-based-pycs,",
			    &mod);
			break;
		}
		if (strcmp(b, "sglang") == 0 && i + 1 < n &&
		    strcmp(c->words[i + 1].text, "serve") == 0) {
			c->kind = SH_SERVER;
			c->argstart = i + 2;
			c->serve = true;
		} else if (strcmp(b, "sglang.launch_server") == 0) {
			c->kind = SH_SERVER;
			c->argstart = i + 1;
		} else if (strcmp(b, "sgl-router") == 0 ||
		    strcmp(b, "sglang-router") == 0 ||
		    strcmp(b, "sglang_router.launch_router") == 0) {
			c->kind = SH_ROUTER;
			c->argstart = i + 1;
		}
		return;
	}
	if (mod != NULL && (c->kind = module_kind(c, mod)) != SH_OTHER)
		c->argstart = i > n ? n : i;
	if (c->kind == SH_SERVER && c->wrapper != NULL &&
	    strcmp(c->wrapper, "dynamo.sglang") == 0)
		mark_dynamo(c, c->argstart);
}
