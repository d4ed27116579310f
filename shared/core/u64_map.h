/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A map of 64-bit keys (not 0) to 64-bit values, open addressing at most
 * half full: what a walk learned of an address, kept for the next one
 * that asks (--waits' rings and wait lists, lock_wait.c).
 */
#ifndef KS_U64_MAP_H
#define KS_U64_MAP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ks_u64_map {
	uint64_t *key;
	uint64_t *val;
	size_t cap, nr;
};

/* 0, or -ENOMEM; a key added twice keeps its first value. */
int ks_u64_map_put(struct ks_u64_map *m, uint64_t key, uint64_t val);
/* Whether key is in m, and its value into *val_ret. */
bool ks_u64_map_get(const struct ks_u64_map *m, uint64_t key,
		    uint64_t *val_ret);
void ks_u64_map_release(struct ks_u64_map *m);

#endif /* KS_U64_MAP_H */
