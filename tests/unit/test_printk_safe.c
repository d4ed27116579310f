// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The printk_safe buffers (shared/kernel/log/printk_safe.c) and their
 * lines in --log: the text split as crash's log splits it (KERN_SOH and
 * its level byte, a line without one, a KERN_SOH in mid-line, a last
 * line without '\n'), the lines written as crash writes them and as
 * JSON, and the walk over a kernel made by hand: the CPUs in order, a
 * CPU whose buffer is not in the image said and passed, len past the
 * buffer's end cut, a kernel without the buffers left alone.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "fake_target.h"
#include "format_log.h"
#include "printk_safe.h"
#include "said.h"

#define MAX_LINES	16

struct got {
	unsigned int n;
	char text[MAX_LINES][64];
	struct ks_log_record rec[MAX_LINES];	/* text: into text[] */
	unsigned int stop_at;			/* 0: never */
};

static int collect(void *arg, const struct ks_log_record *rec)
{
	struct got *g = arg;

	if (g->n < MAX_LINES) {
		snprintf(g->text[g->n], sizeof(g->text[0]), "%.*s",
			 (int)rec->text_len, rec->text);
		g->rec[g->n] = *rec;
		g->rec[g->n].text = g->text[g->n];
	}
	g->n++;
	return g->stop_at && g->n == g->stop_at ? 7 : 0;
}

static const struct ks_log_record tmpl = { .buffer = "nmi_print_seq",
					   .cpu = 1, .subsystem = "",
					   .device = "" };

static void split(const char *buf, size_t len, struct got *g)
{
	memset(g, 0, sizeof(*g));
	assert_int_equal(ks_printk_safe_split(buf, len, &tmpl, collect, g), 0);
}

static void test_split_headed(void **state)
{
	static const char buf[] = "\0014Uhhuh. NMI\n\0010---[ end ]---\n";
	struct got g;

	(void)state;
	split(buf, sizeof(buf) - 1, &g);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.text[0], "Uhhuh. NMI");
	assert_true(g.rec[0].headed);
	assert_int_equal(g.rec[0].level, 4);
	assert_int_equal(g.rec[0].header, '4');
	assert_string_equal(g.text[1], "---[ end ]---");
	assert_int_equal(g.rec[1].level, 0);
	assert_string_equal(g.rec[1].buffer, "nmi_print_seq");
	assert_int_equal(g.rec[1].cpu, 1);
}

/* crash: a KERN_SOH in mid-line starts a line; text after '\n' goes on unheaded */
static void test_split_breaks(void **state)
{
	static const char buf[] = "lead\n\0013a\0016b\nplain\n\n\001cmore";
	struct got g;

	(void)state;
	split(buf, sizeof(buf) - 1, &g);
	assert_int_equal(g.n, 6);
	assert_string_equal(g.text[0], "lead");
	assert_false(g.rec[0].headed);
	assert_int_equal(g.rec[0].header, '\0');
	assert_int_equal(g.rec[0].level, KS_LOG_SAFE_DEFAULT_LEVEL);
	assert_string_equal(g.text[1], "a");
	assert_int_equal(g.rec[1].level, 3);
	assert_string_equal(g.text[2], "b");
	assert_int_equal(g.rec[2].level, 6);
	assert_string_equal(g.text[3], "plain");
	assert_false(g.rec[3].headed);
	assert_string_equal(g.text[4], "");
	assert_false(g.rec[4].headed);
	/* KERN_CONT, and the last line without its '\n' */
	assert_string_equal(g.text[5], "more");
	assert_int_equal(g.rec[5].header, 'c');
	assert_int_equal(g.rec[5].flags, KS_LOG_CONT);
	assert_int_equal(g.rec[5].level, KS_LOG_SAFE_DEFAULT_LEVEL);
}

/* the byte after KERN_SOH is its level whatever it is, even past the end */
static void test_split_odd_bytes(void **state)
{
	struct got g;

	(void)state;
	split("\001\nabc", 5, &g);
	assert_int_equal(g.n, 1);
	assert_string_equal(g.text[0], "abc");
	assert_true(g.rec[0].headed);
	split("x\001", 2, &g);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.text[0], "x");
	assert_string_equal(g.text[1], "");
	assert_true(g.rec[1].headed);
	assert_int_equal(g.rec[1].header, '\0');
	split("\0014\0015", 4, &g);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.text[0], "");
	assert_int_equal(g.rec[1].level, 5);
	split("", 0, &g);
	assert_int_equal(g.n, 0);
	split("\n", 1, &g);
	assert_int_equal(g.n, 1);
	assert_false(g.rec[0].headed);
}

static void test_split_stops(void **state)
{
	struct got g = { .stop_at = 2 };

	(void)state;
	assert_int_equal(ks_printk_safe_split("\0014a\n\0014b\n\0014c\n", 12,
					      &tmpl, collect, &g), 7);
	assert_int_equal(g.n, 2);
}

static void format(const struct ks_log_record *rec, bool json, char *buf,
		   size_t len)
{
	FILE *out = fmemopen(buf, len, "w");

	assert_non_null(out);
	ks_format_log_record(out, json, rec);
	fclose(out);
}

static void test_format(void **state)
{
	static const char buf[] = "\0010end\x1b\tx\ngoes on\n\001cmore";
	struct got g;
	char out[512];

	(void)state;
	split(buf, sizeof(buf) - 1, &g);
	assert_int_equal(g.n, 3);
	g.rec[0].message_lost = 2;
	format(&g.rec[0], false, out, sizeof(out));
	assert_string_equal(out, "[nmi_print_seq] end\\x1b\tx\n");
	format(&g.rec[1], false, out, sizeof(out));
	assert_string_equal(out, "                goes on\n");
	format(&g.rec[0], true, out, sizeof(out));
	assert_string_equal(out, "{\"buffer\": \"nmi_print_seq\", \"cpu\": 1, "
			    "\"level\": 0, \"text\": \"end\\u001b\\u0009x\", "
			    "\"message_lost\": 2}\n");
	format(&g.rec[1], true, out, sizeof(out));
	assert_string_equal(out, "{\"buffer\": \"nmi_print_seq\", \"cpu\": 1, "
			    "\"no_header\": true, \"text\": \"goes on\"}\n");
	format(&g.rec[2], true, out, sizeof(out));
	assert_string_equal(out, "{\"buffer\": \"nmi_print_seq\", \"cpu\": 1, "
			    "\"cont\": true, \"text\": \"more\"}\n");
}

/* A kernel of 3 possible CPUs of 4 ids, its per-CPU areas 0x10000 apart. */
#define PCPU_OFFSETS	0xffff000000001000ull
#define NR_CPU_IDS	0xffff000000002000ull
#define POSSIBLE	0xffff000000003000ull
#define AREA(cpu)	(0xffff000000100000ull + 0x10000ull * (cpu))
#define NMI_SEQ		0x200ull	/* the symbol: an offset into an area */
#define BUF_OFF		0x20
#define BUF_LEN		64

static struct ks_fake *kernel(void)
{
	struct ks_fake *f = ks_fake_create();
	uint32_t nr = 4;
	uint64_t possible = 0xb;	/* CPUs 0, 1, 3 */

	assert_non_null(f);
	assert_int_equal(ks_fake_add_memory(f, PCPU_OFFSETS, NULL, 32), 0);
	for (unsigned int cpu = 0; cpu < 4; cpu++)
		assert_int_equal(ks_fake_write_u64(f, PCPU_OFFSETS + 8 * cpu,
						   AREA(cpu)), 0);
	assert_int_equal(ks_fake_add_memory(f, NR_CPU_IDS, &nr, 4), 0);
	assert_int_equal(ks_fake_add_memory(f, POSSIBLE, &possible, 8), 0);
	/* CPU 1's area is not in the image */
	assert_int_equal(ks_fake_add_memory(f, AREA(0), NULL, 0x1000), 0);
	assert_int_equal(ks_fake_add_memory(f, AREA(3), NULL, 0x1000), 0);
	assert_int_equal(ks_fake_add_symbol(f, "__per_cpu_offset", PCPU_OFFSETS, 32, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(f, "nr_cpu_ids", NR_CPU_IDS, 4, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(f, "__cpu_possible_mask", POSSIBLE, 8, NULL), 0);
	assert_int_equal(ks_fake_add_symbol(f, "nmi_print_seq", NMI_SEQ, 0x60, NULL), 0);
	assert_int_equal(ks_fake_add_member(f, "printk_safe_seq_buf", "len", 0, 4), 0);
	assert_int_equal(ks_fake_add_member(f, "printk_safe_seq_buf", "message_lost", 4, 4), 0);
	assert_int_equal(ks_fake_add_member(f, "printk_safe_seq_buf", "buffer", BUF_OFF, BUF_LEN), 0);
	return f;
}

static void put_buffer(struct ks_fake *f, unsigned int cpu, int32_t len,
		       int32_t lost, const char *text)
{
	uint64_t at = AREA(cpu) + NMI_SEQ;

	assert_int_equal(ks_fake_write(f, at, &len, 4), 0);
	assert_int_equal(ks_fake_write(f, at + 4, &lost, 4), 0);
	assert_int_equal(ks_fake_write(f, at + BUF_OFF, text, strlen(text)), 0);
}

static void test_walk(void **state)
{
	struct ks_fake *f = kernel();
	struct said said = { 0 };
	const struct ks_reporter rep = SAID_TO(&said);
	struct ks_target t;
	struct got g = { 0 };
	char full[BUF_LEN + 1];

	(void)state;
	put_buffer(f, 0, 8, 0, "\0010first\n");
	/* len past the buffer: its SAFE_LOG_BUF_LEN bytes, as crash reads */
	memset(full, 'z', BUF_LEN);
	full[BUF_LEN] = '\0';
	put_buffer(f, 3, 1000, 3, full);
	ks_fake_target(f, &t);
	assert_int_equal(ks_printk_safe_walk(&t, collect, &g, &rep), 0);
	assert_int_equal(g.n, 2);
	assert_string_equal(g.text[0], "first");
	assert_int_equal(g.rec[0].cpu, 0);
	assert_int_equal(g.rec[1].cpu, 3);
	assert_int_equal(g.rec[1].text_len, BUF_LEN);
	assert_int_equal(g.rec[1].message_lost, 3);
	assert_false(g.rec[1].headed);
	/* CPU 1 not in the image, CPU 3's lost messages; CPU 2 not possible */
	assert_int_equal(said.calls, 2);
	assert_non_null(strstr(said.text, "CPU 1's nmi_print_seq at "));
	assert_non_null(strstr(said.text, "CPU 3's nmi_print_seq lost 3 message(s)"));
	assert_null(strstr(said.text, "CPU 2"));
	ks_fake_destroy(f);
}

/* 5.15 and later: no buffers, nothing read, nothing said */
static void test_no_buffers(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct said said = { 0 };
	const struct ks_reporter rep = SAID_TO(&said);
	struct ks_target t;
	struct got g = { 0 };

	(void)state;
	assert_non_null(f);
	ks_fake_target(f, &t);
	assert_int_equal(ks_printk_safe_walk(&t, collect, &g, &rep), 0);
	assert_int_equal(g.n, 0);
	assert_int_equal(said.calls, 0);
	ks_fake_destroy(f);
}

/* the symbol without the type: said once, no line */
static void test_no_types(void **state)
{
	struct ks_fake *f = ks_fake_create();
	struct said said = { 0 };
	const struct ks_reporter rep = SAID_TO(&said);
	struct ks_target t;
	struct got g = { 0 };

	(void)state;
	assert_non_null(f);
	assert_int_equal(ks_fake_add_symbol(f, "safe_print_seq", NMI_SEQ, 0x60, NULL), 0);
	ks_fake_target(f, &t);
	assert_int_equal(ks_printk_safe_walk(&t, collect, &g, &rep), 0);
	assert_int_equal(g.n, 0);
	assert_int_equal(said.calls, 1);
	assert_non_null(strstr(said.text, "struct printk_safe_seq_buf"));
	ks_fake_destroy(f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_split_headed),
		cmocka_unit_test(test_split_breaks),
		cmocka_unit_test(test_split_odd_bytes),
		cmocka_unit_test(test_split_stops),
		cmocka_unit_test(test_format),
		cmocka_unit_test(test_walk),
		cmocka_unit_test(test_no_buffers),
		cmocka_unit_test(test_no_types),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
