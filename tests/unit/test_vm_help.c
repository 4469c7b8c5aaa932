/* test_vm_help.c - what the wizard teaches, without curses: where values
 * come from, the help's explanation and terms, the review's full text, the
 * preview's texts and search in them, wrapping and the key list. */
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <setjmp.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <curses.h>

#include "testutil.h"
#include "vmtest.h"
#include "tui/lineedit.h"
#include "tui/vm.h"
#include "tui/vm_deploy.h"
#include "tui/wiz.h"
#include "tui/wiz_keys.h"

static void
set_text(struct vm *vm, const char *title, const char *label,
    const char *text)
{
	const struct vm_row	*row = focus(vm, title, label);
	struct buf		 msg = { 0 };

	assert_int_equal(vm_set_text(vm, vm_cur_page(vm), row->field, text,
	    &msg), 0);
	buf_free(&msg);
}

static int
opt(const char *name)
{
	int	o = catalog_find(cat, name);

	assert_true(o >= 0);
	return o;
}

/* vm_origin's words for option name in role s starts with want. */
static void
origin_is(struct vm *vm, enum vm_scope s, const char *name, const char *want)
{
	char	*o = vm_origin(vm, s, opt(name));

	if (strncmp(o, want, strlen(want)) != 0)
		fail_msg("origin of %s on %s: '%s', want '%s...'", name,
		    vm_scope_name(s), o, want);
	free(o);
}

/* ---- origins ---- */

static void
test_origin_fresh(void **state)
{
	struct vm	*vm = new_vm();
	struct buf	 msg = { 0 };

	(void)state;
	origin_is(vm, SC_PREFILL, "tp_size", "default");
	origin_is(vm, SC_PREFILL, "model_arch", "from the model's facts");
	origin_is(vm, SC_PREFILL, "port", "derived (layout)");
	origin_is(vm, SC_PREFILL, "base_gpu_id", "derived (layout)");
	origin_is(vm, SC_DECODE, "disaggregation_mode", "the decode role");
	/* The decode server's radix cache is off by SGLang's override. */
	origin_is(vm, SC_DECODE, "disable_radix_cache",
	    "forced by the decode role (rule dec-chunk-cache-default: KV "
	    "cache is forced as chunk cache for decode server)");
	origin_is(vm, SC_PREFILL, "disable_radix_cache", "default");
	origin_is(vm, SC_PREFILL, "model_path", "preset by the wizard");
	/* Set by the operator, then undone: back to the default. */
	set_text(vm, "Parallelism (prefill)", "tensor parallel (TP)", "2");
	origin_is(vm, SC_PREFILL, "tp_size", "set by you");
	origin_is(vm, SC_DECODE, "tp_size", "default");
	assert_int_equal(vm_undo(vm, &msg), 0);
	origin_is(vm, SC_PREFILL, "tp_size", "default");
	/* A layout value the operator sets is theirs. */
	set_text(vm, "Parallelism (prefill)", "HTTP port", "31000");
	origin_is(vm, SC_PREFILL, "port", "set by you");
	buf_free(&msg);
	vm_free(vm);
}

static void
test_origin_imported(void **state)
{
	struct vm	*vm = new_vm();
	char		 path[] = "/tmp/pdwiz-origin-XXXXXX.sh", err[1024];
	int		 fd = mkstemps(path, 3);
	FILE		*f;

	(void)state;
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	fputs("python -m sglang.launch_server --model-path "
	    "meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode prefill "
	    "--tp 2 --port 30000\n"
	    "python -m sglang.launch_server --model-path "
	    "meta-llama/Llama-3.1-8B-Instruct --disaggregation-mode decode "
	    "--tp 2 --port 30001\n"
	    "python -m sglang_router.launch_router --pd-disaggregation "
	    "--prefill http://127.0.0.1:30000 --decode "
	    "http://127.0.0.1:30001\n", f);
	fclose(f);
	assert_int_equal(vm_import_script(vm, path, err, sizeof err), 0);
	vm_note_source(vm, path, true);
	vm_refresh(vm);
	{
		char	*want = xasprintf("imported from %s",
		    strrchr(path, '/') + 1);

		origin_is(vm, SC_PREFILL, "tp_size", want);
		free(want);
	}
	origin_is(vm, SC_PREFILL, "chunked_prefill_size", "default");
	set_text(vm, "Parallelism (decode)", "tensor parallel (TP)", "4");
	origin_is(vm, SC_DECODE, "tp_size", "set by you");
	unlink(path);
	vm_free(vm);
}

/* ---- help ---- */

static void
test_help_teaches(void **state)
{
	struct vm	*vm = new_vm();
	char		*h;

	(void)state;
	focus(vm, "KV cache (decode)", "hierarchical cache (HiCache)");
	h = vm_help(vm);
	assert_non_null(h);
	/* SGLang's message, what it means, the terms and their origins,
	 * the verified fixes, the source; no machine paths. */
	assert_non_null(strstr(h, "SGLang: The arguments enable-hierarchical-"
	    "cache and disable-radix-cache are mutually exclusive"));
	assert_non_null(strstr(h, "What it means: HiCache is a host-memory"));
	assert_non_null(strstr(h, "enable_hierarchical_cache = True  (the "
	    "value you are choosing)"));
	assert_non_null(strstr(h, "disable_radix_cache = True  (forced by the "
	    "decode role (rule dec-chunk-cache-default"));
	assert_non_null(strstr(h, "fix [f]: keep the radix cache on"));
	assert_non_null(strstr(h, "SGLang source: sglang python/sglang/srt/"));
	assert_non_null(strstr(h, "origin:    default"));
	assert_null(strstr(h, "rules/"));
	assert_null(strstr(h, ".yaml:"));
	assert_null(strstr(h, "/work/"));
	free(h);
	/* An error on the field: the value is the operator's. */
	focus(vm, "KV cache (decode)", "hierarchical cache (HiCache)");
	{
		struct buf	msg = { 0 };

		(void)vm_fix(vm, &msg);
		(void)vm_toggle(vm, &msg);
		buf_free(&msg);
	}
	h = vm_help(vm);
	assert_non_null(strstr(h, "origin:    set by you"));
	free(h);
	vm_free(vm);
}

static void
test_review_full_text(void **state)
{
	struct vm			*vm = new_vm();
	const struct vm_review_item	*it;
	size_t				 n, i;
	int				 rp = -1;

	(void)state;
	for (i = 0; i < vm_npages(vm); i++)
		if (vm_page(vm, i)->review)
			rp = (int)i;
	assert_true(rp >= 0);
	/* Prefill on one GPU with TP 8 of 8: the decode has no GPU. */
	set_text(vm, "Parallelism (prefill)", "tensor parallel (TP)", "8");
	vm_goto(vm, rp, 0);
	n = vm_review(vm, &it);
	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		char	*t = vm_review_text(vm, i);

		/* The whole message, however long. */
		assert_non_null(strstr(t, it[i].msg));
		/* whose words: SGLang's, or pdwiz's own (the GPUs the
		 * layout lacks are pdwiz's finding, no SGLang message) */
		if (strcmp(it[i].id, "xs-gpu-overflow") == 0 ||
		    strcmp(it[i].id, "xs-prefill-gpus") == 0)
			assert_non_null(strstr(t, "    pdwiz: "));
		else if (strcmp(it[i].id, "tb-ib-none") == 0 ||
		    strcmp(it[i].id, "xs-tp-non-mla") == 0)
			assert_non_null(strstr(t, "    SGLang: "));
		else if (strcmp(it[i].id, "load") != 0)
			assert_true(strstr(t, "SGLang: ") != NULL ||
			    strstr(t, "pdwiz: ") != NULL);
		/* f does nothing on the review page: no fix says [f]. */
		assert_null(strstr(t, "fix [f]"));
		assert_null(strstr(t, ".yaml:"));
		free(t);
	}
	/* ? on the review page is the focused problem's full text. */
	{
		char	*h = vm_help(vm), *t = vm_review_text(vm, 0);

		assert_string_equal(h, t);
		free(h);
		free(t);
	}
	vm_free(vm);
}

/* ---- preview ---- */

static void
test_preview_texts(void **state)
{
	struct vm	*vm = new_vm();
	struct deployment d;
	struct emission	 em;
	char		 err[1024], *t;
	size_t		 i;

	(void)state;
	for (i = 0; i < 4; i++)
		assert_non_null(vm_preview_name(i));
	assert_null(vm_preview_name(4));
	/* The runbook is the emitter's bytes. */
	vmd_default(cat, &d, NULL);
	assert_int_equal(vmd_emit(cat, &d, "runbook", false, &em, err,
	    sizeof err), 0);
	t = vm_preview_text(vm, 1);
	assert_string_equal(t, em.f[0].data);
	free(t);
	emission_free(&em);
	vmd_free(&d);
	t = vm_preview_text(vm, 3);
	assert_non_null(strstr(t, "LeaderWorkerSet"));
	free(t);
	t = vm_preview_text(vm, 2);
	assert_non_null(strstr(t, "# ==== file "));
	free(t);
	t = vm_preview_text(vm, 0);
	assert_non_null(strstr(t, "sglang.launch_server"));
	free(t);
	/* With an error: what emit --force writes, said so. */
	set_text(vm, "Parallelism (prefill)", "tensor parallel (TP)", "8");
	t = vm_preview_text(vm, 0);
	assert_non_null(strstr(t, "pdwiz emit --force"));
	free(t);
	vm_free(vm);
}

static void
test_text_find(void **state)
{
	const char	*text = "alpha\nBeta\ngamma beta\ndelta\n";

	(void)state;
	assert_int_equal(vm_text_find(text, 0, "beta"), 1);
	assert_int_equal(vm_text_find(text, 2, "BETA"), 2);
	/* Past the last match: from the top again. */
	assert_int_equal(vm_text_find(text, 3, "beta"), 1);
	assert_int_equal(vm_text_find(text, 0, "zeta"), -1);
	assert_int_equal(vm_text_find(text, 0, ""), -1);
	assert_int_equal(vm_text_find("", 0, "a"), -1);
	assert_int_equal(vm_text_find(text, 0, "a\nB"), -1);
}

/* ---- wrapping and keys ---- */

static void
test_wrap(void **state)
{
	struct lines	ls;
	struct buf	msg = { 0 }, back = { 0 };
	size_t		i;
	int		k;

	(void)state;
	wiz_utf8 = true;
	for (k = 0; k < 40; k++)
		buf_printf(&msg, "word%d ", k);
	wiz_wrap(msg.s, 30, (size_t)-1, &ls);
	assert_true(ls.n > 5);
	for (i = 0; i < ls.n; i++) {
		assert_true(wiz_text_cols(ls.l[i]) <= 30);
		buf_printf(&back, "%s ", ls.l[i]);
	}
	/* No word is lost or cut. */
	for (k = 0; k < 40; k++) {
		char	w[32];

		snprintf(w, sizeof w, "word%d ", k);
		assert_non_null(strstr(back.s, w));
	}
	wiz_lines_free(&ls);
	/* A max keeps the first lines; an indented line keeps its indent
	 * where it continues. */
	wiz_wrap(msg.s, 30, 2, &ls);
	assert_int_equal(ls.n, 2);
	wiz_lines_free(&ls);
	wiz_wrap("    indented text that goes on and on past the width", 20,
	    (size_t)-1, &ls);
	assert_true(ls.n >= 3);
	for (i = 0; i < ls.n; i++)
		assert_int_equal(strncmp(ls.l[i], "    ", 4), 0);
	wiz_lines_free(&ls);
	/* Not UTF-8: symbols become ASCII. */
	wiz_utf8 = false;
	wiz_wrap("a → b ✗", 30, (size_t)-1, &ls);
	assert_string_equal(ls.l[0], "a -> b X");
	wiz_lines_free(&ls);
	wiz_utf8 = true;
	buf_free(&msg);
	buf_free(&back);
}

static void
test_key_screen(void **state)
{
	char	*k = wiz_key_help();
	size_t	 i;

	(void)state;
	assert_non_null(strstr(k, "Moving around:"));
	assert_non_null(strstr(k, "Changing values:"));
	assert_non_null(strstr(k, "Files and quitting:"));
	assert_non_null(strstr(k, "Ctrl-R             redo"));
	assert_non_null(strstr(k, "F1                 this list"));
	for (i = 0; i < wiz_nview_keys; i++)
		if (wiz_view_keys[i].help != NULL)
			assert_non_null(strstr(k, wiz_view_keys[i].help));
	for (i = 0; i < wiz_nedit_keys; i++)
		if (wiz_edit_keys[i].help != NULL)
			assert_non_null(strstr(k, wiz_edit_keys[i].help));
	assert_int_equal(wiz_key_action(KEY_F(1)), WZ_KEYS);
	assert_int_equal(wiz_view_key_action('4'), WV_VIEW4);
	assert_int_equal(wiz_view_key_action('n'), WV_FIND_NEXT);
	assert_int_equal(wiz_edit_key(23), LE_KILL_WORD);
	free(k);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_origin_fresh),
		cmocka_unit_test(test_origin_imported),
		cmocka_unit_test(test_help_teaches),
		cmocka_unit_test(test_review_full_text),
		cmocka_unit_test(test_preview_texts),
		cmocka_unit_test(test_text_find),
		cmocka_unit_test(test_wrap),
		cmocka_unit_test(test_key_screen),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
