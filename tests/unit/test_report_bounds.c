// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack report's memory and work, as figures the code keeps (issue #40,
 * items 21 and 22): a distinct stack costs its text and a few words, a
 * wide sample's state is released once it is counted, and the streaks of
 * the tasks of the last sample are all a small sample walks.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report_parse.h"
#include "report_stacks.h"
#include "report_stuck.h"

#define WIDE	20000

/* what the table holds: its arrays and each stack's text */
static size_t table_bytes(const struct ks_rp_stacks *t)
{
	size_t n = t->cap * sizeof(*t->v) + t->nr_slots * sizeof(*t->slots);

	for (size_t i = 0; i < t->nr; i++)
		n += t->v[i].len + 1;
	return n;
}

static void test_stack_cost(void **state)
{
	struct ks_rp_stacks t = { 0 };
	size_t text = 0;
	char buf[64];

	(void)state;
	for (int i = 0; i < WIDE; i++) {
		int n = snprintf(buf, sizeof(buf), "[<0>] f%d+0x1/0x2\n", i);

		assert_non_null(ks_rp_stacks_get(&t, ks_rp_hash(buf, (size_t)n),
						 buf, (size_t)n));
		text += (size_t)n + 1;
	}
	assert_int_equal(t.nr, WIDE);
	/* a distinct stack: its text and at most 256 bytes besides (was 2 KB) */
	printf("%zu distinct stacks: %zu bytes, %zu of them text\n", t.nr,
	       table_bytes(&t), text);
	assert_true(table_bytes(&t) <= text + 256 * (size_t)WIDE);
	ks_rp_stacks_release(&t);
}

static int count_samples(const struct ks_rp_sample *s, void *ctx)
{
	(void)s;
	(*(int *)ctx)++;
	return 0;
}

/* what the parser keeps between samples */
static size_t parser_bytes(const struct ks_rp_parser *p)
{
	size_t n = p->s.cap_groups * sizeof(*p->s.groups) +
		   p->s.cap_tasks * sizeof(*p->s.tasks);

	for (size_t i = 0; i < p->s.cap_groups; i++)
		n += p->s.groups[i].cap;
	return n;
}

static void wide_sample(struct ks_rp_parser *p, int tasks)
{
	char line[128];

	assert_int_equal(ks_rp_line(p, "zzz <Thu Jan 01 00:00:00 UTC 2026 - h"), 0);
	for (int i = 0; i < tasks; i++) {
		snprintf(line, sizeof(line),
			 "PID: %5d   State:  S   Start Time: 2026/01/01 00:00:00   Cmd: x",
			 i + 1);
		assert_int_equal(ks_rp_line(p, line), 0);
		assert_int_equal(ks_rp_line(p, "Stack:"), 0);
		snprintf(line, sizeof(line), "[<0>] f%d+0x1/0x2", i);
		assert_int_equal(ks_rp_line(p, line), 0);
		assert_int_equal(ks_rp_line(p, ""), 0);
	}
}

static void test_parser_releases(void **state)
{
	struct ks_rp_parser p;
	int n = 0;

	(void)state;
	ks_rp_init(&p, count_samples, &n);
	wide_sample(&p, WIDE);
	wide_sample(&p, 1);
	wide_sample(&p, 1);
	assert_int_equal(n, 2);
	/* after two one-task samples, the wide one is not kept */
	printf("parser after a wide sample: %zu bytes\n", parser_bytes(&p));
	assert_true(parser_bytes(&p) <= 64 * 1024);
	ks_rp_release(&p);
}

/* a sample of n tasks, PIDs from 1, one stack each */
static void stuck_sample(struct ks_rp_stuck *st, struct ks_rp_stacks *stacks,
			 size_t n, unsigned long seq)
{
	static struct ks_rp_task tasks[WIDE];
	static char text[] = "[<0>] f+0x1/0x2\n";
	struct ks_rp_group g = { .stack = text, .len = sizeof(text) - 1 };
	struct ks_rp_sample s = { .time = (time_t)seq * 10, .tasks = tasks,
				  .nr_tasks = n, .groups = &g, .nr_groups = 1 };

	g.hash = ks_rp_hash(g.stack, g.len);
	for (size_t i = 0; i < n; i++) {
		tasks[i] = (struct ks_rp_task){ .pid = (int)i + 1, .state = 'S' };
		strcpy(tasks[i].start, "2026/01/01 00:00:00");
	}
	assert_int_equal(ks_rp_stuck_sample(st, stacks, &s, seq), 0);
}

static void test_stuck_after_wide(void **state)
{
	struct ks_rp_stuck st;
	struct ks_rp_stacks stacks = { 0 };

	(void)state;
	assert_int_equal(ks_rp_stuck_init(&st, 10), 0);
	stuck_sample(&st, &stacks, WIDE, 0);
	stuck_sample(&st, &stacks, 1, 1);
	/* a one-task sample walks a table sized for one task, not WIDE */
	printf("streak slots after a wide sample: %zu for %zu open\n",
	       st.nr_slots, st.nr_open);
	assert_int_equal(st.nr_open, 1);
	assert_true(st.nr_slots <= 1024);
	ks_rp_stuck_finish(&st);
	assert_int_equal(st.nr_kept, 1);
	ks_rp_stuck_release(&st);
	ks_rp_stacks_release(&stacks);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_stack_cost),
		cmocka_unit_test(test_parser_releases),
		cmocka_unit_test(test_stuck_after_wide),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
