// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The ORC tables, the unwinder and the /proc/PID/stack text, on a kernel
 * built by hand in a fake target: a few functions with one ORC entry
 * each, two modules (one with ORC data, one without), and a 16 KiB task
 * stack that each test fills with the frames it needs.
 */
#include <errno.h>
#include <malloc.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "kernel_stack.h"
#include "orc.h"

#define TEXT		0xffffffff81000000ULL
#define FN(off)		(TEXT + (off))
#define ORC_IP_ADDR	0xffffffff82000000ULL
#define ORC_ADDR	0xffffffff82100000ULL
#define MODULES_ADDR	0xffffffff83000000ULL
#define MOD_TEXT	0xffffffffc0000000ULL
#define NOORC_TEXT	0xffffffffc0010000ULL
#define MOD_STRUCT	0xffff888000100000ULL
#define NOORC_STRUCT	0xffff888000100400ULL
#define MOD_ORC_IP	(MOD_TEXT + 0x1800)	/* module data: within int32 reach */
#define MOD_ORC		(MOD_TEXT + 0x1c00)
#define STACK		0xffffc90000010000ULL
#define STACK_SIZE	0x4000ULL
#define USER_IP		0x00007f0000001234ULL

/* struct module as this fake kernel lays it out */
#define M_STATE		0
#define M_LIST		8
#define M_NAME		24
#define M_ARCH		80
#define M_CORE		112
#define M_INIT		160
#define M_SIZE		256

enum { F_A, F_B, F_C, F_IRQ, F_KTHREAD, F_X, F_Y, F_REC, F_LOOP, F_SYSCALL,
       F_FORK, F_SCHED, F_SCHEDULE, F_LOCK, F_MOD, F_NOORC, F_BIG, NR_FN };

static const struct {
	const char *name;
	uint64_t addr, size;
	const char *module;
} fns[NR_FN] = {
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
};

#define AT(fn, off)	(fns[fn].addr + (off))

struct orc_spec {
	uint64_t ip;
	int sp_reg, sp_offset, bp_reg, bp_offset, type, end;
};

#define CALL(ip, off) \
	{ ip, KS_ORC_REG_SP, off, KS_ORC_REG_UNDEFINED, 0, KS_ORC_TYPE_CALL, 0 }
#define REGS(ip) \
	{ ip, KS_ORC_REG_SP, 0, KS_ORC_REG_UNDEFINED, 0, KS_ORC_TYPE_REGS, 0 }
#define UNDEF(ip, end) \
	{ ip, KS_ORC_REG_UNDEFINED, 0, KS_ORC_REG_UNDEFINED, 0, KS_ORC_TYPE_CALL, end }

/* Sorted by ip, as sorttable leaves vmlinux's table. */
static const struct orc_spec vmlinux_orc[] = {
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
	{ FN(0x80000), KS_ORC_REG_SP, 0x28, KS_ORC_REG_PREV_SP, -16,
	  KS_ORC_TYPE_CALL, 0 },	/* __schedule */
	CALL(FN(0x80800), 0x10),	/* schedule */
	CALL(FN(0x90000), 0x8),		/* _raw_spin_lock */
};

static const struct orc_spec mod_orc[] = {
	UNDEF(MOD_TEXT, 0),
	CALL(MOD_TEXT + 0x100, 0x10),	/* mod_fn */
};

struct fixture {
	struct ks_fake *f;
	struct ks_target t;
	struct ks_orc *orc;
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
static void add_orc_table(struct ks_fake *f, uint64_t ip_addr, uint64_t orc_addr,
			  const struct orc_spec *o, size_t n)
{
	int32_t *ips = calloc(n, sizeof(*ips));
	uint8_t *raw = calloc(n, KS_ORC_ENTRY_SIZE);
	size_t i;

	assert_non_null(ips);
	assert_non_null(raw);
	for (i = 0; i < n; i++) {
		ips[i] = (int32_t)(o[i].ip - (ip_addr + 4 * i));
		encode_61(&o[i], raw + KS_ORC_ENTRY_SIZE * i);
	}
	assert_int_equal(ks_fake_add_memory(f, ip_addr, ips, 4 * n), 0);
	assert_int_equal(ks_fake_add_memory(f, orc_addr, raw, KS_ORC_ENTRY_SIZE * n), 0);
	free(ips);
	free(raw);
}

static void add_types(struct ks_fake *f)
{
	ks_fake_add_type(f, "orc_entry", KS_ORC_ENTRY_SIZE);
	ks_fake_add_member(f, "orc_entry", "end", 4, -1);
	ks_fake_add_type(f, "inactive_task_frame", 56);
	ks_fake_add_member(f, "inactive_task_frame", "bp", 40, 8);
	ks_fake_add_member(f, "inactive_task_frame", "ret_addr", 48, 8);
	ks_fake_add_member(f, "module", "state", M_STATE, 4);
	ks_fake_add_member(f, "module", "list", M_LIST, 16);
	ks_fake_add_member(f, "module", "name", M_NAME, 56);
	ks_fake_add_member(f, "module", "arch", M_ARCH, 24);
	ks_fake_add_member(f, "module", "core_layout", M_CORE, 48);
	ks_fake_add_member(f, "module", "init_layout", M_INIT, 48);
	ks_fake_add_member(f, "module_layout", "base", 0, 8);
	ks_fake_add_member(f, "module_layout", "size", 8, 4);
	ks_fake_add_member(f, "module_layout", "text_size", 12, 4);
	ks_fake_add_member(f, "mod_arch_specific", "num_orcs", 0, 4);
	ks_fake_add_member(f, "mod_arch_specific", "orc_unwind_ip", 8, 8);
	ks_fake_add_member(f, "mod_arch_specific", "orc_unwind", 16, 8);
}

static void put_module_sized(struct ks_fake *f, uint64_t mod, const char *name,
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
	assert_int_equal(ks_fake_add_memory(f, mod, m, sizeof(m)), 0);
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
	assert_int_equal(ks_fake_add_memory(f, MODULES_ADDR, head, sizeof(head)), 0);
	put_module(f, MOD_STRUCT, "mymod", NOORC_STRUCT + M_LIST, MOD_TEXT,
		   (uint32_t)n, MOD_ORC_IP, MOD_ORC);
	put_module(f, NOORC_STRUCT, "noorc", MODULES_ADDR, NOORC_TEXT, 0, 0, 0);
	add_orc_table(f, MOD_ORC_IP, MOD_ORC, mod_orc, n);
}

static void add_symbols(struct ks_fake *f)
{
	size_t n = sizeof(vmlinux_orc) / sizeof(vmlinux_orc[0]);
	int i;

	for (i = 0; i < NR_FN; i++)
		ks_fake_add_symbol(f, fns[i].name, fns[i].addr, fns[i].size,
				   fns[i].module);
	ks_fake_add_symbol(f, "_stext", TEXT, 0, NULL);
	ks_fake_add_symbol(f, "_etext", FN(0x100000), 0, NULL);
	ks_fake_add_symbol(f, "__sched_text_start", FN(0x80000), 0, NULL);
	ks_fake_add_symbol(f, "__sched_text_end", FN(0x81000), 0, NULL);
	ks_fake_add_symbol(f, "__lock_text_start", FN(0x90000), 0, NULL);
	ks_fake_add_symbol(f, "__lock_text_end", FN(0x91000), 0, NULL);
	ks_fake_add_symbol(f, "__start_orc_unwind_ip", ORC_IP_ADDR, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind_ip", ORC_IP_ADDR + 4 * n, 0, NULL);
	ks_fake_add_symbol(f, "__start_orc_unwind", ORC_ADDR, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind", ORC_ADDR + KS_ORC_ENTRY_SIZE * n,
			   0, NULL);
	add_orc_table(f, ORC_IP_ADDR, ORC_ADDR, vmlinux_orc, n);
}

/* The kernel with the part [STACK + from, STACK + STACK_SIZE) of the stack. */
static int setup_stack_from(void **state, uint64_t from)
{
	struct fixture *fx = calloc(1, sizeof(*fx));

	assert_non_null(fx);
	fx->f = ks_fake_create();
	assert_non_null(fx->f);
	ks_fake_target(fx->f, &fx->t);
	add_types(fx->f);
	add_symbols(fx->f);
	add_modules(fx->f);
	assert_int_equal(ks_fake_add_memory(fx->f, STACK + from, NULL,
					    STACK_SIZE - from), 0);
	assert_int_equal(ks_orc_load(&fx->t, &fx->orc), 0);
	*state = fx;
	return 0;
}

static int setup(void **state)
{
	return setup_stack_from(state, 0);
}

/* A dump that left out the unused bottom of the stack (filtered pages). */
static int setup_upper_half(void **state)
{
	return setup_stack_from(state, STACK_SIZE / 2);
}

static int teardown(void **state)
{
	struct fixture *fx = *state;

	ks_orc_free(fx->orc);
	ks_fake_destroy(fx->f);
	free(fx);
	return 0;
}

/* A CALL frame of size bytes above sp, returning to ret: the next sp. */
static uint64_t call_frame(struct fixture *fx, uint64_t sp, uint64_t size,
			   uint64_t ret)
{
	assert_int_equal(ks_fake_write_u64(fx->f, sp + size - 8, ret), 0);
	return sp + size;
}

/* inactive_task_frame at thread_sp returning into __schedule; the next sp. */
static uint64_t switch_frame(struct fixture *fx, uint64_t thread_sp)
{
	assert_int_equal(ks_fake_write_u64(fx->f, thread_sp + 40, 0x1111), 0);
	assert_int_equal(ks_fake_write_u64(fx->f, thread_sp + 48, AT(F_SCHED, 0x50)), 0);
	return thread_sp + 56;
}

/* struct pt_regs at sp; returns the sp above it. */
static uint64_t regs_frame(struct fixture *fx, uint64_t sp, uint64_t ip,
			   uint64_t regs_sp, uint64_t bp, uint64_t cs)
{
	uint64_t regs[KS_PT_WORDS] = { 0 };

	regs[KS_PT_IP] = ip;
	regs[KS_PT_SP] = regs_sp;
	regs[KS_PT_BP] = bp;
	regs[KS_PT_CS] = cs;
	assert_int_equal(ks_fake_write(fx->f, sp, regs, sizeof(regs)), 0);
	return sp + KS_PT_REGS_SIZE;
}

static char *walk(struct fixture *fx, uint64_t thread_sp, const char **note)
{
	struct ks_stack_start st = {
		.stack_base = STACK,
		.stack_size = STACK_SIZE,
		.thread_sp = thread_sp,
	};
	char *text = NULL;

	assert_int_equal(ks_stack_text(&fx->t, fx->orc, &st, &text, note), 0);
	assert_non_null(text);
	return text;
}

static int count_lines(const char *s)
{
	int n = 0;

	for (; *s; s++)
		n += *s == '\n';
	return n;
}

static void test_load(void **state)
{
	struct fixture *fx = *state;
	const struct ks_orc_module *m;

	assert_int_equal(fx->orc->vmlinux.num, sizeof(vmlinux_orc) / sizeof(vmlinux_orc[0]));
	assert_int_equal(fx->orc->vmlinux.ip[1], FN(0x1000));
	assert_int_equal(fx->orc->nr_mods, 2);
	m = &fx->orc->mods[0];
	assert_string_equal(m->name, "mymod");
	assert_int_equal(m->table.num, 2);
	assert_int_equal(m->table.ip[1], MOD_TEXT + 0x100);
	assert_int_equal(m->text[0].start, MOD_TEXT);
	assert_int_equal(m->text[0].end, MOD_TEXT + 0x1000);
	assert_string_equal(fx->orc->mods[1].name, "noorc");
	assert_int_equal(fx->orc->mods[1].table.num, 0);
}

#ifdef __SANITIZE_ADDRESS__
size_t __sanitizer_get_current_allocated_bytes(void);

static size_t heap_used(void)
{
	return __sanitizer_get_current_allocated_bytes();
}
#else
static size_t heap_used(void)
{
	struct mallinfo2 m = mallinfo2();

	return m.uordblks + m.hblkhd;
}
#endif

/*
 * A table costs what it holds: 17 entries for vmlinux and 2 for mymod
 * here, where each once took room for 16384 (288 KiB a module).
 */
static void test_load_memory(void **state)
{
	struct fixture *fx = *state;
	struct ks_orc *orc = NULL;
	size_t before = heap_used();

	assert_int_equal(ks_orc_load(&fx->t, &orc), 0);
	assert_int_equal(orc->nr_mods, 2);
	assert_true(heap_used() - before < 64 * 1024);
	ks_orc_free(orc);
}

static void test_find(void **state)
{
	struct fixture *fx = *state;
	const struct ks_orc_entry *e;

	/* The rightmost entry at or below ip. */
	e = ks_orc_find(fx->orc, FN(0x2080));
	assert_non_null(e);
	assert_int_equal(e->sp_offset, 0x20);
	e = ks_orc_find(fx->orc, FN(0x80010));
	assert_int_equal(e->sp_offset, 0x28);
	assert_int_equal(e->bp_reg, KS_ORC_REG_PREV_SP);
	assert_int_equal(e->bp_offset, -16);
	e = ks_orc_find(fx->orc, FN(0xa01f));
	assert_int_equal(e->sp_reg, KS_ORC_REG_UNDEFINED);
	assert_true(e->end);
	e = ks_orc_find(fx->orc, FN(0x4010));
	assert_int_equal(e->type, KS_ORC_TYPE_REGS);
	/* Module text uses the module's table. */
	e = ks_orc_find(fx->orc, MOD_TEXT + 0x120);
	assert_int_equal(e->sp_offset, 0x10);
	/* null_orc_entry for ip 0; nothing for a module without ORC or no text. */
	e = ks_orc_find(fx->orc, 0);
	assert_int_equal(e->sp_offset, 8);
	assert_null(ks_orc_find(fx->orc, NOORC_TEXT + 0x110));
	assert_null(ks_orc_find(fx->orc, 0xffffffff90000000ULL));
	assert_true(ks_orc_kernel_text(fx->orc, FN(0x10)));
	assert_true(ks_orc_kernel_text(fx->orc, MOD_TEXT + 0x10));
	assert_false(ks_orc_kernel_text(fx->orc, MOD_TEXT + 0x1800));	/* module data */
	assert_false(ks_orc_kernel_text(fx->orc, USER_IP));
}

/* Weak terminators sit left of a real entry at the same address. */
static void test_find_duplicate(void **state)
{
	static const struct orc_spec dup[] = {
		UNDEF(FN(0x1000), 0),
		CALL(FN(0x1000), 0x30),
		CALL(FN(0x2000), 0x40),
	};
	struct ks_fake *f = ks_fake_create();
	struct ks_target t;
	struct ks_orc *orc;

	(void)state;
	ks_fake_target(f, &t);
	ks_fake_add_symbol(f, "__start_orc_unwind_ip", ORC_IP_ADDR, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind_ip", ORC_IP_ADDR + 12, 0, NULL);
	ks_fake_add_symbol(f, "__start_orc_unwind", ORC_ADDR, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind", ORC_ADDR + 18, 0, NULL);
	add_orc_table(f, ORC_IP_ADDR, ORC_ADDR, dup, 3);
	assert_int_equal(ks_orc_load(&t, &orc), 0);
	assert_int_equal(orc->nr_mods, 0);
	assert_int_equal(ks_orc_find(orc, FN(0x1000))->sp_offset, 0x30);
	assert_int_equal(ks_orc_find(orc, FN(0x1fff))->sp_offset, 0x30);
	assert_int_equal(ks_orc_find(orc, FN(0x2000))->sp_offset, 0x40);
	ks_orc_free(orc);
	ks_fake_destroy(f);
}

/* A vmlinux-sized table is read in a handful of big reads. */
static void test_load_chunked(void **state)
{
	enum { N = 100000 };
	struct orc_spec *o = calloc(N, sizeof(*o));
	struct ks_fake *f = ks_fake_create();
	struct ks_target t;
	struct ks_orc *orc;
	size_t i;

	(void)state;
	assert_non_null(o);
	for (i = 0; i < N; i++)
		o[i] = (struct orc_spec)CALL(TEXT + 16 * i, (int)(8 + (i % 64) * 8));
	ks_fake_target(f, &t);
	ks_fake_add_symbol(f, "__start_orc_unwind_ip", ORC_IP_ADDR, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind_ip", ORC_IP_ADDR + 4 * N, 0, NULL);
	ks_fake_add_symbol(f, "__start_orc_unwind", ORC_ADDR, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind", ORC_ADDR + KS_ORC_ENTRY_SIZE * N, 0, NULL);
	add_orc_table(f, ORC_IP_ADDR, ORC_ADDR, o, N);
	assert_int_equal(ks_orc_load(&t, &orc), 0);
	assert_true(ks_fake_read_count(f) <= 2 * (N / 16384 + 1));
	assert_int_equal(orc->vmlinux.num, N);
	assert_int_equal(ks_orc_find(orc, TEXT + 16 * 777 + 5)->sp_offset,
			 8 + (777 % 64) * 8);
	ks_orc_free(orc);
	ks_fake_destroy(f);
	free(o);
}

/* Bad tables are refused the way unwind_init() refuses them. */
static void test_load_bad(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_target t;
	struct ks_orc *orc = NULL;

	(void)state;
	ks_fake_target(f, &t);
	assert_int_equal(ks_orc_load(&t, &orc), -ENOENT);
	ks_fake_add_symbol(f, "__start_orc_unwind_ip", ORC_IP_ADDR, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind_ip", ORC_IP_ADDR + 8, 0, NULL);
	ks_fake_add_symbol(f, "__start_orc_unwind", ORC_ADDR, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind", ORC_ADDR + 18, 0, NULL);
	assert_int_equal(ks_orc_load(&t, &orc), -EINVAL);	/* 2 ips, 3 entries */
	ks_fake_add_type(f, "orc_entry", 8);
	assert_int_equal(ks_orc_load(&t, &orc), -ENOTSUP);
	assert_null(orc);
	ks_fake_destroy(f);
}

/* Loads the fixture's tables again, after a test damaged them. */
static struct ks_orc *reload(struct fixture *fx)
{
	struct ks_orc *orc = NULL;

	assert_int_equal(ks_orc_load(&fx->t, &orc), 0);
	assert_int_equal(orc->vmlinux.num, sizeof(vmlinux_orc) / sizeof(vmlinux_orc[0]));
	return orc;
}

static void expect_problem(const struct ks_orc *orc, const char *part)
{
	for (size_t i = 0; i < orc->nr_problems; i++)
		if (strstr(orc->problems[i], part))
			return;
	fail_msg("no problem with \"%s\" (%zu problems)", part, orc->nr_problems);
}

/*
 * A corrupt module or module list costs the frames in what it hides,
 * never vmlinux's table or the modules before it, and says which.
 */
static void test_broken_modules(void **state)
{
	struct fixture *fx = *state;
	uint32_t huge = 0xffffffff, n = 2;
	struct ks_orc *orc;

	/* num_orcs far beyond the module's memory: no table, still text */
	ks_fake_write(fx->f, MOD_STRUCT + M_ARCH, &huge, 4);
	orc = reload(fx);
	assert_int_equal(orc->nr_mods, 2);
	assert_int_equal(orc->mods[0].table.num, 0);
	assert_int_equal(orc->nr_problems, 1);
	expect_problem(orc, "module mymod at 0xffff888000100000: num_orcs 4294967295");
	assert_true(ks_orc_kernel_text(orc, MOD_TEXT + 0x10));
	assert_null(ks_orc_find(orc, MOD_TEXT + 0x120));
	ks_orc_free(orc);
	ks_fake_write(fx->f, MOD_STRUCT + M_ARCH, &n, 4);

	/* a text size no module has: left out, not taken as text */
	huge = 0xfffff000;
	ks_fake_write(fx->f, MOD_STRUCT + M_CORE + 12, &huge, 4);
	orc = reload(fx);
	assert_int_equal(orc->nr_mods, 1);
	assert_string_equal(orc->mods[0].name, "noorc");
	expect_problem(orc, "module at 0xffff888000100000: its memory range");
	assert_false(ks_orc_kernel_text(orc, MOD_TEXT + 0x10000000));
	ks_orc_free(orc);
	n = 0x1000;
	ks_fake_write(fx->f, MOD_STRUCT + M_CORE + 12, &n, 4);
	n = 2;

	/* a table pointer into memory the image lacks */
	ks_fake_write_u64(fx->f, MOD_STRUCT + M_ARCH + 8, MOD_TEXT + 0x1ff0);
	orc = reload(fx);
	assert_int_equal(orc->nr_mods, 2);
	expect_problem(orc, "module mymod");
	ks_orc_free(orc);
	ks_fake_write_u64(fx->f, MOD_STRUCT + M_ARCH + 8, MOD_ORC_IP);

	/* the first module lists itself: it is read once */
	ks_fake_write_u64(fx->f, MOD_STRUCT + M_LIST, MOD_STRUCT + M_LIST);
	orc = reload(fx);
	assert_int_equal(orc->nr_mods, 1);
	assert_int_equal(orc->mods[0].table.num, 2);
	expect_problem(orc, "the module list (modules) loops at 0xffff888000100008");
	ks_orc_free(orc);
	ks_fake_write_u64(fx->f, MOD_STRUCT + M_LIST, NOORC_STRUCT + M_LIST);

	/* modules.next is garbage */
	ks_fake_write_u64(fx->f, MODULES_ADDR, 0xdead000000000100ULL);
	orc = reload(fx);
	assert_int_equal(orc->nr_mods, 0);
	expect_problem(orc, "the module list (modules) breaks off");
	ks_orc_free(orc);

	/* a struct module that is not in the image, with a way on */
	ks_fake_write_u64(fx->f, MODULES_ADDR, 0xffff888000300008ULL);
	assert_int_equal(ks_fake_add_memory(fx->f, 0xffff888000300000ULL, NULL, 16), 0);
	ks_fake_write_u64(fx->f, 0xffff888000300008ULL, MOD_STRUCT + M_LIST);
	orc = reload(fx);
	assert_int_equal(orc->nr_mods, 2);
	expect_problem(orc, "module at 0xffff888000300000: its struct module cannot be read");
	ks_orc_free(orc);
}

static void test_decode_layouts(void **state)
{
	/* sp_offset 16, bp_offset -16, sp_reg SP, bp_reg PREV_SP */
	uint8_t call61[6] = { 0x10, 0, 0xf0, 0xff, 0x15, 0x00 };
	uint8_t end61[6] = { 0, 0, 0, 0, 0x00, 0x04 };
	uint8_t call64[6] = { 0x10, 0, 0xf0, 0xff, 0x15, 0x02 };
	uint8_t end64[6] = { 0, 0, 0, 0, 0x00, 0x01 };
	uint8_t regs64_signal[6] = { 0, 0, 0, 0, 0x05, 0x0b };
	struct ks_orc_entry e;

	(void)state;
	ks_orc_decode(KS_ORC_LAYOUT_6_1, call61, &e);
	assert_int_equal(e.sp_offset, 16);
	assert_int_equal(e.bp_offset, -16);
	assert_int_equal(e.sp_reg, KS_ORC_REG_SP);
	assert_int_equal(e.bp_reg, KS_ORC_REG_PREV_SP);
	assert_int_equal(e.type, KS_ORC_TYPE_CALL);
	assert_false(e.end);
	ks_orc_decode(KS_ORC_LAYOUT_6_1, end61, &e);
	assert_int_equal(e.sp_reg, KS_ORC_REG_UNDEFINED);
	assert_true(e.end);
	ks_orc_decode(KS_ORC_LAYOUT_6_4, call64, &e);
	assert_int_equal(e.type, KS_ORC_TYPE_CALL);
	assert_int_equal(e.sp_reg, KS_ORC_REG_SP);
	ks_orc_decode(KS_ORC_LAYOUT_6_4, end64, &e);
	assert_int_equal(e.sp_reg, KS_ORC_REG_UNDEFINED);
	assert_true(e.end);
	ks_orc_decode(KS_ORC_LAYOUT_6_4, regs64_signal, &e);
	assert_int_equal(e.type, KS_ORC_TYPE_REGS);
	assert_true(e.signal);
}

/*
 * 6.4+: struct module keeps mem[MOD_MEM_NUM_TYPES] instead of the two
 * layouts, and orc_entry has a signal bit (type:3 signal:1), which type
 * data reveals.  One module whose text is mem[MOD_TEXT].
 */
static void test_layout_6_4(void **state)
{
	/* CALL sp+16 with the 6.4 encoding (type 2 at bit 8); a REGS with signal */
	static const uint8_t raw[2][KS_ORC_ENTRY_SIZE] = {
		{ 0x10, 0, 0, 0, 0x05, 0x02 },
		{ 0x00, 0, 0, 0, 0x05, 0x0b },
	};
	uint8_t m[M_SIZE] = { 0 }, mem[7][16] = { { 0 } };
	uint64_t head = MOD_STRUCT + M_LIST, text = MOD_TEXT, data = MOD_TEXT + 0x4000;
	uint32_t size = 0x1000, num = 2;
	int32_t ips[2];
	struct ks_fake *f = ks_fake_create();
	struct ks_target t;
	struct ks_orc *orc;
	const struct ks_orc_entry *e;

	(void)state;
	ks_fake_target(f, &t);
	ks_fake_add_type(f, "orc_entry", KS_ORC_ENTRY_SIZE);
	ks_fake_add_member(f, "orc_entry", "signal", 5, -1);
	ks_fake_add_member(f, "module", "state", M_STATE, 4);
	ks_fake_add_member(f, "module", "list", M_LIST, 16);
	ks_fake_add_member(f, "module", "name", M_NAME, 56);
	ks_fake_add_member(f, "module", "arch", M_ARCH, 24);
	ks_fake_add_member(f, "module", "mem", M_CORE, 7 * 16);
	ks_fake_add_type(f, "module_memory", 16);
	ks_fake_add_member(f, "module_memory", "base", 0, 8);
	ks_fake_add_member(f, "module_memory", "size", 8, 4);
	ks_fake_add_member(f, "mod_arch_specific", "num_orcs", 0, 4);
	ks_fake_add_member(f, "mod_arch_specific", "orc_unwind_ip", 8, 8);
	ks_fake_add_member(f, "mod_arch_specific", "orc_unwind", 16, 8);

	/* vmlinux: one entry, enough for ks_orc_load */
	ks_fake_add_symbol(f, "__start_orc_unwind_ip", ORC_IP_ADDR, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind_ip", ORC_IP_ADDR + 4, 0, NULL);
	ks_fake_add_symbol(f, "__start_orc_unwind", ORC_ADDR, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind", ORC_ADDR + 6, 0, NULL);
	ips[0] = (int32_t)(TEXT - ORC_IP_ADDR);
	ks_fake_add_memory(f, ORC_IP_ADDR, ips, 4);
	ks_fake_add_memory(f, ORC_ADDR, raw[0], 6);

	/* the module: mem[0] text, mem[1] data holding its ORC tables */
	ks_fake_add_symbol(f, "modules", MODULES_ADDR, 0, NULL);
	ks_fake_add_memory(f, MODULES_ADDR, &head, 8);
	memcpy(mem[0], &text, 8);
	memcpy(mem[0] + 8, &size, 4);
	memcpy(mem[1], &data, 8);
	memcpy(mem[1] + 8, &size, 4);
	memcpy(m + M_LIST, &(uint64_t){ MODULES_ADDR }, 8);
	strcpy((char *)m + M_NAME, "newmod");
	memcpy(m + M_ARCH, &num, 4);
	memcpy(m + M_ARCH + 8, &(uint64_t){ data }, 8);
	memcpy(m + M_ARCH + 16, &(uint64_t){ data + 0x100 }, 8);
	memcpy(m + M_CORE, mem, sizeof(mem));
	ks_fake_add_memory(f, MOD_STRUCT, m, sizeof(m));
	ips[0] = (int32_t)(text + 0x10 - data);
	ips[1] = (int32_t)(text + 0x80 - (data + 4));
	ks_fake_add_memory(f, data, ips, 8);
	ks_fake_add_memory(f, data + 0x100, raw, sizeof(raw));

	assert_int_equal(ks_orc_load(&t, &orc), 0);
	assert_int_equal(orc->layout, KS_ORC_LAYOUT_6_4);
	assert_int_equal(orc->nr_mods, 1);
	assert_int_equal(orc->mods[0].text[0].start, MOD_TEXT);
	assert_int_equal(orc->mods[0].text[0].end, MOD_TEXT + 0x1000);
	assert_true(ks_orc_kernel_text(orc, MOD_TEXT + 0x20));
	assert_false(ks_orc_kernel_text(orc, data + 0x20));
	e = ks_orc_find(orc, MOD_TEXT + 0x20);
	assert_int_equal(e->type, KS_ORC_TYPE_CALL);
	assert_int_equal(e->sp_offset, 16);
	assert_false(e->signal);
	e = ks_orc_find(orc, MOD_TEXT + 0x90);
	assert_int_equal(e->type, KS_ORC_TYPE_REGS);
	assert_true(e->signal);
	/* module data is the module's too, as __module_address() sees it */
	assert_non_null(ks_orc_find(orc, data + 0x20));
	ks_orc_free(orc);
	ks_fake_destroy(f);
}

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

	text = walk(fx, thread_sp, &note);
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
	text = walk(fx, thread_sp, &note);
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

	text = walk(fx, thread_sp, &note);
	assert_string_equal(text,
			    "[<0>] func_c+0x15/0x100\n"
			    "[<0>] kthread_fn+0x40/0x100\n"
			    "[<0>] entry_syscall+0x10/0x100\n");
	assert_null(note);
	free(text);
}

/*
 * A user address read as a return address before the user registers at
 * task_pt_regs() (a wrong ORC sp_offset, a damaged stack) ends the walk
 * as the kernel's reliable walk does not: with a note, not as the
 * normal end of a user task (issue 27).
 */
static void test_user_address_midway(void **state)
{
	struct fixture *fx = *state;
	uint64_t regs_at = STACK + STACK_SIZE - KS_PT_REGS_SIZE;
	uint64_t thread_sp = regs_at - 0x10 - 0x18 - 0x10 - 0x28 - 56;
	const char *note = NULL;
	uint64_t sp;
	char *text;

	sp = switch_frame(fx, thread_sp);
	sp = call_frame(fx, sp, 0x28, AT(F_SCHEDULE, 0x20));
	sp = call_frame(fx, sp, 0x10, AT(F_C, 0x15));
	sp = call_frame(fx, sp, 0x18, 0x00007f0012345678ULL);	/* func_c */
	sp = call_frame(fx, sp, 0x10, AT(F_SYSCALL, 0x10));
	regs_frame(fx, sp, USER_IP, 0x7ffc00000000ULL, 0, 0x33);

	text = walk(fx, thread_sp, &note);
	assert_string_equal(text, "[<0>] func_c+0x15/0x100\n");
	assert_non_null(note);
	assert_non_null(strstr(note, "task_pt_regs"));
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

	text = walk(fx, thread_sp, &note);
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

	text = walk(fx, thread_sp, NULL);
	assert_int_equal(count_lines(text), KS_STACK_MAX_FRAMES);
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

	text = walk(fx, thread_sp, &note);
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

	text = walk(fx, thread_sp, &note);
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

	text = walk(fx, STACK + 0x100000, &note);
	assert_string_equal(text, "");
	assert_non_null(note);
	free(text);

	note = NULL;
	ks_fake_add_memory(fx->f, STACK + 0x10000, NULL, 0x1000);
	text = walk(fx, STACK + 0x10000, &note);
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

	text = walk(fx, thread_sp, &note);
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

	text = walk(fx, thread_sp, &note);
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

	text = walk(fx, thread_sp, &note);
	assert_string_equal(text, "[<0>] func_c+0x15/0x100\n");
	assert_non_null(note);
	free(text);
}

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

/* A zombie's stack is freed: an empty trace, which is no failure. */
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
	text = walk(fx, STACK, &note);
	assert_string_equal(text, "");
	assert_non_null(note);
	assert_non_null(strstr(note, "thread.sp"));
	free(text);
	/* a saved return address that is a kernel address but no text */
	ks_fake_write_u64(fx->f, STACK + 0x1000 + 48, 0xffff888012345678ULL);
	note = NULL;
	text = walk(fx, STACK + 0x1000, &note);
	assert_string_equal(text, "");
	assert_non_null(note);
	free(text);
}

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
			text = walk(fx, STACK + 0x1000 * (uint64_t)i + 0x40, NULL);
			assert_true(count_lines(text) <= KS_STACK_MAX_FRAMES);
			free(text);
		}
	}
}

/*
 * Real frames: each fixture holds the used stacks of some tasks of a
 * Debian 6.1.0-56 guest (cloud and generic flavours), the ORC entries
 * their walks look up (vmlinux's and modules'), and the guest's own
 * /proc/PID/stack for each; record.sh says how they were made.  Replayed
 * here, the walk must print exactly what the running kernel printed.
 */
#define FIXTURES	"tests/fixtures/orc/"
#define MAX_TASKS	64
#define MAX_MODS	8

struct replay_task {
	int pid;
	uint64_t stack, sp, task;
	char expect[4096];
};

struct replay_orc {
	struct orc_spec *v;
	size_t nr;
};

struct replay_mod {
	char name[KS_MODULE_NAME_LEN];
	uint64_t base, text_end, core_end;
	struct replay_orc orc;
};

struct replay {
	struct ks_fake *f;
	struct replay_orc orc;
	struct replay_mod mods[MAX_MODS];
	size_t nr_mods;
	struct replay_task tasks[MAX_TASKS];
	size_t nr_tasks;
	uint8_t seg[KS_THREAD_SIZE_X86_64];
	uint64_t seg_addr;
	size_t seg_len;
};

static void replay_flush(struct replay *r)
{
	if (r->seg_len)
		assert_int_equal(ks_fake_add_memory(r->f, r->seg_addr, r->seg, r->seg_len), 0);
	r->seg_len = 0;
}

/* Consecutive "mem" lines become one segment. */
static void replay_mem(struct replay *r, uint64_t addr, const char *hex)
{
	size_t n = strlen(hex) / 2, i;
	unsigned int byte;

	if (r->seg_len && (addr != r->seg_addr + r->seg_len ||
			   r->seg_len + n > sizeof(r->seg)))
		replay_flush(r);
	if (!r->seg_len)
		r->seg_addr = addr;
	for (i = 0; i < n; i++) {
		assert_int_equal(sscanf(hex + 2 * i, "%2x", &byte), 1);
		r->seg[r->seg_len++] = (uint8_t)byte;
	}
}

static struct replay_task *replay_task_of(struct replay *r, int pid)
{
	size_t i;

	for (i = 0; i < r->nr_tasks; i++)
		if (r->tasks[i].pid == pid)
			return &r->tasks[i];
	fail_msg("fixture: expect line for unknown pid %d", pid);
	return NULL;
}

static struct replay_mod *replay_mod_of(struct replay *r, const char *name)
{
	size_t i;

	for (i = 0; i < r->nr_mods; i++)
		if (!strcmp(r->mods[i].name, name))
			return &r->mods[i];
	assert_true(r->nr_mods < MAX_MODS);
	snprintf(r->mods[r->nr_mods].name, KS_MODULE_NAME_LEN, "%s", name);
	return &r->mods[r->nr_mods++];
}

/* "IP SP_OFF BP_OFF SP_REG BP_REG TYPE END" into a table being collected. */
static void replay_entry(struct replay_orc *orc, const char *text)
{
	unsigned long long ip;
	struct orc_spec *o;

	orc->v = realloc(orc->v, (orc->nr + 1) * sizeof(*orc->v));
	assert_non_null(orc->v);
	o = &orc->v[orc->nr++];
	assert_int_equal(sscanf(text, "%llx %d %d %d %d %d %d", &ip, &o->sp_offset,
				&o->bp_offset, &o->sp_reg, &o->bp_reg, &o->type,
				&o->end), 7);
	o->ip = ip;
}

static void replay_line(struct replay *r, char *line)
{
	char name[256], member[256], rest[4096];
	unsigned long long a, b, c;
	struct replay_task *task;
	struct replay_mod *mod;
	int pid, n;

	if (sscanf(line, "symbol %255s %llx", name, &a) == 2) {
		ks_fake_add_symbol(r->f, name, a, 0, NULL);
	} else if (sscanf(line, "sym %255s %llx %llx %255s", name, &a, &b, member) == 4) {
		ks_fake_add_symbol(r->f, name, a, b, member);
	} else if (sscanf(line, "sym %255s %llx %llx", name, &a, &b) == 3) {
		ks_fake_add_symbol(r->f, name, a, b, NULL);
	} else if (sscanf(line, "type %255s %llu", name, &a) == 2) {
		ks_fake_add_type(r->f, name, (long)a);
	} else if (sscanf(line, "member %255s %255s %llu", name, member, &a) == 3) {
		ks_fake_add_member(r->f, name, member, (long)a, 8);
	} else if (!strncmp(line, "orc ", 4)) {
		replay_entry(&r->orc, line + 4);
	} else if (sscanf(line, "module %255s %llx %llx %llx", name, &a, &b, &c) == 4) {
		mod = replay_mod_of(r, name);
		mod->base = a;
		mod->text_end = b;
		mod->core_end = c;
	} else if (sscanf(line, "morc %255s %n", name, &n) == 1) {
		replay_entry(&replay_mod_of(r, name)->orc, line + n);
	} else if (sscanf(line, "task %d %llx %llx %llx", &pid, &a, &b, &c) >= 3) {
		assert_true(r->nr_tasks < MAX_TASKS);
		task = &r->tasks[r->nr_tasks++];
		task->pid = pid;
		task->stack = a;
		task->sp = b;
		task->task = sscanf(line, "task %*d %*x %*x %llx", &c) == 1 ? c : 0;
	} else if (sscanf(line, "mem %llx %4095s", &a, rest) == 2) {
		replay_mem(r, a, rest);
	} else if (sscanf(line, "expect %d %n", &pid, &n) == 1) {
		task = replay_task_of(r, pid);
		strncat(task->expect, line + n, sizeof(task->expect) - strlen(task->expect) - 2);
		strcat(task->expect, "\n");
	} else if (line[0] && line[0] != '#') {
		fail_msg("fixture: bad line '%s'", line);
	}
}

static int orc_spec_cmp(const void *a, const void *b)
{
	const struct orc_spec *x = a, *y = b;

	return x->ip < y->ip ? -1 : x->ip > y->ip;
}

/* Sorted, without repeats: the table the kernel would search. */
static size_t replay_sort(struct replay_orc *orc)
{
	size_t i, n = 0;

	qsort(orc->v, orc->nr, sizeof(*orc->v), orc_spec_cmp);
	for (i = 0; i < orc->nr; i++)
		if (!n || memcmp(&orc->v[i], &orc->v[n - 1], sizeof(*orc->v)))
			orc->v[n++] = orc->v[i];
	return n;
}

/* The recorded vmlinux entries as vmlinux's table. */
static void replay_vmlinux(struct replay *r)
{
	uint64_t ip_addr, orc_addr;
	size_t n = replay_sort(&r->orc);

	assert_true(n > 0);
	/* below the text, within reach of the int32 offsets */
	ip_addr = (r->orc.v[0].ip & ~0xfffULL) - 0x10000000;
	orc_addr = ip_addr + 0x100000;
	ks_fake_add_symbol(r->f, "__start_orc_unwind_ip", ip_addr, 0, NULL);
	ks_fake_add_symbol(r->f, "__stop_orc_unwind_ip", ip_addr + 4 * n, 0, NULL);
	ks_fake_add_symbol(r->f, "__start_orc_unwind", orc_addr, 0, NULL);
	ks_fake_add_symbol(r->f, "__stop_orc_unwind", orc_addr + KS_ORC_ENTRY_SIZE * n,
			   0, NULL);
	add_orc_table(r->f, ip_addr, orc_addr, r->orc.v, n);
}

/* The recorded modules on a `modules` list, each with its entries. */
static void replay_modules(struct replay *r)
{
	uint64_t next = MODULES_ADDR, ip_addr, orc_addr, mod;
	size_t i, n;

	if (!r->nr_mods)
		return;
	add_types(r->f);
	ks_fake_add_symbol(r->f, "modules", MODULES_ADDR, 0, NULL);
	for (i = r->nr_mods; i-- > 0;) {
		struct replay_mod *m = &r->mods[i];

		n = replay_sort(&m->orc);
		/*
		 * The tables go where the recording has nothing, past its
		 * core; the module's memory is stretched over them, as the
		 * kernel keeps them in the module's own memory.
		 */
		ip_addr = m->base + 0x10000000;
		orc_addr = ip_addr + 0x100000;
		add_orc_table(r->f, ip_addr, orc_addr, m->orc.v, n);
		mod = MOD_STRUCT + 0x400 * i;
		put_module_sized(r->f, mod, m->name, next, m->base,
				 (uint32_t)(m->text_end - m->base),
				 (uint32_t)(orc_addr + KS_ORC_ENTRY_SIZE * n - m->base),
				 (uint32_t)n, ip_addr, orc_addr);
		next = mod + M_LIST;
	}
	assert_int_equal(ks_fake_add_memory(r->f, MODULES_ADDR, &next, 8), 0);
}

static void replay_free(struct replay *r)
{
	size_t i;

	for (i = 0; i < r->nr_mods; i++)
		free(r->mods[i].orc.v);
	free(r->orc.v);
	ks_fake_destroy(r->f);
	free(r);
}

static struct replay *replay_load(const char *path)
{
	struct replay *r = calloc(1, sizeof(*r));
	char line[8192];
	FILE *fp;

	assert_non_null(r);
	fp = fopen(path, "r");
	if (!fp)
		fail_msg("cannot open %s: run the tests from the top of the tree", path);
	r->f = ks_fake_create();
	while (fgets(line, sizeof(line), fp)) {
		line[strcspn(line, "\n")] = '\0';
		replay_line(r, line);
	}
	fclose(fp);
	replay_flush(r);
	replay_vmlinux(r);
	replay_modules(r);
	return r;
}

static void replay_check(const char *path, size_t min_tasks, size_t min_mods)
{
	struct replay *r = replay_load(path);
	struct ks_target t;
	struct ks_orc *orc;
	size_t i;

	ks_fake_target(r->f, &t);
	assert_int_equal(ks_orc_load(&t, &orc), 0);
	assert_true(r->nr_tasks >= min_tasks);
	assert_true(orc->nr_mods >= min_mods);

	for (i = 0; i < r->nr_tasks; i++) {
		struct ks_stack_start st = {
			.stack_base = r->tasks[i].stack,
			.stack_size = KS_THREAD_SIZE_X86_64,
			.thread_sp = r->tasks[i].sp,
			.task = r->tasks[i].task,
		};
		const char *note = "unset";
		char *text = NULL;

		assert_int_equal(ks_stack_text(&t, orc, &st, &text, &note), 0);
		if (strcmp(text, r->tasks[i].expect))
			print_error("%s: pid %d\n--- live\n%s--- replay\n%s", path,
				    r->tasks[i].pid, r->tasks[i].expect, text);
		assert_string_equal(text, r->tasks[i].expect);
		if (note)
			print_error("%s: pid %d: %s\n", path, r->tasks[i].pid, note);
		assert_null(note);
		free(text);
	}
	ks_orc_free(orc);
	replay_free(r);
}

static void test_real_stacks_cloud(void **state)
{
	(void)state;
	replay_check(FIXTURES "basic.txt", 20, 0);
}

/* The generic flavour has ext4 as a module: a " [ext4]" frame. */
static void test_real_stacks_generic(void **state)
{
	(void)state;
	replay_check(FIXTURES "basic-generic.txt", 5, 1);
}

/*
 * Kretprobes on pipe_read and do_wait, the function-graph tracer on
 * hrtimer_nanosleep: return addresses on these stacks are trampolines,
 * and the real ones come from the task's rethooks list and ret_stack.
 */
static void test_real_stacks_traced(void **state)
{
	(void)state;
	replay_check(FIXTURES "trace.txt", 5, 0);
}

/*
 * A page fault taken in kernel mode (pipe_read copying into a clean
 * shared mapping on a frozen ext4) blocks in page_mkwrite: the walk goes
 * through the exception's pt_regs to the exact faulting ip.
 */
static void test_real_stacks_fault(void **state)
{
	(void)state;
	replay_check(FIXTURES "fault.txt", 3, 0);
}

/* PREEMPT_RT: sleeping spinlocks, printk's kthread in a .cold part. */
static void test_real_stacks_rt(void **state)
{
	(void)state;
	replay_check(FIXTURES "rt.txt", 20, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_load, setup, teardown),
		cmocka_unit_test_setup_teardown(test_load_memory, setup, teardown),
		cmocka_unit_test_setup_teardown(test_find, setup, teardown),
		cmocka_unit_test(test_find_duplicate),
		cmocka_unit_test(test_load_chunked),
		cmocka_unit_test(test_load_bad),
		cmocka_unit_test_setup_teardown(test_broken_modules, setup, teardown),
		cmocka_unit_test(test_decode_layouts),
		cmocka_unit_test(test_layout_6_4),
		cmocka_unit_test_setup_teardown(test_blocked_task, setup, teardown),
		cmocka_unit_test_setup_teardown(test_reads_from_sp_up,
						setup_upper_half, teardown),
		cmocka_unit_test_setup_teardown(test_user_task, setup, teardown),
		cmocka_unit_test_setup_teardown(test_user_address_midway, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_noreturn_ip_minus_1, setup, teardown),
		cmocka_unit_test_setup_teardown(test_cap_64, setup, teardown),
		cmocka_unit_test_setup_teardown(test_loop_stops, setup, teardown),
		cmocka_unit_test_setup_teardown(test_regs_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sp_outside, setup, teardown),
		cmocka_unit_test_setup_teardown(test_frame_past_stack, setup, teardown),
		cmocka_unit_test_setup_teardown(test_fp_fallback, setup, teardown),
		cmocka_unit_test_setup_teardown(test_not_text, setup, teardown),
		cmocka_unit_test_setup_teardown(test_on_cpu, setup, teardown),
		cmocka_unit_test_setup_teardown(test_no_stack, setup, teardown),
		cmocka_unit_test_setup_teardown(test_empty_has_note, setup, teardown),
		cmocka_unit_test_setup_teardown(test_garbage_stack, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rethook_recovered, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rethook_running, setup, teardown),
		cmocka_unit_test_setup_teardown(test_rethook_no_task, setup, teardown),
		cmocka_unit_test(test_real_stacks_cloud),
		cmocka_unit_test(test_real_stacks_generic),
		cmocka_unit_test(test_real_stacks_traced),
		cmocka_unit_test(test_real_stacks_fault),
		cmocka_unit_test(test_real_stacks_rt),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
