/*
 * check_rc.c - what `pdwiz check` is told to leave out or to treat
 * otherwise: the .pdwiz.yaml that applies to each input (share/pdwiz-rc.md),
 * its inline "pdwiz: disable=" comments and --ignore, applied to each
 * input's findings before the exit status is decided.
 */
#define _POSIX_C_SOURCE 200809L
#include "cli/check.h"
#include "cli/cli.h"
#include "core/util.h"
#include "io/rcfile.h"
#include "io/server.h"
#include "io/suppress.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* The configuration files met so far, each loaded once. */
struct rc_loaded {
	const char	*key;		/* the finder's path, or the given one */
	struct rcfile	 rc;
};

struct rcset {
	const struct catalog	*cat;
	const char		*given;		/* --rcfile or PDWIZ_RC */
	struct rc_finder	 finder;
	struct rc_loaded	*l;
	size_t			 n;
	const char		*bad;		/* the file rcset_for refused */
};

/*
 * Is id one that may be named (--ignore, .pdwiz.yaml, a disable comment):
 * a catalog rule, or an id of pdwiz's own readers? Those are named in the
 * readers' code, by family (argparse-choice, shell-brace-expansion, ...):
 * an id of one of the families is taken.
 */
bool
check_known_rule(const struct catalog *cat, const char *id)
{
	static const char *const families[] = { "argparse-", "argv-",
	    "config-", "deploy-", "docker-", "document-", "env-", "flag-",
	    "input-", "manifest-", "model-", "recipe-", "router-", "shell-",
	    "suppression-", NULL };
	static const char *const words[] = { "sglang-version", "import",
	    NULL };
	size_t	i, n;

	for (i = 0; i < cat->nrules; i++)
		if (strcmp(cat->rules[i].id, id) == 0)
			return true;
	for (i = 0; i < cat->ndrules; i++)
		if (strcmp(cat->drules[i].id, id) == 0)
			return true;
	for (i = 0; families[i] != NULL; i++) {
		n = strlen(families[i]);
		if (strncmp(id, families[i], n) == 0 && id[n] != '\0')
			return true;
	}
	for (i = 0; words[i] != NULL; i++)
		if (strcmp(id, words[i]) == 0)
			return true;
	return false;
}

struct rcset *
rcset_new(const struct catalog *cat, const char *given)
{
	struct rcset	*s = xcalloc(1, sizeof *s);

	s->cat = cat;
	s->given = given != NULL && *given != '\0' ? given : NULL;
	rc_finder_init(&s->finder);
	return s;
}

void
rcset_free(struct rcset *s)
{
	size_t	i;

	if (s == NULL)
		return;
	for (i = 0; i < s->n; i++)
		rcfile_free(&s->l[i].rc);
	free(s->l);
	rc_finder_free(&s->finder);
	free(s);
}

/* The ids and fact names of a file just read, against the catalog: each
 * unknown one at its place. 0, or -1. */
static int
rc_validate(const struct catalog *cat, const struct rcfile *rc,
    struct buf *why)
{
	const struct rc_item	*lists[] = { rc->ignore, rc->severity };
	size_t			 ns[] = { rc->nignore, rc->nseverity };
	struct config		 cfg;
	char			 err[1024];
	size_t			 k, i;
	int			 bad = 0;

	for (k = 0; k < 2; k++)
		for (i = 0; i < ns[k]; i++)
			if (!check_known_rule(cat, lists[k][i].name)) {
				buf_printf(why, "%s:%d:%d: no rule '%s' (pdwiz "
				    "rules lists them)\n", rc->path,
				    lists[k][i].line, lists[k][i].col,
				    lists[k][i].name);
				bad = -1;
			}
	config_init(&cfg, cat);
	for (i = 0; i < rc->nfacts; i++) {
		const struct rc_item	*f = &rc->facts[i];

		if (strcmp(f->name, "sglang-version") == 0 ||
		    strcmp(f->name, "sglang_version") == 0) {
			if (flaghist_parse(cat->hist, f->value, err,
			    sizeof err) == SGVER_UNKNOWN) {
				buf_printf(why, "%s:%d:%d: sglang-version: %s\n",
				    rc->path, f->vline, f->vcol, err);
				bad = -1;
			}
			continue;
		}
		if (facts_set(cat, &cfg, f->name, f->value, err,
		    sizeof err) != 0) {
			buf_printf(why, "%s:%d:%d: %s\n", rc->path, f->line,
			    f->col, err);
			bad = -1;
		}
	}
	config_free(&cfg);
	return bad;
}

/* The directory of path ("." for a bare name). */
static char *
dir_of(const char *path)
{
	const char	*slash = strrchr(path, '/');

	if (slash == NULL)
		return xstrdup(".");
	if (slash == path)
		return xstrdup("/");
	return xstrndup(path, (size_t)(slash - path));
}

int
rcset_for(struct rcset *s, const char *input, const struct rcfile **out,
    struct buf *why)
{
	const char	*key;
	char		*dir;
	size_t		 i;

	*out = NULL;
	if (s->given != NULL)
		key = s->given;
	else if (input == NULL || strcmp(input, "-") == 0)
		key = rcfile_find(&s->finder, ".");
	else {
		dir = dir_of(input);
		key = rcfile_find(&s->finder, dir);
		free(dir);
	}
	if (key == NULL)
		return 0;
	for (i = 0; i < s->n; i++)
		if (s->l[i].key == key || strcmp(s->l[i].key, key) == 0) {
			*out = &s->l[i].rc;
			return 0;
		}
	s->l = grow_pow2(s->l, s->n, sizeof *s->l);
	s->l[s->n].key = key;
	rcfile_init(&s->l[s->n].rc);
	if (rcfile_load(key, &s->l[s->n].rc, why) != 0 ||
	    rc_validate(s->cat, &s->l[s->n].rc, why) != 0) {
		rcfile_free(&s->l[s->n].rc);
		s->bad = key;
		/* Said without its last newline: one message as all others. */
		while (why->len > 0 && why->s[why->len - 1] == '\n')
			why->s[--why->len] = '\0';
		return -1;
	}
	*out = &s->l[s->n++].rc;
	return 0;
}

/*
 * The facts of rc that the command line does not give, applied to cfg (a
 * copy of the run's base); the release it names, when none is given, into
 * cfg->sgver. 1 when any was, 0 when none.
 */
int
rc_apply_facts(const struct catalog *cat, const struct rcfile *rc,
    const struct cli_facts *given, bool version_given, struct config *cfg)
{
	char	err[1024];
	size_t	i, k;
	int	n = 0;

	for (i = 0; rc != NULL && i < rc->nfacts; i++) {
		const struct rc_item	*f = &rc->facts[i];
		bool			 cli = false;

		if (strcmp(f->name, "sglang-version") == 0 ||
		    strcmp(f->name, "sglang_version") == 0) {
			if (!version_given) {
				config_set_sgver(cfg, flaghist_parse(
				    cfg->cat->hist, f->value, NULL, 0));
				n++;
			}
			continue;
		}
		for (k = 0; given != NULL && k < given->n; k++)
			cli = cli || strcmp(given->f[k].name, f->name) == 0;
		if (!cli && facts_set(cat, cfg, f->name, f->value, err,
		    sizeof err) == 0)
			n++;	/* (validated when the file was read) */
	}
	return n > 0;
}

/* Turn a severity word of .pdwiz.yaml into the catalog's. */
static enum severity
rc_severity(enum rc_sev s)
{
	return s == RC_ERROR ? SEV_ERROR : s == RC_WARNING ? SEV_WARNING :
	    SEV_NOTE;
}

static void
drop(struct check *ck, struct diag *d)
{
	ck->nsuppressed++;
	diag_release(d);
}

/* A note or warning of the suppressions themselves, added after the
 * filtering (a suppression cannot hide its own report). */
static void
supp_note(struct check *ck, const char *id, enum severity sev, int line,
    int col, const char *msg)
{
	struct result	r;

	result_init(&r);
	result_add(&r, id, sev, msg, NULL, line, col);
	result_take(&ck->all, &r, -1);
	result_free(&r);
}

/* The order of diagnostics by what a reader sees of them: rule, severity,
 * place and text (the command aside: the ranks of one instance stand at
 * one line and say the same). */
static const struct diag *dedup_base;

static int
same_cmp(const void *a, const void *b)
{
	const struct diag	*x = &dedup_base[*(const size_t *)a];
	const struct diag	*y = &dedup_base[*(const size_t *)b];
	int			 c;

	if ((c = strcmp(x->id, y->id)) != 0)
		return c;
	if (x->sev != y->sev)
		return x->sev < y->sev ? -1 : 1;
	if (x->line != y->line)
		return x->line < y->line ? -1 : 1;
	if (x->col != y->col)
		return x->col < y->col ? -1 : 1;
	if ((c = strcmp(x->msg != NULL ? x->msg : "", y->msg != NULL ?
	    y->msg : "")) != 0)
		return c;
	if ((c = strcmp(x->note != NULL ? x->note : "", y->note != NULL ?
	    y->note : "")) != 0)
		return c;
	/* Equal: the first stays first. */
	return *(const size_t *)a < *(const size_t *)b ? -1 : 1;
}

/* A finding said twice in the same words at the same place is said once
 * (the ranks of a 2-node instance gave two memory notes). O(n log n). */
static void
dedup(struct check *ck)
{
	struct result	*res = &ck->all;
	size_t		*ix, i, j;
	bool		*dup;

	if (res->n < 2)
		return;
	ix = xcalloc(res->n, sizeof *ix);
	dup = xcalloc(res->n, sizeof *dup);
	for (i = 0; i < res->n; i++)
		ix[i] = i;
	dedup_base = res->d;
	qsort(ix, res->n, sizeof *ix, same_cmp);
	for (i = 1; i < res->n; i++) {
		const struct diag	*x = &res->d[ix[i - 1]];
		const struct diag	*y = &res->d[ix[i]];

		if (strcmp(x->id, y->id) == 0 && x->sev == y->sev &&
		    x->line == y->line && x->col == y->col &&
		    strcmp(x->msg != NULL ? x->msg : "", y->msg != NULL ?
		    y->msg : "") == 0 && strcmp(x->note != NULL ? x->note : "",
		    y->note != NULL ? y->note : "") == 0)
			dup[ix[i]] = true;
	}
	for (i = j = 0; i < res->n; i++) {
		if (dup[i]) {
			diag_release(&res->d[i]);
			continue;
		}
		res->d[j++] = res->d[i];
	}
	res->n = j;
	free(ix);
	free(dup);
}

void
check_filter(struct check *ck, const struct rcfile *rc, struct suppress *supp,
    const char *const *ignores, size_t nignores, bool verbose)
{
	struct result	*res = &ck->all;
	size_t		 i, j, k, pos;
	char		 msg[512];

	for (i = j = 0; i < res->n; i++) {
		struct diag	*d = &res->d[i];
		enum rc_sev	 rs;
		int		 first = 0;
		bool		 gone = false;

		if (d->cmd >= 0 && (size_t)d->cmd < ck->ncmds)
			first = ck->cmds[d->cmd].line;
		for (k = 0; k < nignores && !gone; k++)
			gone = strcmp(ignores[k], d->id) == 0;
		if (!gone && rc != NULL && rcfile_rule(rc, d->id, &rs)) {
			if (rs == RC_OFF)
				gone = true;
			else if (d->sev == SEV_ERROR || d->sev == SEV_WARNING ||
			    d->sev == SEV_NOTE)
				d->sev = rc_severity(rs);
		}
		if (!gone && supp != NULL)
			gone = suppress_match(supp, d->id, d->line > 0 ?
			    d->line : first) || (first > 0 && d->line !=
			    first && suppress_match(supp, d->id, first));
		if (gone) {
			drop(ck, d);
			continue;
		}
		res->d[j++] = *d;
	}
	res->n = j;
	dedup(ck);
	result_recount(res);
	if (supp == NULL)
		return;
	for (i = 0; i < supp->nbad; i++)
		supp_note(ck, "suppression-invalid", SEV_WARNING,
		    supp->bad[i].line, supp->bad[i].col, supp->bad[i].msg);
	for (i = 0; i < supp->n; i++)
		if (!check_known_rule(ck->cat, supp->e[i].rule)) {
			snprintf(msg, sizeof msg, "no rule '%s' (pdwiz rules "
			    "lists them): this suppression suppresses nothing",
			    supp->e[i].rule);
			supp_note(ck, "suppression-invalid", SEV_WARNING,
			    supp->e[i].line, supp->e[i].col, msg);
			supp->e[i].used = true;	/* said once */
		}
	if (!verbose)
		return;
	for (pos = 0; ; ) {
		const struct supp_entry	*e = suppress_next_unused(supp, &pos);

		if (e == NULL)
			break;
		snprintf(msg, sizeof msg, "the suppression of %s suppresses "
		    "nothing: remove it", e->rule);
		supp_note(ck, "suppression-unused", SEV_NOTE, e->line, e->col,
		    msg);
	}
}

const char *
rcset_refused(const struct rcset *s)
{
	return s != NULL ? s->bad : NULL;
}
