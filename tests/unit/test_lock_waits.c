// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What blocked tasks wait for (shared/kernel/waits/lock_wait.c) and who
 * blocks whom (wait_chains.c), on locks forged in a fake target: waiter
 * records on the tasks' stacks linked into a mutex, an rwsem held by a
 * writer, one held by readers and a semaphore, an rt_mutex waiter of
 * pi_blocked_on, a task->blocker; and the candidates that must be
 * dropped with their reason: a lock without its waiters flag, a lock
 * whose address the waiter's stack never held, a ring with no lock on
 * it, a blocker whose wait_list lacks the task.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "lock_wait.h"
#include "said.h"
#include "wait_chains.h"

#define THREAD_SIZE	0x4000ULL
#define TASK(i)		(0xffff888000100000ULL + (uint64_t)(i) * 0x1000)
#define STACK(i)	(0xffffc90000000000ULL + (uint64_t)(i) * THREAD_SIZE)
#define LOCK(i)		(0xffff888000800000ULL + (uint64_t)(i) * 0x100)
/* where the waiter record and the lock pointer sit on a stack */
#define WAITER_AT	0x3e00
#define LOCKPTR_AT	0x3f00

/* task_struct */
#define T_STACK		0x40
#define T_BLOCKER	0x48
#define T_PI		0x50
/* mutex, rw_semaphore, semaphore, rt_mutex_base */
#define M_WAIT_LIST	16
#define R_WAIT_LIST	24
#define S_WAIT_LIST	8
#define RT_WAITERS	8
#define RT_OWNER	24
/* rt_mutex_waiter */
#define RTW_TASK	48
#define RTW_LOCK	56

enum { A, B, C, D, E, F, G, H, X, Y, R1, R2, NR_TASKS };
enum { L_M, L_R, L_RR, L_S, L_NOFLAG, L_HIDDEN, L_M1, L_M2, L_RT, L_BAD_BLK,
       NR_LOCKS };

struct fixture {
	struct ks_fake *f;
	struct ks_target t;
	struct ks_lock_waits *lw;
	struct said said;
};

static void layout(struct ks_fake *f, int blocker)
{
	ks_fake_add_member(f, "task_struct", "stack", T_STACK, 8);
	if (blocker)
		ks_fake_add_member(f, "task_struct", "blocker", T_BLOCKER, 8);
	ks_fake_add_member(f, "task_struct", "pi_blocked_on", T_PI, 8);
	ks_fake_add_member(f, "mutex", "owner", 0, 8);
	ks_fake_add_member(f, "mutex", "wait_list", M_WAIT_LIST, 16);
	ks_fake_add_member(f, "mutex_waiter", "list", 0, 16);
	ks_fake_add_member(f, "mutex_waiter", "task", 16, 8);
	ks_fake_add_member(f, "rw_semaphore", "count", 0, 8);
	ks_fake_add_member(f, "rw_semaphore", "owner", 8, 8);
	ks_fake_add_member(f, "rw_semaphore", "wait_list", R_WAIT_LIST, 16);
	ks_fake_add_member(f, "rwsem_waiter", "list", 0, 16);
	ks_fake_add_member(f, "rwsem_waiter", "task", 16, 8);
	ks_fake_add_member(f, "semaphore", "count", 4, 4);
	ks_fake_add_member(f, "semaphore", "wait_list", S_WAIT_LIST, 16);
	ks_fake_add_member(f, "semaphore_waiter", "list", 0, 16);
	ks_fake_add_member(f, "semaphore_waiter", "task", 16, 8);
	ks_fake_add_member(f, "rt_mutex_base", "waiters", RT_WAITERS, 16);
	ks_fake_add_member(f, "rt_mutex_base", "owner", RT_OWNER, 8);
	ks_fake_add_member(f, "rt_mutex_waiter", "tree", 0, 24);
	ks_fake_add_member(f, "rt_mutex_waiter", "task", RTW_TASK, 8);
	ks_fake_add_member(f, "rt_mutex_waiter", "lock", RTW_LOCK, 8);
	ks_fake_add_member(f, "rb_node", "__rb_parent_color", 0, 8);
	ks_fake_add_member(f, "rb_node", "rb_right", 8, 8);
	ks_fake_add_member(f, "rb_node", "rb_left", 16, 8);
}

static uint64_t node_of(int task)
{
	return STACK(task) + WAITER_AT;
}

/* The ring head, nodes...: each node's next and prev. */
static void ring(struct ks_fake *f, uint64_t head, const uint64_t *nodes,
		 size_t n)
{
	size_t i;

	for (i = 0; i <= n; i++) {
		uint64_t at = i ? nodes[i - 1] : head;
		uint64_t next = i < n ? nodes[i] : head;

		ks_fake_write_u64(f, at, next);
		ks_fake_write_u64(f, next + 8, at);
	}
}

/* task waits on the stack: its waiter record, and the lock held live. */
static void waiter(struct ks_fake *f, int task, uint64_t lock)
{
	ks_fake_write_u64(f, node_of(task) + 16, TASK(task));
	ks_fake_write_u64(f, STACK(task) + LOCKPTR_AT, lock);
}

static int setup_with(void **state, int blocker)
{
	struct fixture *x = calloc(1, sizeof(*x));
	struct ks_wait_task tasks[NR_TASKS];
	uint64_t n[2];
	int i;

	assert_non_null(x);
	x->f = ks_fake_create();
	layout(x->f, blocker);
	for (i = 0; i < NR_TASKS; i++) {
		assert_int_equal(ks_fake_add_memory(x->f, TASK(i), NULL, 0x100), 0);
		assert_int_equal(ks_fake_add_memory(x->f, STACK(i), NULL,
						    THREAD_SIZE), 0);
		ks_fake_write_u64(x->f, TASK(i) + T_STACK, STACK(i));
		/* the task pointer is on every stack, not only in a waiter */
		ks_fake_write_u64(x->f, STACK(i) + 0x100, TASK(i));
		ks_fake_write_u64(x->f, STACK(i) + 0x110, TASK(i));
		tasks[i].task = TASK(i);
		tasks[i].stack = STACK(i);
	}
	assert_int_equal(ks_fake_add_memory(x->f, LOCK(0), NULL,
					    NR_LOCKS * 0x100), 0);
	/* A waits for mutex L_M, held by B */
	ks_fake_write_u64(x->f, LOCK(L_M), TASK(B) | 1);
	n[0] = node_of(A);
	ring(x->f, LOCK(L_M) + M_WAIT_LIST, n, 1);
	waiter(x->f, A, LOCK(L_M));
	/* B waits for the rwsem L_R, write-held by C; E waits for it too */
	ks_fake_write_u64(x->f, LOCK(L_R), 0x3);
	ks_fake_write_u64(x->f, LOCK(L_R) + 8, TASK(C) | 2);
	n[0] = node_of(B);
	n[1] = node_of(E);
	ring(x->f, LOCK(L_R) + R_WAIT_LIST, n, 2);
	waiter(x->f, B, LOCK(L_R));
	waiter(x->f, E, LOCK(L_R));
	/* D waits for the rwsem L_RR, held by two readers */
	ks_fake_write_u64(x->f, LOCK(L_RR), (2 << 8) | 0x2);
	ks_fake_write_u64(x->f, LOCK(L_RR) + 8, TASK(R1) | 1);
	n[0] = node_of(D);
	ring(x->f, LOCK(L_RR) + R_WAIT_LIST, n, 1);
	waiter(x->f, D, LOCK(L_RR));
	/* F waits for the semaphore L_S, count 0 */
	n[0] = node_of(F);
	ring(x->f, LOCK(L_S) + S_WAIT_LIST, n, 1);
	waiter(x->f, F, LOCK(L_S));
	/* G: a mutex whose owner lacks MUTEX_FLAG_WAITERS */
	ks_fake_write_u64(x->f, LOCK(L_NOFLAG), TASK(C));
	n[0] = node_of(G);
	ring(x->f, LOCK(L_NOFLAG) + M_WAIT_LIST, n, 1);
	waiter(x->f, G, LOCK(L_NOFLAG));
	/* H: a linked record, but its stack never held the lock */
	ks_fake_write_u64(x->f, LOCK(L_HIDDEN), TASK(C) | 1);
	n[0] = node_of(H);
	ring(x->f, LOCK(L_HIDDEN) + M_WAIT_LIST, n, 1);
	ks_fake_write_u64(x->f, node_of(H) + 16, TASK(H));
	/* ABBA: X waits for L_M1 held by Y, Y for L_M2 held by X */
	ks_fake_write_u64(x->f, LOCK(L_M1), TASK(Y) | 1);
	ks_fake_write_u64(x->f, LOCK(L_M2), TASK(X) | 1);
	n[0] = node_of(X);
	ring(x->f, LOCK(L_M1) + M_WAIT_LIST, n, 1);
	waiter(x->f, X, LOCK(L_M1));
	n[0] = node_of(Y);
	ring(x->f, LOCK(L_M2) + M_WAIT_LIST, n, 1);
	waiter(x->f, Y, LOCK(L_M2));
	/* R2 waits for the rt_mutex L_RT, held by R1, as its tree's root */
	ks_fake_write_u64(x->f, TASK(R2) + T_PI, STACK(R2) + 0x200);
	ks_fake_write_u64(x->f, STACK(R2) + 0x200 + RTW_TASK, TASK(R2));
	ks_fake_write_u64(x->f, STACK(R2) + 0x200 + RTW_LOCK, LOCK(L_RT));
	ks_fake_write_u64(x->f, LOCK(L_RT) + RT_WAITERS, STACK(R2) + 0x200);
	ks_fake_write_u64(x->f, LOCK(L_RT) + RT_OWNER, TASK(R1) | 1);
	/* an empty mutex for a blocker that names it wrongly */
	ring(x->f, LOCK(L_BAD_BLK) + M_WAIT_LIST, NULL, 0);
	ks_fake_target(x->f, &x->t);
	assert_int_equal(ks_lock_waits_open(&x->t, THREAD_SIZE, tasks,
					    NR_TASKS, &x->lw,
					    &SAID_TO(&x->said)), 0);
	*state = x;
	return 0;
}

static int setup(void **state)
{
	return setup_with(state, 0);
}

static int setup_blocker(void **state)
{
	return setup_with(state, 1);
}

static int teardown(void **state)
{
	struct fixture *x = *state;

	ks_lock_waits_close(x->lw);
	ks_fake_destroy(x->f);
	free(x);
	return 0;
}

static int find(struct fixture *x, int task, struct ks_lock_wait *w)
{
	memset(&x->said, 0, sizeof(x->said));
	return ks_lock_wait_find(x->lw, TASK(task), 0, true, w,
				 &SAID_TO(&x->said));
}

static void test_mutex(void **state)
{
	struct fixture *x = *state;
	struct ks_lock_wait w;

	assert_int_equal(find(x, A, &w), 1);
	assert_int_equal(w.kind, KS_LOCK_MUTEX);
	assert_int_equal(w.lock, LOCK(L_M));
	assert_int_equal(w.owner, TASK(B));
	assert_string_equal(w.found, "stack");
	assert_string_equal(ks_lock_kind_name(w.kind), "mutex");
}

/*
 * Only the stack above the saved sp is read: a record there is found,
 * one below it (a frame already returned from) is not.
 */
static void test_above_saved_sp(void **state)
{
	struct fixture *x = *state;
	struct ks_lock_wait w;

	assert_int_equal(ks_lock_wait_find(x->lw, TASK(A), STACK(A) + 0x3000,
					   false, &w, &SAID_TO(&x->said)), 1);
	assert_int_equal(w.lock, LOCK(L_M));
	assert_int_equal(ks_lock_wait_find(x->lw, TASK(A),
					   node_of(A) + 0x20, false, &w,
					   &SAID_TO(&x->said)), 0);
	/* an sp off the stack is no bound: all of it is read */
	assert_int_equal(ks_lock_wait_find(x->lw, TASK(A), 0x1000, false, &w,
					   &SAID_TO(&x->said)), 1);
}

static void test_rwsem_writer_and_readers(void **state)
{
	struct fixture *x = *state;
	struct ks_lock_wait w;

	assert_int_equal(find(x, E, &w), 1);
	assert_int_equal(w.kind, KS_LOCK_RWSEM);
	assert_int_equal(w.lock, LOCK(L_R));
	assert_int_equal(w.owner, TASK(C));
	assert_false(w.readers);
	assert_int_equal(find(x, D, &w), 1);
	assert_int_equal(w.kind, KS_LOCK_RWSEM);
	assert_int_equal(w.lock, LOCK(L_RR));
	assert_int_equal(w.owner, 0);
	assert_true(w.readers);
	assert_int_equal(w.nr_readers, 2);
	/* #40 item 27: a reader count no kernel can have is not believed */
	ks_fake_write_u64(x->f, LOCK(L_RR), (1ULL << (31 + 8)) | 0x2);
	assert_int_equal(find(x, D, &w), 0);
	assert_non_null(strstr(x->said.text, "has a reader count larger than "
			       "there can be tasks"));
}

/*
 * #40 item 27: a waiter whose node one neighbour still links back to and
 * the other not (list_del() caught halfway, or damage) is dropped with a
 * note, not silently.
 */
static void test_unlinked_waiter(void **state)
{
	struct fixture *x = *state;
	struct ks_lock_wait w;

	assert_int_equal(find(x, A, &w), 1);
	/* the head's prev no longer points at A's node; its next still does */
	ks_fake_write_u64(x->f, LOCK(L_M) + M_WAIT_LIST + 8,
			  LOCK(L_M) + M_WAIT_LIST);
	assert_int_equal(find(x, A, &w), 0);
	assert_non_null(strstr(x->said.text, "dropped: it is on no list: its "
			       "neighbours do not link back to it"));
}

/*
 * #40 item 23: 200 waiters of one mutex, each found on its own stack:
 * the ring is walked once for all of them, not once for each (the
 * square of the waiters, which a forged stack of hundreds of candidates
 * on one long list turned into 43 s).  Counted in reads, not time.
 */
static void test_ring_walked_once(void **state)
{
	enum { K = 200 };
	struct ks_fake *f = ks_fake_create();
	struct ks_wait_task tasks[K + 1];
	uint64_t nodes[K];
	struct ks_lock_waits *lw;
	struct ks_lock_wait w;
	struct ks_target t;
	unsigned long reads;

	(void)state;
	layout(f, 0);
	for (int i = 0; i <= K; i++) {
		assert_int_equal(ks_fake_add_memory(f, TASK(i), NULL, 0x100), 0);
		assert_int_equal(ks_fake_add_memory(f, STACK(i), NULL,
						    THREAD_SIZE), 0);
		ks_fake_write_u64(f, TASK(i) + T_STACK, STACK(i));
		tasks[i] = (struct ks_wait_task){ TASK(i), STACK(i) };
	}
	assert_int_equal(ks_fake_add_memory(f, LOCK(0), NULL, 0x100), 0);
	/* K waiters of the mutex at LOCK(0), held by task K */
	ks_fake_write_u64(f, LOCK(0), TASK(K) | 1);
	for (int i = 0; i < K; i++) {
		nodes[i] = node_of(i);
		waiter(f, i, LOCK(0));
	}
	ring(f, LOCK(0) + M_WAIT_LIST, nodes, K);
	ks_fake_target(f, &t);
	assert_int_equal(ks_lock_waits_open(&t, THREAD_SIZE, tasks, K + 1, &lw,
					    NULL), 0);
	reads = ks_fake_read_count(f);
	for (int i = 0; i < K; i++) {
		assert_int_equal(ks_lock_wait_find(lw, TASK(i), 0, false, &w,
						   NULL), 1);
		assert_int_equal(w.lock, LOCK(0));
		assert_int_equal(w.owner, TASK(K));
	}
	reads = ks_fake_read_count(f) - reads;
	/* once per ring: about K reads for it, a few per waiter besides */
	if (reads > 32 * K)
		fail_msg("%lu reads for %d waiters of one lock", reads, K);
	assert_false(ks_lock_waits_spent(lw));
	ks_lock_waits_close(lw);
	ks_fake_destroy(f);
}

static void test_semaphore(void **state)
{
	struct fixture *x = *state;
	struct ks_lock_wait w;

	assert_int_equal(find(x, F, &w), 1);
	assert_int_equal(w.kind, KS_LOCK_SEMAPHORE);
	assert_int_equal(w.lock, LOCK(L_S));
	assert_int_equal(w.owner, 0);
	/* a count of its own with a waiter queued: not believed */
	ks_fake_write(x->f, LOCK(L_S) + 4, "\x01\0\0\0", 4);
	assert_int_equal(find(x, F, &w), 0);
	assert_non_null(strstr(x->said.text, "has waiters but a count"));
}

static void test_rt_mutex(void **state)
{
	struct fixture *x = *state;
	struct ks_lock_wait w;

	assert_int_equal(find(x, R2, &w), 1);
	assert_int_equal(w.kind, KS_LOCK_RT_MUTEX);
	assert_int_equal(w.lock, LOCK(L_RT));
	assert_int_equal(w.owner, TASK(R1));
	assert_string_equal(w.found, "pi_blocked_on");
	/* a waiter out of its lock's tree is dropped */
	ks_fake_write_u64(x->f, LOCK(L_RT) + RT_WAITERS, LOCK(L_RT) + 0x80);
	assert_int_equal(find(x, R2, &w), 0);
	assert_non_null(strstr(x->said.text, "rt_mutex_waiter at "));
	assert_non_null(strstr(x->said.text, "not in its lock's waiter tree"));
}

static void test_bad_candidates_dropped(void **state)
{
	struct fixture *x = *state;
	struct ks_lock_wait w;

	assert_int_equal(find(x, G, &w), 0);
	assert_non_null(strstr(x->said.text, "has no MUTEX_FLAG_WAITERS"));
	assert_int_equal(find(x, H, &w), 0);
	assert_non_null(strstr(x->said.text, "address is not on the stack"));
	/* C waits for nothing: nothing is said either */
	assert_int_equal(find(x, C, &w), 0);
	assert_int_equal(x->said.calls, 0);
	/* A's record on a ring of stack nodes only: no lock to name */
	{
		uint64_t n[2] = { node_of(A), node_of(E) };

		ring(x->f, node_of(B), n, 2);
	}
	assert_int_equal(find(x, A, &w), 0);
	assert_non_null(strstr(x->said.text, "stack nodes only, with no lock"));
}

static void test_blocker(void **state)
{
	struct fixture *x = *state;
	struct ks_lock_wait w;

	/* BLOCKER_TYPE_RWSEM_WRITER */
	ks_fake_write_u64(x->f, TASK(E) + T_BLOCKER, LOCK(L_R) | 3);
	assert_int_equal(find(x, E, &w), 1);
	assert_string_equal(w.found, "blocker");
	assert_int_equal(w.lock, LOCK(L_R));
	assert_int_equal(w.owner, TASK(C));
	/* a blocker whose wait_list lacks the task: the stack decides */
	ks_fake_write_u64(x->f, TASK(A) + T_BLOCKER, LOCK(L_BAD_BLK));
	assert_int_equal(find(x, A, &w), 1);
	assert_non_null(strstr(x->said.text, "has no waiter of the task among"));
	assert_string_equal(w.found, "stack");
	assert_int_equal(w.lock, LOCK(L_M));
}

/* next[] and age[] of the tasks, as lock_wait.c's owners give them. */
static size_t owner_index(struct fixture *x, int task)
{
	struct ks_lock_wait w;
	int i;

	if (find(x, task, &w) != 1)
		return KS_WAIT_NONE;
	for (i = 0; i < NR_TASKS; i++)
		if (w.owner == TASK(i))
			return (size_t)i;
	return KS_WAIT_END;
}

static void test_chains_and_deadlock(void **state)
{
	struct fixture *x = *state;
	size_t next[NR_TASKS];
	uint64_t age[NR_TASKS];
	struct ks_wait_chains c;
	size_t i;

	for (i = 0; i < NR_TASKS; i++) {
		next[i] = owner_index(x, (int)i);
		age[i] = 100 * i;
	}
	age[A] = 5000;
	assert_int_equal(ks_wait_chains_build(next, age, NR_TASKS, &c), 0);
	/* the deadlock X <-> Y, begun at its oldest waiter Y */
	assert_true(c.nr >= 4);
	assert_true(c.v[0].deadlock);
	assert_int_equal(c.v[0].nr, 2);
	assert_int_equal(c.v[0].task[0], Y);
	assert_int_equal(c.v[0].task[1], X);
	for (i = 1; i < c.nr; i++)
		assert_false(c.v[i].deadlock);
	/* then the longest wait: A -> B -> C, C running */
	assert_int_equal(c.v[1].nr, 3);
	assert_int_equal(c.v[1].task[0], A);
	assert_int_equal(c.v[1].task[1], B);
	assert_int_equal(c.v[1].task[2], C);
	assert_false(c.v[1].into_deadlock);
	ks_wait_chains_release(&c);
}

static void test_chain_into_deadlock(void **state)
{
	/* 0 -> 1 -> 2 -> 1: one deadlock of 1 and 2, one chain into it */
	size_t next[] = { 1, 2, 1, KS_WAIT_END, KS_WAIT_NONE };
	uint64_t age[] = { 10, 20, 30, 40, 0 };
	struct ks_wait_chains c;

	(void)state;
	assert_int_equal(ks_wait_chains_build(next, age, 5, &c), 0);
	assert_int_equal(c.nr, 3);
	assert_true(c.v[0].deadlock);
	assert_int_equal(c.v[0].task[0], 2);
	assert_int_equal(c.v[0].task[1], 1);
	/* task 3 waits 40 for a lock of no known owner: first of the chains */
	assert_int_equal(c.v[1].nr, 1);
	assert_int_equal(c.v[1].task[0], 3);
	assert_true(c.v[2].into_deadlock);
	assert_int_equal(c.v[2].deadlock_of, 0);
	assert_int_equal(c.v[2].nr, 2);
	assert_int_equal(c.v[2].task[0], 0);
	assert_int_equal(c.v[2].task[1], 1);
	ks_wait_chains_release(&c);
}

/*
 * 7.x: a mutex keeps only its first_waiter, and its waiters are a ring
 * of their own: a lone waiter is a ring of one, two a ring of two.
 */
static void test_first_waiter_ring(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_wait_task tasks[3];
	struct ks_lock_waits *lw = NULL;
	struct ks_lock_wait w;
	struct ks_target t;
	struct said said = { { 0 }, 0 };
	uint64_t n[2];
	int i;

	(void)state;
	ks_fake_add_member(f, "task_struct", "stack", T_STACK, 8);
	ks_fake_add_member(f, "mutex", "owner", 0, 8);
	ks_fake_add_member(f, "mutex", "first_waiter", 16, 8);
	ks_fake_add_member(f, "mutex_waiter", "list", 0, 16);
	ks_fake_add_member(f, "mutex_waiter", "task", 16, 8);
	for (i = 0; i < 3; i++) {
		ks_fake_add_memory(f, TASK(i), NULL, 0x100);
		ks_fake_add_memory(f, STACK(i), NULL, THREAD_SIZE);
		ks_fake_write_u64(f, TASK(i) + T_STACK, STACK(i));
		tasks[i].task = TASK(i);
		tasks[i].stack = STACK(i);
	}
	ks_fake_add_memory(f, LOCK(0), NULL, 0x300);
	/* A alone on LOCK(0), held by C: a ring of one */
	ks_fake_write_u64(f, LOCK(0), TASK(C) | 1);
	ks_fake_write_u64(f, LOCK(0) + 16, node_of(A));
	ring(f, node_of(A), NULL, 0);
	waiter(f, A, LOCK(0));
	/* B second behind C on LOCK(1): C's record first, then B's */
	ks_fake_write_u64(f, LOCK(1), TASK(A) | 1);
	ks_fake_write_u64(f, LOCK(1) + 16, node_of(C));
	n[0] = node_of(B);
	ring(f, node_of(C), n, 1);
	waiter(f, B, LOCK(1));
	waiter(f, C, LOCK(1));
	ks_fake_target(f, &t);
	assert_int_equal(ks_lock_waits_open(&t, THREAD_SIZE, tasks, 3, &lw,
					    &SAID_TO(&said)), 0);
	assert_int_equal(ks_lock_wait_find(lw, TASK(A), 0, true, &w,
					   &SAID_TO(&said)), 1);
	assert_int_equal(w.lock, LOCK(0));
	assert_int_equal(w.owner, TASK(C));
	assert_int_equal(ks_lock_wait_find(lw, TASK(B), 0, true, &w,
					   &SAID_TO(&said)), 1);
	assert_int_equal(w.lock, LOCK(1));
	assert_int_equal(w.owner, TASK(A));
	/* a lock the stack holds whose first waiter is someone else's */
	ks_fake_write_u64(f, LOCK(0) + 16, node_of(C));
	assert_int_equal(ks_lock_wait_find(lw, TASK(A), 0, true, &w,
					   &SAID_TO(&said)), 0);
	assert_non_null(strstr(said.text, "first_waiter of no lock"));
	ks_lock_waits_close(lw);
	ks_fake_destroy(f);
}

/* wait.h, swait.h, completion.h, pagemap.h as 6.1 lays them out */
#define WQE_PRIVATE	8
#define WQE_FUNC	16
#define WQE_ENTRY	24
#define WQH_HEAD	8
#define WQH_SIZE	24
#define SWQ_TASK	0
#define SWQ_LIST	8
#define SWH_LIST	8
#define C_WAIT		8
#define C_SIZE		32
#define WPQ_BIT		8
#define WPQ_WAIT	16
#define TABLE		0xffffffff82000000ULL
#define WAKE_PAGE	0xffffffff81234560ULL
#define AUTOREMOVE	0xffffffff81234000ULL
#define FOLIO		0xffffea0000040000ULL

static void queue_layout(struct ks_fake *f)
{
	ks_fake_add_member(f, "task_struct", "stack", T_STACK, 8);
	/* a lock too, so that a task in S has its stack read */
	ks_fake_add_member(f, "mutex", "owner", 0, 8);
	ks_fake_add_member(f, "mutex", "wait_list", M_WAIT_LIST, 16);
	ks_fake_add_member(f, "mutex_waiter", "list", 0, 16);
	ks_fake_add_member(f, "mutex_waiter", "task", 16, 8);
	ks_fake_add_member(f, "semaphore", "count", 4, 4);
	ks_fake_add_member(f, "semaphore", "wait_list", S_WAIT_LIST, 16);
	ks_fake_add_member(f, "semaphore_waiter", "list", 0, 16);
	ks_fake_add_member(f, "semaphore_waiter", "task", 16, 8);
	ks_fake_add_member(f, "wait_queue_entry", "private", WQE_PRIVATE, 8);
	ks_fake_add_member(f, "wait_queue_entry", "func", WQE_FUNC, 8);
	ks_fake_add_member(f, "wait_queue_entry", "entry", WQE_ENTRY, 16);
	ks_fake_add_member(f, "wait_queue_head", "head", WQH_HEAD, 16);
	ks_fake_add_type(f, "wait_queue_head", WQH_SIZE);
	ks_fake_add_member(f, "swait_queue", "task", SWQ_TASK, 8);
	ks_fake_add_member(f, "swait_queue", "task_list", SWQ_LIST, 16);
	ks_fake_add_member(f, "swait_queue_head", "task_list", SWH_LIST, 16);
	ks_fake_add_member(f, "completion", "done", 0, 4);
	ks_fake_add_member(f, "completion", "wait", C_WAIT, 24);
	ks_fake_add_type(f, "completion", C_SIZE);
	ks_fake_add_member(f, "wait_page_queue", "folio", 0, 8);
	ks_fake_add_member(f, "wait_page_queue", "bit_nr", WPQ_BIT, 4);
	ks_fake_add_member(f, "wait_page_queue", "wait", WPQ_WAIT, 40);
	ks_fake_add_symbol(f, "wake_page_function", WAKE_PAGE, 0x80, NULL);
	ks_fake_add_symbol(f, "autoremove_wake_function", AUTOREMOVE, 0x80,
			   NULL);
	ks_fake_add_symbol(f, "folio_wait_table", TABLE, 256 * WQH_SIZE, NULL);
	ks_fake_add_symbol(f, "ks_done", LOCK(1), C_SIZE, NULL);
}

/* A wait_queue_entry of task at rec on its stack, on the head at head. */
static void wq_entry(struct ks_fake *f, int task, uint64_t rec, uint64_t head,
		     uint64_t func)
{
	uint64_t n = rec + WQE_ENTRY;

	ks_fake_write_u64(f, rec + WQE_PRIVATE, TASK(task));
	ks_fake_write_u64(f, rec + WQE_FUNC, func);
	ring(f, head, &n, 1);
}

/* folio_waitqueue(): hash_ptr(folio, 8) */
static uint64_t folio_slot(uint64_t folio)
{
	return TABLE + ((folio * 0x61C8864680B583EBULL) >> 56) * WQH_SIZE;
}

/*
 * A in wait_event() on a wait queue head, B in wait_for_completion() on
 * a completion a symbol names, C in folio_lock(), D on a swait head no
 * symbol begins: each found by its record on its stack, and only when
 * queues are asked for, as for a task in D.
 */
static void test_queues(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_wait_task tasks[5];
	struct ks_lock_waits *lw = NULL;
	struct ks_lock_wait w;
	struct ks_target t;
	struct said said = { { 0 }, 0 };
	uint64_t n, wpq = STACK(C) + WAITER_AT, slot = folio_slot(FOLIO);
	int i;

	(void)state;
	queue_layout(f);
	for (i = 0; i < 5; i++) {
		ks_fake_add_memory(f, TASK(i), NULL, 0x100);
		ks_fake_add_memory(f, STACK(i), NULL, THREAD_SIZE);
		ks_fake_write_u64(f, TASK(i) + T_STACK, STACK(i));
		tasks[i].task = TASK(i);
		tasks[i].stack = STACK(i);
	}
	ks_fake_add_memory(f, LOCK(0), NULL, 0x400);
	ks_fake_add_memory(f, TABLE, NULL, 256 * WQH_SIZE);
	wq_entry(f, A, STACK(A) + WAITER_AT, LOCK(0) + WQH_HEAD, AUTOREMOVE);
	n = STACK(B) + WAITER_AT + SWQ_LIST;
	ks_fake_write_u64(f, STACK(B) + WAITER_AT + SWQ_TASK, TASK(B));
	ring(f, LOCK(1) + C_WAIT + SWH_LIST, &n, 1);
	ks_fake_write_u64(f, wpq, FOLIO);
	wq_entry(f, C, wpq + WPQ_WAIT, slot + WQH_HEAD, WAKE_PAGE);
	n = STACK(D) + WAITER_AT + SWQ_LIST;
	ks_fake_write_u64(f, STACK(D) + WAITER_AT + SWQ_TASK, TASK(D));
	ring(f, LOCK(3) + SWH_LIST, &n, 1);
	/*
	 * E waits for the semaphore LOCK(2), a copy of its task pointer 16
	 * bytes below its waiter and a function's address 8 below: there
	 * its waiter's node looks like a wait_queue_entry's on a head at
	 * the semaphore's wait_list, which the semaphore's waiter wins.
	 */
	n = node_of(E);
	ring(f, LOCK(2) + S_WAIT_LIST, &n, 1);
	waiter(f, E, LOCK(2));
	ks_fake_write_u64(f, node_of(E) - 16, TASK(E));
	ks_fake_write_u64(f, node_of(E) - 8, AUTOREMOVE);
	ks_fake_target(f, &t);
	assert_int_equal(ks_lock_waits_open(&t, THREAD_SIZE, tasks, 5, &lw,
					    &SAID_TO(&said)), 0);
	assert_int_equal(ks_lock_wait_find(lw, TASK(E), 0, true, &w,
					   &SAID_TO(&said)), 1);
	assert_string_equal(ks_lock_kind_name(w.kind), "semaphore");
	assert_int_equal(w.lock, LOCK(2));
	assert_int_equal(ks_lock_wait_find(lw, TASK(A), 0, true, &w,
					   &SAID_TO(&said)), 1);
	assert_string_equal(ks_lock_kind_name(w.kind), "wait queue");
	assert_int_equal(w.lock, LOCK(0));
	assert_int_equal(w.owner, 0);
	assert_true(ks_lock_kind_ownerless(w.kind));
	assert_false(ks_lock_kind_ownerless(KS_LOCK_SEMAPHORE));
	assert_int_equal(ks_lock_wait_find(lw, TASK(B), 0, true, &w,
					   &SAID_TO(&said)), 1);
	assert_string_equal(ks_lock_kind_name(w.kind), "completion");
	assert_int_equal(w.lock, LOCK(1));
	assert_int_equal(ks_lock_wait_find(lw, TASK(C), 0, true, &w,
					   &SAID_TO(&said)), 1);
	assert_string_equal(ks_lock_kind_name(w.kind), "folio lock");
	assert_int_equal(w.lock, FOLIO);
	assert_int_equal(ks_lock_wait_find(lw, TASK(D), 0, true, &w,
					   &SAID_TO(&said)), 1);
	assert_string_equal(ks_lock_kind_name(w.kind), "swait queue");
	assert_int_equal(w.lock, LOCK(3));
	/* a task in S: locks only, its queues are how it sleeps */
	for (i = 0; i < 4; i++)
		assert_int_equal(ks_lock_wait_find(lw, TASK(i), 0, false, &w,
						   &SAID_TO(&said)), 0);
	/* a completion already done is no wait on it: a swait queue */
	ks_fake_write(f, LOCK(1), "\x01\0\0\0", 4);
	assert_int_equal(ks_lock_wait_find(lw, TASK(B), 0, true, &w,
					   &SAID_TO(&said)), 1);
	assert_string_equal(ks_lock_kind_name(w.kind), "swait queue");
	assert_int_equal(w.lock, LOCK(1) + C_WAIT);
	/* PG_writeback's waiter is no lock's */
	ks_fake_write(f, wpq + WPQ_BIT, "\x0f\0\0\0", 4);
	assert_int_equal(ks_lock_wait_find(lw, TASK(C), 0, true, &w,
					   &SAID_TO(&said)), 1);
	assert_string_equal(ks_lock_kind_name(w.kind), "folio bit");
	/* a folio hashed to another slot than the head it is on: dropped */
	ks_fake_write_u64(f, wpq, FOLIO + 0x40);
	assert_true(folio_slot(FOLIO + 0x40) != slot);
	memset(&said, 0, sizeof(said));
	assert_int_equal(ks_lock_wait_find(lw, TASK(C), 0, true, &w,
					   &SAID_TO(&said)), 0);
	assert_non_null(strstr(said.text, "wait_queue_entry candidate"));
	assert_non_null(strstr(said.text, "not its folio's slot"));
	/* an entry whose func is no function's start is no entry */
	ks_fake_write_u64(f, STACK(A) + WAITER_AT + WQE_FUNC, AUTOREMOVE + 4);
	memset(&said, 0, sizeof(said));
	assert_int_equal(ks_lock_wait_find(lw, TASK(A), 0, true, &w,
					   &SAID_TO(&said)), 0);
	assert_non_null(strstr(said.text, "no function's address"));
	ks_fake_write_u64(f, STACK(A) + WAITER_AT + WQE_FUNC, AUTOREMOVE);
	/* an entry taken off its head (list_del()): nothing */
	ks_fake_write_u64(f, LOCK(0) + WQH_HEAD, LOCK(0) + WQH_HEAD);
	ks_fake_write_u64(f, LOCK(0) + WQH_HEAD + 8, LOCK(0) + WQH_HEAD);
	assert_int_equal(ks_lock_wait_find(lw, TASK(A), 0, true, &w,
					   &SAID_TO(&said)), 0);
	ks_lock_waits_close(lw);
	ks_fake_destroy(f);
}

/*
 * 7.x's semaphore.last_holder (CONFIG_DETECT_HUNG_TASK_BLOCKER): the
 * task that took it last is its owner; without the member, none.
 */
static void test_semaphore_last_holder(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_wait_task tasks[2];
	struct ks_lock_waits *lw = NULL;
	struct ks_lock_wait w;
	struct ks_target t;
	struct said said = { { 0 }, 0 };
	uint64_t n = node_of(A);
	int i;

	(void)state;
	ks_fake_add_member(f, "task_struct", "stack", T_STACK, 8);
	ks_fake_add_member(f, "semaphore", "count", 4, 4);
	ks_fake_add_member(f, "semaphore", "wait_list", S_WAIT_LIST, 16);
	ks_fake_add_member(f, "semaphore", "last_holder", 24, 8);
	ks_fake_add_member(f, "semaphore_waiter", "list", 0, 16);
	ks_fake_add_member(f, "semaphore_waiter", "task", 16, 8);
	for (i = 0; i < 2; i++) {
		ks_fake_add_memory(f, TASK(i), NULL, 0x100);
		ks_fake_add_memory(f, STACK(i), NULL, THREAD_SIZE);
		ks_fake_write_u64(f, TASK(i) + T_STACK, STACK(i));
		tasks[i].task = TASK(i);
		tasks[i].stack = STACK(i);
	}
	ks_fake_add_memory(f, LOCK(0), NULL, 0x100);
	ring(f, LOCK(0) + S_WAIT_LIST, &n, 1);
	waiter(f, A, LOCK(0));
	ks_fake_write_u64(f, LOCK(0) + 24, TASK(B));
	ks_fake_target(f, &t);
	assert_int_equal(ks_lock_waits_open(&t, THREAD_SIZE, tasks, 2, &lw,
					    &SAID_TO(&said)), 0);
	/* a semaphore's waiter in S (down_interruptible()) is found too */
	assert_int_equal(ks_lock_wait_find(lw, TASK(A), 0, false, &w,
					   &SAID_TO(&said)), 1);
	assert_int_equal(w.kind, KS_LOCK_SEMAPHORE);
	assert_int_equal(w.owner, TASK(B));
	assert_true(w.last_holder);
	/* up() by its holder clears it: no owner */
	ks_fake_write_u64(f, LOCK(0) + 24, 0);
	assert_int_equal(ks_lock_wait_find(lw, TASK(A), 0, false, &w,
					   &SAID_TO(&said)), 1);
	assert_int_equal(w.owner, 0);
	assert_false(w.last_holder);
	ks_lock_waits_close(lw);
	ks_fake_destroy(f);
}

static void test_no_types(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_lock_waits *lw = NULL;
	struct ks_target t;
	struct said said = { { 0 }, 0 };

	(void)state;
	ks_fake_add_member(f, "task_struct", "stack", T_STACK, 8);
	ks_fake_target(f, &t);
	assert_int_equal(ks_lock_waits_open(&t, THREAD_SIZE, NULL, 0, &lw,
					    &SAID_TO(&said)), -ENOENT);
	assert_non_null(strstr(said.text, "no lock's waiters"));
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_mutex, setup, teardown),
		cmocka_unit_test_setup_teardown(test_above_saved_sp, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_rwsem_writer_and_readers,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_unlinked_waiter,
						setup, teardown),
		cmocka_unit_test(test_ring_walked_once),
		cmocka_unit_test_setup_teardown(test_semaphore, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rt_mutex, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bad_candidates_dropped,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_blocker, setup_blocker,
						teardown),
		cmocka_unit_test_setup_teardown(test_chains_and_deadlock,
						setup, teardown),
		cmocka_unit_test(test_chain_into_deadlock),
		cmocka_unit_test(test_first_waiter_ring),
		cmocka_unit_test(test_queues),
		cmocka_unit_test(test_semaphore_last_holder),
		cmocka_unit_test(test_no_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
