// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/core/wait_chains.c on graphs built by hand: chains that share a
 * short tail show it whole, as they always did; thousands of waiters on
 * one long chain show it once and say which chain goes on from where
 * they join it, so memory and output stay linear in the tasks (#40
 * item 24: 3,000 such waiters printed 9 million lines).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "wait_chains.h"

/* A waits for C's lock, B too, C for D's; D waits for none. */
static void test_short_shared_tail(void **state)
{
	size_t next[] = { 2, 2, 3, KS_WAIT_NONE };
	uint64_t age[] = { 5, 4, 3, 0 };
	struct ks_wait_chains c;

	(void)state;
	assert_int_equal(ks_wait_chains_build(next, age, 4, &c), 0);
	assert_int_equal(c.nr, 2);
	for (size_t i = 0; i < c.nr; i++) {
		assert_int_equal(c.v[i].nr, 3);
		assert_false(c.v[i].joins);
		assert_int_equal(c.v[i].task[1], 2);
		assert_int_equal(c.v[i].task[2], 3);
	}
	/* the oldest first */
	assert_int_equal(c.v[0].task[0], 0);
	ks_wait_chains_release(&c);
}

/*
 * 3,000 tasks in a line, each waiting for the next's lock, and 3,000
 * more waiting for the first's: one chain shows the line, the others two
 * tasks each, the second of which says where the line goes on.
 */
static void test_many_waiters_one_long_chain(void **state)
{
	enum { LINE = 3000, WAITERS = 3000, NR = LINE + WAITERS };
	size_t *next = malloc(NR * sizeof(*next)), total = 0, joined = 0;
	uint64_t *age = calloc(NR, sizeof(*age));
	struct ks_wait_chains c;

	(void)state;
	assert_non_null(next);
	assert_non_null(age);
	for (size_t i = 0; i < LINE; i++)
		next[i] = i + 1 < LINE ? i + 1 : KS_WAIT_END;
	for (size_t i = LINE; i < NR; i++) {
		next[i] = 0;
		age[i] = NR - i;	/* the first waiter is the oldest */
	}
	assert_int_equal(ks_wait_chains_build(next, age, NR, &c), 0);
	assert_int_equal(c.nr, WAITERS);
	for (size_t i = 0; i < c.nr; i++) {
		total += c.v[i].nr;
		if (!c.v[i].joins)
			continue;
		joined++;
		assert_int_equal(c.v[i].nr, 2);
		assert_int_equal(c.v[i].task[1], 0);
		/* the chain it joins shows the whole line */
		assert_int_equal(c.v[c.v[i].joins_of].nr, LINE + 1);
	}
	assert_int_equal(joined, WAITERS - 1);
	assert_int_equal(total, LINE + 1 + 2 * (WAITERS - 1));
	ks_wait_chains_release(&c);
	free(next);
	free(age);
}

/* A chain that runs into a deadlock still ends there, not at a join. */
static void test_into_deadlock(void **state)
{
	/* 0 and 1 wait for each other; 2 waits for 0, 3 for 2 */
	size_t next[] = { 1, 0, 0, 2 };
	uint64_t age[] = { 1, 2, 3, 4 };
	struct ks_wait_chains c;

	(void)state;
	assert_int_equal(ks_wait_chains_build(next, age, 4, &c), 0);
	assert_int_equal(c.nr, 2);
	assert_true(c.v[0].deadlock);
	assert_true(c.v[1].into_deadlock);
	assert_false(c.v[1].joins);
	assert_int_equal(c.v[1].nr, 3);
	ks_wait_chains_release(&c);
}

/* The lock each task waits for, by hand: lock[] */
static uint64_t key_of(void *arg, size_t i)
{
	return ((const uint64_t *)arg)[i];
}

static bool same_key(void *arg, size_t a, size_t b)
{
	return key_of(arg, a) == key_of(arg, b);
}

/*
 * 0, 1 and 2 wait for lock 100, held by 3, which waits for lock 200 of no
 * known owner; 4 waits for lock 300, also held by 3: the three waiters of
 * one lock are one chain, the other lock's waiter a chain of its own.
 */
static void test_fold_one_lock(void **state)
{
	size_t next[] = { 3, 3, 3, KS_WAIT_END, 3 };
	uint64_t age[] = { 5, 4, 3, 1, 2 };
	uint64_t lock[] = { 100, 100, 100, 200, 300 };
	const struct ks_wait_fold f = { key_of, same_key, lock };
	struct ks_wait_chains c;

	(void)state;
	assert_int_equal(ks_wait_chains_build(next, age, 5, &c), 0);
	assert_int_equal(c.nr, 4);
	assert_int_equal(ks_wait_chains_fold(&c, &f), 0);
	assert_int_equal(c.nr, 2);
	assert_int_equal(c.v[0].nr, 2);
	assert_int_equal(c.v[0].task[0], 0);
	assert_int_equal(c.v[0].task[1], 3);
	assert_int_equal(c.v[0].nr_also, 2);
	assert_int_equal(c.v[0].also[0], 1);
	assert_int_equal(c.v[0].also[1], 2);
	assert_int_equal(c.v[1].task[0], 4);
	assert_int_equal(c.v[1].nr_also, 0);
	ks_wait_chains_release(&c);
}

/*
 * The 3,000 waiters of one long line, folded: one chain shows the whole
 * line once, whichever waiter is the oldest (the one built first showed
 * it, the others joined it: the chain kept takes the way shown).
 */
static void test_fold_many_waiters(void **state)
{
	enum { LINE = 30, WAITERS = 3000, NR = LINE + WAITERS };
	size_t *next = malloc(NR * sizeof(*next));
	uint64_t *age = calloc(NR, sizeof(*age));
	uint64_t *lock = calloc(NR, sizeof(*lock));
	const struct ks_wait_fold f = { key_of, same_key, lock };
	struct ks_wait_chains c;

	(void)state;
	assert_non_null(next);
	assert_non_null(age);
	assert_non_null(lock);
	for (int oldest_last = 0; oldest_last < 2; oldest_last++) {
		for (size_t i = 0; i < LINE; i++) {
			next[i] = i + 1 < LINE ? i + 1 : KS_WAIT_END;
			lock[i] = 1000 + i;
		}
		for (size_t i = LINE; i < NR; i++) {
			next[i] = 0;
			lock[i] = 7;
			age[i] = oldest_last ? i : NR - i;
		}
		assert_int_equal(ks_wait_chains_build(next, age, NR, &c), 0);
		assert_int_equal(c.nr, WAITERS);
		assert_int_equal(ks_wait_chains_fold(&c, &f), 0);
		assert_int_equal(c.nr, 1);
		assert_int_equal(c.v[0].nr, LINE + 1);
		assert_false(c.v[0].joins);
		assert_int_equal(c.v[0].task[0], oldest_last ? NR - 1 : LINE);
		assert_int_equal(c.v[0].task[1], 0);
		assert_int_equal(c.v[0].nr_also, WAITERS - 1);
		ks_wait_chains_release(&c);
	}
	free(next);
	free(age);
	free(lock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_shared_tail),
		cmocka_unit_test(test_many_waiters_one_long_chain),
		cmocka_unit_test(test_into_deadlock),
		cmocka_unit_test(test_fold_one_lock),
		cmocka_unit_test(test_fold_many_waiters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
