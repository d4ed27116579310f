// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * %pB on a fake target: the lookup at addr - 1, the offset of addr itself,
 * module names, and the "0x..." of an address no symbol covers.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "symbolize.h"

struct fixture {
	struct ks_fake *f;
	struct ks_target t;
};

static int setup(void **state)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	fx->f = ks_fake_create();
	assert_non_null(fx->f);
	ks_fake_target(fx->f, &fx->t);
	ks_fake_add_symbol(fx->f, "do_wait", 0xffffffff81100000ULL, 0x2e0, NULL);
	/* a noreturn call at the very end: the next function starts there */
	ks_fake_add_symbol(fx->f, "do_exit", 0xffffffff81200000ULL, 0x40, NULL);
	ks_fake_add_symbol(fx->f, "next_fn", 0xffffffff81200040ULL, 0x80, NULL);
	ks_fake_add_symbol(fx->f, "nfs_wait", 0xffffffffc0a01000ULL, 0x1a0, "nfs");
	*state = fx;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	ks_fake_destroy(fx->f);
	free(fx);
	return 0;
}

static const char *pB(struct fixture *fx, uint64_t addr)
{
	static char buf[KS_SYM_PB_LEN];
	int n = ks_sym_format_pB(&fx->t, addr, buf, sizeof(buf));

	assert_int_equal(n, (int)strlen(buf));
	return buf;
}

static void test_vmlinux(void **state)
{
	struct fixture *fx = *state;

	assert_string_equal(pB(fx, 0xffffffff8110015cULL), "do_wait+0x15c/0x2e0");
	assert_string_equal(pB(fx, 0xffffffff81100001ULL), "do_wait+0x1/0x2e0");
}

/* addr - 1 names the caller; the offset printed is addr's own. */
static void test_ip_minus_1(void **state)
{
	struct fixture *fx = *state;

	assert_string_equal(pB(fx, 0xffffffff81200040ULL), "do_exit+0x40/0x40");
	assert_string_equal(pB(fx, 0xffffffff81200041ULL), "next_fn+0x1/0x80");
	/* the first byte of a function is named after what precedes it */
	assert_string_equal(pB(fx, 0xffffffff81100000ULL), "0xffffffff81100000");
}

static void test_module(void **state)
{
	struct fixture *fx = *state;

	assert_string_equal(pB(fx, 0xffffffffc0a01044ULL), "nfs_wait+0x44/0x1a0 [nfs]");
}

static void test_unknown(void **state)
{
	struct fixture *fx = *state;

	assert_string_equal(pB(fx, 0xffffffff8badbeefULL), "0xffffffff8badbeef");
	assert_string_equal(pB(fx, 0), "0x0");
	assert_string_equal(pB(fx, 0x7f00aa), "0x7f00aa");
}

/* snprintf's contract: cut to len, return the whole length. */
static void test_truncation(void **state)
{
	struct fixture *fx = *state;
	char small[8];

	assert_int_equal(ks_sym_format_pB(&fx->t, 0xffffffff8110015cULL, small,
					  sizeof(small)), 19);
	assert_string_equal(small, "do_wait");
	assert_int_equal(ks_sym_format_pB(&fx->t, 0xffffffff8110015cULL, NULL, 0), 19);
	assert_int_equal(ks_sym_format_pB(&fx->t, 1, NULL, 4), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_vmlinux, setup, teardown),
		cmocka_unit_test_setup_teardown(test_ip_minus_1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_module, setup, teardown),
		cmocka_unit_test_setup_teardown(test_unknown, setup, teardown),
		cmocka_unit_test_setup_teardown(test_truncation, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
