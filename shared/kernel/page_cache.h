/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Whole pages of a slow memory source, kept until dropped.  crash's
 * readmem() costs an lseek and a read(2) per call whatever its length,
 * and the task walk and the unwinder read a few bytes at a time: through
 * this cache they pay one backend read per page they touch.
 */
#ifndef KS_PAGE_CACHE_H
#define KS_PAGE_CACHE_H

#include <stddef.h>
#include <stdint.h>

/* The backend: LEN bytes at ADDR of address space SPACE, 0 or -errno. */
typedef int (*ks_page_read_fn)(void *ctx, uint64_t addr, int space, void *buf,
			       size_t len);

struct ks_page_cache;

/*
 * A cache of NR_PAGES pages of PAGE_SIZE (a power of two) in front of
 * READ.  -EINVAL for a bad size, -ENOMEM.
 */
int ks_page_cache_new(size_t page_size, size_t nr_pages, ks_page_read_fn read,
		      void *ctx, struct ks_page_cache **cache_ret);
/*
 * LEN bytes at ADDR of SPACE.  A page that cannot be read whole is not
 * kept: the bytes asked for are then read on their own, so a read fails
 * or succeeds exactly as it would without the cache.
 */
int ks_page_cache_read(struct ks_page_cache *c, uint64_t addr, int space,
		       void *buf, size_t len);
/* Forgets every page (the memory behind may have moved). */
void ks_page_cache_drop(struct ks_page_cache *c);
void ks_page_cache_free(struct ks_page_cache *c);

#endif /* KS_PAGE_CACHE_H */
