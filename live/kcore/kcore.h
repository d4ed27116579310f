/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The running kernel's memory through /proc/kcore: an ELF core file whose
 * PT_LOAD segments are kernel virtual address ranges (fs/proc/kcore.c), and
 * whose notes carry the kernel's VMCOREINFO, so the live kernel can be read
 * by the same walkers, symbols and types as a dump.  Plain pread(), no
 * libkdumpfile.
 */
#ifndef KS_KCORE_H
#define KS_KCORE_H

#include <stddef.h>
#include <stdint.h>

struct ks_kcore;

/*
 * Opens path (normally /proc/kcore) and reads its program headers and
 * notes.  -EACCES/-EPERM without the privilege (root, no lockdown),
 * -ENOENT where the kernel has none, -ENOEXEC for a file that is not an
 * ELF64 core, -ENOMEM.
 */
int ks_kcore_open(const char *path, struct ks_kcore **kc_ret);
void ks_kcore_close(struct ks_kcore *kc);

/* Kernel virtual memory; -EFAULT where no segment holds all of it. */
int ks_kcore_read(const struct ks_kcore *kc, uint64_t kaddr, void *buf,
		  size_t len);

/* The ELF header's e_machine: which architecture the kernel is. */
unsigned int ks_kcore_machine(const struct ks_kcore *kc);

/*
 * The value of a VMCOREINFO line ("OSRELEASE", "SYMBOL(_stext)", ...): a
 * pointer to its first character, the value ending at a newline; NULL when
 * the notes have no VMCOREINFO or no such line.  Valid while kc lives.
 */
const char *ks_kcore_vmcoreinfo(const struct ks_kcore *kc, const char *key);

/*
 * The same value copied into buf (cut to len), for shared/kernel/vmcoreinfo.h's
 * reader (kc is the struct ks_kcore); -ENOENT without the line.
 */
int ks_kcore_vmcoreinfo_line(void *kc, const char *key, char *buf, size_t len);

#endif /* KS_KCORE_H */
