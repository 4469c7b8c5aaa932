/*
 * markdown.c - the shell that documents hold: the fenced shell
 * blocks of a Markdown file, and commands pasted with a "$ " prompt.
 *
 * The result has as many lines as the input, so every diagnostic keeps the
 * document's line numbers: lines that are not commands become empty.
 * A block whose lead-in (its section's heading and the prose before it)
 * names one node ("### Launch Replica 2 (Node 2)", "Open a terminal on
 * node-2") is said to run on that machine; one whose lead-in says
 * "(machine not stated)" on a machine that is not known (MD_NODE_UNSTATED).
 */
#define _POSIX_C_SOURCE 200809L
#include "io/markdown.h"
#include "core/util.h"

#include <ctype.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

/* A fence line: ``` or ~~~ (3 or more), its info word in info. */
static bool
fence(const char *l, size_t n, char *info, size_t infolen)
{
	size_t	i = 0, k, w = 0;
	char	c;

	while (i < n && i < 3 && l[i] == ' ')
		i++;
	if (i + 3 > n || (l[i] != '`' && l[i] != '~'))
		return false;
	c = l[i];
	for (k = i; k < n && l[k] == c; k++)
		;
	if (k - i < 3)
		return false;
	while (k < n && l[k] == ' ')
		k++;
	while (k < n && w + 1 < infolen && !isspace((unsigned char)l[k]) &&
	    l[k] != '{' && l[k] != ',')
		info[w++] = (char)tolower((unsigned char)l[k++]);
	info[w] = '\0';
	return true;
}

static bool
shell_info(const char *info)
{
	static const char *const kinds[] = { "bash", "sh", "shell", "console",
	    "zsh", "shell-session", "terminal", "" };
	size_t	i;

	for (i = 0; i < sizeof kinds / sizeof kinds[0]; i++)
		if (strcmp(info, kinds[i]) == 0)
			return true;
	return false;
}

/* A terminal transcript: "$ " and "# " are prompts, other lines output. */
static bool
session_info(const char *info)
{
	return strcmp(info, "console") == 0 ||
	    strcmp(info, "shell-session") == 0 ||
	    strcmp(info, "terminal") == 0;
}

/*
 * "$ cmd" (optionally indented): the offset of cmd, else 0. In a terminal
 * transcript (root) the root prompt "# cmd" counts too; elsewhere "# " is
 * a comment (often a command left out on purpose).
 */
static size_t
prompt_in(const char *l, size_t n, bool root)
{
	size_t	i = 0;

	while (i < n && (l[i] == ' ' || l[i] == '\t'))
		i++;
	if (i + 1 < n && (l[i] == '$' || (root && l[i] == '#')) &&
	    l[i + 1] == ' ')
		return i + 2;
	return 0;
}

static size_t
prompt(const char *l, size_t n)
{
	return prompt_in(l, n, false);
}

static bool
continued(const char *l, size_t n)
{
	while (n > 0 && (l[n - 1] == ' ' || l[n - 1] == '\t' ||
	    l[n - 1] == '\r'))
		n--;
	return n > 0 && l[n - 1] == '\\';
}

/*
 * One block's lines [from, to) of the document: with prompts, only the
 * prompted commands and their continuations are kept (the rest is their
 * output); without, every line.
 */
static void
keep_block(struct buf *out, const char **line, const size_t *len,
    size_t from, size_t to, bool root)
{
	size_t	i;
	bool	prompts = false, cont = false;

	for (i = from; i < to && !prompts; i++)
		prompts = prompt_in(line[i], len[i], root) > 0;
	for (i = from; i < to; i++) {
		size_t	p = prompt_in(line[i], len[i], root);

		if (!prompts || cont)
			buf_add(out, line[i], len[i]);
		else if (p > 0)
			buf_add(out, line[i] + p, len[i] - p);
		cont = (p > 0 || cont || !prompts) && continued(line[i],
		    len[i]);
		buf_putc(out, '\n');
	}
}

/*
 * The node numbers a line of prose names: "node" as a word (not the tail of
 * "multi-node" or "--node-rank"), then one optional space, '-' or '_', then
 * 1 to 3 digits ending the word. Each new number goes into nums (up to
 * max); returns how many there are now.
 */
static size_t
node_numbers(const char *l, size_t n, int *nums, size_t have, size_t max)
{
	size_t	i, k, d;

	for (i = 0; i + 4 < n; i++) {
		int	v = 0;

		if (strncasecmp(l + i, "node", 4) != 0 || (i > 0 &&
		    (isalnum((unsigned char)l[i - 1]) || l[i - 1] == '-' ||
		    l[i - 1] == '_')))
			continue;
		k = i + 4;
		if (k < n && (l[k] == ' ' || l[k] == '-' || l[k] == '_'))
			k++;
		for (d = 0; k + d < n && d < 4 &&
		    isdigit((unsigned char)l[k + d]); d++)
			v = v * 10 + (l[k + d] - '0');
		if (d == 0 || d > 3 || (k + d < n &&
		    (isalnum((unsigned char)l[k + d]) || l[k + d] == '_')))
			continue;
		for (d = 0; d < have && nums[d] != v; d++)
			;
		if (d == have && have < max)
			nums[have++] = v;
	}
	return have;
}

/* Does a line of prose say "(machine not stated)", as pdwiz's runbook
 * heads the block of a server whose machine its source did not state? */
static bool
says_unstated(const char *l, size_t n)
{
	static const char	m[] = "(machine not stated)";
	size_t			i;

	for (i = 0; i + sizeof m - 1 <= n; i++)
		if (strncasecmp(l + i, m, sizeof m - 1) == 0)
			return true;
	return false;
}

/* The machine of the block opening at line open (0-based): the one node
 * its lead-in, lines [from, open), names; MD_NODE_UNSTATED when the
 * lead-in says its machine is not stated; NULL when none or several. */
static char *
lead_in_node(const char **line, const size_t *len, size_t from, size_t open)
{
	int	nums[2];
	size_t	have = 0, i;

	for (i = from; i < open; i++) {
		if (says_unstated(line[i], len[i]))
			return xstrdup(MD_NODE_UNSTATED);
		have = node_numbers(line[i], len[i], nums, have, 2);
	}
	return have == 1 ? xasprintf("Node %d", nums[0]) : NULL;
}

/* Record the block of lines [open, close) (0-based) as run on *node, which
 * it takes (when there is one). */
static void
block_node(struct md_node **nodes, size_t *n, size_t open, size_t close,
    char **node)
{
	if (*node == NULL)
		return;
	*nodes = grow_pow2(*nodes, *n, sizeof **nodes);
	(*nodes)[*n].from = (int)open + 1;
	(*nodes)[*n].to = (int)close;
	(*nodes)[*n].machine = *node;
	(*n)++;
	*node = NULL;
}

static bool
heading(const char *l, size_t n)
{
	size_t	i = 0;

	while (i < n && i < 6 && l[i] == '#')
		i++;
	return i > 0 && i < n && l[i] == ' ';
}

char *
markdown_shell(const char *text, size_t len, size_t *outlen, size_t *nblocks,
    struct md_node **nodes, size_t *nnodes)
{
	struct buf	  out = { 0 };
	const char	**line = NULL;
	size_t		 *llen = NULL, n = 0, i, open = 0;
	const char	 *p = text, *end = text + len;
	char		  info[32], *node = NULL;
	size_t		  lead = 0;	/* where the open block's lead-in starts */
	bool		  in = false, sh = false, root = false;

	*nodes = NULL;
	*nnodes = 0;
	while (p < end) {
		const char	*nl = memchr(p, '\n', (size_t)(end - p));
		size_t		 l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		line = grow_pow2(line, n, sizeof *line);
		llen = grow_pow2(llen, n, sizeof *llen);
		line[n] = p;
		llen[n++] = l;
		p = nl ? nl + 1 : end;
	}
	*nblocks = 0;
	for (i = 0; i < n; i++) {
		if (fence(line[i], llen[i], info, sizeof info)) {
			if (in && sh) {
				keep_block(&out, line, llen, open, i, root);
				(*nblocks)++;
				block_node(nodes, nnodes, open, i, &node);
			} else if (!in) {
				sh = shell_info(info);
				root = session_info(info);
				open = i + 1;
				if (sh)
					node = lead_in_node(line, llen, lead,
					    i);
			}
			in = !in;
			lead = i + 1;
			buf_putc(&out, '\n');
		} else {
			if (!in && heading(line[i], llen[i]))
				lead = i;
			if (!in || !sh)
				buf_putc(&out, '\n');
		}
	}
	if (in && sh) {
		keep_block(&out, line, llen, open, n, root);
		(*nblocks)++;
		block_node(nodes, nnodes, open, n, &node);
	}
	free(line);
	free(llen);
	buf_add(&out, "", 0);
	*outlen = out.len;
	return buf_steal(&out);
}

char *
strip_prompts(const char *text, size_t len, size_t *outlen)
{
	struct buf	 out = { 0 };
	const char	*p = text, *end = text + len;

	while (p < end) {
		const char	*nl = memchr(p, '\n', (size_t)(end - p));
		size_t		 l = nl ? (size_t)(nl - p) : (size_t)(end - p);
		size_t		 k = prompt(p, l);

		buf_add(&out, p + k, l - k);
		if (nl != NULL)
			buf_putc(&out, '\n');
		p = nl ? nl + 1 : end;
	}
	buf_add(&out, "", 0);
	*outlen = out.len;
	return buf_steal(&out);
}

/*
 * The YAML a document shows (```yaml and ```yml blocks) as one stream,
 * line for line: each block's opening fence becomes a "---" document
 * start, every other line outside the blocks is empty. Owned result.
 */
char *
markdown_yaml(const char *text, size_t len, size_t *outlen, size_t *nblocks)
{
	struct buf	 out = { 0 };
	const char	*p = text, *end = text + len;
	char		 info[32];
	bool		 in = false, y = false;

	*nblocks = 0;
	while (p < end) {
		const char	*nl = memchr(p, '\n', (size_t)(end - p));
		size_t		 l = nl ? (size_t)(nl - p) : (size_t)(end - p);

		if (fence(p, l, info, sizeof info)) {
			if (!in) {
				y = strcmp(info, "yaml") == 0 ||
				    strcmp(info, "yml") == 0;
				if (y) {
					buf_puts(&out, "---");
					(*nblocks)++;
				}
			}
			in = !in;
		} else if (in && y)
			buf_add(&out, p, l);
		buf_putc(&out, '\n');
		p = nl ? nl + 1 : end;
	}
	buf_add(&out, "", 0);
	*outlen = out.len;
	return buf_steal(&out);
}


void
md_nodes_free(struct md_node *nodes, size_t n)
{
	size_t	i;

	for (i = 0; i < n; i++)
		free(nodes[i].machine);
	free(nodes);
}
