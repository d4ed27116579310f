// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * -F from memory on a kernel that traces every function: 60,000 enabled
 * records (tests/support/ftrace_image.h) through ks_hooks_report(), as
 * kstack --vmcore and crash run it.  Every record printed, the summary
 * counting all of them, the owners still named, and no allocation that
 * grows with the records: under ASan no single one may pass 64 MiB (a
 * list of the records took 17 KB each, 1 GB for these).  Not timed:
 * tests/bench/ftrace.sh measures.
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
#include "ftrace_image.h"
#include "ftrace_list.h"
#include "hooks.h"
#include "options.h"
#include "said.h"

#define N	60000

/* ASan reads this at start-up: an allocation over 64 MiB returns NULL. */
const char *__asan_default_options(void);
const char *__asan_default_options(void)
{
	return "max_allocation_size_mb=64:allocator_may_return_null=1";
}

static struct ks_fake *f;
static struct ks_target t;
static struct ks_ftrace_image_counts counts;

/* A walker of the image at tt, its complaints to e as "kstack: " lines. */
static const struct ks_ftrace_walker *walker(const struct ks_target *tt,
					     FILE *e)
{
	/* the walker keeps its reporter: both outlive the call */
	static struct ks_ftrace_walker w;
	static struct ks_reporter rep;

	rep = SAID_ON(e);
	assert_int_equal(ks_ftrace_walker_init(&w, tt, &rep), 0);
	return &w;
}

static int setup(void **state)
{
	(void)state;
	f = ks_fake_create();
	assert_non_null(f);
	assert_int_equal(ks_ftrace_image_make(f, N, &counts), 0);
	ks_fake_target(f, &t);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ks_fake_destroy(f);
	return 0;
}

/* The text between "== NAME\n" and the next "== " line. */
static char *section(const char *out, const char *name)
{
	char head[64];
	const char *s, *e;

	snprintf(head, sizeof(head), "\n== %s\n", name);
	s = strstr(out, head);
	if (!s)
		return strdup("");
	s += strlen(head);
	e = strstr(s, "\n== ");
	return strndup(s, e ? (size_t)(e - s) + 1 : strlen(s));
}

static void test_report(void **state)
{
	const struct ks_hooks_opts h = { .ftrace = true };
	const struct ks_format_opts fo = { 0 };
	char *out = NULL, *err = NULL, *sum, *owners, mods[1024] = "", want[2048];
	size_t olen = 0, elen = 0, lines = 0, i;
	FILE *o = open_memstream(&out, &olen), *e = open_memstream(&err, &elen);
	const char *p;

	(void)state;
	/* 12 direct (every 5000th), 48 more shared (every 1000th), the rest alone */
	assert_int_equal(counts.n, N);
	assert_int_equal(counts.direct, 12);
	assert_int_equal(counts.ipmodify, 48);
	assert_int_equal(counts.regs, 60);
	assert_int_equal(counts.tramp, N - 60);
	assert_int_equal(ks_hooks_report(&t, &h, &fo, o, &SAID_ON(e)), 0);
	fclose(o);
	fclose(e);
	assert_string_equal(err, "");

	/* one line per record before the summary, a direct call's two */
	for (p = out; *p && strncmp(p, "== ", 3); p = strchr(p, '\n') + 1)
		lines += strncmp(p, "\tdirect-->", 10) != 0;
	assert_int_equal(lines, N);
	assert_non_null(strstr(out,
		"vfs_write_0 (1)      \ttramp: 0xffffffffc0100000 "
		"(function_trace_call+0x0/0x120) ->function_trace_call+0x0/0x120\n"));
	assert_non_null(strstr(out,
		"memcg_charge_999 (2) R I   ->ftrace_ops_list_func+0x0/0x1a0\n"));
	assert_non_null(strstr(out,
		"memcg_charge_4999 (2) R   D ->ftrace_ops_list_func+0x0/0x1a0\n"
		"\tdirect-->bench_direct_tramp+0x0/0x40 [benchdirect]\n"));
	assert_non_null(strstr(out,
		"memcg_charge_59999 [benchmod39] (2) R   D ->ftrace_ops_list_func"));

	for (i = 0; i < KS_FTIMG_MODS; i++)
		snprintf(mods + strlen(mods), sizeof(mods) - strlen(mods),
			 "%sbenchmod%02zu", i ? ", " : "", i);
	snprintf(want, sizeof(want), "%d functions enabled: 60 R, 48 I, 12 D, "
		 "%d with a trampoline; patched modules: %s; handlers: "
		 "function_trace_call, ftrace_ops_list_func, bench_direct_tramp; "
		 "handler modules: benchdirect\n", N, N - 60, mods);
	sum = section(out, "summary");
	assert_string_equal(sum, want);
	owners = section(out, "hook owners");
	assert_string_equal(owners, "2 ftrace_ops on ftrace_ops_list\n"
			    "handler owners: vmlinux (function_trace_call, "
			    "kprobe_ftrace_handler); benchdirect (bench_direct_tramp)\n");
	free(sum);
	free(owners);
	sum = section(out, "current_tracer");
	assert_string_equal(sum, "function\n");
	free(sum);
	free(out);
	free(err);
}

struct stop_at {
	size_t seen, stop;
	struct ks_ftrace_stats stats;
};

static int count_rec(void *arg, const struct ks_ftrace_rec *r)
{
	struct stop_at *s = arg;

	ks_ftrace_stats_add(&s->stats, r);
	return ++s->seen == s->stop ? 7 : 0;
}

/* The callback's non-zero return ends the walk there and is returned. */
static void test_walk_stops(void **state)
{
	struct ks_ftrace_ops_list ops = { 0 };
	struct stop_at s = { .stop = 1000 };

	(void)state;
	assert_int_equal(ks_ftrace_ops_walk(walker(&t, stderr), &ops), 0);
	assert_int_equal(ks_ftrace_walk_each(walker(&t, stderr), &ops, false,
					     count_rec, &s), 7);
	assert_int_equal(s.seen, 1000);
	assert_int_equal(s.stats.n, 1000);
	/* records 0..999: one shared (999), no direct one yet */
	assert_int_equal(s.stats.regs, 1);
	assert_int_equal(s.stats.ipmodify, 1);
	assert_int_equal(s.stats.direct, 0);
	assert_int_equal(s.stats.tramp, 999);
	ks_ftrace_stats_free(&s.stats);
	ks_ftrace_ops_list_free(&ops);
}

/*
 * ks_ftrace_summary() over a list says what the streamed counts say; a
 * list of 2,000 stays under the 64 MiB allocation.
 */
static void test_list_same_summary(void **state)
{
	struct ks_ftrace_ops_list ops = { 0 };
	struct stop_at s = { .stop = 0 };
	struct ks_fake *small = ks_fake_create();
	struct ks_ftrace_image_counts c;
	struct ks_ftrace_list l = { 0 };
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	struct ks_target st;
	FILE *fa, *fb;

	(void)state;
	assert_non_null(small);
	assert_int_equal(ks_ftrace_image_make(small, 2000, &c), 0);
	ks_fake_target(small, &st);
	assert_int_equal(ks_ftrace_ops_walk(walker(&st, stderr), &ops), 0);
	assert_int_equal(ks_ftrace_walk(walker(&st, stderr), &ops, &l), 0);
	assert_int_equal(ks_ftrace_walk_each(walker(&st, stderr), &ops, false,
					     count_rec, &s), 0);
	assert_int_equal(l.n, 2000);
	assert_int_equal(s.seen, 2000);
	fa = open_memstream(&a, &alen);
	fb = open_memstream(&b, &blen);
	ks_ftrace_summary(fa, &l);
	ks_ftrace_stats_print(fb, &s.stats);
	fclose(fa);
	fclose(fb);
	assert_string_equal(a, b);
	assert_non_null(strstr(a, "2000 functions enabled: 2 R, 2 I, 0 D, "));
	free(a);
	free(b);
	ks_ftrace_stats_free(&s.stats);
	ks_ftrace_list_free(&l);
	ks_ftrace_ops_list_free(&ops);
	ks_fake_destroy(small);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_report),
		cmocka_unit_test(test_walk_stops),
		cmocka_unit_test(test_list_same_summary),
	};

	return cmocka_run_group_tests(tests, setup, teardown);
}
