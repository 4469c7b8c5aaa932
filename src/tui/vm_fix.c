/*
 * vm_fix.c - the focused field's problem (an error on it, else a blocked
 * value) and applying a rule's fix as one transaction.
 */
#include "tui/vm_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/describe.h"
#include "core/util.h"

bool
vmi_cross_reads(const struct vm *vm, const struct rule *r,
    const struct vm_field *f)
{
	size_t	k;

	for (k = 0; k < r->nreads; k++) {
		int	o = slot_opt(vm->cat->nopts, r->reads[k]);
		int	role = slot_role(vm->cat->nopts, r->reads[k]);

		if (o != f->key)
			continue;
		if (role < 0 || f->scope < SC_PREFILL || f->scope_is_page ||
		    vmi_role_scope((enum role)role) == f->scope)
			return true;
	}
	return false;
}

/*
 * Where rule r is reported (an error or a warning) on a role: *in that
 * role (pref first), SC_SHARED when on both the prefill and the decode
 * (one fix must clear both), the field's scope when only across roles;
 * false when nowhere. *dp: a diag of it.
 */
static bool
rule_where(const struct vm *vm, const struct rule *r, enum vm_scope pref,
    enum vm_scope field_scope, enum vm_scope *in, const struct diag **dp)
{
	bool	on[NSCOPE] = { false }, any = false;
	size_t	s, i;

	*dp = NULL;
	for (s = SC_PREFILL; s < NSCOPE; s++)
		for (i = 0; vm->have[s] && i < vm->res[s].n; i++) {
			const struct diag	*d = &vm->res[s].d[i];

			if (d->rule != r || (d->sev != SEV_ERROR &&
			    d->sev != SEV_WARNING))
				continue;
			if (!on[s] && (*dp == NULL || s == (size_t)pref))
				*dp = d;
			on[s] = any = true;
		}
	if (on[SC_PREFILL] && on[SC_DECODE]) {
		*in = SC_SHARED;
		return true;
	}
	if (pref < NSCOPE && on[pref]) {
		*in = pref;
		return true;
	}
	for (s = SC_PREFILL; s < NSCOPE; s++)
		if (on[s]) {
			*in = (enum vm_scope)s;
			return true;
		}
	for (i = 0; !any && i < vm->cross.n; i++)
		if (vm->cross.d[i].rule == r && (vm->cross.d[i].sev ==
		    SEV_ERROR || vm->cross.d[i].sev == SEV_WARNING)) {
			*dp = &vm->cross.d[i];
			*in = field_scope;
			return true;
		}
	return false;
}

static const struct rule *
rule_by_id(const struct vm *vm, const char *id)
{
	size_t	s, i;

	for (s = SC_PREFILL; s < NSCOPE; s++)
		for (i = 0; vm->have[s] && i < vm->res[s].n; i++)
			if (vm->res[s].d[i].rule != NULL &&
			    strcmp(vm->res[s].d[i].rule->id, id) == 0)
				return vm->res[s].d[i].rule;
	for (i = 0; i < vm->cross.n; i++)
		if (vm->cross.d[i].rule != NULL &&
		    strcmp(vm->cross.d[i].rule->id, id) == 0)
			return vm->cross.d[i].rule;
	return NULL;
}

static void
where_msg(const struct diag *d, enum vm_scope in,
    struct buf *msg)
{
	vmi_msg(msg, "%s (%s): %s", d->sev == SEV_ERROR ? "error" : "warning",
	    in == SC_SHARED ? "both roles" : in >= SC_PREFILL ?
	    vmi_scope_names[in] : "deployment", d->msg);
}

/* A warning on field f of role s: about it, or one of its fixes sets it
 * (no IB device pinned: the IB devices field). */
static bool
warning_hits(struct vm *vm, const struct vm_field *f, enum vm_scope s,
    const struct diag *d)
{
	enum vm_scope	r[2];
	size_t		n, i, k;

	if (vmi_diag_hits(vm, f, s, d))
		return true;
	if (VM_IS_DKEY(f->key))
		return false;
	n = vmi_scope_servers(vm, f->scope, r);
	for (i = 0; i < n; i++)
		if (r[i] == s)
			break;
	if (i == n || d->rule == NULL)
		return false;
	for (k = 0; k < d->rule->nfixes; k++)
		if (vmi_fix_touches(vm->cat, &d->rule->fixes[k], f->key))
			return true;
	return false;
}

/* The problem of the focused field: the one asked for (vm_fix_for), else
 * an error on it, else a blocked value, else a warning on it that has a
 * fix. */
static const struct rule *
focus_rule(struct vm *vm, int want, const struct vm_choice **blocked,
    enum vm_scope *in, struct buf *msg)
{
	const struct vm_row	*row = vm_focused(vm);
	const struct diag	*wd;
	enum vm_scope		 s;
	size_t			 i;

	*blocked = NULL;
	*in = SC_SHARED;
	if (row == NULL)
		return NULL;
	/* The review row's problem, wherever it is reported. */
	if (want < 0 && vm->fix_id != NULL) {
		const struct rule	*r = rule_by_id(vm, vm->fix_id);

		if (r != NULL && r->nfixes > 0 && rule_where(vm, r,
		    vm->fix_role, row->f->scope, in, &wd)) {
			where_msg(wd, *in, msg);
			return r;
		}
		*in = SC_SHARED;
	}
	for (s = SC_PREFILL; want < 0 && s < NSCOPE; s++) {
		if (!vm->have[s])
			continue;
		for (i = 0; i < vm->res[s].n; i++) {
			const struct diag	*d = &vm->res[s].d[i];

			if (d->sev != SEV_ERROR || d->rule == NULL ||
			    !vmi_diag_hits(vm, row->f, s, d))
				continue;
			vmi_msg(msg, "error (%s): %s", vmi_scope_names[s],
			    d->msg);
			*in = s;
			return d->rule;
		}
	}
	/* A cross-role error that reads this option (on this role's page, or
	 * on a shared one). */
	for (i = 0; want < 0 && !VM_IS_DKEY(row->f->key) && i < vm->cross.n;
	    i++) {
		const struct diag	*d = &vm->cross.d[i];

		if (d->sev != SEV_ERROR || d->rule == NULL ||
		    !vmi_cross_reads(vm, d->rule, row->f))
			continue;
		vmi_msg(msg, "error (deployment): %s", d->msg);
		*in = row->f->scope;
		return d->rule;
	}
	/* A layout error on a deployment field (the router's lists, ports,
	 * GPUs): the deployment rule behind it. */
	for (i = 0; want < 0 && VM_IS_DKEY(row->f->key) && i < vm->cross.n;
	    i++) {
		const struct diag	*d = &vm->cross.d[i];

		if (d->sev != SEV_ERROR || d->rule == NULL ||
		    d->rule->nfixes == 0 ||
		    vmi_layout_key(d->id) != row->f->key)
			continue;
		vmi_msg(msg, "error (deployment): %s", d->msg);
		*in = row->f->scope;
		return d->rule;
	}
	for (i = 0; i < row->nchoices; i++) {
		const struct vm_choice	*c = &row->choices[i];
		struct buf		 b = { 0 };
		struct result		 r;
		struct config		 tmp = { 0 };
		size_t			 j;

		if (c->blocker == NULL || (want >= 0 && (size_t)want != i))
			continue;
		/* Render the message as SGLang would print it. */
		config_copy(&tmp, &vm->cfg[c->blocked_in]);
		tmp.s[row->f->key].v = c->v;
		tmp.s[row->f->key].src = SRC_USER;
		result_init(&r);
		engine_run(vm->cat, &tmp, &r);
		for (j = 0; j < r.n; j++)
			if (r.d[j].rule == c->blocker) {
				buf_puts(&b, r.d[j].msg);
				break;
			}
		vmi_msg(msg, "%s unavailable%s%s: %s", c->text,
		    vmi_is_pd(vm) ? " on " : "", vmi_is_pd(vm) ?
		    vmi_scope_names[c->blocked_in] : "", b.s ? b.s :
		    c->blocker->message_src);
		buf_free(&b);
		result_free(&r);
		config_free(&tmp);
		*blocked = c;
		*in = c->blocked_in;
		return c->blocker;
	}
	/* A warning on the field that has a fix (no IB device pinned, an
	 * instance the router does not list). */
	for (s = SC_PREFILL; want < 0 && s < NSCOPE; s++)
		for (i = 0; vm->have[s] && i < vm->res[s].n; i++) {
			const struct diag	*d = &vm->res[s].d[i];

			if (d->sev != SEV_WARNING || d->rule == NULL ||
			    d->rule->nfixes == 0 ||
			    !warning_hits(vm, row->f, s, d) ||
			    !rule_where(vm, d->rule, s, row->f->scope, in,
			    &wd))
				continue;
			where_msg(wd, *in, msg);
			return d->rule;
		}
	for (i = 0; want < 0 && i < vm->cross.n; i++) {
		const struct diag	*d = &vm->cross.d[i];

		if (d->sev != SEV_WARNING || d->rule == NULL ||
		    d->rule->nfixes == 0)
			continue;
		if (VM_IS_DKEY(row->f->key) ? vmi_layout_key(d->id) !=
		    row->f->key : !vmi_cross_reads(vm, d->rule, row->f))
			continue;
		*in = row->f->scope;
		where_msg(d, *in, msg);
		return d->rule;
	}
	*in = SC_SHARED;
	return NULL;
}

const struct rule *
vm_focus_problem(struct vm *vm, struct buf *msg)
{
	const struct vm_choice	*c;
	enum vm_scope		 in;

	vmi_msg(msg, "%s", "");
	return focus_rule(vm, -1, &c, &in, msg);
}

void
vm_choice_problem(struct vm *vm, int choice, struct buf *msg)
{
	const struct vm_choice	*c;
	enum vm_scope		 in;

	vmi_msg(msg, "%s", "");
	(void)focus_rule(vm, choice, &c, &in, msg);
}

/* Where a fix's setting goes, given the focused field and the role. */
static enum vm_scope
fix_scope(struct vm *vm, int opt, enum vm_scope field_scope, enum vm_scope in)
{
	char	*t;
	size_t	 i, j;
	bool	 shared_field = false, role_field = false;

	if (vm->cat->opts[opt].kind == OK_FACT || opt == vm->o_model)
		return SC_DEPLOY;
	if (in == SC_SHARED || in == SC_DEPLOY)
		in = field_scope;
	if (in >= SC_PREFILL && (t = vmi_cell_get(vm, in, opt)) != NULL) {
		free(t);
		return in;
	}
	for (i = 0; i < vm->npages; i++)
		for (j = 0; j < vm->pages[i].nf; j++) {
			if (vm->pages[i].f[j].key != opt)
				continue;
			if (vm->pages[i].f[j].scope == SC_SHARED)
				shared_field = true;
			if (vm->pages[i].f[j].scope == in)
				role_field = true;
		}
	if (role_field)
		return in;
	if (shared_field || field_scope == SC_SHARED)
		return SC_SHARED;
	return in >= SC_PREFILL ? in : SC_SHARED;
}

bool
vmi_fix_touches(const struct catalog *cat, const struct fix *fx, int opt)
{
	size_t	i;

	for (i = 0; i < fx->n; i++)
		if (slot_opt(cat->nopts, fx->opt[i]) == opt)
			return true;
	return false;
}

int
vm_fix(struct vm *vm, struct buf *msg)
{
	return vm_fix_choice(vm, -1, msg);
}

/* Is rule r reported (error or warning) anywhere in the deployment? */
static bool
reported(const struct vm *vm, const struct rule *r)
{
	size_t	s, i;

	for (s = 0; s < NSCOPE; s++)
		for (i = 0; vm->have[s] && i < vm->res[s].n; i++)
			if (vm->res[s].d[i].rule == r &&
			    (vm->res[s].d[i].sev == SEV_ERROR ||
			    vm->res[s].d[i].sev == SEV_WARNING))
				return true;
	for (i = 0; i < vm->cross.n; i++)
		if (vm->cross.d[i].rule == r && (vm->cross.d[i].sev ==
		    SEV_ERROR || vm->cross.d[i].sev == SEV_WARNING))
			return true;
	return false;
}

/* Is a memory error (fit_rule) reported on the role of scope in (any
 * role for SC_SHARED)? */
static bool	fit_rule(const struct rule *);

static bool
fit_error_reported(const struct vm *vm, enum vm_scope in)
{
	size_t	s, i;

	for (s = 0; s < NSCOPE; s++)
		for (i = 0; vm->have[s] && (in == SC_SHARED ||
		    s == (size_t)in) && i < vm->res[s].n; i++)
			if (vm->res[s].d[i].rule != NULL &&
			    vm->res[s].d[i].sev == SEV_ERROR &&
			    fit_rule(vm->res[s].d[i].rule))
				return true;
	return false;
}

/* Record fix fx of r into t: its settings on the cells they belong to. */
static void
record_fix(struct vm *vm, const struct rule *r, const struct fix *fx,
    enum vm_scope fscope, enum vm_scope in, struct vm_txn *t)
{
	size_t	i;

	for (i = 0; i < fx->n; i++) {
		size_t		 nopts = vm->cat->nopts;
		int		 o = slot_opt(nopts, fx->opt[i]);
		int		 role = slot_role(nopts, fx->opt[i]);
		enum vm_scope	 s;
		char		*text;

		if (r->deploy && role >= 0)
			s = vmi_role_scope((enum role)role);
		else
			s = fix_scope(vm, o, fscope, in);
		text = fx->val[i].t == V_NULL ? NULL :
		    vmi_text_in(vm, s, o, fx->val[i]);
		vmi_txn_set(vm, t, s, o, text);
		/* A role value would hide the shared one: drop it. */
		if (s == SC_SHARED) {
			vmi_txn_set(vm, t, SC_PREFILL, o, NULL);
			vmi_txn_set(vm, t, SC_DECODE, o, NULL);
		}
		free(text);
	}
}

/*
 * The wizard's own TP fix on a role whose GPUs per node are set below the
 * TP: the same change gives the role(s) in own_gpus_in that many GPUs per
 * node (the machine has them), or it would only trade the memory error
 * for "an instance needs N GPUs". 0: not needed.
 */
static int		 own_gpus;
static enum vm_scope	 own_gpus_in;

static void
own_gpus_set(struct vm *vm, struct vm_txn *t)
{
	char		 v[16];
	enum vm_scope	 s;

	snprintf(v, sizeof v, "%d", own_gpus);
	for (s = SC_PREFILL; s <= SC_DECODE; s++) {
		char	*cur;

		if (own_gpus_in != SC_SHARED && s != own_gpus_in)
			continue;
		cur = vmi_cell_get(vm, s, VM_DKEY(DF_GPUS));
		if (cur != NULL && atoi(cur) < own_gpus)
			vmi_txn_set(vm, t, s, VM_DKEY(DF_GPUS), v);
		free(cur);
	}
}

/* Is a role's GPUs per node set below tp (own_gpus_in's roles)? */
static bool
gpus_below(struct vm *vm, enum vm_scope in, int tp)
{
	enum vm_scope	s;
	bool		below = false;

	for (s = SC_PREFILL; s <= SC_DECODE; s++) {
		char	*cur;

		if (in != SC_SHARED && s != in)
			continue;
		cur = vmi_cell_get(vm, s, VM_DKEY(DF_GPUS));
		if (cur != NULL && atoi(cur) < tp)
			below = true;
		free(cur);
	}
	return below;
}

/*
 * Try fix i of r: apply it, check again, keep it only when r is no longer
 * reported and no error was added (the same test pdwiz check applies
 * before it offers a fix). true: applied, still to be committed in t.
 */
static bool
try_fix(struct vm *vm, const struct rule *r, size_t i, const struct fix *fx,
    enum vm_scope fscope, enum vm_scope in, long choice, struct vm_txn *t)
{
	const struct vm_row	*row;
	size_t			 e0, e1, w, u;
	bool			 was_error, cleared;

	vm_counts(vm, &e0, &w, &u);
	was_error = r->sev == SEV_ERROR;
	memset(t, 0, sizeof *t);
	if (r->deploy && vmi_txn_deploy_fix(vm, t, r, i) != 0) {
		memset(t, 0, sizeof *t);
		return false;
	}
	if (!r->deploy)
		record_fix(vm, r, fx != NULL ? fx : &r->fixes[i], fscope, in,
		    t);
	if (fx != NULL && own_gpus > 0)
		own_gpus_set(vm, t);
	vm_refresh(vm);
	vm_counts(vm, &e1, &w, &u);
	if (choice >= 0) {
		/* A greyed choice: the fix must make it available. */
		row = vm_focused(vm);
		cleared = row != NULL && (size_t)choice < row->nchoices &&
		    row->choices[choice].blocker == NULL && e1 <= e0;
	} else
		cleared = !reported(vm, r) && e1 + (was_error ? 1 : 0) <= e0;
	if (t->n > 0 && cleared)
		return true;
	vmi_txn_abandon(vm, t);
	return false;
}

void
vmi_fixmemo_clear(struct vm *vm)
{
	size_t	i, j;

	for (i = 0; i < vm->nmemo; i++) {
		free(vm->memo[i].value);
		for (j = 0; j < vm->memo[i].n; j++) {
			free(vm->memo[i].ops[j].old);
			free(vm->memo[i].ops[j].new);
		}
		free(vm->memo[i].ops);
	}
	free(vm->memo);
	vm->memo = NULL;
	vm->nmemo = 0;
}

static bool
same_cell_text(const char *a, const char *b)
{
	return a == NULL || b == NULL ? a == b : strcmp(a, b) == 0;
}

/* Which earlier fixes held their field at its value before this one. */
static bool *
memo_held(struct vm *vm)
{
	bool	*held = xcalloc(vm->nmemo + 1, sizeof *held);
	size_t	 i;

	for (i = 0; i < vm->nmemo; i++) {
		char	*t = vmi_cell_get(vm, vm->memo[i].scope,
		    vm->memo[i].key);

		held[i] = same_cell_text(t, vm->memo[i].value);
		free(t);
	}
	return held;
}

/* An earlier fix whose field this fix moved off its value: its side
 * effects go back too (where they still hold what it set), in t. */
static void
take_back(struct vm *vm, const bool *held, struct vm_txn *t)
{
	size_t	i, j;

	for (i = 0; i < vm->nmemo; i++) {
		struct vm_fixmemo	*m = &vm->memo[i];
		char			*now;

		if (!held[i])
			continue;
		now = vmi_cell_get(vm, m->scope, m->key);
		if (!same_cell_text(now, m->value))
			for (j = 0; j < m->n; j++) {
				char	*c = vmi_cell_get(vm, m->ops[j].scope,
				    m->ops[j].key);

				if (same_cell_text(c, m->ops[j].new))
					vmi_txn_set(vm, t, m->ops[j].scope,
					    m->ops[j].key, m->ops[j].old);
				free(c);
			}
		free(now);
	}
	vm_refresh(vm);
}

/* Remember what a fix set besides its field (scope, key). */
static void
memo_add(struct vm *vm, enum vm_scope scope, int key, const char *value,
    const struct vm_txn *t)
{
	struct vm_fixmemo	*m;
	size_t			 i;

	vm->memo = xreallocarray(vm->memo, vm->nmemo + 1, sizeof *vm->memo);
	m = &vm->memo[vm->nmemo++];
	memset(m, 0, sizeof *m);
	m->scope = scope;
	m->key = key;
	m->value = value ? xstrdup(value) : NULL;
	for (i = 0; i < t->n; i++) {
		const struct vm_op	*op = &t->ops[i];

		if (!op->keyed || (op->scope == scope && op->key == key))
			continue;
		m->ops = xreallocarray(m->ops, m->n + 1, sizeof *m->ops);
		m->ops[m->n].scope = op->scope;
		m->ops[m->n].key = op->key;
		m->ops[m->n].keyed = true;
		m->ops[m->n].old = op->old ? xstrdup(op->old) : NULL;
		m->ops[m->n].new = op->new ? xstrdup(op->new) : NULL;
		m->ops[m->n].dold = m->ops[m->n].dnew = NULL;
		m->n++;
	}
}

/*
 * The wizard's own first fix for a memory error (the weights do not fit,
 * or leave no KV cache): more tensor parallelism on the same node, while
 * the node has the GPUs - TP 2, 4, ... up to the machine's size. Before the
 * rule's own fixes, which add nodes or change the accelerator. Each is
 * verified as the rule's are. *fx is set up in the storage given.
 */
static bool
fit_rule(const struct rule *r)
{
	return strcmp(r->id, "fit-weights") == 0 ||
	    strcmp(r->id, "fit-kv-none") == 0;
}

static int
same_node_tp(struct vm *vm, enum vm_scope in, int k, struct fix *fx,
    int *opt, struct value *val, char *label, size_t labellen)
{
	int	o = catalog_find(vm->cat, "tp_size"), tp, host, i;
	enum vm_scope	s = in >= SC_PREFILL && in <= SC_DECODE ? in :
	    SC_PREFILL;

	if (o < 0 || !vm->have[s])
		return -1;
	tp = vm->cfg[s].s[o].v.t == V_INT ? (int)vm->cfg[s].s[o].v.u.i : 1;
	host = vm->have_lay && vm->lay.gpus_per_host > 0 ?
	    vm->lay.gpus_per_host : 8;
	for (i = 0; i <= k; i++)
		tp *= 2;
	if (tp > host || tp < 2)
		return -1;
	*opt = o;
	*val = val_int(tp);
	snprintf(label, labellen, "more tensor parallelism on the same node: "
	    "TP %d (of its %d GPUs)", tp, host);
	fx->label = label;
	fx->opt = opt;
	fx->val = val;
	fx->n = 1;
	return 0;
}

/*
 * Find the fix for the focused field (or its choice) and apply it into t,
 * with the side effects of earlier fixes it takes back. 0: applied, not
 * committed; -1 with msg. *fxp: the fix applied (the rule's, or the
 * wizard's own in storage that lives until the next call).
 */
static int
fix_find(struct vm *vm, int choice, struct vm_txn *t, const struct rule **rp,
    const struct fix **fxp, struct buf *msg)
{
	static struct fix	 own;
	static int		 own_opt;
	static struct value	 own_val;
	static char		 own_label[128];
	const struct vm_row	*row = vm_focused(vm);
	const struct vm_choice	*c;
	const struct rule	*r;
	enum vm_scope		 in;
	struct buf		 m = { 0 };
	size_t			 i, pass;
	long			 cidx;
	int			 key;
	enum vm_scope		 fscope;
	bool			*held;

	r = focus_rule(vm, choice, &c, &in, &m);
	buf_free(&m);
	if (row == NULL || r == NULL) {
		vmi_msg(msg, "nothing to fix here");
		return -1;
	}
	key = row->f->key;
	fscope = row->f->scope;
	/* Reported on both roles: one fix for both. */
	if (in == SC_SHARED)
		fscope = SC_SHARED;
	/* Rows are rebuilt by each try: keep the choice by its index. */
	cidx = c != NULL ? (long)(c - row->choices) : -1;
	if (r->nfixes == 0) {
		vmi_msg(msg, "rule %s has no fix", r->id);
		return -1;
	}
	held = memo_held(vm);
	/* A memory error: first more TP where the node has the GPUs, on
	 * this role, else on both (when both have the error). */
	for (i = 0; fit_rule(r) && cidx < 0 && vm->fix_pick < 0 && i < 8;
	    i++) {
		bool	both = i % 2 == 1;

		/* Reported on both roles: only the tries for both. */
		if (in == SC_SHARED && !both)
			continue;
		if (same_node_tp(vm, in, (int)i / 2, &own, &own_opt, &own_val,
		    own_label, sizeof own_label) != 0)
			break;
		if (both)
			snprintf(own_label + strlen(own_label),
			    sizeof own_label - strlen(own_label), " on both "
			    "roles");
		own_gpus = 0;
		if (gpus_below(vm, both ? SC_SHARED : in,
		    (int)own_val.u.i)) {
			own_gpus = (int)own_val.u.i;
			own_gpus_in = both ? SC_SHARED : in;
			snprintf(own_label + strlen(own_label),
			    sizeof own_label - strlen(own_label), ", %d GPUs "
			    "per node", own_gpus);
		}
		if (!try_fix(vm, r, 0, &own, both ? SC_SHARED : fscope,
		    both ? SC_SHARED : in, -1, t)) {
			own_gpus = 0;
			continue;
		}
		own_gpus = 0;
		/* A TP that trades the error for another memory error (the
		 * weights load, no KV cache is left) does not fit either. */
		if (fit_error_reported(vm, both ? SC_SHARED : in)) {
			vmi_txn_abandon(vm, t);
			continue;
		}
		take_back(vm, held, t);
		free(held);
		*rp = r;
		*fxp = &own;
		return 0;
	}
	/* First the fixes that keep the focused choice, then (for an error
	 * on the field itself) the others. */
	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < r->nfixes; i++) {
			bool	keeps = VM_IS_DKEY(key) ||
			    !vmi_fix_touches(vm->cat, &r->fixes[i], key);

			if ((pass == 0) != keeps || (pass == 1 && cidx >= 0))
				continue;
			if (vm->fix_pick >= 0 && (size_t)vm->fix_pick != i)
				continue;
			if (!try_fix(vm, r, i, NULL, fscope, in, cidx, t))
				continue;
			take_back(vm, held, t);
			free(held);
			*rp = r;
			*fxp = &r->fixes[i];
			return 0;
		}
	free(held);
	vmi_msg(msg, "no fix of rule %s clears it here: each was tried and "
	    "checked again", r->id);
	return -1;
}

int
vm_fix_plan(struct vm *vm, int choice, char **changes, bool *more,
    struct buf *msg)
{
	const struct vm_row	*row = vm_focused(vm);
	struct vm_txn		 t = { 0 };
	const struct rule	*r;
	const struct fix	*fix;
	size_t			 i, n = 0;
	char			*before, *after, *field_before, *field_after;
	enum vm_scope		 fs;
	int			 fk;

	*changes = NULL;
	*more = false;
	if (row == NULL) {
		vmi_msg(msg, "nothing to fix here");
		return -1;
	}
	fs = row->f->scope;
	fk = row->f->key;
	before = vmi_dump_state(vm);
	field_before = vmi_cell_get(vm, fs, fk);
	if (fix_find(vm, choice, &t, &r, &fix, msg) != 0) {
		free(before);
		free(field_before);
		return -1;
	}
	after = vmi_dump_state(vm);
	field_after = vmi_cell_get(vm, fs, fk);
	*changes = vmi_diff(before, after);
	for (i = 0; (*changes)[i] != '\0'; i++)
		if ((*changes)[i] == '\n')
			n++;
	*more = n > 1 || same_cell_text(field_before, field_after);
	vmi_msg(msg, "fix: %s", fix->label);
	vmi_txn_abandon(vm, &t);
	free(before);
	free(after);
	free(field_before);
	free(field_after);
	return 0;
}

int
vm_fix_choice(struct vm *vm, int choice, struct buf *msg)
{
	const struct vm_row	*row = vm_focused(vm);
	struct vm_txn		 t = { 0 };
	struct buf		 b = { 0 };
	const struct rule	*r;
	const struct fix	*fix;
	enum vm_scope		 fs;
	int			 fk;
	char			*target = NULL;

	if (row == NULL) {
		vmi_msg(msg, "nothing to fix here");
		return -1;
	}
	fs = row->f->scope;
	fk = row->f->key;
	/* The value the fix is for: the greyed choice, or the field's own. */
	{
		const struct vm_choice	*c;
		enum vm_scope		 in;
		struct buf		 m = { 0 };

		if (focus_rule(vm, choice, &c, &in, &m) != NULL && c != NULL)
			target = vmi_text_for(vm, fk, c->v);
		else
			target = vmi_cell_get(vm, fs, fk);
		buf_free(&m);
	}
	if (fix_find(vm, choice, &t, &r, &fix, msg) != 0) {
		free(target);
		return -1;
	}
	t.what = xasprintf("fix: %s", fix->label);
	describe_fix(vm->cat, fix, &b);
	vmi_msg(msg, "applied: %s (%s)", fix->label, b.s ? b.s : "");
	buf_free(&b);
	memo_add(vm, fs, fk, target, &t);
	free(target);
	vmi_txn_commit(vm, &t);
	vm->fix_pick = -1;
	return 0;
}

void
vm_fix_select(struct vm *vm, int fix)
{
	vm->fix_pick = fix;
}

void
vm_fix_for(struct vm *vm, const char *rule_id, enum vm_scope role)
{
	free(vm->fix_id);
	vm->fix_id = rule_id != NULL ? xstrdup(rule_id) : NULL;
	vm->fix_role = role;
}

size_t
vm_fix_alternatives(struct vm *vm, int choice, const char ***labels,
    int **idx)
{
	struct vm_txn		 t;
	const struct rule	*r = NULL, *rr;
	const struct fix	*fx;
	struct buf		 m = { 0 };
	const struct vm_choice	*c;
	enum vm_scope		 in;
	size_t			 i, n = 0;

	*labels = NULL;
	*idx = NULL;
	rr = focus_rule(vm, choice, &c, &in, &m);
	buf_free(&m);
	for (i = 0; rr != NULL && i < rr->nfixes; i++) {
		memset(&t, 0, sizeof t);
		vm->fix_pick = (int)i;
		if (fix_find(vm, choice, &t, &r, &fx, &m) != 0) {
			buf_free(&m);
			continue;
		}
		vmi_txn_abandon(vm, &t);
		*labels = xreallocarray(*labels, n + 1, sizeof **labels);
		*idx = xreallocarray(*idx, n + 1, sizeof **idx);
		(*labels)[n] = fx->label;
		(*idx)[n] = (int)i;
		n++;
	}
	vm->fix_pick = -1;
	vm_refresh(vm);
	return n;
}

bool
vm_shared_split(struct vm *vm, char **prefill, char **decode)
{
	const struct vm_row	*row = vm_focused(vm);
	int			 k;

	*prefill = *decode = NULL;
	if (row == NULL || row->f->scope != SC_SHARED ||
	    VM_IS_DKEY(row->f->key) || !vmi_is_pd(vm) ||
	    !vm->have[SC_PREFILL] || !vm->have[SC_DECODE])
		return false;
	k = row->f->key;
	if (vmi_same_value(vm->res[SC_PREFILL].eff.s[k].v,
	    vm->res[SC_DECODE].eff.s[k].v))
		return false;
	{
		struct buf	a = { 0 }, b = { 0 };

		val_cli(&a, vm->res[SC_PREFILL].eff.s[k].v);
		val_cli(&b, vm->res[SC_DECODE].eff.s[k].v);
		*prefill = a.s != NULL ? buf_steal(&a) : xstrdup("(none)");
		*decode = b.s != NULL ? buf_steal(&b) : xstrdup("(none)");
	}
	return true;
}

/*
 * f on the review page. A row whose problem has a field goes through that
 * field (vm_fix_for, then vm_fix_plan); these are for the rest: a
 * deployment-level problem no field sets, fixed from its rule alone (a
 * deployment rule's fix is applied to the whole deployment; a role rule's
 * to its role's cells), each fix verified as the field's are.
 */
bool
vm_review_fixable(struct vm *vm, size_t i, struct buf *msg)
{
	const struct vm_review_item	*it;
	const struct diag		*d;
	struct buf			 where = { 0 };

	vmi_msg(msg, "%s", "");
	if (i >= vm->nreview) {
		vmi_msg(msg, "nothing to fix here: no problem is listed");
		return false;
	}
	it = &vm->review[i];
	d = vmi_review_diag(vm, it);
	if (d != NULL && d->rule != NULL && (d->rule->nfixes > 0 ||
	    fit_rule(d->rule)))
		return true;
	if (it->page >= 0 && it->field >= 0 &&
	    (size_t)it->field < vm->pages[it->page].nf)
		buf_printf(&where, "; Enter goes to %s",
		    vm->pages[it->page].f[it->field].label);
	if (d == NULL || d->rule == NULL)
		vmi_msg(msg, "no one-key fix: this is a note from reading the "
		    "file (? shows it whole%s)", where.s ? where.s : "");
	else
		vmi_msg(msg, "no one-key fix for this problem (rule %s): ? "
		    "shows what it means and what to change%s", d->rule->id,
		    where.s ? where.s : "");
	buf_free(&where);
	return false;
}

static int
review_fix_find(struct vm *vm, size_t idx, struct vm_txn *t,
    const struct fix **fxp, struct buf *msg)
{
	const struct diag	*d;
	const struct rule	*r;
	enum vm_scope		 in;
	bool			*held;
	size_t			 i;

	if (!vm_review_fixable(vm, idx, msg))
		return -1;
	d = vmi_review_diag(vm, &vm->review[idx]);
	/* The review is rebuilt by each try: keep the rule and role. */
	r = d->rule;
	in = vm->review[idx].role;
	if (in == SC_DEPLOY)
		in = SC_SHARED;
	held = memo_held(vm);
	for (i = 0; i < r->nfixes; i++) {
		if (vm->fix_pick >= 0 && (size_t)vm->fix_pick != i)
			continue;
		if (!try_fix(vm, r, i, NULL, in, in, -1, t))
			continue;
		take_back(vm, held, t);
		free(held);
		*fxp = &r->fixes[i];
		return 0;
	}
	free(held);
	vmi_msg(msg, "no fix of rule %s clears it here: each was tried and "
	    "checked again (? shows what to change)", r->id);
	return -1;
}

int
vm_review_fix_plan(struct vm *vm, size_t i, char **changes, struct buf *msg)
{
	struct vm_txn		 t = { 0 };
	const struct fix	*fix;
	char			*before, *after;

	*changes = NULL;
	before = vmi_dump_state(vm);
	if (review_fix_find(vm, i, &t, &fix, msg) != 0) {
		free(before);
		return -1;
	}
	after = vmi_dump_state(vm);
	*changes = vmi_diff(before, after);
	vmi_msg(msg, "fix: %s", fix->label);
	vmi_txn_abandon(vm, &t);
	free(before);
	free(after);
	return 0;
}

int
vm_review_fix(struct vm *vm, size_t i, struct buf *msg)
{
	struct vm_txn		 t = { 0 };
	struct buf		 b = { 0 };
	const struct fix	*fix;

	if (review_fix_find(vm, i, &t, &fix, msg) != 0)
		return -1;
	t.what = xasprintf("fix: %s", fix->label);
	describe_fix(vm->cat, fix, &b);
	vmi_msg(msg, "applied: %s (%s)", fix->label, b.s ? b.s : "");
	buf_free(&b);
	vmi_txn_commit(vm, &t);
	vm->fix_pick = -1;
	return 0;
}
