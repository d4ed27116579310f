/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The header and program headers of an ELF64 core file (a vmcore), read
 * from its file descriptor: the one place that checks that a file is
 * one, for elf_notes.c (its CPUs' registers), elf_memory.c (its memory),
 * the live tool's /proc/kcore, and the dump checks that name a bad field
 * before libkdumpfile reads the file (live/vmcore/dump_header.c).
 */
#ifndef KS_ELF_CORE_H
#define KS_ELF_CORE_H

#include <elf.h>
#include <stddef.h>
#include <stdint.h>

/* len bytes at off, whole: 0, -ENOEXEC past the end, or read()'s error. */
int ks_elf_core_read_at(int fd, uint64_t off, void *buf, size_t len);
/* Which field makes a header no little-endian ELF64 core file. */
enum ks_elf_core_bad {
	KS_ELF_CORE_GOOD,
	KS_ELF_CORE_BAD_MAGIC,		/* no "\177ELF" */
	KS_ELF_CORE_BAD_CLASS,		/* e_ident's class or data */
	KS_ELF_CORE_BAD_TYPE,		/* e_type is not ET_CORE */
	KS_ELF_CORE_BAD_PHENTSIZE,	/* not sizeof(Elf64_Phdr) */
};

/* The first of those fields, in that order, that eh gets wrong. */
enum ks_elf_core_bad ks_elf_core_check(const Elf64_Ehdr *eh);

/*
 * nr program headers from the first-th, of a header that passed
 * ks_elf_core_check(), into ph: as ks_elf_core_read_at().
 */
int ks_elf_core_read_phdrs(int fd, const Elf64_Ehdr *eh, uint64_t first,
			   size_t nr, Elf64_Phdr *ph);

/*
 * Section header i (0 holds the counts e_phnum PN_XNUM and e_shnum 0
 * leave out): as ks_elf_core_read_at(), and -ENOEXEC for an
 * e_shentsize that is not sizeof(Elf64_Shdr).
 */
int ks_elf_core_shdr(int fd, const Elf64_Ehdr *eh, uint64_t i, Elf64_Shdr *sh);

/*
 * The program headers of the little-endian ELF64 ET_CORE file at fd
 * (e_phnum, or PN_XNUM's count from section 0), in a malloc'd array
 * (NULL when there are none), and its header in *eh_ret unless NULL:
 * 0, -ENOEXEC for a file that is not one, -ENOMEM, or read()'s error.
 */
int ks_elf_core_phdrs(int fd, Elf64_Ehdr *eh_ret, Elf64_Phdr **phdrs_ret,
		      size_t *nr_ret);

#endif /* KS_ELF_CORE_H */
