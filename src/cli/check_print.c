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

static void
print_diag(const struct check *ck, const struct diag *d)
{
	size_t	j, shown;

	printf("%s:%d: %s%s%s: %s [%s]\n", term_text(0, ck->name), d->line,
	    ck->color ? sev_color(d->sev) : "", severity_name(d->sev),
	    ck->color ? "\033[0m" : "",
	    term_text(1, d->sev == SEV_UNKNOWN ? d->note : d->msg), d->id);
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
check_print_text(const struct check *ck)
{
	const struct result	*a = &ck->all;
	size_t			 i;

	for (i = 0; i < a->n; i++)
		if (a->d[i].sev != SEV_OVERRIDE || ck->verbose)
			print_diag(ck, &a->d[i]);
	if (a->nerrors + a->nwarnings + a->nunknown > 0 || ck->verbose)
		printf("%zu error%s, %zu warning%s, %zu not checked, in %zu "
		    "command%s\n", a->nerrors, a->nerrors == 1 ? "" : "s",
		    a->nwarnings, a->nwarnings == 1 ? "" : "s", a->nunknown,
		    ck->ncmds, ck->ncmds == 1 ? "" : "s");
	if (a->nerrors > 1)
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
json_commands(struct buf *b, const struct check *ck)
{
	size_t	i;

	for (i = 0; i < ck->ncmds; i++) {
		const struct checked	*c = &ck->cmds[i];

		buf_printf(b, "%s{\"index\":%zu,\"line\":%d,\"kind\":", i ? "," :
		    "", i, c->line);
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

	buf_puts(b, "{\"rule\":");
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
	buf_putc(b, '}');
}

void
check_print_json(const struct check *ck)
{
	struct buf	b = { 0 };
	size_t		i;

	buf_printf(&b, "{\"valid\":%s,\"file\":", ck->all.nerrors ? "false" :
	    "true");
	json_str(&b, ck->name);
	buf_printf(&b, ",\"summary\":{\"errors\":%zu,\"warnings\":%zu,"
	    "\"unknown\":%zu,\"overrides\":%zu},\"commands\":[",
	    ck->all.nerrors, ck->all.nwarnings, ck->all.nunknown,
	    ck->all.noverrides);
	json_commands(&b, ck);
	buf_puts(&b, "],\"diagnostics\":[");
	for (i = 0; i < ck->all.n; i++) {
		if (i > 0)
			buf_putc(&b, ',');
		json_diag(&b, ck, &ck->all.d[i]);
	}
	buf_puts(&b, "]}\n");
	cli_puts(b.s);
	buf_free(&b);
}
