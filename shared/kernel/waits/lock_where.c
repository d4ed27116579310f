// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where a lock lies (lock_where.h).  A symbol first, as kallsyms_lookup()
 * names the address.  Else, for an address of the direct map
 * (page_offset_base, below max_pfn), its page in the vmemmap
 * (vmemmap_base), that page's head (compound_head(): bit 0 of
 * page.compound_head; 7.x's compound_info for a head or order-0 page
 * only) and the slab_cache of the head's struct slab
 * (page.slab_cache before 5.17): believed only when it is one of the
 * caches on the slab_caches list, read once, so a page that is no slab
 * page names nothing.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "kernel_string.h"
#include "list_walk.h"
#include "grow.h"
#include "lock_where.h"
#include "member_table.h"

#define PAGE_SHIFT	12
/* More slab caches than any kernel makes: the list is damaged. */
#define MAX_CACHES	65536

struct ks_lock_where {
	const struct ks_target *t;
	uint64_t page_offset, vmemmap, max_pfn;
	long page_size;
	struct ks_field compound_head, slab_cache, name, list;
	bool tail_head;		/* a tail's word is its head + 1 */
	uint64_t *caches;	/* struct kmem_cache, sorted */
	size_t nr, cap;
};

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

static int sym_value(const struct ks_target *t, const char *name,
		     uint64_t *val)
{
	uint64_t addr;

	return t->ops->symbol(t->ctx, name, &addr) ? -ENOENT
						   : ks_read_u64(t, addr, val);
}

static int cache_node(void *arg, uint64_t node)
{
	struct ks_lock_where *lw = arg;
	uint64_t *c = ks_grow_min(lw->caches, &lw->cap, lw->nr + 1,
				  sizeof(*c), 256);

	if (!c)
		return -ENOMEM;
	lw->caches = c;
	lw->caches[lw->nr++] = node - (uint64_t)lw->list.off;
	return 0;
}

/* The slab caches and the facts that lead from an address to one. */
static int slab_open(struct ks_lock_where *lw)
{
	const struct ks_target *t = lw->t;
	struct ks_list_state st = { .t = t, .max = MAX_CACHES };
	uint64_t head;
	const struct ks_field_spec specs[] = {
		KS_OPTIONAL(&lw->compound_head, "page", "compound_head"),
		KS_OPTIONAL(&lw->name, "kmem_cache", "name"),
		KS_OPTIONAL(&lw->list, "kmem_cache", "list"),
	};

	ks_field_table_resolve(t, specs, sizeof(specs) / sizeof(specs[0]));
	/*
	 * 7.x's page.compound_info keeps bit 0 for a tail page but may hold
	 * a mask for the rest: only a head or order-0 page is followed.
	 */
	lw->tail_head = ks_field_ok(&lw->compound_head);
	if (!lw->tail_head)
		lw->compound_head = ks_field_find(t, "page", "compound_info");
	/* struct slab overlays struct page since 5.17 */
	lw->slab_cache = ks_field_find(t, "slab", "slab_cache");
	if (!ks_field_ok(&lw->slab_cache))
		lw->slab_cache = ks_field_find(t, "page", "slab_cache");
	lw->page_size = t->ops->type_size(t->ctx, "page");
	if (!ks_field_ok(&lw->compound_head) || !ks_field_ok(&lw->name) ||
	    !ks_field_ok(&lw->list) || !ks_field_ok(&lw->slab_cache) ||
	    lw->page_size <= 0 ||
	    sym_value(t, "page_offset_base", &lw->page_offset) ||
	    sym_value(t, "vmemmap_base", &lw->vmemmap) ||
	    t->ops->symbol(t->ctx, "slab_caches", &head))
		return 0;
	if (sym_value(t, "max_pfn", &lw->max_pfn))
		lw->max_pfn = 0;
	if (ks_list_for_each(&st, head, cache_node, lw) == -ENOMEM)
		return -ENOMEM;
	if (lw->nr)
		qsort(lw->caches, lw->nr, sizeof(*lw->caches), cmp_u64);
	return 0;
}

int ks_lock_where_open(const struct ks_target *t, struct ks_lock_where **ret)
{
	struct ks_lock_where *lw = calloc(1, sizeof(*lw));

	if (!lw)
		return -ENOMEM;
	lw->t = t;
	if (slab_open(lw)) {
		ks_lock_where_close(lw);
		return -ENOMEM;
	}
	*ret = lw;
	return 0;
}

void ks_lock_where_close(struct ks_lock_where *lw)
{
	if (!lw)
		return;
	free(lw->caches);
	free(lw);
}

static bool symbol(const struct ks_target *t, uint64_t addr, char *buf,
		   size_t len)
{
	struct ks_sym sym;

	if (!t->ops->lookup || t->ops->lookup(t->ctx, addr, &sym) ||
	    !sym.name || addr < sym.addr || addr - sym.addr >= sym.size)
		return false;
	/* a module's lock named as its frames are: "sym [module]" */
	if (addr == sym.addr)
		snprintf(buf, len, "%s%s%s%s", sym.name,
			 sym.module ? " [" : "", sym.module ? sym.module : "",
			 sym.module ? "]" : "");
	else
		snprintf(buf, len, "%s+%#llx%s%s%s", sym.name,
			 (unsigned long long)(addr - sym.addr),
			 sym.module ? " [" : "", sym.module ? sym.module : "",
			 sym.module ? "]" : "");
	return true;
}

/* The slab cache of the page addr lies in, by compound_head(). */
static void slab(const struct ks_lock_where *lw, uint64_t addr, char *buf,
		 size_t len)
{
	uint64_t pfn, page, head, cache, name;

	if (!lw->nr || addr < lw->page_offset)
		return;
	pfn = (addr - lw->page_offset) >> PAGE_SHIFT;
	if (lw->max_pfn && pfn >= lw->max_pfn)
		return;
	page = lw->vmemmap + pfn * (uint64_t)lw->page_size;
	if (ks_field_read(lw->t, page, &lw->compound_head, 8, &head))
		return;
	if ((head & 1) && !lw->tail_head)
		return;
	if (head & 1)
		page = head - 1;
	if (ks_field_read(lw->t, page, &lw->slab_cache, 8, &cache) ||
	    !bsearch(&cache, lw->caches, lw->nr, sizeof(*lw->caches), cmp_u64) ||
	    ks_field_read(lw->t, cache, &lw->name, 8, &name) ||
	    ks_read_kstring(lw->t, name, buf, len) == -EFAULT)
		*buf = 0;
}

void ks_lock_where(const struct ks_lock_where *lw, uint64_t addr, char *buf,
		   size_t len)
{
	*buf = 0;
	if (!symbol(lw->t, addr, buf, len))
		slab(lw, addr, buf, len);
}
