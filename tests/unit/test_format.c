// SPDX-License-Identifier: GPL-2.0-or-later
/* Grouping and every output format, on records built here. */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <cmocka.h>

#include "format.h"
#include "options.h"
#include "group.h"

#define WAIT "[<0>] do_wait+0x15c/0x2e0\n[<0>] kernel_wait4+0xbc/0x168\n"
#define SLEEP "[<0>] hrtimer_nanosleep+0x9e/0x170\n[<0>] common_nsleep+0x3f/0x50 [mod]\n"

static void add(struct ks_sample *s, int pid, char state, int64_t start,
		const char *comm, const char *cmd, const char *stack)
{
	struct ks_task t = { .pid = pid, .tgid = pid, .state = state,
			     .start_time = start };

	snprintf(t.comm, sizeof(t.comm), "%s", comm);
	t.cmd = strdup(cmd);
	t.stack = strdup(stack);
	assert_int_equal(ks_sample_add(s, &t), 0);
}

/* 1696092438 is Sat Sep 30 16:47:18 UTC 2023 */
static void make_sample(struct ks_sample *s)
{
	ks_sample_init(s, 1696092438, "ol8-1");
	add(s, 8521, 'S', 1696091809, "bash", "-bash", WAIT);
	add(s, 8530, 'S', 1696091810, "sleep", "sleep 100", SLEEP);
	add(s, 8564, 'D', 1696091900, "bash", "-bash", WAIT);
	add(s, 8600, 'Z', 1696091901, "defunct", "defunct", "");
	add(s, 8601, 'S', 1696091902, "sleep", "sleep 1", SLEEP);
	add(s, 8602, 'S', 1696091903, "sleep", "sleep 2", SLEEP);
	add(s, 8603, 'I', 1696091904, "kworker/0:1", "kworker/0:1", SLEEP);
}

/* The writer FN on S, with the default options or -v's. */
static char *render_opts(int (*fn)(FILE *, const struct ks_sample *,
				   const struct ks_groups *,
				   const struct ks_format_opts *),
			 const struct ks_sample *s, bool verbose)
{
	struct ks_format_opts o = { .verbose = verbose };
	struct ks_groups g;
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(ks_group_build(s, &g), 0);
	assert_int_equal(fn(f, s, &g, &o), 0);
	fclose(f);
	ks_group_release(&g);
	return buf;
}

static char *render(int (*fn)(FILE *, const struct ks_sample *,
			      const struct ks_groups *,
			      const struct ks_format_opts *),
		    const struct ks_sample *s)
{
	return render_opts(fn, s, false);
}

static int setup(void **state)
{
	(void)state;
	setenv("TZ", "UTC", 1);
	tzset();
	return 0;
}

static void test_group_order(void **state)
{
	struct ks_sample s;
	struct ks_groups g;

	(void)state;
	make_sample(&s);
	assert_int_equal(ks_group_build(&s, &g), 0);
	assert_int_equal(g.nr_groups, 3);
	assert_string_equal(g.groups[0].stack, WAIT);
	assert_int_equal(g.groups[0].nr_members, 2);
	assert_int_equal(g.groups[0].members[1], 2);
	assert_string_equal(g.groups[1].stack, SLEEP);
	assert_int_equal(g.groups[1].nr_members, 4);
	assert_string_equal(g.groups[2].stack, "");
	ks_group_release(&g);
	ks_sample_release(&s);
}

static void test_group_many(void **state)
{
	struct ks_sample s;
	struct ks_groups g;
	char stack[64];

	(void)state;
	ks_sample_init(&s, 0, "h");
	for (int i = 0; i < 5000; i++) {
		snprintf(stack, sizeof(stack), "[<0>] f%d+0x1/0x2\n", i % 977);
		add(&s, i + 1, 'S', 0, "c", "c", stack);
	}
	assert_int_equal(ks_group_build(&s, &g), 0);
	assert_int_equal(g.nr_groups, 977);
	for (size_t i = 0; i < g.nr_groups; i++) {
		snprintf(stack, sizeof(stack), "[<0>] f%zu+0x1/0x2\n", i);
		assert_string_equal(g.groups[i].stack, stack);
	}
	ks_group_release(&g);
	ks_sample_release(&s);
}

static const char expect_text[] =
"zzz <Sat Sep 30 16:47:18 UTC 2023 - ol8-1\n"
"\n"
"PID:  8521   State:  S   Start Time: 2023/09/30 16:36:49   Cmd: -bash\n"
"PID:  8564   State:  D   Start Time: 2023/09/30 16:38:20   Cmd: -bash\n"
"Stack:\n"
"[<0>] do_wait+0x15c/0x2e0\n"
"[<0>] kernel_wait4+0xbc/0x168\n"
"\n"
"PID:  8530   State:  S   Start Time: 2023/09/30 16:36:50   Cmd: sleep 100\n"
"PID:  8601   State:  S   Start Time: 2023/09/30 16:38:22   Cmd: sleep 1\n"
"PID:  8602   State:  S   Start Time: 2023/09/30 16:38:23   Cmd: sleep 2\n"
"PID:  8603   State:  I   Start Time: 2023/09/30 16:38:24   Cmd: kworker/0:1\n"
"Stack:\n"
"[<0>] hrtimer_nanosleep+0x9e/0x170\n"
"[<0>] common_nsleep+0x3f/0x50 [mod]\n"
"\n"
"PID:  8600   State:  Z   Start Time: 2023/09/30 16:38:21   Cmd: defunct\n"
"Stack:\n"
"\n"
"\n";

static void test_text_exact(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	make_sample(&s);
	out = render(ks_format_text, &s);
	assert_string_equal(out, expect_text);
	free(out);
	ks_sample_release(&s);
}

static void test_summary(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	make_sample(&s);
	out = render(ks_format_summary, &s);
	assert_string_equal(out,
		"zzz <Sat Sep 30 16:47:18 UTC 2023 - ol8-1\n"
		"7 tasks, 3 distinct stacks\n"
		"\n"
		"4 tasks   States: S 3, I 1   Signatures: S 0809664a5d7f, I 5dbb1aa82bc6   e.g. 8530 (sleep), 8601 (sleep), 8602 (sleep) ...\n"
		SLEEP "\n"
		"2 tasks   States: S 1, D 1   Signatures: S cf46bdff736b, D 88ee670b6e06   e.g. 8521 (bash), 8564 (bash)\n"
		WAIT "\n"
		"1 task   States: Z 1   Signature: 09645e07b5ef   e.g. 8600 (defunct)\n"
		"\n");
	free(out);
	ks_sample_release(&s);
}

/* #40 item 12: one task is "1 task", one stack "1 distinct stack" */
static void test_summary_one(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	ks_sample_init(&s, 1696092438, "ol8-1");
	add(&s, 8600, 'Z', 1696091901, "defunct", "defunct", "");
	out = render(ks_format_summary, &s);
	assert_string_equal(out,
		"zzz <Sat Sep 30 16:47:18 UTC 2023 - ol8-1\n"
		"1 task, 1 distinct stack\n"
		"\n"
		"1 task   States: Z 1   Signature: 09645e07b5ef   e.g. 8600 (defunct)\n"
		"\n");
	free(out);
	ks_sample_release(&s);
}

/* -c --all, parsed as the tools parse it: every PID of a group. */
static void test_summary_all(void **state)
{
	char *argv[] = { "kstack", "-a", "-c", "--all", NULL };
	struct ks_options o;
	struct ks_sample s;
	char *out = NULL;
	size_t len = 0;
	FILE *f;

	(void)state;
	assert_int_equal(ks_options_parse(&o, KS_CTX_CRASH, 4, argv, NULL,
					  NULL, NULL), 0);
	make_sample(&s);
	f = open_memstream(&out, &len);
	assert_non_null(f);
	assert_int_equal(ks_format_sample(f, &s, &o.out), 0);
	fclose(f);
	assert_string_equal(out,
		"zzz <Sat Sep 30 16:47:18 UTC 2023 - ol8-1\n"
		"7 tasks, 3 distinct stacks\n"
		"\n"
		"4 tasks   States: S 3, I 1   Signatures: S 0809664a5d7f, I 5dbb1aa82bc6   all: 8530 (sleep), 8601 (sleep), 8602 (sleep), 8603 (kworker/0:1)\n"
		SLEEP "\n"
		"2 tasks   States: S 1, D 1   Signatures: S cf46bdff736b, D 88ee670b6e06   all: 8521 (bash), 8564 (bash)\n"
		WAIT "\n"
		"1 task   States: Z 1   Signature: 09645e07b5ef   all: 8600 (defunct)\n"
		"\n");
	free(out);
	ks_sample_release(&s);
	ks_options_release(&o);
}

static void test_folded(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	make_sample(&s);
	out = render(ks_format_folded, &s);
	assert_string_equal(out,
		"bash;kernel_wait4;do_wait 2\n"
		"sleep;common_nsleep;hrtimer_nanosleep 3\n"
		"kworker/0:1;common_nsleep;hrtimer_nanosleep 1\n"
		"defunct 1\n");
	free(out);
	ks_sample_release(&s);
}

static void test_json(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	ks_sample_init(&s, 100, "h\"q");
	add(&s, 5, 'S', 7, "a b", "x\001\"\\\xff\xc3\xa9", "[<0>] f+0x1/0x2\n");
	out = render(ks_format_json, &s);
	assert_string_equal(out,
		"{\"schema\":1,\"version\":\"" KS_VERSION "\",\"time\":100,"
		"\"host\":\"h\\\"q\",\"kernel\":null,\"tasks\":1,\"groups\":["
		"{\"stack\":[\"f+0x1/0x2\"],\"signature\":\"20c961230365\",\"tasks\":[{\"pid\":5,\"tgid\":5,"
		"\"state\":\"S\",\"start_time\":7,\"comm\":\"a b\","
		"\"cmd\":\"x\\u0001\\\"\\\\\\ufffd\xc3\xa9\",\"on_cpu\":false,"
		"\"signature\":\"20c961230365\"}]}]}\n");
	free(out);
	ks_sample_release(&s);
}

/* A dump that lacks its clock: the header's date and --json's time unknown. */
static void test_when_unknown(void **state)
{
	char header[128];
	struct ks_sample s;
	char *out;

	(void)state;
	assert_int_equal(ks_format_header(header, sizeof(header),
					  KS_WHEN_UNKNOWN, "h"), 0);
	assert_string_equal(header, "zzz <? - h");
	ks_sample_init(&s, KS_WHEN_UNKNOWN, "h");
	add(&s, 5, 'S', KS_START_UNKNOWN, "a", "a", "");
	out = render(ks_format_json, &s);
	assert_non_null(strstr(out, "\"time\":null,\"host\":\"h\""));
	assert_non_null(strstr(out, "\"start_time\":null"));
	free(out);
	out = render(ks_format_text, &s);
	assert_non_null(strstr(out, "zzz <? - h\n"));
	assert_non_null(strstr(out, "Start Time: ?"));
	free(out);
	ks_sample_release(&s);
}

/*
 * Context switch counts follow the note, then the time since last ran
 * (0 is a time: the key is there), each only where it is known.
 */
static void test_json_switches(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	ks_sample_init(&s, 100, "h");
	add(&s, 5, 'S', 7, "a", "a", "");
	add(&s, 6, 'S', 7, "b", "b", "");
	s.tasks[1].has_switches = true;
	s.tasks[1].nvcsw = 12;
	s.tasks[1].nivcsw = 3;
	s.tasks[1].has_last_ran = true;
	s.tasks[1].last_ran_ns = 0;
	out = render(ks_format_json, &s);
	assert_string_equal(out,
		"{\"schema\":1,\"version\":\"" KS_VERSION "\",\"time\":100,"
		"\"host\":\"h\",\"kernel\":null,\"tasks\":2,\"groups\":["
		"{\"stack\":[],\"signature\":\"0945d407b5d5\","
		"\"tasks\":[{\"pid\":5,\"tgid\":5,"
		"\"state\":\"S\",\"start_time\":7,\"comm\":\"a\",\"cmd\":\"a\","
		"\"on_cpu\":false,\"signature\":\"0945d407b5d5\"},"
		"{\"pid\":6,\"tgid\":6,\"state\":\"S\",\"start_time\":7,"
		"\"comm\":\"b\",\"cmd\":\"b\",\"on_cpu\":false,\"nvcsw\":12,"
		"\"nivcsw\":3,\"last_ran_ns\":0,\"signature\":\"0945d407b5d5\"}]}]}\n");
	free(out);
	ks_sample_release(&s);
}

/*
 * What a crash user follows up with: the task_struct where the source
 * knows it, the CPU, whether it was on it, and the note, in -v's text and
 * in --json; the default text keeps oled's line and the groups.
 */
static void follow_up_sample(struct ks_sample *s)
{
	ks_sample_init(s, 100, "h");
	add(s, 5, 'R', 7, "a", "a", "");
	add(s, 6, 'S', 7, "b", "b", "");
	s->tasks[0].task_addr = 0xffff888003a8c000ull;
	s->tasks[0].has_cpu = true;
	s->tasks[0].cpu = 3;
	s->tasks[0].running = true;
	s->tasks[0].note = strdup("on a CPU");
	s->tasks[1].has_cpu = true;
	s->tasks[1].cpu = 0;
}

static void test_follow_up_fields(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	follow_up_sample(&s);
	assert_non_null(s.tasks[0].note);
	out = render_opts(ks_format_text, &s, true);
	assert_string_equal(out,
		"zzz <Thu Jan 01 00:01:40 UTC 1970 - h\n\n"
		"PID:     5   State:  R   Start Time: 1970/01/01 00:00:07   "
		"Task: ffff888003a8c000   CPU: 3 (on CPU)   Cmd: a\n"
		"Note: on a CPU\n"
		"PID:     6   State:  S   Start Time: 1970/01/01 00:00:07   "
		"CPU: 0   Cmd: b\n"
		"Stack:\n\n\n");
	free(out);
	out = render(ks_format_text, &s);
	assert_string_equal(out,
		"zzz <Thu Jan 01 00:01:40 UTC 1970 - h\n\n"
		"PID:     5   State:  R   Start Time: 1970/01/01 00:00:07   Cmd: a\n"
		"PID:     6   State:  S   Start Time: 1970/01/01 00:00:07   Cmd: b\n"
		"Stack:\n\n\n");
	free(out);
	out = render(ks_format_json, &s);
	assert_non_null(strstr(out, "\"cmd\":\"a\",\"task_struct\":\"ffff888003a8c000\","
				    "\"cpu\":3,\"on_cpu\":true,\"note\":\"on a CPU\",\"signature\":"));
	assert_non_null(strstr(out, "\"cmd\":\"b\",\"cpu\":0,\"on_cpu\":false,\"signature\":"));
	free(out);
	ks_sample_release(&s);
}

/* The state letter is a string like any other: quotes, controls, bad UTF-8. */
static void test_json_state(void **state)
{
	static const struct {
		char state;
		const char *json;
	} cases[] = {
		{ '"', "\"state\":\"\\\"\"," },
		{ '\\', "\"state\":\"\\\\\"," },
		{ '\n', "\"state\":\"\\u000a\"," },
		{ '\001', "\"state\":\"\\u0001\"," },
		{ '\xff', "\"state\":\"\\ufffd\"," },
		{ '\xc3', "\"state\":\"\\ufffd\"," },	/* a lead byte alone */
		{ 'D', "\"state\":\"D\"," },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct ks_sample s;
		char *out;

		ks_sample_init(&s, 100, "h");
		add(&s, 5, cases[i].state, 7, "c", "c", "");
		out = render(ks_format_json, &s);
		if (!strstr(out, cases[i].json))
			fail_msg("state 0x%02x: %s lacks %s",
				 (unsigned char)cases[i].state, out, cases[i].json);
		free(out);
		ks_sample_release(&s);
	}
}

/* The header names the kernel when the sample knows it, and this build. */
static void test_json_kernel(void **state)
{
	struct ks_sample s;
	char *out;

	(void)state;
	ks_sample_init(&s, 100, "h");
	snprintf(s.kernel, sizeof(s.kernel), "6.1.0-27-\"amd64");
	out = render(ks_format_json, &s);
	assert_string_equal(out,
		"{\"schema\":1,\"version\":\"" KS_VERSION "\",\"time\":100,"
		"\"host\":\"h\",\"kernel\":\"6.1.0-27-\\\"amd64\",\"tasks\":0,"
		"\"groups\":[]}\n");
	free(out);
	ks_sample_release(&s);
}

static void test_cmd_from_cmdline(void **state)
{
	char *c;

	(void)state;
	c = ks_cmd_from_cmdline("sleep\0" "100\0", 10, "sleep");
	assert_string_equal(c, "sleep 100");
	free(c);
	c = ks_cmd_from_cmdline("", 0, "kthreadd");
	assert_string_equal(c, "kthreadd");
	free(c);
	c = ks_cmd_from_cmdline("\0\0", 2, "z");
	assert_string_equal(c, "z");
	free(c);
	c = ks_cmd_from_cmdline("a\xff\0b", 4, "z");
	assert_string_equal(c, "a\xff b");
	free(c);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_group_order),
		cmocka_unit_test(test_group_many),
		cmocka_unit_test(test_text_exact),
		cmocka_unit_test(test_summary),
		cmocka_unit_test(test_summary_one),
		cmocka_unit_test(test_summary_all),
		cmocka_unit_test(test_folded),
		cmocka_unit_test(test_json),
		cmocka_unit_test(test_when_unknown),
		cmocka_unit_test(test_follow_up_fields),
		cmocka_unit_test(test_json_switches),
		cmocka_unit_test(test_json_state),
		cmocka_unit_test(test_json_kernel),
		cmocka_unit_test(test_cmd_from_cmdline),
	};

	return cmocka_run_group_tests(tests, setup, NULL);
}
