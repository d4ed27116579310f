// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --cpus on the fake kernel of orc_fixture.h: a CPU interrupted on its
 * IRQ stack (the interrupted sp in the stack's top word, crossed by the
 * wrapper's SP_INDIRECT frame), a CPU in an NMI (a pt_regs at the top of
 * its exception stack), frames the unwinder does not reach marked "? ",
 * a trace cut short that says why, and a CPU stopped in sync_regs(): the
 * pt_regs error_entry pushed sit at the return of its call.
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

#include "cpu_record.h"
#include "format_cpus.h"
#include "orc_fixture.h"

#define PCPU_OFFSETS	0xffffffff84000000ULL	/* __per_cpu_offset[] */
#define PCPU_VARS	0xffffffff84001000ULL	/* CPU 0's per-CPU area */
#define IRQ_STACK	0xffffc90000100000ULL
#define IRQ_TOP		(IRQ_STACK + 0x4000)
#define CEA		0xfffffe0000001000ULL	/* cea_exception_stacks */
#define NMI_TOP		(CEA + 0x4000)

/* CPU 0's per-CPU stacks: hardirq_stack_ptr and cea_exception_stacks. */
static void add_cpu_stacks(struct fixture *fx)
{
	struct ks_fake *f = fx->f;

	assert_int_equal(ks_fake_add_memory(f, PCPU_OFFSETS, NULL, 64), 0);
	assert_int_equal(ks_fake_add_memory(f, PCPU_VARS, NULL, 64), 0);
	ks_fake_add_symbol(f, "__per_cpu_offset", PCPU_OFFSETS, 64, NULL);
	ks_fake_add_symbol(f, "hardirq_stack_ptr", PCPU_VARS, 8, NULL);
	ks_fake_add_symbol(f, "cea_exception_stacks", PCPU_VARS + 8, 8, NULL);
	assert_int_equal(ks_fake_write_u64(f, PCPU_VARS, IRQ_TOP - 8), 0);
	assert_int_equal(ks_fake_write_u64(f, PCPU_VARS + 8, CEA), 0);
	assert_int_equal(ks_fake_add_memory(f, IRQ_STACK, NULL, 0x4000), 0);
	assert_int_equal(ks_fake_add_memory(f, CEA, NULL, 0x9000), 0);
	ks_fake_add_type(f, "cea_exception_stacks", 0x9000);
	ks_fake_add_member(f, "cea_exception_stacks", "DF_stack", 0x1000, 0x1000);
	ks_fake_add_member(f, "cea_exception_stacks", "NMI_stack", 0x3000, 0x1000);
	ks_fake_add_member(f, "cea_exception_stacks", "DB_stack", 0x5000, 0x1000);
	ks_fake_add_member(f, "cea_exception_stacks", "MCE_stack", 0x7000, 0x1000);
}

static char *trace(struct fixture *fx, uint64_t ip, uint64_t sp,
		   struct ks_cpu *c)
{
	struct ks_cpu_start st = {
		.stack_base = STACK, .stack_size = STACK_SIZE,
		.regs = { .ip = ip, .sp = sp },
	};
	struct ks_cpus cs = { .cpu = c, .nr = 1, .regs_source = "test" };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	assert_int_equal(ks_arch_x86_64.cpu_trace(&fx->t, fx->orc, &st, c), 0);
	c->ip_text = strdup("func_c+0x15/0x100");
	c->has_regs = true;
	c->regs = st.regs;
	assert_int_equal(ks_format_cpus(out, &cs, false), 0);
	fclose(out);
	return text;
}

static void release(struct ks_cpu *c)
{
	struct ks_cpus cs = { .cpu = c, .nr = 1 };

	c = calloc(1, sizeof(*c));	/* ks_cpus_release frees cs.cpu */
	assert_non_null(c);
	memcpy(c, cs.cpu, sizeof(*c));
	cs.cpu = c;
	ks_cpus_release(&cs);
}

/* What trace() prints before the stacks: func_c's registers, sp at %016llx. */
#define TRACE_HEAD	"CPU: 0 PID: 0 Comm: \n" \
			"Registers: test\n" \
			"RIP: func_c+0x15/0x100\n" \
			"RSP: %016llx\n" \
			"Call Trace:\n"

/* The trace is want, whole: no note. */
static void expect_whole(char *text, const char *want, struct ks_cpu *c)
{
	assert_string_equal(text, want);
	assert_null(c->note);
	free(text);
	release(c);
}

/*
 * func_c on the IRQ stack, called from irq_wrapper through
 * call_on_stack(), which left the task's sp in the top word; the task
 * was in func_a when the interrupt's pt_regs were pushed on its stack.
 */
static void test_irq_stack(void **state)
{
	struct fixture *fx = *state;
	uint64_t s0 = IRQ_TOP - 8 - 0x20 - 0x18, sp;
	uint64_t old_sp = STACK + 0x3000, regs_sp;
	struct ks_cpu c = { 0 };
	char *text, want[1024];

	add_cpu_stacks(fx);
	sp = call_frame(fx, s0, 0x18, AT(F_B, 0x40));		/* func_c */
	sp = call_frame(fx, sp, 0x20, AT(F_WRAP, 0x10));	/* func_b */
	assert_int_equal(sp, IRQ_TOP - 8);
	assert_int_equal(ks_fake_write_u64(fx->f, s0 + 8, AT(F_Y, 0x5)), 0);
	assert_int_equal(ks_fake_write_u64(fx->f, IRQ_TOP - 8, old_sp), 0);
	sp = call_frame(fx, old_sp, 0x10, AT(F_IRQ, 0x10));	/* irq_wrapper */
	regs_sp = sp + KS_PT_REGS_SIZE;
	sp = regs_frame(fx, sp, AT(F_A, 0x20), regs_sp, 0, 0x10);
	sp = call_frame(fx, sp, 0x10, AT(F_KTHREAD, 0x30));	/* func_a */
	call_frame(fx, sp, 0x10, AT(F_FORK, 0x1f));		/* kthread_fn */

	text = trace(fx, AT(F_C, 0x15), s0, &c);
	snprintf(want, sizeof(want),
		 TRACE_HEAD
		 " <IRQ>\n"
		 " ? func_y+0x5/0x100\n"
		 " func_b+0x40/0x100\n"
		 " irq_wrapper+0x10/0x100\n"
		 " </IRQ>\n"
		 " <TASK>\n"
		 " irq_entry+0x10/0x100\n"
		 "RIP: 0010:func_a+0x20/0x100\n"
		 "RSP: 0000:%016llx EFLAGS: 00000000\n"
		 " kthread_fn+0x30/0x100\n"
		 " ret_from_fork+0x1f/0x30\n"
		 " </TASK>\n\n",
		 (unsigned long long)s0, (unsigned long long)regs_sp);
	expect_whole(text, want, &c);
}

/* func_c in an NMI: the pt_regs at the NMI stack's top lead to the task. */
static void test_nmi_stack(void **state)
{
	struct fixture *fx = *state;
	uint64_t regs_at = NMI_TOP - KS_PT_REGS_SIZE, s0 = regs_at - 0x20 - 0x18;
	uint64_t task_sp = STACK + 0x3800, sp;
	uint64_t regs[KS_PT_WORDS] = { 0 };
	struct ks_cpu c = { 0 };
	char *text, want[1024];

	add_cpu_stacks(fx);
	sp = call_frame(fx, s0, 0x18, AT(F_B, 0x40));		/* func_c */
	sp = call_frame(fx, sp, 0x20, AT(F_IRQ, 0x10));	/* func_b */
	assert_int_equal(sp, regs_at);
	regs[KS_PT_IP] = AT(F_A, 0x20);
	regs[KS_PT_CS] = 0x10;
	regs[KS_PT_FLAGS] = 0x246;
	regs[KS_PT_SP] = task_sp;
	regs[KS_PT_SS] = 0x18;
	assert_int_equal(ks_fake_write(fx->f, regs_at, regs, sizeof(regs)), 0);
	sp = call_frame(fx, task_sp, 0x10, AT(F_KTHREAD, 0x30));	/* func_a */
	call_frame(fx, sp, 0x10, AT(F_FORK, 0x1f));		/* kthread_fn */

	text = trace(fx, AT(F_C, 0x15), s0, &c);
	snprintf(want, sizeof(want),
		 TRACE_HEAD
		 " <NMI>\n"
		 " func_b+0x40/0x100\n"
		 " irq_entry+0x10/0x100\n"
		 "RIP: 0010:func_a+0x20/0x100\n"
		 "RSP: 0018:%016llx EFLAGS: 00000246\n"
		 " </NMI>\n"
		 " <TASK>\n"
		 " kthread_fn+0x30/0x100\n"
		 " ret_from_fork+0x1f/0x30\n"
		 " </TASK>\n\n",
		 (unsigned long long)s0, (unsigned long long)task_sp);
	expect_whole(text, want, &c);
}

/* The IRQ stack's top word leads nowhere: the trace says why it ends. */
static void test_irq_stack_broken(void **state)
{
	struct fixture *fx = *state;
	uint64_t s0 = IRQ_TOP - 8 - 0x20 - 0x18, sp;
	struct ks_cpu c = { 0 };
	char *text;

	add_cpu_stacks(fx);
	sp = call_frame(fx, s0, 0x18, AT(F_B, 0x40));
	call_frame(fx, sp, 0x20, AT(F_WRAP, 0x10));
	assert_int_equal(ks_fake_write_u64(fx->f, IRQ_TOP - 8, 0x1234000), 0);

	text = trace(fx, AT(F_C, 0x15), s0, &c);
	assert_non_null(strstr(text, " </IRQ>\nThe trace ends here: "));
	assert_non_null(c.note);
	free(text);
	release(&c);
}

/* A CPU in user mode has no kernel trace and nothing cut short. */
static void test_user_mode(void **state)
{
	struct fixture *fx = *state;
	struct ks_cpu_start st = { .stack_base = STACK, .stack_size = STACK_SIZE,
				   .regs = { .ip = USER_IP, .sp = 0x7ffc0000 } };
	struct ks_cpu c = { 0 };

	add_cpu_stacks(fx);
	assert_int_equal(ks_arch_x86_64.cpu_trace(&fx->t, fx->orc, &st, &c), 0);
	assert_int_equal(c.nr_lines, 0);
	assert_null(c.note);
}

#define ERROR_ENTRY	FN(0xe100)

/*
 * func_c plays sync_regs(), which error_entry jumps to: it returns to
 * asm_idt_entry+0x15, just after its "call error_entry", and the pt_regs
 * error_entry pushed (user mode's, at the stack's top) are at that sp.
 * The ORC entry there is the one before the call, as objtool leaves it
 * (iret frame at sp + 8): read by it, the trace would take r14's slot of
 * the pt_regs for the interrupted ip.
 */
static void test_error_entry_regs(void **state)
{
	struct fixture *fx = *state;
	uint64_t regs_at = STACK + STACK_SIZE - KS_PT_REGS_SIZE;
	uint64_t s0 = regs_at - 0x18;
	uint8_t call[5] = { 0xe8 };
	int32_t rel = (int32_t)(ERROR_ENTRY - AT(F_IDT, 0x15));
	struct ks_cpu c = { 0 };
	char *text, want[1024];

	add_cpu_stacks(fx);
	ks_fake_add_symbol(fx->f, "error_entry", ERROR_ENTRY, 0x100, NULL);
	memcpy(call + 1, &rel, sizeof(rel));
	assert_int_equal(ks_fake_add_memory(fx->f, AT(F_IDT, 0x10), call,
					    sizeof(call)), 0);
	call_frame(fx, s0, 0x18, AT(F_IDT, 0x15));		/* func_c */
	regs_frame(fx, regs_at, USER_IP, 0x7ffc0000, 0, 0x33);

	text = trace(fx, AT(F_C, 0x15), s0, &c);
	snprintf(want, sizeof(want),
		 TRACE_HEAD
		 " <TASK>\n"
		 " asm_idt_entry+0x15/0x20\n"
		 "RIP: 0033:0x7f0000001234\n"
		 "RSP: 0000:000000007ffc0000 EFLAGS: 00000000\n"
		 " </TASK>\n\n",
		 (unsigned long long)s0);
	expect_whole(text, want, &c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_irq_stack, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_nmi_stack, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_irq_stack_broken, orc_setup,
						orc_teardown),
		cmocka_unit_test_setup_teardown(test_user_mode, orc_setup, orc_teardown),
		cmocka_unit_test_setup_teardown(test_error_entry_regs, orc_setup,
						orc_teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
