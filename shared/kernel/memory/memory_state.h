/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The memory of a kernel image as /proc/meminfo would have shown it
 * there, and its largest slab caches as /proc/slabinfo counts them.
 * The numbers are the global counters (vm_zone_stat[], vm_node_stat[],
 * _totalram_pages, nr_swap_pages, hstates[]) that meminfo_proc_show()
 * reads too, without the per-CPU differences not yet folded into them;
 * each counter's index is its enumerator in the image's types (enum
 * zone_stat_item, enum node_stat_item), never a number kept here.
 * Each line is read on its own and says on its own why it is missing;
 * only through struct ks_target.  The triage writes it.
 */
#ifndef KS_MEMORY_STATE_H
#define KS_MEMORY_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "target.h"

/* The lines of /proc/meminfo kept, in its order. */
enum ks_mem_line {
	KS_MEM_TOTAL, KS_MEM_FREE, KS_MEM_AVAILABLE, KS_MEM_BUFFERS,
	KS_MEM_CACHED, KS_MEM_SWAP_TOTAL, KS_MEM_SWAP_FREE, KS_MEM_ANON,
	KS_MEM_SHMEM, KS_MEM_SLAB, KS_MEM_SRECLAIMABLE, KS_MEM_SUNRECLAIM,
	KS_MEM_NR_LINES
};

/* "MemTotal", "MemFree"...: meminfo's name of each line */
extern const char *const ks_mem_line_names[KS_MEM_NR_LINES];

#define KS_MEM_TOP_SLABS	10
#define KS_MEM_SLAB_NAME	64

struct ks_mem_slab {
	char name[KS_MEM_SLAB_NAME];
	uint64_t bytes;			/* its slabs' pages */
	uint64_t slabs, objects;	/* nr_slabs, total_objects of its nodes */
	uint64_t object_size;		/* kmem_cache.size */
};

struct ks_memory {
	int page_err;			/* 0, or why the page size is unknown */
	unsigned int page_shift;
	bool known[KS_MEM_NR_LINES];
	uint64_t kb[KS_MEM_NR_LINES];
	int huge_err;			/* -ENOENT: no hugetlb in the kernel */
	uint64_t huge_total, huge_free, huge_page_kb;	/* the default hstate's */
	int slab_err;			/* 0, or why no slab cache was counted */
	struct ks_mem_slab top[KS_MEM_TOP_SLABS];	/* largest first */
	size_t nr_top;
	size_t nr_caches;		/* the caches of slab_caches read */
};

/*
 * Fills m.  What meminfo's lines cannot read is said through rep, what
 * the slab caches cannot through slab_rep (each may be NULL), and kept
 * as the line unknown or slab_err.
 */
void ks_memory_read(const struct ks_target *t, struct ks_memory *m,
		    const struct ks_reporter *rep,
		    const struct ks_reporter *slab_rep);

/* Keeps c among m's KS_MEM_TOP_SLABS largest, largest first (slab_top.c). */
void ks_memory_keep_top(struct ks_memory *m, const struct ks_mem_slab *c);

/* The slab caches' part of ks_memory_read() (slab_top.c). */
void ks_memory_slabs(const struct ks_target *t, struct ks_memory *m,
		     const struct ks_reporter *rep);

#endif /* KS_MEMORY_STATE_H */
