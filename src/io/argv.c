/* argv.c - argparse-faithful parsing of SGLang server arguments. */
#define _POSIX_C_SOURCE 200809L
#include "io/argv.h"
#include "io/pyval.h"
#include "core/util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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

/*
 * argparse's _negative_number_matcher (CPython 3.13: '-\\.?\\d', matched at
 * the start; \\d is any Unicode decimal digit).
 */
static bool
looks_negative_number(const char *s)
{
	size_t	len;

	if (s[0] != '-')
		return false;
	s += 1 + (s[1] == '.');
	return py_digit(s, &len) >= 0;
}

/*
 * Whether argparse's _parse_optional takes the word for an option ('O')
 * rather than a value ('A'): it starts with '-' and is longer than that;
 * an option it names (exactly, before '=' or as a unique or ambiguous
 * prefix) decides first; then a word that looks like a negative number or
 * contains a space is a value.
 */
static bool
is_flagword(const struct catalog *cat, const char *s)
{
	const char	*eq;
	char		*flag;
	struct buf	 amb = { 0 };
	bool		 neg;
	int		 o;

	if (s[0] != '-' || s[1] == '\0')
		return false;
	if (!looks_negative_number(s) && strchr(s, ' ') == NULL)
		return true;
	eq = strchr(s, '=');
	flag = eq != NULL ? xstrndup(s, (size_t)(eq - s)) : xstrdup(s);
	o = s[1] == '-' || eq != NULL ? find_flag(cat, flag, &neg, &amb) :
	    catalog_find_flag(cat, s);
	free(flag);
	buf_free(&amb);
	return o >= 0 || o == -2;
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

/*
 * type=int and type=float as CPython's int() and float() convert a str
 * (Unicode digits, underscores between digits, surrounding whitespace,
 * inf/nan); other types as pdwiz reads them. 0, 1 for an int that does
 * not fit (*v unknown), -1 when Python raises ValueError.
 */
static int
py_convert(enum otype t, const char *s, struct value *v)
{
	long long	i;
	double		f;
	int		rc;

	if (t == T_INT) {
		if ((rc = py_int(s, &i)) == 0)
			*v = val_int(i);
		else if (rc > 0)
			*v = VAL_UNKNOWN;
		return rc;
	}
	if (t == T_FLOAT) {
		if (py_float(s, &f) != 0)
			return -1;
		*v = val_float(f);
		return 0;
	}
	return val_parse(t == T_BOOLOPT ? T_STR : t, s, v) == 0 ? 0 : -1;
}

/* argparse's "value in choices", on the converted value. */
static bool
choice_is(const struct option *o, const char *choice, const char *text,
    const struct value *v)
{
	struct value	c;

	if ((o->type == T_INT || o->type == T_FLOAT) &&
	    py_convert(o->type, choice, &c) == 0)
		return o->type == T_INT ? c.u.i == v->u.i : c.u.f == v->u.f;
	return strcmp(choice, text) == 0;
}

/*
 * Is the value among a release's choices, as the inventory lists them
 * ("'a', 'b'", "1, 2": Python's repr of each, by ", ")?
 */
static bool
release_choice(const struct option *o, const char *list, const char *text,
    const struct value *v)
{
	const char	*p = list;
	struct buf	 c = { 0 };
	bool		 hit = false;

	while (*p != '\0' && !hit) {
		c.len = 0;
		buf_puts(&c, "");
		if (*p == '\'' || *p == '"') {
			char	q = *p++;

			for (; *p != '\0' && *p != q; p++) {
				if (*p == '\\' && p[1] != '\0')
					p++;
				buf_putc(&c, *p);
			}
			if (*p == q)
				p++;
		} else {
			size_t	n = strcspn(p, ",");

			buf_add(&c, p, n);
			p += n;
		}
		hit = choice_is(o, c.s, text, v);
		while (*p == ',' || *p == ' ')
			p++;
	}
	buf_free(&c);
	return hit;
}

/*
 * Convert and check one value; returns 0 or -1 (error added). With ir
 * (the release being checked declares the flag so), its choices are the
 * release's: none, or its own list.
 */
static int
convert(const struct option *o, const char *flag, const struct argword *w,
    struct value *v, struct result *out, const struct flag_inv *ir)
{
	struct buf	b = { 0 };
	size_t		i;
	int		rc;

	if (w->unresolved) {
		/* ${VAR} pdwiz can't expand: free-form strings stay text,
		 * anything typed is unknown. */
		if (o->type == T_STR && o->nchoices == 0)
			*v = val_str(w->text);
		else
			*v = VAL_UNKNOWN;
		return 0;
	}
	if ((rc = py_convert(o->type, w->text, v)) < 0) {
		buf_printf(&b, "argument %s: invalid %s value: '%s'", flag,
		    o->type == T_INT ? "int" : "float", w->text);
		add_err(out, "argparse-type", b.s, NULL, w);
		buf_free(&b);
		return -1;
	}
	if (rc > 0)	/* an int past long long: what SGLang makes of it */
		return 0;
	if (ir != NULL && ir->choices != NULL &&
	    strcmp(ir->choices, "?") != 0) {
		if (!release_choice(o, ir->choices, w->text, v)) {
			buf_printf(&b, "argument %s: invalid choice: '%s' "
			    "(choose from %s)", flag, w->text, ir->choices);
			add_err(out, "argparse-choice", b.s, NULL, w);
			buf_free(&b);
			return -1;
		}
		return 0;
	}
	if (ir != NULL && ir->choices == NULL)
		return 0;
	if (o->nchoices > 0) {
		for (i = 0; i < o->nchoices; i++)
			if (choice_is(o, o->choices[i], w->text, v))
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
	int			 rel;		/* the inventory's release, or -1 */
	const struct flag_inv	*ir;		/* the flag being taken in it */
};

/* A Unicode dash that pastes and word processors put for '-' at s. */
static unsigned
dash_at(const char *s, size_t *len)
{
	static const unsigned	dashes[] = { 0x2010, 0x2011, 0x2012, 0x2013,
	    0x2014, 0x2015, 0x2212, 0xFE58, 0xFE63, 0xFF0D };
	const unsigned char	*u = (const unsigned char *)s;
	unsigned		 cp;
	size_t			 i;

	if (u[0] < 0xE0 || u[0] > 0xEF || (u[1] & 0xC0) != 0x80 ||
	    (u[2] & 0xC0) != 0x80)
		return 0;
	cp = (unsigned)(u[0] & 0x0F) << 12 | (unsigned)(u[1] & 0x3F) << 6 |
	    (u[2] & 0x3F);
	for (i = 0; i < sizeof dashes / sizeof dashes[0]; i++)
		if (dashes[i] == cp) {
			*len = 3;
			return cp;
		}
	return 0;
}

/*
 * A word that starts with pasted dashes (-tp-size with an en dash, em
 * dash or minus sign): the option it was meant to be, as a hint naming
 * the dash; 0 if it is no such word.
 */
static int
dash_hint(struct wparse *ps, const char *text)
{
	struct buf	 b = { 0 }, amb = { 0 };
	const char	*s = text, *eq;
	unsigned	 cp, first = 0;
	size_t		 len;
	char		*flag;
	bool		 neg;
	int		 o;

	for (;;) {
		if (*s == '-')
			len = 1, cp = '-';
		else if ((cp = dash_at(s, &len)) == 0)
			break;
		if (first == 0 && cp != '-')
			first = cp;
		s += len;
	}
	if (first == 0 || *s == '\0')
		return 0;
	eq = strchr(s, '=');
	/* one pasted dash often stands for both of "--" */
	buf_puts(&b, "--");
	buf_add(&b, s, eq ? (size_t)(eq - s) : strlen(s));
	flag = buf_steal(&b);
	o = find_flag(ps->cat, flag, &neg, &amb);
	buf_free(&amb);
	if (o >= 0) {
		if (ps->hints.len > 0)
			buf_puts(&ps->hints, "; ");
		buf_printf(&ps->hints, "did you mean %s? (the dash is U+%04X)",
		    catalog_find_flag(ps->cat, flag) >= 0 ? flag :
		    ps->cat->opts[o].flag, first);
	}
	free(flag);
	return o >= 0;
}

/* The flag name of a word ("--x=1" -> "--x"); owned. */
static char *
flag_name(const char *text)
{
	const char	*eq = strchr(text, '=');

	return eq != NULL ? xstrndup(text, (size_t)(eq - text)) :
	    xstrdup(text);
}

/*
 * An old flag this SGLang does not take stood for what its replacement
 * sets ("--enable-deepep-moe" for "--moe-a2a-backend deepep"): unless the
 * command sets that option itself, its value is unknown to the rules, not
 * SGLang's default (the author did not mean the default; SGLang stops at
 * the unrecognized flag before any rule).
 */
static void
stood_for(struct wparse *ps, const struct flag_hist *h,
    const struct argword *w)
{
	char	*flag;
	int	 o;

	if (h->replaced_by == NULL || strncmp(h->replaced_by, "--", 2) != 0)
		return;
	flag = xstrndup(h->replaced_by, strcspn(h->replaced_by, " ="));
	o = catalog_find_flag(ps->cat, flag);
	free(flag);
	if (o >= 0 && ps->cfg->s[o].src == SRC_DEFAULT)
		config_set(ps->cfg, o, VAL_UNKNOWN, SRC_DEFAULT, w->line,
		    w->col);
}

/*
 * The spelling the inventory knows a flag word by: the word's own, or for
 * a catalog option's unique prefix or --no-x, the spelling it stands for.
 * Owned.
 */
static char *
inv_spelling(const struct catalog *cat, const char *flag)
{
	struct buf		 amb = { 0 };
	const struct option	*op;
	bool			 neg;
	size_t			 a, len = strlen(flag);
	int			 o;

	if (catalog_find_flag(cat, flag) >= 0 ||
	    (o = find_flag(cat, flag, &neg, &amb)) < 0) {
		buf_free(&amb);
		return xstrdup(flag);
	}
	buf_free(&amb);
	if (neg)
		return xasprintf("--%s", flag + 5);
	op = &cat->opts[o];
	for (a = 0; a <= op->naliases; a++) {
		const char	*f = a == 0 ? op->flag : op->aliases[a - 1];

		if (f != NULL && strncmp(f, flag, len) == 0)
			return xstrdup(f);
	}
	return xstrdup(flag);
}

/*
 * The row of the flag the release being checked declares by the word
 * flag: exactly, through the catalog (--no-x), else as argparse takes a
 * unique prefix of the release's own flags. NULL when it declares none;
 * when several flags of different dests match, *amb lists them.
 */
static const struct flag_inv *
release_flag(const struct wparse *ps, const char *flag, struct buf *amb)
{
	const struct flag_history	*fh = ps->cat->hist;
	const struct flag_inv		*ir, *found = NULL;
	const char			*dests[8];
	char				*sp = inv_spelling(ps->cat, flag);
	size_t				 i, k, len = strlen(flag), n = 0;

	ir = flaginv_find(fh, sp, ps->rel);
	free(sp);
	if (ir != NULL || strncmp(flag, "--", 2) != 0)
		return ir;
	for (i = 0; i < fh->ninv; i++) {
		const struct flag_inv	*e = &fh->inv[i];

		if (e->lo > (uint32_t)ps->rel || e->hi < (uint32_t)ps->rel ||
		    strncmp(e->flag, flag, len) != 0)
			continue;
		/* spellings of one flag (one dest) are one match */
		for (k = 0; k < n && k < 8 && dests[k] != e->dest; k++)
			;
		if (k < n && k < 8)
			continue;
		if (n < 8)
			dests[n] = e->dest;
		if (n < 6)
			buf_printf(amb, "%s%s", n ? ", " : "", e->flag);
		n++;
		found = e;
	}
	if (n > 1)
		return NULL;
	amb->len = 0;
	if (amb->s != NULL)
		amb->s[0] = '\0';
	return found;
}

/*
 * Where the inventory has a flag the release being checked lacks: the
 * release it is declared from (the migration hint), or the last one that
 * declared it. NULL when no release of it has the flag; owned.
 */
static char *
inventory_hint(const struct wparse *ps, const char *flag)
{
	const struct flag_history	*fh = ps->cat->hist;
	char				 ls[SGVER_TEXT_MAX];
	char				*sp = inv_spelling(ps->cat, flag), *s;
	int				 earlier, later;

	flaginv_elsewhere(fh, sp, ps->rel, &earlier, &later);
	if (later >= 0 && (size_t)later < fh->ninv_rel)
		s = xasprintf("%s is declared from SGLang %s on", sp,
		    flaginv_name(fh, later, ls, sizeof ls));
	else if (later >= 0)
		s = xasprintf("%s is in no SGLang release up to %s, only in "
		    "main (which this catalog models)", sp,
		    flaginv_name(fh, (int)fh->ninv_rel - 1, ls, sizeof ls));
	else if (earlier >= 0)
		s = xasprintf("%s was declared up to SGLang %s", sp,
		    flaginv_name(fh, earlier, ls, sizeof ls));
	else
		s = NULL;
	free(sp);
	return s;
}

/*
 * The advice for an unrecognized word, as its hint: the inventory's
 * (a flag a newer release declares), else the flag history's.
 */
static bool
history_hint(struct wparse *ps, const struct argword *w)
{
	char			*flag = flag_name(w->text), *adv = NULL;
	const struct flag_hist	*h = flaghist_find(ps->cat, flag);
	int			 earlier, later;

	if (ps->rel >= 0 && strncmp(flag, "--", 2) == 0) {
		char	*sp = inv_spelling(ps->cat, flag);

		flaginv_elsewhere(ps->cat->hist, sp, ps->rel, &earlier,
		    &later);
		free(sp);
		if (later >= 0 || h == NULL || h->module)
			adv = inventory_hint(ps, flag);
	}
	free(flag);
	if (adv == NULL && (h == NULL || h->module))
		return false;
	if (h != NULL && !h->module)
		stood_for(ps, h, w);
	if (adv == NULL)
		adv = flaghist_advice(h, ps->cfg->sgver);
	if (ps->hints.len > 0)
		buf_puts(&ps->hints, "; ");
	buf_puts(&ps->hints, adv);
	free(adv);
	return true;
}

static void
unrecognized(struct wparse *ps, const struct argword *w)
{
	if (ps->extras.len > 0)
		buf_putc(&ps->extras, ' ');
	buf_puts(&ps->extras, w->text);
	if (ps->first == NULL)
		ps->first = w;
	if (history_hint(ps, w))
		return;
	if (ps->nsug < 16 && dash_hint(ps, w->text)) {
		ps->nsug++;
		return;
	}
	/* Suggestions for the first few only: each costs a catalog scan. */
	if (is_flagword(ps->cat, w->text) && ps->nsug++ < 16) {
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
	for (i++; eq == NULL && i < ps->n && !is_flagword(ps->cat, w[i].text);
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
	} else if (i + 1 < ps->n && !is_flagword(ps->cat, w[i + 1].text)) {
		valw = w[i + 1];
		i += 2;
	} else {
		word_err(ps->out, "argparse-missing-value", &w[i],
		    "argument %s: expected one argument", flag);
		return i + 1;
	}
	if (convert(&ps->cat->opts[o], flag, &valw, &v, ps->out, ps->ir) == 0) {
		valw.line = w[i - 1].line;
		set_from(ps->cfg, o, v, &valw);
		/* point at the flag, not the value */
		ps->cfg->s[o].col = eq ? valw.col : w[i - 2].col;
		ps->cfg->s[o].line = eq ? valw.line : w[i - 2].line;
	}
	return i;
}

/*
 * A flag the catalog does not have but the release being checked
 * declares (ir): SGLang accepts it, a note says no rule reads it, and
 * the words it takes are skipped. Returns the index of the next word.
 */
static size_t
inventory_flag(struct wparse *ps, size_t i, const char *flag,
    const char *eq, const struct flag_hist *h, const struct flag_inv *ir)
{
	const struct argword	*w = ps->w;
	char			 vs[SGVER_TEXT_MAX], *adv, *msg;

	adv = h != NULL && !h->module ? flaghist_advice(h, SGVER_UNKNOWN) :
	    NULL;
	msg = xasprintf("%s is accepted by SGLang %s, but this catalog does "
	    "not model it: no rule reads it", flag,
	    flaginv_name(ps->cat->hist, ps->rel, vs, sizeof vs));
	result_add(ps->out, "flag-history", SEV_NOTE, msg, adv, w[i].line,
	    w[i].col);
	free(msg);
	free(adv);
	if (eq != NULL || ir->nargs == '0')
		return i + 1;
	if (ir->nargs == '1' || ir->nargs == '?')
		return i + 1 < ps->n && !is_flagword(ps->cat, w[i + 1].text) ?
		    i + 2 : i + 1;
	for (i++; i < ps->n && !is_flagword(ps->cat, w[i].text); i++)
		;
	return i;
}

/*
 * A flag the catalog does not have, at w[i]. When the release being
 * checked has it (the flag history says so), SGLang accepts it: a note
 * says what became of it, and its value word is skipped; when that
 * release rejects it, SGLang's message is the error. Otherwise it is an
 * unrecognized argument. Returns the index of the next word.
 */
static size_t
old_flag(struct wparse *ps, size_t i, const char *flag, const char *eq)
{
	const struct argword	*w = ps->w;
	const struct flag_hist	*h = flaghist_find(ps->cat, flag);
	sgver_t			 v = ps->cfg->sgver;
	enum flag_state		 st = h != NULL && !h->module ?
	    flaghist_state(h, v) : FS_UNKNOWN;
	char			 vs[SGVER_TEXT_MAX], *adv, *msg;
	const struct flag_inv	*ir = NULL;

	if (ps->rel >= 0 && st != FS_REJECTED) {
		/* the release's own flags settle it */
		struct buf	amb = { 0 };

		ir = release_flag(ps, flag, &amb);
		if (ir == NULL && amb.len > 0)
			word_err(ps->out, "argparse-ambiguous", &w[i],
			    "ambiguous option: %s could match %s", flag, amb.s);
		else if (ir == NULL)
			unrecognized(ps, &w[i]);
		buf_free(&amb);
		return ir == NULL ? i + 1 :
		    inventory_flag(ps, i, flag, eq, h, ir);
	}
	if (st != FS_ACCEPTED && st != FS_REJECTED) {
		unrecognized(ps, &w[i]);
		return i + 1;
	}
	adv = flaghist_advice(h, SGVER_UNKNOWN);
	if (st == FS_REJECTED)
		add_err(ps->out, "flag-rejected", h->message != NULL ?
		    h->message : adv, adv, &w[i]);
	else {
		msg = xasprintf("%s is accepted by SGLang %s, but this catalog "
		    "does not model it: no rule reads it", flag,
		    sgver_format(v, vs, sizeof vs));
		result_add(ps->out, "flag-history", SEV_NOTE, msg, adv,
		    w[i].line, w[i].col);
		free(msg);
	}
	free(adv);
	if (eq == NULL && h->takes_value && i + 1 < ps->n &&
	    !is_flagword(ps->cat, w[i + 1].text))
		return i + 2;
	return i + 1;
}

/*
 * A flag the catalog has but the release being checked does not (it was
 * added later): unrecognized, as that release's argparse says, with the
 * history's advice. True when w[i] was taken so.
 */
static bool
newer_flag(struct wparse *ps, size_t i, const char *flag)
{
	const struct flag_hist	*h;

	/* without a release nothing is newer (and nothing is looked up) */
	if (ps->cfg->sgver == SGVER_UNKNOWN)
		return false;
	h = flaghist_find(ps->cat, flag);
	if (h == NULL || h->module || h->introduced == SGVER_UNKNOWN ||
	    ps->cfg->sgver >= h->introduced)
		return false;
	unrecognized(ps, &ps->w[i]);
	return true;
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
	if (o == -2 && ps->rel >= 0) {
		/* a prefix of several catalog flags: the release's own
		 * flags decide whether it is ambiguous there */
		const struct flag_inv	*r;

		buf_free(&amb);
		r = release_flag(ps, flag, &amb);
		o = r != NULL ? catalog_find_flag(ps->cat, r->flag) : -1;
		neg = false;
		if (r == NULL && amb.len == 0)
			o = -1;
		else if (r == NULL)
			o = -2;
	}
	if (o == -2)
		word_err(ps->out, "argparse-ambiguous", &w[i],
		    "ambiguous option: %s could match %s", flag, amb.s);
	buf_free(&amb);
	if (o == -2)
		return i + 1;
	if (o < 0)
		return old_flag(ps, i, flag, eq);
	ps->ir = NULL;
	if (ps->rel >= 0) {
		ps->ir = release_flag(ps, flag, &amb);
		if (ps->ir == NULL && amb.len > 0)
			word_err(ps->out, "argparse-ambiguous", &w[i],
			    "ambiguous option: %s could match %s", flag, amb.s);
		else if (ps->ir == NULL)
			/* the release being checked does not declare it */
			unrecognized(ps, &w[i]);
		buf_free(&amb);
		if (ps->ir == NULL)
			return i + 1;
	} else if (newer_flag(ps, i, flag))
		return i + 1;
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
			    .out = out, .rel = flaginv_release(cat->hist,
			    cfg->sgver) };
	size_t		 i = 0, nerr = out->nerrors;

	while (i < n) {
		const char	*text = w[i].text, *eq;
		char		*flag;

		if (w[i].unresolved && !is_flagword(cat, text)) {
			unknown_words(out, &w[i]);
			i++;
			continue;
		}
		if (!is_flagword(cat, text) || strcmp(text, "--") == 0) {
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

/* A --config path the shell decides at run time: could not check. */
static void
config_not_known(struct result *out, const struct argword *pw)
{
	struct diag	*d;

	result_add(out, "config-unknown", SEV_UNKNOWN,
	    "the --config file's options are not checked", NULL, pw->line,
	    pw->col);
	d = &out->d[out->n - 1];
	d->note = xasprintf("could not check: the --config path '%s' is only "
	    "known when the script runs", pw->text);
}

/*
 * The path of a --config word written relative to the script's own
 * directory ($(dirname "$0")/x.yaml, as pdwiz's own launch.sh has it): the
 * part after that prefix, which is relative to base_dir; else NULL.
 */
static const char *
script_relative(const char *path)
{
	static const char *const	pre[] = { "$(dirname \"$0\")/",
	    "$(dirname $0)/", "$(dirname -- \"$0\")/", "`dirname $0`/",
	    "`dirname \"$0\"`/", "${0%/*}/", "$(dirname \"${BASH_SOURCE[0]}\")/",
	    "$(dirname \"$BASH_SOURCE\")/" };
	size_t				i, len;

	for (i = 0; i < sizeof pre / sizeof pre[0]; i++) {
		len = strlen(pre[i]);
		if (strncmp(path, pre[i], len) == 0 && strpbrk(path + len,
		    "$`") == NULL)
			return path + len;
	}
	return NULL;
}

/*
 * Find --config FILE like SGLang's merger (only one allowed) and read it
 * into *cw. A path the shell decides at run time is "could not check".
 * Returns whether the file's options are unknown.
 */
static bool
read_config(const struct catalog *cat, const struct argword *w, size_t n,
    const char *base_dir, struct argword **cw, size_t *ncw,
    struct result *out)
{
	const struct argword	*pw;
	const char		*path;
	char			*full;
	size_t			 i, nconfig = 0;
	bool			 unknown = false;

	for (i = 0; i < n; i++) {
		if (strcmp(w[i].text, "--config") == 0) {
			if (i + 1 >= n || is_flagword(cat, w[i + 1].text)) {
				add_err(out, "config-missing-path",
				    "No config file specified after --config flag!",
				    NULL, &w[i]);
				continue;
			}
			pw = &w[i + 1];
			path = pw->text;
		} else if (strncmp(w[i].text, "--config=", 9) == 0) {
			pw = &w[i];
			path = pw->text + 9;
		} else
			continue;
		if (++nconfig > 1) {
			add_err(out, "config-multiple",
			    "Multiple config files specified! Only one allowed.",
			    NULL, &w[i]);
			continue;
		}
		if (pw->unresolved && (path = script_relative(path)) == NULL) {
			config_not_known(out, pw);
			unknown = true;
			continue;
		}
		if (path[0] == '/' || base_dir == NULL)
			full = xstrdup(path);
		else
			full = xasprintf("%s/%s", base_dir, path);
		if (sgconfig_read(cat, full, cw, ncw, out) != 0)
			unknown = unknown || *ncw == 0;
		free(full);
	}
	return unknown;
}

/*
 * A --model-path SGLang can load: not empty, at most PATH_MAX (4096) bytes
 * (longer is neither a local directory nor a Hugging Face id), as the
 * deployment reader's model.path.
 */
static void
model_path_sane(const struct config *cfg, int mo, struct result *out)
{
	const struct slot	*s = &cfg->s[mo];
	struct buf		 b = { 0 };

	if (s->v.t != V_STR)
		return;
	if (*s->v.u.s == '\0')
		buf_puts(&b, "--model-path is empty: give the model's Hugging "
		    "Face id or its directory");
	else if (strlen(s->v.u.s) > 4096)
		buf_printf(&b, "--model-path is %zu bytes long; a path or model "
		    "id is at most 4096", strlen(s->v.u.s));
	if (b.len > 0)
		result_add(out, "model-path-invalid", SEV_ERROR, b.s, NULL,
		    s->line, s->col);
	buf_free(&b);
}

int
argv_parse(const struct catalog *cat, const struct argword *w, size_t n,
    struct config *cfg, struct result *out, const char *base_dir)
{
	struct argword	*all = NULL, *cw = NULL;
	size_t		 nall = 0, ncw = 0, i;
	size_t		 nerr = out->nerrors;
	bool		 config_unknown;
	int		 mo;

	config_unknown = read_config(cat, w, n, base_dir, &cw, &ncw, out);
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
	if (mo >= 0 && cfg->s[mo].v.t == V_NULL && !config_unknown)
		add_err(out, "argparse-required",
		    "the following arguments are required: --model-path", NULL,
		    n > 0 ? &w[0] : NULL);
	else if (mo >= 0)
		model_path_sane(cfg, mo, out);
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

/*
 * "$(dirname "$0")/FILE" (as pdwiz's config launch.sh names its --config
 * files; also $(dirname $0) and ${0%/...}): FILE in the directory of the
 * script being read, which is what the shell gives when it runs the
 * script by its path. NULL for any other path, or when the script's
 * directory is not known (standard input).
 */
static char *
config_beside_script(const char *path, const char *base_dir)
{
	static const char *const pfx[] = { "$(dirname \"$0\")/",
	    "$(dirname $0)/", "${0%/*}/", NULL };
	size_t	i, n;

	if (base_dir == NULL)
		return NULL;
	for (i = 0; pfx[i] != NULL; i++) {
		n = strlen(pfx[i]);
		if (strncmp(path, pfx[i], n) == 0 && path[n] != '\0' &&
		    strpbrk(path + n, "$`") == NULL)
			return xasprintf("%s/%s", base_dir, path + n);
	}
	return NULL;
}

char *
argv_config_path(const char *path, const char *base_dir)
{
	char	*full;

	if ((full = config_beside_script(path, base_dir)) != NULL)
		return full;
	if (path[0] == '/' || base_dir == NULL)
		return xstrdup(path);
	return xasprintf("%s/%s", base_dir, path);
}
