/*
 * fuzz_rcfile.c - the configuration file (rcfile_parse, io/rcfile.c) and
 * its globs (rc_glob_match). A configuration read says what it holds
 * (rcfile_rule finds every id), every error line names the file with a
 * place; the text also splits at its first NUL into a glob and a path,
 * matched by rc_glob_match and by a plain recursive matcher of the same
 * rules, which must agree.
 */
#include "fuzz.h"
#include "io/rcfile.h"

struct part {
	const char	*s;
	size_t		 n;
};

static size_t
parts(const char *s, struct part *p, size_t max)
{
	size_t	i = 0, j, n = 0;

	while (s[i] != '\0') {
		while (s[i] == '/')
			i++;
		for (j = i; s[j] != '\0' && s[j] != '/'; j++)
			;
		if (j > i && !(j - i == 1 && s[i] == '.')) {
			if (n == max)
				return max + 1;
			p[n].s = s + i;
			p[n].n = j - i;
			n++;
		}
		i = j;
	}
	return n;
}

static bool
ref_part(const char *g, size_t gn, const char *s, size_t sn)
{
	size_t	k;

	if (gn == 0)
		return sn == 0;
	if (g[0] == '*') {
		for (k = 0; k <= sn; k++)
			if (ref_part(g + 1, gn - 1, s + k, sn - k))
				return true;
		return false;
	}
	return sn > 0 && (g[0] == '?' || g[0] == s[0]) &&
	    ref_part(g + 1, gn - 1, s + 1, sn - 1);
}

/* g[0 .. ng) names s[0 .. ns) exactly. */
static bool
ref_parts(const struct part *g, size_t ng, const struct part *s, size_t ns)
{
	size_t	k;

	if (ng == 0)
		return ns == 0;
	if (g[0].n == 2 && g[0].s[0] == '*' && g[0].s[1] == '*') {
		for (k = ng == 1 ? 1 : 0; k <= ns; k++)
			if (ref_parts(g + 1, ng - 1, s + k, ns - k))
				return true;
		return false;
	}
	return ns > 0 && ref_part(g[0].s, g[0].n, s[0].s, s[0].n) &&
	    ref_parts(g + 1, ng - 1, s + 1, ns - 1);
}

/* rc_glob_match's rules, the plain way; -1: too big to try. */
static int
ref_glob(const char *glob, const char *path)
{
	struct part	g[8], s[8];
	size_t		ng, ns, j, last, len = strlen(glob), stars = 0;
	bool		dironly, anchored;

	for (j = 0; j < len; j++)
		stars += glob[j] == '*';
	if (len > 32 || strlen(path) > 32 || stars > 6)
		return -1;
	dironly = len > 0 && glob[len - 1] == '/';
	while (len > 0 && glob[len - 1] == '/')
		len--;
	anchored = memchr(glob, '/', len) != NULL;
	if ((ng = parts(glob, g, 8)) > 8 || (ns = parts(path, s, 8)) > 8)
		return -1;
	if (ng == 0 || ns == 0)
		return 0;
	last = dironly ? ns - 1 : ns;
	for (j = anchored ? 1 : 0; anchored ? j <= last : j < last; j++)
		if (anchored ? ref_parts(g, ng, s, j) :
		    ref_part(g[0].s, g[0].n, s[j].s, s[j].n))
			return 1;
	return 0;
}

static void
check_errors(const char *why)
{
	const char	*l = why, *nl;

	while (*l != '\0') {
		if (strncmp(l, "fuzz.yaml:", 10) != 0 ||
		    (nl = strchr(l, '\n')) == NULL)
			abort();
		l = nl + 1;
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char *const paths[] = { "a.sh", "docs/old/x.md",
	    "k8s/p/d.yaml", "vendor/gen/a/b.sh" };
	struct rcfile	 rc;
	struct buf	 why = { 0 };
	enum rc_sev	 sev;
	char		*text = fuzz_text(data, size);
	const char	*nul;
	size_t		 i, j;
	int		 want;

	rcfile_init(&rc);
	if (rcfile_parse("fuzz.yaml", "/r", text, size, &rc, &why) == 0) {
		if (why.len != 0)
			abort();
		for (i = 0; i < rc.nignore; i++)
			if (!rcfile_rule(&rc, rc.ignore[i].name, &sev) ||
			    sev != RC_OFF || rc.ignore[i].line < 1)
				abort();
		for (i = 0; i < rc.nseverity; i++)
			if (!rcfile_rule(&rc, rc.severity[i].name, &sev) ||
			    rc.severity[i].vline < 1)
				abort();
		for (i = 0; i < rc.nfacts; i++)
			if (rc.facts[i].value == NULL)
				abort();
		for (i = 0; i < rc.nexclude; i++)
			for (j = 0; j < sizeof paths / sizeof paths[0]; j++) {
				bool	got = rc_glob_match(rc.exclude[i].name,
				    paths[j]);

				want = ref_glob(rc.exclude[i].name, paths[j]);
				if (want >= 0 && got != (want == 1))
					abort();
			}
		(void)rcfile_excluded(&rc, "/r/docs/old/x.md");
		(void)rcfile_excluded(&rc, "/elsewhere/x.md");
	} else if (why.len == 0)
		abort();
	else
		check_errors(why.s);
	rcfile_free(&rc);
	buf_free(&why);

	/* "GLOB\0PATH" */
	if ((nul = memchr(text, '\0', size)) != NULL) {
		bool	got = rc_glob_match(text, nul + 1);

		want = ref_glob(text, nul + 1);
		if (want >= 0 && got != (want == 1))
			abort();
	}
	free(text);
	return 0;
}
