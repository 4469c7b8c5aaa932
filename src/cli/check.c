/*
 * check.c - `pdwiz check`: lint commands, scripts and YAML files.
 *
 * One pipeline: the input is read once (a file, standard input, or the
 * words after --), classified once (shell script, SGLang --config YAML,
 * deployment file) and parsed once; the per-server checks and the
 * cross-role checks run over the same parsed commands.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/check.h"
#include "cli/cli.h"
#include "core/util.h"
#include "core/ydoc.h"
#include "deploy/deploy.h"
#include "io/input.h"
#include "io/manifest.h"
#include "io/markdown.h"
#include "io/rcfile.h"
#include "io/recipe.h"
#include "io/server.h"
#include "io/shell.h"
#include "io/suppress.h"
#include "io/walk.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>


enum { C_FORMAT = 1, C_INPUT, C_VERBOSE, C_SGVER, C_QUIET, C_FAILON,
	C_SHOWUNK, C_COLOR, C_STDINNAME, C_EXCLUDE, C_IGNORE, C_RCFILE };

static const struct cliopt check_opts[] = {
	{ C_FORMAT, "format", 0, "text|json|sarif|github",
	    "output format (default text)", 0 },
	{ C_INPUT, "input", 0, "auto|shell|config|markdown|k8s",
	    "how to read FILE (default: detect)", 0 },
	CLI_FACT_OPTS,
	{ C_SGVER, "sglang-version", 0, "V",
	    "the SGLang release the commands run (e.g. 0.4.8.post1)", 0 },
	{ C_FAILON, "fail-on", 0, "error|warning",
	    "the least severity that fails the run (default error)", 0 },
	{ C_IGNORE, "ignore", 0, "RULE[,RULE]", "leave these rules out", 0 },
	{ C_RCFILE, "rcfile", 0, "FILE",
	    "the configuration to use instead of each input's .pdwiz.yaml", 0 },
	{ C_EXCLUDE, "exclude", 0, "GLOB",
	    "skip the files a glob matches (e.g. 'vendor/**')", 0 },
	{ C_SHOWUNK, "show-unknown", 0, NULL,
	    "list each could-not-check instead of counting them by what "
	    "they lack", 0 },
	{ C_QUIET, "quiet", 'q', NULL, "show only what fails the run", 0 },
	{ C_COLOR, "color", 0, "auto|always|never",
	    "colour the text report (default auto: on a terminal)", 0 },
	{ C_STDINNAME, "stdin-filename", 0, "NAME",
	    "the name standard input is reported under", 0 },
	{ C_VERBOSE, "verbose", 'v', NULL, "also show SGLang's overrides and "
	    "the files with nothing to check", 0 },
	{ 0, NULL, 0, NULL, NULL, 0 }
};

const struct clicmd cli_check = {
	"check", { "[FILE | DIR | -]...", "-- CMD ARGS..." },
	"lint launch commands, scripts, manifests and YAML", check_opts,
	cmd_check, 0
};

struct check_args {
	enum check_format	 fmt;
	bool			 verbose, quiet, show_unknown;
	int			 color;		/* -1 auto, 0 never, 1 always */
	enum severity		 fail_on;
	bool			 fail_on_set;
	const char		*rcfile;	/* --rcfile, or PDWIZ_RC */
	enum input_mode		 in;
	struct pathlist		 operands;	/* FILE, DIR or - */
	struct pathlist		 excludes, ignores;
	const char		*stdin_name;
	const char		*sglang_version;
	char			**cmdv;		/* the words after --, or NULL */
	int			 cmdc;
	struct cli_facts	 facts;
};

/*
 * Why an input could not be checked, or holds nothing to check: the first
 * reason is kept; the report says it (and stderr, for an input that could
 * not be read). Returns -1.
 */
static int
fail(struct buf *why, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
fail(struct buf *why, const char *fmt, ...)
{
	va_list	 ap, again;
	char	*msg;
	int	 n;

	va_start(ap, fmt);
	va_copy(again, ap);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		va_end(again);
		return -1;
	}
	msg = xmalloc((size_t)n + 1);
	vsnprintf(msg, (size_t)n + 1, fmt, again);
	va_end(again);
	if (why->len == 0)
		buf_puts(why, msg);
	free(msg);
	return -1;
}

/* A word that names no version: the version stays unknown. */
static bool
sgver_word(const char *text)
{
	static const char *const words[] = { "dev", "latest", "nightly",
	    "main", NULL };
	size_t	i;

	for (i = 0; words[i] != NULL; i++)
		if (strcmp(text, words[i]) == 0)
			return true;
	return false;
}

/* A release number or a commit the catalog names, or a word that names
 * none (dev, latest, nightly, main); else a usage error. */
static int
check_sgver(const struct flag_history *fh, const char *text, struct buf *why)
{
	char	msg[256];

	if (flaghist_parse(fh, text, msg, sizeof msg) != SGVER_UNKNOWN ||
	    sgver_word(text))
		return 0;
	return fail(why, "pdwiz: --sglang-version: %s", msg);
}

/* How the flags of release v are checked, for the note below. */
static const char *
flags_how(const struct flag_history *fh, sgver_t v)
{
	return flaginv_release(fh, v) >= 0 ? "its flags and their choices "
	    "are its own (rules/flag-inventory.tsv)" : "flags are checked "
	    "against the flag history";
}

/*
 * With a release known, what was checked against what: the catalog's
 * rules without a recorded range are SGLang as the catalog models it.
 */
static void
version_note(struct check *ck, sgver_t v)
{
	const struct flag_history	*fh = ck->cat->hist;
	char				 vs[SGVER_TEXT_MAX], cs[SGVER_TEXT_MAX];
	char				 as0[SGVER_TEXT_MAX];
	char				*msg;
	struct result			 r;

	if ((v == SGVER_UNKNOWN && ck->sgver_asked == SGVER_UNKNOWN) ||
	    ck->ncmds == 0)
		return;
	flaghist_vname(fh, v, vs, sizeof vs);
	if (flaghist_commit(fh, v) != NULL) {
		const struct sg_commit	*c = flaghist_commit(fh, v);

		msg = xasprintf("checked for SGLang %s (main of %s, after "
		    "release %s): %s; rules with a release range hold as of "
		    "that commit, rules without one are those of the SGLang "
		    "this catalog models (newer than %s)", vs, c->date,
		    sgver_format(c->after, as0, sizeof as0), flags_how(fh, v),
		    sgver_format(fh->newer_than, cs, sizeof cs));
	} else if (ck->sgver_asked != SGVER_UNKNOWN) {
		char	as[SGVER_TEXT_MAX], ls[SGVER_TEXT_MAX];

		sgver_format(ck->sgver_asked, as, sizeof as);
		sgver_format(fh->releases[fh->nreleases - 1], ls, sizeof ls);
		if (v == ck->sgver_asked)
			msg = xasprintf("SGLang %s is no release (the newest "
			    "is %s, rules/flag-history.yaml releases): checked "
			    "as a release newer than every one known, as the "
			    "SGLang this catalog models (newer than %s)",
			    as, ls, sgver_format(fh->newer_than, cs,
			    sizeof cs));
		else
			msg = xasprintf("SGLang %s is no release "
			    "(rules/flag-history.yaml releases): checked as "
			    "%s, the %s; %s; rules without a release range are "
			    "those of the SGLang this catalog models (newer "
			    "than %s)", as, vs, sgver_cmp(v, ck->sgver_asked) >
			    0 ? "oldest release" : "newest release before it",
			    flags_how(fh, v), sgver_format(fh->newer_than, cs,
			    sizeof cs));
	} else if (fh != NULL && fh->sglang_version != SGVER_UNKNOWN)
		msg = xasprintf("checked for SGLang %s: %s; rules without a "
		    "release range are those of SGLang %s, which this catalog "
		    "models", vs, flags_how(fh, v),
		    sgver_format(fh->sglang_version, cs, sizeof cs));
	else
		msg = xasprintf("checked for SGLang %s: %s; rules without a "
		    "release range are those of the SGLang this catalog "
		    "models (newer than %s)", vs, flags_how(fh, v), fh != NULL ?
		    sgver_format(fh->newer_than, cs, sizeof cs) : "unknown");
	result_init(&r);
	result_add(&r, "sglang-version", SEV_NOTE, msg, NULL,
	    ck->cmds[0].line, 1);
	result_take(&ck->all, &r, 0);
	result_free(&r);
	free(msg);
}

/* --ignore a,b: each a rule id of the catalog's or a reader's (checked
 * once the catalog is open). */
static int
add_ignores(struct check_args *a, const char *list, struct buf *why)
{
	const char	*p = list;

	while (*p != '\0') {
		size_t	 n = strcspn(p, ", ");
		char	*id;

		if (n > 0) {
			id = xstrndup(p, n);
			pathlist_add(&a->ignores, id);
			free(id);
		}
		p += n;
		p += strspn(p, ", ");
	}
	if (a->ignores.n == 0)
		return fail(why, "pdwiz: --ignore takes rule ids (pdwiz rules "
		    "lists them)");
	return 0;
}

/* -1: go on; else the exit status (after --help or a usage error). */
static int
check_args(int argc, char **argv, struct check_args *a, struct buf *why)
{
	static const char *const formats[] = { "text", "json", "sarif",
	    "github", NULL };
	static const char *const inputs[] = { "auto", "shell", "config",
	    "markdown", "k8s", NULL };
	static const char *const failons[] = { "error", "warning", NULL };
	static const char *const colors[] = { "auto", "always", "never",
	    NULL };
	struct cliparse	p;
	int		id, r;

	cliparse_init(&p, &cli_check, argc, argv);
	while ((id = cliparse_next(&p)) != CLIOPT_END) {
		if (id == CLIOPT_OPERAND && p.dashdash >= 0)
			break;
		switch (id) {
		case CLIOPT_HELP:
			cli_help(stdout, &cli_check);
			return EXIT_OK;
		case CLIOPT_ERROR:
			if (why->len == 0)
				buf_puts(why, p.err);
			return EXIT_USAGE;
		case C_FORMAT:
			if ((r = cli_choice(p.arg, formats)) < 0) {
				fail(why, "pdwiz: --format takes text, json, "
				    "sarif or github");
				return EXIT_USAGE;
			}
			a->fmt = (enum check_format)r;
			break;
		case C_INPUT:
			if ((r = cli_choice(p.arg, inputs)) < 0) {
				fail(why, "pdwiz: --input takes auto, shell, "
				    "config, markdown or k8s");
				return EXIT_USAGE;
			}
			a->in = (enum input_mode)r;
			break;
		case C_VERBOSE:
			a->verbose = true;
			break;
		case C_SGVER:
			a->sglang_version = p.arg;
			break;
		case C_QUIET:
			a->quiet = true;
			break;
		case C_SHOWUNK:
			a->show_unknown = true;
			break;
		case C_FAILON:
			if ((r = cli_choice(p.arg, failons)) < 0) {
				fail(why, "pdwiz: --fail-on takes error or "
				    "warning");
				return EXIT_USAGE;
			}
			a->fail_on = r == 0 ? SEV_ERROR : SEV_WARNING;
			a->fail_on_set = true;
			break;
		case C_RCFILE:
			a->rcfile = p.arg;
			break;
		case C_COLOR:
			if ((r = cli_choice(p.arg, colors)) < 0) {
				fail(why, "pdwiz: --color takes auto, always or "
				    "never");
				return EXIT_USAGE;
			}
			a->color = r == 0 ? -1 : r == 1 ? 1 : 0;
			break;
		case C_STDINNAME:
			a->stdin_name = p.arg;
			break;
		case C_EXCLUDE:
			pathlist_add(&a->excludes, p.arg);
			break;
		case C_IGNORE:
			if (add_ignores(a, p.arg, why) != 0)
				return EXIT_USAGE;
			break;
		case CLIOPT_OPERAND:
			pathlist_add(&a->operands, p.arg);
			break;
		default:
			if (cli_fact_opt(&a->facts, id, p.arg) < 0)
				return EXIT_USAGE;
		}
	}
	if (p.dashdash < 0)
		return -1;
	if (a->operands.n > 0) {
		fail(why, "pdwiz check: give FILE or -- CMD, not both");
		return EXIT_USAGE;
	}
	if (p.dashdash >= argc) {
		fail(why, "pdwiz check: nothing after --");
		return EXIT_USAGE;
	}
	a->cmdv = argv + p.dashdash;
	a->cmdc = argc - p.dashdash;
	return -1;
}

/* The words after --, quoted into one command line; bare flags are taken
 * as arguments of sglang.launch_server. */
static void
input_command(const struct check_args *a, struct input *in)
{
	struct buf	b = { 0 };
	int		i;
	bool		assigning = true;

	if (a->cmdv[0][0] == '-')
		buf_puts(&b, "python -m sglang.launch_server ");
	for (i = 0; i < a->cmdc; i++) {
		const char	*w = a->cmdv[i];
		size_t		 n = strspn(w, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "abcdefghijklmnopqrstuvwxyz0123456789_");
		char		*q;

		if (i > 0)
			buf_putc(&b, ' ');
		/* NAME=VALUE before the command stays an assignment: only
		 * its value is quoted. */
		if (assigning && n > 0 && w[n] == '=' &&
		    !(w[0] >= '0' && w[0] <= '9')) {
			buf_add(&b, w, n + 1);
			w += n + 1;
		} else
			assigning = false;
		q = sh_quote(w);
		buf_puts(&b, q);
		free(q);
	}
	in->len = b.len;
	in->text = buf_steal(&b);
	in->kind = K_SHELL;
}

static const char *
mode_of(const struct catalog *cat, const struct config *cfg)
{
	int	o = catalog_find(cat, "disaggregation_mode");
	int	e = catalog_find(cat, "encoder_only");

	if (o >= 0 && cfg->s[o].v.t == V_STR && strcmp(cfg->s[o].v.u.s,
	    "null") != 0)
		return cfg->s[o].v.u.s;
	if (e >= 0 && cfg->s[e].v.t == V_BOOL && cfg->s[e].v.u.b)
		return "encoder";	/* the E of EPD */
	if (o >= 0 && cfg->s[o].v.t == V_STR)
		return cfg->s[o].v.u.s;
	return "null";
}

/* Append a checked command; words (n of them) are quoted into its text. */
void
check_add_cmd(struct check *ck, int kind, int line, const char *mode,
    const char *const *words, size_t n)
{
	struct checked	*c;
	struct buf	 b = { 0 };
	size_t		 i;

	ck->cmds = grow_pow2(ck->cmds, ck->ncmds, sizeof *ck->cmds);
	c = &ck->cmds[ck->ncmds++];
	c->kind = kind;
	c->line = c->endline = line;
	c->mode = mode;
	for (i = 0; i < n; i++) {
		char	*q = sh_quote(words[i]);

		if (i > 0)
			buf_putc(&b, ' ');
		buf_puts(&b, q);
		free(q);
	}
	c->text = buf_steal(&b);
}

static void
add_sh_cmd(struct check *ck, int kind, const char *mode,
    const struct sh_cmd *sc)
{
	const char	**w = xcalloc(sc->nwords + 1, sizeof *w);
	size_t		  i;

	for (i = 0; i < sc->nwords; i++)
		w[i] = sc->words[i].text;
	check_add_cmd(ck, kind, sc->line, mode, w, sc->nwords);
	if (sc->endline > sc->line)
		ck->cmds[ck->ncmds - 1].endline = sc->endline;
	free(w);
}

static void
check_sgconfig(struct check *ck, const struct config *base,
    const struct input *in)
{
	struct config	cfg = { 0 };
	struct result	diags, res;

	result_init(&diags);
	result_init(&res);
	server_from_sgconfig_ydoc(ck->cat, ck->name, in->yaml, base, &cfg,
	    &diags);
	result_take(&ck->all, &diags, 0);
	engine_run(ck->cat, &cfg, &res);
	engine_verify_fixes(ck->cat, &cfg, &res);
	check_add_cmd(ck, -1, 1, mode_of(ck->cat, &cfg), NULL, 0);
	result_take(&ck->all, &res, 0);
	result_free(&res);
	result_free(&diags);
	config_free(&cfg);
}

static int
check_deploy(struct check *ck, const struct input *in)
{
	struct deployment	d;
	struct plan		p;
	char			err[8192];
	size_t			i;

	if (deployment_from_ydoc(ck->cat, ck->name, in->yaml, &d, err,
	    sizeof err) != 0)
		return fail(&ck->why, "%s", err);
	if (ck->sglang_version != NULL) {
		free(d.sglang_version);
		d.sglang_version = xstrdup(ck->sglang_version);
	}
	{
		bool	release;
		sgver_t	v = flaghist_parse(ck->cat->hist, d.sglang_version,
		    NULL, 0);

		ck->sgver = flaghist_release_as(ck->cat->hist, v, &release);
		ck->sgver_asked = release ? SGVER_UNKNOWN : v;
	}
	/* A fact given on the command line wins over the file's, as over a
	 * script's (--gpu H200: would it fit there). */
	for (i = 0; ck->facts != NULL && i < ck->facts->n; i++)
		if (deployment_set_fact(ck->cat, &d, ck->facts->f[i].name,
		    ck->facts->f[i].value, err, sizeof err) != 0) {
			deployment_free(&d);
			return fail(&ck->why, "pdwiz: %s", err);
		}
	deployment_plan(ck->cat, &d, &p, NULL);
	for (i = 0; i < p.n; i++) {
		enum role	r = p.l[i].role;

		check_add_cmd(ck, r == ROLE_ROUTER ? SH_ROUTER : SH_SERVER,
		    d.role[r].line, role_name(r),
		    (const char *const *)p.l[i].argv, p.l[i].argc);
	}
	plan_free(&p);
	deployment_check(ck->cat, &d, &ck->all);
	deployment_free(&d);
	return 0;
}

/* The first prefill, decode and router command of a script: the cross-role
 * checks read their effective configs and report at their lines. */
struct roles {
	struct config	eff[NPD_ROLE];
	int		first[NPD_ROLE];	/* index in ck->cmds, or -1 */
	/* Where the prefills and decodes run (a document's blocks): */
	char		*model;		/* the model they serve, or NULL */
	bool		 scattered;	/* one has no machine, or serves
					   another model */
	struct buf	 nodes;		/* their machines, ", "-separated */
	/* The servers of encoder disaggregation (--encoder-only, or naming
	 * encoders with --encoder-urls): their effective configurations. */
	struct config	*epd;
	size_t		 nepd;
};

static int	cmd_at(const struct check *, int line);

static void
roles_free(struct roles *ro)
{
	size_t	i;

	for (i = 0; i < NPD_ROLE; i++)
		config_free(&ro->eff[i]);
	for (i = 0; i < ro->nepd; i++)
		config_free(&ro->epd[i]);
	free(ro->epd);
	free(ro->model);
	buf_free(&ro->nodes);
}

/* The encoder URLs of the input's servers against its encoders; each
 * finding goes to the command at its line. */
static void
check_encoders(struct check *ck, const struct roles *ro)
{
	const struct config	**cfgs;
	struct result		  res;
	size_t			  i;

	if (ro->nepd == 0)
		return;
	cfgs = xcalloc(ro->nepd, sizeof *cfgs);
	for (i = 0; i < ro->nepd; i++)
		cfgs[i] = &ro->epd[i];
	result_init(&res);
	deployment_check_encoders(ck->cat, cfgs, ro->nepd, &res);
	for (i = 0; i < res.n; i++)
		result_take_one(&ck->all, &res.d[i], res.d[i].line > 0 ?
		    cmd_at(ck, res.d[i].line) : 0);
	res.n = 0;
	result_free(&res);
	free(cfgs);
}

/* Is item one of the ", "-separated items of list (NULL: none)? */
static bool
listed(const char *list, const char *item)
{
	size_t	n = strlen(item);

	for (; list != NULL && *list != '\0'; list += strcspn(list, ",")) {
		list += strspn(list, ", ");
		if (strncmp(list, item, n) == 0 && (list[n] == ',' ||
		    list[n] == '\0'))
			return true;
	}
	return false;
}

static void
note_place(struct roles *ro, const struct sh_cmd *c, const struct config *eff)
{
	int		 o = catalog_find(eff->cat, "model_path");
	const char	*m = o >= 0 && eff->s[o].v.t == V_STR ?
	    eff->s[o].v.u.s : NULL;

	if (c->node == NULL || m == NULL || (ro->model != NULL &&
	    strcmp(ro->model, m) != 0)) {
		ro->scattered = true;
		return;
	}
	if (ro->model == NULL)
		ro->model = xstrdup(m);
	if (strcmp(c->node, MD_NODE_UNSTATED) != 0 &&
	    !listed(ro->nodes.s, c->node))
		buf_printf(&ro->nodes, "%s%s", ro->nodes.len > 0 ? ", " : "",
		    c->node);
}

/* The GPUs of a server's machine as its script states them for pdwiz
 * (PDWIZ_GPUS_PER_NODE_ROLE, else PDWIZ_GPUS_PER_HOST, as an export
 * writes them; import reads the same); 0: not stated. */
static int
script_host_gpus(const struct sh_cmd *c, const char *mode)
{
	int		 r = role_parse(mode);
	const char	*role = r == ROLE_PREFILL ?
	    "PDWIZ_GPUS_PER_NODE_PREFILL" : r == ROLE_DECODE ?
	    "PDWIZ_GPUS_PER_NODE_DECODE" : NULL;
	int		 host = 0, node = 0;
	size_t		 j;

	for (j = 0; j < c->nenv; j++) {
		const struct sh_env	*e = &c->env[j];
		char			*end;
		long			 v;

		if (e->unresolved || e->value == NULL)
			continue;
		v = strtol(e->value, &end, 10);
		if (end == e->value || *end != '\0' || v < 1 || v > 1024)
			continue;
		if (strcmp(e->name, "PDWIZ_GPUS_PER_HOST") == 0)
			host = (int)v;
		else if (role != NULL && strcmp(e->name, role) == 0)
			node = (int)v;
	}
	return node > 0 ? node : host;
}

static void
check_server(struct check *ck, const struct config *base,
    const struct sh_cmd *c, const char *base_dir, struct roles *ro)
{
	struct config	 cfg = { 0 }, vbase = { 0 };
	struct result	 diags, res;
	const char	*m;
	sgver_t		 v;
	int		 k, r;
	size_t		 j;

	result_init(&diags);
	result_init(&res);
	/* A manifest's container runs the release its image tag names,
	 * unless --sglang-version says otherwise. */
	if (base->sgver == SGVER_UNKNOWN && c->image != NULL &&
	    (v = sglang_version_from_image(c->image, NULL, 0)) !=
	    SGVER_UNKNOWN) {
		config_init(&vbase, ck->cat);
		config_copy(&vbase, base);
		config_set_sgver(&vbase, v);
		base = &vbase;
	}
	server_from_cmd(ck->cat, c, base, &cfg, &diags, base_dir);
	add_sh_cmd(ck, SH_SERVER, mode_of(ck->cat, &cfg), c);
	k = (int)ck->ncmds - 1;
	/* Reader diagnostics without a position belong to the command. */
	for (j = 0; j < diags.n; j++)
		if (diags.d[j].line == 0)
			diags.d[j].line = c->line;
	result_take(&ck->all, &diags, k);
	engine_run(ck->cat, &cfg, &res);
	m = ck->cmds[k].mode;
	engine_verify_fixes_host(ck->cat, &cfg, &res, script_host_gpus(c, m));
	for (j = 0; j < res.n; j++)
		if (res.d[j].line == 0)
			res.d[j].line = c->line;
	result_take(&ck->all, &res, k);
	r = role_parse(m);
	if (r == ROLE_ROUTER)
		r = -1;
	if (r >= 0)
		note_place(ro, c, &res.eff);
	if (deployment_encoder_cmd(&res.eff)) {
		ro->epd = xreallocarray(ro->epd, ro->nepd + 1,
		    sizeof *ro->epd);
		memset(&ro->epd[ro->nepd], 0, sizeof *ro->epd);
		config_copy(&ro->epd[ro->nepd++], &res.eff);
	}
	if (r >= 0 && ro->first[r] < 0) {
		ro->first[r] = k;
		ro->eff[r] = res.eff;
		memset(&res.eff, 0, sizeof res.eff);
	}
	result_free(&res);
	result_free(&diags);
	config_free(&cfg);
	if (vbase.s != NULL)
		config_free(&vbase);
}

/* The command of the same role as command first (same mode) that line
 * falls in: the last one starting at or before it; else first. */
static int
role_cmd_at(const struct check *ck, int line, int first)
{
	int	k = first;
	size_t	i;

	for (i = (size_t)first; i < ck->ncmds; i++)
		if (ck->cmds[i].line <= line && ck->cmds[i].kind ==
		    ck->cmds[first].kind && strcmp(ck->cmds[i].mode,
		    ck->cmds[first].mode) == 0)
			k = (int)i;
	return k;
}

/* Cross-role checks over the script's parsed commands; each diagnostic goes
 * to the command of the role it is attributed to that holds its line (the
 * role's first, when none does). */
void
check_cross_cmds(struct check *ck, const struct sh_script *sc,
    const struct config *const eff_in[NPD_ROLE], const int first[NPD_ROLE])
{
	struct result		 res;
	const struct config	*eff[NPD_ROLE];
	size_t			 i;

	for (i = 0; i < NPD_ROLE; i++)
		eff[i] = eff_in[i];
	result_init(&res);
	if (deployment_check_script(ck->cat, ck->name, sc, eff, &res) != 0)
		return;
	for (i = 0; i < res.n; i++) {
		int	r = res.d[i].cmd;
		int	k = r >= 0 && r < NPD_ROLE && first[r] >= 0 ? first[r] :
		    first[ROLE_PREFILL];

		/* A finding about a later instance: that instance's command. */
		if (r >= 0 && r < NPD_ROLE && first[r] >= 0 &&
		    res.d[i].line > ck->cmds[first[r]].line)
			k = role_cmd_at(ck, res.d[i].line, first[r]);
		result_take_one(&ck->all, &res.d[i], k);
	}
	res.n = 0;
	result_free(&res);
}

static void
check_cross(struct check *ck, const struct sh_script *sc,
    const struct roles *ro)
{
	const struct config	*eff[NPD_ROLE];
	size_t			 i;

	for (i = 0; i < NPD_ROLE; i++)
		eff[i] = ro->first[i] >= 0 && ro->eff[i].s != NULL ?
		    &ro->eff[i] : NULL;
	check_cross_cmds(ck, sc, eff, ro->first);
}

/* The command a script position belongs to: the last one starting at or
 * before line. */
static int
cmd_at(const struct check *ck, int line)
{
	int	k = 0;
	size_t	i;

	for (i = 0; i < ck->ncmds; i++)
		if (ck->cmds[i].line <= line)
			k = (int)i;
	return k;
}

/* A warning of pdwiz's own about the script's text: on the SGLang command
 * whose lines hold it, else on none (-1: a line of another command, or
 * between commands). */
void
check_warn_at(struct check *ck, const char *id, const char *msg, int line,
    int col)
{
	struct result	r;
	int		k = cmd_at(ck, line);

	if (ck->ncmds > 0 && (line < ck->cmds[k].line ||
	    line > ck->cmds[k].endline))
		k = -1;
	result_init(&r);
	result_add(&r, id, SEV_WARNING, msg, NULL, line, col);
	result_take(&ck->all, &r, k);
	result_free(&r);
}

/*
 * What a script's text says besides its commands: bytes that are not
 * UTF-8 (bash passes them on; Python decodes argv as UTF-8, so a value
 * with them is not what it looks like) and a here-document that never
 * ends (the commands after it are its text). Warnings: bash runs both.
 */
static void
script_warnings(struct check *ck, const char *text, size_t len, int unclosed)
{
	size_t	bad = utf8_invalid_at(text, len), i;
	int	line = 1, col = 1;
	char	msg[256];

	if (ck->ncmds == 0)
		return;
	if (bad < len) {
		for (i = 0; i < bad; i++) {
			if (text[i] == '\n') {
				line++;
				col = 1;
			} else
				col++;
		}
		snprintf(msg, sizeof msg, "byte 0x%02X at column %d is not "
		    "UTF-8: Python reads arguments as UTF-8, so a value with "
		    "it is not the text it looks like",
		    (unsigned char)text[bad], col);
		check_warn_at(ck, "input-not-utf8", msg, line, col);
	}
	if (unclosed > 0)
		check_warn_at(ck, "shell-heredoc-unclosed", "the here-document "
		    "started here is never closed: bash reads the rest of the "
		    "file as its text, not as commands", unclosed, 1);
}

/*
 * Is a document one deployment? Its examples need not be, so the
 * cross-role checks run on one only when it says where each server runs:
 * every prefill and decode it launches is in a block whose lead-in names
 * its node, and they all serve one model (check_server notes both). A
 * note says which.
 */
static bool
one_deployment(struct check *ck, const struct roles *ro)
{
	struct result	r;
	char		*msg;
	bool		 one = !ro->scattered && ro->model != NULL;

	if (one)
		msg = xasprintf("the cross-role checks run on this document as "
		    "one deployment: every prefill and decode it launches "
		    "serves %s, in a block whose lead-in names the node it "
		    "runs on (%s)", ro->model, ro->nodes.len > 0 ?
		    ro->nodes.s : "machine not stated");
	else
		msg = xstrdup("the cross-role checks (router lists, ports, "
		    "GPUs, page size and backend agreement) are not run on a "
		    "document: its examples need not be one deployment; check "
		    "a launch script or a deployment file for them");
	result_init(&r);
	result_add(&r, one ? "document-one-deployment" :
	    "document-no-cross-role", SEV_NOTE, msg, NULL,
	    ck->cmds[ro->first[ROLE_PREFILL]].line, 1);
	result_take(&ck->all, &r, ro->first[ROLE_PREFILL]);
	result_free(&r);
	free(msg);
	return one;
}

/*
 * The model facts a script states for pdwiz: plain assignments
 * PDWIZ_FACT_NAME=VALUE before its first server command, as pdwiz's own
 * shell emitter (and a user) writes them, so that an exported script is
 * checked with the facts its deployment had (the accelerator among them).
 * A fact given on the command line wins. Applied to a copy of base in
 * *out; 1 when any was, 0 when none, -1 on a bad one (message in ck->why).
 */
#define SCRIPT_FACT	"PDWIZ_FACT_"
#define SCRIPT_SGVER	"PDWIZ_SGLANG_VERSION"
static int
script_facts(struct check *ck, const struct sh_script *sc,
    const struct config *base, struct config *out)
{
	char	err[1024];
	size_t	i, j, k;
	int	n = 0;

	for (i = 0; i < sc->ncmds && sc->cmds[i].kind != SH_SERVER; i++)
		;
	if (i == sc->ncmds)
		return 0;
	for (j = 0; j < sc->cmds[i].nenv; j++) {
		const struct sh_env	*e = &sc->cmds[i].env[j];
		const char		*name = e->name + strlen(SCRIPT_FACT);
		bool			 given = false;

		if (strcmp(e->name, SCRIPT_SGVER) == 0 && !e->unresolved &&
		    e->value != NULL && ck->sglang_version == NULL) {
			/* The SGLang of the deployment it was exported from
			 * (--sglang-version wins). */
			sgver_t	v = flaghist_parse(ck->cat->hist, e->value, err,
			    sizeof err);

			if (v == SGVER_UNKNOWN && !sgver_word(e->value)) {
				fail(&ck->why, "%s:%d:%d: %s: %s", ck->name,
				    e->line, e->col, SCRIPT_SGVER, err);
				if (n > 0)
					config_free(out);
				return -1;
			}
			if (n++ == 0) {
				config_init(out, ck->cat);
				config_copy(out, base);
			}
			config_set_sgver(out, v);
			ck->sgver = out->sgver;
			ck->sgver_asked = out->sgver_asked;
			continue;
		}
		if (strncmp(e->name, SCRIPT_FACT, strlen(SCRIPT_FACT)) != 0 ||
		    e->unresolved || e->value == NULL)
			continue;
		for (k = 0; ck->facts != NULL && k < ck->facts->n; k++)
			if (strcmp(ck->facts->f[k].name, name) == 0)
				given = true;
		if (given)
			continue;
		if (n++ == 0) {
			config_init(out, ck->cat);
			config_copy(out, base);
		}
		/* As a deployment file's facts: an accelerator pdwiz does
		 * not know leaves the memory checks unknown, not refused. */
		if (facts_set(ck->cat, out, name, e->value, err,
		    sizeof err) == 0)
			continue;
		fail(&ck->why, "%s:%d:%d: %s%s: %s", ck->name, e->line, e->col,
		    SCRIPT_FACT, name, err);
		config_free(out);
		return -1;
	}
	return n > 0;
}

static int
check_shell(struct check *ck, const struct config *base,
    const struct input *in)
{
	struct sh_script	sc = { 0 };
	struct roles		ro = { .first = { -1, -1, -1 } };
	struct result		notes;
	struct config		sbase = { 0 };
	size_t			i;
	int			unclosed, sf;

	result_init(&notes);
	if ((sf = input_script(ck->name, in, &sc, &notes, &ck->why)) != 0) {
		result_free(&notes);
		return sf;
	}
	if ((sf = script_facts(ck, &sc, base, &sbase)) < 0) {
		sh_script_free(&sc);
		result_free(&notes);
		return -1;
	}
	if (sf > 0)
		base = &sbase;
	for (i = 0; i < sc.ncmds; i++) {
		const struct sh_cmd	*c = &sc.cmds[i];

		if (c->repeat)
			continue;	/* a replica of a pod already checked */
		if (c->kind == SH_SERVER)
			check_server(ck, base, c, in->base_dir, &ro);
		else if (c->kind == SH_ROUTER) {
			add_sh_cmd(ck, SH_ROUTER, "router", c);
			if (ro.first[ROLE_ROUTER] < 0)
				ro.first[ROLE_ROUTER] = (int)ck->ncmds - 1;
		}
	}
	if (ro.first[ROLE_PREFILL] >= 0 && ro.first[ROLE_DECODE] >= 0 &&
	    (!in->document || one_deployment(ck, &ro)))
		check_cross(ck, &sc, &ro);
	check_encoders(ck, &ro);
	roles_free(&ro);
	if (sf > 0)
		config_free(&sbase);
	for (i = 0; i < notes.n; i++) {		/* the manifest reader's */
		struct result	one;

		result_init(&one);
		result_add(&one, notes.d[i].id, notes.d[i].sev, notes.d[i].msg,
		    NULL, notes.d[i].line, notes.d[i].col);
		result_take(&ck->all, &one, cmd_at(ck, notes.d[i].line));
		result_free(&one);
	}
	result_free(&notes);
	if (in->kind != K_MANIFEST)	/* its text is YAML, not shell */
		check_shell_traps(ck, &sc, in->text, in->len);
	unclosed = sc.unclosed_heredoc;
	sh_script_free(&sc);
	if (in->kind != K_MANIFEST)
		script_warnings(ck, in->text, in->len, unclosed);
	if (ck->ncmds > 0)
		return 0;
	fail(&ck->why, "%s: no SGLang command found (expected python -m "
	    "sglang.launch_server, sglang serve or "
	    "python -m sglang_router.launch_router)%s", ck->name,
	    unclosed > 0 ? "; a here-document started here is never closed, "
	    "and bash reads the rest of the file as its text" : "");
	return 1;
}

/*
 * Does the text claim to be SGLang's? It names SGLang, or a line starts
 * with one of SGLang's multi-word options as a key ("tp-size:", "--tp-size"
 * in a YAML list), or a deployment file's "roles:" or "pdwiz:" key. A
 * file that claims so and cannot be read as what it looks like is an
 * error (exit 2); one that does not, a file with nothing to check.
 */
static bool
claims_sglang(const struct catalog *cat, const struct input *in)
{
	const char	*p, *end;

	if (in->text == NULL)
		return false;
	for (p = in->text; (p = strchr(p, 'g')) != NULL; p++)
		if (p >= in->text + 1 && (p[-1] == 's' || p[-1] == 'S') &&
		    strncasecmp(p, "glang", 5) == 0)
			return true;
	end = in->text + in->len;
	for (p = in->text; p < end; p++) {
		const char	*k;
		size_t		 n;
		char		 flag[80];

		if (p != in->text && p[-1] != '\n')
			continue;
		if (strncmp(p, "roles:", 6) == 0 || strncmp(p, "pdwiz:", 6) == 0)
			return true;	/* a deployment file's */
		p += strspn(p, " \t-");
		k = p;
		n = strspn(k, "abcdefghijklmnopqrstuvwxyz0123456789_-");
		if (n < 3 || n > sizeof flag - 3 || (k[n] != ':' && k[n] != ' ') ||
		    memchr(k, '-', n) == NULL || k[0] == '-')
			continue;
		snprintf(flag, sizeof flag, "--%.*s", (int)n, k);
		if (catalog_find_flag(cat, flag) >= 0)
			return true;
	}
	return false;
}

/*
 * Read, classify, parse and check one input (file "-": standard input;
 * NULL: the words after --): 0 checked, 1 nothing to check, -1 not
 * usable; the reason in ck->why.
 */
static int
check_input(struct check *ck, const struct check_args *a,
    const struct config *base, struct input *in, const char *file,
    struct suppress *supp)
{
	size_t	n;
	int	rc;

	if (file == NULL) {
		ck->name = "<command>";
		input_command(a, in);
	} else {
		if (input_read(file, ck->name, in, &ck->why) != 0)
			return -1;
		/* The comments of the text as written (a document's shell
		 * view has none of its own). */
		n = strlen(ck->name);
		suppress_scan(supp, in->text, in->len, a->in == IN_MARKDOWN ||
		    (a->in == IN_AUTO && ((n > 3 && strcmp(ck->name + n - 3,
		    ".md") == 0) || (n > 9 && strcmp(ck->name + n - 9,
		    ".markdown") == 0))) ? SUPP_MARKDOWN : SUPP_HASH);
		if ((rc = input_classify(ck->cat, ck->name, a->in, in,
		    &ck->why)) != 0)
			return rc > 0 || !claims_sglang(ck->cat, in) ? 1 : -1;
	}
	switch (in->kind) {
	case K_DEPLOY:
		return check_deploy(ck, in);
	case K_SGCONFIG:
		check_sgconfig(ck, base, in);
		return 0;
	case K_RECIPE:
		if (check_recipe(ck, base, in->yaml) == 0)
			return 0;
		return claims_sglang(ck->cat, in) ? -1 : 1;
	default:
		if ((rc = check_shell(ck, base, in)) < 0 &&
		    !claims_sglang(ck->cat, in))
			return 1;
		return rc;
	}
}

/* Is path excluded by --exclude, or by its .pdwiz.yaml? */
static bool
excluded(const struct check_args *a, struct rcset *rs, const char *path)
{
	const struct rcfile	*rc;
	struct buf		 why = { 0 };
	size_t			 i;
	bool			 yes = false;

	for (i = 0; i < a->excludes.n && !yes; i++)
		yes = rc_glob_match(a->excludes.p[i], path);
	/* A broken configuration is reported when the file is checked. */
	if (!yes && rcset_for(rs, path, &rc, &why) == 0 && rc != NULL)
		yes = rcfile_excluded(rc, path);
	buf_free(&why);
	return yes;
}

/* The inputs the operands name: files as given, directories walked; "-"
 * once. */
static int
expand_operands(const struct check_args *a, struct rcset *rs,
    struct pathlist *out, struct buf *why)
{
	struct stat	st;
	size_t		i, j, from;
	bool		stdin_seen = false;

	if (a->operands.n == 0) {
		pathlist_add(out, "-");
		return 0;
	}
	for (i = 0; i < a->operands.n; i++) {
		const char	*op = a->operands.p[i];

		if (strcmp(op, "-") == 0) {
			if (stdin_seen)
				return fail(why, "pdwiz check: standard input "
				    "(-) is named twice");
			stdin_seen = true;
			pathlist_add(out, op);
			continue;
		}
		/* --input says how to read a FILE: a directory is then
		 * refused as one. */
		if (a->in == IN_AUTO && stat(op, &st) == 0 &&
		    S_ISDIR(st.st_mode)) {
			from = out->n;
			if (walk_dir(op, out, why) != 0)
				return -1;
			/* Excluded files of a walk are not read at all. */
			for (j = from; j < out->n; j++)
				if (excluded(a, rs, out->p[j])) {
					free(out->p[j]);
					out->p[j] = NULL;
				}
			continue;
		}
		if (!excluded(a, rs, op))
			pathlist_add(out, op);
	}
	return 0;
}

static struct check *
check_new(const struct catalog *cat, const struct check_args *a)
{
	struct check	*ck = xcalloc(1, sizeof *ck);

	ck->cat = cat;
	ck->sglang_version = a->sglang_version;
	ck->facts = &a->facts;
	ck->fmt = a->fmt;
	ck->verbose = a->verbose;
	result_init(&ck->all);
	return ck;
}

static void
check_free(struct check *ck)
{
	size_t	k;

	if (ck == NULL)
		return;
	for (k = 0; k < ck->ncmds; k++)
		free(ck->cmds[k].text);
	free(ck->cmds);
	buf_free(&ck->why);
	result_free(&ck->all);
	free(ck->own_name);
	free(ck);
}

/* Check one input into a new entry of the report. */
/*
 * Check one input into a new entry of the report, with its .pdwiz.yaml's
 * facts, severities and ignore list and its own suppressions. 0, or -1
 * when its configuration file is unusable (the run stops: why).
 */
static int
check_one(struct report *r, const struct check_args *a, struct rcset *rs,
    const struct config *base, const char *file, struct buf *why)
{
	struct check		*ck;
	struct input		 in = { 0 };
	struct suppress		 supp;
	const struct rcfile	*rcf;
	struct config		 fbase = { 0 };
	int			 rc, own = 0;

	if (rcset_for(rs, file, &rcf, why) != 0)
		return -1;
	ck = check_new(r->cat, a);
	if (rcf != NULL && (rcf->nfacts > 0)) {
		config_init(&fbase, r->cat);
		config_copy(&fbase, base);
		if ((own = rc_apply_facts(r->cat, rcf, &a->facts,
		    a->sglang_version != NULL, &fbase)) > 0)
			base = &fbase;
	}
	ck->fail_on = a->fail_on_set ? a->fail_on : rcf != NULL &&
	    rcf->fail_on == RC_FAIL_WARNING ? SEV_WARNING : SEV_ERROR;
	suppress_init(&supp);
	ck->sgver = base->sgver;
	ck->sgver_asked = base->sgver_asked;
	if (file != NULL) {
		if (strcmp(file, "-") == 0)
			ck->own_name = xstrdup(a->stdin_name != NULL ?
			    a->stdin_name : "<stdin>");
		else
			ck->own_name = xstrdup(file);
		ck->name = ck->own_name;
	}
	rc = check_input(ck, a, base, &in, file, &supp);
	input_free(&in);
	if (rcf != NULL && rcf->nfacts > 0)
		config_free(&fbase);
	(void)own;
	if (rc > 0 && a->in != IN_AUTO)
		rc = -1;	/* --input said what it is: it is not */
	if (rc == 0) {
		ck->status = CK_CHECKED;
		version_note(ck, ck->sgver);
		check_filter(ck, rcf, &supp, (const char *const *)a->ignores.p,
		    a->ignores.n, a->verbose);
	} else if (rc > 0) {
		ck->status = CK_NOTHING;
		result_free(&ck->all);
		result_init(&ck->all);
	} else {
		ck->status = CK_FAILED;
		ck->fail_id = "input";
		fprintf(stderr, "%s\n", ck->why.len > 0 ? ck->why.s :
		    "pdwiz check: nothing could be checked");
	}
	suppress_free(&supp);
	r->f = grow_pow2(r->f, r->n, sizeof *r->f);
	r->f[r->n++] = ck;
	return 0;
}

static void
report_print(struct report *r)
{
	check_report_sum(r);
	if (r->fmt == FMT_JSON)
		check_print_json(r);
	else if (r->fmt == FMT_SARIF)
		check_print_sarif(r);
	else if (r->fmt == FMT_GITHUB)
		check_print_github(r);
	else
		check_print_text(r);
}

int
cmd_check(int argc, char **argv)
{
	struct check_args	 a = { .fail_on = SEV_ERROR, .color = -1 };
	struct report		 r = { 0 };
	struct pathlist		 files = { 0 };
	struct catalog		*cat = NULL;
	struct config		 base = { 0 };
	struct buf		 why = { 0 };
	struct rcset		*rs = NULL;
	size_t			 i;
	int			 rc;
	const char		*id = "usage";	/* of a failure, for machines */
	char			 err[2048];

	if ((rc = check_args(argc, argv, &a, &why)) >= 0)
		goto out;
	rc = EXIT_USAGE;
	if ((cat = catalog_open_default(err, sizeof err)) == NULL) {
		id = "rules";
		fail(&why, "pdwiz: %s", err);
		goto out;
	}
	if (a.sglang_version != NULL && check_sgver(cat->hist,
	    a.sglang_version, &why) != 0)
		goto out;
	if (a.verbose && cat->image == NULL)
		fprintf(stderr, "pdwiz: rules read from the %s\n", cat->origin);
	for (i = 0; i < a.ignores.n; i++)
		if (!check_known_rule(cat, a.ignores.p[i])) {
			fail(&why, "pdwiz: --ignore: no rule '%s' (pdwiz rules "
			    "lists them)", a.ignores.p[i]);
			goto out;
		}
	config_init(&base, cat);
	config_set_sgver(&base, flaghist_parse(cat->hist, a.sglang_version,
	    NULL, 0));
	if (cli_facts_apply(cat, &base, &a.facts, &why) != 0)
		goto out;
	r.cat = cat;
	r.fmt = a.fmt;
	r.verbose = a.verbose;
	r.quiet = a.quiet;
	r.show_unknown = a.show_unknown;
	r.color = a.fmt == FMT_TEXT && (a.color < 0 ? use_color(stdout) :
	    a.color > 0);
	rs = rcset_new(cat, a.rcfile != NULL ? a.rcfile : getenv("PDWIZ_RC"));
	id = "rcfile";
	if (a.cmdv != NULL) {
		if (check_one(&r, &a, rs, &base, NULL, &why) != 0)
			goto stop;
	} else {
		id = "input";
		if (expand_operands(&a, rs, &files, &why) != 0)
			goto out;
		id = "rcfile";
		for (i = 0; i < files.n; i++)
			if (files.p[i] != NULL && check_one(&r, &a, rs, &base,
			    files.p[i], &why) != 0)
				goto stop;
	}
	report_print(&r);
	rc = check_report_status(&r);
	goto out;
stop:
	/* An unusable configuration file: the run stops, nothing reported
	 * but that. */
	for (i = 0; i < r.n; i++)
		check_free(r.f[i]);
	free(r.f);
	r.f = NULL;
	r.n = 0;
out:
	if (rc == EXIT_USAGE && r.n == 0) {
		/* Nothing was checked: the reason, as the one document. */
		struct check	*ck = check_new(cat, &a);

		if (why.len > 0)
			fprintf(stderr, "%s\n", why.s);
		ck->status = CK_FAILED;
		ck->fail_id = id;
		if (rcset_refused(rs) != NULL) {
			ck->own_name = xstrdup(rcset_refused(rs));
			ck->name = ck->own_name;
		}
		buf_puts(&ck->why, why.len > 0 ? why.s :
		    "pdwiz check: nothing could be checked");
		r.cat = cat;
		r.fmt = a.fmt;
		r.f = xcalloc(1, sizeof *r.f);
		r.f[0] = ck;
		r.n = 1;
		if (a.fmt != FMT_TEXT)
			report_print(&r);
	}
	for (i = 0; i < r.n; i++)
		check_free(r.f[i]);
	free(r.f);
	pathlist_free(&files);
	rcset_free(rs);
	buf_free(&why);
	if (cat != NULL)
		config_free(&base);
	catalog_free(cat);
	cli_facts_free(&a.facts);
	pathlist_free(&a.operands);
	pathlist_free(&a.excludes);
	pathlist_free(&a.ignores);
	return rc;
}
