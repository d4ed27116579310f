// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack --snoop without a kernel: trace_pipe text (tests/fixtures/snoop)
 * into calls, the names of our probes and instances, the kernel's reason
 * from error_log, leftovers of dead runs removed from a fake tracefs, and
 * the four output forms.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "said.h"
#include "snoop_format.h"
#include "snoop_probe.h"
#include "snoop_trace.h"

#ifndef FIXTURES
#define FIXTURES "tests/fixtures"
#endif

#define MAX_RECS 64

struct got {
	struct ks_snoop_rec recs[MAX_RECS];
	size_t n;
};

static void collect(void *arg, struct ks_snoop_rec *r)
{
	struct got *g = arg;

	assert_true(g->n < MAX_RECS);
	g->recs[g->n] = *r;
	g->recs[g->n].stack = strdup(r->stack);
	g->n++;
}

static void got_free(struct got *g)
{
	for (size_t i = 0; i < g->n; i++)
		free(g->recs[i].stack);
	g->n = 0;
}

/* Feeds a fixture line by line; flush_each: a read ended after every entry. */
static void feed_file(struct ks_snoop_parser *p, const char *name, bool flush_each)
{
	char path[512], line[4096];
	FILE *f;

	snprintf(path, sizeof(path), "%s/snoop/%s", FIXTURES, name);
	f = fopen(path, "r");
	assert_non_null(f);
	while (fgets(line, sizeof(line), f)) {
		line[strcspn(line, "\n")] = '\0';
		if (flush_each && strncmp(line, " => ", 4))
			ks_snoop_parse_flush(p);
		assert_int_equal(ks_snoop_parse_line(p, line), 0);
	}
	fclose(f);
	ks_snoop_parse_end(p);
}

static void test_line_context(void **state)
{
	struct ks_trace_ctx c;

	(void)state;
	assert_int_equal(ks_trace_line_parse(
		"            perl-301     [001] .....    52.118934: kstack_290_0: (x)",
		&c), 0);
	assert_string_equal(c.comm, "perl");
	assert_int_equal(c.pid, 301);
	assert_int_equal(c.cpu, 1);
	assert_int_equal(c.ts_ns, 52118934000ull);
	assert_string_equal(c.text, "kstack_290_0: (x)");
	/* a comm that looks like the fields after it: the width decides */
	assert_int_equal(ks_trace_line_parse(
		"       a-1 [7] x-306     [012] d..1.    52.200002: <stack trace>",
		&c), 0);
	assert_string_equal(c.comm, "a-1 [7] x");
	assert_int_equal(c.pid, 306);
	assert_int_equal(c.cpu, 12);
	/* nanoseconds, no irq-info column, a pid wider than 7 */
	assert_int_equal(ks_trace_line_parse(
		"           <...>-12345678 [003]  1052.300000123: <stack trace>", &c), 0);
	assert_string_equal(c.comm, "<...>");
	assert_int_equal(c.pid, 12345678);
	assert_int_equal(c.ts_ns, 1052300000123ull);
	assert_string_equal(c.text, "<stack trace>");
	assert_int_equal(ks_trace_line_parse(" => ksys_sync+0x4/0xa0", &c), -EINVAL);
	assert_int_equal(ks_trace_line_parse("CPU:1 [LOST 12 EVENTS]", &c), -EINVAL);
	assert_int_equal(ks_trace_line_parse("perl-301 [001] no time here", &c),
			 -EINVAL);
	/* the largest time 64 bits of nanoseconds hold, and past it */
	assert_int_equal(ks_trace_line_parse(
		"perl-301 [001] 18446744073.709551615: x", &c), 0);
	assert_int_equal(c.ts_ns, UINT64_MAX);
	assert_int_equal(ks_trace_line_parse(
		"perl-301 [001] 18446744073.709551616: x", &c), -EINVAL);
	assert_int_equal(ks_trace_line_parse(
		"perl-301 [001] 3323333333333333333333333332.118940: x", &c),
			 -EINVAL);
}

static void check_handmade(struct got *g, const struct ks_snoop_parser *p)
{
	assert_int_equal(g->n, 5);
	assert_int_equal(g->recs[0].pid, 301);
	assert_string_equal(g->recs[0].stack,
		"[<0>] ksys_sync+0x4/0xa0\n[<0>] __do_sys_sync+0xa/0x20\n"
		"[<0>] do_syscall_64+0x5d/0x90\n"
		"[<0>] entry_SYSCALL_64_after_hwframe+0x6e/0xd8\n");
	/* CPU 0's stack came after CPU 1's call: each found its own */
	assert_int_equal(g->recs[1].pid, 305);
	assert_int_equal(g->recs[1].cpu, 0);
	assert_string_equal(g->recs[1].stack,
		"[<0>] ksys_sync+0x4/0xa0\n[<0>] kshook_fn+0x10/0x40 [kshook]\n"
		"[<0>] 0xffffffffc0a01234\n");
	assert_int_equal(g->recs[2].pid, 306);
	assert_string_equal(g->recs[2].comm, "a-1 [7] x");
	assert_string_equal(g->recs[2].stack,
		"[<0>] ksys_sync+0x4/0xa0\n[<0>] __do_sys_sync+0xa/0x20\n");
	/* 307's stack was lost: the call still counts */
	assert_int_equal(g->recs[3].pid, 307);
	assert_string_equal(g->recs[3].stack, "");
	assert_int_equal(g->recs[4].pid, 308);
	assert_int_equal(g->recs[4].ts_ns, 1052300000123ull);
	assert_string_equal(g->recs[4].stack, "[<0>] ksys_sync+0x4/0xa0\n");
	assert_int_equal(p->lost, 12);
	assert_int_equal(p->no_stack, 1);
	assert_int_equal(p->unparsed, 2);	/* the garbage and other_event */
}

static void test_parse_handmade(void **state)
{
	struct ks_snoop_parser p;
	struct got g = { .n = 0 };

	(void)state;
	ks_snoop_parser_init(&p, "kstack_290_0", collect, &g);
	feed_file(&p, "trace_pipe-handmade.txt", false);
	check_handmade(&g, &p);
	ks_snoop_parser_release(&p);
	got_free(&g);
	/* reads that ended after any entry give the same calls */
	ks_snoop_parser_init(&p, "kstack_290_0", collect, &g);
	feed_file(&p, "trace_pipe-handmade.txt", true);
	check_handmade(&g, &p);
	ks_snoop_parser_release(&p);
	got_free(&g);
}

/*
 * trace_pipe as kstack --snoop ksys_sync -t 5 read it in the snoop vmcore
 * scenario (Debian 6.1.0-56-cloud-amd64 under QEMU, KSTACK_SNOOP_RAW):
 * perl 158 calling sync(2) five times, then two sync processes.
 */
static void test_parse_recorded(void **state)
{
	static const char stack[] =
		"[<0>] ksys_sync+0x1/0xa0\n[<0>] __do_sys_sync+0xa/0x20\n"
		"[<0>] do_syscall_64+0x5d/0x90\n"
		"[<0>] entry_SYSCALL_64_after_hwframe+0x6e/0xd8\n";
	static const int32_t pids[] = { 158, 158, 158, 158, 158, 197, 199 };
	struct ks_snoop_parser p;
	struct got g = { .n = 0 };

	(void)state;
	ks_snoop_parser_init(&p, "kstack_166_0", collect, &g);
	feed_file(&p, "trace_pipe-6.1.0-56-cloud.txt", false);
	assert_int_equal(g.n, 7);
	for (size_t i = 0; i < g.n; i++) {
		assert_int_equal(g.recs[i].pid, pids[i]);
		assert_string_equal(g.recs[i].comm, i < 5 ? "perl" : "sync");
		assert_string_equal(g.recs[i].stack, stack);
	}
	assert_int_equal(g.recs[0].cpu, 1);
	assert_int_equal(g.recs[0].ts_ns, 7017943000ull);
	assert_int_equal(p.lost + p.unparsed + p.no_stack, 0);
	ks_snoop_parser_release(&p);
	got_free(&g);
}

/*
 * The probe records $comm: its comm="..." names the caller where the
 * line's comm is "<...>" (tracing had not saved it yet) or is older, and
 * a comm with quotes or spaces is taken up to the last quote.
 */
static void test_event_comm(void **state)
{
	static const char *const lines[] = {
		"           <...>-148     [001] .....    52.300000: kstack_290_0: (ksys_sync+0x4/0xa0) comm=\"perl\"",
		"           <...>-148     [001] .....    52.300001: <stack trace>",
		" => ksys_sync",
		"            bash-149     [000] .....    52.400000: kstack_290_0: (ksys_sync+0x4/0xa0) comm=\"a \"b\" c\"",
		"            bash-149     [000] .....    52.400001: <stack trace>",
		" => ksys_sync",
		"           <...>-150     [000] .....    52.500000: kstack_290_0: (ksys_sync+0x4/0xa0)",
		"           <...>-150     [000] .....    52.500001: <stack trace>",
		" => ksys_sync",
	};
	struct ks_snoop_parser p;
	struct got g = { .n = 0 };

	(void)state;
	ks_snoop_parser_init(&p, "kstack_290_0", collect, &g);
	for (size_t i = 0; i < sizeof(lines) / sizeof(lines[0]); i++)
		assert_int_equal(ks_snoop_parse_line(&p, lines[i]), 0);
	ks_snoop_parse_end(&p);
	assert_int_equal(g.n, 3);
	assert_string_equal(g.recs[0].comm, "perl");
	assert_int_equal(g.recs[0].pid, 148);
	assert_string_equal(g.recs[1].comm, "a \"b\" c");
	/* without the argument (an older kernel): the line's own */
	assert_string_equal(g.recs[2].comm, "<...>");
	ks_snoop_parser_release(&p);
	got_free(&g);
}

static void test_names(void **state)
{
	char name[128];
	int32_t pid;

	(void)state;
	assert_int_equal(ks_snoop_instance_pid("kstack-4242", &pid), 0);
	assert_int_equal(pid, 4242);
	assert_int_equal(ks_snoop_instance_pid("kstack-", &pid), -ENOENT);
	assert_int_equal(ks_snoop_instance_pid("kstack-12x", &pid), -ENOENT);
	assert_int_equal(ks_snoop_instance_pid("mine", &pid), -ENOENT);
	assert_int_equal(ks_snoop_probe_line("p:kstack/kstack_123_0 ksys_sync",
					     name, sizeof(name), &pid), 0);
	assert_string_equal(name, "kstack/kstack_123_0");
	assert_int_equal(pid, 123);
	assert_int_equal(ks_snoop_probe_line("r10:kstack/kstack_9_11 vfs_read",
					     name, sizeof(name), &pid), 0);
	assert_string_equal(name, "kstack/kstack_9_11");
	/* the hooks scenario's own probes are not ours */
	assert_int_equal(ks_snoop_probe_line("p:kprobes/kstack_open do_sys_openat2",
					     name, sizeof(name), &pid), -ENOENT);
	assert_int_equal(ks_snoop_probe_line("p:kstack/kstack_open x",
					     name, sizeof(name), &pid), -ENOENT);
	assert_int_equal(ks_snoop_probe_line("p:kstack/kstack_1_x x",
					     name, sizeof(name), &pid), -ENOENT);
}

static void test_error_reason(void **state)
{
	static const char log[] =
		"[   10.000001] trace_kprobe: error: Invalid probed address or symbol\n"
		"  Command: p:kstack/kstack_77_0 nosuch\n"
		"                                ^\n"
		"[   12.500000] trace_kprobe: error: Failed to register probe event\n"
		"  Command: p:kstack/kstack_78_0 native_sched_clock\n"
		"                                ^\n";
	char buf[512];

	(void)state;
	assert_int_equal(ks_snoop_error_reason(log, "p:kstack/kstack_78_0 "
					       "native_sched_clock", buf,
					       sizeof(buf)), 0);
	assert_string_equal(buf, "Failed to register probe event\n"
			    "  Command: p:kstack/kstack_78_0 native_sched_clock\n"
			    "                                ^");
	assert_int_equal(ks_snoop_error_reason(log, "p:kstack/kstack_77_0 nosuch",
					       buf, sizeof(buf)), 0);
	assert_non_null(strstr(buf, "Invalid probed address or symbol"));
	/* a prefix of another command is not that command */
	assert_int_equal(ks_snoop_error_reason(log, "p:kstack/kstack_77_0 nosu",
					       buf, sizeof(buf)), -ENOENT);
	assert_int_equal(ks_snoop_error_reason("", "p:x y", buf, sizeof(buf)),
			 -ENOENT);
}

static bool only_222_alive(int32_t pid)
{
	return pid == 222;
}

static void test_clean_stale(void **state)
{
	char dir[] = "/tmp/kstack-snoop-XXXXXX", path[256], text[1024];
	struct said report = { "", 0 };
	FILE *f;
	size_t n;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/instances", dir);
	assert_int_equal(mkdir(path, 0755), 0);
	for (const char *const *d = (const char *const[]){ "kstack-111",
		"kstack-222", "kstack-abc", "theirs", NULL }; *d; d++) {
		snprintf(path, sizeof(path), "%s/instances/%s", dir, *d);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	snprintf(path, sizeof(path), "%s/kprobe_events", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("p:kstack/kstack_111_0 ksys_sync\np:kstack/kstack_222_0 vfs_read\n"
	      "p:kprobes/kstack_open do_sys_openat2\nr:kstack/kstack_111_1 foo\n", f);
	fclose(f);
	assert_int_equal(ks_snoop_clean_stale(dir, only_222_alive,
					      &SAID_TO(&report)), 3);
	snprintf(path, sizeof(path), "%s/instances/kstack-111", dir);
	assert_int_equal(access(path, F_OK), -1);
	for (const char *const *d = (const char *const[]){ "kstack-222",
		"kstack-abc", "theirs", NULL }; *d; d++) {
		snprintf(path, sizeof(path), "%s/instances/%s", dir, *d);
		assert_int_equal(access(path, F_OK), 0);
		rmdir(path);
	}
	/* a real kprobe_events removes on "-:": here the writes are appended */
	snprintf(path, sizeof(path), "%s/kprobe_events", dir);
	f = fopen(path, "r");
	n = fread(text, 1, sizeof(text) - 1, f);
	text[n] = '\0';
	fclose(f);
	assert_non_null(strstr(text, "do_sys_openat2\nr:kstack/kstack_111_1 foo\n"
			       "-:kstack/kstack_111_0\n-:kstack/kstack_111_1\n"));
	assert_null(strstr(text, "-:kstack/kstack_222_0"));
	assert_non_null(strstr(report.text, "removed tracing instance kstack-111 left by kstack 111\n"));
	assert_non_null(strstr(report.text, "removed kprobe kstack/kstack_111_1 left by kstack 111\n"));
	unlink(path);
	snprintf(path, sizeof(path), "%s/instances", dir);
	rmdir(path);
	rmdir(dir);
}

/* The four forms over three calls, two of one stack. */
static char *format(enum ks_format fmt)
{
	static char s1[] = "[<0>] ksys_sync+0x4/0xa0\n[<0>] do_syscall_64+0x5d/0x90\n";
	static char s2[] = "[<0>] ksys_sync+0x4/0xa0\n[<0>] kthread+0xda/0x100\n";
	struct ks_snoop_rec r[3] = {
		{ .comm = "sync", .pid = 305, .cpu = 1, .ts_ns = 1000000000, .stack = s2 },
		{ .comm = "perl", .pid = 301, .cpu = 0, .ts_ns = 2500000000, .stack = s1 },
		{ .comm = "perl", .pid = 301, .cpu = 1, .ts_ns = 3000001000, .stack = s1 },
	};
	struct ks_snoop_out o;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	ks_snoop_out_init(&o, f, fmt, "ksys_sync", 1700000000ll * 1000000000);
	for (int i = 0; i < 3; i++)
		assert_int_equal(ks_snoop_out_rec(&o, &r[i]), 0);
	assert_int_equal(ks_snoop_out_end(&o, 5.0), 0);
	ks_snoop_out_release(&o);
	fclose(f);
	return buf;
}

static void test_formats(void **state)
{
	char *s;

	(void)state;
	setenv("TZ", "UTC", 1);
	s = format(KS_FMT_TEXT);
	assert_string_equal(s,
		"PID:   305   CPU:   1   Time: 2023/11/14 22:13:21.000000   Comm: sync\n"
		"[<0>] ksys_sync+0x4/0xa0\n[<0>] kthread+0xda/0x100\n\n"
		"PID:   301   CPU:   0   Time: 2023/11/14 22:13:22.500000   Comm: perl\n"
		"[<0>] ksys_sync+0x4/0xa0\n[<0>] do_syscall_64+0x5d/0x90\n\n"
		"PID:   301   CPU:   1   Time: 2023/11/14 22:13:23.000001   Comm: perl\n"
		"[<0>] ksys_sync+0x4/0xa0\n[<0>] do_syscall_64+0x5d/0x90\n\n");
	free(s);
	s = format(KS_FMT_JSON);
	assert_non_null(strstr(s, "{\"time\":1700000002.500000,\"function\":\"ksys_sync\","
			       "\"pid\":301,\"cpu\":0,\"comm\":\"perl\",\"stack\":"
			       "[\"ksys_sync+0x4/0xa0\",\"do_syscall_64+0x5d/0x90\"]}\n"));
	free(s);
	s = format(KS_FMT_SUMMARY);
	assert_string_equal(s,
		"ksys_sync: 3 calls in 5.0 s, 2 distinct stacks\n\n"
		"2 calls   e.g. 301 (perl)\n"
		"[<0>] ksys_sync+0x4/0xa0\n[<0>] do_syscall_64+0x5d/0x90\n\n"
		"1 call   e.g. 305 (sync)\n"
		"[<0>] ksys_sync+0x4/0xa0\n[<0>] kthread+0xda/0x100\n\n");
	free(s);
	s = format(KS_FMT_FOLDED);
	assert_string_equal(s, "perl;do_syscall_64;ksys_sync 2\n"
			    "sync;kthread;ksys_sync 1\n");
	free(s);
}

/*
 * A trace time that does not fit the wall clock's 64 bits of nanoseconds
 * (trace_pipe gives what it gives) prints as the trace clock's seconds,
 * in text and in JSON, never a wrapped or negative time.
 */
static void test_time_out_of_range(void **state)
{
	static char stack[] = "[<0>] ksys_sync+0x4/0xa0\n";
	struct ks_snoop_rec r = { .comm = "perl", .pid = 301, .cpu = 1,
				  .ts_ns = 9000000000000001000ull, .stack = stack };
	enum ks_format fmts[] = { KS_FMT_TEXT, KS_FMT_JSON };
	struct ks_snoop_out o;

	(void)state;
	setenv("TZ", "UTC", 1);
	for (int i = 0; i < 2; i++) {
		char *buf = NULL;
		size_t len = 0;
		FILE *f = open_memstream(&buf, &len);

		ks_snoop_out_init(&o, f, fmts[i], "ksys_sync",
				  1795000000ll * 1000000000);
		assert_int_equal(ks_snoop_out_rec(&o, &r), 0);
		r.ts_ns = UINT64_MAX;
		assert_int_equal(ks_snoop_out_rec(&o, &r), 0);
		r.ts_ns = 9000000000000001000ull;
		ks_snoop_out_release(&o);
		fclose(f);
		if (fmts[i] == KS_FMT_TEXT) {
			assert_non_null(strstr(buf, "Time: 9000000000.000001   Comm"));
			assert_non_null(strstr(buf, "Time: 18446744073.709551   Comm"));
		} else {
			assert_non_null(strstr(buf, "{\"time\":9000000000.000001,"));
			assert_non_null(strstr(buf, "{\"time\":18446744073.709551,"));
		}
		free(buf);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_line_context),
		cmocka_unit_test(test_parse_handmade),
		cmocka_unit_test(test_parse_recorded),
		cmocka_unit_test(test_event_comm),
		cmocka_unit_test(test_names),
		cmocka_unit_test(test_error_reason),
		cmocka_unit_test(test_clean_stale),
		cmocka_unit_test(test_formats),
		cmocka_unit_test(test_time_out_of_range),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
