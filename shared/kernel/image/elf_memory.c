// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An ELF dump's physical memory (elf_memory.h): the file mapped whole,
 * read where elf_loads.c places each address.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_loads.h"
#include "elf_memory.h"

struct ks_elf_memory {
	const uint8_t *map;
	size_t map_len;
	struct ks_elf_loads loads;
};

static int map_file(struct ks_elf_memory *m, int fd)
{
	struct stat sb;
	void *map;
	int ret;

	if (fstat(fd, &sb))
		return -errno;
	if (!S_ISREG(sb.st_mode) || (uint64_t)sb.st_size > SIZE_MAX)
		return -ENOEXEC;
	ret = ks_elf_loads_read(fd, (uint64_t)sb.st_size, &m->loads);
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
	uint64_t off;

	if (ks_elf_loads_offset(&m->loads, paddr, len, &off))
		return -ENOENT;
	memcpy(buf, m->map + off, len);
	return 0;
}

void ks_elf_memory_close(struct ks_elf_memory *m)
{
	if (!m)
		return;
	if (m->map)
		munmap((void *)m->map, m->map_len);
	ks_elf_loads_release(&m->loads);
	free(m);
}
