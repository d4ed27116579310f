// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hooks walkers on a real vmcore (read with libkdumpfile, the same
 * struct ks_target the crash extension fills): -K and -F must print the
 * lines the guest's own kstack -K / -F printed just before the dump.
 * Prints SKIP and passes when ${KSTACK_VMCORE_DIR:-cache/vmcores/basic}
 * or its live capture is absent.
 */
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "hooks.h"
#include "live_sample.h"
#include "options.h"
#include "said.h"
#include "target_kdump.h"

static struct ks_kdump *kd;
static struct ks_target target;
static char dir[4096];
static bool opened;
static bool open_failed;	/* the dump is there and does not open */

static char *slurp(const char *path)
{
	FILE *f = fopen(path, "r");
	char *buf = NULL;
	size_t len = 0;
	FILE *m;
	int c;

	if (!f)
		return NULL;
	m = open_memstream(&buf, &len);
	while ((c = fgetc(f)) != EOF)
		fputc(c, m);
	fclose(m);
	fclose(f);
	return buf;
}

/* The text up to the first "== " heading line after the summary's. */
static void cut_after_summary(char *text)
{
	char *s = strstr(text, "== summary\n");

	if (!s)
		return;
	s = strchr(s + 11, '\n');
	if (s)
		s[1] = '\0';
}

static char *report(bool kprobes, bool ftrace, bool verbose)
{
	const struct ks_hooks_opts h = { .kprobes = kprobes, .ftrace = ftrace };
	const struct ks_format_opts o = { .verbose = verbose };
	char *text = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&text, &len);

	assert_non_null(f);
	assert_int_equal(ks_hooks_report(&target, &h, &o, f, &SAID_ON(stderr)),
			 0);
	fclose(f);
	return text;
}

static void compare(const char *capture, bool kprobes)
{
	char path[4200], *want, *got;

	snprintf(path, sizeof(path), "%s/live/%s", dir, capture);
	want = slurp(path);
	if (!want) {
		printf("SKIP: no %s\n", path);
		return;
	}
	got = report(kprobes, !kprobes, false);
	cut_after_summary(want);
	cut_after_summary(got);
	if (strcmp(want, got))
		fprintf(stderr, "--- guest %s\n%s--- vmcore\n%s", capture, want, got);
	assert_string_equal(want, got);
	free(want);
	free(got);
}

static void test_kprobes_as_live(void **state)
{
	(void)state;
	if (open_failed)
		fail_msg("the vmcore is there but does not open");
	if (!kd)
		skip();
	compare("kstack-K.txt", true);
}

static void test_ftrace_as_live(void **state)
{
	(void)state;
	if (open_failed)
		fail_msg("the vmcore is there but does not open");
	if (!kd)
		skip();
	compare("kstack-F.txt", false);
}

/* The guest's enabled_functions names kshook (its ops' trampoline). */
static bool kshook_tramp(void)
{
	char path[4200], *m;
	bool has;

	snprintf(path, sizeof(path), "%s/live/enabled_functions.txt", dir);
	m = slurp(path);
	has = m && strstr(m, "[kshook]");
	free(m);
	return has;
}

/*
 * The R flag (FTRACE_FL_REGS) on the guest's enabled_functions line of
 * kshook's function (do_rmdir, 7.x's filename_rmdir): its ops has
 * SAVE_REGS, which kshook asks only with DYNAMIC_FTRACE_WITH_REGS.
 */
static bool kshook_regs(void)
{
	static const char *const fns[] = { "do_rmdir (", "filename_rmdir (" };
	char path[4200], *m, *line;
	bool regs = false;
	size_t i;

	snprintf(path, sizeof(path), "%s/live/enabled_functions.txt", dir);
	m = slurp(path);
	for (line = m; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		for (i = 0; i < sizeof(fns) / sizeof(fns[0]); i++)
			if (!strncmp(line, fns[i], strlen(fns[i])))
				regs = regs || !strncmp(strchr(line, ')'), ") R", 3);
	free(m);
	return regs;
}

/*
 * Did the guest have kprobes?  Its kprobes/list, as the guest read it,
 * is not empty (the locks scenario registers none).
 */
static bool has_kprobes(void)
{
	char path[4200], *m;
	bool has;

	snprintf(path, sizeof(path), "%s/live/kprobes-list.txt", dir);
	m = slurp(path);
	has = m && *m;
	free(m);
	return has;
}

/* The manifest has a line that starts with PREFIX. */
static bool manifest_has(const char *prefix)
{
	char path[4200], *m, *line;
	bool has = false;

	snprintf(path, sizeof(path), "%s/manifest", dir);
	m = slurp(path);
	for (line = m; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL)
		if (!strncmp(line, prefix, strlen(prefix))) {
			has = true;
			break;
		}
	free(m);
	return has;
}

/* The manifest's scenario is NAME: what the dump must then contain. */
static bool scenario_is(const char *name)
{
	char path[4200], *m, *line;
	bool is;

	snprintf(path, sizeof(path), "%s/manifest", dir);
	m = slurp(path);
	if (!m)
		return false;
	line = strstr(m, "\nscenario: ");
	is = line && !strncmp(line + 11, name, strlen(name)) &&
	     line[11 + strlen(name)] == '\n';
	free(m);
	return is;
}

/*
 * The flags -F -v prints for kshook's ops, as the guest's kernel set them:
 * SAVE_REGS where its enabled_functions says R, RECURSION from 5.11 on
 * (the flag came then), ALLOC_TRAMP where the kernel gave the ops a
 * trampoline of its own (x86: enabled_functions names it, [kshook]).
 */
static void kshook_flags(char *buf, size_t len)
{
	snprintf(buf, len, "%s%sINITIALIZED|%sIPMODIFY\n",
		 kshook_regs() ? "SAVE_REGS|" : "",
		 manifest_has("release: 5.") ? "" : "RECURSION|",
		 kshook_tramp() ? "ALLOC_TRAMP|" : "");
}

/* -v: every probe has its handlers, and the code at each is in place. */
static void test_verbose(void **state)
{
	char *k, *f, flags[128];

	(void)state;
	if (open_failed)
		fail_msg("the vmcore is there but does not open");
	if (!kd)
		skip();
	k = report(true, false, true);
	f = report(false, true, true);
	printf("%s%s", k, f);
	if (has_kprobes())
		assert_non_null(strstr(k, "pre_handler: "));
	else
		assert_non_null(strstr(k, "\n0 kprobes: "));
	assert_null(strstr(k, "NOT IN PLACE"));
	assert_non_null(strstr(f, "== ftrace_ops\n"));
	/*
	 * the test module's hooks, when the scenario loaded it: the hooks
	 * scenario fails without it; arm64 gives its ops no trampoline, so
	 * only x86's enabled_functions names the module
	 */
	if (kshook_tramp() || scenario_is("hooks")) {
		assert_non_null(strstr(k, "pre_handler: kshook_pre+0x0/"));
		assert_non_null(strstr(k, "post_handler: kshook_post+0x0/"));
		assert_non_null(strstr(k, "kretprobe handler: kshook_ret+0x0/"));
		/* the owners line: kshook with its three handlers, any order */
		{
			const char *o = strstr(k, "handler owners: ");
			const char *ks = o ? strstr(o, "kshook (") : NULL;

			assert_non_null(ks);
			assert_true(strcspn(ks, ")") > strlen("kshook (kshook_pre, kshook_post, kshook_ret") - 1);
			assert_non_null(strstr(o, "kshook_pre"));
			assert_non_null(strstr(o, "kshook_post"));
			assert_non_null(strstr(o, "kshook_ret"));
		}
		assert_non_null(strstr(f, "    func: kshook_ftrace_func+0x0/"));
		if (kshook_tramp())
			assert_non_null(strstr(f, "(kshook_ftrace_func+0x0/"));
		kshook_flags(flags, sizeof(flags));
		if (!strstr(f, flags))
			fail_msg("kshook's ops without the flags %s", flags);
		/* its direct trampoline, when the kernel took it */
		if (strstr(f, "\tdirect-->kshook_direct_tramp"))
			assert_non_null(strstr(f, "kshook_direct_tramp)"));
	} else {
		printf("N/A: this scenario does not load the kshook module\n");
	}
	free(k);
	free(f);
}

static int setup(void **state)
{
	const char *d = getenv("KSTACK_VMCORE_DIR");
	struct ks_kdump_args args = { .rep = &ks_live_reporter };
	char core[4200], vmlinux[4200];
	FILE *f;

	(void)state;
	snprintf(dir, sizeof(dir), "%s", d ? d : "cache/vmcores/basic");
	snprintf(core, sizeof(core), "%s/vmcore", dir);
	snprintf(vmlinux, sizeof(vmlinux), "%s/vmlinux", dir);
	f = fopen(core, "r");
	if (!f) {
		printf("SKIP: no vmcore\n");
		return 0;
	}
	fclose(f);
	args.vmcore = core;
	args.vmlinux = vmlinux;
	if (ks_kdump_open(&args, &kd, &target)) {
		printf("FAIL: %s is there but does not open with libkdumpfile\n",
		       core);
		kd = NULL;
		open_failed = true;
	}
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	if (kd) {
		opened = true;
		ks_kdump_close(kd);
	}
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kprobes_as_live),
		cmocka_unit_test(test_ftrace_as_live),
		cmocka_unit_test(test_verbose),
	};
	int failed = cmocka_run_group_tests(tests, setup, teardown);
	int total = (int)(sizeof(tests) / sizeof(tests[0]));

	/* skipped for want of a vmcore: nothing passed */
	if (!opened)
		total = failed;
	printf("%d passed, %d failed\n", total - failed, failed);
	return failed ? 1 : 0;
}
