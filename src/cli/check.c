/* check.c - `pdwiz check`: lint commands, scripts and --config files. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "core/describe.h"
#include "core/engine.h"
#include "core/util.h"
#include "core/ydoc.h"
#include "deploy/deploy.h"
#include "io/json.h"
#include "io/server.h"
#include "io/shell.h"

#include <libgen.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define INPUT_MAX	(16 * 1024 * 1024)

enum input { IN_AUTO, IN_SHELL, IN_CONFIG };

struct checked {
	int		 kind;		/* SH_SERVER, SH_ROUTER, or -1 config file */
	int		 line;
	const char	*mode;
	char		*text;		/* the command, one line */
};

struct check {
	const struct catalog	*cat;
	const char		*name;		/* file name for messages */
	struct result		 all;
	struct checked		*cmds;
	size_t			 ncmds;
	bool			 json, verbose, color;
};

int
parse_fact_opt(const struct catalog *cat, struct config *base, int argc,
    char **argv, int *i)
{
	const char	*a = argv[*i], *name = NULL, *val = NULL;
	char		 err[256], nm[128];

	if (strcmp(a, "--model-arch") == 0)
		name = "model_arch";
	else if (strcmp(a, "--platform") == 0)
		name = "platform";
	else if (strcmp(a, "--gpu-sm") == 0)
		name = "gpu_sm";
	else if (strcmp(a, "--fact") == 0)
		name = "";
	else
		return 0;
	if (*i + 1 >= argc) {
		fprintf(stderr, "pdwiz: %s needs a value\n", a);
		return -1;
	}
	val = argv[++*i];
	if (*name == '\0') {
		const char	*eq = strchr(val, '=');

		if (eq == NULL || eq == val || (size_t)(eq - val) >= sizeof nm) {
			fprintf(stderr, "pdwiz: --fact takes NAME=VALUE\n");
			return -1;
		}
		snprintf(nm, sizeof nm, "%.*s", (int)(eq - val), val);
		name = nm;
		val = eq + 1;
	}
	if (facts_set(cat, base, name, val, err, sizeof err) != 0) {
		fprintf(stderr, "pdwiz: %s\n", err);
		return -1;
	}
	return 1;
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
add_cmd(struct check *ck, int kind, int line, const char *mode,
    const struct sh_cmd *sc)
{
	struct checked	*c;
	struct buf	 b = { 0 };
	size_t		 i;

	ck->cmds = xreallocarray(ck->cmds, ck->ncmds + 1, sizeof *ck->cmds);
	c = &ck->cmds[ck->ncmds++];
	c->kind = kind;
	c->line = line;
	c->mode = mode;
	for (i = 0; sc != NULL && i < sc->nwords; i++) {
		char	*q = sh_quote(sc->words[i].text);

		if (i > 0)
			buf_putc(&b, ' ');
		buf_puts(&b, q);
		free(q);
	}
	c->text = buf_steal(&b);
}

static void
check_config_text(struct check *ck, const struct config *base,
    const char *text, size_t len)
{
	struct config	cfg = { 0 };
	struct result	diags, res;

	result_init(&diags);
	result_init(&res);
	server_from_sgconfig(ck->cat, ck->name, text, len, base, &cfg, &diags);
	result_take(&ck->all, &diags, 0);
	engine_run(ck->cat, &cfg, &res);
	add_cmd(ck, -1, 1, mode_of(ck->cat, &cfg), NULL);
	result_take(&ck->all, &res, 0);
	result_free(&res);
	result_free(&diags);
	config_free(&cfg);
}

static void
check_cross_script(struct check *ck, const char *text, size_t len,
    struct config effs[3], const int first[3])
{
	struct deployment	 d;
	struct result		 res;
	const struct config	*eff[3];
	char			 err[512];
	size_t			 i;

	if (deployment_import(ck->cat, ck->name, text, len, &d, NULL, err,
	    sizeof err) != 0)
		return;
	for (i = 0; i < 3; i++)
		eff[i] = first[i] >= 0 && effs[i].s != NULL ? &effs[i] : NULL;
	result_init(&res);
	deployment_check_cross(ck->cat, &d, eff, &res);
	for (i = 0; i < res.n; i++) {
		struct result	one;
		int		r = res.d[i].cmd;

		result_init(&one);
		one.d = xcalloc(1, sizeof *one.d);
		one.d[0] = res.d[i];
		one.n = one.cap = 1;
		result_take(&ck->all, &one, r >= 0 && r < 3 && first[r] >= 0 ?
		    first[r] : first[ROLE_PREFILL]);
		result_free(&one);
	}
	free(res.d);
	res.d = NULL;
	res.n = 0;
	result_free(&res);
	deployment_free(&d);
}

static void
check_deploy_text(struct check *ck, const struct deployment *d)
{
	struct plan	p;
	size_t		i, j;

	deployment_plan(ck->cat, d, &p, NULL);
	for (i = 0; i < p.n; i++) {
		struct checked	*c;
		struct buf	 b = { 0 };

		ck->cmds = xreallocarray(ck->cmds, ck->ncmds + 1,
		    sizeof *ck->cmds);
		c = &ck->cmds[ck->ncmds++];
		c->kind = p.l[i].role == ROLE_ROUTER ? SH_ROUTER : SH_SERVER;
		c->line = d->role[p.l[i].role].line;
		c->mode = role_name(p.l[i].role);
		for (j = 0; j < p.l[i].argc; j++) {
			char	*q = sh_quote(p.l[i].argv[j]);

			if (j > 0)
				buf_putc(&b, ' ');
			buf_puts(&b, q);
			free(q);
		}
		c->text = buf_steal(&b);
	}
	plan_free(&p);
	deployment_check(ck->cat, d, &ck->all);
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
		struct result	r;

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
		result_init(&r);
		result_add(&r, "input-not-utf8", SEV_WARNING, msg, NULL, line,
		    col);
		result_take(&ck->all, &r, cmd_at(ck, line));
		result_free(&r);
	}
	if (unclosed > 0) {
		struct result	r;

		result_init(&r);
		result_add(&r, "shell-heredoc-unclosed", SEV_WARNING, "the "
		    "here-document started here is never closed: bash reads "
		    "the rest of the file as its text, not as commands", NULL,
		    unclosed, 1);
		result_take(&ck->all, &r, cmd_at(ck, unclosed));
		result_free(&r);
	}
}

static int
check_shell_text(struct check *ck, const struct config *base, const char *text,
    size_t len, const char *base_dir)
{
	struct sh_script	sc = { 0 };
	char			err[512];
	size_t			i;
	int			nserver = 0, unclosed;

	if (sh_parse(text, len, &sc, err, sizeof err) != 0) {
		fprintf(stderr, "%s:%s\n", ck->name, err);
		return -1;
	}
	struct config		 effs[3];
	int			 first[3] = { -1, -1, -1 };

	memset(effs, 0, sizeof effs);
	for (i = 0; i < sc.ncmds; i++) {
		const struct sh_cmd	*c = &sc.cmds[i];
		struct config		 cfg = { 0 };
		struct result		 diags, res;

		if (c->kind == SH_ROUTER) {
			add_cmd(ck, SH_ROUTER, c->line, "router", c);
			if (first[ROLE_ROUTER] < 0)
				first[ROLE_ROUTER] = (int)ck->ncmds - 1;
			continue;
		}
		if (c->kind != SH_SERVER)
			continue;
		nserver++;
		result_init(&diags);
		result_init(&res);
		server_from_cmd(ck->cat, c, base, &cfg, &diags, base_dir);
		add_cmd(ck, SH_SERVER, c->line, mode_of(ck->cat, &cfg), c);
		/* Reader diagnostics without a position belong to the command. */
		for (size_t j = 0; j < diags.n; j++)
			if (diags.d[j].line == 0)
				diags.d[j].line = c->line;
		result_take(&ck->all, &diags, (int)ck->ncmds - 1);
		engine_run(ck->cat, &cfg, &res);
		for (size_t j = 0; j < res.n; j++)
			if (res.d[j].line == 0)
				res.d[j].line = c->line;
		result_take(&ck->all, &res, (int)ck->ncmds - 1);
		{
			const char	*m = ck->cmds[ck->ncmds - 1].mode;
			int		 r = strcmp(m, "prefill") == 0 ? ROLE_PREFILL :
			    strcmp(m, "decode") == 0 ? ROLE_DECODE : -1;

			if (r >= 0 && first[r] < 0) {
				first[r] = (int)ck->ncmds - 1;
				effs[r] = res.eff;
				memset(&res.eff, 0, sizeof res.eff);
			}
		}
		result_free(&res);
		result_free(&diags);
		config_free(&cfg);
	}
	unclosed = sc.unclosed_heredoc;
	sh_script_free(&sc);
	/* Prefill and decode in one script: the cross-role checks too. */
	if (first[ROLE_PREFILL] >= 0 && first[ROLE_DECODE] >= 0)
		check_cross_script(ck, text, len, effs, first);
	for (i = 0; i < 3; i++)
		config_free(&effs[i]);
	script_warnings(ck, text, len, unclosed);
	if (nserver == 0 && ck->ncmds == 0) {
		fprintf(stderr, "%s: no SGLang command found (expected python -m "
		    "sglang.launch_server, sglang serve or "
		    "python -m sglang_router.launch_router)\n", ck->name);
		if (unclosed > 0)
			fprintf(stderr, "%s:%d: the here-document started here "
			    "is never closed: bash reads the rest of the file "
			    "as its text, not as commands\n", ck->name,
			    unclosed);
		return -1;
	}
	return 0;
}

static const char *
sev_color(enum severity s)
{
	switch (s) {
	case SEV_ERROR:
		return "\033[1;31m";
	case SEV_WARNING:
		return "\033[1;33m";
	case SEV_UNKNOWN:
		return "\033[1;35m";
	default:
		return "\033[1;36m";
	}
}

static void
print_text(struct check *ck)
{
	size_t	i, j, shown = 0;

	for (i = 0; i < ck->all.n; i++) {
		const struct diag	*d = &ck->all.d[i];

		if (d->sev == SEV_OVERRIDE && !ck->verbose)
			continue;
		shown++;
		printf("%s:%d: %s%s%s: %s [%s]\n", ck->name, d->line,
		    ck->color ? sev_color(d->sev) : "", severity_name(d->sev),
		    ck->color ? "\033[0m" : "",
		    d->sev == SEV_UNKNOWN ? d->note : d->msg, d->id);
		if (d->sev == SEV_UNKNOWN)
			printf("    would report: %s\n", d->msg);
		if (ck->ncmds > 1 && d->cmd >= 0 && (size_t)d->cmd < ck->ncmds)
			printf("    in: %s command at line %d%s\n",
			    ck->cmds[d->cmd].mode, ck->cmds[d->cmd].line,
			    d->rule != NULL && d->rule->deploy ?
			    " (cross-role check)" : "");
		if (d->hint != NULL)
			printf("    hint: %s\n", d->hint);
		if (d->rule != NULL && d->sev != SEV_OVERRIDE) {
			for (j = 0; j < d->rule->nfixes && j < 3; j++) {
				struct buf	b = { 0 };

				describe_fix(ck->cat, &d->rule->fixes[j], &b);
				printf("    fix: %s (%s)\n", d->rule->fixes[j].label,
				    b.s);
				buf_free(&b);
			}
		}
	}
	if (ck->all.nerrors + ck->all.nwarnings + ck->all.nunknown > 0 ||
	    ck->verbose)
		printf("%zu error%s, %zu warning%s, %zu not checked, in %zu "
		    "command%s\n", ck->all.nerrors, ck->all.nerrors == 1 ? "" :
		    "s", ck->all.nwarnings, ck->all.nwarnings == 1 ? "" : "s",
		    ck->all.nunknown, ck->ncmds, ck->ncmds == 1 ? "" : "s");
	(void)shown;
}

static void
json_fix(struct buf *b, const struct catalog *cat, const struct fix *f)
{
	struct buf	t = { 0 };
	size_t		i;

	buf_puts(b, "{\"label\":");
	json_str(b, f->label);
	buf_puts(b, ",\"set\":{");
	for (i = 0; i < f->n; i++) {
		size_t	role = (size_t)f->opt[i] / cat->nopts;
		size_t	o = (size_t)f->opt[i] % cat->nopts;
		char	*key = xasprintf("%s%s", role == 1 ? "prefill." :
		    role == 2 ? "decode." : role == 3 ? "router." : "",
		    cat->opts[o].name);

		if (i > 0)
			buf_putc(b, ',');
		json_str(b, key);
		free(key);
		buf_putc(b, ':');
		json_value(b, f->val[i]);
	}
	describe_fix(cat, f, &t);
	buf_puts(b, "},\"change\":");
	json_str(b, t.s);
	buf_putc(b, '}');
	buf_free(&t);
}

static void
print_json(struct check *ck)
{
	struct buf	b = { 0 };
	size_t		i, j;

	buf_printf(&b, "{\"valid\":%s,\"file\":", ck->all.nerrors ? "false" :
	    "true");
	json_str(&b, ck->name);
	buf_printf(&b, ",\"summary\":{\"errors\":%zu,\"warnings\":%zu,"
	    "\"unknown\":%zu,\"overrides\":%zu},\"commands\":[",
	    ck->all.nerrors, ck->all.nwarnings, ck->all.nunknown,
	    ck->all.noverrides);
	for (i = 0; i < ck->ncmds; i++) {
		const struct checked	*c = &ck->cmds[i];

		buf_printf(&b, "%s{\"index\":%zu,\"line\":%d,\"kind\":", i ? "," :
		    "", i, c->line);
		json_str(&b, c->kind == SH_ROUTER ? "router" : c->kind == -1 ?
		    "config" : "server");
		buf_puts(&b, ",\"mode\":");
		json_str(&b, c->mode);
		buf_puts(&b, ",\"command\":");
		json_str(&b, c->text);
		buf_putc(&b, '}');
	}
	buf_puts(&b, "],\"diagnostics\":[");
	for (i = 0; i < ck->all.n; i++) {
		const struct diag	*d = &ck->all.d[i];
		const struct rule	*r = d->rule;

		buf_puts(&b, i ? ",{\"rule\":" : "{\"rule\":");
		json_str(&b, d->id);
		buf_puts(&b, ",\"severity\":");
		json_str(&b, severity_name(d->sev));
		buf_puts(&b, ",\"message\":");
		json_str(&b, d->msg);
		if (d->note != NULL) {
			buf_puts(&b, ",\"note\":");
			json_str(&b, d->note);
		}
		if (d->hint != NULL) {
			buf_puts(&b, ",\"hint\":");
			json_str(&b, d->hint);
		}
		buf_puts(&b, ",\"explanation\":");
		if (r != NULL && r->explain != NULL)
			json_str(&b, r->explain);
		else
			buf_puts(&b, "null");
		buf_puts(&b, ",\"fixes\":[");
		for (j = 0; r != NULL && j < r->nfixes; j++) {
			if (j > 0)
				buf_putc(&b, ',');
			json_fix(&b, ck->cat, &r->fixes[j]);
		}
		buf_puts(&b, "],\"source\":");
		if (r != NULL && r->src_file != NULL) {
			buf_puts(&b, "{\"file\":");
			json_str(&b, r->src_file);
			buf_puts(&b, ",\"function\":");
			json_str(&b, r->src_func ? r->src_func : "");
			buf_puts(&b, ",\"commit\":");
			json_str(&b, r->src_commit ? r->src_commit : "");
			buf_puts(&b, ",\"stage\":");
			json_str(&b, stage_name(r->stage));
			buf_putc(&b, '}');
		} else
			buf_puts(&b, "null");
		buf_printf(&b, ",\"command\":%d,\"line\":%d", d->cmd, d->line);
		if (d->opt >= 0 && ck->cat->opts[d->opt].kind != OK_FACT) {
			buf_puts(&b, ",\"option\":");
			json_str(&b, ck->cat->opts[d->opt].name);
		}
		buf_putc(&b, '}');
	}
	buf_puts(&b, "]}\n");
	fputs(b.s, stdout);
	buf_free(&b);
}

static bool
looks_like_yaml(const char *name, const char *text)
{
	size_t		 len = strlen(name);
	const char	*p = text;

	if ((len > 5 && strcmp(name + len - 5, ".yaml") == 0) ||
	    (len > 4 && strcmp(name + len - 4, ".yml") == 0))
		return true;
	/* A first non-comment line "key: value" without a command word. */
	while (*p == '#' || *p == '\n' || *p == ' ') {
		if (*p == '#')
			p = strchr(p, '\n') ? strchr(p, '\n') : p + strlen(p);
		else
			p++;
	}
	if (strncmp(p, "---", 3) == 0)
		return true;
	while (*p != '\0' && *p != '\n' && *p != ' ' && *p != ':')
		p++;
	return *p == ':' && (p[1] == ' ' || p[1] == '\n');
}

int
cmd_check(int argc, char **argv)
{
	struct check	 ck = { 0 };
	struct catalog	*cat;
	struct config	 base = { 0 };
	enum input	 in = IN_AUTO;
	const char	*file = NULL;
	char		*text = NULL, *dirbuf = NULL, err[512];
	size_t		 len = 0;
	int		 i, rc = EXIT_USAGE, r, dashdash = -1;

	if ((cat = cli_load_catalog()) == NULL)
		return EXIT_USAGE;
	ck.cat = cat;
	config_init(&base, cat);
	result_init(&ck.all);
	for (i = 1; i < argc; i++) {
		if (strcmp(argv[i], "--") == 0) {
			dashdash = i + 1;
			break;
		}
		if ((r = parse_fact_opt(cat, &base, argc, argv, &i)) < 0)
			goto out;
		if (r == 1)
			continue;
		if (strcmp(argv[i], "--format") == 0 && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "json") == 0)
				ck.json = true;
			else if (strcmp(argv[i], "text") != 0) {
				fprintf(stderr, "pdwiz: --format takes text or "
				    "json\n");
				goto out;
			}
		} else if (strncmp(argv[i], "--format=", 9) == 0) {
			ck.json = strcmp(argv[i] + 9, "json") == 0;
			if (!ck.json && strcmp(argv[i] + 9, "text") != 0) {
				fprintf(stderr, "pdwiz: --format takes text or "
				    "json\n");
				goto out;
			}
		} else if (strcmp(argv[i], "--input") == 0 && i + 1 < argc) {
			i++;
			if (strcmp(argv[i], "shell") == 0)
				in = IN_SHELL;
			else if (strcmp(argv[i], "config") == 0)
				in = IN_CONFIG;
			else if (strcmp(argv[i], "auto") == 0)
				in = IN_AUTO;
			else {
				fprintf(stderr, "pdwiz: --input takes auto, shell "
				    "or config\n");
				goto out;
			}
		} else if (strcmp(argv[i], "--format") == 0 ||
		    strcmp(argv[i], "--input") == 0) {
			fprintf(stderr, "pdwiz: %s needs a value\n", argv[i]);
			goto out;
		} else if (strcmp(argv[i], "-v") == 0 ||
		    strcmp(argv[i], "--verbose") == 0)
			ck.verbose = true;
		else if (argv[i][0] == '-' && argv[i][1] != '\0') {
			fprintf(stderr, "pdwiz check: unknown option %s (see "
			    "pdwiz --help)\n", argv[i]);
			goto out;
		} else if (file == NULL)
			file = argv[i];
		else {
			fprintf(stderr, "pdwiz check: only one FILE\n");
			goto out;
		}
	}
	ck.color = !ck.json && use_color(stdout);
	if (dashdash >= 0) {
		struct buf	b = { 0 };

		if (file != NULL) {
			fprintf(stderr, "pdwiz check: give FILE or -- CMD, not "
			    "both\n");
			goto out;
		}
		if (dashdash >= argc) {
			fprintf(stderr, "pdwiz check: nothing after --\n");
			goto out;
		}
		for (i = dashdash; i < argc; i++) {
			char	*q = sh_quote(argv[i]);

			if (i > dashdash)
				buf_putc(&b, ' ');
			buf_puts(&b, q);
			free(q);
		}
		/* Bare flags: treat as arguments of sglang.launch_server. */
		if (argv[dashdash][0] == '-') {
			char	*t = xasprintf("python -m sglang.launch_server %s",
			    b.s);

			buf_free(&b);
			buf_puts(&b, t);
			free(t);
		}
		len = b.len;
		text = buf_steal(&b);
		ck.name = "<command>";
		in = IN_SHELL;
	} else {
		if (file == NULL)
			file = "-";
		if ((text = read_file(file, INPUT_MAX, &len, err, sizeof err)) ==
		    NULL) {
			fprintf(stderr, "pdwiz: %s\n", err);
			goto out;
		}
		ck.name = strcmp(file, "-") == 0 ? "<stdin>" : file;
		if (memchr(text, '\0', len) != NULL) {
			fprintf(stderr, "%s: binary input (NUL byte at offset "
			    "%zu); expected a shell script or YAML\n", ck.name,
			    (size_t)((char *)memchr(text, '\0', len) - text));
			goto out;
		}
		if (in == IN_AUTO)
			in = looks_like_yaml(ck.name, text) ? IN_CONFIG :
			    IN_SHELL;
		if (strcmp(file, "-") != 0) {
			dirbuf = xstrdup(file);
		}
	}
	if (in == IN_CONFIG) {
		char		 yerr[1024];
		struct ynode	*probe;

		/* Unusable YAML is exit 2, not a finding. */
		if ((probe = ydoc_parse(ck.name, text, len, false, yerr,
		    sizeof yerr)) == NULL) {
			fprintf(stderr, "%s\n", yerr);
			goto out;
		}
		/* Nothing to check in a list or a lone scalar. */
		if (probe->kind != YN_MAP) {
			fprintf(stderr, "%s:%d:%d: expected a mapping (an SGLang "
			    "--config file or a deployment file), not a %s\n",
			    ck.name, probe->line, probe->col,
			    probe->kind == YN_SEQ ? "list" : "single value");
			ynode_free(probe);
			goto out;
		}
		ynode_free(probe);
		if (deployment_sniff(text, len)) {
			struct deployment	d;
			char			derr[8192];

			if (deployment_parse(cat, ck.name, text, len, &d, derr,
			    sizeof derr) != 0) {
				fprintf(stderr, "%s\n", derr);
				goto out;
			}
			check_deploy_text(&ck, &d);
			deployment_free(&d);
		} else
			check_config_text(&ck, &base, text, len);
	} else if (check_shell_text(&ck, &base, text, len,
	    dirbuf ? dirname(dirbuf) : NULL) != 0)
		goto out;
	if (ck.json)
		print_json(&ck);
	else
		print_text(&ck);
	rc = ck.all.nerrors > 0 ? EXIT_FOUND : EXIT_OK;
out:
	for (size_t k = 0; k < ck.ncmds; k++)
		free(ck.cmds[k].text);
	free(ck.cmds);
	free(text);
	free(dirbuf);
	result_free(&ck.all);
	config_free(&base);
	catalog_free(cat);
	return rc;
}
