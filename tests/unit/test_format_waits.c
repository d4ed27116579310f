// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --waits in the writers (shared/format/format_waits.c and the -c and
 * --json parts): a sample whose records say who waits for whom, a chain
 * of three, an ABBA deadlock, an rwsem its readers hold and a semaphore;
 * the "== waits" section, exact, after text that is the same as without
 * --waits.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "format.h"

#define STACK "[<0>] __mutex_lock.constprop.0+0x1/0x2\n"
#define NS 1000000000ULL

static void add(struct ks_sample *s, int pid, char state, const char *comm,
		uint64_t last_ran_ns)
{
	struct ks_task t = { .pid = pid, .tgid = pid, .state = state,
			     .start_time = 7, .has_last_ran = true,
			     .last_ran_ns = last_ran_ns,
			     .task_addr = 0xffff888000000000ULL + (uint64_t)pid };

	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	t.cmd = strdup(comm);
	t.stack = strdup(STACK);
	assert_int_equal(ks_sample_add(s, &t), 0);
}

static void waits(struct ks_sample *s, size_t i, const char *kind,
		  uint64_t addr, int owner, const char *where)
{
	struct ks_task *t = &s->tasks[i];

	t->has_wait = true;
	t->wait.kind = kind;
	t->wait.addr = addr;
	t->wait.owner = owner ? 0xffff888000000000ULL + (uint64_t)owner : 0;
	t->wait.owner_pid = owner;
	snprintf(t->wait.where, sizeof(t->wait.where), "%s", where);
}

static void make_sample(struct ks_sample *s)
{
	ks_sample_init(s, 100, "h");
	add(s, 203, 'S', "c", 9500 * NS / 1000);
	add(s, 201, 'D', "a", 10 * NS);
	add(s, 202, 'D', "b", 9 * NS);
	add(s, 301, 'D', "x", 12345 * NS / 1000);
	add(s, 302, 'D', "y", 12301 * NS / 1000);
	add(s, 401, 'D', "r", 1 * NS);
	add(s, 501, 'D', "s", 2 * NS);
	waits(s, 1, "mutex", 0xffffffffc0a02000ULL, 202, "ks_m1");
	waits(s, 2, "rwsem", 0xffff888003a1c100ULL, 203, "");
	waits(s, 3, "mutex", 0xffffffffc0a02040ULL, 302, "ks_ab");
	waits(s, 4, "mutex", 0xffffffffc0a02080ULL, 301, "ks_ba");
	waits(s, 5, "rwsem", 0xffff888003a1c200ULL, 0, "");
	s->tasks[5].wait.readers = true;
	s->tasks[5].wait.nr_readers = 2;
	waits(s, 6, "semaphore", 0xffffffffc0a020c0ULL, 0, "ks_sem");
}

static char *render(const struct ks_sample *s, enum ks_format f, bool w)
{
	struct ks_format_opts o = { .format = f, .waits = w };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(ks_format_sample(out, s, &o), 0);
	fclose(out);
	return buf;
}

static const char expect_waits[] =
	"== waits\n"
	"deadlock 1, 2 tasks:\n"
	"  301 x D last ran 12.345s ago waits for mutex 0xffffffffc0a02040 ks_ab, held by 302\n"
	"  302 y D last ran 12.301s ago waits for mutex 0xffffffffc0a02080 ks_ba, held by 301\n"
	"chain 1, 3 tasks:\n"
	"  201 a D last ran 10.000s ago waits for mutex 0xffffffffc0a02000 ks_m1, held by 202\n"
	"  202 b D last ran 9.000s ago waits for rwsem 0xffff888003a1c100, held by 203\n"
	"  203 c S last ran 9.500s ago holds it\n"
	"chain 2, 1 task:\n"
	"  501 s D last ran 2.000s ago waits for semaphore 0xffffffffc0a020c0 ks_sem, no owner\n"
	"chain 3, 1 task:\n"
	"  401 r D last ran 1.000s ago waits for rwsem 0xffff888003a1c200, held by readers (2)\n";

static void test_text_then_waits(void **state)
{
	struct ks_sample s;
	char *plain, *with;

	(void)state;
	make_sample(&s);
	plain = render(&s, KS_FMT_TEXT, false);
	with = render(&s, KS_FMT_TEXT, true);
	/* the text before the section is the text without --waits */
	assert_memory_equal(with, plain, strlen(plain));
	assert_string_equal(with + strlen(plain), expect_waits);
	free(plain);
	free(with);
	ks_sample_release(&s);
}

static void test_no_waits(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	ks_sample_init(&s, 100, "h");
	add(&s, 1, 'S', "init", 0);
	out = render(&s, KS_FMT_TEXT, true);
	assert_non_null(strstr(out, "\n== waits\nno task waits for a lock\n"));
	free(out);
	ks_sample_release(&s);
}

/* Live: the section says how the locks were read, or that they were not. */
static void test_note(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	ks_sample_init(&s, 100, "h");
	add(&s, 1, 'S', "init", 0);
	s.waits_note = "the memory cannot be read";
	s.waits_unread = true;
	out = render(&s, KS_FMT_TEXT, true);
	assert_non_null(strstr(out, "\n== waits\n(the memory cannot be read)\n"));
	assert_null(strstr(out, "no task waits"));
	free(out);
	s.waits_note = "a snapshot";
	s.waits_unread = false;
	out = render(&s, KS_FMT_TEXT, true);
	assert_non_null(strstr(out, "\n== waits\n(a snapshot)\n"
				    "no task waits for a lock\n"));
	free(out);
	ks_sample_release(&s);
}

static void test_summary_oldest_youngest(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	make_sample(&s);
	out = render(&s, KS_FMT_SUMMARY, true);
	assert_non_null(strstr(out, "7 tasks   States: S 1, D 6   oldest "
				    "12.345s (301), youngest 1.000s (401)   Signatures: "));
	assert_non_null(strstr(out, expect_waits));
	free(out);
	out = render(&s, KS_FMT_SUMMARY, false);
	assert_null(strstr(out, "oldest"));
	assert_null(strstr(out, "== waits"));
	free(out);
	ks_sample_release(&s);
}

static char *render_stuck(const struct ks_sample *s, bool stuck)
{
	struct ks_format_opts o = { .format = KS_FMT_SUMMARY, .stuck_time = stuck };
	char *buf = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&buf, &len);

	assert_non_null(out);
	assert_int_equal(ks_format_sample(out, s, &o), 0);
	fclose(out);
	return buf;
}

/*
 * -D -c: each group's longest time since last ran (and youngest), and
 * its longest time blocked by last_switch_time where a task has one;
 * -c alone, and -D -c of a sample with no times (the live /proc), the
 * same bytes as always.
 */
static void test_summary_stuck_time(void **state)
{
	struct ks_sample s;
	char *plain, *out;

	(void)state;
	make_sample(&s);
	s.tasks[1].has_blocked = true;
	s.tasks[1].blocked_ns = 4 * NS;
	s.tasks[3].has_blocked = true;
	s.tasks[3].blocked_ns = 3999 * NS / 1000;
	out = render_stuck(&s, true);
	assert_non_null(strstr(out, "7 tasks   States: S 1, D 6   oldest "
				    "12.345s (301), youngest 1.000s (401)   "
				    "blocked 4.000s (201, last_switch_time)   Signatures: "));
	assert_null(strstr(out, "== waits"));
	free(out);
	out = render(&s, KS_FMT_JSON, false);
	assert_non_null(strstr(out, ",\"last_ran_ns\":10000000000,"
				    "\"blocked_ns\":4000000000,"));
	free(out);
	out = render_stuck(&s, false);
	assert_null(strstr(out, "oldest"));
	assert_null(strstr(out, "blocked"));
	free(out);
	plain = render_stuck(&s, false);
	for (size_t i = 0; i < s.nr_tasks; i++)
		s.tasks[i].has_last_ran = s.tasks[i].has_blocked = false;
	out = render_stuck(&s, true);
	assert_string_equal(out, plain);
	free(out);
	free(plain);
	ks_sample_release(&s);
}

/* The longest and least long since last ran, the longest blocked. */
static void test_group_times(void **state)
{
	struct ks_sample s;
	struct ks_groups g;

	(void)state;
	make_sample(&s);
	assert_int_equal(ks_group_build(&s, &g), 0);
	assert_int_equal(g.nr_groups, 1);
	assert_int_equal(ks_group_oldest(&s, &g.groups[0], false)->pid, 301);
	assert_int_equal(ks_group_oldest(&s, &g.groups[0], true)->pid, 401);
	assert_null(ks_group_blocked_longest(&s, &g.groups[0]));
	s.tasks[6].has_blocked = true;
	s.tasks[6].blocked_ns = 1;
	assert_int_equal(ks_group_blocked_longest(&s, &g.groups[0])->pid, 501);
	s.tasks[3].has_last_ran = false;	/* 301 */
	assert_int_equal(ks_group_oldest(&s, &g.groups[0], false)->pid, 302);
	ks_group_release(&g);
	ks_sample_release(&s);
}

static void test_json_waits_for(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	make_sample(&s);
	out = render(&s, KS_FMT_JSON, true);
	assert_non_null(strstr(out, "\"pid\":201,"));
	assert_non_null(strstr(out, ",\"waits_for\":{\"kind\":\"mutex\","
				    "\"addr\":\"0xffffffffc0a02000\","
				    "\"owner\":202,\"where\":\"ks_m1\"},\"signature\":"));
	assert_non_null(strstr(out, ",\"waits_for\":{\"kind\":\"rwsem\","
				    "\"addr\":\"0xffff888003a1c200\","
				    "\"owner\":null,\"readers\":2,"
				    "\"where\":null},\"signature\":"));
	/* JSON has no text section */
	assert_null(strstr(out, "== waits"));
	free(out);
	ks_sample_release(&s);
}

/*
 * A queue's waiter: "no owner recorded", as its kernel keeps none; a
 * semaphore's last_holder: "(last holder)" in the text, "last_holder"
 * in --json.
 */
static void test_ownerless_and_last_holder(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	ks_sample_init(&s, 100, "h");
	add(&s, 601, 'D', "q", 3 * NS);
	add(&s, 602, 'S', "h", 1 * NS);
	add(&s, 603, 'S', "w", 2 * NS);
	waits(&s, 0, "folio lock", 0xffffea0000040000ULL, 0, "");
	s.tasks[0].wait.ownerless = true;
	waits(&s, 2, "semaphore", 0xffffffffc0a020c0ULL, 602, "ks_sem");
	s.tasks[2].wait.last_holder = true;
	out = render(&s, KS_FMT_TEXT, true);
	assert_non_null(strstr(out, "\n== waits\n"
		"chain 1, 1 task:\n"
		"  601 q D last ran 3.000s ago waits for folio lock 0xffffea0000040000, "
		"no owner recorded\n"
		"chain 2, 2 tasks:\n"
		"  603 w S last ran 2.000s ago waits for semaphore 0xffffffffc0a020c0 ks_sem, "
		"held by 602 (last holder)\n"
		"  602 h S last ran 1.000s ago holds it\n"));
	free(out);
	out = render(&s, KS_FMT_JSON, true);
	assert_non_null(strstr(out, ",\"waits_for\":{\"kind\":\"semaphore\","
				    "\"addr\":\"0xffffffffc0a020c0\","
				    "\"owner\":602,\"last_holder\":true,"
				    "\"where\":\"ks_sem\"},\"signature\":"));
	assert_non_null(strstr(out, ",\"waits_for\":{\"kind\":\"folio lock\","
				    "\"addr\":\"0xffffea0000040000\","
				    "\"owner\":null,\"where\":null},\"signature\":"));
	free(out);
	ks_sample_release(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_text_then_waits),
		cmocka_unit_test(test_no_waits),
		cmocka_unit_test(test_note),
		cmocka_unit_test(test_summary_oldest_youngest),
		cmocka_unit_test(test_summary_stuck_time),
		cmocka_unit_test(test_group_times),
		cmocka_unit_test(test_json_waits_for),
		cmocka_unit_test(test_ownerless_and_last_holder),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
