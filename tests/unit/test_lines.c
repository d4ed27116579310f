// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/lines on what every caller hands it (the live tool, --vmcore and
 * crash): the debug directory from the config, never the environment; the
 * one note on missing debug info through the caller's report callback,
 * never a stream; the running kernel's build ids through the caller's
 * callback, never /sys.  The "vmlinux" with DWARF is this test program.
 */
#include <errno.h>
#include <limits.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "decode_text.h"
#include "elf_symtab.h"
#include "lines.h"
#include "said.h"
#include "text_release.h"

static void make_sample(struct ks_sample *s, const char *stack)
{
	struct ks_task t = { .pid = 10, .tgid = 10, .state = 'S' };

	ks_sample_init(s, 1696092438, "host");
	snprintf(t.comm, sizeof(t.comm), "sleep");
	t.cmd = strdup("sleep 1");
	t.stack = strdup(stack);
	assert_int_equal(ks_sample_add(s, &t), 0);
}

static void test_note_through_report(void **state)
{
	static const char stack[] = "[<0>] do_nanosleep+0x1/0x2\n"
				    "[<0>] kshook_fn+0x3/0x40 [kshook]\n";
	struct ks_lines_config cfg = {
		.vmlinux = "/nonexistent/vmlinux",
		.release = "9.9.9-kstack-test",
		.debug_dir = "/nonexistent-debug",
	};
	struct said d = { "", 0 };
	struct ks_sample s;

	(void)state;
	make_sample(&s, stack);
	assert_int_equal(ks_lines_sample(&s, &cfg, &SAID_TO(&d)), 0);
	/* frames without lines stay as they were */
	assert_string_equal(s.tasks[0].stack, stack);
	assert_int_equal(d.calls, 1);
	assert_string_equal(d.text,
		"frames without file:line, no debug info for vmlinux (not found: "
		"/nonexistent/vmlinux), kshook (not found: /nonexistent-debug/lib/"
		"modules/9.9.9-kstack-test/**/kshook.ko); install "
		"linux-image-9.9.9-kstack-test-dbg, or set KSTACK_DEBUG_DIR to a "
		"directory laid out as /usr/lib/debug\n");
	ks_sample_release(&s);
}

/* The frame the decoder is asked about: a function of this file. */
__attribute__((noinline)) int lines_probe(int x)
{
	return x * 3 + 1;
}

struct build_id {
	int ret;		/* what the callback answers */
	int calls;
	const char *module;
};

static int fake_build_id(void *arg, const char *module, uint8_t *id,
			 size_t cap, size_t *len)
{
	struct build_id *b = arg;

	b->calls++;
	b->module = module;
	if (b->ret)
		return b->ret;
	/* an id no linker made: another build than this file */
	memset(id, 0xab, cap < 20 ? cap : 20);
	*len = cap < 20 ? cap : 20;
	return 0;
}

static char *decode_self(struct build_id *b, struct said *d)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);
	struct ks_lines_config cfg = {
		.vmlinux = self,
		.release = "9.9.9-kstack-test",
		.debug_dir = "/nonexistent-debug",
		.build_id = fake_build_id,
		.build_id_arg = b,
	};
	struct ks_lines *l;
	char *out;

	assert_true(n > 0);
	self[n] = '\0';
	l = ks_lines_open(&cfg);
	assert_non_null(l);
	out = ks_decode_text(l, "[<0>] lines_probe+0x0\n");
	assert_non_null(out);
	ks_lines_report(l, &SAID_TO(d));
	ks_lines_close(l);
	return out;
}

static void test_build_id_callback(void **state)
{
	struct build_id b = { .ret = -ENOENT };
	struct said d = { "", 0 };
	char *out;

	(void)state;
	assert_int_equal(lines_probe(1), 4);
	/* no id to check against: the file is believed */
	out = decode_self(&b, &d);
	assert_int_equal(b.calls, 1);
	assert_null(b.module);
	assert_non_null(strstr(out, "[<0>] lines_probe+0x0 "));
	assert_non_null(strstr(out, "test_lines.c:"));
	assert_int_equal(d.calls, 0);
	free(out);

	/* another build's id: no lines, and the note says why */
	b = (struct build_id){ .ret = 0 };
	out = decode_self(&b, &d);
	assert_int_equal(b.calls, 1);
	assert_string_equal(out, "[<0>] lines_probe+0x0\n");
	assert_int_equal(d.calls, 1);
	assert_non_null(strstr(d.text, "vmlinux (another build than the kernel's"));
	free(out);
}

static void self_path(char *self, size_t len)
{
	ssize_t n = readlink("/proc/self/exe", self, len - 1);

	assert_true(n > 0);
	self[n] = '\0';
}

/* kallsyms' size of lines_probe in this file, as a frame would carry it */
static uint64_t probe_size(const char *self)
{
	struct ks_elf_symtab *tab;
	struct ks_sym sym;
	uint64_t addr;

	assert_int_equal(ks_elf_symtab_open(self, &tab), 0);
	assert_int_equal(ks_elf_symtab_find(tab, "lines_probe", 0, &addr), 0);
	assert_int_equal(ks_elf_symtab_lookup(tab, addr, &sym), 0);
	ks_elf_symtab_free(tab);
	return sym.size;
}

/*
 * -l of --vmcore and crash (no build id to ask): a frame whose size is
 * not the vmlinux's proves another build, so the frame before it, whose
 * size matched, is not decoded either; the note says so once.
 */
static void test_sizes_of_another_build(void **state)
{
	char self[PATH_MAX], stack[256], want[PATH_MAX + 512];
	struct ks_lines_config cfg = { .debug_dir = "/nonexistent-debug" };
	struct said d = { "", 0 };
	struct ks_sample s;
	uint64_t size;

	(void)state;
	self_path(self, sizeof(self));
	cfg.vmlinux = self;
	size = probe_size(self);
	snprintf(stack, sizeof(stack), "[<0>] lines_probe+0x1/0x%llx\n",
		 (unsigned long long)size);
	make_sample(&s, stack);
	assert_int_equal(ks_lines_sample(&s, &cfg, &SAID_TO(&d)), 0);
	assert_non_null(strstr(s.tasks[0].stack, "test_lines.c:"));
	assert_int_equal(d.calls, 0);
	ks_sample_release(&s);

	snprintf(stack, sizeof(stack), "[<0>] lines_probe+0x1/0x%llx\n"
		 "[<0>] lines_probe+0x1/0x%llx\n", (unsigned long long)size,
		 (unsigned long long)size + 1);
	make_sample(&s, stack);
	assert_int_equal(ks_lines_sample(&s, &cfg, &SAID_TO(&d)), 0);
	assert_string_equal(s.tasks[0].stack, stack);
	assert_int_equal(d.calls, 1);
	snprintf(want, sizeof(want), "1 of 2 frames do not match this vmlinux: "
		 "sizes differ, e.g. lines_probe+0x1/0x%llx is 0x%llx in it; %s "
		 "is of Linux (release unknown): no frame decoded with it\n",
		 (unsigned long long)size + 1, (unsigned long long)size, self);
	assert_string_equal(d.text, want);
	ks_sample_release(&s);
}

/* The release an oops, a hung task's report or a banner names (--decode). */
static void test_text_release(void **state)
{
	static const struct {
		const char *line, *want;
	} cases[] = {
		{ "CPU: 0 PID: 1 Comm: sh Not tainted 6.1.0-56-cloud-amd64 #1 "
		  "Debian 6.1.192-2", "6.1.0-56-cloud-amd64" },
		{ "[  245.318911]       Not tainted 6.1.0-56-cloud-amd64 #1",
		  "6.1.0-56-cloud-amd64" },
		{ "CPU: 1 UID: 0 PID: 7 Comm: kworker/1:0 Tainted: G      D    "
		  "O       6.12.9+deb13-amd64 #1 Debian 6.12.9-1",
		  "6.12.9+deb13-amd64" },
		{ "[    0.000000] Linux version 5.10.0-30-amd64 "
		  "(debian-kernel@lists.debian.org) (gcc-10)", "5.10.0-30-amd64" },
		{ "Not tainted #1", NULL },		/* no release word */
		{ "Tainted: G W #1", NULL },		/* flags, not a release */
		{ "Not tainted 6.1$(x) #1", NULL },	/* not a release's characters */
		{ "Linux version 6.1.0", NULL },	/* no " (" after it */
		{ "[<0>] do_nanosleep+0x1/0x2", NULL },
	};
	char rel[64];
	size_t i;
	bool found;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		found = ks_text_release(cases[i].line, strlen(cases[i].line),
					rel, sizeof(rel));
		assert_int_equal(found, cases[i].want != NULL);
		if (cases[i].want)
			assert_string_equal(rel, cases[i].want);
	}
	/* a release longer than the room is no release */
	assert_false(ks_text_release("Not tainted 6.1.0-56-cloud-amd64 #1",
				     35, rel, 8));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_note_through_report),
		cmocka_unit_test(test_build_id_callback),
		cmocka_unit_test(test_sizes_of_another_build),
		cmocka_unit_test(test_text_release),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
