/*
 * markdown.h - the shell that documents hold (markdown.c): the fenced shell
 * blocks of a Markdown document, line for line (other lines empty; "$ "
 * prompts and command output dropped), a pasted script without its "$ "
 * prompts, and a document's ```yaml blocks. Owned results. The blocks
 * whose lead-in names the one node they run on are listed in *nodes
 * (owned by the caller, with their machine strings; md_nodes_free).
 */
#ifndef PDWIZ_MARKDOWN_H
#define PDWIZ_MARKDOWN_H

#include <stddef.h>

struct md_node {
	int	 from, to;	/* the block's lines, 1-based, inclusive */
	char	*machine;	/* "Node 2", or MD_NODE_UNSTATED */
};
/* The machine of a block whose lead-in says "(machine not stated)": one
 * of the document's machines, which one is not known. */
#define MD_NODE_UNSTATED	"?"


char	*markdown_shell(const char *text, size_t len, size_t *outlen,
	    size_t *nblocks, struct md_node **nodes, size_t *nnodes);
void	 md_nodes_free(struct md_node *, size_t);
char	*strip_prompts(const char *text, size_t len, size_t *outlen);
/* The ```yaml blocks of a document as one YAML stream, line for line
 * (each block a document). */
char	*markdown_yaml(const char *text, size_t len, size_t *outlen,
	    size_t *nblocks);

#endif
