/* cliopt.c - the option parser and the usage text of the command table. */
#define _POSIX_C_SOURCE 200809L
#include "cli/cliopt.h"
#include "core/util.h"

#include <stdarg.h>
#include <string.h>

#define HELP_COL	25	/* option help text starts here */

void
cliparse_init(struct cliparse *p, const struct clicmd *cmd, int argc,
    char **argv)
{
	memset(p, 0, sizeof *p);
	p->cmd = cmd;
	p->argc = argc;
	p->argv = argv;
	p->i = 1;
	p->dashdash = -1;
	p->errf = stderr;
}

static int
fail(struct cliparse *p, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
fail(struct cliparse *p, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(p->err, sizeof p->err, fmt, ap);
	va_end(ap);
	if (p->errf != NULL)
		fprintf(p->errf, "%s\n", p->err);
	return CLIOPT_ERROR;
}

static int
unknown(struct cliparse *p)
{
	const char	*c = p->cmd->name;

	if (c == NULL)
		return fail(p, "pdwiz: unknown option %s (see pdwiz --help)",
		    p->opt);
	return fail(p, "pdwiz %s: unknown option %s (see pdwiz %s --help)", c,
	    p->opt, c);
}

static const struct cliopt *
find_long(const struct cliopt *t, const char *name, size_t len)
{
	for (; t != NULL && t->id != 0; t++)
		if (t->name != NULL && strlen(t->name) == len &&
		    strncmp(t->name, name, len) == 0)
			return t;
	return NULL;
}

static const struct cliopt *
find_short(const struct cliopt *t, char c)
{
	for (; t != NULL && t->id != 0; t++)
		if (t->letter != 0 && t->letter == c)
			return t;
	return NULL;
}

/* The option's argument: attached (--name=v, -ov) or the next word. */
static int
take_arg(struct cliparse *p, const struct cliopt *o, const char *attached)
{
	if (attached != NULL)
		p->arg = attached;
	else if (p->i < p->argc)
		p->arg = p->argv[p->i++];
	else
		return fail(p, "pdwiz: %s needs a value", p->opt);
	return o->id;
}

static int
long_opt(struct cliparse *p, const char *w)
{
	const char		*name = w + 2, *eq = strchr(name, '=');
	size_t			 len = eq ? (size_t)(eq - name) : strlen(name);
	const struct cliopt	*o = find_long(p->cmd->opts, name, len);

	snprintf(p->opt, sizeof p->opt, "--%.*s", (int)len, name);
	if (o == NULL && eq == NULL && strcmp(name, "help") == 0)
		return CLIOPT_HELP;
	if (o == NULL)
		return unknown(p);
	if (o->arg == NULL) {
		if (eq != NULL)
			return fail(p, "pdwiz: %s takes no value", p->opt);
		return o->id;
	}
	return take_arg(p, o, eq ? eq + 1 : NULL);
}

static int
short_opt(struct cliparse *p, const char *w)
{
	const struct cliopt	*o = find_short(p->cmd->opts, w[1]);

	snprintf(p->opt, sizeof p->opt, "-%c", w[1]);
	if (o == NULL && w[1] == 'h' && w[2] == '\0')
		return CLIOPT_HELP;
	if (o == NULL || (o->arg == NULL && w[2] != '\0')) {
		snprintf(p->opt, sizeof p->opt, "%s", w);
		return unknown(p);
	}
	if (o->arg == NULL)
		return o->id;
	return take_arg(p, o, w[2] != '\0' ? w + 2 : NULL);
}

int
cliparse_next(struct cliparse *p)
{
	const char	*w;

	p->arg = NULL;
	p->opt[0] = '\0';
	if (p->i >= p->argc)
		return CLIOPT_END;
	w = p->argv[p->i++];
	if (p->dashdash < 0 && strcmp(w, "--") == 0) {
		p->dashdash = p->i;
		if (p->i >= p->argc)
			return CLIOPT_END;
		w = p->argv[p->i++];
	} else if (p->dashdash < 0 && w[0] == '-' && w[1] == '-')
		return long_opt(p, w);
	else if (p->dashdash < 0 && w[0] == '-' && w[1] != '\0')
		return short_opt(p, w);
	p->arg = w;
	return CLIOPT_OPERAND;
}

int
cli_choice(const char *s, const char *const *choices)
{
	int	i;

	for (i = 0; choices[i] != NULL; i++)
		if (strcmp(s, choices[i]) == 0)
			return i;
	return -1;
}

static size_t
nlisted(const struct cliopt *t)
{
	size_t	n = 0;

	for (; t != NULL && t->id != 0; t++)
		if (t->help != NULL)
			n++;
	return n;
}

/* " --format FMT" or " [-o DIR]": how an option shows in a synopsis. */
static void
synopsis_opt(struct buf *b, const struct cliopt *o)
{
	bool	req = (o->flags & CLIOPT_REQUIRED) != 0;

	buf_puts(b, req ? " " : " [");
	if (o->letter != 0)
		buf_printf(b, "-%c", o->letter);
	else
		buf_printf(b, "--%s", o->name);
	if (o->arg != NULL)
		buf_printf(b, " %s", o->arg);
	if (!req)
		buf_putc(b, ']');
}

static void
synopsis_text(struct buf *b, const struct clicmd *cmd, const char *operands)
{
	const struct cliopt	*o;

	buf_puts(b, "pdwiz");
	if (cmd->name != NULL)
		buf_printf(b, " %s", cmd->name);
	if ((cmd->flags & CLICMD_PLAIN) == 0 && nlisted(cmd->opts) > 3)
		buf_puts(b, " [options]");
	else if ((cmd->flags & CLICMD_PLAIN) == 0)
		for (o = cmd->opts; o != NULL && o->id != 0; o++)
			if (o->help != NULL)
				synopsis_opt(b, o);
	if (operands != NULL && *operands != '\0')
		buf_printf(b, " %s", operands);
}

void
cli_synopsis(FILE *f, const struct clicmd *cmd, bool first, int sumcol)
{
	size_t	i;

	for (i = 0; i < 2; i++) {
		struct buf	b = { 0 };
		const char	*lead = first && i == 0 ? "usage: " : "       ";

		if (i > 0 && cmd->operands[i] == NULL)
			break;
		buf_puts(&b, lead);
		synopsis_text(&b, cmd, cmd->operands[i]);
		if (i == 0 && sumcol > 0 && cmd->summary != NULL) {
			if (b.len + 2 <= (size_t)sumcol)
				buf_printf(&b, "%*s%s", (int)((size_t)sumcol -
				    b.len), "", cmd->summary);
			else
				buf_printf(&b, "\n%*s%s", sumcol, "",
				    cmd->summary);
		}
		fprintf(f, "%s\n", b.s);
		buf_free(&b);
	}
}

void
cli_options(FILE *f, const struct clicmd *cmd)
{
	const struct cliopt	*o;

	for (o = cmd->opts; o != NULL && o->id != 0; o++) {
		struct buf	b = { 0 };

		if (o->help == NULL)
			continue;
		buf_puts(&b, "  ");
		if (o->letter != 0 && o->name != NULL)
			buf_printf(&b, "-%c, --%s", o->letter, o->name);
		else if (o->letter != 0)
			buf_printf(&b, "-%c", o->letter);
		else
			buf_printf(&b, "--%s", o->name);
		if (o->arg != NULL)
			buf_printf(&b, " %s", o->arg);
		if (b.len < HELP_COL)
			buf_printf(&b, "%*s", (int)(HELP_COL - b.len), "");
		else
			buf_printf(&b, "\n%*s", HELP_COL, "");
		fprintf(f, "%s%s\n", b.s, o->help);
		buf_free(&b);
	}
}

void
cli_usage(FILE *f, const struct clicmd *cmd)
{
	cli_synopsis(f, cmd, true, 0);
}

void
cli_help(FILE *f, const struct clicmd *cmd)
{
	cli_synopsis(f, cmd, true, 0);
	if (cmd->summary != NULL)
		fprintf(f, "\n%s\n", cmd->summary);
	if (nlisted(cmd->opts) > 0) {
		fputs("\noptions:\n", f);
		cli_options(f, cmd);
	}
}
