/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a blocked task waits for, found as the kernel links it: the
 * waiter record on the task's own stack (struct mutex_waiter,
 * rwsem_waiter, semaphore_waiter) on the lock's wait_list, the
 * rt_mutex_waiter of task->pi_blocked_on in the lock's waiter tree, or
 * the lock of task->blocker (CONFIG_DETECT_HUNG_TASK_BLOCKER); or the
 * queue a task sleeps in: its wait_queue_entry or swait_queue on the
 * head's list, told a completion or a folio's lock where the kernel's
 * links say so.  Every
 * candidate is checked against the lock's own links before it is
 * believed; one that fails is dropped with its reason through the
 * reporter.  lock_wait.c finds one task's lock, wait_chains.c
 * follows owners from lock to lock.
 */
#ifndef KS_LOCK_WAIT_H
#define KS_LOCK_WAIT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "target.h"

enum ks_lock_kind {
	KS_LOCK_NONE,
	KS_LOCK_MUTEX,
	KS_LOCK_RWSEM,
	KS_LOCK_SEMAPHORE,
	KS_LOCK_RT_MUTEX,	/* every sleeping lock of a PREEMPT_RT kernel */
	/* a vfork parent's completion: its child "holds" it till exec or exit */
	KS_LOCK_VFORK,
	/* queues: no owner is recorded */
	KS_LOCK_WAITQ,		/* a wait_queue_head */
	KS_LOCK_SWAIT,		/* a swait_queue_head */
	KS_LOCK_COMPLETION,	/* a swait_queue_head that is a completion's */
	KS_LOCK_FOLIO,		/* a folio's PG_locked, in folio_wait_table */
	KS_LOCK_FOLIO_BIT,	/* another bit of a folio (PG_writeback) */
	/* a percpu_rw_semaphore's waiters: its writer is not recorded */
	KS_LOCK_PERCPU_RWSEM,
};

/*
 * "mutex", "rwsem", "semaphore", "rt_mutex", "vfork completion", "wait
 * queue", "swait queue", "completion", "folio lock", "folio bit",
 * "percpu_rwsem".
 */
const char *ks_lock_kind_name(enum ks_lock_kind kind);

/* Whether the kernel records no owner of what kind is: a queue. */
bool ks_lock_kind_ownerless(enum ks_lock_kind kind);

/* What one task waits for. */
struct ks_lock_wait {
	enum ks_lock_kind kind;
	/* the lock's address; a queue's head, a completion's, a folio's */
	uint64_t lock;
	uint64_t owner;		/* its owner's task_struct, or 0: none recorded */
	bool last_holder;	/* owner is a semaphore's last_holder (7.x) */
	bool readers;		/* an rwsem held by nr_readers readers */
	uint64_t nr_readers;
	/* "blocker", "pi_blocked_on", "vfork_done" or "stack" */
	const char *found;
	/* where the lock lies when its container tells more than a symbol
	 * or slab cache would: a superblock's s_writers ("" otherwise) */
	char where[64];
};

/* A task of the sample: its task_struct and the base of its stack. */
struct ks_wait_task {
	uint64_t task;
	uint64_t stack;
};

struct ks_lock_waits;

/*
 * The lock layouts of one kernel, from its types, and the tasks of the
 * sample (copied), which tell a waiter's list node, on some task's
 * stack, from the lock's head.  -ENOENT with a report when the kernel
 * has none of the lock types; -ENOMEM.
 */
int ks_lock_waits_open(const struct ks_target *t, uint64_t thread_size,
		       const struct ks_wait_task *tasks, size_t nr,
		       struct ks_lock_waits **ret,
		       const struct ks_reporter *rep);
void ks_lock_waits_close(struct ks_lock_waits *lw);
/*
 * Whether the run walked as many list nodes as it will (a few million,
 * more with more tasks): the candidates after that were not followed.
 */
bool ks_lock_waits_spent(const struct ks_lock_waits *lw);

/* Whether task is one of the sample's tasks. */
bool ks_lock_waits_is_task(const struct ks_lock_waits *lw, uint64_t task);

/*
 * What the task at task waits for: 1 and *ret, 0 when it waits on no
 * lock that checks out (each dropped candidate reported with its
 * reason), or -errno when its stack cannot be read.  sp: the stack
 * pointer its last switch saved (thread.sp), above which its live
 * frames and so its waiter lie, or 0 to read its whole stack (a task
 * on a CPU, whose saved sp is stale).  queues: wait
 * queues, completions and folios too, not only locks (a task in S
 * sleeps in a wait queue as a matter of course: poll, a pipe).
 */
int ks_lock_wait_find(struct ks_lock_waits *lw, uint64_t task, uint64_t sp,
		      bool queues, struct ks_lock_wait *ret,
		      const struct ks_reporter *rep);

#endif /* KS_LOCK_WAIT_H */
