// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The one order of symbol finders (sym_finders.h): vmlinux, then the
 * chain, then a fallback, whatever order they were added in, and the
 * first finder with an answer wins.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "sym_finders.h"

/* A finder that knows one address and one name, and says who it is. */
struct fake_src {
	const char *who;
	uint64_t addr;
	const char *name;
};

static int fake_symbol(void *src, const char *name, uint64_t *addr_ret)
{
	struct fake_src *f = src;

	if (strcmp(name, f->name))
		return -ENOENT;
	*addr_ret = f->addr;
	return 0;
}

static int fake_lookup(void *src, uint64_t addr, struct ks_sym *sym_ret)
{
	struct fake_src *f = src;

	if (addr != f->addr)
		return -ENOENT;
	sym_ret->name = f->who;
	return 0;
}

static void test_rank_order(void **state)
{
	struct fake_src fb = { "fallback", 0x10, "a" };
	struct fake_src ch = { "chain", 0x10, "b" };
	struct fake_src vm = { "vmlinux", 0x20, "a" };
	struct ks_sym_finder f[] = {
		{ KS_FIND_FALLBACK, fake_symbol, fake_lookup, &fb },
		{ KS_FIND_CHAIN, NULL, fake_lookup, &ch },
		{ KS_FIND_VMLINUX, fake_symbol, fake_lookup, &vm },
	};
	struct ks_sym_finders l = { 0 };
	struct ks_sym sym = { 0 };
	uint64_t addr;

	(void)state;
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(ks_finders_add(&l, &f[i]), 0);
	assert_ptr_equal(l.f[0].src, &vm);
	assert_ptr_equal(l.f[1].src, &ch);
	assert_ptr_equal(l.f[2].src, &fb);
	/* the chain is asked before the fallback */
	assert_int_equal(ks_finders_lookup(&l, 0x10, &sym), 0);
	assert_string_equal(sym.name, "chain");
	assert_int_equal(ks_finders_lookup(&l, 0x20, &sym), 0);
	assert_string_equal(sym.name, "vmlinux");
	assert_int_equal(ks_finders_lookup(&l, 0x30, &sym), -ENOENT);
	/* vmlinux names first; a finder without names is passed over */
	assert_int_equal(ks_finders_symbol(&l, "a", &addr), 0);
	assert_int_equal(addr, 0x20);
	assert_int_equal(ks_finders_symbol(&l, "b", &addr), -ENOENT);
}

static void test_full(void **state)
{
	struct ks_sym_finder f = { KS_FIND_CHAIN, NULL, NULL, NULL };
	struct ks_sym_finders l = { 0 };

	(void)state;
	for (size_t i = 0; i < KS_MAX_FINDERS; i++)
		assert_int_equal(ks_finders_add(&l, &f), 0);
	assert_int_equal(ks_finders_add(&l, &f), -ENOSPC);
	assert_int_equal(l.nr, KS_MAX_FINDERS);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rank_order),
		cmocka_unit_test(test_full),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
