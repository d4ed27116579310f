// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/meminfo's lines from an image, as meminfo_proc_show()
 * (fs/proc/meminfo.c) reads them: si_meminfo()'s totalram and free
 * pages, si_mem_available(), Buffers (nr_blockdev_pages()), Cached,
 * si_swapinfo()'s swap, the anon, shmem and slab node counters, and
 * hugetlb_report_meminfo()'s default hstate.  Each counter's index is
 * its enumerator in the image's types.  The vmstat items named _B take
 * bytes from their callers but are kept in pages
 * (__mod_node_page_state() shifts them), so every counter is pages.
 */
#include <errno.h>
#include <string.h>

#include "arch.h"
#include "list_walk.h"
#include "mem_available.h"
#include "member_table.h"
#include "memory_state.h"
#include "vmcoreinfo.h"

const char *const ks_mem_line_names[KS_MEM_NR_LINES] = {
	"MemTotal", "MemFree", "MemAvailable", "Buffers", "Cached",
	"SwapTotal", "SwapFree", "AnonPages", "Shmem", "Slab",
	"SReclaimable", "SUnreclaim",
};

/* the block devices' inodes at most: more is a damaged list */
#define MAX_BDEV_INODES	100000
/* atomic_long_t on the 64-bit kernels kstack reads */
#define ATOMIC_LONG	8

static int page_shift(const struct ks_target *t, struct ks_memory *m,
		      const struct ks_reporter *rep)
{
	const struct ks_vmcoreinfo vi = { t->ops->vmcoreinfo, t->ctx };
	int64_t size = 0;

	/* VMCOREINFO's PAGESIZE, else the one size the architecture has */
	if (!t->ops->vmcoreinfo ||
	    ks_vmcoreinfo_number(&vi, "PAGESIZE", 10, &size))
		size = t->arch ? (int64_t)t->arch->page_sizes : 0;
	if (size < 1024 || (size & (size - 1))) {
		ks_say(rep, KS_WARN, "the page size is unknown (no PAGESIZE in VMCOREINFO)");
		return -ENOENT;
	}
	m->page_shift = (unsigned int)__builtin_ctzll((uint64_t)size);
	return 0;
}

/* A long the kernel reads as a page count: below 0 is 0, as its readers clamp. */
static int read_count(const struct ks_target *t, uint64_t addr, uint64_t *ret)
{
	int64_t v;

	if (ks_read(t, addr, &v, sizeof(v)))
		return -EFAULT;
	*ret = v < 0 ? 0 : (uint64_t)v;
	return 0;
}

static int symbol_count(const struct ks_target *t, const char *name,
			uint64_t *ret, const struct ks_reporter *rep)
{
	uint64_t addr;

	if (t->ops->symbol(t->ctx, name, &addr)) {
		ks_say(rep, KS_WARN, "no symbol %s", name);
		return -ENOENT;
	}
	if (read_count(t, addr, ret)) {
		ks_say(rep, KS_WARN, "%s at %#llx is not in the image", name,
		       (unsigned long long)addr);
		return -EFAULT;
	}
	return 0;
}

/*
 * global_zone_page_state() and global_node_page_state_pages(): the
 * global counter array's entry of item, its index from enum type.
 */
static int vm_stat(const struct ks_target *t, const char *array,
		   const char *type, const char *item, uint64_t *ret,
		   const struct ks_reporter *rep)
{
	long long idx;
	uint64_t addr;

	if (ks_enum_value(t, type, item, &idx) || idx < 0 || idx > 255) {
		ks_say(rep, KS_WARN, "no enumerator %s of enum %s in this kernel's types",
		       item, type);
		return -ENOENT;
	}
	if (t->ops->symbol(t->ctx, array, &addr)) {
		ks_say(rep, KS_WARN, "no symbol %s", array);
		return -ENOENT;
	}
	addr += (uint64_t)idx * ATOMIC_LONG;
	if (read_count(t, addr, ret)) {
		ks_say(rep, KS_WARN, "%s[%s] at %#llx is not in the image",
		       array, item, (unsigned long long)addr);
		return -EFAULT;
	}
	return 0;
}

static int node_stat(const struct ks_target *t, const char *item,
		     uint64_t *ret, const struct ks_reporter *rep)
{
	return vm_stat(t, "vm_node_stat", "node_stat_item", item, ret, rep);
}

/* totalram_pages(): _totalram_pages since 5.0, totalram_pages before */
static int totalram(const struct ks_target *t, uint64_t *ret,
		    const struct ks_reporter *rep)
{
	uint64_t addr;

	if (!t->ops->symbol(t->ctx, "_totalram_pages", &addr))
		return symbol_count(t, "_totalram_pages", ret, rep);
	if (!t->ops->symbol(t->ctx, "totalram_pages", &addr))
		return symbol_count(t, "totalram_pages", ret, rep);
	ks_say(rep, KS_WARN, "no symbol _totalram_pages or totalram_pages");
	return -ENOENT;
}

static void set_kb(struct ks_memory *m, enum ks_mem_line line, int err,
		   uint64_t pages)
{
	if (err)
		return;
	m->known[line] = true;
	m->kb[line] = pages << (m->page_shift - 10);
}

struct bdev_walk {
	const struct ks_target *t;
	struct ks_field sb_list, mapping, nrpages;
	uint64_t pages;
	int err;
};

static int bdev_inode(void *arg, uint64_t node)
{
	struct bdev_walk *w = arg;
	uint64_t inode = node - (uint64_t)w->sb_list.off, mapping, n;

	if (ks_field_read(w->t, inode, &w->mapping, 8, &mapping) ||
	    ks_field_read(w->t, mapping, &w->nrpages, 8, &n)) {
		w->err = -EFAULT;
		return -EFAULT;
	}
	w->pages += n;
	return 0;
}

/* nr_blockdev_pages(): the pages of every block device's mapping */
static int buffers(const struct ks_target *t, uint64_t *ret,
		   const struct ks_reporter *rep)
{
	struct bdev_walk w = { .t = t };
	struct ks_field s_inodes;
	const struct ks_field_spec specs[] = {
		KS_NEED(&s_inodes, "super_block", "s_inodes"),
		KS_NEED(&w.sb_list, "inode", "i_sb_list"),
		KS_NEED(&w.mapping, "inode", "i_mapping"),
		KS_NEED(&w.nrpages, "address_space", "nrpages"),
	};
	struct ks_list_state ls = { .t = t, .max = MAX_BDEV_INODES };
	uint64_t sym, sb;

	if (ks_field_table_report(t, specs, sizeof(specs) / sizeof(specs[0]), rep))
		return -ENOENT;
	if (t->ops->symbol(t->ctx, "blockdev_superblock", &sym) ||
	    ks_read_u64(t, sym, &sb) || !sb) {
		ks_say(rep, KS_WARN, "blockdev_superblock cannot be read: Buffers is unknown");
		return -ENOENT;
	}
	if (ks_list_for_each(&ls, sb + (uint64_t)s_inodes.off, bdev_inode, &w) ||
	    w.err) {
		ks_say(rep, KS_WARN, "a block device's inode at %#llx cannot be read: Buffers is unknown",
		       (unsigned long long)ls.last);
		return -EFAULT;
	}
	if (ls.stop != KS_LIST_END) {
		ks_list_stop_say(rep, &ls, "the block devices' inodes");
		return -EFAULT;
	}
	*ret = w.pages;
	return 0;
}

/*
 * total_swapcache_pages(): NR_SWAPCACHE where the kernel counts it
 * (5.14); before, the swapper spaces' pages, none without a swap file.
 */
static int swapcache(const struct ks_target *t, uint64_t *ret,
		     const struct ks_reporter *rep)
{
	long long idx;
	uint64_t addr;
	uint32_t files;

	if (!ks_enum_value(t, "node_stat_item", "NR_SWAPCACHE", &idx))
		return node_stat(t, "NR_SWAPCACHE", ret, rep);
	if (!t->ops->symbol(t->ctx, "nr_swapfiles", &addr) &&
	    !ks_read(t, addr, &files, sizeof(files)) && !files) {
		*ret = 0;
		return 0;
	}
	ks_say(rep, KS_WARN, "the swap cache is not read before NR_SWAPCACHE with swap on: Cached is unknown");
	return -ENOENT;
}

/* Every line but MemAvailable. */
static void read_lines(const struct ks_target *t, struct ks_memory *m,
		       const struct ks_reporter *rep)
{
	uint64_t v, file, sc, buf, srec, sunrec;
	int err, ferr, berr;

	err = totalram(t, &v, rep);
	set_kb(m, KS_MEM_TOTAL, err, v);
	err = vm_stat(t, "vm_zone_stat", "zone_stat_item", "NR_FREE_PAGES",
		      &v, rep);
	set_kb(m, KS_MEM_FREE, err, v);
	berr = buffers(t, &buf, rep);
	set_kb(m, KS_MEM_BUFFERS, berr, buf);
	ferr = node_stat(t, "NR_FILE_PAGES", &file, rep);
	if (!ferr && !berr && !swapcache(t, &sc, rep))
		set_kb(m, KS_MEM_CACHED, 0, ks_mem_cached(file, sc, buf));
	err = symbol_count(t, "total_swap_pages", &v, rep);
	set_kb(m, KS_MEM_SWAP_TOTAL, err, v);
	err = symbol_count(t, "nr_swap_pages", &v, rep);
	set_kb(m, KS_MEM_SWAP_FREE, err, v);
	err = node_stat(t, "NR_ANON_MAPPED", &v, rep);
	set_kb(m, KS_MEM_ANON, err, v);
	err = node_stat(t, "NR_SHMEM", &v, rep);
	set_kb(m, KS_MEM_SHMEM, err, v);
	err = node_stat(t, "NR_SLAB_RECLAIMABLE_B", &srec, rep);
	set_kb(m, KS_MEM_SRECLAIMABLE, err, srec);
	ferr = node_stat(t, "NR_SLAB_UNRECLAIMABLE_B", &sunrec, rep);
	set_kb(m, KS_MEM_SUNRECLAIM, ferr, sunrec);
	set_kb(m, KS_MEM_SLAB, err || ferr, srec + sunrec);
}

/* The members low_wmark_pages() reads, and the zones of a node. */
struct zone_fields {
	struct ks_field node_zones, watermark, boost;
	long zone_size, nr_zones;
	long long wmark_low;
};

static int zone_fields(const struct ks_target *t, struct zone_fields *z,
		       const struct ks_reporter *rep)
{
	const struct ks_field_spec specs[] = {
		KS_NEED(&z->node_zones, "pglist_data", "node_zones"),
		/* _watermark since 5.0, with watermark_boost beside it */
		KS_NEED_AS(&z->watermark, "zone", "_watermark", "watermark", 0),
		KS_OPTIONAL(&z->boost, "zone", "watermark_boost"),
	};

	if (ks_field_table_report(t, specs, sizeof(specs) / sizeof(specs[0]), rep))
		return -ENOENT;
	if (ks_enum_value(t, "zone_watermarks", "WMARK_LOW", &z->wmark_low) ||
	    z->wmark_low < 0 || (z->wmark_low + 1) * 8 > z->watermark.size) {
		ks_say(rep, KS_WARN, "no enumerator WMARK_LOW of enum zone_watermarks in this kernel's types");
		return -ENOENT;
	}
	z->zone_size = t->ops->type_size(t->ctx, "zone");
	if (z->zone_size <= 0 || z->node_zones.size < z->zone_size) {
		ks_say(rep, KS_WARN, "the size of struct zone is unknown");
		return -ENOENT;
	}
	z->nr_zones = z->node_zones.size / z->zone_size;
	return 0;
}

/* low_wmark_pages() of every zone of the node at pgdat, added to *sum */
static int node_wmark_low(const struct ks_target *t, const struct zone_fields *z,
			  uint64_t pgdat, uint64_t *sum)
{
	for (long i = 0; i < z->nr_zones; i++) {
		uint64_t zone = pgdat + (uint64_t)z->node_zones.off +
				(uint64_t)(i * z->zone_size);
		uint64_t low, boost = 0;

		if (ks_read_u64(t, zone + (uint64_t)z->watermark.off +
				   (uint64_t)z->wmark_low * 8, &low) ||
		    (ks_field_ok(&z->boost) &&
		     ks_field_read(t, zone, &z->boost, 8, &boost)))
			return -EFAULT;
		*sum += low + boost;
	}
	return 0;
}

/* for_each_zone(): node_data[] of a NUMA kernel, else contig_page_data */
static int wmark_low(const struct ks_target *t, uint64_t *ret,
		     const struct ks_reporter *rep)
{
	struct zone_fields z;
	uint64_t nodes, nr_addr, pgdat;
	uint32_t nr = 1;

	if (zone_fields(t, &z, rep))
		return -ENOENT;
	*ret = 0;
	if (t->ops->symbol(t->ctx, "node_data", &nodes)) {
		if (!t->ops->symbol(t->ctx, "contig_page_data", &pgdat) &&
		    !node_wmark_low(t, &z, pgdat, ret))
			return 0;
		ks_say(rep, KS_WARN, "no node_data or contig_page_data: the watermarks are unknown");
		return -ENOENT;
	}
	if (!t->ops->symbol(t->ctx, "nr_node_ids", &nr_addr) &&
	    (ks_read(t, nr_addr, &nr, 4) || !nr || nr > 1024)) {
		ks_say(rep, KS_WARN, "nr_node_ids cannot be read: the watermarks are unknown");
		return -EFAULT;
	}
	for (uint32_t i = 0; i < nr; i++) {
		/* a node never brought up has no pglist_data */
		if (ks_read_u64(t, nodes + i * 8ull, &pgdat) ||
		    (pgdat && node_wmark_low(t, &z, pgdat, ret))) {
			ks_say(rep, KS_WARN, "node %u's zones are not in the image", i);
			return -EFAULT;
		}
	}
	return 0;
}

static void read_available(const struct ks_target *t, struct ks_memory *m,
			   const struct ks_reporter *rep)
{
	struct ks_mem_avail_in in = { 0 };

	if (vm_stat(t, "vm_zone_stat", "zone_stat_item", "NR_FREE_PAGES",
		    &in.free, rep) ||
	    symbol_count(t, "totalreserve_pages", &in.totalreserve, rep) ||
	    wmark_low(t, &in.wmark_low, rep) ||
	    node_stat(t, "NR_ACTIVE_FILE", &in.active_file, rep) ||
	    node_stat(t, "NR_INACTIVE_FILE", &in.inactive_file, rep) ||
	    node_stat(t, "NR_SLAB_RECLAIMABLE_B", &in.slab_reclaimable, rep) ||
	    node_stat(t, "NR_KERNEL_MISC_RECLAIMABLE", &in.misc_reclaimable, rep))
		return;
	set_kb(m, KS_MEM_AVAILABLE, 0, ks_mem_available(&in));
}

/* hugetlb_report_meminfo()'s default hstate: hstates[default_hstate_idx] */
static int read_huge(const struct ks_target *t, struct ks_memory *m,
		     const struct ks_reporter *rep)
{
	struct ks_field total, freep, order;
	const struct ks_field_spec specs[] = {
		KS_NEED(&total, "hstate", "nr_huge_pages"),
		KS_NEED(&freep, "hstate", "free_huge_pages"),
		KS_NEED(&order, "hstate", "order"),
	};
	uint64_t hstates, idx_addr, max_addr, idx = 0, max = 0, o;
	long size = t->ops->type_size(t->ctx, "hstate");

	/* a kernel without CONFIG_HUGETLBFS prints no HugePages lines */
	if (t->ops->symbol(t->ctx, "hstates", &hstates))
		return -ENOENT;
	if (size <= 0 || ks_field_table_report(t, specs, 3, rep))
		return -EINVAL;
	if (t->ops->symbol(t->ctx, "default_hstate_idx", &idx_addr) ||
	    t->ops->symbol(t->ctx, "hugetlb_max_hstate", &max_addr) ||
	    ks_read(t, idx_addr, &idx, 4) || ks_read(t, max_addr, &max, 4)) {
		ks_say(rep, KS_WARN, "default_hstate_idx cannot be read: the huge pages are unknown");
		return -EFAULT;
	}
	/* no hstate registered: for_each_hstate() prints nothing */
	if (!(uint32_t)max || (uint32_t)idx >= (uint32_t)max)
		return -ENOENT;
	hstates += (uint32_t)idx * (uint64_t)size;
	if (ks_field_read(t, hstates, &total, 8, &m->huge_total) ||
	    ks_field_read(t, hstates, &freep, 8, &m->huge_free) ||
	    ks_field_read(t, hstates, &order, 4, &o) || o > 30) {
		ks_say(rep, KS_WARN, "hstates[%u] at %#llx is not in the image",
		       (uint32_t)idx, (unsigned long long)hstates);
		return -EFAULT;
	}
	m->huge_page_kb = 1ull << (o + m->page_shift - 10);
	return 0;
}

void ks_memory_read(const struct ks_target *t, struct ks_memory *m,
		    const struct ks_reporter *rep,
		    const struct ks_reporter *slab_rep)
{
	memset(m, 0, sizeof(*m));
	m->page_err = page_shift(t, m, rep);
	m->huge_err = -ENOENT;
	m->slab_err = m->page_err;
	if (m->page_err)
		return;
	read_lines(t, m, rep);
	read_available(t, m, rep);
	m->huge_err = read_huge(t, m, rep);
	ks_memory_slabs(t, m, slab_rep);
}
