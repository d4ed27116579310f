/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reads one sample of tasks from a /proc tree (the real /proc or a copy
 * given with --proc-root) into the shared record.
 */
#ifndef KS_PROC_TASKS_H
#define KS_PROC_TASKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "select.h"
#include "proc_cache.h"
#include "report.h"
#include "task.h"

/* What went wrong in a sample, counted so each kind is reported once. */
struct ks_proc_status {
	size_t nr_vanished;	/* gone between listing and reading: silent */
	size_t nr_denied;	/* /proc/PID/stack: EACCES/EPERM */
	int32_t first_denied;	/* the first of them, for the message */
	size_t nr_unreadable;	/* any other read error or bad value */
	int last_errno;
	char first_error[256];	/* the first "other" error, for the message */
	/* with a cache (background mode) */
	size_t nr_reused;	/* stacks taken from the last sample */
	/* with ks_proc.verify: each task read again in full at once */
	size_t nr_verified;	/* records compared */
	size_t nr_raced;	/* different, but the task changed between */
	size_t nr_mismatch;	/* different although it did not: a fault */
	char first_mismatch[512];
};

/* a tree without root/stat's btime: every start time is unknown */
#define KS_BTIME_UNKNOWN	(-1)

struct ks_proc {
	int root_fd;
	long clk_tck;
	int64_t btime;		/* >= 0, or KS_BTIME_UNKNOWN */
	char *buf;		/* scratch for reading files */
	size_t buf_size;
	/*
	 * Background mode's stacks of the last sample (proc_cache.h), or
	 * NULL to read every stack.  With verify (a test knob), every task
	 * is also read in full right after and the two records compared.
	 */
	struct ks_proc_cache *cache;
	bool verify;
	int32_t self;		/* our PID: our own stack is always read */
	/*
	 * A process no sample lists (0: none): background mode's own, which
	 * would otherwise be the one task seen in every sample, "stuck" in R.
	 */
	int32_t leave_out;
	/* with verify: the last task's stat and schedstat as first read */
	char seen_stat[2048];
	struct ks_sched seen_sched;
	int seen_sched_ret;
};

/*
 * Opens the tree at root and reads its boot time.  Returns 0, or -errno
 * after a message naming the directory at fault to rep; a tree without
 * a boot time is said once to rep and opens (btime KS_BTIME_UNKNOWN).
 */
int ks_proc_open(struct ks_proc *p, const char *root,
		 const struct ks_reporter *rep);
/*
 * Whether kernel stacks may be read at all, tried on our own: -EACCES or
 * -EPERM when not (not root, no CAP_SYS_ADMIN), else 0 (a tree without
 * self/stack, such as the test fixtures, cannot tell and passes).
 */
int ks_proc_stack_access(struct ks_proc *p);
/* Why /proc/PID/stack was refused: not root, or root the kernel refused. */
const char *ks_proc_denied_reason(void);
/* Our PID when the tree is this system's /proc (its self is us), else 0. */
int32_t ks_proc_our_pid(struct ks_proc *p);
void ks_proc_close(struct ks_proc *p);
/*
 * Fill s with every task sel selects; switches: with each one's context
 * switches (--json prints them).  Returns 0 or -errno for a failure of
 * the whole sample (the /proc tree itself unreadable); per-task trouble
 * goes into st.
 */
int ks_proc_sample(struct ks_proc *p, const struct ks_selection *sel,
		   bool switches, struct ks_sample *s, struct ks_proc_status *st);

/*
 * The parsers of the files, on NUL-terminated text.
 * /proc/stat: the btime line's value (>= 0).  0, -ENODATA without a btime
 * line, or -EINVAL when its value is no such number.
 */
int ks_proc_parse_btime(const char *buf, int64_t *btime_ret);
/*
 * /proc/PID/stat: comm into t->comm, the state letter into t->state, and
 * starttime (field 22, clock ticks) with whether it is a plain number.
 * 0, or -EINVAL when the text has no "(comm) S" head or fewer fields.
 */
int ks_proc_parse_stat(const char *buf, struct ks_task *t,
		       unsigned long long *start_ret, bool *start_ok);
/*
 * /proc/PID/status: voluntary_ctxt_switches and nonvoluntary_ctxt_switches
 * into t->nvcsw and t->nivcsw, has_switches set only when both are there.
 */
void ks_proc_parse_switches(const char *buf, struct ks_task *t);
/*
 * /proc/PID/cgroup: whether its cgroup v2 line ("0::PATH") names cgroup
 * or a cgroup below it (trailing slashes of cgroup ignored; "/" is all).
 */
bool ks_proc_cgroup_match(const char *text, const char *cgroup);

#endif /* KS_PROC_TASKS_H */
