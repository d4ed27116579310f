// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The triage's digest of the log (shared/kernel/log/log_digest.c) on
 * rings made by hand: the last OOM victim is the last "Killed process"
 * line or "oom-kill:" summary, of the global or a memory cgroup's OOM,
 * and a log without one has none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "log_digest.h"
#include "printk_image.h"

#define KILLED_A "Out of memory: Killed process 10 (a) total-vm:1000kB, anon-rss:900kB"
#define SUMMARY_B "oom-kill:constraint=CONSTRAINT_NONE,nodemask=(null),task=b,pid=20,uid=0"
#define KILLED_B "Memory cgroup out of memory: Killed process 20 (b) total-vm:10kB"

/* The digest of a ring of the texts given, one a second, level 3 or 6. */
static void digest(const char *const *texts, size_t n, struct ks_log_digest *d)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_printk_image pi;
	struct ks_target t;

	ks_pi_init(&pi, f, 5, 12, true, true);
	for (size_t i = 0; i < n; i++)
		ks_pi_add(&pi, texts[i], (i + 1) * 1000000000ull,
			  strncmp(texts[i], "oom-kill:", 9) ? 3 : 6, 1,
			  KS_PI_FINALIZED);
	ks_fake_target(f, &t);
	assert_int_equal(ks_log_digest_read(&t, d, NULL), 0);
	ks_fake_destroy(f);
}

static void assert_oom(const struct ks_log_digest *d, const char *text)
{
	assert_true(d->has_oom);
	assert_int_equal(d->oom.text_len, strlen(text));
	assert_memory_equal(d->oom.text, text, strlen(text));
}

static void test_last_killed(void **state)
{
	const char *const texts[] = {
		"sh invoked oom-killer: gfp_mask=0xcc0(GFP_KERNEL), order=0",
		"oom-kill:constraint=CONSTRAINT_NONE,task=a,pid=10,uid=0",
		KILLED_A, "something after", SUMMARY_B, KILLED_B, "after that",
	};
	struct ks_log_digest d;

	(void)state;
	digest(texts, sizeof(texts) / sizeof(texts[0]), &d);
	assert_oom(&d, KILLED_B);
	assert_true(d.oom.ts_nsec == 6000000000ull);
	ks_log_digest_release(&d);
}

/* A log that ends between a kill's summary and its line: the summary. */
static void test_summary_last(void **state)
{
	const char *const texts[] = { KILLED_A, SUMMARY_B };
	struct ks_log_digest d;

	(void)state;
	digest(texts, 2, &d);
	assert_oom(&d, SUMMARY_B);
	ks_log_digest_release(&d);
}

static void test_none(void **state)
{
	const char *const texts[] = { "Killed process 1 (init)", "oom-killer" };
	struct ks_log_digest d;

	(void)state;
	digest(texts, 2, &d);
	assert_false(d.has_oom);
	ks_log_digest_release(&d);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_last_killed),
		cmocka_unit_test(test_summary_last),
		cmocka_unit_test(test_none),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
