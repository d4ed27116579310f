// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The offsets table of kernel_layout.h.  Like crash-extensions'
 * cacheutils.c, every lookup that must succeed is a KS_NEED row (with the
 * member's older name and its allowed sizes where they matter)
 * that names the missing member and the line asking for it, so a kernel
 * whose layout we do not know fails with a message, not a wrong answer.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "kernel_layout.h"

/* What fs/proc/array.c task_state_array holds in 6.1, if memory will not say. */
static const char default_letters[] = "RSDTtXZPI";

struct lookup {
	const struct ks_target *t;
	const struct ks_arch *arch;
	const struct ks_reporter *rep;
	struct ks_reporter to_fail;	/* a table's message: the reason */
	int ret;
};

static void fail(struct lookup *lk, int ret, const char *fmt, ...)
{
	va_list ap;

	if (lk->ret)
		return;		/* keep the first reason */
	lk->ret = ret;
	va_start(ap, fmt);
	ks_vsay(lk->rep, KS_WARN, fmt, ap);
	va_end(ap);
}

uint64_t ks_field_get(const void *obj, const struct ks_field *f)
{
	const unsigned char *p = (const unsigned char *)obj + f->off;
	uint64_t v = 0;

	/* x86_64 is little-endian: the low bytes come first. */
	if (f->size > 0 && f->size <= 8)
		memcpy(&v, p, (size_t)f->size);
	return v;
}

/*
 * A table of members; the first needed one that is missing or of a size
 * not allowed is the reason.
 */
static void table_fail(void *arg, enum ks_say_level level, const char *text)
{
	(void)level;
	fail(arg, -ENOENT, "%s", text);
}

static void table(struct lookup *lk, const struct ks_field_spec *s, size_t nr)
{
	ks_field_table_report(lk->t, s, nr, &lk->to_fail);
}

#define TABLE(lk, ...) \
	table(lk, (const struct ks_field_spec[]){ __VA_ARGS__ }, \
	      sizeof((const struct ks_field_spec[]){ __VA_ARGS__ }) / \
		      sizeof(struct ks_field_spec))

static void task_fields(struct lookup *lk, struct ks_kernel_layout *l)
{
	const struct ks_target *t = lk->t;
	struct ks_field thread, ti, cpu;

	l->task_size = t->ops->type_size(t->ctx, "task_struct");
	if (l->task_size <= 0)
		fail(lk, -ENOENT, "no type task_struct");
	TABLE(lk,
	      KS_NEED(&l->tasks, "task_struct", "tasks"),
	      KS_NEED_AS(&l->pid, "task_struct", "pid", NULL, 4),
	      KS_NEED_AS(&l->tgid, "task_struct", "tgid", NULL, 4),
	      /* 5.14 renamed state to __state and made it unsigned int. */
	      KS_NEED_AS(&l->state, "task_struct", "__state", "state", 4, 8),
	      KS_NEED_AS(&l->exit_state, "task_struct", "exit_state", NULL, 4),
	      KS_NEED_AS(&l->flags, "task_struct", "flags", NULL, 4),
	      KS_NEED(&l->comm, "task_struct", "comm"),
	      /* 5.5 renamed real_start_time to start_boottime; both count boot ns. */
	      KS_NEED_AS(&l->start_boottime, "task_struct", "start_boottime",
			 "real_start_time", 8),
	      KS_NEED(&l->stack, "task_struct", "stack"),
	      KS_OPTIONAL(&l->stack_refcount, "task_struct", "stack_refcount"),
	      KS_NEED(&l->mm, "task_struct", "mm"),
	      KS_NEED(&thread, "task_struct", "thread"),
	      KS_OPTIONAL(&l->on_cpu, "task_struct", "on_cpu"),
	      /* 4.9 moved cpu into task_struct, 5.16 back into thread_info. */
	      KS_OPTIONAL(&l->cpu, "task_struct", "cpu"),
	      /* to_kthread(): worker_private since 5.19, set_child_tid before. */
	      KS_OPTIONAL_AS(&l->worker_private, "task_struct", "worker_private",
			     "set_child_tid"),
	      KS_OPTIONAL(&l->cgroups, "task_struct", "cgroups"),
	      KS_OPTIONAL(&l->nvcsw, "task_struct", "nvcsw"),
	      KS_OPTIONAL(&l->nivcsw, "task_struct", "nivcsw"));
	/* thread_struct is the arch's: where its switch left the registers */
	if (ks_field_ok(&thread))
		lk->arch->switch_layout(t, thread.off, &l->sw, &lk->to_fail);
	if (ks_field_ok(&l->cpu))
		return;
	ti = ks_field_find(t, "task_struct", "thread_info");
	cpu = ks_field_find(t, "thread_info", "cpu");
	if (ks_field_ok(&ti) && ks_field_ok(&cpu)) {
		l->cpu.off = ti.off + cpu.off;
		l->cpu.size = cpu.size;
	}
}

/*
 * What crash's ps -m reads (show_milliseconds(), task_last_run()): the
 * runqueue clock of the task's CPU minus sched_info.last_arrival.  All
 * optional: a kernel without CONFIG_SCHED_INFO has no last_arrival.
 */
static void last_ran_fields(struct lookup *lk, struct ks_kernel_layout *l)
{
	const struct ks_target *t = lk->t;
	struct ks_field si = ks_field_find(t, "task_struct", "sched_info");
	struct ks_field la = ks_field_find(t, "sched_info", "last_arrival");

	l->last_arrival = (struct ks_field){ -1, 0 };
	if (ks_field_ok(&si) && ks_field_ok(&la) && la.size == 8)
		l->last_arrival = (struct ks_field){ si.off + la.off, 8 };
	l->rq_clock = ks_field_find(t, "rq", "clock");
	l->rq_idle = ks_field_find(t, "rq", "idle");
	if (t->ops->symbol(t->ctx, "runqueues", &l->runqueues))
		l->runqueues = 0;
	if (t->ops->symbol(t->ctx, "__per_cpu_offset", &l->per_cpu_offset))
		l->per_cpu_offset = 0;
}

#define NSEC_PER_SEC	1000000000ull

/* TICK_NSEC of include/vdso/jiffies.h */
static uint64_t tick_nsec(uint64_t hz)
{
	return (NSEC_PER_SEC + hz / 2) / hz;
}

/*
 * HZ, 0 where unknown: the jiffies clocksource (kernel/time/jiffies.c)
 * has mult TICK_NSEC << JIFFIES_SHIFT, which its registration without a
 * frequency leaves as is.
 */
static uint64_t kernel_hz(const struct ks_target *t)
{
	struct ks_field mult = ks_field_find(t, "clocksource", "mult");
	struct ks_field shift = ks_field_find(t, "clocksource", "shift");
	uint32_t m, sh;
	uint64_t cs, ns, hz;

	if (!ks_field_ok(&mult) || !ks_field_ok(&shift) || mult.size != 4 ||
	    shift.size != 4 ||
	    t->ops->symbol(t->ctx, "clocksource_jiffies", &cs) ||
	    ks_read(t, cs + (uint64_t)mult.off, &m, 4) ||
	    ks_read(t, cs + (uint64_t)shift.off, &sh, 4) || sh >= 32)
		return 0;
	ns = m >> sh;
	if (!ns)
		return 0;
	hz = (NSEC_PER_SEC + ns / 2) / ns;
	/* a HZ whose TICK_NSEC is not the clock's is no HZ: damage */
	return hz && hz <= 100000 && tick_nsec(hz) == ns ? hz : 0;
}

/*
 * What task_blocked.c reads, all optional: the hung-task detector's
 * record (CONFIG_DETECT_HUNG_TASK), jiffies_64 and HZ.
 */
static void hung_task_fields(struct lookup *lk, struct ks_kernel_layout *l)
{
	const struct ks_target *t = lk->t;

	l->last_switch_count = ks_field_find(t, "task_struct", "last_switch_count");
	l->last_switch_time = ks_field_find(t, "task_struct", "last_switch_time");
	if (t->ops->symbol(t->ctx, "jiffies_64", &l->jiffies_64))
		l->jiffies_64 = 0;
	l->hz = kernel_hz(t);
}

static void thread_fields(struct lookup *lk, struct ks_kernel_layout *l)
{
	const struct ks_target *t = lk->t;

	l->signal = ks_field_find(t, "task_struct", "signal");
	l->signal_thread_head = ks_field_find(t, "signal_struct", "thread_head");
	l->thread_node = ks_field_find(t, "task_struct", "thread_node");
	l->thread_group = ks_field_find(t, "task_struct", "thread_group");
	/* thread_group went away in 6.7; signal->thread_head is there since 3.13. */
	l->thread_head = ks_field_ok(&l->signal) &&
			 ks_field_ok(&l->signal_thread_head) &&
			 ks_field_ok(&l->thread_node);
	if (!l->thread_head)
		TABLE(lk, KS_NEED(&l->thread_group, "task_struct", "thread_group"));
}

static void mm_fields(struct lookup *lk, struct ks_kernel_layout *l)
{
	TABLE(lk,
	      KS_NEED(&l->mm_arg_start, "mm_struct", "arg_start"),
	      KS_NEED(&l->mm_arg_end, "mm_struct", "arg_end"),
	      KS_NEED(&l->mm_env_start, "mm_struct", "env_start"),
	      KS_NEED(&l->mm_env_end, "mm_struct", "env_end"));
}

static void optional_fields(struct lookup *lk, struct ks_kernel_layout *l)
{
	TABLE(lk,
	      KS_OPTIONAL(&l->kthread_full_name, "kthread", "full_name"),
	      KS_OPTIONAL(&l->kthread_data, "kthread", "data"),
	      KS_OPTIONAL(&l->worker_desc, "worker", "desc"),
	      KS_OPTIONAL(&l->worker_current_work, "worker", "current_work"),
	      KS_OPTIONAL(&l->worker_pool, "worker", "pool"),
	      KS_OPTIONAL(&l->worker_rescue_wq, "worker", "rescue_wq"),
	      KS_OPTIONAL(&l->wq_name, "workqueue_struct", "name"),
	      KS_OPTIONAL(&l->css_set_dfl_cgrp, "css_set", "dfl_cgrp"),
	      KS_OPTIONAL(&l->cgroup_kn, "cgroup", "kn"),
	      KS_OPTIONAL(&l->kn_parent, "kernfs_node", "parent"),
	      KS_OPTIONAL(&l->kn_name, "kernfs_node", "name"));
}

static uint64_t round_up8(uint64_t v)
{
	return (v + 7) & ~7ull;
}

static int read_i64(const struct ks_target *t, uint64_t addr, int64_t *v)
{
	return ks_read(t, addr, v, sizeof(*v));
}

/*
 * tk_core is an anonymous struct { seqcount_raw_spinlock_t seq; struct
 * timekeeper timekeeper; } with no type name to ask about, so the
 * timekeeper's place is sizeof(seq) rounded up to the timekeeper's
 * alignment (8).  That guess is checked against shadow_timekeeper,
 * which timekeeping_update() keeps equal in offs_real and offs_boot.
 */
/* The timekeeper must agree with its shadow in offs_real and offs_boot. */
static void check_shadow(struct lookup *lk, struct ks_kernel_layout *l,
			 uint64_t shadow, const char *what, long off)
{
	const struct ks_target *t = lk->t;
	int64_t a, b, c, d;

	if (read_i64(t, l->timekeeper + (uint64_t)l->tk_offs_real.off, &a) ||
	    read_i64(t, shadow + (uint64_t)l->tk_offs_real.off, &b) ||
	    read_i64(t, l->timekeeper + (uint64_t)l->tk_offs_boot.off, &c) ||
	    read_i64(t, shadow + (uint64_t)l->tk_offs_boot.off, &d))
		return;	/* not in the image: the walk says so, and goes on */
	if (a != b || c != d)
		fail(lk, -ENOENT,
		     "%s.timekeeper is not at %s+%ld: offs_real/offs_boot differ from shadow_timekeeper",
		     what, what, off);
}

/*
 * Linux 6.14+ (kernel/time/timekeeping.c) keeps the timekeepers in
 * timekeeper_data[], an array of struct tk_data whose first element is
 * the core one (TIMEKEEPER_CORE); struct tk_data has a name, so BTF
 * places both the timekeeper and its shadow.
 */
static void timekeeper_data(struct lookup *lk, struct ks_kernel_layout *l,
			    uint64_t data)
{
	struct ks_field shadow = ks_field_find(lk->t, "tk_data", "shadow_timekeeper");
	struct ks_field tk;

	TABLE(lk, KS_NEED(&tk, "tk_data", "timekeeper"));
	if (lk->ret)
		return;
	l->timekeeper = data + (uint64_t)tk.off;
	if (ks_field_ok(&shadow))
		check_shadow(lk, l, data + (uint64_t)shadow.off, "timekeeper_data",
			     tk.off);
}

static void timekeeper(struct lookup *lk, struct ks_kernel_layout *l)
{
	const struct ks_target *t = lk->t;
	uint64_t core, shadow, data;
	long seq;

	TABLE(lk,
	      KS_NEED(&l->tk_xtime_sec, "timekeeper", "xtime_sec"),
	      KS_NEED(&l->tk_offs_real, "timekeeper", "offs_real"),
	      KS_NEED(&l->tk_offs_boot, "timekeeper", "offs_boot"));
	if (lk->ret)
		return;
	if (!t->ops->symbol(t->ctx, "timekeeper_data", &data)) {
		timekeeper_data(lk, l, data);
		return;
	}
	if (t->ops->symbol(t->ctx, "shadow_timekeeper", &shadow))
		shadow = 0;
	if (t->ops->symbol(t->ctx, "tk_core", &core)) {
		if (!shadow)
			fail(lk, -ENOENT,
			     "no symbol timekeeper_data, tk_core or shadow_timekeeper");
		l->timekeeper = shadow;
		return;
	}
	seq = t->ops->type_size(t->ctx, "seqcount_raw_spinlock");
	if (seq <= 0)
		seq = t->ops->type_size(t->ctx, "seqcount");
	if (seq <= 0) {
		fail(lk, -ENOENT, "no type seqcount_raw_spinlock for tk_core.seq");
		return;
	}
	l->timekeeper = core + round_up8((uint64_t)seq);
	if (shadow)
		check_shadow(lk, l, shadow, "tk_core", (long)(l->timekeeper - core));
}

static void nodename(struct lookup *lk, struct ks_kernel_layout *l)
{
	const struct ks_target *t = lk->t;
	struct ks_field name, node, rel;
	uint64_t ns;

	TABLE(lk,
	      KS_NEED(&name, "uts_namespace", "name"),
	      KS_NEED(&node, "new_utsname", "nodename"),
	      KS_OPTIONAL(&rel, "new_utsname", "release"));
	if (lk->ret)
		return;
	if (t->ops->symbol(t->ctx, "init_uts_ns", &ns)) {
		fail(lk, -ENOENT, "no symbol init_uts_ns");
		return;
	}
	l->nodename = ns + (uint64_t)name.off + (uint64_t)node.off;
	l->nodename_size = node.size > 0 ? node.size : 65;
	/* the release only labels --json: optional */
	if (!ks_field_ok(&rel))
		return;
	l->release = ns + (uint64_t)name.off + (uint64_t)rel.off;
	l->release_size = rel.size > 0 ? rel.size : 65;
}

/*
 * The letters of fs/proc/array.c's task_state_array ("R (running)", ...):
 * read from memory so a kernel with other letters is printed as it would
 * print itself; the 6.1 table when the symbol or its strings are missing.
 */
static void state_letters(const struct ks_target *t, struct ks_kernel_layout *l)
{
	const size_t n = sizeof(default_letters) - 1;
	uint64_t arr, ptrs[sizeof(default_letters) - 1];
	char s[4];

	memcpy(l->state_letters, default_letters, n + 1);
	l->nr_states = n;
	if (t->ops->symbol(t->ctx, "task_state_array", &arr) ||
	    ks_read(t, arr, ptrs, sizeof(ptrs)))
		return;
	for (size_t i = 0; i < n; i++) {
		if (ks_read(t, ptrs[i], s, sizeof(s)) || s[1] != ' ' || s[2] != '(')
			return;		/* not the table we know: keep ours */
	}
	for (size_t i = 0; i < n; i++) {
		ks_read(t, ptrs[i], s, 1);
		l->state_letters[i] = s[0];
	}
}

/*
 * How much of a task_struct the walk reads: up to the end of the last
 * member it uses.  The FPU state at the end (several KiB) stays unread.
 */
static long task_read_size(const struct ks_kernel_layout *l)
{
	const struct ks_field *f[] = {
		&l->tasks, &l->pid, &l->tgid, &l->state, &l->exit_state,
		&l->flags, &l->comm, &l->start_boottime, &l->stack,
		&l->stack_refcount, &l->sw.sp, &l->sw.fp, &l->sw.pc, &l->mm, &l->on_cpu, &l->cpu,
		&l->worker_private, &l->cgroups, &l->signal, &l->thread_node,
		&l->thread_group, &l->nvcsw, &l->nivcsw, &l->last_arrival,
		&l->last_switch_count, &l->last_switch_time,
	};
	long end = 0;

	for (size_t i = 0; i < sizeof(f) / sizeof(f[0]); i++)
		if (ks_field_ok(f[i]) && f[i]->off + f[i]->size > end)
			end = f[i]->off + f[i]->size;
	return end < l->task_size ? end : l->task_size;
}

int ks_layout_init(const struct ks_target *t, const struct ks_arch *arch,
		   struct ks_kernel_layout *l, const struct ks_reporter *rep)
{
	struct lookup lk = { .t = t, .arch = arch, .rep = rep };
	long tu;

	lk.to_fail = (struct ks_reporter){ .say = table_fail, .arg = &lk };
	memset(l, 0, sizeof(*l));
	task_fields(&lk, l);
	thread_fields(&lk, l);
	mm_fields(&lk, l);
	optional_fields(&lk, l);
	last_ran_fields(&lk, l);
	hung_task_fields(&lk, l);
	if (!lk.ret && t->ops->symbol(t->ctx, "init_task", &l->init_task))
		fail(&lk, -ENOENT, "no symbol init_task");
	timekeeper(&lk, l);
	nodename(&lk, l);
	if (lk.ret)
		return lk.ret;
	/* union thread_union is exactly THREAD_SIZE (16 KiB, 32 KiB with KASAN). */
	tu = t->ops->type_size(t->ctx, "thread_union");
	l->thread_size = tu > 0 ? (uint64_t)tu : arch->thread_size;
	l->task_read_size = task_read_size(l);
	state_letters(t, l);
	return 0;
}
