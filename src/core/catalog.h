/*
 * catalog.h - the option catalog (rules/options.yaml, rules/models.yaml) and
 * the rule set (rules/checks, rules/deploy). Loaded once, read-only after.
 */
#ifndef PDWIZ_CATALOG_H
#define PDWIZ_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "sgver.h"
#include "value.h"

struct slot;

enum okind { OK_FLAG, OK_ENV, OK_FACT, OK_DEPLOY };

struct option {
	const char	 *name;		/* dest / env name / fact name */
	enum okind	  kind;
	enum otype	  type;
	const char	 *flag;		/* primary spelling, flags only */
	const char	**aliases;
	size_t		  naliases;
	struct value	  def;		/* V_UNKNOWN for facts */
	const char	**choices;
	size_t		  nchoices;
	const char	 *help;
	const char	 *note;
	const char	 *deprecated;
	const char	 *label;	/* facts */
	const char	 *hint;		/* facts */
	bool		  config_ok;
	bool		  modelled;
	int		  line;		/* in options.yaml */
	int		  group;	/* SGLang's group: index in catalog.groups,
					   -1 none (facts, or no groups) */
};

struct model_entry {
	const char	*match;		/* glob, lower case */
	int		*opt;		/* fact option indexes */
	struct value	*val;
	size_t		 n;
};

/*
 * A model family of rules/models.yaml: the model ids that name it (globs
 * on the last component of the model path, lower case) and the
 * architectures a model of the family may have (globs, lower case).
 */
struct model_family {
	const char	 *name;
	const char	**ids;
	size_t		  nids;
	const char	**archs;
	size_t		  narchs;
};

/* SEV_NOTE: information a check derived (an estimate), never a problem. */
enum severity { SEV_ERROR, SEV_WARNING, SEV_OVERRIDE, SEV_UNKNOWN, SEV_NOTE };
enum stage { ST_LAUNCH, ST_STARTUP, ST_FIRST_REQUEST };

struct expr;
struct tmpl;

struct fix {
	const char	 *label;
	int		 *opt;		/* option indexes (deploy rules: encoded) */
	struct value	 *val;
	size_t		  n;
};

struct assign {
	int		 opt;
	struct expr	*e;
};

/*
 * The start of a bare assert's message: SGLang's `assert cond` without a
 * text raises an AssertionError that says nothing, so such a rule's message
 * is this, then one line of pdwiz's own words (rules/README.md, Messages).
 * A rule's message is never empty.
 */
#define BARE_ASSERT	"AssertionError (SGLang's bare assert, no message):"

struct rule {
	const char	 *id;
	enum severity	  sev;
	enum stage	  stage;
	const char	 *kind;		/* ValueError, AssertionError, ... */
	bool		  deploy;	/* cross-role rule */
	bool		  silent;
	bool		  own_words;	/* message: pdwiz's account of a failure
					   SGLang reports in generic words */
	struct expr	 *when;
	const char	 *when_src;
	struct tmpl	 *message;
	const char	 *message_src;	/* the template text */
	const char	 *explain;
	struct fix	 *fixes;
	size_t		  nfixes;
	struct assign	 *set;
	size_t		  nset;
	struct assign	 *setdefault;
	size_t		  nsetdefault;
	const char	 *before, *after;
	const char	 *src_file, *src_func, *src_commit;
	const char	 *file;		/* rules file it came from: below the
					 * catalog's dir when relative (from an
					 * image); catalog_rule_file */
	int		  line;
	int		 *reads;	/* slots the condition reads (deduplicated) */
	size_t		  nreads;
	sgver_t		  since;	/* first SGLang release it holds in, or 0 */
	sgver_t		  until;	/* first release it no longer holds in, or 0 */
	sgver_t		  newer_than;	/* it holds only in releases newer, or 0 */
};

/*
 * One entry of rules/flag-history.yaml: when a flag (or a module run with
 * python -m) appeared, was deprecated (still accepted), was rejected
 * (declared only to raise SGLang's message) and was removed. A release
 * that no evidence gives is SGVER_UNKNOWN.
 */
struct flag_hist {
	const char	*flag;		/* "--enable-deepep-moe" or a module name */
	bool		 module;
	bool		 takes_value;	/* the flag reads the next word */
	sgver_t		 introduced, deprecated, rejected, removed;
	const char	*replaced_by;	/* "--moe-a2a-backend deepep", or NULL */
	const char	*message;	/* SGLang's text when rejected, or NULL */
	const char	*note;
	const char	*cite;		/* the first pull request, else a source */
	const char	*cite_introduced;	/* the evidence for introduced */
	int		 line;
};

/*
 * One row of rules/flag-inventory.tsv: a flag spelling declared with the
 * same facts by a run of releases, lo..hi (indexes into inv_rel; index
 * ninv_rel is the main the catalog models).
 */
struct flag_inv {
	const char	*flag;
	const char	*dest;
	const char	*dflt;		/* Python's repr, or "?" */
	const char	*choices;	/* "'a', 'b'" as argparse lists them;
					 * NULL: none; "?": not known */
	uint32_t	 lo, hi;
	char		 nargs;		/* '0', '1', '?', '*' or '+' */
};

/* A commit of SGLang's main branch that the catalog names as a version. */
struct sg_commit {
	const char	*name;		/* as flag-history.yaml writes it */
	const char	*commit;	/* the full hash */
	const char	*date;		/* its commit date, YYYY-MM-DD */
	sgver_t		 after;		/* the newest release it is later than */
	sgver_t		 v;		/* sgver_commit(after, its place) */
};

struct flag_history {
	struct flag_hist	*e;
	size_t			 n;
	struct flag_inv		*inv;		/* sorted by flag, then lo */
	size_t			 ninv;
	sgver_t			*inv_rel;	/* the inventory's releases */
	size_t			 ninv_rel;
	bool			 inv_main;	/* its last release is main */
	const char		*inv_main_commit; /* main's commit there */
	struct sg_commit	*commits;	/* oldest first */
	size_t			 ncommits;
	sgver_t			 sglang_version;	/* what the catalog models, or 0 */
	sgver_t			 newer_than;	/* a release the catalog is newer than */
	sgver_t			*releases;	/* SGLang's release tags, in order */
	size_t			 nreleases;
	const char		*file;
};

struct commit_ref {
	const char	*shortname, *path, *commit;
};

struct catalog {
	struct option		*opts;
	size_t			 nopts;
	struct rule		*rules;		/* per-server, in evaluation order */
	size_t			 nrules;
	struct rule		*drules;	/* deployment rules */
	size_t			 ndrules;
	struct model_entry	*models;
	size_t			 nmodels;
	struct commit_ref	*commits;
	size_t			 ncommits;
	const char		*dir;		/* where it was loaded from */
	const char		*origin;	/* the image, or the YAML and why */
	const void		*image;		/* the mapped image, or NULL */
	/* lookup tables */
	int			*hash;		/* name -> index, open addressing */
	size_t			 hcap;
	int			*fhash;		/* flag spelling -> index */
	size_t			 fcap;
	size_t			 nflags;	/* spellings in fhash */
	size_t			 nroles;	/* deploy name space: see deploy.h */
	struct flag_history	*hist;		/* rules/flag-history.yaml, or NULL
						 * (in the image when there is one) */
	struct model_family	*families;	/* rules/models.yaml families */
	size_t			 nfamilies;
	int			 o_arch;	/* the model_arch fact, or -1 */
	int			 o_family;	/* the arch_family fact, or -1 */
	const char		**groups;	/* SGLang's groups of its options,
						 * in its order (sglang.groups) */
	size_t			 ngroups;
	/* The hardware and model size tables (fit.h), read on first use by
	 * catalog_fit_db and owned by the catalog: NULL until then. */
	struct fit_db		*fit;
	char			*fit_err;	/* why they could not be read */
	/* The last model catalog_model_facts was asked about and what the
	 * tables say of it (a pure function of the two: a plan asks once
	 * per server, with the same model): owned, never in the image. */
	struct model_memo	*memo;
	/* Every option's default slot, config_init's start (config.c):
	 * made on first use for ndefaults options, owned, never in the
	 * image. */
	struct slot		*defaults;
	size_t			 ndefaults;
};

/*
 * The memory estimate's tables of the catalog's data directory
 * (rules/hardware.yaml, rules/model-sizes.yaml), read once per catalog on
 * first use and freed with it; NULL with the reason in err when they
 * cannot be read. The catalog is otherwise unchanged (const to callers).
 */
const struct fit_db *catalog_fit_db(const struct catalog *, char *err,
		    size_t errlen);

/*
 * Find the rules directory: $PDWIZ_DATADIR, then next to the executable
 * (source tree: <exe dir>/rules), then the install prefix. Returns malloc'd
 * path of the directory that holds rules/ and forms/, or NULL.
 */
char		*catalog_find_datadir(const char *argv0);

/* Load everything from datadir; NULL and a file:line:col message on error. */
struct catalog	*catalog_load(const char *datadir, char *err, size_t errlen);
/*
 * The catalog of datadir: its compiled image (catimg.h) when that is
 * usable, else the YAML (always the YAML when PDWIZ_NO_IMAGE is set).
 * The image is datadir/rules/catalog.img when there is one; else, for an
 * installed data directory (PREFIX/share/pdwiz), the installed image
 * PREFIX/lib/pdwiz/catalog.img. cat->origin says which, and why the image
 * was not used.
 */
struct catalog	*catalog_open(const char *datadir, char *err, size_t errlen);
/* The same for the data directory catalog_find_datadir finds. */
struct catalog	*catalog_open_default(char *err, size_t errlen);
void		 catalog_free(struct catalog *);
/* Frees what a catalog makes on first use (the fit tables, the model
 * memo, the default slots) and forgets it; catalog_free does this too. */
void		 catalog_free_caches(struct catalog *);

int		 catalog_find(const struct catalog *, const char *name);
int		 catalog_find_flag(const struct catalog *, const char *flag);
const struct rule *catalog_rule(const struct catalog *, const char *id);
/* The path of the rules file r came from (interned), made whole below
 * cat->dir when it is relative (a catalog image keeps it so). */
const char	*catalog_rule_file(const struct catalog *, const struct rule *r);
/* Closest flag spelling for "did you mean", or NULL. */
const char	*catalog_suggest_flag(const struct catalog *, const char *flag);
/*
 * Facts for a model id or local directory (config.json). Returns count set.
 * Also arch_family: the families whose ids match the last component of the
 * model path (set even when the model itself is not known).
 */
struct config;
int		 catalog_model_facts(const struct catalog *, const char *model,
		    struct config *);
/*
 * Does cfg settle that option opt is not arch, though its value is
 * unknown? True when opt is model_arch and every family arch_family names
 * is one of the catalog's, none of whose architectures matches arch.
 */
bool		 catalog_arch_excluded(const struct catalog *,
		    const struct config *, int opt, const char *arch);

/*
 * Read one data file from memory as catalog_load would, against the options
 * of cat, and discard the result: 0 when it loads, else -1 and a
 * "name:line:col: message" in err. CT_OPTIONS starts from an empty catalog;
 * the others resolve names over cat. For tooling and the fuzz harnesses.
 */
enum catalog_text { CT_OPTIONS, CT_MODELS, CT_RULES, CT_DEPLOY_RULES };
int		 catalog_check_text(const struct catalog *, enum catalog_text,
		    const char *name, const char *text, size_t len, char *err,
		    size_t errlen);

/*
 * rules/flag-history.yaml of datadir into cat->hist (absent file: NULL);
 * -1 and "file:line:col: message" when it does not load.
 */
int		 flaghist_attach(struct catalog *, const char *datadir,
		    char *err, size_t errlen);
void		 flaghist_free(struct flag_history *);
/* The entry for a flag spelling or module name, or NULL. */
const struct flag_hist *flaghist_find(const struct catalog *, const char *);
/*
 * What release v does with the flag of h: FS_ACCEPTED (declared, works or
 * warns), FS_REJECTED (declared only to raise h->message), FS_ABSENT
 * (argparse does not know it), FS_UNKNOWN (v unknown, or no evidence).
 */
enum flag_state { FS_UNKNOWN, FS_ACCEPTED, FS_REJECTED, FS_ABSENT };
enum flag_state	 flaghist_state(const struct flag_hist *, sgver_t v);
/* The migration advice for h as seen from release v (0: unknown); owned. */
char		*flaghist_advice(const struct flag_hist *, sgver_t v);
/*
 * The release v is checked as: v itself when it is one of the releases
 * (or no list is known, or v is 0); else the newest release before it
 * (flags and rules change only at releases), the oldest when it is older
 * than all, and v again when it is newer than every release known (a
 * release newer than the list, as the catalog models). *release says
 * whether v is one.
 */
sgver_t		 flaghist_release_as(const struct flag_history *, sgver_t v,
		    bool *release);
/*
 * A version as a user or a file writes it: a release number, or a commit
 * of fh's commits by its name, its full hash or a prefix of at least 7 hex
 * digits, "main@" allowed before it. SGVER_UNKNOWN, with why, otherwise.
 */
sgver_t		 flaghist_parse(const struct flag_history *, const char *s,
		    char *why, size_t whylen);
/* v's text: a commit's "main@NAME", else the release (sgver_format). */
const char	*flaghist_vname(const struct flag_history *, sgver_t v,
		    char *buf, size_t len);
/* The commit v is, or NULL. */
const struct sg_commit *flaghist_commit(const struct flag_history *,
		    sgver_t v);
/*
 * The inventory's index of release v (what flaghist_release_as gives), or
 * -1 when the inventory does not cover v (unknown, older than its first
 * release, newer than its last).
 */
int		 flaginv_release(const struct flag_history *, sgver_t v);
/* The row of flag in release index r, or NULL: r does not declare it. */
const struct flag_inv *flaginv_find(const struct flag_history *,
		    const char *flag, int r);
/*
 * Where else the inventory has flag: the first release after index r
 * that declares it (*later, -1 none; ninv_rel: only main) and the last
 * release before r that did (*earlier, -1 none).
 */
void		 flaginv_elsewhere(const struct flag_history *,
		    const char *flag, int r, int *earlier, int *later);
/* release index r's text ("0.5.9", "main"); buf of SGVER_TEXT_MAX. */
const char	*flaginv_name(const struct flag_history *, int r, char *buf,
		    size_t len);

/*
 * A rule's since/after/until keys (release numbers) into r; 0, or -1
 * and a message.
 */
struct ynode;
int		 rule_range_parse(const struct flag_history *,
		    const struct ynode *rule, const char *file, struct rule *,
		    char *err, size_t errlen);
/*
 * rules/rule-since.tsv (tools/sgsince.py): the release ranges of rules
 * whose YAML gives none, from the SGLang trees that have their messages.
 */
int		 rule_since_attach(struct catalog *, const char *datadir,
		    char *err, size_t errlen);
/* Does a rule hold in release v? (v unknown, or no range: true.) */
bool		 rule_in_range(const struct rule *, sgver_t v);

const char	*severity_name(enum severity);
const char	*stage_name(enum stage);

#endif
