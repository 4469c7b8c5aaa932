/* argv.c - argparse-faithful parsing of SGLang server arguments. */
#define _POSIX_C_SOURCE 200809L
#include "io/argv.h"
#include "core/util.h"

#include <stdarg.h>
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

/*
 * Resolve a flag spelling, allowing unique prefixes like argparse does.
 * Returns the option, -1 if none, or -2 if the prefix is ambiguous (the
 * first candidates are then listed in amb).
 */
static int
find_flag(const struct catalog *cat, const char *flag, bool *negated,
    struct buf *amb)
{
	int	o = catalog_find_flag(cat, flag);
	size_t	i, a, len, matches = 0;
	int	found = -1;

	*negated = false;
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
				if (matches < 6)
					buf_printf(amb, "%s%s",
					    matches ? ", " : "", f);
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

/* The words being parsed and what parsing them has gathered so far. */
struct wparse {
	const struct catalog	*cat;
	const struct argword	*w;
	size_t			 n;
	struct config		*cfg;
	struct result		*out;
	struct buf		 extras;	/* unrecognized words */
	struct buf		 hints;		/* did you mean ...? */
	const struct argword	*first;		/* first unrecognized word */
	size_t			 nsug;		/* suggestions looked up */
};

static void
unrecognized(struct wparse *ps, const struct argword *w)
{
	if (ps->extras.len > 0)
		buf_putc(&ps->extras, ' ');
	buf_puts(&ps->extras, w->text);
	if (ps->first == NULL)
		ps->first = w;
	/* Suggestions for the first few only: each costs a catalog scan. */
	if (is_flagword(w->text) && ps->nsug++ < 16) {
		const char	*eq = strchr(w->text, '=');
		char		*flag = eq != NULL ? xstrndup(w->text,
		    (size_t)(eq - w->text)) : xstrdup(w->text);
		const char	*sug;

		if ((sug = catalog_suggest_flag(ps->cat, flag)) != NULL) {
			if (ps->hints.len > 0)
				buf_puts(&ps->hints, "; ");
			buf_printf(&ps->hints, "did you mean %s?", sug);
		}
		free(flag);
	}
}

/* An error about the word at w, with the message formatted. */
static void
word_err(struct result *out, const char *id, const struct argword *w,
    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
word_err(struct result *out, const char *id, const struct argword *w,
    const char *fmt, ...)
{
	va_list		ap;
	char		*msg;
	int		 n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0)
		return;
	msg = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	add_err(out, id, msg, NULL, w);
	free(msg);
}

/*
 * A T_LIST option at w[i]: its value after '=', or the words up to the
 * next flag. Returns the index of the next word to parse.
 */
static size_t
take_list(struct wparse *ps, size_t i, int o, const char *flag,
    const char *eq)
{
	const struct argword	*w = ps->w;
	struct buf		 b = { 0 };
	size_t			 count = 0;

	if (eq != NULL) {
		buf_puts(&b, eq + 1);
		count = 1;
	}
	for (i++; eq == NULL && i < ps->n && !is_flagword(w[i].text);
	    i++, count++) {
		if (count > 0)
			buf_putc(&b, '\x1f');
		buf_puts(&b, w[i].text);
	}
	if (count == 0)
		word_err(ps->out, "argparse-missing-value", &w[i - 1],
		    "argument %s: expected at least one argument", flag);
	else
		config_set(ps->cfg, o, (struct value){ .t = V_LIST,
		    .u.s = intern(b.s) }, (enum source)w[i - 1].src,
		    w[i - 1].line, w[i - 1].col);
	buf_free(&b);
	return i;
}

/*
 * An option with one value at w[i], after '=' or in the next word.
 * Returns the index of the next word to parse.
 */
static size_t
take_value(struct wparse *ps, size_t i, int o, const char *flag,
    const char *eq)
{
	const struct argword	*w = ps->w;
	struct argword		 valw;
	struct value		 v;

	if (eq != NULL) {
		valw = w[i];
		valw.text = eq + 1;
		i++;
	} else if (i + 1 < ps->n && !is_flagword(w[i + 1].text)) {
		valw = w[i + 1];
		i += 2;
	} else {
		word_err(ps->out, "argparse-missing-value", &w[i],
		    "argument %s: expected one argument", flag);
		return i + 1;
	}
	if (convert(&ps->cat->opts[o], flag, &valw, &v, ps->out) == 0) {
		valw.line = w[i - 1].line;
		set_from(ps->cfg, o, v, &valw);
		/* point at the flag, not the value */
		ps->cfg->s[o].col = eq ? valw.col : w[i - 2].col;
		ps->cfg->s[o].line = eq ? valw.line : w[i - 2].line;
	}
	return i;
}

/*
 * The flag word at w[i] (flag is its name, eq its '=' or NULL). Returns
 * the index of the next word to parse.
 */
static size_t
take_flag(struct wparse *ps, size_t i, const char *flag, const char *eq)
{
	const struct argword	*w = ps->w;
	const struct option	*op;
	struct buf		 amb = { 0 };
	bool			 neg;
	int			 o;

	o = find_flag(ps->cat, flag, &neg, &amb);
	if (o == -2)
		word_err(ps->out, "argparse-ambiguous", &w[i],
		    "ambiguous option: %s could match %s", flag, amb.s);
	buf_free(&amb);
	if (o == -2)
		return i + 1;
	if (o < 0) {
		unrecognized(ps, &w[i]);
		return i + 1;
	}
	op = &ps->cat->opts[o];
	if (op->deprecated != NULL && w[i].src == SRC_CLI) {
		struct buf	b = { 0 };

		buf_printf(&b, "%s is deprecated: %s", flag, op->deprecated);
		result_add(ps->out, "argparse-deprecated", SEV_WARNING, b.s,
		    NULL, w[i].line, w[i].col);
		buf_free(&b);
	}
	if (op->type == T_BOOL || op->type == T_BOOLOPT) {
		if (eq != NULL)
			word_err(ps->out, "argparse-explicit", &w[i],
			    "argument %s: ignored explicit argument '%s'",
			    flag, eq + 1);
		else
			set_from(ps->cfg, o, val_bool(!neg), &w[i]);
		return i + 1;
	}
	if (op->type == T_LIST)
		return take_list(ps, i, o, flag, eq);
	return take_value(ps, i, o, flag, eq);
}

/*
 * A word the shell expands at run time ("${ARGS[@]}", $EXTRA, a
 * placeholder) in place of options: it may be any number of options and
 * values, so what it holds could not be checked. Not "unrecognized".
 */
static void
unknown_words(struct result *out, const struct argword *w)
{
	struct buf	b = { 0 };

	buf_printf(&b, "could not check: '%s' is expanded when the script runs "
	    "(or is a placeholder); the options it stands for are unknown",
	    w->text);
	result_add(out, "argv-unknown-words", SEV_UNKNOWN, "words pdwiz cannot "
	    "see take the place of options here", NULL, w->line, w->col);
	out->d[out->n - 1].note = buf_steal(&b);
}

static int
parse_words(const struct catalog *cat, const struct argword *w, size_t n,
    struct config *cfg, struct result *out)
{
	struct wparse	 ps = { .cat = cat, .w = w, .n = n, .cfg = cfg,
			    .out = out };
	size_t		 i = 0, nerr = out->nerrors;

	while (i < n) {
		const char	*text = w[i].text, *eq;
		char		*flag;

		if (w[i].unresolved && !is_flagword(text)) {
			unknown_words(out, &w[i]);
			i++;
			continue;
		}
		if (!is_flagword(text) || strcmp(text, "--") == 0) {
			unrecognized(&ps, &w[i]);
			i++;
			continue;
		}
		eq = strncmp(text, "--", 2) == 0 ? strchr(text, '=') : NULL;
		flag = eq != NULL ? xstrndup(text, (size_t)(eq - text)) :
		    xstrdup(text);
		i = take_flag(&ps, i, flag, eq);
		free(flag);
	}
	if (ps.extras.len > 0) {
		struct buf	b = { 0 };

		buf_printf(&b, "unrecognized arguments: %s", ps.extras.s);
		add_err(out, "argparse-unrecognized", b.s,
		    ps.hints.len ? ps.hints.s : NULL, ps.first);
		buf_free(&b);
	}
	buf_free(&ps.extras);
	buf_free(&ps.hints);
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
