// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The walk replayed on real frames recorded from guests: it must print
 * exactly what the running kernel printed.
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

#include "orc_fixture.h"

/*
 * Real frames: each fixture holds the used stacks of some tasks of a
 * Debian 6.1.0-56 guest (cloud and generic flavours), the ORC entries
 * their walks look up (vmlinux's and modules'), and the guest's own
 * /proc/PID/stack for each; record.sh says how they were made.  Replayed
 * here, the walk must print exactly what the running kernel printed.
 */
#define FIXTURES	"tests/fixtures/orc/"
#define MAX_TASKS	64
#define MAX_MODS	8

struct replay_task {
	int pid;
	uint64_t stack, sp, task;
	char expect[4096];
};

struct replay_orc {
	struct orc_spec *v;
	size_t nr;
};

struct replay_mod {
	char name[KS_MODULE_NAME_LEN];
	uint64_t base, text_end, core_end;
	struct replay_orc orc;
};

struct replay {
	struct ks_fake *f;
	struct replay_orc orc;
	struct replay_mod mods[MAX_MODS];
	size_t nr_mods;
	struct replay_task tasks[MAX_TASKS];
	size_t nr_tasks;
	uint8_t seg[KS_THREAD_SIZE_X86_64];
	uint64_t seg_addr;
	size_t seg_len;
};

static void replay_flush(struct replay *r)
{
	if (r->seg_len)
		assert_int_equal(ks_fake_add_memory(r->f, r->seg_addr, r->seg, r->seg_len), 0);
	r->seg_len = 0;
}

/* Consecutive "mem" lines become one segment. */
static void replay_mem(struct replay *r, uint64_t addr, const char *hex)
{
	size_t n = strlen(hex) / 2, i;
	unsigned int byte;

	if (r->seg_len && (addr != r->seg_addr + r->seg_len ||
			   r->seg_len + n > sizeof(r->seg)))
		replay_flush(r);
	if (!r->seg_len)
		r->seg_addr = addr;
	for (i = 0; i < n; i++) {
		assert_int_equal(sscanf(hex + 2 * i, "%2x", &byte), 1);
		r->seg[r->seg_len++] = (uint8_t)byte;
	}
}

static struct replay_task *replay_task_of(struct replay *r, int pid)
{
	size_t i;

	for (i = 0; i < r->nr_tasks; i++)
		if (r->tasks[i].pid == pid)
			return &r->tasks[i];
	fail_msg("fixture: expect line for unknown pid %d", pid);
	return NULL;
}

static struct replay_mod *replay_mod_of(struct replay *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_mods; i++)
		if (!strcmp(r->mods[i].name, name))
			return &r->mods[i];
	assert_true(r->nr_mods < MAX_MODS);
	snprintf(r->mods[r->nr_mods].name, KS_MODULE_NAME_LEN, "%s", name);
	return &r->mods[r->nr_mods++];
}

/* "IP SP_OFF BP_OFF SP_REG BP_REG TYPE END" into a table being collected. */
static void replay_entry(struct replay_orc *orc, const char *text)
{
	unsigned long long ip;
	struct orc_spec *o;

	orc->v = realloc(orc->v, (orc->nr + 1) * sizeof(*orc->v));
	assert_non_null(orc->v);
	o = &orc->v[orc->nr++];
	assert_int_equal(sscanf(text, "%llx %d %d %d %d %d %d", &ip, &o->sp_offset,
				&o->bp_offset, &o->sp_reg, &o->bp_reg, &o->type,
				&o->end), 7);
	o->ip = ip;
}

static void replay_line(struct replay *r, char *line)
{
	char name[256], member[256], rest[4096];
	unsigned long long a, b, c;
	struct replay_task *task;
	struct replay_mod *mod;
	int pid, n;

	if (sscanf(line, "symbol %255s %llx", name, &a) == 2) {
		ks_fake_add_symbol(r->f, name, a, 0, NULL);
	} else if (sscanf(line, "sym %255s %llx %llx %255s", name, &a, &b, member) == 4) {
		ks_fake_add_symbol(r->f, name, a, b, member);
	} else if (sscanf(line, "sym %255s %llx %llx", name, &a, &b) == 3) {
		ks_fake_add_symbol(r->f, name, a, b, NULL);
	} else if (sscanf(line, "type %255s %llu", name, &a) == 2) {
		ks_fake_add_type(r->f, name, (long)a);
	} else if (sscanf(line, "member %255s %255s %llu", name, member, &a) == 3) {
		ks_fake_add_member(r->f, name, member, (long)a, 8);
	} else if (!strncmp(line, "orc ", 4)) {
		replay_entry(&r->orc, line + 4);
	} else if (sscanf(line, "module %255s %llx %llx %llx", name, &a, &b, &c) == 4) {
		mod = replay_mod_of(r, name);
		mod->base = a;
		mod->text_end = b;
		mod->core_end = c;
	} else if (sscanf(line, "morc %255s %n", name, &n) == 1) {
		replay_entry(&replay_mod_of(r, name)->orc, line + n);
	} else if (sscanf(line, "task %d %llx %llx %llx", &pid, &a, &b, &c) >= 3) {
		assert_true(r->nr_tasks < MAX_TASKS);
		task = &r->tasks[r->nr_tasks++];
		task->pid = pid;
		task->stack = a;
		task->sp = b;
		task->task = sscanf(line, "task %*d %*x %*x %llx", &c) == 1 ? c : 0;
	} else if (sscanf(line, "mem %llx %4095s", &a, rest) == 2) {
		replay_mem(r, a, rest);
	} else if (sscanf(line, "expect %d %n", &pid, &n) == 1) {
		task = replay_task_of(r, pid);
		strncat(task->expect, line + n, sizeof(task->expect) - strlen(task->expect) - 2);
		strcat(task->expect, "\n");
	} else if (line[0] && line[0] != '#') {
		fail_msg("fixture: bad line '%s'", line);
	}
}

static int orc_spec_cmp(const void *a, const void *b)
{
	const struct orc_spec *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* Sorted, without repeats: the table the kernel would search. */
static size_t replay_sort(struct replay_orc *orc)
{
	size_t i, n = 0;

	qsort(orc->v, orc->nr, sizeof(*orc->v), orc_spec_cmp);
	for (i = 0; i < orc->nr; i++)
		if (!n || memcmp(&orc->v[i], &orc->v[n - 1], sizeof(*orc->v)))
			orc->v[n++] = orc->v[i];
	return n;
}

/* The recorded vmlinux entries as vmlinux's table. */
static void replay_vmlinux(struct replay *r)
{
	uint64_t ip_addr, orc_addr;
	size_t n = replay_sort(&r->orc);

	assert_true(n > 0);
	/* below the text, within reach of the int32 offsets */
	ip_addr = (r->orc.v[0].ip & ~0xfffULL) - 0x10000000;
	orc_addr = ip_addr + 0x100000;
	add_vmlinux_orc(r->f, ip_addr, orc_addr, r->orc.v, n);
}

/* The recorded modules on a `modules` list, each with its entries. */
static void replay_modules(struct replay *r)
{
	uint64_t next = MODULES_ADDR, ip_addr, orc_addr, mod;
	size_t i, n;

	if (!r->nr_mods)
		return;
	orc_add_types(r->f);
	ks_fake_add_symbol(r->f, "modules", MODULES_ADDR, 0, NULL);
	for (i = r->nr_mods; i-- > 0;) {
		struct replay_mod *m = &r->mods[i];

		n = replay_sort(&m->orc);
		/*
		 * The tables go where the recording has nothing, past its
		 * core; the module's memory is stretched over them, as the
		 * kernel keeps them in the module's own memory.
		 */
		ip_addr = m->base + 0x10000000;
		orc_addr = ip_addr + 0x100000;
		add_orc_table(r->f, ip_addr, orc_addr, m->orc.v, n);
		mod = MOD_STRUCT + 0x400 * i;
		put_module_sized(r->f, mod, m->name, next, m->base,
				 (uint32_t)(m->text_end - m->base),
				 (uint32_t)(orc_addr + KS_ORC_ENTRY_SIZE * n - m->base),
				 (uint32_t)n, ip_addr, orc_addr);
		next = mod + M_LIST;
	}
	assert_int_equal(ks_fake_add_memory(r->f, MODULES_ADDR, &next, 8), 0);
}

static void replay_free(struct replay *r)
{
	size_t i;

	for (i = 0; i < r->nr_mods; i++)
		free(r->mods[i].orc.v);
	free(r->orc.v);
	ks_fake_destroy(r->f);
	free(r);
}

static struct replay *replay_load(const char *path)
{
	struct replay *r = calloc(1, sizeof(*r));
	char line[8192];
	FILE *fp;

	assert_non_null(r);
	fp = fopen(path, "r");
	if (!fp)
		fail_msg("cannot open %s: run the tests from the top of the tree", path);
	r->f = ks_fake_create();
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		replay_line(r, line);
	}
	fclose(fp);
	replay_flush(r);
	replay_vmlinux(r);
	replay_modules(r);
	return r;
}

static void replay_check(const char *path, size_t min_tasks, size_t min_mods)
{
	struct replay *r = replay_load(path);
	struct ks_target t;
	struct ks_orc *orc;
	size_t i;

	ks_fake_target(r->f, &t);
	assert_int_equal(ks_orc_load(&t, &orc), 0);
	assert_true(r->nr_tasks >= min_tasks);
	assert_true(orc->nr_mods >= min_mods);

	for (i = 0; i < r->nr_tasks; i++) {
		struct ks_stack_start st = {
			.stack_base = r->tasks[i].stack,
			.stack_size = KS_THREAD_SIZE_X86_64,
			.thread_sp = r->tasks[i].sp,
			.task = r->tasks[i].task,
		};
		const char *note = "unset";
		char *text = NULL;

		assert_int_equal(ks_stack_text(&t, orc, &st, &text, &note), 0);
		if (strcmp(text, r->tasks[i].expect))
			print_error("%s: pid %d\n--- live\n%s--- replay\n%s", path,
				    r->tasks[i].pid, r->tasks[i].expect, text);
		assert_string_equal(text, r->tasks[i].expect);
		if (note)
			print_error("%s: pid %d: %s\n", path, r->tasks[i].pid, note);
		assert_null(note);
		free(text);
	}
	ks_orc_free(orc);
	replay_free(r);
}

static void test_real_stacks_cloud(void **state)
{
	(void)state;
	replay_check(FIXTURES "basic.txt", 20, 0);
}

/* The generic flavour has ext4 as a module: a " [ext4]" frame. */
static void test_real_stacks_generic(void **state)
{
	(void)state;
	replay_check(FIXTURES "basic-generic.txt", 5, 1);
}

/*
 * Kretprobes on pipe_read and do_wait, the function-graph tracer on
 * hrtimer_nanosleep: return addresses on these stacks are trampolines,
 * and the real ones come from the task's rethooks list and ret_stack.
 */
static void test_real_stacks_traced(void **state)
{
	(void)state;
	replay_check(FIXTURES "trace.txt", 5, 0);
}

/*
 * A page fault taken in kernel mode (pipe_read copying into a clean
 * shared mapping on a frozen ext4) blocks in page_mkwrite: the walk goes
 * through the exception's pt_regs to the exact faulting ip.
 */
static void test_real_stacks_fault(void **state)
{
	(void)state;
	replay_check(FIXTURES "fault.txt", 3, 0);
}

/* PREEMPT_RT: sleeping spinlocks, printk's kthread in a .cold part. */
static void test_real_stacks_rt(void **state)
{
	(void)state;
	replay_check(FIXTURES "rt.txt", 20, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_real_stacks_cloud),
		cmocka_unit_test(test_real_stacks_generic),
		cmocka_unit_test(test_real_stacks_traced),
		cmocka_unit_test(test_real_stacks_fault),
		cmocka_unit_test(test_real_stacks_rt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
