// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The printk ring walker (shared/kernel/log/printk_ring.c) and --log's
 * writer on rings made by hand (tests/support/printk_image.c): records
 * in order with their fields, a block wrapped to the ring's start, a
 * record still reserved, a seq gap, text in memory the image lacks, the
 * layout from VMCOREINFO alone, and forged rings that must end.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "format_log.h"
#include "printk_image.h"
#include "printk_ring.h"
#include "said.h"

struct got {
	unsigned int n;
	char text[16][64];
	uint64_t seq[16];
	struct ks_log_record last;	/* its strings: below */
	char subsystem[64], device[64];
};

static int collect(void *arg, const struct ks_log_record *rec)
{
	struct got *g = arg;

	if (g->n < 16) {
		snprintf(g->text[g->n], sizeof(g->text[0]), "%.*s",
			 (int)rec->text_len, rec->text);
		g->seq[g->n] = rec->seq;
	}
	g->n++;
	g->last = *rec;
	snprintf(g->subsystem, sizeof(g->subsystem), "%s", rec->subsystem);
	snprintf(g->device, sizeof(g->device), "%s", rec->device);
	return 0;
}

struct env {
	struct ks_fake *f;
	struct ks_target t;
	struct ks_printk_image pi;
	struct got got;
	struct ks_log_trouble tr;
	struct said said;
};

static struct env *env_new(unsigned int cbits, unsigned int sbits, bool types,
			   bool data)
{
	struct env *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	e->f = ks_fake_create();
	ks_pi_init(&e->pi, e->f, cbits, sbits, types, data);
	ks_fake_target(e->f, &e->t);
	return e;
}

static int walk(struct env *e)
{
	return ks_printk_ring_walk(&e->t, collect, &e->got, &e->tr,
				   &SAID_TO(&e->said));
}

static void env_free(struct env *e)
{
	ks_fake_destroy(e->f);
	free(e);
}

static void test_records_in_order(void **state)
{
	struct env *e = env_new(4, 10, true, true);

	(void)state;
	ks_pi_add(&e->pi, "first", 1000000000ull, 6, 1, KS_PI_FINALIZED);
	ks_pi_add(&e->pi, "second", 2500000000ull, 4, 42, KS_PI_FINALIZED);
	ks_pi_add(&e->pi, "third", 3000001000ull, 3, KS_LOG_CALLER_CPU | 1,
		  KS_PI_COMMITTED);
	assert_int_equal(walk(e), 0);
	assert_int_equal(e->got.n, 3);
	assert_string_equal(e->got.text[0], "first");
	assert_string_equal(e->got.text[2], "third");
	assert_int_equal(e->got.last.level, 3);
	assert_int_equal(e->got.last.facility, 3);
	assert_int_equal(e->got.last.flags, 2);
	assert_int_equal(e->got.last.caller_id, KS_LOG_CALLER_CPU | 1);
	assert_string_equal(e->got.subsystem, "pci");
	assert_string_equal(e->got.device, "+pci:0000:00:01.0");
	assert_int_equal(e->said.calls, 0);
	env_free(e);
}

/* The layout from VMCOREINFO, with no types: level from the byte after facility. */
static void test_vmcoreinfo_layout(void **state)
{
	struct env *e = env_new(4, 10, false, true);

	(void)state;
	ks_pi_add(&e->pi, "from vmcoreinfo", 5, 2, 7, KS_PI_FINALIZED);
	assert_int_equal(walk(e), 0);
	assert_int_equal(e->got.n, 1);
	assert_string_equal(e->got.text[0], "from vmcoreinfo");
	assert_int_equal(e->got.last.level, 2);
	env_free(e);
}

/* 64 bytes of text: the third block would wrap and is stored at 0. */
static void test_wrapped_block(void **state)
{
	struct env *e = env_new(3, 6, true, true);

	(void)state;
	ks_pi_add(&e->pi, "0123456789abcdef", 1, 6, 1, KS_PI_REUSABLE);
	ks_pi_add(&e->pi, "second block", 2, 6, 1, KS_PI_FINALIZED);
	ks_pi_add(&e->pi, "wrapped to the start", 3, 6, 1, KS_PI_FINALIZED);
	ks_pi_set_ids(&e->pi, 1, 2);
	assert_int_equal(walk(e), 0);
	assert_int_equal(e->got.n, 2);
	assert_string_equal(e->got.text[0], "second block");
	assert_string_equal(e->got.text[1], "wrapped to the start");
	assert_int_equal(e->tr.bad, 0);
	env_free(e);
}

static void test_reserved_and_gap(void **state)
{
	struct env *e = env_new(4, 10, true, true);

	(void)state;
	ks_pi_add(&e->pi, "a", 1, 6, 1, KS_PI_FINALIZED);
	ks_pi_add(&e->pi, "being written", 2, 6, 1, KS_PI_RESERVED);
	ks_pi_add(&e->pi, "c", 3, 6, 1, KS_PI_FINALIZED);
	e->pi.next_seq += 5;	/* five records lost */
	ks_pi_add(&e->pi, "d", 4, 6, 1, KS_PI_FINALIZED);
	assert_int_equal(walk(e), 0);
	assert_int_equal(e->got.n, 3);
	assert_int_equal(e->tr.reserved, 1);
	assert_int_equal(e->tr.lost_ranges, 2);	/* the reserved one, the five */
	assert_int_equal(e->tr.lost_records, 6);
	assert_non_null(strstr(e->said.text, "still being written"));
	assert_non_null(strstr(e->said.text, "6 record(s) lost in 2 range(s)"));
	env_free(e);
}

/* The data ring is not in the image: every text is unreadable, said once. */
static void test_unreadable_text(void **state)
{
	struct env *e = env_new(4, 10, true, false);

	(void)state;
	ks_pi_add(&e->pi, "lost", 1, 6, 1, KS_PI_FINALIZED);
	ks_pi_add(&e->pi, "lost too", 2, 6, 1, KS_PI_FINALIZED);
	assert_int_equal(walk(e), 0);
	assert_int_equal(e->got.n, 0);
	assert_int_equal(e->tr.unreadable, 2);
	assert_int_equal(e->said.calls, 1);
	assert_non_null(strstr(e->said.text, "2 record(s) in memory the image lacks"));
	env_free(e);
}

/* head and tail that span more than the ring: read once round, said. */
static void test_forged_ids(void **state)
{
	struct env *e = env_new(3, 10, true, true);

	(void)state;
	for (int i = 0; i < 8; i++)
		ks_pi_add(&e->pi, "x", (uint64_t)i, 6, 1, KS_PI_FINALIZED);
	ks_pi_set_ids(&e->pi, 7, 6);	/* tail after head: ~2^62 ids */
	assert_int_equal(walk(e), 0);
	assert_true(e->got.n <= 8);
	assert_non_null(strstr(e->said.text, "not valid"));
	env_free(e);
}

/* A count_bits no log has: refused, nothing read. */
static void test_forged_sizes(void **state)
{
	struct env *e = env_new(3, 10, true, true);
	uint32_t huge = 60;

	(void)state;
	ks_pi_add(&e->pi, "x", 1, 6, 1, KS_PI_FINALIZED);
	ks_fake_write(e->f, KS_PI_RB, &huge, 4);
	assert_int_equal(walk(e), -EINVAL);
	assert_int_equal(e->got.n, 0);
	assert_non_null(strstr(e->said.text, "not valid"));
	env_free(e);
}

/*
 * A ring of 2^24 descriptors (a 512 MiB log_buf_len) of which the image
 * holds 8, walked whole (forged ids): nearly all are counted
 * unreadable, with a read a page of the array, not one a descriptor
 * (a fuzzed 29-byte input took 31 s before).
 */
static void test_unreadable_descriptors(void **state)
{
	struct env *e = env_new(3, 10, true, true);
	uint32_t bits = 24;
	unsigned long reads;

	(void)state;
	for (int i = 0; i < 8; i++)
		ks_pi_add(&e->pi, "x", (uint64_t)i, 6, 1, KS_PI_FINALIZED);
	ks_fake_write(e->f, KS_PI_RB, &bits, 4);
	ks_pi_set_ids(&e->pi, 7, 6);	/* every descriptor of the ring */
	reads = ks_fake_read_count(e->f);
	assert_int_equal(walk(e), 0);
	reads = ks_fake_read_count(e->f) - reads;
	/* (a few of the array's pages land on the infos and text mapped) */
	assert_true(e->tr.unreadable >= (1ul << 24) - 1024);
	assert_true(reads < (1ul << 20));
	env_free(e);
}

/* A block whose lpos values no writer makes: invalid, the walk goes on. */
static void test_bad_block(void **state)
{
	struct env *e = env_new(3, 10, true, true);

	(void)state;
	ks_pi_add(&e->pi, "bad", 1, 6, 1, KS_PI_FINALIZED);
	ks_pi_add(&e->pi, "good", 2, 6, 1, KS_PI_FINALIZED);
	ks_fake_write_u64(e->f, KS_PI_DESCS + 16, 1ull << 40);
	assert_int_equal(walk(e), 0);
	assert_int_equal(e->got.n, 1);
	assert_string_equal(e->got.text[0], "good");
	assert_int_equal(e->tr.bad, 1);
	env_free(e);
}

static void format(const struct ks_log_record *rec, bool json, char *buf,
		   size_t len)
{
	FILE *out = fmemopen(buf, len, "w");

	assert_non_null(out);
	ks_format_log_record(out, json, rec);
	fclose(out);
}

static void test_format(void **state)
{
	struct ks_log_record rec = { .seq = 9, .ts_nsec = 123456789012ull,
		.caller_id = 77, .has_caller = true, .level = 4,
		.text = "one\ntwo\x1b\tend", .text_len = 12,
		.subsystem = "", .device = "" };
	char buf[512];

	(void)state;
	format(&rec, false, buf, sizeof(buf));
	assert_string_equal(buf, "[  123.456789] one\n               two\\x1b\tend\n");
	format(&rec, true, buf, sizeof(buf));
	assert_string_equal(buf, "{\"seq\": 9, \"ts_nsec\": 123456789012, "
			    "\"level\": 4, \"facility\": 0, \"caller\": \"T77\", "
			    "\"text\": \"one\\u000atwo\\u001b\\u0009end\"}\n");
	rec.caller_id = KS_LOG_CALLER_CPU | 3;
	rec.ts_nsec = 100000ull * 1000000000ull;
	format(&rec, false, buf, sizeof(buf));
	assert_string_equal(buf, "[100000.000000] one\n                two\\x1b\tend\n");
	format(&rec, true, buf, sizeof(buf));
	assert_non_null(strstr(buf, "\"caller\": \"C3\""));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_records_in_order),
		cmocka_unit_test(test_vmcoreinfo_layout),
		cmocka_unit_test(test_wrapped_block),
		cmocka_unit_test(test_reserved_and_gap),
		cmocka_unit_test(test_unreadable_text),
		cmocka_unit_test(test_forged_ids),
		cmocka_unit_test(test_forged_sizes),
		cmocka_unit_test(test_unreadable_descriptors),
		cmocka_unit_test(test_bad_block),
		cmocka_unit_test(test_format),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
