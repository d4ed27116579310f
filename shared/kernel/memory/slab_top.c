// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The largest slab caches, as /proc/slabinfo counts SLUB's
 * (get_slabinfo() of mm/slub.c): each cache of slab_caches, its nodes'
 * nr_slabs and total_objects (kmem_cache_node's CONFIG_SLUB_DEBUG
 * counters), a slab's pages from its preferred order (oo_order(s->oo)).
 * Whether the kernel has those counters is decided from its types.
 */
#include <errno.h>
#include <string.h>

#include "kernel_string.h"
#include "list_walk.h"
#include "member_table.h"
#include "memory_state.h"

#define MAX_CACHES	100000	/* more is a damaged list */
#define OO_SHIFT	16	/* mm/slub.c: order above, objects below */

struct slab_walk {
	const struct ks_target *t;
	struct ks_memory *m;
	const struct ks_reporter *rep;
	struct ks_field list, name, node, oo, size, nr_slabs, objects;
	uint64_t node_off, node_stride;	/* where node i's pointer is */
	uint32_t nr_nodes;		/* node pointers read */
	bool said;			/* a cache that cannot be read was said */
};

/*
 * The node pointers: node[MAX_NUMNODES], or since 7.0 per_node[], each
 * a struct kmem_cache_per_node_ptrs holding its node beside its barn.
 */
static int node_array(const struct ks_target *t, struct slab_walk *w)
{
	struct ks_field per_node, ptr;
	long stride;

	w->node = ks_field_find(t, "kmem_cache", "node");
	if (ks_field_ok(&w->node)) {
		w->node_off = (uint64_t)w->node.off;
		w->node_stride = 8;
		return 0;
	}
	per_node = ks_field_find(t, "kmem_cache", "per_node");
	ptr = ks_field_find(t, "kmem_cache_per_node_ptrs", "node");
	stride = t->ops->type_size(t->ctx, "kmem_cache_per_node_ptrs");
	if (!ks_field_ok(&per_node) || !ks_field_ok(&ptr) || stride < 8) {
		ks_say(w->rep, KS_WARN, "no member kmem_cache.node or kmem_cache.per_node in this kernel's types");
		return -ENOENT;
	}
	w->node_off = (uint64_t)(per_node.off + ptr.off);
	w->node_stride = (uint64_t)stride;
	w->node.size = per_node.size / stride * 8;
	return 0;
}

static int slab_fields(const struct ks_target *t, struct slab_walk *w)
{
	const struct ks_field_spec specs[] = {
		KS_NEED(&w->list, "kmem_cache", "list"),
		KS_NEED(&w->name, "kmem_cache", "name"),
		KS_NEED(&w->size, "kmem_cache", "size"),
		KS_OPTIONAL(&w->oo, "kmem_cache", "oo"),
		KS_OPTIONAL(&w->nr_slabs, "kmem_cache_node", "nr_slabs"),
		KS_OPTIONAL(&w->objects, "kmem_cache_node", "total_objects"),
	};

	if (ks_field_table_report(t, specs, sizeof(specs) / sizeof(specs[0]),
				  w->rep))
		return -ENOENT;
	if (node_array(t, w))
		return -ENOENT;
	if (!ks_field_ok(&w->oo)) {
		ks_say(w->rep, KS_WARN, "kmem_cache has no oo: the slab caches are counted for SLUB only");
		return -ENOTSUP;
	}
	if (!ks_field_ok(&w->nr_slabs) || !ks_field_ok(&w->objects)) {
		ks_say(w->rep, KS_WARN, "kmem_cache_node has no nr_slabs: the slab caches need CONFIG_SLUB_DEBUG");
		return -ENOTSUP;
	}
	return 0;
}

/* The nodes' counts of the cache at s; 0 or -EFAULT. */
static int cache_counts(struct slab_walk *w, uint64_t s, struct ks_mem_slab *c)
{
	for (uint32_t i = 0; i < w->nr_nodes; i++) {
		uint64_t n, slabs, objs;

		if (ks_read_u64(w->t, s + w->node_off + i * w->node_stride, &n))
			return -EFAULT;
		if (!n)
			continue;
		if (ks_field_read(w->t, n, &w->nr_slabs, 8, &slabs) ||
		    ks_field_read(w->t, n, &w->objects, 8, &objs))
			return -EFAULT;
		c->slabs += slabs;
		c->objects += objs;
	}
	return 0;
}

void ks_memory_keep_top(struct ks_memory *m, const struct ks_mem_slab *c)
{
	size_t at = m->nr_top;

	while (at > 0 && m->top[at - 1].bytes < c->bytes)
		at--;
	if (at == KS_MEM_TOP_SLABS)
		return;
	if (m->nr_top < KS_MEM_TOP_SLABS)
		m->nr_top++;
	memmove(&m->top[at + 1], &m->top[at],
		(m->nr_top - 1 - at) * sizeof(m->top[0]));
	m->top[at] = *c;
}

static int one_cache(void *arg, uint64_t node)
{
	struct slab_walk *w = arg;
	uint64_t s = node - (uint64_t)w->list.off, name, oo;
	struct ks_mem_slab c = { .name = "" };
	int ret;

	w->m->nr_caches++;
	ret = ks_field_read(w->t, s, &w->name, 8, &name);
	if (!ret)
		ret = ks_field_read(w->t, s, &w->oo, 4, &oo);
	if (!ret)
		ret = ks_field_read(w->t, s, &w->size, 4, &c.object_size);
	if (!ret)
		ret = cache_counts(w, s, &c);
	if (ret) {
		/* a cache's page missing costs that cache, not the list */
		if (!w->said)
			ks_say(w->rep, KS_WARN, "the slab cache at %#llx cannot be read; it is left out",
			       (unsigned long long)s);
		w->said = true;
		return 0;
	}
	if (ks_read_kstring(w->t, name, c.name, sizeof(c.name)) == -EFAULT)
		strcpy(c.name, "?");
	c.bytes = c.slabs << (w->m->page_shift + (oo >> OO_SHIFT));
	ks_memory_keep_top(w->m, &c);
	return 0;
}

void ks_memory_slabs(const struct ks_target *t, struct ks_memory *m,
		     const struct ks_reporter *rep)
{
	struct slab_walk w = { .t = t, .m = m, .rep = rep };
	struct ks_list_state ls = { .t = t, .max = MAX_CACHES };
	uint64_t head, nr_addr;
	uint32_t nr = 1;

	m->slab_err = slab_fields(t, &w);
	if (m->slab_err)
		return;
	if (t->ops->symbol(t->ctx, "slab_caches", &head)) {
		ks_say(rep, KS_WARN, "no symbol slab_caches");
		m->slab_err = -ENOENT;
		return;
	}
	/* MAX_NUMNODES of them, of which nr_node_ids are used */
	if (!t->ops->symbol(t->ctx, "nr_node_ids", &nr_addr) &&
	    (ks_read(t, nr_addr, &nr, 4) || !nr))
		nr = 1;
	w.nr_nodes = w.node.size >= 8 && nr > (uint32_t)(w.node.size / 8) ?
		     (uint32_t)(w.node.size / 8) : nr;
	m->slab_err = ks_list_for_each(&ls, head, one_cache, &w);
	ks_list_stop_say(rep, &ls, "slab_caches");
	if (!m->slab_err && !m->nr_caches)
		m->slab_err = -ENOENT;
}
