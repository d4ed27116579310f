// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NT_PRSTATUS notes of elf_notes.h: the PT_NOTE segments of an ELF64
 * core file read whole, their NT_PRSTATUS notes named "CORE" listed in
 * file order.  The file is all it reads.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "elf_core.h"
#include "elf_notes.h"

/* A note segment larger than this is not a dump's: one per CPU is ~1 KiB. */
#define MAX_NOTE_BYTES	(64u << 20)
/* CPUs are at most 8192 in Linux's NR_CPUS. */
#define MAX_PRSTATUS	8192

struct ks_elf_notes {
	uint8_t **segs;			/* each PT_NOTE segment, as read */
	size_t nr_segs;
	const Elf64_Nhdr **prstatus;	/* into segs */
	size_t nr_prstatus;
};

static int add_prstatus(struct ks_elf_notes *n, const Elf64_Nhdr *nh)
{
	const Elf64_Nhdr **p;

	if (n->nr_prstatus >= MAX_PRSTATUS)
		return -ENOEXEC;
	p = realloc(n->prstatus, (n->nr_prstatus + 1) * sizeof(*p));
	if (!p)
		return -ENOMEM;
	n->prstatus = p;
	n->prstatus[n->nr_prstatus++] = nh;
	return 0;
}

/* The NT_PRSTATUS notes of one segment; a note that overruns it ends it. */
static int scan_segment(struct ks_elf_notes *n, const uint8_t *seg,
			size_t len)
{
	size_t off = 0;

	while (len - off >= sizeof(Elf64_Nhdr)) {
		const Elf64_Nhdr *nh = (const Elf64_Nhdr *)(seg + off);
		uint64_t name = (nh->n_namesz + 3ull) & ~3ull;
		uint64_t desc = (nh->n_descsz + 3ull) & ~3ull;
		uint64_t size = sizeof(*nh) + name + desc;
		int ret;

		if (size > len - off)
			break;
		if (nh->n_type == NT_PRSTATUS && nh->n_namesz == 5 &&
		    !memcmp(seg + off + sizeof(*nh), "CORE", 5)) {
			ret = add_prstatus(n, nh);
			if (ret)
				return ret;
		}
		off += (size_t)size;
	}
	return 0;
}

static int read_segment(struct ks_elf_notes *n, int fd, const Elf64_Phdr *ph)
{
	uint8_t **segs, *seg;
	int ret;

	if (!ph->p_filesz || ph->p_filesz > MAX_NOTE_BYTES)
		return 0;
	segs = realloc(n->segs, (n->nr_segs + 1) * sizeof(*segs));
	if (!segs)
		return -ENOMEM;
	n->segs = segs;
	seg = malloc(ph->p_filesz);
	if (!seg)
		return -ENOMEM;
	n->segs[n->nr_segs++] = seg;
	ret = ks_elf_core_read_at(fd, ph->p_offset, seg, ph->p_filesz);
	return ret ? ret : scan_segment(n, seg, ph->p_filesz);
}

static int read_notes(struct ks_elf_notes *n, int fd)
{
	Elf64_Phdr *ph;
	size_t nr;
	int ret = ks_elf_core_phdrs(fd, NULL, &ph, &nr);

	for (size_t i = 0; !ret && i < nr; i++)
		if (ph[i].p_type == PT_NOTE)
			ret = read_segment(n, fd, &ph[i]);
	free(ph);
	return ret;
}

int ks_elf_notes_read(const char *path, struct ks_elf_notes **notes_ret)
{
	struct ks_elf_notes *n;
	int fd, ret;

	*notes_ret = NULL;
	n = calloc(1, sizeof(*n));
	if (!n)
		return -ENOMEM;
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	ret = read_notes(n, fd);
	close(fd);
out:
	if (ret) {
		ks_elf_notes_free(n);
		return ret;
	}
	*notes_ret = n;
	return 0;
}

size_t ks_elf_notes_count(const struct ks_elf_notes *n)
{
	return n ? n->nr_prstatus : 0;
}

const Elf64_Nhdr *ks_elf_notes_prstatus(const struct ks_elf_notes *n,
					  size_t nth)
{
	return n && nth < n->nr_prstatus ? n->prstatus[nth] : NULL;
}

void ks_elf_notes_free(struct ks_elf_notes *n)
{
	if (!n)
		return;
	for (size_t i = 0; i < n->nr_segs; i++)
		free(n->segs[i]);
	free(n->segs);
	free(n->prstatus);
	free(n);
}
