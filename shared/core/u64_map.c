// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * u64_map.h's map: linear probing from a multiplicative hash of the key
 * (addresses share their low bits), doubled before it is half full.
 */
#include <errno.h>
#include <stdlib.h>

#include "u64_map.h"

static size_t slot_of(const struct ks_u64_map *m, uint64_t key)
{
	size_t i = (size_t)(key * 0x9e3779b97f4a7c15ull) & (m->cap - 1);

	while (m->key[i] && m->key[i] != key)
		i = (i + 1) & (m->cap - 1);
	return i;
}

static int grow(struct ks_u64_map *m)
{
	struct ks_u64_map n = { .cap = m->cap ? 2 * m->cap : 256 };

	n.key = calloc(n.cap, sizeof(*n.key));
	n.val = malloc(n.cap * sizeof(*n.val));
	if (!n.key || !n.val) {
		free(n.key);
		free(n.val);
		return -ENOMEM;
	}
	for (size_t i = 0; i < m->cap; i++) {
		size_t j;

		if (!m->key[i])
			continue;
		j = slot_of(&n, m->key[i]);
		n.key[j] = m->key[i];
		n.val[j] = m->val[i];
	}
	n.nr = m->nr;
	ks_u64_map_release(m);
	*m = n;
	return 0;
}

int ks_u64_map_put(struct ks_u64_map *m, uint64_t key, uint64_t val)
{
	size_t i;

	if (2 * (m->nr + 1) > m->cap && grow(m))
		return -ENOMEM;
	i = slot_of(m, key);
	if (m->key[i])
		return 0;
	m->key[i] = key;
	m->val[i] = val;
	m->nr++;
	return 0;
}

bool ks_u64_map_get(const struct ks_u64_map *m, uint64_t key,
		    uint64_t *val_ret)
{
	size_t i;

	if (!m->cap)
		return false;
	i = slot_of(m, key);
	if (!m->key[i])
		return false;
	*val_ret = m->val[i];
	return true;
}

void ks_u64_map_release(struct ks_u64_map *m)
{
	free(m->key);
	free(m->val);
	m->key = m->val = NULL;
	m->cap = m->nr = 0;
}
