/*
 * deploy_import_keep.c - what pdwiz import keeps of a script and what it
 * reports: words the reader could not place (each at its line and
 * column), numbers in their written form, exports outside the catalog,
 * and what the script lacks (missing.ROLE). deploy_import.c builds the
 * deployment; these are its helpers (deploy/import_int.h).
 */
#define _POSIX_C_SOURCE 200809L
#include "deploy/deploy.h"
#include "deploy/deploy_int.h"
#include "deploy/import_int.h"
#include "core/util.h"
#include "io/argv.h"
#include "io/shell.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void
note(struct result *notes, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
note(struct result *notes, int line, int col, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	imp_vnote(notes, SEV_WARNING, line, col, fmt, ap);
	va_end(ap);
}

static void
lost(struct result *notes, int line, int col, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

static void
lost(struct result *notes, int line, int col, const char *fmt, ...)
{
	va_list	ap;

	va_start(ap, fmt);
	imp_vnote(notes, SEV_ERROR, line, col, fmt, ap);
	va_end(ap);
}

/* Column of a command's first word. */
static int
col0(const struct sh_cmd *c)
{
	return c->nwords > 0 ? c->words[0].col : 1;
}

/* The index of the word of sc at (line, col), or sc->nwords. */
static size_t
word_index(const struct sh_cmd *sc, int line, int col)
{
	size_t	i;

	for (i = sc->argstart; i < sc->nwords; i++)
		if (sc->words[i].line == line && sc->words[i].col == col)
			return i;
	return sc->nwords;
}

/* A word whose text is the run's ($VAR, $(...), `...`, as a reader
 * that expands nothing leaves it): kept, it would be written back as
 * literal text. */
static bool
run_time(const struct sh_word *w)
{
	return w->unresolved || strpbrk(w->text, "$`") != NULL;
}

/* A flag the deployment's layout writes itself (--node-rank, --port,
 * ...; any spelling the catalog knows): what argparse refuses of it is
 * not passed through beside it. */
static bool
layout_flag(const struct catalog *cat, const char *w)
{
	const char	*eq = strchr(w, '=');
	char		*f = eq != NULL ? xstrndup(w, (size_t)(eq - w)) :
	    xstrdup(w);
	int		 o = catalog_find_flag(cat, f);

	free(f);
	return o >= 0 && imp_is_managed(cat->opts[o].name);
}

/* Mark word i of sc to be kept as an extra argument (once). */
static void
keep_word(const struct sh_cmd *sc, size_t i, bool *taken,
    struct result *notes, const char *why)
{
	if (taken[i])
		return;
	taken[i] = true;
	if (why != NULL)
		note(notes, sc->words[i].line, sc->words[i].col, "%s; kept as "
		    "an extra argument (extra_args), as SGLang gets it", why);
}

/*
 * argparse's "unrecognized arguments: W1 W2 ...": the words of the
 * command from the first one reported, matched in order, each kept. false
 * when the words cannot be matched (the message is then reported whole).
 */
static bool
unrecognized_words(const struct sh_cmd *sc, const struct diag *dg,
    bool *taken, struct result *notes)
{
	static const char	 pfx[] = "unrecognized arguments: ";
	const char		*m = dg->msg;
	size_t			 i, n, start;

	if (strncmp(m, pfx, sizeof pfx - 1) != 0)
		return false;
	m += sizeof pfx - 1;
	if ((start = word_index(sc, dg->line, dg->col)) == sc->nwords)
		return false;
	for (i = start; i < sc->nwords && *m != '\0'; i++) {
		char	*why;

		n = strlen(sc->words[i].text);
		if (strncmp(m, sc->words[i].text, n) != 0 || (m[n] != ' ' &&
		    m[n] != '\0'))
			continue;
		if (run_time(&sc->words[i]))
			lost(notes, sc->words[i].line, sc->words[i].col,
			    "unrecognized argument '%s'; not placed in the "
			    "deployment", sc->words[i].text);
		else {
			why = xasprintf("unrecognized argument '%s'",
			    sc->words[i].text);
			keep_word(sc, i, taken, notes, why);
			free(why);
		}
		m += n + (m[n] == ' ');
	}
	return true;
}

/*
 * A flag argparse refused (an invalid choice, a value of the wrong type,
 * a missing value), reported at its flag or value word: the flag word and
 * its value words, kept as written. false when the position names no word
 * of the command (a --config file's).
 */
static bool
refused_flag(const struct catalog *cat, const struct sh_cmd *sc,
    const struct diag *dg, bool *taken, struct result *notes)
{
	size_t	k = word_index(sc, dg->line, dg->col), j;

	if (k == sc->nwords || run_time(&sc->words[k]))
		return false;
	for (j = k; j > sc->argstart && strncmp(sc->words[j].text, "-", 1) != 0;
	    j--)
		;
	if (strncmp(sc->words[j].text, "-", 1) != 0 ||
	    layout_flag(cat, sc->words[j].text))
		return false;
	for (k = j + 1; k < sc->nwords && strncmp(sc->words[k].text, "--", 2)
	    != 0; k++)
		if (run_time(&sc->words[k]))
			return false;
	keep_word(sc, j, taken, notes, dg->msg);
	for (j++; j < k; j++)
		keep_word(sc, j, taken, notes, NULL);
	return true;
}

/* The reader's errors on a server command (unrecognized arguments, a
 * flag without its value, a value of the wrong type or an invalid
 * choice): the words are kept as extra arguments, which the deployment's
 * check reads as SGLang's argparse does; what names no word of the
 * command (a --config file's value) is not placed. */
void
imp_reader_losses(const struct catalog *cat, struct result *notes,
    const struct sh_cmd *sc, const struct result *diags, char ***extra,
    size_t *nextra)
{
	bool	*taken = xcalloc(sc->nwords + 1, sizeof *taken);
	size_t	 i;

	for (i = 0; i < diags->n; i++) {
		const struct diag	*dg = &diags->d[i];

		if (dg->sev != SEV_ERROR || dg->rule != NULL)
			continue;
		if (unrecognized_words(sc, dg, taken, notes) ||
		    refused_flag(cat, sc, dg, taken, notes))
			continue;
		lost(notes, dg->line > 0 ? dg->line : sc->line, dg->line > 0 ?
		    dg->col : col0(sc), "%s; not placed in the "
		    "deployment", dg->msg);
	}
	/* In the command's order, as written. */
	for (i = sc->argstart; i < sc->nwords; i++)
		if (taken[i]) {
			*extra = xreallocarray(*extra, *nextra + 1,
			    sizeof **extra);
			(*extra)[(*nextra)++] = xstrdup(sc->words[i].text);
		}
	free(taken);
}

static char *
value_text(struct value v)
{
	struct buf	b = { 0 };

	if (v.t == V_STR || v.t == V_LIST)
		return xstrdup(v.u.s);
	val_cli(&b, v);
	return buf_steal(&b);
}



/*
 * A number as the script wrote it (--watchdog-timeout 9000 stays 9000,
 * 300.0 stays 300.0): the word after the flag at the slot's position, or
 * the text after '=' in --flag=VALUE, when it reads as the same value.
 * Otherwise (a value from a --config file, an alias that took no word)
 * the value's canonical text.
 */
/* The value word at a slot's position among words, or NULL. */
static const char *
word_at(const struct argword *w, size_t n, const struct slot *s)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		const char	*eq;

		if (w[i].line != s->line || w[i].col != s->col)
			continue;
		if (strncmp(w[i].text, "--", 2) == 0 &&
		    (eq = strchr(w[i].text, '=')) != NULL)
			return eq + 1;
		return i + 1 < n ? w[i + 1].text : NULL;
	}
	return NULL;
}

/* The words of the --config file a command names (SRC_CONFIG values
 * point into it), or none. */
void
imp_config_words(const struct catalog *cat, const struct sh_cmd *sc,
    const char *base_dir, struct argword **cw, size_t *ncw)
{
	struct result	 diags;
	const char	*path = NULL;
	char		*full;
	size_t		 i;

	*cw = NULL;
	*ncw = 0;
	for (i = sc->argstart; i < sc->nwords && path == NULL; i++) {
		if (strcmp(sc->words[i].text, "--config") == 0 &&
		    i + 1 < sc->nwords)
			path = sc->words[i + 1].text;
		else if (strncmp(sc->words[i].text, "--config=", 9) == 0)
			path = sc->words[i].text + 9;
	}
	if (path == NULL)
		return;
	full = argv_config_path(path, base_dir);
	result_init(&diags);
	if (sgconfig_read(cat, full, cw, ncw, &diags) != 0) {
		*cw = NULL;
		*ncw = 0;
	}
	result_free(&diags);
	free(full);
}

/*
 * A number as the script (or its --config file) wrote it
 * (--watchdog-timeout 9000 stays 9000, 300.0 stays 300.0): the word after
 * the flag at the slot's position, or the text after '=' in --flag=VALUE,
 * when it reads as the same value. Otherwise the value's canonical text.
 */
char *
imp_written_text(const struct sh_cmd *sc, const struct argword *cw, size_t ncw,
    const struct option *o, const struct slot *s)
{
	struct argword	*w;
	const char	*t = NULL;
	struct value	 pv;
	size_t		 i, n;

	if ((s->v.t != V_INT && s->v.t != V_FLOAT) ||
	    (s->src != SRC_CLI && s->src != SRC_CONFIG))
		return value_text(s->v);
	if (s->src == SRC_CONFIG)
		t = word_at(cw, ncw, s);
	else {
		n = sc->nwords - sc->argstart;
		w = xcalloc(n + 1, sizeof *w);
		for (i = 0; i < n; i++) {
			w[i].text = sc->words[sc->argstart + i].text;
			w[i].line = sc->words[sc->argstart + i].line;
			w[i].col = sc->words[sc->argstart + i].col;
		}
		t = word_at(w, n, s);
		free(w);
	}
	if (t == NULL || val_parse(o->type, t, &pv) != 0 || pv.t != s->v.t ||
	    (pv.t == V_INT && pv.u.i != s->v.u.i) ||
	    (pv.t == V_FLOAT && pv.u.f != s->v.u.f))
		return value_text(s->v);
	return xstrdup(t);
}

/*
 * A variable outside the catalog (NCCL_SOCKET_IFNAME, HCCL_*, ...) is kept
 * verbatim as unchecked env, so the emitted scripts export it again. Not
 * kept: pdwiz's own PDWIZ_* statements (read for what they say), and a
 * value left to run time ($IFACE, $(...)), which the deployment would
 * write back as literal text.
 */
bool
imp_keep_unchecked_env(const struct sh_env *e, struct result *notes)
{
	if (strncmp(e->name, "PDWIZ_", 6) == 0)
		return false;
	if (e->unresolved) {
		lost(notes, e->line, e->col, "environment variable %s: its "
		    "value is computed when the script runs; not placed in "
		    "the deployment", e->name);
		return false;
	}
	return true;
}

/* A role whose machine or ports the script leaves to run time: the file
 * says so (missing.ROLE), and its placement checks stay unknown. */
static void
unstated(struct role_spec *rs, enum role r, struct result *notes)
{
	struct buf	b = { 0 };

	if (rs->host_unstated)
		buf_printf(&b, MISSING_HOST " (a bind to 0.0.0.0 or ::, or an "
		    "address computed at run time)");
	if (rs->port_unstated)
		buf_printf(&b, "%s" MISSING_PORT, b.len ? "; " : "");
	if (rs->args_unstated)
		buf_printf(&b, "%s" MISSING_ARGS " in place of options (what "
		    "they set is unknown)", b.len ? "; " : "");
	rs->missing = buf_steal(&b);
	note(notes, rs->line, 1, "%s: %s; the hosts and ports in the "
	    "deployment stand in for it (missing.%s)", role_name(r),
	    rs->missing, role_name(r));
}

void
imp_mark_missing(struct deployment *d, struct result *notes)
{
	static const char *const how[] = {
		"python3 -m sglang.launch_server --disaggregation-mode prefill",
		"python3 -m sglang.launch_server --disaggregation-mode decode",
		"python3 -m sglang_router.launch_router --pd-disaggregation",
	};
	int	r;
	char	*t;

	for (r = ROLE_PREFILL; r <= ROLE_ROUTER; r++) {
		struct role_spec	*rs = &d->role[r];
		size_t			 need;

		if (!rs->enabled) {
			/* Said by the caller: the wizard fills such a role
			 * in, pdwiz import leaves it out. */
			rs->missing = xasprintf("no %s command (%s) in the "
			    "script", role_name((enum role)r), how[r]);
			continue;
		}
		if (rs->host_unstated || rs->port_unstated ||
		    rs->args_unstated)
			unstated(rs, (enum role)r, notes);
		need = (size_t)rs->instances * (size_t)rs->nodes_per_instance;
		if (r == ROLE_ROUTER || rs->nodes_per_instance <= 1 ||
		    rs->nhosts == need)
			continue;
		t = xasprintf("%s%s--nnodes %d, but the script has %zu of "
		    "the %zu node commands (every --node-rank of every "
		    "instance); " MISSING_NODES,
		    rs->missing ? rs->missing : "", rs->missing ? "; " : "",
		    rs->nodes_per_instance, rs->nhosts, need);
		free(rs->missing);
		rs->missing = t;
		note(notes, rs->line, 1, "%s: --nnodes %d, but the script has "
		    "%zu of the %zu node commands; the deployment says so "
		    "(missing.%s)", role_name((enum role)r),
		    rs->nodes_per_instance, rs->nhosts, need,
		    role_name((enum role)r));
		while (rs->nhosts >= 1 && rs->nhosts < need) {
			rs->hosts = xreallocarray(rs->hosts, rs->nhosts + 1,
			    sizeof *rs->hosts);
			rs->hosts[rs->nhosts] = xstrdup(rs->hosts[rs->nhosts - 1]);
			rs->nhosts++;
		}
	}
}

/*
 * The directory a script named name lives in, for the --config files its
 * commands name relative to it (owned), or NULL for standard input.
 */
char *
imp_script_dir(const char *name)
{
	const char	*sl;

	if (name == NULL || *name == '\0' || strcmp(name, "-") == 0 ||
	    strcmp(name, "<stdin>") == 0)
		return NULL;
	if ((sl = strrchr(name, '/')) == NULL)
		return xstrdup(".");
	return sl == name ? xstrdup("/") : xstrndup(name,
	    (size_t)(sl - name));
}

