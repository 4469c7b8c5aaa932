/* ydoc.c - YAML event stream to a checked tree. */
#define _POSIX_C_SOURCE 200809L
#include "ydoc.h"
#include "hashidx.h"
#include "util.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yaml.h>

static struct ynode *
node_new(enum ynode_kind kind, const yaml_mark_t *m)
{
	struct ynode	*n = xcalloc(1, sizeof *n);

	n->kind = kind;
	n->line = (int)m->line + 1;
	n->col = (int)m->column + 1;
	return n;
}

static void
node_add(struct ynode *parent, struct ynode *kid)
{
	if ((parent->nkids & (parent->nkids - 1)) == 0 || parent->nkids == 0)
		parent->kids = xreallocarray(parent->kids,
		    parent->nkids ? parent->nkids * 2 : 4, sizeof *parent->kids);
	parent->kids[parent->nkids++] = kid;
}

void
ynode_free(struct ynode *n)
{
	/* Iterative to survive any shape: push children onto a stack. */
	struct ynode	**stack;
	size_t		  sp = 0, cap = 64, i;

	if (n == NULL)
		return;
	stack = xmalloc(cap * sizeof *stack);
	stack[sp++] = n;
	while (sp > 0) {
		struct ynode	*c = stack[--sp];

		for (i = 0; i < c->nkids; i++) {
			if (sp == cap) {
				cap *= 2;
				stack = xreallocarray(stack, cap, sizeof *stack);
			}
			stack[sp++] = c->kids[i];
		}
		free(c->kids);
		free(c->str);
		free(c);
	}
	free(stack);
}

static void
mark_err(char *err, size_t errlen, const char *name, const yaml_mark_t *m,
    const char *what)
{
	snprintf(err, errlen, "%s:%zu:%zu: %s", name, m->line + 1,
	    m->column + 1, what);
}

static void
parser_err(yaml_parser_t *p, const char *name, const char *text, size_t len,
    char *err, size_t errlen)
{
	char	what[512];
	int	line, col;

	switch (p->error) {
	case YAML_MEMORY_ERROR:
		snprintf(err, errlen, "%s: out of memory while reading YAML",
		    name);
		return;
	case YAML_READER_ERROR:
		/* Bad encoding: libyaml knows the byte offset only. */
		text_pos(text, p->problem_offset < len ? p->problem_offset :
		    len, &line, &col);
		if (p->problem_value != -1)
			snprintf(err, errlen, "%s:%d:%d: %s (byte 0x%X at offset "
			    "%zu)", name, line, col, p->problem,
			    (unsigned)p->problem_value, p->problem_offset);
		else
			snprintf(err, errlen, "%s:%d:%d: %s (offset %zu)", name,
			    line, col, p->problem, p->problem_offset);
		return;
	default:
		if (p->context != NULL)
			snprintf(what, sizeof what, "%s %s", p->problem,
			    p->context);
		else
			snprintf(what, sizeof what, "%s",
			    p->problem ? p->problem : "YAML syntax error");
		mark_err(err, errlen, name, &p->problem_mark, what);
		return;
	}
}

/*
 * The keys of one open mapping, hashed (keyed: hashidx.h): a file with a
 * million keys must not take a million squared comparisons, whatever the
 * keys. Items are the indexes of the keys in the mapping's kids.
 */
static const char *
kid_key(const void *ctx, size_t i, size_t *len)
{
	const struct ynode	*k = ((const struct ynode *)ctx)->kids[i];

	*len = k->len;
	return k->str;
}

static void
keyset_free(struct hidx *ks)
{
	hidx_free(ks);
	ks->keyof = NULL;
}

/* Insert kids[i] of map; returns the index of an equal earlier key, or -1. */
static long
keyset_add(struct hidx *ks, const struct ynode *map, size_t i)
{
	if (ks->keyof == NULL)
		hidx_init(ks, kid_key, map);
	return hidx_add(ks, i);
}

static int
check_dup_key(struct ynode *map, struct hidx *ks, const char *name,
    char *err, size_t errlen)
{
	struct ynode	*key = map->kids[map->nkids - 1];
	long		 prev;

	if (key->kind != YN_SCALAR) {
		ynode_err(err, errlen, name, key,
		    "mapping keys must be plain strings");
		return -1;
	}
	if ((prev = keyset_add(ks, map, map->nkids - 1)) >= 0) {
		ynode_err(err, errlen, name, key,
		    "duplicate key '%s' (first at line %d)", key->str,
		    map->kids[prev]->line);
		return -1;
	}
	return 0;
}

/*
 * Tags: only the one that names what the node already is (!!str on a
 * scalar, !!seq, !!map) is accepted. Any other (!!python/tuple, !!int, a
 * local !tag) would change a value's meaning silently: refused, with the
 * tag as written (tag:yaml.org,2002:x shown as !!x).
 */
static bool
bad_tag(const yaml_char_t *tag, const char *ok, char *err, size_t errlen,
    const char *name, const yaml_mark_t *mark)
{
	static const char	std[] = "tag:yaml.org,2002:";
	const char		*t = (const char *)tag;
	char			 msg[320];
	bool			 isstd;

	if (t == NULL)
		return false;
	isstd = strncmp(t, std, sizeof std - 1) == 0;
	if (isstd && strcmp(t + sizeof std - 1, ok) == 0)
		return false;
	snprintf(msg, sizeof msg, "YAML tag '%s%.200s' is not supported "
	    "(write the value without a tag)", isstd ? "!!" : "",
	    isstd ? t + sizeof std - 1 : t);
	mark_err(err, errlen, name, mark, msg);
	return true;
}

/* An anchor (&name) of the current document and the node it names. */
struct anchor {
	char		*name;
	struct ynode	*node;		/* in the tree (or the graveyard) */
	size_t		 size;		/* nodes in its subtree */
	int		 height;	/* levels below it */
	bool		 done;		/* its node is complete */
};

/* The tree being built from libyaml's events. */
struct yparse {
	const char	*name;
	char		*err;
	size_t		 errlen;
	struct ynode	*stack[YDOC_MAX_DEPTH + 2];
	struct hidx	 keys[YDOC_MAX_DEPTH + 2];	/* per open mapping */
	struct ynode	*root;
	size_t		 depth, nodes, docs;
	bool		 stream;	/* several documents allowed */
	struct ynode	*docs_seq;	/* stream: the finished documents */
	struct anchor	*anchors;
	size_t		 nanchors, anchcap;
	struct hidx	 anchor_idx;	/* name -> its newest anchor */
	size_t		 open_anchors[YDOC_MAX_DEPTH + 2]; /* of the open
					   collections that have one, outer
					   first */
	size_t		 nopen;
	size_t		 copied;	/* nodes made by aliases and merges */
	struct ynode	*grave;		/* merge sources taken out of the tree,
					   kept alive for the anchors into them */
};

static void
anchors_free(struct yparse *y)
{
	size_t	i;

	for (i = 0; i < y->nanchors; i++)
		free(y->anchors[i].name);
	free(y->anchors);
	y->anchors = NULL;
	y->nanchors = y->anchcap = y->nopen = 0;
	hidx_free(&y->anchor_idx);
}

static const char *
anchor_name(const void *ctx, size_t i, size_t *len)
{
	const char	*name = ((const struct yparse *)ctx)->anchors[i].name;

	*len = strlen(name);
	return name;
}

/* Size and height of a complete subtree (depth is capped, so recursion is). */
static size_t
subtree_size(const struct ynode *n, int *height)
{
	size_t	size = 1, i;
	int	h;

	*height = 0;
	for (i = 0; i < n->nkids; i++) {
		size += subtree_size(n->kids[i], &h);
		if (h + 1 > *height)
			*height = h + 1;
	}
	return size;
}

/*
 * A new anchor: found by name through anchor_idx (an anchor named again
 * replaces the earlier one from here on, as in PyYAML). A collection's is
 * complete only at its end, which it awaits on open_anchors: collections
 * end in the reverse order they opened, so the newest entry there is
 * always the next one to complete.
 */
static void
anchor_add(struct yparse *y, const yaml_char_t *name, struct ynode *n)
{
	struct anchor	*a;

	if (y->nanchors == y->anchcap) {
		y->anchcap = y->anchcap ? y->anchcap * 2 : 16;
		y->anchors = xreallocarray(y->anchors, y->anchcap,
		    sizeof *y->anchors);
	}
	if (y->anchor_idx.keyof == NULL)
		hidx_init(&y->anchor_idx, anchor_name, y);
	a = &y->anchors[y->nanchors];
	a->name = xstrdup((const char *)name);
	a->node = n;
	a->size = 1;
	a->height = 0;
	a->done = n->kind == YN_SCALAR;
	hidx_put(&y->anchor_idx, y->nanchors);
	if (!a->done)
		y->open_anchors[y->nopen++] = y->nanchors;
	y->nanchors++;
}

/* The collection n is complete: its anchor (if any) can be used. */
static void
anchor_done(struct yparse *y, const struct ynode *n)
{
	struct anchor	*a;

	if (y->nopen == 0)
		return;
	a = &y->anchors[y->open_anchors[y->nopen - 1]];
	if (a->node != n)
		return;
	a->size = subtree_size(n, &a->height);
	a->done = true;
	y->nopen--;
}

static struct ynode *
node_copy(const struct ynode *n)
{
	struct ynode	*c = xcalloc(1, sizeof *c);
	size_t		 i;

	*c = *n;
	c->kids = NULL;
	c->nkids = 0;
	if (n->str != NULL)
		c->str = xstrndup(n->str, n->len);
	if (n->nkids > 0) {
		c->kids = xreallocarray(NULL, n->nkids, sizeof *c->kids);
		for (i = 0; i < n->nkids; i++)
			c->kids[i] = node_copy(n->kids[i]);
		c->nkids = n->nkids;
	}
	return c;
}

/* Count size more copied nodes; -1 with the error past the cap. */
static int
copy_budget(struct yparse *y, size_t size, const yaml_mark_t *mark)
{
	if (size > YDOC_MAX_ALIAS_NODES - y->copied ||
	    size > YDOC_MAX_NODES - y->nodes) {
		char	msg[160];

		snprintf(msg, sizeof msg, "YAML aliases expand to more than "
		    "%d nodes (an alias bomb?)", YDOC_MAX_ALIAS_NODES);
		mark_err(y->err, y->errlen, y->name, mark, msg);
		return -1;
	}
	y->copied += size;
	y->nodes += size;
	return 0;
}

/* An alias (*name): a copy of the anchored node, or NULL with the error. */
static struct ynode *
alias_node(struct yparse *y, const yaml_event_t *ev)
{
	const char	*name = (const char *)ev->data.alias.anchor;
	struct anchor	*a = NULL;
	char		 msg[320];
	long		 i = hidx_find(&y->anchor_idx, name, strlen(name));

	if (i >= 0)
		a = &y->anchors[i];
	if (a == NULL || !a->done) {
		snprintf(msg, sizeof msg, a == NULL ? "YAML alias *%.200s names "
		    "no anchor before it" : "YAML alias *%.200s refers to a node "
		    "that contains it", name);
		mark_err(y->err, y->errlen, y->name, &ev->start_mark, msg);
		return NULL;
	}
	if (y->depth + (size_t)a->height >= YDOC_MAX_DEPTH &&
	    a->node->kind != YN_SCALAR) {
		mark_err(y->err, y->errlen, y->name, &ev->start_mark,
		    "nesting deeper than 64 levels");
		return NULL;
	}
	/* place_node counts the copy's root. */
	if (copy_budget(y, a->size, &ev->start_mark) != 0)
		return NULL;
	y->nodes--;
	return node_copy(a->node);
}

static void
grave_add(struct yparse *y, struct ynode *n)
{
	if (y->grave == NULL) {
		yaml_mark_t	m = { 0, 0, 0 };

		y->grave = node_new(YN_SEQ, &m);
	}
	node_add(y->grave, n);
}

static bool
is_merge_key(const struct ynode *k)
{
	return k->kind == YN_SCALAR && !k->quoted && strcmp(k->str, "<<") == 0;
}

/* Merge the pairs of src into map where map has no such key yet. */
static int
merge_from(struct yparse *y, struct ynode *map, struct hidx *ks,
    const struct ynode *src, const yaml_mark_t *mark)
{
	size_t	i, size;
	int	h;

	for (i = 0; i + 1 < src->nkids; i += 2) {
		if (is_merge_key(src->kids[i]))
			continue;
		size = subtree_size(src->kids[i + 1], &h) + 1;
		if (copy_budget(y, size, mark) != 0)
			return -1;
		node_add(map, node_copy(src->kids[i]));
		node_add(map, node_copy(src->kids[i + 1]));
		if (keyset_add(ks, map, map->nkids - 2) >= 0) {
			ynode_free(map->kids[--map->nkids]);
			ynode_free(map->kids[--map->nkids]);
		}
	}
	return 0;
}

/*
 * Resolve the merge keys of a complete mapping (PyYAML's flatten_mapping):
 * "<<: MAP" or "<<: [MAP, ...]" adds the keys the mapping does not give
 * itself; of several merged maps, the earlier wins. The << pairs go.
 */
static int
merge_keys(struct yparse *y, struct ynode *map, struct hidx *ks,
    const yaml_mark_t *mark)
{
	size_t	i, j, n = map->nkids, o;

	for (i = 0; i + 1 < n; i += 2) {
		const struct ynode	*v = map->kids[i + 1];

		if (!is_merge_key(map->kids[i]))
			continue;
		for (j = 0; v->kind == YN_SEQ && j < v->nkids; j++)
			if (v->kids[j]->kind != YN_MAP)
				break;
		if (v->kind == YN_SCALAR || (v->kind == YN_SEQ &&
		    j < v->nkids)) {
			ynode_err(y->err, y->errlen, y->name, map->kids[i],
			    "a merge key "
			    "(<<) takes a mapping or a list of mappings");
			return -1;
		}
		if (v->kind == YN_MAP && merge_from(y, map, ks, v, mark) != 0)
			return -1;
		for (j = 0; v->kind == YN_SEQ && j < v->nkids; j++)
			if (merge_from(y, map, ks, v->kids[j], mark) != 0)
				return -1;
	}
	for (i = o = 0; i + 1 < map->nkids; i += 2) {
		if (i < n && is_merge_key(map->kids[i])) {
			grave_add(y, map->kids[i]);
			grave_add(y, map->kids[i + 1]);
			continue;
		}
		map->kids[o++] = map->kids[i];
		map->kids[o++] = map->kids[i + 1];
	}
	map->nkids = o;
	return 0;
}

/* A scalar event as a node, or NULL with the error. */
static struct ynode *
scalar_node(struct yparse *y, const yaml_event_t *ev)
{
	struct ynode	*n;

	if (ev->data.scalar.length > YDOC_MAX_SCALAR) {
		mark_err(y->err, y->errlen, y->name, &ev->start_mark,
		    "scalar value longer than 1 MiB");
		return NULL;
	}
	if (memchr(ev->data.scalar.value, '\0', ev->data.scalar.length) !=
	    NULL) {
		mark_err(y->err, y->errlen, y->name, &ev->start_mark,
		    "NUL character (\\0) in a string");
		return NULL;
	}
	if (bad_tag(ev->data.scalar.tag, "str", y->err, y->errlen, y->name,
	    &ev->start_mark))
		return NULL;
	n = node_new(YN_SCALAR, &ev->start_mark);
	n->str = xstrndup((const char *)ev->data.scalar.value,
	    ev->data.scalar.length);
	n->len = ev->data.scalar.length;
	n->endline = (int)ev->end_mark.line + 1;
	n->endcol = (int)ev->end_mark.column + 1;
	if (ev->data.scalar.anchor != NULL)
		anchor_add(y, ev->data.scalar.anchor, n);
	/* !!str 5 is the string "5", as if quoted. */
	n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
	    ev->data.scalar.tag != NULL;
	return n;
}

/* A sequence or mapping start as an empty node, or NULL with the error. */
static struct ynode *
collection_node(struct yparse *y, const yaml_event_t *ev)
{
	bool		 seq = ev->type == YAML_SEQUENCE_START_EVENT;
	const yaml_char_t *anchor = seq ? ev->data.sequence_start.anchor :
	    ev->data.mapping_start.anchor;
	struct ynode	*n;

	if (bad_tag(seq ? ev->data.sequence_start.tag :
	    ev->data.mapping_start.tag, seq ? "seq" : "map", y->err,
	    y->errlen, y->name, &ev->start_mark))
		return NULL;
	if (y->depth >= YDOC_MAX_DEPTH) {
		mark_err(y->err, y->errlen, y->name, &ev->start_mark,
		    "nesting deeper than 64 levels");
		return NULL;
	}
	n = node_new(seq ? YN_SEQ : YN_MAP, &ev->start_mark);
	if (anchor != NULL)
		anchor_add(y, anchor, n);
	return n;
}

/* Hang n in the tree (owned by it from here on); -1 with the error. */
static int
place_node(struct yparse *y, struct ynode *n, const yaml_mark_t *mark,
    bool complete)
{
	struct ynode	*parent;
	bool		 open = n->kind != YN_SCALAR && !complete;

	if (++y->nodes > YDOC_MAX_NODES) {
		mark_err(y->err, y->errlen, y->name, mark,
		    "too many YAML nodes");
		ynode_free(n);
		return -1;
	}
	if (y->depth == 0) {
		if (!open)
			y->root = n;
		else
			y->stack[y->depth++] = n;
		return 0;
	}
	parent = y->stack[y->depth - 1];
	node_add(parent, n);
	if (open)
		y->stack[y->depth++] = n;
	if (parent->kind == YN_MAP && parent->nkids % 2 == 1 &&
	    check_dup_key(parent, &y->keys[y->depth - (open ? 2 : 1)],
	    y->name, y->err, y->errlen) != 0)
		return -1;
	return 0;
}

/* The end of a sequence or mapping: merge keys, anchors, the root. */
static int
end_collection(struct yparse *y, const yaml_event_t *ev)
{
	struct ynode	*n = y->stack[y->depth - 1];
	int		 rc = 0;

	n->endline = (int)ev->end_mark.line + 1;
	n->endcol = (int)ev->end_mark.column + 1;
	if (n->kind == YN_MAP)
		rc = merge_keys(y, n, &y->keys[y->depth - 1], &ev->start_mark);
	y->depth--;
	keyset_free(&y->keys[y->depth]);
	if (y->depth == 0)
		y->root = y->stack[0];
	anchor_done(y, n);
	return rc;
}

/* The end of a document in a stream: its root joins the others. */
static void
end_document(struct yparse *y)
{
	yaml_mark_t	m = { 0, 0, 0 };

	anchors_free(y);
	if (!y->stream || y->root == NULL)
		return;
	if (y->docs_seq == NULL)
		y->docs_seq = node_new(YN_SEQ, &m);
	if (!(y->root->kind == YN_SCALAR && ynode_is_null(y->root)))
		node_add(y->docs_seq, y->root);
	else
		ynode_free(y->root);
	y->root = NULL;
}

/* One event: 0 go on, 1 end of stream, -1 an error. */
static int
on_event(struct yparse *y, const yaml_event_t *ev)
{
	struct ynode	*n = NULL;

	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		return 1;
	case YAML_DOCUMENT_END_EVENT:
		end_document(y);
		return 0;
	case YAML_DOCUMENT_START_EVENT:
		if (++y->docs > 1 && !y->stream) {
			mark_err(y->err, y->errlen, y->name, &ev->start_mark,
			    "more than one YAML document in the file");
			return -1;
		}
		return 0;
	case YAML_ALIAS_EVENT:
		if ((n = alias_node(y, ev)) == NULL)
			return -1;
		return place_node(y, n, &ev->start_mark, true);
	case YAML_SCALAR_EVENT:
		if ((n = scalar_node(y, ev)) == NULL)
			return -1;
		break;
	case YAML_SEQUENCE_START_EVENT:
	case YAML_MAPPING_START_EVENT:
		if ((n = collection_node(y, ev)) == NULL)
			return -1;
		break;
	case YAML_SEQUENCE_END_EVENT:
	case YAML_MAPPING_END_EVENT:
		return end_collection(y, ev);
	default:
		return 0;
	}
	return place_node(y, n, &ev->start_mark, false);
}

/* Parse text with y set up: 0 and the root (NULL for an empty document;
 * a stream: its sequence) in *out, or -1 with the error. */
static int
parse_events(struct yparse *y, const char *text, size_t len,
    struct ynode **out)
{
	yaml_parser_t	 p;
	yaml_event_t	 ev;
	size_t		 i;
	int		 rc = 0;

	if (!yaml_parser_initialize(&p)) {
		snprintf(y->err, y->errlen, "%s: cannot initialise YAML parser",
		    y->name);
		return -1;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
	while (rc == 0) {
		if (!yaml_parser_parse(&p, &ev)) {
			parser_err(&p, y->name, text, len, y->err, y->errlen);
			rc = -1;
			break;
		}
		rc = on_event(y, &ev);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	for (i = 0; i < YDOC_MAX_DEPTH + 2; i++)
		keyset_free(&y->keys[i]);
	anchors_free(y);
	ynode_free(y->grave);
	if (rc < 0) {
		if (y->depth > 0)
			ynode_free(y->stack[0]);
		else if (y->root != NULL)
			ynode_free(y->root);
		ynode_free(y->docs_seq);
		return -1;
	}
	if (y->stream) {
		yaml_mark_t	m = { 0, 0, 0 };

		*out = y->docs_seq != NULL ? y->docs_seq : node_new(YN_SEQ, &m);
	} else
		*out = y->root;
	return 0;
}

/* Text past a leading UTF-8 byte order mark; NULL (with err) on a NUL. */
static const char *
prepare(const char *name, const char *text, size_t *len, char *err,
    size_t errlen)
{
	const char	*nul = memchr(text, '\0', *len);
	int		 line, col;

	if (nul != NULL) {
		text_pos(text, (size_t)(nul - text), &line, &col);
		snprintf(err, errlen, "%s:%d:%d: NUL byte in input", name, line,
		    col);
		return NULL;
	}
	if (*len >= 3 && memcmp(text, "\xEF\xBB\xBF", 3) == 0) {
		*len -= 3;
		return text + 3;
	}
	return text;
}

struct ynode *
ydoc_parse(const char *name, const char *text, size_t len, bool allow_empty,
    char *err, size_t errlen)
{
	struct yparse	 y;
	struct ynode	*root = NULL;

	if ((text = prepare(name, text, &len, err, errlen)) == NULL)
		return NULL;
	memset(&y, 0, sizeof y);
	y.name = name;
	y.err = err;
	y.errlen = errlen;
	if (parse_events(&y, text, len, &root) != 0)
		return NULL;
	if (root == NULL) {
		yaml_mark_t	m = { 0, 0, 0 };

		if (!allow_empty) {
			snprintf(err, errlen, "%s:1:1: file is empty", name);
			return NULL;
		}
		root = node_new(YN_MAP, &m);
	}
	return root;
}

struct ynode *
ydoc_parse_stream(const char *name, const char *text, size_t len, char *err,
    size_t errlen)
{
	struct yparse	 y;
	struct ynode	*root = NULL;

	if ((text = prepare(name, text, &len, err, errlen)) == NULL)
		return NULL;
	memset(&y, 0, sizeof y);
	y.name = name;
	y.err = err;
	y.errlen = errlen;
	y.stream = true;
	return parse_events(&y, text, len, &root) == 0 ? root : NULL;
}

struct ynode *
ydoc_load(const char *path, size_t maxsize, char *err, size_t errlen)
{
	size_t		 len;
	char		*text = read_file(path, maxsize, &len, err, errlen);
	struct ynode	*n;

	if (text == NULL)
		return NULL;
	n = ydoc_parse(strcmp(path, "-") == 0 ? "<stdin>" : path, text, len,
	    false, err, errlen);
	free(text);
	return n;
}

struct ynode *
ynode_get(const struct ynode *map, const char *key)
{
	size_t	i;

	if (map == NULL || map->kind != YN_MAP)
		return NULL;
	for (i = 0; i + 1 < map->nkids; i += 2)
		if (strcmp(map->kids[i]->str, key) == 0)
			return map->kids[i + 1];
	return NULL;
}

bool
ynode_is_null(const struct ynode *n)
{
	if (n == NULL)
		return true;
	if (n->kind != YN_SCALAR || n->quoted)
		return false;
	return n->len == 0 || strcmp(n->str, "~") == 0 ||
	    strcmp(n->str, "null") == 0 || strcmp(n->str, "Null") == 0 ||
	    strcmp(n->str, "NULL") == 0;
}

void
ynode_err(char *err, size_t errlen, const char *name, const struct ynode *n,
    const char *fmt, ...)
{
	char	msg[1024];
	va_list	ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof msg, fmt, ap);
	va_end(ap);
	if (n != NULL)
		snprintf(err, errlen, "%s:%d:%d: %s", name, n->line, n->col,
		    msg);
	else
		snprintf(err, errlen, "%s: %s", name, msg);
}

int
ynode_check_keys(const struct ynode *map, const char *const *allowed,
    const char *name, char *err, size_t errlen)
{
	size_t	i, j;

	if (map->kind != YN_MAP) {
		ynode_err(err, errlen, name, map, "expected a mapping");
		return -1;
	}
	for (i = 0; i + 1 < map->nkids; i += 2) {
		const char	*k = map->kids[i]->str;
		const char	*best = NULL;
		size_t		 bestd = 3;

		for (j = 0; allowed[j] != NULL; j++)
			if (strcmp(allowed[j], k) == 0)
				break;
		if (allowed[j] == NULL) {
			for (j = 0; allowed[j] != NULL; j++) {
				size_t	d = edit_distance(k, allowed[j]);

				if (d < bestd) {
					bestd = d;
					best = allowed[j];
				}
			}
			if (best != NULL)
				ynode_err(err, errlen, name, map->kids[i],
				    "unknown key '%s' (did you mean '%s'?)", k,
				    best);
			else
				ynode_err(err, errlen, name, map->kids[i],
				    "unknown key '%s'", k);
			return -1;
		}
	}
	return 0;
}
