/*
 * bench_engine.c - what `make bench` measures, in one run:
 *   bench_engine keystroke DATADIR   one wizard keystroke's model work
 *   bench_engine exec N CMD ARGS...  whole-process time and peak RSS
 * Not a test: it prints numbers, it never fails on them.
 */
#define _POSIX_C_SOURCE 200809L
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/time.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/catalog.h"
#include "core/config.h"
#include "core/engine.h"
#include "core/util.h"

static double
now(void)
{
	struct timespec	ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The fields of a busy wizard page, with every candidate value. */
static const char *const page[] = {
	"disaggregation_mode", "disaggregation_transfer_backend", "tp_size",
	"dp_size", "pp_size", "enable_dp_attention", "moe_a2a_backend",
	"kv_cache_dtype", "page_size", "enable_hierarchical_cache",
	"disaggregation_decode_enable_radix_cache",
	"disaggregation_decode_enable_offload_kvcache", "enable_prefill_cp",
	"cp_strategy", "enable_dsa_cache_layer_split",
	"SGLANG_DISAGG_STAGING_BUFFER", NULL
};

static size_t
candidates(const struct option *o, struct value *v, size_t max)
{
	static const long long	ints[] = { 1, 2, 4, 8, 16, 32, 64 };
	size_t			n = 0, i;

	if (o->type == T_BOOL || o->type == T_BOOLOPT) {
		v[n++] = val_bool(false);
		v[n++] = val_bool(true);
	} else if (o->nchoices > 0) {
		for (i = 0; i < o->nchoices && n < max; i++)
			v[n++] = val_str(o->choices[i]);
	} else if (o->type == T_INT) {
		for (i = 0; i < sizeof ints / sizeof ints[0] && n < max; i++)
			v[n++] = val_int(ints[i]);
	}
	return n;
}

static int
keystroke(const char *dir)
{
	char		 err[1024];
	double		 t0 = now(), t1, t2;
	struct catalog	*cat = catalog_load(dir, err, sizeof err);
	struct config	 cfg;
	struct value	 vals[64];
	size_t		 i, k, nvals = 0, iters = 0, blocked = 0;
	int		 opts[64], nopt = 0;

	if (cat == NULL) {
		fprintf(stderr, "bench: %s\n", err);
		return 2;
	}
	t1 = now();
	config_init(&cfg, cat);
	config_set(&cfg, catalog_find(cat, "model_path"),
	    val_str("deepseek-ai/DeepSeek-V3-0324"), SRC_CLI, 1, 1);
	config_set(&cfg, catalog_find(cat, "disaggregation_mode"),
	    val_str("decode"), SRC_CLI, 1, 1);
	config_set(&cfg, catalog_find(cat, "tp_size"), val_int(16), SRC_CLI,
	    1, 1);
	config_set(&cfg, catalog_find(cat, "dp_size"), val_int(8), SRC_CLI, 1,
	    1);
	config_set(&cfg, catalog_find(cat, "enable_dp_attention"),
	    val_bool(true), SRC_CLI, 1, 1);
	catalog_model_facts(cat, "deepseek-ai/DeepSeek-V3-0324", &cfg);
	for (i = 0; page[i] != NULL; i++) {
		int	o = catalog_find(cat, page[i]);

		if (o >= 0)
			opts[nopt++] = o;
	}
	for (i = 0; i < (size_t)nopt; i++) {
		struct value	tmp[64];

		nvals += candidates(&cat->opts[opts[i]], tmp, 64);
	}
	/* One keystroke: evaluate everything, then every value's availability. */
	do {
		struct result	res;

		result_init(&res);
		engine_run(cat, &cfg, &res);
		result_free(&res);
		for (i = 0; i < (size_t)nopt; i++) {
			size_t	n = candidates(&cat->opts[opts[i]], vals, 64);

			for (k = 0; k < n; k++)
				if (engine_blocks(cat, &cfg, opts[i], vals[k]))
					blocked++;
		}
		iters++;
		t2 = now();
	} while (t2 - t1 < 2.0 || iters < 20);
	printf("catalog %-28s %5zu rules %5zu options  load %6.2f ms  "
	    "keystroke %7.3f ms (%d fields, %zu values, %zu unavailable)\n",
	    dir, cat->nrules, cat->nopts, (t1 - t0) * 1e3,
	    (t2 - t1) * 1e3 / (double)iters, nopt, nvals, blocked / iters);
	config_free(&cfg);
	catalog_free(cat);
	intern_free_all();
	return 0;
}

/* One run of a command line split at spaces; wall seconds, peak RSS in KiB. */
static int
run_once(const char *line, double *wall, long *rss)
{
	char		*copy = xstrdup(line), *argv[32], *save = NULL, *w;
	int		 argc = 0, st;
	struct rusage	 ru;
	double		 t0;
	pid_t		 pid;

	for (w = strtok_r(copy, " ", &save); w != NULL && argc < 31;
	    w = strtok_r(NULL, " ", &save))
		argv[argc++] = w;
	argv[argc] = NULL;
	t0 = now();
	if ((pid = fork()) == 0) {
		if (freopen("/dev/null", "w", stdout) == NULL)
			_exit(127);
		execvp(argv[0], argv);
		_exit(127);
	}
	if (pid < 0 || wait4(pid, &st, 0, &ru) < 0) {
		free(copy);
		return -1;
	}
	*wall = now() - t0;
	*rss = ru.ru_maxrss;
	free(copy);
	return WIFEXITED(st) && WEXITSTATUS(st) != 127 ? 0 : -1;
}

static int
cmp_double(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, size_t n)
{
	sort_items(v, n, sizeof *v, cmp_double);
	return n % 2 ? v[n / 2] : (v[n / 2 - 1] + v[n / 2]) / 2;
}

/*
 * race N LABEL CMD LABEL CMD ...: the commands in turn, round after round
 * (A B C A B C ...), so that a drift in the machine's speed falls on all
 * of them alike. Prints each one's median wall time and peak RSS, and the
 * median over rounds of each command's time against the first's.
 */
#define RACE_MAX	8
static int
race(int n, int argc, char **argv)
{
	int		 k = argc / 2, i, j;
	double		*t[RACE_MAX], *ratio;
	long		 rss[RACE_MAX] = { 0 };

	if (n < 1 || k < 1 || k > RACE_MAX || argc % 2 != 0)
		return 2;
	for (j = 0; j < k; j++)
		t[j] = xcalloc((size_t)n, sizeof **t);
	ratio = xcalloc((size_t)n, sizeof *ratio);
	for (i = -1; i < n; i++) {		/* round -1 warms up */
		for (j = 0; j < k; j++) {
			double	w;
			long	r;

			if (run_once(argv[2 * j + 1], &w, &r) != 0) {
				fprintf(stderr, "race: cannot run %s\n",
				    argv[2 * j + 1]);
				return 2;
			}
			if (i < 0)
				continue;
			t[j][i] = w;
			if (r > rss[j])
				rss[j] = r;
		}
	}
	printf("  %-26s %10s %10s %10s %13s\n", "", "median ms", "min ms",
	    "max ms", "peak RSS MiB");
	for (j = 0; j < k; j++) {
		double	med;

		/* Sort a copy: the rounds stay paired for the ratios. */
		memcpy(ratio, t[j], (size_t)n * sizeof *ratio);
		med = median(ratio, (size_t)n);
		printf("  %-26.26s %10.2f %10.2f %10.2f %13.2f\n", argv[2 * j],
		    med * 1e3, ratio[0] * 1e3, ratio[n - 1] * 1e3,
		    (double)rss[j] / 1024.0);
	}
	for (j = 1; j < k; j++) {
		double	r;

		for (i = 0; i < n; i++)
			ratio[i] = t[0][i] / t[j][i];
		r = median(ratio, (size_t)n);
		if (r >= 1)
			printf("  %s takes %.2fx the time of %s", argv[0], r,
			    argv[2 * j]);
		else
			printf("  %s is %.1fx faster than %s", argv[0], 1 / r,
			    argv[2 * j]);
		printf(" (median of %d paired rounds)\n", n);
	}
	free(ratio);
	for (j = 0; j < k; j++)
		free(t[j]);
	return 0;
}

int
main(int argc, char **argv)
{
	if (argc == 3 && strcmp(argv[1], "keystroke") == 0)
		return keystroke(argv[2]);
	if (argc >= 5 && strcmp(argv[1], "race") == 0)
		return race(atoi(argv[2]), argc - 3, argv + 3);
	fprintf(stderr, "usage: bench_engine keystroke DATADIR | "
	    "race N LABEL 'CMD ARGS' [LABEL 'CMD ARGS' ...]\n");
	return 2;
}
