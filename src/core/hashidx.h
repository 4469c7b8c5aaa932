/*
 * hashidx.h - a keyed hash, and an index of strings kept elsewhere.
 *
 * Every table built from input hashes with hash_keyed: SipHash-1-3 under
 * a key drawn once per process (getrandom(2); failing that, the time, the
 * process id and an address), so no file can be written whose keys all
 * land in one slot, as the blocks "Ab" and "BA" do under djb2. Tables
 * written into the catalog image hash with str_hash (util.h) instead:
 * they must read the same in every process, and hold no input.
 *
 * A struct hidx maps strings to the caller's item numbers; the strings
 * stay in the caller's items, which keyof reads back (ctx is what holds
 * them, not the items themselves: they may move as the caller grows them).
 */
#ifndef PDWIZ_HASHIDX_H
#define PDWIZ_HASHIDX_H

#include <stddef.h>
#include <stdint.h>

uint64_t	 hash_keyed(const void *, size_t);

/* The key string of item i of ctx, its length in *len. */
typedef const char *(*hidx_keyof)(const void *ctx, size_t i, size_t *len);

struct hidx_slot {
	uint64_t	 h;
	size_t		 item;		/* item + 1; 0: free */
};

struct hidx {
	struct hidx_slot *slot;
	size_t		  cap, n;
	hidx_keyof	  keyof;
	const void	 *ctx;
};

/* An empty index (no allocation until the first add). */
void	hidx_init(struct hidx *, hidx_keyof, const void *ctx);
void	hidx_free(struct hidx *);
/* The item whose key is s[0..len), or -1. */
long	hidx_find(const struct hidx *, const char *s, size_t len);
/* Add item unless an equal key is in: that key's item, else -1. */
long	hidx_add(struct hidx *, size_t item);
/* Map item's key to item (the newest wins); the item it mapped to
 * before, or -1. */
long	hidx_put(struct hidx *, size_t item);

#endif
