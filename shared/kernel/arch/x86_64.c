// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * x86_64 behind struct ks_arch: the page walk of x86_64_page_walk.c, the
 * ORC unwinder (shared/kernel/arch/orc/, entered by x86_64_unwind.c), thread.sp
 * that __switch_to_asm() leaves at the task's inactive_task_frame, and
 * the registers of struct elf_prstatus (user_regs_struct, in pt_regs'
 * order).
 */
#include <elf.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
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
 * ORC tables, or, in a kernel without __start_orc_unwind_ip (built
 * without CONFIG_UNWINDER_ORC), the frame-pointer walk of fp_unwind.c
 * over its text range.  An ORC format not known here is no such kernel:
 * it stays refused.
 */
static int unwind_open(const struct ks_target *t, void **unw_ret)
{
	struct ks_orc *orc = NULL;
	uint64_t addr;
	int ret = ks_orc_load(t, &orc);

	if (ret == -ENOENT &&
	    t->ops->symbol(t->ctx, "__start_orc_unwind_ip", &addr) &&
	    !ks_orc_load_text(t, &orc))
		ret = 0;
	*unw_ret = ret ? NULL : orc;
	return ret;
}

static const char *unwinder_note(void *unw)
{
	const struct ks_orc *orc = unw;

	return orc->frame_pointers ? "no ORC tables: unwinding with frame "
	       "pointers, as CONFIG_UNWINDER_FRAME_POINTER kernels do" : NULL;
}

static void unwind_close(void *unw)
{
	if (unw)
		ks_orc_free(unw);
}

static const char *unwind_missing(int err)
{
	switch (err) {
	case -ENOENT:
		return "the kernel has none, nor the _stext/_etext a "
		       "frame-pointer walk needs";
	case -EPROTONOSUPPORT:
		return "their format is not one kstack knows";
	default:
		return NULL;
	}
}

/*
 * Stacks are walked with ORC, or with frame pointers in a kernel that has
 * no ORC tables (unwind_open() chooses); a kernel whose tables cannot be
 * used, or that lacks even its text range, is named with the reason.
 */
static void no_orc(int err, const struct ks_reporter *rep)
{
	switch (err) {
	case -ENOENT:
		ks_say(rep, KS_WARN, "no ORC unwind tables in this kernel (no "
		       "symbol __start_orc_unwind_ip), and no _stext/_etext "
		       "for the frame-pointer walk: every stack is empty");
		break;
	case -EPROTONOSUPPORT:
		ks_say(rep, KS_WARN, "this kernel's ORC format (its "
		       ".orc_header hash) is not one kstack knows: every stack "
		       "is empty");
		break;
	default:
		ks_say(rep, KS_WARN, "no ORC unwind tables in this kernel "
		       "(%s): every stack is empty", strerror(-err));
		break;
	}
}

static size_t unwind_report(void *unw, int err, const struct ks_reporter *rep)
{
	const struct ks_orc *orc = unw;

	/* A truncated dump may keep the kernel's text and lose its tables. */
	if (!orc && err == -EFAULT)
		ks_say(rep, KS_WARN, "the ORC unwind tables cannot be read (the image lacks "
		       "their memory): every stack is empty");
	else if (!orc)
		no_orc(err, rep);
	for (size_t i = 0; orc && i < orc->nr_problems; i++)
		ks_say(rep, KS_WARN, "%s", orc->problems[i]);
	return orc ? orc->nr_problems : 0;
}

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

/*
 * The unwinder is ORC's, or the frame-pointer walk where the kernel has
 * no ORC tables: one unwind state, x86_64_unwind.c steps it either way.
 */
static const struct ks_unwinder unwinder = {
	.open = unwind_open,
	.close = unwind_close,
	.stack_text = ks_stack_text,
	.lack = "no ORC unwind tables",
	.missing = unwind_missing,
	.note = unwinder_note,
	.report = unwind_report,
};

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
	.unwinder = &unwinder,
	.cpu_trace = ks_x86_cpu_trace,
	.probe_len = 5,
	.probe_breakpoint = KS_CODE_INT3,
	.probe_code = probe_code,
};
