/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one growable array.  Kernel memory decides how many tasks, symbols,
 * probes or modules there are, so every count that sizes an allocation is
 * checked for overflow here, once, instead of in each caller's loop.
 */
#ifndef KS_GROW_H
#define KS_GROW_H

#include <stddef.h>

/*
 * Room for at least need elements of size bytes in v, which holds *cap.
 * Returns v (moved if it had to grow, *cap updated) or NULL with v and *cap
 * untouched, so that the caller still owns and frees the old array.
 * Capacity doubles from min_cap (16 when 0).
 */
void *ks_grow_min(void *v, size_t *cap, size_t need, size_t size,
		  size_t min_cap);

static inline void *ks_grow(void *v, size_t *cap, size_t need, size_t size)
{
	return ks_grow_min(v, cap, need, size, 0);
}

#endif /* KS_GROW_H */
