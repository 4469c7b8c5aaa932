/*
 * test_vm_gen.c - the wizard's results are rebuilt only when the
 * deployment's generation moved on (src/tui/vm.c, build_results): every
 * way the wizard changes the deployment (a setter, clear, undo, redo, a
 * fix, an abandoned fix trial, pin, the role switch, the layout, the quick
 * start, open, import) changes what the header, the review and the rows
 * show, and what they show is what a rebuild from scratch shows.
 */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "testutil.h"
#include "vmtest.h"
#include "tui/vm.h"
#include "tui/vm_int.h"

/* What the view shows: the header's counts, every review item, and the
 * rows of the page in focus (the focus is kept). */
static char *
shown(struct vm *vm)
{
	const struct vm_review_item	*it;
	const struct vm_row		*rows;
	struct buf			 b = { 0 };
	size_t				 e, w, o, n, i;
	int				 page = vm_cur_page(vm);
	int				 field = vm->field;

	vm_counts(vm, &e, &w, &o);
	buf_printf(&b, "%zu errors, %zu warnings, %zu overrides, %zu "
	    "unchecked\n", e, w, o, vm_unchecked(vm));
	n = vm_rows(vm, &rows);
	for (i = 0; i < n; i++)
		buf_printf(&b, "row %s = %s %s%s%s blocked %zu\n",
		    rows[i].f->label, rows[i].value, rows[i].note,
		    rows[i].error ? " error" : "",
		    rows[i].warning ? " warning" : "", rows[i].nblocked);
	vm_goto(vm, find_page(vm, "Review"), 0);
	n = vm_review(vm, &it);
	for (i = 0; i < n; i++)
		buf_printf(&b, "review %s %d %s %s\n",
		    vm_scope_name(it[i].role), (int)it[i].sev,
		    it[i].id ? it[i].id : "-", it[i].msg);
	vm_goto(vm, page, field);
	return b.s != NULL ? b.s : xstrdup("");
}

/*
 * What is shown now, checked against a rebuild of every result (the
 * generation moved on by hand): equal, so nothing shown is stale.
 */
static char *
checked(struct vm *vm)
{
	char	*now = shown(vm), *fresh;

	vmi_dep_changed(vm);
	vm_refresh(vm);
	fresh = shown(vm);
	assert_string_equal(now, fresh);
	free(fresh);
	return now;
}

static size_t
errors(struct vm *vm)
{
	size_t	e, w, o;

	vm_counts(vm, &e, &w, &o);
	return e;
}

/* After a change: what is shown differs from before (and is not stale);
 * before is replaced with it. */
static void
changed(struct vm *vm, char **before, const char *what)
{
	char	*now = checked(vm);

	if (strcmp(*before, now) == 0)
		fail_msg("%s changed nothing shown:\n%s", what, now);
	free(*before);
	*before = now;
}

static void
unchanged(struct vm *vm, char **before, const char *what)
{
	char	*now = checked(vm);

	if (strcmp(*before, now) != 0)
		fail_msg("%s changed what is shown:\n%s\nto\n%s", what,
		    *before, now);
	free(now);
}

static void
test_every_edit_path(void **state)
{
	struct vm		*vm = new_vm();
	struct buf		 msg = { 0 };
	char			*was, *ch = NULL, *pic, *pic2;
	bool			 more;
	const char		**labels;
	int			*idx, f;
	size_t			 n;

	(void)state;
	focus(vm, "KV cache (decode)", "page size");
	was = checked(vm);
	assert_int_equal(errors(vm), 0);

	/* Moving and paging change no value: nothing is rebuilt. */
	{
		unsigned long	gen = vm->built_gen;

		vm_move(vm, 1);
		vm_refresh(vm);
		vm_page_step(vm, 1);
		vm_page_step(vm, -1);
		vm_refresh(vm);
		assert_true(vm->built_gen == gen);
		f = focus(vm, "KV cache (decode)", "page size")->field;
		unchanged(vm, &was, "moving");
	}

	/* A setter: a cross-role error. */
	assert_int_equal(vm_set(vm, vm_cur_page(vm), f, val_int(64),
	    &msg), 0);
	changed(vm, &was, "setting the page size");
	assert_true(errors(vm) > 0);
	assert_true(vm_focused(vm)->error);

	/* The fix's plan and its alternatives are trials, taken back: what
	 * is shown is as before (and points into the deployment as it is). */
	focus(vm, "KV cache (decode)", "page size");
	if (vm_fix_plan(vm, -1, &ch, &more, &msg) != 0)
		fail_msg("plan: %s", msg.s);
	free(ch);
	n = vm_fix_alternatives(vm, -1, &labels, &idx);
	assert_true(n > 0);
	free(labels);
	free(idx);
	unchanged(vm, &was, "a fix's plan");

	/* Undo, redo. */
	assert_int_equal(vm_undo(vm, &msg), 0);
	changed(vm, &was, "undo");
	assert_int_equal(errors(vm), 0);
	assert_int_equal(vm_redo(vm, &msg), 0);
	changed(vm, &was, "redo");
	assert_true(errors(vm) > 0);

	/* The fix. */
	focus(vm, "KV cache (decode)", "page size");
	if (vm_fix(vm, &msg) != 0)
		fail_msg("fix: %s", msg.s);
	changed(vm, &was, "the fix");
	assert_int_equal(errors(vm), 0);

	/* Text and clear. */
	f = focus(vm, "KV cache (prefill)", "page size")->field;
	free(was);
	was = checked(vm);
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), f, "32",
	    &msg), 0);
	changed(vm, &was, "typing the page size");
	assert_true(errors(vm) > 0);
	assert_int_equal(vm_clear(vm, &msg), 0);
	changed(vm, &was, "clearing the page size");

	/* The layout: instances, then pin (derived values become set). */
	f = focus(vm, "Topology", "prefill instances")->field;
	free(was);
	was = checked(vm);
	pic = vm_placement(vm, true, 80);
	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), f, "3",
	    &msg), 0);
	changed(vm, &was, "the prefill instances");
	assert_string_equal(vm_focused(vm)->value, "3");
	/* The picture is drawn again for the new layout (and kept while
	 * nothing changes). */
	pic2 = vm_placement(vm, true, 80);
	assert_string_not_equal(pic, pic2);
	free(pic);
	pic = vm_placement(vm, true, 80);
	assert_string_equal(pic, pic2);
	free(pic);
	free(pic2);
	assert_true(focus(vm, "Parallelism (decode)", "HTTP port")->derived);
	free(was);
	was = checked(vm);
	assert_int_equal(vm_pin(vm, &msg), 0);
	changed(vm, &was, "pin");
	assert_false(vm_focused(vm)->derived);
	assert_int_equal(vm_undo(vm, &msg), 0);
	changed(vm, &was, "undoing pin");
	assert_true(vm_focused(vm)->derived);

	/* The roles: PD off (one server), and back on. */
	focus(vm, "Topology", "PD disaggregation");
	free(was);
	was = checked(vm);
	assert_int_equal(vm_toggle(vm, &msg), 0);
	changed(vm, &was, "PD off");
	assert_false(vm_page_visible(vm,
	    (size_t)find_page(vm, "Parallelism (decode)")));
	assert_int_equal(vm_undo(vm, &msg), 0);
	changed(vm, &was, "PD on again");
	assert_true(vm_page_visible(vm,
	    (size_t)find_page(vm, "Parallelism (decode)")));

	free(was);
	buf_free(&msg);
	vm_free(vm);
}

/* Open and import replace the deployment: a file with an error, one
 * without, a script with an error. */
static void
test_open_import(void **state)
{
	static const char	bad[] =
	    "python -m sglang.launch_server --model-path "
	    "meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill "
	    "--port 30000 --page-size 16\n"
	    "python -m sglang.launch_server --model-path "
	    "meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode "
	    "--port 30001 --base-gpu-id 1 --page-size 64\n"
	    "python -m sglang_router.launch_router --pd-disaggregation "
	    "--prefill http://127.0.0.1:30000 8998 "
	    "--decode http://127.0.0.1:30001 --port 8000\n";
	struct vm		*vm = new_vm(), *vm2;
	struct buf		 msg = { 0 };
	char			 err[1024], *was, *fresh;
	char			 p1[] = "/tmp/pdwiz-vmgen-XXXXXX";
	char			 p2[] = "/tmp/pdwiz-vmgen-XXXXXX";
	char			 sh[] = "/tmp/pdwiz-vmgen-XXXXXX";
	int			 fd, f;

	(void)state;
	assert_true((fd = mkstemp(p1)) >= 0);
	close(fd);
	assert_true((fd = mkstemp(p2)) >= 0);
	close(fd);
	assert_true((fd = mkstemp(sh)) >= 0);
	assert_int_equal(write(fd, bad, sizeof bad - 1),
	    (ssize_t)(sizeof bad - 1));
	close(fd);

	/* p1: the default deployment, 0 errors; p2: an error. */
	assert_int_equal(vm_save(vm, p1, true, &msg), 0);
	f = focus(vm, "KV cache (decode)", "page size")->field;
	assert_int_equal(vm_set(vm, vm_cur_page(vm), f, val_int(64), &msg),
	    0);
	assert_true(errors(vm) > 0);
	assert_int_equal(vm_save(vm, p2, true, &msg), 0);
	was = checked(vm);

	assert_int_equal(vm_open_file(vm, p1, err, sizeof err), 0);
	vm_refresh(vm);
	changed(vm, &was, "opening a file without errors");
	assert_int_equal(errors(vm), 0);
	assert_int_equal(vm_open_file(vm, p2, err, sizeof err), 0);
	vm_refresh(vm);
	changed(vm, &was, "opening a file with an error");
	assert_true(errors(vm) > 0);
	/* The same as a view-model that opens it first. */
	vm2 = new_vm();
	assert_int_equal(vm_open_file(vm2, p2, err, sizeof err), 0);
	vm_refresh(vm2);
	vm_goto(vm2, vm_cur_page(vm), vm->field);
	fresh = checked(vm2);
	assert_string_equal(was, fresh);
	free(fresh);
	vm_free(vm2);

	assert_int_equal(vm_open_file(vm, p1, err, sizeof err), 0);
	vm_refresh(vm);
	changed(vm, &was, "opening the file without errors again");
	assert_int_equal(vm_import_script(vm, sh, err, sizeof err), 0);
	vm_refresh(vm);
	changed(vm, &was, "importing a script with an error");
	assert_true(errors(vm) > 0);

	/* The quick start makes a new deployment as one change. */
	{
		struct vm_quick	q;
		char		*first = NULL;

		vm_quick_init(vm, &q);
		(void)vm_quick_trial(vm, &q, &first);
		free(first);
		unchanged(vm, &was, "the quick start's trial");
		assert_int_equal(vm_quick_apply(vm, &q, &msg), 0);
		changed(vm, &was, "the quick start");
		vm_quick_free(&q);
	}

	free(was);
	buf_free(&msg);
	vm_free(vm);
	unlink(p1);
	unlink(p2);
	unlink(sh);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_every_edit_path),
		cmocka_unit_test(test_open_import),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
