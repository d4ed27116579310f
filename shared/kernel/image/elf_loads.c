// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An ELF dump's PT_LOAD segments, as the file holds them (elf_loads.h).
 */
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>

#include "elf_core.h"
#include "elf_loads.h"

/* A PT_LOAD in program-header order: [paddr, end), the file's part first. */
struct phdr_range {
	uint64_t paddr, end;	/* end: of p_memsz (or p_filesz, if more) */
	uint64_t held;		/* of p_filesz, cut to what the file holds */
	uint64_t offset;
	size_t index;		/* in program-header order */
};

static int cmp_start(const void *a, const void *b)
{
	const struct phdr_range *x = a, *y = b;

	return x->paddr < y->paddr ? -1 : x->paddr > y->paddr;
}

static int cmp_u64(const void *a, const void *b)
{
	const uint64_t *x = a, *y = b;

	return *x < *y ? -1 : *x > *y;
}

/* A min-heap of ranges by program-header index: the one that answers. */
struct heap {
	const struct phdr_range **r;
	size_t nr;
};

static void heap_push(struct heap *h, const struct phdr_range *r)
{
	size_t i = h->nr++;

	for (; i && h->r[(i - 1) / 2]->index > r->index; i = (i - 1) / 2)
		h->r[i] = h->r[(i - 1) / 2];
	h->r[i] = r;
}

static void heap_pop(struct heap *h)
{
	const struct phdr_range *last = h->r[--h->nr];
	size_t i = 0;

	for (;;) {
		size_t c = 2 * i + 1;

		if (c >= h->nr)
			break;
		if (c + 1 < h->nr && h->r[c + 1]->index < h->r[c]->index)
			c++;
		if (h->r[c]->index >= last->index)
			break;
		h->r[i] = h->r[c];
		i = c;
	}
	if (h->nr)
		h->r[i] = last;
}

static void add_piece(struct ks_elf_loads *l, uint64_t paddr, uint64_t len,
		      uint64_t offset)
{
	struct ks_elf_load *prev = l->nr_segs ? &l->segs[l->nr_segs - 1] : NULL;

	if (prev && prev->paddr + prev->len == paddr &&
	    prev->offset + prev->len == offset) {
		prev->len += len;
		return;
	}
	l->segs[l->nr_segs++] = (struct ks_elf_load){ paddr, len, offset };
}

/*
 * Each stretch between two segment edges goes to the first PT_LOAD in
 * program-header order that covers it, as crash's read_netdump() does:
 * QEMU's paging dumps map some memory twice.  A stretch in that
 * segment's zero-filled tail, or past the end of the file, is no piece.
 */
static void sweep(struct ks_elf_loads *l, struct phdr_range *r, size_t nr,
		  uint64_t *edges, size_t nr_edges, struct heap *h)
{
	size_t next = 0;

	for (size_t e = 0; e + 1 < nr_edges; e++) {
		uint64_t x = edges[e], y = edges[e + 1];
		const struct phdr_range *o;

		while (next < nr && r[next].paddr == x)
			heap_push(h, &r[next++]);
		while (h->nr && h->r[0]->end <= x)
			heap_pop(h);
		if (!h->nr)
			continue;
		o = h->r[0];
		if (x >= o->paddr + o->held)
			continue;
		if (y > o->paddr + o->held)
			y = o->paddr + o->held;
		add_piece(l, x, y - x, o->offset + (x - o->paddr));
	}
}

/* The PT_LOAD segments of a file of size bytes, as pieces that answer. */
static int collect(struct ks_elf_loads *l, const Elf64_Phdr *ph, size_t nr,
		   uint64_t size)
{
	struct phdr_range *r = calloc(nr ? nr : 1, sizeof(*r));
	uint64_t *edges = calloc(2 * nr + 1, sizeof(*edges));
	struct heap h = { calloc(nr ? nr : 1, sizeof(*h.r)), 0 };
	size_t nr_r = 0, nr_edges = 0, uniq = 0;
	int ret = -ENOMEM;

	l->segs = calloc(2 * nr + 1, sizeof(*l->segs));
	if (!r || !edges || !h.r || !l->segs)
		goto out;
	for (size_t i = 0; i < nr; i++) {
		uint64_t mem = ph[i].p_memsz > ph[i].p_filesz ?
			       ph[i].p_memsz : ph[i].p_filesz;
		uint64_t held = ph[i].p_filesz;

		if (ph[i].p_type != PT_LOAD || !mem ||
		    ph[i].p_paddr + mem < ph[i].p_paddr)
			continue;
		if (ph[i].p_offset >= size)
			held = 0;
		else if (held > size - ph[i].p_offset)
			held = size - ph[i].p_offset;
		r[nr_r] = (struct phdr_range){ ph[i].p_paddr,
			ph[i].p_paddr + mem, held, ph[i].p_offset, i };
		edges[nr_edges++] = r[nr_r].paddr;
		edges[nr_edges++] = r[nr_r].end;
		nr_r++;
	}
	qsort(r, nr_r, sizeof(*r), cmp_start);
	qsort(edges, nr_edges, sizeof(*edges), cmp_u64);
	for (size_t i = 0; i < nr_edges; i++)
		if (!uniq || edges[uniq - 1] != edges[i])
			edges[uniq++] = edges[i];
	sweep(l, r, nr_r, edges, uniq, &h);
	ret = l->nr_segs ? 0 : -ENOEXEC;
out:
	free(r);
	free(edges);
	free(h.r);
	return ret;
}

int ks_elf_loads_read(int fd, uint64_t size, struct ks_elf_loads *l)
{
	Elf64_Phdr *ph;
	size_t nr;
	int ret;

	*l = (struct ks_elf_loads){ 0 };
	ret = ks_elf_core_phdrs(fd, NULL, &ph, &nr);
	if (ret)
		return ret;
	ret = collect(l, ph, nr, size);
	free(ph);
	if (ret)
		ks_elf_loads_release(l);
	return ret;
}

int ks_elf_loads_offset(const struct ks_elf_loads *l, uint64_t paddr,
			size_t len, uint64_t *off_ret)
{
	size_t lo = 0, hi = l->nr_segs;
	const struct ks_elf_load *s;

	/* the last segment that starts at or below paddr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (l->segs[mid].paddr <= paddr)
			lo = mid;
		else
			hi = mid;
	}
	if (!l->nr_segs)
		return -ENOENT;
	s = &l->segs[lo];
	if (s->paddr > paddr || paddr - s->paddr > s->len ||
	    len > s->len - (paddr - s->paddr))
		return -ENOENT;
	*off_ret = s->offset + (paddr - s->paddr);
	return 0;
}

void ks_elf_loads_release(struct ks_elf_loads *l)
{
	free(l->segs);
	*l = (struct ks_elf_loads){ 0 };
}
