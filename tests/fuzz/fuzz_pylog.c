/*
 * fuzz_pylog.c - a failed launch's log (io/pylog.c, io/pyrepr.c) and the
 * rule messages as templates (core/msgmatch.c), as pdwiz explain reads
 * them.
 *
 * Besides "no crash, no leak": every failure is at a line and column of
 * the input; the shell view has one line per line of the log; every
 * template a message matches has as many values as holes.
 */
#include "fuzz.h"
#include "core/msgmatch.h"
#include "io/pylog.h"
#include "io/pyrepr.h"

static struct mm_index	*idx;
static unsigned		 idx_gen;

static void
idx_free(void)
{
	mm_index_free(idx);
	idx = NULL;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog	*cat = fuzz_catalog();
	char			*text = fuzz_text(data, size), *sh;
	struct pylog		 lg;
	struct plskip		 sk = { 0 };
	struct mm_hit		*h;
	size_t			 i, j, n, len, pos = 0, lines = 1;
	struct pyv		*v;
	bool			 cut;
	char			 err[160];

	if (idx == NULL || idx_gen != fuzz_gen) {
		if (idx == NULL)
			atexit(idx_free);
		mm_index_free(idx);
		idx = mm_index_new(cat);
		idx_gen = fuzz_gen;
	}
	for (i = 0; i < size; i++)
		lines += data[i] == '\n';
	pylog_read(text, size, &lg);
	for (i = 0; i < lg.nf; i++) {
		if (lg.f[i].line < 1 || (size_t)lg.f[i].line > lines ||
		    lg.f[i].col < 1 || lg.f[i].msg == NULL)
			abort();
		n = mm_match(idx, lg.f[i].msg, MM_RULES | MM_ARGPARSE, &h);
		for (j = 0; j < n; j++)
			if (h[j].id == NULL || h[j].tmpl == NULL)
				abort();
		mm_hits_free(h, n);
	}
	sh = pylog_script(cat, &lg, &len, &sk);
	for (i = n = 0; i < len; i++)
		n += sh[i] == '\n';
	if (n != lg.nlines)
		abort();
	free(sh);
	buf_free(&sk.names);
	pylog_free(&lg);
	v = pyrepr_parse(text, size, &pos, &cut, err, sizeof err);
	if (pos > size)
		abort();
	pyv_free(v);
	free(text);
	return 0;
}
