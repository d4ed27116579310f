// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmlinux symbols decoded from kallsyms tables in memory, built here the
 * way scripts/kallsyms.c lays them out: a token table with one
 * multi-character token, a "big" symbol whose length takes two bytes, the
 * four address encodings (absolute per-CPU with negative offsets, plain
 * base-relative, absolute addresses, 7.0's place-relative offsets without
 * a base), aliases, and the bounds of the image.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <time.h>
#include <cmocka.h>

#include "fake_target.h"
#include "kallsyms_mem.h"

#define BASE		0xffffffff81000000ull	/* kallsyms_relative_base */
#define TABLES		0xffffffff82800000ull
#define NAMES		(TABLES + 0x0000)
#define NUM		(TABLES + 0x8000)
#define TOK_TABLE	(TABLES + 0x9000)
#define TOK_INDEX	(TABLES + 0xa000)
#define OFFSETS		(TABLES + 0xb000)
#define REL_BASE	(TABLES + 0xc000)
#define ADDRESSES	(TABLES + 0xd000)
#define TOK_SYS		0x01			/* token 1 is "sys_" */

struct ksym {
	const char *name;	/* the type letter first, as kallsyms stores it */
	uint64_t addr;
};

static char big_name[140];

/* kallsyms order: by address, aliases in the order the kernel lists them */
static const struct ksym syms[] = {
	{ "Dfixed_percpu_data", 0x0 },		/* per-CPU: absolute */
	{ "T_stext", BASE },
	{ "Tsys_read", BASE + 0x1000 },
	{ "talias_one", BASE + 0x2000 },
	{ "Talias_two", BASE + 0x2000 },
	{ "tdup", BASE + 0x2800 },
	{ NULL, BASE + 0x3000 },		/* big_name */
	{ "T_etext", BASE + 0x4000 },
	{ "Ddup", BASE + 0x1000000 },
	{ "ddata_obj", BASE + 0x1000100 },
	{ "B_end", BASE + 0x2000000 },
};
#define NR_SYMS	(sizeof(syms) / sizeof(syms[0]))

/* One entry of kallsyms_names: "sys_" becomes one token, the rest bytes. */
static size_t encode(const char *name, uint8_t *out)
{
	uint8_t tok[256];
	size_t n = 0, len = 0;

	for (const char *p = name; *p;) {
		if (!strncmp(p, "sys_", 4)) {
			tok[n++] = TOK_SYS;
			p += 4;
		} else {
			tok[n++] = (uint8_t)*p++;
		}
	}
	if (n >= 0x80) {
		out[len++] = (uint8_t)(0x80 | (n & 0x7f));
		out[len++] = (uint8_t)(n >> 7);
	} else {
		out[len++] = (uint8_t)n;
	}
	memcpy(out + len, tok, n);
	return len + n;
}

/* Tokens: byte b stands for itself, except token 1, which is "sys_". */
static void add_tokens(struct ks_fake *f)
{
	char table[1024];
	uint16_t index[256];
	size_t off = 0;

	for (int i = 0; i < 256; i++) {
		index[i] = (uint16_t)off;
		if (i == TOK_SYS) {
			memcpy(table + off, "sys_", 5);
			off += 5;
		} else {
			table[off++] = (char)(i ? i : '?');
			table[off++] = '\0';
		}
	}
	ks_fake_add_memory(f, TOK_TABLE, table, off);
	ks_fake_add_memory(f, TOK_INDEX, index, sizeof(index));
}

enum encoding { ABS_PERCPU, RELATIVE, ABSOLUTE, PLACE_RELATIVE };

#define MAX_SYMS	32

/* Tables of the symbols v[first..n) (RELATIVE leaves out v[0], per-CPU). */
static struct ks_fake *image_of(const struct ksym *v, size_t n,
				enum encoding enc,
				struct ks_kallsyms_mem_addrs *a)
{
	struct ks_fake *f = ks_fake_create();
	uint8_t names[4096];
	int32_t offs[MAX_SYMS];
	uint64_t addrs[MAX_SYMS], base = BASE;
	size_t len = 0, first = enc == RELATIVE || enc == PLACE_RELATIVE ? 1 : 0;
	uint32_t num = (uint32_t)(n - first);

	assert_true(n <= MAX_SYMS);
	memset(big_name, 'x', sizeof(big_name) - 1);
	big_name[0] = 'T';
	for (size_t i = first; i < n; i++) {
		uint64_t addr = v[i].addr;

		len += encode(v[i].name ? v[i].name : big_name, names + len);
		addrs[i - first] = addr;
		if (enc == ABS_PERCPU)
			offs[i - first] = addr < BASE ? (int32_t)addr
						      : (int32_t)(int64_t)(BASE - 1 - addr);
		else if (enc == PLACE_RELATIVE)	/* offset_to_ptr() */
			offs[i - first] = (int32_t)(int64_t)(addr -
					(OFFSETS + 4 * (i - first)));
		else
			offs[i - first] = (int32_t)(uint32_t)(addr - BASE);
	}
	ks_fake_add_memory(f, NAMES, names, len);
	ks_fake_add_memory(f, NUM, &num, sizeof(num));
	add_tokens(f);
	memset(a, 0, sizeof(*a));
	a->names = NAMES;
	a->num_syms = NUM;
	a->token_table = TOK_TABLE;
	a->token_index = TOK_INDEX;
	a->stext = BASE;
	if (enc == ABSOLUTE) {
		ks_fake_add_memory(f, ADDRESSES, addrs, num * sizeof(addrs[0]));
		a->addresses = ADDRESSES;
		return f;
	}
	ks_fake_add_memory(f, OFFSETS, offs, num * sizeof(offs[0]));
	a->offsets = OFFSETS;
	if (enc == PLACE_RELATIVE)	/* 7.0+: VMCOREINFO lists no base */
		return f;
	ks_fake_add_memory(f, REL_BASE, &base, sizeof(base));
	a->relative_base = REL_BASE;
	return f;
}

static struct ks_fake *image(enum encoding enc, struct ks_kallsyms_mem_addrs *a)
{
	return image_of(syms, NR_SYMS, enc, a);
}

static struct ks_kallsyms_mem *load(struct ks_fake *f,
				    const struct ks_kallsyms_mem_addrs *a)
{
	struct ks_kallsyms_mem *ks = NULL;
	struct ks_target t;

	ks_fake_target(f, &t);
	assert_int_equal(ks_kallsyms_mem_load(&t, a, &ks), 0);
	return ks;
}

static void expect(const struct ks_kallsyms_mem *ks, uint64_t addr,
		   const char *name, uint64_t start, uint64_t size)
{
	struct ks_sym s;

	assert_int_equal(ks_kallsyms_mem_lookup(ks, addr, &s), 0);
	assert_string_equal(s.name, name);
	assert_int_equal(s.addr, start);
	assert_int_equal(s.size, size);
	assert_null(s.module);
}

/* What every encoding must give for the kernel image. */
static void check_image(const struct ks_kallsyms_mem *ks)
{
	struct ks_sym s;
	uint64_t addr;

	/* ddata_obj and B_end: a CONFIG_KALLSYMS_ALL table */
	assert_true(ks_kallsyms_mem_has_data(ks));
	expect(ks, BASE + 0x1095, "sys_read", BASE + 0x1000, 0x1000);
	/* the first alias as listed, sized to the next higher address */
	expect(ks, BASE + 0x2000, "alias_one", BASE + 0x2000, 0x800);
	expect(ks, BASE + 0x3fff, big_name + 1, BASE + 0x3000, 0x1000);
	assert_int_equal(strlen(big_name + 1), 138);
	/* KALLSYMS_ALL: data up to _end, the last one sized to _end */
	expect(ks, BASE + 0x1000180, "data_obj", BASE + 0x1000100, 0xffff00);
	assert_int_equal(ks_kallsyms_mem_lookup(ks, BASE + 0x2000000, &s), -ENOENT);
	assert_int_equal(ks_kallsyms_mem_lookup(ks, BASE - 1, &s), -ENOENT);
	assert_int_equal(ks_kallsyms_mem_addr(ks, "alias_two", &addr), 0);
	assert_int_equal(addr, BASE + 0x2000);
	/* a global wins over a local of the same name */
	assert_int_equal(ks_kallsyms_mem_addr(ks, "dup", &addr), 0);
	assert_int_equal(addr, BASE + 0x1000000);
	assert_int_equal(ks_kallsyms_mem_addr(ks, "nothing", &addr), -ENOENT);
}

static void test_absolute_percpu(void **state)
{
	struct ks_kallsyms_mem_addrs a;
	struct ks_fake *f = image(ABS_PERCPU, &a);
	struct ks_kallsyms_mem *ks = load(f, &a);
	struct ks_sym s;
	uint64_t addr;

	(void)state;
	assert_int_equal(ks_kallsyms_mem_count(ks), NR_SYMS);
	check_image(ks);
	/* per-CPU symbols keep their absolute offsets and name no text */
	assert_int_equal(ks_kallsyms_mem_addr(ks, "fixed_percpu_data", &addr), 0);
	assert_int_equal(addr, 0);
	assert_int_equal(ks_kallsyms_mem_lookup(ks, 0x10, &s), -ENOENT);
	ks_kallsyms_mem_free(ks);
	ks_fake_destroy(f);
}

/* An encoding without the per-CPU symbol: the image as check_image() wants it. */
static void check_encoding(enum encoding enc)
{
	struct ks_kallsyms_mem_addrs a;
	struct ks_fake *f = image(enc, &a);
	struct ks_kallsyms_mem *ks = load(f, &a);

	assert_int_equal(ks_kallsyms_mem_count(ks), NR_SYMS - 1);
	check_image(ks);
	ks_kallsyms_mem_free(ks);
	ks_fake_destroy(f);
}

static void test_relative(void **state)
{
	(void)state;
	check_encoding(RELATIVE);
}

static void test_absolute_addresses(void **state)
{
	struct ks_kallsyms_mem_addrs a;
	struct ks_fake *f = image(ABSOLUTE, &a);
	struct ks_kallsyms_mem *ks = load(f, &a);

	(void)state;
	check_image(ks);
	ks_kallsyms_mem_free(ks);
	ks_fake_destroy(f);
}

/* 7.0's kallsyms_sym_address(): each offset counts from its own place. */
static void test_place_relative(void **state)
{
	(void)state;
	check_encoding(PLACE_RELATIVE);
}

/* An encoding that puts _stext elsewhere is named as unknown, not guessed. */
static void test_unknown_encoding(void **state)
{
	struct ks_kallsyms_mem_addrs a;
	struct ks_fake *f = image(PLACE_RELATIVE, &a);
	struct ks_kallsyms_mem *ks = NULL;
	struct ks_target t;

	(void)state;
	ks_fake_target(f, &t);
	a.stext = BASE + 0x10;
	assert_int_equal(ks_kallsyms_mem_load(&t, &a, &ks), -EPROTONOSUPPORT);
	assert_null(ks);
	ks_fake_destroy(f);
}

/* What is missing or wrong is refused, never decoded into wrong names. */
static void test_refused(void **state)
{
	struct ks_kallsyms_mem_addrs a;
	struct ks_fake *f = image(ABS_PERCPU, &a);
	struct ks_kallsyms_mem *ks = NULL;
	struct ks_target t;
	uint32_t huge = 0xffffffff;

	(void)state;
	ks_fake_target(f, &t);
	a.stext = BASE + 0x10;		/* _stext is not where VMCOREINFO says */
	assert_int_equal(ks_kallsyms_mem_load(&t, &a, &ks), -EPROTONOSUPPORT);
	a.stext = BASE;
	a.token_index = 0;		/* a kernel before 6.0: no table listed */
	assert_int_equal(ks_kallsyms_mem_load(&t, &a, &ks), -ENOENT);
	a.token_index = TOK_INDEX;
	a.names = TABLES + 0x20000000;	/* a table the dump does not hold */
	assert_int_equal(ks_kallsyms_mem_load(&t, &a, &ks), -EFAULT);
	a.names = NAMES;
	ks_fake_write(f, NUM, &huge, sizeof(huge));
	assert_int_equal(ks_kallsyms_mem_load(&t, &a, &ks), -EINVAL);
	assert_null(ks);
	ks_fake_destroy(f);
}

static long max_rss_kb(void)
{
	struct rusage ru;

	getrusage(RUSAGE_SELF, &ru);
	return ru.ru_maxrss;
}

/*
 * Forged tables (issue 27): 4 Mi names of one byte each (8 MB) whose one
 * token is 500 characters long.  They took 2.16 GB and 6.4 s before
 * "cannot be decoded"; the name pool's bound refuses them early.
 */
static void test_forged_pool(void **state)
{
	const uint32_t num = 4u << 20;
	const uint64_t names = TABLES + 0x10000000ull;
	const uint64_t tok = names + 2ull * num, idx = tok + 0x1000;
	struct ks_kallsyms_mem_addrs a = {
		.names = names, .num_syms = NUM, .token_table = tok,
		.token_index = idx, .offsets = idx + 0x1000,
		.relative_base = idx + 0x1000 + 4ull * num, .stext = BASE,
	};
	struct ks_fake *f = ks_fake_create();
	struct ks_kallsyms_mem *ks = NULL;
	uint8_t *buf = calloc(2ull * num, 1);
	char token[501];
	uint16_t index[256] = { 0 };
	struct timespec t0, t1;
	struct ks_target t;
	long rss0;
	double secs;

	(void)state;
	assert_non_null(buf);
	for (uint32_t i = 0; i < num; i++)
		buf[2 * i] = 1;		/* length 1, token 0 */
	memset(token, 'x', sizeof(token) - 1);
	token[0] = 'T';
	token[sizeof(token) - 1] = '\0';
	ks_fake_add_memory(f, names, buf, 2ull * num);
	ks_fake_add_memory(f, NUM, &num, sizeof(num));
	ks_fake_add_memory(f, tok, token, sizeof(token));
	ks_fake_add_memory(f, idx, index, sizeof(index));
	free(buf);
	ks_fake_target(f, &t);
	rss0 = max_rss_kb();
	clock_gettime(CLOCK_MONOTONIC, &t0);
	assert_int_equal(ks_kallsyms_mem_load(&t, &a, &ks), -EINVAL);
	clock_gettime(CLOCK_MONOTONIC, &t1);
	secs = (double)(t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
	printf("forged tables refused in %.2f s, peak RSS grew %ld MB\n", secs,
	       (max_rss_kb() - rss0) / 1024);
	assert_true(secs < 10.0);
	assert_true(max_rss_kb() - rss0 < 256 * 1024);
	assert_null(ks);
	ks_fake_destroy(f);
}

/* A table outside the image, or too small for num_syms, is not read. */
static void test_bounds(void **state)
{
	struct ks_kallsyms_mem_addrs a;
	struct ks_fake *f = image(ABS_PERCPU, &a);
	struct ks_kallsyms_mem *ks = NULL;
	struct ks_target t;
	uint32_t many = 0x2000;	/* 16 KiB of names at least: NUM is 32 KiB on */

	(void)state;
	ks_fake_target(f, &t);
	a.stext = TABLES + 0x100000;	/* the tables below _stext */
	assert_int_equal(ks_kallsyms_mem_load(&t, &a, &ks), -EINVAL);
	a.stext = BASE - (1ull << 30);	/* more than the image's 1 GiB below */
	assert_int_equal(ks_kallsyms_mem_load(&t, &a, &ks), -EINVAL);
	a.stext = BASE;
	/* 8192 offsets do not fit the 4 KiB before kallsyms_relative_base */
	ks_fake_write(f, NUM, &many, sizeof(many));
	assert_int_equal(ks_kallsyms_mem_load(&t, &a, &ks), -EINVAL);
	assert_null(ks);
	ks_fake_destroy(f);
}

/*
 * The init text is [_sinittext, _einittext): with one of them missing
 * (a damaged table) there is none, and an address below every symbol
 * is in no symbol; it was in [0, _einittext) and got the first one.
 */
static void test_half_init_range(void **state)
{
	static const struct ksym half[] = {
		{ "Dfixed_percpu_data", 0x0 },
		{ "T_stext", BASE },
		{ "Tsys_read", BASE + 0x1000 },
		{ "T_etext", BASE + 0x4000 },
		{ "T_einittext", BASE + 0x8000 },
	};
	struct ks_kallsyms_mem_addrs a;
	struct ks_fake *f = image_of(half, 5, RELATIVE, &a);
	struct ks_kallsyms_mem *ks = load(f, &a);
	struct ks_sym s;

	(void)state;
	expect(ks, BASE + 0x1010, "sys_read", BASE + 0x1000, 0x3000);
	assert_int_equal(ks_kallsyms_mem_lookup(ks, 0x1000, &s), -ENOENT);
	assert_int_equal(ks_kallsyms_mem_lookup(ks, BASE - 1, &s), -ENOENT);
	assert_int_equal(ks_kallsyms_mem_lookup(ks, BASE + 0x5000, &s), -ENOENT);
	ks_kallsyms_mem_free(ks);
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_absolute_percpu),
		cmocka_unit_test(test_relative),
		cmocka_unit_test(test_absolute_addresses),
		cmocka_unit_test(test_place_relative),
		cmocka_unit_test(test_unknown_encoding),
		cmocka_unit_test(test_refused),
		cmocka_unit_test(test_half_init_range),
		cmocka_unit_test(test_forged_pool),
		cmocka_unit_test(test_bounds),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
