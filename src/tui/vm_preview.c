/*
 * vm_preview.c - the preview's texts: the launch script, the runbook, the
 * per-role --config YAML and the Kubernetes manifests, each exactly as
 * `pdwiz emit` writes it (the same emitters, through vmd_emit); and
 * case-insensitive search over the lines of a text.
 */
#include "tui/vm_int.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>

#include "core/util.h"
#include "emit/emit.h"
#include "tui/vm_deploy.h"

/* The preview's tabs: the wizard's export formats, in the table's order. */
const char *
vm_preview_name(size_t i)
{
	const char	*f = vm_export_format(i);
	enum emit_format e;

	return f != NULL && emit_format_parse(f, &e) == 0 ?
	    emit_formats[e].tab : NULL;
}

char *
vm_preview_text(struct vm *vm, size_t i)
{
	const char	*fmt = vm_export_format(i);
	struct emission	 em;
	struct buf	 b = { 0 };
	char		 msg[1024];
	size_t		 k;
	bool		 failing = false;

	if (fmt == NULL || vm_preview_name(i) == NULL)
		return xstrdup("");
	/* The emitters write PD deployments; one server has its command. */
	if (!vmi_is_pd(vm)) {
		char	*cmd = vm_preview(vm), *t;

		t = xasprintf("# Without PD disaggregation there is no %s to "
		    "export (the emitters write PD deployments). The server's "
		    "command:\n\n%s", vm_preview_name(i), cmd);
		free(cmd);
		return t;
	}
	if (vmd_emit(vm->cat, &vm->dep, fmt, false, &em, msg,
	    sizeof msg) != 0) {
		emission_free(&em);
		failing = true;
		if (vmd_emit(vm->cat, &vm->dep, fmt, true, &em, msg,
		    sizeof msg) != 0) {
			emission_free(&em);
			return xasprintf("(no %s: %s)\n", vm_preview_name(i), msg);
		}
	}
	if (failing)
		buf_puts(&b, "# The deployment has errors: this is what "
		    "`pdwiz emit --force` writes, marked as failing.\n");
	for (k = 0; k < em.n; k++) {
		if (em.n > 1)
			buf_printf(&b, "%s# ==== file %s ====\n", k > 0 ? "\n" :
			    "", em.f[k].name);
		buf_puts(&b, em.f[k].data != NULL ? em.f[k].data : "");
	}
	emission_free(&em);
	if (b.s == NULL)
		buf_puts(&b, "");
	return buf_steal(&b);
}

/* Does line (len bytes) contain q, ignoring ASCII case? */
static bool
line_has(const char *line, size_t len, const char *q)
{
	size_t	ql = strlen(q), i, j;

	if (ql == 0 || ql > len)
		return ql == 0;
	for (i = 0; i + ql <= len; i++) {
		for (j = 0; j < ql; j++)
			if (tolower((unsigned char)line[i + j]) !=
			    tolower((unsigned char)q[j]))
				break;
		if (j == ql)
			return true;
	}
	return false;
}

long
vm_text_find(const char *text, long from, const char *q)
{
	const char	*p = text;
	long		 n = 0, first = -1;

	if (q == NULL || *q == '\0')
		return -1;
	while (p != NULL && *p != '\0') {
		const char	*nl = strchr(p, '\n');
		size_t		 len = nl ? (size_t)(nl - p) : strlen(p);

		if (line_has(p, len, q)) {
			if (n >= from)
				return n;
			if (first < 0)
				first = n;
		}
		n++;
		p = nl ? nl + 1 : NULL;
	}
	return first;
}
