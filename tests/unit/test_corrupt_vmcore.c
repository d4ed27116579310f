// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The walkers on a real vmcore whose memory is damaged on the way in: a
 * layer over the libkdumpfile target overwrites chosen bytes as they are
 * read, so each case is one wrong pointer or count in an otherwise
 * intact kernel.  For each case: the walk ends within seconds (an alarm
 * kills a hang), the damaged list, module or task is named, and every
 * task the damage does not touch prints the stack it prints on the clean
 * dump.  Run under ASan/UBSan (make check), a sanitizer report fails it.
 * The same layer puts CPUs inside __schedule() (rq->curr already the
 * next task): --cpus shows the task whose stack each is still on.
 *
 * Prints SKIP and passes when ${KSTACK_VMCORE_DIR:-cache/vmcores/basic}
 * is absent; a dump that is there but does not open fails every case.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "cpus_walk.h"
#include "hooks.h"
#include "kernel_tasks.h"
#include "live_sample.h"
#include "options.h"
#include "said.h"
#include "target_kdump.h"

/* A case that takes longer than this hangs. */
#define CASE_SECONDS	30
#define MAX_PATCHES	8
#define MAX_TASKS	4096

struct patch {
	uint64_t addr;
	size_t len;
	uint8_t bytes[8];
};

/* The damaging layer: the real target plus the bytes to overwrite. */
struct damage {
	struct ks_target real;
	struct patch p[MAX_PATCHES];
	int n;
	int regs_cpu;		/* the CPU whose registers are regs, or -1 */
	struct ks_regs regs;
};

struct clean_task {
	int32_t pid;
	char *stack;
};

struct result {
	struct ks_sample s;
	struct ks_kernel_status st;
	char *msgs;
	size_t msgs_len;
	FILE *msgf;
};

static struct ks_kdump *kd;
static struct damage dmg;
static struct ks_target target;	/* the damaging one */
static struct clean_task clean[MAX_TASKS];
static size_t nr_clean;
static bool opened;
static bool open_failed;	/* the dump is there and does not open */

static int d_read(void *ctx, uint64_t kaddr, void *buf, size_t len)
{
	struct damage *d = ctx;
	int ret = d->real.ops->read(d->real.ctx, kaddr, buf, len);

	if (ret)
		return ret;
	for (int i = 0; i < d->n; i++) {
		const struct patch *p = &d->p[i];
		uint64_t lo = p->addr > kaddr ? p->addr : kaddr;
		uint64_t hi = p->addr + p->len < kaddr + len ? p->addr + p->len
							      : kaddr + len;

		if (lo < hi)
			memcpy((uint8_t *)buf + (lo - kaddr),
			       p->bytes + (lo - p->addr), hi - lo);
	}
	return 0;
}

static int d_read_user(void *ctx, uint64_t task, uint64_t uaddr, void *buf,
		       size_t len)
{
	struct damage *d = ctx;

	return d->real.ops->read_user(d->real.ctx, task, uaddr, buf, len);
}

static int d_symbol(void *ctx, const char *name, uint64_t *addr_ret)
{
	struct damage *d = ctx;

	return d->real.ops->symbol(d->real.ctx, name, addr_ret);
}

static int d_lookup(void *ctx, uint64_t addr, struct ks_sym *sym_ret)
{
	struct damage *d = ctx;

	return d->real.ops->lookup(d->real.ctx, addr, sym_ret);
}

static long d_member_offset(void *ctx, const char *type, const char *member)
{
	struct damage *d = ctx;

	return d->real.ops->member_offset(d->real.ctx, type, member);
}

static long d_type_size(void *ctx, const char *type)
{
	struct damage *d = ctx;

	return d->real.ops->type_size(d->real.ctx, type);
}

static long d_member_size(void *ctx, const char *type, const char *member)
{
	struct damage *d = ctx;

	return d->real.ops->member_size(d->real.ctx, type, member);
}

static int d_cpu_regs(void *ctx, int cpu, struct ks_regs *regs_ret)
{
	struct damage *d = ctx;

	if (cpu == d->regs_cpu) {
		*regs_ret = d->regs;
		return 0;
	}
	return d->real.ops->cpu_regs(d->real.ctx, cpu, regs_ret);
}

static const struct ks_target_ops damage_ops = {
	.read = d_read,
	.read_user = d_read_user,
	.symbol = d_symbol,
	.lookup = d_lookup,
	.member_offset = d_member_offset,
	.type_size = d_type_size,
	.member_size = d_member_size,
	.cpu_regs = d_cpu_regs,
};

static void damage(uint64_t addr, const void *bytes, size_t len)
{
	struct patch *p = &dmg.p[dmg.n++];

	assert_true(dmg.n <= MAX_PATCHES && len <= sizeof(p->bytes));
	p->addr = addr;
	p->len = len;
	memcpy(p->bytes, bytes, len);
}

static void damage_u64(uint64_t addr, uint64_t v)
{
	damage(addr, &v, sizeof(v));
}

static uint64_t rd64(uint64_t addr)
{
	uint64_t v;

	assert_int_equal(ks_read_u64(&target, addr, &v), 0);
	return v;
}

static uint64_t sym(const char *name)
{
	uint64_t v;

	assert_int_equal(target.ops->symbol(target.ctx, name, &v), 0);
	return v;
}

static uint64_t off(const char *type, const char *member)
{
	long o = target.ops->member_offset(target.ctx, type, member);

	assert_true(o >= 0);
	return (uint64_t)o;
}

static void collect(void *arg, enum ks_say_level level, const char *msg)
{
	struct result *r = arg;

	(void)level;
	fprintf(r->msgf, "%s\n", msg);
}

static void on_alarm(int sig)
{
	static const char msg[] = "FAIL: the walk did not end in "
				  "time: it hangs on damaged memory\n";

	(void)sig;
	if (write(2, msg, sizeof(msg) - 1) < 0)
		_exit(3);
	_exit(2);
}

static void parse(const char *args, struct ks_options *opts)
{
	char buf[256], *argv[16];
	int argc = 0;

	snprintf(buf, sizeof(buf), "kstack %s", args);
	for (char *p = strtok(buf, " "); p && argc < 15; p = strtok(NULL, " "))
		argv[argc++] = p;
	argv[argc] = NULL;
	assert_int_equal(ks_options_parse(opts, KS_CTX_CRASH, argc, argv, NULL,
					  NULL, NULL), 0);
}

/* The whole task walk, kernel opened afresh, as one kstack command. */
static void sample(const char *args, struct result *r)
{
	struct ks_options opts;
	struct ks_walk_opts walk;
	struct ks_kernel *k;

	memset(r, 0, sizeof(*r));
	r->msgf = open_memstream(&r->msgs, &r->msgs_len);
	assert_non_null(r->msgf);
	parse(args, &opts);
	walk = (struct ks_walk_opts){ &opts.sel, opts.out.waits,
				      opts.out.verbose };
	alarm(CASE_SECONDS);
	assert_int_equal(ks_kernel_open(&target, &k, NULL), 0);
	ks_sample_init(&r->s, 0, "x");
	assert_int_equal(ks_kernel_walk(k, &walk, &r->s, &r->st,
					&REPORT_TO(collect, r)), 0);
	ks_kernel_close(k);
	alarm(0);
	ks_options_release(&opts);
	fclose(r->msgf);
	printf("%s", r->msgs);
}

static void result_release(struct result *r)
{
	ks_sample_release(&r->s);
	free(r->msgs);
}

static const char *clean_stack(int32_t pid)
{
	for (size_t i = 0; i < nr_clean; i++)
		if (clean[i].pid == pid)
			return clean[i].stack;
	return NULL;
}

static const struct ks_task *task_of(const struct result *r, int32_t pid)
{
	for (size_t i = 0; i < r->s.nr_tasks; i++)
		if (r->s.tasks[i].pid == pid)
			return &r->s.tasks[i];
	return NULL;
}

/*
 * Every task but the damaged ones (skip, skip2; 0 for none) prints its
 * clean stack; returns how many do.
 */
static size_t expect_clean_stacks2(const struct result *r, int32_t skip,
				   int32_t skip2)
{
	size_t same = 0;

	for (size_t i = 0; i < r->s.nr_tasks; i++) {
		const struct ks_task *t = &r->s.tasks[i];
		const char *want = clean_stack(t->pid);

		if (t->pid == skip || t->pid == skip2)
			continue;
		assert_non_null(want);
		if (strcmp(want, t->stack))
			fail_msg("PID %d: the stack differs from the clean "
				 "dump's:\n%s--- clean:\n%s", t->pid, t->stack,
				 want);
		same++;
	}
	return same;
}

static size_t expect_clean_stacks(const struct result *r, int32_t skip)
{
	return expect_clean_stacks2(r, skip, 0);
}

static void expect_msg(const struct result *r, const char *what)
{
	if (!strstr(r->msgs, what))
		fail_msg("no message with \"%s\" in:\n%s", what, r->msgs);
}

/*
 * A test that needs the vmcore: skipped without one.  Its body runs only
 * when the dump is open, so it may read the dump in its declarations.
 */
#define VMCORE_TEST(name)						\
	static void name##_body(void);					\
	static void name(void **state)					\
	{								\
		(void)state;						\
		if (open_failed)					\
			fail_msg("the vmcore is there but does not open"); \
		if (!kd)						\
			skip();						\
		name##_body();						\
	}								\
	static void name##_body(void)

/* ---- the task list ---- */

/* The n-th process on init_task.tasks: its task_struct. */
static uint64_t nth_process(int n)
{
	uint64_t toff = off("task_struct", "tasks");
	uint64_t head = sym("init_task") + toff, node = rd64(head);

	for (int i = 0; i < n; i++) {
		node = rd64(node);
		assert_true(node != head);
	}
	return node - toff;
}

static int32_t pid_of(uint64_t task)
{
	int32_t pid;

	assert_int_equal(ks_read(&target, task + off("task_struct", "pid"),
				 &pid, 4), 0);
	return pid;
}

VMCORE_TEST(test_clean)
{
	struct result r;

	sample("-a -H", &r);
	assert_true(r.s.nr_tasks > 10);
	assert_int_equal(expect_clean_stacks(&r, 0), r.s.nr_tasks);
	assert_int_equal(r.st.nr_list_errors, 0);
	result_release(&r);
}

VMCORE_TEST(test_task_list_loop)
{
	uint64_t toff = off("task_struct", "tasks");
	uint64_t early = nth_process(3), late = nth_process(12);
	struct result r;

	/* the 13th process's next is the 4th: the list never comes back */
	damage_u64(late + toff, early + toff);
	sample("-a -H", &r);
	expect_msg(&r, "the task list (init_task.tasks) loops");
	assert_int_equal(r.st.nr_list_errors, 1);
	assert_non_null(task_of(&r, pid_of(late)));
	assert_true(expect_clean_stacks(&r, 0) >= 12);
	result_release(&r);
}

/* ---- the module list ---- */

static uint64_t first_module(void)
{
	return rd64(sym("modules")) - off("module", "list");
}

/* Stacks that pass through no module must stay as they were. */
static void expect_modules_cost_nothing(const struct result *r)
{
	assert_null(strstr(r->msgs, "no ORC unwind tables"));
	assert_true(expect_clean_stacks(r, 0) > 10);
}

VMCORE_TEST(test_module_lists_itself)
{
	uint64_t mod = first_module(), list = mod + off("module", "list");
	struct result r;

	damage_u64(list, list);
	sample("-a", &r);
	expect_msg(&r, "the module list (modules) loops");
	expect_modules_cost_nothing(&r);
	result_release(&r);
}

VMCORE_TEST(test_module_list_back_to_first)
{
	uint64_t head = sym("modules");
	uint64_t first = rd64(head), node = first;
	struct result r;

	/* the last module's next is the first: no way back to the head */
	while (rd64(node) != head)
		node = rd64(node);
	damage_u64(node, first);
	sample("-a", &r);
	expect_msg(&r, "the module list (modules) loops");
	expect_modules_cost_nothing(&r);
	result_release(&r);
}

VMCORE_TEST(test_module_pointer_garbage)
{
	struct result r;

	damage_u64(sym("modules"), 0xdead000000000100ull);
	sample("-a", &r);
	expect_msg(&r, "the module list (modules) breaks off");
	expect_modules_cost_nothing(&r);
	result_release(&r);
}

VMCORE_TEST(test_num_orcs_huge)
{
	uint64_t mod = first_module();
	uint64_t num = mod + off("module", "arch") +
		       off("mod_arch_specific", "num_orcs");
	uint32_t bad = 0xffffffff;
	char name[64] = "", want[128];
	struct result r;

	assert_int_equal(ks_read(&target, mod + off("module", "name"), name,
				 sizeof(name) - 1), 0);
	damage(num, &bad, sizeof(bad));
	sample("-a", &r);
	snprintf(want, sizeof(want), "module %s", name);
	expect_msg(&r, want);
	expect_msg(&r, "num_orcs");
	expect_modules_cost_nothing(&r);
	result_release(&r);
}

/* ---- one task's stack ---- */

/* A process with a clean stack of at least two frames: its task_struct. */
static uint64_t blocked_process(int from)
{
	for (int i = from; i < from + 200; i++) {
		uint64_t task = nth_process(i);
		const char *stack = clean_stack(pid_of(task));

		if (stack && strchr(stack, '\n') && strchr(stack, '\n')[1])
			return task;
	}
	fail_msg("no process with a stack");
	return 0;
}

/* task_struct.cpu, or thread_info.cpu inside it (before 5.16, and in some configs). */
static uint64_t cpu_off(void)
{
	long o = target.ops->member_offset(target.ctx, "task_struct", "cpu");

	if (o >= 0)
		return (uint64_t)o;
	return off("task_struct", "thread_info") + off("thread_info", "cpu");
}

static void expect_note(const struct result *r, int32_t pid)
{
	const struct ks_task *t = task_of(r, pid);

	assert_non_null(t);
	if (!t->note)
		fail_msg("PID %d: stack \"%s\" and no note", pid, t->stack);
	printf("PID %d: note: %s\n", pid, t->note);
}

VMCORE_TEST(test_stack_pointer_garbage)
{
	uint64_t task = blocked_process(1);
	uint64_t base = rd64(task + off("task_struct", "stack"));
	int32_t pid = pid_of(task);
	struct result r;

	/* thread.sp at the lowest address of the stack, not a frame */
	damage_u64(task + off("task_struct", "thread.sp"), base);
	sample("-a", &r);
	expect_note(&r, pid);
	assert_true(expect_clean_stacks(&r, pid) > 10);
	result_release(&r);
}

VMCORE_TEST(test_stack_null)
{
	uint64_t task = blocked_process(1);
	int32_t pid = pid_of(task);
	struct result r;

	damage_u64(task + off("task_struct", "stack"), 0);
	sample("-a", &r);
	expect_note(&r, pid);
	assert_string_equal(task_of(&r, pid)->stack, "");
	assert_true(expect_clean_stacks(&r, pid) > 10);
	result_release(&r);
}

VMCORE_TEST(test_on_cpu_bogus)
{
	uint64_t task = blocked_process(1), other = blocked_process(20);
	int32_t pid = pid_of(task), pid2 = pid_of(other);
	uint32_t yes = 1, cpu0 = 0, far = 4095;
	struct result r;

	/* on a CPU whose registers are another task's, and on no CPU at all */
	damage(task + off("task_struct", "on_cpu"), &yes, 4);
	damage(task + cpu_off(), &cpu0, 4);
	damage(other + off("task_struct", "on_cpu"), &yes, 4);
	damage(other + cpu_off(), &far, 4);
	sample("-a", &r);
	expect_note(&r, pid);
	expect_note(&r, pid2);
	assert_true(expect_clean_stacks2(&r, pid, pid2) > 10);
	result_release(&r);
}

/* ---- a CPU caught inside __schedule() ---- */

/* --cpus on the (damaged) dump, kernel opened afresh. */
static void cpus(struct ks_cpus *cs)
{
	struct ks_kernel *k;

	alarm(CASE_SECONDS);
	assert_int_equal(ks_kernel_open(&target, &k, NULL), 0);
	assert_int_equal(ks_cpus_walk(k, cs, NULL), 0);
	ks_kernel_close(k);
	alarm(0);
}

/*
 * The CPU runs on its task's stack (not an IRQ or exception stack), and
 * the task is on the lists or the idle task: not one exiting, which
 * release_task() took off them (the snoop dump's kstack in do_exit()).
 */
static bool on_task_stack(const struct ks_cpu *c)
{
	uint64_t stack = rd64(c->task + off("task_struct", "stack"));
	long size = target.ops->type_size(target.ctx, "thread_union");

	return c->has_regs && !c->user && !c->note &&
	       (c->idle || clean_stack(c->pid)) &&
	       c->regs.sp - stack < (uint64_t)(size > 0 ? size : 16384);
}

static void expect_same_trace(const struct ks_cpu *c, const struct ks_cpu *want)
{
	assert_int_equal(c->pid, want->pid);
	assert_string_equal(c->comm, want->comm);
	assert_int_equal(c->nr_lines, want->nr_lines);
	for (size_t i = 0; i < c->nr_lines; i++)
		assert_string_equal(c->lines[i].text, want->lines[i].text);
	assert_null(c->note);
}

static uint64_t rq_curr(int cpu)
{
	return sym("runqueues") + rd64(sym("__per_cpu_offset") +
				       8 * (uint64_t)cpu) + off("rq", "curr");
}

/*
 * Each CPU on a task stack gets a rq->curr naming a sleeping process, as
 * between "rq->curr = next" and the stack switch: --cpus still shows the
 * task and trace of the intact dump (the idle task's too), and names
 * rq->curr on the Switching line.
 */
VMCORE_TEST(test_cpu_switching)
{
	uint64_t next = blocked_process(1);
	int32_t next_pid = pid_of(next);
	struct ks_cpus clean_cpus, cs;
	size_t switched = 0;

	cpus(&clean_cpus);
	for (size_t i = 0; i < clean_cpus.nr && dmg.n < MAX_PATCHES; i++) {
		const struct ks_cpu *c = &clean_cpus.cpu[i];

		if (on_task_stack(c) && c->pid != next_pid)
			damage_u64(rq_curr(c->cpu), next);
	}
	if (!dmg.n)
		fail_msg("no CPU of the dump runs on a task stack in the "
			 "kernel (the basic dump's offline CPU does, in "
			 "hlt_play_dead())");
	cpus(&cs);
	assert_int_equal(cs.nr, clean_cpus.nr);
	for (size_t i = 0; i < cs.nr; i++) {
		const struct ks_cpu *c = &cs.cpu[i];

		if (!on_task_stack(&clean_cpus.cpu[i]) ||
		    clean_cpus.cpu[i].pid == next_pid)
			continue;
		expect_same_trace(c, &clean_cpus.cpu[i]);
		assert_true(c->switching);
		assert_int_equal(c->next_pid, next_pid);
		printf("CPU %d: PID %d (%s), switching to PID %d, %zu lines\n",
		       c->cpu, c->pid, c->comm, c->next_pid, c->nr_lines);
		switched++;
	}
	assert_int_equal(switched, (size_t)dmg.n);
	ks_cpus_release(&cs);
	ks_cpus_release(&clean_cpus);
}

/*
 * A process of the lists caught leaving CPU 0: its on_cpu set, CPU 0's
 * registers on its stack, rq->curr another process.  --cpus finds it
 * through the task list and names it, whatever its trace.
 */
VMCORE_TEST(test_cpu_switching_task)
{
	uint64_t prev = blocked_process(1), next = blocked_process(20);
	uint64_t stack = rd64(prev + off("task_struct", "stack"));
	uint32_t yes = 1, cpu0 = 0;
	struct ks_cpus cs;

	assert_int_not_equal(pid_of(prev), pid_of(next));
	damage(prev + off("task_struct", "on_cpu"), &yes, 4);
	damage(prev + cpu_off(), &cpu0, 4);
	damage_u64(rq_curr(0), next);
	dmg.regs_cpu = 0;
	dmg.regs = (struct ks_regs){ .ip = sym("schedule"), .sp = stack + 0x3000,
				     .bp = stack + 0x3000 };
	cpus(&cs);
	assert_true(cs.nr > 0 && cs.cpu[0].cpu == 0);
	assert_int_equal(cs.cpu[0].task, prev);
	assert_int_equal(cs.cpu[0].pid, pid_of(prev));
	assert_true(cs.cpu[0].switching);
	assert_int_equal(cs.cpu[0].next_pid, pid_of(next));
	assert_false(cs.cpu[0].idle);
	printf("CPU 0: PID %d (%s), switching to PID %d\n", cs.cpu[0].pid,
	       cs.cpu[0].comm, cs.cpu[0].next_pid);
	ks_cpus_release(&cs);
}

/*
 * Two processes on_cpu on CPU 0, its registers on the stack of one: the
 * other is switching onto it (prepare_task() set its on_cpu), and its
 * stack is the one its last switch saved, as on the intact dump, with a
 * note.  Every task but the two and CPU 0's own prints its clean stack.
 */
VMCORE_TEST(test_task_switching_in)
{
	uint64_t next = blocked_process(1), prev = blocked_process(20);
	uint64_t stack = rd64(prev + off("task_struct", "stack"));
	int32_t next_pid = pid_of(next), prev_pid = pid_of(prev);
	uint32_t yes = 1, cpu0 = 0;
	const struct ks_task *t;
	struct ks_cpus clean_cpus;
	struct result r;
	int32_t ran;

	cpus(&clean_cpus);
	ran = clean_cpus.cpu[0].pid;	/* its registers are replaced */
	ks_cpus_release(&clean_cpus);
	damage(next + off("task_struct", "on_cpu"), &yes, 4);
	damage(next + cpu_off(), &cpu0, 4);
	damage(prev + off("task_struct", "on_cpu"), &yes, 4);
	damage(prev + cpu_off(), &cpu0, 4);
	dmg.regs_cpu = 0;
	dmg.regs = (struct ks_regs){ .ip = sym("schedule"), .sp = stack + 0x3000,
				     .bp = stack + 0x3000 };
	sample("-a -H", &r);
	t = task_of(&r, next_pid);
	assert_non_null(t);
	assert_true(t->running);
	assert_non_null(t->note);
	assert_non_null(strstr(t->note, "switching onto CPU 0"));
	assert_string_equal(t->stack, clean_stack(next_pid));
	printf("PID %d: %s\n", next_pid, t->note);
	assert_true(expect_clean_stacks2(&r, prev_pid, ran) > 10);
	result_release(&r);
}

/* ---- ORC entries and two tasks on one stack (issue 27) ---- */

/*
 * Every task prints its clean stack, or a note says its stack is in
 * doubt: a wrong stack is never silent.  Returns how many have a note
 * and a stack other than the clean one.
 */
static size_t expect_clean_or_noted(const struct result *r)
{
	size_t noted = 0;

	for (size_t i = 0; i < r->s.nr_tasks; i++) {
		const struct ks_task *t = &r->s.tasks[i];
		const char *want = clean_stack(t->pid);

		assert_non_null(want);
		if (!strcmp(want, t->stack))
			continue;
		if (!t->note)
			fail_msg("PID %d: a wrong stack and no note:\n%s--- "
				 "clean:\n%s", t->pid, t->stack, want);
		noted++;
	}
	return noted;
}

/* The return address into do_wait that a waiting process's stack shows. */
static uint64_t do_wait_return(void)
{
	for (size_t i = 0; i < nr_clean; i++) {
		const char *p = strstr(clean[i].stack, "do_wait+0x");

		if (p)
			return sym("do_wait") + strtoull(p + 8, NULL, 16);
	}
	fail_msg("no task waits in do_wait");
	return 0;
}

static uint64_t orc_ip(uint64_t start, uint64_t i)
{
	int32_t off;

	assert_int_equal(ks_read(&target, start + 4 * i, &off, 4), 0);
	return start + 4 * i + (uint64_t)(int64_t)off;
}

/* __orc_find(): the index of the vmlinux entry that covers ip. */
static uint64_t orc_index(uint64_t ip)
{
	uint64_t start = sym("__start_orc_unwind_ip");
	uint64_t lo = 0, hi = (sym("__stop_orc_unwind_ip") - start) / 4 - 1;

	while (lo < hi) {
		uint64_t mid = lo + (hi - lo + 1) / 2;

		if (orc_ip(start, mid) <= ip)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

static void orc_sp_offset_by(int16_t delta)
{
	uint64_t i = orc_index(do_wait_return() - 1);
	uint64_t entry = sym("__start_orc_unwind") + 6 * i;
	int16_t sp_offset;
	struct result r;

	assert_int_equal(ks_read(&target, entry, &sp_offset, 2), 0);
	sp_offset += delta;
	damage(entry, &sp_offset, 2);
	sample("-a -H", &r);
	/* PIDs 1 and 125 printed only do_wait+0x114/0x320, without a word */
	assert_true(expect_clean_or_noted(&r) > 0);
	result_release(&r);
}

VMCORE_TEST(test_orc_sp_offset_plus_8)
{
	orc_sp_offset_by(8);
}

VMCORE_TEST(test_orc_sp_offset_minus_8)
{
	orc_sp_offset_by(-8);
}

/* occurrences of what in text */
static int count_of(const char *text, const char *what)
{
	int n = 0;

	for (const char *p = strstr(text, what); p; p = strstr(p + 1, what))
		n++;
	return n;
}

VMCORE_TEST(test_orc_unsorted)
{
	uint64_t start = sym("__start_orc_unwind_ip");
	uint64_t i = orc_index(do_wait_return() - 1);
	uint64_t a = orc_ip(start, i), b = orc_ip(start, i + 1);
	int32_t off_i = (int32_t)(b - (start + 4 * i));
	int32_t off_j = (int32_t)(a - (start + 4 * (i + 1)));
	struct result r;

	/* do_wait's entry and the next one swap places */
	damage(start + 4 * i, &off_i, 4);
	damage(start + 4 * (i + 1), &off_j, 4);
	sample("-a -H", &r);
	assert_int_equal(count_of(r.msgs, "vmlinux's ORC table is not sorted"), 1);
	expect_clean_or_noted(&r);
	result_release(&r);
}

static uint64_t process_of_pid(int32_t pid)
{
	for (int i = 0; i < 400; i++) {
		uint64_t task = nth_process(i);

		if (pid_of(task) == pid)
			return task;
	}
	fail_msg("no PID %d", pid);
	return 0;
}

VMCORE_TEST(test_two_tasks_one_stack)
{
	uint64_t kthreadd = process_of_pid(2), victim = blocked_process(20);
	uint64_t stack = off("task_struct", "stack");
	uint64_t sp = off("task_struct", "thread.sp");
	int32_t pid = pid_of(victim);
	char want[64];
	struct result r;

	/* the victim's stack and thread.sp are kthreadd's */
	damage_u64(victim + stack, rd64(kthreadd + stack));
	damage_u64(victim + sp, rd64(kthreadd + sp));
	sample("-a -H", &r);
	expect_note(&r, pid);
	snprintf(want, sizeof(want), "is PID 2's stack too");
	assert_non_null(strstr(task_of(&r, pid)->note, want));
	expect_msg(&r, want);
	assert_true(expect_clean_stacks2(&r, pid, 0) > 10);
	result_release(&r);
}

/* ---- ftrace_pages ---- */

static char *ftrace_report(char **err)
{
	const struct ks_hooks_opts h = { .ftrace = true };
	const struct ks_format_opts fo = { 0 };
	char *out = NULL;
	size_t len = 0, elen = 0;
	FILE *o = open_memstream(&out, &len);
	FILE *e = open_memstream(err, &elen);

	assert_non_null(o);
	assert_non_null(e);
	alarm(CASE_SECONDS);
	assert_int_equal(ks_hooks_report(&target, &h, &fo, o, &SAID_ON(e)),
			 0);
	alarm(0);
	fclose(o);
	fclose(e);
	return out;
}

/* The enabled_functions lines (before "== summary"). */
static size_t nr_records(const char *text)
{
	const char *end = strstr(text, "== summary\n");
	size_t n = 0;

	for (const char *p = text; p < end; p++)
		n += *p == '\n';
	return n;
}

VMCORE_TEST(test_ftrace_pages_loop)
{
	uint64_t nxt = off("ftrace_page", "next");
	uint64_t first = rd64(sym("ftrace_pages_start")), pg = first;
	char *clean_out, *out, *err;
	size_t want;

	clean_out = ftrace_report(&err);
	want = nr_records(clean_out);
	free(err);

	/* the first page is its own next: its records once, not forever */
	damage_u64(first + nxt, first);
	out = ftrace_report(&err);
	printf("%s", err);
	assert_non_null(strstr(err, "ftrace_pages"));
	assert_non_null(strstr(err, "loop"));
	assert_true(nr_records(out) <= want);
	free(out);
	free(err);

	/* the last page's next is the first: each record once */
	dmg.n = 0;
	while (rd64(pg + nxt))
		pg = rd64(pg + nxt);
	damage_u64(pg + nxt, first);
	out = ftrace_report(&err);
	printf("%s", err);
	assert_non_null(strstr(err, "loop"));
	assert_int_equal(nr_records(out), want);
	assert_string_equal(out, clean_out);
	free(out);
	free(err);
	free(clean_out);
}

/* ---- fixture ---- */

static int reset(void **state)
{
	(void)state;
	dmg.n = 0;
	dmg.regs_cpu = -1;
	return 0;
}

static void record_clean(void)
{
	struct result r;

	sample("-a -H", &r);
	for (size_t i = 0; i < r.s.nr_tasks && nr_clean < MAX_TASKS; i++) {
		clean[nr_clean].pid = r.s.tasks[i].pid;
		clean[nr_clean].stack = strdup(r.s.tasks[i].stack);
		assert_non_null(clean[nr_clean].stack);
		nr_clean++;
	}
	result_release(&r);
}

static int setup(void **state)
{
	const char *d = getenv("KSTACK_VMCORE_DIR");
	struct ks_kdump_args args = { .rep = &ks_live_reporter };
	char core[4200], vmlinux[4200];
	FILE *f;

	(void)state;
	signal(SIGALRM, on_alarm);
	snprintf(core, sizeof(core), "%s/vmcore", d ? d : "cache/vmcores/basic");
	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux",
		 d ? d : "cache/vmcores/basic");
	f = fopen(core, "r");
	if (!f) {
		printf("SKIP: no vmcore\n");
		return 0;
	}
	fclose(f);
	args.vmcore = core;
	args.vmlinux = vmlinux;
	if (ks_kdump_open(&args, &kd, &dmg.real)) {
		printf("FAIL: %s is there but does not open with libkdumpfile\n",
		       core);
		kd = NULL;
		open_failed = true;
		return 0;
	}
	dmg.regs_cpu = -1;
	target.ops = &damage_ops;
	target.ctx = &dmg;
	target.arch = dmg.real.arch;
	opened = true;
	record_clean();
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	for (size_t i = 0; i < nr_clean; i++)
		free(clean[i].stack);
	if (kd)
		ks_kdump_close(kd);
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_clean, reset),
		cmocka_unit_test_setup(test_task_list_loop, reset),
		cmocka_unit_test_setup(test_module_lists_itself, reset),
		cmocka_unit_test_setup(test_module_list_back_to_first, reset),
		cmocka_unit_test_setup(test_module_pointer_garbage, reset),
		cmocka_unit_test_setup(test_num_orcs_huge, reset),
		cmocka_unit_test_setup(test_stack_pointer_garbage, reset),
		cmocka_unit_test_setup(test_stack_null, reset),
		cmocka_unit_test_setup(test_on_cpu_bogus, reset),
		cmocka_unit_test_setup(test_cpu_switching, reset),
		cmocka_unit_test_setup(test_cpu_switching_task, reset),
		cmocka_unit_test_setup(test_task_switching_in, reset),
		cmocka_unit_test_setup(test_orc_sp_offset_plus_8, reset),
		cmocka_unit_test_setup(test_orc_sp_offset_minus_8, reset),
		cmocka_unit_test_setup(test_orc_unsorted, reset),
		cmocka_unit_test_setup(test_two_tasks_one_stack, reset),
		cmocka_unit_test_setup(test_ftrace_pages_loop, reset),
	};
	int total = (int)(sizeof(tests) / sizeof(tests[0]));
	int failed;

	/* KSTACK_TEST_FILTER=test_stack*: some cases only, when debugging */
	if (getenv("KSTACK_TEST_FILTER"))
		cmocka_set_test_filter(getenv("KSTACK_TEST_FILTER"));
	failed = cmocka_run_group_tests(tests, setup, teardown);

	/* skipped for want of a vmcore: nothing passed */
	if (!opened)
		total = failed;
	printf("%d passed, %d failed\n", total - failed, failed);
	return failed ? 1 : 0;
}
