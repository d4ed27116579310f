// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A direct-mapped cache of whole pages: a slot per page-sized block,
 * chosen by a hash of the page's address and its address space.  A miss
 * costs one backend read of the whole page, which is what one small read
 * cost before.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "page_cache.h"

struct cache_slot {
	uint64_t page;		/* the address of the page's first byte */
	int space;
	bool valid;
};

struct ks_page_cache {
	ks_page_read_fn read;
	void *ctx;
	size_t page_size;
	size_t nr_pages;
	struct cache_slot *slots;
	unsigned char *data;	/* slot i's page at i * page_size */
};

int ks_page_cache_new(size_t page_size, size_t nr_pages, ks_page_read_fn read,
		      void *ctx, struct ks_page_cache **cache_ret)
{
	struct ks_page_cache *c;

	*cache_ret = NULL;
	if (!page_size || page_size & (page_size - 1) || !nr_pages || !read ||
	    nr_pages > SIZE_MAX / page_size)
		return -EINVAL;
	c = calloc(1, sizeof(*c));
	if (!c)
		return -ENOMEM;
	c->read = read;
	c->ctx = ctx;
	c->page_size = page_size;
	c->nr_pages = nr_pages;
	c->slots = calloc(nr_pages, sizeof(*c->slots));
	c->data = malloc(nr_pages * page_size);
	if (!c->slots || !c->data) {
		ks_page_cache_free(c);
		return -ENOMEM;
	}
	*cache_ret = c;
	return 0;
}

static size_t slot_of(const struct ks_page_cache *c, uint64_t page, int space)
{
	uint64_t h = (page / c->page_size) * 0x9e3779b97f4a7c15ULL;

	h ^= (uint64_t)(unsigned int)space * 0xff51afd7ed558ccdULL;
	return (size_t)((h >> 32) % c->nr_pages);
}

/* The kept copy of the page at PAGE, read now if need be; NULL if the
 * page cannot be read whole. */
static const unsigned char *cached_page(struct ks_page_cache *c, uint64_t page,
					int space)
{
	size_t i = slot_of(c, page, space);
	struct cache_slot *s = &c->slots[i];
	unsigned char *data = c->data + i * c->page_size;

	if (s->valid && s->page == page && s->space == space)
		return data;
	s->valid = false;
	if (c->read(c->ctx, page, space, data, c->page_size))
		return NULL;
	s->page = page;
	s->space = space;
	s->valid = true;
	return data;
}

int ks_page_cache_read(struct ks_page_cache *c, uint64_t addr, int space,
		       void *buf, size_t len)
{
	unsigned char *out = buf;

	while (len) {
		uint64_t page = addr & ~(uint64_t)(c->page_size - 1);
		size_t off = (size_t)(addr - page);
		size_t n = c->page_size - off < len ? c->page_size - off : len;
		const unsigned char *data = cached_page(c, page, space);
		int ret;

		if (data) {
			memcpy(out, data + off, n);
		} else {
			ret = c->read(c->ctx, addr, space, out, n);
			if (ret)
				return ret;
		}
		addr += n;
		out += n;
		len -= n;
	}
	return 0;
}

void ks_page_cache_drop(struct ks_page_cache *c)
{
	if (c)
		memset(c->slots, 0, c->nr_pages * sizeof(*c->slots));
}

void ks_page_cache_free(struct ks_page_cache *c)
{
	if (!c)
		return;
	free(c->slots);
	free(c->data);
	free(c);
}
