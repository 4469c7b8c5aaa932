/* deploy_cfg.c - reading one value of a server's config, by option name. */
#include "deploy/deploy_int.h"

long long
cfg_int(const struct config *c, const char *name, long long def)
{
	int	o = catalog_find(c->cat, name);

	if (o < 0 || c->s[o].v.t != V_INT)
		return def;
	return c->s[o].v.u.i;
}

/* Is the value one the script leaves to run time ($((...)), ${VAR})? */
bool
cfg_unknown(const struct config *c, const char *name)
{
	int	o = catalog_find(c->cat, name);

	return o >= 0 && c->s[o].v.t == V_UNKNOWN;
}

bool
cfg_bool(const struct config *c, const char *name)
{
	int	o = catalog_find(c->cat, name);

	return o >= 0 && c->s[o].v.t == V_BOOL && c->s[o].v.u.b;
}

const char *
cfg_str(const struct config *c, const char *name)
{
	int	o = catalog_find(c->cat, name);

	return o >= 0 && c->s[o].v.t == V_STR ? c->s[o].v.u.s : NULL;
}

/* A number the command states (int or float), else def. */
double
cfg_num(const struct config *c, const char *name, double def)
{
	int	o = catalog_find(c->cat, name);

	if (o < 0 || !config_is_set(c, o))
		return def;
	if (c->s[o].v.t == V_FLOAT)
		return c->s[o].v.u.f;
	if (c->s[o].v.t == V_INT)
		return (double)c->s[o].v.u.i;
	return def;
}
