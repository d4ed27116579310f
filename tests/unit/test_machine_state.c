// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The triage's machine on a fake kernel image: init_uts_ns's names,
 * the CPUs of masks longer than a word, CLOCK_BOOTTIME from the
 * timekeeper (xtime, its fraction in tkr_mono, offs_real, offs_boot),
 * avenrun[] as /proc/loadavg prints it, saved_command_line, and what
 * is said and kept when each of them is missing.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "machine_state.h"
#include "said.h"

#define UTS_NS		0xffffffff82000000ull
#define NR_CPU_IDS	0xffffffff82001000ull
#define PRESENT		0xffffffff82001100ull
#define ONLINE		0xffffffff82001200ull
#define TK		0xffffffff82002000ull
#define AVENRUN		0xffffffff82003000ull
#define SAVED_CMD	0xffffffff82004000ull
#define CMDLINE		0xffff888001000000ull

#define O_NAME		4	/* uts_namespace.name, after a kref */
#define NS		1000000000ull

static void put(struct ks_fake *f, uint64_t addr, const void *v, size_t len)
{
	assert_int_equal(ks_fake_write(f, addr, v, len), 0);
}

static void put64(struct ks_fake *f, uint64_t addr, uint64_t v)
{
	assert_int_equal(ks_fake_write_u64(f, addr, v), 0);
}

static void add_uts(struct ks_fake *f, bool machine)
{
	ks_fake_add_member(f, "uts_namespace", "name", O_NAME, 390);
	ks_fake_add_member(f, "new_utsname", "nodename", 65, 65);
	ks_fake_add_member(f, "new_utsname", "release", 130, 65);
	if (machine)
		ks_fake_add_member(f, "new_utsname", "machine", 260, 65);
	ks_fake_add_symbol(f, "init_uts_ns", UTS_NS, 512, NULL);
	ks_fake_add_memory(f, UTS_NS, NULL, 512);
	put(f, UTS_NS + O_NAME + 65, "kstack-vm", 10);
	put(f, UTS_NS + O_NAME + 130, "6.1.0-56-cloud-amd64", 21);
	put(f, UTS_NS + O_NAME + 260, "x86_64", 7);
}

/* 70 CPU ids: two words of each mask, the bits past 70 set to be ignored */
static void add_cpus(struct ks_fake *f, bool present)
{
	uint32_t nr = 70;

	ks_fake_add_symbol(f, "nr_cpu_ids", NR_CPU_IDS, 4, NULL);
	ks_fake_add_memory(f, NR_CPU_IDS, &nr, 4);
	ks_fake_add_symbol(f, "__cpu_online_mask", ONLINE, 128, NULL);
	ks_fake_add_memory(f, ONLINE, NULL, 16);
	put64(f, ONLINE, 0x3);
	put64(f, ONLINE + 8, 0x1 | 0x80);	/* CPU 64, and 71: past nr */
	if (!present)
		return;
	ks_fake_add_symbol(f, "__cpu_present_mask", PRESENT, 128, NULL);
	ks_fake_add_memory(f, PRESENT, NULL, 16);
	put64(f, PRESENT, ~0ull);
	put64(f, PRESENT + 8, ~0ull);
}

/* booted 5 s before the realtime epoch's 1000 s, 2 s suspended, +0.5 s */
static void add_timekeeper(struct ks_fake *f)
{
	ks_fake_add_member(f, "timekeeper", "tkr_mono", 0, 56);
	ks_fake_add_member(f, "tk_read_base", "xtime_nsec", 32, 8);
	ks_fake_add_member(f, "tk_read_base", "shift", 24, 4);
	ks_fake_add_member(f, "timekeeper", "xtime_sec", 56, 8);
	ks_fake_add_member(f, "timekeeper", "offs_real", 80, 8);
	ks_fake_add_member(f, "timekeeper", "offs_boot", 96, 8);
	ks_fake_add_memory(f, TK, NULL, 256);
	put64(f, TK + 32, (NS / 2) << 8);
	put(f, TK + 24, &(uint32_t){ 8 }, 4);
	put64(f, TK + 56, 1000);
	put64(f, TK + 80, 995 * NS);
	put64(f, TK + 96, 2 * NS);
}

static void add_rest(struct ks_fake *f, const char *cmdline)
{
	/* 1.50, 0.00 and 3.00 in FSHIFT 11 */
	uint64_t load[3] = { 3 << 10, 0, 3 << 11 };

	ks_fake_add_symbol(f, "avenrun", AVENRUN, 24, NULL);
	ks_fake_add_memory(f, AVENRUN, load, sizeof(load));
	ks_fake_add_symbol(f, "saved_command_line", SAVED_CMD, 8, NULL);
	ks_fake_add_memory(f, SAVED_CMD, NULL, 8);
	put64(f, SAVED_CMD, CMDLINE);
	ks_fake_add_memory(f, CMDLINE, NULL, 8192);
	put(f, CMDLINE, cmdline, strlen(cmdline));
}

static void test_all(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct said said = { 0 };
	struct ks_machine m;
	struct ks_target t;
	char load[16];

	(void)state;
	add_uts(f, true);
	add_cpus(f, true);
	add_timekeeper(f);
	add_rest(f, "console=ttyS0 quiet");
	ks_fake_target(f, &t);
	assert_int_equal(ks_machine_read(&t, TK, &m, &SAID_TO(&said)), 0);
	assert_int_equal(said.calls, 0);
	assert_string_equal(m.nodename, "kstack-vm");
	assert_string_equal(m.release, "6.1.0-56-cloud-amd64");
	assert_string_equal(m.machine, "x86_64");
	assert_int_equal(m.nr_cpu_ids, 70);
	assert_int_equal(m.present, 70);
	assert_int_equal(m.online, 3);
	assert_int_equal(m.uptime_err, 0);
	assert_true(m.uptime_ns == 7 * NS + NS / 2);
	ks_machine_load(m.avenrun[0], load, sizeof(load));
	assert_string_equal(load, "1.50");
	ks_machine_load(m.avenrun[1], load, sizeof(load));
	assert_string_equal(load, "0.00");
	ks_machine_load(m.avenrun[2], load, sizeof(load));
	assert_string_equal(load, "3.00");
	assert_string_equal(m.cmdline, "console=ttyS0 quiet");
	ks_machine_release(&m);
	ks_fake_destroy(f);
}

/*
 * An older layout: no machine member, no present mask (every CPU it
 * knows is online), no tkr_mono (whole seconds), a command line that
 * ends past what any kernel keeps (kept as far as it goes).
 */
static void test_older(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct said said = { 0 };
	char *line = malloc(5000);
	struct ks_machine m;
	struct ks_target t;

	(void)state;
	memset(line, 'x', 4999);
	line[4999] = '\0';
	add_uts(f, false);
	add_cpus(f, false);
	ks_fake_add_member(f, "timekeeper", "xtime_sec", 56, 8);
	ks_fake_add_member(f, "timekeeper", "offs_real", 80, 8);
	ks_fake_add_member(f, "timekeeper", "offs_boot", 96, 8);
	ks_fake_add_memory(f, TK, NULL, 256);
	put64(f, TK + 56, 1000);
	put64(f, TK + 80, 990 * NS);
	add_rest(f, line);
	ks_fake_target(f, &t);
	assert_int_equal(ks_machine_read(&t, TK, &m, &SAID_TO(&said)), 0);
	assert_int_equal(said.calls, 0);
	assert_string_equal(m.machine, "");
	assert_int_equal(m.present, 3);
	assert_int_equal(m.online, 3);
	assert_true(m.uptime_ns == 10 * NS);
	assert_int_equal(strlen(m.cmdline), 4095);
	ks_machine_release(&m);
	free(line);
	ks_fake_destroy(f);
}

/* Nothing there: each part says why and keeps its error; no crash. */
static void test_missing(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct said said = { 0 };
	struct ks_machine m;
	struct ks_target t;

	(void)state;
	ks_fake_target(f, &t);
	assert_int_equal(ks_machine_read(&t, 0, &m, &SAID_TO(&said)), 0);
	assert_int_equal(m.uts_err, -ENOENT);
	assert_int_equal(m.cpus_err, -ENOENT);
	assert_int_equal(m.uptime_err, -ENOENT);
	assert_int_equal(m.load_err, -ENOENT);
	assert_int_equal(m.cmdline_err, -ENOENT);
	assert_null(m.cmdline);
	assert_int_equal(said.calls, 5);
	assert_non_null(strstr(said.text, "no symbol avenrun"));
	assert_non_null(strstr(said.text, "the timekeeper was not found"));
	ks_machine_release(&m);
	ks_fake_destroy(f);
}

/* The symbols, but their memory not in the image (a dump cut short). */
static void test_unreadable(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct said said = { 0 };
	struct ks_machine m;
	struct ks_target t;

	(void)state;
	add_uts(f, true);
	ks_fake_add_symbol(f, "avenrun", AVENRUN, 24, NULL);
	ks_fake_add_symbol(f, "nr_cpu_ids", NR_CPU_IDS, 4, NULL);
	ks_fake_add_symbol(f, "__cpu_online_mask", ONLINE, 128, NULL);
	ks_fake_add_member(f, "timekeeper", "xtime_sec", 56, 8);
	ks_fake_add_member(f, "timekeeper", "offs_real", 80, 8);
	ks_fake_add_member(f, "timekeeper", "offs_boot", 96, 8);
	ks_fake_target(f, &t);
	assert_int_equal(ks_machine_read(&t, TK, &m, &SAID_TO(&said)), 0);
	assert_int_equal(m.uts_err, 0);
	assert_int_equal(m.cpus_err, -EFAULT);
	assert_int_equal(m.uptime_err, -EFAULT);
	assert_int_equal(m.load_err, -EFAULT);
	assert_non_null(strstr(said.text, "avenrun at 0xffffffff82003000 is not in the image"));
	ks_machine_release(&m);
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_all),
		cmocka_unit_test(test_older),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_unreadable),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
