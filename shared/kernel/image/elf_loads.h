/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where an ELF64 core file (a vmcore) holds each physical address: its
 * PT_LOAD segments, cut to the bytes the file holds and to the first
 * segment where they overlap, sorted by physical address and searched by
 * bisection.  elf_memory.c reads memory through
 * it, the live tool's dump_prefetch.c reads the file ahead with it.
 */
#ifndef KS_ELF_LOADS_H
#define KS_ELF_LOADS_H

#include <stddef.h>
#include <stdint.h>

struct ks_elf_load {
	uint64_t paddr;
	uint64_t len;		/* of p_filesz, what the file holds */
	uint64_t offset;
};

struct ks_elf_loads {
	struct ks_elf_load *segs;
	size_t nr_segs;
};

/*
 * The segments of the ELF64 core file at fd, of size bytes: 0, -ENOEXEC
 * for a file that is not one or has no PT_LOAD with bytes in the file,
 * -ENOMEM, or read()'s error.  Where PT_LOADs overlap (QEMU's paging
 * dumps), the first in program-header order answers, its zero-filled tail
 * included, as in crash's read_netdump(): what it does not hold in the
 * file is in no segment here.
 */
int ks_elf_loads_read(int fd, uint64_t size, struct ks_elf_loads *l);
/*
 * The file offset of [paddr, paddr + len), which must lie in one
 * segment: 0, or -ENOENT.
 */
int ks_elf_loads_offset(const struct ks_elf_loads *l, uint64_t paddr,
			size_t len, uint64_t *off_ret);
void ks_elf_loads_release(struct ks_elf_loads *l);

#endif /* KS_ELF_LOADS_H */
