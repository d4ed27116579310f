// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The buffer in front of crash's unbuffered fp (shared/format/buffered_out.c):
 * the bytes arrive unchanged and in order, in a few large writes instead
 * of one per fputc, and a failing destination is an error at close.
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

#include "buffered_out.h"

/* An unbuffered destination, as crash's fp is, that counts its writes. */
struct sink {
	char *data;
	size_t len, cap;
	size_t writes;
	int fail_errno;		/* non-zero: every write fails with it */
};

static ssize_t sink_write(void *cookie, const char *buf, size_t len)
{
	struct sink *k = cookie;

	k->writes++;
	if (k->fail_errno) {
		errno = k->fail_errno;
		return -1;
	}
	if (k->len + len > k->cap) {
		k->cap = (k->len + len) * 2;
		k->data = realloc(k->data, k->cap);
		assert_non_null(k->data);
	}
	memcpy(k->data + k->len, buf, len);
	k->len += len;
	return (ssize_t)len;
}

static FILE *sink_open(struct sink *k)
{
	cookie_io_functions_t io = { .write = sink_write };
	FILE *f;

	memset(k, 0, sizeof(*k));
	f = fopencookie(k, "w", io);
	assert_non_null(f);
	assert_int_equal(setvbuf(f, NULL, _IONBF, 0), 0);
	return f;
}

static void few_writes_same_bytes(void **state)
{
	char expect[64];
	struct sink k;
	FILE *dst = sink_open(&k), *out;
	size_t total = 0;

	(void)state;
	out = ks_buffered_open(dst);
	assert_non_null(out);
	for (int i = 0; i < 20000; i++) {
		fputc('[', out);
		fprintf(out, "<0>] frame_%d+0x%x/0x100", i, i & 0xff);
		fputs("\n", out);
	}
	assert_int_equal(ks_buffered_close(out, dst), 0);
	fclose(dst);
	for (int i = 0; i < 20000; i++) {
		int n = snprintf(expect, sizeof(expect),
				 "[<0>] frame_%d+0x%x/0x100\n", i, i & 0xff);

		assert_true(total + (size_t)n <= k.len);
		assert_memory_equal(k.data + total, expect, (size_t)n);
		total += (size_t)n;
	}
	assert_int_equal(total, k.len);
	/* a write per buffer-full (BUFSIZ), not one per fputc: 60,000 */
	assert_true(k.writes <= total / 4096 + 2);
	free(k.data);
}

static void failing_destination_is_an_error(void **state)
{
	struct sink k;
	FILE *dst = sink_open(&k), *out;

	(void)state;
	k.fail_errno = ENOSPC;
	out = ks_buffered_open(dst);
	assert_non_null(out);
	for (int i = 0; i < 10; i++)
		fprintf(out, "line %d\n", i);
	assert_int_equal(ks_buffered_close(out, dst), -ENOSPC);
	assert_true(k.writes >= 1);
	fclose(dst);
	free(k.data);
}

static void nothing_written_nothing_sent(void **state)
{
	struct sink k;
	FILE *dst = sink_open(&k), *out;

	(void)state;
	out = ks_buffered_open(dst);
	assert_non_null(out);
	assert_int_equal(ks_buffered_close(out, dst), 0);
	assert_int_equal(k.len, 0);
	fclose(dst);
	free(k.data);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(few_writes_same_bytes),
		cmocka_unit_test(failing_destination_is_an_error),
		cmocka_unit_test(nothing_written_nothing_sent),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
