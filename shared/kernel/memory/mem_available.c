// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * si_mem_available() and meminfo's Cached, in the kernel's signed
 * arithmetic: free pages less the reserve may go below zero before the
 * page cache and the reclaimable slab are added, and the sum is
 * clamped at zero only at the end.
 */
#include "mem_available.h"

static uint64_t min_u64(uint64_t a, uint64_t b)
{
	return a < b ? a : b;
}

uint64_t ks_mem_available(const struct ks_mem_avail_in *in)
{
	int64_t available = (int64_t)in->free - (int64_t)in->totalreserve;
	uint64_t pagecache, reclaimable;

	/* not all the page cache can be freed without thrashing */
	pagecache = in->active_file + in->inactive_file;
	pagecache -= min_u64(pagecache / 2, in->wmark_low);
	available += (int64_t)pagecache;
	/* nor all of the reclaimable slab and kernel memory */
	reclaimable = in->slab_reclaimable + in->misc_reclaimable;
	reclaimable -= min_u64(reclaimable / 2, in->wmark_low);
	available += (int64_t)reclaimable;
	return available < 0 ? 0 : (uint64_t)available;
}

uint64_t ks_mem_cached(uint64_t file_pages, uint64_t swapcache,
		       uint64_t buffers)
{
	int64_t cached = (int64_t)file_pages - (int64_t)swapcache -
			 (int64_t)buffers;

	return cached < 0 ? 0 : (uint64_t)cached;
}
