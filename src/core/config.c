/* config.c - per-server configuration with provenance. */
#include "config.h"
#include "util.h"

#include <stdlib.h>
#include <string.h>

/* Every option at its default, as config_init starts a config: made once
 * per catalog (it is copied for every config, one a server of a plan). */
static const struct slot *
default_slots(const struct catalog *ccat)
{
	/* Every catalog is allocated (never a const object), as for
	 * catalog_fit_db. */
	struct catalog	*cat = (struct catalog *)ccat;
	struct slot	*s;
	size_t		 i;

	if (cat->defaults != NULL && cat->ndefaults == cat->nopts)
		return cat->defaults;
	free(cat->defaults);
	s = xcalloc(cat->nopts + 1, sizeof *s);
	for (i = 0; i < cat->nopts; i++) {
		s[i].v = cat->opts[i].def;
		s[i].src = SRC_DEFAULT;
		s[i].rule = -1;
	}
	cat->defaults = s;
	cat->ndefaults = cat->nopts;
	return s;
}

void
config_init(struct config *c, const struct catalog *cat)
{
	c->cat = cat;
	c->sgver = SGVER_UNKNOWN;
	c->sgver_asked = SGVER_UNKNOWN;
	if (cat->nopts == 0) {
		c->s = xcalloc(0, sizeof *c->s);
		return;
	}
	c->s = xreallocarray(NULL, cat->nopts, sizeof *c->s);
	memcpy(c->s, default_slots(cat), cat->nopts * sizeof *c->s);
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

