// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --cpus on arm64 (shared/kernel/arch/arm64_cpu_trace.c) over a fake
 * kernel: a CPU in an interrupt handler on its IRQ stack (irq_stack_ptr),
 * whose frame records lead through the pt_regs' stackframe of the el1
 * entry to the interrupted frames on the task stack and its final frame
 * record; a record that goes back to a stack already left ends the trace
 * with a note; and the text as arm64's __show_regs() and dump_backtrace()
 * write it (pc, lr without its PAC bits, sp, "Call trace:", no stack
 * markers).
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

#include "arm64.h"
#include "cpu_record.h"
#include "fake_target.h"
#include "format_cpus.h"

#define STACK		0xffff800010000000ull	/* the task stack */
#define STACK_SIZE	0x4000ull
#define IRQ_STACK	0xffff800010100000ull	/* CPU 0's irq_stack_ptr */
#define PCPU_OFFSETS	0xffff800009000000ull	/* __per_cpu_offset[] */
#define PCPU_VARS	0xffff800009001000ull	/* CPU 0's per-CPU area */
#define TEXT		0xffff800008010000ull
#define FUNC(i)		(TEXT + (uint64_t)(i) * 0x100)
#define AT(i, off)	(FUNC(i) + (off))
/* x30 as paciasp leaves it: a PAC in the top bits, bit 55 kept */
#define SIGNED(a)	(((a) & 0x0000ffffffffffffull) | 0x61b0000000000000ull)

/* struct pt_regs as the test lays it out: regs[31] at 0, pc, stackframe */
#define PT_SIZE		0x150ull
#define PT_PC		0x100ull
#define PT_STACKFRAME	0x130ull
#define FINAL		(STACK + STACK_SIZE - PT_SIZE + PT_STACKFRAME)
/* the el1 IRQ entry's pt_regs on the task stack */
#define ENTRY_REGS	(STACK + 0x3000)

enum { F_HANDLER, F_GENERIC, F_CALL_IRQ, F_IDLE, F_DO_IDLE, F_FORK };

static const char *const names[] = {
	"timer_handler", "generic_handle_irq", "call_on_irq_stack",
	"cpu_do_idle", "do_idle", "ret_from_fork",
};

struct env {
	struct ks_fake *f;
	struct ks_target t;
	struct ks_arm64_unwind u;
};

static int setup(void **state)
{
	struct env *e = calloc(1, sizeof(*e));
	struct ks_fake *f;

	assert_non_null(e);
	e->f = f = ks_fake_create();
	assert_non_null(f);
	ks_fake_set_arch(f, "aarch64");
	assert_int_equal(ks_fake_add_memory(f, STACK, NULL, STACK_SIZE), 0);
	assert_int_equal(ks_fake_add_memory(f, IRQ_STACK, NULL, STACK_SIZE), 0);
	assert_int_equal(ks_fake_add_memory(f, PCPU_OFFSETS, NULL, 64), 0);
	assert_int_equal(ks_fake_add_memory(f, PCPU_VARS, NULL, 64), 0);
	ks_fake_add_symbol(f, "__per_cpu_offset", PCPU_OFFSETS, 64, NULL);
	ks_fake_add_symbol(f, "irq_stack_ptr", PCPU_VARS, 8, NULL);
	assert_int_equal(ks_fake_write_u64(f, PCPU_VARS, IRQ_STACK), 0);
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_int_equal(ks_fake_add_symbol(f, names[i], FUNC(i), 0x100,
						    NULL), 0);
	assert_int_equal(ks_fake_add_type(f, "pt_regs", (long)PT_SIZE), 0);
	assert_int_equal(ks_fake_add_member(f, "pt_regs", "regs", 0, 248), 0);
	assert_int_equal(ks_fake_add_member(f, "pt_regs", "pc", (long)PT_PC, 8), 0);
	assert_int_equal(ks_fake_add_member(f, "pt_regs", "stackframe",
					    (long)PT_STACKFRAME, 16), 0);
	assert_int_equal(ks_fake_set_vmcoreinfo(f, "NUMBER(VA_BITS)=48\n"
				"NUMBER(KERNELPACMASK)=0xffff000000000000\n"), 0);
	ks_fake_target(f, &e->t);
	assert_int_equal(ks_arm64_unwind_load(&e->t, &e->u), 0);
	*state = e;
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	ks_fake_destroy(e->f);
	free(e);
	return 0;
}

static void record(struct env *e, uint64_t at, uint64_t fp, uint64_t lr)
{
	assert_int_equal(ks_fake_write_u64(e->f, at, fp), 0);
	assert_int_equal(ks_fake_write_u64(e->f, at + 8, lr), 0);
}

/*
 * The handler's records on the IRQ stack, then call_on_irq_stack()'s,
 * which links to the entry's pt_regs stackframe (the interrupted x29 and
 * pc, as el1 entry leaves them before 6.13), then do_idle's and the
 * final record.  back: call_on_irq_stack()'s record points back into the
 * IRQ stack instead.
 */
static void forge(struct env *e, bool back)
{
	uint64_t frame = ENTRY_REGS + PT_STACKFRAME;

	record(e, IRQ_STACK + 0x3f00, IRQ_STACK + 0x3f80, AT(F_GENERIC, 0x20));
	record(e, IRQ_STACK + 0x3f80, frame, AT(F_CALL_IRQ, 0x30));
	record(e, frame, back ? IRQ_STACK + 0x3fc0 : STACK + 0x3800,
	       AT(F_IDLE, 0x8));
	record(e, IRQ_STACK + 0x3fc0, FINAL, AT(F_GENERIC, 0x40));
	record(e, STACK + 0x3800, STACK + 0x3900, AT(F_DO_IDLE, 0x40));
	record(e, STACK + 0x3900, FINAL, AT(F_FORK, 0x4));
	record(e, FINAL, 0, 0);
}

static char *trace(struct env *e, struct ks_cpu *c)
{
	struct ks_cpu_start st = {
		.stack_base = STACK, .stack_size = STACK_SIZE,
		.regs = { .ip = AT(F_HANDLER, 0x10), .sp = IRQ_STACK + 0x3ef0,
			  .bp = IRQ_STACK + 0x3f00,
			  .r = { SIGNED(AT(F_GENERIC, 0x1c)) } },
	};
	struct ks_cpus cs = { .cpu = c, .nr = 1, .regs_source = "test",
			      .pc_lr = true };
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);

	assert_non_null(out);
	/* the walker's %pS of the signed x30, which cpu_trace redoes */
	c->lr_text = strdup("0x61b0800008010114");
	assert_int_equal(ks_arch_arm64.cpu_trace(&e->t, &e->u, &st, c), 0);
	c->ip_text = strdup("timer_handler+0x10/0x100");
	c->has_regs = true;
	c->regs = st.regs;
	assert_int_equal(ks_format_cpus(out, &cs, false), 0);
	fclose(out);
	return text;
}

static void release(struct ks_cpu *c)
{
	struct ks_cpus cs = { .cpu = calloc(1, sizeof(*c)), .nr = 1 };

	assert_non_null(cs.cpu);
	memcpy(cs.cpu, c, sizeof(*c));
	ks_cpus_release(&cs);
}

static void irq_stack_crossed(void **state)
{
	struct env *e = *state;
	struct ks_cpu c = { 0 };
	char *text;

	forge(e, false);
	text = trace(e, &c);
	assert_string_equal(text,
		"CPU: 0 PID: 0 Comm: \n"
		"Registers: test\n"
		"pc : timer_handler+0x10/0x100\n"
		"lr : generic_handle_irq+0x1c/0x100\n"
		"sp : ffff800010103ef0\n"
		"Call trace:\n"
		" timer_handler+0x10/0x100\n"
		" generic_handle_irq+0x20/0x100\n"
		" call_on_irq_stack+0x30/0x100\n"
		" cpu_do_idle+0x8/0x100\n"
		" do_idle+0x40/0x100\n"
		" ret_from_fork+0x4/0x100\n"
		"\n");
	assert_null(c.note);
	free(text);
	release(&c);
}

static void left_stack_not_entered_again(void **state)
{
	struct env *e = *state;
	struct ks_cpu c = { 0 };
	char *text;

	forge(e, true);
	text = trace(e, &c);
	assert_non_null(c.note);
	assert_non_null(strstr(text, " cpu_do_idle+0x8/0x100\n"
			       "The trace ends here: a frame record outside"));
	assert_null(strstr(text, "generic_handle_irq+0x40"));
	free(text);
	release(&c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(irq_stack_crossed, setup, teardown),
		cmocka_unit_test_setup_teardown(left_stack_not_entered_again,
						setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
