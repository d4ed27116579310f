/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who blocks whom: from each task's owner (the task holding the lock it
 * waits for), the chains of waits, owner to owner, and the cycles among
 * them, which are deadlocks.  It knows tasks by index only; lock_wait.c
 * finds what each one waits for.
 */
#ifndef KS_WAIT_CHAINS_H
#define KS_WAIT_CHAINS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* next[i] of a task that waits for no lock, or for one of no known owner. */
#define KS_WAIT_NONE	((size_t)-1)
#define KS_WAIT_END	((size_t)-2)

struct ks_wait_chain {
	size_t *task;		/* each waits for the next's lock */
	size_t nr;
	/*
	 * A deadlock: the last waits for a lock the first holds.  Else the
	 * last waits for nothing known, or into_deadlock: it is a task of
	 * the deadlock chains[deadlock].
	 */
	bool deadlock, into_deadlock;
	size_t deadlock_of;
	/*
	 * The last is a task of chains[joins_of], which goes on from it for
	 * more than KS_WAIT_SHARED_MAX tasks: shown once, not again here.
	 */
	bool joins;
	size_t joins_of;
	uint64_t age;		/* the longest wait of its waiters */
	size_t built;		/* private: its place before the sort */
	/*
	 * After ks_wait_chains_fold(): the other waiters for the lock
	 * task[0] waits for, each of which headed a chain of its own that
	 * went on as this one does: one holder, one chain.
	 */
	size_t *also;
	size_t nr_also, cap_also;
};

/*
 * How many tasks of an earlier chain a later one repeats before it says
 * "as in chain N": thousands of waiters on one long chain would print it
 * thousands of times (the square of the waiters, in lines and memory).
 */
#define KS_WAIT_SHARED_MAX	8

struct ks_wait_chains {
	struct ks_wait_chain *v;	/* deadlocks, then chains, longest first */
	size_t nr, cap;
	size_t nr_deadlocks;		/* the first of v that are deadlocks */
};

/*
 * The chains of nr tasks: next[i] is the index of the owner of the lock
 * task i waits for, KS_WAIT_END when it waits for a lock of no known
 * owner, KS_WAIT_NONE when it waits for none; age[i] how long it has
 * waited.  Each chain starts at a waiter nobody waits for; each cycle is
 * one deadlock, begun at its oldest waiter.  Memory and the chains'
 * total length are linear in nr.  0 or -ENOMEM.
 */
int ks_wait_chains_build(const size_t *next, const uint64_t *age, size_t nr,
			 struct ks_wait_chains *ret);
/*
 * Whether chains headed by waiters a and b show one wait: the same lock,
 * held by the same owner.  key is the lock (0: none to fold by).
 */
struct ks_wait_fold {
	uint64_t (*key)(void *arg, size_t task);
	bool (*same)(void *arg, size_t a, size_t b);
	void *arg;
};

/*
 * Folds each chain whose head waits as an earlier chain's head does into
 * that chain's also[] (the chains are built from their heads, one per
 * waiter nobody waits for, so that N waiters for one lock would be N
 * chains of one holder).  Deadlocks are left; joins_of follows the
 * chains kept.  Linear in the chains.  0 or -ENOMEM (then c is only
 * to be released).
 */
int ks_wait_chains_fold(struct ks_wait_chains *c, const struct ks_wait_fold *f);
void ks_wait_chains_release(struct ks_wait_chains *c);

#endif /* KS_WAIT_CHAINS_H */
