/*
 * pyval.h - values as SGLang's Python reads them: a plain YAML scalar as
 * PyYAML's safe loader resolves it (YAML 1.1), the text Python's str()
 * gives for the result, and CPython's int() and float() of a string (what
 * argparse's type=int / type=float do with a command-line word).
 */
#ifndef PDWIZ_PYVAL_H
#define PDWIZ_PYVAL_H

#include <stdbool.h>
#include <stddef.h>

enum y11_kind {
	Y11_STR,	/* a string: text is the scalar itself */
	Y11_NULL,	/* None */
	Y11_BOOL,	/* True / False */
	Y11_INT,
	Y11_FLOAT,
	Y11_DATE,	/* datetime.date; str() gives the same text */
	Y11_UNKNOWN,	/* the value Python ends with is not modelled: text says why */
	Y11_ERROR	/* yaml.safe_load raises: text is the message */
};

struct y11 {
	enum y11_kind	 kind;
	bool		 b;	/* Y11_BOOL */
	char		*text;	/* owned: str(value), or the reason/message */
};

/*
 * Resolve one scalar (quoted: quoted, block or !!str, always a string) as
 * PyYAML's SafeLoader does and write str() of the value into out->text.
 */
void	y11_resolve(const char *s, bool quoted, struct y11 *out);

/* repr() / str() of a Python float into buf (at least 32 bytes). */
void	py_float_str(double, char *buf, size_t len);

/*
 * CPython int(s) and float(s) for a str: Unicode decimal digits, one
 * underscore between digits, surrounding whitespace. Return 0 and set
 * *out; 1 when int() succeeds but the value does not fit a long long; -1
 * when Python raises ValueError.
 */
int	py_int(const char *s, long long *out);
int	py_float(const char *s, double *out);

/* The Unicode decimal digit (category Nd) UTF-8 encoded at s: 0-9 and
 * its length in *len, or -1. */
int	py_digit(const char *s, size_t *len);

#endif
