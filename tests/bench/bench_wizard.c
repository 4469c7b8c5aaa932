/*
 * bench_wizard.c - one wizard keystroke's model work (vm_refresh: role
 * configs, every rule, visibility, availability of every value on the page)
 * on every page, for a catalog directory. Usage:
 *   bench_wizard DATADIR [FORMSDIR] [ITERATIONS]
 * Prints mean and worst per-page time and the peak RSS. Numbers, not
 * pass/fail (targets: 1 ms shipped catalog, 10 ms at 10x, RSS < 8 MiB).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>

#include "core/catalog.h"
#include "core/util.h"
#include "tui/vm.h"

static double
now_ms(void)
{
	struct timespec	t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec * 1e3 + (double)t.tv_nsec / 1e6;
}

int
main(int argc, char **argv)
{
	struct catalog	*cat;
	struct vm	*vm;
	char		 err[2048], *forms;
	int		 iters = argc > 3 ? atoi(argv[3]) : 200, i;
	size_t		 p, pages = 0;
	double		 total = 0, worst = 0;
	const char	*worst_page = "";
	struct rusage	 ru;

	if (argc < 2) {
		fprintf(stderr, "usage: bench_wizard DATADIR [FORMSDIR] [N]\n");
		return 2;
	}
	if ((cat = catalog_load(argv[1], err, sizeof err)) == NULL) {
		fprintf(stderr, "bench_wizard: %s\n", err);
		return 2;
	}
	forms = argc > 2 ? xstrdup(argv[2]) : xasprintf("%s/forms", argv[1]);
	vm = vm_new(cat);
	if (vm_load_forms(vm, forms, err, sizeof err) != 0) {
		fprintf(stderr, "bench_wizard: %s\n", err);
		return 2;
	}
	vm_refresh(vm);
	for (p = 0; p < vm_npages(vm); p++) {
		double	t0, ms;

		if (!vm_page_visible(vm, p))
			continue;
		vm_goto(vm, (int)p, 0);
		t0 = now_ms();
		for (i = 0; i < iters; i++)
			vm_refresh(vm);
		ms = (now_ms() - t0) / iters;
		total += ms;
		pages++;
		if (ms > worst) {
			worst = ms;
			worst_page = vm_page(vm, p)->title;
		}
	}
	getrusage(RUSAGE_SELF, &ru);
	printf("wizard keystroke (vm_refresh), %zu options, %zu rules: "
	    "mean %.3f ms over %zu pages, worst %.3f ms (%s); peak RSS %.1f MiB\n",
	    cat->nopts, cat->nrules, pages ? total / (double)pages : 0.0, pages,
	    worst, worst_page, (double)ru.ru_maxrss / 1024.0);
	vm_free(vm);
	catalog_free(cat);
	free(forms);
	return 0;
}
