// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/core/wait_root.c on graphs built by hand: the root blocker of
 * kstack triage is where the longest chain of waits ends, its holder
 * outside the sample counted; a deadlock is a root of its own, and the
 * root of every chain that runs into it; ties go to the first of the
 * chains as --waits prints them.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "wait_root.h"

#define END	KS_WAIT_END
#define NONE	KS_WAIT_NONE

static void root_of(const size_t *next, const uint64_t *age, const bool *out,
		    size_t nr, struct ks_wait_root *r)
{
	struct ks_wait_chains c;

	assert_int_equal(ks_wait_chains_build(next, age, nr, &c), 0);
	assert_int_equal(ks_wait_root_find(&c, next, out, nr, r), 0);
	if (r->found)
		assert_true(r->chain < c.nr);
	ks_wait_chains_release(&c);
}

/*
 * The kslock scenario's tasks in D: an ABBA pair (0, 1), a chain a -> b
 * whose rwsem a task in S holds (2, 3), a waiter of a mutex a task in S
 * holds (4), a semaphore of no owner (5).  The chain and its holder are
 * the longest: the root is that holder, beyond b.
 */
static void test_kslock(void **state)
{
	size_t next[] = { 1, 0, 3, END, END, END };
	uint64_t age[] = { 5, 5, 5, 5, 6, 5 };
	bool out[] = { false, false, false, true, true, false };
	struct ks_wait_root r;

	(void)state;
	root_of(next, age, out, 6, &r);
	assert_true(r.found);
	assert_false(r.deadlock);
	assert_true(r.beyond);
	assert_int_equal(r.task, 3);
	assert_int_equal(r.length, 3);
}

/* Two tasks wait on into an ABBA pair: the root is the deadlock. */
static void test_chain_into_deadlock(void **state)
{
	size_t next[] = { 1, 2, 3, 2, END };
	uint64_t age[] = { 1, 1, 1, 1, 9 };
	bool out[] = { false, false, false, false, true };
	struct ks_wait_root r;

	(void)state;
	root_of(next, age, out, 5, &r);
	assert_true(r.found);
	assert_true(r.deadlock);
	assert_false(r.beyond);
	assert_int_equal(r.length, 4);
}

/* A deadlock of two and a chain of two with its holder: the deadlock. */
static void test_tie_deadlock_first(void **state)
{
	size_t next[] = { END, 2, 1 };
	uint64_t age[] = { 9, 1, 1 };
	bool out[] = { true, false, false };
	struct ks_wait_root r;

	(void)state;
	root_of(next, age, out, 3, &r);
	assert_true(r.deadlock);
	assert_int_equal(r.length, 2);
}

/* Two chains of one task each: the older, as --waits prints it first. */
static void test_tie_older_chain(void **state)
{
	size_t next[] = { END, END };
	uint64_t age[] = { 1, 7 };
	struct ks_wait_root r;

	(void)state;
	root_of(next, age, NULL, 2, &r);
	assert_true(r.found);
	assert_false(r.beyond);
	assert_int_equal(r.task, 1);
	assert_int_equal(r.length, 1);
}

/* No task waits for a lock: no root. */
static void test_none(void **state)
{
	size_t next[] = { NONE, NONE };
	uint64_t age[] = { 1, 2 };
	struct ks_wait_root r;

	(void)state;
	root_of(next, age, NULL, 2, &r);
	assert_false(r.found);
	root_of(next, age, NULL, 0, &r);
	assert_false(r.found);
}

/*
 * 3,000 tasks in a line and 3,000 more waiting for its first: the chains
 * shown join the line, but the root counts the line whole, once per task.
 */
static void test_long_line(void **state)
{
	enum { LINE = 3000, WAITERS = 3000, NR = LINE + WAITERS };
	size_t *next = malloc(NR * sizeof(*next));
	uint64_t *age = calloc(NR, sizeof(*age));
	bool *out = calloc(NR, sizeof(*out));
	struct ks_wait_root r;

	(void)state;
	assert_non_null(next);
	assert_non_null(age);
	assert_non_null(out);
	for (size_t i = 0; i < LINE; i++)
		next[i] = i + 1 < LINE ? i + 1 : END;
	out[LINE - 1] = true;
	for (size_t i = LINE; i < NR; i++) {
		next[i] = 0;
		age[i] = NR - i;
	}
	root_of(next, age, out, NR, &r);
	assert_true(r.found);
	assert_true(r.beyond);
	assert_int_equal(r.task, LINE - 1);
	assert_int_equal(r.length, LINE + 2);
	free(next);
	free(age);
	free(out);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kslock),
		cmocka_unit_test(test_chain_into_deadlock),
		cmocka_unit_test(test_tie_deadlock_first),
		cmocka_unit_test(test_tie_older_chain),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_long_line),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
