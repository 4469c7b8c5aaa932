/*
 * check_formats.c - `pdwiz check` for machines other than a JSON reader:
 * SARIF 2.1.0 for code-scanning views, GitHub workflow annotations, and
 * the one document every machine format prints when the input could not
 * be checked at all (exit 2).
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/check.h"
#include "cli/cli.h"
#include "core/describe.h"
#include "core/util.h"
#include "io/json.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef PDWIZ_VERSION
#error "PDWIZ_VERSION comes from the file VERSION (the Makefile)"
#endif

void
check_message_pos(const char *name, const char *msg, int *line, int *col)
{
	size_t		 n = name != NULL ? strlen(name) : 0;
	const char	*p;

	*line = *col = 0;
	if (n == 0 || strncmp(msg, name, n) != 0 || msg[n] != ':' ||
	    !isdigit((unsigned char)msg[n + 1]))
		return;
	*line = atoi(msg + n + 1);
	for (p = msg + n + 1; isdigit((unsigned char)*p); p++)
		;
	if (*p == ':' && isdigit((unsigned char)p[1]))
		*col = atoi(p + 1);
}

/* ---- SARIF ---- */

static const char *
sarif_level(enum severity s)
{
	return s == SEV_ERROR ? "error" : s == SEV_WARNING ? "warning" :
	    "note";
}

/* A path as a URI reference: bytes other than unreserved ones and '/'
 * percent-encoded (a file "a b#1.sh" is "a%20b%231.sh"). */
static void
uri_str(struct buf *b, const char *path)
{
	struct buf		 u = { 0 };
	const unsigned char	*p;

	buf_add(&u, "", 0);
	for (p = (const unsigned char *)path; *p != '\0'; p++)
		if (isalnum(*p) || strchr("-._~/", *p) != NULL)
			buf_putc(&u, (char)*p);
		else
			buf_printf(&u, "%%%02X", *p);
	json_str(b, u.s);
	buf_free(&u);
}

static void
sarif_location(struct buf *b, const char *uri, int line, int col)
{
	if (uri == NULL)
		return;
	buf_puts(b, ",\"locations\":[{\"physicalLocation\":{"
	    "\"artifactLocation\":{\"uri\":");
	uri_str(b, uri);
	buf_printf(b, "},\"region\":{\"startLine\":%d", line > 0 ? line : 1);
	if (col > 0)
		buf_printf(b, ",\"startColumn\":%d", col);
	buf_puts(b, "}}}]");
}

/* uri: the file checked; standard input and a command line are named so
 * (--stdin-filename names standard input). */
static const char *
artifact(const struct check *ck)
{
	if (ck->name == NULL)
		return NULL;
	if (strcmp(ck->name, "<stdin>") == 0)
		return "stdin";
	if (strcmp(ck->name, "<command>") == 0)
		return "command-line";
	return ck->name;
}

/* A workflow annotation's file: none for standard input or a command
 * line (without --stdin-filename). */
static const char *
gh_file(const struct check *ck)
{
	return ck->name != NULL && ck->name[0] != '<' ? ck->name : NULL;
}

/* Was rule r shown before d (index i of file fi)? */
static bool
seen_rule(const struct report *r, size_t fi, size_t i, const struct rule *ru)
{
	size_t	f, j;

	for (f = 0; f <= fi; f++)
		for (j = 0; j < (f < fi ? r->f[f]->all.n : i); j++)
			if (r->f[f]->all.d[j].rule == ru &&
			    check_listed(r, r->f[f], &r->f[f]->all.d[j]))
				return true;
	return false;
}

/* The rules that fired, once each, with their explanation and source:
 * help is the explanation and `pdwiz explain`, helpUri the SGLang source
 * the rule cites. */
static void
sarif_rules(struct buf *b, const struct report *rep)
{
	size_t	f, i, n = 0;

	for (f = 0; f < rep->n; f++)
		for (i = 0; i < rep->f[f]->all.n; i++) {
			const struct diag	*d = &rep->f[f]->all.d[i];
			const struct rule	*r = d->rule;

			if (r == NULL || !check_listed(rep, rep->f[f], d) ||
			    seen_rule(rep, f, i, r))
				continue;
			buf_puts(b, n++ ? ",{\"id\":" : "{\"id\":");
			json_str(b, r->id);
			buf_puts(b, ",\"shortDescription\":{\"text\":");
			json_str(b, r->message_src);
			buf_puts(b, "}");
			if (r->explain != NULL) {
				struct buf	h = { 0 };

				buf_puts(b, ",\"fullDescription\":{\"text\":");
				json_str(b, r->explain);
				buf_printf(&h, "%s\n\nMore: pdwiz explain %s",
				    r->explain, r->id);
				buf_puts(b, "},\"help\":{\"text\":");
				json_str(b, h.s);
				buf_puts(b, "}");
				buf_free(&h);
			}
			if (r->src_file != NULL && r->src_commit != NULL &&
			    r->src_commit[0] != '\0') {
				struct buf	u = { 0 };

				buf_printf(&u, "https://github.com/sgl-project/"
				    "sglang/blob/%s/%s", r->src_commit,
				    r->src_file);
				buf_puts(b, ",\"helpUri\":");
				json_str(b, u.s);
				buf_free(&u);
			}
			buf_puts(b, ",\"defaultConfiguration\":{\"level\":");
			json_str(b, sarif_level(r->sev));
			buf_puts(b, "}");
			if (r->src_file != NULL) {
				buf_puts(b, ",\"properties\":{\"sglangSource\":");
				check_json_source(b, r);
				buf_puts(b, "}");
			}
			buf_putc(b, '}');
		}
}

/* A could-not-check is an open question, not a failure: kind "open",
 * level "none" (SARIF 3.27.9). */
static void
sarif_result(struct buf *b, const struct check *ck, const struct diag *d,
    bool first)
{
	struct buf	text = { 0 };
	size_t		j;
	int		line = d->line;

	if (check_would_report(d))
		buf_printf(&text, "%s (would report: %s)", d->note, d->msg);
	else if (d->sev == SEV_UNKNOWN && d->note != NULL)
		buf_puts(&text, d->note);
	else
		buf_puts(&text, d->msg);
	for (j = 0; d->rule != NULL && j < d->rule->nfixes; j++) {
		struct buf	f = { 0 };

		if (!diag_fix_ok(d, j))
			continue;
		describe_fix(ck->cat, &d->rule->fixes[j], &f);
		buf_printf(&text, "\nfix: %s (%s)", d->rule->fixes[j].label,
		    f.s ? f.s : "");
		buf_free(&f);
	}
	buf_puts(b, first ? "{\"ruleId\":" : ",{\"ruleId\":");
	json_str(b, d->id);
	if (d->sev == SEV_UNKNOWN)
		buf_puts(b, ",\"kind\":\"open\",\"level\":\"none\"");
	else {
		buf_puts(b, ",\"level\":");
		json_str(b, sarif_level(d->sev));
	}
	buf_puts(b, ",\"message\":{\"text\":");
	json_str(b, text.s ? text.s : "");
	buf_puts(b, "}");
	if (line <= 0 && d->cmd >= 0 && (size_t)d->cmd < ck->ncmds)
		line = ck->cmds[d->cmd].line;
	sarif_location(b, artifact(ck), line, d->col);
	buf_putc(b, '}');
	buf_free(&text);
}

static void
sarif_open(struct buf *b)
{
	buf_puts(b, "{\"$schema\":\"https://json.schemastore.org/"
	    "sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":"
	    "{\"driver\":{\"name\":\"pdwiz\",\"version\":\"" PDWIZ_VERSION
	    "\",\"informationUri\":\"https://github.com/sgl-project/sglang\","
	    "\"rules\":[");
}

/* One run for every input: each file that could not be checked is a tool
 * notification at the place its reason names. */
void
check_print_sarif(const struct report *r)
{
	struct buf	b = { 0 };
	size_t		f, i;
	bool		first = true;

	sarif_open(&b);
	sarif_rules(&b, r);
	buf_puts(&b, "]}},\"results\":[");
	for (f = 0; f < r->n; f++)
		for (i = 0; i < r->f[f]->all.n; i++) {
			const struct diag	*d = &r->f[f]->all.d[i];

			if (!check_listed(r, r->f[f], d))
				continue;
			sarif_result(&b, r->f[f], d, first);
			first = false;
		}
	buf_printf(&b, "],\"invocations\":[{\"executionSuccessful\":%s",
	    r->nfailed > 0 ? "false" : "true");
	if (r->nfailed > 0) {
		buf_puts(&b, ",\"toolExecutionNotifications\":[");
		for (f = 0, first = true; f < r->n; f++) {
			const struct check	*ck = r->f[f];
			int			 line, col;

			if (ck->status != CK_FAILED)
				continue;
			check_message_pos(ck->name, ck->why.s != NULL ?
			    ck->why.s : "", &line, &col);
			buf_puts(&b, first ? "{" : ",{");
			first = false;
			buf_puts(&b, "\"level\":\"error\",\"descriptor\":{\"id\":");
			json_str(&b, ck->fail_id != NULL ? ck->fail_id : "input");
			buf_puts(&b, "},\"message\":{\"text\":");
			json_str(&b, ck->why.len > 0 ? ck->why.s :
			    "pdwiz check: nothing could be checked");
			buf_puts(&b, "}");
			if (ck->name != NULL && line > 0)
				sarif_location(&b, artifact(ck), line, col);
			buf_puts(&b, "}");
		}
		buf_puts(&b, "]");
	}
	buf_puts(&b, "}]}]}\n");
	cli_puts(b.s);
	buf_free(&b);
}

/* ---- GitHub workflow annotations ---- */

/* A command's data: %, CR and LF escaped; in a property also ':' and ','. */
static void
gh_escape(struct buf *b, const char *s, bool property)
{
	for (; *s != '\0'; s++) {
		if (*s == '%')
			buf_puts(b, "%25");
		else if (*s == '\r')
			buf_puts(b, "%0D");
		else if (*s == '\n')
			buf_puts(b, "%0A");
		else if (property && *s == ':')
			buf_puts(b, "%3A");
		else if (property && *s == ',')
			buf_puts(b, "%2C");
		else
			buf_putc(b, *s);
	}
}

static void
gh_line(struct buf *b, const char *level, const char *file, int line,
    int col, const char *title, const char *msg)
{
	buf_printf(b, "::%s ", level);
	if (file != NULL) {
		buf_puts(b, "file=");
		gh_escape(b, file, true);
		if (line > 0)
			buf_printf(b, ",line=%d", line);
		if (line > 0 && col > 0)
			buf_printf(b, ",col=%d", col);
		buf_putc(b, ',');
	}
	buf_puts(b, "title=");
	gh_escape(b, title, true);
	buf_puts(b, "::");
	gh_escape(b, msg, false);
	buf_putc(b, '\n');
}

/* The could-not-checks of a file not listed one by one: one notice, at
 * the first of them. */
static void
gh_unknown(struct buf *b, const struct report *r, const struct check *ck)
{
	struct buf	msg = { 0 };
	size_t		i, n = 0;
	int		line = 0;

	for (i = 0; i < ck->all.n; i++) {
		const struct diag	*d = &ck->all.d[i];

		if (d->sev != SEV_UNKNOWN || check_listed(r, ck, d))
			continue;
		if (n++ == 0)
			line = d->line;
		else if (n <= 6)
			buf_puts(&msg, ", ");
		if (n <= 5)
			buf_puts(&msg, d->id);
		else if (n == 6)
			buf_puts(&msg, "...");
	}
	if (n == 0)
		return;
	{
		struct buf	all = { 0 };

		buf_printf(&all, "%zu check%s could not be run for facts the "
		    "file does not state (%s); pdwiz check --show-unknown "
		    "lists each", n, n == 1 ? "" : "s", msg.s);
		gh_line(b, "notice", gh_file(ck), line, 0, "pdwiz not-checked",
		    all.s);
		buf_free(&all);
	}
	buf_free(&msg);
}

void
check_print_github(const struct report *r)
{
	struct buf	b = { 0 };
	size_t		f, i;

	for (f = 0; f < r->n; f++) {
		const struct check	*ck = r->f[f];

		if (ck->status == CK_FAILED) {
			int	line, col;

			check_message_pos(ck->name, ck->why.s != NULL ?
			    ck->why.s : "", &line, &col);
			gh_line(&b, "error", gh_file(ck), line, col,
			    "pdwiz: could not check", ck->why.len > 0 ?
			    ck->why.s : "pdwiz check: nothing could be checked");
			continue;
		}
		for (i = 0; i < ck->all.n; i++) {
			const struct diag	*d = &ck->all.d[i];
			struct buf		 title = { 0 }, msg = { 0 };

			if (!check_listed(r, ck, d))
				continue;
			buf_printf(&title, "pdwiz %s", d->id);
			if (check_would_report(d))
				buf_printf(&msg, "%s (would report: %s)",
				    d->note, d->msg);
			else if (d->sev == SEV_UNKNOWN && d->note != NULL)
				buf_puts(&msg, d->note);
			else if (d->sev == SEV_OVERRIDE)
				buf_printf(&msg, "override: %s", d->msg);
			else
				buf_puts(&msg, d->msg);
			gh_line(&b, d->sev == SEV_ERROR ? "error" : d->sev ==
			    SEV_WARNING ? "warning" : "notice", gh_file(ck),
			    d->line, d->col, title.s, msg.s);
			buf_free(&title);
			buf_free(&msg);
		}
		if (!r->quiet)
			gh_unknown(&b, r, ck);
	}
	if (!r->quiet)
		buf_printf(&b, "pdwiz: %zu error%s, %zu warning%s, %zu not "
		    "checked, in %zu command%s\n", r->nerrors, r->nerrors == 1 ?
		    "" : "s", r->nwarnings, r->nwarnings == 1 ? "" : "s",
		    r->nunknown, r->ncmds, r->ncmds == 1 ? "" : "s");
	cli_puts(b.s);
	buf_free(&b);
}
