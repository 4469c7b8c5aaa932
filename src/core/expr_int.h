/*
 * expr_int.h - the parsed form of expressions and templates, shared by the
 * parser/evaluator (expr.c) and the catalog image writer (expr_image.c).
 * Private to src/core.
 */
#ifndef PDWIZ_EXPR_INT_H
#define PDWIZ_EXPR_INT_H

#include <stdbool.h>
#include <stddef.h>

#include "expr.h"
#include "value.h"

enum ekind {
	E_LIT, E_NAME, E_LIST, E_NOT, E_NEG, E_AND, E_OR, E_CMP, E_ARITH,
	E_IN, E_NOTIN, E_CALL
};

enum eop { OP_EQ, OP_NE, OP_LT, OP_LE, OP_GT, OP_GE,
	OP_ADD, OP_SUB, OP_MUL, OP_DIV, OP_FDIV, OP_MOD };

enum efn { FN_LOWER, FN_UPPER, FN_CONTAINS, FN_STARTSWITH, FN_ENDSWITH,
	FN_MIN, FN_MAX, FN_INT, FN_STR, FN_LEN, FN_IS_SET, FN_STRIP,
	FN_JSON_GET, FN_JSON_STR_OBJECT, FN_LIST_MAX, FN_NPARTS,
	FN_SGLANG_AT_MOST };

struct expr {
	enum ekind	  k;
	int		  op;		/* enum eop / enum efn */
	struct value	  v;		/* E_LIT */
	int		  slot;		/* E_NAME */
	struct expr	**kids;
	size_t		  nkids;
};

struct tseg {
	const char	*lit;		/* interned literal text before expr */
	struct expr	*e;		/* NULL for a trailing literal */
	bool		 repr;
};

struct tmpl {
	struct tseg	*segs;
	size_t		 nsegs;
};

/* The number of arguments function fn (enum efn) takes, -1 for none. */
int	expr_fn_nargs(int fn);

#endif
