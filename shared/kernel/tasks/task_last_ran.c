// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * How long ago each task last ran, as crash's ps -m counts it
 * (show_milliseconds() and task_last_run() in crash's task.c): the clock
 * of the runqueue of the task's CPU at the dump, minus the task's
 * sched_info.last_arrival, the rq clock of its last switch in
 * (sched_info_arrive()).  A task that arrived after its CPU's clock was
 * last updated counts 0, as in crash.  The runqueue is the per-CPU
 * variable runqueues, at __per_cpu_offset[cpu] from its symbol
 * (per_cpu_ptr()); each CPU's clock is read once per walk.
 */
#include <stdlib.h>
#include <string.h>

#include "task_walk.h"

/* NR_CPUS at its largest (x86 MAXSMP): a CPU number past it is damage. */
#define MAX_CPUS	8192

/* The rq clock of cpu, read the first time it is asked for: 0 or -1. */
static int rq_clock(struct ks_walk *w, int32_t cpu, uint64_t *clock_ret)
{
	const struct ks_kernel_layout *l = &w->k->l;
	uint64_t off = 0, clock;
	size_t n = (size_t)cpu + 1;

	if (n > w->nr_rq_clock) {
		uint64_t *c = realloc(w->rq_clock, n * sizeof(*c));
		signed char *st;

		if (!c)
			return -1;
		w->rq_clock = c;
		st = realloc(w->rq_clock_state, n);
		if (!st)
			return -1;
		memset(st + w->nr_rq_clock, 0, n - w->nr_rq_clock);
		w->rq_clock_state = st;
		w->nr_rq_clock = n;
	}
	if (!w->rq_clock_state[cpu]) {
		w->rq_clock_state[cpu] = -1;
		if ((!l->per_cpu_offset ||
		     !ks_read(w->k->t, l->per_cpu_offset + 8 * (uint64_t)cpu,
			      &off, sizeof(off))) &&
		    !ks_read(w->k->t, l->runqueues + off + (uint64_t)l->rq_clock.off,
			     &clock, sizeof(clock))) {
			w->rq_clock[cpu] = clock;
			w->rq_clock_state[cpu] = 1;
		}
	}
	if (w->rq_clock_state[cpu] < 0)
		return -1;
	*clock_ret = w->rq_clock[cpu];
	return 0;
}

void ks_task_last_ran(struct ks_walk *w, const uint8_t *tb, struct ks_task *t)
{
	const struct ks_kernel_layout *l = &w->k->l;
	uint64_t clock, arrival;

	if (w->st->no_last_ran || !t->has_cpu || t->cpu < 0 ||
	    t->cpu >= MAX_CPUS || rq_clock(w, t->cpu, &clock))
		return;
	arrival = ks_field_get(tb, &l->last_arrival);
	t->has_last_ran = true;
	t->last_ran_ns = clock > arrival ? clock - arrival : 0;
}

const char *ks_task_last_ran_missing(const struct ks_kernel_layout *l)
{
	if (!ks_field_ok(&l->last_arrival))
		return "no sched_info.last_arrival in this kernel's types "
		       "(CONFIG_SCHED_INFO)";
	if (!ks_field_ok(&l->rq_clock) || l->rq_clock.size != 8)
		return "no 8-byte rq.clock in this kernel's types";
	if (!l->runqueues)
		return "no symbol runqueues";
	return NULL;
}

void ks_task_last_ran_release(struct ks_walk *w)
{
	free(w->rq_clock);
	free(w->rq_clock_state);
	w->rq_clock = NULL;
	w->rq_clock_state = NULL;
	w->nr_rq_clock = 0;
}
