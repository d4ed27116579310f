/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The physical memory of an ELF64 core file (a vmcore), read through a
 * read-only mapping of the file.  The crash target reads an ELF dump
 * so: crash's readmem() is an lseek() and a read(2) per page, which on
 * 100,000 threads cost more than the walk itself.  It answers only for
 * bytes the file holds, each in one PT_LOAD segment; everything else
 * (the zero-filled tail of a segment, a file cut short, an address in no
 * segment, a read across two) is -ENOENT, for crash's own reader to
 * answer as it would.
 */
#ifndef KS_ELF_MEMORY_H
#define KS_ELF_MEMORY_H

#include <stddef.h>
#include <stdint.h>

struct ks_elf_memory;

/*
 * Maps the ELF64 core file at path: 0, -ENOEXEC for a file that is not
 * one (or holds no memory), -ENOMEM, or open()'s, read()'s or mmap()'s
 * error.  Overlapping PT_LOADs answer as in crash (elf_loads.h).
 */
int ks_elf_memory_open(const char *path, struct ks_elf_memory **m_ret);
/* len bytes at physical address paddr: 0, or -ENOENT (see above). */
int ks_elf_memory_read(const struct ks_elf_memory *m, uint64_t paddr,
		       void *buf, size_t len);
void ks_elf_memory_close(struct ks_elf_memory *m);

#endif /* KS_ELF_MEMORY_H */
