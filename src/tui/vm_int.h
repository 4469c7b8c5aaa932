/*
 * vm_int.h - the view-model's private parts, shared by the files of src/tui
 * that implement vm.h and by nothing else.
 *
 * vm.c          life cycle, pages and focus, the refresh (configs, rules,
 *               visibility)
 * vm_cells.c    scopes, deployment cells (scope, key) <-> text, dirty
 *               tracking and the change list
 * vm_forms.c    loading forms/NN-name.yaml into pages and fields
 * vm_rows.c     the rows of the current page: values, notes, choices
 * vm_edit.c     intents (set, toggle, edit text), transactions, undo/redo
 * vm_fix.c      the focused field's problem and applying fixes
 * vm_help.c     help text for the focused field
 * vm_search.c   search over every field
 * vm_review.c   the review page's diagnostics
 * vm_file.c     open, import, preview, save, export
 * vm_layout.c   derived layout values, pin, the placement picture
 * vm_origin.c   where a value came from (the help's origins)
 * vm_preview.c  the preview's texts from the emitters, search in them
 */
#ifndef PDWIZ_TUI_VM_INT_H
#define PDWIZ_TUI_VM_INT_H

#include "core/util.h"
#include "deploy/deploy.h"
#include "deploy/layout.h"
#include "tui/vm.h"

/*
 * One cell change: text before and after (NULL: unset); or, when dold is
 * set, the whole deployment before and after (pin, fixes, and any
 * deployment field, whose one cell may stand for several roles' values).
 * keyed: scope and key name the field changed.
 */
struct vm_op {
	enum vm_scope		 scope;
	int			 key;
	bool			 keyed;
	char			*old, *new;
	struct deployment	*dold, *dnew;
};

/* A fix applied for one value of a field, and the other cells it set:
 * when a later fix moves the field off that value, those cells (where they
 * still hold what the fix set) go back with it. */
struct vm_fixmemo {
	enum vm_scope	 scope;
	int		 key;
	char		*value;		/* the field's value the fix was for */
	struct vm_op	*ops;		/* the side effects: scope, key, old, new */
	size_t		 n;
};

/* The changes of one intent, undone and redone together. */
struct vm_txn {
	struct vm_op	*ops;
	size_t		 n;
	char		*what;
	int		 page;		/* the page it was made on */
};

struct txnstack {
	struct vm_txn	*t;
	size_t		 n, cap;
};

struct vm {
	const struct catalog	*cat;
	struct deployment	 dep;
	char			*path;
	char			*baseline;	/* canonical dump when loaded/saved */
	char			*load_note;
	enum severity		 load_sev;	/* of load_note: error (a file that
						   did not load) or warning */

	struct vm_page		*pages;
	size_t			 npages;
	bool			*pvis;		/* per page, last refresh */
	bool			**fvis;		/* per page, per field */
	size_t			 nvis;		/* pages fvis was sized for */

	int			 page, field;	/* focus: field index in page */

	/* per-role configs and results (index: enum vm_scope) */
	struct config		 cfg[NSCOPE];
	struct result		 res[NSCOPE];
	bool			 have[NSCOPE];
	struct result		 cross;
	struct layout		 lay;		/* of dep, last refresh */
	bool			 have_lay;
	/* The deployment's generation: bumped (vmi_dep_changed) by every
	 * write to dep, in place or by replacing it, even with an equal
	 * copy (the results point into it). The layout, configs and results
	 * above are of generation built_gen; vm_refresh rebuilds them only
	 * when dep_gen moved on, so a keystroke that changed no value
	 * (focus, page) costs its rows, not a check of every instance. */
	unsigned long		 dep_gen, built_gen;
	char			*built_yaml;	/* PDWIZ_VM_VERIFY: dep's file
						   text at built_gen */
	/* The placement picture last drawn (vm_placement), of the layout
	 * of generation pic_gen, for pic_utf8 and pic_width: every
	 * keystroke on a page that shows it draws it again. */
	char			*pic;
	unsigned long		 pic_gen;
	bool			 pic_utf8;
	int			 pic_width;

	struct vm_row		*rows;
	size_t			 nrows, rowcap;

	struct vm_review_item	*review;
	size_t			 nreview;

	struct txnstack		 undo, redo;

	int			 o_model, o_mode;

	char			*src_name;	/* file the deployment came from */
	bool			 src_imported;	/* ... as an imported script */
	char			*title;		/* header text; NULL: the path */
	char			*suggest;	/* save path offered (import) */
	struct vm_fixmemo	*memo;		/* fixes applied, for their side
						   effects (vm_fix.c) */
	size_t			 nmemo;
	int			 fix_pick;	/* vm_fix_select: the rule's fix
						   to use; -1 the first that
						   works */
	char			*fix_id;	/* vm_fix_for: the problem (rule
						   id) f fixes; NULL: the
						   focused field's */
	enum vm_scope		 fix_role;	/* ... reported on this role */
	bool			 all_built;	/* vm_all_options was tried */
	int			 all_first;	/* the first All options page;
						   -1 none (not built) */
};

/* The deployment was written to, or replaced (vm.c): the next refresh
 * rebuilds the results. Every write to vm->dep calls it. */
void		 vmi_dep_changed(struct vm *);

/* Replace the message in msg (vm.c). */
void		 vmi_msg(struct buf *msg, const char *fmt, ...)
		    __attribute__((format(printf, 2, 3)));

extern const char *const vmi_scope_names[NSCOPE];
extern const char *const vmi_df_names[NDF];
/* The parallelism options "same as prefill" compares and copies
 * (vm_cells.c), NULL-terminated. */
extern const char *const vmi_par_opts[];
/* Is a deployment field one per role (else one for the deployment)? */
bool		 vmi_df_per_role(int df);

/* Scopes and roles (vm_cells.c). */
bool		 vmi_is_pd(const struct vm *);
enum role	 vmi_scope_role(enum vm_scope);
/* The page of a role (SC_SINGLE for one outside PD). */
enum vm_scope	 vmi_role_scope(enum role);
bool		 vmi_scope_active(const struct vm *, enum vm_scope);
/* The server roles a cell of this scope reaches. */
size_t		 vmi_scope_servers(const struct vm *, enum vm_scope,
		    enum vm_scope out[2]);
/* The config a field of this scope is displayed from. */
enum vm_scope	 vmi_scope_view(const struct vm *, enum vm_scope);

/* Deployment cells (vm_cells.c): current text (malloc'd, NULL: unset). */
char		*vmi_cell_get(struct vm *, enum vm_scope, int key);
/* Set a cell (text NULL: unset). */
void		 vmi_cell_set(struct vm *, enum vm_scope, int key,
		    const char *text);
/* A canonical, order-independent dump of every cell (malloc'd). */
char		*vmi_dump_state(struct vm *);
void		 vmi_set_baseline(struct vm *);
/* The change list between two dumps, one "  scope: name: a -> b" line
 * each (malloc'd; "" when equal). */
char		*vmi_diff(const char *from, const char *to);

/* The router's lists as a cell's text, "URL [BOOT], ...; URL, ...", or
 * NULL when both are empty (malloc'd); and back (0, or -1 with err; a
 * list may come back empty). */
char		*vmi_urls_text(const struct endpoint *, size_t,
		    const struct endpoint *, size_t);
int		 vmi_urls_parse(const char *, struct endpoint **, size_t *,
		    struct endpoint **, size_t *, char *err, size_t errlen);

/* Forms (vm_forms.c). */
void		 vmi_page_free(struct vm_page *);

/* Rows (vm_rows.c). */
void		 vmi_build_rows(struct vm *);
void		 vmi_rows_clear(struct vm *);
/* Work out which of the row's values the rules block (once per refresh;
 * the All options page leaves it to the rows shown, vm_rows_check). */
void		 vmi_row_check(struct vm *, struct vm_row *);
bool		 vmi_same_value(struct value, struct value);
/* Does a diagnostic of role s point at this field? */
/* The option a diagnostic is about (vm_rows.c): its own; tp_size for a
 * memory error. */
int		 vmi_diag_opt(const struct vm *, const struct diag *);
bool		 vmi_diag_hits(const struct vm *, const struct vm_field *,
		    enum vm_scope s, const struct diag *);

/* Transactions (vm_edit.c). */
/* The cell text for a value (malloc'd), NULL for unset or the default. */
char		*vmi_text_for(const struct vm *, int key, struct value);
char		*vmi_text_in(struct vm *, enum vm_scope, int key,
		    struct value);
/* Record and apply one change into t. */
void		 vmi_txn_set(struct vm *, struct vm_txn *t, enum vm_scope,
		    int key, const char *text);
/* Push t on the undo stack (or drop it when empty) and refresh. */
void		 vmi_txn_commit(struct vm *, struct vm_txn *t);
/* Undo what t recorded (not yet committed) and free it. */
void		 vmi_txn_abandon(struct vm *, struct vm_txn *t);
/* Apply fix i of deployment rule r to the whole deployment, into t; -1
 * when it does not apply (nothing changed). */
int		 vmi_txn_deploy_fix(struct vm *, struct vm_txn *t,
		    const struct rule *r, size_t fix);
/* Record a change fn makes to the whole deployment into t (nothing when
 * it changes nothing). */
void		 vmi_txn_snapshot(struct vm *, struct vm_txn *t,
		    void (*fn)(const struct catalog *, struct deployment *));
void		 vmi_txn_clear(struct txnstack *);

/* Does deployment rule r read field f's option, for f's role? (vm_fix.c) */
bool		 vmi_cross_reads(const struct vm *, const struct rule *r,
		    const struct vm_field *f);
/* Forget the fixes remembered for their side effects (vm_fix.c). */
void		 vmi_fixmemo_clear(struct vm *);
/* Fixes (vm_fix.c): does the fix set this option? */
bool		 vmi_fix_touches(const struct catalog *, const struct fix *,
		    int opt);

/* Layout (vm_layout.c): the derived value of a layout cell the user left
 * unset (malloc'd), or NULL when the cell is not a layout value. */
char		*vmi_derived(const struct vm *, enum vm_scope, int key);
void		 vmi_refresh_layout(struct vm *);
void		 vmi_layout_clear(struct vm *);

/* Origins (vm_origin.c): vm_origin over a given input and effective
 * config of role s (the help's what-if configs). */
char		*vmi_origin_in(struct vm *, enum vm_scope s, int opt,
		    const struct config *in, const struct config *eff);
/* The origin of a deployment field's value (derived: the row shows the
 * layout's derived value). */
char		*vmi_dfield_origin(struct vm *, enum vm_scope s, int key,
		    bool derived);

/* Help (vm_help.c): diagnostic d of role s (SC_DEPLOY: a deployment
 * rule) in words: SGLang's message, what it means, the condition's terms
 * with their values and origins (in, eff: the role's configs; NULL for
 * a deployment rule), the verified fixes, the rule and its source. */
void		 vmi_help_diag(struct vm *, struct buf *, enum vm_scope s,
		    const struct diag *d, const struct config *in,
		    const struct config *eff, int focused_opt, int chosen);
/* The same for diagnostic d of role s's result, its fixes verified first
 * (on the deployment's machines: the role's GPUs a node, else
 * gpus_per_host). */
void		 vmi_help_role_diag(struct vm *, struct buf *, enum vm_scope s,
		    const struct diag *d, int focused_opt);

/* Review (vm_review.c). */
void		 vmi_refresh_review(struct vm *);
/* The layout field (a deployment field key) a deployment rule is about,
 * or 0. */
int		 vmi_layout_key(const char *rule_id);
void		 vmi_review_clear(struct vm *);
/* The diagnostic review item it lists, or NULL (a note of the load). */
const struct diag *vmi_review_diag(struct vm *,
		    const struct vm_review_item *it);

#endif
