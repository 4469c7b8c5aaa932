/* explain.c - `pdwiz explain`, `pdwiz rules`, `pdwiz coverage`. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cli.h"
#include "core/describe.h"
#include "core/engine.h"
#include "core/util.h"
#include "core/ydoc.h"
#include "io/json.h"
#include "cli/explain_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { E_LOG = 1, E_FORMAT };

static const struct cliopt explain_opts[] = {
	{ E_LOG, "log", 0, "FILE",
	    "a failed launch's log (repeatable; - for standard input): the "
	    "failure, the rule that explains it, the configuration checked "
	    "again and its fixes", 0 },
	{ E_FORMAT, "format", 0, "text|json", "output format (default text)",
	    0 },
	CLI_FACT_OPTS,
	{ 0, NULL, 0, NULL, NULL, 0 }
};

const struct clicmd cli_explain = {
	"explain", { "RULE-ID | MESSAGE", "--log FILE [--log FILE]..." },
	"what a rule or a failure means and how to fix it", explain_opts,
	cmd_explain, 0
};

enum { R_FORMAT = 1 };

static const struct cliopt rules_opts[] = {
	{ R_FORMAT, "format", 0, "text|json", "output format (default text)",
	    0 },
	{ 0, NULL, 0, NULL, NULL, 0 }
};

const struct clicmd cli_rules = {
	"rules", { "", NULL }, "list the rules", rules_opts, cmd_rules, 0
};

enum { V_SGLANG_CATALOG = 1 };

static const struct cliopt coverage_opts[] = {
	{ V_SGLANG_CATALOG, "sglang-catalog", 0, "RULES.md",
	    "also map the check ids of SGLang's catalog", 0 },
	{ 0, NULL, 0, NULL, NULL, 0 }
};

const struct clicmd cli_coverage = {
	"coverage", { "", NULL }, "map options and SGLang checks to rules",
	coverage_opts, cmd_coverage, 0
};

/*
 * The options of a command whose only operands are the ones it names: the
 * value of its one option (or NULL) and of its one operand (or NULL).
 * -1: go on; else the exit status (after --help or a usage error).
 */
static int
simple_args(const struct clicmd *cmd, int argc, char **argv, bool operand,
    const char **optval, const char **opd)
{
	struct cliparse	p;
	int		id;

	cliparse_init(&p, cmd, argc, argv);
	while ((id = cliparse_next(&p)) != CLIOPT_END) {
		if (id == CLIOPT_HELP) {
			cli_help(stdout, cmd);
			return EXIT_OK;
		}
		if (id == CLIOPT_ERROR)
			return EXIT_USAGE;
		if (id == CLIOPT_OPERAND && (!operand || *opd != NULL)) {
			cli_usage(stderr, cmd);
			return EXIT_USAGE;
		}
		if (id == CLIOPT_OPERAND)
			*opd = p.arg;
		else
			*optval = p.arg;
	}
	if (operand && *opd == NULL) {
		cli_usage(stderr, cmd);
		return EXIT_USAGE;
	}
	return -1;
}

static void
wrap(const char *indent, const char *text)
{
	const char	*p = text;
	size_t		 col = 0;

	fputs(indent, stdout);
	while (*p != '\0') {
		const char	*e = p;
		size_t		 n;

		while (*e != '\0' && *e != ' ' && *e != '\n')
			e++;
		n = (size_t)(e - p);
		if (col > 0 && col + 1 + n > 76) {
			printf("\n%s", indent);
			col = 0;
		} else if (col > 0) {
			putchar(' ');
			col++;
		}
		fwrite(p, 1, n, stdout);
		col += n;
		p = e;
		while (*p == ' ' || *p == '\n')
			p++;
	}
	putchar('\n');
}

void
explain_print_rule(const struct catalog *cat, const struct rule *r,
    const char *in)
{
	char	*in2 = xasprintf("%s  ", in);
	size_t	 i;

	printf("%s%s  (%s%s%s, at %s)\n\n", in, r->id, severity_name(r->sev),
	    r->kind ? ", " : "", r->kind ? r->kind : "", stage_name(r->stage));
	printf("%sMessage\n", in);
	wrap(in2, r->message_src);
	printf("\n%sWhen (pdwiz's condition)\n", in);
	wrap(in2, r->when_src);
	putchar('\n');
	if (r->explain != NULL) {
		printf("%sWhat it means\n", in);
		wrap(in2, r->explain);
	}
	if (r->nfixes > 0) {
		printf("\n%sFixes\n", in);
		for (i = 0; i < r->nfixes; i++) {
			struct buf	b = { 0 };

			describe_fix(cat, &r->fixes[i], &b);
			printf("%s  %zu. %s: %s\n", in, i + 1, r->fixes[i].label,
			    b.s);
			buf_free(&b);
		}
	}
	if (r->before != NULL || r->after != NULL) {
		printf("\n%sExample fix\n", in);
		if (r->before != NULL)
			printf("%s  # before\n%s  %s\n", in, in, r->before);
		if (r->after != NULL)
			printf("%s  # after\n%s  %s\n", in, in, r->after);
	}
	if (r->src_file != NULL) {
		printf("\n%sSource\n%s  sgl-project/sglang %s", in, in,
		    r->src_file);
		if (r->src_func != NULL)
			printf(" (%s)", r->src_func);
		if (r->src_commit != NULL)
			printf("\n%s  at commit %s", in, r->src_commit);
		putchar('\n');
	}
	printf("\n%sDefined in %s:%d\n", in, catalog_rule_file(cat, r),
	    r->line);
	free(in2);
}

/* The rule as one JSON object: what explain RULE-ID prints. */
static void
rule_json(const struct catalog *cat, const struct rule *r)
{
	struct buf	b = { 0 };
	size_t		i;

	buf_puts(&b, "{\"version\":1,\"rule\":{\"id\":");
	json_str(&b, r->id);
	buf_puts(&b, ",\"severity\":");
	json_str(&b, severity_name(r->sev));
	buf_puts(&b, ",\"kind\":");
	if (r->kind != NULL)
		json_str(&b, r->kind);
	else
		buf_puts(&b, "null");
	buf_puts(&b, ",\"stage\":");
	json_str(&b, stage_name(r->stage));
	buf_puts(&b, ",\"message\":");
	json_str(&b, r->message_src);
	buf_puts(&b, ",\"when\":");
	json_str(&b, r->when_src);
	buf_puts(&b, ",\"explain\":");
	if (r->explain != NULL)
		json_str(&b, r->explain);
	else
		buf_puts(&b, "null");
	buf_puts(&b, ",\"fixes\":[");
	for (i = 0; i < r->nfixes; i++) {
		struct buf	d = { 0 };

		describe_fix(cat, &r->fixes[i], &d);
		buf_puts(&b, i ? ",{\"label\":" : "{\"label\":");
		json_str(&b, r->fixes[i].label);
		buf_puts(&b, ",\"change\":");
		json_str(&b, d.s != NULL ? d.s : "");
		buf_puts(&b, "}");
		buf_free(&d);
	}
	buf_puts(&b, "],\"source\":");
	if (r->src_file != NULL)
		json_str(&b, r->src_file);
	else
		buf_puts(&b, "null");
	buf_puts(&b, "}}\n");
	cli_puts(b.s);
	buf_free(&b);
}

/* A word that can only be a rule id: lower case, digits and dashes. */
static bool
id_like(const char *s)
{
	if (*s == '\0')
		return false;
	for (; *s != '\0'; s++)
		if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') ||
		    *s == '-'))
			return false;
	return true;
}

/* "no rule 'x'; did you mean 'y'?" for a word that can only be an id. */
static void
no_rule(const struct catalog *cat, const char *id)
{
	const char	*best = NULL;
	size_t		 bestd = 4, i;

	for (i = 0; i < cat->nrules + cat->ndrules; i++) {
		const struct rule *x = i < cat->nrules ? &cat->rules[i] :
		    &cat->drules[i - cat->nrules];
		size_t	d = edit_distance(id, x->id);

		if (d < bestd) {
			bestd = d;
			best = x->id;
		}
	}
	fprintf(stderr, "pdwiz: no rule '%s'%s%s%s (pdwiz rules lists them; a "
	    "message to explain has spaces)\n", id, best ? "; did you mean '" :
	    "", best ? best : "", best ? "'?" : "");
}

/*
 * The options: -1 to go on, else the exit status (after --help or a
 * usage error).
 */
static int	explain_parse(char **, int, struct explain_req *,
		    struct cli_facts *, const char **, const char **);

/*
 * Is a word a message rather than an option? SGLang's messages often
 * start with a flag ("--enable-dsa-cache-layer-split currently only
 * supports ..."): a word with a space that is no "--option=value" of
 * explain's is the message.
 */
static bool
message_word(const char *w)
{
	const struct cliopt	*o;
	const char		*sp = strchr(w, ' '), *eq = strchr(w, '=');

	if (w[0] != '-' || sp == NULL)
		return false;
	if (eq != NULL && eq < sp && strncmp(w, "--", 2) == 0)
		for (o = explain_opts; o->id != 0; o++)
			if (o->name != NULL && strlen(o->name) ==
			    (size_t)(eq - w - 2) && strncmp(w + 2, o->name,
			    (size_t)(eq - w - 2)) == 0)
				return false;
	return true;
}

static int
explain_args(int argc, char **argv, struct explain_req *req,
    struct cli_facts *facts, const char **id)
{
	static const char *const formats[] = { "text", "json", NULL };
	const char	*fmt = "text";
	char		**av = xcalloc((size_t)argc + 2, sizeof *av);
	int		 rc, i, n = 0, nmsg = 0;
	bool		 dashdash = false;

	/* a message that starts like a flag goes after "--" */
	for (i = 0; i < argc; i++)
		dashdash = dashdash || strcmp(argv[i], "--") == 0;
	for (i = 0; i < argc; i++)
		if (dashdash || i == 0 || !message_word(argv[i]))
			av[n++] = argv[i];
	for (i = 1; !dashdash && i < argc; i++)
		if (message_word(argv[i])) {
			if (nmsg++ == 0)
				av[n++] = (char *)"--";
			av[n++] = argv[i];
		}
	rc = explain_parse(av, n, req, facts, id, &fmt);
	free(av);
	if (rc >= 0)
		return rc;
	if (cli_choice(fmt, formats) < 0) {
		fprintf(stderr, "pdwiz explain: --format takes text or json\n");
		return EXIT_USAGE;
	}
	req->json = strcmp(fmt, "json") == 0;
	if ((*id == NULL) == (req->nlogs == 0)) {
		if (*id != NULL)
			fprintf(stderr, "pdwiz explain: a rule id or a message, "
			    "or --log FILE: not both\n");
		cli_usage(stderr, &cli_explain);
		return EXIT_USAGE;
	}
	return -1;
}

static int
explain_parse(char **argv, int argc, struct explain_req *req,
    struct cli_facts *facts, const char **id, const char **fmt)
{
	struct cliparse	 p;
	int		 opt, rc;

	cliparse_init(&p, &cli_explain, argc, argv);
	while ((opt = cliparse_next(&p)) != CLIOPT_END) {
		if (opt == CLIOPT_HELP) {
			cli_help(stdout, &cli_explain);
			return EXIT_OK;
		}
		if (opt == CLIOPT_ERROR)
			return EXIT_USAGE;
		if (opt == CLIOPT_OPERAND && *id != NULL) {
			cli_usage(stderr, &cli_explain);
			return EXIT_USAGE;
		}
		if ((rc = cli_fact_opt(facts, opt, p.arg)) < 0)
			return EXIT_USAGE;
		if (rc > 0)
			continue;
		if (opt == CLIOPT_OPERAND)
			*id = p.arg;
		else if (opt == E_FORMAT)
			*fmt = p.arg;
		else if (opt == E_LOG) {
			req->logs = xreallocarray(req->logs, req->nlogs + 1,
			    sizeof *req->logs);
			req->logs[req->nlogs++] = p.arg;
		}
	}
	return -1;
}

int
cmd_explain(int argc, char **argv)
{
	struct explain_req	 req = { 0 };
	struct cli_facts	 facts = { 0 };
	struct catalog		*cat = NULL;
	struct config		 probe;
	const struct rule	*r;
	const char		*id = NULL;
	int			 rc;

	if ((rc = explain_args(argc, argv, &req, &facts, &id)) >= 0)
		goto out;
	rc = EXIT_USAGE;
	if ((cat = cli_load_catalog()) == NULL)
		goto out;
	if (id != NULL && (r = catalog_rule(cat, id)) != NULL) {
		if (req.json)
			rule_json(cat, r);
		else
			explain_print_rule(cat, r, "");
		rc = EXIT_OK;
		goto out;
	}
	if (id != NULL && id_like(id)) {
		no_rule(cat, id);
		goto out;
	}
	/* a fact refused is refused before anything is read */
	config_init(&probe, cat);
	rc = cli_facts_apply(cat, &probe, &facts, NULL);
	config_free(&probe);
	if (rc != 0) {
		rc = EXIT_USAGE;
		goto out;
	}
	req.message = id;
	req.facts = &facts;
	rc = explain_failures(cat, &req);
out:
	cli_facts_free(&facts);
	free(req.logs);
	if (cat != NULL)
		catalog_free(cat);
	return rc;
}

int
cmd_rules(int argc, char **argv)
{
	static const char *const formats[] = { "text", "json", NULL };
	struct catalog	*cat;
	const char	*fmt = "text", *none = NULL;
	bool		 json;
	size_t		 i;
	int		 rc;

	if ((rc = simple_args(&cli_rules, argc, argv, false, &fmt, &none)) >= 0)
		return rc;
	if (cli_choice(fmt, formats) < 0) {
		fprintf(stderr, "pdwiz rules: --format takes text or json\n");
		return EXIT_USAGE;
	}
	json = strcmp(fmt, "json") == 0;
	if ((cat = cli_load_catalog()) == NULL)
		return EXIT_USAGE;
	if (json) {
		struct buf	b = { 0 };

		buf_puts(&b, "[");
		for (i = 0; i < cat->nrules + cat->ndrules; i++) {
			const struct rule *r = i < cat->nrules ? &cat->rules[i] :
			    &cat->drules[i - cat->nrules];

			buf_puts(&b, i ? ",{\"id\":" : "{\"id\":");
			json_str(&b, r->id);
			buf_puts(&b, ",\"severity\":");
			json_str(&b, severity_name(r->sev));
			buf_puts(&b, ",\"scope\":");
			json_str(&b, r->deploy ? "deployment" : "server");
			buf_puts(&b, ",\"message\":");
			json_str(&b, r->message_src);
			buf_puts(&b, "}");
		}
		buf_puts(&b, "]\n");
		cli_puts(b.s);
		buf_free(&b);
	} else {
		for (i = 0; i < cat->nrules + cat->ndrules; i++) {
			const struct rule *r = i < cat->nrules ? &cat->rules[i] :
			    &cat->drules[i - cat->nrules];

			printf("%-40s %-8s %s%.60s%s\n", r->id,
			    severity_name(r->sev), r->deploy ? "[deployment] " :
			    "", r->message_src,
			    strlen(r->message_src) > 60 ? "..." : "");
		}
	}
	catalog_free(cat);
	return EXIT_OK;
}

/*
 * coverage: every option of the catalog, and every check id listed in
 * rules/not-modelled.yaml, mapped to the rules that read it or to the
 * reason it is not modelled. Generated, never hand-written.
 */
struct reads {
	const struct catalog	*cat;
	unsigned char		*used;
};

static void
mark(void *arg, int slot)
{
	struct reads	*r = arg;

	r->used[slot_opt(r->cat->nopts, slot)] = 1;
}

/* Does a rule implement SGLang check id (same id, or id-suffix)? */
static void
print_rules_for(const struct catalog *cat, const char *id, bool *any)
{
	size_t	j, n = strlen(id);

	for (j = 0; j < cat->nrules + cat->ndrules; j++) {
		const struct rule *r = j < cat->nrules ? &cat->rules[j] :
		    &cat->drules[j - cat->nrules];

		if (strncmp(r->id, id, n) == 0 && (r->id[n] == '\0' ||
		    r->id[n] == '-')) {
			printf(" %s", r->id);
			*any = true;
		}
	}
}

/* The reason an id is not modelled, from not-modelled.yaml, or NULL. */
static const char *
not_modelled(const struct ynode *l, const char *id)
{
	size_t	k;

	for (k = 0; l != NULL && l->kind == YN_SEQ && k < l->nkids; k++) {
		const struct ynode	*i = ynode_get(l->kids[k], "id");
		const struct ynode	*why = ynode_get(l->kids[k], "reason");

		if (i != NULL && i->kind == YN_SCALAR && why != NULL &&
		    why->kind == YN_SCALAR && strcmp(i->str, id) == 0)
			return why->str;
	}
	return NULL;
}

/*
 * SGLang's check ids as the catalog of rules.md names them: "### id"
 * headings (several joined by " / ") and "**id**" bullets.
 */
static size_t
catalog_ids(const char *text, char ***out)
{
	const char	*p = text;
	char		**ids = NULL;
	size_t		  n = 0;

	while ((p = strpbrk(p, "#*")) != NULL) {
		const char	*s = NULL;

		if (strncmp(p, "### ", 4) == 0 && (p == text || p[-1] == '\n'))
			s = p + 4;
		else if (strncmp(p, "**", 2) == 0)
			s = p + 2;
		if (s == NULL) {
			p++;
			continue;
		}
		for (;;) {
			const char	*e = s;
			size_t		 i;

			while ((*e >= 'a' && *e <= 'z') || (*e >= '0' &&
			    *e <= '9') || *e == '-')
				e++;
			const char	*dash = memchr(s, '-', (size_t)(e - s));

			/* ids are "<group>-<name>", group tb, dec, par, ... */
			if (e - s > 3 && dash != NULL && dash - s >= 2 &&
			    dash - s <= 4 &&
			    s[0] >= 'a' && s[0] <= 'z' && (*e == '\n' ||
			    *e == ' ' || *e == '*' || *e == '\0')) {
				char	*id = xstrndup(s, (size_t)(e - s));

				for (i = 0; i < n; i++)
					if (strcmp(ids[i], id) == 0)
						break;
				if (i == n) {
					ids = xreallocarray(ids, n + 1,
					    sizeof *ids);
					ids[n++] = id;
				} else
					free(id);
			}
			if (strncmp(e, " / ", 3) != 0)
				break;
			s = e + 3;
		}
		p = s;
	}
	*out = ids;
	return n;
}

/* Every option -> the rules that read it. */
static void
coverage_options(const struct catalog *cat)
{
	struct reads	rd;
	size_t		i, j, nread = 0;

	printf("# pdwiz coverage: generated by `pdwiz coverage` from rules/\n");
	printf("# option -> rules that read it (or: not read by any rule)\n\n");
	for (i = 0; i < cat->nopts; i++) {
		bool	any = false;

		rd.cat = cat;
		rd.used = xcalloc(cat->nopts, 1);
		printf("%-55s", cat->opts[i].kind == OK_FLAG ? cat->opts[i].flag :
		    cat->opts[i].name);
		for (j = 0; j < cat->nrules + cat->ndrules; j++) {
			const struct rule *r = j < cat->nrules ? &cat->rules[j] :
			    &cat->drules[j - cat->nrules];

			memset(rd.used, 0, cat->nopts);
			rule_slots(r, mark, &rd);
			if (rd.used[i]) {
				printf(" %s", r->id);
				any = true;
			}
		}
		if (!any)
			printf(" (not read by any rule%s)",
			    cat->opts[i].modelled ? "" : "; known flag only");
		else
			nread++;
		putchar('\n');
		free(rd.used);
	}
	printf("\n# %zu of %zu options are read by rules; %zu rules, %zu "
	    "deployment rules\n", nread, cat->nopts, cat->nrules, cat->ndrules);
}

static void
coverage_not_modelled(const struct ynode *nm)
{
	const struct ynode	*l = ynode_get(nm, "not_modelled");
	size_t			 k;

	printf("\n# SGLang checks not modelled, with the reason\n");
	for (k = 0; l != NULL && l->kind == YN_SEQ && k < l->nkids; k++) {
		const struct ynode	*id = ynode_get(l->kids[k], "id");
		const struct ynode	*why = ynode_get(l->kids[k], "reason");

		printf("%-45s not modelled: %s\n",
		    id && id->kind == YN_SCALAR ? id->str : "?",
		    why && why->kind == YN_SCALAR ? why->str : "?");
	}
}

/*
 * The raise and assert statements of SGLang's argument files, classified by
 * tools/sgscan.py (rules/sglang-checks.tsv): the counts, and each check that
 * is missing (neither a rule nor a reason).
 */
static void
coverage_scan(const struct catalog *cat)
{
	char	 err[1024], *path, *text, *line, *next, *commit = NULL;
	size_t	 len, n[3] = {0, 0, 0};
	static const char *const status[3] = {"modelled", "not-modelled",
	    "missing"};

	path = xasprintf("%s/rules/sglang-checks.tsv", cat->dir);
	text = read_file(path, 8 << 20, &len, err, sizeof err);
	free(path);
	if (text == NULL)
		return;
	printf("\n# SGLang's raise/assert checks (rules/sglang-checks.tsv, "
	    "tools/sgscan.py): missing ones\n");
	for (line = text; line != NULL && *line != '\0'; line = next) {
		char	*f[7];
		size_t	 k, i;

		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		if (strncmp(line, "# tools/sgscan.py at SGLang ", 28) == 0) {
			commit = line + 28;
			commit[strcspn(commit, ";")] = '\0';
		}
		if (*line == '#' || strncmp(line, "file\t", 5) == 0)
			continue;
		for (k = 0, f[0] = line; k < 6; k++) {
			char *t = strchr(f[k], '\t');

			if (t == NULL)
				break;
			*t = '\0';
			f[k + 1] = t + 1;
		}
		if (k < 6)
			continue;
		for (i = 0; i < 3; i++)
			if (strcmp(f[5], status[i]) == 0)
				n[i]++;
		if (strcmp(f[5], "missing") == 0)
			printf("%s:%s: %s %s: %s\n", f[0], f[4], f[1], f[2],
			    f[3]);
	}
	printf("\n# %zu SGLang raise/assert checks%s%s: %zu modelled, %zu not "
	    "modelled, %zu missing\n", n[0] + n[1] + n[2],
	    commit != NULL ? " at " : "", commit != NULL ? commit : "",
	    n[0], n[1], n[2]);
	free(text);
}

/* Every check id of SGLang's catalog -> rules, or the reason it is not
 * modelled. The number missing, or -1 if the catalog cannot be read. */
static int
coverage_sglang(const struct catalog *cat, const struct ynode *nm,
    const char *sgl)
{
	size_t	 len, nids, k;
	char	 err[1024], **ids;
	char	*text = read_file(sgl, 4 << 20, &len, err, sizeof err);
	int	 missing = 0;

	if (text == NULL) {
		fprintf(stderr, "pdwiz: %s\n", err);
		return -1;
	}
	nids = catalog_ids(text, &ids);
	printf("\n# SGLang's checks (%s) -> rules, or the reason they "
	    "are not modelled\n", sgl);
	for (k = 0; k < nids; k++) {
		bool		 any = false;
		const char	*why;

		printf("%-45s", ids[k]);
		print_rules_for(cat, ids[k], &any);
		why = any ? NULL : not_modelled(nm ? ynode_get(nm,
		    "not_modelled") : NULL, ids[k]);
		if (!any && why != NULL)
			printf(" not modelled: %s", why);
		else if (!any) {
			printf(" MISSING: neither a rule nor a reason");
			missing++;
		}
		putchar('\n');
		free(ids[k]);
	}
	free(ids);
	free(text);
	printf("\n# %zu SGLang checks, %d missing\n", nids, missing);
	return missing;
}

int
cmd_coverage(int argc, char **argv)
{
	struct catalog	*cat;
	struct ynode	*nm;
	const char	*sgl = NULL, *none = NULL;
	char		 err[1024], *path;
	int		 missing = 0, rc;

	if ((rc = simple_args(&cli_coverage, argc, argv, false, &sgl,
	    &none)) >= 0)
		return rc;
	if ((cat = cli_load_catalog()) == NULL)
		return EXIT_USAGE;
	coverage_options(cat);
	path = xasprintf("%s/rules/not-modelled.yaml", cat->dir);
	nm = ydoc_load(path, 1024 * 1024, err, sizeof err);
	free(path);
	if (nm != NULL)
		coverage_not_modelled(nm);
	if (sgl != NULL)
		missing = coverage_sglang(cat, nm, sgl);
	coverage_scan(cat);
	ynode_free(nm);
	catalog_free(cat);
	return missing < 0 ? EXIT_USAGE : missing > 0 ? EXIT_FOUND : EXIT_OK;
}
