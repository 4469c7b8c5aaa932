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
#define PDWIZ_VERSION "0.1.0"
#endif

/* Where a message of the form "NAME:LINE[:COL]: ..." points; 0 unknown. */
static void
message_pos(const char *name, const char *msg, int *line, int *col)
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

static void
sarif_location(struct buf *b, const char *uri, int line, int col)
{
	if (uri == NULL || line <= 0)
		return;
	buf_puts(b, ",\"locations\":[{\"physicalLocation\":{"
	    "\"artifactLocation\":{\"uri\":");
	json_str(b, uri);
	buf_printf(b, "},\"region\":{\"startLine\":%d", line);
	if (col > 0)
		buf_printf(b, ",\"startColumn\":%d", col);
	buf_puts(b, "}}}]");
}

/* The rules that fired, once each, with their explanation and source. */
static void
sarif_rules(struct buf *b, const struct check *ck)
{
	size_t	i, j, n = 0;

	for (i = 0; i < ck->all.n; i++) {
		const struct rule	*r = ck->all.d[i].rule;

		if (r == NULL || (ck->all.d[i].sev == SEV_OVERRIDE &&
		    !ck->verbose))
			continue;
		for (j = 0; j < i; j++)
			if (ck->all.d[j].rule == r && (ck->all.d[j].sev !=
			    SEV_OVERRIDE || ck->verbose))
				break;
		if (j < i)
			continue;
		buf_puts(b, n++ ? ",{\"id\":" : "{\"id\":");
		json_str(b, r->id);
		buf_puts(b, ",\"shortDescription\":{\"text\":");
		json_str(b, r->message_src);
		buf_puts(b, "}");
		if (r->explain != NULL) {
			buf_puts(b, ",\"fullDescription\":{\"text\":");
			json_str(b, r->explain);
			buf_puts(b, "}");
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

static void
sarif_result(struct buf *b, const struct check *ck, const struct diag *d,
    const char *uri, bool first)
{
	struct buf	text = { 0 };
	size_t		j;

	if (check_would_report(d))
		buf_printf(&text, "%s (would report: %s)", d->note, d->msg);
	else if (d->sev == SEV_UNKNOWN)
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
	buf_puts(b, ",\"level\":");
	json_str(b, sarif_level(d->sev));
	buf_puts(b, ",\"message\":{\"text\":");
	json_str(b, text.s ? text.s : "");
	buf_puts(b, "}");
	sarif_location(b, uri, d->line, d->col);
	buf_putc(b, '}');
	buf_free(&text);
}

/* uri: the file checked, or NULL for a command line / standard input. */
static const char *
artifact(const struct check *ck)
{
	return ck->name != NULL && ck->name[0] != '<' ? ck->name : NULL;
}

static void
sarif_open(struct buf *b)
{
	buf_puts(b, "{\"$schema\":\"https://json.schemastore.org/"
	    "sarif-2.1.0.json\",\"version\":\"2.1.0\",\"runs\":[{\"tool\":"
	    "{\"driver\":{\"name\":\"pdwiz\",\"version\":\"" PDWIZ_VERSION
	    "\",\"rules\":[");
}

void
check_print_sarif(const struct check *ck)
{
	struct buf	b = { 0 };
	size_t		i;
	bool		first = true;

	sarif_open(&b);
	sarif_rules(&b, ck);
	buf_puts(&b, "]}},\"results\":[");
	for (i = 0; i < ck->all.n; i++) {
		const struct diag	*d = &ck->all.d[i];

		if (d->sev == SEV_OVERRIDE && !ck->verbose)
			continue;
		sarif_result(&b, ck, d, artifact(ck), first);
		first = false;
	}
	buf_puts(&b, "],\"invocations\":[{\"executionSuccessful\":true}]}]}\n");
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

void
check_print_github(const struct check *ck)
{
	struct buf	b = { 0 };
	size_t		i;

	for (i = 0; i < ck->all.n; i++) {
		const struct diag	*d = &ck->all.d[i];
		struct buf		 title = { 0 }, msg = { 0 };

		if (d->sev == SEV_OVERRIDE && !ck->verbose)
			continue;
		buf_printf(&title, "pdwiz %s", d->id);
		if (check_would_report(d))
			buf_printf(&msg, "%s (would report: %s)", d->note,
			    d->msg);
		else if (d->sev == SEV_UNKNOWN)
			buf_puts(&msg, d->note);
		else
			buf_puts(&msg, d->msg);
		gh_line(&b, d->sev == SEV_ERROR ? "error" : d->sev ==
		    SEV_WARNING ? "warning" : "notice", artifact(ck), d->line,
		    d->col, title.s, msg.s);
		buf_free(&title);
		buf_free(&msg);
	}
	buf_printf(&b, "pdwiz: %zu error%s, %zu warning%s, %zu not checked, "
	    "in %zu command%s\n", ck->all.nerrors, ck->all.nerrors == 1 ? "" :
	    "s", ck->all.nwarnings, ck->all.nwarnings == 1 ? "" : "s",
	    ck->all.nunknown, ck->ncmds, ck->ncmds == 1 ? "" : "s");
	cli_puts(b.s);
	buf_free(&b);
}

/* ---- nothing could be checked ---- */

void
check_print_failure(const struct check *ck, enum check_format fmt,
    const char *id, const char *msg)
{
	struct buf	b = { 0 };
	int		line, col;

	message_pos(ck->name, msg, &line, &col);
	switch (fmt) {
	case FMT_JSON:
		buf_puts(&b, "{\"valid\":false,\"file\":");
		if (ck->name != NULL)
			json_str(&b, ck->name);
		else
			buf_puts(&b, "null");
		buf_puts(&b, ",\"summary\":{\"errors\":1,\"warnings\":0,"
		    "\"unknown\":0,\"overrides\":0},\"commands\":[],"
		    "\"diagnostics\":[{\"rule\":");
		json_str(&b, id);
		buf_puts(&b, ",\"severity\":\"error\",\"message\":");
		json_str(&b, msg);
		buf_printf(&b, ",\"explanation\":null,\"fixes\":[],"
		    "\"source\":null,\"command\":-1,\"line\":%d,\"column\":%d}],"
		    "\"unusable\":true}\n", line, col);
		break;
	case FMT_SARIF:
		sarif_open(&b);
		buf_puts(&b, "]}},\"results\":[],\"invocations\":[{"
		    "\"executionSuccessful\":false,"
		    "\"toolExecutionNotifications\":[{\"level\":\"error\","
		    "\"descriptor\":{\"id\":");
		json_str(&b, id);
		buf_puts(&b, "},\"message\":{\"text\":");
		json_str(&b, msg);
		buf_puts(&b, "}");
		sarif_location(&b, ck->name != NULL && ck->name[0] != '<' ?
		    ck->name : NULL, line, col);
		buf_puts(&b, "}]}]}]}\n");
		break;
	case FMT_GITHUB:
		gh_line(&b, "error", artifact(ck), line, col, "pdwiz: could not "
		    "check", msg);
		break;
	default:
		return;
	}
	cli_puts(b.s);
	buf_free(&b);
}
