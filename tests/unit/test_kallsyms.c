// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel's kallsyms_lookup() order past vmlinux, on a fake image:
 * module text, BPF symbols (bpf_kallsyms), ftrace_mod_maps (freed init
 * text), and what it leaves unnamed (ftrace trampolines, kprobe insn
 * slots).  The case that made the hooks test flaky is here on purpose:
 * a module loaded into another module's freed init text, then unloaded.
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "hooks.h"
#include "kallsyms.h"
#include "symbolize.h"

#define VMLINUX		0xffffffff81000000ull
#define MODULES		0xffffffff82000000ull	/* list heads */
#define BPF_HEAD	0xffffffff82000100ull
#define FMOD_HEAD	0xffffffff82000200ull
#define MOD_BRD		0xffffffffc0100000ull	/* struct module */
#define MOD_KSHOOK	0xffffffffc0110000ull
#define KSYMS		0xffffffffc0200000ull	/* brd's mod_kallsyms */
#define SYMTAB		0xffffffffc0201000ull
#define STRTAB		0xffffffffc0202000ull
#define INIT_FREED	0xffffffffc02ad000ull	/* kshook's init text, freed */
#define BPF_PROG	0xffffffffc0300000ull
#define BPF_DISP	0xffffffffc0301000ull
#define TRAMP		0xffffffffc0436000ull	/* an ftrace trampoline */
#define KSYM1		0xffffffffc0500000ull	/* struct bpf_ksym */
#define KSYM2		0xffffffffc0500400ull
#define MAP		0xffffffffc0600000ull	/* struct ftrace_mod_map */
#define FUNC1		0xffffffffc0600100ull	/* struct ftrace_mod_func */
#define FUNC2		0xffffffffc0600200ull
#define NAMES		0xffffffffc0600400ull

/* struct module, 6.1 */
#define O_STATE		0
#define O_LIST		8
#define O_NAME		24
#define O_KALLSYMS	0x100
#define O_CORE		0x140
#define O_INIT		0x180
/* struct bpf_ksym */
#define K_START		0
#define K_END		8
#define K_NAME		16
#define K_LNODE		528
/* struct ftrace_mod_map and ftrace_mod_func */
#define M_LIST		16
#define M_MOD		32
#define M_FUNCS		56
#define F_LIST		0
#define F_NAME		16
#define F_IP		24
#define F_SIZE		32

static void put32(struct ks_fake *f, uint64_t addr, uint32_t v)
{
	assert_int_equal(ks_fake_write(f, addr, &v, 4), 0);
}

static void list2(struct ks_fake *f, uint64_t head, uint64_t a, uint64_t b)
{
	ks_fake_write_u64(f, head, a ? a : head);
	if (a)
		ks_fake_write_u64(f, a, b ? b : head);
	if (b)
		ks_fake_write_u64(f, b, head);
}

/* brd, loaded where kshook's init text was: core text [INIT_FREED, +0x1000) */
static void add_brd(struct ks_fake *f)
{
	static const char strtab[] = "\0brd_submit_bio";
	uint64_t ks[3] = { SYMTAB, 2, STRTAB };
	Elf64_Sym syms[2];

	memset(syms, 0, sizeof(syms));
	syms[1].st_name = 1;
	syms[1].st_value = INIT_FREED + 0x800;
	syms[1].st_shndx = 1;
	ks_fake_add_memory(f, SYMTAB, syms, sizeof(syms));
	ks_fake_add_memory(f, STRTAB, strtab, sizeof(strtab));
	ks_fake_add_memory(f, KSYMS, ks, sizeof(ks));
	ks_fake_add_memory(f, MOD_BRD, NULL, 0x400);
	ks_fake_write(f, MOD_BRD + O_NAME, "brd", 4);
	ks_fake_write_u64(f, MOD_BRD + O_KALLSYMS, KSYMS);
	ks_fake_write_u64(f, MOD_BRD + O_CORE, INIT_FREED);
	put32(f, MOD_BRD + O_CORE + 8, 0x1000);
	put32(f, MOD_BRD + O_CORE + 12, 0x1000);
}

static void module_types(struct ks_fake *f)
{
	ks_fake_add_symbol(f, "modules", MODULES, 16, NULL);
	ks_fake_add_member(f, "module", "state", O_STATE, 4);
	ks_fake_add_member(f, "module", "list", O_LIST, 16);
	ks_fake_add_member(f, "module", "name", O_NAME, 56);
	ks_fake_add_member(f, "module", "kallsyms", O_KALLSYMS, 8);
	ks_fake_add_member(f, "module", "core_layout", O_CORE, 0x40);
	ks_fake_add_member(f, "module", "init_layout", O_INIT, 0x40);
	ks_fake_add_member(f, "module_layout", "base", 0, 8);
	ks_fake_add_member(f, "module_layout", "size", 8, 4);
	ks_fake_add_member(f, "module_layout", "text_size", 12, 4);
	ks_fake_add_member(f, "mod_kallsyms", "symtab", 0, 8);
	ks_fake_add_member(f, "mod_kallsyms", "num_symtab", 8, 4);
	ks_fake_add_member(f, "mod_kallsyms", "strtab", 16, 8);
}

static void add_bpf(struct ks_fake *f)
{
	ks_fake_add_symbol(f, "bpf_kallsyms", BPF_HEAD, 16, NULL);
	ks_fake_add_member(f, "bpf_ksym", "start", K_START, 8);
	ks_fake_add_member(f, "bpf_ksym", "end", K_END, 8);
	ks_fake_add_member(f, "bpf_ksym", "name", K_NAME, 512);
	ks_fake_add_member(f, "bpf_ksym", "lnode", K_LNODE, 16);
	ks_fake_add_memory(f, KSYM1, NULL, 0x400);
	ks_fake_add_memory(f, KSYM2, NULL, 0x400);
	ks_fake_write_u64(f, KSYM1 + K_START, BPF_PROG);
	ks_fake_write_u64(f, KSYM1 + K_END, BPF_PROG + 0x9c);
	ks_fake_write(f, KSYM1 + K_NAME, "bpf_prog_6deef7357e7b4530_kstest", 33);
	ks_fake_write_u64(f, KSYM2 + K_START, BPF_DISP);
	ks_fake_write_u64(f, KSYM2 + K_END, BPF_DISP + 0x1000);
	ks_fake_write(f, KSYM2 + K_NAME, "bpf_dispatcher_xdp", 19);
	list2(f, BPF_HEAD, KSYM1 + K_LNODE, KSYM2 + K_LNODE);
}

/* kshook's freed init text: kshook_init [+0, +0xc00), kshook_init_probed */
static void add_ftrace_mod(struct ks_fake *f)
{
	static const char names[] = "kshook_init\0kshook_init_probed";

	ks_fake_add_symbol(f, "ftrace_mod_maps", FMOD_HEAD, 16, NULL);
	ks_fake_add_member(f, "ftrace_mod_map", "list", M_LIST, 16);
	ks_fake_add_member(f, "ftrace_mod_map", "mod", M_MOD, 8);
	ks_fake_add_member(f, "ftrace_mod_map", "funcs", M_FUNCS, 16);
	ks_fake_add_member(f, "ftrace_mod_func", "list", F_LIST, 16);
	ks_fake_add_member(f, "ftrace_mod_func", "name", F_NAME, 8);
	ks_fake_add_member(f, "ftrace_mod_func", "ip", F_IP, 8);
	ks_fake_add_member(f, "ftrace_mod_func", "size", F_SIZE, 4);
	ks_fake_add_memory(f, MAP, NULL, 0x100);
	ks_fake_add_memory(f, FUNC1, NULL, 0x100);
	ks_fake_add_memory(f, FUNC2, NULL, 0x100);
	ks_fake_add_memory(f, NAMES, names, sizeof(names));
	ks_fake_add_memory(f, MOD_KSHOOK, NULL, 0x400);
	ks_fake_write(f, MOD_KSHOOK + O_NAME, "kshook", 7);
	ks_fake_write_u64(f, MAP + M_MOD, MOD_KSHOOK);
	ks_fake_write_u64(f, FUNC1 + F_NAME, NAMES);
	ks_fake_write_u64(f, FUNC1 + F_IP, INIT_FREED);
	put32(f, FUNC1 + F_SIZE, 0xc00);
	ks_fake_write_u64(f, FUNC2 + F_NAME, NAMES + 12);
	ks_fake_write_u64(f, FUNC2 + F_IP, INIT_FREED + 0xc00);
	put32(f, FUNC2 + F_SIZE, 0x40);
	list2(f, FMOD_HEAD, MAP + M_LIST, 0);
	list2(f, MAP + M_FUNCS, FUNC1 + F_LIST, FUNC2 + F_LIST);
}

/* brd_loaded: brd sits in the freed init text (the flaky run's layout) */
static struct ks_fake *image(bool brd_loaded)
{
	struct ks_fake *f = ks_fake_create();

	assert_non_null(f);
	ks_fake_add_symbol(f, "vfs_read", VMLINUX + 0x1000, 0x196, NULL);
	ks_fake_add_memory(f, MODULES, NULL, 0x300);
	module_types(f);
	add_brd(f);
	list2(f, MODULES, brd_loaded ? MOD_BRD + O_LIST : 0, 0);
	add_bpf(f);
	add_ftrace_mod(f);
	assert_int_equal(ks_fake_use_kallsyms(f), 0);
	return f;
}

static void expect(struct ks_fake *f, uint64_t addr, const char *name,
		   uint64_t start, uint64_t size, const char *module)
{
	struct ks_sym s;

	assert_int_equal(ks_kallsyms_lookup(ks_fake_kallsyms(f), addr, &s), 0);
	assert_string_equal(s.name, name);
	assert_int_equal(s.addr, start);
	assert_int_equal(s.size, size);
	if (module)
		assert_string_equal(s.module, module);
	else
		assert_null(s.module);
}

static void expect_pS(struct ks_fake *f, uint64_t addr, const char *want)
{
	struct ks_target t;
	char buf[KS_SYM_PB_LEN];

	ks_fake_target(f, &t);
	ks_sym_format_pS(&t, addr, buf, sizeof(buf));
	assert_string_equal(buf, want);
}

/* module_address_lookup() comes before the others: brd, while loaded. */
static void test_module_first(void **state)
{
	struct ks_fake *f = image(true);

	(void)state;
	expect(f, INIT_FREED + 0xa00, "brd_submit_bio", INIT_FREED + 0x800,
	       0x800, "brd");
	expect_pS(f, INIT_FREED + 0xa00, "brd_submit_bio+0x200/0x800 [brd]");
	ks_fake_destroy(f);
}

/* ftrace_mod_address_lookup(): brd is gone, kshook's init text is named. */
static void test_ftrace_mod_maps(void **state)
{
	struct ks_fake *f = image(false);
	struct ks_kallsyms_stats st;

	(void)state;
	expect(f, INIT_FREED + 0xa00, "kshook_init", INIT_FREED, 0xc00, "kshook");
	expect(f, INIT_FREED + 0xc00, "kshook_init_probed", INIT_FREED + 0xc00,
	       0x40, "kshook");
	expect_pS(f, INIT_FREED + 0xa00, "kshook_init+0xa00/0xc00 [kshook]");
	ks_kallsyms_stats(ks_fake_kallsyms(f), &st);
	assert_int_equal(st.modules, 0);
	assert_int_equal(st.bpf, 2);
	assert_int_equal(st.ftrace_mod, 2);
	assert_int_equal(st.ftrace_mod_err, 0);
	ks_fake_destroy(f);
}

/* bpf_address_lookup(): programs and the dispatcher, with no module. */
static void test_bpf(void **state)
{
	struct ks_fake *f = image(false);
	struct ks_target t;
	char buf[KS_SYM_PB_LEN];

	(void)state;
	expect(f, BPF_PROG + 0x10, "bpf_prog_6deef7357e7b4530_kstest", BPF_PROG,
	       0x9c, NULL);
	expect(f, BPF_DISP, "bpf_dispatcher_xdp", BPF_DISP, 0x1000, NULL);
	/* %pB of a return address at the program's end: the lookup is at -1 */
	ks_fake_target(f, &t);
	ks_sym_format_pB(&t, BPF_PROG + 0x9c, buf, sizeof(buf));
	assert_string_equal(buf, "bpf_prog_6deef7357e7b4530_kstest+0x9c/0x9c");
	ks_fake_destroy(f);
}

/*
 * ftrace trampolines and kprobe insn slots are in /proc/kallsyms only:
 * %pS prints them as addresses, as the guest's enabled_functions does
 * ("tramp: 0xffffffffc0436000").
 */
static void test_unnamed(void **state)
{
	struct ks_fake *f = image(false);
	struct ks_sym s;

	(void)state;
	assert_int_equal(ks_kallsyms_lookup(ks_fake_kallsyms(f), TRAMP, &s),
			 -ENOENT);
	expect_pS(f, TRAMP, "0xffffffffc0436000");
	expect_pS(f, VMLINUX + 0x1095, "vfs_read+0x95/0x196");
	ks_fake_destroy(f);
}

/* A list that loops ends the walk; what came before still names text. */
static void test_loops(void **state)
{
	struct ks_fake *f = image(false);
	struct ks_kallsyms_stats st;

	(void)state;
	ks_fake_write_u64(f, KSYM2 + K_LNODE, KSYM2 + K_LNODE);
	ks_fake_write_u64(f, FUNC2 + F_LIST, FUNC1 + F_LIST);
	assert_int_equal(ks_fake_use_kallsyms(f), 0);
	ks_kallsyms_stats(ks_fake_kallsyms(f), &st);
	assert_int_equal(st.bpf_err, -ELOOP);
	assert_int_equal(st.ftrace_mod_err, -ELOOP);
	expect(f, BPF_PROG, "bpf_prog_6deef7357e7b4530_kstest", BPF_PROG, 0x9c,
	       NULL);
	expect(f, INIT_FREED + 1, "kshook_init", INIT_FREED, 0xc00, "kshook");
	/* a broken pointer: the same, -EFAULT */
	ks_fake_write_u64(f, KSYM2 + K_LNODE, 0xdead0000);
	assert_int_equal(ks_fake_use_kallsyms(f), 0);
	ks_kallsyms_stats(ks_fake_kallsyms(f), &st);
	assert_int_equal(st.bpf_err, -EFAULT);
	assert_int_equal(st.bpf, 2);
	ks_fake_destroy(f);
}

/* A kernel without BPF or ftrace_mod_maps: those sources are empty. */
static void test_absent(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_kallsyms_stats st;
	struct ks_sym s;

	(void)state;
	assert_int_equal(ks_fake_use_kallsyms(f), 0);
	ks_kallsyms_stats(ks_fake_kallsyms(f), &st);
	assert_int_equal(st.modules_err, -ENOENT);
	assert_int_equal(st.bpf_err, -ENOENT);
	assert_int_equal(st.ftrace_mod_err, -ENOENT);
	assert_int_equal(ks_kallsyms_lookup(ks_fake_kallsyms(f), BPF_PROG, &s),
			 -ENOENT);
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_module_first),
		cmocka_unit_test(test_ftrace_mod_maps),
		cmocka_unit_test(test_bpf),
		cmocka_unit_test(test_unnamed),
		cmocka_unit_test(test_loops),
		cmocka_unit_test(test_absent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
