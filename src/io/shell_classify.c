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

static enum sh_kind
module_kind(const char *m)
{
	if (strcmp(m, "sglang.launch_server") == 0)
		return (SH_SERVER);
	if (strcmp(m, "sglang_router.launch_router") == 0)
		return (SH_ROUTER);
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
		if (is_python(b)) {
			i = skip_opts(c, i + 1, "WX", ",check-hash-based-pycs,",
			    &mod);
			break;
		}
		if (strcmp(b, "sglang") == 0 && i + 1 < n &&
		    strcmp(c->words[i + 1].text, "serve") == 0) {
			c->kind = SH_SERVER;
			c->argstart = i + 2;
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
	if (mod != NULL && (c->kind = module_kind(mod)) != SH_OTHER)
		c->argstart = i > n ? n : i;
}
