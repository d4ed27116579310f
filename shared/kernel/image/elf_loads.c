// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An ELF dump's PT_LOAD segments, as the file holds them (elf_loads.h).
 */
#include <errno.h>
#include <stdlib.h>

#include "elf_core.h"
#include "elf_loads.h"

static int cmp_load(const void *a, const void *b)
{
	const struct ks_elf_load *x = a, *y = b;

	return x->paddr < y->paddr ? -1 : x->paddr > y->paddr;
}

/* The PT_LOAD segments with bytes in a file of size bytes, sorted. */
static int collect(struct ks_elf_loads *l, const Elf64_Phdr *ph, size_t nr,
		   uint64_t size)
{
	l->segs = calloc(nr ? nr : 1, sizeof(*l->segs));
	if (!l->segs)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct ks_elf_load *s = &l->segs[l->nr_segs];
		uint64_t len = ph[i].p_filesz;

		if (ph[i].p_type != PT_LOAD || !len || ph[i].p_offset >= size ||
		    ph[i].p_paddr + len < ph[i].p_paddr)
			continue;
		if (len > size - ph[i].p_offset)
			len = size - ph[i].p_offset;
		s->paddr = ph[i].p_paddr;
		s->len = len;
		s->offset = ph[i].p_offset;
		l->nr_segs++;
	}
	if (!l->nr_segs)
		return -ENOEXEC;
	qsort(l->segs, l->nr_segs, sizeof(*l->segs), cmp_load);
	for (size_t i = 1; i < l->nr_segs; i++)
		if (l->segs[i - 1].paddr + l->segs[i - 1].len > l->segs[i].paddr)
			return -ENOEXEC;
	return 0;
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
