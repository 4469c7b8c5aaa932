/*
 * catalog.h - the option catalog (rules/options.yaml, rules/models.yaml) and
 * the rule set (rules/checks, rules/deploy). Loaded once, read-only after.
 */
#ifndef PDWIZ_CATALOG_H
#define PDWIZ_CATALOG_H

#include <stdbool.h>
#include <stddef.h>

#include "value.h"

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
};

struct model_entry {
	const char	*match;		/* glob, lower case */
	int		*opt;		/* fact option indexes */
	struct value	*val;
	size_t		 n;
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

struct rule {
	const char	 *id;
	enum severity	  sev;
	enum stage	  stage;
	const char	 *kind;		/* ValueError, AssertionError, ... */
	bool		  deploy;	/* cross-role rule */
	bool		  silent;
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
	const char	 *file;		/* rules file it came from */
	int		  line;
	int		 *reads;	/* slots the condition reads (deduplicated) */
	size_t		  nreads;
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
};

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
 * cat->origin says which, and why the image was not used.
 */
struct catalog	*catalog_open(const char *datadir, char *err, size_t errlen);
/* The same for the data directory catalog_find_datadir finds. */
struct catalog	*catalog_open_default(char *err, size_t errlen);
void		 catalog_free(struct catalog *);

int		 catalog_find(const struct catalog *, const char *name);
int		 catalog_find_flag(const struct catalog *, const char *flag);
const struct rule *catalog_rule(const struct catalog *, const char *id);
/* Closest flag spelling for "did you mean", or NULL. */
const char	*catalog_suggest_flag(const struct catalog *, const char *flag);
/* Facts for a model id or local directory (config.json). Returns count set. */
struct config;
int		 catalog_model_facts(const struct catalog *, const char *model,
		    struct config *);

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

const char	*severity_name(enum severity);
const char	*stage_name(enum stage);

#endif
