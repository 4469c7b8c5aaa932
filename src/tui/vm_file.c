/*
 * vm_file.c - files in and out: open a deployment, import a launch script,
 * the launch-command preview, save and export.
 */
#include "tui/vm_int.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "core/util.h"
#include "emit/emit.h"
#include "tui/vm_deploy.h"

int
vm_open_file(struct vm *vm, const char *path, char *err, size_t errlen)
{
	struct deployment	d;
	int			rc;

	rc = vmd_load(vm->cat, path, &d, err, errlen);
	free(vm->path);
	vm->path = xstrdup(path);
	if (rc != 0) {
		/* Open anyway and show the problems: never refuse. */
		free(vm->load_note);
		vm->load_note = xstrdup(err);
		vm->load_sev = SEV_ERROR;
		free(vm->title);
		vm->title = xasprintf("%s (not loaded: pdwiz's default "
		    "deployment)", path);
		vmd_free(&d);
		vmi_set_baseline(vm);
		return -1;
	}
	vmd_free(&vm->dep);
	vm->dep = d;
	vmi_dep_changed(vm);
	vmi_set_baseline(vm);
	return 0;
}

/* The file name of path without its directory and extension (malloc'd). */
static char *
stem(const char *path)
{
	const char	*b = strrchr(path, '/');
	char		*s, *dot;

	s = xstrdup(b != NULL ? b + 1 : path);
	if ((dot = strrchr(s, '.')) != NULL && dot != s)
		*dot = '\0';
	return s;
}

/* After an import: the title and the suggested save file come from the
 * script (launch.sh: launch.yaml), and so does the deployment's name when
 * the script gave none. */
static void
import_names(struct vm *vm, const char *path)
{
	char	*st = stem(path), *dir = xstrdup(path), *slash;

	if ((slash = strrchr(dir, '/')) != NULL)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	free(vm->suggest);
	vm->suggest = xasprintf("%s%s.yaml", dir, st);
	free(vm->title);
	vm->title = xasprintf("%s (from %s)", vm->suggest, path);
	if (vm->dep.name == NULL || strcmp(vm->dep.name, "pd") == 0) {
		free(vm->dep.name);
		vm->dep.name = xstrdup(st);
		vmi_dep_changed(vm);
	}
	free(st);
	free(dir);
}

int
vm_import_script(struct vm *vm, const char *path, char *err, size_t errlen)
{
	struct deployment	d;
	char			*notes = NULL;
	int			 rc;

	rc = vmd_import(vm->cat, path, &d, &notes, err, errlen);
	if (rc != 0) {
		free(vm->load_note);
		vm->load_note = xstrdup(err);
		vm->load_sev = SEV_ERROR;
		vmd_free(&d);
		free(notes);
		return -1;
	}
	vmd_free(&vm->dep);
	vm->dep = d;
	vmi_dep_changed(vm);
	/* As the saved file reads back (deploy_yaml.c): a role the import
	 * says is incomplete (missing.ROLE) is not placed, and the checks
	 * that need it are not checked, here as in pdwiz check of the file. */
	{
		int	r;

		for (r = 0; r < NPD_ROLE; r++)
			if (vm->dep.role[r].enabled &&
			    vm->dep.role[r].missing != NULL)
				deployment_read_unstated(&vm->dep.role[r]);
	}
	free(vm->load_note);
	vm->load_note = notes;
	vm->load_sev = SEV_WARNING;
	import_names(vm, path);
	/* An import is unsaved work: the baseline is the empty deployment. */
	{
		struct vm	tmp;

		memset(&tmp, 0, sizeof tmp);
		tmp.cat = vm->cat;
		tmp.o_model = vm->o_model;
		vmd_default(vm->cat, &tmp.dep, NULL);
		free(vm->baseline);
		vm->baseline = vmi_dump_state(&tmp);
		vmd_free(&tmp.dep);
	}
	return 0;
}

const char *
vm_path(const struct vm *vm)
{
	return vm->path;
}

const char *
vm_load_note(const struct vm *vm)
{
	return vm->load_note;
}

bool
vm_load_failed(const struct vm *vm)
{
	return vm->load_note != NULL && vm->load_sev == SEV_ERROR;
}

const char *
vm_title(const struct vm *vm)
{
	if (vm->title != NULL)
		return vm->title;
	return vm->path != NULL ? vm->path : "new deployment";
}

const char *
vm_suggested_path(const struct vm *vm)
{
	return vm->suggest;
}

/* ---- preview, save, export ---- */

/* The launch commands; those of the current page's role come first. */
char *
vm_preview(struct vm *vm)
{
	char		*all = vmd_preview(vm->cat, &vm->dep), *p;
	enum vm_scope	 role = vm->npages ? vm->pages[vm->page].role :
	    SC_SHARED;
	struct buf	 first = { 0 }, rest = { 0 };
	char		 tag[32];

	if (role != SC_PREFILL && role != SC_DECODE)
		return all;
	snprintf(tag, sizeof tag, "# %s ", vmi_scope_names[role]);
	p = all;
	while (p != NULL && *p != '\0') {
		char	*end = strstr(p, "\n\n");
		size_t	 len = end ? (size_t)(end - p) + 2 : strlen(p);

		buf_add(strncmp(p, tag, strlen(tag)) == 0 ? &first : &rest, p,
		    len);
		p = end ? end + 2 : NULL;
	}
	free(all);
	if (rest.s != NULL)
		buf_puts(&first, rest.s);
	buf_free(&rest);
	if (first.s == NULL)
		buf_puts(&first, "");
	return first.s;
}

/*
 * Write one file unless it exists (or force). mode is the mode before the
 * umask (EMIT_MODE_*); a replaced file keeps its own. A device, FIFO or
 * socket is refused before it is offered for overwriting.
 */
static int
write_guarded(const char *path, const char *data, size_t len, unsigned mode,
    bool force, struct buf *msg)
{
	struct stat	st;
	char		err[1024];

	if (output_check(path, err, sizeof err) != 0) {
		vmi_msg(msg, "%s", err);
		return -1;
	}
	if (!force && stat(path, &st) == 0) {
		vmi_msg(msg, "%s exists", path);
		return 1;
	}
	if (write_file_atomic_mode(path, data, len, mode, err, sizeof err) !=
	    0) {
		vmi_msg(msg, "%s", err);
		return -1;
	}
	return 0;
}

int
vm_save(struct vm *vm, const char *path, bool force, struct buf *msg)
{
	char	*y, why[1024];
	int	 rc;

	if (!vmi_is_pd(vm)) {
		vmi_msg(msg, "not saved: deployment files describe "
		    "PD deployments; turn PD disaggregation back on "
		    "(Topology) to save");
		return -1;
	}
	y = vmd_to_yaml(vm->cat, &vm->dep, why, sizeof why);
	if (y == NULL) {
		vmi_msg(msg, "%s", why);
		return -1;
	}
	rc = write_guarded(path, y, strlen(y), EMIT_MODE_DATA, force, msg);
	free(y);
	if (rc != 0)
		return rc;
	free(vm->path);
	vm->path = xstrdup(path);
	free(vm->title);
	vm->title = NULL;
	if (vm_load_failed(vm)) {
		/* What is saved is what is shown: the failed load is over. */
		free(vm->load_note);
		vm->load_note = NULL;
	}
	vmi_set_baseline(vm);
	vmi_msg(msg, "saved %s", path);
	return 0;
}

/* The i-th format the wizard exports (emit_formats rows marked wizard). */
const char *
vm_export_format(size_t i)
{
	size_t	k;

	for (k = 0; k < EMIT_NFORMATS; k++)
		if (emit_formats[k].wizard && i-- == 0)
			return emit_formats[k].name;
	return NULL;
}

char *
vm_export_default_path(const struct vm *vm, const char *format)
{
	enum emit_format	 e;
	const char		*file = vm->path != NULL ? vm->path :
	    vm->suggest;
	char			*dir, *slash, *st, *p;

	if (emit_format_parse(format, &e) != 0)
		return xstrdup("pd-export");
	if (file == NULL || vm_load_failed(vm))
		return xstrdup(emit_formats[e].path);
	/* Beside the deployment's file, named after it. */
	dir = xstrdup(file);
	if ((slash = strrchr(dir, '/')) != NULL)
		slash[1] = '\0';
	else
		dir[0] = '\0';
	st = stem(file);
	p = xasprintf("%s%s%s", dir, st, emit_formats[e].suffix);
	free(st);
	free(dir);
	return p;
}

/* Are a and b the same file (both there)? */
static bool
same_file(const char *a, const char *b)
{
	struct stat	sa, sb;

	return a != NULL && b != NULL && stat(a, &sa) == 0 &&
	    stat(b, &sb) == 0 && sa.st_dev == sb.st_dev &&
	    sa.st_ino == sb.st_ino;
}

/* An export never replaces the deployment's own file, nor the script it
 * was imported from: -1 with why. */
static int
not_the_source(const struct vm *vm, const char *path, struct buf *msg)
{
	if (same_file(path, vm->path)) {
		vmi_msg(msg, "not exported: %s is the deployment file itself "
		    "(s saves it); give the export another name", path);
		return -1;
	}
	if (same_file(path, vm->src_name)) {
		vmi_msg(msg, "not exported: %s is the %s the deployment came "
		    "from; give the export another name", path,
		    vm->src_imported ? "script" : "file");
		return -1;
	}
	return 0;
}

/*
 * Export: one file to path, or (several files) each under its suggested
 * name in the directory of path. Refused while the deployment has errors
 * unless VM_EXPORT_FAILING (the output is then marked as failing).
 */
int
vm_export(struct vm *vm, const char *format, const char *path,
    unsigned flags, struct buf *msg)
{
	struct emission	 e;
	size_t		 i, ne, nw, no;
	int		 rc = 0;
	bool		 force = flags & VM_EXPORT_OVERWRITE;
	char		*dir, *slash, *p, why[1024];
	struct stat	 st;

	if (!vmi_is_pd(vm)) {
		vmi_msg(msg, "not exported: the emitters write PD "
		    "deployments; turn PD disaggregation back on (Topology)");
		return -1;
	}
	vm_counts(vm, &ne, &nw, &no);
	if (ne > 0 && !(flags & VM_EXPORT_FAILING)) {
		vmi_msg(msg, "the deployment has %zu error%s", ne,
		    ne == 1 ? "" : "s");
		return 2;
	}
	if (vmd_emit(vm->cat, &vm->dep, format, (flags & VM_EXPORT_FAILING)
	    != 0, &e, why, sizeof why) != 0) {
		vmi_msg(msg, "%s", why);
		return -1;
	}
	if (e.n == 1 && !(stat(path, &st) == 0 && S_ISDIR(st.st_mode))) {
		if (not_the_source(vm, path, msg) != 0) {
			emission_free(&e);
			return -1;
		}
		rc = write_guarded(path, e.f[0].data, strlen(e.f[0].data),
		    e.f[0].mode, force, msg);
		if (rc == 0)
			vmi_msg(msg, "exported %s to %s", format, path);
		emission_free(&e);
		return rc;
	}
	dir = xstrdup(path);
	while (strlen(dir) > 1 && dir[strlen(dir) - 1] == '/')
		dir[strlen(dir) - 1] = '\0';	/* no "dir//file" */
	if (stat(dir, &st) == 0 && S_ISDIR(st.st_mode))
		;
	else if (stat(dir, &st) == 0 && !S_ISREG(st.st_mode)) {
		/* /dev/null, a FIFO: no directory to put the files in (its
		 * own would be /dev). */
		vmi_msg(msg, "not exported: %s is not a directory (%s); the "
		    "%zu files go into a directory", dir,
		    file_kind(st.st_mode), e.n);
		free(dir);
		emission_free(&e);
		return -1;
	} else if (errno = 0, stat(dir, &st) == 0 || errno != ENOENT) {
		/* An existing file: its directory, beside it. */
		if ((slash = strrchr(dir, '/')) != NULL)
			*slash = '\0';
		else {
			free(dir);
			dir = xstrdup(".");
		}
	} else if (mkdir(dir, 0777) != 0) {
		/* Several files go into the directory named: made when it
		 * is not there yet (its parent must be). */
		vmi_msg(msg, "%s: cannot create the directory: %s", dir,
		    strerror(errno));
		free(dir);
		emission_free(&e);
		return -1;
	}
	for (i = 0; i < e.n && rc == 0; i++) {
		p = xasprintf("%s/%s", dir, e.f[i].name);
		if (not_the_source(vm, p, msg) != 0)
			rc = -1;
		free(p);
	}
	for (i = 0; i < e.n && rc == 0 && !force; i++) {
		p = xasprintf("%s/%s", dir, e.f[i].name);
		if (stat(p, &st) == 0) {
			vmi_msg(msg, "%s exists", p);
			rc = 1;
		}
		free(p);
	}
	for (i = 0; i < e.n && rc == 0; i++) {
		p = xasprintf("%s/%s", dir, e.f[i].name);
		rc = write_guarded(p, e.f[i].data, strlen(e.f[i].data),
		    e.f[i].mode, true, msg);
		free(p);
	}
	if (rc == 0)
		vmi_msg(msg, "exported %s: %zu files in %s", format,
		    e.n, dir);
	free(dir);
	emission_free(&e);
	return rc;
}
