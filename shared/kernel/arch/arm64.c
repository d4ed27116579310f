// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * arm64 behind struct ks_arch: the page walk of arm64_page_walk.c, the
 * frame-record unwinder of arm64_unwind.c, thread.cpu_context that
 * cpu_switch_to() fills (x19..x28, fp, sp, pc) and the registers of
 * struct elf_prstatus (user_pt_regs: x0..x30, sp, pc, pstate).
 */
#include <elf.h>
#include <errno.h>
#include <stddef.h>

#include "arm64.h"
#include "hooks_records.h"
#include "prstatus.h"

/* struct elf_prstatus's pr_reg on arm64: user_pt_regs */
#define PRSTATUS_WORDS	34		/* x0..x30, sp, pc, pstate */

static int switch_layout(const struct ks_target *t, long thread_off,
			 struct ks_switch_layout *sw,
			 const struct ks_reporter *rep)
{
	struct ks_field ctx, sp, fp, pc;
	const struct ks_field_spec s[] = {
		KS_NEED(&ctx, "thread_struct", "cpu_context"),
		KS_NEED(&sp, "cpu_context", "sp"),
		KS_NEED(&fp, "cpu_context", "fp"),
		KS_NEED(&pc, "cpu_context", "pc"),
	};
	int ret;

	ret = ks_field_table_report(t, s, sizeof(s) / sizeof(s[0]), rep);
	if (ret) {
		sw->sp = sw->fp = sw->pc = (struct ks_field){ -1, -1 };
		return ret;
	}
	sw->sp = (struct ks_field){ thread_off + ctx.off + sp.off, 8 };
	sw->fp = (struct ks_field){ thread_off + ctx.off + fp.off, 8 };
	sw->pc = (struct ks_field){ thread_off + ctx.off + pc.off, 8 };
	return 0;
}

static int prstatus_regs(const void *desc, size_t len, struct ks_regs *regs_ret)
{
	uint64_t reg[PRSTATUS_WORDS];

	if (ks_prstatus_pr_reg(desc, len, reg, PRSTATUS_WORDS, regs_ret))
		return -ENOENT;
	regs_ret->bp = reg[29];
	regs_ret->r[0] = reg[30];
	regs_ret->sp = reg[31];
	regs_ret->ip = reg[32];
	return 0;
}

#define REG(name, field)	{ name, offsetof(struct ks_regs, field) }

/* libkdumpfile's names of the same registers (cpu.N.reg.x29, ...): lr
   where prstatus_regs() keeps it */
static const struct ks_reg_name reg_names[] = {
	REG("pc", ip), REG("sp", sp), REG("x29", bp), REG("lr", r[0]),
	{ NULL, 0 },
};

/* arch/arm64/include/asm/debug-monitors.h: BRK64_OPCODE_KPROBES */
#define ARM64_BRK_KPROBES	0xd4200080u	/* brk #KPROBES_BRK_IMM (0x004) */
#define ARM64_NOP		0xd503201fu
#define ARM64_BL_MASK		0xfc000000u
#define ARM64_BL		0x94000000u

/*
 * What -K finds at a probed address: arm64's arch_arm_kprobe() writes
 * BRK64_OPCODE_KPROBES over the instruction; ftrace's site is a bl (to
 * ftrace_caller) or a nop.  arm64 has no optprobes: there is no jmp.
 * Instructions are little-endian.
 */
static int probe_code(const uint8_t *b)
{
	uint32_t insn = (uint32_t)b[0] | (uint32_t)b[1] << 8 |
			(uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;

	if (insn == ARM64_BRK_KPROBES)
		return KS_CODE_BRK;
	if ((insn & ARM64_BL_MASK) == ARM64_BL)
		return KS_CODE_CALL;
	if (insn == ARM64_NOP)
		return KS_CODE_FTRACE_NOP;
	return KS_CODE_OTHER;
}

static const char *const aliases[] = { "aarch64", "ARM64", NULL };

const struct ks_arch ks_arch_arm64 = {
	.name = "arm64",
	.aliases = aliases,
	.elf_machine = EM_AARCH64,
	/*
	 * TTBR1's half: the top 12 bits set covers every VA_BITS (36..52);
	 * a user address never has them (TTBR0 maps below 2^VA_BITS).
	 */
	.kernel_start = 0xfff0000000000000ull,
	/* THREAD_SIZE: 16 KiB without KASAN, whatever the page size */
	.thread_size = 16384,
	/* the 4, 16 and 64 KiB granules */
	.page_sizes = 4096 | 16384 | 65536,
	/*
	 * No default_stext: KIMAGE_VADDR moved (6.1's _text is at
	 * 0xffff800008000000, 6.12's at 0xffff800080000000).
	 */
	.prstatus_size = 392,
	.paging = &ks_arm64_paging,
	.switch_layout = switch_layout,
	.prstatus_regs = prstatus_regs,
	.reg_names = reg_names,
	.unwinder = &ks_arm64_unwinder,
	.cpu_trace = ks_arm64_cpu_trace,
	.regs_pc_lr = true,
	.code_refs = ks_arm64_code_refs,
	.probe_len = 4,
	.probe_breakpoint = KS_CODE_BRK,
	.probe_code = probe_code,
};
