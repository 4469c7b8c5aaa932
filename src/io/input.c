/*
 * input.c - the one input classifier: what a file is (a shell script or a
 * pasted transcript, a Markdown document, an SGLang --config file, a
 * Kubernetes manifest, an srt-slurm recipe, a pdwiz deployment file, a
 * failed launch's log), read
 * once, and the launch commands it holds as one shell view. Every entry
 * point that reads an input (check, import, the wizard's open) goes
 * through it, so that they read the same thing the same way.
 */
#define _POSIX_C_SOURCE 200809L
#include "io/input.h"
#include "io/manifest.h"
#include "io/markdown.h"
#include "io/pylog.h"
#include "io/recipe.h"
#include "io/shell.h"
#include "core/util.h"
#include "core/ydoc.h"

#include <libgen.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Why the input cannot be read: the first reason is kept in why. -1. */
static int
input_fail(struct buf *why, const char *fmt, ...)
    __attribute__((format(printf, 2, 3)));

static int
input_fail(struct buf *why, const char *fmt, ...)
{
	va_list	 ap;
	char	*msg;
	int	 n;

	va_start(ap, fmt);
	n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0 || why->len > 0)
		return -1;
	msg = xmalloc((size_t)n + 1);
	va_start(ap, fmt);
	vsnprintf(msg, (size_t)n + 1, fmt, ap);
	va_end(ap);
	buf_puts(why, msg);
	free(msg);
	return -1;
}

bool
input_is_deployment(const struct ynode *root)
{
	return root != NULL && root->kind == YN_MAP &&
	    (ynode_get(root, "roles") != NULL ||
	    ynode_get(root, "pdwiz") != NULL);
}

int
input_read(const char *file, const char *name, struct input *in,
    struct buf *why)
{
	char		 err[512];
	const char	*nul;
	int		 line, col;

	if ((in->text = read_file(file, INPUT_MAX, &in->len, err,
	    sizeof err)) == NULL) {
		return input_fail(why, "pdwiz: %s", err);
	}
	if ((nul = memchr(in->text, '\0', in->len)) != NULL) {
		text_pos(in->text, (size_t)(nul - in->text), &line, &col);
		return input_fail(why, "%s:%d:%d: binary input (a NUL byte); "
		    "expected a shell script or YAML", name, line, col);
	}
	if (strcmp(file, "-") != 0) {
		in->path = xstrdup(file);
		in->base_dir = dirname(in->path);
	}
	return 0;
}

/* Past a UTF-8 byte order mark. */
static const char *
skip_bom(const char *text)
{
	return strncmp(text, "\xEF\xBB\xBF", 3) == 0 ? text + 3 : text;
}

/* YAML by its name, or by a first non-comment line "key: value" (or a
 * document start) without a command word or a shell assignment before it. Lines end at LF, CR LF or a CR
 * alone, as YAML's do. */
static bool
looks_like_yaml(const char *name, const char *text)
{
	size_t		 len = strlen(name);
	const char	*p = skip_bom(text);

	if ((len > 5 && strcmp(name + len - 5, ".yaml") == 0) ||
	    (len > 4 && strcmp(name + len - 4, ".yml") == 0))
		return true;
	while (*p == '#' || *p == '\n' || *p == '\r' || *p == ' ') {
		if (*p == '#')
			p += strcspn(p, "\r\n");
		else
			p++;
	}
	if (strncmp(p, "---", 3) == 0)
		return true;
	/* A shell assignment ends the key first: X='{"a": 1}' python ...
	 * is a command line, whatever its value holds. */
	p += strcspn(p, "\r\n :=");
	return *p == ':' && (p[1] == ' ' || p[1] == '\n' || p[1] == '\r');
}

/* Shell, or YAML parsed here once: a deployment file or an SGLang --config
 * file. Unusable YAML and YAML that is not a mapping are exit 2. */
/* A Markdown document: by its name, or, whatever the name (standard
 * input, a runbook saved without .md), by what it starts with, a "# "
 * heading, and a fenced shell block in it (a shell script's first comment
 * is no heading followed by one). */
static bool
looks_like_markdown(const char *name, const char *text, size_t tlen)
{
	static const char *const fences[] = { "\n```bash", "\n```sh",
	    "\n```shell", "\n```console", NULL };
	size_t	len = strlen(name), i;

	if ((len > 3 && strcmp(name + len - 3, ".md") == 0) ||
	    (len > 9 && strcmp(name + len - 9, ".markdown") == 0))
		return true;
	if (tlen < 2 || text[0] != '#' || text[1] != ' ')
		return false;
	for (i = 0; fences[i] != NULL; i++)
		if (mem_find(text, tlen, fences[i]) != NULL)
			return true;
	return false;
}

/* A pasted script as the shell reader should see it: without its "$ "
 * prompts. */
static void
as_shell(struct input *in)
{
	size_t	 n;
	char	*t = strip_prompts(in->text, in->len, &n);

	free(in->text);
	in->text = t;
	in->len = n;
	in->kind = K_SHELL;
}

/*
 * YAML that is neither a deployment file, a manifest nor an SGLang
 * --config file is refused by name (exit 2) instead of being read as a
 * config whose every key is an unknown flag: an srt-slurm recipe, or a
 * mapping none of whose keys is an SGLang option.
 */
static int
not_a_config(const struct catalog *cat, const char *name,
    const struct ynode *root, struct buf *why)
{
	size_t			 i;
	char			*flag;
	int			 o;

	for (i = 0; i + 1 < root->nkids; i += 2) {
		flag = xasprintf("--%s", root->kids[i]->str);
		o = catalog_find_flag(cat, flag);
		free(flag);
		if (o >= 0)
			return 0;
	}
	if (root->nkids == 0)
		return 0;
	input_fail(why, "%s:%d:%d: not an SGLang --config file: none of its "
	    "keys ('%s'%s) is an SGLang option, and it is not a pdwiz "
	    "deployment file (no roles:)", name, root->kids[0]->line,
	    root->kids[0]->col, root->kids[0]->str, root->nkids > 2 ?
	    ", ..." : "");
	return 1;
}

/*
 * YAML that does not parse. A Helm template ({{ ... }} actions) is YAML
 * only once rendered: said so, at its first action. Returns -1.
 */
static int
yaml_fail(const char *name, const struct input *in, const char *err,
    struct buf *why)
{
	const char	*act = strstr(in->text, "{{");
	int		 line, col;

	if (act != NULL && strstr(act, "}}") != NULL) {
		text_pos(in->text, (size_t)(act - in->text), &line, &col);
		return input_fail(why, "%s:%d:%d: a Helm template ({{ ... }}): "
		    "render it first with `helm template`, then check the "
		    "output (pdwiz check -)", name, line, col);
	}
	return input_fail(why, "%s", err);
}

/* YAML with a Kubernetes object (apiVersion, kind) in any of its
 * documents: a manifest. */
static bool
is_manifest(const char *name, const struct input *in, struct buf *why)
{
	char		 err[1024];
	struct ynode	*docs;
	size_t		 i;
	bool		 yes;

	if (!manifest_sniff(in->text, in->len) && strncmp(skip_bom(in->text),
	    "---", 3) != 0 && strstr(in->text, "\n---") == NULL &&
	    strstr(in->text, "\r---") == NULL)
		return false;
	if ((docs = ydoc_parse_stream(name, in->text, in->len, err,
	    sizeof err)) == NULL) {
		yaml_fail(name, in, err, why);
		return false;
	}
	yes = false;
	for (i = 0; i < docs->nkids; i++)
		yes = yes || manifest_is_object(docs->kids[i]);
	ynode_free(docs);
	return yes;
}

static int
as_manifest(const char *name, struct input *in, struct buf *why)
{
	char	err[1024];

	if ((in->yaml = ydoc_parse_stream(name, in->text, in->len, err,
	    sizeof err)) == NULL)
		return yaml_fail(name, in, err, why);
	in->kind = K_MANIFEST;
	return 0;
}

/*
 * A Markdown document: its fenced shell blocks; or, when those launch
 * nothing and its ```yaml blocks hold Kubernetes objects (a RoleBasedGroup
 * guide), those blocks as the manifest. Either way line for line, and the
 * cross-role checks know it is a document.
 */
static int
as_markdown(const char *name, struct input *in, struct buf *why)
{
	static const char *const launchers[] = { "sglang.launch_server",
	    "sglang serve", "sglang_router", "dynamo.sglang", "mini_lb", NULL };
	size_t		 n, blocks, ny, nyblocks, i;
	char		*sh = markdown_shell(in->text, in->len, &n, &blocks,
	    &in->nodes, &in->nnodes);
	char		*y, err[1024];
	struct ynode	*docs = NULL;
	bool		 manifest = false;

	for (i = 0; launchers[i] != NULL; i++)
		if (strstr(sh, launchers[i]) != NULL)
			break;
	in->document = true;
	if (launchers[i] == NULL) {
		y = markdown_yaml(in->text, in->len, &ny, &nyblocks);
		if (nyblocks > 0 && (docs = ydoc_parse_stream(name, y, ny, err,
		    sizeof err)) != NULL)
			for (i = 0; i < docs->nkids && !manifest; i++)
				manifest = manifest_is_object(docs->kids[i]);
		if (manifest) {
			free(sh);
			md_nodes_free(in->nodes, in->nnodes);
			in->nodes = NULL;
			in->nnodes = 0;
			free(in->text);
			in->text = y;
			in->len = ny;
			in->yaml = docs;
			in->kind = K_MANIFEST;
			return 0;
		}
		ynode_free(docs);
		free(y);
	}
	free(in->text);
	in->text = sh;
	in->len = n;
	in->kind = K_SHELL;
	if (blocks == 0) {
		input_fail(why, "%s: no fenced shell block (```bash, ```sh, "
		    "```shell, ```console) in this Markdown file", name);
		return 1;
	}
	return 0;
}

/*
 * A failed launch's log: named *.log, or (any name but YAML's) a text with
 * a Python traceback, argparse's error line or SGLang's server_args line.
 */
static bool
looks_like_log(const char *name, const struct input *in)
{
	size_t	len = strlen(name);

	if (len > 4 && strcmp(name + len - 4, ".log") == 0)
		return true;
	if ((len > 5 && strcmp(name + len - 5, ".yaml") == 0) ||
	    (len > 4 && strcmp(name + len - 4, ".yml") == 0) ||
	    (len > 5 && strcmp(name + len - 5, ".json") == 0))
		return false;
	return pylog_sniff(in->text, in->len);
}

/* A log as the shell script of the configuration it shows (each
 * server_args as the command that states it), line for line. */
static int
as_log(const struct catalog *cat, struct input *in)
{
	struct pylog	lg;
	struct plskip	skip = { 0 };
	size_t		n;
	char		*sh;

	pylog_read(in->text, in->len, &lg);
	sh = pylog_script(cat, &lg, &n, &skip);
	pylog_free(&lg);
	buf_free(&skip.names);
	in->log = in->text;
	in->loglen = in->len;
	in->text = sh;
	in->len = n;
	in->kind = K_LOG;
	return 0;
}

int
input_classify(const struct catalog *cat, const char *name,
    enum input_mode mode, struct input *in, struct buf *why)
{
	char	err[1024];

	if (mode == IN_MARKDOWN || (mode == IN_AUTO &&
	    looks_like_markdown(name, in->text, in->len)))
		return as_markdown(name, in, why);
	if (mode == IN_AUTO && looks_like_log(name, in))
		return as_log(cat, in);
	if (mode == IN_SHELL || (mode == IN_AUTO &&
	    !looks_like_yaml(name, in->text))) {
		as_shell(in);
		return 0;
	}
	if (mode == IN_K8S || (mode == IN_AUTO && is_manifest(name, in, why)))
		return as_manifest(name, in, why);
	if (why->len > 0)
		return -1;
	if ((in->yaml = ydoc_parse(name, in->text, in->len, false, err,
	    sizeof err)) == NULL)
		return yaml_fail(name, in, err, why);
	if (in->yaml->kind != YN_MAP) {
		input_fail(why, "%s:%d:%d: expected a mapping (an SGLang "
		    "--config file or a deployment file), not a %s", name,
		    in->yaml->line, in->yaml->col, in->yaml->kind == YN_SEQ ?
		    "list" : "single value");
		return 1;
	}
	in->kind = input_is_deployment(in->yaml) ? K_DEPLOY :
	    mode == IN_AUTO && recipe_sniff(in->yaml) ? K_RECIPE : K_SGCONFIG;
	if (in->kind == K_SGCONFIG && mode == IN_AUTO)
		return not_a_config(cat, name, in->yaml, why);
	return 0;
}

/* A document's commands run on the node their block's lead-in names. The
 * blocks come in document order, so the one that may hold a line is found
 * by bisection. */
static void
place_blocks(struct sh_script *sc, const struct input *in)
{
	size_t	i, lo, hi, mid;

	for (i = 0; i < sc->ncmds; i++) {
		int	line = sc->cmds[i].line;

		for (lo = 0, hi = in->nnodes; hi - lo > 1;) {
			mid = lo + (hi - lo) / 2;
			if (in->nodes[mid].from <= line)
				lo = mid;
			else
				hi = mid;
		}
		if (lo < in->nnodes && line >= in->nodes[lo].from &&
		    line <= in->nodes[lo].to && sc->cmds[i].node == NULL)
			sc->cmds[i].node = sh_script_str(sc,
			    in->nodes[lo].machine);
	}
}


int
input_script(const char *name, const struct input *in, struct sh_script *sc,
    struct result *notes, struct buf *why)
{
	char	err[1024];

	memset(sc, 0, sizeof *sc);
	if (in->kind == K_MANIFEST) {
		int	rc = manifest_read(name, in->text, in->len, in->yaml,
		    sc, notes, err, sizeof err);

		if (rc != 0) {
			input_fail(why, "%s", err);
			return rc;
		}
	} else if (in->kind == K_RECIPE) {
		if (recipe_script(name, in->yaml, sc, err, sizeof err) != 0)
			return input_fail(why, "%s", err);
	} else if (in->kind != K_SHELL && in->kind != K_LOG) {
		return input_fail(why, "%s: not a launch script or manifest",
		    name);
	} else if (sh_parse(in->text, in->len, sc, err, sizeof err) != 0)
		return input_fail(why, "%s:%s", name, err);
	if (sh_sglang_cap(sc, err, sizeof err) != 0) {
		sh_script_free(sc);
		return input_fail(why, "%s:%s", name, err);
	}
	if (in->document)
		place_blocks(sc, in);
	return 0;
}

void
input_free(struct input *in)
{
	ynode_free(in->yaml);
	md_nodes_free(in->nodes, in->nnodes);
	free(in->text);
	free(in->log);
	free(in->path);
	memset(in, 0, sizeof *in);
}
