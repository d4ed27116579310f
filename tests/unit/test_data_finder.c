// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The last symbol finder of a kallsyms that names text only: init_task
 * is the one swapper/0 in the data that is its own parent and leader on
 * a linked tasks list (a decoy that fails the list check is passed over,
 * and a decoy alone finds nothing, said once); init_uts_ns comes from
 * VMCOREINFO; arm64's ADRP + ADD/LDR decode to the addresses the real
 * 6.1 kernel's ktime_get_real_seconds() and get_kprobe() read; and of two
 * tables that get_kprobe() might read, the one whose nodes point back is
 * kprobe_table.  Found names are looked up by address; others are not.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "arm64.h"
#include "data_finder.h"
#include "fake_target.h"
#include "said.h"

#define EINITTEXT	0xffff8000093f4c0cull
#define DATA		0xffff800009810000ull
#define DATA_LEN	0x10000u
#define UTS		(DATA + 0xc000)
#define TEXT		0xffff8000081b3950ull

/* task_struct as the fake's types place it */
#define T_TASKS		0x10
#define T_PID		0x20
#define T_TGID		0x24
#define T_PARENT	0x28
#define T_LEADER	0x30
#define T_STACK		0x38
#define T_COMM		0x40

struct last_said {
	char msg[512];
	int nr;
};

static void record(void *arg, enum ks_say_level level, const char *msg)
{
	struct last_said *s = arg;

	(void)level;
	snprintf(s->msg, sizeof(s->msg), "%s", msg);
	s->nr++;
}

static struct ks_fake *fake(void)
{
	struct ks_fake *f = ks_fake_create();
	char vi[64];

	assert_non_null(f);
	assert_int_equal(ks_fake_add_memory(f, DATA, NULL, DATA_LEN), 0);
	assert_int_equal(ks_fake_add_symbol(f, "_einittext", EINITTEXT, 0, NULL), 0);
	snprintf(vi, sizeof(vi), "SYMBOL(init_uts_ns)=%llx\n",
		 (unsigned long long)UTS);
	assert_int_equal(ks_fake_set_vmcoreinfo(f, vi), 0);
	ks_fake_add_member(f, "task_struct", "tasks", T_TASKS, 16);
	ks_fake_add_member(f, "task_struct", "pid", T_PID, 4);
	ks_fake_add_member(f, "task_struct", "tgid", T_TGID, 4);
	ks_fake_add_member(f, "task_struct", "real_parent", T_PARENT, 8);
	ks_fake_add_member(f, "task_struct", "group_leader", T_LEADER, 8);
	ks_fake_add_member(f, "task_struct", "stack", T_STACK, 8);
	ks_fake_add_member(f, "task_struct", "comm", T_COMM, 16);
	ks_fake_add_member(f, "hlist_node", "pprev", 8, 8);
	return f;
}

/* A task at a named comm, with pid 0, its own parent and leader. */
static void task(struct ks_fake *f, uint64_t a, const char *comm, uint64_t next,
		 uint64_t prev)
{
	uint32_t zero = 0;

	assert_int_equal(ks_fake_write(f, a + T_COMM, comm, strlen(comm) + 1), 0);
	ks_fake_write(f, a + T_PID, &zero, 4);
	ks_fake_write(f, a + T_TGID, &zero, 4);
	ks_fake_write_u64(f, a + T_PARENT, a);
	ks_fake_write_u64(f, a + T_LEADER, a);
	ks_fake_write_u64(f, a + T_STACK, DATA);
	ks_fake_write_u64(f, a + T_TASKS, next);
	ks_fake_write_u64(f, a + T_TASKS + 8, prev);
}

/*
 * init_task at DATA+0x2000 and one more task at DATA+0x3000 on a ring;
 * a decoy at DATA+0x1000 that copies init_task, its list too, but that
 * the ring does not point back to; a bare "swapper/0" string.
 */
static void two_swappers(struct ks_fake *f, bool real)
{
	const uint64_t init = DATA + 0x2000, other = DATA + 0x3000;

	task(f, DATA + 0x1000, "swapper/0", other + T_TASKS, other + T_TASKS);
	if (real)
		task(f, init, "swapper/0", other + T_TASKS, other + T_TASKS);
	task(f, other, "sh", init + T_TASKS, init + T_TASKS);
	ks_fake_write(f, DATA + 0x5003, "swapper/0", 10);
}

static void test_init_task_decoy_passed_over(void **state)
{
	struct ks_fake *f = fake();
	struct ks_data_finder d;
	struct ks_target t;
	struct last_said s = { .nr = 0 };
	struct ks_sym sym;
	uint64_t a = 0;

	(void)state;
	two_swappers(f, true);
	ks_fake_target(f, &t);
	ks_data_finder_init(&d, &t, &REPORT_TO(record, &s));
	assert_int_equal(ks_data_finder_symbol(&d, "init_task", &a), 0);
	assert_true(a == DATA + 0x2000);
	assert_int_equal(s.nr, 0);
	/* found names are named by address, exactly */
	assert_int_equal(ks_data_finder_lookup(&d, a, &sym), 0);
	assert_string_equal(sym.name, "init_task");
	assert_int_equal(ks_data_finder_lookup(&d, a + 8, &sym), -ENOENT);
	/* init_uts_ns, which bounds the scan, and init_task */
	assert_int_equal(ks_data_finder_count(&d), 2);
	ks_fake_destroy(f);
}

static void test_decoy_alone_not_taken(void **state)
{
	struct ks_fake *f = fake();
	struct ks_data_finder d;
	struct ks_target t;
	struct last_said s = { .nr = 0 };
	uint64_t a = 0;

	(void)state;
	two_swappers(f, false);
	ks_fake_target(f, &t);
	ks_data_finder_init(&d, &t, &REPORT_TO(record, &s));
	assert_int_equal(ks_data_finder_symbol(&d, "init_task", &a), -ENOENT);
	assert_int_equal(s.nr, 1);
	assert_non_null(strstr(s.msg, "init_task: not in the dump's kallsyms"));
	assert_non_null(strstr(s.msg, "0 of the 2 \"swapper/0\""));
	/* asked again: the same answer, not said twice */
	assert_int_equal(ks_data_finder_symbol(&d, "init_task", &a), -ENOENT);
	assert_int_equal(s.nr, 1);
	/* a name it does not search for is no report */
	assert_int_equal(ks_data_finder_symbol(&d, "jiffies", &a), -ENOENT);
	assert_int_equal(s.nr, 1);
	ks_fake_destroy(f);
}

static void test_uts_from_vmcoreinfo(void **state)
{
	struct ks_fake *f = fake();
	struct ks_data_finder d;
	struct ks_target t;
	uint64_t a = 0;

	(void)state;
	ks_fake_target(f, &t);
	ks_data_finder_init(&d, &t, NULL);
	assert_int_equal(ks_data_finder_symbol(&d, "init_uts_ns", &a), 0);
	assert_true(a == UTS);
	ks_fake_destroy(f);
}

static void put32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)v;
	p[1] = (uint8_t)(v >> 8);
	p[2] = (uint8_t)(v >> 16);
	p[3] = (uint8_t)(v >> 24);
}

/* The words of the Debian 6.1.0-56-cloud-arm64 vmlinux, at their places. */
static void test_arm64_refs_of_real_code(void **state)
{
	uint8_t ktime[20], kp[8];
	struct ks_code_ref refs[4];

	(void)state;
	/* ktime_get_real_seconds: adrp x0; paciasp; autiasp; ldr x0, [x0, #2168]; ret */
	put32(ktime, 0xd000c700);
	put32(ktime + 4, 0xd503233f);
	put32(ktime + 8, 0xd50323bf);
	put32(ktime + 12, 0xf9443c00);
	put32(ktime + 16, 0xd65f03c0);
	assert_int_equal(ks_arm64_code_refs(ktime, sizeof(ktime),
					    0xffff80000815fcd8ull, refs, 4), 1);
	assert_true(refs[0].addr == 0xffff800009a41878ull);	/* tk_core + 0x78 */
	assert_int_equal(refs[0].size, 8);
	assert_false(refs[0].store);
	/* strb w1, [x0, #5] after the same adrp: a one-byte store */
	put32(ktime + 4, 0x39001401);
	assert_int_equal(ks_arm64_code_refs(ktime, 8, 0xffff80000815fcd8ull,
					    refs, 4), 1);
	assert_true(refs[0].addr == 0xffff800009a41005ull);
	assert_int_equal(refs[0].size, 1);
	assert_true(refs[0].store);
	/* get_kprobe: adrp x0; add x0, x0, #0x678 */
	put32(kp, 0xb000c480);
	put32(kp + 4, 0x9119e000);
	assert_int_equal(ks_arm64_code_refs(kp, sizeof(kp),
					    0xffff8000081b3964ull, refs, 4), 1);
	assert_true(refs[0].addr == 0xffff800009a44678ull);	/* kprobe_table */
	assert_int_equal(refs[0].size, 0);			/* formed only */
}

static uint32_t adrp(uint64_t pc, uint64_t target, unsigned int rd)
{
	int64_t pages = (int64_t)((target & ~0xfffull) - (pc & ~0xfffull)) >> 12;
	uint32_t imm = (uint32_t)pages & 0x1fffffu;

	return 0x90000000u | (imm & 3u) << 29 | (imm >> 2) << 5 | rd;
}

static uint32_t add(uint64_t target, unsigned int rd, unsigned int rn)
{
	return 0x91000000u | (uint32_t)(target & 0xfff) << 10 | rn << 5 | rd;
}

/*
 * get_kprobe() forms two table addresses; in one a node points back to
 * its head, in the other a node does not: only the first is kprobe_table.
 */
static void test_kprobe_table_checked(void **state)
{
	const uint64_t good = DATA + 0x8000, bad = DATA + 0x9000;
	const uint64_t node = DATA + 0xa000, stray = DATA + 0xa100;
	struct ks_fake *f = fake();
	struct ks_data_finder d;
	struct ks_target t;
	struct last_said s = { .nr = 0 };
	uint8_t code[24];
	uint64_t a = 0;

	(void)state;
	put32(code, 0xd503201f);			/* nop */
	put32(code + 4, adrp(TEXT + 4, good, 0));
	put32(code + 8, add(good, 0, 0));
	put32(code + 12, adrp(TEXT + 12, bad, 1));
	put32(code + 16, add(bad, 1, 1));
	put32(code + 20, 0xd65f03c0);			/* ret */
	assert_int_equal(ks_fake_add_memory(f, TEXT, code, sizeof(code)), 0);
	assert_int_equal(ks_fake_add_symbol(f, "get_kprobe", TEXT, sizeof(code),
					    NULL), 0);
	ks_fake_write_u64(f, good + 3 * 8, node);
	ks_fake_write_u64(f, node + 8, good + 3 * 8);
	ks_fake_write_u64(f, bad + 5 * 8, stray);
	ks_fake_write_u64(f, stray + 8, bad + 4 * 8);
	ks_fake_set_arch(f, "aarch64");
	ks_fake_target(f, &t);
	ks_data_finder_init(&d, &t, &REPORT_TO(record, &s));
	assert_int_equal(ks_data_finder_symbol(&d, "kprobe_table", &a), 0);
	assert_true(a == good);
	assert_int_equal(s.nr, 0);
	ks_fake_destroy(f);
}

/* Without the arch's code_refs (x86-64), nothing is read from code. */
static void test_no_code_refs_said(void **state)
{
	struct ks_fake *f = fake();
	struct ks_data_finder d;
	struct ks_target t;
	struct last_said s = { .nr = 0 };
	uint64_t a = 0;

	(void)state;
	ks_fake_target(f, &t);
	ks_data_finder_init(&d, &t, &REPORT_TO(record, &s));
	assert_int_equal(ks_data_finder_symbol(&d, "tk_core", &a), -ENOENT);
	assert_int_equal(s.nr, 1);
	assert_non_null(strstr(s.msg, "tk_core: not in the dump's kallsyms"));
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init_task_decoy_passed_over),
		cmocka_unit_test(test_decoy_alone_not_taken),
		cmocka_unit_test(test_uts_from_vmcoreinfo),
		cmocka_unit_test(test_arm64_refs_of_real_code),
		cmocka_unit_test(test_kprobe_table_checked),
		cmocka_unit_test(test_no_code_refs_said),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
