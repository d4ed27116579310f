// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ORC tables: loading vmlinux's and the modules' (6.1 and 6.4
 * layouts), finding an ip's entry, and refusing bad tables and broken
 * modules, on the fake kernel of orc_fixture.h.
 */
#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "orc_fixture.h"

static void test_load(void **state)
{
	struct fixture *fx = *state;
	const struct ks_orc_module *m;

	assert_int_equal(fx->orc->vmlinux.num, nr_vmlinux_orc);
	assert_int_equal(fx->orc->vmlinux.ip[1], FN(0x1000));
	assert_int_equal(fx->orc->nr_mods, 2);
	m = &fx->orc->mods[0];
	assert_string_equal(m->name, "mymod");
	assert_int_equal(m->table.num, 2);
	assert_int_equal(m->table.ip[1], MOD_TEXT + 0x100);
	assert_int_equal(m->text[0].start, MOD_TEXT);
	assert_int_equal(m->text[0].end, MOD_TEXT + 0x1000);
	assert_string_equal(fx->orc->mods[1].name, "noorc");
	assert_int_equal(fx->orc->mods[1].table.num, 0);
}

#ifdef __SANITIZE_ADDRESS__
size_t __sanitizer_get_current_allocated_bytes(void);

static size_t heap_used(void)
{
	return __sanitizer_get_current_allocated_bytes();
}
#else
static size_t heap_used(void)
{
	struct mallinfo2 m = mallinfo2();

	return m.uordblks + m.hblkhd;
}
#endif

/*
 * A table costs what it holds: 17 entries for vmlinux and 2 for mymod
 * here, where each once took room for 16384 (288 KiB a module).
 */
static void test_load_memory(void **state)
{
	struct fixture *fx = *state;
	struct ks_orc *orc = NULL;
	size_t before = heap_used();

	assert_int_equal(ks_orc_load(&fx->t, &orc), 0);
	assert_int_equal(orc->nr_mods, 2);
	assert_true(heap_used() - before < 64 * 1024);
	ks_orc_free(orc);
}

static void test_find(void **state)
{
	struct fixture *fx = *state;
	const struct ks_orc_entry *e;

	/* The rightmost entry at or below ip. */
	e = ks_orc_find(fx->orc, FN(0x2080));
	assert_non_null(e);
	assert_int_equal(e->sp_offset, 0x20);
	e = ks_orc_find(fx->orc, FN(0x80010));
	assert_int_equal(e->sp_offset, 0x28);
	assert_int_equal(e->bp_reg, KS_ORC_REG_PREV_SP);
	assert_int_equal(e->bp_offset, -16);
	e = ks_orc_find(fx->orc, FN(0xa01f));
	assert_int_equal(e->sp_reg, KS_ORC_REG_UNDEFINED);
	assert_true(e->end);
	e = ks_orc_find(fx->orc, FN(0x4010));
	assert_int_equal(e->type, KS_ORC_TYPE_REGS);
	/* Module text uses the module's table. */
	e = ks_orc_find(fx->orc, MOD_TEXT + 0x120);
	assert_int_equal(e->sp_offset, 0x10);
	/* null_orc_entry for ip 0; nothing for a module without ORC or no text. */
	e = ks_orc_find(fx->orc, 0);
	assert_int_equal(e->sp_offset, 8);
	assert_null(ks_orc_find(fx->orc, NOORC_TEXT + 0x110));
	assert_null(ks_orc_find(fx->orc, 0xffffffff90000000ULL));
	assert_true(ks_orc_kernel_text(fx->orc, FN(0x10)));
	assert_true(ks_orc_kernel_text(fx->orc, MOD_TEXT + 0x10));
	assert_false(ks_orc_kernel_text(fx->orc, MOD_TEXT + 0x1800));	/* module data */
	assert_false(ks_orc_kernel_text(fx->orc, USER_IP));
}

/* Weak terminators sit left of a real entry at the same address. */
static void test_find_duplicate(void **state)
{
	static const struct orc_spec dup[] = {
		UNDEF(FN(0x1000), 0),
		CALL(FN(0x1000), 0x30),
		CALL(FN(0x2000), 0x40),
	};
	struct ks_fake *f = ks_fake_create();
	struct ks_target t;
	struct ks_orc *orc;

	(void)state;
	ks_fake_target(f, &t);
	add_vmlinux_orc(f, ORC_IP_ADDR, ORC_ADDR, dup, 3);
	assert_int_equal(ks_orc_load(&t, &orc), 0);
	assert_int_equal(orc->nr_mods, 0);
	assert_int_equal(ks_orc_find(orc, FN(0x1000))->sp_offset, 0x30);
	assert_int_equal(ks_orc_find(orc, FN(0x1fff))->sp_offset, 0x30);
	assert_int_equal(ks_orc_find(orc, FN(0x2000))->sp_offset, 0x40);
	ks_orc_free(orc);
	ks_fake_destroy(f);
}

/* A vmlinux-sized table is read in a handful of big reads. */
static void test_load_chunked(void **state)
{
	enum { N = 100000 };
	struct orc_spec *o = calloc(N, sizeof(*o));
	struct ks_fake *f = ks_fake_create();
	struct ks_target t;
	struct ks_orc *orc;
	size_t i;

	(void)state;
	assert_non_null(o);
	for (i = 0; i < N; i++)
		o[i] = (struct orc_spec)CALL(TEXT + 16 * i, (int)(8 + (i % 64) * 8));
	ks_fake_target(f, &t);
	add_vmlinux_orc(f, ORC_IP_ADDR, ORC_ADDR, o, N);
	assert_int_equal(ks_orc_load(&t, &orc), 0);
	assert_true(ks_fake_read_count(f) <= 2 * (N / 16384 + 1));
	assert_int_equal(orc->vmlinux.num, N);
	assert_int_equal(ks_orc_find(orc, TEXT + 16 * 777 + 5)->sp_offset,
			 8 + (777 % 64) * 8);
	ks_orc_free(orc);
	ks_fake_destroy(f);
	free(o);
}

/* Bad tables are refused the way unwind_init() refuses them. */
static void test_load_bad(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_target t;
	struct ks_orc *orc = NULL;

	(void)state;
	ks_fake_target(f, &t);
	assert_int_equal(ks_orc_load(&t, &orc), -ENOENT);
	add_orc_bounds(f, ORC_IP_ADDR, 2, ORC_ADDR, 3);
	assert_int_equal(ks_orc_load(&t, &orc), -EINVAL);	/* 2 ips, 3 entries */
	ks_fake_add_type(f, "orc_entry", 8);
	assert_int_equal(ks_orc_load(&t, &orc), -ENOTSUP);
	assert_null(orc);
	ks_fake_destroy(f);
}

/* Loads the fixture's tables again, after a test damaged them. */
static struct ks_orc *reload(struct fixture *fx)
{
	struct ks_orc *orc = NULL;

	assert_int_equal(ks_orc_load(&fx->t, &orc), 0);
	assert_int_equal(orc->vmlinux.num, nr_vmlinux_orc);
	return orc;
}

static void expect_problem(const struct ks_orc *orc, const char *part)
{
	for (size_t i = 0; i < orc->nr_problems; i++)
		if (strstr(orc->problems[i], part))
			return;
	fail_msg("no problem with \"%s\" (%zu problems)", part, orc->nr_problems);
}

/*
 * A corrupt module or module list costs the frames in what it hides,
 * never vmlinux's table or the modules before it, and says which.
 */
static void test_broken_modules(void **state)
{
	struct fixture *fx = *state;
	uint32_t huge = 0xffffffff, n = 2;
	struct ks_orc *orc;

	/* num_orcs far beyond the module's memory: no table, still text */
	ks_fake_write(fx->f, MOD_STRUCT + M_ARCH, &huge, 4);
	orc = reload(fx);
	assert_int_equal(orc->nr_mods, 2);
	assert_int_equal(orc->mods[0].table.num, 0);
	assert_int_equal(orc->nr_problems, 1);
	expect_problem(orc, "module mymod at 0xffff888000100000: num_orcs 4294967295");
	assert_true(ks_orc_kernel_text(orc, MOD_TEXT + 0x10));
	assert_null(ks_orc_find(orc, MOD_TEXT + 0x120));
	ks_orc_free(orc);
	ks_fake_write(fx->f, MOD_STRUCT + M_ARCH, &n, 4);

	/* a text size no module has: left out, not taken as text */
	huge = 0xfffff000;
	ks_fake_write(fx->f, MOD_STRUCT + M_CORE + 12, &huge, 4);
	orc = reload(fx);
	assert_int_equal(orc->nr_mods, 1);
	assert_string_equal(orc->mods[0].name, "noorc");
	expect_problem(orc, "module at 0xffff888000100000: its memory range");
	assert_false(ks_orc_kernel_text(orc, MOD_TEXT + 0x10000000));
	ks_orc_free(orc);
	n = 0x1000;
	ks_fake_write(fx->f, MOD_STRUCT + M_CORE + 12, &n, 4);
	n = 2;

	/* a table pointer into memory the image lacks */
	ks_fake_write_u64(fx->f, MOD_STRUCT + M_ARCH + 8, MOD_TEXT + 0x1ff0);
	orc = reload(fx);
	assert_int_equal(orc->nr_mods, 2);
	expect_problem(orc, "module mymod");
	ks_orc_free(orc);
	ks_fake_write_u64(fx->f, MOD_STRUCT + M_ARCH + 8, MOD_ORC_IP);

	/* the first module lists itself: it is read once */
	ks_fake_write_u64(fx->f, MOD_STRUCT + M_LIST, MOD_STRUCT + M_LIST);
	orc = reload(fx);
	assert_int_equal(orc->nr_mods, 1);
	assert_int_equal(orc->mods[0].table.num, 2);
	expect_problem(orc, "the module list (modules) loops at 0xffff888000100008");
	ks_orc_free(orc);
	ks_fake_write_u64(fx->f, MOD_STRUCT + M_LIST, NOORC_STRUCT + M_LIST);

	/* modules.next is garbage */
	ks_fake_write_u64(fx->f, MODULES_ADDR, 0xdead000000000100ULL);
	orc = reload(fx);
	assert_int_equal(orc->nr_mods, 0);
	expect_problem(orc, "the module list (modules) breaks off");
	ks_orc_free(orc);

	/* a struct module that is not in the image, with a way on */
	ks_fake_write_u64(fx->f, MODULES_ADDR, 0xffff888000300008ULL);
	assert_int_equal(ks_fake_add_memory(fx->f, 0xffff888000300000ULL, NULL, 16), 0);
	ks_fake_write_u64(fx->f, 0xffff888000300008ULL, MOD_STRUCT + M_LIST);
	orc = reload(fx);
	assert_int_equal(orc->nr_mods, 2);
	expect_problem(orc, "module at 0xffff888000300000: its struct module cannot be read");
	ks_orc_free(orc);
}

static void test_decode_layouts(void **state)
{
	/* sp_offset 16, bp_offset -16, sp_reg SP, bp_reg PREV_SP */
	uint8_t call61[6] = { 0x10, 0, 0xf0, 0xff, 0x15, 0x00 };
	uint8_t end61[6] = { 0, 0, 0, 0, 0x00, 0x04 };
	uint8_t call64[6] = { 0x10, 0, 0xf0, 0xff, 0x15, 0x02 };
	uint8_t end64[6] = { 0, 0, 0, 0, 0x00, 0x01 };
	uint8_t regs64_signal[6] = { 0, 0, 0, 0, 0x05, 0x0b };
	struct ks_orc_entry e;

	(void)state;
	ks_orc_decode(KS_ORC_LAYOUT_6_1, call61, &e);
	assert_int_equal(e.sp_offset, 16);
	assert_int_equal(e.bp_offset, -16);
	assert_int_equal(e.sp_reg, KS_ORC_REG_SP);
	assert_int_equal(e.bp_reg, KS_ORC_REG_PREV_SP);
	assert_int_equal(e.type, KS_ORC_TYPE_CALL);
	assert_false(e.end);
	ks_orc_decode(KS_ORC_LAYOUT_6_1, end61, &e);
	assert_int_equal(e.sp_reg, KS_ORC_REG_UNDEFINED);
	assert_true(e.end);
	ks_orc_decode(KS_ORC_LAYOUT_6_4, call64, &e);
	assert_int_equal(e.type, KS_ORC_TYPE_CALL);
	assert_int_equal(e.sp_reg, KS_ORC_REG_SP);
	ks_orc_decode(KS_ORC_LAYOUT_6_4, end64, &e);
	assert_int_equal(e.sp_reg, KS_ORC_REG_UNDEFINED);
	assert_true(e.end);
	ks_orc_decode(KS_ORC_LAYOUT_6_4, regs64_signal, &e);
	assert_int_equal(e.type, KS_ORC_TYPE_REGS);
	assert_true(e.signal);
}

/*
 * 6.4+: struct module keeps mem[MOD_MEM_NUM_TYPES] instead of the two
 * layouts, and orc_entry has a signal bit (type:3 signal:1), which type
 * data reveals.  One module whose text is mem[MOD_TEXT].
 */
static void test_layout_6_4(void **state)
{
	/* CALL sp+16 with the 6.4 encoding (type 2 at bit 8); a REGS with signal */
	static const uint8_t raw[2][KS_ORC_ENTRY_SIZE] = {
		{ 0x10, 0, 0, 0, 0x05, 0x02 },
		{ 0x00, 0, 0, 0, 0x05, 0x0b },
	};
	uint8_t m[M_SIZE] = { 0 }, mem[7][16] = { { 0 } };
	uint64_t head = MOD_STRUCT + M_LIST, text = MOD_TEXT, data = MOD_TEXT + 0x4000;
	uint32_t size = 0x1000, num = 2;
	int32_t ips[2];
	struct ks_fake *f = ks_fake_create();
	struct ks_target t;
	struct ks_orc *orc;
	const struct ks_orc_entry *e;

	(void)state;
	ks_fake_target(f, &t);
	ks_fake_add_type(f, "orc_entry", KS_ORC_ENTRY_SIZE);
	ks_fake_add_member(f, "orc_entry", "signal", 5, -1);
	add_module_types(f);
	ks_fake_add_member(f, "module", "mem", M_CORE, 7 * 16);
	ks_fake_add_type(f, "module_memory", 16);
	ks_fake_add_member(f, "module_memory", "base", 0, 8);
	ks_fake_add_member(f, "module_memory", "size", 8, 4);

	/* vmlinux: one entry, enough for ks_orc_load */
	add_orc_bounds(f, ORC_IP_ADDR, 1, ORC_ADDR, 1);
	ips[0] = (int32_t)(TEXT - ORC_IP_ADDR);
	ks_fake_add_memory(f, ORC_IP_ADDR, ips, 4);
	ks_fake_add_memory(f, ORC_ADDR, raw[0], 6);

	/* the module: mem[0] text, mem[1] data holding its ORC tables */
	ks_fake_add_symbol(f, "modules", MODULES_ADDR, 0, NULL);
	ks_fake_add_memory(f, MODULES_ADDR, &head, 8);
	memcpy(mem[0], &text, 8);
	memcpy(mem[0] + 8, &size, 4);
	memcpy(mem[1], &data, 8);
	memcpy(mem[1] + 8, &size, 4);
	memcpy(m + M_LIST, &(uint64_t){ MODULES_ADDR }, 8);
	strcpy((char *)m + M_NAME, "newmod");
	memcpy(m + M_ARCH, &num, 4);
	memcpy(m + M_ARCH + 8, &(uint64_t){ data }, 8);
	memcpy(m + M_ARCH + 16, &(uint64_t){ data + 0x100 }, 8);
	memcpy(m + M_CORE, mem, sizeof(mem));
	ks_fake_add_memory(f, MOD_STRUCT, m, sizeof(m));
	ips[0] = (int32_t)(text + 0x10 - data);
	ips[1] = (int32_t)(text + 0x80 - (data + 4));
	ks_fake_add_memory(f, data, ips, 8);
	ks_fake_add_memory(f, data + 0x100, raw, sizeof(raw));

	assert_int_equal(ks_orc_load(&t, &orc), 0);
	assert_int_equal(orc->layout, KS_ORC_LAYOUT_6_4);
	assert_int_equal(orc->nr_mods, 1);
	assert_int_equal(orc->mods[0].text[0].start, MOD_TEXT);
	assert_int_equal(orc->mods[0].text[0].end, MOD_TEXT + 0x1000);
	assert_true(ks_orc_kernel_text(orc, MOD_TEXT + 0x20));
	assert_false(ks_orc_kernel_text(orc, data + 0x20));
	e = ks_orc_find(orc, MOD_TEXT + 0x20);
	assert_int_equal(e->type, KS_ORC_TYPE_CALL);
	assert_int_equal(e->sp_offset, 16);
	assert_false(e->signal);
	e = ks_orc_find(orc, MOD_TEXT + 0x90);
	assert_int_equal(e->type, KS_ORC_TYPE_REGS);
	assert_true(e->signal);
	/* module data is the module's too, as __module_address() sees it */
	assert_non_null(ks_orc_find(orc, data + 0x20));
	ks_orc_free(orc);
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_load, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_load_memory, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_find, orc_setup, orc_teardown),
		cmocka_unit_test(test_find_duplicate),
		cmocka_unit_test(test_load_chunked),
		cmocka_unit_test(test_load_bad),
		cmocka_unit_test_setup_teardown(test_broken_modules, orc_setup, orc_teardown),
		cmocka_unit_test(test_decode_layouts),
		cmocka_unit_test(test_layout_6_4),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
