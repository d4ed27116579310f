// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kprobe and ftrace line formats: every fixture line (real lines from
 * a Debian 6.1 guest, and hand-made ones for the cases a guest rarely
 * shows) must parse and print back byte for byte, and the records must
 * hold what the line says.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ftrace_list.h"
#include "hooks.h"

static const char *fixture(const char *name)
{
	static char path[4096];
	const char *dir = getenv("KSTACK_HOOKS_FIXTURES");

	snprintf(path, sizeof(path), "%s/%s",
		 dir ? dir : "tests/fixtures/hooks", name);
	return path;
}

/* Lines of a fixture file without newlines; NULL-terminated. */
static char **read_fixture(const char *name, size_t *n_ret)
{
	FILE *f = fopen(fixture(name), "r");
	char **v = calloc(256, sizeof(*v)), *line = NULL;
	size_t cap = 0, n = 0;
	ssize_t len;

	assert_non_null(f);
	assert_non_null(v);
	while ((len = getline(&line, &cap, f)) >= 0 && n < 255) {
		if (len && line[len - 1] == '\n')
			line[len - 1] = '\0';
		v[n++] = strdup(line);
	}
	free(line);
	fclose(f);
	*n_ret = n;
	return v;
}

static void free_lines(char **v, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		free(v[i]);
	free(v);
}

static void kprobe_roundtrip(const char *name)
{
	char buf[KS_HOOK_TEXT_LEN + 128];
	struct ks_kprobe p;
	size_t n, i;
	char **v = read_fixture(name, &n);

	assert_true(n > 0);
	for (i = 0; i < n; i++) {
		if (ks_kprobe_parse(v[i], &p))
			fail_msg("%s:%zu does not parse: '%s'", name, i + 1, v[i]);
		ks_kprobe_format(&p, buf, sizeof(buf));
		assert_string_equal(buf, v[i]);
	}
	free_lines(v, n);
}

static void test_kprobe_guest_lines(void **state)
{
	(void)state;
	kprobe_roundtrip("kprobes-list-guest.txt");
}

static void test_kprobe_tricky_lines(void **state)
{
	(void)state;
	kprobe_roundtrip("kprobes-list-tricky.txt");
}

static void test_kprobe_fields(void **state)
{
	struct ks_kprobe p;

	(void)state;
	assert_int_equal(ks_kprobe_parse("ffffffffc0a01010  k  kshook_target+0x10  kshook [DISABLED]", &p), 0);
	assert_true(p.addr == 0xffffffffc0a01010ull);
	assert_int_equal(p.type, 'k');
	assert_true(p.has_sym);
	assert_string_equal(p.sym, "kshook_target");
	assert_int_equal(p.offset, 0x10);
	assert_string_equal(p.module, "kshook");
	assert_int_equal(p.flags, KS_KPROBE_FL_DISABLED);
	assert_int_equal(p.aggr_flags, 0);

	assert_int_equal(ks_kprobe_parse("ffffffffc0300000  k  0xffffffffc0300000 [GONE]", &p), 0);
	assert_false(p.has_sym);
	assert_int_equal(p.flags, KS_KPROBE_FL_GONE);

	assert_int_equal(ks_kprobe_parse("ffffffffb2a17040  k  do_nanosleep+0x0    [DISABLED][FTRACE]", &p), 0);
	assert_string_equal(p.module, "");
	assert_int_equal(p.flags, KS_KPROBE_FL_DISABLED);
	assert_int_equal(p.aggr_flags, KS_KPROBE_FL_FTRACE);

	assert_int_equal(ks_kprobe_parse("ffffffffb234cc50  r  vfs_read+0x0    [FTRACE]", &p), 0);
	assert_int_equal(p.type, 'r');
}

static void test_kprobe_rejects(void **state)
{
	static const char *bad[] = {
		"",
		"ffffffffb234cc50 k vfs_read+0x0 [FTRACE]",
		"ffffffffb234cc50  k  vfs_read+0x0   [FTRACE]",	/* 3 spaces */
		"ffffffffb234cc50  k  vfs_read+0x0    [FTRACE][GONE]",	/* order */
		"ffffffffb234cc50  k  vfs_read+0x0    [WHAT]",
		"ffffffffb234cc50  k  0xffffffffb234cc51 ",	/* addr differs */
		"zzzz  k  vfs_read+0x0    ",
	};
	struct ks_kprobe p;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!ks_kprobe_parse(bad[i], &p))
			fail_msg("accepted '%s'", bad[i]);
}

/* A gone probe prints [GONE] only; the aggregator's tags follow the probe's. */
static void test_kprobe_format_flags(void **state)
{
	struct ks_kprobe p = {
		.addr = 0xffffffff81000005ull, .type = 'k', .has_sym = true,
		.sym = "f", .offset = 5,
		.flags = KS_KPROBE_FL_GONE | KS_KPROBE_FL_DISABLED,
		.aggr_flags = KS_KPROBE_FL_OPTIMIZED,
	};
	char buf[256];

	(void)state;
	ks_kprobe_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "ffffffff81000005  k  f+0x5    [GONE][OPTIMIZED]");
	p.flags = KS_KPROBE_FL_DISABLED;
	p.aggr_flags = KS_KPROBE_FL_OPTIMIZED | KS_KPROBE_FL_FTRACE;
	snprintf(p.module, sizeof(p.module), "m");
	ks_kprobe_format(&p, buf, sizeof(buf));
	assert_string_equal(buf, "ffffffff81000005  k  f+0x5  m [DISABLED][OPTIMIZED][FTRACE]");
	/* a short buffer is cut like snprintf and the full length returned */
	assert_int_equal(ks_kprobe_format(&p, buf, 10), (int)strlen(
		"ffffffff81000005  k  f+0x5  m [DISABLED][OPTIMIZED][FTRACE]"));
	assert_int_equal(strlen(buf), 9);
}

static void ftrace_roundtrip(const char *name, size_t *records)
{
	size_t len = sizeof(struct ks_ftrace_rec) + 256, n, i, recs = 0;
	char **v = read_fixture(name, &n), *buf = malloc(len), *want = malloc(len);
	struct ks_ftrace_rec *r = malloc(sizeof(*r));

	assert_non_null(buf);
	assert_non_null(r);
	for (i = 0; i < n; i++) {
		const char *direct = i + 1 < n && !strncmp(v[i + 1], "\tdirect-->", 10) ?
				     v[i + 1] : NULL;

		if (ks_ftrace_parse(v[i], direct, r))
			fail_msg("%s:%zu does not parse: '%s'", name, i + 1, v[i]);
		ks_ftrace_format(r, buf, len);
		snprintf(want, len, "%s%s%s", v[i], direct ? "\n" : "",
			 direct ? direct : "");
		assert_string_equal(buf, want);
		i += direct != NULL;
		recs++;
	}
	*records = recs;
	free(r);
	free(buf);
	free(want);
	free_lines(v, n);
}

static void test_ftrace_guest_lines(void **state)
{
	size_t n;

	(void)state;
	ftrace_roundtrip("enabled_functions-guest.txt", &n);
	/* 4 from the basic scenario, 9 from hooks (one with a direct line) */
	assert_int_equal(n, 13);
}

static void test_ftrace_tricky_lines(void **state)
{
	size_t n;

	(void)state;
	ftrace_roundtrip("enabled_functions-tricky.txt", &n);
	assert_int_equal(n, 8);
}

/* Linux 6.4+ columns (" O", " M "), as t_show() prints them since then. */
static void test_ftrace_6_4_lines(void **state)
{
	struct ks_ftrace_rec *r = malloc(sizeof(*r));
	size_t n;

	(void)state;
	ftrace_roundtrip("enabled_functions-6.4.txt", &n);
	assert_int_equal(n, 6);
	assert_non_null(r);
	assert_int_equal(ks_ftrace_parse("do_rmdir (1) R I     M \ttramp: 0xffffffffc0350000 (f+0x0/0x10 [m]) ->g+0x0/0x100", NULL, r), 0);
	assert_int_equal(r->columns, 5);
	assert_true(r->regs && r->ipmodify && !r->direct && !r->call_ops && r->modified);
	assert_int_equal(ks_ftrace_parse("arm64_func (1)       O   ", NULL, r), 0);
	assert_true(r->call_ops && !r->modified);
	/* a 6.1 line stays a 6.1 line */
	assert_int_equal(ks_ftrace_parse("ksys_read (1)      ", NULL, r), 0);
	assert_int_equal(r->columns, 0);
	free(r);
}

/*
 * CALL_OPS_EN (arm64's call-site ops, 6.3+): "\tops: %pS (%pS)" as the
 * 6.12 arm64 guest printed it, and "\tops: ERROR!", both ways.
 */
static void test_ftrace_call_ops_lines(void **state)
{
	static const char *const lines[] = {
		"vfs_write (1)       O   \tops: global_ops+0x0/0xd8 (function_trace_call+0x0/0x100)",
		"ksys_read (2) R     O   \tops: ERROR!",
	};
	struct ks_ftrace_rec *r = malloc(sizeof(*r));
	char buf[512];

	(void)state;
	assert_non_null(r);
	for (size_t i = 0; i < 2; i++) {
		assert_int_equal(ks_ftrace_parse(lines[i], NULL, r), 0);
		assert_true(r->call_ops && r->call_ops_en);
		ks_ftrace_format(r, buf, sizeof(buf));
		assert_string_equal(buf, lines[i]);
	}
	assert_true(r->call_ops_error);
	assert_int_equal(ks_ftrace_parse(lines[0], NULL, r), 0);
	assert_false(r->call_ops_error);
	assert_string_equal(r->call_ops_text.tramp, "global_ops+0x0/0xd8");
	assert_string_equal(r->call_ops_text.func, "function_trace_call+0x0/0x100");
	assert_int_not_equal(ks_ftrace_parse("f (1)       O   \tops: g (h) x", NULL, r), 0);
	free(r);
}

static void test_ftrace_fields(void **state)
{
	struct ks_ftrace_rec *r = malloc(sizeof(*r));

	(void)state;
	assert_non_null(r);
	assert_int_equal(ks_ftrace_parse("schedule_timeout (2) R I  \ttramp: 0xffffffffc0440000 (kshook_ftrace_func+0x0/0x40 [kshook]) ->kshook_ftrace_func+0x0/0x40 [kshook]", NULL, r), 0);
	assert_string_equal(r->func, "schedule_timeout");
	assert_int_equal(r->refcount, 2);
	assert_true(r->regs && r->ipmodify && !r->direct && r->tramp_en);
	assert_int_equal(r->nr_tramps, 1);
	assert_string_equal(r->tramps[0].tramp, "0xffffffffc0440000");
	assert_string_equal(r->tramps[0].func, "kshook_ftrace_func+0x0/0x40 [kshook]");
	assert_string_equal(r->tramps[0].target, "kshook_ftrace_func+0x0/0x40 [kshook]");

	assert_int_equal(ks_ftrace_parse("kshook_target [kshook] (1)      \ttramp: 0xffffffffc0441000 (function_trace_call+0x0/0x120) ->function_trace_call+0x0/0x120", NULL, r), 0);
	assert_string_equal(r->module, "kshook");
	assert_false(r->regs);

	assert_int_equal(ks_ftrace_parse("wake_up_process (1) R   D ->ftrace_regs_caller_end+0x0/0x10", "\tdirect-->my_direct_tramp+0x0/0x80 [kshook]", r), 0);
	assert_true(r->direct && !r->tramp_en);
	assert_string_equal(r->target, "ftrace_regs_caller_end+0x0/0x10");
	assert_string_equal(r->direct_to, "my_direct_tramp+0x0/0x80 [kshook]");

	assert_int_equal(ks_ftrace_parse("tcp_sendmsg (1) R    \ttramp: ERROR!", NULL, r), 0);
	assert_true(r->tramp_error && r->tramp_en);

	assert_int_equal(ks_ftrace_parse("__ftrace_invalid_address___12", NULL, r), 0);
	assert_true(r->invalid);

	assert_int_not_equal(ks_ftrace_parse("vfs_read (1) X    ", NULL, r), 0);
	assert_int_not_equal(ks_ftrace_parse("vfs_read (x) R    ", NULL, r), 0);
	assert_int_not_equal(ks_ftrace_parse("vfs_read (1) R    \ttramp: 0x1", NULL, r), 0);
	free(r);
}

static char *summary_of(void (*fn)(FILE *, const void *), const void *l)
{
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	fn(f, l);
	fclose(f);
	return text;
}

static void kp_summary(FILE *f, const void *l)
{
	ks_kprobe_summary(f, l);
}

static void ft_summary(FILE *f, const void *l)
{
	ks_ftrace_summary(f, l);
}

static void test_summaries(void **state)
{
	struct ks_kprobe_list kl = { 0 };
	struct ks_ftrace_list fl = { 0 };
	size_t n, i;
	char **v = read_fixture("kprobes-list-tricky.txt", &n), *s;

	(void)state;
	for (i = 0; i < n; i++)
		assert_int_equal(ks_kprobe_parse(v[i], ks_kprobe_list_add(&kl)), 0);
	free_lines(v, n);
	s = summary_of(kp_summary, &kl);
	assert_string_equal(s, "== summary\n11 kprobes: 9 k, 2 r; 3 disabled, "
			    "2 gone, 2 optimized, 4 on ftrace; probed modules: "
			    "kshook, gone_mod\n");
	free(s);
	ks_kprobe_list_free(&kl);

	v = read_fixture("enabled_functions-tricky.txt", &n);
	for (i = 0; i < n; i++) {
		const char *d = i + 1 < n && v[i + 1][0] == '\t' ? v[i + 1] : NULL;

		assert_int_equal(ks_ftrace_parse(v[i], d, ks_ftrace_list_add(&fl)), 0);
		i += d != NULL;
	}
	free_lines(v, n);
	s = summary_of(ft_summary, &fl);
	assert_string_equal(s, "== summary\n8 functions enabled: 5 R, 1 I, 1 D, "
			    "4 with a trampoline; patched modules: kshook; "
			    "handlers: kshook_ftrace_func, function_trace_call, "
			    "kprobe_ftrace_handler, ftrace_ops_list_func, "
			    "ftrace_regs_caller_end, my_direct_tramp; "
			    "handler modules: kshook\n");
	free(s);
	ks_ftrace_list_free(&fl);
}

static void test_pS_module(void **state)
{
	char mod[64];

	(void)state;
	ks_pS_module("f+0x0/0x10 [kshook]", mod, sizeof(mod));
	assert_string_equal(mod, "kshook");
	ks_pS_module("f+0x0/0x10", mod, sizeof(mod));
	assert_string_equal(mod, "");
	ks_pS_module("0xffffffffc0000000", mod, sizeof(mod));
	assert_string_equal(mod, "");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kprobe_guest_lines),
		cmocka_unit_test(test_kprobe_tricky_lines),
		cmocka_unit_test(test_kprobe_fields),
		cmocka_unit_test(test_kprobe_rejects),
		cmocka_unit_test(test_kprobe_format_flags),
		cmocka_unit_test(test_ftrace_guest_lines),
		cmocka_unit_test(test_ftrace_tricky_lines),
		cmocka_unit_test(test_ftrace_6_4_lines),
		cmocka_unit_test(test_ftrace_call_ops_lines),
		cmocka_unit_test(test_ftrace_fields),
		cmocka_unit_test(test_summaries),
		cmocka_unit_test(test_pS_module),
	};
	int failed = cmocka_run_group_tests(tests, NULL, NULL);
	int total = (int)(sizeof(tests) / sizeof(tests[0]));

	printf("%d passed, %d failed\n", total - failed, failed);
	return failed ? 1 : 0;
}
