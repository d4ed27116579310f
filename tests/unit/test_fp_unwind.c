// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The frame-pointer unwinder (shared/kernel/arch/fp/fp_unwind.c) on the fake
 * kernel of orc_fixture.h loaded without ORC tables, as a kernel built
 * with CONFIG_UNWINDER_FRAME_POINTER is: frame chains ending at
 * task_pt_regs(), a pt_regs encoded in bp, and every way a chain must
 * stop on bad data, through ks_stack_text() as /proc/PID/stack prints it.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "orc_fixture.h"

#define STACK_END	(STACK + STACK_SIZE)
/* task_pt_regs() and last_frame() without TOP_OF_KERNEL_STACK_PADDING */
#define PT_REGS		(STACK_END - KS_PT_REGS_SIZE)
#define LAST_FRAME	(PT_REGS - 16)
#define THREAD_SP	(STACK + 0x3000)

/* A frame at at: the caller's bp, then the return address. */
static void frame(struct fixture *fx, uint64_t at, uint64_t next_bp, uint64_t ret)
{
	assert_int_equal(ks_fake_write_u64(fx->f, at, next_bp), 0);
	assert_int_equal(ks_fake_write_u64(fx->f, at + 8, ret), 0);
}

/* inactive_task_frame at THREAD_SP: its bp leads to next_bp, __schedule's return. */
static void switched_out(struct fixture *fx, uint64_t next_bp)
{
	frame(fx, THREAD_SP + 40, next_bp, AT(F_SCHED, 0x50));
}

/* ks_orc_load_text(): the text ranges and modules, no table. */
static void test_frame_pointers_chosen(void **state)
{
	struct fixture *fx = *state;

	assert_true(fx->orc->frame_pointers);
	assert_int_equal(fx->orc->vmlinux.num, 0);
	/* both modules read, and no complaint that they lack ORC tables */
	assert_int_equal(fx->orc->nr_mods, 2);
	assert_int_equal(fx->orc->nr_problems, 0);
}

/*
 * A user task in a syscall: the sched and lock frames are dropped, the
 * module frame names its module, do_syscall_64's frame sits just below
 * the user registers at task_pt_regs() and ends the walk with no note.
 */
static void test_user_task(void **state)
{
	struct fixture *fx = *state;
	const char *note = "unset";
	char *text;

	switched_out(fx, STACK + 0x3100);
	frame(fx, STACK + 0x3100, STACK + 0x3140, AT(F_SCHEDULE, 0x20));
	frame(fx, STACK + 0x3140, STACK + 0x3180, AT(F_C, 0x15));
	frame(fx, STACK + 0x3180, STACK + 0x31c0, AT(F_LOCK, 0x10));
	frame(fx, STACK + 0x31c0, LAST_FRAME, AT(F_MOD, 0x30));
	frame(fx, LAST_FRAME, 0, AT(F_SYSCALL, 0x20));
	regs_frame(fx, PT_REGS, USER_IP, 0x7ffc00001000ULL, 0, 0x33);

	text = orc_walk(fx, THREAD_SP, &note);
	assert_string_equal(text,
			    "[<0>] func_c+0x15/0x100\n"
			    "[<0>] mod_fn+0x30/0x80 [mymod]\n"
			    "[<0>] entry_syscall+0x20/0x100\n");
	assert_null(note);
	free(text);
}

/*
 * A kernel thread: its own frame is last_frame(), returning into
 * ret_from_fork; the kernel-mode regs copy_thread() left above it end the
 * walk there, with no note.
 */
static void test_kthread(void **state)
{
	struct fixture *fx = *state;
	const char *note = "unset";
	char *text;

	switched_out(fx, STACK + 0x3100);
	frame(fx, STACK + 0x3100, STACK + 0x3140, AT(F_SCHEDULE, 0x20));
	frame(fx, STACK + 0x3140, LAST_FRAME, AT(F_KTHREAD, 0x30));
	frame(fx, LAST_FRAME, PT_REGS | 1, AT(F_FORK, 0x1f));
	regs_frame(fx, PT_REGS, 0, 0, 0, 0);

	text = orc_walk(fx, THREAD_SP, &note);
	assert_string_equal(text,
			    "[<0>] kthread_fn+0x30/0x100\n"
			    "[<0>] ret_from_fork+0x1f/0x30\n");
	assert_null(note);
	free(text);
}

/*
 * An interrupt: the entry code set bp to its pt_regs plus 1
 * (ENCODE_FRAME_POINTER); the walk goes on at the interrupted ip and
 * from the bp saved in those registers.
 */
static void test_interrupt_regs(void **state)
{
	struct fixture *fx = *state;
	uint64_t regs = STACK + 0x3200;
	const char *note = "unset";
	char *text;

	switched_out(fx, STACK + 0x3100);
	frame(fx, STACK + 0x3100, STACK + 0x3140, AT(F_SCHEDULE, 0x20));
	frame(fx, STACK + 0x3140, regs | 1, AT(F_B, 0x40));
	regs_frame(fx, regs, AT(F_A, 0x20), regs + KS_PT_REGS_SIZE, STACK + 0x3300, 0x10);
	frame(fx, STACK + 0x3300, LAST_FRAME, AT(F_KTHREAD, 0x30));
	frame(fx, LAST_FRAME, 0, AT(F_FORK, 0x1f));
	regs_frame(fx, PT_REGS, 0, 0, 0, 0);

	text = orc_walk(fx, THREAD_SP, &note);
	assert_string_equal(text,
			    "[<0>] func_b+0x40/0x100\n"
			    "[<0>] func_a+0x20/0x100\n"
			    "[<0>] kthread_fn+0x30/0x100\n"
			    "[<0>] ret_from_fork+0x1f/0x30\n");
	assert_null(note);
	free(text);
}

/* A bp leading back down the stack: the frames so far, then a note. */
static void test_loop_stops(void **state)
{
	struct fixture *fx = *state;
	const char *note = NULL;
	char *text;

	switched_out(fx, STACK + 0x3100);
	frame(fx, STACK + 0x3100, STACK + 0x3140, AT(F_A, 0x10));
	frame(fx, STACK + 0x3140, STACK + 0x3100, AT(F_B, 0x10));

	text = orc_walk(fx, THREAD_SP, &note);
	assert_string_equal(text,
			    "[<0>] func_a+0x10/0x100\n"
			    "[<0>] func_b+0x10/0x100\n");
	assert_non_null(note);
	assert_non_null(strstr(note, "does not lead up the stack"));
	free(text);
}

/* A bp outside the task stack, and a frame that would end past its top. */
static void test_bp_outside(void **state)
{
	struct fixture *fx = *state;
	const char *note = NULL;
	char *text;

	switched_out(fx, STACK + 0x3100);
	frame(fx, STACK + 0x3100, 0xffff888000001000ULL, AT(F_A, 0x10));
	text = orc_walk(fx, THREAD_SP, &note);
	assert_string_equal(text, "[<0>] func_a+0x10/0x100\n");
	assert_non_null(note);
	assert_non_null(strstr(note, "outside the task stack"));
	free(text);

	note = NULL;
	frame(fx, STACK + 0x3100, STACK_END - 8, AT(F_A, 0x10));
	text = orc_walk(fx, THREAD_SP, &note);
	assert_string_equal(text, "[<0>] func_a+0x10/0x100\n");
	assert_non_null(note);
	assert_non_null(strstr(note, "outside the task stack"));
	free(text);
}

/*
 * 64 frames at most, counted after the sched and lock frames are dropped
 * (stack_trace_consume_entry_nosched()).
 */
static void test_cap_64(void **state)
{
	struct fixture *fx = *state;
	uint64_t at = STACK + 0x3100;
	const char *note = "unset";
	char *text;
	int i;

	switched_out(fx, at);
	frame(fx, at, at + 16, AT(F_SCHEDULE, 0x20));
	frame(fx, at + 16, at + 32, AT(F_LOCK, 0x10));
	for (i = 2; i < 102; i++)
		frame(fx, at + 16 * (uint64_t)i, at + 16 * (uint64_t)(i + 1), AT(F_A, 0x10));

	text = orc_walk(fx, THREAD_SP, &note);
	assert_int_equal(orc_count_lines(text), KS_STACK_MAX_FRAMES);
	assert_null(strstr(text, "schedule"));
	assert_null(strstr(text, "_raw_spin_lock"));
	assert_null(note);
	free(text);
}

/* On a CPU: the registers' ip first, then the chain from their bp. */
static void test_on_cpu(void **state)
{
	struct fixture *fx = *state;
	struct ks_stack_start st = {
		.stack_base = STACK, .stack_size = STACK_SIZE, .on_cpu = true,
	};
	const char *note = "unset";
	char *text = NULL;

	frame(fx, STACK + 0x3100, LAST_FRAME, AT(F_B, 0x40));
	frame(fx, LAST_FRAME, PT_REGS | 1, AT(F_FORK, 0x1f));
	regs_frame(fx, PT_REGS, 0, 0, 0, 0);
	st.regs.ip = AT(F_C, 0x15);
	st.regs.sp = STACK + 0x30e0;
	st.regs.bp = STACK + 0x3100;

	assert_int_equal(ks_stack_text(&fx->t, fx->orc, &st, &text, &note), 0);
	assert_string_equal(text,
			    "[<0>] func_c+0x15/0x100\n"
			    "[<0>] func_b+0x40/0x100\n"
			    "[<0>] ret_from_fork+0x1f/0x30\n");
	assert_null(note);
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_frame_pointers_chosen, orc_setup_fp,
						orc_teardown),
		cmocka_unit_test_setup_teardown(test_user_task, orc_setup_fp, orc_teardown),
		cmocka_unit_test_setup_teardown(test_kthread, orc_setup_fp, orc_teardown),
		cmocka_unit_test_setup_teardown(test_interrupt_regs, orc_setup_fp,
						orc_teardown),
		cmocka_unit_test_setup_teardown(test_loop_stops, orc_setup_fp, orc_teardown),
		cmocka_unit_test_setup_teardown(test_bp_outside, orc_setup_fp, orc_teardown),
		cmocka_unit_test_setup_teardown(test_cap_64, orc_setup_fp, orc_teardown),
		cmocka_unit_test_setup_teardown(test_on_cpu, orc_setup_fp, orc_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
