/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NT_PRSTATUS notes of an ELF dump, read once from its file: the
 * registers of each CPU when the dump was taken, in the order the file
 * lists them (crash's netdump.c lists them so).  The crash target reads a
 * QEMU dump's through it, as crash's netdump_get_prstatus_percpu() asks
 * gdb on every call.
 */
#ifndef KS_ELF_NOTES_H
#define KS_ELF_NOTES_H

#include <elf.h>
#include <stddef.h>

struct ks_elf_notes;

/*
 * The NT_PRSTATUS notes of the ELF64 core file at path, in file order.
 * -ENOEXEC for a file that is not one (a compressed kdump: crash's own
 * accessor is the way there), -ENOMEM, or open()'s and read()'s error.
 */
int ks_elf_notes_read(const char *path, struct ks_elf_notes **notes_ret);
size_t ks_elf_notes_count(const struct ks_elf_notes *n);
/* The nth note as crash would hand it out (header, name, descriptor). */
const Elf64_Nhdr *ks_elf_notes_prstatus(const struct ks_elf_notes *n,
					  size_t nth);
void ks_elf_notes_free(struct ks_elf_notes *n);

#endif /* KS_ELF_NOTES_H */
