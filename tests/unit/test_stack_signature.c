// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stack signature rule (shared/core/stack_signature.c,
 * docs/signature.md): what it folds, what it keeps, and the values
 * themselves, pinned, because saved signatures must keep meaning the
 * same stack in every later kstack.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "stack_signature.h"

static const char *sig(char state, const char *stack)
{
	static char buf[4][KS_SIGNATURE_LEN];
	static int i;

	i = (i + 1) % 4;
	ks_stack_signature(state, stack, buf[i]);
	return buf[i];
}

#define WAIT4 \
	"[<0>] do_wait+0x114/0x320\n" \
	"[<0>] kernel_wait4+0xb4/0x160\n" \
	"[<0>] __do_sys_wait4+0xa2/0xb0\n" \
	"[<0>] do_syscall_64+0x5d/0x90\n" \
	"[<0>] entry_SYSCALL_64_after_hwframe+0x6e/0xd8\n"

/* Another build of the same release: other offsets and sizes. */
#define WAIT4_OTHER_BUILD \
	"[<0>] do_wait+0x120/0x330\n" \
	"[<0>] kernel_wait4+0xb0/0x160\n" \
	"[<0>] __do_sys_wait4+0x9e/0xb0\n" \
	"[<0>] do_syscall_64+0x59/0x90\n" \
	"[<0>] entry_SYSCALL_64_after_hwframe+0x6e/0xd8\n"

static void offsets_do_not_count(void **state)
{
	(void)state;
	assert_string_equal(sig('S', WAIT4), sig('S', WAIT4_OTHER_BUILD));
	/* no address prefix (a frame as --cpus or a capture writes it) */
	assert_string_equal(sig('S', WAIT4),
			    sig('S', "do_wait+0x1/0x2\nkernel_wait4\n"
				     "__do_sys_wait4+0x1/0x2\ndo_syscall_64\n"
				     "entry_SYSCALL_64_after_hwframe\n"));
}

static void state_and_frames_count(void **state)
{
	(void)state;
	assert_string_not_equal(sig('S', WAIT4), sig('D', WAIT4));
	assert_string_not_equal(sig('S', WAIT4),
				sig('S', "[<0>] do_wait+0x114/0x320\n"));
	/* order counts */
	assert_string_not_equal(sig('D', "[<0>] a+0x1/0x2\n[<0>] b+0x1/0x2\n"),
				sig('D', "[<0>] b+0x1/0x2\n[<0>] a+0x1/0x2\n"));
}

static void compiler_suffixes_fold(void **state)
{
	(void)state;
	assert_string_equal(sig('D', "[<0>] f.isra.0+0x1/0x2\n"),
			    sig('D', "[<0>] f+0x1/0x2\n"));
	assert_string_equal(sig('D', "[<0>] f.constprop.3.isra.0+0x1/0x2\n"),
			    sig('D', "[<0>] f.part.1+0x5/0x9\n"));
	assert_string_equal(sig('D', "[<0>] f.cold+0x1/0x2\n"),
			    sig('D', "[<0>] f.llvm.12345+0x1/0x2\n"));
}

static void module_kept_unsure_dropped(void **state)
{
	(void)state;
	assert_string_equal(sig('D', "[<0>] kslock_hold+0x1/0x2 [kslock]\n"),
			    sig('D', "[<0>] kslock_hold.isra.0+0x9/0x20 [kslock]\n"));
	assert_string_not_equal(sig('D', "[<0>] f+0x1/0x2 [a]\n"),
				sig('D', "[<0>] f+0x1/0x2 [b]\n"));
	assert_string_not_equal(sig('D', "[<0>] f+0x1/0x2 [a]\n"),
				sig('D', "[<0>] f+0x1/0x2\n"));
	assert_string_equal(sig('D', "[<0>] a+0x1/0x2\n? junk+0x5/0x10\n[<0>] b+0x1/0x2\n"),
			    sig('D', "[<0>] a+0x1/0x2\n[<0>] b+0x1/0x2\n"));
}

static void empty_stack(void **state)
{
	(void)state;
	assert_string_equal(sig('R', ""), sig('R', NULL));
	assert_int_equal(strlen(sig('R', "")), KS_SIGNATURE_LEN - 1);
}

/*
 * The values: a change here means every signature a user saved now
 * names another stack.  Never update these to make the test pass.
 */
static void values_pinned(void **state)
{
	(void)state;
	assert_string_equal(sig('S', WAIT4), "e086a70c311b");
	assert_string_equal(sig('D', "[<0>] kslock_hold+0x1/0x2 [kslock]\n"),
			    "1c6e31b31f66");
	assert_string_equal(sig('R', ""), "09493e07b5d8");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(offsets_do_not_count),
		cmocka_unit_test(state_and_frames_count),
		cmocka_unit_test(compiler_suffixes_fold),
		cmocka_unit_test(module_kept_unsure_dropped),
		cmocka_unit_test(empty_stack),
		cmocka_unit_test(values_pinned),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
