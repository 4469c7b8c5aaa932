/* config.c - per-server configuration with provenance. */
#include "config.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

void
config_init(struct config *c, const struct catalog *cat)
{
	size_t	i;

	c->cat = cat;
	c->sgver = SGVER_UNKNOWN;
	c->sgver_asked = SGVER_UNKNOWN;
	c->s = xcalloc(cat->nopts, sizeof *c->s);
	for (i = 0; i < cat->nopts; i++) {
		c->s[i].v = cat->opts[i].def;
		c->s[i].src = SRC_DEFAULT;
		c->s[i].rule = -1;
	}
}

void
config_set_sgver(struct config *c, sgver_t v)
{
	bool	release;

	c->sgver = flaghist_release_as(c->cat->hist, v, &release);
	c->sgver_asked = release ? SGVER_UNKNOWN : v;
}

void
config_copy(struct config *dst, const struct config *src)
{
	if (dst->s == NULL || dst->cat != src->cat) {
		free(dst->s);
		dst->s = xmalloc(src->cat->nopts * sizeof *dst->s);
	}
	dst->cat = src->cat;
	dst->sgver = src->sgver;
	dst->sgver_asked = src->sgver_asked;
	memcpy(dst->s, src->s, src->cat->nopts * sizeof *dst->s);
}

void
config_free(struct config *c)
{
	free(c->s);
	c->s = NULL;
}

void
config_set(struct config *c, int opt, struct value v, enum source src,
    int line, int col)
{
	c->s[opt].v = v;
	c->s[opt].src = (unsigned char)src;
	c->s[opt].rule = -1;
	c->s[opt].line = line;
	c->s[opt].col = col;
}

int
config_is_set(const struct config *c, int opt)
{
	unsigned char	s = c->s[opt].src;

	return s == SRC_CLI || s == SRC_CONFIG || s == SRC_ENV ||
	    s == SRC_USER;
}

