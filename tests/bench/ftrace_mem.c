// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack -F from memory at the scale of a kernel that traces every
 * function: a fake kernel image (tests/support/fake_target.c) laid out
 * like Linux 6.1 x86_64, with N enabled dyn_ftrace records on ftrace_pages
 * of 256 records each (one 4 KiB page of 16-byte records, as
 * ftrace_allocate_records() fills them), the function tracer's ops with an
 * allocated trampoline on all of them, and one record in a thousand
 * shared with a kprobe's ops (the " ->ftrace_ops_list_func" form).  One
 * function in twenty is in a module.  Then ks_hooks_report() -F, as
 * kstack --vmcore and crash run it, writing to stdout.
 *
 * The fake target searches its symbols linearly (it holds a few dozen in
 * the unit tests); the N function symbols are answered here instead, by a
 * binary search, so that the walker is what is measured.
 *
 * usage: ftrace_mem N >OUT   (stderr: the report's time and memory)
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "fake_target.h"
#include "hooks.h"
#include "options.h"

#define FUNCS		0xffffffff81000000ull	/* vmlinux functions */
#define MOD_FUNCS	0xffffffffc1000000ull	/* module functions */
#define FUNC_SIZE	0x40ull
#define DATA		0xffffffff82000000ull
#define OPS_LIST	(DATA + 0x0)
#define LIST_END	(DATA + 0x100)
#define PAGES_START	(DATA + 0x200)
#define NR_PAGES	(DATA + 0x208)
#define NR_GROUPS	(DATA + 0x210)
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
#define HEAP		0xffff888000000000ull
#define RECS		0xffff888100000000ull
#define PAGES		0xffff888200000000ull
#define RECS_PER_PAGE	256
#define MODS		40
#define SHARED_EVERY	1000

struct bench_sym {
	uint64_t addr;
	char name[48];
	const char *module;
};

static struct bench_sym *syms;
static size_t nr_syms;
static char mod_names[MODS][16];
static struct ks_target_ops ops;
static const struct ks_target_ops *fake_ops;

static void die(const char *what)
{
	fprintf(stderr, "ftrace_mem: %s failed\n", what);
	exit(1);
}

static void w64(struct ks_fake *f, uint64_t addr, uint64_t v)
{
	if (ks_fake_write_u64(f, addr, v))
		die("a write");
}

static void call_at(struct ks_fake *f, uint64_t site, uint64_t target)
{
	uint8_t insn[5] = { 0xe8 };
	int32_t rel = (int32_t)(target - (site + 5));

	memcpy(insn + 1, &rel, 4);
	if (ks_fake_write(f, site, insn, 5))
		die("a call");
}

/* The N functions first, by address; the fake's own table after them. */
static int bench_lookup(void *ctx, uint64_t addr, struct ks_sym *sym_ret)
{
	size_t lo = 0, hi = nr_syms;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (syms[mid].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && addr - syms[lo - 1].addr < FUNC_SIZE) {
		sym_ret->name = syms[lo - 1].name;
		sym_ret->addr = syms[lo - 1].addr;
		sym_ret->size = FUNC_SIZE;
		sym_ret->module = syms[lo - 1].module;
		return 0;
	}
	return fake_ops->lookup(ctx, addr, sym_ret);
}

/* Names shaped like the kernel's: real prefixes, a number to vary them. */
static void make_syms(size_t n)
{
	static const char *const stem[] = {
		"vfs_write", "ksys_read", "do_sys_openat2", "tcp_sendmsg",
		"__x64_sys_futex", "ext4_file_write_iter", "schedule_timeout",
		"kmem_cache_alloc", "__raw_spin_lock", "memcg_charge",
	};
	size_t i, nmod = n / 20;

	syms = calloc(n, sizeof(*syms));
	if (!syms)
		die("calloc");
	for (i = 0; i < MODS; i++)
		snprintf(mod_names[i], sizeof(mod_names[i]), "benchmod%02zu", i);
	for (i = 0; i < n; i++) {
		struct bench_sym *s = &syms[i];
		size_t m = i < n - nmod ? 0 : i - (n - nmod);

		if (i < n - nmod) {
			s->addr = FUNCS + i * FUNC_SIZE;
		} else {
			s->addr = MOD_FUNCS + m * FUNC_SIZE;
			s->module = mod_names[m * MODS / (nmod ? nmod : 1)];
		}
		snprintf(s->name, sizeof(s->name), "%s_%zu",
			 stem[i % (sizeof(stem) / sizeof(stem[0]))], i);
	}
	nr_syms = n;
}

static void members(struct ks_fake *f)
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
		if (ks_fake_add_member(f, m[i].type, m[i].member, m[i].off,
				       m[i].size))
			die("a member");
	if (ks_fake_add_type(f, "hlist_head", 8) ||
	    ks_fake_add_type(f, "dyn_ftrace", 16))
		die("a type");
}

static void fake_syms(struct ks_fake *f)
{
	static const struct {
		const char *name;
		uint64_t addr, size;
	} s[] = {
		{ "ftrace_ops_list", OPS_LIST, 8 },
		{ "ftrace_list_end", LIST_END, 0xb8 },
		{ "ftrace_pages_start", PAGES_START, 8 },
		{ "ftrace_number_of_pages", NR_PAGES, 8 },
		{ "ftrace_number_of_groups", NR_GROUPS, 8 },
		{ "global_trace", GLOBAL_TRACE, 0x100 },
		{ "ftrace_caller", FTRACE_CALLER, 0x7e },
		{ "ftrace_call", FTRACE_CALLER + 0x7e, 0x10 },
		{ "ftrace_regs_caller", FTRACE_REGS_CALLER, 0xc3 },
		{ "ftrace_regs_call", FTRACE_REGS_CALLER + 0xc3, 0x10 },
		{ "function_trace_call", TRACE_CALL, 0x120 },
		{ "ftrace_ops_list_func", LIST_FUNC, 0x1a0 },
		{ "kprobe_ftrace_handler", KPROBE_HANDLER, 0x1b0 },
	};
	size_t i;

	for (i = 0; i < sizeof(s) / sizeof(s[0]); i++)
		if (ks_fake_add_symbol(f, s[i].name, s[i].addr, s[i].size, NULL))
			die("a symbol");
}

/* An ftrace_hash at h of the ips, all in one bucket (size_bits 0). */
static void hash_of(struct ks_fake *f, uint64_t h, const uint64_t *ips,
		    size_t n)
{
	uint64_t e = h + 0x40;
	size_t i;

	w64(f, h + 0, 0);
	w64(f, h + 8, h + 0x20);
	w64(f, h + 16, n);
	w64(f, h + 0x20, n ? e : 0);
	for (i = 0; i < n; i++, e += 0x20) {
		w64(f, e + 0, i + 1 < n ? e + 0x20 : 0);
		w64(f, e + 16, ips[i]);
	}
}

static void ops_image(struct ks_fake *f, const uint64_t *shared, size_t nsh)
{
	uint64_t fh1 = HEAP + 0x100, fh2 = HEAP + 0x200, h2 = HEAP + 0x1000;

	w64(f, OPS_LIST, TRACE_OPS);
	/* the function tracer: no filter (every function), a trampoline */
	w64(f, TRACE_OPS + 0, TRACE_CALL);
	w64(f, TRACE_OPS + 8, KPROBE_OPS);
	w64(f, TRACE_OPS + 16, 1 | 1 << 1 | 1 << 11);	/* ENABLED|DYNAMIC|ALLOC_TRAMP */
	w64(f, TRACE_OPS + 88, fh1);
	w64(f, TRACE_OPS + 144, TRAMP);
	w64(f, TRACE_OPS + 152, 0x100);
	call_at(f, TRAMP + 0x7e, TRACE_CALL);
	/* kprobes on ftrace: the records it shares with the tracer */
	w64(f, KPROBE_OPS + 0, KPROBE_HANDLER);
	w64(f, KPROBE_OPS + 8, LIST_END);
	w64(f, KPROBE_OPS + 16, 1 | 1 << 2 | 1 << 12);	/* ENABLED|SAVE_REGS|IPMODIFY */
	w64(f, KPROBE_OPS + 88, fh2);
	w64(f, fh2 + 8, h2);
	hash_of(f, h2, shared, nsh);
	/* the static caller calls the list function */
	call_at(f, FTRACE_CALLER + 0x7e, LIST_FUNC);
	call_at(f, FTRACE_REGS_CALLER + 0xc3, LIST_FUNC);
	/* current_tracer */
	w64(f, GLOBAL_TRACE, TRACER);
	w64(f, TRACER, TRACER_NAME);
	if (ks_fake_write(f, TRACER_NAME, "function", 9))
		die("the tracer name");
}

/* N records on pages of RECS_PER_PAGE; returns the shared ips. */
static uint64_t *records_image(struct ks_fake *f, size_t n, size_t *nsh)
{
	size_t pages = (n + RECS_PER_PAGE - 1) / RECS_PER_PAGE, i;
	uint64_t *shared = calloc(n / SHARED_EVERY + 1, sizeof(*shared));
	uint8_t *recs = calloc(n ? n : 1, 16);
	uint8_t *pg = calloc(pages ? pages : 1, 32);

	if (!shared || !recs || !pg)
		die("calloc");
	*nsh = 0;
	for (i = 0; i < n; i++) {
		uint64_t ip = syms[i].addr, flags;

		if (i % SHARED_EVERY == SHARED_EVERY - 1) {
			/* ENABLED | REGS | REGS_EN | IPMODIFY, two users */
			flags = 1ull << 31 | 1ull << 30 | 1ull << 29 |
				1ull << 26 | 2;
			shared[(*nsh)++] = ip;
		} else {
			/* ENABLED | TRAMP | TRAMP_EN, the tracer alone */
			flags = 1ull << 31 | 1ull << 28 | 1ull << 27 | 1;
		}
		memcpy(recs + i * 16, &ip, 8);
		memcpy(recs + i * 16 + 8, &flags, 8);
	}
	for (i = 0; i < pages; i++) {
		uint64_t next = i + 1 < pages ? PAGES + (i + 1) * 32 : 0;
		uint64_t records = RECS + i * RECS_PER_PAGE * 16;
		uint32_t index = i + 1 < pages ? RECS_PER_PAGE :
				 (uint32_t)(n - i * RECS_PER_PAGE), order = 0;

		memcpy(pg + i * 32, &next, 8);
		memcpy(pg + i * 32 + 8, &records, 8);
		memcpy(pg + i * 32 + 16, &index, 4);
		memcpy(pg + i * 32 + 20, &order, 4);
	}
	if (ks_fake_add_memory(f, RECS, recs, n * 16) ||
	    ks_fake_add_memory(f, PAGES, pg, pages * 32))
		die("the records");
	free(recs);
	free(pg);
	w64(f, PAGES_START, pages ? PAGES : 0);
	w64(f, NR_PAGES, pages);
	w64(f, NR_GROUPS, pages);
	return shared;
}

static long status_kib(const char *key)
{
	FILE *s = fopen("/proc/self/status", "re");
	char line[256];
	long v = -1;

	if (!s)
		return -1;
	while (fgets(line, sizeof(line), s))
		if (!strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key), NULL, 10);
	fclose(s);
	return v;
}

int main(int argc, char **argv)
{
	struct ks_options opts = { .ftrace = true };
	struct timespec a, b;
	struct ks_fake *f = ks_fake_create();
	struct ks_target t;
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 60000, nsh;
	uint64_t *shared;
	long rss0;
	int ret;

	if (!f)
		die("ks_fake_create");
	make_syms(n);
	members(f);
	fake_syms(f);
	if (ks_fake_add_memory(f, DATA, NULL, 0x2000) ||
	    ks_fake_add_memory(f, HEAP, NULL, 0x1000 + 0x20 * (n / SHARED_EVERY + 2)) ||
	    ks_fake_add_memory(f, FTRACE_CALLER, NULL, 0x200) ||
	    ks_fake_add_memory(f, TRAMP, NULL, 0x100))
		die("the memory");
	shared = records_image(f, n, &nsh);
	ops_image(f, shared, nsh);
	free(shared);

	ks_fake_target(f, &t);
	fake_ops = t.ops;
	ops = *t.ops;
	ops.lookup = bench_lookup;
	t.ops = &ops;

	rss0 = status_kib("VmRSS:");
	clock_gettime(CLOCK_MONOTONIC, &a);
	ret = ks_hooks_report(&t, &opts, stdout, stderr);
	fflush(stdout);
	clock_gettime(CLOCK_MONOTONIC, &b);
	fprintf(stderr, "%zu %.3f %ld %ld\n", n,
		(double)(b.tv_sec - a.tv_sec) + (b.tv_nsec - a.tv_nsec) / 1e9,
		rss0, status_kib("VmHWM:"));
	ks_fake_destroy(f);
	free(syms);
	return ret ? 1 : 0;
}
