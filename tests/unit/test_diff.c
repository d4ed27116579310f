// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack diff's comparison (live/diff/diff_compare.c) over captures made
 * here: groups that appeared, vanished, grew and shrank; tasks that
 * moved, appeared and vanished; running tasks set aside; stuck across
 * both only where both sides have switch counts that did not move.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "diff.h"

#define WAIT	"[<0>] do_wait+0x114/0x320\n[<0>] kernel_wait4+0xb4/0x160\n"
#define IO	"[<0>] io_schedule+0x42/0x70\n[<0>] folio_wait_bit+0x10/0x20\n"
#define IO_OFF	"[<0>] io_schedule+0x40/0x70\n[<0>] folio_wait_bit.isra.0+0x11/0x20\n"

struct spec {
	int pid;
	char state;
	const char *stack;
	long long nvcsw;	/* -1: no switch counts */
	unsigned long weight;	/* 0: 1 */
};

static void make(struct ks_diff_capture *c, const struct spec *v, size_t n)
{
	memset(c, 0, sizeof(*c));
	c->name = "test";
	for (size_t i = 0; i < n; i++) {
		struct ks_diff_task t = {
			.pid = v[i].pid, .state = v[i].state,
			.weight = v[i].weight ? v[i].weight : 1,
			.has_switches = v[i].nvcsw >= 0,
			.nvcsw = (uint64_t)v[i].nvcsw, .nivcsw = 3,
		};

		snprintf(t.cmd, sizeof(t.cmd), "cmd%d", v[i].pid);
		assert_int_equal(ks_diff_stack(c, v[i].stack, &t.stack), 0);
		assert_int_equal(ks_diff_add(c, &t), 0);
	}
}

static void compare(const struct spec *a, size_t na, const struct spec *b,
		    size_t nb, struct ks_diff_capture *ca,
		    struct ks_diff_capture *cb, struct ks_diff_result *r)
{
	make(ca, a, na);
	make(cb, b, nb);
	assert_int_equal(ks_diff_compare(ca, cb, r), 0);
}

static void done(struct ks_diff_capture *a, struct ks_diff_capture *b,
		 struct ks_diff_result *r)
{
	ks_diff_result_release(r);
	ks_diff_release(a);
	ks_diff_release(b);
}

/* The same tasks, offsets and compiler suffixes aside: no change. */
static void test_same(void **state)
{
	const struct spec a[] = {
		{ 1, 'S', WAIT, -1, 0 }, { 2, 'D', IO, -1, 0 },
		{ 3, 'R', "", -1, 0 },
	};
	const struct spec b[] = {
		{ 1, 'S', WAIT, 5, 0 }, { 2, 'D', IO_OFF, 5, 0 },
		{ 3, 'S', WAIT, 5, 0 },
	};
	struct ks_diff_capture ca, cb;
	struct ks_diff_result r;

	(void)state;
	compare(a, 3, b, 3, &ca, &cb, &r);
	assert_false(r.changed);
	assert_int_equal(r.nr_groups, 0);
	assert_int_equal(r.running, 1);
	assert_int_equal(r.same, 2);
	assert_int_equal(r.a_total, 2);
	assert_int_equal(r.b_total, 2);
	/* A has no switch counts: nothing is said stuck */
	assert_int_equal(r.switches_known, 0);
	assert_int_equal(r.nr_stuck, 0);
	done(&ca, &cb, &r);
}

/* A task from S to D: it moved, one group shrank or vanished, one appeared. */
static void test_moved(void **state)
{
	const struct spec a[] = {
		{ 10, 'S', WAIT, -1, 0 }, { 11, 'S', WAIT, -1, 0 },
		{ 12, 'S', WAIT, -1, 0 }, { 20, 'D', IO, -1, 0 },
	};
	const struct spec b[] = {
		{ 10, 'S', WAIT, -1, 0 }, { 11, 'D', IO, -1, 0 },
		{ 13, 'D', IO, -1, 0 },
	};
	struct ks_diff_capture ca, cb;
	struct ks_diff_result r;

	(void)state;
	compare(a, 4, b, 3, &ca, &cb, &r);
	assert_true(r.changed);
	assert_int_equal(r.nr_moved, 1);
	assert_int_equal(r.moved[0].a->pid, 11);
	assert_int_equal(r.moved[0].a->state, 'S');
	assert_int_equal(r.moved[0].b->state, 'D');
	assert_string_equal(r.moved[0].stack, IO);
	assert_int_equal(r.nr_vanished, 2);
	assert_int_equal(r.vanished[0].a->pid, 12);
	assert_int_equal(r.vanished[1].a->pid, 20);
	assert_int_equal(r.nr_appeared, 1);
	assert_int_equal(r.appeared[0].b->pid, 13);
	/* S in do_wait: 3 -> 1 (shrank); D in I/O: 1 -> 2 (grew) */
	assert_int_equal(r.nr_groups, 2);
	assert_int_equal(r.groups[0].change, KS_DIFF_GREW);
	assert_int_equal(r.groups[0].a, 1);
	assert_int_equal(r.groups[0].b, 2);
	assert_int_equal(r.groups[1].change, KS_DIFF_SHRANK);
	assert_int_equal(r.groups[1].a, 3);
	assert_int_equal(r.groups[1].b, 1);
	done(&ca, &cb, &r);
}

/* Groups of unnamed tasks (-c): appeared and vanished by count alone. */
static void test_counted(void **state)
{
	const struct spec a[] = {
		{ 0, 'S', WAIT, -1, 40 }, { 0, 'R', "", -1, 7 },
	};
	const struct spec b[] = {
		{ 0, 'D', IO, -1, 3 }, { 0, 'R', "", -1, 2 },
	};
	struct ks_diff_capture ca, cb;
	struct ks_diff_result r;

	(void)state;
	compare(a, 2, b, 2, &ca, &cb, &r);
	assert_true(r.changed);
	assert_int_equal(r.running, 9);
	assert_int_equal(r.nr_groups, 2);
	assert_int_equal(r.groups[0].change, KS_DIFF_APPEARED);
	assert_int_equal(r.groups[0].b, 3);
	assert_int_equal(r.groups[0].state, 'D');
	assert_int_equal(r.groups[1].change, KS_DIFF_VANISHED);
	assert_int_equal(r.groups[1].a, 40);
	assert_int_equal(r.nr_moved + r.nr_appeared + r.nr_vanished, 0);
	done(&ca, &cb, &r);
}

/* A -c capture names a few tasks: the others are not said to appear. */
static void test_partly_named(void **state)
{
	const struct spec a[] = {
		{ 1, 'S', WAIT, -1, 0 }, { 0, 'S', WAIT, -1, 2 },
	};
	const struct spec b[] = {
		{ 1, 'S', WAIT, -1, 0 }, { 2, 'S', WAIT, -1, 0 },
		{ 3, 'S', WAIT, -1, 0 },
	};
	struct ks_diff_capture ca, cb;
	struct ks_diff_result r;

	(void)state;
	compare(a, 2, b, 3, &ca, &cb, &r);
	assert_false(r.changed);
	assert_int_equal(r.nr_appeared, 0);
	done(&ca, &cb, &r);
	/* the other way round: nothing vanished either */
	compare(b, 3, a, 2, &ca, &cb, &r);
	assert_false(r.changed);
	assert_int_equal(r.nr_vanished, 0);
	done(&ca, &cb, &r);
}

/* Stuck: the same D or T stack, both counts known and equal; ran: moved. */
static void test_stuck(void **state)
{
	const struct spec a[] = {
		{ 5, 'D', IO, 100, 0 }, { 6, 'D', IO, 100, 0 },
		{ 7, 'T', WAIT, 9, 0 }, { 8, 'S', WAIT, 1, 0 },
		{ 9, 'D', IO, -1, 0 },
	};
	const struct spec b[] = {
		{ 5, 'D', IO, 100, 0 }, { 6, 'D', IO, 101, 0 },
		{ 7, 'T', WAIT, 9, 0 }, { 8, 'S', WAIT, 1, 0 },
		{ 9, 'D', IO, 4, 0 },
	};
	struct ks_diff_capture ca, cb;
	struct ks_diff_result r;

	(void)state;
	compare(a, 5, b, 5, &ca, &cb, &r);
	assert_false(r.changed);
	assert_int_equal(r.switches_known, 3);
	assert_int_equal(r.nr_stuck, 2);
	assert_int_equal(r.stuck[0].b->pid, 5);
	assert_int_equal(r.stuck[1].b->pid, 7);
	/* 6 switched back into its stack: it ran, not a change; 9's A has
	   no counts, 8 is S with the same counts */
	assert_int_equal(r.nr_ran, 1);
	assert_int_equal(r.ran[0].b->pid, 6);
	done(&ca, &cb, &r);
}

/* Tasks that swap stacks: no group changes, yet two tasks moved. */
static void test_swap(void **state)
{
	const struct spec a[] = { { 1, 'S', WAIT, -1, 0 }, { 2, 'D', IO, -1, 0 } };
	const struct spec b[] = { { 1, 'D', IO, -1, 0 }, { 2, 'S', WAIT, -1, 0 } };
	struct ks_diff_capture ca, cb;
	struct ks_diff_result r;

	(void)state;
	compare(a, 2, b, 2, &ca, &cb, &r);
	assert_true(r.changed);
	assert_int_equal(r.nr_groups, 0);
	assert_int_equal(r.nr_moved, 2);
	done(&ca, &cb, &r);
}

/* Many tasks: more than one growth of every array. */
static void test_many(void **state)
{
	enum { N = 5000 };
	struct spec *a = calloc(N, sizeof(*a)), *b = calloc(N, sizeof(*b));
	struct ks_diff_capture ca, cb;
	struct ks_diff_result r;

	(void)state;
	for (int i = 0; i < N; i++) {
		a[i] = (struct spec){ N - i, 'S', WAIT, -1, 0 };
		b[i] = (struct spec){ i + 1, i % 2 ? 'D' : 'S', i % 2 ? IO : WAIT,
				      -1, 0 };
	}
	compare(a, N, b, N, &ca, &cb, &r);
	assert_int_equal(r.nr_moved, N / 2);
	assert_int_equal(r.same, N / 2);
	for (size_t i = 1; i < r.nr_moved; i++)
		assert_true(r.moved[i - 1].b->pid < r.moved[i].b->pid);
	done(&ca, &cb, &r);
	free(a);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_same),
		cmocka_unit_test(test_moved),
		cmocka_unit_test(test_counted),
		cmocka_unit_test(test_partly_named),
		cmocka_unit_test(test_stuck),
		cmocka_unit_test(test_swap),
		cmocka_unit_test(test_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
