/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The parts of ks_arch_arm64 that live in files of their own. */
#ifndef KS_ARCH_ARM64_H
#define KS_ARCH_ARM64_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "kernel_modules.h"
#include "page_walk.h"

/* arm64_page_walk.c: 4, 16 or 64 KiB granules, 2 to 4 levels, blocks */
int ks_arm64_translate(const struct ks_target *t, const struct ks_paging *pg,
		       uint64_t pgd, uint64_t vaddr, uint64_t *paddr_ret,
		       uint64_t *left_ret);
int ks_arm64_linear_pa(const struct ks_paging *pg, uint64_t vaddr,
		       uint64_t *paddr_ret);

/*
 * PAGE_END, where the linear map ends: _PAGE_END(VA_BITS_MIN), the same
 * for a 52-bit build whether its CPU runs 52 bits or 48 (KASAN's layout
 * aside).  pg's VA_BITS and page size must be known.
 */
uint64_t ks_arm64_page_end(const struct ks_paging *pg);
int ks_arm64_find_paging(const struct ks_target *t,
			 const struct ks_vmcoreinfo *vi, struct ks_paging *pg);
int ks_arm64_kernel_tables(const struct ks_vmcoreinfo *vi,
			   const struct ks_paging *pg,
			   struct ks_kernel_tables *kt_ret);

/* the table's paging: the walk above */
extern const struct ks_paging_ops ks_arm64_paging;

/*
 * arm64_code_refs.c: the addresses code at pc forms with ADRP and an ADD
 * or a load/store offset, each use once, in the order met; up to max
 * kept, the count returned.
 */
size_t ks_arm64_code_refs(const void *code, size_t len, uint64_t pc,
			  struct ks_code_ref *refs, size_t max);

/* What arm64_unwind.c reads once per kernel. */
struct ks_arm64_unwind {
	/*
	 * ptrauth_kernel_pac_mask() and ptrauth_user_pac_mask(): the bits
	 * a return address is signed in (VMCOREINFO's NUMBER(KERNELPACMASK),
	 * else GENMASK(63, vabits_actual)); 0 when neither is known.
	 */
	uint64_t kernel_pac_mask, user_pac_mask;
	/* struct pt_regs: its size and where stackframe, pc and regs[] are */
	long pt_regs_size, pt_stackframe, pt_pc, pt_regs;
	/*
	 * 6.13+ marks the ends of frame-record chains with a struct
	 * frame_record_meta (FRAME_META_TYPE_FINAL, _PT_REGS); before, the
	 * final record is known by its address alone.  -1 without the type.
	 */
	long meta_type;
	struct ks_range sched_text, lock_text;
};

/* Reads the above; -ENOENT for a pt_regs member the walk needs. */
int ks_arm64_unwind_load(const struct ks_target *t, struct ks_arm64_unwind *u);

/* The unwinder of ks_arch_arm64 (arch.h's struct ks_unwinder). */
extern const struct ks_unwinder ks_arm64_unwinder;

/* As ks_stack_text() (x86_64_unwind.h), with arm64's frame records (unw). */
int ks_arm64_stack_text(const struct ks_target *t, void *unw,
			const struct ks_stack_start *st, char **text_ret,
			const char **note_ret);

/* arm64_cpu_trace.c: the table's cpu_trace (arch.h) */
int ks_arm64_cpu_trace(const struct ks_target *t, void *unw,
		       const struct ks_cpu_start *st, struct ks_cpu *c);

/* ptrauth_strip_kernel_insn_pac() */
uint64_t ks_arm64_strip_pac(const struct ks_arm64_unwind *u, uint64_t ptr);

#endif /* KS_ARCH_ARM64_H */
