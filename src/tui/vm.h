/*
 * vm.h - the wizard's view-model: pages and fields from forms/NN-name.yaml, the
 * values the operator chose (per scope), the per-role configurations and
 * their diagnostics, the availability of every value on the current page,
 * undo/redo, dirty tracking and search. No curses here: the curses front end
 * (wizard.c, wiz_*.c) reads snapshots and sends intents, and the unit tests
 * drive the same functions. The implementation's files and private parts
 * are listed in vm_int.h.
 *
 * Values live in scopes. A field's scope says which server(s) a value goes
 * to: shared options go to prefill and decode (or the single server when the
 * deployment is not disaggregated), role options to one role, deployment
 * facts and topology to the deployment as a whole.
 */
#ifndef PDWIZ_TUI_VM_H
#define PDWIZ_TUI_VM_H

#include <stdbool.h>
#include <stddef.h>

#include "core/catalog.h"
#include "core/config.h"
#include "core/engine.h"
#include "core/value.h"

enum vm_scope {
	SC_DEPLOY = 0,		/* facts, model, topology of the whole deployment */
	SC_SHARED,		/* options on every server (prefill and decode) */
	SC_PREFILL,
	SC_DECODE,
	SC_ROUTER,
	SC_SINGLE,		/* the one server of a non-PD deployment */
	NSCOPE
};

/* Deployment fields that are not SGLang options (keys below zero). */
enum vm_dfield {
	DF_PD = 0,		/* bool: prefill/decode disaggregation */
	DF_INSTANCES,		/* int, per role */
	DF_NODES,		/* int: nodes per instance, per role */
	DF_GPUS,		/* int: GPUs per node, per role */
	DF_HOSTS,		/* str: comma-separated hosts, per role */
	DF_PORT,		/* int: HTTP port, per role (router: its port) */
	DF_POLICY,		/* str: router policy */
	DF_NAME,		/* str: deployment name */
	DF_BASE_GPU,		/* int: --base-gpu-id, per role (layout) */
	DF_BOOTSTRAP,		/* int: prefill bootstrap port (layout) */
	DF_DIST_PORT,		/* int: rendezvous port, multi-node (layout) */
	DF_BIND,		/* str: --host a role binds (layout) */
	DF_GPUS_PER_HOST,	/* int: GPUs of each machine (layout) */
	DF_ROUTER_URLS,		/* str: the router's lists, "URL [BOOTSTRAP],
				   ...; URL, ..." (prefill; decode) */
	DF_SAME_PAR,		/* bool, decode: its parallelism is the
				   prefill's (computed; setting it copies) */
	NDF
};
#define VM_DKEY(df)	(-1 - (int)(df))
#define VM_IS_DKEY(k)	((k) < 0)
#define VM_DF(k)	(-1 - (k))

struct buf;
struct expr;

struct vm_field {
	char		*label;
	int		 key;		/* option index, or VM_DKEY(dfield) */
	enum vm_scope	 scope;
	bool		 invert;	/* bool shown negated ("radix cache" for disable_radix_cache) */
	bool		 scope_is_page;	/* on a per-role page: takes the page's role */
	struct expr	*visible;	/* NULL: always */
	char		*visible_src;
	int		 line, col;	/* in the form file */
	/* Guides from the form: named values offered as the field's list
	 * ("90  Hopper (H100, H200)"), bounds for numbers, and a format for
	 * free text (an identifier: starts with a letter), with an example
	 * for the refusal. */
	struct vm_named	*named;
	size_t		 nnamed;
	bool		 has_min, has_max;
	long long	 min, max;
	bool		 identifier;
	char		*example;
};

struct vm_named {
	char		*value;		/* as typed (parsed by the option's type) */
	char		*label;		/* shown after it; may be NULL */
	char		*aliases;	/* other names typed for it, '\n'-separated
					   (an accelerator's: "H100"); or NULL */
};

struct vm_page {
	char		*title;
	char		*intro;
	char		*file;
	bool		 review;
	bool		 placement;	/* shows the placement picture */
	bool		 all;		/* an "All options" page, built from
					   the catalog: off the page sequence
					   (Tab, 1-9), reached with a or / */
	enum vm_scope	 role;		/* per-role page: its role; else SC_SHARED */
	struct expr	*visible;
	struct vm_field	*f;
	size_t		 nf;
};

/*
 * One candidate value of a field and what blocks it. Rows and their
 * choices belong to the view-model: their strings stay valid until the next
 * vm_refresh (or any intent, which refreshes) and are freed by it.
 */
struct vm_choice {
	struct value		 v;
	char			*text;		/* as shown; never NULL */
	bool			 current;
	const struct rule	*blocker;	/* NULL: available */
	enum vm_scope		 blocked_in;	/* role whose config it breaks */
};

/* What the view shows for one field of the current page. */
struct vm_row {
	int			 field;		/* index in the page */
	const struct vm_field	*f;
	bool			 is_bool;
	bool			 on;		/* bool: shown state (after invert) */
	char			*value;		/* effective value as text; never NULL */
	char			*note;		/* "(forced: ...)", "(default)",
						   "(from model)", "(derived)"
						   or "" */
	bool			 derived;	/* a layout value the user left
						   out: value is the derived one */
	bool			 layout;	/* a layout field: unset, it
						   takes the derived value */
	bool			 forced;	/* an override changed it */
	bool			 error;		/* an error diagnostic points here */
	bool			 warning;
	size_t			 nblocked;	/* unavailable values */
	struct vm_choice	*choices;	/* for bools and choice fields */
	size_t			 nchoices;
	bool			 checked;	/* blocker and nblocked worked
						   out (see vm_rows_check) */
	const char		*heading;	/* an All options page: SGLang's
						   group this row begins (shown
						   above it, not selectable),
						   or NULL */
	const char		*group;		/* ... and the group it is in
						   (every row), or NULL */
};

struct vm_review_item {
	enum vm_scope		 role;		/* SC_DEPLOY for cross-role */
	enum severity		 sev;
	const char		*id;
	char			*msg;
	int			 page, field;	/* where Enter jumps, -1 if nowhere */
};

/* Why a field matched a search: what the hit text shows after it. */
enum vm_hit_why { VM_WHY_NAME, VM_WHY_VALUE, VM_WHY_HELP };

struct vm_hit {
	int		 page, field;
	int		 score;
	enum vm_hit_why	 why;
	const char	*what;		/* the matching choice or help text */
	size_t		 at;		/* VM_WHY_HELP: where in what */
};

struct vm;

/* Build an empty wizard over the catalog (a fresh PD deployment). */
struct vm	*vm_new(const struct catalog *);
void		 vm_free(struct vm *);

/*
 * Load forms/NN-name.yaml from dir in name order. A form that refers to an unknown
 * option, has a bad condition or an unknown key is an error
 * "file:line:col: message"; returns -1.
 */
int		 vm_load_forms(struct vm *, const char *dir, char *err,
		    size_t errlen);
/*
 * Build the All options pages (vm_forms.c) if not yet built, after every
 * other page: nothing of them exists until the wizard opens them (a) or a
 * search goes past the pages' own fields. Refreshes. 0, or -1 when there
 * are none (every option on a page, or no forms loaded).
 */
int		 vm_all_options(struct vm *);
bool		 vm_all_built(const struct vm *);
/* Load one form from text (tests). */
int		 vm_load_form_text(struct vm *, const char *name,
		    const char *text, size_t len, char *err, size_t errlen);

/* Open a deployment file or a launch script; problems become diagnostics. */
int		 vm_open_file(struct vm *, const char *path, char *err,
		    size_t errlen);
int		 vm_import_script(struct vm *, const char *path, char *err,
		    size_t errlen);

/* One keystroke's model work: configs, rules, visibility, availability. */
void		 vm_refresh(struct vm *);

/* Pages (all, and whether each is shown now). */
size_t		 vm_npages(const struct vm *);
const struct vm_page *vm_page(const struct vm *, size_t);
bool		 vm_page_visible(const struct vm *, size_t);
bool		 vm_field_visible(const struct vm *, size_t page, size_t field);
const char	*vm_scope_name(enum vm_scope);

/* Focus. */
int		 vm_cur_page(const struct vm *);
int		 vm_cur_row(const struct vm *);	/* index into rows */
void		 vm_move(struct vm *, int delta);
void		 vm_page_step(struct vm *, int delta);
void		 vm_goto(struct vm *, int page, int field);

/* Rows of the current page (visible fields) after vm_refresh. */
size_t		 vm_rows(const struct vm *, const struct vm_row **);
/*
 * Work out the unavailable values of rows first..first+n-1 where not yet
 * done. Every row of an ordinary page and the focused row are always done;
 * on an All options page (hundreds of rows) the others wait for this, so
 * that the view asks only for the rows it shows.
 */
void		 vm_rows_check(struct vm *, size_t first, size_t n);
const struct vm_row *vm_focused(const struct vm *);

/*
 * Intents. Return 0, or -1. Either way the message for the status line
 * replaces the text of msg, a buffer the caller owns (and frees).
 */
int		 vm_set(struct vm *, int page, int field, struct value,
		    struct buf *msg);
int		 vm_set_text(struct vm *, int page, int field, const char *text,
		    struct buf *msg);
int		 vm_toggle(struct vm *, struct buf *msg);
int		 vm_fix(struct vm *, struct buf *msg);
int		 vm_undo(struct vm *, struct buf *msg);
/* Unset the focused field: back to its default, or its derived value. */
int		 vm_clear(struct vm *, struct buf *msg);
/* Write every derived layout value (GPUs, ports, hosts, the router's
 * lists) into the deployment as set values: one undoable change. */
int		 vm_pin(struct vm *, struct buf *msg);
int		 vm_redo(struct vm *, struct buf *msg);
size_t		 vm_undo_depth(const struct vm *);
size_t		 vm_redo_depth(const struct vm *);

/* The problem of the focused field: the rule and its message, or NULL. */
const struct rule *vm_focus_problem(struct vm *, struct buf *msg);
/* Help text for the focused field, or on the review page the focused
 * problem's full text (malloc'd, lines separated by \n); NULL when
 * nothing is focused. */
char		*vm_help(struct vm *);
/* Current field's value as editable text (malloc'd). */
char		*vm_edit_text(struct vm *);

/* Dirty state: differs from what was loaded or last saved. */
bool		 vm_dirty(const struct vm *);
/* What changed since then, one line each (malloc'd). */
char		*vm_changes(const struct vm *);

/*
 * Search every visible field by label, option name, flag, choice values
 * and help; best first. Returns count.
 */
size_t		 vm_search(struct vm *, const char *query, struct vm_hit *,
		    size_t max);
/* Describe a hit: label, why it matched ("value: deepep", "help: ...")
 * when not by name, page, flag ("MoE all-to-all backend  value: deepep
 * [Parallelism (decode)]  --moe-a2a-backend"); malloc'd. */
char		*vm_hit_text(const struct vm *, const struct vm_hit *);

/* Review: every diagnostic by role then severity. */
size_t		 vm_review(struct vm *, const struct vm_review_item **);
/* The full text of review item i: role, severity, SGLang's message,
 * what it means, the terms and their origins, the fixes, where Enter
 * goes (malloc'd). */
char		*vm_review_text(struct vm *, size_t i);
/* Totals of the last refresh. */
void		 vm_counts(const struct vm *, size_t *errors, size_t *warnings,
		    size_t *overrides);
/* The checks not run (a value they need is unknown), as pdwiz check
 * counts them. */
size_t		 vm_unchecked(const struct vm *);

/*
 * The placement picture (malloc'd lines, or NULL outside PD): per host a
 * strip of its GPUs with the role, instance and rank that owns each; every
 * GPU collision, GPU past the host's count and port collision; then one
 * line per server (or per instance, when its nodes are alike) with its
 * GPUs and ports, and the router. At most width columns; utf8 false keeps
 * it ASCII.
 */
char		*vm_placement(struct vm *, bool utf8, int width);

/* The launch commands (preview), malloc'd. */
char		*vm_preview(struct vm *);
/* The preview's views: 0 launch script, 1 runbook, 2 --config YAML, 3
 * Kubernetes; the name of view i (NULL past the end) and its text, the
 * bytes `pdwiz emit` writes (with --force, and a note, when the
 * deployment has errors; several files one after the other). */
const char	*vm_preview_name(size_t i);
char		*vm_preview_text(struct vm *, size_t i);
/* The first line at or after line from that contains q (ASCII case
 * ignored), wrapping around to the top; -1 when none does. */
long		 vm_text_find(const char *text, long from, const char *q);

/* Save the deployment file. Atomic; never overwrites an existing file
 * unless force. Returns 0, 1 (exists: ask, then force), -1 (error). */
int		 vm_save(struct vm *, const char *path, bool force,
		    struct buf *msg);
#define VM_EXPORT_OVERWRITE	0x1	/* replace existing files */
#define VM_EXPORT_FAILING	0x2	/* emit despite errors (marked failing) */
const char	*vm_export_format(size_t i);	/* NULL past the end */
/*
 * The export path offered for format (malloc'd): beside the deployment's
 * file (opened, saved, or an import's suggested one), named after it
 * (llama.yaml: llama-launch.sh, llama-RUNBOOK.md, llama-config/,
 * llama-k8s.yaml); a new deployment's in the current directory (launch.sh,
 * RUNBOOK.md, pd-config/, pd-k8s.yaml). vm_export never writes over the
 * deployment's own file or the script it was imported from, nor puts the
 * files of several into the directory of something not a file (/dev/null).
 */
char		*vm_export_default_path(const struct vm *, const char *format);
/* Export through the same emitters as `pdwiz emit`. Returns 0, 1 (a file
 * exists), 2 (the deployment has errors), -1 (error). */
int		 vm_export(struct vm *, const char *format, const char *path,
		    unsigned flags, struct buf *msg);
/* Apply the fix for one candidate value of the focused field (-1: the
 * field's own problem or its first unavailable value). */
int		 vm_fix_choice(struct vm *, int choice, struct buf *msg);
/*
 * What vm_fix_choice would change, without changing anything: 0 with the
 * change list in *changes (malloc'd, one line each, also the side effects
 * of earlier fixes it takes back) and *more true when it changes more than
 * the focused field; -1 with the reason in msg when no fix applies.
 */
int		 vm_fix_plan(struct vm *, int choice, char **changes,
		    bool *more, struct buf *msg);
/*
 * A shared field whose roles hold different values (prefill nixl, decode
 * mooncake): true with each role's value as text (malloc'd).
 */
bool		 vm_shared_split(struct vm *, char **prefill, char **decode);
/*
 * The fixes of the focused field's problem that each clear it (tried and
 * checked again, nothing changed): their labels and the index to give
 * vm_fix_select, n of them (malloc'd arrays; labels point into the
 * catalog). vm_fix_select(i): the next vm_fix_plan and vm_fix_choice use
 * that fix only (-1: the first that works; reset after vm_fix_choice).
 */
size_t		 vm_fix_alternatives(struct vm *, int choice,
		    const char ***labels, int **idx);
void		 vm_fix_select(struct vm *, int fix);
/*
 * The problem the next fixes are for (the review row's rule id, reported
 * on role; a warning as well as an error), before the focused field's own;
 * NULL: back to the focused field's.
 */
void		 vm_fix_for(struct vm *, const char *rule_id,
		    enum vm_scope role);
/*
 * f on review item i: what its problem's verified fix would change
 * (vm_review_fix_plan, as vm_fix_plan), and applying it (vm_review_fix),
 * from the rule alone: for a problem that belongs to no field (a
 * deployment-level one). -1 with msg when there is no such fix: the rule
 * has none (what to do instead), or none clears it here.
 */
int		 vm_review_fix_plan(struct vm *, size_t i, char **changes,
		    struct buf *msg);
int		 vm_review_fix(struct vm *, size_t i, struct buf *msg);
/*
 * Has review item i a fix to try (its rule has fixes)? false with what to
 * do instead in msg (no one-key fix: ? for the help, Enter for its field).
 */
bool		 vm_review_fixable(struct vm *, size_t i, struct buf *msg);
/* The SGLang message that blocks one candidate value, or "" (available). */
void		 vm_choice_problem(struct vm *, int choice, struct buf *msg);
const char	*vm_path(const struct vm *);
/* Error text from loading the file (shown at start), or NULL. */
const char	*vm_load_note(const struct vm *);
/* Did the file fail to load (the pages show the default deployment)? */
bool		 vm_load_failed(const struct vm *);
/* The header's name: the file, "X.yaml (from X.sh)", or
 * "new deployment". */
const char	*vm_title(const struct vm *);
/* The save path to offer (an import's SCRIPT-STEM.yaml), or NULL. */
const char	*vm_suggested_path(const struct vm *);

/*
 * Where the value of option opt in a role's effective configuration came
 * from: "default", "from the model's facts", "set by you", "derived
 * (layout)", "imported from FILE", "forced by the decode role (rule X:
 * ...)" (malloc'd).
 */
char		*vm_origin(struct vm *, enum vm_scope, int opt);
/* The file the deployment was opened (or imported) from, for origins. */
void		 vm_note_source(struct vm *, const char *path, bool imported);


/*
 * The quick start (vm_quick.c): a new deployment from a few answers; the
 * rest is derived. vm_quick_init fills the defaults (8 GPUs, 1 node,
 * mooncake, 1P1D); vm_quick_check says what is wrong with the answers (or
 * gives the TP and nodes per instance they lead to); vm_quick_apply makes
 * the deployment as one undoable change and focuses the review.
 */
struct vm_quick {
	char	*model;
	int	 gpus_per_node;
	int	 nodes;
	char	*hosts;		/* comma-separated, one per node (nodes > 1) */
	char	*backend;
	int	 nprefill, ndecode;
	char	*gpu;		/* the accelerator (fact gpu), a name of
				   rules/hardware.yaml */
};
void		 vm_quick_init(struct vm *, struct vm_quick *);
void		 vm_quick_free(struct vm_quick *);
/* The transfer backends offered, in order; NULL past the end. */
const char	*vm_quick_backend(const struct vm *, size_t i);
/* Parse "xPyD" (1P1D, 2P4D): 0, or -1 with the reason. */
int		 vm_quick_shape(const char *, int *np, int *nd, char *err,
		    size_t errlen);
int		 vm_quick_check(const struct vm *, const struct vm_quick *,
		    int *tp, int *nodes_per_instance, char *err, size_t errlen);
int		 vm_quick_apply(struct vm *, const struct vm_quick *,
		    struct buf *msg);
/* The errors the answers would give (checked as the pages check them,
 * then taken back), the first one's message in *first (owned or NULL). */
size_t		 vm_quick_trial(struct vm *, const struct vm_quick *,
		    char **first);
/* The accelerators offered (the named values of the form's gpu field,
 * rules/hardware.yaml's), in order; NULL past the end. */
const struct vm_named *vm_quick_accel(const struct vm *, size_t i);
/* Type-ahead: the first accelerator whose name or an alias begins with
 * typed (case, and every character that is not a letter or a digit,
 * ignored: "h1" and "h100" find H100-SXM-80GB); -1 when none. */
int		 vm_quick_accel_find(const struct vm *, const char *typed);
/* Does text begin with typed, case and punctuation ignored? The match of
 * every list's type-ahead; false when typed has no letter or digit. */
bool		 vm_typeahead_match(const char *text, const char *typed);

#endif
