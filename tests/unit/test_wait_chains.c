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

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_short_shared_tail),
		cmocka_unit_test(test_many_waiters_one_long_chain),
		cmocka_unit_test(test_into_deadlock),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
