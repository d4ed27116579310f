// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86_64 behind struct ks_arch: the page walk of x86_64_page_walk.c, the
 * ORC unwinder (shared/kernel/arch/orc/, x86_64_unwind.c's table), thread.sp
 * that __switch_to_asm() leaves at the task's inactive_task_frame, and
 * the registers of struct elf_prstatus (user_regs_struct, in pt_regs'
 * order).
 */
#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <string.h>

#include "arch.h"
#include "hooks_records.h"
#include "prstatus.h"
#include "x86_64_unwind.h"
#include "orc.h"
#include "x86_64.h"

/* struct elf_prstatus's pr_reg on x86_64: user_regs_struct */
#define PRSTATUS_WORDS	27		/* user_regs_struct: 27 longs */

static int switch_layout(const struct ks_target *t, long thread_off,
			 struct ks_switch_layout *sw,
			 const struct ks_reporter *rep)
{
	struct ks_field sp;
	const struct ks_field_spec s[] = {
		KS_NEED(&sp, "thread_struct", "sp"),
	};
	int ret;

	ret = ks_field_table_report(t, s, 1, rep);
	sw->sp = (struct ks_field){ thread_off + sp.off, 8 };
	sw->fp = sw->pc = (struct ks_field){ -1, -1 };
	return ret;
}

static int prstatus_regs(const void *desc, size_t len, struct ks_regs *regs_ret)
{
	uint64_t reg[PRSTATUS_WORDS];

	if (ks_prstatus_pr_reg(desc, len, reg, PRSTATUS_WORDS, regs_ret))
		return -ENOENT;
	/* user_regs_struct starts with pt_regs' order: r15 ... orig_ax */
	memcpy(regs_ret->r, reg, sizeof(regs_ret->r));
	regs_ret->bp = reg[4];
	regs_ret->ip = reg[16];
	regs_ret->sp = reg[19];
	return 0;
}

#define REG(name, field)	{ name, offsetof(struct ks_regs, field) }
#define PT(name, slot)		REG(name, r[KS_PT_##slot])

/* The NT_PRSTATUS registers as libkdumpfile names them, in pt_regs order. */
static const struct ks_reg_name reg_names[] = {
	REG("rip", ip), REG("rsp", sp), REG("rbp", bp),
	PT("r15", R15), PT("r14", R14), PT("r13", R13), PT("r12", R12),
	PT("rbp", BP), PT("rbx", BX), PT("r11", R11), PT("r10", R10),
	PT("r9", R9), PT("r8", R8), PT("rax", AX), PT("rcx", CX),
	PT("rdx", DX), PT("rsi", SI), PT("rdi", DI), PT("orig_rax", ORIG_AX),
	{ NULL, 0 },
};

/*
 * What -K finds at a probed address: int3 (arch_arm_kprobe()), optprobe's
 * jmp, ftrace's call or nop5.
 */
static int probe_code(const uint8_t *b)
{
	static const uint8_t nop5[5] = { 0x0f, 0x1f, 0x44, 0x00, 0x00 };

	if (b[0] == 0xcc)
		return KS_CODE_INT3;
	if (b[0] == 0xe9)
		return KS_CODE_JMP;
	if (b[0] == 0xe8)
		return KS_CODE_CALL;
	if (!memcmp(b, nop5, sizeof(nop5)))
		return KS_CODE_FTRACE_NOP;
	return KS_CODE_OTHER;
}

static const char *const aliases[] = { "x86-64", "X86_64", NULL };

const struct ks_arch ks_arch_x86_64 = {
	.name = "x86_64",
	.aliases = aliases,
	.elf_machine = EM_X86_64,
	/* the top half of the address space is the kernel's */
	.kernel_start = 0xffff800000000000ull,
	.thread_size = KS_THREAD_SIZE_X86_64,
	.page_sizes = 4096,
	.ftrace_tramp_func = true,
	.default_stext = 0xffffffff81000000ull,
	.prstatus_size = 336,
	.paging = &ks_x86_64_paging,
	.switch_layout = switch_layout,
	.prstatus_regs = prstatus_regs,
	.reg_names = reg_names,
	.unwinder = &ks_x86_64_unwinder,
	.cpu_trace = ks_x86_cpu_trace,
	.probe_len = 5,
	.probe_breakpoint = KS_CODE_INT3,
	.probe_code = probe_code,
};
