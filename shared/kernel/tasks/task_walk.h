/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of the task walk share (task_walk.c, task_comm.c,
 * task_cmdline.c, task_cgroup.c, task_stack.c): the kernel handle and the
 * state of one walk.  Not for callers outside shared/kernel/: they use
 * kernel_tasks.h.
 */
#ifndef KS_TASK_WALK_H
#define KS_TASK_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_tasks.h"
#include "list_walk.h"
#include "arch.h"
#include "cpu_switch.h"

/* proc_task_name()'s buffer: char tcomm[64]. */
#define KS_TCOMM_LEN	64

struct ks_kernel {
	const struct ks_target *t;
	struct ks_kernel_layout l;
	const struct ks_arch *arch;	/* chosen once, from t->arch */
	void *unw;		/* the arch's unwinder tables, or NULL */
	int unw_err;		/* why there are none */
	uint8_t *tbuf;		/* one task_struct */
};

struct ks_walk_entry {
	uint64_t task;
	int32_t pid, tgid;
};

/* A task stack seen in this sample, and the task it was printed for. */
struct ks_stack_owner {
	uint64_t stack;
	int32_t pid;
};

struct ks_walk {
	struct ks_kernel *k;
	const struct ks_walk_opts *opts;
	struct ks_sample *s;
	struct ks_kernel_status *st;
	const struct ks_reporter *rep;
	struct ks_seen seen;	/* every list node so far, for loops */
	struct ks_walk_entry *e;
	size_t nr, cap;
	bool threads;		/* list thread groups too */
	int64_t btime;
	bool no_clock;		/* the timekeeper is unreadable: starts are "?" */
	bool cgroup_hidden;	/* no "0::" line in /proc/PID/cgroup */
	/* every stack printed so far: two tasks on one stack are named */
	struct ks_seen stacks;
	struct ks_stack_owner *owners;
	size_t nr_owners, owners_cap;
	/* each CPU's runqueue clock, read once: task_last_ran.c */
	uint64_t *rq_clock;
	signed char *rq_clock_state;	/* 0 unread, 1 read, -1 unreadable */
	size_t nr_rq_clock;
	/* the tasks on a CPU, for one switching onto it: task_stack.c */
	struct ks_cpu_switch cpu_sw;
	/* jiffies_64 at the dump, read once: task_blocked.c */
	uint64_t jiffies;
	signed char jiffies_state;	/* 0 unread, 1 read, -1 unreadable */
	/* the threads of a process share one mm: its command line, once */
	uint64_t cmd_mm;
	bool cmd_unread;	/* cmd_mm's command line is not (all) in the image */
	bool name_unread;	/* this task's full name is not (all) in it */
	char *cmd_buf;
	size_t cmd_len;
};

/* Copies at most srclen bytes of src up to its NUL, cut to fit dst. */
void ks_copy_kstr(char *dst, size_t len, const char *src, size_t srclen);

/* task_comm.c: the comm of /proc/PID/stat (proc_task_name()). */
void ks_task_comm(struct ks_walk *w, const uint8_t *tb, struct ks_task *t);
/*
 * task_last_ran.c: t->last_ran_ns from the task's sched_info and its
 * CPU's runqueue clock, where the kernel has both (t->cpu set first).
 */
void ks_task_last_ran(struct ks_walk *w, const uint8_t *tb, struct ks_task *t);
void ks_task_last_ran_release(struct ks_walk *w);
/* Why the kernel gives no task a time since last ran, or NULL. */
const char *ks_task_last_ran_missing(const struct ks_kernel_layout *l);
/*
 * task_blocked.c: t->blocked_ns of a task in D from the hung-task
 * detector's last_switch_time (t->state and the switches set first).
 */
void ks_task_blocked(struct ks_walk *w, const uint8_t *tb, struct ks_task *t);
/*
 * task_waits.c: --waits, each D task's lock after the walk (w->e lists
 * every task).  0, or -ENOMEM; a kernel without lock types is reported.
 */
int ks_task_waits(struct ks_walk *w);
/* task_cmdline.c: the Cmd of the record, from /proc/PID/cmdline's text. */
char *ks_task_cmd(struct ks_walk *w, const uint8_t *tb, uint64_t task,
		  const struct ks_task *t);
/* task_stack.c: the text of /proc/PID/stack into t->stack, or -errno. */
int ks_task_stack(struct ks_walk *w, const uint8_t *tb, uint64_t task,
		  struct ks_task *t);
/*
 * task_cgroup.c: -ENOENT when --cgroup was given and the layout lacks
 * the cgroup members, else 0; then whether the task is in the cgroup.
 */
int ks_task_cgroup_setup(struct ks_walk *w);
bool ks_task_in_cgroup(struct ks_walk *w, const uint8_t *tb, int32_t pid);

#endif /* KS_TASK_WALK_H */
