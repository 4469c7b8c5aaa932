/*
 * pylog.c - the failures, the resolved configuration and the commands of
 * an SGLang log (pylog.h). One pass over the lines; each line costs its
 * own length, so a log of any size reads in linear time.
 *
 * Forms read: CPython's traceback (Lib/traceback.py: "Traceback (most
 * recent call last):", '  File "F", line N, in FUNC', the source line,
 * the "^^^^" markers of 3.11+, "TYPE: MESSAGE" or a bare "TYPE", chained
 * with "During handling of the above exception, another exception
 * occurred:"), argparse's ArgumentParser.error ("PROG: error: MESSAGE"),
 * SGLang's logging prefix (srt/utils configure_logger: "[%(asctime)s%
 * (prefix)s] ", the prefix " TP3", " DP0 TP0 EP0", ...), and what other
 * runners put before a line: Ray's "(Actor pid=N) ", torch.distributed's
 * "[rank0]: ", docker compose's "NAME  | ", kubectl's "[pod/NAME] " and
 * --timestamps, glog's "E0414 03:56:41.856248 77969 file.cpp:173] ".
 */
#define _POSIX_C_SOURCE 200809L
#include "io/pylog.h"
#include "io/pyrepr.h"
#include "io/shell.h"
#include "core/hashidx.h"
#include "core/value.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* One line, past its prefixes. */
struct pline {
	const char	*s;		/* the line */
	size_t		 n;		/* its length without the line end */
	size_t		 off;		/* the text starts at s + off */
	bool		 prefixed;	/* a prefix was read past */
	bool		 errlevel;	/* the prefix said ERROR (glog E...) */
	char		 tag[48];	/* the process tag, or "" */
};

static bool
dig(const char *s, size_t n, size_t at, size_t k)
{
	size_t	i;

	if (at + k > n)
		return false;
	for (i = 0; i < k; i++)
		if (s[at + i] < '0' || s[at + i] > '9')
			return false;
	return true;
}

static size_t
digits(const char *s, size_t n, size_t at)
{
	size_t	i = at;

	while (i < n && s[i] >= '0' && s[i] <= '9')
		i++;
	return i - at;
}

static void
set_tag(struct pline *l, const char *s, size_t n)
{
	while (n > 0 && s[0] == ' ') {
		s++;
		n--;
	}
	while (n > 0 && s[n - 1] == ' ')
		n--;
	if (n == 0)
		return;
	if (n >= sizeof l->tag)
		n = sizeof l->tag - 1;
	memcpy(l->tag, s, n);
	l->tag[n] = '\0';
}

/* "HH:MM:SS" with optional ".ffff" or ",fff" at s[at]: its length, or 0. */
static size_t
clock_at(const char *s, size_t n, size_t at)
{
	size_t	p = at;

	if (!dig(s, n, p, 2) || p + 2 >= n || s[p + 2] != ':' ||
	    !dig(s, n, p + 3, 2) || p + 5 >= n || s[p + 5] != ':' ||
	    !dig(s, n, p + 6, 2))
		return 0;
	p += 8;
	if (p < n && (s[p] == '.' || s[p] == ',') && dig(s, n, p + 1, 1))
		p += 1 + digits(s, n, p + 1);
	return p - at;
}

/* "YYYY-MM-DD" at s[at]. */
static bool
date_at(const char *s, size_t n, size_t at)
{
	return dig(s, n, at, 4) && at + 4 < n && s[at + 4] == '-' &&
	    dig(s, n, at + 5, 2) && at + 7 < n && s[at + 7] == '-' &&
	    dig(s, n, at + 8, 2);
}

/* Is c a character of a process tag ("DP0 TP0 EP0", "PP1 ATTN_CP0")? */
static bool
tagc(char c)
{
	return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	    c == ' ' || c == '-';
}

/* SGLang's "[2026-08-28 10:01:02 TP3] ", "[10:01:02] ", "[ TP2] ". */
static size_t
sglang_prefix(struct pline *l, const char *s, size_t n)
{
	size_t	p = 1, c, t;

	if (n < 3 || s[0] != '[')
		return 0;
	if (date_at(s, n, p) && p + 10 < n && s[p + 10] == ' ')
		p += 11;
	c = clock_at(s, n, p);
	p += c;
	for (t = p; t < n && tagc(s[t]); t++)
		;
	if (t >= n || s[t] != ']' || (c == 0 && t - p < 3))
		return 0;
	if (c == 0) {	/* no time: only a tag of ranks ("[ TP2]") */
		size_t	i;

		for (i = p; i < t && (s[i] == ' ' || s[i] == '_' ||
		    (s[i] >= '0' && s[i] <= '9') || (s[i] >= 'A' &&
		    s[i] <= 'Z')); i++)
			;
		if (i < t || digits(s, n, t - 1) == 0)
			return 0;
	}
	set_tag(l, s + p, t - p);
	t++;
	if (t < n && s[t] == ' ')
		t++;
	return t;
}

/* Ray's "(SGLangEngine pid=6680) ", "(pid=12, ip=10.0.0.1) ". */
static size_t
ray_prefix(const char *s, size_t n)
{
	const char	*close;

	if (n < 8 || s[0] != '(')
		return 0;
	if ((close = memchr(s, ')', n < 200 ? n : 200)) == NULL)
		return 0;
	size_t	e = (size_t)(close - s);
	const char *pid = NULL;
	size_t	i;

	for (i = 1; i + 4 <= e; i++)
		if (memcmp(s + i, "pid=", 4) == 0) {
			pid = s + i;
			break;
		}
	if (pid == NULL || memchr(s + 1, '(', e - 1) != NULL)
		return 0;
	e++;
	while (e < n && s[e] == ' ')
		e++;
	return e;
}

/* torch.distributed's "[rank0]: ", kubectl's "[pod/NAME/CONTAINER] ". */
static size_t
bracket_prefix(struct pline *l, const char *s, size_t n)
{
	size_t	p;

	if (n > 7 && memcmp(s, "[rank", 5) == 0 && digits(s, n, 5) > 0) {
		p = 5 + digits(s, n, 5);
		if (p + 1 < n && s[p] == ']' && s[p + 1] == ':') {
			set_tag(l, s + 1, p - 1);
			p += 2;
			if (p < n && s[p] == ' ')
				p++;
			return p;
		}
	}
	if (n > 6 && memcmp(s, "[pod/", 5) == 0) {
		const char	*e = memchr(s, ']', n);

		if (e != NULL && (size_t)(e - s) + 1 < n && e[1] == ' ') {
			set_tag(l, s + 5, (size_t)(e - s) - 5);
			return (size_t)(e - s) + 2;
		}
	}
	return 0;
}

/* docker compose's "prefill-1  | ". */
static size_t
compose_prefix(struct pline *l, const char *s, size_t n)
{
	size_t	p = 0, e;

	while (p < n && p < 64 && ((s[p] >= 'a' && s[p] <= 'z') ||
	    (s[p] >= 'A' && s[p] <= 'Z') || (s[p] >= '0' && s[p] <= '9') ||
	    s[p] == '_' || s[p] == '-' || s[p] == '.'))
		p++;
	if (p == 0)
		return 0;
	e = p;
	while (p < n && s[p] == ' ')
		p++;
	if (p == e || p + 1 >= n || s[p] != '|' || s[p + 1] != ' ')
		return 0;
	set_tag(l, s, e);
	return p + 2;
}

/* kubectl --timestamps' "2026-06-23T15:16:14.123Z ". */
static size_t
iso_prefix(const char *s, size_t n)
{
	size_t	p, c;

	if (!date_at(s, n, 0) || n < 20 || s[10] != 'T')
		return 0;
	if ((c = clock_at(s, n, 11)) == 0)
		return 0;
	p = 11 + c;
	if (p < n && s[p] == 'Z')
		p++;
	else if (p < n && (s[p] == '+' || s[p] == '-') && dig(s, n, p + 1, 2)) {
		p += 3;
		if (p < n && s[p] == ':')
			p++;
		p += digits(s, n, p);
	}
	if (p >= n || s[p] != ' ')
		return 0;
	return p + 1;
}

/* glog's "E0414 03:56:41.856248 77969 file.cpp:173] " and vLLM's
 * "INFO 04-03 17:50:56 __init__.py:190] ". */
static size_t
glog_prefix(struct pline *l, const char *s, size_t n)
{
	size_t	p, c;
	const char *e;

	if (n > 20 && strchr("IWEF", s[0]) != NULL && dig(s, n, 1, 4) &&
	    s[5] == ' ' && (c = clock_at(s, n, 6)) > 0) {
		p = 6 + c;
		while (p < n && s[p] == ' ')
			p++;
		p += digits(s, n, p);
	} else {
		static const char *const lv[] = { "INFO ", "WARNING ", "ERROR ",
		    "DEBUG ", NULL };
		size_t	i, k = 0;

		for (i = 0; lv[i] != NULL; i++)
			if (strncmp(s, lv[i], strlen(lv[i])) == 0 &&
			    n > strlen(lv[i]))
				k = strlen(lv[i]);
		if (k == 0 || !dig(s, n, k, 2) || s[k + 2] != '-' ||
		    !dig(s, n, k + 3, 2) || s[k + 5] != ' ' ||
		    (c = clock_at(s, n, k + 6)) == 0)
			return 0;
		p = k + 6 + c;
	}
	if (p >= n || s[p] != ' ')
		return 0;
	if ((e = memchr(s + p, ']', n - p)) == NULL || e - (s + p) > 96 ||
	    memchr(s + p + 1, ' ', (size_t)(e - (s + p + 1))) != NULL)
		return 0;
	if (s[0] == 'E' || s[0] == 'F')
		l->errlevel = true;
	p = (size_t)(e - s) + 1;
	if (p < n && s[p] == ' ')
		p++;
	return p;
}

/* An ANSI escape sequence ("\x1b[0;31m"). */
static size_t
ansi_prefix(const char *s, size_t n)
{
	size_t	p = 2;

	if (n < 3 || s[0] != '\x1b' || s[1] != '[')
		return 0;
	while (p < n && ((s[p] >= '0' && s[p] <= '9') || s[p] == ';'))
		p++;
	return p < n ? p + 1 : 0;
}

static void
read_prefixes(struct pline *l)
{
	int	round;

	l->off = 0;
	for (round = 0; round < 8; round++) {
		const char	*s = l->s + l->off;
		size_t		 n = l->n - l->off, k;

		if ((k = ansi_prefix(s, n)) == 0 &&
		    (k = iso_prefix(s, n)) == 0 &&
		    (k = ray_prefix(s, n)) == 0 &&
		    (k = sglang_prefix(l, s, n)) == 0 &&
		    (k = bracket_prefix(l, s, n)) == 0 &&
		    (k = glog_prefix(l, s, n)) == 0 &&
		    (k = compose_prefix(l, s, n)) == 0)
			break;
		l->off += k;
		l->prefixed = true;
	}
}

/* ---- traceback forms ---- */

static bool
startsw(const char *s, size_t n, const char *p)
{
	size_t	k = strlen(p);

	return n >= k && memcmp(s, p, k) == 0;
}


/* '  File "F", line N, in FUNC' */
static bool
frame_line(const char *s, size_t n, struct plframe *fr)
{
	size_t		 p = 0, q;
	const char	*e;

	while (p < n && s[p] == ' ')
		p++;
	if (p == 0 || !startsw(s + p, n - p, "File \""))
		return false;
	p += 6;
	if ((e = mem_find(s + p, n - p, "\", line ")) == NULL)
		return false;
	q = (size_t)(e - s);
	fr->file = xstrndup(s + p, q - p);
	p = q + 8;
	fr->lineno = atoi(s + p) ;
	p += digits(s, n, p);
	if (startsw(s + p, n - p, ", in "))
		fr->func = xstrndup(s + p + 5, n - p - 5);
	else
		fr->func = xstrdup("");
	return true;
}

/*
 * "TYPE: MESSAGE", "TYPE", "mod.TYPE: MESSAGE", "RayTaskError(ValueError):
 * ...": the type's length in *tlen and where the message starts in *moff
 * (n for a bare exception). The last name must end like an exception's.
 */
static bool
exception_line(const char *s, size_t n, size_t *tlen, size_t *moff)
{
	static const char *const ends[] = { "Error", "Exception", "Exit",
	    "Interrupt", "Timeout", "Failure", "StopIteration", NULL };
	size_t	p = 0, last = 0, i;

	if (n == 0 || !((s[0] >= 'A' && s[0] <= 'Z') || (s[0] >= 'a' &&
	    s[0] <= 'z') || s[0] == '_'))
		return false;
	while (p < n && ((s[p] >= 'A' && s[p] <= 'Z') || (s[p] >= 'a' &&
	    s[p] <= 'z') || (s[p] >= '0' && s[p] <= '9') || s[p] == '_' ||
	    s[p] == '.')) {
		if (s[p] == '.')
			last = p + 1;
		p++;
	}
	size_t	name_end = p;

	if (p < n && s[p] == '(') {	/* Ray's RayTaskError(ValueError) */
		const char *c = memchr(s + p, ')', n - p);

		if (c == NULL || memchr(s + p, ' ', (size_t)(c - (s + p))))
			return false;
		p = (size_t)(c - s) + 1;
	}
	for (i = 0; ends[i] != NULL; i++) {
		size_t	k = strlen(ends[i]);

		if (name_end - last >= k && memcmp(s + name_end - k, ends[i],
		    k) == 0)
			break;
	}
	if (ends[i] == NULL)
		return false;
	*tlen = p;
	if (p == n || (p + 1 == n && s[p] == ':')) {
		*moff = n;
		return true;
	}
	if (s[p] != ':' || p + 1 >= n || s[p + 1] != ' ')
		return false;
	*moff = p + 2;
	return true;
}

/* A type that names its failure ("ValueError", not a bare "Error" or
 * "Exception"): an exception line even where no traceback led to it (an
 * operator pasted the last line only). */
static bool
specific_type(const char *s, size_t tlen)
{
	size_t	p = tlen, b;

	while (p > 0 && s[p - 1] == ')') {	/* RayTaskError(ValueError) */
		while (p > 0 && s[p - 1] != '(')
			p--;
		if (p > 0)
			p--;
	}
	for (b = p; b > 0 && s[b - 1] != '.'; b--)
		;
	return p - b > 9 || (p - b > 5 && memcmp(s + p - 5, "Error", 5) == 0);
}

/* "PROG: error: MESSAGE" of argparse: where MESSAGE starts, or 0. */
static size_t
argparse_line(const char *s, size_t n)
{
	const char	*e = mem_find(s, n, ": error: ");
	size_t		 k, i;

	if (e == NULL)
		return 0;
	k = (size_t)(e - s);
	if (k == 0 || k > 80 || (mem_find(s, k, ".py") == NULL &&
	    mem_find(s, k, "sglang") == NULL))
		return 0;
	/* the program's name, nothing else (not an echo of one) */
	for (i = 0; i < k; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') || (s[i] >= 'A' &&
		    s[i] <= 'Z') || (s[i] >= '0' && s[i] <= '9') ||
		    strchr("_./- ", s[i]) != NULL))
			return 0;
	return k + 9;
}

/* Is the text a line SGLang's logging wrote as an error? */
static bool
error_words(const char *s, size_t n)
{
	static const char *const w[] = { "Error", "ERROR", "error:",
	    "Exception", "exception", "failed", "Failed", "FAILED",
	    "timed out", "Timeout", "timeout", "not supported", "mismatch",
	    "refused", "Aborted", "out of memory", NULL };
	size_t	i;

	for (i = 0; w[i] != NULL; i++)
		if (mem_find(s, n, w[i]) != NULL)
			return true;
	return false;
}

/* Messages that say another failure came first. */
static bool
consequence(const char *msg)
{
	static const char *const w[] = { "Please see the error messages above",
	    "scheduler is dead", "Received sigquit", "child process",
	    "Initialization failed", "unexpectedly failed",
	    "Please check if there are relevant logs", NULL };
	size_t	i;

	for (i = 0; w[i] != NULL; i++)
		if (strstr(msg, w[i]) != NULL)
			return true;
	return false;
}

/* ---- the log ---- */

struct rdlog {
	struct pylog	*log;
	struct hidx	 seen;		/* failures by type and message */
	char		**keys;		/* their keys, for keyof */
	size_t		 nkeys;
	/* the traceback being read */
	bool		 in_tb;
	int		 tb_end;	/* the line the last one ended at */
	struct plframe	*fr;
	size_t		 nfr;
	char		*code;
	int		 stray;		/* lines of nothing known inside it */
	struct plfail	*open;		/* the last exception: its message
					   may go on on the next lines */
	int		 open_lines;
	char		*tb_procs;	/* the process tags of the tracebacks
					   begun since the last exception */
};

static const char *
key_of(const void *ctx, size_t i, size_t *len)
{
	const struct rdlog	*r = ctx;

	*len = strlen(r->keys[i]);
	return r->keys[i];
}

static void
frames_free(struct plframe *f, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++) {
		free(f[i].file);
		free(f[i].func);
	}
	free(f);
}

static void
tb_reset(struct rdlog *r)
{
	frames_free(r->fr, r->nfr);
	r->fr = NULL;
	r->nfr = 0;
	free(r->code);
	r->code = NULL;
	r->stray = 0;
}

static void
add_tag(char **procs, const char *tag)
{
	size_t	n = strlen(tag);
	char	*p, *s;

	if (*tag == '\0')
		return;
	if (*procs == NULL) {
		*procs = xstrdup(tag);
		return;
	}
	for (p = *procs; (p = strstr(p, tag)) != NULL; p += n)
		if ((p == *procs || p[-1] == ',') && (p[n] == ',' ||
		    p[n] == '\0'))
			return;
	if (strlen(*procs) > 200)
		return;
	s = xasprintf("%s,%s", *procs, tag);
	free(*procs);
	*procs = s;
}

/* A failure: a new one, or another sighting of one already seen. */
static struct plfail *
add_fail(struct rdlog *r, enum plkind kind, const char *type, size_t tlen,
    const char *msg, size_t mlen, const struct pline *l, size_t col)
{
	struct pylog	*lg = r->log;
	char		*key = xasprintf("%d\x1f%.*s\x1f%.*s", (int)kind,
	    (int)tlen, type != NULL ? type : "", (int)mlen, msg);
	struct plfail	*f;
	long		 at;

	r->keys = grow_pow2(r->keys, r->nkeys, sizeof *r->keys);
	r->keys[r->nkeys] = key;
	if ((at = hidx_add(&r->seen, r->nkeys)) >= 0) {
		free(key);
		f = &lg->f[at];
		f->count++;
		add_tag(&f->procs, l->tag);
		return NULL;
	}
	r->nkeys++;
	lg->f = grow_pow2(lg->f, lg->nf, sizeof *lg->f);
	f = &lg->f[lg->nf++];
	memset(f, 0, sizeof *f);
	f->kind = kind;
	f->type = type != NULL ? xstrndup(type, tlen) : NULL;
	f->msg = xstrndup(msg, mlen);
	f->line = (int)(lg->nlines);
	f->col = (int)col + 1;
	f->count = 1;
	add_tag(&f->procs, l->tag);
	f->consequence = consequence(f->msg);
	return f;
}

static void
take_frames(struct rdlog *r, struct plfail *f)
{
	f->frames = r->fr;
	f->nframes = r->nfr;
	f->code = r->code;
	r->fr = NULL;
	r->nfr = 0;
	r->code = NULL;
}

/* "server_args=ServerArgs(...)" on the line. */
static bool
args_line(struct rdlog *r, const struct pline *l)
{
	const char	*s = l->s + l->off, *a;
	size_t		 n = l->n - l->off, pos;
	struct plargs	*pa;
	struct pyv	*v;
	bool		 cut;

	if ((a = mem_find(s, n, "ServerArgs(")) == NULL)
		return false;
	if (a != s && mem_find(s, (size_t)(a - s), "server_args") == NULL)
		return false;
	pos = 0;
	r->log->a = grow_pow2(r->log->a, r->log->na, sizeof *r->log->a);
	pa = &r->log->a[r->log->na];
	memset(pa, 0, sizeof *pa);
	v = pyrepr_parse(a, n - (size_t)(a - s), &pos, &cut, pa->why,
	    sizeof pa->why);
	if (v == NULL || v->k != PY_CALL) {
		pyv_free(v);
		return false;
	}
	pa->args = v;
	pa->cut = cut;
	pa->line = (int)r->log->nlines;
	pa->col = (int)(l->off + (size_t)(a - s)) + 1;
	if (l->tag[0] != '\0')
		pa->procs = xstrdup(l->tag);
	r->log->na++;
	return true;
}

/* Where a launch command starts on the text, or NULL. */
static const char *
command_start(const char *s, size_t n)
{
	static const char *const mods[] = { "-m sglang.launch_server",
	    "-m sglang_router.launch_router", "-m sglang.launch_router",
	    "-m sglang.srt.disaggregation.mini_lb", NULL };
	const char	*m = NULL, *p;
	size_t		 i;

	for (i = 0; mods[i] != NULL && m == NULL; i++)
		m = mem_find(s, n, mods[i]);
	if (m != NULL) {
		/* back over " " and the interpreter's word */
		p = m;
		while (p > s && p[-1] == ' ')
			p--;
		while (p > s && p[-1] != ' ' && p[-1] != '`' && p[-1] != '"' &&
		    p[-1] != '\'' && p[-1] != '(')
			p--;
		if (mem_find(p, (size_t)(m - p), "python") == NULL)
			return NULL;
	} else if ((p = mem_find(s, n, "sglang serve ")) != NULL) {
		if (p > s && p[-1] != ' ' && p[-1] != '`')
			return NULL;
	} else
		return NULL;
	/* back over VAR=value words before it */
	for (;;) {
		const char	*q = p, *w;

		while (q > s && q[-1] == ' ')
			q--;
		w = q;
		while (w > s && w[-1] != ' ')
			w--;
		if (w == q)
			break;
		const char *eq = memchr(w, '=', (size_t)(q - w));

		if (eq == NULL || eq == w || !((w[0] >= 'A' && w[0] <= 'Z') ||
		    w[0] == '_'))
			break;
		p = w;
	}
	return p;
}

void
pylog_free(struct pylog *lg)
{
	size_t	i;

	for (i = 0; i < lg->nf; i++) {
		free(lg->f[i].type);
		free(lg->f[i].msg);
		free(lg->f[i].more);
		free(lg->f[i].code);
		free(lg->f[i].procs);
		frames_free(lg->f[i].frames, lg->f[i].nframes);
	}
	free(lg->f);
	for (i = 0; i < lg->na; i++) {
		pyv_free(lg->a[i].args);
		free(lg->a[i].procs);
	}
	free(lg->a);
	for (i = 0; i < lg->nc; i++)
		free(lg->c[i].text);
	free(lg->c);
	memset(lg, 0, sizeof *lg);
}

static void
add_cmd(struct pylog *lg, char *text, int line, int endline, bool server)
{
	lg->c = grow_pow2(lg->c, lg->nc, sizeof *lg->c);
	lg->c[lg->nc].text = text;
	lg->c[lg->nc].line = line;
	lg->c[lg->nc].endline = endline;
	lg->c[lg->nc].server = server;
	lg->nc++;
}

/* Continue the exception message of the line before? */
static bool
continues(struct rdlog *r, const struct pline *l)
{
	const char	*s = l->s + l->off;
	size_t		 n = l->n - l->off, tl, mo;
	struct plfail	*f = r->open;
	char		*m;

	if (f == NULL || l->prefixed || n == 0 || s[0] == ' ' ||
	    r->open_lines >= 8 || exception_line(s, n, &tl, &mo) ||
	    mem_find(s, n, "Traceback (most recent call last)") != NULL ||
	    startsw(s, n, "During handling") || startsw(s, n, "The above "))
		return false;
	m = f->more == NULL ? xstrndup(s, n) : xasprintf("%s %.*s", f->more,
	    (int)n, s);
	free(f->more);
	f->more = m;
	r->open_lines++;
	return true;
}

static void
read_line(struct rdlog *r, struct pline *l)
{
	const char	*s = l->s + l->off;
	size_t		 n = l->n - l->off, tl, mo, k;
	struct plframe	 fr = { 0 };
	struct plfail	*f;

	if (mem_find(s, n, "Traceback (most recent call last)") != NULL) {
		tb_reset(r);
		r->in_tb = true;
		r->open = NULL;
		add_tag(&r->tb_procs, l->tag);
		return;
	}
	if (frame_line(s, n, &fr)) {
		if (!r->in_tb) {
			/* frames with no "Traceback" before them: a paste
			 * trimmed to them */
			tb_reset(r);
			r->in_tb = true;
			r->open = NULL;
		}
		r->fr = grow_pow2(r->fr, r->nfr, sizeof *r->fr);
		r->fr[r->nfr++] = fr;
		free(r->code);
		r->code = NULL;
		return;
	}
	if (r->in_tb && n > 0 && s[0] == ' ') {
		size_t	p = 0;

		while (p < n && s[p] == ' ')
			p++;
		if (p < n && s[p] != '^' && s[p] != '~' && r->nfr > 0 &&
		    r->code == NULL)
			r->code = xstrndup(s + p, n - p);
		return;
	}
	if (startsw(s, n, "During handling of the above") ||
	    startsw(s, n, "The above exception was")) {
		r->in_tb = false;
		r->open = NULL;
		return;
	}
	if (exception_line(s, n, &tl, &mo) && (r->in_tb || (r->tb_end > 0 &&
	    (int)r->log->nlines - r->tb_end <= 64) || specific_type(s, tl))) {
		f = add_fail(r, PL_EXCEPTION, s, tl, s + mo, n - mo, l, l->off);
		if (f != NULL && r->in_tb)
			take_frames(r, f);
		/* an exception line has no prefix of its own: the processes
		 * are those whose tracebacks began */
		if (f != NULL && r->tb_procs != NULL) {
			char	*t = r->tb_procs, *c;

			for (; t != NULL && *t != '\0'; t = c != NULL ? c + 1 :
			    NULL) {
				char	 tag[48];
				size_t	 tl2;

				c = strchr(t, ',');
				tl2 = c != NULL ? (size_t)(c - t) : strlen(t);
				if (tl2 >= sizeof tag)
					tl2 = sizeof tag - 1;
				memcpy(tag, t, tl2);
				tag[tl2] = '\0';
				add_tag(&f->procs, tag);
			}
		}
		free(r->tb_procs);
		r->tb_procs = NULL;
		tb_reset(r);
		r->in_tb = false;
		r->tb_end = (int)r->log->nlines;
		r->open = f;
		r->open_lines = 0;
		return;
	}
	if (continues(r, l))
		return;
	r->open = NULL;
	if ((k = argparse_line(s, n)) > 0) {
		add_fail(r, PL_ARGPARSE, NULL, 0, s + k, n - k, l, l->off + k);
		return;
	}
	if (args_line(r, l))
		return;
	if (r->in_tb) {
		/* Another process's line inside this traceback: read past
		 * it; twenty lines of nothing known end the traceback. */
		if (!l->prefixed && n > 0 && ++r->stray > 20) {
			r->in_tb = false;
			tb_reset(r);
		}
		return;
	}
	if (n > 0 && (l->errlevel || error_words(s, n))) {
		size_t	p = 0;

		/* the level word SGLang's or uvicorn's format puts first */
		if (startsw(s, n, "ERROR:"))
			p = 6;
		else if (startsw(s, n, "ERROR "))
			p = 6;
		else if (startsw(s, n, "[ERROR]"))
			p = 7;
		while (p < n && s[p] == ' ')
			p++;
		if (p < n)
			add_fail(r, PL_LOGGED, NULL, 0, s + p, n - p, l,
			    l->off + p);
	}
}

/* Launch commands (with their continuation lines) and export lines. */
static size_t
read_command(struct rdlog *r, const char *text, size_t len, size_t at,
    struct pline *l)
{
	const char	*s = l->s + l->off, *st;
	size_t		 n = l->n - l->off, p;
	struct buf	 b = { 0 };
	int		 line = (int)r->log->nlines, end = line;

	/* a shell's prompt or its xtrace ("$ ", "+ ", "++ ") */
	if (n > 2 && s[0] == '$' && s[1] == ' ') {
		s += 2;
		n -= 2;
	} else if (n > 2 && s[0] == '+') {
		size_t	k = strspn(s, "+");

		if (k < n && s[k] == ' ') {
			s += k + 1;
			n -= k + 1;
		}
	}
	if (startsw(s, n, "export ") && n > 8 && memchr(s, '=', n) != NULL) {
		add_cmd(r->log, xstrndup(s, n), line, line, false);
		return at;
	}
	if ((st = command_start(s, n)) == NULL)
		return at;
	buf_add(&b, st, n - (size_t)(st - s));
	p = at;
	/* a line ending in a backslash goes on on the next */
	while (b.len > 0 && b.s[b.len - 1] == '\\' && p < len) {
		const char	*e = memchr(text + p, '\n', len - p);
		size_t		 k = e != NULL ? (size_t)(e - (text + p)) : len - p;

		if (k > 0 && text[p + k - 1] == '\r')
			k--;
		buf_puts(&b, "\n");
		buf_add(&b, text + p, k);
		p = e != NULL ? (size_t)(e - text) + 1 : len;
		end++;
	}
	add_cmd(r->log, buf_steal(&b), line, end, true);
	r->log->nlines = (size_t)end;
	return p;
}

void
pylog_read(const char *text, size_t len, struct pylog *lg)
{
	struct rdlog	r = { .log = lg };
	size_t		p = 0;

	memset(lg, 0, sizeof *lg);
	hidx_init(&r.seen, key_of, &r);
	while (p < len) {
		const char	*e = memchr(text + p, '\n', len - p);
		size_t		 n = e != NULL ? (size_t)(e - (text + p)) : len - p;
		size_t		 next = e != NULL ? (size_t)(e - text) + 1 : len;
		struct pline	 l = { .s = text + p, .n = n };
		size_t		 before;

		if (n > 0 && l.s[n - 1] == '\r')
			l.n--;
		lg->nlines++;
		read_prefixes(&l);
		/* a quoted paste ("> ") */
		if (l.n - l.off >= 2 && l.s[l.off] == '>' &&
		    l.s[l.off + 1] == ' ')
			l.off += 2;
		before = lg->nc;
		if (!r.in_tb)
			next = read_command(&r, text, len, next, &l);
		if (lg->nc == before)
			read_line(&r, &l);
		p = next;
	}
	tb_reset(&r);
	free(r.tb_procs);
	hidx_free(&r.seen);
	for (p = 0; p < r.nkeys; p++)
		free(r.keys[p]);
	free(r.keys);
}

bool
pylog_sniff(const char *text, size_t len)
{
	size_t	p = 0, lines = 0;

	if (len > (1 << 20))
		len = 1 << 20;
	while (p < len && lines++ < 100000) {
		const char	*e = memchr(text + p, '\n', len - p);
		size_t		 n = e != NULL ? (size_t)(e - (text + p)) : len - p;
		struct pline	 l = { .s = text + p, .n = n };
		const char	*s;
		size_t		 k;

		read_prefixes(&l);
		s = l.s + l.off;
		k = l.n - l.off;
		if (mem_find(s, k, "Traceback (most recent call last):") ||
		    (mem_find(s, k, "ServerArgs(") != NULL &&
		    mem_find(s, k, "server_args") != NULL) ||
		    argparse_line(s, k) > 0)
			return true;
		p = e != NULL ? (size_t)(e - text) + 1 : len;
	}
	return false;
}

/* ---- the configuration as a command line ---- */

const char *
pylog_args_mode(const struct pyv *args)
{
	const struct pyv	*m = pyv_kwarg(args, "disaggregation_mode");

	return m != NULL && m->k == PY_STR ? m->s : NULL;
}

/* A value as JSON, for a str option SGLang resolved into a dict or a
 * list; -1 when it holds what JSON does not. */
static int
as_json(struct buf *b, const struct pyv *v, int depth)
{
	size_t	i;

	if (depth > 32)
		return -1;
	switch (v->k) {
	case PY_NONE: buf_puts(b, "null"); return 0;
	case PY_BOOL: buf_puts(b, v->b ? "true" : "false"); return 0;
	case PY_INT: case PY_FLOAT:
		if (strcmp(v->s, "inf") == 0 || strstr(v->s, "nan") != NULL ||
		    strstr(v->s, "inf") != NULL)
			return -1;
		buf_puts(b, v->s);
		return 0;
	case PY_STR: {
		size_t	j;

		buf_putc(b, '"');
		for (j = 0; j < v->n; j++) {
			unsigned char	c = (unsigned char)v->s[j];

			if (c == '"' || c == '\\')
				buf_printf(b, "\\%c", c);
			else if (c < 0x20)
				buf_printf(b, "\\u%04x", c);
			else
				buf_putc(b, (char)c);
		}
		buf_putc(b, '"');
		return 0;
	}
	case PY_LIST: case PY_TUPLE:
		buf_putc(b, '[');
		for (i = 0; i < v->nitems; i++) {
			if (i > 0)
				buf_puts(b, ", ");
			if (as_json(b, v->items[i], depth + 1) != 0)
				return -1;
		}
		buf_putc(b, ']');
		return 0;
	case PY_DICT:
		buf_putc(b, '{');
		for (i = 0; i + 1 < v->nitems; i += 2) {
			if (v->items[i]->k != PY_STR)
				return -1;
			if (i > 0)
				buf_puts(b, ", ");
			as_json(b, v->items[i], depth + 1);
			buf_puts(b, ": ");
			if (as_json(b, v->items[i + 1], depth + 1) != 0)
				return -1;
		}
		buf_putc(b, '}');
		return 0;
	default:
		return -1;
	}
}

/* The text of a scalar a flag takes, or NULL: not one with a line end
 * (the shell view keeps one line of the script per line of the log). */
static const char *
scalar(const struct pyv *v)
{
	if (v->k == PY_STR || v->k == PY_INT || v->k == PY_FLOAT)
		return memchr(v->s, '\0', v->n) == NULL && strpbrk(v->s,
		    "\n\r") == NULL ? v->s : NULL;
	return NULL;
}

/*
 * The words that set option o to v, appended to cmd: 1 when any, 0 when
 * v is the default (nothing to say), -1 when no command line says it.
 */
static int
flag_words(const struct option *o, const struct pyv *v, struct buf *cmd)
{
	struct value	 val;
	struct buf	 b = { 0 };
	const char	*t;
	char		*q;
	size_t		 i;

	switch (o->type) {
	case T_BOOL:
	case T_BOOLOPT:
		if (v->k != PY_BOOL && v->k != PY_NONE)
			return -1;
		if (v->k == PY_NONE)
			return o->def.t == V_NULL || (o->def.t == V_BOOL &&
			    !o->def.u.b) ? 0 : -1;
		if (o->def.t == V_BOOL && o->def.u.b == v->b)
			return 0;
		if (!v->b && o->type == T_BOOL)
			return o->def.t == V_NULL ? 0 : -1;
		if (v->b)
			buf_printf(cmd, " %s", o->flag);
		else
			buf_printf(cmd, " --no-%s", o->flag + 2);
		return 1;
	case T_LIST:
		if (v->k == PY_NONE)
			return o->def.t == V_NULL ? 0 : -1;
		if (v->k != PY_LIST && v->k != PY_TUPLE && scalar(v) == NULL)
			return -1;
		if (scalar(v) != NULL) {
			buf_puts(&b, scalar(v));
		} else {
			if (v->nitems == 0)
				return o->def.t == V_NULL || (o->def.t ==
				    V_LIST && *o->def.u.s == '\0') ? 0 : -1;
			for (i = 0; i < v->nitems; i++) {
				if ((t = scalar(v->items[i])) == NULL) {
					buf_free(&b);
					return -1;
				}
				if (i > 0)
					buf_putc(&b, '\x1f');
				buf_puts(&b, t);
			}
		}
		val = (struct value){ .t = V_LIST, .u.s = intern(b.s) };
		if (val_equal(val, o->def)) {
			buf_free(&b);
			return 0;
		}
		buf_printf(cmd, " %s", o->flag);
		for (t = b.s; ; ) {
			const char	*e = strchr(t, '\x1f');
			char		*w = e != NULL ? xstrndup(t,
			    (size_t)(e - t)) : xstrdup(t);

			q = sh_quote(w);
			buf_printf(cmd, " %s", q);
			free(q);
			free(w);
			if (e == NULL)
				break;
			t = e + 1;
		}
		buf_free(&b);
		return 1;
	default:
		break;
	}
	if (v->k == PY_NONE)
		return o->def.t == V_NULL ? 0 : -1;
	if (o->type == T_STR && (v->k == PY_DICT || v->k == PY_LIST)) {
		if (as_json(&b, v, 0) != 0) {
			buf_free(&b);
			return -1;
		}
		t = b.s;
	} else if ((t = scalar(v)) == NULL)
		return -1;
	if (val_parse(o->type, t, &val) != 0) {
		buf_free(&b);
		return -1;
	}
	if (val_equal(val, o->def)) {
		buf_free(&b);
		return 0;
	}
	q = sh_quote(t);
	buf_printf(cmd, " %s %s", o->flag, q);
	free(q);
	buf_free(&b);
	return 1;
}

static void
skip_name(struct plskip *sk, const char *name)
{
	if (sk == NULL)
		return;
	sk->unknown++;
	if (sk->unknown <= 12)
		buf_printf(&sk->names, "%s%s", sk->names.len > 0 ? ", " : "",
		    name);
	else if (sk->unknown == 13)
		buf_puts(&sk->names, ", ...");
}

char *
pylog_args_command(const struct catalog *cat, const struct pyv *args,
    struct plskip *skip)
{
	struct buf	cmd = { 0 };
	size_t		i;

	buf_puts(&cmd, "python3 -m sglang.launch_server");
	for (i = 0; args != NULL && i < args->nitems; i++) {
		const char	*name = args->names != NULL ? args->names[i] :
		    NULL;
		int		 o;

		if (name == NULL)
			continue;
		/* a field another release names by a flag this one keeps as
		 * an alias (cuda_graph_bs: --cuda-graph-bs) */
		if ((o = catalog_find(cat, name)) < 0 ||
		    cat->opts[o].kind != OK_FLAG) {
			char	*fl = xasprintf("--%s", name), *q;

			for (q = fl + 2; *q != '\0'; q++)
				if (*q == '_')
					*q = '-';
			o = catalog_find_flag(cat, fl);
			free(fl);
		}
		if (o < 0 || cat->opts[o].kind != OK_FLAG ||
		    cat->opts[o].flag == NULL) {
			skip_name(skip, name);
			continue;
		}
		if (flag_words(&cat->opts[o], args->items[i], &cmd) < 0 &&
		    skip != NULL)
			skip->unsettable++;
	}
	return buf_steal(&cmd);
}

/* The environment assignments that start a command: "export A=1 B=2", or
 * NULL. */
static char *
command_env(const char *cmd)
{
	struct buf	 b = { 0 };
	const char	*p = cmd;

	for (;;) {
		const char	*w = p, *e;

		while (*w == ' ')
			w++;
		e = w + strcspn(w, " \n");
		if (e == w || memchr(w, '=', (size_t)(e - w)) == NULL ||
		    !((*w >= 'A' && *w <= 'Z') || *w == '_'))
			break;
		buf_puts(&b, b.len == 0 ? "export " : " ");
		buf_add(&b, w, (size_t)(e - w));
		p = e;
	}
	return b.len > 0 ? buf_steal(&b) : NULL;
}

/* A router's command: server_args never stands for it. */
static bool
is_router(const char *text)
{
	return strstr(text, "launch_router") != NULL ||
	    strstr(text, "mini_lb") != NULL;
}

/* The last server command before line, on one line (its continuations
 * joined), or NULL. */
static char *
command_before(const struct pylog *lg, int line)
{
	const struct plcmd	*c = NULL;
	size_t			 i;
	char			*t, *p;

	for (i = 0; i < lg->nc; i++)
		if (lg->c[i].server && lg->c[i].line < line &&
		    !is_router(lg->c[i].text))
			c = &lg->c[i];
	if (c == NULL)
		return NULL;
	t = xstrdup(c->text);
	for (p = t; (p = strstr(p, "\\\n")) != NULL; )
		memcpy(p, "  ", 2);
	return t;
}

char *
pylog_script(const struct catalog *cat, const struct pylog *lg, size_t *len,
    struct plskip *skip)
{
	char		**at = xcalloc(lg->nlines + 1, sizeof *at);
	struct buf	 b = { 0 };
	size_t		 i;

	for (i = 0; i < lg->nc; i++) {
		const struct plcmd	*c = &lg->c[i];
		int			 l;

		if (c->line < 1 || (size_t)c->line > lg->nlines ||
		    at[c->line] != NULL)
			continue;
		if (!c->server || lg->na == 0 || is_router(c->text)) {
			char		*t = xstrdup(c->text), *s = t, *nl;

			/* one line of the script per line of the log */
			for (l = c->line; s != NULL && l <= c->endline &&
			    (size_t)l <= lg->nlines; l++) {
				nl = strchr(s, '\n');
				at[l] = nl != NULL ? xstrndup(s,
				    (size_t)(nl - s)) : xstrdup(s);
				s = nl != NULL ? nl + 1 : NULL;
			}
			free(t);
		} else
			at[c->line] = command_env(c->text);
	}
	for (i = 0; i < lg->na; i++) {
		const struct plargs	*a = &lg->a[i];
		char			*cmd, *was;

		if (a->line < 1 || (size_t)a->line > lg->nlines)
			continue;
		free(at[a->line]);
		cmd = pylog_args_command(cat, a->args, skip);
		/* A server_args cut short lost the fields after the cut: the
		 * command that asked for it says them, and the fields read
		 * come after its words, so that they win (argparse keeps a
		 * flag's last value). */
		if (a->cut && (was = command_before(lg, a->line)) != NULL) {
			char	*m = xasprintf("%s%s", was, cmd +
			    strlen("python3 -m sglang.launch_server"));

			free(cmd);
			free(was);
			cmd = m;
		}
		at[a->line] = cmd;
	}
	for (i = 1; i <= lg->nlines; i++) {
		if (at[i] != NULL)
			buf_puts(&b, at[i]);
		buf_putc(&b, '\n');
		free(at[i]);
	}
	free(at);
	buf_puts(&b, "");
	*len = b.len;
	return buf_steal(&b);
}
