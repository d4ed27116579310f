/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The root blocker of the waits (kstack triage's "Who is stuck"): where
 * the longest chain of waits ends, the task that holds up every task of
 * it, or the deadlock it runs into.  By index only, as wait_chains.h.
 */
#ifndef KS_WAIT_ROOT_H
#define KS_WAIT_ROOT_H

#include <stdbool.h>
#include <stddef.h>

#include "wait_chains.h"

struct ks_wait_root {
	bool found;		/* false: no task waits for a lock */
	bool deadlock;		/* the root is the deadlock c->v[chain] */
	size_t chain;		/* the chain (or the deadlock) in c->v */
	size_t length;		/* its tasks, first waiter to root, counted */
	/*
	 * !deadlock: the last task of the chain in the sample; beyond: the
	 * root is the owner of its lock, a task outside the sample (the
	 * tasks in D alone hold none of a holder asleep in S).
	 */
	size_t task;
	bool beyond;
};

/*
 * The root of the chains c built over next[] (nr tasks): the chain with
 * the most tasks from its first waiter to where it ends wins, counting
 * an owner outside the sample (outside[i]: task i's lock has an owner
 * that is no task of next[]) and, for a chain that runs into a
 * deadlock, every task of the cycle.  A deadlock alone counts its
 * cycle.  On a tie the first of c wins: deadlocks, then the older
 * chain.  The root of a chain that runs into a deadlock is the
 * deadlock.  0 or -ENOMEM.
 */
int ks_wait_root_find(const struct ks_wait_chains *c, const size_t *next,
		      const bool *outside, size_t nr, struct ks_wait_root *r);

#endif /* KS_WAIT_ROOT_H */
