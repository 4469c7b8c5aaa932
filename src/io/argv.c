/* argv.c - argparse-faithful parsing of SGLang server arguments. */
#define _POSIX_C_SOURCE 200809L
#include "io/argv.h"
#include "core/util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static bool
looks_negative_number(const char *s)
{
	char	*end;

	if (s[0] != '-' || s[1] == '\0')
		return false;
	(void)strtod(s, &end);
	return *end == '\0';
}

static bool
is_flagword(const char *s)
{
	return s[0] == '-' && s[1] != '\0' && !looks_negative_number(s);
}

/* Resolve a flag spelling, allowing unique prefixes like argparse does. */
static int
find_flag(const struct catalog *cat, const char *flag, bool *negated,
    char *amb, size_t amblen)
{
	int	o = catalog_find_flag(cat, flag);
	size_t	i, a, len, matches = 0;
	int	found = -1;

	*negated = false;
	amb[0] = '\0';
	if (o >= 0)
		return o;
	/* --no-x for BooleanOptionalAction */
	if (strncmp(flag, "--no-", 5) == 0) {
		char	*pos = xasprintf("--%s", flag + 5);

		o = catalog_find_flag(cat, pos);
		free(pos);
		if (o >= 0 && cat->opts[o].type == T_BOOLOPT) {
			*negated = true;
			return o;
		}
	}
	if (strncmp(flag, "--", 2) != 0)
		return -1;
	len = strlen(flag);
	for (i = 0; i < cat->nopts; i++) {
		const struct option	*op = &cat->opts[i];

		if (op->kind != OK_FLAG)
			continue;
		for (a = 0; a <= op->naliases; a++) {
			const char	*f = a == 0 ? op->flag : op->aliases[a - 1];

			if (f != NULL && strncmp(f, flag, len) == 0) {
				if (matches < 6) {
					size_t	used = strlen(amb);

					snprintf(amb + used, amblen - used,
					    "%s%s", matches ? ", " : "", f);
				}
				matches++;
				found = (int)i;
			}
		}
	}
	if (matches == 1)
		return found;
	if (matches > 1)
		return -2;
	return -1;
}

static void
add_err(struct result *out, const char *id, const char *msg, const char *hint,
    const struct argword *w)
{
	result_add(out, id, SEV_ERROR, msg, hint, w ? w->line : 0,
	    w ? w->col : 0);
}

static void
choices_text(struct buf *b, const struct option *o)
{
	size_t	i;

	for (i = 0; i < o->nchoices; i++)
		buf_printf(b, "%s'%s'", i ? ", " : "", o->choices[i]);
}

/* Convert and check one value; returns 0 or -1 (error added). */
static int
convert(const struct option *o, const char *flag, const struct argword *w,
    struct value *v, struct result *out)
{
	struct buf	b = { 0 };
	size_t		i;

	if (w->unresolved) {
		/* ${VAR} pdwiz can't expand: free-form strings stay text,
		 * anything typed is unknown. */
		if (o->type == T_STR && o->nchoices == 0)
			*v = val_str(w->text);
		else
			*v = VAL_UNKNOWN;
		return 0;
	}
	if (val_parse(o->type == T_BOOLOPT ? T_STR : o->type, w->text, v) != 0) {
		buf_printf(&b, "argument %s: invalid %s value: '%s'", flag,
		    o->type == T_INT ? "int" : "float", w->text);
		add_err(out, "argparse-type", b.s, NULL, w);
		buf_free(&b);
		return -1;
	}
	if (o->nchoices > 0) {
		for (i = 0; i < o->nchoices; i++)
			if (strcmp(o->choices[i], w->text) == 0)
				break;
		if (i == o->nchoices) {
			buf_printf(&b, "argument %s: invalid choice: '%s' "
			    "(choose from ", flag, w->text);
			choices_text(&b, o);
			buf_putc(&b, ')');
			add_err(out, "argparse-choice", b.s, NULL, w);
			buf_free(&b);
			return -1;
		}
	}
	return 0;
}

static void
set_from(struct config *cfg, int o, struct value v, const struct argword *w)
{
	config_set(cfg, o, v, (enum source)w->src, w->line, w->col);
}

static void
unrecognized(const struct catalog *cat, struct buf *extras,
    const struct argword **first, struct buf *hints, size_t *nsug,
    const struct argword *w)
{
	if (extras->len > 0)
		buf_putc(extras, ' ');
	buf_puts(extras, w->text);
	if (*first == NULL)
		*first = w;
	/* Suggestions for the first few only: each costs a catalog scan. */
	if (is_flagword(w->text) && (*nsug)++ < 16) {
		char		 flag[256];
		const char	*eq = strchr(w->text, '=');
		const char	*sug;

		snprintf(flag, sizeof flag, "%.*s",
		    eq ? (int)(eq - w->text) : (int)strlen(w->text), w->text);
		if ((sug = catalog_suggest_flag(cat, flag)) != NULL) {
			if (hints->len > 0)
				buf_puts(hints, "; ");
			buf_printf(hints, "did you mean %s?", sug);
		}
	}
}

static int
parse_words(const struct catalog *cat, const struct argword *w, size_t n,
    struct config *cfg, struct result *out)
{
	struct buf		 extras = { 0 }, hints = { 0 };
	const struct argword	*first = NULL;
	size_t			 i = 0, nerr = out->nerrors, nsug = 0;
	char			 amb[512];

	while (i < n) {
		const char	*text = w[i].text;
		char		 flag[256];
		const char	*eq;
		bool		 neg;
		int		 o;
		const struct option *op;
		struct value	 v;
		struct argword	 valw;

		if (!is_flagword(text) || strcmp(text, "--") == 0) {
			unrecognized(cat, &extras, &first, &hints, &nsug,
			    &w[i]);
			i++;
			continue;
		}
		eq = strncmp(text, "--", 2) == 0 ? strchr(text, '=') : NULL;
		snprintf(flag, sizeof flag, "%.*s",
		    eq ? (int)(eq - text) : (int)strlen(text), text);
		o = find_flag(cat, flag, &neg, amb, sizeof amb);
		if (o == -2) {
			struct buf	b = { 0 };

			buf_printf(&b, "ambiguous option: %s could match %s",
			    flag, amb);
			add_err(out, "argparse-ambiguous", b.s, NULL, &w[i]);
			buf_free(&b);
			i++;
			continue;
		}
		if (o < 0) {
			unrecognized(cat, &extras, &first, &hints, &nsug,
			    &w[i]);
			i++;
			continue;
		}
		op = &cat->opts[o];
		if (op->deprecated != NULL && w[i].src == SRC_CLI) {
			struct buf	b = { 0 };

			buf_printf(&b, "%s is deprecated: %s", flag,
			    op->deprecated);
			result_add(out, "argparse-deprecated", SEV_WARNING, b.s,
			    NULL, w[i].line, w[i].col);
			buf_free(&b);
		}
		if (op->type == T_BOOL || op->type == T_BOOLOPT) {
			if (eq != NULL) {
				struct buf	b = { 0 };

				buf_printf(&b, "argument %s: ignored explicit "
				    "argument '%s'", flag, eq + 1);
				add_err(out, "argparse-explicit", b.s, NULL,
				    &w[i]);
				buf_free(&b);
			} else
				set_from(cfg, o, val_bool(!neg), &w[i]);
			i++;
			continue;
		}
		if (op->type == T_LIST) {
			struct buf	b = { 0 };
			size_t		count = 0;

			if (eq != NULL) {
				buf_puts(&b, eq + 1);
				count = 1;
			}
			for (i++; eq == NULL && i < n &&
			    !is_flagword(w[i].text); i++, count++) {
				if (count > 0)
					buf_putc(&b, '\x1f');
				buf_puts(&b, w[i].text);
			}
			if (eq != NULL)
				i++;
			if (count == 0) {
				struct buf	m = { 0 };

				buf_printf(&m, "argument %s: expected at least "
				    "one argument", flag);
				add_err(out, "argparse-missing-value", m.s, NULL,
				    &w[i - 1]);
				buf_free(&m);
			} else
				config_set(cfg, o, (struct value){ .t = V_LIST,
				    .u.s = intern(b.s) }, (enum source)w[i - 1].src,
				    w[i - 1].line, w[i - 1].col);
			buf_free(&b);
			continue;
		}
		if (eq != NULL) {
			valw = w[i];
			valw.text = eq + 1;
			i++;
		} else if (i + 1 < n && !is_flagword(w[i + 1].text)) {
			valw = w[i + 1];
			i += 2;
		} else {
			struct buf	b = { 0 };

			buf_printf(&b, "argument %s: expected one argument",
			    flag);
			add_err(out, "argparse-missing-value", b.s, NULL, &w[i]);
			buf_free(&b);
			i++;
			continue;
		}
		if (convert(op, flag, &valw, &v, out) == 0) {
			valw.line = w[i - 1].line;
			set_from(cfg, o, v, &valw);
			/* point at the flag, not the value */
			cfg->s[o].col = eq ? valw.col : w[i - 2].col;
			cfg->s[o].line = eq ? valw.line : w[i - 2].line;
		}
	}
	if (extras.len > 0) {
		struct buf	b = { 0 };

		buf_printf(&b, "unrecognized arguments: %s", extras.s);
		add_err(out, "argparse-unrecognized", b.s,
		    hints.len ? hints.s : NULL, first);
		buf_free(&b);
	}
	buf_free(&extras);
	buf_free(&hints);
	return (int)(out->nerrors - nerr);
}

int
argv_parse(const struct catalog *cat, const struct argword *w, size_t n,
    struct config *cfg, struct result *out, const char *base_dir)
{
	struct argword	*all = NULL, *cw = NULL;
	size_t		 nall = 0, ncw = 0, i, nconfig = 0;
	size_t		 nerr = out->nerrors;
	int		 mo;

	/* Find --config FILE like SGLang's merger: only one allowed. */
	for (i = 0; i < n; i++) {
		const char	*path = NULL;
		char		*full;

		if (strcmp(w[i].text, "--config") == 0) {
			if (i + 1 >= n || is_flagword(w[i + 1].text)) {
				add_err(out, "config-missing-path",
				    "No config file specified after --config flag!",
				    NULL, &w[i]);
				continue;
			}
			path = w[i + 1].text;
		} else if (strncmp(w[i].text, "--config=", 9) == 0)
			path = w[i].text + 9;
		else
			continue;
		if (++nconfig > 1) {
			add_err(out, "config-multiple",
			    "Multiple config files specified! Only one allowed.",
			    NULL, &w[i]);
			continue;
		}
		if (path[0] == '/' || base_dir == NULL)
			full = xstrdup(path);
		else
			full = xasprintf("%s/%s", base_dir, path);
		if (sgconfig_read(cat, full, &cw, &ncw, out) != 0) {
			free(full);
			continue;
		}
		free(full);
	}
	all = xcalloc(n + ncw + 1, sizeof *all);
	for (i = 0; i < ncw; i++)
		all[nall++] = cw[i];
	for (i = 0; i < n; i++) {
		if (strcmp(w[i].text, "--config") == 0) {
			i++;
			continue;
		}
		if (strncmp(w[i].text, "--config=", 9) == 0)
			continue;
		all[nall++] = w[i];
	}
	parse_words(cat, all, nall, cfg, out);
	free(all);
	argwords_free(cw, ncw);
	mo = catalog_find(cat, "model_path");
	if (mo >= 0 && cfg->s[mo].v.t == V_NULL)
		add_err(out, "argparse-required",
		    "the following arguments are required: --model-path", NULL,
		    n > 0 ? &w[0] : NULL);
	return (int)(out->nerrors - nerr);
}

int
env_apply(const struct catalog *cat, const struct env_entry *e, size_t n,
    struct config *cfg, struct result *out)
{
	size_t	i, nerr = out->nerrors;

	for (i = 0; i < n; i++) {
		int			 o = catalog_find(cat, e[i].name);
		const struct option	*op;
		struct value		 v;

		if (o < 0 || cat->opts[o].kind != OK_ENV)
			continue;
		op = &cat->opts[o];
		if (e[i].unresolved) {
			v = op->type == T_STR ? val_str(e[i].value) : VAL_UNKNOWN;
		} else if (val_parse(op->type, e[i].value, &v) != 0) {
			struct buf	b = { 0 };

			buf_printf(&b, "environment variable %s: invalid %s "
			    "value: '%s'", e[i].name, op->type == T_INT ? "int" :
			    op->type == T_FLOAT ? "float" : "boolean",
			    e[i].value);
			result_add(out, "env-type", SEV_ERROR, b.s, NULL,
			    e[i].line, e[i].col);
			buf_free(&b);
			continue;
		}
		config_set(cfg, o, v, SRC_ENV, e[i].line, e[i].col);
	}
	return (int)(out->nerrors - nerr);
}

void
argwords_free(struct argword *w, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free((char *)w[i].text);
	free(w);
}
