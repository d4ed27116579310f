// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The cache of -l: the text of a frame to its chain, open addressing.
 * Each distinct frame is looked up once; a dump repeats few, and a
 * hostile text of distinct frames fills it only up to MAX_CACHED.
 */
#ifndef KS_NO_LIBDW
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lines_obj.h"
#include "fnv1a.h"

#define MAX_CACHED	65536	/* distinct frames kept: memory stays flat */

struct ks_lines_ent *ks_lines_cache_slot(struct ks_lines *l, const char *key)
{
	size_t i = ks_fnv1a_str(KS_FNV1A_INIT, key) & (l->cache_cap - 1);

	while (l->cache[i].key && strcmp(l->cache[i].key, key))
		i = (i + 1) & (l->cache_cap - 1);
	return &l->cache[i];
}

static int cache_grow(struct ks_lines *l)
{
	struct ks_lines_ent *old = l->cache;
	size_t old_cap = l->cache_cap, i;

	l->cache_cap = old_cap ? old_cap * 2 : 256;
	l->cache = calloc(l->cache_cap, sizeof(*l->cache));
	if (!l->cache) {
		l->cache = old;
		l->cache_cap = old_cap;
		return -ENOMEM;
	}
	for (i = 0; i < old_cap; i++)
		if (old[i].key)
			*ks_lines_cache_slot(l, old[i].key) = old[i];
	free(old);
	return 0;
}

bool ks_lines_cache_put(struct ks_lines *l, const char *key,
			struct ks_line_chain *chain)
{
	struct ks_lines_ent *e;

	if (l->cache_used >= MAX_CACHED)
		return false;
	if ((l->cache_used + 1) * 2 > l->cache_cap && cache_grow(l))
		return false;
	e = ks_lines_cache_slot(l, key);
	e->key = strdup(key);
	if (!e->key)
		return false;
	e->chain = chain;
	l->cache_used++;
	return true;
}


void ks_lines_cache_free(struct ks_lines *l)
{
	for (size_t i = 0; i < l->cache_cap; i++) {
		free(l->cache[i].key);
		free(l->cache[i].chain);
	}
	free(l->cache);
	free(l->spare);
}
#endif /* KS_NO_LIBDW */
