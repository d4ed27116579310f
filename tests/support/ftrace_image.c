// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The fake kernel of ftrace_image.h: a kernel tracing every function.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ftrace_image.h"

#define FUNCS		0xffffffff81000000ull	/* vmlinux functions */
#define MOD_FUNCS	0xffffffffc1000000ull	/* module functions */
#define FUNC_SIZE	0x40ull
#define DATA		0xffffffff82000000ull
#define OPS_LIST	(DATA + 0x0)
#define LIST_END	(DATA + 0x100)
#define PAGES_START	(DATA + 0x200)
#define NR_PAGES	(DATA + 0x208)
#define NR_GROUPS	(DATA + 0x210)
#define DIRECT_FUNCS	(DATA + 0x218)
#define GLOBAL_TRACE	(DATA + 0x300)
#define TRACE_OPS	(DATA + 0x1000)
#define KPROBE_OPS	(DATA + 0x1100)
#define TRACER		(DATA + 0x1200)
#define TRACER_NAME	(DATA + 0x1300)
#define FTRACE_CALLER	0xffffffff80005000ull
#define FTRACE_REGS_CALLER 0xffffffff80005100ull
#define TRACE_CALL	0xffffffff80006000ull
#define LIST_FUNC	0xffffffff80006200ull
#define KPROBE_HANDLER	0xffffffff80006400ull
#define TRAMP		0xffffffffc0100000ull
#define DIRECT_TRAMP	0xffffffffc0200000ull
#define HEAP		0xffff888000000000ull
#define RECS		0xffff888100000000ull
#define PAGES		0xffff888200000000ull
#define REC_SIZE	16
#define PAGE_STRUCT	32

/* dyn_ftrace.flags of 6.1 */
#define FL_ENABLED	(1ull << 31)
#define FL_REGS		(1ull << 30)
#define FL_REGS_EN	(1ull << 29)
#define FL_TRAMP	(1ull << 28)
#define FL_TRAMP_EN	(1ull << 27)
#define FL_IPMODIFY	(1ull << 26)
#define FL_DIRECT	(1ull << 24)
#define FL_DIRECT_EN	(1ull << 23)

/* Stops the build at the first failure, keeping its errno. */
#define TRY(call)                       \
	do {                            \
		int _r = (call);        \
		if (_r)                 \
			return _r;      \
	} while (0)

static int members(struct ks_fake *f)
{
	static const struct {
		const char *type, *member;
		long off, size;
	} m[] = {
		{ "hlist_head", "first", 0, 8 },
		{ "hlist_node", "next", 0, 8 },
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
		{ "ftrace_page", "order", 20, 4 },
		{ "dyn_ftrace", "ip", 0, 8 },
		{ "dyn_ftrace", "flags", 8, 8 },
		{ "trace_array", "current_trace", 0, 8 },
		{ "tracer", "name", 0, 8 },
	};
	size_t i;

	for (i = 0; i < sizeof(m) / sizeof(m[0]); i++)
		TRY(ks_fake_add_member(f, m[i].type, m[i].member, m[i].off,
				       m[i].size));
	TRY(ks_fake_add_type(f, "hlist_head", 8));
	return ks_fake_add_type(f, "dyn_ftrace", REC_SIZE);
}

static int kernel_syms(struct ks_fake *f)
{
	static const struct {
		const char *name;
		uint64_t addr, size;
		const char *module;
	} s[] = {
		{ "ftrace_ops_list", OPS_LIST, 8, NULL },
		{ "ftrace_list_end", LIST_END, 0xb8, NULL },
		{ "ftrace_pages_start", PAGES_START, 8, NULL },
		{ "ftrace_number_of_pages", NR_PAGES, 8, NULL },
		{ "ftrace_number_of_groups", NR_GROUPS, 8, NULL },
		{ "direct_functions", DIRECT_FUNCS, 8, NULL },
		{ "global_trace", GLOBAL_TRACE, 0x100, NULL },
		{ "ftrace_caller", FTRACE_CALLER, 0x7e, NULL },
		{ "ftrace_call", FTRACE_CALLER + 0x7e, 0x10, NULL },
		{ "ftrace_regs_caller", FTRACE_REGS_CALLER, 0xc3, NULL },
		{ "ftrace_regs_call", FTRACE_REGS_CALLER + 0xc3, 0x10, NULL },
		{ "function_trace_call", TRACE_CALL, 0x120, NULL },
		{ "ftrace_ops_list_func", LIST_FUNC, 0x1a0, NULL },
		{ "kprobe_ftrace_handler", KPROBE_HANDLER, 0x1b0, NULL },
		{ "bench_direct_tramp", DIRECT_TRAMP, 0x40, "benchdirect" },
	};
	size_t i;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		TRY(ks_fake_add_symbol(f, s[i].name, s[i].addr, s[i].size,
				       s[i].module));
	return 0;
}

/* Names shaped like the kernel's: real stems, a number to vary them. */
static int function_syms(struct ks_fake *f, size_t n)
{
	static const char *const stem[] = {
		"vfs_write", "ksys_read", "do_sys_openat2", "tcp_sendmsg",
		"__x64_sys_futex", "ext4_file_write_iter", "schedule_timeout",
		"kmem_cache_alloc", "__raw_spin_lock", "memcg_charge",
	};
	size_t nmod = n / 20, i;
	char name[64], mod[16];

	for (i = 0; i < n; i++) {
		snprintf(name, sizeof(name), "%s_%zu",
			 stem[i % (sizeof(stem) / sizeof(stem[0]))], i);
		if (i < n - nmod) {
			TRY(ks_fake_add_symbol(f, name, FUNCS + i * FUNC_SIZE,
					       FUNC_SIZE, NULL));
			continue;
		}
		snprintf(mod, sizeof(mod), "benchmod%02zu",
			 (i - (n - nmod)) * KS_FTIMG_MODS / nmod);
		TRY(ks_fake_add_symbol(f, name,
				       MOD_FUNCS + (i - (n - nmod)) * FUNC_SIZE,
				       FUNC_SIZE, mod));
	}
	return 0;
}

static uint64_t func_addr(size_t n, size_t i)
{
	size_t nmod = n / 20;

	return i < n - nmod ? FUNCS + i * FUNC_SIZE :
			      MOD_FUNCS + (i - (n - nmod)) * FUNC_SIZE;
}

static int w64(struct ks_fake *f, uint64_t addr, uint64_t v)
{
	return ks_fake_write_u64(f, addr, v);
}

static int call_at(struct ks_fake *f, uint64_t site, uint64_t target)
{
	uint8_t insn[5] = { 0xe8 };
	int32_t rel = (int32_t)(target - (site + 5));

	memcpy(insn + 1, &rel, 4);
	return ks_fake_write(f, site, insn, 5);
}

/*
 * An ftrace_hash at h (size_bits 0: one bucket) of entries from e on,
 * 0x20 bytes each: ips[i], and directs[i] when given.
 */
static int hash_of(struct ks_fake *f, uint64_t h, uint64_t e,
		   const uint64_t *ips, const uint64_t *directs, size_t n)
{
	size_t i;

	TRY(w64(f, h + 0, 0));
	TRY(w64(f, h + 8, h + 0x20));
	TRY(w64(f, h + 16, n));
	TRY(w64(f, h + 0x20, n ? e : 0));
	for (i = 0; i < n; i++, e += 0x20) {
		TRY(w64(f, e + 0, i + 1 < n ? e + 0x20 : 0));
		TRY(w64(f, e + 16, ips[i]));
		if (directs)
			TRY(w64(f, e + 24, directs[i]));
	}
	return 0;
}

static int ops_image(struct ks_fake *f, const uint64_t *shared, size_t nsh,
		     const uint64_t *direct, const uint64_t *targets, size_t nd)
{
	uint64_t fh1 = HEAP + 0x100, fh2 = HEAP + 0x200, h2 = HEAP + 0x300,
		 h3 = HEAP + 0x400, entries = HEAP + 0x1000;

	TRY(w64(f, OPS_LIST, TRACE_OPS));
	/* the function tracer: ENABLED|DYNAMIC|ALLOC_TRAMP, no filter */
	TRY(w64(f, TRACE_OPS + 0, TRACE_CALL));
	TRY(w64(f, TRACE_OPS + 8, KPROBE_OPS));
	TRY(w64(f, TRACE_OPS + 16, 1 | 1 << 1 | 1 << 11));
	TRY(w64(f, TRACE_OPS + 88, fh1));
	TRY(w64(f, TRACE_OPS + 144, TRAMP));
	TRY(w64(f, TRACE_OPS + 152, 0x100));
	TRY(call_at(f, TRAMP + 0x7e, TRACE_CALL));
	/* kprobes on ftrace: ENABLED|SAVE_REGS|IPMODIFY, on the shared ones */
	TRY(w64(f, KPROBE_OPS + 0, KPROBE_HANDLER));
	TRY(w64(f, KPROBE_OPS + 8, LIST_END));
	TRY(w64(f, KPROBE_OPS + 16, 1 | 1 << 2 | 1 << 12));
	TRY(w64(f, KPROBE_OPS + 88, fh2));
	TRY(w64(f, fh2 + 8, h2));
	TRY(hash_of(f, h2, entries, shared, NULL, nsh));
	/* direct calls */
	TRY(w64(f, DIRECT_FUNCS, h3));
	TRY(hash_of(f, h3, entries + nsh * 0x20, direct, targets, nd));
	/* the static callers call the list function */
	TRY(call_at(f, FTRACE_CALLER + 0x7e, LIST_FUNC));
	TRY(call_at(f, FTRACE_REGS_CALLER + 0xc3, LIST_FUNC));
	TRY(w64(f, GLOBAL_TRACE, TRACER));
	TRY(w64(f, TRACER, TRACER_NAME));
	return ks_fake_write(f, TRACER_NAME, "function", 9);
}

/* The flags of record i, counted into c. */
static uint64_t rec_flags(size_t i, struct ks_ftrace_image_counts *c)
{
	c->n++;
	if (i % KS_FTIMG_DIRECT_EVERY == KS_FTIMG_DIRECT_EVERY - 1) {
		c->regs++;
		c->direct++;
		return FL_ENABLED | FL_REGS | FL_REGS_EN | FL_DIRECT |
		       FL_DIRECT_EN | 2;
	}
	if (i % KS_FTIMG_SHARED_EVERY == KS_FTIMG_SHARED_EVERY - 1) {
		c->regs++;
		c->ipmodify++;
		return FL_ENABLED | FL_REGS | FL_REGS_EN | FL_IPMODIFY | 2;
	}
	c->tramp++;
	return FL_ENABLED | FL_TRAMP | FL_TRAMP_EN | 1;
}

static int pages_image(struct ks_fake *f, size_t n)
{
	size_t pages = (n + KS_FTIMG_PER_PAGE - 1) / KS_FTIMG_PER_PAGE, i;
	uint8_t *pg = calloc(pages ? pages : 1, PAGE_STRUCT);
	int ret;

	if (!pg)
		return -ENOMEM;
	for (i = 0; i < pages; i++) {
		uint64_t next = i + 1 < pages ? PAGES + (i + 1) * PAGE_STRUCT : 0;
		uint64_t records = RECS + i * KS_FTIMG_PER_PAGE * REC_SIZE;
		uint32_t index = i + 1 < pages ? KS_FTIMG_PER_PAGE :
				 (uint32_t)(n - i * KS_FTIMG_PER_PAGE);

		memcpy(pg + i * PAGE_STRUCT, &next, 8);
		memcpy(pg + i * PAGE_STRUCT + 8, &records, 8);
		memcpy(pg + i * PAGE_STRUCT + 16, &index, 4);
	}
	ret = ks_fake_add_memory(f, PAGES, pg, pages * PAGE_STRUCT);
	free(pg);
	if (!ret)
		ret = w64(f, PAGES_START, pages ? PAGES : 0);
	if (!ret)
		ret = w64(f, NR_PAGES, pages);
	if (!ret)
		ret = w64(f, NR_GROUPS, pages);
	return ret;
}

/* The records, and the ips the kprobe ops and direct_functions hold. */
static int records_image(struct ks_fake *f, size_t n,
			 struct ks_ftrace_image_counts *c)
{
	size_t nsh = 0, nd = 0, i;
	uint8_t *recs = calloc(n ? n : 1, REC_SIZE);
	uint64_t *shared = calloc(n / KS_FTIMG_SHARED_EVERY + 1, 8);
	uint64_t *direct = calloc(n / KS_FTIMG_DIRECT_EVERY + 1, 8);
	uint64_t *targets = calloc(n / KS_FTIMG_DIRECT_EVERY + 1, 8);
	int ret = -ENOMEM;

	memset(c, 0, sizeof(*c));
	if (!recs || !shared || !direct || !targets)
		goto out;
	for (i = 0; i < n; i++) {
		uint64_t ip = func_addr(n, i), flags = rec_flags(i, c);

		if (flags & FL_DIRECT) {
			direct[nd] = ip;
			targets[nd++] = DIRECT_TRAMP;
		} else if (flags & FL_IPMODIFY) {
			shared[nsh++] = ip;
		}
		memcpy(recs + i * REC_SIZE, &ip, 8);
		memcpy(recs + i * REC_SIZE + 8, &flags, 8);
	}
	ret = ks_fake_add_memory(f, RECS, recs, n * REC_SIZE);
	if (!ret)
		ret = ks_fake_add_memory(f, HEAP, NULL,
					 0x1000 + 0x20 * (nsh + nd + 1));
	if (!ret)
		ret = ops_image(f, shared, nsh, direct, targets, nd);
out:
	free(recs);
	free(shared);
	free(direct);
	free(targets);
	return ret;
}

int ks_ftrace_image_make(struct ks_fake *f, size_t n,
			 struct ks_ftrace_image_counts *counts)
{
	TRY(members(f));
	TRY(kernel_syms(f));
	TRY(function_syms(f, n));
	TRY(ks_fake_add_memory(f, DATA, NULL, 0x2000));
	TRY(ks_fake_add_memory(f, FTRACE_CALLER, NULL, 0x200));
	TRY(ks_fake_add_memory(f, TRAMP, NULL, 0x100));
	TRY(pages_image(f, n));
	return records_image(f, n, counts);
}
