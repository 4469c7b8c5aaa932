/* role.c - the names of the PD roles, read. */
#include "role.h"

#include <string.h>

int
role_parse(const char *name)
{
	if (name == NULL)
		return -1;
	if (strcmp(name, "prefill") == 0)
		return ROLE_PREFILL;
	if (strcmp(name, "decode") == 0)
		return ROLE_DECODE;
	if (strcmp(name, "router") == 0)
		return ROLE_ROUTER;
	return -1;
}
