// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The task a CPU inside __schedule() still runs on (cpu_switch.h).  The
 * window is a few dozen instructions of each context switch, yet a dump
 * taken of a busy CPU falls into it now and then: QEMU stops the vCPU
 * where it is.
 */
#include <errno.h>
#include <stdlib.h>

#include "cpu_switch.h"
#include "grow.h"
#include "task_walk.h"

struct lister {
	struct ks_kernel *k;
	struct ks_cpu_switch *sw;
};

/* The task's stack, or 0 when task->stack cannot be read. */
static uint64_t task_stack(struct ks_kernel *k, uint64_t task)
{
	uint64_t stack;

	if (ks_read_u64(k->t, task + (uint64_t)k->l.stack.off, &stack))
		return 0;
	return stack;
}

static bool on_stack(const struct ks_kernel *k, uint64_t stack, uint64_t sp)
{
	return stack && sp - stack < k->l.thread_size;
}

/* One task of the lists: kept when on_cpu is set. */
static int add_on_cpu(uint64_t task, void *arg)
{
	struct lister *li = arg;
	const struct ks_kernel_layout *l = &li->k->l;
	struct ks_cpu_switch *sw = li->sw;
	struct ks_cpu_on_task *n;
	uint64_t on, cpu;

	if (ks_field_read(li->k->t, task, &l->on_cpu, 4, &on) || !on ||
	    ks_field_read(li->k->t, task, &l->cpu, 4, &cpu))
		return 0;
	n = ks_grow_min(sw->e, &sw->cap, sw->nr + 1, sizeof(*n), 16);
	if (!n)
		return -ENOMEM;
	sw->e = n;
	sw->e[sw->nr++] = (struct ks_cpu_on_task){ task,
		task_stack(li->k, task), cpu };
	return 0;
}

static int list_on_cpu(struct ks_kernel *k, struct ks_cpu_switch *sw)
{
	struct lister li = { k, sw };

	sw->listed = true;
	if (!ks_field_ok(&k->l.on_cpu) || !ks_field_ok(&k->l.cpu))
		return 0;
	return sw->each_task(k, add_on_cpu, &li);
}

/* cpu_rq(cpu)->idle, or 0 where the image does not say */
static uint64_t rq_idle(struct ks_kernel *k, int cpu)
{
	const struct ks_kernel_layout *l = &k->l;
	uint64_t off = 0, idle;

	if (!l->runqueues || !ks_field_ok(&l->rq_idle) ||
	    (l->per_cpu_offset &&
	     ks_read_u64(k->t, l->per_cpu_offset + 8 * (uint64_t)cpu, &off)) ||
	    ks_read_u64(k->t, l->runqueues + off + (uint64_t)l->rq_idle.off,
			&idle))
		return 0;
	return idle;
}

int ks_cpu_stack_owner(struct ks_kernel *k, struct ks_cpu_switch *sw,
		       int cpu, uint64_t sp, uint64_t *task_ret)
{
	uint64_t idle = rq_idle(k, cpu);
	int ret;

	*task_ret = 0;
	/* from the idle task to another: the idle task is on no list */
	if (idle && on_stack(k, task_stack(k, idle), sp)) {
		*task_ret = idle;
		return 0;
	}
	if (!sw->listed) {
		ret = list_on_cpu(k, sw);
		if (ret)
			return ret;
	}
	for (size_t i = 0; i < sw->nr; i++) {
		if (sw->e[i].cpu == (uint64_t)cpu &&
		    on_stack(k, sw->e[i].stack, sp)) {
			*task_ret = sw->e[i].task;
			return 0;
		}
	}
	return 0;
}

void ks_cpu_switch_release(struct ks_cpu_switch *sw)
{
	free(sw->e);
	sw->e = NULL;
	sw->nr = sw->cap = 0;
}
