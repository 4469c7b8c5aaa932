/* test_hashidx.c - the keyed hash and the index of strings (core/hashidx). */
#include "testutil.h"
#include "core/hashidx.h"

#include <stdio.h>
#include <string.h>

/* Keys made of the 16 blocks "Ab"/"BA" the bits of i choose: djb2 gives
 * all of them one hash. */
static void
blocks(char *out, unsigned i)
{
	int	b;

	for (b = 0; b < 16; b++, i /= 2)
		memcpy(out + 2 * b, i % 2 ? "Ab" : "BA", 2);
	out[32] = '\0';
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t	x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The djb2 collisions spread: 4,096 keys, 4,096 hashes, and their low 12
 * bits (a table of 4,096 slots) take well over half the slots. */
static void
test_spread(void **state)
{
	static uint64_t	h[4096];
	static char	used[4096];
	char		k[33];
	size_t		i, distinct = 1, slots = 0;

	(void)state;
	for (i = 0; i < 4096; i++) {
		blocks(k, (unsigned)i);
		h[i] = hash_keyed(k, 32);
		assert_int_equal(h[i], hash_keyed(k, 32));
		if (!used[h[i] & 4095])
			slots++;
		used[h[i] & 4095] = 1;
	}
	qsort(h, 4096, sizeof *h, cmp_u64);
	for (i = 1; i < 4096; i++)
		distinct += h[i] != h[i - 1];
	assert_int_equal(distinct, 4096);
	assert_true(slots > 2048);
	/* The length counts: "a" and "a\0" differ. */
	assert_true(hash_keyed("a", 1) != hash_keyed("a\0", 2));
}

struct names {
	char	 s[20000][8];
};

static const char *
name_key(const void *ctx, size_t i, size_t *len)
{
	const char	*s = ((const struct names *)ctx)->s[i];

	*len = strlen(s);
	return s;
}

/* add keeps the first of equal keys, put maps them to the newest; find
 * takes a length, not a NUL. */
static void
test_index(void **state)
{
	static struct names	 n;
	struct hidx		 x;
	size_t			 i;

	(void)state;
	hidx_init(&x, name_key, &n);
	assert_int_equal(hidx_find(&x, "k1", 2), -1);
	for (i = 0; i < 10000; i++) {
		snprintf(n.s[i], sizeof n.s[i], "k%zu", i);
		assert_int_equal(hidx_add(&x, i), -1);
	}
	for (i = 0; i < 10000; i++) {
		snprintf(n.s[10000 + i], sizeof n.s[0], "k%zu", i);
		assert_int_equal(hidx_add(&x, 10000 + i), (long)i);
	}
	assert_int_equal(hidx_find(&x, "k42", 3), 42);
	assert_int_equal(hidx_find(&x, "k42xyz", 3), 42);
	assert_int_equal(hidx_put(&x, 10042), 42);
	assert_int_equal(hidx_find(&x, "k42", 3), 10042);
	assert_int_equal(hidx_find(&x, "k10000", 6), -1);
	assert_int_equal(x.n, 10000);
	hidx_free(&x);
	assert_int_equal(hidx_find(&x, "k42", 3), -1);
}

int
main(void)
{
	const struct CMUnitTest	tests[] = {
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_index),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
