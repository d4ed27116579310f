/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A CPU caught inside __schedule(), after "rq->curr = next" and before
 * context_switch() moves it to next's stack (__switch_to_asm on x86-64,
 * cpu_switch_to on arm64): rq->curr already names next, while the CPU
 * still runs on the stack of prev, which is still the kernel's `current`
 * (x86-64's current_task and arm64's sp_el0 change in the switch itself)
 * and still has on_cpu set (finish_task_switch() clears it), while
 * next has it set too from prepare_task() on.  For cpus_walk.c, which
 * takes a CPU's task from rq->curr, and task_stack.c, which unwinds an
 * on_cpu task from its CPU's registers.
 */
#ifndef KS_CPU_SWITCH_H
#define KS_CPU_SWITCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ks_kernel;

struct ks_cpu_on_task {
	uint64_t task, stack;
	uint64_t cpu;
};

/*
 * The tasks with on_cpu set, listed once for all CPUs, when first asked,
 * through each_task (kernel_tasks.h's ks_kernel_each_task(), which the
 * caller names: the task walk's own files call this one).
 */
struct ks_cpu_switch {
	int (*each_task)(struct ks_kernel *k,
			 int (*fn)(uint64_t task, void *arg), void *arg);
	bool listed;
	struct ks_cpu_on_task *e;
	size_t nr, cap;
};

/*
 * The task of CPU cpu whose stack holds sp: its idle task (rq->idle), or
 * a task with on_cpu set whose task_cpu() is cpu.  *task_ret is 0 when
 * there is none: sp on an IRQ or exception stack, a kernel without
 * on_cpu.  Returns 0 or -ENOMEM.
 */
int ks_cpu_stack_owner(struct ks_kernel *k, struct ks_cpu_switch *sw,
		       int cpu, uint64_t sp, uint64_t *task_ret);
void ks_cpu_switch_release(struct ks_cpu_switch *sw);

#endif /* KS_CPU_SWITCH_H */
