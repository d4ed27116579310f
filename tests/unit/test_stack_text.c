// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The /proc/PID/stack text beyond the walk: a task on a CPU, empty
 * stacks and their notes, return addresses a kretprobe replaced, on the
 * fake kernel of orc_fixture.h.
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

/* On a CPU: regs.ip first, then the walk from the registers. */
static void test_on_cpu(void **state)
{
	struct fixture *fx = *state;
	struct ks_stack_start st = {
		.stack_base = STACK,
		.stack_size = STACK_SIZE,
		.on_cpu = true,
	};
	uint64_t sp = STACK + 0x3800;
	const char *note = "unset";
	char *text = NULL;

	st.regs.ip = AT(F_A, 0x20);
	st.regs.sp = sp;
	sp = call_frame(fx, sp, 0x10, AT(F_KTHREAD, 0x30));
	call_frame(fx, sp, 0x10, AT(F_FORK, 0x1f));

	assert_int_equal(ks_stack_text(&fx->t, fx->orc, &st, &text, &note), 0);
	assert_string_equal(text,
			    "[<0>] func_a+0x20/0x100\n"
			    "[<0>] kthread_fn+0x30/0x100\n"
			    "[<0>] ret_from_fork+0x1f/0x30\n");
	assert_null(note);
	free(text);

	/* registers of user mode: no kernel frames at all */
	st.regs.ip = USER_IP;
	assert_int_equal(ks_stack_text(&fx->t, fx->orc, &st, &text, &note), 0);
	assert_string_equal(text, "");
	free(text);
}

/*
 * An empty stack the kernel would not print empty says why: a blocked
 * task always shows its syscall or kthread frames at least.
 */
static void test_empty_has_note(void **state)
{
	struct fixture *fx = *state;
	const char *note = NULL;
	char *text;

	/* thread.sp at the bottom of the stack: no frame there, only zeros */
	text = orc_walk(fx, STACK, &note);
	assert_string_equal(text, "");
	assert_non_null(note);
	assert_non_null(strstr(note, "thread.sp"));
	free(text);
	/* a saved return address that is a kernel address but no text */
	ks_fake_write_u64(fx->f, STACK + 0x1000 + 48, 0xffff888012345678ULL);
	note = NULL;
	text = orc_walk(fx, STACK + 0x1000, &note);
	assert_string_equal(text, "");
	assert_non_null(note);
	free(text);
}

/* A zombie's stack is freed: an empty trace, which is no failure. */
static void test_no_stack(void **state)
{
	struct fixture *fx = *state;
	struct ks_stack_start st = { 0 };
	const char *note = "unset";
	char *text = NULL;

	assert_int_equal(ks_stack_text(&fx->t, fx->orc, &st, &text, &note), 0);
	assert_string_equal(text, "");
	assert_null(note);
	free(text);
	assert_int_equal(ks_stack_text(&fx->t, fx->orc, NULL, &text, &note), -EINVAL);
	st.stack_base = STACK;
	assert_int_equal(ks_stack_text(&fx->t, fx->orc, &st, &text, &note), -EINVAL);
}

#define TASK		0xffff888000300000ULL
#define RETHOOK_NODE	0xffff888000301000ULL
#define TRAMPOLINE	FN(0xd000)

/*
 * A kretprobe on func_c's caller put arch_rethook_trampoline in func_c's
 * return slot; the real address waits in a rethook_node on the task.
 * Returns the thread.sp of that stack.
 */
static uint64_t rethook_stack(struct fixture *fx, uint32_t task_state)
{
	uint64_t thread_sp = STACK + 0x2000, sp, slot;
	uint8_t task[128] = { 0 }, node[48] = { 0 };
	uint64_t first = RETHOOK_NODE + 16, ret = AT(F_B, 0x40);

	ks_fake_add_symbol(fx->f, "arch_rethook_trampoline", TRAMPOLINE, 0x40, NULL);
	ks_fake_add_member(fx->f, "task_struct", "__state", 24, 4);
	ks_fake_add_member(fx->f, "task_struct", "rethooks", 100, 8);
	ks_fake_add_member(fx->f, "rethook_node", "llist", 16, 8);
	ks_fake_add_member(fx->f, "rethook_node", "ret_addr", 32, 8);
	ks_fake_add_member(fx->f, "rethook_node", "frame", 40, 8);

	sp = switch_frame(fx, thread_sp);
	sp = call_frame(fx, sp, 0x28, AT(F_SCHEDULE, 0x20));
	sp = call_frame(fx, sp, 0x10, AT(F_C, 0x15));
	sp = call_frame(fx, sp, 0x18, TRAMPOLINE);		/* func_c */
	slot = sp - 8;
	sp = call_frame(fx, sp, 0x20, AT(F_KTHREAD, 0x30));	/* func_b */
	call_frame(fx, sp, 0x10, AT(F_FORK, 0x1f));

	memcpy(task + 24, &task_state, 4);
	memcpy(task + 100, &first, 8);
	memcpy(node + 32, &ret, 8);
	memcpy(node + 40, &slot, 8);
	assert_int_equal(ks_fake_add_memory(fx->f, TASK, task, sizeof(task)), 0);
	assert_int_equal(ks_fake_add_memory(fx->f, RETHOOK_NODE, node, sizeof(node)), 0);
	return thread_sp;
}

static char *walk_task(struct fixture *fx, uint64_t thread_sp, uint64_t task,
		       const char **note)
{
	struct ks_stack_start st = {
		.stack_base = STACK,
		.stack_size = STACK_SIZE,
		.thread_sp = thread_sp,
		.task = task,
	};
	char *text = NULL;

	assert_int_equal(ks_stack_text(&fx->t, fx->orc, &st, &text, note), 0);
	return text;
}

static void test_rethook_recovered(void **state)
{
	struct fixture *fx = *state;
	uint64_t thread_sp = rethook_stack(fx, 1);	/* TASK_INTERRUPTIBLE */
	const char *note = "unset";
	char *text = walk_task(fx, thread_sp, TASK, &note);

	assert_string_equal(text,
			    "[<0>] func_c+0x15/0x100\n"
			    "[<0>] func_b+0x40/0x100\n"
			    "[<0>] kthread_fn+0x30/0x100\n"
			    "[<0>] ret_from_fork+0x1f/0x30\n");
	assert_null(note);
	free(text);
}

/* rethook_find_ret_addr() gives up on a running task: the walk ends there. */
static void test_rethook_running(void **state)
{
	struct fixture *fx = *state;
	uint64_t thread_sp = rethook_stack(fx, 0);	/* TASK_RUNNING */
	char *text = walk_task(fx, thread_sp, TASK, NULL);

	assert_string_equal(text, "[<0>] func_c+0x15/0x100\n");
	free(text);
}

/* Without the task the trampoline stays, and the note names it. */
static void test_rethook_no_task(void **state)
{
	struct fixture *fx = *state;
	uint64_t thread_sp = rethook_stack(fx, 1);
	const char *note = NULL;
	char *text = walk_task(fx, thread_sp, 0, &note);

	assert_non_null(strstr(text, "[<0>] func_c+0x15/0x100\n"));
	assert_non_null(note);
	assert_non_null(strstr(note, "kretprobe"));
	free(text);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_on_cpu, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_no_stack, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_empty_has_note, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_rethook_recovered, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_rethook_running, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_rethook_no_task, orc_setup, orc_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
