/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Background mode's memory of each task's last /proc/PID/stack, so that a
 * task that has not run since the last sample costs no stack read.
 *
 * A stack changes only while its task runs, and a task that runs has
 * been switched in first: sched_info_arrive() counts that in pcount, the
 * third field of /proc/PID/schedstat (proc_pid_schedstat()), and its
 * time on the CPU goes into the first, sum_exec_runtime.  A stack read
 * while its task was off every CPU (a non-empty text: proc_pid_stack()
 * prints nothing for a task on another CPU) therefore still holds while
 * the schedstat line read before it is unchanged.  The line is compared
 * whole: pcount alone would miss a task that the unwinder caught in the
 * instants between its switch-in and its on_cpu mark, whose time is
 * accounted when it leaves the CPU.
 *
 * Entries are keyed by the TID and the start time (stat's field 22) so
 * that a reused PID is another task; each sample fills a new table from
 * the last one, and what the sample did not see is freed with it.
 *
 * An entry also keeps the task's schedstat and cmdline files open: both
 * are read every sample, and a read at offset 0 of a file already open
 * costs a quarter (schedstat) to a half (cmdline) of opening, reading
 * and closing it again (tests/bench/background.sh).  An open /proc/PID
 * file holds the task's struct pid, not the task: once the task is gone
 * a read fails with ESRCH, so a kept file never answers for another
 * task.  Each kept schedstat holds its seq_file's page in the kernel, so
 * the files kept are bounded (ks_proc_cache_init()).
 */
#ifndef KS_PROC_CACHE_H
#define KS_PROC_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* A schedstat line: sum_exec_runtime (ns), run_delay (ns), pcount. */
struct ks_sched {
	uint64_t sum_exec_runtime;
	uint64_t run_delay;
	uint64_t pcount;
};

/* The files kept open per task. */
enum ks_kept_file {
	KS_KEPT_SCHEDSTAT,
	KS_KEPT_CMDLINE,
	KS_KEPT_NR
};

/* Kept files for at most this many tasks: 8,192 schedstat pages, 32 MiB. */
#define KS_KEPT_TASKS_MAX	8192

struct ks_proc_cache_entry {
	int32_t tid;
	unsigned long long start;	/* stat's starttime, in clock ticks */
	struct ks_sched sched;		/* the line it was read under */
	char *stack;
	size_t len;
	int kept[KS_KEPT_NR];		/* fd + 1, 0 for none */
};

/* The entries packed, found through an index of open addressing. */
struct ks_proc_cache_table {
	struct ks_proc_cache_entry *entries;
	size_t nr, entries_cap;
	uint32_t *index;		/* entry + 1, 0 for a free slot */
	size_t index_cap;		/* a power of two, or 0 */
};

struct ks_proc_cache {
	struct ks_proc_cache_table last;	/* the sample before */
	struct ks_proc_cache_table cur;		/* this sample's */
	size_t nr_kept, max_kept;		/* kept files, open and allowed */
};

/*
 * Parses a schedstat line: 0, or -EINVAL unless it is three numbers with
 * a pcount above 0.  A kernel without CONFIG_SCHED_INFO has no file, one
 * with the accounting off prints "0 0 0": those tasks are read in full.
 */
int ks_proc_parse_sched(const char *line, struct ks_sched *s);

/*
 * max_kept: how many files may be kept open; the caller leaves room
 * under RLIMIT_NOFILE for its own.  0 keeps none.
 */
void ks_proc_cache_init(struct ks_proc_cache *c, size_t max_kept);
void ks_proc_cache_free(struct ks_proc_cache *c);
/*
 * The kept file of tid (started at start), carried into this sample, or
 * -1 when there is none.  On a failed read the caller drops it.
 */
int ks_proc_cache_file(struct ks_proc_cache *c, int32_t tid,
		       unsigned long long start, enum ks_kept_file which);
void ks_proc_cache_drop_file(struct ks_proc_cache *c, int32_t tid,
			     enum ks_kept_file which);
/*
 * Keeps fd as tid's file for the next samples: 0, or -EMFILE (no room
 * left) or -ENOMEM, and then the caller still owns fd.
 */
int ks_proc_cache_keep_file(struct ks_proc_cache *c, int32_t tid,
			    unsigned long long start, enum ks_kept_file which,
			    int fd);
/*
 * The stack of tid (started at start) from the last sample when its
 * schedstat line is still sched; it moves into this sample's table and
 * stays valid until the next ks_proc_cache_end().  NULL when there is
 * none to trust.
 */
const char *ks_proc_cache_take(struct ks_proc_cache *c, int32_t tid,
			       unsigned long long start, const struct ks_sched *sched,
			       size_t *len_ret);
/*
 * Remembers a stack read under sched for the next sample: 0, or -ENOMEM
 * (nothing remembered, the task is read in full next time).  An empty
 * stack is not remembered: its task was on a CPU.
 */
int ks_proc_cache_keep(struct ks_proc_cache *c, int32_t tid,
		       unsigned long long start, const struct ks_sched *sched,
		       const char *stack, size_t len);
/* The end of a sample: what it did not see is forgotten. */
void ks_proc_cache_end(struct ks_proc_cache *c);

#endif /* KS_PROC_CACHE_H */
