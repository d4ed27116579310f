/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The header and program headers of an ELF64 core file (a vmcore), read
 * from its file descriptor: the one place that checks that a file is
 * one, for elf_notes.c (its CPUs' registers), elf_memory.c (its memory)
 * and the live tool's /proc/kcore.
 */
#ifndef KS_ELF_CORE_H
#define KS_ELF_CORE_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

/* len bytes at off, whole: 0, -ENOEXEC past the end, or read()'s error. */
int ks_elf_core_read_at(int fd, uint64_t off, void *buf, size_t len);
/*
 * The program headers of the little-endian ELF64 ET_CORE file at fd
 * (e_phnum, or PN_XNUM's count from section 0), in a malloc'd array
 * (NULL when there are none), and its header in *eh_ret unless NULL:
 * 0, -ENOEXEC for a file that is not one, -ENOMEM, or read()'s error.
 */
int ks_elf_core_phdrs(int fd, Elf64_Ehdr *eh_ret, Elf64_Phdr **phdrs_ret,
		      size_t *nr_ret);

#endif /* KS_ELF_CORE_H */
