// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * .BTF found by its header between _etext and _sinittext, for kernels
 * whose kallsyms lists no __start_BTF (Debian's arm64 ones): the header
 * that fits is found across the scan's windows, a header whose strings do
 * not follow its types, or that runs past the range, is passed over, a
 * candidate the loader refuses lets the scan go on, and a range without
 * one is -ENOENT.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "btf_scan.h"
#include "fake_target.h"

#define BASE	0xffff800008be0000ull
#define SPAN	(3u << 20)		/* three of the scan's 1 MiB windows */

struct tried {
	uint64_t addr[8];
	size_t size[8];
	int nr;
	int refuse;		/* how many candidates to refuse first */
};

static int try_one(void *arg, uint64_t addr, size_t size)
{
	struct tried *t = arg;

	if (t->nr < 8) {
		t->addr[t->nr] = addr;
		t->size[t->nr] = size;
	}
	t->nr++;
	return t->nr <= t->refuse ? -EINVAL : 0;
}

/* A struct btf_header at off: types of type_len bytes, then strings. */
static void header(uint8_t *mem, size_t off, uint32_t type_len,
		   uint32_t str_off, uint32_t str_len)
{
	uint32_t w[6] = { 0x0001eb9f, 24, 0, type_len, str_off, str_len };

	memcpy(mem + off, w, sizeof(w));
	mem[off + 24 + str_off] = '\0';
}

static struct ks_fake *fake(uint8_t *mem)
{
	struct ks_fake *f = ks_fake_create();

	assert_non_null(f);
	assert_int_equal(ks_fake_add_memory(f, BASE, mem, SPAN), 0);
	return f;
}

static int scan(uint8_t *mem, struct tried *t)
{
	struct ks_fake *f = fake(mem);
	struct ks_target tg;
	int ret;

	ks_fake_target(f, &tg);
	ret = ks_btf_scan(&tg, BASE, BASE + SPAN, 1u << 20, try_one, t);
	ks_fake_destroy(f);
	return ret;
}

/* A header that straddles the first window's end is found whole. */
static void test_found_across_windows(void **state)
{
	uint8_t *mem = calloc(1, SPAN);
	struct tried t = { .nr = 0 };
	size_t off = (1u << 20) - 12;

	(void)state;
	memset(mem, 0xa5, SPAN);
	header(mem, off, 4096, 4096, 100);
	assert_int_equal(scan(mem, &t), 0);
	assert_int_equal(t.nr, 1);
	assert_true(t.addr[0] == BASE + off);
	assert_int_equal(t.size[0], 24 + 4096 + 100);
	free(mem);
}

/* Misshapen headers are passed over; a refused candidate lets it go on. */
static void test_wrong_shapes_skipped(void **state)
{
	uint8_t *mem = calloc(1, SPAN);
	struct tried t = { .refuse = 1 };

	(void)state;
	header(mem, 0x100, 4096, 8192, 100);		/* a gap after the types */
	header(mem, 0x200, 4096, 4096, SPAN);		/* past the range */
	mem[0x300 + 24 + 64] = 'x';
	header(mem, 0x300, 64, 64, 16);
	mem[0x300 + 24 + 64] = 'x';			/* strings not at "" */
	header(mem, 0x1000, 256, 256, 16);		/* refused by the loader */
	header(mem, 0x2000, 512, 512, 32);		/* taken */
	assert_int_equal(scan(mem, &t), 0);
	assert_int_equal(t.nr, 2);
	assert_true(t.addr[0] == BASE + 0x1000);
	assert_true(t.addr[1] == BASE + 0x2000);
	assert_int_equal(t.size[1], 24 + 512 + 32);
	free(mem);
}

static void test_none(void **state)
{
	uint8_t *mem = calloc(1, SPAN);
	struct tried t = { .nr = 0 };

	(void)state;
	assert_int_equal(scan(mem, &t), -ENOENT);
	assert_int_equal(t.nr, 0);
	free(mem);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_found_across_windows),
		cmocka_unit_test(test_wrong_shapes_skipped),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
