/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A CPU caught inside __schedule(), after "rq->curr = next" and before
 * context_switch() moves it to next's stack (__switch_to_asm on x86-64,
 * cpu_switch_to on arm64): rq->curr already names next, while the CPU
 * still runs on the stack of prev, which is still the kernel's `current`
 * (x86-64's current_task and arm64's sp_el0 change in the switch itself)
 * and still has on_cpu set (finish_task_switch() clears it).  For
 * cpus_walk.c, which takes a CPU's task from rq->curr.
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

/* The tasks with on_cpu set, listed once for all CPUs, when first asked. */
struct ks_cpu_switch {
	bool listed;
	struct ks_cpu_on_task *e;
	size_t nr, cap;
};

/*
 * The task of CPU cpu whose stack holds sp, when the stack of rq->curr
 * does not: rq->idle (idle), or a task with on_cpu set whose task_cpu()
 * is cpu.  *task_ret is 0 when there is none: sp on an IRQ or exception
 * stack, a kernel without on_cpu.  Returns 0 or -ENOMEM.
 */
int ks_cpu_stack_owner(struct ks_kernel *k, struct ks_cpu_switch *sw,
		       int cpu, uint64_t idle, uint64_t sp, uint64_t *task_ret);
void ks_cpu_switch_release(struct ks_cpu_switch *sw);

#endif /* KS_CPU_SWITCH_H */
