/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one opener of a kernel image over a memory source: a dump read with
 * libkdumpfile, the running kernel through /proc/kcore, a crash session
 * (which knows the kernel too, below).  A source is a reader plus its facts: the architecture
 * (a name or an ELF e_machine), its VMCOREINFO (the reader's vmcoreinfo
 * op) and how many CPU notes it has.  ks_image_open() does the rest, once
 * for every source: the architecture's table, the symbols (a debug
 * vmlinux checked against the dump's banner and moved by the KASLR
 * offset, or the kernel's own kallsyms), the paging facts through the
 * architecture's table, BTF, the CPU notes' order, the data finder and
 * the kallsyms chain, each failure said once through the source's report
 * callback.
 *
 * A reader that names symbols itself (its symbol op: crash) knows the
 * kernel: it matched the vmlinux to the dump and moved it, so its names
 * come first, the vmlinux's .symtab places addresses (moved by the
 * reader's _stext against its own) and its .BTF answers types, and where
 * the vmlinux lacks them the reader's lookup and type ops answer.  No
 * banner check, kallsyms tables or BTF in memory are needed for it.
 */
#ifndef KS_IMAGE_OPEN_H
#define KS_IMAGE_OPEN_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel_image.h"
#include "page_walk.h"
#include "report.h"
#include "target.h"

struct ks_image_source {
	/*
	 * The reader (read, read_phys, cpu_regs, vmcoreinfo; symbol, lookup
	 * and the type ops where it knows the kernel); the opener sets its
	 * arch, and the image answers read_user (the page walk over
	 * read_phys with uw below).  It must outlive the image.
	 */
	struct ks_target *mem;
	const char *arch_name;		/* the machine as the source names it, */
	unsigned int elf_machine;	/* else its e_machine (0: none) */
	/* what messages call it: "the dump", "/proc/kcore" */
	const char *who;
	const char *vmcore;		/* the dump's path, for the banner check */
	const char *vmlinux;		/* a debug vmlinux's path, or NULL */
	bool vmlinux_option;		/* "--vmlinux VMLINUX" is a remedy */
	const char *btf_path;		/* a BTF file tried before memory, or NULL */
	enum ks_kallsyms_from kallsyms_from;
	bool truncated;			/* the file lacks part of memory */
	/* the kernel's own tables, for a reader that does not translate */
	bool kernel_tables;
	long nr_cpu_notes;		/* its NT_PRSTATUS notes; -1: unknown */
	const struct ks_reporter *rep;	/* every message goes there */
};

struct ks_image_opened {
	struct ks_image im;		/* symbols and types */
	struct ks_target t;		/* the whole target: the image over mem */
	const struct ks_arch *arch;
	struct ks_user_walk uw;		/* paging facts, for the image's read_user */
	struct ks_kernel_tables tables;	/* with src->kernel_tables; pgd 0: none */
	int64_t kaslr;
	char kaslr_from[160];		/* where kaslr came from, for -v */
	int *note_of_cpu;		/* PRSTATUS note index by CPU, or NULL */
	int nr_cpu_map;
};

/*
 * Opens the image over src->mem into *io (zeroed by the caller): 0, or
 * -errno after saying why through src->report.  Release it with
 * ks_image_close() either way.
 */
int ks_image_open(struct ks_image_opened *io, const struct ks_image_source *src);
void ks_image_close(struct ks_image_opened *io);

/* Whether cpu was online: 1, 0, or -1 when that cannot be told. */
typedef int (*ks_cpu_online_fn)(void *arg, int cpu);

/*
 * Which NT_PRSTATUS note is which CPU's.  A kdump kernel writes one note
 * per CPU that stopped and /proc/vmcore drops empty ones, so with a CPU
 * offline the n-th note is the n-th online CPU's: when there are as many
 * notes as online CPUs, a map of nr_cpus notes (-1: none), as crash's
 * map_cpus_to_prstatus() decides.  Otherwise (and for QEMU's one note
 * per vCPU) NULL: the n-th note is CPU n.  The dump's opener and the
 * crash target both map so.
 */
int *ks_cpu_note_map(long nr_notes, int nr_cpus, ks_cpu_online_fn online,
		     void *arg);

/*
 * The note of cpu by a map of ks_cpu_note_map() of nr_cpus, or without
 * one (NULL) the n-th note CPU n's: -1 for none.  The crash target looks
 * its file's notes up so.
 */
int ks_cpu_note_of(const int *map, int nr_cpus, int cpu);

/* The note of cpu in the source's note order: -1 for none. */
int ks_image_cpu_note(const struct ks_image_opened *io, int cpu);

/* -v: what the dump was matched with, one line, and the chain's notes. */
void ks_image_describe(const struct ks_image_opened *io,
		       const struct ks_reporter *rep);

#endif /* KS_IMAGE_OPEN_H */
