/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The NT_PRSTATUS notes of an ELF dump, read once from its file.  crash
 * keeps them, but its one way to hand them out,
 * netdump_get_prstatus_percpu(), counts the online CPUs on every call,
 * and that asks gdb for the size of cpumask_t: about 25 ms a CPU on a 6.1
 * vmlinux, the largest cost a first kstack in crash had that
 * kstack --vmcore has not.
 */
#ifndef KS_CRASH_NOTES_H
#define KS_CRASH_NOTES_H

#include <elf.h>
#include <stddef.h>

struct ks_crash_notes;

/*
 * The NT_PRSTATUS notes of the ELF64 core file at path, in file order.
 * -ENOEXEC for a file that is not one (a compressed kdump: crash's own
 * accessor is the way there), -ENOMEM, or open()'s and read()'s error.
 */
int ks_crash_notes_read(const char *path, struct ks_crash_notes **notes_ret);
size_t ks_crash_notes_count(const struct ks_crash_notes *n);
/* The nth note as crash would hand it out (header, name, descriptor). */
const Elf64_Nhdr *ks_crash_notes_prstatus(const struct ks_crash_notes *n,
					  size_t nth);
void ks_crash_notes_free(struct ks_crash_notes *n);

#endif /* KS_CRASH_NOTES_H */
