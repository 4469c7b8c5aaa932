/*
 * ydoc.h - a small YAML tree read with libyaml's event parser.
 *
 * Bad input is refused while reading, so schema walkers never see it:
 * nesting deeper than YDOC_MAX_DEPTH, duplicate mapping keys, NUL bytes,
 * invalid UTF-8, files larger than the caller's limit, more than one
 * document (except through ydoc_parse_stream), tags that change a value.
 *
 * Anchors and aliases are read as PyYAML reads them: an alias is a copy of
 * the anchored node, so the tree stays a tree. The copies count against
 * YDOC_MAX_ALIAS_NODES, which keeps an alias bomb (a few lines that expand
 * to billions of nodes) from exhausting memory. Merge keys (YAML 1.1 `<<`,
 * as PyYAML applies them) are resolved: the merged keys are added where
 * the mapping does not give them itself. A leading UTF-8 byte order mark is
 * skipped. Every node keeps its 1-based line and column in the original
 * text (a copy: those of the anchored node).
 */
#ifndef PDWIZ_YDOC_H
#define PDWIZ_YDOC_H

#include <stdbool.h>
#include <stddef.h>

#define YDOC_MAX_DEPTH		64
#define YDOC_MAX_NODES		1000000
#define YDOC_MAX_SCALAR		(1024 * 1024)
#define YDOC_MAX_ALIAS_NODES	100000	/* made by aliases and merges */

enum ynode_kind { YN_SCALAR, YN_SEQ, YN_MAP };

struct ynode {
	enum ynode_kind	  kind;
	char		 *str;		/* scalar text, owned, NUL-free */
	size_t		  len;
	bool		  quoted;	/* scalar was quoted or a block scalar */
	struct ynode	**kids;		/* seq: items; map: key, value, key, value ... */
	size_t		  nkids;
	int		  line, col;	/* 1-based */
	int		  endline, endcol; /* just past the node's text */
};

/*
 * Parse a document from memory. name is used in messages. On error return
 * NULL and write "name:line:col: message" into err. An empty document gives
 * an empty mapping node when allow_empty, else an error.
 */
struct ynode	*ydoc_parse(const char *name, const char *text, size_t len,
		    bool allow_empty, char *err, size_t errlen);
/*
 * Parse a stream of documents ("---" separated): a sequence node whose
 * items are the documents' roots, in order (empty documents left out; an
 * empty stream gives an empty sequence). Anchors do not cross documents.
 */
struct ynode	*ydoc_parse_stream(const char *name, const char *text,
		    size_t len, char *err, size_t errlen);
struct ynode	*ydoc_load(const char *path, size_t maxsize, char *err,
		    size_t errlen);
void		 ynode_free(struct ynode *);

/* Mapping lookup; NULL when absent or n is not a mapping. */
struct ynode	*ynode_get(const struct ynode *map, const char *key);
bool		 ynode_is_null(const struct ynode *);	/* plain ~, null, empty */

/* Report a semantic error at a node: "name:line:col: message". */
void		 ynode_err(char *err, size_t errlen, const char *name,
		    const struct ynode *, const char *fmt, ...)
		    __attribute__((format(printf, 5, 6)));

/*
 * Check that every key of map is in the NULL-terminated list allowed;
 * else report "unknown key 'x' (did you mean 'y'?)". Returns 0 or -1.
 */
int		 ynode_check_keys(const struct ynode *map, const char *const *allowed,
		    const char *name, char *err, size_t errlen);

#endif
