/* hashidx.c - SipHash-1-3 under a per-process key; an index of strings. */
#define _POSIX_C_SOURCE 200809L
#include "hashidx.h"
#include "util.h"

#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <time.h>
#include <unistd.h>

#define ROTL(x, b)	(uint64_t)(((x) << (b)) | ((x) >> (64 - (b))))

static uint64_t	hkey[2];
static bool	hkeyed;

static inline void
sipround(uint64_t *v)
{
	v[0] += v[1];
	v[1] = ROTL(v[1], 13) ^ v[0];
	v[0] = ROTL(v[0], 32);
	v[2] += v[3];
	v[3] = ROTL(v[3], 16) ^ v[2];
	v[0] += v[3];
	v[3] = ROTL(v[3], 21) ^ v[0];
	v[2] += v[1];
	v[1] = ROTL(v[1], 17) ^ v[2];
	v[2] = ROTL(v[2], 32);
}

/* The n (< 8) bytes at p as a little-endian number. */
static uint64_t
le64(const unsigned char *p, size_t n)
{
	uint64_t	m = 0;
	size_t		i;

	for (i = n; i-- > 0;)
		m = m << 8 | p[i];
	return m;
}

/* The 8 bytes at p as a little-endian number: one load where the machine
 * is little-endian (the compiler folds the memcpy). */
static inline uint64_t
le64_8(const unsigned char *p)
{
	uint64_t	m;

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
	memcpy(&m, p, sizeof m);
#else
	m = le64(p, 4) | le64(p + 4, 4) << 32;
#endif
	return m;
}

static uint64_t
siphash13(const uint64_t *k, const unsigned char *p, size_t len)
{
	uint64_t	v[4], m;
	size_t		i;

	v[0] = k[0] ^ 0x736f6d6570736575ULL;
	v[1] = k[1] ^ 0x646f72616e646f6dULL;
	v[2] = k[0] ^ 0x6c7967656e657261ULL;
	v[3] = k[1] ^ 0x7465646279746573ULL;
	for (i = 0; i + 8 <= len; i += 8) {
		m = le64_8(p + i);
		v[3] ^= m;
		sipround(v);
		v[0] ^= m;
	}
	m = (uint64_t)len << 56 | le64(p + i, len - i);
	v[3] ^= m;
	sipround(v);
	v[0] ^= m;
	v[2] ^= 0xff;
	sipround(v);
	sipround(v);
	sipround(v);
	return v[0] ^ v[1] ^ v[2] ^ v[3];
}

/* The process's key: from the kernel, else from what differs per run. */
static void
hash_seed(void)
{
	struct timespec	 ts = { 0, 0 };
	uint64_t	 mix[5], k0[2] = { 0x5eed, 0x9e3779b97f4a7c15ULL };

	hkeyed = true;
	if (getrandom(hkey, sizeof hkey, GRND_NONBLOCK) == (ssize_t)sizeof hkey)
		return;
	clock_gettime(CLOCK_REALTIME, &ts);
	mix[0] = (uint64_t)ts.tv_sec;
	mix[1] = (uint64_t)ts.tv_nsec;
	mix[2] = (uint64_t)getpid();
	mix[3] = (uint64_t)(uintptr_t)&ts;
	mix[4] = (uint64_t)(uintptr_t)hkey;
	hkey[0] = siphash13(k0, (const unsigned char *)mix, sizeof mix);
	mix[0] ^= hkey[0];
	hkey[1] = siphash13(k0, (const unsigned char *)mix, sizeof mix);
}

uint64_t
hash_keyed(const void *s, size_t len)
{
	if (!hkeyed)
		hash_seed();
	return siphash13(hkey, s, len);
}

void
hidx_init(struct hidx *x, hidx_keyof keyof, const void *ctx)
{
	memset(x, 0, sizeof *x);
	x->keyof = keyof;
	x->ctx = ctx;
}

void
hidx_free(struct hidx *x)
{
	free(x->slot);
	x->slot = NULL;
	x->cap = x->n = 0;
}

static bool
hidx_eq(const struct hidx *x, size_t item, const char *s, size_t len)
{
	size_t		 n;
	const char	*k = x->keyof(x->ctx, item, &n);

	return n == len && memcmp(k, s, len) == 0;
}

static void
hidx_grow(struct hidx *x)
{
	struct hidx_slot	*old = x->slot;
	size_t			 ocap = x->cap, i, j;

	x->cap = ocap ? ocap * 2 : 16;
	x->slot = xcalloc(x->cap, sizeof *x->slot);
	for (i = 0; i < ocap; i++) {
		if (old[i].item == 0)
			continue;
		for (j = old[i].h & (x->cap - 1); x->slot[j].item != 0;
		    j = (j + 1) & (x->cap - 1))
			;
		x->slot[j] = old[i];
	}
	free(old);
}

/* The slot of s[0..len) (hash h): the one holding it, or the free one
 * where it goes. x has slots. */
static size_t
hidx_probe(const struct hidx *x, const char *s, size_t len, uint64_t h)
{
	size_t	j;

	for (j = h & (x->cap - 1); x->slot[j].item != 0;
	    j = (j + 1) & (x->cap - 1))
		if (x->slot[j].h == h && hidx_eq(x, x->slot[j].item - 1, s,
		    len))
			break;
	return j;
}

long
hidx_find(const struct hidx *x, const char *s, size_t len)
{
	size_t	j;

	if (x->n == 0)
		return -1;
	j = hidx_probe(x, s, len, hash_keyed(s, len));
	return (long)x->slot[j].item - 1;
}

/* Insert item, or with replace map an equal key to it; the item the key
 * mapped to before, or -1. */
static long
hidx_insert(struct hidx *x, size_t item, bool replace)
{
	size_t		 len, j;
	const char	*s = x->keyof(x->ctx, item, &len);
	uint64_t	 h = hash_keyed(s, len);
	long		 prev;

	if ((x->n + 1) * 2 > x->cap)
		hidx_grow(x);
	j = hidx_probe(x, s, len, h);
	if (x->slot[j].item != 0) {
		prev = (long)x->slot[j].item - 1;
		if (replace)
			x->slot[j].item = item + 1;
		return prev;
	}
	x->slot[j].h = h;
	x->slot[j].item = item + 1;
	x->n++;
	return -1;
}

long
hidx_add(struct hidx *x, size_t item)
{
	return hidx_insert(x, item, false);
}

long
hidx_put(struct hidx *x, size_t item)
{
	return hidx_insert(x, item, true);
}
