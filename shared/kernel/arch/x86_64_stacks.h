/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The stacks of one x86-64 CPU and get_stack_info() over them
 * (arch/x86/kernel/dumpstack_64.c): the task stack of its current task,
 * the IRQ stack (softirqs run on it too), the exception (IST) stacks in
 * its cpu_entry_area and the entry stack, for --cpus.
 */
#ifndef KS_X86_64_STACKS_H
#define KS_X86_64_STACKS_H

#include <stdbool.h>
#include <stdint.h>

#include "kernel_modules.h"
#include "target.h"

/* enum stack_type, x86-64 (arch/x86/include/asm/stacktrace.h) */
enum {
	KS_STACK_UNKNOWN,
	KS_STACK_TASK,
	KS_STACK_IRQ,
	KS_STACK_SOFTIRQ,
	KS_STACK_ENTRY,
	KS_STACK_EXCEPTION,	/* + ESTACK_DF, NMI, DB, MCE, VC, VC2 */
	KS_STACK_TYPES = KS_STACK_EXCEPTION + 6,
};

/* struct stack_info */
struct ks_x86_stack_info {
	int type;
	struct ks_range r;
	uint64_t next_sp;	/* where the stack was entered from, or 0 */
};

struct ks_x86_cpu_stacks {
	const struct ks_target *t;
	struct ks_range task;
	struct ks_range irq;		/* 0, 0: none known */
	uint64_t estacks, estacks_size;	/* cea_exception_stacks, or 0 */
	struct ks_range est[6];		/* each one's offsets in it, or 0, 0 */
	struct ks_range entry;		/* cpu_entry_area's entry stack */
};

/*
 * The stacks of cpu, whose current task's stack is task.  A stack whose
 * place cannot be read is left out (a walk that needs it then ends there
 * and says so): returns the reason for the first one, a static string, or
 * NULL when every place was read.
 */
const char *ks_x86_cpu_stacks(const struct ks_target *t, int cpu,
			      struct ks_range task,
			      struct ks_x86_cpu_stacks *cs);

/*
 * get_stack_info() for current: the stack addr is on, each type entered
 * once per visit_mask (a second visit is the kernel's "recursion" stop).
 */
bool ks_x86_stack_info(const struct ks_x86_cpu_stacks *cs, uint64_t addr,
		       unsigned long *visit_mask, struct ks_x86_stack_info *info);

/* stack_type_name(): "TASK", "IRQ", "NMI", "#DF", ...; NULL for none. */
const char *ks_x86_stack_name(int type);

#endif /* KS_X86_64_STACKS_H */
