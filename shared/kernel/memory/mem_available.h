/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * /proc/meminfo's arithmetic over counters already read: MemAvailable
 * as si_mem_available() (mm/show_mem.c, mm/page_alloc.c before 6.2)
 * estimates it, and Cached as meminfo_proc_show() (fs/proc/meminfo.c)
 * derives it.  Pure: the walker (memory_state.c) reads, this computes.
 */
#ifndef KS_MEM_AVAILABLE_H
#define KS_MEM_AVAILABLE_H

#include <stdint.h>

/* The counters si_mem_available() reads, all in pages. */
struct ks_mem_avail_in {
	uint64_t free;			/* NR_FREE_PAGES */
	uint64_t totalreserve;		/* totalreserve_pages */
	uint64_t wmark_low;		/* every zone's low_wmark_pages(), summed */
	uint64_t active_file, inactive_file;	/* NR_ACTIVE_FILE, NR_INACTIVE_FILE */
	uint64_t slab_reclaimable;	/* NR_SLAB_RECLAIMABLE_B, kept in pages */
	uint64_t misc_reclaimable;	/* NR_KERNEL_MISC_RECLAIMABLE */
};

/* si_mem_available(): pages, never below 0. */
uint64_t ks_mem_available(const struct ks_mem_avail_in *in);

/* meminfo's Cached: NR_FILE_PAGES less the swap cache and Buffers, >= 0. */
uint64_t ks_mem_cached(uint64_t file_pages, uint64_t swapcache,
		       uint64_t buffers);

#endif /* KS_MEM_AVAILABLE_H */
