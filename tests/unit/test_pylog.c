/*
 * test_pylog.c - reading a failed launch's log: Python reprs
 * (io/pyrepr.c), the log's failures, configuration and commands
 * (io/pylog.c), and rule messages as templates (core/msgmatch.c).
 */
#define _POSIX_C_SOURCE 200809L
#include "testutil.h"

#include <stdio.h>
#include <string.h>

#include "core/msgmatch.h"
#include "io/pylog.h"
#include "io/pyrepr.h"

static struct catalog	*cat;

static struct pyv *
parse(const char *s, bool *cut)
{
	size_t	pos = 0;
	char	err[160];

	return pyrepr_parse(s, strlen(s), &pos, cut, err, sizeof err);
}

static void
test_repr_fields(void **state)
{
	bool			 cut;
	struct pyv		*v;
	const struct pyv	*f;

	(void)state;
	v = parse("ServerArgs(model_path='/m/it\\'s', tp_size=8, "
	    "mem_fraction_static=0.88, lst=['a', 'b'], d={'k': 1, 'j': [2]}, "
	    "none=None, t=True, fl=False, e=<LoadFormat.AUTO: 'auto'>, "
	    "nested=Cfg(a=1, b=(2, 3)), tiny=1e-05, neg=-1, big=inf, "
	    "s=\"a\\\"b\\n\\u00e9\\x41\", empty={}, dev=torch.bfloat16, "
	    "st={1, 2}, by=b'\\x00z')", &cut);
	assert_non_null(v);
	assert_false(cut);
	assert_int_equal(v->k, PY_CALL);
	assert_string_equal(v->s, "ServerArgs");
	f = pyv_kwarg(v, "model_path");
	assert_int_equal(f->k, PY_STR);
	assert_string_equal(f->s, "/m/it's");
	assert_string_equal(pyv_kwarg(v, "tp_size")->s, "8");
	assert_int_equal(pyv_kwarg(v, "tp_size")->k, PY_INT);
	assert_int_equal(pyv_kwarg(v, "mem_fraction_static")->k, PY_FLOAT);
	f = pyv_kwarg(v, "lst");
	assert_int_equal(f->k, PY_LIST);
	assert_int_equal(f->nitems, 2);
	assert_string_equal(f->items[1]->s, "b");
	f = pyv_kwarg(v, "d");
	assert_int_equal(f->k, PY_DICT);
	assert_int_equal(f->nitems, 4);
	assert_int_equal(pyv_kwarg(v, "none")->k, PY_NONE);
	assert_true(pyv_kwarg(v, "t")->b);
	assert_false(pyv_kwarg(v, "fl")->b);
	f = pyv_kwarg(v, "e");
	assert_int_equal(f->k, PY_OTHER);
	assert_string_equal(f->s, "<LoadFormat.AUTO: 'auto'>");
	f = pyv_kwarg(v, "nested");
	assert_int_equal(f->k, PY_CALL);
	assert_int_equal(pyv_kwarg(f, "b")->k, PY_TUPLE);
	assert_string_equal(pyv_kwarg(v, "tiny")->s, "1e-05");
	assert_string_equal(pyv_kwarg(v, "neg")->s, "-1");
	assert_int_equal(pyv_kwarg(v, "big")->k, PY_FLOAT);
	assert_string_equal(pyv_kwarg(v, "s")->s, "a\"b\n\xc3\xa9" "A");
	assert_int_equal(pyv_kwarg(v, "empty")->k, PY_DICT);
	assert_int_equal(pyv_kwarg(v, "dev")->k, PY_NAME);
	assert_int_equal(pyv_kwarg(v, "st")->k, PY_SET);
	f = pyv_kwarg(v, "by");
	assert_int_equal(f->k, PY_BYTES);
	assert_int_equal(f->n, 2);
	pyv_free(v);
}

static void
test_repr_cut_and_hostile(void **state)
{
	bool		 cut;
	struct pyv	*v;
	char		*deep;
	size_t		 i;

	(void)state;
	/* an operator's paste, cut short: the fields before the cut */
	v = parse("ServerArgs(model_path='/m', tp_size=8, mem_fr", &cut);
	assert_non_null(v);
	assert_true(cut);
	assert_string_equal(pyv_kwarg(v, "tp_size")->s, "8");
	pyv_free(v);
	v = parse("ServerArgs(model_path='/m", &cut);
	assert_true(cut);
	assert_string_equal(pyv_kwarg(v, "model_path")->s, "/m");
	pyv_free(v);
	/* an ellipsis someone typed, garbage between fields */
	v = parse("ServerArgs(tp_size=2, ..., ) ) x, pp_size=4)", &cut);
	assert_non_null(v);
	pyv_free(v);
	/* nesting far past any configuration's */
	deep = xmalloc(100001);
	for (i = 0; i < 100000; i++)
		deep[i] = i % 2 ? '(' : '[';
	deep[100000] = '\0';
	v = parse(deep, &cut);
	assert_non_null(v);
	pyv_free(v);
	free(deep);
}

static void
test_log_failures(void **state)
{
	static const char log[] =
	    "# a header line\n"
	    "[2026-08-28 10:01:02 TP0] Scheduler hit an exception: Traceback "
	    "(most recent call last):\n"
	    "[2026-08-28 10:01:02 TP1] Scheduler hit an exception: Traceback "
	    "(most recent call last):\n"
	    "  File \"/sgl/python/sglang/srt/server_args.py\", line 10, in "
	    "check_server_args\n"
	    "    assert self.chunked_prefill_size % self.page_size == 0\n"
	    "    ^^^^^^^^^^^^^^^^^\n"
	    "[2026-08-28 10:01:03 TP5] Load weight begin.\n"
	    "AssertionError: chunked_prefill_size must be divisible by "
	    "page_size\n"
	    "AssertionError: chunked_prefill_size must be divisible by "
	    "page_size\n"
	    "(SGLangEngine pid=12) [2026-08-28 10:01:04] Received sigquit from "
	    "a child process. It usually means the child failed.\n"
	    "launch_server.py: error: unrecognized arguments: --tp-sizee 2\n"
	    "[rank3]: Traceback (most recent call last):\n"
	    "[rank3]:   File \"/x/models/llama.py\", line 3, in __init__\n"
	    "[rank3]:     assert self.total_num_heads % tp_size == 0\n"
	    "[rank3]: AssertionError\n";
	struct pylog	lg;

	(void)state;
	pylog_read(log, strlen(log), &lg);
	assert_int_equal(lg.nf, 4);
	assert_int_equal(lg.f[0].kind, PL_EXCEPTION);
	assert_string_equal(lg.f[0].type, "AssertionError");
	assert_string_equal(lg.f[0].msg,
	    "chunked_prefill_size must be divisible by page_size");
	assert_int_equal(lg.f[0].count, 2);
	assert_int_equal(lg.f[0].line, 8);
	assert_int_equal(lg.f[0].nframes, 1);
	assert_string_equal(lg.f[0].frames[0].func, "check_server_args");
	assert_int_equal(lg.f[1].kind, PL_LOGGED);
	assert_true(lg.f[1].consequence);
	assert_int_equal(lg.f[2].kind, PL_ARGPARSE);
	assert_string_equal(lg.f[2].msg, "unrecognized arguments: --tp-sizee 2");
	assert_int_equal(lg.f[3].kind, PL_EXCEPTION);
	assert_string_equal(lg.f[3].msg, "");
	assert_string_equal(lg.f[3].code,
	    "assert self.total_num_heads % tp_size == 0");
	assert_string_equal(lg.f[3].procs, "rank3");
	pylog_free(&lg);
}

static void
test_log_config(void **state)
{
	static const char log[] =
	    "export SGLANG_DISAGG_STAGING_BUFFER=1\n"
	    "$ MC_TE_METRIC=1 python3 -m sglang.launch_server --model-path /m \\\n"
	    "    --tp-size 2\n"
	    "[2026-08-28 10:01:02] server_args=ServerArgs(model_path='/m', "
	    "tp_size=2, page_size=64, disaggregation_mode='prefill', "
	    "no_such_field_of_another_release=3, "
	    "cuda_graph_bs=[1, 2, 4], trust_remote_code=False)\n";
	struct pylog	 lg;
	struct plskip	 sk = { 0 };
	size_t		 n;
	char		*sh;

	(void)state;
	pylog_read(log, strlen(log), &lg);
	assert_int_equal(lg.na, 1);
	assert_int_equal(lg.a[0].line, 4);
	assert_int_equal(lg.nc, 2);
	assert_string_equal(pylog_args_mode(lg.a[0].args), "prefill");
	sh = pylog_script(cat, &lg, &n, &sk);
	/* line for line: the exports, the env of the command the
	 * server_args replaces, then the command server_args states */
	assert_string_equal(sh, "export SGLANG_DISAGG_STAGING_BUFFER=1\n"
	    "export MC_TE_METRIC=1\n\npython3 -m sglang.launch_server "
	    "--model-path /m --tp-size 2 --page-size 64 --disaggregation-mode "
	    "prefill --cuda-graph-bs-decode 1 2 4\n");
	assert_int_equal(sk.unknown, 1);
	assert_string_equal(sk.names.s, "no_such_field_of_another_release");
	free(sh);
	buf_free(&sk.names);
	pylog_free(&lg);
	assert_true(pylog_sniff(log, strlen(log)));
	assert_false(pylog_sniff("python -m sglang.launch_server --tp 2\n",
	    38));
}

static void
test_match(void **state)
{
	struct mm_index	*x = mm_index_new(cat);
	struct mm_hit	*h;
	struct mm_near	 near[3];
	size_t		 n;

	(void)state;
	n = mm_match(x, "--enable-dsa-cache-layer-split currently only "
	    "supports the mooncake transfer backend (mooncake / mooncake_tcp). "
	    "Got --disaggregation-transfer-backend 'nixl'. mori/nixl support "
	    "will be added later by the community.", MM_RULES, &h);
	assert_true(n >= 1);
	assert_string_equal(h[0].id, "cp-dsa-cache-layer-split-backend");
	assert_true(h[0].whole);
	assert_int_equal(h[0].nholes, 1);
	assert_string_equal(h[0].holes[0].value, "'nixl'");
	mm_hits_free(h, n);
	/* whitespace as the log wrapped it, inside a longer message */
	n = mm_match(x, "Scheduler failed:  SGLANG_DISAGG_STAGING_BUFFER\n "
	    "requires disaggregation_transfer_backend='mooncake' or 'nixl', "
	    "got 'mori'. (rank 3)", MM_RULES, &h);
	assert_true(n >= 1);
	assert_string_equal(h[0].id, "stg-backend");
	assert_false(h[0].whole);
	assert_string_equal(h[0].holes[0].value, "mori");
	mm_hits_free(h, n);
	n = mm_match(x, "unrecognized arguments: --tp-sizee 2", MM_RULES, &h);
	mm_hits_free(h, n);
	assert_int_equal(n, 0);
	n = mm_match(x, "unrecognized arguments: --tp-sizee 2", MM_ARGPARSE,
	    &h);
	assert_int_equal(n, 1);
	assert_string_equal(h[0].id, "argparse-unrecognized");
	assert_string_equal(h[0].holes[0].value, "--tp-sizee 2");
	mm_hits_free(h, n);
	/* a reworded message: not a match, but the closest */
	n = mm_closest(x, "Page size mismatch: decode server has page_size=64, "
	    "but prefill server has page_size=32. Both servers must use the "
	    "same --page-size value.", near, 3);
	assert_true(n >= 1);
	assert_string_equal(near[0].id, "xs-page-size");
	n = mm_closest(x, "CUDA error: an illegal memory access was "
	    "encountered", near, 3);
	assert_int_equal(n, 0);
	mm_index_free(x);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_repr_fields),
		cmocka_unit_test(test_repr_cut_and_hostile),
		cmocka_unit_test(test_log_failures),
		cmocka_unit_test(test_log_config),
		cmocka_unit_test(test_match),
	};
	int	rc;

	cat = test_catalog();
	rc = cmocka_run_group_tests(tests, NULL, NULL);
	catalog_free(cat);
	return rc;
}
