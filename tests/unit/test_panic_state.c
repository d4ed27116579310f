// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --panic on a fake kernel image: panic_cpu and the task on its
 * runqueue, tainted_mask spelled through the image's own taint_flags[]
 * (5.10's struct taint_flag of three chars, 6.10's with desc), the
 * table's end found from its symbol's size or its first entry without a
 * letter, the modules behind each letter, and what is said when the
 * symbols are missing.
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
#include "format_panic.h"
#include "panic_state.h"
#include "said.h"

#define PANIC_CPU	0xffffffff82100000ull
#define TAINTED		0xffffffff82100010ull
#define FLAGS		0xffffffff82200000ull
#define DESCS		0xffffffff82300000ull
#define RUNQUEUES	0x0000000000030000ull	/* a per-CPU offset */
#define PCPU_OFF	0xffffffff82400000ull	/* __per_cpu_offset[] */
#define CPU1_BASE	0xffff888007000000ull
#define TASK		0xffff888004000000ull
#define MODULES		0xffffffff82500000ull
#define MOD1		0xffffffffc0100000ull
#define MOD2		0xffffffffc0110000ull

#define O_LIST		8
#define O_NAME		24
#define O_TAINTS	0x100

/* Linux 6.1's letters, in order (TAINT_FLAGS_COUNT 19) */
static const char letters[] = "PFSRMBUDAWCIOELKXTN";

static void put32(struct ks_fake *f, uint64_t addr, uint32_t v)
{
	assert_int_equal(ks_fake_write(f, addr, &v, 4), 0);
}

/* taint_flags[]: esize 3 (5.10: c_true, c_false, module) or 16 (+desc) */
static void add_flags(struct ks_fake *f, int esize, int n, uint64_t symsize)
{
	unsigned char e[16];

	ks_fake_add_type(f, "taint_flag", esize);
	ks_fake_add_member(f, "taint_flag", "c_true", 0, 1);
	ks_fake_add_member(f, "taint_flag", "c_false", 1, 1);
	ks_fake_add_member(f, "taint_flag", "module", 2, 1);
	if (esize == 16)
		ks_fake_add_member(f, "taint_flag", "desc", 8, 8);
	ks_fake_add_symbol(f, "taint_flags", FLAGS, symsize, NULL);
	ks_fake_add_memory(f, FLAGS, NULL, 64 * 16);
	ks_fake_add_memory(f, DESCS, NULL, 64 * 32);
	for (int i = 0; i < n; i++) {
		uint64_t desc = DESCS + 32 * (uint64_t)i;
		char text[32];

		memset(e, 0, sizeof(e));
		e[0] = (unsigned char)letters[i];
		e[1] = i ? ' ' : 'G';
		e[2] = 1;
		if (esize == 16) {
			memcpy(e + 8, &desc, 8);
			snprintf(text, sizeof(text), "FLAG_%c", letters[i]);
			ks_fake_write(f, desc, text, strlen(text) + 1);
		}
		ks_fake_write(f, FLAGS + (uint64_t)(i * esize), e, (size_t)esize);
	}
}

/* Two modules: ksdie (O and E) and clean (none). */
static void add_modules(struct ks_fake *f)
{
	ks_fake_add_symbol(f, "modules", MODULES, 16, NULL);
	ks_fake_add_memory(f, MODULES, NULL, 16);
	ks_fake_add_memory(f, MOD1, NULL, 0x200);
	ks_fake_add_memory(f, MOD2, NULL, 0x200);
	ks_fake_write_u64(f, MODULES, MOD1 + O_LIST);
	ks_fake_write_u64(f, MOD1 + O_LIST, MOD2 + O_LIST);
	ks_fake_write_u64(f, MOD2 + O_LIST, MODULES);
	ks_fake_write(f, MOD1 + O_NAME, "ksdie", 6);
	ks_fake_write(f, MOD2 + O_NAME, "clean", 6);
	ks_fake_write_u64(f, MOD1 + O_TAINTS, 1ull << 12 | 1ull << 13);
	ks_fake_add_member(f, "module", "state", 0, 4);
	ks_fake_add_member(f, "module", "list", O_LIST, 16);
	ks_fake_add_member(f, "module", "name", O_NAME, 56);
	ks_fake_add_member(f, "module", "taints", O_TAINTS, 8);
}

/* panic_cpu 1, whose runqueue's curr is PID 126 "sh" */
static void add_panic(struct ks_fake *f, int32_t cpu, uint64_t mask)
{
	ks_fake_add_symbol(f, "panic_cpu", PANIC_CPU, 4, NULL);
	ks_fake_add_symbol(f, "tainted_mask", TAINTED, 8, NULL);
	ks_fake_add_memory(f, PANIC_CPU, NULL, 0x20);
	put32(f, PANIC_CPU, (uint32_t)cpu);
	ks_fake_write_u64(f, TAINTED, mask);
	ks_fake_add_symbol(f, "runqueues", RUNQUEUES, 0x1000, NULL);
	ks_fake_add_symbol(f, "__per_cpu_offset", PCPU_OFF, 16, NULL);
	ks_fake_add_memory(f, PCPU_OFF, NULL, 16);
	ks_fake_write_u64(f, PCPU_OFF + 8, CPU1_BASE);
	ks_fake_add_memory(f, CPU1_BASE + RUNQUEUES, NULL, 0x100);
	ks_fake_add_member(f, "rq", "curr", 0x40, 8);
	ks_fake_write_u64(f, CPU1_BASE + RUNQUEUES + 0x40, TASK);
	ks_fake_add_memory(f, TASK, NULL, 0x800);
	ks_fake_add_member(f, "task_struct", "pid", 0x500, 4);
	ks_fake_add_member(f, "task_struct", "comm", 0x600, 16);
	put32(f, TASK + 0x500, 126);
	ks_fake_write(f, TASK + 0x600, "sh", 3);
}

/* What --panic writes for f, as text or JSON, into buf. */
static void run(struct ks_fake *f, bool json, char *buf, size_t len,
		struct said *said)
{
	struct ks_target t;
	FILE *out = fmemopen(buf, len, "w");

	assert_non_null(out);
	memset(said, 0, sizeof(*said));
	ks_fake_target(f, &t);
	ks_panic_report(&t, json, out, &SAID_TO(said));
	fclose(out);
}

/* 5.10: three chars a flag, every position printed, no descriptions */
static void test_510(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct said said;
	char buf[1024];

	(void)state;
	add_flags(f, 3, 18, 18 * 3 + 2);
	add_modules(f);
	add_panic(f, 1, 1ull << 9 | 1ull << 12 | 1ull << 13);
	run(f, false, buf, sizeof(buf), &said);
	assert_string_equal(buf, "Panic: CPU 1, PID 126 (sh)\n"
				 "Tainted: G        W  OE    \n"
				 "  W\n"
				 "  O: ksdie\n"
				 "  E: ksdie\n");
	assert_int_equal(said.calls, 0);
	ks_fake_destroy(f);
}

/* 6.10+: desc; the table ends at its first entry without a letter */
static void test_desc(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct said said;
	char buf[1024];

	(void)state;
	add_flags(f, 16, 19, 64 * 16);
	add_modules(f);
	add_panic(f, 1, 1ull << 12 | 1ull << 13);
	run(f, false, buf, sizeof(buf), &said);
	assert_string_equal(buf, "Panic: CPU 1, PID 126 (sh)\n"
				 "Tainted: G           OE     \n"
				 "  O (FLAG_O): ksdie\n"
				 "  E (FLAG_E): ksdie\n");
	run(f, true, buf, sizeof(buf), &said);
	assert_string_equal(buf, "{\"panic_cpu\":1,\"pid\":126,\"comm\":\"sh\","
		"\"message\":null,\"tainted_mask\":12288,"
		"\"tainted\":\"Tainted: G           OE     \",\"taints\":["
		"{\"bit\":12,\"letter\":\"O\",\"desc\":\"FLAG_O\",\"modules\":[\"ksdie\"]},"
		"{\"bit\":13,\"letter\":\"E\",\"desc\":\"FLAG_E\",\"modules\":[\"ksdie\"]}]}\n");
	assert_int_equal(said.calls, 0);
	ks_fake_destroy(f);
}

/* No CPU panicked, nothing tainted; the symbol's size ends the table */
static void test_none(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct said said;
	char buf[1024];

	(void)state;
	add_flags(f, 16, 19, 4 * 16);
	add_panic(f, -1, 0);
	run(f, false, buf, sizeof(buf), &said);
	assert_string_equal(buf, "Panic: none (panic_cpu is -1)\nNot tainted\n");
	/* the W of bit 9 lies past the 4 entries the symbol holds */
	ks_fake_write_u64(f, TAINTED, 1ull << 9 | 1);
	run(f, false, buf, sizeof(buf), &said);
	assert_string_equal(buf, "Panic: none (panic_cpu is -1)\n"
				 "Tainted: P   \n  P (FLAG_P)\n");
	ks_fake_destroy(f);
}

/* Neither symbol: said once each, and the lines say unknown */
static void test_missing(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct ks_target t;
	struct said said;
	char buf[1024];
	FILE *out = fmemopen(buf, sizeof(buf), "w");

	(void)state;
	memset(&said, 0, sizeof(said));
	ks_fake_target(f, &t);
	assert_int_equal(ks_panic_report(&t, false, out, &SAID_TO(&said)),
			 -ENOENT);
	fclose(out);
	assert_string_equal(buf, "Panic: unknown (panic_cpu cannot be read)\n"
				 "Tainted: unknown\n");
	assert_int_equal(said.calls, 2);
	assert_non_null(strstr(said.text, "no symbol panic_cpu"));
	assert_non_null(strstr(said.text, "no symbol tainted_mask"));
	ks_fake_destroy(f);
}

/* A CPU whose task cannot be read: the CPU alone, and why */
static void test_no_task(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct said said;
	char buf[1024];

	(void)state;
	add_flags(f, 3, 18, 0);
	add_panic(f, 1, 0);
	ks_fake_write_u64(f, CPU1_BASE + RUNQUEUES + 0x40, 0xdead000000000000ull);
	run(f, false, buf, sizeof(buf), &said);
	assert_string_equal(buf, "Panic: CPU 1\nNot tainted\n");
	assert_int_equal(said.calls, 1);
	assert_non_null(strstr(said.text, "the task on CPU 1"));
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_510),
		cmocka_unit_test(test_desc),
		cmocka_unit_test(test_none),
		cmocka_unit_test(test_missing),
		cmocka_unit_test(test_no_task),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
