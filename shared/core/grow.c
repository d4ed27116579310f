// SPDX-License-Identifier: GPL-2.0-or-later
#include <stdint.h>
#include <stdlib.h>

#include "grow.h"

void *ks_grow_min(void *v, size_t *cap, size_t need, size_t size,
		  size_t min_cap)
{
	size_t ncap = *cap ? *cap : (min_cap ? min_cap : 16);
	void *nv;

	if (need <= *cap)
		return v;
	if (!size)
		return NULL;
	while (ncap < need) {
		if (ncap > SIZE_MAX / 2)
			return NULL;
		ncap *= 2;
	}
	if (ncap > SIZE_MAX / size)
		return NULL;
	nv = realloc(v, ncap * size);
	if (!nv)
		return NULL;
	*cap = ncap;
	return nv;
}
