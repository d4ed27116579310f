// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An ELF dump's physical memory (elf_memory.h): the PT_LOAD segments,
 * cut to the bytes the file holds, sorted by physical address and
 * searched by bisection; the file mapped whole.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_core.h"
#include "elf_memory.h"

struct segment {
	uint64_t paddr;
	uint64_t len;		/* of p_filesz, what the file holds */
	uint64_t offset;
};

struct ks_elf_memory {
	const uint8_t *map;
	size_t map_len;
	struct segment *segs;
	size_t nr_segs;
};

static int cmp_segment(const void *a, const void *b)
{
	const struct segment *x = a, *y = b;

	return x->paddr < y->paddr ? -1 : x->paddr > y->paddr;
}

/* The PT_LOAD segments with bytes in a file of size bytes, sorted. */
static int collect(struct ks_elf_memory *m, const Elf64_Phdr *ph, size_t nr,
		   uint64_t size)
{
	m->segs = calloc(nr ? nr : 1, sizeof(*m->segs));
	if (!m->segs)
		return -ENOMEM;
	for (size_t i = 0; i < nr; i++) {
		struct segment *s = &m->segs[m->nr_segs];
		uint64_t len = ph[i].p_filesz;

		if (ph[i].p_type != PT_LOAD || !len || ph[i].p_offset >= size ||
		    ph[i].p_paddr + len < ph[i].p_paddr)
			continue;
		if (len > size - ph[i].p_offset)
			len = size - ph[i].p_offset;
		s->paddr = ph[i].p_paddr;
		s->len = len;
		s->offset = ph[i].p_offset;
		m->nr_segs++;
	}
	if (!m->nr_segs)
		return -ENOEXEC;
	qsort(m->segs, m->nr_segs, sizeof(*m->segs), cmp_segment);
	for (size_t i = 1; i < m->nr_segs; i++)
		if (m->segs[i - 1].paddr + m->segs[i - 1].len > m->segs[i].paddr)
			return -ENOEXEC;
	return 0;
}

static int map_file(struct ks_elf_memory *m, int fd)
{
	Elf64_Phdr *ph;
	struct stat sb;
	size_t nr;
	void *map;
	int ret;

	if (fstat(fd, &sb))
		return -errno;
	if (!S_ISREG(sb.st_mode) || (uint64_t)sb.st_size > SIZE_MAX)
		return -ENOEXEC;
	ret = ks_elf_core_phdrs(fd, NULL, &ph, &nr);
	if (ret)
		return ret;
	ret = collect(m, ph, nr, (uint64_t)sb.st_size);
	free(ph);
	if (ret)
		return ret;
	map = mmap(NULL, (size_t)sb.st_size, PROT_READ, MAP_SHARED, fd, 0);
	if (map == MAP_FAILED)
		return -errno;
	m->map = map;
	m->map_len = (size_t)sb.st_size;
	return 0;
}

int ks_elf_memory_open(const char *path, struct ks_elf_memory **m_ret)
{
	struct ks_elf_memory *m;
	int fd, ret;

	*m_ret = NULL;
	m = calloc(1, sizeof(*m));
	if (!m)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	ret = map_file(m, fd);
	close(fd);	/* the mapping stands on its own */
out:
	if (ret) {
		ks_elf_memory_close(m);
		return ret;
	}
	*m_ret = m;
	return 0;
}

int ks_elf_memory_read(const struct ks_elf_memory *m, uint64_t paddr,
		       void *buf, size_t len)
{
	size_t lo = 0, hi = m->nr_segs;

	/* the last segment that starts at or below paddr */
	while (hi - lo > 1) {
		size_t mid = lo + (hi - lo) / 2;

		if (m->segs[mid].paddr <= paddr)
			lo = mid;
		else
			hi = mid;
	}
	if (!m->nr_segs || m->segs[lo].paddr > paddr ||
	    paddr - m->segs[lo].paddr > m->segs[lo].len ||
	    len > m->segs[lo].len - (paddr - m->segs[lo].paddr))
		return -ENOENT;
	memcpy(buf, m->map + m->segs[lo].offset + (paddr - m->segs[lo].paddr),
	       len);
	return 0;
}

void ks_elf_memory_close(struct ks_elf_memory *m)
{
	if (!m)
		return;
	if (m->map)
		munmap((void *)m->map, m->map_len);
	free(m->segs);
	free(m);
}
