/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kernel image made by hand, for tests: memory segments, a symbol
 * table, member offsets and type sizes, behind struct ks_target.  It
 * lives in shared/ so every unit test links it; nothing else uses it.
 */
#ifndef KS_FAKE_TARGET_H
#define KS_FAKE_TARGET_H

#include <stddef.h>
#include <stdint.h>

#include "kallsyms.h"
#include "page_walk.h"
#include "target.h"

struct ks_fake;

struct ks_fake *ks_fake_create(void);
void ks_fake_destroy(struct ks_fake *f);

/* A new segment of len bytes at addr: a copy of bytes, or zeros if NULL. */
int ks_fake_add_memory(struct ks_fake *f, uint64_t addr, const void *bytes,
		       size_t len);
/* Overwrites mapped bytes; -EFAULT when any of them is not mapped. */
int ks_fake_write(struct ks_fake *f, uint64_t addr, const void *bytes,
		  size_t len);
int ks_fake_write_u64(struct ks_fake *f, uint64_t addr, uint64_t val);

/*
 * Physical memory for read_phys, as the memory above; read_user walks
 * the page tables in it with the paging facts pg (until they are set,
 * read_user answers -ENOENT).
 */
int ks_fake_add_phys(struct ks_fake *f, uint64_t paddr, const void *bytes,
		     size_t len);
int ks_fake_write_phys(struct ks_fake *f, uint64_t paddr, const void *bytes,
		       size_t len);
void ks_fake_set_paging(struct ks_fake *f, const struct ks_paging *pg);

/*
 * A symbol covering [addr, addr + size); size 0 names an address (a
 * section marker) that lookup never returns.  module NULL for vmlinux.
 */
int ks_fake_add_symbol(struct ks_fake *f, const char *name, uint64_t addr,
		       uint64_t size, const char *module);
/* size may be -1 for "unknown" (member_size answers -ENOENT). */
int ks_fake_add_member(struct ks_fake *f, const char *type, const char *member,
		       long offset, long size);
int ks_fake_add_type(struct ks_fake *f, const char *type, long size);
/* The enumerator name of enum type ("zone_stat_item"), of value. */
int ks_fake_add_enum(struct ks_fake *f, const char *type, const char *name,
		     long value);
int ks_fake_set_cpu_regs(struct ks_fake *f, int cpu, const struct ks_regs *regs);

/* The dump's VMCOREINFO text ("NUMBER(VA_BITS)=48\n..."); -ENOMEM. */
int ks_fake_set_vmcoreinfo(struct ks_fake *f, const char *text);

/* What the target says it is: "x86_64" until set; NULL says nothing. */
void ks_fake_set_arch(struct ks_fake *f, const char *arch);

/* The target view; valid while f lives. */
void ks_fake_target(struct ks_fake *f, struct ks_target *t_ret);
/*
 * Makes lookup go on, past the fake's own table, through the kernel's
 * kallsyms chain read from the fake's memory now (modules, BPF,
 * ftrace_mod_maps), as the real targets do.  -ENOMEM on failure.
 */
int ks_fake_use_kallsyms(struct ks_fake *f);
const struct ks_kallsyms *ks_fake_kallsyms(const struct ks_fake *f);
/* Calls of ops->read so far, to check that big tables are read in chunks. */
unsigned long ks_fake_read_count(const struct ks_fake *f);

#endif /* KS_FAKE_TARGET_H */
