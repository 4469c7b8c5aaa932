/*
 * vmtest.h - what the view-model suites share: the catalog (set up and torn
 * down per suite), a view-model over forms/, and focusing a field by its
 * page title and label.
 */
#ifndef PDWIZ_VMTEST_H
#define PDWIZ_VMTEST_H

#include <string.h>

#include "testutil.h"
#include "tui/vm.h"

static struct catalog	*cat;

static inline int
setup(void **state)
{
	(void)state;
	cat = test_catalog();
	return 0;
}

static inline int
teardown(void **state)
{
	(void)state;
	catalog_free(cat);
	return 0;
}

/* A new deployment's view-model over the forms of PDWIZ_DATADIR. */
static inline struct vm *
new_vm(void)
{
	struct vm	*vm = vm_new(cat);
	char		 err[1024];
	const char	*dir = getenv("PDWIZ_DATADIR");
	char		*forms = xasprintf("%s/forms", dir ? dir : ".");

	if (vm_load_forms(vm, forms, err, sizeof err) != 0)
		fail_msg("forms: %s", err);
	free(forms);
	vm_refresh(vm);
	return vm;
}

static inline int
find_page(struct vm *vm, const char *title)
{
	size_t	i;

	for (i = 0; i < vm_npages(vm); i++)
		if (strcmp(vm_page(vm, i)->title, title) == 0)
			return (int)i;
	fail_msg("no page %s", title);
	return -1;
}

/* Focus the field with this label on page title; returns its row. */
static inline const struct vm_row *
focus(struct vm *vm, const char *title, const char *label)
{
	int			 p = find_page(vm, title);
	const struct vm_page	*pg = vm_page(vm, (size_t)p);
	size_t			 i;

	for (i = 0; i < pg->nf; i++)
		if (strcmp(pg->f[i].label, label) == 0) {
			vm_goto(vm, p, (int)i);
			assert_int_equal(vm_cur_page(vm), p);
			assert_non_null(vm_focused(vm));
			assert_string_equal(vm_focused(vm)->f->label, label);
			return vm_focused(vm);
		}
	fail_msg("no field %s on %s", label, title);
	return NULL;
}

#endif
