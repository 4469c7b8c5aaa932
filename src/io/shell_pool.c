/*
 * shell_pool.c - the shell reader's growable arrays, error messages,
 * string pool and variable tables.
 */

#include "io/shell_int.h"
#include "core/hashidx.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Make room for want elements of size sz in *pp, which holds *cap. */
void
sh_grow(void **pp, size_t *cap, size_t want, size_t sz)
{
	size_t	ncap;

	if (want <= *cap)
		return;
	ncap = *cap < 8 ? 8 : *cap;
	while (ncap < want) {
		if (ncap > SIZE_MAX / 2)
			ncap = want;
		else
			ncap *= 2;
	}
	*pp = xreallocarray(*pp, ncap, sz);
	*cap = ncap;
}

void
sh_seterr(struct parser *p, int line, int col, const char *fmt, ...)
{
	va_list	ap;
	int	n;

	if (p->failed)
		return;
	p->failed = true;
	if (p->err == NULL || p->errlen == 0)
		return;
	n = snprintf(p->err, p->errlen, "%d:%d: ", line, col);
	if (n < 0 || (size_t)n >= p->errlen)
		return;
	va_start(ap, fmt);
	vsnprintf(p->err + n, p->errlen - n, fmt, ap);
	va_end(ap);
}

/* n bytes from the pool. */
char *
sh_pool_alloc(struct sh_pool *pl, size_t n)
{
	struct chunk	*c = pl->chunks, *nc;
	size_t		 cap, room;

	if (c == NULL || c->cap - c->used < n) {
		room = c == NULL ? CHUNK_MIN : c->cap >= CHUNK_SIZE / 2 ?
		    CHUNK_SIZE : c->cap * 2;
		cap = n > room / 4 ? n : room;
		nc = xmalloc(sizeof(*nc) + cap);
		nc->used = 0;
		nc->cap = cap;
		if (cap == n && c != NULL) {
			/* A big string: keep filling the current chunk. */
			nc->next = c->next;
			c->next = nc;
			if (pl->last == c)
				pl->last = nc;
		} else {
			nc->next = c;
			pl->chunks = nc;
			if (c == NULL)
				pl->last = nc;
		}
		c = nc;
	}
	c->used += n;
	return (c->data + c->used - n);
}

/* Copy s into the pool; it lives until sh_script_free. */
char *
sh_pool_str(struct sh_pool *pl, const char *s, size_t n)
{
	char	*c = sh_pool_alloc(pl, n + 1);

	if (n != 0)
		memcpy(c, s, n);
	c[n] = '\0';
	return (c);
}

struct sh_env *
sh_pool_env(struct sh_pool *pl, size_t n)
{
	struct sh_env	*e;
	void		*pp = pl->env;

	e = xreallocarray(NULL, n, sizeof(*e));
	sh_grow(&pp, &pl->capenv, pl->nenv + 1, sizeof(*pl->env));
	pl->env = pp;
	pl->env[pl->nenv++] = e;
	return (e);
}

void
sh_pool_free(struct sh_pool *pl)
{
	struct chunk	*c, *next;
	size_t		 i;

	if (pl == NULL)
		return;
	for (c = pl->chunks; c != NULL; c = next) {
		next = c->next;
		free(c);
	}
	for (i = 0; i < pl->nenv; i++)
		free(pl->env[i]);
	free(pl->env);
	free(pl);
}

/*
 * Variable tables.
 */

/* Names come from the script: hashed keyed (core/hashidx.h). */
static size_t
vt_hash(const char *s, size_t n)
{
	return ((size_t)hash_keyed(s, n));
}

size_t
sh_vt_find(const struct vtab *t, const char *name, size_t n)
{
	size_t		 h, k;
	const struct var *v;

	if (t->nslot == 0)
		return (NONE);
	h = vt_hash(name, n) & (t->nslot - 1);
	while ((k = t->slot[h]) != 0) {
		v = &t->v[k - 1];
		if (v->namelen == n && memcmp(v->name, name, n) == 0)
			return (k - 1);
		h = (h + 1) & (t->nslot - 1);
	}
	return (NONE);
}

static void
vt_rehash(struct vtab *t)
{
	size_t	i, h, ns = t->nslot == 0 ? 16 : t->nslot * 2;

	free(t->slot);
	t->slot = xcalloc(ns, sizeof(*t->slot));
	t->nslot = ns;
	for (i = 0; i < t->n; i++) {
		h = vt_hash(t->v[i].name, t->v[i].namelen) & (ns - 1);
		while (t->slot[h] != 0)
			h = (h + 1) & (ns - 1);
		t->slot[h] = i + 1;
	}
}

void
sh_vt_unlink(struct vtab *t, size_t i)
{
	struct var	*v = &t->v[i];

	if (!v->alive)
		return;
	if (v->prev != NONE)
		t->v[v->prev].next = v->next;
	else
		t->head = v->next;
	if (v->next != NONE)
		t->v[v->next].prev = v->prev;
	else
		t->tail = v->prev;
	v->alive = false;
	v->prev = v->next = NONE;
	t->nalive--;
	t->dirtygen = ++t->gen;
}

/*
 * Find or add name (a pool string or one that outlives the table) and move
 * it to the end of the order. The caller fills in the value.
 */
struct var *
sh_vt_set(struct vtab *t, const char *name, size_t n)
{
	struct var	*v;
	size_t		 i, h;
	void		*pp;

	if ((i = sh_vt_find(t, name, n)) == NONE) {
		pp = t->v;
		sh_grow(&pp, &t->cap, t->n + 1, sizeof(*t->v));
		t->v = pp;
		i = t->n++;
		v = &t->v[i];
		memset(v, 0, sizeof(*v));
		v->name = name;
		v->namelen = n;
		v->prev = v->next = NONE;
		if (t->n * 2 > t->nslot)
			vt_rehash(t);
		else {
			h = vt_hash(name, n) & (t->nslot - 1);
			while (t->slot[h] != 0)
				h = (h + 1) & (t->nslot - 1);
			t->slot[h] = i + 1;
		}
	} else
		sh_vt_unlink(t, i);
	v = &t->v[i];
	v->alive = true;
	v->del = false;
	v->prev = t->tail;
	v->next = NONE;
	if (t->tail != NONE)
		t->v[t->tail].next = i;
	else
		t->head = i;
	t->tail = i;
	t->nalive++;
	t->gen++;
	return (v);
}

void
sh_vt_free(struct vtab *t)
{
	free(t->v);
	free(t->slot);
	memset(t, 0, sizeof(*t));
}

void
sh_vt_init(struct vtab *t)
{
	memset(t, 0, sizeof(*t));
	t->head = t->tail = NONE;
}

/* An alive, not deleted variable, or NULL. */
const struct var *
sh_vt_get(const struct vtab *t, const char *name, size_t n)
{
	size_t	i = sh_vt_find(t, name, n);

	if (i == NONE || !t->v[i].alive || t->v[i].del)
		return (NULL);
	return (&t->v[i]);
}

int
sh_sglang_cap(const struct sh_script *s, char *err, size_t errlen)
{
	size_t	i, n = 0;

	for (i = 0; i < s->ncmds; i++) {
		const struct sh_cmd	*c = &s->cmds[i];

		if (c->kind != SH_SERVER && c->kind != SH_ROUTER)
			continue;
		if (++n > SH_MAX_SGLANG_CMDS) {
			snprintf(err, errlen, "%d:%d: more than %d SGLang "
			    "commands in one script (pdwiz's limit; split the "
			    "script)", c->line, c->nwords > 0 ?
			    c->words[0].col : 1, SH_MAX_SGLANG_CMDS);
			return (-1);
		}
	}
	return (0);
}
