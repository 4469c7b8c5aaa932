/*
 * explain_log.c - `pdwiz explain MESSAGE` and `pdwiz explain --log FILE`:
 * from a failed launch back to its cause.
 *
 * The log is read by io/pylog.c: its failures (tracebacks' last exception
 * lines, argparse's error line, SGLang's logged errors) and the
 * configuration SGLang resolved (server_args=ServerArgs(...)) or the
 * launch command it shows. Each failure's message is matched against
 * every rule's message as a template (core/msgmatch.c); the matching
 * rule is explained as `pdwiz explain RULE-ID` explains it, with the
 * values its holes took.
 *
 * The configuration is then checked again, as pdwiz check checks a
 * script: the log's shell view (pylog_script: each server_args as the
 * command that states it) is read by the shell reader, each server by
 * server_from_cmd, engine_run and engine_verify_fixes, and, when the logs
 * hold a prefill and a decode, the cross-role rules run on them through
 * the public deployment API (deployment_check_script: the commands
 * imported as one deployment). pdwiz check's own driver (cli/check.c) is
 * not used: it reports per file, where this view reports per failure.
 * Each verified fix is applied to a copy of the server's configuration
 * and the command written back out, to paste.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "cli/explain_int.h"
#include "core/engine.h"
#include "core/msgmatch.h"
#include "core/util.h"
#include "deploy/deploy.h"
#include "io/json.h"
#include "io/pylog.h"
#include "io/pyrepr.h"
#include "io/server.h"
#include "io/shell.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MAX_BEST	4
#define MAX_NEAR	3
#define MAX_LOGGED	5
#define MAX_CLOSEST	64

struct logf {
	const char	*name;
	char		*text;
	size_t		 len;
	struct pylog	 lg;
	struct plskip	 skip;
	char		*script;	/* the shell view */
	size_t		 slen;
	char		*sherr;		/* why the shell view could not be
					   read, or NULL */
};

struct fail {
	size_t			 file;
	const struct plfail	*pf;
	struct mm_hit		*hits;
	size_t			 nhits, nbest;
	const struct rule	*bare[MAX_BEST];
	size_t			 nbare;
	struct mm_near		 near[MAX_NEAR];
	size_t			 nnear;
	bool			 explained;
	bool			 primary;
	const char		*looks;		/* "configuration", or NULL */
	char			*why;		/* what it looks like, owned */
};

struct srv {
	size_t			 file;
	const struct sh_cmd	*cmd;
	bool			 router;
	bool			 from_args;	/* server_args, not a command */
	int			 line;
	char			*mode;
	struct config		 cfg;		/* as read, before overrides */
	struct result		 res;		/* reader's and rules' findings */
	char			*command;	/* cfg written back out */
	bool			 dup;		/* the same as an earlier one */
};

struct ctx {
	const struct catalog	*cat;
	const struct cli_facts	*facts;		/* --gpu, --platform, ... */
	struct mm_index		*idx;
	struct logf		*f;
	size_t			 nf;
	struct fail		*fl;
	size_t			 nfl;
	struct sh_script	 sc;		/* every log's commands */
	size_t			*cmd_file;	/* the log of each command */
	struct srv		*s;
	size_t			 ns;
	struct result		 xres;		/* cross-role findings */
	bool			 cross;		/* the cross-role rules ran */
	int			 first[NPD_ROLE];	/* server index per role */
	size_t			 nclosest;	/* mm_closest calls so far */
	const struct rule	**shown;	/* rules explained already */
	size_t			 nshown;
};

/* ---- reading ---- */

static int
read_logs(struct ctx *x, const struct explain_req *req)
{
	size_t	i, nstdin = 0;

	x->nf = req->message != NULL ? 1 : req->nlogs;
	x->f = xcalloc(x->nf, sizeof *x->f);
	if (req->message != NULL) {
		x->f[0].name = "<message>";
		x->f[0].text = xstrdup(req->message);
		x->f[0].len = strlen(req->message);
	}
	for (i = 0; req->message == NULL && i < req->nlogs; i++) {
		char		 err[1024];
		const char	*nul;
		int		 line, col;

		x->f[i].name = strcmp(req->logs[i], "-") == 0 ? "<stdin>" :
		    req->logs[i];
		if (strcmp(req->logs[i], "-") == 0 && nstdin++ > 0) {
			fprintf(stderr, "pdwiz explain: --log - (standard "
			    "input) given twice\n");
			return -1;
		}
		if ((x->f[i].text = read_file(req->logs[i], PYLOG_MAX,
		    &x->f[i].len, err, sizeof err)) == NULL) {
			fprintf(stderr, "pdwiz: %s\n", err);
			return -1;
		}
		if ((nul = memchr(x->f[i].text, '\0', x->f[i].len)) != NULL) {
			text_pos(x->f[i].text, (size_t)(nul - x->f[i].text),
			    &line, &col);
			fprintf(stderr, "%s:%d:%d: binary input (a NUL byte); "
			    "expected a log\n", x->f[i].name, line, col);
			return -1;
		}
	}
	for (i = 0; i < x->nf; i++) {
		pylog_read(x->f[i].text, x->f[i].len, &x->f[i].lg);
		x->f[i].script = pylog_script(x->cat, &x->f[i].lg,
		    &x->f[i].slen, &x->f[i].skip);
	}
	/* A message that is no log line of any kind is the failure itself. */
	if (req->message != NULL && x->f[0].lg.nf == 0) {
		struct pylog	*lg = &x->f[0].lg;
		struct plfail	*pf;

		lg->f = xcalloc(1, sizeof *lg->f);
		pf = &lg->f[lg->nf++];
		pf->kind = PL_LOGGED;
		pf->msg = xstrdup(req->message);
		pf->line = pf->col = 1;
		pf->count = 1;
	}
	return 0;
}

/* ---- matching ---- */

static bool
loud(const struct rule *r)
{
	return r == NULL || r->sev == SEV_ERROR || r->sev == SEV_WARNING;
}

static void
match_text(struct ctx *x, struct fail *f, const char *text, unsigned mask)
{
	size_t	i, k;

	if (f->nhits > 0 || text == NULL || *text == '\0')
		return;
	f->nhits = mm_match(x->idx, text, mask, &f->hits);
	/* a logged line explains a failure only by an error or a warning */
	for (i = k = 0; i < f->nhits; i++) {
		if (f->pf->kind == PL_LOGGED && !loud(f->hits[i].rule)) {
			size_t	j;


			for (j = 0; j < f->hits[i].nholes; j++)
				free(f->hits[i].holes[j].value);
			free(f->hits[i].holes);
			continue;
		}
		f->hits[k++] = f->hits[i];
	}
	f->nhits = k;
	for (f->nbest = 0; f->nbest < f->nhits && f->nbest < MAX_BEST &&
	    f->hits[f->nbest].whole == f->hits[0].whole &&
	    f->hits[f->nbest].lit == f->hits[0].lit; f->nbest++)
		;
}

static bool
has_frame(const struct plfail *pf, const char *part)
{
	size_t	i;

	for (i = 0; i < pf->nframes; i++)
		if (strstr(pf->frames[i].file, part) != NULL)
			return true;
	return false;
}

static bool
says(const struct plfail *pf, const char *w)
{
	return strstr(pf->msg, w) != NULL || (pf->type != NULL &&
	    strstr(pf->type, w) != NULL) || (pf->more != NULL &&
	    strstr(pf->more, w) != NULL);
}

/* Does the failure look like configuration, by where it was raised? */
static void
classify(struct fail *f)
{
	const struct plfail	*pf = f->pf;
	const char		*w = NULL;

	if (pf->kind == PL_ARGPARSE) {
		f->looks = "configuration";
		w = "SGLang's argument parser refused the command line";
	} else if (has_frame(pf, "server_args.py") ||
	    has_frame(pf, "/arg_groups/")) {
		f->looks = "configuration";
		w = has_frame(pf, "/arg_groups/") ? "raised by an arg_groups "
		    "hook, while SGLang resolved its arguments" : "raised in "
		    "server_args.py, while SGLang checked its arguments";
	} else if (says(pf, "out of memory") || says(pf, "OutOfMemory") ||
	    says(pf, "Not enough memory")) {
		w = "the GPU ran out of memory: not a rule of SGLang's "
		    "arguments, though the configuration decides the memory "
		    "(--mem-fraction-static, --tp-size, --context-length, "
		    "--max-running-requests; pdwiz check --gpu NAME estimates "
		    "it)";
	} else if (says(pf, "CUDA error") || says(pf, "NCCL") ||
	    says(pf, "illegal memory access") || says(pf, "device-side") ||
	    says(pf, "cudaError") || says(pf, "driver") ||
	    says(pf, "Assertion `")) {
		w = "a CUDA, NCCL or driver error: a kernel or the GPU failed, "
		    "not SGLang's argument checks";
	} else if (says(pf, "Connection") || says(pf, "connect") ||
	    says(pf, "timed out") || says(pf, "Timeout") ||
	    says(pf, "refused") || says(pf, "HTTPConnectionPool") ||
	    says(pf, "RDMA") || says(pf, "unreachable")) {
		w = "a network or KV transfer error at run time (an address, a "
		    "port, the RDMA devices, a peer that died or never came): "
		    "not SGLang's argument checks";
	} else if (says(pf, "KVTransferError") || says(pf, "KVPoll") ||
	    has_frame(pf, "/disaggregation/")) {
		w = "a PD transfer failure at run time (prefill and decode lost "
		    "each other): not SGLang's argument checks";
	} else if (pf->nframes > 0 && (has_frame(pf, "/models/") ||
	    has_frame(pf, "/layers/") || has_frame(pf, "model_executor") ||
	    has_frame(pf, "model_loader") || has_frame(pf, "/speculative/") ||
	    has_frame(pf, "site-packages/torch"))) {
		w = "raised in model, kernel or loader code: not by SGLang's "
		    "argument checks (server_args.py, arg_groups)";
	} else if (pf->nframes > 0) {
		w = "raised outside SGLang's argument checks (no server_args.py "
		    "or arg_groups frame in its traceback)";
	} else if (pf->kind == PL_LOGGED) {
		w = "a line SGLang logged; no traceback says where it came from";
	} else
		w = "no traceback frames say where it was raised";
	f->why = xstrdup(w);
}

static void
match_fail(struct ctx *x, struct fail *f)
{
	const struct plfail	*pf = f->pf;
	unsigned		 mask = pf->kind == PL_ARGPARSE ?
	    MM_RULES | MM_ARGPARSE : MM_RULES;
	char			*joined = NULL;

	match_text(x, f, pf->msg, mask);
	if (pf->more != NULL) {
		joined = xasprintf("%s %s", pf->msg, pf->more);
		match_text(x, f, joined, mask);
		free(joined);
	}
	if (*pf->msg == '\0' && pf->code != NULL)
		match_text(x, f, pf->code, mask);
	if (*pf->msg == '\0' && pf->nframes > 0 && f->nhits == 0)
		f->nbare = mm_bare(x->idx, pf->frames[pf->nframes - 1].func,
		    f->bare, MAX_BEST);
	f->explained = f->nbest > 0 || f->nbare > 0;
	/* the closest messages of the first failures not explained (a log
	 * of thousands of distinct ones costs no more than its length) */
	if (!f->explained && pf->kind != PL_LOGGED && *pf->msg != '\0' &&
	    x->nclosest++ < MAX_CLOSEST)
		f->nnear = mm_closest(x->idx, pf->msg, f->near, MAX_NEAR);
	classify(f);
}

static int
fail_cmp(const void *a, const void *b)
{
	const struct fail	*p = a, *q = b;

	if (p->file != q->file)
		return p->file < q->file ? -1 : 1;
	if (p->pf->line != q->pf->line)
		return p->pf->line < q->pf->line ? -1 : 1;
	return 0;
}

/*
 * The failures to explain: every exception and argparse error that is no
 * consequence of another, and logged lines that match an error rule;
 * when there is none of those, the first logged errors.
 */
static void
collect(struct ctx *x)
{
	size_t	i, j, nprim = 0, nlogged = 0;

	for (i = 0; i < x->nf; i++)
		for (j = 0; j < x->f[i].lg.nf; j++) {
			struct fail	*f;

			x->fl = grow_pow2(x->fl, x->nfl, sizeof *x->fl);
			f = &x->fl[x->nfl++];
			memset(f, 0, sizeof *f);
			f->file = i;
			f->pf = &x->f[i].lg.f[j];
			match_fail(x, f);
		}
	for (i = 0; i < x->nfl; i++) {
		struct fail	*f = &x->fl[i];

		/* a logged line is the failure when an error rule says it
		 * (a warning SGLang logged on the way is not why it failed) */
		f->primary = f->pf->kind != PL_LOGGED ? !f->pf->consequence ||
		    f->explained : f->explained && f->nbest > 0 &&
		    f->hits[0].rule != NULL && f->hits[0].rule->sev == SEV_ERROR;
		nprim += f->primary;
	}
	if (nprim == 0)	/* only consequences: they are what there is */
		for (i = 0; i < x->nfl; i++)
			if (x->fl[i].pf->kind != PL_LOGGED) {
				x->fl[i].primary = true;
				nprim++;
			}
	if (nprim == 0)
		for (i = 0; i < x->nfl && nlogged < MAX_LOGGED; i++) {
			x->fl[i].primary = true;
			nlogged++;
		}
	sort_items(x->fl, x->nfl, sizeof *x->fl, fail_cmp);
}

/* ---- the configuration, checked again ---- */

/* An option's words on a command line, into b (leading space). */
static void
opt_words(struct buf *b, const struct option *o, struct value v)
{
	char	*q, *t;

	if (v.t == V_NULL || v.t == V_UNKNOWN)
		return;
	if (o->type == T_BOOL) {
		if (v.t == V_BOOL && v.u.b)
			buf_printf(b, " %s", o->flag);
		return;
	}
	if (o->type == T_BOOLOPT && v.t == V_BOOL) {
		if (v.u.b)
			buf_printf(b, " %s", o->flag);
		else
			buf_printf(b, " --no-%s", o->flag + 2);
		return;
	}
	buf_printf(b, " %s", o->flag);
	if (v.t == V_LIST) {
		const char	*p = v.u.s;

		for (;;) {
			const char	*e = strchr(p, '\x1f');

			t = e != NULL ? xstrndup(p, (size_t)(e - p)) :
			    xstrdup(p);
			q = sh_quote(t);
			buf_printf(b, " %s", q);
			free(q);
			free(t);
			if (e == NULL)
				break;
			p = e + 1;
		}
		return;
	}
	{
		struct buf	vb = { 0 };

		val_cli(&vb, v);
		q = sh_quote(vb.s != NULL ? vb.s : "");
		buf_printf(b, " %s", q);
		free(q);
		buf_free(&vb);
	}
}

struct ord {
	int	opt, line, col;
};

static int
ord_cmp(const void *a, const void *b)
{
	const struct ord	*p = a, *q = b;

	if ((p->line == 0) != (q->line == 0))
		return p->line == 0 ? 1 : -1;
	if (p->line != q->line)
		return p->line < q->line ? -1 : 1;
	if (p->col != q->col)
		return p->col < q->col ? -1 : 1;
	return p->opt - q->opt;
}

/* A server's configuration as the command that states it: the
 * command's environment (its assignments pdwiz has no option for as
 * given), then every option set, in the order the operator gave them
 * (what a fix adds comes last). Owned. */
static char *
render(const struct catalog *cat, const struct config *cfg,
    const struct sh_cmd *c)
{
	struct ord	*o = xcalloc(cat->nopts + 1, sizeof *o);
	struct buf	 b = { 0 };
	size_t		 i, n = 0;

	for (i = 0; c != NULL && i < c->nenv; i++) {
		int	k = catalog_find(cat, c->env[i].name);
		char	*q;

		if ((k >= 0 && cat->opts[k].kind == OK_ENV) ||
		    c->env[i].value == NULL)
			continue;
		q = sh_quote(c->env[i].value);
		buf_printf(&b, "%s=%s ", c->env[i].name, q);
		free(q);
	}

	for (i = 0; i < cat->nopts; i++) {
		enum source	src = (enum source)cfg->s[i].src;

		if ((src != SRC_CLI && src != SRC_CONFIG && src != SRC_ENV &&
		    src != SRC_USER) || (cat->opts[i].kind != OK_FLAG &&
		    cat->opts[i].kind != OK_ENV))
			continue;
		o[n].opt = (int)i;
		o[n].line = cfg->s[i].line;
		o[n].col = cfg->s[i].col;
		n++;
	}
	sort_items(o, n, sizeof *o, ord_cmp);
	for (i = 0; i < n; i++) {
		const struct option	*op = &cat->opts[o[i].opt];
		struct value		 v = cfg->s[o[i].opt].v;
		struct buf		 vb = { 0 };
		char			*q;

		if (op->kind != OK_ENV || v.t == V_NULL || v.t == V_UNKNOWN)
			continue;
		if (v.t == V_BOOL)
			buf_puts(&vb, v.u.b ? "1" : "0");
		else
			val_cli(&vb, v);
		q = sh_quote(vb.s != NULL ? vb.s : "");
		buf_printf(&b, "%s=%s ", op->name, q);
		free(q);
		buf_free(&vb);
	}
	buf_puts(&b, "python3 -m sglang.launch_server");
	for (i = 0; i < n; i++)
		if (cat->opts[o[i].opt].kind == OK_FLAG)
			opt_words(&b, &cat->opts[o[i].opt],
			    cfg->s[o[i].opt].v);
	free(o);
	return buf_steal(&b);
}

/* A router's command as the log gave it. */
static char *
render_words(const struct sh_cmd *c)
{
	struct buf	b = { 0 };
	size_t		i;

	for (i = 0; i < c->nwords; i++) {
		char	*q = sh_quote(c->words[i].text);

		buf_printf(&b, "%s%s", i > 0 ? " " : "", q);
		free(q);
	}
	return buf_steal(&b);
}

static const char *
mode_of(const struct catalog *cat, const struct config *cfg)
{
	int	o = catalog_find(cat, "disaggregation_mode");

	if (o >= 0 && cfg->s[o].v.t == V_STR)
		return cfg->s[o].v.u.s;
	return "null";
}

static void
check_server(struct ctx *x, struct srv *s)
{
	struct config	base;
	struct result	rr;

	config_init(&base, x->cat);
	if (x->facts != NULL)
		cli_facts_apply(x->cat, &base, x->facts, NULL);
	result_init(&s->res);
	server_from_cmd(x->cat, s->cmd, &base, &s->cfg, &s->res, NULL);
	config_free(&base);
	result_init(&rr);
	engine_run(x->cat, &s->cfg, &rr);
	engine_verify_fixes(x->cat, &s->cfg, &rr);
	result_take(&s->res, &rr, 0);
	config_copy(&s->res.eff, &rr.eff);
	result_free(&rr);
	s->mode = xstrdup(mode_of(x->cat, &s->cfg));
	s->command = render(x->cat, &s->cfg, s->cmd);
}

/* Where the server's line of the shell view came from. */
static bool
from_args(const struct logf *lf, int line)
{
	size_t	i;

	for (i = 0; i < lf->lg.na; i++)
		if (lf->lg.a[i].line == line)
			return true;
	return false;
}

static void
recheck(struct ctx *x)
{
	size_t	i, j;
	char	err[1024];

	for (i = 0; i < NPD_ROLE; i++)
		x->first[i] = -1;
	x->cmd_file = NULL;
	for (i = 0; i < x->nf; i++) {
		struct sh_script	one = { 0 };
		size_t			before = x->sc.ncmds;

		if (sh_parse(x->f[i].script, x->f[i].slen, &one, err,
		    sizeof err) != 0) {
			x->f[i].sherr = xstrdup(err);
			sh_script_free(&one);
			continue;
		}
		sh_script_move(&x->sc, &one);
		sh_script_free(&one);
		x->cmd_file = xreallocarray(x->cmd_file, x->sc.ncmds + 1,
		    sizeof *x->cmd_file);
		for (j = before; j < x->sc.ncmds; j++)
			x->cmd_file[j] = i;
	}
	for (i = 0; i < x->sc.ncmds; i++) {
		const struct sh_cmd	*c = &x->sc.cmds[i];
		struct srv		*s;

		if (c->kind != SH_SERVER && c->kind != SH_ROUTER)
			continue;
		x->s = grow_pow2(x->s, x->ns, sizeof *x->s);
		s = &x->s[x->ns++];
		memset(s, 0, sizeof *s);
		s->file = x->cmd_file[i];
		s->cmd = c;
		s->line = c->line;
		s->router = c->kind == SH_ROUTER;
		s->from_args = from_args(&x->f[s->file], c->line);
		if (s->router) {
			s->mode = xstrdup("router");
			s->command = render_words(c);
			result_init(&s->res);
		} else
			check_server(x, s);
		for (j = 0; j + 1 < x->ns; j++)
			if (strcmp(x->s[j].command, s->command) == 0)
				s->dup = true;
		if (s->dup)
			continue;
		if (role_parse(s->mode) == ROLE_PREFILL &&
		    x->first[ROLE_PREFILL] < 0)
			x->first[ROLE_PREFILL] = (int)(x->ns - 1);
		else if (role_parse(s->mode) == ROLE_DECODE &&
		    x->first[ROLE_DECODE] < 0)
			x->first[ROLE_DECODE] = (int)(x->ns - 1);
		else if (s->router && x->first[ROLE_ROUTER] < 0)
			x->first[ROLE_ROUTER] = (int)(x->ns - 1);
	}
	result_init(&x->xres);
	if (x->first[ROLE_PREFILL] >= 0 && x->first[ROLE_DECODE] >= 0) {
		const struct config	*eff[NPD_ROLE] = {
			&x->s[x->first[ROLE_PREFILL]].res.eff,
			&x->s[x->first[ROLE_DECODE]].res.eff, NULL };

		x->cross = deployment_check_script(x->cat, "<logs>", &x->sc,
		    eff, &x->xres) == 0;
	}
}

/* The server a cross-role finding is about. */
static int
xsrv(const struct ctx *x, const struct diag *d)
{
	int	r = d->cmd >= 0 && d->cmd < NPD_ROLE ? d->cmd : ROLE_PREFILL;

	return x->first[r] >= 0 ? x->first[r] : x->first[ROLE_PREFILL];
}

/* An option a fix changed stays where the operator had it. */
static void
keep_places(const struct catalog *cat, struct config *c,
    const struct config *was)
{
	size_t	i;

	for (i = 0; i < cat->nopts; i++)
		if (c->s[i].line == 0 && was->s[i].line > 0) {
			c->s[i].line = was->s[i].line;
			c->s[i].col = was->s[i].col;
		}
}

/*
 * The commands of every server once fix fi of d's rule is applied (to
 * server si for a per-server rule, to every server of a role for a
 * cross-role one), one line each; NULL when the fix is no change of a
 * server's options (a layout pdwiz derives).
 */
static char *
fixed_script(const struct ctx *x, const struct diag *d, size_t si,
    size_t fi, char **one)
{
	const struct rule	*r = d->rule;
	const struct fix	*fx = &r->fixes[fi];
	struct buf		 b = { 0 };
	size_t			 i, j, nopts = x->cat->nopts;

	*one = NULL;
	for (j = 0; r->deploy && j < fx->n; j++) {
		int	role = slot_role(nopts, fx->opt[j]);

		if (role != ROLE_PREFILL && role != ROLE_DECODE)
			return NULL;
	}
	for (i = 0; i < x->ns; i++) {
		const struct srv	*s = &x->s[i];
		struct config		 c = { 0 };
		char			*cmd;
		bool			 changed = false;

		if (s->dup)
			continue;
		if (s->router) {
			buf_printf(&b, "%s\n", s->command);
			continue;
		}
		config_copy(&c, &s->cfg);
		if (!r->deploy && i == si) {
			engine_apply_fix(r, fi, &c);
			changed = true;
		}
		for (j = 0; r->deploy && j < fx->n; j++) {
			int	role = slot_role(nopts, fx->opt[j]);
			int	o = slot_opt(nopts, fx->opt[j]);

			if (strcmp(s->mode, role == ROLE_PREFILL ? "prefill" :
			    "decode") != 0)
				continue;
			if (fx->val[j].t == V_NULL)
				config_set(&c, o, x->cat->opts[o].def,
				    SRC_DEFAULT, 0, 0);
			else
				config_set(&c, o, fx->val[j], SRC_USER, 0, 0);
			changed = true;
		}
		keep_places(x->cat, &c, &s->cfg);
		cmd = changed ? render(x->cat, &c, s->cmd) : xstrdup(s->command);
		if (changed && *one == NULL)
			*one = xstrdup(cmd);
		buf_printf(&b, "%s\n", cmd);
		free(cmd);
		config_free(&c);
	}
	return buf_steal(&b);
}

/* ---- text ---- */

static const char *
sev_word(enum severity s)
{
	switch (s) {
	case SEV_ERROR: return "error";
	case SEV_WARNING: return "warning";
	case SEV_UNKNOWN: return "could not check";
	case SEV_OVERRIDE: return "override";
	default: return "note";
	}
}

static const char *
kind_word(enum plkind k)
{
	return k == PL_EXCEPTION ? "exception" : k == PL_ARGPARSE ?
	    "argparse" : "logged";
}

/* The finding of rule id in the re-check: server index in *si (or the
 * cross-role result's), or NULL. */
static const struct diag *
found(const struct ctx *x, const char *id, size_t file, bool any_file,
    size_t *si, bool *cross)
{
	size_t	i, j;

	for (i = 0; i < x->ns; i++) {
		if (x->s[i].dup || (!any_file && x->s[i].file != file))
			continue;
		for (j = 0; j < x->s[i].res.n; j++)
			if (strcmp(x->s[i].res.d[j].id, id) == 0) {
				*si = i;
				*cross = false;
				return &x->s[i].res.d[j];
			}
	}
	for (j = 0; j < x->xres.n; j++)
		if (strcmp(x->xres.d[j].id, id) == 0) {
			*si = (size_t)xsrv(x, &x->xres.d[j]);
			*cross = true;
			return &x->xres.d[j];
		}
	return NULL;
}

static bool
file_has_servers(const struct ctx *x, size_t file)
{
	size_t	i;

	for (i = 0; i < x->ns; i++)
		if (x->s[i].file == file && !x->s[i].router)
			return true;
	return false;
}

/* What argparse's message means; the flags' history where pdwiz has it. */
static void
argparse_text(const struct ctx *x, const struct mm_hit *h)
{
	static const struct {
		const char	*id, *what;
	} means[] = {
		{ "argparse-unrecognized", "SGLang's argument parser does not "
		    "know these words: a flag misspelled, removed or renamed, "
		    "or newer than the SGLang release that ran the command." },
		{ "argparse-choice", "The value is not one the flag takes in "
		    "the SGLang release that ran the command." },
		{ "argparse-type", "The value is not a number of the type the "
		    "flag takes." },
		{ "argparse-missing-value", "The flag takes a value and none "
		    "followed it (the next word starts with --, or the line "
		    "ended: a lost backslash continuation)." },
		{ "argparse-ambiguous", "An abbreviation that matches several "
		    "flags." },
		{ "argparse-required", "A required argument is missing." },
		{ "argparse-explicit", "A flag that takes no value was given "
		    "one with =." },
	};
	size_t	i;

	for (i = 0; i < sizeof means / sizeof means[0]; i++)
		if (strcmp(means[i].id, h->id) == 0)
			printf("  %s\n", means[i].what);
	for (i = 0; i < h->nholes; i++) {
		const char	*v = h->holes[i].value, *p = v;

		if (strcmp(h->holes[i].expr, "words") != 0 &&
		    strcmp(h->holes[i].expr, "flag") != 0)
			continue;
		while (*p != '\0') {
			const char	*e = p + strcspn(p, " ");
			char		*w = xstrndup(p, (size_t)(e - p));
			char		*eq = strchr(w, '=');
			const struct flag_hist *fh;

			if (eq != NULL)
				*eq = '\0';
			if (strncmp(w, "--", 2) == 0 && strcmp(h->id,
			    "argparse-choice") == 0) {
				int	o = catalog_find_flag(x->cat, w);
				size_t	c;

				if (o >= 0 && x->cat->opts[o].nchoices > 0) {
					printf("  %s in the SGLang release pdwiz "
					    "models takes:", w);
					for (c = 0; c < x->cat->opts[o].nchoices;
					    c++)
						printf("%s %s", c ? "," : "",
						    x->cat->opts[o].choices[c]);
					printf("\n");
				}
			} else if (strncmp(w, "--", 2) == 0) {
				int	o = catalog_find_flag(x->cat, w);

				if ((fh = flaghist_find(x->cat, w)) != NULL) {
					char	*adv = flaghist_advice(fh, 0);

					printf("  %s: %s\n", w, adv);
					free(adv);
				} else if (o >= 0 && strcmp(h->id,
				    "argparse-unrecognized") == 0)
					printf("  %s: an option of the SGLang "
					    "release pdwiz models, so the one "
					    "that ran the command is older than "
					    "it: upgrade SGLang, or leave it "
					    "out\n", w);
				else if (o < 0) {
					const char	*sug =
					    catalog_suggest_flag(x->cat, w);

					printf("  %s: no SGLang option pdwiz "
					    "knows%s%s%s\n", w, sug ?
					    "; did you mean " : "", sug ? sug :
					    "", sug ? "?" : "");
				}
			}
			free(w);
			p = *e == ' ' ? e + 1 : e;
		}
	}
}

static void
print_holes(const struct mm_hit *h, const char *in)
{
	size_t	i;

	for (i = 0; i < h->nholes; i++)
		printf("%s%s = %s\n", in, h->holes[i].expr,
		    h->holes[i].value);
}

static bool
shown(struct ctx *x, const struct rule *r)
{
	size_t	i;

	for (i = 0; i < x->nshown; i++)
		if (x->shown[i] == r)
			return true;
	x->shown = xreallocarray(x->shown, x->nshown + 1, sizeof *x->shown);
	x->shown[x->nshown++] = r;
	return false;
}

/* How the re-check stands to the rule that explains a failure, and the
 * verified fixes as commands. */
static void
recheck_text(struct ctx *x, const struct fail *f, const char *id,
    const struct rule *r)
{
	const struct diag	*d;
	size_t			 si = 0, i;
	bool			 cross = false;

	if (x->ns == 0)
		return;
	d = found(x, id, f->file, x->nf > 1 || !file_has_servers(x, f->file),
	    &si, &cross);
	if (d == NULL) {
		printf("  The re-check of the configuration does not report "
		    "%s: with the values the log shows, pdwiz's condition does "
		    "not hold (another SGLang release's check, or a fact the "
		    "log does not show).\n", id);
		return;
	}
	if (d->sev == SEV_UNKNOWN) {
		printf("  The re-check could not decide %s: %s\n", id,
		    d->note != NULL ? d->note : d->msg);
		return;
	}
	printf("  The re-check of the configuration reports %s%s: the same "
	    "failure.\n", id, cross ? " (across prefill and decode)" : "");
	if (d->hint != NULL)
		printf("  hint: %s\n", d->hint);
	for (i = 0; r != NULL && i < r->nfixes; i++) {
		char	*one, *script;

		if (!diag_fix_ok(d, i))
			continue;
		if ((script = fixed_script(x, d, si, i, &one)) == NULL) {
			printf("  fix (verified): %s (a layout pdwiz derives: "
			    "pdwiz import the logs and let it)\n",
			    r->fixes[i].label);
			continue;
		}
		printf("  fix (verified): %s:\n", r->fixes[i].label);
		if (cross || one == NULL) {
			const char	*p = script;

			while (*p != '\0') {
				const char *e = strchr(p, '\n');

				printf("    %.*s\n", (int)(e - p), p);
				p = e + 1;
			}
		} else
			printf("    %s\n", one);
		free(one);
		free(script);
	}
}

static void
fail_head(const struct ctx *x, const struct fail *f)
{
	const struct plfail	*pf = f->pf;

	printf("%s:%d:%d: %s%s%s%s", x->f[f->file].name, pf->line, pf->col,
	    pf->type != NULL ? pf->type : pf->kind == PL_ARGPARSE ?
	    "argparse error" : "", pf->type != NULL || pf->kind ==
	    PL_ARGPARSE ? (*pf->msg != '\0' ? ": " : "") : "", pf->msg,
	    pf->more != NULL ? " ..." : "");
	if (pf->count > 1)
		printf(" (%zu times%s%s)", pf->count, pf->procs != NULL ?
		    ", from " : "", pf->procs != NULL ? pf->procs : "");
	else if (pf->procs != NULL)
		printf(" (from %s)", pf->procs);
	putchar('\n');
	if (*pf->msg == '\0' && pf->code != NULL)
		printf("  (a bare %s at: %s)\n", pf->type != NULL ? pf->type :
		    "exception", pf->code);
}

static void
fail_text(struct ctx *x, const struct fail *f)
{
	size_t	i;

	fail_head(x, f);
	if (!f->explained) {
		printf("  not explained: no rule's message matches it.\n");
		printf("  %s: %s.\n", f->looks != NULL ? "Looks like "
		    "configuration" : "Does not look like configuration",
		    f->why);
		for (i = 0; i < f->nnear; i++) {
			if (i == 0)
				printf("  Closest rule messages (sharing most of "
				    "their literal text):\n");
			printf("    %s (%u%% of its words): %s\n",
			    f->near[i].id, f->near[i].percent,
			    f->near[i].tmpl);
		}
		putchar('\n');
		return;
	}
	for (i = 0; i < f->nbest; i++) {
		const struct mm_hit	*h = &f->hits[i];

		printf("  explained by %s%s\n", h->id, h->whole ? "" :
		    " (its message, inside a longer one)");
		print_holes(h, "    ");
	}
	for (i = 0; i < f->nbare; i++)
		printf("  explained by %s (a bare assert in %s)\n",
		    f->bare[i]->id, f->bare[i]->src_func);
	putchar('\n');
	for (i = 0; i < f->nbest + f->nbare; i++) {
		const struct rule	*r = i < f->nbest ? f->hits[i].rule :
		    f->bare[i - f->nbest];
		const char		*id = i < f->nbest ? f->hits[i].id :
		    r->id;

		if (r == NULL) {
			argparse_text(x, &f->hits[i]);
		} else if (!shown(x, r)) {
			explain_print_rule(x->cat, r, "  ");
			putchar('\n');
		}
		recheck_text(x, f, id, r);
		putchar('\n');
	}
}

/* One finding of the re-check, compiler style. */
static void
diag_line(const struct ctx *x, size_t si, const struct diag *d)
{
	const char	*m = d->sev == SEV_UNKNOWN && d->note != NULL ? d->note :
	    d->msg;

	if (d->sev == SEV_UNKNOWN && strncmp(m, "could not check: ", 17) == 0)
		m += 17;
	printf("  %s:%d: %s: %s [%s]\n", x->f[x->s[si].file].name,
	    x->s[si].line, sev_word(d->sev), m, d->id);
	if (d->hint != NULL)
		printf("      hint: %s\n", d->hint);
}

static void
config_text(const struct ctx *x)
{
	size_t	i, j, nother = 0;

	for (i = 0; i < x->nf; i++) {
		const struct logf	*lf = &x->f[i];

		if (lf->skip.unknown > 0)
			printf("%s: %zu field%s of server_args %s not an option "
			    "of the SGLang release pdwiz models (another "
			    "release's, skipped)%s%s\n", lf->name,
			    lf->skip.unknown, lf->skip.unknown == 1 ? "" : "s",
			    lf->skip.unknown == 1 ? "is" : "are",
			    lf->skip.names.len > 0 ? ": " : "",
			    lf->skip.names.len > 0 ? lf->skip.names.s : "");
		if (lf->skip.unsettable > 0)
			printf("%s: %zu value%s of server_args no command line "
			    "states (objects, None where an option has a "
			    "value), skipped\n", lf->name, lf->skip.unsettable,
			    lf->skip.unsettable == 1 ? "" : "s");
		if (lf->sherr != NULL)
			printf("%s:%s: the commands this log shows cannot be "
			    "read as shell, so its configuration is not checked "
			    "again\n", lf->name, lf->sherr);
		for (j = 0; j < lf->lg.na; j++)
			if (lf->lg.a[j].cut)
				printf("%s:%d:%d: note: server_args is cut "
				    "short (%s): the fields before the cut are "
				    "read\n", lf->name, lf->lg.a[j].line,
				    lf->lg.a[j].col, lf->lg.a[j].why);
	}
	for (i = 0; i < x->ns; i++) {
		const struct srv	*s = &x->s[i];

		if (s->dup)
			continue;
		printf("%s:%d: %s (%s%s%s):\n  %s\n", x->f[s->file].name,
		    s->line, s->router ? "router" : "server",
		    s->router ? "" : strcmp(s->mode, "null") == 0 ?
		    "no PD mode" : s->mode, s->router ? "" : ", ",
		    s->from_args ? "the configuration SGLang resolved, its "
		    "server_args" : "the launch command the log shows",
		    s->command);
	}
	for (i = 0; i < x->ns; i++)
		for (j = 0; j < x->s[i].res.n; j++) {
			const struct diag *d = &x->s[i].res.d[j];

			if (x->s[i].dup || d->sev == SEV_OVERRIDE ||
			    d->sev == SEV_NOTE)
				continue;
			if (nother++ == 0)
				printf("\nEvery problem of this configuration "
				    "(pdwiz check of it):\n");
			diag_line(x, i, d);
		}
	for (j = 0; j < x->xres.n; j++) {
		const struct diag	*d = &x->xres.d[j];
		int			 si = xsrv(x, d);

		if (d->sev == SEV_OVERRIDE || d->sev == SEV_NOTE)
			continue;
		if (nother++ == 0)
			printf("\nEvery problem of this configuration (pdwiz "
			    "check of it):\n");
		diag_line(x, (size_t)si, d);
	}
	if (x->ns > 0 && nother == 0)
		printf("\npdwiz check finds no other problem in this "
		    "configuration.\n");
	if (x->ns > 0 && !x->cross && (x->first[ROLE_PREFILL] >= 0) !=
	    (x->first[ROLE_DECODE] >= 0))
		printf("(Only the %s's configuration is in the log%s: the "
		    "cross-role rules need the other's: --log it too.)\n",
		    x->first[ROLE_PREFILL] >= 0 ? "prefill" : "decode",
		    x->nf > 1 ? "s" : "");
}

static int
report_text(struct ctx *x)
{
	size_t	i, nprim = 0, nexp = 0, ncons = 0;

	for (i = 0; i < x->nfl; i++) {
		if (!x->fl[i].primary) {
			ncons++;
			continue;
		}
		nprim++;
		nexp += x->fl[i].explained;
		fail_text(x, &x->fl[i]);
	}
	if (ncons > 0) {
		printf("Also in the log, after or beside the failure%s above:\n",
		    nprim == 1 ? "" : "s");
		for (i = 0; i < x->nfl; i++)
			if (!x->fl[i].primary && (x->fl[i].pf->kind !=
			    PL_LOGGED || ncons <= 20)) {
				putchar(' ');
				putchar(' ');
				fail_head(x, &x->fl[i]);
				if (x->fl[i].nbest > 0)
					printf("    (%s: %s)\n",
					    x->fl[i].hits[0].id,
					    x->fl[i].hits[0].rule != NULL ?
					    severity_name(
					    x->fl[i].hits[0].rule->sev) : "");
			}
		putchar('\n');
	}
	config_text(x);
	printf("\n%zu failure%s, %zu explained\n", nprim, nprim == 1 ? "" : "s",
	    nexp);
	return nexp > 0 ? EXIT_OK : EXIT_FOUND;
}

/* ---- JSON ---- */

static void
jstr(struct buf *b, const char *s)
{
	if (s == NULL)
		buf_puts(b, "null");
	else
		json_str(b, s);
}

static void
diag_json(struct buf *b, const struct ctx *x, const struct diag *d,
    size_t si, bool cross)
{
	size_t	i, k = 0;

	buf_puts(b, "{\"file\":");
	jstr(b, x->f[x->s[si].file].name);
	buf_printf(b, ",\"line\":%d,\"severity\":", x->s[si].line);
	jstr(b, d->sev == SEV_UNKNOWN ? "unknown" : sev_word(d->sev));
	buf_puts(b, ",\"rule\":");
	jstr(b, d->id);
	buf_printf(b, ",\"cross_role\":%s,\"message\":", cross ? "true" :
	    "false");
	jstr(b, d->msg);
	buf_puts(b, ",\"note\":");
	jstr(b, d->note);
	buf_puts(b, ",\"hint\":");
	jstr(b, d->hint);
	buf_puts(b, ",\"fixes\":[");
	for (i = 0; d->rule != NULL && i < d->rule->nfixes; i++) {
		char	*one, *script;

		if (!diag_fix_ok(d, i) || d->sev == SEV_UNKNOWN)
			continue;
		script = fixed_script(x, d, si, i, &one);
		buf_puts(b, k++ ? ",{\"label\":" : "{\"label\":");
		jstr(b, d->rule->fixes[i].label);
		buf_puts(b, ",\"verified\":true,\"command\":");
		jstr(b, one);
		buf_puts(b, ",\"script\":");
		jstr(b, script);
		buf_puts(b, "}");
		free(one);
		free(script);
	}
	buf_puts(b, "]}");
}

static void
fail_json(struct buf *b, const struct ctx *x, const struct fail *f)
{
	const struct plfail	*pf = f->pf;
	size_t			 i, j;

	buf_puts(b, "{\"file\":");
	jstr(b, x->f[f->file].name);
	buf_printf(b, ",\"line\":%d,\"col\":%d,\"kind\":\"%s\",\"type\":",
	    pf->line, pf->col, kind_word(pf->kind));
	jstr(b, pf->type);
	buf_puts(b, ",\"message\":");
	jstr(b, pf->msg);
	buf_puts(b, ",\"continued\":");
	jstr(b, pf->more);
	buf_printf(b, ",\"count\":%zu,\"processes\":", pf->count);
	jstr(b, pf->procs);
	buf_printf(b, ",\"primary\":%s,\"explained\":%s,\"rules\":[",
	    f->primary ? "true" : "false", f->explained ? "true" : "false");
	for (i = 0; i < f->nbest + f->nbare; i++) {
		const struct mm_hit	*h = i < f->nbest ? &f->hits[i] : NULL;
		const struct rule	*r = h != NULL ? h->rule :
		    f->bare[i - f->nbest];
		const char		*id = h != NULL ? h->id : r->id;
		const struct diag	*d;
		size_t			 si = 0;
		bool			 cross = false;

		buf_puts(b, i ? ",{\"id\":" : "{\"id\":");
		jstr(b, id);
		buf_puts(b, ",\"severity\":");
		jstr(b, r != NULL ? severity_name(r->sev) : "error");
		buf_printf(b, ",\"whole\":%s,\"holes\":{", h == NULL ||
		    h->whole ? "true" : "false");
		for (j = 0; h != NULL && j < h->nholes; j++) {
			if (j > 0)
				buf_putc(b, ',');
			jstr(b, h->holes[j].expr);
			buf_putc(b, ':');
			jstr(b, h->holes[j].value);
		}
		buf_puts(b, "},\"recheck\":");
		d = x->ns > 0 ? found(x, id, f->file, x->nf > 1 ||
		    !file_has_servers(x, f->file), &si, &cross) : NULL;
		if (x->ns == 0)
			buf_puts(b, "null");
		else if (d == NULL)
			buf_puts(b, "{\"reports\":false}");
		else {
			buf_printf(b, "{\"reports\":%s,\"diagnostic\":",
			    d->sev == SEV_UNKNOWN ? "false" : "true");
			diag_json(b, x, d, si, cross);
			buf_puts(b, "}");
		}
		buf_puts(b, "}");
	}
	buf_puts(b, "],\"configuration\":");
	buf_puts(b, f->looks != NULL ? "true" : "false");
	buf_puts(b, ",\"why\":");
	jstr(b, f->why);
	buf_puts(b, ",\"closest\":[");
	for (i = 0; i < f->nnear; i++) {
		buf_puts(b, i ? ",{\"id\":" : "{\"id\":");
		jstr(b, f->near[i].id);
		buf_printf(b, ",\"percent\":%u,\"message\":",
		    f->near[i].percent);
		jstr(b, f->near[i].tmpl);
		buf_puts(b, "}");
	}
	buf_puts(b, "]}");
}

static int
report_json(struct ctx *x)
{
	struct buf	b = { 0 };
	size_t		i, j, k = 0, nexp = 0, nprim = 0;

	for (i = 0; i < x->nfl; i++)
		if (x->fl[i].primary) {
			nprim++;
			nexp += x->fl[i].explained;
		}
	buf_printf(&b, "{\"version\":1,\"explained\":%s,\"failures\":[",
	    nexp > 0 ? "true" : "false");
	for (i = 0; i < x->nfl; i++) {
		if (i > 0)
			buf_putc(&b, ',');
		fail_json(&b, x, &x->fl[i]);
	}
	buf_puts(&b, "],\"configurations\":[");
	for (i = 0; i < x->ns; i++) {
		const struct srv	*s = &x->s[i];
		const struct logf	*lf = &x->f[s->file];

		if (s->dup)
			continue;
		buf_puts(&b, k++ ? ",{\"file\":" : "{\"file\":");
		jstr(&b, lf->name);
		buf_printf(&b, ",\"line\":%d,\"source\":\"%s\",\"mode\":",
		    s->line, s->from_args ? "server_args" : "command");
		jstr(&b, s->mode);
		buf_puts(&b, ",\"command\":");
		jstr(&b, s->command);
		buf_printf(&b, ",\"unknown_fields\":%zu,\"unknown_names\":",
		    lf->skip.unknown);
		jstr(&b, lf->skip.names.s != NULL ? lf->skip.names.s : "");
		buf_printf(&b, ",\"unsettable_fields\":%zu,\"diagnostics\":[",
		    lf->skip.unsettable);
		for (j = 0; j < s->res.n; j++) {
			if (s->res.d[j].sev == SEV_OVERRIDE)
				continue;
			if (b.s[b.len - 1] != '[')
				buf_putc(&b, ',');
			diag_json(&b, x, &s->res.d[j], i, false);
		}
		buf_puts(&b, "]}");
	}
	buf_printf(&b, "],\"cross_role\":%s,\"cross_diagnostics\":[",
	    x->cross ? "true" : "false");
	for (j = 0; j < x->xres.n; j++) {
		if (x->xres.d[j].sev == SEV_OVERRIDE)
			continue;
		if (b.s[b.len - 1] != '[')
			buf_putc(&b, ',');
		diag_json(&b, x, &x->xres.d[j], (size_t)xsrv(x,
		    &x->xres.d[j]), true);
	}
	buf_printf(&b, "],\"counts\":{\"failures\":%zu,\"explained\":%zu}}\n",
	    nprim, nexp);
	cli_puts(b.s);
	buf_free(&b);
	return nexp > 0 ? EXIT_OK : EXIT_FOUND;
}

/* ---- the whole ---- */

static void
ctx_free(struct ctx *x)
{
	size_t	i;

	for (i = 0; i < x->nfl; i++) {
		mm_hits_free(x->fl[i].hits, x->fl[i].nhits);
		free(x->fl[i].why);
	}
	free(x->fl);
	for (i = 0; i < x->ns; i++) {
		result_free(&x->s[i].res);
		config_free(&x->s[i].cfg);
		free(x->s[i].command);
		free(x->s[i].mode);
	}
	free(x->s);
	result_free(&x->xres);
	sh_script_free(&x->sc);
	free(x->cmd_file);
	for (i = 0; i < x->nf; i++) {
		pylog_free(&x->f[i].lg);
		free(x->f[i].text);
		free(x->f[i].script);
		free(x->f[i].sherr);
		buf_free(&x->f[i].skip.names);
	}
	free(x->f);
	free(x->shown);
	mm_index_free(x->idx);
}

int
explain_failures(const struct catalog *cat, const struct explain_req *req)
{
	struct ctx	x = { .cat = cat, .facts = req->facts };
	size_t		i;
	int		rc;

	if (read_logs(&x, req) != 0) {
		ctx_free(&x);
		return EXIT_USAGE;
	}
	x.idx = mm_index_new(cat);
	collect(&x);
	recheck(&x);
	if (x.nfl == 0) {
		for (i = 0; i < x.nf; i++)
			fprintf(stderr, "%s: no failure found: no Python "
			    "traceback, argparse error or SGLang error line%s\n",
			    x.f[i].name, x.ns > 0 ? " (its configuration: "
			    "pdwiz check it)" : "");
		ctx_free(&x);
		return EXIT_USAGE;
	}
	rc = req->json ? report_json(&x) : report_text(&x);
	ctx_free(&x);
	return rc;
}
