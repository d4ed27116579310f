// SPDX-License-Identifier: GPL-2.0-or-later
/* The fake ORC kernel of orc_fixture.h. */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "orc_fixture.h"

/* A broken fixture is the test's own fault: stop there, saying where. */
#define must(cond) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "%s:%d: fixture: %s\n", __FILE__, \
				__LINE__, #cond); \
			abort(); \
		} \
	} while (0)

const struct orc_fn orc_fns[NR_FN] = {
	[F_A]		= { "func_a", FN(0x1000), 0x100, NULL },
	[F_B]		= { "func_b", FN(0x2000), 0x100, NULL },
	[F_C]		= { "func_c", FN(0x3000), 0x100, NULL },
	[F_IRQ]		= { "irq_entry", FN(0x4000), 0x100, NULL },
	[F_KTHREAD]	= { "kthread_fn", FN(0x5000), 0x100, NULL },
	[F_X]		= { "func_x", FN(0x6000), 0x100, NULL },
	[F_Y]		= { "func_y", FN(0x6100), 0x100, NULL },
	[F_REC]		= { "recurse_fn", FN(0x7000), 0x100, NULL },
	[F_LOOP]	= { "loop_fn", FN(0x8000), 0x100, NULL },
	[F_SYSCALL]	= { "entry_syscall", FN(0x9000), 0x100, NULL },
	[F_FORK]	= { "ret_from_fork", FN(0xa000), 0x30, NULL },
	[F_SCHED]	= { "__schedule", FN(0x80000), 0x800, NULL },
	[F_SCHEDULE]	= { "schedule", FN(0x80800), 0x100, NULL },
	[F_LOCK]	= { "_raw_spin_lock", FN(0x90000), 0x40, NULL },
	[F_MOD]		= { "mod_fn", MOD_TEXT + 0x100, 0x80, "mymod" },
	[F_NOORC]	= { "noorc_fn", NOORC_TEXT + 0x100, 0x80, "noorc" },
	[F_BIG]		= { "big_frame_fn", FN(0xb000), 0x100, NULL },
	[F_WRAP]	= { "irq_wrapper", FN(0xd000), 0x100, NULL },
	[F_IDT]		= { "asm_idt_entry", FN(0xe000), 0x20, NULL },
};

/* Sorted by ip, as sorttable leaves vmlinux's table. */
const struct orc_spec vmlinux_orc[] = {
	UNDEF(TEXT, 0),
	CALL(FN(0x1000), 0x10),		/* func_a */
	CALL(FN(0x2000), 0x20),		/* func_b */
	CALL(FN(0x3000), 0x18),		/* func_c */
	REGS(FN(0x4000)),		/* irq_entry: pt_regs at sp */
	CALL(FN(0x5000), 0x10),		/* kthread_fn */
	CALL(FN(0x6000), 0x10),		/* func_x, ends in a noreturn call */
	UNDEF(FN(0x6100), 0),		/* func_y: no valid ORC */
	CALL(FN(0x7000), 0x10),		/* recurse_fn */
	CALL(FN(0x8000), 0x0),		/* loop_fn: sp does not grow */
	REGS(FN(0x9000)),		/* entry_syscall */
	UNDEF(FN(0xa000), 1),		/* ret_from_fork: end of stack */
	CALL(FN(0xb000), 0x4000),	/* big_frame_fn: past the stack */
	UNDEF(FN(0xc000), 0),		/* a section terminator */
	/*
	 * irq_wrapper: call_on_stack()'s return address on the IRQ stack,
	 * whose caller's sp is the word at sp (the stack's top word).
	 */
	{ FN(0xd000), KS_ORC_REG_SP_INDIRECT, 0x10, KS_ORC_REG_UNDEFINED, 0,
	  KS_ORC_TYPE_CALL, 0 },
	UNDEF(FN(0xd100), 0),
	/*
	 * asm_idt_entry: an idtentry after its "pushq $-1", the iret frame
	 * at sp + 8, through its "call error_entry" (test_cpu_trace.c)
	 */
	{ FN(0xe000), KS_ORC_REG_SP, 8, KS_ORC_REG_UNDEFINED, 0,
	  KS_ORC_TYPE_REGS_PARTIAL, 0 },
	UNDEF(FN(0xe020), 0),
	{ FN(0x80000), KS_ORC_REG_SP, 0x28, KS_ORC_REG_PREV_SP, -16,
	  KS_ORC_TYPE_CALL, 0 },	/* __schedule */
	CALL(FN(0x80800), 0x10),	/* schedule */
	CALL(FN(0x90000), 0x8),		/* _raw_spin_lock */
};

const size_t nr_vmlinux_orc = sizeof(vmlinux_orc) / sizeof(vmlinux_orc[0]);

static const struct orc_spec mod_orc[] = {
	UNDEF(MOD_TEXT, 0),
	CALL(MOD_TEXT + 0x100, 0x10),	/* mod_fn */
};

static void encode_61(const struct orc_spec *o, uint8_t raw[KS_ORC_ENTRY_SIZE])
{
	unsigned int flags = (unsigned int)(o->sp_reg | o->bp_reg << 4 |
					    o->type << 8 | o->end << 10);

	raw[0] = (uint8_t)o->sp_offset;
	raw[1] = (uint8_t)((unsigned int)o->sp_offset >> 8);
	raw[2] = (uint8_t)o->bp_offset;
	raw[3] = (uint8_t)((unsigned int)o->bp_offset >> 8);
	raw[4] = (uint8_t)flags;
	raw[5] = (uint8_t)(flags >> 8);
}

/* An .orc_unwind_ip array (relative int32) and its .orc_unwind array. */
void add_orc_table(struct ks_fake *f, uint64_t ip_addr, uint64_t orc_addr,
		   const struct orc_spec *o, size_t n)
{
	int32_t *ips = calloc(n, sizeof(*ips));
	uint8_t *raw = calloc(n, KS_ORC_ENTRY_SIZE);
	size_t i;

	must(ips);
	must(raw);
	for (i = 0; i < n; i++) {
		ips[i] = (int32_t)(o[i].ip - (ip_addr + 4 * i));
		encode_61(&o[i], raw + KS_ORC_ENTRY_SIZE * i);
	}
	must(!(ks_fake_add_memory(f, ip_addr, ips, 4 * n)));
	must(!(ks_fake_add_memory(f, orc_addr, raw, KS_ORC_ENTRY_SIZE * n)));
	free(ips);
	free(raw);
}

void add_orc_bounds(struct ks_fake *f, uint64_t ip_addr, size_t nr_ip,
		    uint64_t orc_addr, size_t nr_orc)
{
	ks_fake_add_symbol(f, "__start_orc_unwind_ip", ip_addr, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind_ip", ip_addr + 4 * nr_ip, 0, NULL);
	ks_fake_add_symbol(f, "__start_orc_unwind", orc_addr, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind",
			   orc_addr + KS_ORC_ENTRY_SIZE * nr_orc, 0, NULL);
}

void add_vmlinux_orc(struct ks_fake *f, uint64_t ip_addr, uint64_t orc_addr,
		     const struct orc_spec *o, size_t n)
{
	add_orc_bounds(f, ip_addr, n, orc_addr, n);
	add_orc_table(f, ip_addr, orc_addr, o, n);
}

void add_module_types(struct ks_fake *f)
{
	ks_fake_add_member(f, "module", "state", M_STATE, 4);
	ks_fake_add_member(f, "module", "list", M_LIST, 16);
	ks_fake_add_member(f, "module", "name", M_NAME, 56);
	ks_fake_add_member(f, "module", "arch", M_ARCH, 24);
	ks_fake_add_member(f, "mod_arch_specific", "num_orcs", 0, 4);
	ks_fake_add_member(f, "mod_arch_specific", "orc_unwind_ip", 8, 8);
	ks_fake_add_member(f, "mod_arch_specific", "orc_unwind", 16, 8);
}

/*
 * inactive_task_frame and the 6.1 module layout; with orc, orc_entry and
 * mod_arch_specific's table pointers, which a kernel built without
 * CONFIG_UNWINDER_ORC lacks (its mod->arch is empty).
 */
static void add_types(struct ks_fake *f, bool orc)
{
	ks_fake_add_type(f, "inactive_task_frame", 56);
	ks_fake_add_member(f, "inactive_task_frame", "bp", 40, 8);
	ks_fake_add_member(f, "inactive_task_frame", "ret_addr", 48, 8);
	if (orc) {
		ks_fake_add_type(f, "orc_entry", KS_ORC_ENTRY_SIZE);
		ks_fake_add_member(f, "orc_entry", "end", 4, -1);
		add_module_types(f);
	} else {
		ks_fake_add_member(f, "module", "state", M_STATE, 4);
		ks_fake_add_member(f, "module", "list", M_LIST, 16);
		ks_fake_add_member(f, "module", "name", M_NAME, 56);
		ks_fake_add_member(f, "module", "arch", M_ARCH, 0);
	}
	ks_fake_add_member(f, "module", "core_layout", M_CORE, 48);
	ks_fake_add_member(f, "module", "init_layout", M_INIT, 48);
	ks_fake_add_member(f, "module_layout", "base", 0, 8);
	ks_fake_add_member(f, "module_layout", "size", 8, 4);
	ks_fake_add_member(f, "module_layout", "text_size", 12, 4);
}

void orc_add_types(struct ks_fake *f)
{
	add_types(f, true);
}

void put_module_sized(struct ks_fake *f, uint64_t mod, const char *name,
		      uint64_t next, uint64_t text, uint32_t text_size,
		      uint32_t size, uint32_t num, uint64_t ip_tab,
		      uint64_t orc_tab)
{
	uint8_t m[M_SIZE] = { 0 };

	memcpy(m + M_LIST, &next, 8);
	strcpy((char *)m + M_NAME, name);
	memcpy(m + M_ARCH, &num, 4);
	memcpy(m + M_ARCH + 8, &ip_tab, 8);
	memcpy(m + M_ARCH + 16, &orc_tab, 8);
	memcpy(m + M_CORE, &text, 8);
	memcpy(m + M_CORE + 8, &size, 4);
	memcpy(m + M_CORE + 12, &text_size, 4);
	must(!(ks_fake_add_memory(f, mod, m, sizeof(m))));
}

static void put_module(struct ks_fake *f, uint64_t mod, const char *name,
		       uint64_t next, uint64_t text, uint32_t num,
		       uint64_t ip_tab, uint64_t orc_tab)
{
	put_module_sized(f, mod, name, next, text, 0x1000, 0x2000, num, ip_tab,
			 orc_tab);
}

static void add_modules(struct ks_fake *f)
{
	uint64_t head[2] = { MOD_STRUCT + M_LIST, NOORC_STRUCT + M_LIST };
	size_t n = sizeof(mod_orc) / sizeof(mod_orc[0]);

	ks_fake_add_symbol(f, "modules", MODULES_ADDR, 0, NULL);
	must(!(ks_fake_add_memory(f, MODULES_ADDR, head, sizeof(head))));
	put_module(f, MOD_STRUCT, "mymod", NOORC_STRUCT + M_LIST, MOD_TEXT,
		   (uint32_t)n, MOD_ORC_IP, MOD_ORC);
	put_module(f, NOORC_STRUCT, "noorc", MODULES_ADDR, NOORC_TEXT, 0, 0, 0);
	add_orc_table(f, MOD_ORC_IP, MOD_ORC, mod_orc, n);
}

static void add_symbols(struct ks_fake *f, bool orc)
{
	int i;

	for (i = 0; i < NR_FN; i++)
		ks_fake_add_symbol(f, orc_fns[i].name, orc_fns[i].addr, orc_fns[i].size,
				   orc_fns[i].module);
	ks_fake_add_symbol(f, "_stext", TEXT, 0, NULL);
	ks_fake_add_symbol(f, "_etext", FN(0x100000), 0, NULL);
	ks_fake_add_symbol(f, "__sched_text_start", FN(0x80000), 0, NULL);
	ks_fake_add_symbol(f, "__sched_text_end", FN(0x81000), 0, NULL);
	ks_fake_add_symbol(f, "__lock_text_start", FN(0x90000), 0, NULL);
	ks_fake_add_symbol(f, "__lock_text_end", FN(0x91000), 0, NULL);
	if (orc)
		add_vmlinux_orc(f, ORC_IP_ADDR, ORC_ADDR, vmlinux_orc, nr_vmlinux_orc);
}

/*
 * The kernel with the part [STACK + from, STACK + STACK_SIZE) of the
 * stack; without orc, a CONFIG_UNWINDER_FRAME_POINTER kernel (no vmlinux
 * table) loaded as kernel_tasks.c loads one.
 */
static int setup_kernel(void **state, uint64_t from, bool orc)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	must(fx);
	fx->f = ks_fake_create();
	must(fx->f);
	ks_fake_target(fx->f, &fx->t);
	add_types(fx->f, orc);
	add_symbols(fx->f, orc);
	add_modules(fx->f);
	must(!(ks_fake_add_memory(fx->f, STACK + from, NULL,
					    STACK_SIZE - from)));
	if (orc)
		must(!(ks_orc_load(&fx->t, &fx->orc)));
	else
		must(!(ks_orc_load_text(&fx->t, &fx->orc)));
	*state = fx;
	return 0;
}

int orc_setup(void **state)
{
	return setup_kernel(state, 0, true);
}

int orc_setup_fp(void **state)
{
	return setup_kernel(state, 0, false);
}

/* A dump that left out the unused bottom of the stack (filtered pages). */
int orc_setup_upper_half(void **state)
{
	return setup_kernel(state, STACK_SIZE / 2, true);
}

int orc_teardown(void **state)
{
	struct fixture *fx = *state;

	ks_orc_free(fx->orc);
	ks_fake_destroy(fx->f);
	free(fx);
	return 0;
}

/* A CALL frame of size bytes above sp, returning to ret: the next sp. */
uint64_t call_frame(struct fixture *fx, uint64_t sp, uint64_t size,
			   uint64_t ret)
{
	must(!(ks_fake_write_u64(fx->f, sp + size - 8, ret)));
	return sp + size;
}

/* inactive_task_frame at thread_sp returning into __schedule; the next sp. */
uint64_t switch_frame(struct fixture *fx, uint64_t thread_sp)
{
	must(!(ks_fake_write_u64(fx->f, thread_sp + 40, 0x1111)));
	must(!(ks_fake_write_u64(fx->f, thread_sp + 48, AT(F_SCHED, 0x50))));
	return thread_sp + 56;
}

/* struct pt_regs at sp; returns the sp above it. */
uint64_t regs_frame(struct fixture *fx, uint64_t sp, uint64_t ip,
			   uint64_t regs_sp, uint64_t bp, uint64_t cs)
{
	uint64_t regs[KS_PT_WORDS] = { 0 };

	regs[KS_PT_IP] = ip;
	regs[KS_PT_SP] = regs_sp;
	regs[KS_PT_BP] = bp;
	regs[KS_PT_CS] = cs;
	must(!(ks_fake_write(fx->f, sp, regs, sizeof(regs))));
	return sp + KS_PT_REGS_SIZE;
}

char *orc_walk(struct fixture *fx, uint64_t thread_sp, const char **note)
{
	struct ks_stack_start st = {
		.stack_base = STACK,
		.stack_size = STACK_SIZE,
		.thread_sp = thread_sp,
	};
	char *text = NULL;

	must(!(ks_stack_text(&fx->t, fx->orc, &st, &text, note)));
	must(text);
	return text;
}

int orc_count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

