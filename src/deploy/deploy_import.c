/*
 * deploy_import.c - a launch script (prefill, decode and router commands,
 * exports, several nodes) to a deployment. Server arguments are read by the
 * argparse-faithful reader, so the deployment holds exactly what SGLang would
 * see. What cannot be placed in the model is reported, never dropped quietly.
 */
#define _POSIX_C_SOURCE 200809L
#include "deploy/deploy.h"
#include "deploy/deploy_int.h"
#include "io/input.h"
#include "deploy/import_int.h"
#include "deploy/layout.h"
#include "core/hashidx.h"
#include "core/util.h"
#include "io/manifest.h"
#include "io/markdown.h"
#include "io/argv.h"
#include "io/server.h"
#include "io/shell.h"

#include <ctype.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct icmd {
	const struct sh_cmd	*sc;
	struct config		 cfg;
	enum role		 role;
	int			 nnodes, rank, port, bport, base_gpu, gpus;
	bool			 port_unknown, host_unknown;
	char			*host;		/* --host (owned) or NULL */
	char			*dist;		/* --dist-init-addr (owned) or NULL */
	bool			 args_unknown;	/* words expanded at run time in
						   place of options */
	const char		*node_host;	/* PDWIZ_NODE_HOST or NULL */
	struct kv		*opts;
	size_t			 nopts;
	struct kv		*env;
	size_t			 nenv;
	char			**extra;	/* words argparse refused, as
						   written (owned) */
	char			*model;		/* --model-path other than the
						   deployment's (owned), or NULL */
	size_t			 nextra;
	int			 inst;
};

static const char *const managed[] = { "model_path", "disaggregation_mode",
	"host", "port", "disaggregation_bootstrap_port", "base_gpu_id",
	"dist_init_addr", "nnodes", "node_rank", NULL };

bool
imp_is_managed(const char *n)
{
	size_t	i;

	for (i = 0; managed[i] != NULL; i++)
		if (strcmp(managed[i], n) == 0)
			return true;
	return false;
}

/*
 * Two kinds of import notes: note() for what is kept with a caveat (a
 * warning), lost() for what the deployment cannot hold (an error: the
 * import fails unless the caller proceeds without it). Both carry the
 * script position of what they are about.
 */
void
imp_vnote(struct result *notes, enum severity sev, int line, int col,
    const char *fmt, va_list ap)
{
	char	msg[1024];

	if (notes == NULL)
		return;
	vsnprintf(msg, sizeof msg, fmt, ap);
	result_add(notes, "import", sev, msg, NULL, line, col > 0 ? col : 1);
}

static void
note(struct result *notes, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
note(struct result *notes, int line, int col, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	imp_vnote(notes, SEV_WARNING, line, col, fmt, ap);
	va_end(ap);
}

static void
lost(struct result *notes, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
lost(struct result *notes, int line, int col, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	imp_vnote(notes, SEV_ERROR, line, col, fmt, ap);
	va_end(ap);
}

/* Column of a command's first word. */
static int
col0(const struct sh_cmd *c)
{
	return c->nwords > 0 ? c->words[0].col : 1;
}

static bool
given(const struct config *c, const char *name)
{
	int	o = catalog_find(c->cat, name);

	return o >= 0 && (c->s[o].src == SRC_CLI || c->s[o].src == SRC_CONFIG);
}

/*
 * The node a command bound to 0.0.0.0 or :: runs on, as pdwiz's shell
 * emitter states it: the plain assignment PDWIZ_NODE_HOST=ADDR before the
 * command (the latest one, as the shell reader's environment has it), or
 * the node a document names for the command's block.
 * NULL when the command binds an address of its own or none is stated.
 */
static const char *
node_host(const struct sh_cmd *c)
{
	const char	*h = NULL;
	size_t		 i;

	if (c->machine != NULL)		/* a manifest's pod */
		return c->machine;
	for (i = 0; i < c->nenv; i++)
		if (strcmp(c->env[i].name, "PDWIZ_NODE_HOST") == 0 &&
		    !c->env[i].unresolved && c->env[i].value[0] != '\0')
			h = c->env[i].value;
	return h != NULL ? h : c->node;
}


static void
read_server(const struct catalog *cat, struct icmd *ic, const char *base_dir,
    struct result *notes)
{
	struct config	 base;
	struct result	 diags;
	struct argword	*cw;
	size_t		 i, ncw;
	long long	 tp, pp, dp;
	int		 o;
	bool		 decode;

	config_init(&base, cat);
	result_init(&diags);
	server_from_cmd(cat, ic->sc, &base, &ic->cfg, &diags, base_dir);
	imp_reader_losses(cat, notes, ic->sc, &diags, &ic->extra,
	    &ic->nextra);
	for (i = 0; i < diags.n; i++)
		if (diags.d[i].id != NULL &&
		    strcmp(diags.d[i].id, "argv-unknown-words") == 0)
			ic->args_unknown = true;
	result_free(&diags);
	config_free(&base);
	ic->nnodes = (int)cfg_int(&ic->cfg, "nnodes", 1);
	ic->rank = (int)cfg_int(&ic->cfg, "node_rank", 0);
	ic->port = (int)cfg_int(&ic->cfg, "port", 30000);
	/* What a command leaves out is SGLang's default, stated explicitly:
	 * a script is what it says, nothing in it is derived. */
	ic->bport = (int)cfg_int(&ic->cfg, "disaggregation_bootstrap_port", 8998);
	ic->base_gpu = (int)cfg_int(&ic->cfg, "base_gpu_id", 0);
	ic->host = given(&ic->cfg, "host") && cfg_str(&ic->cfg, "host") ?
	    xstrdup(cfg_str(&ic->cfg, "host")) : NULL;
	ic->port_unknown = (!ic->sc->nohttp && cfg_unknown(&ic->cfg, "port")) ||
	    cfg_unknown(&ic->cfg, "disaggregation_bootstrap_port");
	ic->host_unknown = cfg_unknown(&ic->cfg, "host") || (ic->host != NULL &&
	    strpbrk(ic->host, "$`") != NULL);
	ic->dist = cfg_str(&ic->cfg, "dist_init_addr") ?
	    xstrdup(cfg_str(&ic->cfg, "dist_init_addr")) : NULL;
	tp = cfg_int(&ic->cfg, "tp_size", 1);
	pp = cfg_int(&ic->cfg, "pp_size", 1);
	o = catalog_find(cat, "enable_dp_attention");
	dp = o >= 0 && ic->cfg.s[o].v.t == V_BOOL && ic->cfg.s[o].v.u.b ? 1 :
	    cfg_int(&ic->cfg, "dp_size", 1);
	ic->gpus = ic->nnodes > 0 ? (int)(tp * pp * dp / ic->nnodes) : 1;
	if (ic->gpus < 1)
		ic->gpus = 1;
	/* Sizes left to run time leave the GPUs per node unstated. */
	if (cfg_unknown(&ic->cfg, "tp_size") || cfg_unknown(&ic->cfg,
	    "pp_size") || cfg_unknown(&ic->cfg, "dp_size") ||
	    cfg_unknown(&ic->cfg, "nnodes"))
		ic->gpus = 0;
	/* A manifest's container states the GPUs it is granted: those are
	 * the node's GPUs the server has, whatever its sizes ask for. */
	if (ic->sc->gpus > 0)
		ic->gpus = ic->sc->gpus;
	imp_config_words(cat, ic->sc, base_dir, &cw, &ncw);
	decode = cfg_str(&ic->cfg, "disaggregation_mode") != NULL &&
	    strcmp(cfg_str(&ic->cfg, "disaggregation_mode"), "decode") == 0;
	for (i = 0; i < cat->nopts; i++) {
		const struct slot	*s = &ic->cfg.s[i];
		char			*t;

		/* A decode's --disaggregation-bootstrap-port is no layout
		 * field (it serves no bootstrap server) but an option: the
		 * port it asks prefills on when the router gives none. */
		if (cat->opts[i].kind != OK_FLAG || (s->src != SRC_CLI &&
		    s->src != SRC_CONFIG) || (imp_is_managed(cat->opts[i].name) &&
		    !(decode && strcmp(cat->opts[i].name,
		    "disaggregation_bootstrap_port") == 0)))
			continue;
		if (s->v.t == V_UNKNOWN || s->v.t == V_NULL) {
			lost(notes, s->line ? s->line : ic->sc->line, s->col,
			    "%s: value could not be read; not placed",
			    cat->opts[i].flag);
			continue;
		}
		t = imp_written_text(ic->sc, cw, ncw, &cat->opts[i], s);
		kv_set(&ic->opts, &ic->nopts, cat->opts[i].name, t, s->line,
		    s->col);
		free(t);
	}
	argwords_free(cw, ncw);
	ic->node_host = node_host(ic->sc);
	if (ic->node_host != NULL &&
	    strcmp(ic->node_host, MD_NODE_UNSTATED) == 0) {
		ic->node_host = NULL;	/* a document's block says so */
		ic->host_unknown = true;
	}
	for (i = 0; i < ic->sc->nenv; i++) {
		const struct sh_env	*e = &ic->sc->env[i];

		if (!e->exported)
			continue;
		o = catalog_find(cat, e->name);
		if ((o < 0 || cat->opts[o].kind != OK_ENV) &&
		    !imp_keep_unchecked_env(e, notes))
			continue;
		kv_set(&ic->env, &ic->nenv, e->name, e->value, e->line, e->col);
	}
}

static bool
kvs_equal(const struct kv *a, size_t na, const struct kv *b, size_t nb,
    const char **diff)
{
	size_t	i;

	*diff = NULL;
	for (i = 0; i < na; i++) {
		const struct kv	*k = kv_get(b, nb, a[i].name);

		if (k == NULL || strcmp(k->value, a[i].value) != 0) {
			*diff = a[i].name;
			return false;
		}
	}
	for (i = 0; i < nb; i++)
		if (kv_get(a, na, b[i].name) == NULL) {
			*diff = b[i].name;
			return false;
		}
	return true;
}

static bool
strvs_equal(char *const *a, size_t na, char *const *b, size_t nb)
{
	size_t	i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++)
		if (strcmp(a[i], b[i]) != 0)
			return false;
	return true;
}

static char *
host_of_addr(const char *addr)
{
	const char	*c = strrchr(addr, ':');

	if (addr[0] == '[') {
		const char	*e = strchr(addr, ']');

		return e ? xstrndup(addr + 1, (size_t)(e - addr - 1)) :
		    xstrdup(addr);
	}
	return c ? xstrndup(addr, (size_t)(c - addr)) : xstrdup(addr);
}

static void
push_host(struct role_spec *r, const char *h)
{
	r->hosts = xreallocarray(r->hosts, r->nhosts + 1, sizeof *r->hosts);
	r->hosts[r->nhosts++] = xstrdup(h);
}

/* Build a role from its commands (already in instance/rank order). */
/*
 * The machine of one imported command, onto the role's hosts: the machine
 * pdwiz's script states (PDWIZ_NODE_HOST) for a wildcard or loopback bind,
 * else its --host, the rendezvous
 * host of a first rank, else 127.0.0.1 (marked unstated when it bound a
 * wildcard: which machine it is, the script does not say).
 */
static void
place_node(struct role_spec *r, const struct icmd *c)
{
	const char	*h;
	char		*dh = NULL;

	if (c->port_unknown)
		r->port_unstated = true;
	if (c->host_unknown)
		r->host_unstated = true;
	if (c->args_unknown)
		r->args_unstated = true;
	if (c->sc->machine != NULL) {
		/* A pod of a manifest: a machine of its own. Its stable DNS
		 * name (no '/') is its address; a label is no address. */
		if (c->host != NULL && r->bind_host == NULL)
			r->bind_host = xstrdup(c->host);
		if (strchr(c->sc->machine, '/') != NULL)
			r->host_unstated = true;
		else
			r->pod_hosts = true;
		push_host(r, c->sc->machine);
		return;
	}
	if (c->host != NULL && c->node_host != NULL &&
	    (host_is_wildcard(c->host) || host_is_loopback(c->host))) {
		/* A wildcard or the loopback, on the stated machine (which
		 * is the bind's own address when it is 127.0.0.1 itself). */
		if (r->bind_host == NULL && strcmp(c->host, c->node_host) != 0)
			r->bind_host = xstrdup(c->host);
		h = c->node_host;
	} else if (c->host != NULL && !host_is_wildcard(c->host))
		h = c->host;		/* an address: the machine's own */
	else if (c->host == NULL && c->node_host != NULL) {
		/* No --host: SGLang binds 127.0.0.1 on the stated machine. */
		if (r->bind_host == NULL)
			r->bind_host = xstrdup("127.0.0.1");
		h = c->node_host;
	} else if (c->dist != NULL && c->rank == 0 && c->nnodes > 1) {
		if (c->host == NULL && r->bind_host == NULL)
			r->bind_host = xstrdup("127.0.0.1");
		h = dh = host_of_addr(c->dist);
	} else {
		if (c->host != NULL && r->bind_host == NULL)
			r->bind_host = xstrdup(c->host);
		if (c->host != NULL)
			r->host_unstated = true;
		h = "127.0.0.1";
	}
	push_host(r, h);
	free(dh);
}

/*
 * The GPUs of a role's instances as the deployment holds them: the first
 * instance on each host at base_gpu_id, each later one on that host
 * gpu_step further (layout.c, host_ord). The step is the first sharing
 * pair's; a --base-gpu-id that does not follow is reported.
 */
struct host_stat {
	const char	*host;
	int		 n, last;	/* instances seen on it, the last one */
};

struct host_stats {
	struct host_stat *v;
	size_t		  n;
	struct hidx	  idx;
};

static const char *
host_stat_key(const void *ctx, size_t i, size_t *len)
{
	const struct host_stats	*hs = ctx;

	*len = strlen(hs->v[i].host);
	return hs->v[i].host;
}

static void
host_stats_init(struct host_stats *hs)
{
	memset(hs, 0, sizeof *hs);
	hidx_init(&hs->idx, host_stat_key, hs);
}

static void
host_stats_free(struct host_stats *hs)
{
	hidx_free(&hs->idx);
	free(hs->v);
}

static void
gpu_follows(struct host_stats *hs, struct role_spec *r, const struct icmd *c,
    const struct icmd *c0, struct result *notes)
{
	const char	*h = r->hosts[r->nhosts - 1];
	long		 k = hidx_find(&hs->idx, h, strlen(h));
	struct host_stat *st;
	int		 ord, want;

	if (k < 0) {
		hs->v = xreallocarray(hs->v, hs->n + 1, sizeof *hs->v);
		hs->v[hs->n].host = h;
		hs->v[hs->n].n = 0;
		hs->v[hs->n].last = -1;
		hidx_put(&hs->idx, hs->n);
		k = (long)hs->n++;
	}
	st = &hs->v[k];
	if (st->last != c->inst) {
		st->n++;
		st->last = c->inst;
	}
	ord = st->n - 1;
	if (c->base_gpu < 0 || c0->base_gpu < 0)
		return;
	if (ord > 0 && r->gpu_step == 0 && c->base_gpu != c0->base_gpu)
		r->gpu_step = (c->base_gpu - c0->base_gpu) / ord;
	want = c0->base_gpu + ord * r->gpu_step;
	if (c->base_gpu != want)
		lost(notes, c->sc->line, col0(c->sc), "--base-gpu-id %d does "
		    "not follow --base-gpu-id %d + %d per instance on the same "
		    "host; not representable", c->base_gpu, c0->base_gpu,
		    r->gpu_step);
}

static void
build_role(const struct catalog *cat, struct deployment *d, enum role role,
    struct icmd **cs, size_t n, struct result *notes)
{
	struct role_spec	*r = &d->role[role];
	struct icmd		*c0 = cs[0];
	size_t			 i;
	int			 ninst = 0;
	const char		*diff;
	struct host_stats	 hs;

	(void)cat;
	host_stats_init(&hs);
	r->enabled = true;
	r->line = c0->sc->line;
	r->nohttp = c0->sc->nohttp;
	r->nodes_per_instance = c0->nnodes > 0 ? c0->nnodes : 1;
	r->gpus_per_node = c0->gpus;
	r->port = c0->port;
	r->bootstrap_port = role == ROLE_PREFILL ? c0->bport : -1;
	r->base_gpu_id = c0->base_gpu;
	/* A multi-node instance without a usable rendezvous port keeps port
	 * 0: the plan then shows it and xs-dist-init-addr reports it. A
	 * single-node server keeps a rendezvous port the script states (it
	 * moves the torch store and, with DP attention, the ZMQ ports). */
	if (r->nodes_per_instance > 1 || c0->dist != NULL) {
		const char	*col = c0->dist ? strrchr(c0->dist, ':') : NULL;
		char		*end = NULL;
		long		 v = col ? strtol(col + 1, &end, 10) : 0;
		bool		 okp = col != NULL && end != col + 1 &&
		    *end == '\0' && v > 0 && v <= 65535;

		if (c0->dist != NULL && strchr(col != NULL ? col + 1 :
		    c0->dist, '$') != NULL)
			r->port_unstated = true;	/* chosen at run time */
		else if (r->nodes_per_instance > 1)
			r->dist_init_port = okp ? (int)v : 0;
		else if (okp)
			r->dist_init_port = (int)v;
	}
	for (i = 0; i < c0->nopts; i++)
		kv_set(&r->opts, &r->nopts, c0->opts[i].name, c0->opts[i].value,
		    c0->opts[i].line, c0->opts[i].col);
	for (i = 0; i < c0->nenv; i++)
		kv_set(&r->env, &r->nenv, c0->env[i].name, c0->env[i].value,
		    c0->env[i].line, c0->env[i].col);
	/* A role serving another model than the deployment's first server
	 * (a mismatch xs-model-path reports): its own model. */
	if (c0->model != NULL) {
		r->model = xstrdup(c0->model);
		r->model_line = c0->sc->line;
	}
	if (c0->nextra > 0)
		r->extra_args = strv_copy(c0->extra, c0->nextra);
	r->nextra_args = c0->nextra;
	for (i = 0; i < n; i++) {
		struct icmd	*c = cs[i];

		if (c->inst + 1 > ninst)
			ninst = c->inst + 1;
		if (c->inst >= 0 && (size_t)c->inst >= r->ninst_line) {
			r->inst_line = xreallocarray(r->inst_line,
			    (size_t)c->inst + 1, sizeof *r->inst_line);
			r->inst_bind = xreallocarray(r->inst_bind,
			    (size_t)c->inst + 1, sizeof *r->inst_bind);
			while (r->ninst_line <= (size_t)c->inst) {
				r->inst_bind[r->ninst_line] = NULL;
				r->inst_line[r->ninst_line++] = 0;
			}
		}
		if (c->inst >= 0 && r->inst_line[c->inst] == 0) {
			r->inst_line[c->inst] = c->sc->line;
			r->inst_bind[c->inst] = c->host != NULL ?
			    xstrdup(c->host) : NULL;
		}
		place_node(r, c);
		gpu_follows(&hs, r, c, c0, notes);
		if (i == 0)
			continue;
		if (!kvs_equal(c0->opts, c0->nopts, c->opts, c->nopts, &diff))
			lost(notes, c->sc->line, col0(c->sc), "this %s command "
			    "differs from the one at line %d in %s; the "
			    "deployment keeps the first", role_name(role),
			    c0->sc->line, diff);
		if (!kvs_equal(c0->env, c0->nenv, c->env, c->nenv, &diff))
			lost(notes, c->sc->line, col0(c->sc), "this %s "
			    "command's environment differs from the one at line "
			    "%d in %s; the deployment keeps the first",
			    role_name(role), c0->sc->line, diff);
		if ((c->model == NULL) != (c0->model == NULL) || (c->model !=
		    NULL && strcmp(c->model, c0->model) != 0))
			lost(notes, c->sc->line, col0(c->sc), "--model-path "
			    "differs from this %s's first command's (line %d); "
			    "the deployment keeps the first", role_name(role),
			    c0->sc->line);
		if (!strvs_equal(c0->extra, c0->nextra, c->extra, c->nextra))
			lost(notes, c->sc->line, col0(c->sc), "this %s "
			    "command's extra arguments (words SGLang's argparse "
			    "refuses) differ from the one's at line %d; the "
			    "deployment keeps the first", role_name(role),
			    c0->sc->line);
		if (c->nnodes != c0->nnodes)
			lost(notes, c->sc->line, col0(c->sc), "--nnodes %d "
			    "differs from %d at line %d; the deployment keeps "
			    "the first", c->nnodes, c0->nnodes, c0->sc->line);
		if (c->inst == 1 && c->port != c0->port)
			r->port_step = c->port - c0->port;
		if (c->inst > 0 && c->port != c0->port + c->inst * r->port_step)
			lost(notes, c->sc->line, col0(c->sc), "--port %d does "
			    "not follow port %d + %d per instance; not "
			    "representable", c->port, c0->port, r->port_step);
		if (role == ROLE_PREFILL && c->rank == 0) {
			int	want = c0->bport < 0 ? -1 : c0->bport + c->inst *
			    r->port_step;

			if (c->bport != want)
				lost(notes, c->sc->line, col0(c->sc),
				    "bootstrap port of this prefill (%d) does "
				    "not follow the first instance's; not "
				    "representable", c->bport);
		}
	}
	host_stats_free(&hs);
	r->instances = ninst;
	/* One host for all when every node says the same. */
	for (i = 1; i < r->nhosts; i++)
		if (strcmp(r->hosts[i], r->hosts[0]) != 0)
			break;
	if (i == r->nhosts && r->nodes_per_instance == 1 && r->nhosts > 1) {
		while (r->nhosts > 1)
			free(r->hosts[--r->nhosts]);
	}
}

static int
parse_port(const char *s)
{
	char	*end;
	long	 v = strtol(s, &end, 10);

	return *s != '\0' && *end == '\0' && v > 0 && v < 65536 ? (int)v : -1;
}

/* A word of digits as a number (at most 9 digits), or -1. */
static int
port_word(const char *s)
{
	size_t	n = strspn(s, "0123456789");

	return n > 0 && n <= 9 && s[n] == '\0' ? atoi(s) : -1;
}

/* The word is a Python int (int(s): white space around, a sign, digits
 * with single underscores between them). */
static bool
py_int_word(const char *s)
{
	bool	digit = false;

	while (isspace((unsigned char)*s))
		s++;
	if (*s == '+' || *s == '-')
		s++;
	for (; isdigit((unsigned char)*s) || *s == '_'; s++) {
		if (*s == '_' && (!digit || !isdigit((unsigned char)s[1])))
			return false;
		digit = true;
	}
	while (isspace((unsigned char)*s))
		s++;
	return digit && *s == '\0';
}

/* A word argparse gives to --prefill's nargs='+' rather than taking it
 * for an option: any word not starting with '-', and a negative number. */
static bool
arg_word(const char *s)
{
	if (s[0] != '-')
		return true;
	s++;
	if (*s == '.')
		s++;
	if (!isdigit((unsigned char)*s))
		return false;
	while (isdigit((unsigned char)*s) || *s == '.')
		s++;
	return *s == '\0';
}

/* --prefill URL [BOOTSTRAP_PORT] or --decode URL at word *i; *i moves to
 * the last word used. */
static void
read_endpoint(struct role_spec *r, const struct sh_cmd *sc, size_t *i,
    struct result *notes)
{
	const struct sh_word	*w = &sc->words[*i];
	bool			 pf = w->text[2] == 'p';
	struct endpoint		 e = { NULL, -1, w->line, w->col, NULL };

	if (*i + 1 >= sc->nwords) {
		lost(notes, w->line, w->col, "%s without a URL", w->text);
		return;
	}
	e.url = xstrdup(sc->words[++*i].text);
	/* The router takes any number here, as its argument parser does; a
	 * port it cannot bind is the checks' to report. */
	if (pf && *i + 1 < sc->nwords && port_word(sc->words[*i + 1].text) > 0)
		e.bootstrap_port = port_word(sc->words[++*i].text);
	else if (pf && *i + 1 < sc->nwords && sc->words[*i + 1].unresolved &&
	    strncmp(sc->words[*i + 1].text, "--", 2) != 0) {
		++*i;
		e.bootstrap_port = -2;	/* left to run time */
	} else if (pf && *i + 1 < sc->nwords &&
	    strcasecmp(sc->words[*i + 1].text, "none") == 0)
		++*i;			/* no port, said so */
	else if (pf && *i + 1 < sc->nwords && !sc->words[*i + 1].unresolved &&
	    arg_word(sc->words[*i + 1].text) &&
	    !py_int_word(sc->words[*i + 1].text))
		/* _parse_prefill_urls: int() fails, the router exits */
		e.bad_port = intern(sc->words[++*i].text);
	if (pf) {
		r->prefill_urls = xreallocarray(r->prefill_urls,
		    r->nprefill_urls + 1, sizeof e);
		r->prefill_urls[r->nprefill_urls++] = e;
	} else {
		r->decode_urls = xreallocarray(r->decode_urls,
		    r->ndecode_urls + 1, sizeof e);
		r->decode_urls[r->ndecode_urls++] = e;
	}
}

/* The router's exports, kept verbatim (SGLang's variables do not act on
 * the router: none is checked there). */
static void
router_env(const struct sh_cmd *sc, struct role_spec *r,
    struct result *notes)
{
	size_t	i;

	for (i = 0; i < sc->nenv; i++) {
		const struct sh_env	*e = &sc->env[i];

		if (e->exported && imp_keep_unchecked_env(e, notes))
			kv_set(&r->env, &r->nenv, e->name, e->value, e->line,
			    e->col);
	}
}

static void
read_router(const struct catalog *cat, const struct sh_cmd *sc,
    struct deployment *d, struct result *notes)
{
	struct role_spec	*r = &d->role[ROLE_ROUTER];
	size_t			 i;

	r->enabled = true;
	r->instances = 1;
	r->line = sc->line;
	r->port = 30000;		/* the router's default --port */
	for (i = sc->argstart; i < sc->nwords; i++) {
		const struct sh_word	*w = &sc->words[i];
		const char		*a = w->text;
		const struct option	*ro;
		char			*name, *p;

		if (strcmp(a, "--pd-disaggregation") == 0)
			continue;
		if (strcmp(a, "--prefill") == 0 || strcmp(a, "--decode") == 0) {
			read_endpoint(r, sc, &i, notes);
			continue;
		}
		if (strcmp(a, "--host") == 0 && i + 1 < sc->nwords) {
			const char	*h = sc->words[++i].text;

			if (host_is_wildcard(h)) {
				free(r->bind_host);	/* --host given twice */
				r->bind_host = xstrdup(h);
				push_host(r, node_host(sc) ? node_host(sc) :
				    "127.0.0.1");
			} else
				push_host(r, h);
			continue;
		}
		if (strcmp(a, "--port") == 0 && i + 1 < sc->nwords &&
		    parse_port(sc->words[i + 1].text) > 0) {
			r->port = parse_port(sc->words[++i].text);
			continue;
		}
		if (strncmp(a, "--", 2) != 0) {
			note(notes, w->line, w->col, "router argument '%s' not "
			    "understood; kept as an extra argument", a);
			goto extra;
		}
		name = xstrdup(a + 2);
		for (p = name; *p != '\0'; p++)
			if (*p == '-')
				*p = '_';
		ro = router_opt_find(cat, name);
		if (ro != NULL && ro->type == T_BOOL) {
			kv_set(&r->opts, &r->nopts, name, "true", w->line,
			    w->col);
			free(name);
			continue;
		}
		if (ro != NULL && i + 1 < sc->nwords) {
			if (strcmp(name, "policy") == 0) {
				free(r->policy);
				r->policy = xstrdup(sc->words[++i].text);
			} else
				kv_set(&r->opts, &r->nopts, name,
				    sc->words[++i].text, w->line, w->col);
			free(name);
			continue;
		}
		free(name);
		note(notes, w->line, w->col, "router option %s is not "
		    "modelled by pdwiz; kept as an extra argument", a);
extra:
		r->extra_args = xreallocarray(r->extra_args, r->nextra_args + 1,
		    sizeof *r->extra_args);
		r->extra_args[r->nextra_args++] = xstrdup(a);
		/* Carry the flag's value words along. */
		while (strncmp(a, "--", 2) == 0 && i + 1 < sc->nwords &&
		    strncmp(sc->words[i + 1].text, "--", 2) != 0) {
			r->extra_args = xreallocarray(r->extra_args,
			    r->nextra_args + 1, sizeof *r->extra_args);
			r->extra_args[r->nextra_args++] =
			    xstrdup(sc->words[++i].text);
		}
	}
	if (r->nhosts == 0)
		push_host(r, "127.0.0.1");
	r->workers_discovered = r->nprefill_urls == 0 && r->ndecode_urls == 0;
	router_env(sc, r, notes);
}

/* Move options and env equal on prefill and decode to shared. */
static void
hoist_shared(struct deployment *d)
{
	struct role_spec	*p = &d->role[ROLE_PREFILL];
	struct role_spec	*dc = &d->role[ROLE_DECODE];
	size_t			 i;

	for (i = 0; i < p->nopts;) {
		const struct kv	*k = kv_get(dc->opts, dc->nopts, p->opts[i].name);

		if (k != NULL && strcmp(k->value, p->opts[i].value) == 0) {
			char	*name = xstrdup(p->opts[i].name);

			kv_set(&d->shared, &d->nshared, name, p->opts[i].value,
			    p->opts[i].line, p->opts[i].col);
			kv_set(&p->opts, &p->nopts, name, NULL, 0, 0);
			kv_set(&dc->opts, &dc->nopts, name, NULL, 0, 0);
			free(name);
		} else
			i++;
	}
	for (i = 0; i < p->nenv;) {
		const struct kv	*k = kv_get(dc->env, dc->nenv, p->env[i].name);

		if (k != NULL && strcmp(k->value, p->env[i].value) == 0) {
			char	*name = xstrdup(p->env[i].name);

			kv_set(&d->shared_env, &d->nshared_env, name,
			    p->env[i].value, p->env[i].line, p->env[i].col);
			kv_set(&p->env, &p->nenv, name, NULL, 0, 0);
			kv_set(&dc->env, &dc->nenv, name, NULL, 0, 0);
			free(name);
		} else
			i++;
	}
}

/*
 * Is the router list a the one pdwiz generates (b)? A prefill entry
 * without a bootstrap port makes the decodes use their own
 * --disaggregation-bootstrap-port (dport), which is the generated
 * explicit port only when it is the same number.
 */
static bool
same_endpoints(const struct endpoint *a, size_t na, const struct endpoint *b,
    size_t nb, bool prefill, int dport)
{
	size_t	i;

	if (na != nb)
		return false;
	for (i = 0; i < na; i++) {
		if (strcmp(a[i].url, b[i].url) != 0)
			return false;
		if (a[i].bootstrap_port < -1 || a[i].bad_port != NULL)
			return false;
		if (prefill && (a[i].bootstrap_port < 0 ? dport :
		    a[i].bootstrap_port) != b[i].bootstrap_port)
			return false;
	}
	return true;
}

/* A router list equal to the one pdwiz generates is not kept explicitly. */
static void
drop_generated_lists(const struct catalog *cat, struct deployment *d)
{
	struct role_spec	*r = &d->role[ROLE_ROUTER];
	struct role_spec	 saved = *r;
	struct endpoint		*pe, *de;
	size_t			 npe, nde;
	const char		*dv;
	int			 dport;
	bool			 same;

	r->prefill_urls = NULL;
	r->nprefill_urls = 0;
	r->decode_urls = NULL;
	r->ndecode_urls = 0;
	router_endpoints(cat, d, &pe, &npe, &de, &nde);
	dv = deployment_get(cat, d, ROLE_DECODE,
	    "disaggregation_bootstrap_port");
	dport = dv != NULL ? atoi(dv) : 8998;
	same = same_endpoints(saved.prefill_urls, saved.nprefill_urls, pe, npe,
	    true, dport) && same_endpoints(saved.decode_urls,
	    saved.ndecode_urls, de, nde, false, dport);
	/* Explicit bootstrap ports stay explicit on the prefill side. */
	endpoints_release(pe, npe);
	endpoints_release(de, nde);
	if (same) {
		endpoints_release(saved.prefill_urls, saved.nprefill_urls);
		endpoints_release(saved.decode_urls, saved.ndecode_urls);
		return;
	}
	r->prefill_urls = saved.prefill_urls;
	r->nprefill_urls = saved.nprefill_urls;
	r->decode_urls = saved.decode_urls;
	r->ndecode_urls = saved.ndecode_urls;
}

static int
icmd_cmp(const void *a, const void *b)
{
	const struct icmd	*x = *(struct icmd *const *)a;
	const struct icmd	*y = *(struct icmd *const *)b;

	if (x->inst != y->inst)
		return x->inst - y->inst;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return x->sc->line - y->sc->line;
}

/* Does instance inst already have a command of node rank rank (among the
 * first n)? */
static bool
has_rank(struct icmd *const *x, size_t n, int inst, int rank)
{
	size_t	k;

	for (k = 0; k < n; k++)
		if (x[k]->inst == inst && x[k]->rank == rank)
			return true;
	return false;
}

/* Instance numbers in command order; the ranks of a multi-node instance
 * share its --dist-init-addr. Two instances given the same address (a
 * rendezvous collision, which the checks report) are still told apart: a
 * rank the latest instance with that address already has starts a new
 * one. */
static void
number_instances(struct icmd **x, size_t n)
{
	size_t	i, j;
	int	ninst = 0;

	for (i = 0; i < n; i++) {
		x[i]->inst = -1;
		if (x[i]->nnodes > 1 && x[i]->dist != NULL)
			for (j = i; j-- > 0;)
				if (x[j]->dist != NULL &&
				    strcmp(x[j]->dist, x[i]->dist) == 0) {
					if (!has_rank(x, i, x[j]->inst,
					    x[i]->rank))
						x[i]->inst = x[j]->inst;
					break;
				}
		/* Without a rendezvous address, rank k continues the instance
		 * whose rank k - 1 came just before it. */
		if (x[i]->inst < 0 && x[i]->nnodes > 1 && x[i]->dist == NULL &&
		    x[i]->rank > 0 && i > 0 && x[i - 1]->dist == NULL &&
		    x[i - 1]->nnodes == x[i]->nnodes &&
		    x[i - 1]->rank == x[i]->rank - 1)
			x[i]->inst = x[i - 1]->inst;
		if (x[i]->inst < 0)
			x[i]->inst = ninst++;
	}
}

static void
icmds_free(struct icmd *ic, size_t n)
{
	size_t	i, j;

	for (i = 0; i < n; i++) {
		config_free(&ic[i].cfg);
		free(ic[i].host);
		free(ic[i].dist);
		for (j = 0; j < ic[i].nopts; j++) {
			free(ic[i].opts[j].name);
			free(ic[i].opts[j].value);
		}
		free(ic[i].opts);
		for (j = 0; j < ic[i].nenv; j++) {
			free(ic[i].env[j].name);
			free(ic[i].env[j].value);
		}
		free(ic[i].env);
		strv_free(ic[i].extra, ic[i].nextra);
		free(ic[i].model);
	}
	free(ic);
}

int
deployment_import(const struct catalog *cat, const char *name,
    const char *text, size_t len, struct deployment *d,
    struct result *notes, char *err, size_t errlen)
{
	struct sh_script	 sc = { 0 };
	struct input		 in = { 0 };
	struct buf		 why = { 0 };
	int			 rc = -1;

	deployment_init(d);
	/* What pdwiz check reads, read the same way: a script, a pasted
	 * transcript, a Markdown document's blocks, a manifest, a recipe. */
	in.text = xmalloc(len + 1);
	memcpy(in.text, text, len);
	in.text[len] = '\0';
	in.len = len;
	if (input_classify(cat, name, IN_AUTO, &in, &why) != 0)
		snprintf(err, errlen, "%s", why.s);
	else if (in.kind == K_DEPLOY)
		snprintf(err, errlen, "%s: a deployment file already (open or "
		    "check it; nothing to import)", name);
	else if (in.kind == K_SGCONFIG)
		snprintf(err, errlen, "%s: one server's SGLang --config file: "
		    "pdwiz import reads launch scripts, documents, Kubernetes "
		    "manifests and srt-slurm recipes (pdwiz check reads this "
		    "one)", name);
	else if (input_script(name, &in, &sc, notes, &why) != 0)
		snprintf(err, errlen, "%s", why.s);
	else {
		rc = deployment_import_script(cat, name, &sc, d, notes, err,
		    errlen);
		sh_script_free(&sc);
	}
	input_free(&in);
	buf_free(&why);
	return rc;
}

/*
 * What pdwiz's emitters state beside the commands (plain assignments
 * before the commands of a script, env entries of a manifest's
 * containers), back into the deployment: PDWIZ_GPUS_PER_HOST=N the GPUs of
 * each machine (the default count stays unstated, 0, as a deployment file
 * leaves it; without it a script does not say, -1), PDWIZ_GPUS_PER_NODE_ROLE
 * a role's allotment (gpus_per_node), PDWIZ_NAME the name,
 * PDWIZ_SGLANG_VERSION the sglang key (over what the images say),
 * PDWIZ_FACT_NAME=VALUE model.facts, so that a re-imported export keeps
 * its accelerator. -1 on a fact pdwiz does not
 * take (as pdwiz check of the script refuses it), message in err.
 */
static int
script_pdwiz_vars(const struct catalog *cat, const struct sh_script *sc,
    const char *name, struct deployment *d, char *err, size_t errlen)
{
	static const char	 pre[] = "PDWIZ_FACT_";
	char			 why[1024];
	size_t			 i, j;

	for (i = 0; i < sc->ncmds && sc->cmds[i].kind != SH_SERVER; i++)
		;
	for (j = 0; i < sc->ncmds && j < sc->cmds[i].nenv; j++) {
		const struct sh_env	*e = &sc->cmds[i].env[j];

		if (strcmp(e->name, "PDWIZ_GPUS_PER_HOST") == 0 &&
		    !e->unresolved && e->value != NULL) {
			char	*end;
			long	 v = strtol(e->value, &end, 10);

			if (end != e->value && *end == '\0' && v >= 1 &&
			    v <= 1024)
				d->gpus_per_host = v == LAY_GPUS_PER_HOST ? 0 :
				    (int)v;
			continue;
		}
		if ((strcmp(e->name, "PDWIZ_MISSING_PREFILL") == 0 ||
		    strcmp(e->name, "PDWIZ_MISSING_DECODE") == 0) &&
		    !e->unresolved && e->value != NULL && *e->value != '\0') {
			struct role_spec	*r = &d->role[e->name[14] == 'P' ?
			    ROLE_PREFILL : ROLE_DECODE];
			struct role_spec	 u;

			/* What the source of an export left unknown, as the
			 * deployment file's missing.ROLE says it. */
			memset(&u, 0, sizeof u);
			u.missing = e->value;
			deployment_read_unstated(&u);
			if (r->enabled) {
				r->host_unstated |= u.host_unstated;
				r->port_unstated |= u.port_unstated;
				r->args_unstated |= u.args_unstated;
			}
			continue;
		}
		if ((strcmp(e->name, "PDWIZ_GPUS_PER_NODE_PREFILL") == 0 ||
		    strcmp(e->name, "PDWIZ_GPUS_PER_NODE_DECODE") == 0) &&
		    !e->unresolved && e->value != NULL) {
			struct role_spec	*r = &d->role[e->name[20] == 'P' ?
			    ROLE_PREFILL : ROLE_DECODE];
			char			*end;
			long			 v = strtol(e->value, &end, 10);

			/* The export of a deployment that allots its role's
			 * nodes this many GPUs. */
			if (r->enabled && end != e->value && *end == '\0' &&
			    v >= 1 && v <= 1024)
				r->gpus_per_node = (int)v;
			continue;
		}
		if ((strcmp(e->name, "PDWIZ_POD_HOSTS_PREFILL") == 0 ||
		    strcmp(e->name, "PDWIZ_POD_HOSTS_DECODE") == 0) &&
		    !e->unresolved && e->value != NULL &&
		    strcmp(e->value, "true") == 0) {
			struct role_spec	*r = &d->role[e->name[16] == 'P' ?
			    ROLE_PREFILL : ROLE_DECODE];

			/* The export of a deployment whose hosts are pods. */
			if (r->enabled)
				r->pod_hosts = true;
			continue;
		}
		if (strcmp(e->name, "PDWIZ_NAME") == 0 && !e->unresolved &&
		    e->value != NULL && *e->value != '\0' && d->name == NULL) {
			d->name = xstrdup(e->value);
			continue;
		}
		if (strcmp(e->name, "PDWIZ_SGLANG_VERSION") == 0 &&
		    !e->unresolved && e->value != NULL && *e->value != '\0') {
			free(d->sglang_version);
			d->sglang_version = xstrdup(e->value);
			continue;
		}
		if (strncmp(e->name, pre, sizeof pre - 1) != 0 ||
		    e->unresolved || e->value == NULL)
			continue;
		if (deployment_set_fact(cat, d, e->name + sizeof pre - 1,
		    e->value, why, sizeof why) != 0) {
			snprintf(err, errlen, "%s:%d:%d: %s: %s", name, e->line,
			    e->col, e->name, why);
			return -1;
		}
	}
	return 0;
}

/*
 * What the script lacks, stated in the deployment (missing.ROLE) and in a
 * note: a role without a command is left out (disabled, never filled in
 * with invented values); a multi-node role with only some of its node
 * commands keeps the hosts it has, padded with the last one, exactly as
 * the checks of the script place the nodes it does not name.
 */
/*
 * The SGLang release a manifest's server image names (lmsysorg/sglang:TAG),
 * which pdwiz check applies to that container: the deployment's sglang
 * key. Servers whose images name different releases cannot be one
 * deployment's: the first is kept, the others are reported.
 */
static void
image_version(struct deployment *d, const struct sh_cmd *c,
    struct result *notes)
{
	char	vs[SGVER_TEXT_MAX];
	sgver_t	v;

	if (c->image == NULL || (v = sglang_version_from_image(c->image, NULL,
	    0)) == SGVER_UNKNOWN)
		return;
	sgver_format(v, vs, sizeof vs);
	if (d->sglang_version == NULL)
		d->sglang_version = xstrdup(vs);
	else if (strcmp(d->sglang_version, vs) != 0)
		lost(notes, c->line, col0(c), "this server's image %s runs "
		    "SGLang %s, an earlier server's %s; the deployment keeps "
		    "%s", c->image, vs, d->sglang_version, d->sglang_version);
}

int
deployment_import_script(const struct catalog *cat, const char *name,
    const struct sh_script *sc, struct deployment *d, struct result *notes,
    char *err, size_t errlen)
{
	struct icmd		*ic;
	struct icmd		**byrole[2];
	size_t			 nby[2] = { 0, 0 }, i, nic = 0;
	int			 nrouter = 0, r;
	char			*base_dir = imp_script_dir(name);

	deployment_init(d);
	d->gpus_per_host = -1;		/* a script does not say */
	ic = xcalloc(sc->ncmds + 1, sizeof *ic);
	byrole[0] = xcalloc(sc->ncmds + 1, sizeof **byrole);
	byrole[1] = xcalloc(sc->ncmds + 1, sizeof **byrole);
	d->path = xstrdup(name);
	for (i = 0; i < sc->ncmds; i++) {
		const struct sh_cmd	*c = &sc->cmds[i];
		struct icmd		*x;
		const char		*mode;

		if (c->kind == SH_ROUTER) {
			if (nrouter++ > 0) {
				lost(notes, c->line, col0(c), "a second router "
				    "command; only the first is placed");
				continue;
			}
			if (c->gone != NULL)
				note(notes, c->line, col0(c), "this router's "
				    "entry point is gone from current SGLang "
				    "(now %s); the deployment runs the current "
				    "router", c->gone);
			read_router(cat, c, d, notes);
			continue;
		}
		if (c->kind != SH_SERVER)
			continue;
		if (c->wrapper != NULL)
			note(notes, c->line, col0(c), "runs SGLang through %s; "
			    "the deployment keeps SGLang's own command, not the "
			    "wrapper (its network, devices and options are not "
			    "in the exports)", c->wrapper);
		x = &ic[nic++];
		x->sc = c;
		read_server(cat, x, base_dir, notes);
		mode = cfg_str(&x->cfg, "disaggregation_mode");
		if (role_parse(mode) != ROLE_PREFILL && role_parse(mode) !=
		    ROLE_DECODE) {
			lost(notes, c->line, col0(c), "a server without "
			    "--disaggregation-mode prefill|decode; not placed");
			config_free(&x->cfg);
			continue;
		}
		x->role = (enum role)role_parse(mode);
		image_version(d, c, notes);
		if (d->model == NULL && cfg_str(&x->cfg, "model_path") != NULL) {
			d->model = xstrdup(cfg_str(&x->cfg, "model_path"));
			d->model_line = c->line;
		} else if (d->model != NULL && cfg_str(&x->cfg, "model_path") ==
		    NULL)
			lost(notes, c->line, col0(c), "--model-path differs "
			    "from the first server's (%s); the deployment keeps "
			    "the first", d->model);
		else if (d->model != NULL && strcmp(d->model,
		    cfg_str(&x->cfg, "model_path")) != 0)
			x->model = xstrdup(cfg_str(&x->cfg, "model_path"));
		byrole[x->role][nby[x->role]++] = x;
		/* What the roles need is copied out: a script's memory stays
		 * proportional to its text, not to its commands times the
		 * catalog. */
		config_free(&x->cfg);
	}
	for (r = ROLE_PREFILL; r <= ROLE_DECODE; r++) {
		number_instances(byrole[r], nby[r]);
		if (nby[r] == 0)
			continue;
		sort_items(byrole[r], nby[r], sizeof *byrole[r], icmd_cmp);
		build_role(cat, d, (enum role)r, byrole[r], nby[r], notes);
	}
	if (nby[0] > 0 && nby[1] > 0)
		hoist_shared(d);
	if (script_pdwiz_vars(cat, sc, name, d, err, errlen) != 0) {
		icmds_free(ic, nic);
		free(byrole[0]);
		free(byrole[1]);
		free(base_dir);
		deployment_free(d);
		return -1;
	}
	if (nrouter > 0)
		drop_generated_lists(cat, d);
	if (nby[0] + nby[1] > 0 || nrouter > 0)
		imp_mark_missing(d, notes);
	if (d->model == NULL)
		d->model = xstrdup("");
	icmds_free(ic, nic);
	free(byrole[0]);
	free(byrole[1]);
	free(base_dir);
	if (nby[0] == 0 && nby[1] == 0 && nrouter == 0) {
		snprintf(err, errlen, "%s: no prefill, decode or router command "
		    "found", name);
		deployment_free(d);
		return -1;
	}
	return 0;
}

int
deployment_import_complete(const struct catalog *cat,
    const struct deployment *d, const char *name, char *err, size_t errlen)
{
	char	*y, why[4096];

	/* Anything the reader would refuse: ask the reader. */
	if ((y = deployment_to_yaml_checked(cat, d, why, sizeof why)) == NULL) {
		snprintf(err, errlen, "%s: the deployment imported from this "
		    "script %s", name, why);
		return -1;
	}
	free(y);
	return 0;
}
