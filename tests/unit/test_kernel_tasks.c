// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The task walker (shared/kernel/tasks/task_walk.c and its task_*.c) on a kernel made by hand in a
 * fake target: init_task and a few processes linked in a scrambled
 * order, a threaded process, a kworker and a long-named kernel thread,
 * command lines in "user memory", a timekeeper and a nodename.  The
 * fake has no ORC tables nor _stext, so every stack is empty with a note: the
 * unwinder has tests of its own.  Also the hard cases: a task list that
 * loops, a task that cannot be read, a layout without a needed member.
 * And the task --cpus takes for each CPU (cpus_walk.c, cpu_switch.c):
 * rq->curr, or the task whose stack a CPU inside __schedule() is still
 * on.
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

#include "cpus_walk.h"
#include "fake_target.h"
#include "format_cpus.h"
#include "kernel_sample.h"
#include "kernel_tasks.h"
#include "options.h"
#include "said.h"

#define TASKS		0xffff888000100000ULL	/* task_struct i at TASK(i) */
#define TASK(i)		(TASKS + (uint64_t)(i) * 0x1000)
#define SIGNALS		0xffff888000400000ULL
#define MMS		0xffff888000500000ULL
#define KTHREADS	0xffff888000600000ULL
#define STRINGS		0xffff888000700000ULL
#define TK_CORE		0xffffffff82000000ULL
#define SHADOW_TK	0xffffffff82001000ULL
#define UTS		0xffffffff82002000ULL
#define STATE_ARRAY	0xffffffff82003000ULL
#define STATE_STRS	0xffffffff82003100ULL
#define USER		0x00007ff000000000ULL

/* task_struct as this fake kernel lays it out */
#define T_TASKS		0x00
#define T_PID		0x10
#define T_TGID		0x14
#define T_STATE		0x18
#define T_EXIT		0x1c
#define T_FLAGS		0x20
#define T_COMM		0x24
#define T_START		0x38
#define T_STACK		0x40
#define T_MM		0x48
#define T_ON_CPU	0x50
#define T_CPU		0x54
#define T_WPRIV		0x58
#define T_SIGNAL	0x60
#define T_THREAD_NODE	0x68
#define T_REFCOUNT	0x78
#define T_CGROUPS	0x80
#define T_NVCSW		0x88
#define T_NIVCSW	0x90
#define T_THREAD	0x100
#define T_SIZE		0x200

#define BTIME		1795325237LL
#define NSEC		1000000000LL

struct fake_task {
	int pid, tgid;
	uint32_t state, exit_state, flags;
	const char *comm;
	int64_t start_ns;
};

/* index 0 is init_task (pid 0); the rest are listed in this order */
enum { INIT, P1, P7, P3, KW, KT, T5, T6, ZOMBIE, NR_TASKS };
static const struct fake_task tasks[NR_TASKS] = {
	[INIT]	 = { 0, 0, 0, 0, 0x00200000, "swapper/0", 0 },
	[P1]	 = { 1, 1, 0x1, 0, 0, "init", 1 * NSEC },
	[P7]	 = { 7, 7, 0x102, 0, 0, "vforker", 7 * NSEC + 5 },
	[P3]	 = { 3, 3, 0x1, 0, 0, "threads", 3 * NSEC + 999999999 },
	[KW]	 = { 4, 4, 0x402, 0, 0x00200020, "kworker/0:1", 2 * NSEC },
	[KT]	 = { 2, 2, 0x1, 0, 0x00200000, "a_very_long_kth", 0 },
	[T5]	 = { 5, 3, 0x4, 0, 0, "worker", 4 * NSEC },
	[T6]	 = { 6, 3, 0x1, 0, 0, "worker", 4 * NSEC },
	[ZOMBIE] = { 8, 8, 0, 0x20, 0, "defunct", 9 * NSEC },
};

struct env {
	struct ks_fake *f;
	struct ks_target t;
	struct ks_target_ops ops;
	const struct ks_target_ops *fake_ops;
	char msgs[2048];
	int nr_msgs;
};

static struct env *cur_env;

/* User memory is fake memory at low addresses: any task sees it. */
static int user_read(void *ctx, uint64_t task, uint64_t uaddr, void *buf,
		     size_t len)
{
	(void)task;
	return cur_env->fake_ops->read(ctx, uaddr, buf, len);
}

/* A dump cut short: the page of the timekeepers is not in it. */
static bool clock_missing;

static int cut_read(void *ctx, uint64_t addr, void *buf, size_t len)
{
	if (clock_missing && addr < TK_CORE + 0x2000 && addr + len > TK_CORE)
		return -EFAULT;
	return cur_env->fake_ops->read(ctx, addr, buf, len);
}

static void member(struct env *e, const char *type, const char *m, long off,
		   long size)
{
	assert_int_equal(ks_fake_add_member(e->f, type, m, off, size), 0);
}

static void layout(struct env *e)
{
	static const struct { const char *m; long off, size; } tm[] = {
		{ "tasks", T_TASKS, 16 }, { "pid", T_PID, 4 }, { "tgid", T_TGID, 4 },
		{ "__state", T_STATE, 4 }, { "exit_state", T_EXIT, 4 },
		{ "flags", T_FLAGS, 4 }, { "comm", T_COMM, 16 },
		{ "start_boottime", T_START, 8 }, { "stack", T_STACK, 8 },
		{ "mm", T_MM, 8 }, { "on_cpu", T_ON_CPU, 4 }, { "cpu", T_CPU, 4 },
		{ "worker_private", T_WPRIV, 8 }, { "signal", T_SIGNAL, 8 },
		{ "thread_node", T_THREAD_NODE, 16 },
		{ "stack_refcount", T_REFCOUNT, 4 }, { "thread", T_THREAD, 64 },
		{ "cgroups", T_CGROUPS, 8 }, { "nvcsw", T_NVCSW, 8 },
		{ "nivcsw", T_NIVCSW, 8 },
	};

	for (size_t i = 0; i < sizeof(tm) / sizeof(tm[0]); i++)
		member(e, "task_struct", tm[i].m, tm[i].off, tm[i].size);
	assert_int_equal(ks_fake_add_type(e->f, "task_struct", T_SIZE), 0);
	member(e, "thread_struct", "sp", 8, 8);
	member(e, "signal_struct", "thread_head", 0x10, 16);
	member(e, "mm_struct", "arg_start", 0, 8);
	member(e, "mm_struct", "arg_end", 8, 8);
	member(e, "mm_struct", "env_start", 16, 8);
	member(e, "mm_struct", "env_end", 24, 8);
	member(e, "kthread", "data", 0x8, 8);
	member(e, "kthread", "full_name", 0x10, 8);
	member(e, "worker", "current_work", 0x8, 8);
	member(e, "worker", "pool", 0x10, 8);
	member(e, "worker", "desc", 0x20, 24);
	member(e, "worker", "rescue_wq", 0x38, 8);
	member(e, "workqueue_struct", "name", 0x10, 32);
	member(e, "css_set", "dfl_cgrp", 0x18, 8);
	member(e, "cgroup", "kn", 0x8, 8);
	member(e, "kernfs_node", "parent", 0x10, 8);
	member(e, "kernfs_node", "name", 0x18, 8);
	member(e, "timekeeper", "xtime_sec", 0x10, 8);
	member(e, "timekeeper", "offs_real", 0x20, 8);
	member(e, "timekeeper", "offs_boot", 0x28, 8);
	assert_int_equal(ks_fake_add_type(e->f, "seqcount_raw_spinlock", 4), 0);
	member(e, "uts_namespace", "name", 8, 390);
	member(e, "new_utsname", "nodename", 65, 65);
}

static void put(struct env *e, uint64_t addr, const void *p, size_t n)
{
	assert_int_equal(ks_fake_write(e->f, addr, p, n), 0);
}

static void put64(struct env *e, uint64_t addr, uint64_t v)
{
	assert_int_equal(ks_fake_write_u64(e->f, addr, v), 0);
}

static void put32(struct env *e, uint64_t addr, uint32_t v)
{
	put(e, addr, &v, 4);
}

static void write_task(struct env *e, int i)
{
	const struct fake_task *ft = &tasks[i];
	uint64_t t = TASK(i);
	char comm[16] = { 0 };

	strncpy(comm, ft->comm, sizeof(comm) - 1);
	put32(e, t + T_PID, (uint32_t)ft->pid);
	put32(e, t + T_TGID, (uint32_t)ft->tgid);
	put32(e, t + T_STATE, ft->state);
	put32(e, t + T_EXIT, ft->exit_state);
	put32(e, t + T_FLAGS, ft->flags);
	put(e, t + T_COMM, comm, sizeof(comm));
	put64(e, t + T_START, (uint64_t)ft->start_ns);
	put64(e, t + T_STACK, 0xffffc90000000000ULL + (uint64_t)i * 0x4000);
	put32(e, t + T_REFCOUNT, ft->exit_state ? 0 : 1);
	put64(e, t + T_SIGNAL, SIGNALS + (uint64_t)ft->tgid * 0x100);
	put64(e, t + T_NVCSW, 1000 + (uint64_t)ft->pid);
	put64(e, t + T_NIVCSW, 2000 + (uint64_t)ft->pid);
}

/* A circular list through the member at off of the tasks given. */
static void link_list(struct env *e, uint64_t head, const int *idx, size_t n,
		      long off)
{
	uint64_t prev = head;

	for (size_t i = 0; i < n; i++) {
		uint64_t node = TASK(idx[i]) + (uint64_t)off;

		put64(e, prev, node);
		put64(e, node + 8, prev);
		prev = node;
	}
	put64(e, prev, head);
	put64(e, head + 8, prev);
}

static void cmdline(struct env *e, int i, uint64_t at, const char *args,
		    size_t len, const char *env, size_t envlen)
{
	uint64_t mm = MMS + (uint64_t)i * 0x100;

	put(e, at, args, len);
	put(e, at + len, env, envlen);
	put64(e, TASK(i) + T_MM, mm);
	put64(e, mm + 0, at);
	put64(e, mm + 8, at + len);
	put64(e, mm + 16, at + len);
	put64(e, mm + 24, at + len + envlen);
}

static void strings(struct env *e)
{
	static const char *const st[] = { "R (running)", "S (sleeping)",
		"D (disk sleep)", "T (stopped)", "t (tracing stop)", "X (dead)",
		"Z (zombie)", "P (parked)", "I (idle)" };
	uint64_t kt = KTHREADS, worker = KTHREADS + 0x100;
	char desc[24] = "events_power";

	for (size_t i = 0; i < 9; i++) {
		put(e, STATE_STRS + i * 32, st[i], strlen(st[i]) + 1);
		put64(e, STATE_ARRAY + i * 8, STATE_STRS + i * 32);
	}
	/* the kworker: kthread->data is its struct worker, idle (no current work) */
	put64(e, TASK(KW) + T_WPRIV, kt);
	put64(e, kt + 0x8, worker);
	put64(e, worker + 0x10, 0xffff888000680000ULL);
	put(e, worker + 0x20, desc, sizeof(desc));
	/* the long-named kernel thread */
	put64(e, TASK(KT) + T_WPRIV, kt + 0x80);
	put64(e, kt + 0x80 + 0x10, STRINGS);
	put(e, STRINGS, "a_very_long_kthread_name", 25);
}

static void timekeeping(struct env *e)
{
	int64_t real = BTIME * NSEC + 123456789, boot = 0;
	char node[65] = "fakehost";

	/* timekeeper at tk_core + 8, as sizeof(seq) = 4 rounds up */
	put64(e, TK_CORE + 8 + 0x10, (uint64_t)(BTIME + 100));
	put64(e, TK_CORE + 8 + 0x20, (uint64_t)real);
	put64(e, TK_CORE + 8 + 0x28, (uint64_t)boot);
	put64(e, SHADOW_TK + 0x20, (uint64_t)real);
	put64(e, SHADOW_TK + 0x28, (uint64_t)boot);
	put(e, UTS + 8 + 65, node, sizeof(node));
}

static int setup(void **state)
{
	static const int procs[] = { P1, P7, P3, KW, KT, ZOMBIE };
	static const int threads3[] = { P3, T6, T5 };
	struct env *e = calloc(1, sizeof(*e));
	const char args1[] = "/sbin/init\0splash";
	const char args7[] = "vforker -x";	/* setproctitle() wrote over the NULs */

	assert_non_null(e);
	cur_env = e;
	e->f = ks_fake_create();
	assert_non_null(e->f);
	layout(e);
	assert_int_equal(ks_fake_add_memory(e->f, TASKS, NULL, NR_TASKS * 0x1000), 0);
	assert_int_equal(ks_fake_add_memory(e->f, SIGNALS, NULL, 0x1000), 0);
	assert_int_equal(ks_fake_add_memory(e->f, MMS, NULL, 0x1000), 0);
	assert_int_equal(ks_fake_add_memory(e->f, KTHREADS, NULL, 0x1000), 0);
	assert_int_equal(ks_fake_add_memory(e->f, STRINGS, NULL, 0x100), 0);
	assert_int_equal(ks_fake_add_memory(e->f, TK_CORE, NULL, 0x4000), 0);
	assert_int_equal(ks_fake_add_memory(e->f, USER, NULL, 0x3000), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "init_task", TASK(INIT), T_SIZE, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "tk_core", TK_CORE, 0x100, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "shadow_timekeeper", SHADOW_TK, 0x100, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "init_uts_ns", UTS, 0x200, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "task_state_array", STATE_ARRAY, 72, NULL), 0);
	for (int i = 0; i < NR_TASKS; i++)
		write_task(e, i);
	link_list(e, TASK(INIT) + T_TASKS, procs, 6, T_TASKS);
	link_list(e, SIGNALS + 3 * 0x100 + 0x10, threads3, 3, T_THREAD_NODE);
	for (size_t i = 0; i < 6; i++) {
		int p = procs[i];

		if (p != P3)
			link_list(e, SIGNALS + (uint64_t)tasks[p].tgid * 0x100 + 0x10,
				  &procs[i], 1, T_THREAD_NODE);
	}
	cmdline(e, P1, USER, args1, sizeof(args1), "HOME=/\0", 8);
	/* setproctitle(): argv's last NUL overwritten, the text runs into env */
	cmdline(e, P7, USER + 0x1000, args7, sizeof(args7) - 1, "Y title\0rest", 12);
	put64(e, TASK(P3) + T_MM, MMS + 0xf00);		/* no cmdline: the comm */
	put64(e, TASK(T5) + T_MM, MMS + 0xf00);
	put64(e, TASK(T6) + T_MM, MMS + 0xf00);
	strings(e);
	timekeeping(e);
	ks_fake_target(e->f, &e->t);
	e->fake_ops = e->t.ops;
	e->ops = *e->t.ops;
	e->ops.read_user = user_read;
	e->ops.read = cut_read;
	e->t.ops = &e->ops;
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	ks_fake_destroy(e->f);
	free(e);
	return 0;
}

static void collect(void *arg, enum ks_say_level level, const char *msg)
{
	struct env *e = arg;
	size_t used = strlen(e->msgs);

	(void)level;
	snprintf(e->msgs + used, sizeof(e->msgs) - used, "%s\n", msg);
	e->nr_msgs++;
}

/* Runs the walk with argv; returns the walk's result. */
static int sample(struct env *e, const char *args, struct ks_sample *s,
		  struct ks_kernel_status *st)
{
	char buf[256], *argv[16];
	struct ks_options opts;
	struct ks_walk_opts walk;
	struct ks_kernel *k;
	int argc = 0, ret;

	snprintf(buf, sizeof(buf), "kstack %s", args);
	for (char *p = strtok(buf, " "); p && argc < 15; p = strtok(NULL, " "))
		argv[argc++] = p;
	argv[argc] = NULL;
	assert_int_equal(ks_options_parse(&opts, KS_CTX_CRASH, argc, argv, NULL,
					  NULL, NULL), 0);
	assert_int_equal(ks_kernel_open(&e->t, &k, NULL), 0);
	ks_sample_init(s, 0, "x");
	e->msgs[0] = '\0';
	e->nr_msgs = 0;
	walk = (struct ks_walk_opts){ &opts.sel, opts.out.waits,
				      opts.out.verbose };
	ret = ks_kernel_walk(k, &walk, s, st, &REPORT_TO(collect, e));
	ks_kernel_close(k);
	ks_options_release(&opts);
	return ret;
}

static void expect_pids(const struct ks_sample *s, const int *pids, size_t n)
{
	assert_int_equal(s->nr_tasks, n);
	for (size_t i = 0; i < n; i++)
		assert_int_equal(s->tasks[i].pid, pids[i]);
}

static const struct ks_task *find(const struct ks_sample *s, int pid)
{
	for (size_t i = 0; i < s->nr_tasks; i++)
		if (s->tasks[i].pid == pid)
			return &s->tasks[i];
	fail_msg("PID %d not in the sample", pid);
	return NULL;
}

static void test_processes(void **state)
{
	static const int order[] = { 1, 2, 3, 4, 7, 8 };
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	assert_int_equal(sample(e, "-a", &s, &st), 0);
	/* ascending PID like a walk of /proc, init_task (pid 0) left out */
	expect_pids(&s, order, 6);
	assert_int_equal(st.nr_seen, 6);	/* threads are not walked without -H */
	assert_int_equal(st.nr_list_errors, 0);
	assert_int_equal(find(&s, 1)->state, 'S');
	assert_int_equal(find(&s, 7)->state, 'D');	/* TASK_KILLABLE */
	assert_int_equal(find(&s, 4)->state, 'I');	/* TASK_IDLE */
	assert_int_equal(find(&s, 8)->state, 'Z');
	/* btime is floor(offs_real - offs_boot); start adds whole seconds */
	assert_int_equal(find(&s, 1)->start_time, BTIME + 1);
	assert_int_equal(find(&s, 3)->start_time, BTIME + 3);
	assert_int_equal(find(&s, 2)->start_time, BTIME);
	assert_string_equal(find(&s, 1)->cmd, "/sbin/init splash");
	assert_string_equal(find(&s, 7)->cmd, "vforker -xY title");
	assert_string_equal(find(&s, 3)->cmd, "threads");
	assert_string_equal(find(&s, 8)->cmd, "defunct");
	/* proc_task_name(): a worker's last work, a kthread's full name */
	assert_string_equal(find(&s, 4)->cmd, "kworker/0:1-events_power");
	assert_string_equal(find(&s, 4)->comm, "kworker/0:1-events_power");
	assert_string_equal(find(&s, 2)->cmd, "a_very_long_kthread_name");
	/* context switches, for telling a task that ran from one that did not */
	assert_true(find(&s, 7)->has_switches);
	assert_int_equal(find(&s, 7)->nvcsw, 1007);
	assert_int_equal(find(&s, 7)->nivcsw, 2007);
	/*
	 * no ORC tables in the fake, nor the _stext a frame-pointer walk
	 * needs: every stack is empty and says why
	 */
	assert_string_equal(find(&s, 1)->stack, "");
	assert_non_null(find(&s, 1)->note);
	assert_non_null(strstr(e->msgs, "no ORC unwind tables"));
	assert_null(st.unwinder);
	ks_sample_release(&s);
}

/*
 * The time since last ran, as crash's ps -m counts it: the runqueue clock
 * of the task's CPU (per_cpu(runqueues, cpu).clock, at runqueues +
 * __per_cpu_offset[cpu]) minus its sched_info.last_arrival; 0 for a task
 * that arrived after the clock; nothing for a CPU whose runqueue cannot
 * be read, or a kernel without sched_info, which -v names.
 */
#define T_SCHED_INFO	0x98
#define PCPU_OFFSETS	0xffffffff82004000ULL
#define RUNQUEUES	0x2c000ULL	/* a per-CPU symbol: an offset */
#define RQ(cpu)		(0xffff888000800000ULL + (uint64_t)(cpu) * 0x10000)

static void test_last_ran(void **state)
{
	static const uint8_t zeros[64];
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	/* without sched_info: no key anywhere, and the reason */
	assert_int_equal(sample(e, "-a", &s, &st), 0);
	assert_false(find(&s, 1)->has_last_ran);
	assert_non_null(st.no_last_ran);
	assert_non_null(strstr(st.no_last_ran, "CONFIG_SCHED_INFO"));
	ks_sample_release(&s);

	member(e, "task_struct", "sched_info", T_SCHED_INFO, 32);
	member(e, "sched_info", "last_arrival", 0x10, 8);
	member(e, "rq", "clock", 0x20, 8);
	assert_int_equal(ks_fake_add_symbol(e->f, "runqueues", RUNQUEUES, 8, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "__per_cpu_offset", PCPU_OFFSETS,
					    64, NULL), 0);
	/* CPU 2's offset is not mapped */
	assert_int_equal(ks_fake_add_memory(e->f, PCPU_OFFSETS, zeros, 16), 0);
	for (int cpu = 0; cpu < 2; cpu++) {
		assert_int_equal(ks_fake_add_memory(e->f, RQ(cpu), zeros, 64), 0);
		put64(e, PCPU_OFFSETS + 8 * (uint64_t)cpu, RQ(cpu) - RUNQUEUES);
		put64(e, RQ(cpu) + 0x20, 50 * NSEC + (uint64_t)cpu);
	}
	put32(e, TASK(P1) + T_CPU, 0);
	put64(e, TASK(P1) + T_SCHED_INFO + 0x10, 20 * NSEC);
	put32(e, TASK(P7) + T_CPU, 1);
	put64(e, TASK(P7) + T_SCHED_INFO + 0x10, 60 * NSEC);	/* after the clock */
	put32(e, TASK(P3) + T_CPU, 2);
	assert_int_equal(sample(e, "-a", &s, &st), 0);
	assert_null(st.no_last_ran);
	assert_true(find(&s, 1)->has_last_ran);
	assert_int_equal(find(&s, 1)->last_ran_ns, 30 * NSEC);	/* 50 s - 20 s */
	assert_true(find(&s, 7)->has_last_ran);
	assert_int_equal(find(&s, 7)->last_ran_ns, 0);
	assert_false(find(&s, 3)->has_last_ran);
	ks_sample_release(&s);
}

/*
 * --comm matches the name /proc shows, a worker's workqueue included
 * (read before the choice), OR-ed with a state.
 */
static void test_comm_select(void **state)
{
	static const int want[] = { 4, 8 };
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	assert_int_equal(sample(e, "-Z --comm -events_power$", &s, &st), 0);
	expect_pids(&s, want, 2);
	ks_sample_release(&s);
	assert_int_equal(sample(e, "--comm ^nothing$", &s, &st), 0);
	assert_int_equal(s.nr_tasks, 0);
	ks_sample_release(&s);
}

/*
 * A dump cut short may keep the kernel's symbols and lose the memory of
 * its ORC tables: that is said, not "no ORC unwind tables in this kernel".
 */
static void test_orc_unreadable(void **state)
{
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;
	const uint64_t ip = 0xffffffff82e00000ULL, orc = 0xffffffff82f00000ULL;

	ks_fake_add_symbol(e->f, "__start_orc_unwind_ip", ip, 0, NULL);
	ks_fake_add_symbol(e->f, "__stop_orc_unwind_ip", ip + 8, 0, NULL);
	ks_fake_add_symbol(e->f, "__start_orc_unwind", orc, 0, NULL);
	ks_fake_add_symbol(e->f, "__stop_orc_unwind", orc + 12, 0, NULL);
	assert_int_equal(sample(e, "-p 1", &s, &st), 0);
	assert_string_equal(find(&s, 1)->stack, "");
	assert_non_null(strstr(e->msgs, "the ORC unwind tables cannot be read"));
	assert_null(strstr(e->msgs, "no ORC unwind tables in this kernel"));
	ks_sample_release(&s);
}

/*
 * A kernel without __start_orc_unwind_ip but with its text range is one
 * built with CONFIG_UNWINDER_FRAME_POINTER: its stacks are walked with
 * frame pointers, which -v's notes say once, and no line says that every
 * stack is empty.
 */
static void test_frame_pointers_chosen(void **state)
{
	struct env *e = *state;
	const struct ks_sample_say say = { .rep = &REPORT_TO(collect, e),
					   .quiet = true };
	struct ks_kernel_status st;
	struct ks_sample s;

	ks_fake_add_symbol(e->f, "_stext", 0xffffffff81000000ULL, 0, NULL);
	ks_fake_add_symbol(e->f, "_etext", 0xffffffff82000000ULL, 0, NULL);
	assert_int_equal(sample(e, "-p 1", &s, &st), 0);
	assert_non_null(st.unwinder);
	assert_non_null(strstr(st.unwinder, "unwinding with frame pointers"));
	assert_null(strstr(e->msgs, "no ORC unwind tables"));
	assert_null(strstr(e->msgs, "every stack is empty"));
	/* said once, among -v's notes, and not without -v */
	e->msgs[0] = '\0';
	ks_kernel_status_say(false, &s, &st, &say);
	assert_null(strstr(e->msgs, "frame pointers"));
	ks_kernel_status_say(true, &s, &st, &say);
	assert_non_null(strstr(e->msgs, "no ORC tables: unwinding with frame pointers"));
	ks_sample_release(&s);
}

/*
 * ORC tables in a format not known here (an .orc_header that is no
 * known hash) are refused by name: no frame-pointer guess is printed for
 * such a kernel, and every task says why its stack is empty.
 */
static void test_orc_unknown_format(void **state)
{
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;
	const uint64_t ip = 0xffffffff82e00000ULL, hdr = 0xffffffff82f00000ULL;

	ks_fake_add_symbol(e->f, "_stext", 0xffffffff81000000ULL, 0, NULL);
	ks_fake_add_symbol(e->f, "_etext", 0xffffffff82000000ULL, 0, NULL);
	ks_fake_add_symbol(e->f, "__start_orc_unwind_ip", ip, 0, NULL);
	ks_fake_add_symbol(e->f, "__stop_orc_unwind_ip", ip + 8, 0, NULL);
	/* a header of 21 bytes: no SHA-1 of any known layout */
	ks_fake_add_symbol(e->f, "__start_orc_header", hdr, 0, NULL);
	ks_fake_add_symbol(e->f, "__stop_orc_header", hdr + 21, 0, NULL);
	assert_int_equal(sample(e, "-a", &s, &st), 0);
	assert_non_null(strstr(e->msgs, "ORC format"));
	assert_null(st.unwinder);
	assert_true(s.nr_tasks > 0);
	for (size_t i = 0; i < s.nr_tasks; i++) {
		assert_string_equal(s.tasks[i].stack, "");
		assert_non_null(s.tasks[i].note);
		assert_non_null(strstr(s.tasks[i].note, "not one kstack knows"));
	}
	ks_sample_release(&s);
}

/*
 * 6.10+ format_worker_id(): a rescuer's comm holds the first 15 bytes of
 * "kworker/R-" and its workqueue's name; /proc prints the whole name.
 */
static void test_rescuer_name(void **state)
{
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;
	uint64_t wq = KTHREADS + 0x400;
	char comm[16] = "kworker/R-kvfre";

	put(e, TASK(KW) + T_COMM, comm, sizeof(comm));
	put64(e, KTHREADS + 0x100 + 0x38, wq);
	put(e, wq + 0x10, "kvfree_rcu_reclaim", 19);
	assert_int_equal(sample(e, "-p 4", &s, &st), 0);
	assert_string_equal(find(&s, 4)->cmd,
			    "kworker/R-kvfree_rcu_reclaim-events_power");
	ks_sample_release(&s);
	/* a 6.1 rescuer is named after its workqueue alone: left as it is */
	strcpy(comm, "kblockd");
	put(e, TASK(KW) + T_COMM, comm, sizeof(comm));
	assert_int_equal(sample(e, "-p 4", &s, &st), 0);
	assert_string_equal(find(&s, 4)->cmd, "kblockd-events_power");
	ks_sample_release(&s);
}

static void test_threads(void **state)
{
	static const int order[] = { 1, 2, 3, 5, 6, 4, 7, 8 };
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	assert_int_equal(sample(e, "-a -H", &s, &st), 0);
	/* each group by ascending TID, as /proc/PID/task sorted */
	expect_pids(&s, order, 8);
	assert_int_equal(find(&s, 5)->tgid, 3);
	assert_int_equal(find(&s, 5)->state, 'T');
	assert_string_equal(find(&s, 5)->cmd, "worker");
	ks_sample_release(&s);
}

static void test_pids_in_order(void **state)
{
	static const int order[] = { 7, 1 };
	static const int group[] = { 3, 5, 6 };
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	assert_int_equal(sample(e, "-p 7,99,1", &s, &st), 0);
	expect_pids(&s, order, 2);
	ks_sample_release(&s);
	/* a thread's TID with -H lists its whole group, like /proc/TID/task */
	assert_int_equal(sample(e, "-p 6 -H", &s, &st), 0);
	expect_pids(&s, group, 3);
	ks_sample_release(&s);
	/* without -H, /proc/TID is that thread alone */
	assert_int_equal(sample(e, "-p 6", &s, &st), 0);
	expect_pids(&s, &group[2], 1);
	ks_sample_release(&s);
}

static void test_states_select(void **state)
{
	static const int d[] = { 7 };
	static const int zi[] = { 4, 8 };
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	assert_int_equal(sample(e, "-D", &s, &st), 0);
	expect_pids(&s, d, 1);
	ks_sample_release(&s);
	assert_int_equal(sample(e, "-Z -I", &s, &st), 0);
	expect_pids(&s, zi, 2);
	ks_sample_release(&s);
}

static void test_list_loop(void **state)
{
	static const int order[] = { 1, 3, 7 };
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	/* P3's next points back at P7: P1 -> P7 -> P3 -> P7 ... */
	put64(e, TASK(P3) + T_TASKS, TASK(P7) + T_TASKS);
	assert_int_equal(sample(e, "-a", &s, &st), 0);
	expect_pids(&s, order, 3);
	assert_int_equal(st.nr_list_errors, 1);
	assert_non_null(strstr(e->msgs, "loops"));
	ks_sample_release(&s);
}

static void test_list_broken(void **state)
{
	static const int order[] = { 1, 7 };
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	/* P7's next is outside the image */
	put64(e, TASK(P7) + T_TASKS, 0xffff888077770000ULL);
	assert_int_equal(sample(e, "-a", &s, &st), 0);
	expect_pids(&s, order, 2);
	assert_int_equal(st.nr_list_errors, 1);
	ks_sample_release(&s);
	/* and a NULL link */
	put64(e, TASK(P7) + T_TASKS, 0);
	assert_int_equal(sample(e, "-a", &s, &st), 0);
	expect_pids(&s, order, 2);
	assert_int_equal(st.nr_list_errors, 1);
	assert_non_null(strstr(e->msgs, "breaks off"));
	ks_sample_release(&s);
}

/* No task at all: an empty list, or one broken at init_task. */
static void test_list_empty(void **state)
{
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	put64(e, TASK(INIT) + T_TASKS, TASK(INIT) + T_TASKS);
	assert_int_equal(sample(e, "-a -H", &s, &st), 0);
	assert_int_equal(s.nr_tasks, 0);
	assert_int_equal(st.nr_list_errors, 0);
	ks_sample_release(&s);
	put64(e, TASK(INIT) + T_TASKS, 0);
	assert_int_equal(sample(e, "-a", &s, &st), 0);
	assert_int_equal(s.nr_tasks, 0);
	assert_int_equal(st.nr_list_errors, 1);
	assert_non_null(strstr(e->msgs, "the task list (init_task.tasks) breaks off"));
	ks_sample_release(&s);
}

static void test_unreadable_task(void **state)
{
	static const int order[] = { 1, 2, 3, 4, 8 };
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;
	uint64_t bad = 0xffff888000900000ULL;

	/* P1 -> a node whose list_head reads but whose pid does not -> P3 */
	assert_int_equal(ks_fake_add_memory(e->f, bad, NULL, 16), 0);
	put64(e, TASK(P1) + T_TASKS, bad);
	put64(e, bad, TASK(P3) + T_TASKS);
	assert_int_equal(sample(e, "-a", &s, &st), 0);
	assert_int_equal(st.nr_unreadable, 1);
	assert_non_null(strstr(e->msgs, "cannot be read"));
	/* P7 is off the list now; every other task is there */
	expect_pids(&s, order, 5);
	ks_sample_release(&s);
}

static void test_on_cpu(void **state)
{
	struct ks_regs user = { .ip = 0x401000, .sp = 0x7ffc0000 };
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	/* P1 on CPU 1 in user mode; P7 on CPU 0, whose registers are missing */
	put32(e, TASK(P1) + T_ON_CPU, 1);
	put32(e, TASK(P1) + T_CPU, 1);
	put32(e, TASK(P7) + T_ON_CPU, 1);
	put32(e, TASK(P7) + T_CPU, 0);
	assert_int_equal(ks_fake_set_cpu_regs(e->f, 1, &user), 0);
	assert_int_equal(sample(e, "-p 1,7", &s, &st), 0);
	assert_int_equal(s.nr_tasks, 2);
	assert_int_equal(st.nr_on_cpu, 2);
	assert_true(s.tasks[0].running);
	assert_string_equal(s.tasks[0].stack, "");
	assert_string_equal(s.tasks[0].note, "in user mode on CPU 1");
	/* what bt and struct task_struct need: the address and the CPU */
	assert_int_equal(s.tasks[0].task_addr, TASK(P1));
	assert_true(s.tasks[0].has_cpu);
	assert_int_equal(s.tasks[0].cpu, 1);
	assert_int_equal(s.tasks[1].task_addr, TASK(P7));
	assert_int_equal(s.tasks[1].cpu, 0);
	assert_string_equal(s.tasks[1].stack, "");
	assert_non_null(strstr(s.tasks[1].note, "registers are not in the image"));
	ks_sample_release(&s);
}

#define RQS		0xffffffff82100000ULL	/* CPU n's rq at RQS + n * PCPU */
#define PCPU		0x1000ULL
#define PCPU_OFFSET	0xffffffff82200000ULL
#define CPU_MASKS	0xffffffff82200100ULL	/* online, present */
#define NR_CPU_IDS	0xffffffff82200200ULL
#define IDLES		0xffff888000800000ULL	/* CPU n's idle task */
#define IDLE_STACKS	0xffffc90000100000ULL
#define STACK(i)	(0xffffc90000000000ULL + (uint64_t)(i) * 0x4000)
#define KTEXT		0xffffffff81000100ULL

/* Four CPUs, CPU n running rq->curr = curr[n], its idle task at IDLES. */
static void runqueues(struct env *e, const int *curr)
{
	uint32_t four = 4;

	member(e, "rq", "curr", 0x10, 8);
	member(e, "rq", "idle", 0x18, 8);
	assert_int_equal(ks_fake_add_memory(e->f, RQS, NULL, 4 * PCPU), 0);
	assert_int_equal(ks_fake_add_memory(e->f, PCPU_OFFSET, NULL, 0x400), 0);
	assert_int_equal(ks_fake_add_memory(e->f, IDLES, NULL, 4 * 0x1000), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "runqueues", RQS, 0x100, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "__per_cpu_offset", PCPU_OFFSET, 64, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "__cpu_online_mask", CPU_MASKS, 8, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "__cpu_present_mask", CPU_MASKS + 8, 8, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "nr_cpu_ids", NR_CPU_IDS, 4, NULL), 0);
	put64(e, CPU_MASKS, 0xf);
	put64(e, CPU_MASKS + 8, 0xf);
	put(e, NR_CPU_IDS, &four, 4);
	for (int cpu = 0; cpu < 4; cpu++) {
		uint64_t idle = IDLES + (uint64_t)cpu * 0x1000;
		char comm[16] = { 0 };

		snprintf(comm, sizeof(comm), "swapper/%d", cpu);
		put(e, idle + T_COMM, comm, sizeof(comm));
		put64(e, idle + T_STACK, IDLE_STACKS + (uint64_t)cpu * 0x4000);
		put64(e, PCPU_OFFSET + 8 * (uint64_t)cpu, (uint64_t)cpu * PCPU);
		put64(e, RQS + (uint64_t)cpu * PCPU + 0x10, TASK(curr[cpu]));
		put64(e, RQS + (uint64_t)cpu * PCPU + 0x18, idle);
	}
}

/* CPU cpu in the kernel with its sp at sp. */
static void cpu_at(struct env *e, int cpu, uint64_t sp)
{
	struct ks_regs r = { .ip = KTEXT, .sp = sp, .bp = sp };

	assert_int_equal(ks_fake_set_cpu_regs(e->f, cpu, &r), 0);
}

/*
 * CPU 0 runs rq->curr on its stack.  CPUs 1 and 2 are caught inside
 * __schedule(): rq->curr names the next task, the CPU is still on the
 * stack of the previous one, a thread (on_cpu) and the idle task (on no
 * list).  CPU 3's sp is on no task stack (an IRQ stack), and the task
 * whose stack holds it is on_cpu on CPU 0, not 3: rq->curr stays.
 */
static void test_cpus_switching(void **state)
{
	static const int curr[4] = { P1, KW, P7, KT };
	struct env *e = *state;
	struct ks_kernel *k;
	struct ks_cpus cs;
	char *text = NULL;
	size_t len = 0;
	FILE *out;

	runqueues(e, curr);
	put32(e, TASK(P1) + T_ON_CPU, 1);
	put32(e, TASK(T5) + T_ON_CPU, 1);
	put32(e, TASK(T5) + T_CPU, 1);
	put32(e, TASK(T6) + T_ON_CPU, 1);
	cpu_at(e, 0, STACK(P1) + 0x3f00);
	cpu_at(e, 1, STACK(T5) + 0x3b40);
	cpu_at(e, 2, IDLE_STACKS + 2 * 0x4000 + 0x3e00);
	cpu_at(e, 3, STACK(T6) + 0x100);
	assert_int_equal(ks_kernel_open(&e->t, &k, NULL), 0);
	assert_int_equal(ks_cpus_walk(k, &cs, NULL), 0);
	assert_int_equal(cs.nr, 4);
	assert_int_equal(cs.cpu[0].pid, 1);
	assert_false(cs.cpu[0].switching);
	assert_int_equal(cs.cpu[1].task, TASK(T5));
	assert_int_equal(cs.cpu[1].pid, 5);
	assert_string_equal(cs.cpu[1].comm, "worker");
	assert_true(cs.cpu[1].switching);
	assert_int_equal(cs.cpu[1].next_pid, 4);
	assert_string_equal(cs.cpu[1].next_comm, "kworker/0:1");
	assert_false(cs.cpu[1].idle);
	assert_int_equal(cs.cpu[2].pid, 0);
	assert_string_equal(cs.cpu[2].comm, "swapper/2");
	assert_true(cs.cpu[2].idle);
	assert_true(cs.cpu[2].switching);
	assert_int_equal(cs.cpu[2].next_pid, 7);
	assert_int_equal(cs.cpu[3].pid, 2);
	assert_false(cs.cpu[3].switching);
	out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(ks_format_cpus(out, &cs, false), 0);
	fclose(out);
	assert_non_null(strstr(text, "CPU: 1 PID: 5 Comm: worker\n"
			       "Switching: to PID 4 Comm: kworker/0:1 (rq->curr "
			       "already); the CPU is still on the stack of the "
			       "task above\n"));
	assert_non_null(strstr(text, "CPU: 3 PID: 2 Comm: a_very_long_kth\n"
			       "Registers:"));
	free(text);
	out = open_memstream(&text, &len);
	assert_non_null(out);
	assert_int_equal(ks_format_cpus(out, &cs, true), 0);
	fclose(out);
	assert_non_null(strstr(text, "\"user\":false,\"switching_to\":{\"pid\":7,"
			       "\"comm\":\"vforker\"}"));
	free(text);
	ks_cpus_release(&cs);
	ks_kernel_close(k);
}

/* A NULL task->stack while the stack is not freed is no exited task. */
static void test_stack_null(void **state)
{
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	put64(e, TASK(P1) + T_STACK, 0);
	assert_int_equal(sample(e, "-p 1,8", &s, &st), 0);
	assert_int_equal(s.nr_tasks, 2);
	assert_string_equal(s.tasks[0].stack, "");
	assert_string_equal(s.tasks[0].note,
			    "task->stack is NULL, yet the stack is not freed");
	assert_non_null(strstr(e->msgs, "PID 1: no stack: task->stack is NULL"));
	assert_int_equal(st.nr_stack_notes, 1);
	/* the zombie's stack is freed (stack_refcount 0): nothing to say */
	assert_null(strstr(e->msgs, "PID 8"));
	ks_sample_release(&s);
}

/*
 * 6.14+ keeps the timekeepers in timekeeper_data[] (struct tk_data: seq,
 * timekeeper, shadow_timekeeper): no tk_core and no shadow_timekeeper
 * symbol; the members of tk_data place the timekeeper.
 */
static void test_timekeeper_data(void **state)
{
	struct env tmp = { .f = ks_fake_create() };
	const uint64_t data = TK_CORE + 0x2000;
	struct said d = { "", 0 };
	struct ks_kernel *k;
	char host[64];
	time_t when;

	(void)state;
	cur_env = &tmp;
	layout(&tmp);
	member(&tmp, "tk_data", "timekeeper", 0x40, 0x130);
	member(&tmp, "tk_data", "shadow_timekeeper", 0x180, 0x130);
	assert_int_equal(ks_fake_add_memory(tmp.f, TK_CORE, NULL, 0x4000), 0);
	assert_int_equal(ks_fake_add_memory(tmp.f, TASKS, NULL, NR_TASKS * 0x1000), 0);
	assert_int_equal(ks_fake_add_symbol(tmp.f, "init_task", TASK(INIT), T_SIZE, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(tmp.f, "init_uts_ns", UTS, 0x200, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(tmp.f, "timekeeper_data", data, 0x280, NULL), 0);
	put64(&tmp, data + 0x40 + 0x10, (uint64_t)(BTIME + 100));
	put64(&tmp, data + 0x40 + 0x20, 77);
	put64(&tmp, data + 0x180 + 0x20, 77);
	ks_fake_target(tmp.f, &tmp.t);
	assert_int_equal(ks_kernel_open(&tmp.t, &k, &SAID_TO(&d)), 0);
	assert_int_equal(ks_kernel_when_host(k, &when, host, sizeof(host)), 0);
	assert_int_equal(when, BTIME + 100);
	ks_kernel_close(k);
	/* a shadow that disagrees: the place is wrong, and that is said */
	put64(&tmp, data + 0x180 + 0x20, 78);
	assert_int_equal(ks_kernel_open(&tmp.t, &k, &SAID_TO(&d)), -ENOENT);
	assert_non_null(strstr(d.text, "timekeeper_data.timekeeper"));
	ks_fake_destroy(tmp.f);
}

/*
 * A dump cut short that lacks the timekeeper's page: the clock is needed
 * only for times, so every task is still listed, each start time and the
 * sample's time unknown, and that is said once, with or without -v.
 */
static void test_clock_missing(void **state)
{
	struct env *e = *state;
	const struct ks_sample_say say = { .rep = &REPORT_TO(collect, e),
					   .quiet = true };
	struct ks_kernel_status st;
	struct ks_sample s;
	struct ks_kernel *k;
	char host[64];
	time_t when;

	clock_missing = true;
	assert_int_equal(ks_kernel_open(&e->t, &k, NULL), 0);
	assert_int_equal(ks_kernel_when_host(k, &when, host, sizeof(host)), 0);
	assert_true(when == KS_WHEN_UNKNOWN);
	assert_string_equal(host, "fakehost");
	ks_kernel_close(k);
	assert_int_equal(sample(e, "-a", &s, &st), 0);
	assert_int_equal(s.nr_tasks, 6);
	for (size_t i = 0; i < s.nr_tasks; i++)
		assert_true(s.tasks[i].start_time == KS_START_UNKNOWN);
	assert_true(st.no_clock == TK_CORE + 8);
	e->msgs[0] = '\0';
	ks_kernel_status_say(false, &s, &st, &say);
	assert_non_null(strstr(e->msgs, "the kernel's clock (the timekeeper at 0xffffffff82000008) is not in the dump"));
	assert_null(strstr(e->msgs, ".c:"));
	ks_sample_release(&s);
	clock_missing = false;
}

/* uname -r of the dump for --json: init_uts_ns.name.release, if the type has it */
static void test_release(void **state)
{
	struct env *e = *state;
	char rel[KS_RELEASE_LEN] = "x";
	struct ks_kernel *k;

	assert_int_equal(ks_kernel_open(&e->t, &k, NULL), 0);
	assert_int_equal(ks_kernel_release(k, rel, sizeof(rel)), -ENOENT);
	ks_kernel_close(k);
	member(e, "new_utsname", "release", 130, 65);
	put(e, UTS + 8 + 130, "6.1.0-27-amd64\0junk", 20);
	assert_int_equal(ks_kernel_open(&e->t, &k, NULL), 0);
	assert_int_equal(ks_kernel_release(k, rel, sizeof(rel)), 0);
	assert_string_equal(rel, "6.1.0-27-amd64");
	/* cut to the caller's buffer */
	assert_int_equal(ks_kernel_release(k, rel, 6), 0);
	assert_string_equal(rel, "6.1.0");
	ks_kernel_close(k);
}

static void test_missing_member(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_kernel *k;
	struct ks_target t;
	struct said d = { "", 0 };

	(void)state;
	assert_int_equal(ks_fake_add_type(f, "task_struct", T_SIZE), 0);
	assert_int_equal(ks_fake_add_member(f, "task_struct", "pid", T_PID, 4), 0);
	ks_fake_target(f, &t);
	assert_int_equal(ks_kernel_open(&t, &k, &SAID_TO(&d)), -ENOENT);
	/* the first missing member, and no source file named to a user */
	assert_non_null(strstr(d.text, "task_struct.tasks"));
	assert_null(strstr(d.text, ".c:"));
	ks_fake_destroy(f);
}

static void test_wrong_size(void **state)
{
	struct env tmp = { .f = ks_fake_create() };
	struct ks_kernel *k;
	struct ks_target t;
	struct said d = { "", 0 };

	(void)state;
	/* a 2-byte pid is no layout we know: refuse, do not guess (the
	 * fake answers with the first entry of a name) */
	member(&tmp, "task_struct", "pid", T_PID, 2);
	layout(&tmp);
	ks_fake_target(tmp.f, &t);
	assert_int_equal(ks_kernel_open(&t, &k, &SAID_TO(&d)), -ENOENT);
	assert_non_null(strstr(d.text, "task_struct.pid"));
	ks_fake_destroy(tmp.f);
}

/*
 * cgroup v2: P1 in /system.slice/foo.service, everyone else in /.  The
 * css_sets, cgroups and kernfs_nodes sit in the STRINGS page.
 */
static void cgroups(struct env *e, uint8_t visible)
{
	uint64_t cs_root = STRINGS + 0x100, cs_foo = STRINGS + 0x140;
	uint64_t cg_root = STRINGS + 0x180, cg_foo = STRINGS + 0x1c0;
	uint64_t kn_root = STRINGS + 0x200, kn_sys = STRINGS + 0x240;
	uint64_t kn_foo = STRINGS + 0x280, names = STRINGS + 0x300;

	assert_int_equal(ks_fake_add_memory(e->f, STRINGS + 0x100, NULL, 0x300), 0);
	assert_int_equal(ks_fake_add_memory(e->f, STRINGS + 0x800, &visible, 1), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "cgrp_dfl_visible", STRINGS + 0x800,
					    1, NULL), 0);
	put64(e, cs_root + 0x18, cg_root);
	put64(e, cs_foo + 0x18, cg_foo);
	put64(e, cg_root + 0x8, kn_root);
	put64(e, cg_foo + 0x8, kn_foo);
	put64(e, kn_foo + 0x10, kn_sys);
	put64(e, kn_sys + 0x10, kn_root);
	put(e, names, "system.slice", 13);
	put(e, names + 0x20, "foo.service", 12);
	put64(e, kn_sys + 0x18, names);
	put64(e, kn_foo + 0x18, names + 0x20);
	for (int i = 0; i < NR_TASKS; i++)
		put64(e, TASK(i) + T_CGROUPS, i == P1 ? cs_foo : cs_root);
}

static void test_cgroup(void **state)
{
	static const int p1[] = { 1 };
	static const int all[] = { 1, 2, 3, 4, 7, 8 };
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	cgroups(e, 1);
	assert_int_equal(sample(e, "-a --cgroup /system.slice", &s, &st), 0);
	expect_pids(&s, p1, 1);
	ks_sample_release(&s);
	assert_int_equal(sample(e, "-a --cgroup /system.slice/foo.service/", &s, &st), 0);
	expect_pids(&s, p1, 1);
	ks_sample_release(&s);
	/* a prefix of a name is not the cgroup */
	assert_int_equal(sample(e, "-a --cgroup /system", &s, &st), 0);
	assert_int_equal(s.nr_tasks, 0);
	ks_sample_release(&s);
	assert_int_equal(sample(e, "-a --cgroup /", &s, &st), 0);
	expect_pids(&s, all, 6);
	ks_sample_release(&s);
}

static void test_cgroup_hidden(void **state)
{
	struct env *e = *state;
	struct ks_kernel_status st;
	struct ks_sample s;

	/* before cgroup2 is mounted /proc/PID/cgroup has no "0::" line */
	cgroups(e, 0);
	assert_int_equal(sample(e, "-a --cgroup /", &s, &st), 0);
	assert_int_equal(s.nr_tasks, 0);
	ks_sample_release(&s);
}

static void test_state_letters(void **state)
{
	struct ks_kernel_layout l = { .state_letters = "RSDTtXZPI", .nr_states = 9 };

	(void)state;
	assert_int_equal(ks_task_state_letter(&l, 0, 0), 'R');
	assert_int_equal(ks_task_state_letter(&l, 0x1, 0), 'S');
	assert_int_equal(ks_task_state_letter(&l, 0x2, 0), 'D');
	assert_int_equal(ks_task_state_letter(&l, 0x102, 0), 'D');	/* KILLABLE */
	assert_int_equal(ks_task_state_letter(&l, 0x104, 0), 'T');	/* STOPPED */
	assert_int_equal(ks_task_state_letter(&l, 0x108, 0), 't');	/* TRACED */
	assert_int_equal(ks_task_state_letter(&l, 0x402, 0), 'I');	/* IDLE */
	assert_int_equal(ks_task_state_letter(&l, 0x2402, 0), 'I');	/* IDLE|FREEZABLE */
	assert_int_equal(ks_task_state_letter(&l, 0x1000, 0), 'D');	/* RTLOCK_WAIT */
	assert_int_equal(ks_task_state_letter(&l, 0x8000, 0), 'D');	/* FROZEN */
	assert_int_equal(ks_task_state_letter(&l, 0, 0x20), 'Z');
	assert_int_equal(ks_task_state_letter(&l, 0, 0x10), 'X');
	assert_int_equal(ks_task_state_letter(&l, 0x40, 0), 'P');	/* PARKED */
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_processes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_comm_select, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rescuer_name, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frame_pointers_chosen, setup, teardown),
		cmocka_unit_test_setup_teardown(test_orc_unknown_format, setup, teardown),
		cmocka_unit_test_setup_teardown(test_orc_unreadable, setup, teardown),
		cmocka_unit_test_setup_teardown(test_threads, setup, teardown),
		cmocka_unit_test_setup_teardown(test_pids_in_order, setup, teardown),
		cmocka_unit_test_setup_teardown(test_states_select, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_broken, setup, teardown),
		cmocka_unit_test_setup_teardown(test_list_empty, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unreadable_task, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroup, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cgroup_hidden, setup, teardown),
		cmocka_unit_test_setup_teardown(test_on_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cpus_switching, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stack_null, setup, teardown),
		cmocka_unit_test_setup_teardown(test_release, setup, teardown),
		cmocka_unit_test_setup_teardown(test_last_ran, setup, teardown),
		cmocka_unit_test_setup_teardown(test_clock_missing, setup, teardown),
		cmocka_unit_test(test_missing_member),
		cmocka_unit_test(test_wrong_size),
		cmocka_unit_test(test_timekeeper_data),
		cmocka_unit_test(test_state_letters),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
