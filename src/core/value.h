/*
 * value.h - typed values as SGLang sees them (None, bool, int, float, str),
 * plus "unknown" for facts nobody told us. Strings are interned, so values
 * are plain data: copy them by assignment, compare strings by pointer.
 */
#ifndef PDWIZ_VALUE_H
#define PDWIZ_VALUE_H

#include <stdbool.h>
#include <stddef.h>

/* Catalog types (argparse actions) */
enum otype { T_BOOL, T_BOOLOPT, T_INT, T_FLOAT, T_STR, T_LIST };

enum vtype { V_UNKNOWN = 0, V_NULL, V_BOOL, V_INT, V_FLOAT, V_STR, V_LIST };

struct value {
	enum vtype	 t;
	union {
		bool		 b;
		long long	 i;
		double		 f;
		const char	*s;	/* interned; for V_LIST: items joined by '\x1f' */
	} u;
};

struct buf;

#define VAL_UNKNOWN	((struct value){ .t = V_UNKNOWN })
#define VAL_NULL	((struct value){ .t = V_NULL })

struct value	val_bool(bool);
struct value	val_int(long long);
struct value	val_float(double);
struct value	val_str(const char *);		/* interns */

bool		val_truthy(struct value);	/* Python truthiness; unknown -> false */
bool		val_equal(struct value, struct value);	/* Python ==; unknown never equal */
/* Python str() / repr() into b. */
void		val_str_py(struct buf *, struct value);
void		val_repr_py(struct buf *, struct value);
/* As text for a command line / YAML (true/false, 0.8, plain strings). */
void		val_cli(struct buf *, struct value);

/* Parse s as a value of a catalog type; 0 or -1 (bad). */
int		val_parse(enum otype, const char *s, struct value *out);

#endif
