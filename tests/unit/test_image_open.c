// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The image opener's parts that every source shares (image_open.c): the
 * architecture refused by name before anything is read, which note is
 * which CPU's, and the paging facts each architecture's table finds for
 * the dump, /proc/kcore and crash alike.
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

#include "arch.h"
#include "fake_target.h"
#include "image_open.h"
#include "page_walk.h"
#include "said.h"
#include "vmcoreinfo.h"

static void said(void *arg, enum ks_say_level level, const char *msg)
{
	(void)level;
	snprintf(arg, 256, "%s", msg);
}

/* CPUs 0, 2 and 3 online of 8; -1 past limit, to stand for an unread mask */
struct online {
	unsigned int mask;
	int limit;
};

static int online(void *arg, int cpu)
{
	const struct online *o = arg;

	if (cpu >= o->limit)
		return -1;
	return (o->mask >> cpu) & 1;
}

static void test_note_map(void **state)
{
	struct online o = { .mask = 0x0d, .limit = 8 };
	int *map;

	(void)state;
	/* as many notes as online CPUs: the n-th note is the n-th online's */
	map = ks_cpu_note_map(3, 8, online, &o);
	assert_non_null(map);
	assert_int_equal(map[0], 0);
	assert_int_equal(map[1], -1);
	assert_int_equal(map[2], 1);
	assert_int_equal(map[3], 2);
	assert_int_equal(map[4], -1);
	free(map);
	/* a note per vCPU (QEMU): none, the n-th note is CPU n */
	assert_null(ks_cpu_note_map(8, 8, online, &o));
	/* a mask that cannot be read maps nothing */
	o.limit = 4;
	assert_null(ks_cpu_note_map(3, 8, online, &o));
}

/* The opener refuses a machine it has no table for, by its name, first. */
static void test_unknown_arch(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_image_opened io = { 0 };
	struct ks_image_source src = { .arch_name = "riscv64", .who = "the dump",
				       .nr_cpu_notes = -1 };
	struct ks_target mem;
	char msg[256] = "";

	(void)state;
	assert_non_null(f);
	assert_int_equal(ks_fake_set_vmcoreinfo(f, "OSRELEASE=6.1.0\n"), 0);
	ks_fake_target(f, &mem);
	src.mem = &mem;
	src.rep = &REPORT_TO(said, msg);
	assert_int_equal(ks_image_open(&io, &src), -EPROTONOSUPPORT);
	assert_string_equal(msg, "the image is of architecture riscv64: kstack "
			    "reads x86_64 and arm64");
	assert_int_equal(ks_fake_read_count(f), 0);
	ks_image_close(&io);
	ks_fake_destroy(f);
}

#define POB	0xffffffff82a0c0b8ull	/* page_offset_base */

static struct ks_vmcoreinfo fake_vi(struct ks_target *t)
{
	return (struct ks_vmcoreinfo){ .line = t->ops->vmcoreinfo, .arg = t->ctx };
}

/* x86-64: levels from VMCOREINFO, the randomized base read from memory. */
static void test_x86_64_paging(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_paging pg = { .arch = &ks_arch_x86_64 };
	struct ks_kernel_tables tab = { 0 };
	uint64_t base = 0xff11000000000000ull;
	struct ks_vmcoreinfo vi;
	struct ks_target t;

	(void)state;
	assert_int_equal(ks_fake_set_vmcoreinfo(f, "NUMBER(pgtable_l5_enabled)=0\n"
				"SYMBOL(init_top_pgt)=ffffffff8a80a000\n"
				"NUMBER(phys_base)=-34359738368\n"), 0);
	assert_int_equal(ks_fake_add_symbol(f, "page_offset_base", POB, 8, NULL), 0);
	assert_int_equal(ks_fake_add_memory(f, POB, &base, sizeof(base)), 0);
	ks_fake_target(f, &t);
	vi = fake_vi(&t);
	assert_int_equal(ks_arch_x86_64.paging->find_paging(&t, &vi, &pg), 0);
	assert_int_equal(pg.levels, 4);
	assert_true(pg.page_offset == 0xff11000000000000ull);
	assert_int_equal(ks_arch_x86_64.paging->kernel_tables(&vi, &pg, &tab), 0);
	/* __pa_symbol(): less __START_KERNEL_map, plus phys_base */
	assert_true(tab.pgd == 0xffffffff8a80a000ull - 0xffffffff80000000ull -
			       34359738368ull);
	assert_true(tab.walk_mask == ~0ull);
	ks_fake_destroy(f);
}

/* arm64 without its VMCOREINFO numbers: no walk, no kernel tables. */
static void test_arm64_no_paging(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_paging pg = { .arch = &ks_arch_arm64, .page_offset = 1 };
	struct ks_kernel_tables tab = { 0 };
	struct ks_vmcoreinfo vi;
	struct ks_target t;

	(void)state;
	assert_int_equal(ks_fake_set_vmcoreinfo(f, "OSRELEASE=6.1.0\n"), 0);
	ks_fake_set_arch(f, "aarch64");
	ks_fake_target(f, &t);
	vi = fake_vi(&t);
	assert_int_equal(ks_arch_arm64.paging->find_paging(&t, &vi, &pg), -ENOENT);
	assert_true(pg.page_offset == 0);
	assert_int_equal(ks_arch_arm64.paging->kernel_tables(&vi, &pg, &tab), -ENOENT);
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_note_map),
		cmocka_unit_test(test_unknown_arch),
		cmocka_unit_test(test_x86_64_paging),
		cmocka_unit_test(test_arm64_no_paging),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
