/*
 * fuzz_forms.c - the wizard's forms loader (vm_load_forms) on a view-model
 * over the real catalog, then a refresh and a walk over the pages and rows
 * it built.
 */
#include "fuzz.h"
#include "tui/vm.h"

#include <unistd.h>

/*
 * The input is written as the only form of a directory and read through
 * vm_load_forms, the loader the wizard uses. A view-model is costly to
 * build and a form that fails to load leaves it as it was, so one is kept
 * until a form loads into it.
 */
static struct vm	*vm;
static unsigned		 vm_gen;
static char		 dir[64], path[96];

static void
cleanup(void)
{
	unlink(path);
	rmdir(dir);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const struct catalog	*cat = fuzz_catalog();
	char			 err[1024];
	FILE			*f;

	if (dir[0] == '\0') {
		/* tmpfs if there is one: no write-back on every input */
		snprintf(dir, sizeof dir, "/dev/shm/pdwiz-fuzz-forms.XXXXXX");
		if (mkdtemp(dir) == NULL) {
			snprintf(dir, sizeof dir, "/tmp/pdwiz-fuzz-forms.XXXXXX");
			if (mkdtemp(dir) == NULL)
				abort();
		}
		snprintf(path, sizeof path, "%s/10-fuzz.yaml", dir);
		atexit(cleanup);
	}
	unlink(path);	/* a new file, not a truncated one (ext4 flushes those) */
	if ((f = fopen(path, "wb")) == NULL)
		abort();
	if (size > 0 && fwrite(data, 1, size, f) != size)
		abort();
	if (fclose(f) != 0)
		abort();
	if (vm != NULL && vm_gen != fuzz_gen) {
		vm_free(vm);	/* made over the previous catalog */
		vm = NULL;
	}
	if (vm == NULL) {
		vm = vm_new(cat);
		vm_gen = fuzz_gen;
	}
	if (vm_load_forms(vm, dir, err, sizeof err) == 0) {
		const struct vm_row	*rows;
		size_t			 i, n;

		vm_refresh(vm);
		for (i = 0; i < vm_npages(vm); i++)
			(void)vm_page_visible(vm, i);
		n = vm_rows(vm, &rows);
		(void)n;
		vm_move(vm, 1);
		vm_page_step(vm, 1);
		vm_free(vm);
		vm = NULL;
	} else if (strncmp(err, path, strlen(path)) != 0 &&
	    strncmp(err, dir, strlen(dir)) != 0) {
		fprintf(stderr, "message without the file name: %s\n", err);
		abort();
	}
	return 0;
}
