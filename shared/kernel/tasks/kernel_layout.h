/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where things are in the kernel's structures, looked up once per target
 * from its type information.  Kernel differences (__state or state,
 * task_struct.cpu or thread_info.cpu, signal->thread_head or
 * thread_group, ...) are decided here from which members exist and how
 * big they are, never from a version string, so one build reads every
 * 6.1 flavour and ABI.  A member the walk cannot do without is an error
 * naming it; one it can do without is -1 and the feature it serves says
 * so when it is asked for.
 */
#ifndef KS_KERNEL_LAYOUT_H
#define KS_KERNEL_LAYOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "arch.h"
#include "member_table.h"
#include "target.h"

/* include/linux/sched.h: the flags the walk needs (stable since 2.6). */
#define KS_PF_WQ_WORKER	0x00000020u
#define KS_PF_KTHREAD	0x00200000u

struct ks_kernel_layout {
	long task_size;			/* sizeof(struct task_struct) */
	long task_read_size;		/* the part of it the walk reads */
	struct ks_field tasks;		/* list_head of every process */
	struct ks_field pid, tgid;
	struct ks_field state;		/* __state (5.14+) or state */
	struct ks_field exit_state;
	struct ks_field flags;
	struct ks_field comm;
	struct ks_field start_boottime;	/* or real_start_time (< 5.5) */
	struct ks_field stack;
	struct ks_field stack_refcount;	/* optional */
	struct ks_switch_layout sw;	/* the arch's: thread.sp, thread.cpu_context */
	struct ks_field mm;
	struct ks_field on_cpu;		/* optional (!SMP) */
	struct ks_field cpu;		/* task_struct.cpu or thread_info.cpu */
	struct ks_field worker_private;	/* or set_child_tid: to_kthread() */
	struct ks_field cgroups;	/* optional: --cgroup */
	struct ks_field nvcsw, nivcsw;	/* optional: context switches */
	/*
	 * Time since last ran (crash's ps -m), optional: the task's
	 * sched_info.last_arrival (CONFIG_SCHED_INFO) against the clock of
	 * its CPU's runqueue, the per-CPU runqueues at __per_cpu_offset[cpu]
	 * (0: a kernel without per-CPU offsets, where the address is as is).
	 */
	struct ks_field last_arrival;	/* task_struct.sched_info.last_arrival */
	struct ks_field rq_clock;	/* rq.clock */
	struct ks_field rq_idle;	/* rq.idle: cpu_switch.c */
	uint64_t runqueues, per_cpu_offset;
	/*
	 * Blocked since (task_blocked.c), optional: the hung-task
	 * detector's last_switch_count and last_switch_time
	 * (CONFIG_DETECT_HUNG_TASK), jiffies_64 and HZ (0: unknown).
	 */
	struct ks_field last_switch_count, last_switch_time;
	uint64_t jiffies_64;
	uint64_t hz;

	/* threads: signal->thread_head + thread_node, else thread_group */
	bool thread_head;
	struct ks_field signal;
	struct ks_field signal_thread_head;
	struct ks_field thread_node;
	struct ks_field thread_group;

	struct ks_field mm_arg_start, mm_arg_end, mm_env_start, mm_env_end;

	/* proc_task_name(): kworker and long kthread names (optional) */
	struct ks_field kthread_full_name, kthread_data;
	struct ks_field worker_desc, worker_current_work, worker_pool;
	struct ks_field worker_rescue_wq, wq_name;	/* rescuers' names */

	/* cgroup v2 path (optional) */
	struct ks_field css_set_dfl_cgrp, cgroup_kn, kn_parent, kn_name;

	/* timekeeping: tk_core.timekeeper (or shadow_timekeeper) */
	uint64_t timekeeper;		/* address of the struct timekeeper */
	struct ks_field tk_xtime_sec, tk_offs_real, tk_offs_boot;

	uint64_t nodename;		/* address of init_uts_ns.name.nodename */
	long nodename_size;
	uint64_t release;		/* init_uts_ns.name.release, or 0 */
	long release_size;

	uint64_t init_task;
	uint64_t thread_size;		/* sizeof(union thread_union) */
	char state_letters[16];		/* task_state_array's first letters */
	size_t nr_states;
};

/*
 * Fills l from t, and the fields where arch's context switch leaves a
 * sleeping task's registers (l->sw) from arch.  Returns 0, or -ENOENT after reporting "what is missing
 * (file:line)" for a member or symbol no walk can do without, -EFAULT
 * when init_task or the timekeeper cannot be read; rep may be NULL.
 */
int ks_layout_init(const struct ks_target *t, const struct ks_arch *arch,
		   struct ks_kernel_layout *l, const struct ks_reporter *rep);

/* Reads an unsigned member of 1, 2, 4 or 8 bytes out of a copied struct. */
uint64_t ks_field_get(const void *obj, const struct ks_field *f);

#endif /* KS_KERNEL_LAYOUT_H */
