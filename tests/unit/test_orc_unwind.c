// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The unwinder on the fake kernel of orc_fixture.h: blocked tasks, user
 * tasks, interrupts, and every way a walk must stop on bad data.
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
 * A kernel thread blocked in a spinlock's slow path under an interrupt:
 * sched and lock frames are dropped, the module frame names its module,
 * the REGS frame resumes at the interrupted ip, ret_from_fork ends it.
 */
static void test_blocked_task(void **state)
{
	struct fixture *fx = *state;
	uint64_t thread_sp = STACK + 0x3000, sp, regs_sp;
	const char *note = "unset";
	char *text;

	sp = switch_frame(fx, thread_sp);
	sp = call_frame(fx, sp, 0x28, AT(F_SCHEDULE, 0x20));	/* __schedule */
	sp = call_frame(fx, sp, 0x10, AT(F_C, 0x15));		/* schedule */
	sp = call_frame(fx, sp, 0x18, AT(F_MOD, 0x30));		/* func_c */
	sp = call_frame(fx, sp, 0x10, AT(F_LOCK, 0x10));	/* mod_fn */
	sp = call_frame(fx, sp, 0x8, AT(F_B, 0x40));		/* _raw_spin_lock */
	sp = call_frame(fx, sp, 0x20, AT(F_IRQ, 0x10));		/* func_b */
	regs_sp = sp + KS_PT_REGS_SIZE;
	sp = regs_frame(fx, sp, AT(F_A, 0x20), regs_sp, 0x2222, 0x10);
	sp = call_frame(fx, sp, 0x10, AT(F_KTHREAD, 0x30));	/* func_a */
	call_frame(fx, sp, 0x10, AT(F_FORK, 0x1f));		/* kthread_fn */

	text = orc_walk(fx, thread_sp, &note);
	assert_string_equal(text,
			    "[<0>] func_c+0x15/0x100\n"
			    "[<0>] mod_fn+0x30/0x80 [mymod]\n"
			    "[<0>] func_b+0x40/0x100\n"
			    "[<0>] irq_entry+0x10/0x100\n"
			    "[<0>] func_a+0x20/0x100\n"
			    "[<0>] kthread_fn+0x30/0x100\n"
			    "[<0>] ret_from_fork+0x1f/0x30\n");
	assert_null(note);
	free(text);
}

/*
 * The walk reads the stack from thread.sp up in one read: the unused
 * bottom of a 16 KiB stack is neither copied nor needed, so a dump
 * without it unwinds the same, without a read per word.
 */
static void test_reads_from_sp_up(void **state)
{
	struct fixture *fx = *state;
	uint64_t thread_sp = STACK + 0x3000, sp;
	unsigned long reads;
	const char *note = "unset";
	char *text;

	sp = switch_frame(fx, thread_sp);
	sp = call_frame(fx, sp, 0x28, AT(F_SCHEDULE, 0x20));	/* __schedule */
	sp = call_frame(fx, sp, 0x10, AT(F_C, 0x15));		/* schedule */
	sp = call_frame(fx, sp, 0x18, AT(F_KTHREAD, 0x30));	/* func_c */
	call_frame(fx, sp, 0x10, AT(F_FORK, 0x1f));		/* kthread_fn */

	reads = ks_fake_read_count(fx->f);
	text = orc_walk(fx, thread_sp, &note);
	reads = ks_fake_read_count(fx->f) - reads;
	assert_string_equal(text,
			    "[<0>] func_c+0x15/0x100\n"
			    "[<0>] kthread_fn+0x30/0x100\n"
			    "[<0>] ret_from_fork+0x1f/0x30\n");
	assert_null(note);
	assert_int_equal(reads, 1);
	free(text);
}

/* A user task ends at the syscall entry's pt_regs: user ip, no note. */
static void test_user_task(void **state)
{
	struct fixture *fx = *state;
	uint64_t regs_at = STACK + STACK_SIZE - KS_PT_REGS_SIZE;
	uint64_t thread_sp = regs_at - 0x10 - 0x18 - 0x10 - 0x28 - 56;
	const char *note = "unset";
	uint64_t sp;
	char *text;

	sp = switch_frame(fx, thread_sp);
	sp = call_frame(fx, sp, 0x28, AT(F_SCHEDULE, 0x20));
	sp = call_frame(fx, sp, 0x10, AT(F_C, 0x15));
	sp = call_frame(fx, sp, 0x18, AT(F_KTHREAD, 0x40));	/* func_c */
	sp = call_frame(fx, sp, 0x10, AT(F_SYSCALL, 0x10));	/* kthread_fn */
	assert_int_equal(sp, regs_at);
	regs_frame(fx, sp, USER_IP, 0x7ffc00000000ULL, 0, 0x33);

	text = orc_walk(fx, thread_sp, &note);
	assert_string_equal(text,
			    "[<0>] func_c+0x15/0x100\n"
			    "[<0>] kthread_fn+0x40/0x100\n"
			    "[<0>] entry_syscall+0x10/0x100\n");
	assert_null(note);
	free(text);
}

/*
 * func_x ends with a call to a noreturn function, so its return address
 * is func_y's first byte.  ORC and %pB both look at ip - 1: func_x.
 * (func_y's own ORC entry is undefined: looking it up would stop.)
 */
static void test_noreturn_ip_minus_1(void **state)
{
	struct fixture *fx = *state;
	uint64_t thread_sp = STACK + 0x2000, sp;
	const char *note = "unset";
	char *text;

	sp = switch_frame(fx, thread_sp);
	sp = call_frame(fx, sp, 0x28, AT(F_SCHEDULE, 0x20));
	sp = call_frame(fx, sp, 0x10, AT(F_C, 0x15));
	sp = call_frame(fx, sp, 0x18, AT(F_Y, 0));		/* func_c */
	sp = call_frame(fx, sp, 0x10, AT(F_KTHREAD, 0x30));	/* func_x */
	call_frame(fx, sp, 0x10, AT(F_FORK, 0x1f));

	text = orc_walk(fx, thread_sp, &note);
	assert_string_equal(text,
			    "[<0>] func_c+0x15/0x100\n"
			    "[<0>] func_x+0x100/0x100\n"
			    "[<0>] kthread_fn+0x30/0x100\n"
			    "[<0>] ret_from_fork+0x1f/0x30\n");
	assert_null(note);
	free(text);
}

/* MAX_STACK_TRACE_DEPTH: 64 printed frames; dropped sched frames don't count. */
static void test_cap_64(void **state)
{
	struct fixture *fx = *state;
	uint64_t thread_sp = STACK + 0x100, sp;
	char *text, *last;
	int i;

	sp = switch_frame(fx, thread_sp);
	sp = call_frame(fx, sp, 0x28, AT(F_SCHEDULE, 0x20));
	sp = call_frame(fx, sp, 0x10, AT(F_REC, 0x11));
	for (i = 0; i < 70; i++)
		sp = call_frame(fx, sp, 0x10, AT(F_REC, 0x11));
	call_frame(fx, sp, 0x10, AT(F_FORK, 0x1f));

	text = orc_walk(fx, thread_sp, NULL);
	assert_int_equal(orc_count_lines(text), KS_STACK_MAX_FRAMES);
	last = strrchr(text, '[');
	assert_string_equal(last, "[<0>] recurse_fn+0x11/0x100\n");
	free(text);
}

/* Bad ORC data that does not move sp: stop, keep the frames so far, say why. */
static void test_loop_stops(void **state)
{
	struct fixture *fx = *state;
	uint64_t thread_sp = STACK + 0x1000, sp;
	const char *note = NULL;
	char *text;

	sp = switch_frame(fx, thread_sp);
	sp = call_frame(fx, sp, 0x28, AT(F_SCHEDULE, 0x20));
	sp = call_frame(fx, sp, 0x10, AT(F_C, 0x15));
	sp = call_frame(fx, sp, 0x18, AT(F_LOOP, 0x10));	/* func_c */
	ks_fake_write_u64(fx->f, sp - 8, AT(F_LOOP, 0x10));	/* loop_fn: same slot */

	text = orc_walk(fx, thread_sp, &note);
	assert_string_equal(text,
			    "[<0>] func_c+0x15/0x100\n"
			    "[<0>] loop_fn+0x10/0x100\n");
	assert_non_null(note);
	assert_non_null(strstr(note, "wrong direction"));
	free(text);
}

/* A pt_regs whose sp points back down the stack is a loop too. */
static void test_regs_loop(void **state)
{
	struct fixture *fx = *state;
	uint64_t thread_sp = STACK + 0x1800, sp;
	const char *note = NULL;
	char *text;

	sp = switch_frame(fx, thread_sp);
	sp = call_frame(fx, sp, 0x28, AT(F_SCHEDULE, 0x20));
	sp = call_frame(fx, sp, 0x10, AT(F_IRQ, 0x10));
	regs_frame(fx, sp, AT(F_A, 0x20), thread_sp, 0, 0x10);

	text = orc_walk(fx, thread_sp, &note);
	assert_string_equal(text, "[<0>] irq_entry+0x10/0x100\n");
	assert_non_null(note);
	free(text);
}

/* thread.sp outside the task stack: nothing, and a note. */
static void test_sp_outside(void **state)
{
	struct fixture *fx = *state;
	const char *note = NULL;
	char *text;

	text = orc_walk(fx, STACK + 0x100000, &note);
	assert_string_equal(text, "");
	assert_non_null(note);
	free(text);

	note = NULL;
	ks_fake_add_memory(fx->f, STACK + 0x10000, NULL, 0x1000);
	text = orc_walk(fx, STACK + 0x10000, &note);
	assert_string_equal(text, "");
	assert_non_null(note);
	free(text);
}

/* A frame reaching past the top of the stack stops the walk there. */
static void test_frame_past_stack(void **state)
{
	struct fixture *fx = *state;
	uint64_t thread_sp = STACK + 0x3e00, sp;
	const char *note = NULL;
	char *text;

	sp = switch_frame(fx, thread_sp);
	sp = call_frame(fx, sp, 0x28, AT(F_SCHEDULE, 0x20));
	call_frame(fx, sp, 0x10, AT(F_BIG, 0x10));

	text = orc_walk(fx, thread_sp, &note);
	assert_string_equal(text, "[<0>] big_frame_fn+0x10/0x100\n");
	assert_non_null(note);
	assert_non_null(strstr(note, "outside the task stack"));
	free(text);
}

/* Module text without ORC: the kernel's frame-pointer guess carries on. */
static void test_fp_fallback(void **state)
{
	struct fixture *fx = *state;
	uint64_t thread_sp = STACK + 0x2800, sp, sched_cfa, bp;
	const char *note = NULL;
	char *text;

	sp = switch_frame(fx, thread_sp);
	sched_cfa = call_frame(fx, sp, 0x28, AT(F_SCHEDULE, 0x20));
	sp = call_frame(fx, sched_cfa, 0x10, AT(F_NOORC, 0x10));	/* schedule */
	/*
	 * noorc_fn did push %rbp; mov %rsp,%rbp: bp points at the saved bp,
	 * the return address above it.  __schedule saved that bp (PREV_SP-16).
	 */
	bp = sp + 0x20;
	ks_fake_write_u64(fx->f, sched_cfa - 16, bp);
	ks_fake_write_u64(fx->f, bp, 0x3333);
	ks_fake_write_u64(fx->f, bp + 8, AT(F_KTHREAD, 0x30));
	call_frame(fx, bp + 16, 0x10, AT(F_FORK, 0x1f));

	text = orc_walk(fx, thread_sp, &note);
	assert_string_equal(text,
			    "[<0>] noorc_fn+0x10/0x80 [noorc]\n"
			    "[<0>] kthread_fn+0x30/0x100\n"
			    "[<0>] ret_from_fork+0x1f/0x30\n");
	assert_non_null(note);
	assert_non_null(strstr(note, "frame-pointer"));
	free(text);
}

/* A kernel-half return address that is not text ends the walk, with a note. */
static void test_not_text(void **state)
{
	struct fixture *fx = *state;
	uint64_t thread_sp = STACK + 0x2400, sp;
	const char *note = NULL;
	char *text;

	sp = switch_frame(fx, thread_sp);
	sp = call_frame(fx, sp, 0x28, AT(F_SCHEDULE, 0x20));
	sp = call_frame(fx, sp, 0x10, AT(F_C, 0x15));
	call_frame(fx, sp, 0x18, 0xffff888012345678ULL);

	text = orc_walk(fx, thread_sp, &note);
	assert_string_equal(text, "[<0>] func_c+0x15/0x100\n");
	assert_non_null(note);
	free(text);
}

/* Every stored word of a random stack: the walk must end, whatever it finds. */
static void test_garbage_stack(void **state)
{
	struct fixture *fx = *state;
	uint64_t addrs[] = { AT(F_A, 0x10), AT(F_LOOP, 0x10), AT(F_IRQ, 0x10),
			     AT(F_REC, 0x11), STACK + 0x2000, AT(F_SCHED, 0x50),
			     AT(F_Y, 0), MOD_TEXT + 0x130, 0 };
	unsigned int seed = 1;
	uint64_t a;
	char *text;
	int i, round;

	for (round = 0; round < 50; round++) {
		for (a = STACK; a < STACK + STACK_SIZE; a += 8) {
			seed = seed * 1103515245u + 12345u;
			ks_fake_write_u64(fx->f, a, addrs[(seed >> 16) % 9] +
					  ((seed >> 8) & 0x38));
		}
		for (i = 0; i < 4; i++) {
			text = orc_walk(fx, STACK + 0x1000 * (uint64_t)i + 0x40, NULL);
			assert_true(orc_count_lines(text) <= KS_STACK_MAX_FRAMES);
			free(text);
		}
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_blocked_task, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_reads_from_sp_up,
						orc_setup_upper_half, orc_teardown),
		cmocka_unit_test_setup_teardown(test_user_task, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_noreturn_ip_minus_1, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_cap_64, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_loop_stops, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_regs_loop, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_sp_outside, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_frame_past_stack, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_fp_fallback, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_not_text, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_garbage_stack, orc_setup, orc_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
