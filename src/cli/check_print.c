/* check_print.c - the report of `pdwiz check`: text or JSON. */
#define _POSIX_C_SOURCE 200809L
#include "cli/check.h"
#include "cli/cli.h"
#include "core/describe.h"
#include "core/util.h"
#include "deploy/deploy.h"
#include "io/json.h"
#include "io/shell.h"

#include <stdio.h>
#include <string.h>
#include <stdlib.h>

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

/*
 * s for a terminal: control bytes (ESC, CR, BEL ... DEL) written as \xNN,
 * so a value from the checked script cannot move the cursor, recolour or
 * retitle the terminal. Returns a pointer into a buffer reused by the next
 * call with the same slot.
 */
static const char *
term_text(int slot, const char *s)
{
	static struct buf	 b[3];
	const unsigned char	*p;

	b[slot].len = 0;
	buf_add(&b[slot], "", 0);
	for (p = (const unsigned char *)(s != NULL ? s : ""); *p != '\0'; p++)
		if (*p < 0x20 || *p == 0x7f)
			buf_printf(&b[slot], "\\x%02x", *p);
		else
			buf_putc(&b[slot], (char)*p);
	return b[slot].s;
}

bool
check_would_report(const struct diag *d)
{
	return d->sev == SEV_UNKNOWN && d->msg != NULL &&
	    strstr(d->msg, "<unknown>") == NULL;
}

/* The kind of diagnostic as a compiler's: overrides and could-not-checks
 * are notes (the kind is said in the message). */
static const char *
gcc_severity(enum severity s)
{
	return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" :
	    "note";
}

/* Where d is: its line and column, else its command's first line. */
static void
diag_pos(const struct check *ck, const struct diag *d, int *line, int *col)
{
	*line = d->line;
	*col = d->col > 0 ? d->col : 1;
	if (*line <= 0 && d->cmd >= 0 && (size_t)d->cmd < ck->ncmds)
		*line = ck->cmds[d->cmd].line;
	if (*line <= 0)
		*line = 1;
}

bool
check_fails(const struct check *ck, const struct diag *d)
{
	return d->sev == SEV_ERROR || (ck->fail_on == SEV_WARNING &&
	    d->sev == SEV_WARNING);
}

bool
check_listed(const struct report *r, const struct check *ck,
    const struct diag *d)
{
	if (r->quiet)
		return check_fails(ck, d);
	if (d->sev == SEV_OVERRIDE)
		return r->verbose;
	if (d->sev == SEV_UNKNOWN && (r->fmt == FMT_TEXT || r->fmt ==
	    FMT_GITHUB))
		return r->show_unknown;
	return true;
}

static void
print_diag(const struct report *r, const struct check *ck,
    const struct diag *d)
{
	size_t	j, shown;
	int	line, col;

	diag_pos(ck, d, &line, &col);
	printf("%s:%d:%d: %s%s%s: %s%s [%s]\n", term_text(0, ck->name), line,
	    col, r->color ? sev_color(d->sev) : "", gcc_severity(d->sev),
	    r->color ? "\033[0m" : "", d->sev == SEV_OVERRIDE ? "override: " :
	    "", term_text(1, d->sev == SEV_UNKNOWN && d->note != NULL ?
	    d->note : d->msg), d->id);
	if (check_would_report(d))
		printf("    would report: %s\n", term_text(1, d->msg));
	if (ck->ncmds > 1 && d->cmd >= 0 && (size_t)d->cmd < ck->ncmds)
		printf("    in: %s command at line %d%s\n",
		    strcmp(ck->cmds[d->cmd].mode, "null") == 0 ? "server" :
		    ck->cmds[d->cmd].mode, ck->cmds[d->cmd].line,
		    d->rule != NULL && d->rule->deploy ?
		    " (cross-role check)" : "");
	if (d->hint != NULL)
		printf("    hint: %s\n", term_text(1, d->hint));
	if (d->rule == NULL || d->sev == SEV_OVERRIDE)
		return;
	for (j = 0, shown = 0; j < d->rule->nfixes && shown < 3; j++) {
		struct buf	b = { 0 };

		if (!diag_fix_ok(d, j))
			continue;
		shown++;
		describe_fix(ck->cat, &d->rule->fixes[j], &b);
		printf("    fix: %s (%s)\n", d->rule->fixes[j].label,
		    term_text(2, b.s));
		buf_free(&b);
	}
}

void
check_report_sum(struct report *r)
{
	size_t	i, j;

	r->nerrors = r->nwarnings = r->nunknown = r->noverrides = 0;
	r->nnotes = 0;
	r->ncmds = r->nchecked = r->nnothing = r->nfailed = 0;
	for (i = 0; i < r->n; i++) {
		const struct check	*ck = r->f[i];

		r->nerrors += ck->all.nerrors;
		r->nwarnings += ck->all.nwarnings;
		r->nunknown += ck->all.nunknown;
		r->noverrides += ck->all.noverrides;
		for (j = 0; j < ck->all.n; j++)
			r->nnotes += ck->all.d[j].sev == SEV_NOTE;
		r->ncmds += ck->ncmds;
		if (ck->status == CK_CHECKED)
			r->nchecked++;
		else if (ck->status == CK_NOTHING)
			r->nnothing++;
		else
			r->nfailed++;
	}
}

int
check_report_status(const struct report *r)
{
	size_t	i;

	if (r->nfailed > 0)
		return EXIT_USAGE;
	for (i = 0; i < r->n; i++)
		if (r->f[i]->all.nerrors > 0 || (r->f[i]->fail_on ==
		    SEV_WARNING && r->f[i]->all.nwarnings > 0))
			return EXIT_FOUND;
	return EXIT_OK;
}

/*
 * The could-not-checks not listed one by one, folded by what they lack:
 * the fact a rule needed ("12 need the model architecture: give
 * --model-arch ..."), else the rule (a cross-role check's reason).
 */
struct unknown_group {
	int		 lacks;		/* option + 1, or 0: by rule */
	const char	*id;		/* lacks 0: the rule */
	const char	*first;		/* the first one's note */
	size_t		 n;
	const char	*rules[4];
	size_t		 nrules;
};

static void
group_add(struct unknown_group **g, size_t *n, const struct diag *d)
{
	size_t	i, j;

	/* By the fact lacked; else with the same reason (another rule's
	 * too: "the deployment has no prefill"); else by the rule. */
	for (i = 0; i < *n; i++)
		if ((*g)[i].lacks == d->lacks && (d->lacks != 0 ||
		    (d->note != NULL && strcmp((*g)[i].first, d->note) == 0)))
			break;
	if (i == *n && d->lacks == 0)
		for (i = 0; i < *n; i++)
			if ((*g)[i].lacks == 0 &&
			    strcmp((*g)[i].id, d->id) == 0)
				break;
	if (i == *n) {
		*g = grow_pow2(*g, *n, sizeof **g);
		memset(&(*g)[i], 0, sizeof **g);
		(*g)[i].lacks = d->lacks;
		(*g)[i].id = d->id;
		(*g)[i].first = d->note != NULL ? d->note : d->msg;
		(*n)++;
	}
	(*g)[i].n++;
	for (j = 0; j < (*g)[i].nrules; j++)
		if (strcmp((*g)[i].rules[j], d->id) == 0)
			return;
	if ((*g)[i].nrules < 4)
		(*g)[i].rules[(*g)[i].nrules++] = d->id;
}

static void
print_unknown_groups(const struct report *r)
{
	struct unknown_group	*g = NULL;
	size_t			 n = 0, i, j, k, total = 0;

	for (i = 0; i < r->n; i++)
		for (j = 0; j < r->f[i]->all.n; j++) {
			const struct diag	*d = &r->f[i]->all.d[j];

			if (d->sev == SEV_UNKNOWN && !check_listed(r, r->f[i],
			    d)) {
				group_add(&g, &n, d);
				total++;
			}
		}
	if (n == 0)
		return;
	printf("%zu check%s could not be run (--show-unknown lists each):\n",
	    total, total == 1 ? "" : "s");
	for (i = 0; i < n; i++) {
		const char	*why = g[i].first;

		if (strncmp(why, "could not check: ", 17) == 0)
			why += 17;
		if (g[i].lacks > 0) {
			const struct option	*o = &r->cat->opts[g[i].lacks - 1];

			printf("  %zu need%s %s%s%s", g[i].n, g[i].n == 1 ?
			    "s" : "", o->label != NULL ? o->label : o->name,
			    o->hint != NULL ? ": " : "", o->hint != NULL ?
			    term_text(1, o->hint) : "");
		} else if (g[i].nrules > 1) {
			/* One reason, several rules. */
			printf("  %zu check%s: %s", g[i].n, g[i].n == 1 ? "" :
			    "s", term_text(1, why));
		} else {
			printf("  %zu of %s, the first: %s\n", g[i].n, g[i].id,
			    term_text(1, why));
			continue;
		}
		printf(" [");
		for (k = 0; k < g[i].nrules; k++)
			printf("%s%s", k > 0 ? ", " : "", g[i].rules[k]);
		printf("%s]\n", g[i].n > g[i].nrules && g[i].nrules == 4 ?
		    ", ..." : "");
	}
	free(g);
}

/* "FILE:L:C: note: nothing to check: why" (-v). */
static void
print_nothing(const struct check *ck)
{
	const char	*why = ck->why.len > 0 ? ck->why.s : "no SGLang "
	    "command";
	size_t		 n = strlen(ck->name);
	int		 line, col;

	check_message_pos(ck->name, why, &line, &col);
	if (strncmp(why, ck->name, n) == 0 && why[n] == ':') {
		why += n + 1;
		while (*why >= '0' && *why <= '9')
			why++;
		while (*why == ':' || (*why >= '0' && *why <= '9'))
			why++;
		while (*why == ' ')
			why++;
	} else if (strncmp(why, "pdwiz: ", 7) == 0)
		why += 7;
	printf("%s:%d:%d: note: nothing to check: %s [nothing-to-check]\n",
	    term_text(0, ck->name), line > 0 ? line : 1, col > 0 ? col : 1,
	    term_text(1, why));
}

void
check_print_text(const struct report *r)
{
	size_t	i, j;

	for (i = 0; i < r->n; i++) {
		const struct check	*ck = r->f[i];

		if (ck->status == CK_NOTHING && r->verbose && !r->quiet)
			print_nothing(ck);
		for (j = 0; j < ck->all.n; j++)
			if (check_listed(r, ck, &ck->all.d[j]))
				print_diag(r, ck, &ck->all.d[j]);
	}
	if (r->quiet)
		return;
	print_unknown_groups(r);
	if (r->nchecked == 0) {
		if (r->verbose && r->nnothing > 0)
			printf("nothing to check in %zu file%s\n", r->nnothing,
			    r->nnothing == 1 ? "" : "s");
	} else {
		/* Always a verdict, a clean run's too. */
		printf("%zu error%s, %zu warning%s, %zu not checked, %zu "
		    "note%s, in %zu command%s", r->nerrors, r->nerrors == 1 ?
		    "" : "s", r->nwarnings, r->nwarnings == 1 ? "" : "s",
		    r->nunknown, r->nnotes, r->nnotes == 1 ? "" : "s",
		    r->ncmds, r->ncmds == 1 ? "" : "s");
		if (r->n > 1)
			printf(" of %zu file%s", r->nchecked, r->nchecked == 1 ?
			    "" : "s");
		if (r->nnothing > 0)
			printf("; %zu file%s with nothing to check", r->nnothing,
			    r->nnothing == 1 ? "" : "s");
		if (r->nfailed > 0)
			printf("; %zu could not be read", r->nfailed);
		printf("\n");
	}
	for (i = j = 0; i < r->n; i++)
		if (r->f[i]->all.nerrors > 1)
			j = 1;
	if (j)
		printf("(SGLang would stop at the first error of each server "
		    "and report only that one; pdwiz reports them all)\n");
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
		int	 role = slot_role(cat->nopts, f->opt[i]);
		int	 o = slot_opt(cat->nopts, f->opt[i]);
		char	*key = xasprintf("%s%s%s", role >= 0 ?
		    role_name((enum role)role) : "", role >= 0 ? "." : "",
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
json_commands(struct buf *b, const struct check *ck, bool *first)
{
	size_t	i;

	for (i = 0; i < ck->ncmds; i++) {
		const struct checked	*c = &ck->cmds[i];

		buf_puts(b, *first ? "{\"file\":" : ",{\"file\":");
		*first = false;
		json_str(b, ck->name);
		buf_printf(b, ",\"index\":%zu,\"line\":%d,\"kind\":", i,
		    c->line);
		json_str(b, c->kind == SH_ROUTER ? "router" : c->kind == -1 ?
		    "config" : "server");
		buf_puts(b, ",\"mode\":");
		json_str(b, c->mode);
		buf_puts(b, ",\"command\":");
		json_str(b, c->text);
		buf_putc(b, '}');
	}
}

void
check_json_source(struct buf *b, const struct rule *r)
{
	if (r == NULL || r->src_file == NULL) {
		buf_puts(b, "null");
		return;
	}
	buf_puts(b, "{\"file\":");
	json_str(b, r->src_file);
	buf_puts(b, ",\"function\":");
	json_str(b, r->src_func ? r->src_func : "");
	buf_puts(b, ",\"commit\":");
	json_str(b, r->src_commit ? r->src_commit : "");
	buf_puts(b, ",\"stage\":");
	json_str(b, stage_name(r->stage));
	buf_putc(b, '}');
}

static void
json_diag(struct buf *b, const struct check *ck, const struct diag *d)
{
	const struct rule	*r = d->rule;
	size_t			 j, shown;

	buf_puts(b, "{\"file\":");
	json_str(b, ck->name);
	buf_puts(b, ",\"rule\":");
	json_str(b, d->id);
	buf_puts(b, ",\"severity\":");
	json_str(b, severity_name(d->sev));
	buf_puts(b, ",\"message\":");
	json_str(b, d->msg);
	if (d->note != NULL) {
		buf_puts(b, ",\"note\":");
		json_str(b, d->note);
	}
	if (d->hint != NULL) {
		buf_puts(b, ",\"hint\":");
		json_str(b, d->hint);
	}
	buf_puts(b, ",\"explanation\":");
	if (r != NULL && r->explain != NULL)
		json_str(b, r->explain);
	else
		buf_puts(b, "null");
	buf_puts(b, ",\"fixes\":[");
	for (j = 0, shown = 0; r != NULL && j < r->nfixes; j++) {
		if (!diag_fix_ok(d, j))
			continue;
		if (shown++ > 0)
			buf_putc(b, ',');
		json_fix(b, ck->cat, &r->fixes[j]);
	}
	buf_puts(b, "],\"source\":");
	check_json_source(b, r);
	buf_printf(b, ",\"command\":%d,\"line\":%d,\"column\":%d", d->cmd,
	    d->line, d->col);
	if (d->opt >= 0 && ck->cat->opts[d->opt].kind != OK_FACT) {
		buf_puts(b, ",\"option\":");
		json_str(b, ck->cat->opts[d->opt].name);
	}
	if (d->figures != NULL) {	/* a JSON object (fit_facts.c) */
		buf_puts(b, ",\"estimate\":");
		buf_puts(b, d->figures);
	}
	buf_putc(b, '}');
}

/* A file that could not be checked: its reason as an error diagnostic at
 * the line and column the reason names. */
static void
json_failure(struct buf *b, const struct check *ck)
{
	const char	*msg = ck->why.len > 0 ? ck->why.s :
	    "pdwiz check: nothing could be checked";
	int		 line, col;

	check_message_pos(ck->name, msg, &line, &col);
	buf_puts(b, "{\"file\":");
	if (ck->name != NULL)
		json_str(b, ck->name);
	else
		buf_puts(b, "null");
	buf_puts(b, ",\"rule\":");
	json_str(b, ck->fail_id != NULL ? ck->fail_id : "input");
	buf_puts(b, ",\"severity\":\"error\",\"message\":");
	json_str(b, msg);
	buf_printf(b, ",\"explanation\":null,\"fixes\":[],\"source\":null,"
	    "\"command\":-1,\"line\":%d,\"column\":%d}", line, col);
}

static const char *
status_name(enum check_status s)
{
	return s == CK_CHECKED ? "checked" : s == CK_NOTHING ? "nothing" :
	    "unusable";
}

/*
 * One document for every input (share/check-json.md): the version of its
 * shape, the totals, one entry per file, and every command and
 * diagnostic with the file it is in.
 */
void
check_print_json(const struct report *r)
{
	struct buf	b = { 0 };
	size_t		i, j;
	bool		first;

	buf_printf(&b, "{\"version\":%d,\"valid\":%s,\"file\":", CHECK_JSON_VERSION,
	    r->nerrors > 0 || r->nfailed > 0 ? "false" : "true");
	if (r->n == 1 && r->f[0]->name != NULL)
		json_str(&b, r->f[0]->name);
	else
		buf_puts(&b, "null");
	buf_printf(&b, ",\"summary\":{\"errors\":%zu,\"warnings\":%zu,"
	    "\"unknown\":%zu,\"overrides\":%zu,\"files\":%zu,\"checked\":%zu,"
	    "\"nothing\":%zu,\"unusable\":%zu},\"files\":[",
	    r->nerrors + r->nfailed, r->nwarnings, r->nunknown,
	    r->noverrides, r->n, r->nchecked, r->nnothing, r->nfailed);
	for (i = 0; i < r->n; i++) {
		const struct check	*ck = r->f[i];

		buf_puts(&b, i > 0 ? ",{\"file\":" : "{\"file\":");
		if (ck->name != NULL)
			json_str(&b, ck->name);
		else
			buf_puts(&b, "null");
		buf_puts(&b, ",\"status\":");
		json_str(&b, status_name(ck->status));
		if (ck->status != CK_CHECKED) {
			buf_puts(&b, ",\"reason\":");
			json_str(&b, ck->why.len > 0 ? ck->why.s : "");
		}
		buf_printf(&b, ",\"commands\":%zu,\"errors\":%zu,"
		    "\"warnings\":%zu,\"unknown\":%zu,\"suppressed\":%zu}",
		    ck->ncmds, ck->all.nerrors + (ck->status == CK_FAILED),
		    ck->all.nwarnings, ck->all.nunknown, ck->nsuppressed);
	}
	buf_puts(&b, "],\"commands\":[");
	first = true;
	for (i = 0; i < r->n; i++)
		json_commands(&b, r->f[i], &first);
	buf_puts(&b, "],\"diagnostics\":[");
	first = true;
	for (i = 0; i < r->n; i++) {
		const struct check	*ck = r->f[i];

		if (ck->status == CK_FAILED) {
			if (!first)
				buf_putc(&b, ',');
			first = false;
			json_failure(&b, ck);
		}
		for (j = 0; j < ck->all.n; j++) {
			if (!check_listed(r, ck, &ck->all.d[j]))
				continue;
			if (!first)
				buf_putc(&b, ',');
			first = false;
			json_diag(&b, ck, &ck->all.d[j]);
		}
	}
	buf_puts(&b, "]");
	if (r->nfailed > 0)
		buf_puts(&b, ",\"unusable\":true");
	buf_puts(&b, "}\n");
	cli_puts(b.s);
	buf_free(&b);
}
