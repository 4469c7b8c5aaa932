/*
 * pyrepr.h - Python's repr() of a value read back: what SGLang logs as
 * server_args=ServerArgs(model_path='...', tp_size=8, ...), a dataclass
 * repr whose fields are strings (with escapes), ints, floats, None,
 * True/False, lists, tuples, sets, dicts and other reprs nested.
 *
 * A reader, not an evaluator: a call Name(...) is kept as a call with its
 * positional and keyword arguments, a dotted name (torch.bfloat16) as a
 * name, and what repr() writes for objects without a literal form
 * (<LoadFormat.AUTO: 'auto'>, <object at 0x7f...>, ...) as an opaque
 * value, so that one field pdwiz cannot use never costs the others.
 */
#ifndef PDWIZ_PYREPR_H
#define PDWIZ_PYREPR_H

#include <stdbool.h>
#include <stddef.h>

enum pyk {
	PY_NONE, PY_BOOL, PY_INT, PY_FLOAT, PY_STR, PY_BYTES,
	PY_LIST, PY_TUPLE, PY_SET, PY_DICT,
	PY_CALL,	/* Name(args): s the callee, items the arguments */
	PY_NAME,	/* a bare (dotted) name: s */
	PY_OTHER	/* <...>, ..., or text pdwiz cannot read: s the text */
};

struct pyv {
	enum pyk	  k;
	bool		  b;		/* PY_BOOL */
	char		 *s;		/* PY_STR / PY_BYTES: the decoded text
					   (UTF-8; n bytes, may hold NUL);
					   PY_INT / PY_FLOAT: the literal as
					   written; PY_CALL / PY_NAME: the name;
					   PY_OTHER: the text */
	size_t		  n;		/* length of s */
	struct pyv	**items;	/* containers, call arguments; PY_DICT:
					   key, value, key, value, ... */
	char		**names;	/* PY_CALL: keyword of each argument
					   (NULL: positional); else NULL */
	size_t		  nitems;
	size_t		  off;		/* where it starts in the text */
};

#define PYREPR_MAX_DEPTH	200

/*
 * Read one value from text[0..len) starting at *pos (leading spaces
 * skipped); *pos is left past it. Returns the value, NULL when nothing
 * could be read at all. *cut is set when the text ends inside the value
 * (a line an operator cut short): what was read before is kept, and err
 * says where. Malformed parts become PY_OTHER and reading goes on.
 */
struct pyv	*pyrepr_parse(const char *text, size_t len, size_t *pos,
		    bool *cut, char *err, size_t errlen);
void		 pyv_free(struct pyv *);

/* The keyword argument name of a call, or NULL. */
const struct pyv *pyv_kwarg(const struct pyv *call, const char *name);

#endif
