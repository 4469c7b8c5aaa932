/*
 * bench_wizard.c - one wizard keystroke's model work (vm_refresh: role
 * configs, every rule, visibility, availability of every value on the page)
 * on every page, for a catalog directory. Usage:
 *   bench_wizard DATADIR [FORMSDIR] [ITERATIONS]
 * Prints mean and worst per-page time and the peak RSS. Numbers, not
 * pass/fail (targets: 1 ms shipped catalog, 10 ms at 10x, RSS < 8 MiB).
 *   bench_wizard DATADIR FORMSDIR ITERATIONS FILE
 * opens the deployment FILE as the wizard does and prints the time to open
 * it and the model work of a Down (the next field), of a Tab (the next
 * page) and of an edit (a decode option typed: the static memory fraction
 * on KV cache (decode), 0.8 and 0.85 in turn), each followed by the
 * refresh the wizard makes, as medians over ITERATIONS keystrokes.
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

static int
cmp_ms(const void *a, const void *b)
{
	double	x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

static double
median(double *v, int n)
{
	qsort(v, (size_t)n, sizeof *v, cmp_ms);
	return v[n / 2];
}

/* The page titled title and its field labelled label, or -1. */
static int
find_field(struct vm *vm, const char *title, const char *label, int *field)
{
	size_t	p, f;

	for (p = 0; p < vm_npages(vm); p++) {
		const struct vm_page	*pg = vm_page(vm, p);

		if (strcmp(pg->title, title) != 0)
			continue;
		for (f = 0; f < pg->nf; f++)
			if (strcmp(pg->f[f].label, label) == 0) {
				*field = (int)f;
				return (int)p;
			}
	}
	return -1;
}

/* Open path, then n Downs, n Tabs and n edits, each with its refresh. */
static int
open_file(struct catalog *cat, struct vm *vm, const char *path, int n)
{
	double	*down = xreallocarray(NULL, (size_t)n, sizeof *down);
	double	*tab = xreallocarray(NULL, (size_t)n, sizeof *tab);
	double	*edit = xreallocarray(NULL, (size_t)n, sizeof *edit);
	double	 t0, open_ms;
	char	 err[2048];
	int	 i, page, field;
	struct buf msg = { 0 };

	t0 = now_ms();
	if (vm_open_file(vm, path, err, sizeof err) != 0) {
		fprintf(stderr, "bench_wizard: %s: %s\n", path, err);
		return 2;
	}
	vm_refresh(vm);
	open_ms = now_ms() - t0;
	for (i = 0; i < n; i++) {
		t0 = now_ms();
		vm_move(vm, 1);
		vm_refresh(vm);
		down[i] = now_ms() - t0;
	}
	for (i = 0; i < n; i++) {
		t0 = now_ms();
		vm_page_step(vm, 1);
		vm_refresh(vm);
		tab[i] = now_ms() - t0;
	}
	if ((page = find_field(vm, "KV cache (decode)",
	    "static memory fraction", &field)) < 0) {
		fprintf(stderr, "bench_wizard: no field to edit\n");
		return 2;
	}
	vm_goto(vm, page, field);
	for (i = 0; i < n; i++) {
		t0 = now_ms();
		if (vm_set_text(vm, page, field, i % 2 ? "0.85" : "0.8",
		    &msg) != 0) {
			fprintf(stderr, "bench_wizard: edit: %s\n", msg.s);
			return 2;
		}
		vm_refresh(vm);
		edit[i] = now_ms() - t0;
	}
	buf_free(&msg);
	printf("open %.1f ms, Down %.2f ms, Tab %.2f ms, edit %.2f ms\n",
	    open_ms, median(down, n), median(tab, n), median(edit, n));
	free(down);
	free(tab);
	free(edit);
	vm_free(vm);
	catalog_free(cat);
	return 0;
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
	if (argc > 4) {
		int	rc = open_file(cat, vm, argv[4], iters > 0 ? iters : 1);

		free(forms);
		return rc;
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
