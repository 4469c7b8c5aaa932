/* test_vm.c - the wizard's view-model without curses: forms, availability,
 * fixes, undo/redo, dirty tracking, search, review, timing of a keystroke. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <time.h>
#include <unistd.h>

#include "testutil.h"
#include "vmtest.h"
#include "tui/ascii.h"
#include "tui/lineedit.h"
#include "tui/vm.h"
#include "tui/vm_deploy.h"
#include "tui/wiz_keys.h"

static const struct vm_choice *
choice(const struct vm_row *row, const char *text)
{
	size_t	i;

	for (i = 0; i < row->nchoices; i++)
		if (strcmp(row->choices[i].text, text) == 0)
			return &row->choices[i];
	fail_msg("no choice %s", text);
	return NULL;
}

static int
choice_index(const struct vm_row *row, const char *text)
{
	return (int)(choice(row, text) - row->choices);
}

/* ---- forms ---- */

static void
test_forms_load(void **state)
{
	struct vm	*vm = new_vm();
	size_t		 i, shown = 0, all = 0, n0;

	(void)state;
	/* Per-role pages appear once per role; the single-server copies are
	 * hidden in a PD deployment. The All options pages are not built at
	 * start; once built (one per role, from the catalog) they are off the
	 * count, after every other page. */
	assert_true(vm_npages(vm) >= 11);
	assert_false(vm_all_built(vm));
	for (i = 0; i < vm_npages(vm); i++) {
		assert_false(vm_page(vm, i)->all);
		shown += vm_page_visible(vm, i);
	}
	assert_int_equal(shown, 11);
	n0 = vm_npages(vm);
	assert_int_equal(vm_all_options(vm), 0);
	assert_true(vm_all_built(vm));
	assert_int_equal(vm_all_options(vm), 0);
	assert_int_equal(vm_npages(vm), n0 + 3);
	shown = 0;
	for (i = 0; i < vm_npages(vm); i++) {
		assert_true(vm_page(vm, i)->all == (i >= n0));
		if (vm_page(vm, i)->all)
			all += vm_page_visible(vm, i);
		else
			shown += vm_page_visible(vm, i);
	}
	assert_int_equal(shown, 11);
	assert_int_equal(all, 2);
	i = (size_t)find_page(vm, "All options (prefill)");
	assert_true(vm_page(vm, i)->all && vm_page(vm, i)->nf > 300);
	/* Every flag on a page is not repeated there; quantization is on the
	 * model page. */
	{
		const struct vm_page	*p = vm_page(vm, i);
		size_t			 j;

		for (j = 0; j < p->nf; j++) {
			assert_string_not_equal(p->f[j].label, "--tp-size");
			assert_string_not_equal(p->f[j].label,
			    "--quantization");
		}
	}
	assert_string_equal(vm_page(vm, 0)->title, "Model & hardware");
	find_page(vm, "Parallelism (prefill)");
	find_page(vm, "Parallelism (decode)");
	assert_true(vm_page(vm, (size_t)find_page(vm, "Review"))->review);
	vm_free(vm);
}

/*
 * One form loaded from text (the entry point tests and tools use) is
 * ready for refresh and navigation, as after vm_load_forms; loading a
 * second resizes what refresh fills.
 */
static void
test_form_text_refresh(void **state)
{
	static const char	a[] = "title: A\nfields:\n"
	    "  - option: tp_size\n  - option: page_size\n";
	static const char	b[] = "title: B\nfields:\n"
	    "  - option: dp_size\n  - option: ep_size\n"
	    "  - option: pp_size\n";
	struct vm		*vm = vm_new(cat);
	char			 err[1024] = "";
	int			 i;

	(void)state;
	assert_int_equal(vm_load_form_text(vm, "forms/10-a.yaml", a,
	    strlen(a), err, sizeof err), 0);
	vm_refresh(vm);
	for (i = 0; i < 5; i++)
		vm_move(vm, 1);
	assert_int_equal(vm_load_form_text(vm, "forms/20-b.yaml", b,
	    strlen(b), err, sizeof err), 0);
	vm_refresh(vm);
	assert_true(vm_npages(vm) >= 2);
	for (i = 0; i < 8; i++)
		vm_move(vm, 1);
	vm_free(vm);
}

/* The wizard never writes a deployment file that would not read back. */
static void
test_save_reads_back(void **state)
{
	struct deployment	d;
	char			msg[512] = "", *y;

	(void)state;
	vmd_default(cat, &d, NULL);
	y = vmd_to_yaml(cat, &d, msg, sizeof msg);
	assert_non_null(y);
	free(y);
	d.role[ROLE_DECODE].enabled = false;
	assert_null(vmd_to_yaml(cat, &d, msg, sizeof msg));
	if (strstr(msg, "would not read back") == NULL ||
	    strstr(msg, "missing required key 'decode'") == NULL)
		fail_msg("message: %s", msg);
	vmd_free(&d);
}

static void
expect_form_error(const char *text, const char *want)
{
	struct vm	*vm = vm_new(cat);
	char		 err[1024] = "";

	assert_int_equal(vm_load_form_text(vm, "forms/99-t.yaml", text,
	    strlen(text), err, sizeof err), -1);
	if (strstr(err, want) == NULL)
		fail_msg("error '%s' lacks '%s'", err, want);
	vm_free(vm);
}

static void
test_form_errors(void **state)
{
	(void)state;
	expect_form_error("title: t\nfields:\n  - option: tp_sizee\n",
	    "forms/99-t.yaml:3:13: unknown option 'tp_sizee'");
	expect_form_error("title: t\nfields:\n  - option: tp_size\n"
	    "    visible: \"tp_size >\"\n", "forms/99-t.yaml:4:");
	expect_form_error("title: t\nfields:\n  - option: tp_size\n"
	    "    visible: \"nosuch == 1\"\n", "bad condition");
	expect_form_error("title: t\ncolour: red\nfields: []\n",
	    "forms/99-t.yaml:2:1: unknown key 'colour'");
	expect_form_error("title: t\nfields:\n  - deploy: nodes\n",
	    "unknown deployment field 'nodes'");
	expect_form_error("title: t\nroles: [router]\nfields: []\n",
	    "roles: prefill or decode");
	expect_form_error("fields: []\n", "a form needs a title");
}

/* ---- availability, messages, fixes ---- */

static void
test_hicache_on_decode(void **state)
{
	struct vm		*vm = new_vm();
	const struct vm_row	*row;
	struct buf		 msg = { 0 };

	(void)state;
	row = focus(vm, "KV cache (decode)", "hierarchical cache (HiCache)");
	assert_true(row->is_bool);
	assert_false(row->on);
	assert_int_equal(row->nblocked, 1);
	assert_non_null(choice(row, "on")->blocker);
	assert_null(choice(row, "off")->blocker);
	/* The status line shows SGLang's message. */
	assert_non_null(vm_focus_problem(vm, &msg));
	assert_non_null(strstr(msg.s, "disable-radix-cache are mutually exclusive"));
	/* Choosing it is refused; the model does not change. */
	assert_int_equal(vm_toggle(vm, &msg), -1);
	assert_non_null(strstr(msg.s, "refused"));
	assert_false(vm_dirty(vm));
	/* The override is visible where it happens. */
	row = focus(vm, "KV cache (decode)", "radix cache");
	assert_true(row->forced);
	assert_non_null(strstr(row->note, "forced: KV cache is forced as chunk cache"));
	assert_false(row->on);
	/* f applies the first fix that keeps the choice, then it can be made. */
	focus(vm, "KV cache (decode)", "hierarchical cache (HiCache)");
	assert_int_equal(vm_fix(vm, &msg), 0);
	row = vm_focused(vm);
	assert_int_equal(row->nblocked, 0);
	assert_int_equal(vm_toggle(vm, &msg), 0);
	assert_true(vm_focused(vm)->on);
	assert_int_equal(vm_undo_depth(vm), 2);
	buf_free(&msg);
	vm_free(vm);
}

static void
test_staging_mori(void **state)
{
	struct vm		*vm = new_vm();
	const struct vm_row	*row;
	struct buf		 msg = { 0 };
	struct value		 mori = val_str("mori");

	(void)state;
	row = focus(vm, "KV transfer", "transfer backend");
	assert_null(choice(row, "mori")->blocker);
	assert_int_equal(vm_set(vm, vm_cur_page(vm), row->field, mori, &msg),
	    0);
	row = focus(vm, "KV transfer", "staging buffer (heterogeneous TP)");
	assert_non_null(choice(row, "on")->blocker);
	assert_string_equal(choice(row, "on")->blocker->id, "stg-backend");
	vm_choice_problem(vm, choice_index(row, "on"), &msg);
	assert_non_null(strstr(msg.s, "got 'mori'"));
	assert_int_equal(vm_fix(vm, &msg), 0);
	assert_non_null(strstr(msg.s, "mooncake"));
	row = vm_focused(vm);
	assert_null(choice(row, "on")->blocker);
	row = focus(vm, "KV transfer", "transfer backend");
	assert_string_equal(row->value, "mooncake");
	buf_free(&msg);
	vm_free(vm);
}

/* f on a cross-role error: the deployment rule's fix, applied to both
 * roles, checked again before it is kept, undone as one change. */
static void
test_fix_cross_role(void **state)
{
	struct vm		*vm = new_vm();
	const struct vm_row	*row;
	struct buf		 msg = { 0 };
	size_t			 e, w, u, depth;

	(void)state;
	row = focus(vm, "KV cache (decode)", "page size");
	assert_int_equal(vm_set(vm, vm_cur_page(vm), row->field, val_int(64),
	    &msg), 0);
	vm_counts(vm, &e, &w, &u);
	assert_true(e > 0);
	/* The review lists the cross-role error first, above every role's
	 * overrides and warnings. */
	{
		const struct vm_review_item	*it;
		size_t				 n;

		vm_goto(vm, find_page(vm, "Review"), 0);
		n = vm_review(vm, &it);
		assert_true(n > 1);
		assert_int_equal(it[0].sev, SEV_ERROR);
		assert_int_equal(it[0].role, SC_DEPLOY);
	}
	depth = vm_undo_depth(vm);
	/* Both roles' page-size rows carry the error. */
	assert_true(focus(vm, "KV cache (prefill)", "page size")->error);
	assert_true(focus(vm, "KV cache (decode)", "page size")->error);
	if (vm_fix(vm, &msg) != 0)
		fail_msg("f on a cross-role error: %s", msg.s);
	assert_non_null(strstr(msg.s, "applied"));
	vm_counts(vm, &e, &w, &u);
	assert_int_equal(e, 0);
	assert_int_equal(vm_undo_depth(vm), depth + 1);
	assert_int_equal(vm_undo(vm, &msg), 0);
	vm_counts(vm, &e, &w, &u);
	assert_true(e > 0);
	buf_free(&msg);
	vm_free(vm);
}

/* One verdict: what save and export refuse is an error of the header too
 * (an empty model path: the command's reader and the file's). */
static void
test_header_counts_what_save_refuses(void **state)
{
	struct vm		*vm = new_vm();
	const struct vm_row	*row;
	const struct vm_review_item *it;
	struct buf		 msg = { 0 };
	size_t			 e, w, u, n, i, model = 0, file = 0;

	(void)state;
	vm_counts(vm, &e, &w, &u);
	assert_int_equal(e, 0);
	row = focus(vm, "Model & hardware", "model path or HF id");
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, "",
	    &msg), 0);
	vm_counts(vm, &e, &w, &u);
	assert_true(e >= 2);
	vm_goto(vm, find_page(vm, "Review"), 0);
	n = vm_review(vm, &it);
	for (i = 0; i < n; i++) {
		if (it[i].sev == SEV_ERROR && it[i].id != NULL &&
		    strcmp(it[i].id, "model-path-invalid") == 0)
			model++;
		if (it[i].sev == SEV_ERROR && it[i].id != NULL &&
		    strcmp(it[i].id, "deploy-file") == 0 &&
		    strstr(it[i].msg, "model.path is empty") != NULL)
			file++;
	}
	assert_true(model >= 1);
	assert_int_equal(file, 1);
	buf_free(&msg);
	vm_free(vm);
}

static void
test_help_explains(void **state)
{
	struct vm	*vm = new_vm();
	char		*h;

	(void)state;
	focus(vm, "KV cache (decode)", "hierarchical cache (HiCache)");
	h = vm_help(vm);
	assert_non_null(strstr(h, "--enable-hierarchical-cache"));
	assert_non_null(strstr(h, "default:"));
	assert_non_null(strstr(h, "effective:"));
	assert_non_null(strstr(h, "on is unavailable"));
	assert_non_null(strstr(h, "disable_radix_cache = True"));
	assert_non_null(strstr(h, "fix [f]:"));
	free(h);
	vm_free(vm);
}

/* ---- undo, dirty, changes ---- */

static void
test_undo_dirty(void **state)
{
	struct vm		*vm = new_vm();
	const struct vm_row	*row;
	struct buf		 msg = { 0 };
	char			*ch;

	(void)state;
	assert_false(vm_dirty(vm));
	row = focus(vm, "Parallelism (prefill)", "tensor parallel (TP)");
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, "4",
	    &msg), 0);
	assert_string_equal(vm_focused(vm)->value, "4");
	assert_true(vm_dirty(vm));
	ch = vm_changes(vm);
	assert_non_null(strstr(ch, "prefill: tp_size: set to 4"));
	free(ch);
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, "x",
	    &msg), -1);
	assert_int_equal(vm_undo_depth(vm), 1);
	assert_int_equal(vm_undo(vm, &msg), 0);
	assert_string_equal(vm_focused(vm)->value, "1");
	/* Back where it was loaded: not dirty, nothing to ask on quit. */
	assert_false(vm_dirty(vm));
	assert_int_equal(vm_redo_depth(vm), 1);
	assert_int_equal(vm_redo(vm, &msg), 0);
	assert_string_equal(vm_focused(vm)->value, "4");
	assert_int_equal(vm_redo(vm, &msg), -1);
	/* A new change clears redo. */
	assert_int_equal(vm_undo(vm, &msg), 0);
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, "2",
	    &msg), 0);
	assert_int_equal(vm_redo_depth(vm), 0);
	/* Empty text goes back to the default. */
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, "",
	    &msg), 0);
	assert_false(vm_dirty(vm));
	buf_free(&msg);
	vm_free(vm);
}

static void
test_save_and_reopen(void **state)
{
	struct vm		*vm = new_vm(), *vm2;
	const struct vm_row	*row;
	char			 err[1024], path[] = "/tmp/pdwiz-vm-XXXXXX";
	struct buf		 msg = { 0 };
	int			 fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	row = focus(vm, "Parallelism (decode)", "tensor parallel (TP)");
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, "2",
	    &msg), 0);
	/* The file exists: never overwritten without being told to. */
	assert_int_equal(vm_save(vm, path, false, &msg), 1);
	assert_true(vm_dirty(vm));
	assert_int_equal(vm_save(vm, path, true, &msg), 0);
	assert_false(vm_dirty(vm));
	vm2 = new_vm();
	assert_int_equal(vm_open_file(vm2, path, err, sizeof err), 0);
	vm_refresh(vm2);
	assert_false(vm_dirty(vm2));
	row = focus(vm2, "Parallelism (decode)", "tensor parallel (TP)");
	assert_string_equal(row->value, "2");
	vm_free(vm2);
	buf_free(&msg);
	vm_free(vm);
	unlink(path);
}

static mode_t
file_mode(const char *path)
{
	struct stat	st;

	assert_int_equal(stat(path, &st), 0);
	return st.st_mode & 07777;
}

/* Saved and exported files: the umask's modes, scripts executable. */
static void
test_save_export_modes(void **state)
{
	struct vm	*vm = new_vm();
	char		 dir[] = "/tmp/pdwiz-modes-XXXXXX", *p;
	struct buf	 msg = { 0 };
	mode_t		 old = umask(022);
	unsigned	 fl = VM_EXPORT_FAILING | VM_EXPORT_OVERWRITE;
	static const char *const names[] = { "deployment.yaml", "launch.sh",
	    "RUNBOOK.md", "pd-k8s.yaml", "cfg/prefill.yaml",
	    "cfg/decode.yaml", "cfg/launch.sh", "cfg", NULL };
	size_t		 i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	p = xasprintf("%s/deployment.yaml", dir);
	assert_int_equal(vm_save(vm, p, false, &msg), 0);
	assert_int_equal(file_mode(p), 0644);
	free(p);
	p = xasprintf("%s/launch.sh", dir);
	assert_int_equal(vm_export(vm, "shell", p, fl, &msg), 0);
	assert_int_equal(file_mode(p), 0755);
	/* A replaced file keeps its mode. */
	assert_int_equal(chmod(p, 0750), 0);
	assert_int_equal(vm_export(vm, "shell", p, fl, &msg), 0);
	assert_int_equal(file_mode(p), 0750);
	free(p);
	p = xasprintf("%s/RUNBOOK.md", dir);
	assert_int_equal(vm_export(vm, "runbook", p, fl, &msg), 0);
	assert_int_equal(file_mode(p), 0644);
	free(p);
	p = xasprintf("%s/pd-k8s.yaml", dir);
	assert_int_equal(vm_export(vm, "k8s", p, fl, &msg), 0);
	assert_int_equal(file_mode(p), 0644);
	free(p);
	p = xasprintf("%s/cfg", dir);
	assert_int_equal(mkdir(p, 0755), 0);
	assert_int_equal(vm_export(vm, "config", p, fl, &msg), 0);
	free(p);
	p = xasprintf("%s/cfg/prefill.yaml", dir);
	assert_int_equal(file_mode(p), 0644);
	free(p);
	p = xasprintf("%s/cfg/launch.sh", dir);
	assert_int_equal(file_mode(p), 0755);
	free(p);
	/* Another umask is honoured. */
	umask(077);
	p = xasprintf("%s/other.sh", dir);
	assert_int_equal(vm_export(vm, "shell", p, fl, &msg), 0);
	assert_int_equal(file_mode(p), 0700);
	unlink(p);
	free(p);
	umask(old);
	for (i = 0; names[i] != NULL; i++) {
		p = xasprintf("%s/%s", dir, names[i]);
		if (remove(p) != 0)
			fail_msg("remove %s", p);
		free(p);
	}
	rmdir(dir);
	buf_free(&msg);
	vm_free(vm);
}

/*
 * A save or export onto a FIFO or a device is refused before it is offered
 * for overwriting, and what is there stays (the rename of a new file over
 * it replaced it, for the whole machine when it was /dev/null).
 */
static void
test_save_not_regular(void **state)
{
	struct vm	*vm = new_vm();
	char		 dir[] = "/tmp/pdwiz-notreg-XXXXXX", *p;
	struct buf	 msg = { 0 };
	struct stat	 st;
	unsigned	 fl = VM_EXPORT_FAILING | VM_EXPORT_OVERWRITE;

	(void)state;
	assert_non_null(mkdtemp(dir));
	p = xasprintf("%s/fifo.yaml", dir);
	assert_int_equal(mkfifo(p, 0644), 0);
	assert_int_equal(vm_save(vm, p, false, &msg), -1);
	assert_non_null(strstr(msg.s, "fifo.yaml: not a regular file (a FIFO)"));
	assert_int_equal(vm_save(vm, p, true, &msg), -1);
	assert_int_equal(vm_export(vm, "shell", p, fl, &msg), -1);
	assert_non_null(strstr(msg.s, "not a regular file (a FIFO)"));
	assert_int_equal(stat(p, &st), 0);
	assert_true(S_ISFIFO(st.st_mode));
	assert_int_equal(unlink(p), 0);
	free(p);
	/* A character device like /dev/null, when one can be made (root). */
	p = xasprintf("%s/null", dir);
	if (mknod(p, S_IFCHR | 0666, makedev(1, 3)) == 0) {
		assert_int_equal(vm_save(vm, p, true, &msg), -1);
		assert_non_null(strstr(msg.s,
		    "null: not a regular file (a character device)"));
		assert_int_equal(stat(p, &st), 0);
		assert_true(S_ISCHR(st.st_mode));
		assert_int_equal(unlink(p), 0);
	}
	free(p);
	/* Nothing else was left behind (no temporary file). */
	assert_int_equal(rmdir(dir), 0);
	buf_free(&msg);
	vm_free(vm);
}

/* ---- search, review, visibility ---- */

static void
test_search(void **state)
{
	struct vm	*vm = new_vm();
	struct vm_hit	 h[8];
	size_t		 n, i;
	char		*t;

	(void)state;
	/* A search the pages' own fields fill builds no All options; an
	 * empty one neither. */
	assert_int_equal(vm_search(vm, "e", h, 8), 8);
	assert_int_equal(vm_search(vm, "", h, 8), 0);
	assert_false(vm_all_built(vm));
	n = vm_search(vm, "--tp-size", h, 8);
	assert_true(n >= 2);
	t = vm_hit_text(vm, &h[0]);
	assert_non_null(strstr(t, "tensor parallel"));
	free(t);
	assert_int_equal(vm_search(vm, "tp_size", h, 8), n);
	/* Terms are AND-ed; help text counts too. */
	assert_true(vm_search(vm, "radix decode", h, 8) >= 1);
	assert_int_equal(vm_search(vm, "zzzqqq", h, 8), 0);
	/* Hidden fields are not offered; the pages' fields come before
	 * those of All options. */
	n = vm_search(vm, "retraction", h, 8);
	assert_true(n >= 1);
	for (i = 1; i < n; i++)
		assert_true(vm_page(vm, (size_t)h[i].page)->all);
	assert_string_equal(vm_page(vm, (size_t)h[0].page)->title,
	    "KV cache (decode)");
	/* Every option can be found: a flag no page shows (the pages fewer
	 * matches than asked for built All options). */
	assert_true(vm_all_built(vm));
	n = vm_search(vm, "--enable-fp32-lm-head", h, 8);
	assert_int_equal(n, 2);
	assert_string_equal(vm_page(vm, (size_t)h[0].page)->title,
	    "All options (prefill)");
	vm_free(vm);
}

static void
test_review_and_visibility(void **state)
{
	struct vm			*vm = new_vm();
	const struct vm_review_item	*it;
	const struct vm_row		*row;
	size_t				 n, i;
	struct buf				 msg = { 0 };
	bool				 found = false;

	(void)state;
	row = focus(vm, "KV transfer", "transfer backend");
	assert_int_equal(vm_set(vm, vm_cur_page(vm), row->field,
	    val_str("mori"), &msg), 0);
	/* IB devices stay visible for mori; UCX only for nixl. */
	row = focus(vm, "KV transfer", "IB devices (mooncake)");
	vm_goto(vm, find_page(vm, "Review"), 0);
	n = vm_review(vm, &it);
	for (i = 0; i < n; i++)
		if (it[i].sev == SEV_ERROR)
			found = true;
	assert_false(found);		/* mori alone is fine */
	/* Severity order, and within a severity prefill before decode. */
	for (i = 1; i < n; i++)
		assert_true(it[i - 1].sev < it[i].sev ||
		    (it[i - 1].sev == it[i].sev && it[i - 1].role <= it[i].role));
	/* PD off: the per-role pages become one server page. */
	row = focus(vm, "Topology", "PD disaggregation");
	assert_int_equal(vm_toggle(vm, &msg), 0);
	assert_false(vm_page_visible(vm, (size_t)find_page(vm,
	    "Parallelism (prefill)")));
	assert_true(vm_page_visible(vm, (size_t)find_page(vm,
	    "Parallelism (server)")));
	assert_false(vm_page_visible(vm, (size_t)find_page(vm, "Router")));
	buf_free(&msg);
	vm_free(vm);
}

/* The review lists every error first, above every role's overrides and
 * warnings. */
static void
test_review_errors_first(void **state)
{
	struct vm			*vm = new_vm();
	const struct vm_review_item	*it;
	const struct vm_row		*row;
	struct buf			 msg = { 0 };
	size_t				 n, i;
	bool				 err = false, seen_other = false;

	(void)state;
	row = focus(vm, "KV cache (decode)", "page size");
	assert_int_equal(vm_set(vm, vm_cur_page(vm), row->field, val_int(64),
	    &msg), 0);
	vm_goto(vm, find_page(vm, "Review"), 0);
	n = vm_review(vm, &it);
	for (i = 0; i < n; i++) {
		if (it[i].sev == SEV_ERROR) {
			assert_false(seen_other);
			err = true;
		} else
			seen_other = true;
	}
	assert_true(err);
	assert_true(seen_other);
	buf_free(&msg);
	vm_free(vm);
}

/* A long value comes through the view-model whole: row, edit text, help. */
static void
test_long_value_whole(void **state)
{
	struct vm		*vm = new_vm();
	const struct vm_row	*row;
	struct buf		 msg = { 0 };
	char			*t, *want;
	size_t			 i;

	(void)state;
	want = xmalloc(1001);
	for (i = 0; i < 1000; i++)
		want[i] = (char)('a' + i % 26);
	want[1000] = '\0';
	row = focus(vm, "Model & hardware", "model path or HF id");
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, want,
	    &msg), 0);
	row = vm_focused(vm);
	assert_int_equal(strlen(row->value), 1000);
	assert_string_equal(row->value, want);
	t = vm_edit_text(vm);
	assert_string_equal(t, want);
	free(t);
	t = vm_help(vm);
	assert_non_null(strstr(t, want));
	free(t);
	/* A long refusal keeps the whole text in its message too. */
	row = focus(vm, "Parallelism (prefill)", "tensor parallel (TP)");
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, want,
	    &msg), -1);
	assert_non_null(strstr(msg.s, want));
	free(want);
	buf_free(&msg);
	vm_free(vm);
}

/* ---- keys ---- */

/* Every action has a key that reaches it and a handler; the footer and the
 * key help come from the same table. */
static void
test_key_table(void **state)
{
	size_t	 i, k, nkeys;
	char	*help = wiz_key_help(), *f;
	int	 w;

	(void)state;
	for (i = 0; i < NWZ; i++) {
		assert_int_equal(wiz_actions[i].act, i);
		assert_true(wiz_action_handled((enum wiz_action)i));
		nkeys = 0;
		for (k = 0; k < wiz_nkeys; k++)
			if (wiz_keys[k].act == (enum wiz_action)i) {
				assert_int_equal(wiz_key_action(
				    wiz_keys[k].code), (int)i);
				nkeys++;
			}
		assert_true(nkeys > 0);
		if (wiz_actions[i].help != NULL)
			assert_non_null(strstr(help, wiz_actions[i].help));
	}
	assert_int_equal(wiz_key_action(18), WZ_REDO);
	assert_int_equal(wiz_key_action('u'), WZ_UNDO);
	assert_int_equal(wiz_key_action('Z'), -1);
	assert_non_null(strstr(help, "Ctrl-R"));
	free(help);
	/* The footer fits the width and keeps every key; redo keeps its
	 * label at 80 columns. */
	for (w = 56; w <= 200; w++) {
		f = wiz_footer(w);
		assert_true(wiz_text_cols(f) <= (size_t)w);
		for (i = 0; i < NWZ; i++)
			if (wiz_actions[i].foot_keys != NULL)
				assert_non_null(strstr(f,
				    wiz_actions[i].foot_keys));
		if (w >= 80)
			assert_non_null(strstr(f, "^R redo"));
		free(f);
	}
}

/* ---- layout: derived values, pin, the placement picture ---- */

/* Set a field by label on a page to text (asserts it is accepted). */
static void
set_field(struct vm *vm, const char *title, const char *label,
    const char *text)
{
	const struct vm_row	*row = focus(vm, title, label);
	struct buf		 msg = { 0 };

	if (vm_set_text(vm, vm_cur_page(vm), row->field, text, &msg) != 0)
		fail_msg("%s = %s: %s", label, text, msg.s);
	buf_free(&msg);
}

/*
 * A layout value left unset shows the derived one, marked; a value set is
 * kept; clearing it (Delete, or an empty edit) goes back to the derived
 * value and to the state as loaded.
 */
static void
test_layout_derived(void **state)
{
	struct vm		*vm = new_vm();
	const struct vm_row	*row;
	struct buf		 msg = { 0 };

	(void)state;
	row = focus(vm, "Parallelism (decode)", "HTTP port");
	assert_string_equal(row->value, "30001");
	assert_string_equal(row->note, "(derived)");
	assert_true(row->derived);
	row = focus(vm, "Parallelism (decode)", "base GPU (--base-gpu-id)");
	assert_string_equal(row->value, "1");
	row = focus(vm, "KV transfer", "prefill bootstrap port");
	assert_string_equal(row->value, "8998");
	assert_true(row->derived);
	row = focus(vm, "Router", "router port");
	assert_string_equal(row->value, "8000");
	row = focus(vm, "Topology", "GPUs per host (machine)");
	assert_string_equal(row->value, "8");
	assert_string_equal(row->note, "(derived)");

	set_field(vm, "Parallelism (decode)", "HTTP port", "31000");
	row = vm_focused(vm);
	assert_string_equal(row->value, "31000");
	assert_false(row->derived);
	assert_true(vm_dirty(vm));
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field,
	    "70000", &msg), -1);
	assert_non_null(strstr(msg.s, "from 1 to 65535"));
	assert_int_equal(vm_clear(vm, &msg), 0);
	assert_string_equal(msg.s, "HTTP port: back to derived (30001)");
	row = vm_focused(vm);
	assert_string_equal(row->value, "30001");
	assert_true(row->derived);
	assert_false(vm_dirty(vm));

	/* The prefill's bootstrap port is the role's own, not an option. */
	set_field(vm, "KV transfer", "prefill bootstrap port", "9100");
	assert_non_null(strstr(vm_focused(vm)->value, "9100"));
	{
		char	*p = vm_preview(vm);

		assert_non_null(strstr(p, "--disaggregation-bootstrap-port "
		    "9100"));
		assert_null(strstr(strstr(p, "9100") + 4,
		    "--disaggregation-bootstrap-port"));
		free(p);
	}

	/* GPUs per host is checked: the rendezvous port shows only for a
	 * multi-node role. */
	row = focus(vm, "Topology", "GPUs per host (machine)");
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, "0",
	    &msg), -1);
	row = focus(vm, "Parallelism (prefill)", "HTTP port");
	assert_true(row->layout);
	assert_false(vm_field_visible(vm, (size_t)vm_cur_page(vm),
	    (size_t)row->field + 1));
	set_field(vm, "Topology", "prefill nodes per instance", "2");
	set_field(vm, "Topology", "prefill hosts (a,b,...)", "10.0.0.1,10.0.0.2");
	row = focus(vm, "Parallelism (prefill)", "rendezvous port (dist-init)");
	assert_string_equal(row->value, "5000");
	assert_true(row->derived);
	buf_free(&msg);
	vm_free(vm);
}

/* Pin writes every derived value as one change; undo takes it back. */
static void
test_layout_pin(void **state)
{
	struct vm		*vm = new_vm(), *vm2;
	const struct vm_row	*row;
	struct buf		 msg = { 0 };
	char			 err[1024], path[] = "/tmp/pdwiz-vm-XXXXXX";
	char			*ch, *pic, *pic2;
	int			 fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(vm_pin(vm, &msg), 0);
	assert_non_null(strstr(msg.s, "pinned"));
	assert_int_equal(vm_undo_depth(vm), 1);
	assert_true(vm_dirty(vm));
	ch = vm_changes(vm);
	assert_non_null(strstr(ch, "decode: base_gpu_id: (unset) -> 1"));
	assert_non_null(strstr(ch, "deployment: router_urls: (unset) -> "
	    "http://127.0.0.1:30000 8998; http://127.0.0.1:30001"));
	free(ch);
	row = focus(vm, "Parallelism (decode)", "HTTP port");
	assert_string_equal(row->value, "30001");
	assert_false(row->derived);
	/* Pinning again changes nothing. */
	assert_int_equal(vm_pin(vm, &msg), 0);
	assert_non_null(strstr(msg.s, "nothing to pin"));
	assert_int_equal(vm_undo_depth(vm), 1);
	assert_int_equal(vm_undo(vm, &msg), 0);
	assert_string_equal(msg.s, "undone: pin the layout");
	assert_false(vm_dirty(vm));
	assert_true(vm_focused(vm)->derived);
	assert_int_equal(vm_redo(vm, &msg), 0);
	assert_false(vm_focused(vm)->derived);
	/* What is pinned saves, reads back and places the same. */
	pic = vm_placement(vm, true, 80);
	assert_int_equal(vm_save(vm, path, true, &msg), 0);
	vm2 = new_vm();
	assert_int_equal(vm_open_file(vm2, path, err, sizeof err), 0);
	vm_refresh(vm2);
	pic2 = vm_placement(vm2, true, 80);
	assert_string_equal(pic, pic2);
	row = focus(vm2, "Parallelism (decode)", "base GPU (--base-gpu-id)");
	assert_string_equal(row->value, "1");
	assert_false(row->derived);
	free(pic);
	free(pic2);
	vm_free(vm2);
	buf_free(&msg);
	vm_free(vm);
	unlink(path);
}

/*
 * The router's lists: an imported router that gives the prefill a wrong
 * bootstrap port is an error whose review row goes to the router's lists;
 * clearing them derives them from the instances, and the error is gone.
 */
static void
test_router_lists(void **state)
{
	static const char	sh[] =
	    "python -m sglang.launch_server --model-path "
	    "meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill "
	    "--port 30000 --disaggregation-bootstrap-port 8998\n"
	    "python -m sglang.launch_server --model-path "
	    "meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode "
	    "--port 30001 --base-gpu-id 1\n"
	    "python -m sglang_router.launch_router --pd-disaggregation "
	    "--prefill http://127.0.0.1:30000 9000 "
	    "--decode http://127.0.0.1:30001 --port 8000\n";
	struct vm			*vm = new_vm();
	const struct vm_row		*row;
	const struct vm_review_item	*it;
	struct buf			 msg = { 0 };
	char				 err[1024], path[] = "/tmp/pdwiz-vm-XXXXXX";
	int				 fd = mkstemp(path), rp;
	size_t				 n, i, ne, nw, no;
	bool				 found = false;

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, sh, sizeof sh - 1), (ssize_t)(sizeof sh - 1));
	close(fd);
	assert_int_equal(vm_import_script(vm, path, err, sizeof err), 0);
	vm_refresh(vm);
	rp = find_page(vm, "Router");
	vm_goto(vm, find_page(vm, "Review"), 0);
	n = vm_review(vm, &it);
	for (i = 0; i < n; i++)
		if (it[i].id != NULL &&
		    strcmp(it[i].id, "xs-router-bootstrap-port") == 0) {
			found = true;
			assert_int_equal(it[i].page, rp);
		}
	assert_true(found);
	row = focus(vm, "Router", "router lists (prefill; decode)");
	assert_false(row->derived);
	assert_string_equal(row->value,
	    "http://127.0.0.1:30000 9000; http://127.0.0.1:30001");
	assert_true(row->error);
	assert_int_equal(vm_set_text(vm, rp, row->field, "x; y", &msg), -1);
	assert_non_null(strstr(msg.s, "not an http:// URL"));
	assert_int_equal(vm_set_text(vm, rp, row->field,
	    "http://127.0.0.1:30000 8998; ", &msg), -1);
	assert_int_equal(vm_clear(vm, &msg), 0);
	row = vm_focused(vm);
	assert_true(row->derived);
	assert_string_equal(row->value,
	    "http://127.0.0.1:30000 8998; http://127.0.0.1:30001");
	vm_counts(vm, &ne, &nw, &no);
	assert_int_equal(ne, 0);
	assert_int_equal(vm_undo(vm, &msg), 0);
	assert_string_equal(vm_focused(vm)->value,
	    "http://127.0.0.1:30000 9000; http://127.0.0.1:30001");
	buf_free(&msg);
	vm_free(vm);
	unlink(path);
}

/* Every line of the picture fits the width; ASCII stays ASCII. */
static void
assert_fits(const char *pic, int width, bool ascii)
{
	const char	*p = pic;

	while (*p != '\0') {
		const char	*nl = strchr(p, '\n');
		int		 cols = 0;

		assert_non_null(nl);
		for (; p < nl; p++) {
			if (ascii)
				assert_true((unsigned char)*p < 0x80);
			if (((unsigned char)*p & 0xc0) != 0x80)
				cols++;
		}
		assert_true(cols <= width);
		p = nl + 1;
	}
}

static void
test_placement(void **state)
{
	struct vm	*vm = new_vm();
	char		*pic;

	(void)state;
	set_field(vm, "Model & hardware", "GPUs per node", "8");
	set_field(vm, "Parallelism (prefill)", "tensor parallel (TP)", "2");
	set_field(vm, "Parallelism (decode)", "tensor parallel (TP)", "2");
	pic = vm_placement(vm, true, 78);
	assert_non_null(strstr(pic, "Placement: 1 host of 8 GPUs"));
	assert_non_null(strstr(pic, "P0 P0 D0 D0  ·  ·  ·  ·"));
	assert_non_null(strstr(pic, "P0 prefill 0: 127.0.0.1 GPUs 0-1, "
	    "port 30000, bootstrap 8998"));
	assert_non_null(strstr(pic, "D0 decode 0: 127.0.0.1 GPUs 2-3, "
	    "port 30001"));
	assert_null(strstr(pic, "collide"));
	assert_fits(pic, 78, false);
	free(pic);

	/* TP 8 each on one 8-GPU host: the decode runs past GPU 7. */
	set_field(vm, "Parallelism (prefill)", "tensor parallel (TP)", "8");
	set_field(vm, "Parallelism (decode)", "tensor parallel (TP)", "8");
	pic = vm_placement(vm, false, 78);
	assert_non_null(strstr(pic, "|!D0!D0"));
	assert_non_null(strstr(pic, "! decode 0 on 127.0.0.1: GPUs 8-15, "
	    "past the host's 8 GPUs"));
	assert_fits(pic, 78, true);
	free(pic);

	/* Both on GPU 0 by hand: a collision, with its GPUs. */
	set_field(vm, "Parallelism (prefill)", "tensor parallel (TP)", "2");
	set_field(vm, "Parallelism (decode)", "tensor parallel (TP)", "2");
	set_field(vm, "Parallelism (prefill)", "base GPU (--base-gpu-id)", "0");
	set_field(vm, "Parallelism (decode)", "base GPU (--base-gpu-id)", "1");
	pic = vm_placement(vm, false, 60);
	assert_non_null(strstr(pic, "X GPU 1 on 127.0.0.1: prefill 0 and "
	    "decode 0 collide"));
	assert_non_null(strstr(pic, " P0XP0 D0"));
	assert_fits(pic, 60, true);
	free(pic);
	set_field(vm, "Parallelism (prefill)", "HTTP port", "30000");
	set_field(vm, "Parallelism (decode)", "HTTP port", "30000");
	pic = vm_placement(vm, false, 80);
	assert_non_null(strstr(pic, "! port 30000 on 127.0.0.1: prefill 0 "
	    "(HTTP) and decode 0 (HTTP)"));
	free(pic);

	/* No layout outside PD. */
	set_field(vm, "Topology", "PD disaggregation", "false");
	assert_null(vm_placement(vm, true, 80));
	vm_free(vm);
}

/* One keystroke's model work, timed (reported, not asserted tightly). */
static void
test_refresh_time(void **state)
{
	struct vm	*vm = new_vm();
	struct timespec	 a, b;
	int		 i, n = 50;
	double		 ms;
	const struct vm_row *rows;
	size_t		 nr, k, nc;

	(void)state;
	focus(vm, "KV transfer", "transfer backend");
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		vm_refresh(vm);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = ((double)(b.tv_sec - a.tv_sec) * 1e3 +
	    (double)(b.tv_nsec - a.tv_nsec) / 1e6) / n;
	print_message("vm_refresh on the transfer page: %.3f ms\n", ms);
	assert_true(ms < 1000.0);
	/* On an All options page a refresh checks the unavailable values of
	 * the focused row only; the view asks for the rows it shows. */
	assert_int_equal(vm_all_options(vm), 0);
	vm_goto(vm, find_page(vm, "All options (prefill)"), 0);
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (i = 0; i < n; i++)
		vm_refresh(vm);
	clock_gettime(CLOCK_MONOTONIC, &b);
	ms = ((double)(b.tv_sec - a.tv_sec) * 1e3 +
	    (double)(b.tv_nsec - a.tv_nsec) / 1e6) / n;
	print_message("vm_refresh on All options (prefill): %.3f ms\n", ms);
	nr = vm_rows(vm, &rows);
	assert_true(nr > 300);
	for (k = 0, nc = 0; k < nr; k++)
		nc += rows[k].checked;
	assert_int_equal(nc, 1);
	/* By SGLang's groups, in its order: a heading where a group begins
	 * (each once), every row in a group; Model and tokenizer first,
	 * --dtype first of Quantization and data type, Other last. */
	{
		size_t	nh = 0, g = 0;

		assert_non_null(rows[0].heading);
		assert_string_equal(rows[0].heading, "Model and tokenizer");
		for (k = 0; k < nr; k++) {
			assert_non_null(rows[k].group);
			if (rows[k].heading == NULL) {
				assert_true(k > 0);
				assert_ptr_equal(rows[k].group,
				    rows[k - 1].group);
				continue;
			}
			assert_ptr_equal(rows[k].heading, rows[k].group);
			nh++;
			/* Later in sglang.groups than the one before. */
			while (g < cat->ngroups &&
			    strcmp(cat->groups[g], rows[k].heading) != 0)
				g++;
			assert_true(g < cat->ngroups);
			if (strcmp(rows[k].heading,
			    "Quantization and data type") == 0)
				assert_string_equal(rows[k].f->label,
				    "--dtype");
		}
		assert_true(nh > 20);
		assert_string_equal(rows[nr - 1].group, "Other");
	}
	assert_true(vm_focused(vm)->checked);
	vm_move(vm, 5);
	assert_true(vm_focused(vm)->checked);
	vm_rows_check(vm, 100, 20);
	for (k = 0, nc = 0; k < nr; k++)
		nc += rows[k].checked;
	assert_int_equal(nc, 22);
	vm_free(vm);
}

/* Search finds a field by its choice values and its help, and says why. */
static void
test_search_values(void **state)
{
	struct vm	*vm = new_vm();
	struct vm_hit	 h[12];
	size_t		 n, i;
	char		*t;
	bool		 seen = false;

	(void)state;
	set_field(vm, "Model & hardware", "model path or HF id",
	    "deepseek-ai/DeepSeek-V3");
	n = vm_search(vm, "deepep", h, 12);
	assert_true(n >= 1);
	for (i = 0; i < n; i++) {
		t = vm_hit_text(vm, &h[i]);
		if (strstr(t, "MoE all-to-all backend") != NULL) {
			assert_int_equal(h[i].why, VM_WHY_VALUE);
			assert_non_null(strstr(t, "value: deepep"));
			seen = true;
		}
		free(t);
	}
	assert_true(seen);
	n = vm_search(vm, "mooncake", h, 12);
	for (i = 0, seen = false; i < n; i++) {
		t = vm_hit_text(vm, &h[i]);
		if (h[i].why == VM_WHY_VALUE &&
		    strstr(t, "value: mooncake") != NULL)
			seen = true;
		free(t);
	}
	assert_true(seen);
	/* A hit on the help says so, with the words around the match. */
	n = vm_search(vm, "hicache", h, 12);
	assert_true(n >= 1);
	for (i = 0, seen = false; i < n; i++) {
		t = vm_hit_text(vm, &h[i]);
		if (h[i].why == VM_WHY_HELP) {
			assert_non_null(strstr(t, "help: "));
			seen = true;
		}
		free(t);
	}
	(void)seen;
	/* A name match gives no reason. */
	n = vm_search(vm, "--tp-size", h, 12);
	assert_true(n >= 1);
	assert_int_equal(h[0].why, VM_WHY_NAME);
	vm_free(vm);
}

/* Change the focused field once: toggle, another choice, or a number. */
static int
change_focused(struct vm *vm, struct buf *msg)
{
	const struct vm_row	*row = vm_focused(vm);
	size_t			 i;

	if (row->is_bool)
		return vm_toggle(vm, msg);
	for (i = 0; i < row->nchoices; i++)
		if (!row->choices[i].current && row->choices[i].blocker == NULL)
			return vm_set(vm, vm_cur_page(vm), row->field,
			    row->choices[i].v, msg);
	return vm_set_text(vm, vm_cur_page(vm), row->field, "3", msg);
}

/*
 * Undo tells the truth: changing any field and undoing it leaves the
 * deployment clean, with no change listed, and the focus on the page of
 * the change; redo goes back to that page too. The fields are those whose
 * place (the n-th field of the pages, counted over every page but Review)
 * leaves rest when divided by of: of = 1 every field.
 */
static void
check_undo_clean(struct vm *vm, size_t rest, size_t of)
{
	struct buf	 msg = { 0 };
	size_t		 p, f, n = 0, changed = 0;
	char		*ch;

	for (p = 0; p < vm_npages(vm); p++) {
		const struct vm_page	*pg = vm_page(vm, p);

		if (pg->review)
			continue;
		for (f = 0; f < pg->nf; f++) {
			if (n++ % of != rest)
				continue;
			if (!vm_page_visible(vm, p) ||
			    !vm_field_visible(vm, p, f))
				continue;
			vm_goto(vm, (int)p, (int)f);
			if (vm_focused(vm) == NULL ||
			    change_focused(vm, &msg) != 0 || !vm_dirty(vm))
				continue;
			vm_goto(vm, 0, 0);
			assert_int_equal(vm_undo(vm, &msg), 0);
			ch = vm_changes(vm);
			if (vm_dirty(vm) || ch[0] != '\0')
				fail_msg("%s / %s: undo leaves [modified]:\n%s",
				    pg->title, pg->f[f].label, ch);
			free(ch);
			assert_int_equal(vm_cur_page(vm), (int)p);
			vm_goto(vm, 0, 0);
			assert_int_equal(vm_redo(vm, &msg), 0);
			assert_int_equal(vm_cur_page(vm), (int)p);
			assert_true(vm_dirty(vm));
			assert_int_equal(vm_undo(vm, &msg), 0);
			assert_false(vm_dirty(vm));
			changed++;
		}
	}
	/* A pass that changed nothing tested nothing. */
	print_message("undo: %zu fields changed and undone\n", changed);
	assert_true(changed > 10);
	buf_free(&msg);
}

/*
 * $PDWIZ_SPLIT_PASSES=N (make check's memcheck run, where each change
 * costs about 25 times more): the fields are dealt into N parts, the fresh
 * deployment's pass of test_undo_clean taking the first and the saved
 * file's the last, so that N=2 ("1" means 2 too) still changes and undoes
 * every field once under memcheck, and N=4 half of them (every fourth
 * field twice over, a different fourth each pass). Otherwise (native,
 * ASan, make check-full) both passes take every field.
 */
static size_t
split_passes(void)
{
	const char	*e = getenv("PDWIZ_SPLIT_PASSES");
	long		 n = e != NULL ? strtol(e, NULL, 10) : 0;

	if (n == 1)
		return 2;
	return n >= 2 && n <= 16 ? (size_t)n : 1;
}

static void
test_undo_clean(void **state)
{
	struct vm	*vm = new_vm();
	struct buf	 msg = { 0 };
	char		 path[] = "/tmp/pdwiz-undo-XXXXXX", err[256];
	int		 fd;

	(void)state;
	check_undo_clean(vm, 0, split_passes());
	/* The same from a saved file, with values set in it. */
	set_field(vm, "Parallelism (prefill)", "tensor parallel (TP)", "2");
	set_field(vm, "Model & hardware", "GPUs per node", "8");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(vm_save(vm, path, true, &msg), 0);
	vm_free(vm);
	vm = new_vm();
	assert_int_equal(vm_open_file(vm, path, err, sizeof err), 0);
	vm_refresh(vm);
	assert_false(vm_dirty(vm));
	check_undo_clean(vm, split_passes() - 1, split_passes());
	unlink(path);
	buf_free(&msg);
	vm_free(vm);
}

/* Write text to a new file in dir; its path (malloc'd). */
static char *
put_file(const char *dir, const char *name, const char *text)
{
	char	*p = xasprintf("%s/%s", dir, name);
	FILE	*f = fopen(p, "w");

	assert_non_null(f);
	fputs(text, f);
	fclose(f);
	return p;
}

/* The review item of rule id, or -1. */
static int
review_item(struct vm *vm, const char *id)
{
	const struct vm_review_item	*it;
	size_t				 n = vm_review(vm, &it), i;

	for (i = 0; i < n; i++)
		if (strcmp(it[i].id, id) == 0)
			return (int)i;
	return -1;
}

/* f on a review row whose problem belongs to no field: its deployment
 * rule's fix, verified, listed, applied in one undo step; a rule with no
 * fix says so and what to do instead. */
static void
test_review_deploy_fix(void **state)
{
	struct vm	*vm = new_vm();
	struct buf	 msg = { 0 };
	char		 dir[] = "/tmp/pdwiz-revfix-XXXXXX", err[256], *p, *ch;
	size_t		 e, w, o;
	int		 i;

	(void)state;
	assert_non_null(mkdtemp(dir));
	p = put_file(dir, "range.yaml", "pdwiz: 1\n"
	    "model: {path: meta-llama/Llama-3.1-8B-Instruct}\n"
	    "shared: {options: {disaggregation_transfer_backend: mooncake, "
	    "disaggregation_ib_device: mlx5_0}}\n"
	    "roles:\n"
	    "  prefill: {instances: 2, hosts: [10.0.0.1], "
	    "bootstrap_port: 65535}\n"
	    "  decode: {instances: 1, hosts: [10.0.0.2]}\n"
	    "  router: {}\n");
	assert_int_equal(vm_open_file(vm, p, err, sizeof err), 0);
	vm_refresh(vm);
	vm_goto(vm, find_page(vm, "Review"), 0);
	vm_counts(vm, &e, &w, &o);
	assert_int_equal(e, 1);
	i = review_item(vm, "xs-port-range");
	assert_true(i >= 0);
	assert_true(vm_review_fixable(vm, (size_t)i, &msg));
	assert_int_equal(vm_review_fix_plan(vm, (size_t)i, &ch, &msg), 0);
	assert_non_null(strstr(ch, "bootstrap_port: 65535 -> (unset)"));
	assert_non_null(strstr(msg.s, "leave the ports out"));
	free(ch);
	/* The plan changed nothing. */
	vm_counts(vm, &e, &w, &o);
	assert_int_equal(e, 1);
	assert_false(vm_dirty(vm));
	assert_int_equal(vm_review_fix(vm, (size_t)i, &msg), 0);
	assert_non_null(strstr(msg.s, "applied: leave the ports out"));
	vm_counts(vm, &e, &w, &o);
	assert_int_equal(e, 0);
	assert_true(vm_dirty(vm));
	assert_int_equal(vm_undo(vm, &msg), 0);
	vm_counts(vm, &e, &w, &o);
	assert_int_equal(e, 1);
	unlink(p);
	free(p);
	vm_free(vm);
	/* No fix: said so, with where Enter goes. */
	vm = new_vm();
	p = put_file(dir, "gpus.yaml", "pdwiz: 1\n"
	    "model: {path: meta-llama/Llama-3.1-70B-Instruct}\n"
	    "shared: {options: {disaggregation_transfer_backend: mooncake, "
	    "disaggregation_ib_device: mlx5_0, tp_size: 8}}\n"
	    "roles:\n"
	    "  prefill: {instances: 1, hosts: [10.0.0.1], gpus_per_node: 4}\n"
	    "  decode: {instances: 1, hosts: [10.0.0.2], gpus_per_node: 8}\n"
	    "  router: {hosts: [10.0.0.3]}\n");
	assert_int_equal(vm_open_file(vm, p, err, sizeof err), 0);
	vm_refresh(vm);
	vm_goto(vm, find_page(vm, "Review"), 0);
	i = review_item(vm, "xs-prefill-gpus");
	assert_true(i >= 0);
	assert_false(vm_review_fixable(vm, (size_t)i, &msg));
	assert_non_null(strstr(msg.s, "no one-key fix for this problem "
	    "(rule xs-prefill-gpus)"));
	assert_non_null(strstr(msg.s, "; Enter goes to "));
	assert_int_equal(vm_review_fix(vm, (size_t)i, &msg), -1);
	assert_false(vm_dirty(vm));
	unlink(p);
	free(p);
	rmdir(dir);
	buf_free(&msg);
	vm_free(vm);
}

/* The export's default paths: beside the deployment's file, named after
 * it; a new deployment's in the current directory. An export never
 * replaces the deployment file, nor puts several files beside a device. */
static void
test_export_default_paths(void **state)
{
	struct vm	*vm = new_vm();
	struct buf	 msg = { 0 };
	char		 dir[] = "/tmp/pdwiz-expdef-XXXXXX", err[256], *p, *d;
	char		*before, *after;
	size_t		 len;
	struct stat	 st;
	unsigned	 fl = VM_EXPORT_FAILING | VM_EXPORT_OVERWRITE;
	static const char *const fresh[][2] = {
		{ "shell", "launch.sh" }, { "runbook", "RUNBOOK.md" },
		{ "config", "pd-config/" }, { "k8s", "pd-k8s.yaml" },
		{ "yaml", "pd-pinned.yaml" },
	};
	static const char *const beside[][2] = {
		{ "shell", "mini-launch.sh" }, { "runbook", "mini-RUNBOOK.md" },
		{ "config", "mini-config/" }, { "k8s", "mini-k8s.yaml" },
		{ "yaml", "mini-pinned.yaml" },
	};
	size_t		 i;

	(void)state;
	for (i = 0; i < sizeof fresh / sizeof fresh[0]; i++) {
		d = vm_export_default_path(vm, fresh[i][0]);
		assert_string_equal(d, fresh[i][1]);
		free(d);
	}
	assert_non_null(mkdtemp(dir));
	assert_int_equal(vm_save(vm, (p = xasprintf("%s/mini.yaml", dir)),
	    false, &msg), 0);
	for (i = 0; i < sizeof beside / sizeof beside[0]; i++) {
		char	*want = xasprintf("%s/%s", dir, beside[i][1]);

		d = vm_export_default_path(vm, beside[i][0]);
		assert_string_equal(d, want);
		free(d);
		free(want);
	}
	before = read_file(p, 1 << 20, &len, err, sizeof err);
	assert_int_equal(vm_export(vm, "shell", p, fl, &msg), -1);
	assert_non_null(strstr(msg.s, "is the deployment file itself"));
	assert_int_equal(vm_export(vm, "config", dir, fl, &msg), 0);
	after = read_file(p, 1 << 20, &len, err, sizeof err);
	assert_string_equal(before, after);
	free(before);
	free(after);
	assert_int_equal(vm_export(vm, "config", "/dev/null", fl, &msg), -1);
	assert_non_null(strstr(msg.s, "is not a directory"));
	assert_int_equal(stat("/dev/prefill.yaml", &st), -1);
	assert_int_equal(vm_export(vm, "shell", "/dev/null", fl, &msg), -1);
	assert_int_equal(stat("/dev/null", &st), 0);
	assert_true(S_ISCHR(st.st_mode));
	for (i = 0; i < 3; i++) {
		static const char *const n[] = { "prefill.yaml", "decode.yaml",
		    "launch.sh" };
		char	*f = xasprintf("%s/%s", dir, n[i]);

		unlink(f);
		free(f);
	}
	unlink(p);
	free(p);
	rmdir(dir);
	buf_free(&msg);
	vm_free(vm);
}

/* Columns as the screen takes them: a CJK character or an emoji two, in
 * a UTF-8 locale; one per character in the C locale. */
static void
test_text_cols_wide(void **state)
{
	(void)state;
	if (setlocale(LC_ALL, "C.UTF-8") == NULL)
		skip();
	assert_int_equal(wiz_text_cols("/m/\xe6\xa8\xa1\xe5\x9e\x8b"), 7);
	assert_int_equal(wiz_text_cols("\xf0\x9f\x98\x80" "a"), 3);
	assert_int_equal(wiz_text_cols("e\xcc\x81"), 1);
	assert_int_equal(wiz_cols("\xe6\xa8\xa1\xe5\x9e\x8b", 3), 2);
	/* Whole characters only: 3 columns hold one CJK character. */
	assert_int_equal(wiz_bytes_for_cols("\xe6\xa8\xa1\xe5\x9e\x8b", 6, 3),
	    3);
	assert_int_equal(wiz_bytes_for_cols("\xe6\xa8\xa1\xe5\x9e\x8b", 6, 4),
	    6);
	assert_int_equal(wiz_bytes_for_cols("ab", 2, 1), 1);
	setlocale(LC_ALL, "C");
	assert_int_equal(wiz_text_cols("/m/\xe6\xa8\xa1\xe5\x9e\x8b"), 5);
}

/* Every symbol the wizard draws has an ASCII form; anything else outside
 * ASCII, or a broken sequence, becomes '?'. */
static void
test_ascii_fallbacks(void **state)
{
	static const char *const cases[][2] = {
		{ "\xe2\x86\x91\xe2\x86\x93 move", "^v move" },
		{ "a \xe2\x86\x92 b \xe2\x86\x90 c", "a -> b <- c" },
		{ "\xe2\x9c\x97 unavailable", "X unavailable" },
		{ "\xe2\x94\x82P0\xe2\x94\x82 \xc2\xb7", "|P0| ." },
		{ "\xe2\x94\x8c\xe2\x94\x80\xe2\x94\x90", "+-+" },
		{ "more\xe2\x80\xa6", "more..." },
		{ "a \xe2\x80\x94 b", "a -- b" },
		{ "tp \xe2\x89\xa5 2", "tp >= 2" },
		{ "\xe2\x80\x9cq\xe2\x80\x9d", "\"q\"" },
		{ "\xe6\xbc\xa2", "?" },
		{ "bad \xe2\x86 x", "bad ?? x" },
		{ "plain", "plain" },
		{ "", "" },
	};
	size_t	i;
	char	*a;

	(void)state;
	for (i = 0; i < sizeof cases / sizeof cases[0]; i++) {
		a = tui_ascii(cases[i][0]);
		assert_string_equal(a, cases[i][1]);
		free(a);
	}
}

/* The line editor: cursor moves, kills, whole UTF-8 characters, typing
 * over a pre-filled value, long input kept whole. */
static void
test_lineedit(void **state)
{
	struct lineedit	le;
	char		long_text[2001];

	(void)state;
	le_init(&le, "1");
	le_key(&le, '8');
	assert_string_equal(le_text(&le), "8");
	le_free(&le);
	le_init(&le, "16");
	le_key(&le, '8');
	assert_string_equal(le_text(&le), "8");
	le_free(&le);
	le_init(&le, "16");
	le_key(&le, LE_BACKSPACE);
	assert_string_equal(le_text(&le), "");
	le_free(&le);
	/* A movement key keeps the pre-filled text and inserts at the cursor. */
	le_init(&le, "16");
	le_key(&le, LE_HOME);
	le_key(&le, '2');
	assert_string_equal(le_text(&le), "216");
	le_key(&le, LE_END);
	le_key(&le, '0');
	assert_string_equal(le_text(&le), "2160");
	le_key(&le, LE_LEFT);
	le_key(&le, LE_LEFT);
	le_key(&le, LE_BACKSPACE);
	assert_string_equal(le_text(&le), "260");
	le_key(&le, LE_DELETE);
	assert_string_equal(le_text(&le), "20");
	le_key(&le, LE_RIGHT);
	le_key(&le, LE_RIGHT);
	le_key(&le, LE_RIGHT);
	assert_int_equal(le_cursor_chars(&le), 2);
	le_free(&le);
	/* Ctrl-U kills to the start, Ctrl-W the word before the cursor. */
	le_init(&le, NULL);
	le_type(&le, "host-a host-b  ");
	le_key(&le, LE_KILL_WORD);
	assert_string_equal(le_text(&le), "host-a ");
	le_type(&le, "c");
	le_key(&le, LE_LEFT);
	le_key(&le, LE_KILL_START);
	assert_string_equal(le_text(&le), "c");
	assert_int_equal(le_cursor_chars(&le), 0);
	le_free(&le);
	/* Whole characters: "é" and "✗" are two and three bytes. */
	le_init(&le, NULL);
	le_type(&le, "a\xc3\xa9\xe2\x9c\x97" "b");
	le_key(&le, LE_LEFT);
	le_key(&le, LE_BACKSPACE);
	assert_string_equal(le_text(&le), "a\xc3\xa9" "b");
	le_key(&le, LE_LEFT);
	assert_int_equal(le_cursor_chars(&le), 1);
	le_key(&le, LE_DELETE);
	assert_string_equal(le_text(&le), "ab");
	le_key(&le, LE_RIGHT);
	le_key(&le, LE_BACKSPACE);
	assert_string_equal(le_text(&le), "a");
	le_free(&le);
	/* A long paste is kept whole. */
	memset(long_text, 'x', sizeof long_text - 1);
	long_text[sizeof long_text - 1] = '\0';
	le_init(&le, "old");
	le_type(&le, long_text);
	assert_string_equal(le_text(&le), long_text);
	le_free(&le);
}

/* B1: a role's value equal to SGLang's default is the role's own when a
 * shared value would show through (TP 1 on the prefill under the quick
 * start's shared TP 4); back to 4 it is left out (the shared value). */
static void
test_role_default_under_shared(void **state)
{
	struct vm		*vm = new_vm();
	const struct vm_row	*row;
	struct vm_quick		 q;
	struct buf		 msg = { 0 };
	char			*ch;

	(void)state;
	vm_quick_init(vm, &q);
	assert_int_equal(vm_quick_apply(vm, &q, &msg), 0);
	row = focus(vm, "Parallelism (prefill)", "tensor parallel (TP)");
	assert_string_equal(row->value, "4");
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, "1",
	    &msg), 0);
	assert_string_equal(vm_focused(vm)->value, "1");
	ch = vm_changes(vm);
	assert_non_null(strstr(ch, "prefill: tp_size: set to 1"));
	free(ch);
	row = focus(vm, "Parallelism (decode)", "tensor parallel (TP)");
	assert_string_equal(row->value, "4");
	row = focus(vm, "Parallelism (prefill)", "tensor parallel (TP)");
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, "4",
	    &msg), 0);
	assert_string_equal(vm_focused(vm)->value, "4");
	ch = vm_changes(vm);
	assert_null(strstr(ch, "prefill: tp_size"));
	free(ch);
	buf_free(&msg);
	vm_quick_free(&q);
	vm_free(vm);
}

/* The quick start: five answers make a 1P1D with TP over the GPUs, on the
 * review with 0 errors; shapes that do not fit the GPUs are refused. */
static void
test_quick_start(void **state)
{
	struct vm	*vm = new_vm();
	struct vm_quick	 q;
	struct buf	 msg = { 0 };
	char		 err[256];
	int		 tp, npi;
	size_t		 e, w, u;

	(void)state;
	vm_quick_init(vm, &q);
	assert_int_equal(vm_quick_check(vm, &q, &tp, &npi, err, sizeof err), 0);
	assert_int_equal(tp, 4);
	assert_int_equal(npi, 1);
	/* Instances that fit without sharing the GPUs evenly: the leftover
	 * GPUs idle (2P1D on 8: TP 2; 3P2D: TP 1). */
	assert_int_equal(vm_quick_shape("2P1D", &q.nprefill, &q.ndecode, err,
	    sizeof err), 0);
	assert_int_equal(vm_quick_check(vm, &q, &tp, &npi, err, sizeof err), 0);
	assert_int_equal(tp, 2);
	assert_int_equal(npi, 1);
	assert_int_equal(vm_quick_shape("3P2D", &q.nprefill, &q.ndecode, err,
	    sizeof err), 0);
	assert_int_equal(vm_quick_check(vm, &q, &tp, &npi, err, sizeof err), 0);
	assert_int_equal(tp, 1);
	/* More instances than GPUs do not fit. */
	assert_int_equal(vm_quick_shape("5P4D", &q.nprefill, &q.ndecode, err,
	    sizeof err), 0);
	assert_int_equal(vm_quick_check(vm, &q, &tp, &npi, err, sizeof err), -1);
	assert_non_null(strstr(err, "9 instances do not fit 1 node of 8 GPUs"));
	assert_int_equal(vm_quick_shape("1x1", &q.nprefill, &q.ndecode, err,
	    sizeof err), -1);
	q.nprefill = q.ndecode = 1;
	/* The accelerator: H100 by default; type-ahead by name or alias. */
	assert_string_equal(q.gpu, "H100-SXM-80GB");
	assert_string_equal(vm_quick_accel(vm, (size_t)vm_quick_accel_find(vm,
	    "h1"))->value, "H100-SXM-80GB");
	assert_string_equal(vm_quick_accel(vm, (size_t)vm_quick_accel_find(vm,
	    "b2"))->value, "B200-180GB");
	assert_string_equal(vm_quick_accel(vm, (size_t)vm_quick_accel_find(vm,
	    "mi 300"))->value, "MI300X");
	assert_int_equal(vm_quick_accel_find(vm, "zz9"), -1);
	assert_true(vm_typeahead_match("H100-SXM-80GB", "h100s"));
	assert_false(vm_typeahead_match("H100", "h100s"));
	/* Punctuation alone begins no name (it chose the first one). */
	assert_false(vm_typeahead_match("A100-40GB", "?"));
	assert_int_equal(vm_quick_accel_find(vm, "?"), -1);
	assert_int_equal(vm_quick_apply(vm, &q, &msg), 0);
	assert_true(vm_page(vm, (size_t)vm_cur_page(vm))->review);
	/* GPUs per node is the machine size; the accelerator a fact. */
	{
		char	*sh = vm_preview_text(vm, 0);

		assert_non_null(strstr(sh, "PDWIZ_GPUS_PER_HOST=8\n"));
		assert_non_null(strstr(sh, "PDWIZ_FACT_gpu=H100-SXM-80GB\n"));
		free(sh);
	}
	vm_counts(vm, &e, &w, &u);
	assert_int_equal(e, 0);
	assert_true(vm_dirty(vm));
	assert_int_equal(vm_undo(vm, &msg), 0);
	assert_false(vm_dirty(vm));
	vm_quick_free(&q);
	buf_free(&msg);
	vm_free(vm);
}

/* Guided inputs: bounds and named values refuse with the reason. */
static void
test_guided_text(void **state)
{
	struct vm		*vm = new_vm();
	const struct vm_row	*row;
	struct buf		 msg = { 0 };

	(void)state;
	row = focus(vm, "Model & hardware", "GPUs per node");
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, "81",
	    &msg), -1);
	assert_non_null(strstr(msg.s, "out of range: from 1 to 16"));
	row = focus(vm, "Model & hardware", "GPU generation (SM)");
	assert_true(row->nchoices > 4);
	assert_non_null(strstr(choice(row, "90  Hopper: H100, H200, H20, "
	    "H800")->text, "Hopper"));
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, "H100",
	    &msg), -1);
	assert_non_null(strstr(msg.s, "H100 is 90"));
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, "90",
	    &msg), 0);
	buf_free(&msg);
	vm_free(vm);
}

/* The platform an accelerator settles says so, not "(from model)"; the
 * accelerator is typed by any of its names. */
static void
test_platform_from_accelerator(void **state)
{
	struct vm		*vm = new_vm();
	const struct vm_row	*row;
	struct buf		 msg = { 0 };

	(void)state;
	row = focus(vm, "Model & hardware", "accelerator (GPU model)");
	/* An alias, as --gpu takes it, names the accelerator. */
	if (vm_set_text(vm, vm_cur_page(vm), row->field, "h100", &msg) != 0)
		fail_msg("%s", msg.s);
	row = focus(vm, "Model & hardware", "accelerator (GPU model)");
	assert_string_equal(row->value, "H100-SXM-80GB");
	row = focus(vm, "Model & hardware", "platform");
	assert_string_equal(row->value, "cuda");
	assert_non_null(row->note);
	assert_string_equal(row->note, "(from accelerator)");
	buf_free(&msg);
	vm_free(vm);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_platform_from_accelerator),
		cmocka_unit_test(test_forms_load),
		cmocka_unit_test(test_form_text_refresh),
		cmocka_unit_test(test_save_reads_back),
		cmocka_unit_test(test_form_errors),
		cmocka_unit_test(test_hicache_on_decode),
		cmocka_unit_test(test_staging_mori),
		cmocka_unit_test(test_fix_cross_role),
		cmocka_unit_test(test_header_counts_what_save_refuses),
		cmocka_unit_test(test_help_explains),
		cmocka_unit_test(test_undo_dirty),
		cmocka_unit_test(test_save_and_reopen),
		cmocka_unit_test(test_save_export_modes),
		cmocka_unit_test(test_save_not_regular),
		cmocka_unit_test(test_search),
		cmocka_unit_test(test_review_and_visibility),
		cmocka_unit_test(test_review_errors_first),
		cmocka_unit_test(test_long_value_whole),
		cmocka_unit_test(test_key_table),
		cmocka_unit_test(test_layout_derived),
		cmocka_unit_test(test_layout_pin),
		cmocka_unit_test(test_placement),
		cmocka_unit_test(test_router_lists),
		cmocka_unit_test(test_refresh_time),
		cmocka_unit_test(test_lineedit),
		cmocka_unit_test(test_review_deploy_fix),
		cmocka_unit_test(test_export_default_paths),
		cmocka_unit_test(test_text_cols_wide),
		cmocka_unit_test(test_ascii_fallbacks),
		cmocka_unit_test(test_undo_clean),
		cmocka_unit_test(test_search_values),
		cmocka_unit_test(test_quick_start),
		cmocka_unit_test(test_role_default_under_shared),
		cmocka_unit_test(test_guided_text),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
