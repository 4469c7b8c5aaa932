/* json.h - a tiny JSON writer (always valid output, any input bytes). */
#ifndef PDWIZ_JSON_H
#define PDWIZ_JSON_H

#include <stdbool.h>

#include "core/util.h"
#include "core/value.h"

/* Append s as a JSON string literal; invalid UTF-8 becomes U+FFFD. */
void	json_str(struct buf *, const char *s);
void	json_value(struct buf *, struct value);

#endif
