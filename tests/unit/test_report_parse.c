// SPDX-License-Identifier: GPL-2.0-or-later
/* kstack report's reader: oled's text back into samples (report_parse.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report_parse.h"
#include "report_stuck.h"

struct got {
	int n;
	time_t time[4];
	size_t tasks[4], groups[4], d[4];
	char stack0[4][256];
	int pid0[4];
};

static int collect(const struct ks_rp_sample *s, void *ctx)
{
	struct got *g = ctx;

	if (g->n >= 4)
		return -1;
	g->time[g->n] = s->time;
	g->tasks[g->n] = s->nr_tasks;
	g->groups[g->n] = s->nr_groups;
	g->d[g->n] = s->nr_d;
	g->pid0[g->n] = s->nr_tasks ? s->tasks[0].pid : 0;
	snprintf(g->stack0[g->n], sizeof(g->stack0[0]), "%s",
		 s->nr_groups && s->groups[0].stack ? s->groups[0].stack : "");
	g->n++;
	return 0;
}

static const char *const text[] = {
	"zzz <Sat Sep 30 16:57:18 GMT 2023 - ol8-1",
	"",
	"PID:  8521   State:  S   Start Time: 2023/09/30 16:36:49   Cmd: -bash",
	"PID:  8564   State:  D   Start Time: 2023/09/30 16:38:20   Cmd: -bash",
	"Stack:",
	"[<0>] do_wait+0x15c/0x2e0",
	"[<0>] kernel_wait4+0xbc/0x168",
	"",
	"PID:     2   State:  S   Start Time: 2023/09/30 16:00:00   Cmd: kthreadd",
	"Stack:",
	"",
	"",
	"zzz <Sat Sep 30 16:57:28 UTC 2023 - ol8-1",
	"",
	"zzz <Sat Sep 30 16:57:38 UTC 2023 - ol8-1",
	"",
	"PID:  8521   State:  S   Start Time: 2023/09/30 16:36:49   Cmd: -bash",
	"Stack:",
	"[<0>] do_wa",
};

static void test_samples(void **state)
{
	struct ks_rp_parser p;
	struct got g = { 0 };

	(void)state;
	ks_rp_init(&p, collect, &g);
	for (size_t i = 0; i < sizeof(text) / sizeof(text[0]); i++)
		assert_int_equal(ks_rp_line(&p, text[i]), 0);
	/* the last sample is torn (killed inside its write): not handed over */
	assert_int_equal(ks_rp_end(&p, true), 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.time[0], 1696093038);	/* 16:57:18 UTC */
	assert_int_equal(g.tasks[0], 3);
	assert_int_equal(g.groups[0], 2);
	assert_int_equal(g.d[0], 1);
	assert_int_equal(g.pid0[0], 8521);
	assert_string_equal(g.stack0[0],
			    "[<0>] do_wait+0x15c/0x2e0\n[<0>] kernel_wait4+0xbc/0x168\n");
	/* a heartbeat: the header alone */
	assert_int_equal(g.time[1], 1696093048);
	assert_int_equal(g.tasks[1], 0);
	assert_int_equal(p.nr_bad, 0);
	ks_rp_release(&p);
}

static void test_header(void **state)
{
	char host[64];
	time_t t;

	(void)state;
	assert_int_equal(ks_rp_header_time("zzz <Tue Nov 24 23:42:11 UTC 2026 - vm",
					   &t, host, sizeof(host)), 0);
	assert_int_equal(t, 1795563731);
	assert_string_equal(host, "vm");
	assert_int_not_equal(ks_rp_header_time("zzz <garbage", &t, host,
					       sizeof(host)), 0);
}

/* One task in D across three samples, gone in the fourth: one streak. */
static void test_stuck(void **state)
{
	struct ks_rp_stacks stacks = { 0 };
	struct ks_rp_stuck st;
	struct ks_rp_task task = { .pid = 42, .state = 'D', .start = "2023/09/30 16:00:00",
				   .cmd = "sync" };
	struct ks_rp_group grp = { .stack = "[<0>] a+0x1/0x2\n", .len = 16 };
	struct ks_rp_sample s = { .tasks = &task, .nr_tasks = 1, .groups = &grp,
				  .nr_groups = 1 };

	(void)state;
	grp.hash = ks_rp_hash(grp.stack, grp.len);
	assert_int_equal(ks_rp_stuck_init(&st, 5), 0);
	for (unsigned long seq = 0; seq < 3; seq++) {
		s.time = 1000 + (time_t)seq * 60;
		assert_int_equal(ks_rp_stuck_sample(&st, &stacks, &s, seq), 0);
	}
	s.nr_tasks = 0;
	s.time = 1180;
	assert_int_equal(ks_rp_stuck_sample(&st, &stacks, &s, 3), 0);
	ks_rp_stuck_finish(&st);
	assert_int_equal(st.nr_kept, 1);
	assert_int_equal(st.kept[0].pid, 42);
	assert_int_equal(st.kept[0].first, 1000);
	assert_int_equal(st.kept[0].last, 1120);
	assert_int_equal(st.kept[0].samples, 3);
	assert_int_equal(st.kept[0].state, 'D');
	ks_rp_stuck_release(&st);
	ks_rp_stacks_release(&stacks);
}

/*
 * PIDs 1 and 65 share a slot of the PID set: once the first sample is
 * forgotten, 65 must not be taken for a repeat in the next one, where 1
 * comes first again and fills the slot the lookup stops at.
 */
static void test_colliding_pids(void **state)
{
	static const char *const lines[] = {
		"zzz <Sat Sep 30 16:57:18 GMT 2023 - h",
		"PID:     1   State:  S   Start Time: 2023/09/30 16:36:49   Cmd: a",
		"Stack:", "[<0>] f+0x1/0x2", "",
		"PID:    65   State:  S   Start Time: 2023/09/30 16:36:49   Cmd: b",
		"Stack:", "[<0>] g+0x1/0x2", "",
		"zzz <Sat Sep 30 16:57:28 GMT 2023 - h",
		"PID:     1   State:  S   Start Time: 2023/09/30 16:36:49   Cmd: a",
		"Stack:", "[<0>] f+0x1/0x2", "",
		"PID:    65   State:  D   Start Time: 2023/09/30 16:36:49   Cmd: b",
		"Stack:", "[<0>] h+0x1/0x2", "",
	};
	struct ks_rp_parser p;
	struct got g = { 0 };

	(void)state;
	ks_rp_init(&p, collect, &g);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_int_equal(ks_rp_line(&p, lines[i]), 0);
	assert_int_equal(ks_rp_end(&p, false), 0);
	assert_int_equal(p.nr_bad, 0);
	assert_int_equal(g.n, 2);
	assert_int_equal(g.tasks[1], 2);
	assert_int_equal(g.groups[1], 2);
	ks_rp_release(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_samples),
		cmocka_unit_test(test_colliding_pids),
		cmocka_unit_test(test_header),
		cmocka_unit_test(test_stuck),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
