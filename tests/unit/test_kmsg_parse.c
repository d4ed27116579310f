// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /dev/kmsg's records (live/log/kmsg_parse.c) as the kernel writes them:
 * the header's numbers, the caller, the text unescaped, the device's
 * lines, and records of another form refused.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "kmsg_parse.h"

static struct ks_kmsg_record r;

static int parse(const char *s)
{
	return ks_kmsg_parse(s, strlen(s), &r);
}

static void test_plain(void **state)
{
	(void)state;
	assert_int_equal(parse("6,339,5140900,-;NET: Registered PF_INET6\n"), 0);
	assert_int_equal(r.rec.level, 6);
	assert_int_equal(r.rec.facility, 0);
	assert_int_equal(r.rec.seq, 339);
	assert_int_equal(r.rec.ts_nsec, 5140900000ull);
	assert_false(r.rec.has_caller);
	assert_int_equal(r.rec.text_len, strlen("NET: Registered PF_INET6"));
	assert_memory_equal(r.rec.text, "NET: Registered PF_INET6", r.rec.text_len);
	assert_string_equal(r.rec.subsystem, "");
}

static void test_escapes_and_dict(void **state)
{
	(void)state;
	assert_int_equal(parse("30,12,100,c,caller=T417;one\\x0atwo\\x5c\\x09x\n"
			       " SUBSYSTEM=pci\n DEVICE=+pci:0000:00:01.0\n"), 0);
	assert_int_equal(r.rec.level, 6);
	assert_int_equal(r.rec.facility, 3);
	assert_true(r.rec.has_caller);
	assert_int_equal(r.rec.caller_id, 417);
	assert_int_equal(r.rec.text_len, 10);
	assert_memory_equal(r.rec.text, "one\ntwo\\\tx", 10);
	assert_string_equal(r.rec.subsystem, "pci");
	assert_string_equal(r.rec.device, "+pci:0000:00:01.0");
	assert_int_equal(parse("4,1,2,-,caller=C3;cpu\n"), 0);
	assert_int_equal(r.rec.caller_id, KS_LOG_CALLER_CPU | 3);
}

static void test_refused(void **state)
{
	(void)state;
	assert_int_equal(parse("no header here\n"), -EINVAL);
	assert_int_equal(parse("6,x,1,-;text\n"), -EINVAL);
	assert_int_equal(parse("6,1;text\n"), -EINVAL);
	assert_int_equal(ks_kmsg_parse("", 0, &r), -EINVAL);
	/* a trailing \x cut short stays as it is */
	assert_int_equal(parse("6,1,1,-;end\\x4\n"), 0);
	assert_memory_equal(r.rec.text, "end\\x4", 6);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_plain),
		cmocka_unit_test(test_escapes_and_dict),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
