// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Background mode's stack cache: the table alone, then ks_proc_sample()
 * over a /proc tree of files where a "task" that did not run (its
 * schedstat line the same) keeps the stack of the sample before, and
 * every other change is read.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "options.h"
#include "proc_cache.h"
#include "proc_tasks.h"

static const struct ks_sched A = { 100, 5, 3 }, B = { 100, 5, 4 };

static void test_parse_sched(void **state)
{
	struct ks_sched s;

	(void)state;
	assert_int_equal(ks_proc_parse_sched("180731881 10943361 422\n", &s), 0);
	assert_true(s.sum_exec_runtime == 180731881 && s.run_delay == 10943361 &&
		    s.pcount == 422);
	/* sched_info off: nothing to vouch for a task */
	assert_int_equal(ks_proc_parse_sched("0 0 0\n", &s), -EINVAL);
	assert_int_equal(ks_proc_parse_sched("5 0 0\n", &s), -EINVAL);
	assert_int_equal(ks_proc_parse_sched("1 2 3", &s), -EINVAL);
	assert_int_equal(ks_proc_parse_sched("1 2\n", &s), -EINVAL);
	assert_int_equal(ks_proc_parse_sched("1 2 3 4\n", &s), -EINVAL);
	assert_int_equal(ks_proc_parse_sched("-1 2 3\n", &s), -EINVAL);
	assert_int_equal(ks_proc_parse_sched("1 2 99999999999999999999\n", &s),
			 -EINVAL);
	assert_int_equal(ks_proc_parse_sched("", &s), -EINVAL);
}

static void test_take_keep(void **state)
{
	struct ks_proc_cache c;
	const char *t;
	size_t len;

	(void)state;
	ks_proc_cache_init(&c, 0);
	assert_null(ks_proc_cache_take(&c, 10, 7, &A, &len));
	assert_int_equal(ks_proc_cache_keep(&c, 10, 7, &A, "stk", 3), 0);
	/* an empty stack: its task was on a CPU, nothing to keep */
	assert_int_equal(ks_proc_cache_keep(&c, 11, 7, &A, "", 0), 0);
	ks_proc_cache_end(&c);
	assert_null(ks_proc_cache_take(&c, 11, 7, &A, &len));
	/* it ran (pcount), or it is another task with the same PID */
	assert_null(ks_proc_cache_take(&c, 10, 7, &B, &len));
	assert_null(ks_proc_cache_take(&c, 10, 8, &A, &len));
	t = ks_proc_cache_take(&c, 10, 7, &A, &len);
	assert_non_null(t);
	assert_int_equal(len, 3);
	assert_string_equal(t, "stk");
	/* taken once per sample: the second look is a read */
	assert_null(ks_proc_cache_take(&c, 10, 7, &A, &len));
	ks_proc_cache_end(&c);
	/* carried over, then a sample that does not see it forgets it */
	assert_non_null(ks_proc_cache_take(&c, 10, 7, &A, &len));
	ks_proc_cache_end(&c);
	ks_proc_cache_end(&c);
	assert_null(ks_proc_cache_take(&c, 10, 7, &A, &len));
	ks_proc_cache_free(&c);
}

/* PIDs that share an index slot, and more of them than the first index */
static void test_many(void **state)
{
	struct ks_proc_cache c;
	char stk[32];
	size_t len;

	(void)state;
	ks_proc_cache_init(&c, 0);
	for (int round = 0; round < 3; round++) {
		for (int32_t tid = 1; tid <= 20000; tid++) {
			const char *t;

			snprintf(stk, sizeof(stk), "s%d", (int)(tid * 1024));
			t = ks_proc_cache_take(&c, tid * 1024, 1, &A, &len);
			if (round) {
				assert_non_null(t);
				assert_string_equal(t, stk);
			} else {
				assert_int_equal(ks_proc_cache_keep(&c, tid * 1024,
						 1, &A, stk, strlen(stk)), 0);
			}
		}
		ks_proc_cache_end(&c);
		assert_int_equal(c.last.nr, 20000);
	}
	ks_proc_cache_free(&c);
}

static bool fd_open(int fd)
{
	return fcntl(fd, F_GETFD) >= 0;
}

/* Kept files follow their task from sample to sample, and no further. */
static void test_kept_files(void **state)
{
	struct ks_proc_cache c;
	int a = open("/dev/null", O_RDONLY), b = open("/dev/null", O_RDONLY);
	int d = open("/dev/null", O_RDONLY);

	(void)state;
	assert_true(a >= 0 && b >= 0 && d >= 0);
	ks_proc_cache_init(&c, 2);
	assert_int_equal(ks_proc_cache_file(&c, 10, 7, KS_KEPT_SCHEDSTAT), -1);
	assert_int_equal(ks_proc_cache_keep_file(&c, 10, 7, KS_KEPT_SCHEDSTAT, a), 0);
	assert_int_equal(ks_proc_cache_keep_file(&c, 11, 7, KS_KEPT_CMDLINE, b), 0);
	/* no room for a third: the caller keeps it */
	assert_int_equal(ks_proc_cache_keep_file(&c, 12, 7, KS_KEPT_CMDLINE, d),
			 -EMFILE);
	assert_true(fd_open(d));
	ks_proc_cache_end(&c);
	/* the same task: the same file, carried */
	assert_int_equal(ks_proc_cache_file(&c, 10, 7, KS_KEPT_SCHEDSTAT), a);
	assert_int_equal(ks_proc_cache_file(&c, 10, 7, KS_KEPT_CMDLINE), -1);
	/* another task under TID 11: not its file */
	assert_int_equal(ks_proc_cache_file(&c, 11, 8, KS_KEPT_CMDLINE), -1);
	ks_proc_cache_end(&c);
	assert_false(fd_open(b));
	assert_true(fd_open(a));
	assert_int_equal(c.nr_kept, 1);
	/* a failed read drops it */
	assert_int_equal(ks_proc_cache_file(&c, 10, 7, KS_KEPT_SCHEDSTAT), a);
	ks_proc_cache_drop_file(&c, 10, KS_KEPT_SCHEDSTAT);
	assert_false(fd_open(a));
	assert_int_equal(c.nr_kept, 0);
	/* room again; a task not seen in a sample loses its file */
	assert_int_equal(ks_proc_cache_keep_file(&c, 12, 7, KS_KEPT_CMDLINE, d), 0);
	ks_proc_cache_end(&c);
	ks_proc_cache_end(&c);
	assert_false(fd_open(d));
	assert_int_equal(c.nr_kept, 0);
	ks_proc_cache_free(&c);
}

/* A /proc tree of one task, PID 4242, whose files the tests rewrite. */
struct tree {
	char dir[64];
	struct ks_options opts;
	struct ks_proc p;
	struct ks_proc_cache cache;
};

static void put(struct tree *t, const char *name, const char *text)
{
	char path[128];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", t->dir, name);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(text, f);
	fclose(f);
}

static void put_stat(struct tree *t, char state, unsigned long long start)
{
	char stat[512];

	snprintf(stat, sizeof(stat),
		 "4242 (sleeper) %c 1 4242 4242 0 -1 4194560 0 0 0 0 0 0 0 0 20 0 1 0 %llu 0 0\n",
		 state, start);
	put(t, "4242/stat", stat);
}

static int setup_tree(void **state)
{
	struct tree *t = calloc(1, sizeof(*t));
	char *argv[] = { "kstack", "-a", NULL };
	char path[128];

	assert_non_null(t);
	snprintf(t->dir, sizeof(t->dir), "/tmp/test_proc_cache.XXXXXX");
	assert_non_null(mkdtemp(t->dir));
	snprintf(path, sizeof(path), "%s/4242", t->dir);
	assert_int_equal(mkdir(path, 0700), 0);
	put(t, "stat", "cpu 0\nbtime 1700000000\n");
	put_stat(t, 'S', 100);
	put(t, "4242/cmdline", "sleeper");
	put(t, "4242/stack", "[<0>] do_nanosleep+0x1/0x2\n");
	put(t, "4242/schedstat", "1000 20 3\n");
	assert_int_equal(ks_options_parse(&t->opts, KS_CTX_LIVE, 2, argv, NULL,
					  NULL, NULL), 0);
	assert_int_equal(ks_proc_open(&t->p, t->dir, NULL), 0);
	ks_proc_cache_init(&t->cache, 64);
	t->p.cache = &t->cache;
	*state = t;
	return 0;
}

static int teardown_tree(void **state)
{
	struct tree *t = *state;
	char cmd[128];

	ks_proc_close(&t->p);
	ks_proc_cache_free(&t->cache);
	ks_options_release(&t->opts);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", t->dir);
	assert_int_equal(system(cmd), 0);
	free(t);
	return 0;
}

/* One sample's stack of task 4242, into buf; the status in *st. */
static void sample(struct tree *t, char *buf, size_t len,
		   struct ks_proc_status *st)
{
	struct ks_sample s;

	ks_sample_init(&s, 0, "h");
	assert_int_equal(ks_proc_sample(&t->p, &t->opts.sel, false, &s, st), 0);
	assert_int_equal(s.nr_tasks, 1);
	snprintf(buf, len, "%s", s.tasks[0].stack);
	ks_sample_release(&s);
}

#define STACK1 "[<0>] do_nanosleep+0x1/0x2\n"
#define STACK2 "[<0>] pipe_read+0x3/0x4\n"

static void test_tree_reuse(void **state)
{
	struct tree *t = *state;
	struct ks_proc_status st;
	char stk[256];

	sample(t, stk, sizeof(stk), &st);
	assert_string_equal(stk, STACK1);
	assert_int_equal(st.nr_reused, 0);
	/* the file changes, the schedstat line does not: not read */
	put(t, "4242/stack", STACK2);
	sample(t, stk, sizeof(stk), &st);
	assert_string_equal(stk, STACK1);
	assert_int_equal(st.nr_reused, 1);
	/* switched in once more: read */
	put(t, "4242/schedstat", "1000 20 4\n");
	sample(t, stk, sizeof(stk), &st);
	assert_string_equal(stk, STACK2);
	assert_int_equal(st.nr_reused, 0);
	/* ran without a new switch-in being counted: read */
	put(t, "4242/stack", STACK1);
	put(t, "4242/schedstat", "1001 20 4\n");
	sample(t, stk, sizeof(stk), &st);
	assert_string_equal(stk, STACK1);
}

/* One sample's Cmd of task 4242, into buf. */
static void sample_cmd(struct tree *t, char *buf, size_t len)
{
	struct ks_proc_status st;
	struct ks_sample s;

	ks_sample_init(&s, 0, "h");
	assert_int_equal(ks_proc_sample(&t->p, &t->opts.sel, false, &s, &st), 0);
	assert_int_equal(s.nr_tasks, 1);
	snprintf(buf, len, "%s", s.tasks[0].cmd);
	ks_sample_release(&s);
}

/*
 * schedstat and cmdline stay open from sample to sample, and are read
 * every time: argv rewritten while the task slept (by a sibling thread,
 * or through /proc/PID/mem) shows at once.
 */
static void test_tree_kept_files(void **state)
{
	struct tree *t = *state;
	char cmd[256];

	sample_cmd(t, cmd, sizeof(cmd));
	assert_string_equal(cmd, "sleeper");
	assert_int_equal(t->cache.nr_kept, 2);
	put(t, "4242/cmdline", "renamed");
	sample_cmd(t, cmd, sizeof(cmd));
	assert_string_equal(cmd, "renamed");
	assert_int_equal(t->cache.nr_kept, 2);
	/* another task under the PID: its own files */
	put_stat(t, 'S', 101);
	sample_cmd(t, cmd, sizeof(cmd));
	assert_int_equal(t->cache.nr_kept, 2);
	assert_int_equal(t->cache.last.nr, 1);
	assert_int_equal(t->cache.last.entries[0].start, 101);
}

static void test_tree_reused_pid(void **state)
{
	struct tree *t = *state;
	struct ks_proc_status st;
	char stk[256];

	sample(t, stk, sizeof(stk), &st);
	/* another task with the same PID and the same schedstat line */
	put_stat(t, 'S', 101);
	put(t, "4242/stack", STACK2);
	sample(t, stk, sizeof(stk), &st);
	assert_string_equal(stk, STACK2);
	assert_int_equal(st.nr_reused, 0);
}

static void test_tree_no_schedstat(void **state)
{
	struct tree *t = *state;
	struct ks_proc_status st;
	char path[128], stk[256];

	/* no CONFIG_SCHED_INFO, or its accounting off: always read */
	put(t, "4242/schedstat", "0 0 0\n");
	sample(t, stk, sizeof(stk), &st);
	put(t, "4242/stack", STACK2);
	sample(t, stk, sizeof(stk), &st);
	assert_string_equal(stk, STACK2);
	snprintf(path, sizeof(path), "%s/4242/schedstat", t->dir);
	assert_int_equal(unlink(path), 0);
	sample(t, stk, sizeof(stk), &st);
	put(t, "4242/stack", STACK1);
	sample(t, stk, sizeof(stk), &st);
	assert_string_equal(stk, STACK1);
	assert_int_equal(st.nr_reused, 0);
}

static void test_tree_running(void **state)
{
	struct tree *t = *state;
	struct ks_proc_status st;
	char stk[256];

	/* on a CPU when read: it may block without a new switch-in */
	put_stat(t, 'R', 100);
	put(t, "4242/stack", "");
	sample(t, stk, sizeof(stk), &st);
	assert_string_equal(stk, "");
	put_stat(t, 'S', 100);
	put(t, "4242/stack", STACK2);
	sample(t, stk, sizeof(stk), &st);
	assert_string_equal(stk, STACK2);
}

static void test_tree_self(void **state)
{
	struct tree *t = *state;
	struct ks_proc_status st;
	char stk[256];

	/* our own stack is the read itself: never taken from the cache */
	t->p.self = 4242;
	sample(t, stk, sizeof(stk), &st);
	put(t, "4242/stack", STACK2);
	sample(t, stk, sizeof(stk), &st);
	assert_string_equal(stk, STACK2);
}

/* The knob's check catches a stack the cache kept wrongly. */
static void test_tree_verify(void **state)
{
	struct tree *t = *state;
	struct ks_proc_status st;
	char stk[256];

	t->p.verify = true;
	sample(t, stk, sizeof(stk), &st);
	assert_int_equal(st.nr_verified, 1);
	assert_int_equal(st.nr_mismatch, 0);
	/* what a task that did not run cannot do: a new stack */
	put(t, "4242/stack", STACK2);
	sample(t, stk, sizeof(stk), &st);
	assert_int_equal(st.nr_reused, 1);
	assert_int_equal(st.nr_mismatch, 1);
	assert_non_null(strstr(st.first_mismatch, "task 4242: stack: "));
	/* a task that changed in between is not the cache's fault */
	put(t, "4242/schedstat", "1000 20 5\n");
	sample(t, stk, sizeof(stk), &st);
	assert_int_equal(st.nr_mismatch, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_parse_sched),
		cmocka_unit_test(test_take_keep),
		cmocka_unit_test(test_many),
		cmocka_unit_test(test_kept_files),
		cmocka_unit_test_setup_teardown(test_tree_kept_files, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_tree_reuse, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_tree_reused_pid, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_tree_no_schedstat,
						setup_tree, teardown_tree),
		cmocka_unit_test_setup_teardown(test_tree_running, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_tree_self, setup_tree,
						teardown_tree),
		cmocka_unit_test_setup_teardown(test_tree_verify, setup_tree,
						teardown_tree),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
