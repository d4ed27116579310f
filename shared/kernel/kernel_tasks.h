/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tasks of a kernel image, as the live tool would have read them from
 * /proc at the moment the image was taken: the walk of init_task.tasks and
 * of each thread group, the state letter of fs/proc/array.c, the start time
 * of /proc/PID/stat, the comm of proc_task_name(), the command line of
 * /proc/PID/cmdline and the text of /proc/PID/stack.  Only struct
 * ks_target is used, so it serves crash, libkdumpfile and tests alike.
 */
#ifndef KS_KERNEL_TASKS_H
#define KS_KERNEL_TASKS_H

#include <stddef.h>
#include <stdint.h>

#include "kernel_layout.h"
#include "report.h"
#include "select.h"
#include "target.h"
#include "task.h"

struct ks_kernel;

struct ks_kernel_status {
	size_t nr_seen;		/* tasks found on the lists (idle tasks excluded) */
	size_t nr_unreadable;	/* task_structs that could not be read */
	size_t nr_list_errors;	/* lists that looped or broke off */
	size_t nr_stack_notes;	/* stacks the unwinder could not finish */
	size_t nr_stack_unread;	/* of those, stacks in memory the image lacks */
	size_t nr_on_cpu;	/* tasks that were on a CPU */
	size_t nr_module_errors;	/* modules (or their list) without ORC data */
	const char *no_last_ran;	/* why no task has last_ran_ns, or NULL */
	const char *unwinder;	/* -v's note on an unwinder other than ORC, or NULL */
	uint64_t no_clock;	/* the timekeeper not in the image, or 0 */
	double start;		/* CLOCK_MONOTONIC seconds when the sample began */
};

/*
 * Reads the layout and, when the kernel has one, the ORC tables.  Returns 0
 * or -errno, the reason (a member this walk cannot do without, an
 * unreadable init_task, ...) through rep (may be NULL) when there is
 * one to say.  A kernel without ORC tables is unwound with frame pointers;
 * one whose tables cannot be used still has its tasks listed, each with
 * an empty stack and a note.
 */
int ks_kernel_open(const struct ks_target *t, struct ks_kernel **k_ret,
		   const struct ks_reporter *rep);
void ks_kernel_close(struct ks_kernel *k);
const struct ks_kernel_layout *ks_kernel_layout(const struct ks_kernel *k);

/*
 * The sample time (timekeeper.xtime_sec; KS_WHEN_UNKNOWN where that page
 * is not in the image) and host (init_uts_ns nodename).
 */
int ks_kernel_when_host(struct ks_kernel *k, time_t *when_ret, char *host,
			size_t hostlen);
/* init_uts_ns's release ("6.1.0-27-amd64"); -ENOENT if the type lacks it. */
int ks_kernel_release(struct ks_kernel *k, char *buf, size_t len);

/*
 * Adds every task opts selects to s, in the order the live tool lists
 * them: processes by ascending PID, with -H each one's threads by
 * ascending TID; -p alone in the order given.  Trouble with one task or
 * list goes to rep (may be NULL) and into st; the walk goes on.
 * Returns 0, or -errno for a failure of the whole walk (-ENOMEM,
 * -EFAULT for an unreadable init_task, -ENOENT for a missing layout the
 * options need, e.g. --cgroup without cgroup types).
 */
int ks_kernel_walk(struct ks_kernel *k, const struct ks_walk_opts *opts,
		     struct ks_sample *s, struct ks_kernel_status *st,
		     const struct ks_reporter *rep);

/*
 * Calls fn(task, arg) for every task on the lists, processes and their
 * threads (not the idle tasks, which are on none), in list order, with
 * nothing said of a broken list: the walk above is the one that reports
 * them.  Returns 0, -ENOMEM, or the first non-zero fn returns.
 */
int ks_kernel_each_task(struct ks_kernel *k,
			int (*fn)(uint64_t task, void *arg), void *arg);

/*
 * The letter get_task_state() prints for __state and exit_state (6.1.123+
 * stable rule: TASK_IDLE masked, TASK_RTLOCK_WAIT and TASK_FROZEN as D).
 */
char ks_task_state_letter(const struct ks_kernel_layout *l, uint64_t state,
			  uint64_t exit_state);

#endif /* KS_KERNEL_TASKS_H */
