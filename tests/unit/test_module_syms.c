// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Module symbols on a fake kernel image: a module list with a 6.1
 * struct module (core_layout, init_layout), a 6.4 one (mem[]), a module
 * still being loaded, and find_kallsyms_symbol()'s choices: the first of
 * several symbols at one address, no unnamed, mapping or undefined ones,
 * sizes up to the next symbol or the end of the text.
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "kernel_modules.h"
#include "module_syms.h"
#include "said.h"

#define MODULES		0xffffffff82000000ull	/* the list head */
#define MOD1		0xffffffffc0100000ull	/* struct module */
#define MOD2		0xffffffffc0110000ull	/* one in MODULE_STATE_UNFORMED */
#define KSYMS		0xffffffffc0200000ull	/* struct mod_kallsyms */
#define SYMTAB		0xffffffffc0201000ull
#define STRTAB		0xffffffffc0202000ull
#define CORE		0xffffffffc0000000ull	/* core text, then data */
#define INIT		0xffffffffc0400000ull

/* struct module as laid out here */
#define O_STATE		0
#define O_LIST		8
#define O_NAME		24
#define O_KALLSYMS	0x100
#define O_CORE		0x140
#define O_INIT		0x180
#define O_MEM		0x140
#define MEM_ESIZE	0x50
#define MOD3		0xffffffffc0120000ull	/* struct module cut short */

static const char strtab[] =
	"\0mod_fn\0alias_b\0alias_a\0$x\0printk\0data_obj\0init_fn";

static uint32_t name_off(const char *name)
{
	size_t i;

	for (i = 1; i < sizeof(strtab); i += strlen(strtab + i) + 1)
		if (!strcmp(strtab + i, name))
			return (uint32_t)i;
	fail();
	return 0;
}

static void sym(Elf64_Sym *s, const char *name, uint64_t value, uint16_t shndx)
{
	memset(s, 0, sizeof(*s));
	s->st_name = *name ? name_off(name) : 0;
	s->st_value = value;
	s->st_shndx = shndx;
}

static void add_symbols(struct ks_fake *f)
{
	Elf64_Sym syms[9];
	uint64_t ks[3] = { SYMTAB, 9, STRTAB };

	memset(syms, 0, sizeof(syms));
	sym(&syms[1], "mod_fn", CORE, 1);
	sym(&syms[2], "alias_b", CORE + 0x100, 1);
	sym(&syms[3], "alias_a", CORE + 0x100, 1);
	sym(&syms[4], "", CORE + 0x180, 1);
	sym(&syms[5], "$x", CORE + 0x190, 1);
	sym(&syms[6], "printk", CORE + 0x1a0, SHN_UNDEF);
	sym(&syms[7], "data_obj", CORE + 0x800, 2);
	sym(&syms[8], "init_fn", INIT + 0x10, 3);
	assert_int_equal(ks_fake_add_memory(f, SYMTAB, syms, sizeof(syms)), 0);
	assert_int_equal(ks_fake_add_memory(f, STRTAB, strtab, sizeof(strtab)), 0);
	assert_int_equal(ks_fake_add_memory(f, KSYMS, ks, sizeof(ks)), 0);
	ks_fake_add_member(f, "mod_kallsyms", "symtab", 0, 8);
	ks_fake_add_member(f, "mod_kallsyms", "num_symtab", 8, 4);
	ks_fake_add_member(f, "mod_kallsyms", "strtab", 16, 8);
}

static void put32(struct ks_fake *f, uint64_t addr, uint32_t v)
{
	assert_int_equal(ks_fake_write(f, addr, &v, 4), 0);
}

/* Two modules on the list: MOD1 (live, "demo") and MOD2 (unformed). */
static struct ks_fake *image(bool mem_array)
{
	struct ks_fake *f = ks_fake_create();

	assert_non_null(f);
	ks_fake_add_symbol(f, "modules", MODULES, 16, NULL);
	ks_fake_add_memory(f, MODULES, NULL, 16);
	ks_fake_add_memory(f, MOD1, NULL, 0x400);
	ks_fake_add_memory(f, MOD2, NULL, 0x400);
	ks_fake_write_u64(f, MODULES, MOD1 + O_LIST);
	ks_fake_write_u64(f, MOD1 + O_LIST, MOD2 + O_LIST);
	ks_fake_write_u64(f, MOD2 + O_LIST, MODULES);
	ks_fake_write(f, MOD1 + O_NAME, "demo", 5);
	ks_fake_write(f, MOD2 + O_NAME, "loading", 8);
	put32(f, MOD2 + O_STATE, 3);
	ks_fake_write_u64(f, MOD1 + O_KALLSYMS, KSYMS);
	ks_fake_add_member(f, "module", "state", O_STATE, 4);
	ks_fake_add_member(f, "module", "list", O_LIST, 16);
	ks_fake_add_member(f, "module", "name", O_NAME, 56);
	ks_fake_add_member(f, "module", "kallsyms", O_KALLSYMS, 8);
	add_symbols(f);
	if (mem_array) {
		/* 6.4: mem[MOD_TEXT] and mem[MOD_INIT_TEXT] */
		ks_fake_add_member(f, "module", "mem", O_MEM, 7 * MEM_ESIZE);
		ks_fake_add_type(f, "module_memory", MEM_ESIZE);
		ks_fake_add_member(f, "module_memory", "base", 0, 8);
		ks_fake_add_member(f, "module_memory", "size", 8, 4);
		ks_fake_write_u64(f, MOD1 + O_MEM, CORE);
		put32(f, MOD1 + O_MEM + 8, 0x400);
		ks_fake_write_u64(f, MOD1 + O_MEM + 4 * MEM_ESIZE, INIT);
		put32(f, MOD1 + O_MEM + 4 * MEM_ESIZE + 8, 0x100);
		return f;
	}
	ks_fake_add_member(f, "module", "core_layout", O_CORE, 0x40);
	ks_fake_add_member(f, "module", "init_layout", O_INIT, 0x40);
	ks_fake_add_member(f, "module_layout", "base", 0, 8);
	ks_fake_add_member(f, "module_layout", "size", 8, 4);
	ks_fake_add_member(f, "module_layout", "text_size", 12, 4);
	ks_fake_write_u64(f, MOD1 + O_CORE, CORE);
	put32(f, MOD1 + O_CORE + 8, 0x1000);
	put32(f, MOD1 + O_CORE + 12, 0x400);
	ks_fake_write_u64(f, MOD1 + O_INIT, INIT);
	put32(f, MOD1 + O_INIT + 8, 0x200);
	put32(f, MOD1 + O_INIT + 12, 0x100);
	return f;
}

static struct ks_module_syms *load(struct ks_fake *f)
{
	struct ks_module_syms *ms = NULL;
	struct ks_target t;

	ks_fake_target(f, &t);
	assert_int_equal(ks_module_syms_load(&t, &ms), 0);
	return ms;
}

static void expect(struct ks_module_syms *ms, uint64_t addr, const char *name,
		   uint64_t start, uint64_t size)
{
	struct ks_sym s;

	assert_int_equal(ks_module_syms_lookup(ms, addr, &s), 0);
	assert_string_equal(s.name, name);
	assert_int_equal(s.addr, start);
	assert_int_equal(s.size, size);
	assert_string_equal(s.module, "demo");
}

static void test_layout_6_1(void **state)
{
	struct ks_fake *f = image(false);
	struct ks_module_syms *ms = load(f);
	struct ks_sym s;

	(void)state;
	assert_int_equal(ks_module_syms_count(ms), 1);
	assert_int_equal(ks_module_syms_skipped(ms), 0);
	assert_null(ks_module_syms_error(ms));
	expect(ms, CORE + 0x50, "mod_fn", CORE, 0x100);
	/* The first of two at one address; unnamed, $x, undefined ignored. */
	expect(ms, CORE + 0x1a0, "alias_b", CORE + 0x100, 0x300);
	/*
	 * Core data past the text: the kernel's nextval stays at the end of
	 * the text and its size wraps; ours ends at the end of the module.
	 */
	expect(ms, CORE + 0x900, "data_obj", CORE + 0x800, 0x800);
	expect(ms, INIT + 0x20, "init_fn", INIT + 0x10, 0xf0);
	assert_int_equal(ks_module_syms_lookup(ms, CORE + 0x1000, &s), -ENOENT);
	assert_int_equal(ks_module_syms_lookup(ms, CORE - 1, &s), -ENOENT);
	ks_module_syms_free(ms);
	ks_fake_destroy(f);
}

static void test_layout_6_4(void **state)
{
	struct ks_fake *f = image(true);
	struct ks_module_syms *ms = load(f);
	struct ks_sym s;

	(void)state;
	assert_int_equal(ks_module_syms_count(ms), 1);
	expect(ms, CORE + 0x3ff, "alias_b", CORE + 0x100, 0x300);
	expect(ms, INIT + 0x20, "init_fn", INIT + 0x10, 0xf0);
	assert_int_equal(ks_module_syms_lookup(ms, CORE + 0x400, &s), -ENOENT);
	ks_module_syms_free(ms);
	ks_fake_destroy(f);
}

/*
 * 6.4: a lock in the module's own data (mem[MOD_DATA]), as --waits asks
 * for it: named within its part, sized to the part's end; the gap
 * between the parts is no module's.
 */
static void test_layout_6_4_data(void **state)
{
	struct ks_fake *f = image(true);
	struct ks_module_syms *ms;
	struct ks_sym s;

	(void)state;
	ks_fake_write_u64(f, MOD1 + O_MEM + 1 * MEM_ESIZE, CORE + 0x800);
	put32(f, MOD1 + O_MEM + 1 * MEM_ESIZE + 8, 0x100);
	ms = load(f);
	expect(ms, CORE + 0x808, "data_obj", CORE + 0x800, 0x100);
	expect(ms, CORE + 0x3ff, "alias_b", CORE + 0x100, 0x300);
	assert_int_equal(ks_module_syms_lookup(ms, CORE + 0x400, &s), -ENOENT);
	assert_int_equal(ks_module_syms_lookup(ms, CORE + 0x900, &s), -ENOENT);
	ks_module_syms_free(ms);
	ks_fake_destroy(f);
}

static void test_broken(void **state)
{
	struct ks_fake *f = image(false);
	struct ks_module_syms *ms;
	struct ks_target t;

	(void)state;
	/* A module whose kallsyms cannot be read is skipped and counted. */
	ks_fake_write_u64(f, MOD1 + O_KALLSYMS, 0xdead0000);
	ms = load(f);
	assert_int_equal(ks_module_syms_count(ms), 0);
	assert_int_equal(ks_module_syms_skipped(ms), 1);
	ks_module_syms_free(ms);
	/*
	 * A list that breaks off keeps what it read: a link that is no
	 * kernel address counts once, and says where the list ended.
	 */
	ks_fake_write_u64(f, MOD1 + O_KALLSYMS, KSYMS);
	ks_fake_write_u64(f, MOD1 + O_LIST, 0xdead0000);
	ms = load(f);
	assert_int_equal(ks_module_syms_count(ms), 1);
	assert_int_equal(ks_module_syms_skipped(ms), 1);
	assert_non_null(strstr(ks_module_syms_error(ms), "breaks off after"));
	ks_module_syms_free(ms);
	/* a kernel address outside the image: the entry there, and the link */
	ks_fake_write_u64(f, MOD1 + O_LIST, 0xffff888077770008ull);
	ms = load(f);
	assert_int_equal(ks_module_syms_count(ms), 1);
	assert_int_equal(ks_module_syms_skipped(ms), 2);
	ks_module_syms_free(ms);
	ks_fake_destroy(f);

	/* Without struct module's members there is nothing to read. */
	f = ks_fake_create();
	ks_fake_target(f, &t);
	assert_int_equal(ks_module_syms_load(&t, &ms), -ENOENT);
	ks_fake_destroy(f);
}

/* A module that lists itself is read once, not 65,536 times. */
static void test_loop(void **state)
{
	struct ks_fake *f = image(false);
	struct ks_module_syms *ms;

	(void)state;
	ks_fake_write_u64(f, MOD1 + O_LIST, MOD1 + O_LIST);
	ms = load(f);
	assert_int_equal(ks_module_syms_count(ms), 1);
	assert_int_equal(ks_module_syms_skipped(ms), 1);
	assert_non_null(strstr(ks_module_syms_error(ms),
			       "the module list (modules) loops at 0xffffffffc0100008"));
	expect(ms, CORE + 0x50, "mod_fn", CORE, 0x100);
	ks_module_syms_free(ms);
	/* the last one's next is the first */
	ks_fake_write_u64(f, MOD1 + O_LIST, MOD2 + O_LIST);
	ks_fake_write_u64(f, MOD2 + O_LIST, MOD1 + O_LIST);
	ms = load(f);
	assert_int_equal(ks_module_syms_count(ms), 1);
	assert_non_null(ks_module_syms_error(ms));
	ks_module_syms_free(ms);
	ks_fake_destroy(f);
}

struct seen {
	struct ks_module m[4];
	int nr;
};

static int collect(void *arg, const struct ks_module *m)
{
	struct seen *s = arg;

	assert_true(s->nr < 4);
	s->m[s->nr++] = *m;
	return 0;
}

/*
 * 6.4: a struct module whose mem[MOD_TEXT] and mem[MOD_INIT_TEXT] can be
 * read but not mem[5] and mem[6] after them.  The one walk hands each
 * part's error to its users: the ORC tables leave such a module out, its
 * symbols still name its text, as they did when each walked on its own.
 */
static void test_one_walk(void **state)
{
	struct ks_fake *f = image(true);
	struct ks_module_layout l;
	struct seen s = { .nr = 0 };
	struct ks_module_syms *ms;
	struct ks_target t;
	struct said stop = { "", 0 };

	(void)state;
	ks_fake_add_memory(f, MOD3, NULL, O_MEM + 5 * MEM_ESIZE);
	ks_fake_write_u64(f, MOD2 + O_LIST, MOD3 + O_LIST);
	ks_fake_write_u64(f, MOD3 + O_LIST, MODULES);
	ks_fake_write(f, MOD3 + O_NAME, "short", 6);
	ks_fake_write_u64(f, MOD3 + O_KALLSYMS, KSYMS);
	ks_fake_write_u64(f, MOD3 + O_MEM, CORE);
	put32(f, MOD3 + O_MEM + 8, 0x400);
	ks_fake_target(f, &t);
	ks_module_layout_init(&t, &l);
	assert_true(l.mem);
	assert_int_equal(ks_modules_walk(&t, &l, collect, &s, &SAID_TO(&stop)), 0);
	assert_int_equal(stop.calls, 0);
	/* MOD2 is still being loaded: nobody sees it */
	assert_int_equal(s.nr, 2);
	assert_string_equal(s.m[0].name, "demo");
	assert_int_equal(s.m[0].head_err | s.m[0].text_err | s.m[0].ranges_err, 0);
	assert_int_equal(s.m[0].text[1].start, INIT);
	assert_int_equal(s.m[0].text[1].end, INIT + 0x100);
	assert_int_equal(s.m[0].kallsyms_err, 0);
	assert_int_equal(s.m[0].symtab, SYMTAB);
	assert_int_equal(s.m[0].num_symtab, 9);
	assert_int_equal(s.m[0].strtab, STRTAB);
	/* no mod_arch_specific in these types: no ORC, the rest is read */
	assert_int_equal(s.m[0].orc_err, -ENOENT);
	assert_string_equal(s.m[1].name, "short");
	assert_int_equal(s.m[1].text_err, 0);
	assert_int_equal(s.m[1].ranges_err, -EFAULT);
	assert_int_equal(s.m[1].text[0].end, CORE + 0x400);

	assert_int_equal(ks_module_syms_load(&t, &ms), 0);
	assert_int_equal(ks_module_syms_count(ms), 2);
	assert_int_equal(ks_module_syms_skipped(ms), 0);
	ks_module_syms_free(ms);
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_layout_6_1),
		cmocka_unit_test(test_layout_6_4),
		cmocka_unit_test(test_layout_6_4_data),
		cmocka_unit_test(test_broken),
		cmocka_unit_test(test_loop),
		cmocka_unit_test(test_one_walk),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
