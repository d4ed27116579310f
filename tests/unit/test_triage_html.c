// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack triage --html's escaping (shared/format/html_escape.c) and its
 * page (triage_html.c) over a triage whose every kernel string is
 * hostile: a comm, a node name, a command line, a lock's symbol, a log
 * line and a reason, each holding < > & and both quotes.  None may open
 * a tag or end an attribute, and every section must still be there,
 * each <details> closed.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "html_escape.h"
#include "triage.h"

#define EVIL "<script>alert('x')</script>&\"q\""

static char *escaped(const char *s, size_t len)
{
	char *buf = NULL;
	size_t n = 0;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	ks_html_escape_n(f, s, len);
	assert_int_equal(fclose(f), 0);
	return buf;
}

static void test_escape(void **state)
{
	static const char in[] = "a<b>&\"'\n\t\x01\x7f\0z";
	char *out = escaped(in, sizeof(in) - 1);

	(void)state;
	assert_string_equal(out, "a&lt;b&gt;&amp;&quot;&#39;\n\t\\x01\\x7f\\x00z");
	free(out);
	out = escaped(EVIL, strlen(EVIL));
	assert_null(strchr(out, '<'));
	assert_null(strchr(out, '"'));
	assert_null(strchr(out, '\''));
	free(out);
}

/* Every byte, alone and in random strings: no < > " ' left, each & an entity. */
static void test_escape_every_byte(void **state)
{
	static const char *const entities[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#39;" };
	char in[256];
	char *out;

	(void)state;
	srand(39);
	for (int round = 0; round < 200; round++) {
		for (size_t i = 0; i < sizeof(in); i++)
			in[i] = (char)(round ? rand() : (int)i);
		out = escaped(in, sizeof(in));
		assert_null(strpbrk(out, "<>\"'"));
		for (char *p = strchr(out, '&'); p; p = strchr(p + 1, '&')) {
			bool known = false;

			for (size_t e = 0; e < sizeof(entities) / sizeof(entities[0]); e++)
				known |= !strncmp(p, entities[e], strlen(entities[e]));
			assert_true(known);
		}
		free(out);
	}
}

static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;

	for (const char *p = hay; (p = strstr(p, needle)); p++)
		n++;
	return n;
}

static void evil_task(struct ks_sample *s, int pid, int owner)
{
	struct ks_task t = { .pid = pid, .tgid = pid, .state = 'D',
			     .has_last_ran = true, .last_ran_ns = 5000000000ULL };

	snprintf(t.comm, sizeof(t.comm), "<b>'\"&");
	t.cmd = strdup(EVIL);
	t.stack = strdup("[<0>] " EVIL "+0x1/0x2\n");
	t.has_wait = true;
	t.wait.kind = "mutex";
	t.wait.addr = 0xffffffffc0a02000ULL;
	t.wait.owner_pid = owner;
	snprintf(t.wait.where, sizeof(t.wait.where), "<img src=x onerror=y>");
	assert_int_equal(ks_sample_add(s, &t), 0);
}

static void evil_triage(struct ks_triage *tr)
{
	static const char line[] = "<script>alert(1)</script> & \"'";

	snprintf(tr->machine.nodename, KS_UTS_LEN, "%s", EVIL);
	snprintf(tr->machine.release, KS_UTS_LEN, "%s", EVIL);
	tr->machine.cmdline = strdup("x\" onload=\"y");
	tr->ps_err = -EIO;
	snprintf(tr->ps_why, KS_TRIAGE_WHY, "%s", EVIL);
	tr->cpus_err = -ENOENT;
	snprintf(tr->cpus_why, KS_TRIAGE_WHY, "%s", EVIL);
	/* a slab cache's name is the kernel's string too */
	snprintf(tr->mem.top[0].name, KS_MEM_SLAB_NAME, "%s", EVIL);
	tr->mem.nr_top = 1;
	ks_sample_init(&tr->stuck, 1, EVIL);
	evil_task(&tr->stuck, 10, 11);
	evil_task(&tr->stuck, 11, 10);
	assert_int_equal(ks_group_build(&tr->stuck, &tr->stuck_groups), 0);
	tr->kprobes_err = -EIO;
	snprintf(tr->kprobes_why, KS_TRIAGE_WHY, "%s", EVIL);
	tr->log.last[0] = (struct ks_log_record){ .level = 3, .text = line,
		.text_len = sizeof(line) - 1, .subsystem = "", .device = "" };
	tr->log.nr_last = 1;
	tr->log.nr_records = 1;
}

static void test_hostile_page(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_triage tr;
	struct ks_target t;
	char *page = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&page, &len);

	(void)state;
	assert_non_null(f);
	assert_non_null(out);
	ks_fake_target(f, &t);
	memset(&tr, 0, sizeof(tr));
	tr.t = &t;
	evil_triage(&tr);
	assert_int_equal(ks_triage_html(out, &tr), 0);
	assert_int_equal(fclose(out), 0);
	assert_null(strstr(page, "<script"));
	assert_null(strstr(page, "<img"));
	assert_null(strstr(page, "<b>"));
	assert_null(strstr(page, "onload=\""));
	assert_non_null(strstr(page, "&lt;script&gt;alert(1)&lt;/script&gt;"));
	assert_non_null(strstr(page, "&lt;img src=x onerror=y&gt;"));
	assert_int_equal(count(page, "<details"), count(page, "</details>"));
	assert_int_equal(count(page, "<section"), 8);
	assert_non_null(strstr(page, "deadlock 1, 2 tasks"));
	free(page);
	free(tr.machine.cmdline);
	ks_group_release(&tr.stuck_groups);
	ks_sample_release(&tr.stuck);
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_escape),
		cmocka_unit_test(test_escape_every_byte),
		cmocka_unit_test(test_hostile_page),
	};

	return cmocka_run_group_tests(tests, 0, 0);
}
