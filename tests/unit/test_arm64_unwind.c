// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The arm64 frame-record unwinder (shared/kernel/arch/arm64_unwind.c) on
 * stacks forged in the fake target: a blocked task from its cpu_context,
 * PAC-signed return addresses (the mask from KERNELPACMASK, VA_BITS or
 * the 48 bits a 52-bit build runs on a CPU without LPA2), sched text
 * skipped, the final frame record of 6.1 (by address) and of 6.13+
 * (FRAME_META_TYPE_FINAL), an exception boundary both ways, a loop in
 * the records, the 64-frame limit, records outside the stack, a CPU's
 * registers, and the arch table around it (the registers libkdumpfile
 * names, for both architectures).
 */
#include <elf.h>
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
#include "fake_target.h"
#include "kernel_tasks.h"
#include "said.h"
#include "x86_64_unwind.h"

#define STACK		0xffff800010000000ull	/* a vmap'ed task stack */
#define STACK_SIZE	0x4000ull
#define TEXT		0xffff800008010000ull
#define FUNC(i)		(TEXT + (uint64_t)(i) * 0x100)
#define AT(i, off)	(FUNC(i) + (off))

/* struct pt_regs as this test lays it out: regs[31] at 0, pc, stackframe */
#define PT_SIZE		0x150ull
#define PT_PC		0x100ull
#define PT_STACKFRAME	0x130ull
#define FINAL		(STACK + STACK_SIZE - PT_SIZE + PT_STACKFRAME)

enum { F_SWITCH, F_SCHEDULE, F_POLL, F_SVC, F_WORK, F_KTHREAD, F_DEEP };

static const char *const names[] = {
	"__switch_to", "schedule", "do_poll", "el0_svc", "do_work", "kthread",
	"deep",
};

struct env {
	struct ks_fake *f;
	struct ks_target t;
	struct ks_arm64_unwind u;
};

static void add_members(struct ks_fake *f, bool meta)
{
	assert_int_equal(ks_fake_add_type(f, "pt_regs", (long)PT_SIZE), 0);
	assert_int_equal(ks_fake_add_member(f, "pt_regs", "regs", 0, 248), 0);
	assert_int_equal(ks_fake_add_member(f, "pt_regs", "pc", (long)PT_PC, 8), 0);
	assert_int_equal(ks_fake_add_member(f, "pt_regs", "stackframe",
					    (long)PT_STACKFRAME, meta ? 24 : 16), 0);
	if (meta)
		assert_int_equal(ks_fake_add_member(f, "frame_record_meta", "type",
						    16, 8), 0);
}

static struct env *make_env(bool meta, const char *vmcoreinfo)
{
	struct env *e = calloc(1, sizeof(*e));
	size_t i;

	assert_non_null(e);
	e->f = ks_fake_create();
	assert_non_null(e->f);
	ks_fake_set_arch(e->f, "aarch64");
	assert_int_equal(ks_fake_add_memory(e->f, STACK, NULL, STACK_SIZE), 0);
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		assert_int_equal(ks_fake_add_symbol(e->f, names[i], FUNC(i), 0x100,
						    NULL), 0);
	/* schedule() is __sched: in_sched_functions() drops it */
	assert_int_equal(ks_fake_add_symbol(e->f, "__sched_text_start",
					    FUNC(F_SCHEDULE), 0, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(e->f, "__sched_text_end",
					    FUNC(F_POLL), 0, NULL), 0);
	add_members(e->f, meta);
	assert_int_equal(ks_fake_set_vmcoreinfo(e->f, vmcoreinfo), 0);
	ks_fake_target(e->f, &e->t);
	assert_int_equal(ks_arm64_unwind_load(&e->t, &e->u), 0);
	return e;
}

static int setup_61(void **state)
{
	*state = make_env(false, "NUMBER(VA_BITS)=48\n"
			  "NUMBER(KERNELPACMASK)=0xffff000000000000\n");
	return 0;
}

static int setup_613(void **state)
{
	*state = make_env(true, "NUMBER(VA_BITS)=48\n");
	return 0;
}

/* Debian's 6.12 (VA_BITS 52) on a CPU without LPA2: 48 bits at run time */
static int setup_52_on_48(void **state)
{
	*state = make_env(true, "NUMBER(VA_BITS)=52\n"
			  "NUMBER(TCR_EL1_T1SZ)=0x10\n");
	return 0;
}

static int teardown(void **state)
{
	struct env *e = *state;

	ks_fake_destroy(e->f);
	free(e);
	return 0;
}

/* paciasp's result: the PAC in bits 63..56 and 54..48, bit 55 kept. */
static uint64_t sign(uint64_t addr, unsigned int pac)
{
	uint64_t mask = 0xff7f000000000000ull;

	return (addr & ~mask) | (((uint64_t)pac * 0x0101010101010101ull) & mask);
}

static void record(struct env *e, uint64_t at, uint64_t fp, uint64_t lr)
{
	assert_int_equal(ks_fake_write_u64(e->f, at, fp), 0);
	assert_int_equal(ks_fake_write_u64(e->f, at + 8, lr), 0);
}

static char *walk(struct env *e, uint64_t pc, uint64_t fp, bool on_cpu,
		  const char **note)
{
	struct ks_stack_start st = { .stack_base = STACK, .stack_size = STACK_SIZE,
				     .on_cpu = on_cpu };
	char *text = NULL;

	st.regs.ip = pc;
	st.regs.bp = fp;
	assert_int_equal(ks_arm64_stack_text(&e->t, &e->u, &st, &text, note), 0);
	assert_non_null(text);
	return text;
}

/*
 * A task blocked in poll(): cpu_context.pc in __switch_to, schedule()
 * dropped as sched text, signed return addresses stripped, and the walk
 * ends quietly at task_pt_regs()->stackframe (6.1: known by its address;
 * the EL0 entry left it zero).
 */
static void test_blocked_61(void **state)
{
	struct env *e = *state;
	uint64_t f1 = STACK + 0x3e00, f2 = f1 + 0x40, f3 = f2 + 0x40;
	const char *note = "unset";
	char *text;

	record(e, f1, f2, sign(AT(F_SCHEDULE, 0x20), 0x5a));
	record(e, f2, f3, sign(AT(F_POLL, 0x30), 0x3c));
	record(e, f3, FINAL, sign(AT(F_SVC, 0x40), 0x81));
	record(e, FINAL, 0, 0);
	text = walk(e, AT(F_SWITCH, 0x10), f1, false, &note);
	assert_string_equal(text,
			    "[<0>] __switch_to+0x10/0x100\n"
			    "[<0>] do_poll+0x30/0x100\n"
			    "[<0>] el0_svc+0x40/0x100\n");
	assert_null(note);
	free(text);
}

/* A signed address with the PAC left in is no kernel address. */
static void test_pac_strip(void **state)
{
	struct env *e = *state;
	uint64_t lr = sign(AT(F_POLL, 0x30), 0x3c);

	assert_int_not_equal(lr, AT(F_POLL, 0x30));
	assert_int_equal(ks_arm64_strip_pac(&e->u, lr), AT(F_POLL, 0x30));
	/* user addresses lose their PAC the other way (bit 55 clear) */
	assert_int_equal(ks_arm64_strip_pac(&e->u, 0x003c00000040abcdull),
			 0x000000000040abcdull);
}

/* Without KERNELPACMASK, VA_BITS gives the same mask. */
static void test_pac_from_va_bits(void **state)
{
	struct env *e = *state;

	assert_int_equal(e->u.kernel_pac_mask, 0xffff000000000000ull);
	assert_int_equal(ks_arm64_strip_pac(&e->u, sign(AT(F_SVC, 4), 0xa5)),
			 AT(F_SVC, 4));
}

/*
 * ptrauth_kernel_pac_mask() is GENMASK_ULL(63, vabits_actual): a 52-bit
 * build on a 48-bit CPU signs bits 51..48 too, and VA_BITS would leave
 * them in.
 */
static void test_pac_from_vabits_actual(void **state)
{
	struct env *e = *state;

	assert_int_equal(e->u.kernel_pac_mask, 0xffff000000000000ull);
	assert_int_equal(e->u.user_pac_mask, 0x007f000000000000ull);
	assert_int_equal(ks_arm64_strip_pac(&e->u, sign(AT(F_SVC, 4), 0xa5)),
			 AT(F_SVC, 4));
	assert_int_equal(ks_arm64_strip_pac(&e->u, 0x003c00000040abcdull),
			 0x000000000040abcdull);
}

/*
 * 6.1's exception boundary: the EL1 entry's pt_regs->stackframe links
 * the interrupted x29 and pc, so the walk passes it as any record and
 * prints the interrupted function.
 */
static void test_exception_61(void **state)
{
	struct env *e = *state;
	uint64_t regs = STACK + 0x3c00, f1 = STACK + 0x3b00;
	uint64_t f4 = STACK + 0x3e00;
	const char *note = "unset";
	char *text;

	record(e, f1, regs + PT_STACKFRAME, sign(AT(F_SVC, 0x8), 0x11));
	record(e, regs + PT_STACKFRAME, f4, AT(F_WORK, 0x8));
	record(e, f4, FINAL, sign(AT(F_KTHREAD, 0x50), 0x22));
	text = walk(e, AT(F_SWITCH, 0x10), f1, false, &note);
	assert_string_equal(text,
			    "[<0>] __switch_to+0x10/0x100\n"
			    "[<0>] el0_svc+0x8/0x100\n"
			    "[<0>] do_work+0x8/0x100\n"
			    "[<0>] kthread+0x50/0x100\n");
	assert_null(note);
	free(text);
}

/*
 * 6.13+: a zero record followed by FRAME_META_TYPE_PT_REGS hands over to
 * the saved pc and x29 (kunwind_next_regs_pc()); FRAME_META_TYPE_FINAL at
 * task_pt_regs()->stackframe ends the walk.
 */
static void test_exception_613(void **state)
{
	struct env *e = *state;
	uint64_t regs = STACK + 0x3c00, f1 = STACK + 0x3b00;
	uint64_t f4 = STACK + 0x3e00;
	const char *note = "unset";
	char *text;

	record(e, f1, regs + PT_STACKFRAME, sign(AT(F_SVC, 0x8), 0x11));
	record(e, regs + PT_STACKFRAME, 0, 0);
	assert_int_equal(ks_fake_write_u64(e->f, regs + PT_STACKFRAME + 16, 2), 0);
	assert_int_equal(ks_fake_write_u64(e->f, regs + PT_PC, AT(F_WORK, 0xc)), 0);
	assert_int_equal(ks_fake_write_u64(e->f, regs + 29 * 8, f4), 0);
	record(e, f4, FINAL, sign(AT(F_KTHREAD, 0x50), 0x22));
	record(e, FINAL, 0, 0);
	assert_int_equal(ks_fake_write_u64(e->f, FINAL + 16, 1), 0);
	text = walk(e, AT(F_SWITCH, 0x10), f1, false, &note);
	assert_string_equal(text,
			    "[<0>] __switch_to+0x10/0x100\n"
			    "[<0>] el0_svc+0x8/0x100\n"
			    "[<0>] do_work+0xc/0x100\n"
			    "[<0>] kthread+0x50/0x100\n");
	assert_null(note);
	free(text);
}

/* A FINAL record anywhere but task_pt_regs() is damage, and said. */
static void test_final_elsewhere_613(void **state)
{
	struct env *e = *state;
	uint64_t f1 = STACK + 0x3b00, fake_final = STACK + 0x3c00;
	const char *note = NULL;
	char *text;

	record(e, f1, fake_final, AT(F_POLL, 0x4));
	record(e, fake_final, 0, 0);
	assert_int_equal(ks_fake_write_u64(e->f, fake_final + 16, 1), 0);
	text = walk(e, AT(F_SWITCH, 0x10), f1, false, &note);
	assert_string_equal(text,
			    "[<0>] __switch_to+0x10/0x100\n"
			    "[<0>] do_poll+0x4/0x100\n");
	assert_non_null(note);
	assert_non_null(strstr(note, "final frame record"));
	free(text);
}

/* Records that point back down: the walk stops with a note, never hangs. */
static void test_loop(void **state)
{
	struct env *e = *state;
	uint64_t f1 = STACK + 0x3e00, f2 = f1 + 0x40;
	const char *note = NULL;
	char *text;

	record(e, f1, f2, AT(F_POLL, 0x30));
	record(e, f2, f1, AT(F_SVC, 0x40));
	text = walk(e, AT(F_SWITCH, 0x10), f1, false, &note);
	assert_string_equal(text,
			    "[<0>] __switch_to+0x10/0x100\n"
			    "[<0>] do_poll+0x30/0x100\n"
			    "[<0>] el0_svc+0x40/0x100\n");
	assert_non_null(note);
	assert_non_null(strstr(note, "loop"));
	free(text);
}

/* A record outside the task stack, and one misaligned. */
static void test_outside_and_misaligned(void **state)
{
	struct env *e = *state;
	uint64_t f1 = STACK + 0x3e00;
	const char *note = NULL;
	char *text;

	record(e, f1, STACK + STACK_SIZE + 0x100, AT(F_POLL, 0x30));
	text = walk(e, AT(F_SWITCH, 0x10), f1, false, &note);
	assert_string_equal(text, "[<0>] __switch_to+0x10/0x100\n"
			    "[<0>] do_poll+0x30/0x100\n");
	assert_non_null(strstr(note, "outside the task's stack"));
	free(text);

	record(e, f1, f1 + 0x44, AT(F_POLL, 0x30));
	text = walk(e, AT(F_SWITCH, 0x10), f1, false, &note);
	assert_non_null(strstr(note, "aligned"));
	free(text);
}

/* MAX_STACK_TRACE_DEPTH: 64 frames and no more, with no note. */
static void test_64_frames(void **state)
{
	struct env *e = *state;
	uint64_t fp = STACK + 0x100;
	const char *note = "unset";
	char *text, *p;
	int i, lines = 0;

	for (i = 0; i < 80; i++)
		record(e, fp + (uint64_t)i * 0x20, fp + (uint64_t)(i + 1) * 0x20,
		       sign(AT(F_DEEP, i), 0x40 + (unsigned int)i));
	text = walk(e, AT(F_SWITCH, 0x10), fp, false, &note);
	for (p = text; (p = strchr(p, '\n')); p++)
		lines++;
	assert_int_equal(lines, 64);
	assert_non_null(strstr(text, "[<0>] deep+0x3e/0x100\n"));
	assert_null(strstr(text, "deep+0x3f/"));
	assert_null(note);
	free(text);
}

/* A running task: the CPU's pc first, then the records from its x29. */
static void test_on_cpu(void **state)
{
	struct env *e = *state;
	uint64_t f1 = STACK + 0x3f00;
	const char *note = "unset";
	char *text;

	record(e, f1, FINAL, sign(AT(F_KTHREAD, 0x50), 0x22));
	assert_int_equal(ks_fake_write_u64(e->f, FINAL + 16, 1), 0);
	text = walk(e, AT(F_WORK, 0x4), f1, true, &note);
	assert_string_equal(text, "[<0>] do_work+0x4/0x100\n"
			    "[<0>] kthread+0x50/0x100\n");
	assert_null(note);
	free(text);
}

/* An exited task's stack is freed: "" and no note, as the kernel. */
static void test_no_stack(void **state)
{
	struct env *e = *state;
	struct ks_stack_start st = { 0 };
	const char *note = "unset";
	char *text = NULL;

	assert_int_equal(ks_arm64_stack_text(&e->t, &e->u, &st, &text, &note), 0);
	assert_string_equal(text, "");
	assert_null(note);
	free(text);
}

static const struct ks_arch *arch_of(const char *name, unsigned int machine)
{
	const struct ks_arch *a;

	return ks_arch_resolve(name, machine, &a, NULL) ? NULL : a;
}

/* The table by every name its sources give, the prstatus registers. */
static void test_arch_table(void **state)
{
	uint64_t desc[14 + 34] = { 0 };
	struct ks_regs r;

	(void)state;
	assert_ptr_equal(arch_of("aarch64", 0), &ks_arch_arm64);
	assert_ptr_equal(arch_of("ARM64", 0), &ks_arch_arm64);
	assert_ptr_equal(arch_of("x86_64", 0), &ks_arch_x86_64);
	assert_ptr_equal(arch_of("X86_64", 0), &ks_arch_x86_64);
	assert_null(arch_of("riscv64", 0));
	assert_null(arch_of(NULL, 0));
	assert_ptr_equal(arch_of(NULL, EM_AARCH64), &ks_arch_arm64);
	assert_ptr_equal(arch_of(NULL, EM_X86_64), &ks_arch_x86_64);
	/* pr_reg at 112 (14 words): x29, lr, sp, pc at 29..32 */
	desc[14 + 29] = 0x29;
	desc[14 + 30] = 0x30;
	desc[14 + 31] = 0x31;
	desc[14 + 32] = 0x32;
	assert_int_equal(ks_arch_arm64.prstatus_regs(desc, sizeof(desc), &r), 0);
	assert_int_equal(r.bp, 0x29);
	assert_int_equal(r.r[0], 0x30);
	assert_int_equal(r.sp, 0x31);
	assert_int_equal(r.ip, 0x32);
	assert_int_equal(ks_arch_arm64.prstatus_regs(desc, sizeof(desc) - 8, &r),
			 -ENOENT);
}

/* A note reader that names registers: each value from its name, in order. */
struct reg_reader {
	char asked[512];
	const char *fail;	/* the name to refuse, or NULL */
};

static uint64_t reg_value(const char *name)
{
	uint64_t v = 0;

	for (; *name; name++)
		v = v * 131 + (unsigned char)*name;
	return v;
}

static int read_reg(void *arg, const char *name, uint64_t *val_ret)
{
	struct reg_reader *rr = arg;

	strcat(rr->asked, name);
	strcat(rr->asked, " ");
	if (rr->fail && !strcmp(name, rr->fail))
		return -ENOENT;
	*val_ret = reg_value(name);
	return 0;
}

/* ks_arch_named_regs(): each arch's names, where it keeps each, the first error. */
static void test_named_regs(void **state)
{
	struct reg_reader rr = { "", NULL };
	struct ks_regs r;

	(void)state;
	assert_int_equal(ks_arch_named_regs(&ks_arch_arm64, read_reg, &rr, &r), 0);
	assert_string_equal(rr.asked, "pc sp x29 lr ");
	assert_true(r.ip == reg_value("pc") && r.sp == reg_value("sp"));
	assert_true(r.bp == reg_value("x29") && r.r[0] == reg_value("lr"));
	assert_int_equal(r.r[1], 0);

	memset(&rr, 0, sizeof(rr));
	assert_int_equal(ks_arch_named_regs(&ks_arch_x86_64, read_reg, &rr, &r), 0);
	assert_string_equal(rr.asked, "rip rsp rbp r15 r14 r13 r12 rbp rbx r11 "
			    "r10 r9 r8 rax rcx rdx rsi rdi orig_rax ");
	assert_true(r.ip == reg_value("rip") && r.sp == reg_value("rsp"));
	assert_true(r.bp == reg_value("rbp"));
	assert_true(r.r[KS_PT_R15] == reg_value("r15"));
	assert_true(r.r[KS_PT_BP] == reg_value("rbp"));
	assert_true(r.r[KS_PT_R8] == reg_value("r8"));
	assert_true(r.r[KS_PT_DI] == reg_value("rdi"));
	assert_true(r.r[KS_PT_ORIG_AX] == reg_value("orig_rax"));

	/* the first refusal is the answer; nothing after it is asked for */
	memset(&rr, 0, sizeof(rr));
	rr.fail = "r11";
	r.ip = 7;
	assert_int_equal(ks_arch_named_regs(&ks_arch_x86_64, read_reg, &rr, &r),
			 -ENOENT);
	assert_string_equal(rr.asked, "rip rsp rbp r15 r14 r13 r12 rbp rbx r11 ");
	assert_int_equal(r.ip, 7);
}

static void said(void *arg, enum ks_say_level level, const char *msg)
{
	(void)level;
	snprintf(arg, 256, "%s", msg);
}

/* The core refuses an architecture it has no table for, by its name. */
static void test_unknown_arch_refused(void **state)
{
	struct env *e = *state;
	struct ks_kernel *k = NULL;
	char msg[256] = "";
	const struct ks_reporter rep = REPORT_TO(said, msg);
	const struct ks_arch *a = &ks_arch_x86_64;

	assert_int_equal(ks_arch_resolve("riscv64", 0, &a, &rep),
			 -EPROTONOSUPPORT);
	assert_null(a);
	assert_non_null(strstr(msg, "riscv64"));
	assert_int_equal(ks_arch_resolve(NULL, EM_RISCV, &a, &rep),
			 -EPROTONOSUPPORT);
	assert_non_null(strstr(msg, "does not say"));
	assert_int_equal(ks_arch_resolve(NULL, EM_AARCH64, &a, &rep), 0);
	assert_ptr_equal(a, &ks_arch_arm64);
	msg[0] = '\0';
	ks_fake_set_arch(e->f, NULL);
	ks_fake_target(e->f, &e->t);
	assert_int_equal(ks_kernel_open(&e->t, &k, &rep), -EPROTONOSUPPORT);
	assert_non_null(strstr(msg, "does not say"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_blocked_61, setup_61, teardown),
		cmocka_unit_test_setup_teardown(test_pac_strip, setup_61, teardown),
		cmocka_unit_test_setup_teardown(test_pac_from_va_bits, setup_613,
						teardown),
		cmocka_unit_test_setup_teardown(test_pac_from_vabits_actual,
						setup_52_on_48, teardown),
		cmocka_unit_test_setup_teardown(test_exception_61, setup_61, teardown),
		cmocka_unit_test_setup_teardown(test_exception_613, setup_613,
						teardown),
		cmocka_unit_test_setup_teardown(test_final_elsewhere_613, setup_613,
						teardown),
		cmocka_unit_test_setup_teardown(test_loop, setup_61, teardown),
		cmocka_unit_test_setup_teardown(test_outside_and_misaligned, setup_61,
						teardown),
		cmocka_unit_test_setup_teardown(test_64_frames, setup_61, teardown),
		cmocka_unit_test_setup_teardown(test_on_cpu, setup_613, teardown),
		cmocka_unit_test(test_named_regs),
		cmocka_unit_test_setup_teardown(test_no_stack, setup_61, teardown),
		cmocka_unit_test(test_arch_table),
		cmocka_unit_test_setup_teardown(test_unknown_arch_refused, setup_61,
						teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
