/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The symbols and types of one kernel image, for the targets that have
 * only its memory (a dump read with libkdumpfile, the running kernel
 * through /proc/kcore): a symbol finder (a debug vmlinux's .symtab, or the
 * kernel's own kallsyms tables in memory, then the kallsyms chain of
 * modules, BPF and ftrace_mod_maps) and a type finder (BTF from the
 * vmlinux, a file such as /sys/kernel/btf/vmlinux, or memory).  The image
 * is the target's context itself (ks_image_target()), over a target that
 * reads memory, or one that knows the kernel too (crash, whose symbol
 * and type answers join the same ordered list: image_open.h).
 */
#ifndef KS_KERNEL_IMAGE_H
#define KS_KERNEL_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "btf.h"
#include "data_finder.h"
#include "elf_symtab.h"
#include "kallsyms.h"
#include "kallsyms_mem.h"
#include "kallsyms_scan.h"
#include "page_walk.h"
#include "sym_finders.h"
#include "target.h"
#include "vmcoreinfo.h"

struct ks_image {
	struct ks_elf_symtab *syms;	/* a debug vmlinux's, or NULL: */
	struct ks_kallsyms_mem *kmem;	/* the kernel's own kallsyms */
	bool kmem_scanned;		/* found by their shape, not listed */
	struct ks_btf *btf;
	const char *btf_from;		/* "the vmlinux", a path, "memory" */
	struct ks_kallsyms *ksyms;	/* modules, BPF, ftrace_mod_maps */
	struct ks_sym_finders finders;	/* the above, in the order asked */
	const struct ks_target *mem;	/* the memory under the image */
	/* the variables a text-only kallsyms lacks, found in the data */
	struct ks_data_finder *data;
	/*
	 * The paging facts of user reads, for a mem without a read_user op
	 * (the opener's, image_open.c); NULL: it has one.
	 */
	struct ks_user_walk *uw;
};

/* A debug vmlinux's symbols (moved by the KASLR offset), kept by im. */
int ks_image_set_vmlinux(struct ks_image *im, struct ks_elf_symtab *syms);

/*
 * vmlinux symbols from the kallsyms tables at a (runtime addresses, from
 * VMCOREINFO), read through mem.  Errors as ks_kallsyms_mem_load().
 */
int ks_image_load_kallsyms(struct ks_image *im, const struct ks_target *mem,
			   const struct ks_kallsyms_mem_addrs *a);

/* Which kallsyms tables ks_image_find_kallsyms() may take. */
enum ks_kallsyms_from {
	KS_KALLSYMS_LISTED_OR_SCAN,	/* VMCOREINFO's list, else the scan */
	KS_KALLSYMS_SCAN_ONLY,		/* the tests': the list ignored */
};

/*
 * vmlinux symbols from the kernel's own kallsyms tables: where
 * VMCOREINFO lists them (Linux 6.0+), else where kallsyms_scan.c finds
 * them by their shape.  -ENOENT when neither has them (sc_ret says where
 * the scan looked), -EINVAL when tables were found but refused (after a
 * message through rep) or do not decode; else as
 * ks_kallsyms_mem_load().
 */
int ks_image_find_kallsyms(struct ks_image *im, const struct ks_target *mem,
			   const struct ks_vmcoreinfo *vi,
			   enum ks_kallsyms_from from,
			   const struct ks_reporter *rep,
			   struct ks_kallsyms_scan *sc_ret);

/*
 * The BTF of a vmlinux file, its .BTF section: -ENOENT without one, else
 * as ks_btf_load().  The crash target's type finder uses it too.
 */
int ks_image_vmlinux_btf(const struct ks_elf_symtab *vmlinux,
			 struct ks_btf **btf_ret);

/*
 * BTF from the vmlinux's .BTF, else from the file btf_path (may be NULL),
 * else from __start_BTF..__stop_BTF in memory.  Needs the symbols first.
 * -ENOENT when no source has it; -EBADMSG once "no usable BTF in
 * SOURCE: ..." named its damaged records through rep; -EINVAL for
 * another malformed blob; -ENOMEM.
 */
int ks_image_load_btf(struct ks_image *im, const struct ks_target *mem,
		      const char *btf_path, const struct ks_reporter *rep);

/*
 * Where the kernel's own kallsyms names text only (no CONFIG_KALLSYMS_ALL),
 * the data finder as the last finder (data_finder.h), over the image's
 * target; what it cannot find is said through rep.  Nothing is added
 * for a vmlinux or a kallsyms that names data.  Call after
 * ks_image_target(); 0 or -ENOMEM.
 */
int ks_image_add_data_finder(struct ks_image *im,
			     const struct ks_reporter *rep);

/* The kallsyms chain, read through t (the finished target); -ENOMEM only. */
int ks_image_load_chain(struct ks_image *im, const struct ks_target *t);

void ks_image_release(struct ks_image *im);

/* The struct ks_target_ops answers, for targets built on an image. */
int ks_image_symbol(const struct ks_image *im, const char *name,
		    uint64_t *addr_ret);
int ks_image_lookup(const struct ks_image *im, uint64_t addr,
		    struct ks_sym *sym_ret);
long ks_image_member_offset(const struct ks_image *im, const char *type,
			    const char *member);
long ks_image_type_size(const struct ks_image *im, const char *type);
long ks_image_member_size(const struct ks_image *im, const char *type,
			  const char *member);
/* An enumerator's value from the BTF; -ENOENT without it. */
int ks_image_enum_value(const struct ks_image *im, const char *type,
			const char *name, long long *val_ret);

/*
 * The target of the image over mem (which answers reads, and registers
 * unless it has no cpu_regs op): symbols and types from im, the rest
 * passed to mem.  User reads are mem's, or without its read_user op the
 * page walk's over mem's read_phys with im->uw.  mem must outlive the
 * target; it needs no symbol or type ops of its own, and its type ops,
 * where it has them (crash's gdb), answer when there is no BTF.
 */
void ks_image_target(struct ks_image *im, const struct ks_target *mem,
		     struct ks_target *t_ret);

/* How many vmlinux symbols, and from where, for -v. */
size_t ks_image_nr_symbols(const struct ks_image *im);
const char *ks_image_symbols_from(const struct ks_image *im);

#endif /* KS_KERNEL_IMAGE_H */
