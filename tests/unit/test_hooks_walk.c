// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kprobe and ftrace walkers on a kernel image made by hand (the fake
 * target), laid out like Linux 6.1 x86_64: a lone ftrace-based probe, an
 * optimized aggregator holding an enabled and a disabled probe, a gone
 * probe in a module, a kretprobe whose handler is in a module, a probe
 * with no symbol, a looping bucket and an unreadable one; ftrace_ops with
 * allocated trampolines, and records with and without them.
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

#include "fake_target.h"
#include "ftrace_list.h"
#include "hooks.h"
#include "options.h"
#include "said.h"

#define TABLE		0xffffffff82000000ull
#define AGGR_PRE	0xffffffff81100000ull
#define KRET_PRE	0xffffffff81100100ull
#define DISPATCH	0xffffffff81100200ull
#define DISARMED	0xffffffff82001000ull
#define FUNC_A		0xffffffff81001000ull
#define FUNC_B		0xffffffff81002000ull
#define FUNC_C		0xffffffff81003000ull
#define FUNC_D		0xffffffff81004000ull
#define MFUNC		0xffffffffc0001000ull
#define KS_PRE		0xffffffffc0002000ull
#define KS_RET		0xffffffffc0002100ull
#define NOSYM		0xffffffffc0500000ull
#define HEAP		0xffff888000100000ull

#define KP_SIZE		128

struct ks_fake *f;
static struct ks_target t;

/* A walker of the image at tt, its complaints to e as "kstack: " lines. */
static const struct ks_ftrace_walker *walker(const struct ks_target *tt,
					     FILE *e)
{
	/* the walker keeps its reporter: both outlive the call */
	static struct ks_ftrace_walker w;
	static struct ks_reporter rep;

	rep = SAID_ON(e);
	assert_int_equal(ks_ftrace_walker_init(&w, tt, &rep), 0);
	return &w;
}

/* The types of the image; skip ("type.member" or NULL) is left out. */
static void members(const char *skip)
{
	static const struct {
		const char *type, *member;
		long off, size;
	} m[] = {
		{ "hlist_head", "first", 0, 8 },
		{ "hlist_node", "next", 0, 8 },
		{ "list_head", "next", 0, 8 },
		{ "kprobe", "hlist", 0, 16 },
		{ "kprobe", "list", 16, 16 },
		{ "kprobe", "nmissed", 32, 8 },
		{ "kprobe", "addr", 40, 8 },
		{ "kprobe", "pre_handler", 64, 8 },
		{ "kprobe", "post_handler", 72, 8 },
		{ "kprobe", "opcode", 80, 1 },
		{ "kprobe", "flags", 120, 4 },
		{ "kretprobe", "kp", 0, 128 },
		{ "kretprobe", "handler", 128, 8 },
		{ "kretprobe", "entry_handler", 136, 8 },
		{ "ftrace_ops", "func", 0, 8 },
		{ "ftrace_ops", "next", 8, 8 },
		{ "ftrace_ops", "flags", 16, 8 },
		{ "ftrace_ops", "private", 24, 8 },
		{ "ftrace_ops", "saved_func", 32, 8 },
		{ "ftrace_ops", "func_hash", 88, 8 },
		{ "ftrace_ops", "trampoline", 144, 8 },
		{ "ftrace_ops", "trampoline_size", 152, 8 },
		{ "ftrace_ops_hash", "notrace_hash", 0, 8 },
		{ "ftrace_ops_hash", "filter_hash", 8, 8 },
		{ "ftrace_hash", "size_bits", 0, 8 },
		{ "ftrace_hash", "buckets", 8, 8 },
		{ "ftrace_hash", "count", 16, 8 },
		{ "ftrace_func_entry", "hlist", 0, 16 },
		{ "ftrace_func_entry", "ip", 16, 8 },
		{ "ftrace_func_entry", "direct", 24, 8 },
		{ "ftrace_page", "next", 0, 8 },
		{ "ftrace_page", "records", 8, 8 },
		{ "ftrace_page", "index", 16, 4 },
		{ "dyn_ftrace", "ip", 0, 8 },
		{ "dyn_ftrace", "flags", 8, 8 },
	};
	char name[64];
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++) {
		snprintf(name, sizeof(name), "%s.%s", m[i].type, m[i].member);
		if (skip && !strcmp(name, skip))
			continue;
		assert_int_equal(ks_fake_add_member(f, m[i].type, m[i].member,
						    m[i].off, m[i].size), 0);
	}
	assert_int_equal(ks_fake_add_type(f, "hlist_head", 8), 0);
	assert_int_equal(ks_fake_add_type(f, "kprobe", KP_SIZE), 0);
	assert_int_equal(ks_fake_add_type(f, "dyn_ftrace", 16), 0);
}

static void sym(const char *name, uint64_t addr, uint64_t size,
		const char *mod)
{
	assert_int_equal(ks_fake_add_symbol(f, name, addr, size, mod), 0);
}

static void w64(uint64_t addr, uint64_t v)
{
	assert_int_equal(ks_fake_write_u64(f, addr, v), 0);
}

static void w32(uint64_t addr, uint32_t v)
{
	assert_int_equal(ks_fake_write(f, addr, &v, sizeof(v)), 0);
}

static void code(uint64_t addr, const char *bytes, size_t len)
{
	assert_int_equal(ks_fake_write(f, addr, bytes, len), 0);
}

/* A struct kprobe at p: hlist.next, addr, pre, post, flags; list empty. */
static void kprobe(uint64_t p, uint64_t next, uint64_t addr, uint64_t pre,
		   uint64_t post, uint32_t flags)
{
	w64(p + 0, next);
	w64(p + 16, p + 16);
	w64(p + 24, p + 16);
	w64(p + 40, addr);
	w64(p + 64, pre);
	w64(p + 72, post);
	w32(p + 120, flags);
}

static void call_at(uint64_t site, uint64_t target)
{
	uint8_t insn[5] = { 0xe8 };
	int32_t rel = (int32_t)(target - (site + 5));

	memcpy(insn + 1, &rel, 4);
	assert_int_equal(ks_fake_write(f, site, insn, 5), 0);
}

static int setup(void **state)
{
	uint64_t p1 = HEAP, agg = HEAP + 0x200, k1 = HEAP + 0x400,
		 k2 = HEAP + 0x600, gone = HEAP + 0x800, kret = HEAP + 0xa00,
		 nosym = HEAP + 0xc00, loop = HEAP + 0xe00;

	(void)state;
	f = ks_fake_create();
	assert_non_null(f);
	members(NULL);
	assert_int_equal(ks_fake_add_memory(f, TABLE, NULL, 64 * 8), 0);
	assert_int_equal(ks_fake_add_memory(f, DISARMED, NULL, 8), 0);
	assert_int_equal(ks_fake_add_memory(f, HEAP, NULL, 0x10000), 0);
	assert_int_equal(ks_fake_add_memory(f, 0xffffffff81000000ull, NULL, 0x200000), 0);
	assert_int_equal(ks_fake_add_memory(f, 0xffffffffc0000000ull, NULL, 0x600000), 0);
	sym("kprobe_table", TABLE, 64 * 8, NULL);
	sym("kprobes_all_disarmed", DISARMED, 1, NULL);
	sym("aggr_pre_handler", AGGR_PRE, 0x90, NULL);
	sym("pre_handler_kretprobe", KRET_PRE, 0x90, NULL);
	sym("kprobe_dispatcher", DISPATCH, 0x50, NULL);
	sym("func_a", FUNC_A, 0x100, NULL);
	sym("func_b", FUNC_B, 0x100, NULL);
	sym("func_c", FUNC_C, 0x100, NULL);
	sym("func_d", FUNC_D, 0x100, NULL);
	sym("mfunc", MFUNC, 0x100, "gonemod");
	sym("kshook_pre", KS_PRE, 0x20, "kshook");
	sym("kshook_ret", KS_RET, 0x30, "kshook");

	/* bucket 3: a lone ftrace probe, then an optimized aggregator */
	w64(TABLE + 3 * 8, p1);
	kprobe(p1, agg, FUNC_A, DISPATCH, 0, KS_KPROBE_FL_FTRACE);
	code(FUNC_A, "\xe8\x00\x00\x00\x00", 5);
	kprobe(agg, 0, FUNC_B + 5, AGGR_PRE, 0, KS_KPROBE_FL_OPTIMIZED);
	kprobe(k1, 0, FUNC_B + 5, KS_PRE, DISPATCH, 0);
	kprobe(k2, 0, FUNC_B + 5, DISPATCH, 0, KS_KPROBE_FL_DISABLED);
	w64(agg + 16, k1 + 16);		/* agg.list -> k1 -> k2 -> agg */
	w64(k1 + 16, k2 + 16);
	w64(k2 + 16, agg + 16);
	code(FUNC_B + 5, "\xe9\x00\x00\x00\x00", 5);
	/* bucket 10: a probe whose module went away */
	w64(TABLE + 10 * 8, gone);
	kprobe(gone, 0, MFUNC + 0x10, DISPATCH, 0,
	       KS_KPROBE_FL_GONE | KS_KPROBE_FL_DISABLED);
	/* bucket 12: a kretprobe with a module handler; int3 in place */
	w64(TABLE + 12 * 8, kret);
	kprobe(kret, 0, FUNC_C, KRET_PRE, 0, 0);
	w64(kret + 128, KS_RET);
	code(FUNC_C, "\xcc\x89\xe5", 3);
	/* bucket 13: an address no symbol covers; the int3 is missing */
	w64(TABLE + 13 * 8, nosym);
	kprobe(nosym, 0, NOSYM, DISPATCH, 0, 0);
	code(NOSYM, "\x55\x48\x89\xe5", 4);
	/* bucket 20: a list that points back at itself */
	w64(TABLE + 20 * 8, loop);
	kprobe(loop, loop, FUNC_D, DISPATCH, 0, KS_KPROBE_FL_DISABLED);
	/* bucket 21: a pointer to nowhere */
	w64(TABLE + 21 * 8, 0xffff888077770000ull);
	ks_fake_target(f, &t);
	*state = NULL;
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	ks_fake_destroy(f);
	return 0;
}

static char *walk_kprobes(struct ks_kprobe_list *l, char **err_ret)
{
	char *out = NULL, *err = NULL;
	size_t olen = 0, elen = 0;
	FILE *o = open_memstream(&out, &olen), *e = open_memstream(&err, &elen);

	assert_int_equal(ks_kprobe_walk(&t, l, &SAID_ON(e)), 0);
	ks_kprobe_print_all(o, &t, l, false);
	fclose(o);
	fclose(e);
	*err_ret = err;
	return out;
}

static void test_kprobe_lines(void **state)
{
	struct ks_kprobe_list l = { 0 };
	char *err, *out = walk_kprobes(&l, &err);

	(void)state;
	assert_string_equal(out,
		"ffffffff81001000  k  func_a+0x0    [FTRACE]\n"
		"ffffffff81002005  k  func_b+0x5    [OPTIMIZED]\n"
		"ffffffff81002005  k  func_b+0x5    [DISABLED][OPTIMIZED]\n"
		"ffffffffc0001010  k  mfunc+0x10  gonemod [GONE]\n"
		"ffffffff81003000  r  func_c+0x0    \n"
		"ffffffffc0500000  k  0xffffffffc0500000 \n"
		"ffffffff81004000  k  func_d+0x0    [DISABLED]\n");
	assert_non_null(strstr(err, "kprobe_table[20] loops"));
	assert_non_null(strstr(err, "kprobe_table[21]: cannot read struct kprobe at 0xffff888077770000"));
	free(out);
	free(err);
	ks_kprobe_list_free(&l);
}

static void test_kprobe_details(void **state)
{
	struct ks_kprobe_list l = { 0 };
	char *err, *out = walk_kprobes(&l, &err);

	(void)state;
	assert_int_equal(l.n, 7);
	/* the aggregated probes: their own handlers, the aggregator's address */
	assert_true(l.v[1].aggr_kaddr == HEAP + 0x200);
	assert_true(l.v[1].pre_handler == KS_PRE);
	assert_true(l.v[1].post_handler == DISPATCH);
	assert_int_equal(l.v[1].code, KS_CODE_JMP);
	assert_true(l.v[1].code_checked && l.v[1].code_in_place);
	assert_int_equal(l.v[0].code, KS_CODE_CALL);
	assert_true(l.v[0].code_in_place);
	/* gone: nothing to expect */
	assert_false(l.v[3].code_checked);
	/* kretprobe: its handler from the container */
	assert_int_equal(l.v[4].type, 'r');
	assert_true(l.v[4].ret_handler == KS_RET);
	assert_true(l.v[4].code_in_place);
	/* an armed probe without its int3 */
	assert_int_equal(l.v[5].code, KS_CODE_OTHER);
	assert_true(l.v[5].code_checked && !l.v[5].code_in_place);
	free(out);
	free(err);

	/* -v and the owners line name the module handlers */
	{
		char *text = NULL;
		size_t len = 0;
		FILE *o = open_memstream(&text, &len);

		ks_kprobe_print_all(o, &t, &l, true);
		ks_kprobe_owners(o, &t, &l);
		fclose(o);
		assert_non_null(strstr(text, "pre_handler: kshook_pre+0x0/0x20 [kshook]  post_handler: kprobe_dispatcher+0x0/0x50\n"));
		assert_non_null(strstr(text, "kretprobe handler: kshook_ret+0x0/0x30 [kshook]  entry_handler: none\n"));
		assert_non_null(strstr(text, "(original instruction) NOT IN PLACE"));
		assert_non_null(strstr(text, "handler owners: vmlinux (kprobe_dispatcher); kshook (kshook_pre, kshook_ret)\n"));
		free(text);
	}
	ks_kprobe_list_free(&l);
}

/* Disarmed globally: an int3 still present would be wrong, its absence right. */
static void test_kprobes_disarmed(void **state)
{
	struct ks_kprobe_list l = { 0 };
	char *err, *out;
	uint8_t one = 1;

	(void)state;
	assert_int_equal(ks_fake_write(f, DISARMED, &one, 1), 0);
	assert_int_equal(ks_kprobes_enabled(&t), 0);
	out = walk_kprobes(&l, &err);
	assert_true(l.v[5].code_checked && l.v[5].code_in_place);
	assert_true(l.v[4].code_checked && !l.v[4].code_in_place);
	one = 0;
	assert_int_equal(ks_fake_write(f, DISARMED, &one, 1), 0);
	assert_int_equal(ks_kprobes_enabled(&t), 1);
	free(out);
	free(err);
	ks_kprobe_list_free(&l);
}

/* ------------------------------------------------------------ ftrace */

#define OPS_LIST	0xffffffff82002000ull
#define LIST_END	0xffffffff82002100ull
#define PAGES_START	0xffffffff82002200ull
#define GLOBAL_OPS	0xffffffff82003000ull
#define FTRACE_CALLER	0xffffffff81005000ull
#define FTRACE_REGS_CALLER 0xffffffff81005100ull
#define TRACE_CALL	0xffffffff81006000ull
#define LIST_FUNC	0xffffffff81006200ull
#define KS_OPS		0xffffffffc0003000ull
#define KS_FUNC		0xffffffffc0002200ull
#define TRAMP1		0xffffffffc0100000ull
#define TRAMP2		0xffffffffc0200000ull

/* An ftrace_hash at h holding one ip, in a single bucket at h + 0x40. */
static void hash1(uint64_t h, uint64_t ip)
{
	w64(h + 0, 0);
	w64(h + 8, h + 0x40);
	w64(h + 16, 1);
	w64(h + 0x40, h + 0x80);	/* bucket -> entry */
	w64(h + 0x80, 0);
	w64(h + 0x90, ip);
}

static void ftrace_image(bool looping)
{
	uint64_t fh1 = HEAP + 0x2000, fh2 = HEAP + 0x2100, h1 = HEAP + 0x3000,
		 h2 = HEAP + 0x3200, pg1 = HEAP + 0x4000, pg2 = HEAP + 0x4100,
		 recs1 = HEAP + 0x5000, recs2 = HEAP + 0x5100;

	assert_int_equal(ks_fake_add_memory(f, OPS_LIST, NULL, 0x400), 0);
	assert_int_equal(ks_fake_add_memory(f, GLOBAL_OPS, NULL, 0x100), 0);
	assert_int_equal(ks_fake_add_memory(f, TRAMP1, NULL, 0x200), 0);
	assert_int_equal(ks_fake_add_memory(f, TRAMP2, NULL, 0x200), 0);
	sym("ftrace_ops_list", OPS_LIST, 8, NULL);
	sym("ftrace_list_end", LIST_END, 0xb8, NULL);
	sym("ftrace_pages_start", PAGES_START, 8, NULL);
	sym("global_ops", GLOBAL_OPS, 0xc0, NULL);
	sym("ftrace_caller", FTRACE_CALLER, 0x7e, NULL);
	sym("ftrace_call", FTRACE_CALLER + 0x7e, 0x10, NULL);
	sym("ftrace_regs_caller", FTRACE_REGS_CALLER, 0xc3, NULL);
	sym("ftrace_regs_call", FTRACE_REGS_CALLER + 0xc3, 0x10, NULL);
	sym("function_trace_call", TRACE_CALL, 0x120, NULL);
	sym("ftrace_ops_list_func", LIST_FUNC, 0x1a0, NULL);
	sym("kshook_ops", KS_OPS, 0xb8, "kshook");
	sym("kshook_ftrace_func", KS_FUNC, 0x40, "kshook");

	w64(OPS_LIST, GLOBAL_OPS);
	/* global_ops: the function tracer on func_a */
	w64(GLOBAL_OPS + 0, TRACE_CALL);
	w64(GLOBAL_OPS + 8, KS_OPS);
	w64(GLOBAL_OPS + 16, 1 | 1 << 11);	/* ENABLED | ALLOC_TRAMP */
	w64(GLOBAL_OPS + 88, fh1);
	w64(GLOBAL_OPS + 144, TRAMP1);
	w64(fh1 + 0, 0);
	w64(fh1 + 8, h1);
	hash1(h1, FUNC_A);
	call_at(TRAMP1 + 0x7e, TRACE_CALL);
	/* kshook's IPMODIFY ops on func_b */
	w64(KS_OPS + 0, KS_FUNC);
	w64(KS_OPS + 8, looping ? GLOBAL_OPS : LIST_END);
	w64(KS_OPS + 16, 1 | 1 << 2 | 1 << 11 | 1 << 12);
	w64(KS_OPS + 88, fh2);
	w64(KS_OPS + 144, TRAMP2);
	w64(fh2 + 0, 0);
	w64(fh2 + 8, h2);
	hash1(h2, FUNC_B);
	call_at(TRAMP2 + 0xc3, KS_FUNC);
	/* the static caller calls the list function */
	call_at(FTRACE_CALLER + 0x7e, LIST_FUNC);

	w64(PAGES_START, pg1);
	w64(pg1 + 0, pg2);
	w64(pg1 + 8, recs1);
	w32(pg1 + 16, 3);
	w64(recs1 + 0, FUNC_A);
	w64(recs1 + 8, 1ull << 31 | 1ull << 27 | 1);
	w64(recs1 + 16, FUNC_B);
	w64(recs1 + 24, 1ull << 31 | 1ull << 30 | 1ull << 26 | 1ull << 27 | 1);
	w64(recs1 + 32, FUNC_C);
	w64(recs1 + 40, 0);
	w64(pg2 + 0, 0);
	w64(pg2 + 8, recs2);
	w32(pg2 + 16, 1);
	w64(recs2 + 0, FUNC_D);
	w64(recs2 + 8, 1ull << 31 | 2);
}

static void test_ftrace_records(void **state)
{
	struct ks_ftrace_ops_list ops = { 0 };
	struct ks_ftrace_list l = { 0 };
	char *out = NULL, *err = NULL;
	size_t olen = 0, elen = 0;
	FILE *o, *e;

	(void)state;
	ftrace_image(false);
	o = open_memstream(&out, &olen);
	e = open_memstream(&err, &elen);
	assert_int_equal(ks_ftrace_ops_walk(walker(&t, e), &ops), 0);
	assert_int_equal(ops.n, 2);
	assert_int_equal(ks_ftrace_walk(walker(&t, e), &ops, &l), 0);
	ks_ftrace_print_all(o, &l);
	ks_ftrace_ops_owners(o, &t, &ops, &l);
	ks_ftrace_ops_print(o, &t, &ops);
	fclose(o);
	fclose(e);
	assert_string_equal(err, "");
	assert_non_null(strstr(out,
		"func_a (1)      \ttramp: 0xffffffffc0100000 (function_trace_call+0x0/0x120) ->function_trace_call+0x0/0x120\n"
		"func_b (1) R I  \ttramp: 0xffffffffc0200000 (kshook_ftrace_func+0x0/0x40 [kshook]) ->kshook_ftrace_func+0x0/0x40 [kshook]\n"
		"func_d (2)       ->ftrace_ops_list_func+0x0/0x1a0\n"
		"2 ftrace_ops on ftrace_ops_list\n"
		"handler owners: vmlinux (function_trace_call); kshook (kshook_ftrace_func)\n"));
	assert_non_null(strstr(out, "0xffffffffc0003000 kshook_ops [kshook]\n"
				    "    func: kshook_ftrace_func+0x0/0x40 [kshook]\n"
				    "    flags: 0x1805 ENABLED|SAVE_REGS|ALLOC_TRAMP|IPMODIFY\n"));
	assert_non_null(strstr(out, "    filter (1): func_b+0x0/0x100\n"));
	free(out);
	free(err);
	ks_ftrace_list_free(&l);
	ks_ftrace_ops_list_free(&ops);
}

/*
 * arm64 has no arch_ftrace_trampoline_func(): the weak default names no
 * target, so no line has "->" (the x86 call decoded at ftrace_call would
 * be garbage there), while the trampolines themselves are still named.
 */
static void test_ftrace_records_arm64(void **state)
{
	struct ks_ftrace_ops_list ops = { 0 };
	struct ks_ftrace_list l = { 0 };
	char *out = NULL, *err = NULL;
	size_t olen = 0, elen = 0;
	FILE *o, *e;

	(void)state;
	ftrace_image(false);
	ks_fake_set_arch(f, "arm64");
	ks_fake_target(f, &t);
	o = open_memstream(&out, &olen);
	e = open_memstream(&err, &elen);
	assert_int_equal(ks_ftrace_ops_walk(walker(&t, e), &ops), 0);
	assert_int_equal(ks_ftrace_walk(walker(&t, e), &ops, &l), 0);
	ks_ftrace_print_all(o, &l);
	fclose(o);
	fclose(e);
	ks_fake_set_arch(f, "x86_64");
	ks_fake_target(f, &t);
	assert_string_equal(err, "");
	assert_non_null(strstr(out,
		"func_a (1)      \ttramp: 0xffffffffc0100000 (function_trace_call+0x0/0x120)\n"
		"func_b (1) R I  \ttramp: 0xffffffffc0200000 (kshook_ftrace_func+0x0/0x40 [kshook])\n"
		"func_d (2)      \n"));
	assert_null(strstr(out, "->"));
	free(out);
	free(err);
	ks_ftrace_list_free(&l);
	ks_ftrace_ops_list_free(&ops);
}

/*
 * A 6.4+ kernel (struct module has mem[]): the reference count is below bit
 * 19, MODIFIED is bit 19, and the lines have the " O" and " M " columns.
 */
static void test_ftrace_6_4_layout(void **state)
{
	struct ks_ftrace_ops_list ops = { 0 };
	struct ks_ftrace_list l = { 0 };
	uint64_t recs1 = HEAP + 0x5000;
	char line[1024];

	(void)state;
	assert_int_equal(ks_fake_add_member(f, "module", "mem", 0x140, 0x1c0), 0);
	/* func_b: IPMODIFY, MODIFIED, a count of 1 with bit 20 (TOUCHED) set */
	w64(recs1 + 24, 1ull << 31 | 1ull << 30 | 1ull << 26 | 1ull << 27 |
			1ull << 20 | 1ull << 19 | 1);
	/* func_a: CALL_OPS and CALL_OPS_EN, the call site's own ops (arm64) */
	w64(recs1 + 8, 1ull << 31 | 1ull << 22 | 1ull << 21 | 1);
	assert_int_equal(ks_ftrace_ops_walk(walker(&t, stderr), &ops), 0);
	assert_int_equal(ks_ftrace_walk(walker(&t, stderr), &ops, &l), 0);
	assert_int_equal(l.n, 3);
	ks_ftrace_format(&l.v[0], line, sizeof(line));
	assert_string_equal(line, "func_a (1)       O   \tops: global_ops+0x0/0xc0 (function_trace_call+0x0/0x120)");
	w64(recs1 + 8, 1ull << 31 | 1ull << 27 | 1);	/* as ftrace_image() */
	ks_ftrace_format(&l.v[1], line, sizeof(line));
	assert_string_equal(line, "func_b (1) R I     M \ttramp: 0xffffffffc0200000 (kshook_ftrace_func+0x0/0x40 [kshook]) ->kshook_ftrace_func+0x0/0x40 [kshook]");
	ks_ftrace_format(&l.v[2], line, sizeof(line));
	assert_string_equal(line, "func_d (2)            ->ftrace_ops_list_func+0x0/0x1a0");
	ks_ftrace_list_free(&l);
	/*
	 * touched_functions: TOUCHED records, enabled or not.  func_c was
	 * hooked once and is no longer (count 0); func_a is enabled but was
	 * never marked (a record the flag's introduction predates).
	 */
	w64(recs1 + 40, 1ull << 20);
	assert_int_equal(ks_ftrace_walk_touched(walker(&t, stderr), &ops, &l), 0);
	assert_int_equal(l.n, 2);
	assert_string_equal(l.v[0].func, "func_b");
	ks_ftrace_format(&l.v[1], line, sizeof(line));
	assert_string_equal(line, "func_c (0)            ->ftrace_ops_list_func+0x0/0x1a0");
	ks_ftrace_list_free(&l);
	ks_ftrace_ops_list_free(&ops);
}

/* Before 6.4 there is no TOUCHED flag: --touched says so, never guesses. */
static void test_ftrace_touched_6_1(void **state)
{
	struct ks_ftrace_ops_list ops = { 0 };
	struct ks_ftrace_list l = { 0 };

	(void)state;
	assert_int_equal(ks_ftrace_ops_walk(walker(&t, stderr), &ops), 0);
	assert_int_equal(ks_ftrace_walk_touched(walker(&t, stderr), &ops, &l), -EOPNOTSUPP);
	assert_int_equal(l.n, 0);
	ks_ftrace_list_free(&l);
	ks_ftrace_ops_list_free(&ops);
}

static void test_ftrace_ops_loop(void **state)
{
	struct ks_ftrace_ops_list ops = { 0 };
	char *err = NULL;
	size_t elen = 0;
	FILE *e;

	(void)state;
	w64(KS_OPS + 8, GLOBAL_OPS);
	e = open_memstream(&err, &elen);
	assert_int_equal(ks_ftrace_ops_walk(walker(&t, e), &ops), 0);
	fclose(e);
	assert_int_equal(ops.n, 2);
	assert_non_null(ops.error);
	assert_non_null(strstr(err, "ftrace_ops_list loops at 0xffffffff82003000"));
	w64(KS_OPS + 8, LIST_END);
	free(err);
	ks_ftrace_ops_list_free(&ops);
}

/* The records of the ftrace_page list; err gets what went wrong. */
static size_t walk_records(char **err)
{
	struct ks_ftrace_ops_list ops = { 0 };
	struct ks_ftrace_list l = { 0 };
	size_t elen = 0, n;
	FILE *e = open_memstream(err, &elen);

	assert_int_equal(ks_ftrace_ops_walk(walker(&t, e), &ops), 0);
	assert_int_equal(ks_ftrace_walk(walker(&t, e), &ops, &l), 0);
	fclose(e);
	n = l.n;
	ks_ftrace_list_free(&l);
	ks_ftrace_ops_list_free(&ops);
	return n;
}

static void expect_err(char *err, const char *part)
{
	if (!err || !strstr(err, part))
		fail_msg("\"%s\" not in \"%s\"", part, err ? err : "(nothing)");
	free(err);
}

/*
 * A looping ftrace_page list gives each record once (it ran for minutes
 * and gigabytes), and the kernel's own counts bound a list that is long
 * without looping.
 */
static void test_ftrace_pages_corrupt(void **state)
{
	uint64_t pg1 = HEAP + 0x4000, pg2 = HEAP + 0x4100, counts = HEAP + 0x6000;
	char *err;

	(void)state;
	/* the first page is its own next: its two enabled records, once */
	w64(pg1, pg1);
	assert_int_equal(walk_records(&err), 2);
	expect_err(err, "kstack: the ftrace_page list (ftrace_pages_start) "
			"loops at 0xffff888000104000 after 1 entries");
	/* the last page's next is the first */
	w64(pg1, pg2);
	w64(pg2, pg1);
	assert_int_equal(walk_records(&err), 3);
	expect_err(err, "loops at 0xffff888000104000 after 2 entries");
	w64(pg2, 0);

	/* ftrace_number_of_groups: one struct ftrace_page, so one is read */
	assert_int_equal(ks_fake_add_memory(f, counts, NULL, 16), 0);
	sym("ftrace_number_of_groups", counts, 8, NULL);
	sym("ftrace_number_of_pages", counts + 8, 8, NULL);
	w64(counts, 1);
	assert_int_equal(walk_records(&err), 2);
	expect_err(err, "has more pages than ftrace_number_of_groups (1)");
	w64(counts, 2);
	assert_int_equal(walk_records(&err), 3);
	expect_err(err, "");
	/* ftrace_number_of_pages: 1 page holds 256 records of 16 bytes */
	w64(counts + 8, 1);
	w32(pg2 + 16, 254);
	assert_int_equal(walk_records(&err), 2);
	expect_err(err, "more records than ftrace_number_of_pages has room for (256)");
	w32(pg2 + 16, 1);
	w64(counts, 0);
	w64(counts + 8, 0);
}

/* The report: kernel lines, summary, then what only memory says. */
static void test_report(void **state)
{
	struct ks_hooks_opts o = { .kprobes = true };
	const struct ks_format_opts fo = { 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len), *null = fopen("/dev/null", "w");

	(void)state;
	assert_int_equal(ks_hooks_report(&t, &o, &fo, fp, &SAID_ON(null)), 0);
	o.kprobes = false;
	o.ftrace = true;
	assert_int_equal(ks_hooks_report(&t, &o, &fo, fp, &SAID_ON(null)), 0);
	fclose(fp);
	fclose(null);
	assert_non_null(strstr(out, "== summary\n7 kprobes: 6 k, 1 r; 2 disabled, 1 gone, 2 optimized, 1 on ftrace; probed modules: gonemod\n== kprobes enabled\n1\n== hook owners\n"));
	assert_non_null(strstr(out, "== summary\n3 functions enabled: 1 R, 1 I, 0 D, 2 with a trampoline; patched modules: none; handlers: function_trace_call, kshook_ftrace_func, ftrace_ops_list_func; handler modules: kshook\n== current_tracer\n(unknown)\n"));
	free(out);
}

/* What a reporter was handed: the messages, one per line. */
struct heard {
	char text[1024];
	int n;
};

static void collect(void *arg, enum ks_say_level level, const char *msg)
{
	struct heard *s = arg;
	size_t len = strlen(s->text);

	(void)level;
	s->n++;
	snprintf(s->text + len, sizeof(s->text) - len, "%s|", msg);
}

/*
 * Inside crash the walkers' complaints go to the command's reporter, not
 * into the report: each one once, without "kstack: " or a newline.
 */
static void test_report_callback(void **state)
{
	struct ks_hooks_opts o = { .kprobes = true };
	const struct ks_format_opts fo = { 0 };
	struct heard said = { "", 0 };
	char *out = NULL;
	size_t len = 0;
	FILE *fp = open_memstream(&out, &len);

	(void)state;
	assert_int_equal(ks_hooks_report(&t, &o, &fo, fp,
					 &REPORT_TO(collect, &said)), 0);
	fclose(fp);
	assert_int_equal(said.n, 2);
	assert_non_null(strstr(said.text, "|kprobe_table[21]: cannot read struct kprobe at 0xffff888077770000|"));
	assert_true(!strncmp(said.text, "kprobe_table[20] loops at 0x", 28));
	assert_null(strstr(said.text, "kstack: "));
	assert_null(strchr(said.text, '\n'));
	assert_null(strstr(out, "kprobe_table["));
	assert_non_null(strstr(out, "== hook owners\n"));
	free(out);
}

/* The walk of a kernel whose types lack skip: what its reporter got. */
static int walk_without(const char *skip, bool ftrace, struct heard *said)
{
	struct ks_fake *full = f;
	struct ks_kprobe_list l = { 0 };
	struct ks_ftrace_walker w;
	struct ks_target mt;
	int ret;

	f = ks_fake_create();
	assert_non_null(f);
	members(skip);
	assert_int_equal(ks_fake_add_memory(f, TABLE, NULL, 64 * 8), 0);
	sym("kprobe_table", TABLE, 64 * 8, NULL);
	sym("ftrace_ops_list", TABLE, 8, NULL);
	sym("ftrace_list_end", TABLE + 8, 8, NULL);
	ks_fake_target(f, &mt);
	if (ftrace)
		ret = ks_ftrace_walker_init(&w, &mt, &REPORT_TO(collect, said));
	else
		ret = ks_kprobe_walk(&mt, &l, &REPORT_TO(collect, said));
	ks_kprobe_list_free(&l);
	ks_fake_destroy(f);
	f = full;
	return ret;
}

/*
 * A member a walker cannot do without names itself and the line of the
 * walker that needs it, once, through the walker's reporter.
 */
static void test_missing_member(void **state)
{
	struct heard said = { "", 0 };

	(void)state;
	assert_int_equal(walk_without("kprobe.nmissed", false, &said), -ENOENT);
	assert_int_equal(said.n, 1);
	assert_non_null(strstr(said.text, "no member kprobe.nmissed in this kernel's types"));
	assert_null(strstr(said.text, ".c:"));
	said = (struct heard){ "", 0 };
	assert_int_equal(walk_without("ftrace_hash.count", true, &said), -ENOENT);
	assert_int_equal(said.n, 1);
	assert_non_null(strstr(said.text, "no member ftrace_hash.count in this kernel's types"));
	assert_null(strstr(said.text, "kstack: "));
	assert_null(strchr(said.text, '\n'));
	/* an optional member is no complaint */
	said = (struct heard){ "", 0 };
	assert_int_equal(walk_without("kretprobe.handler", false, &said), 0);
	assert_int_equal(said.n, 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kprobe_lines),
		cmocka_unit_test(test_report_callback),
		cmocka_unit_test(test_missing_member),
		cmocka_unit_test(test_kprobe_details),
		cmocka_unit_test(test_kprobes_disarmed),
		cmocka_unit_test(test_ftrace_records),
		cmocka_unit_test(test_ftrace_records_arm64),
		cmocka_unit_test(test_ftrace_ops_loop),
		/* before the 6.4 test, which gives struct module its mem[] */
		cmocka_unit_test(test_ftrace_touched_6_1),
		cmocka_unit_test(test_ftrace_6_4_layout),
		cmocka_unit_test(test_ftrace_pages_corrupt),
		cmocka_unit_test(test_report),
	};
	int failed = cmocka_run_group_tests(tests, setup, teardown);
	int total = (int)(sizeof(tests) / sizeof(tests[0]));

	printf("%d passed, %d failed\n", total - failed, failed);
	return failed ? 1 : 0;
}
