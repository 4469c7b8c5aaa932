/* ydoc.c - YAML event stream to a checked tree. */
#define _POSIX_C_SOURCE 200809L
#include "ydoc.h"
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

/* Find the line/col of byte offset off in text. */
static void
offset_pos(const char *text, size_t off, int *line, int *col)
{
	size_t	i;

	*line = 1;
	*col = 1;
	for (i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else
			(*col)++;
	}
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
		offset_pos(text, p->problem_offset < len ? p->problem_offset :
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
 * The keys of one open mapping, hashed: a file with a million keys must not
 * take a million squared comparisons. Slots hold key index + 1 (0: free).
 */
struct keyset {
	size_t	*slot;
	size_t	 cap, n;
};

static size_t
key_hash(const char *s)
{
	size_t	h = 5381;

	while (*s != '\0')
		h = h * 33 + (unsigned char)*s++;
	return h;
}

static void
keyset_free(struct keyset *ks)
{
	free(ks->slot);
	memset(ks, 0, sizeof *ks);
}

/* Insert kids[i] of map; returns the index of an equal earlier key, or -1. */
static long
keyset_add(struct keyset *ks, const struct ynode *map, size_t i)
{
	const char	*k = map->kids[i]->str;
	size_t		 h, j;

	if ((ks->n + 1) * 2 > ks->cap) {
		size_t	 ncap = ks->cap ? ks->cap * 2 : 16, *old = ks->slot;
		size_t	 oldcap = ks->cap;

		ks->slot = xcalloc(ncap, sizeof *ks->slot);
		ks->cap = ncap;
		for (j = 0; j < oldcap; j++) {
			if (old[j] == 0)
				continue;
			h = key_hash(map->kids[old[j] - 1]->str) & (ncap - 1);
			while (ks->slot[h] != 0)
				h = (h + 1) & (ncap - 1);
			ks->slot[h] = old[j];
		}
		free(old);
	}
	h = key_hash(k) & (ks->cap - 1);
	while (ks->slot[h] != 0) {
		if (strcmp(map->kids[ks->slot[h] - 1]->str, k) == 0)
			return (long)ks->slot[h] - 1;
		h = (h + 1) & (ks->cap - 1);
	}
	ks->slot[h] = i + 1;
	ks->n++;
	return -1;
}

static int
check_dup_key(struct ynode *map, struct keyset *ks, const char *name,
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

/* The tree being built from libyaml's events. */
struct yparse {
	const char	*name;
	char		*err;
	size_t		 errlen;
	struct ynode	*stack[YDOC_MAX_DEPTH + 2];
	struct keyset	 keys[YDOC_MAX_DEPTH + 2];	/* per open mapping */
	struct ynode	*root;
	size_t		 depth, nodes, docs;
};

/* A scalar event as a node, or NULL with the error. */
static struct ynode *
scalar_node(struct yparse *y, const yaml_event_t *ev)
{
	struct ynode	*n;

	if (ev->data.scalar.anchor != NULL) {
		mark_err(y->err, y->errlen, y->name, &ev->start_mark,
		    "YAML anchors (&name) are not supported");
		return NULL;
	}
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
	/* !!str 5 is the string "5", as if quoted. */
	n->quoted = ev->data.scalar.style != YAML_PLAIN_SCALAR_STYLE ||
	    ev->data.scalar.tag != NULL;
	return n;
}

/* A sequence or mapping start as an empty node, or NULL with the error. */
static struct ynode *
collection_node(struct yparse *y, const yaml_event_t *ev)
{
	bool	seq = ev->type == YAML_SEQUENCE_START_EVENT;

	if ((seq ? ev->data.sequence_start.anchor :
	    ev->data.mapping_start.anchor) != NULL) {
		mark_err(y->err, y->errlen, y->name, &ev->start_mark,
		    "YAML anchors (&name) are not supported");
		return NULL;
	}
	if (bad_tag(seq ? ev->data.sequence_start.tag :
	    ev->data.mapping_start.tag, seq ? "seq" : "map", y->err,
	    y->errlen, y->name, &ev->start_mark))
		return NULL;
	if (y->depth >= YDOC_MAX_DEPTH) {
		mark_err(y->err, y->errlen, y->name, &ev->start_mark,
		    "nesting deeper than 64 levels");
		return NULL;
	}
	return node_new(seq ? YN_SEQ : YN_MAP, &ev->start_mark);
}

/* Hang n in the tree (owned by it from here on); -1 with the error. */
static int
place_node(struct yparse *y, struct ynode *n, const yaml_mark_t *mark)
{
	struct ynode	*parent;

	if (++y->nodes > YDOC_MAX_NODES) {
		mark_err(y->err, y->errlen, y->name, mark,
		    "too many YAML nodes");
		ynode_free(n);
		return -1;
	}
	if (y->depth == 0) {
		if (n->kind == YN_SCALAR)
			y->root = n;
		else
			y->stack[y->depth++] = n;
		return 0;
	}
	parent = y->stack[y->depth - 1];
	node_add(parent, n);
	if (n->kind != YN_SCALAR)
		y->stack[y->depth++] = n;
	if (parent->kind == YN_MAP && parent->nkids % 2 == 1 &&
	    check_dup_key(parent, &y->keys[y->depth - (n->kind != YN_SCALAR ?
	    2 : 1)], y->name, y->err, y->errlen) != 0)
		return -1;
	return 0;
}

/* One event: 0 go on, 1 end of stream, -1 an error. */
static int
on_event(struct yparse *y, const yaml_event_t *ev)
{
	struct ynode	*n = NULL;

	switch (ev->type) {
	case YAML_STREAM_END_EVENT:
		return 1;
	case YAML_DOCUMENT_START_EVENT:
		if (++y->docs > 1) {
			mark_err(y->err, y->errlen, y->name, &ev->start_mark,
			    "more than one YAML document in the file");
			return -1;
		}
		return 0;
	case YAML_ALIAS_EVENT:
		mark_err(y->err, y->errlen, y->name, &ev->start_mark,
		    "YAML aliases (*name) are not supported");
		return -1;
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
		y->depth--;
		keyset_free(&y->keys[y->depth]);
		if (y->depth == 0)
			y->root = y->stack[0];
		return 0;
	default:
		return 0;
	}
	return place_node(y, n, &ev->start_mark);
}

struct ynode *
ydoc_parse(const char *name, const char *text, size_t len, bool allow_empty,
    char *err, size_t errlen)
{
	yaml_parser_t	 p;
	yaml_event_t	 ev;
	struct yparse	 y;
	const char	*nul = memchr(text, '\0', len);
	size_t		 i;
	int		 rc = 0;

	if (nul != NULL) {
		int	line, col;

		offset_pos(text, (size_t)(nul - text), &line, &col);
		snprintf(err, errlen, "%s:%d:%d: NUL byte in input", name, line,
		    col);
		return NULL;
	}
	memset(&y, 0, sizeof y);
	y.name = name;
	y.err = err;
	y.errlen = errlen;
	if (!yaml_parser_initialize(&p)) {
		snprintf(err, errlen, "%s: cannot initialise YAML parser", name);
		return NULL;
	}
	yaml_parser_set_input_string(&p, (const unsigned char *)text, len);
	yaml_parser_set_encoding(&p, YAML_UTF8_ENCODING);
	while (rc == 0) {
		if (!yaml_parser_parse(&p, &ev)) {
			parser_err(&p, name, text, len, err, errlen);
			rc = -1;
			break;
		}
		rc = on_event(&y, &ev);
		yaml_event_delete(&ev);
	}
	yaml_parser_delete(&p);
	for (i = 0; i < YDOC_MAX_DEPTH + 2; i++)
		keyset_free(&y.keys[i]);
	if (rc < 0) {
		if (y.depth > 0)
			ynode_free(y.stack[0]);
		else if (y.root != NULL)
			ynode_free(y.root);
		return NULL;
	}
	if (y.root == NULL) {
		yaml_mark_t	m = { 0, 0, 0 };

		if (!allow_empty) {
			snprintf(err, errlen, "%s:1:1: file is empty", name);
			return NULL;
		}
		y.root = node_new(YN_MAP, &m);
	}
	return y.root;
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
