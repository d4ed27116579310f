// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kallsyms tables found by their shape (shared/kernel/image/kallsyms_scan.c)
 * in a fake kernel image: written here in both of scripts/kallsyms.c's
 * orders (up to 6.3, with and without kallsyms_seqs_of_names, and 6.4 on),
 * with the text unmapped in part, and refused when they are forged or
 * disagree with VMCOREINFO.
 */
#include <errno.h>
#include <inttypes.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "arch.h"
#include "fake_target.h"
#include "kallsyms_scan.h"
#include "kernel_image.h"
#include "kernel_layout.h"
#include "said.h"

#define STEXT		0xffffffff81000000ull
#define RODATA		(STEXT + 0x200000)	/* the tables' segment */
#define RODATA_SIZE	0x40000
#define DATA		(STEXT + 0x400000)	/* init_uts_ns: the scan's end */
#define NR_SYMS		600
#define NR_FUNCS	(NR_SYMS - 4)
#define TOK_FUNC	0x01			/* token 1 is "func_" */
#define TOK_LONG	0x02			/* token 2 may be "abcdef" */

enum order {
	OLD_ORDER,	/* offsets, relative_base, num_syms, names, markers, tokens */
	OLD_SEQS,	/* the same with seqs_of_names before the tokens (6.2, 6.3) */
	NEW_ORDER,	/* num_syms, names, markers, tokens, offsets, base, seqs */
};

struct image {
	uint8_t b[RODATA_SIZE];
	size_t pos;
	uint64_t token_table, token_index;	/* where they were written */
	uint64_t offsets, relative_base;
};

struct ksym {
	char name[32];		/* the type letter first */
	uint64_t addr;
};

static struct ksym syms[NR_SYMS];
/* A token table of 8n + 1 bytes: its NUL and 7 bytes of padding. */
static bool long_token;

static void make_syms(void)
{
	snprintf(syms[0].name, sizeof(syms[0].name), "T_stext");
	syms[0].addr = STEXT;
	for (int i = 1; i <= NR_FUNCS - 1; i++) {
		snprintf(syms[i].name, sizeof(syms[i].name), "Tfunc_%d", i);
		syms[i].addr = STEXT + 0x10ull * i;
	}
	snprintf(syms[NR_FUNCS].name, sizeof(syms[0].name), "T_etext");
	syms[NR_FUNCS].addr = STEXT + 0x10000;
	snprintf(syms[NR_FUNCS + 1].name, sizeof(syms[0].name), "Dinit_uts_ns");
	syms[NR_FUNCS + 1].addr = DATA;
	snprintf(syms[NR_FUNCS + 2].name, sizeof(syms[0].name), "Dswapper_pg_dir");
	syms[NR_FUNCS + 2].addr = DATA + 0x1000;
	snprintf(syms[NR_FUNCS + 3].name, sizeof(syms[0].name), "B_end");
	syms[NR_FUNCS + 3].addr = DATA + 0x10000;
}

static void align8(struct image *im)
{
	im->pos = (im->pos + 7) & ~(size_t)7;
}

static void put(struct image *im, const void *p, size_t len)
{
	assert_true(im->pos + len <= RODATA_SIZE);
	memcpy(im->b + im->pos, p, len);
	im->pos += len;
}

static void put_num(struct image *im)
{
	uint32_t n = NR_SYMS;

	align8(im);
	put(im, &n, sizeof(n));
}

/* kallsyms_names, then kallsyms_markers: every 256th entry's offset. */
static void put_names_markers(struct image *im)
{
	uint32_t markers[(NR_SYMS + 255) / 256];
	size_t start;

	align8(im);
	start = im->pos;
	for (int i = 0; i < NR_SYMS; i++) {
		uint8_t e[40];
		size_t n = 1;

		if (i % 256 == 0)
			markers[i / 256] = (uint32_t)(im->pos - start);
		for (const char *p = syms[i].name; *p;) {
			if (!strncmp(p, "func_", 5)) {
				e[n++] = TOK_FUNC;
				p += 5;
			} else {
				e[n++] = (uint8_t)*p++;
			}
		}
		e[0] = (uint8_t)(n - 1);
		put(im, e, n);
	}
	align8(im);
	put(im, markers, sizeof(markers));
}

/* Byte b stands for itself, but token 1 ("func_") and 0 ("?"). */
static void put_tokens(struct image *im)
{
	uint16_t index[256];
	size_t start;

	align8(im);
	start = im->pos;
	im->token_table = RODATA + im->pos;
	for (int i = 0; i < 256; i++) {
		index[i] = (uint16_t)(im->pos - start);
		if (i == TOK_FUNC) {
			put(im, "func_", 6);
		} else if (i == TOK_LONG && long_token) {
			put(im, "abcdef", 7);
		} else {
			char tok[2] = { (char)(i ? i : '?'), 0 };

			put(im, tok, 2);
		}
	}
	align8(im);
	im->token_index = RODATA + im->pos;
	put(im, index, sizeof(index));
}

static void put_offsets_base(struct image *im)
{
	uint64_t base = STEXT;

	align8(im);
	im->offsets = RODATA + im->pos;
	for (int i = 0; i < NR_SYMS; i++) {
		uint32_t off = (uint32_t)(syms[i].addr - base);

		put(im, &off, sizeof(off));
	}
	align8(im);
	im->relative_base = RODATA + im->pos;
	put(im, &base, sizeof(base));
}

static void put_seqs(struct image *im)
{
	align8(im);
	for (int i = 0; i < NR_SYMS; i++) {
		uint8_t s[3] = { (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i };

		put(im, s, sizeof(s));
	}
}

static void write_tables(struct image *im, enum order order)
{
	memset(im, 0, sizeof(*im));
	/* rodata before the tables: strings and zeros */
	memset(im->b, 'x', 0x1000);
	im->pos = 0x2000;
	if (order == NEW_ORDER) {
		put_num(im);
		put_names_markers(im);
		put_tokens(im);
		put_offsets_base(im);
		put_seqs(im);
		return;
	}
	put_offsets_base(im);
	put_num(im);
	put_names_markers(im);
	if (order == OLD_SEQS)
		put_seqs(im);
	put_tokens(im);
}

/* VMCOREINFO as the fake kernel would write it. */
struct vmci {
	uint64_t stext, uts, swapper;
};

static int vmci_line(void *arg, const char *key, char *buf, size_t len)
{
	const struct vmci *v = arg;
	uint64_t val = 0;

	if (!strcmp(key, "SYMBOL(_stext)"))
		val = v->stext;
	else if (!strcmp(key, "SYMBOL(init_uts_ns)"))
		val = v->uts;
	else if (!strcmp(key, "SYMBOL(swapper_pg_dir)"))
		val = v->swapper;
	if (!val)
		return -ENOENT;
	snprintf(buf, len, "%" PRIx64, val);
	return 0;
}

static struct vmci vmci = { STEXT, DATA, DATA + 0x1000 };

static struct image im;		/* each test's, written anew */

/* im as written, behind some text and a hole. */
static struct ks_fake *image_written(void)
{
	struct ks_fake *f = ks_fake_create();
	uint8_t text[0x3000];

	/* some text, then nothing mapped up to the rodata: reads fail there */
	memset(text, 0xcc, sizeof(text));
	assert_int_equal(ks_fake_add_memory(f, STEXT, text, sizeof(text)), 0);
	assert_int_equal(ks_fake_add_memory(f, RODATA, im.b, RODATA_SIZE), 0);
	return f;
}

/* The tables in order, behind some text and a hole. */
static struct ks_fake *image(enum order order)
{
	make_syms();
	write_tables(&im, order);
	return image_written();
}

/* One scan: its code, what it said, what it found. */
struct run {
	struct said d;
	struct ks_kallsyms_mem *ks;
	struct ks_kallsyms_scan sc;
};

static int scan(struct ks_fake *f, struct run *r)
{
	const struct ks_vmcoreinfo vi = { .line = vmci_line, .arg = &vmci };
	struct ks_target t;

	ks_fake_target(f, &t);
	memset(r, 0, sizeof(*r));
	return ks_kallsyms_scan(&t, &vi, &SAID_TO(&r->d), &r->ks, &r->sc);
}

static void found(enum order order)
{
	struct ks_fake *f = image(order);
	struct ks_sym s;
	struct run r;
	uint64_t addr;

	assert_int_equal(scan(f, &r), 0);
	assert_int_equal(r.d.calls, 0);
	assert_int_equal(r.sc.start, STEXT);
	assert_int_equal(r.sc.end, DATA);
	assert_int_equal(r.sc.a.token_index, im.token_index);
	assert_int_equal(r.sc.a.offsets, im.offsets);
	assert_int_equal(ks_kallsyms_mem_count(r.ks), NR_SYMS);
	assert_int_equal(ks_kallsyms_mem_lookup(r.ks, STEXT + 0x10 * 300 + 4, &s), 0);
	assert_string_equal(s.name, "func_300");
	assert_int_equal(s.size, 0x10);
	assert_int_equal(ks_kallsyms_mem_addr(r.ks, "init_uts_ns", &addr), 0);
	assert_int_equal(addr, DATA);
	ks_kallsyms_mem_free(r.ks);
	ks_fake_destroy(f);
}

static void test_old_order(void **state)
{
	(void)state;
	found(OLD_ORDER);
}

static void test_old_order_seqs(void **state)
{
	(void)state;
	found(OLD_SEQS);
}

static void test_new_order(void **state)
{
	(void)state;
	found(NEW_ORDER);
}

/* 522 bytes of tokens: seven zeros after the last one's NUL */
static void test_token_padding(void **state)
{
	(void)state;
	long_token = true;
	found(OLD_ORDER);
	found(NEW_ORDER);
	long_token = false;
}

/* A scan that finds nothing, or refuses with the message given. */
static void refused(struct ks_fake *f, int code, const char *msg)
{
	struct run r;

	assert_int_equal(scan(f, &r), code);
	assert_null(r.ks);
	assert_int_equal(r.d.calls, msg ? 1 : 0);
	if (msg)
		assert_non_null(strstr(r.d.text, msg));
	ks_fake_destroy(f);
}

/* Tables whose _stext is not VMCOREINFO's are refused, by name. */
static void test_shifted_refused(void **state)
{
	struct ks_fake *f = image(OLD_ORDER);
	uint64_t base = STEXT + 0x1000;

	(void)state;
	/* relative_base moved by a page: every address with it */
	assert_int_equal(ks_fake_write(f, im.relative_base, &base, sizeof(base)), 0);
	refused(f, -EINVAL, "have no address table that puts _stext");
}

/* A symbol VMCOREINFO places elsewhere refuses the whole table. */
static void test_disagreement_refused(void **state)
{
	(void)state;
	vmci.swapper = DATA + 0x2000;
	refused(image(NEW_ORDER), -EINVAL, "put swapper_pg_dir at "
		"0xffffffff81401000, VMCOREINFO at 0xffffffff81402000: refused");
}

/* A token that is not as long as the index says is no token table. */
static void test_forged_tokens(void **state)
{
	struct ks_fake *f = image(OLD_ORDER);

	(void)state;
	/* token 5 ("\x05", at 14) runs into token 6: not what the index says */
	assert_int_equal(ks_fake_write(f, im.token_table + 15, "Z", 1), 0);
	refused(f, -ENOENT, NULL);
}

/*
 * Token tables without the tables around them, after the real ones (the
 * scan goes down from the top, so it meets them first): a few are passed
 * over, too many end the scan with a message, as each costs reads of up
 * to 16 MiB (#40 item 25: 1,120 of them took 23.5 s).
 */
static void forged_token_tables(int n)
{
	uint64_t table = im.token_table, index = im.token_index;

	im.pos += 64;
	for (int i = 0; i < n; i++)
		put_tokens(&im);
	assert_true(im.pos <= RODATA_SIZE);
	im.token_table = table;
	im.token_index = index;
}

static void test_token_table_budget(void **state)
{
	struct ks_fake *f;
	struct run r;

	(void)state;
	make_syms();
	write_tables(&im, NEW_ORDER);
	forged_token_tables(10);
	f = image_written();
	assert_int_equal(scan(f, &r), 0);
	assert_int_equal(r.sc.tried, 11);
	assert_int_equal(r.sc.a.token_table, im.token_table);
	ks_kallsyms_mem_free(r.ks);
	ks_fake_destroy(f);

	write_tables(&im, NEW_ORDER);
	forged_token_tables(100);
	f = image_written();
	assert_int_equal(scan(f, &r), -ENOENT);
	assert_null(r.ks);
	assert_int_equal(r.sc.tried, 33);
	assert_int_equal(r.d.calls, 1);
	assert_non_null(strstr(r.d.text, "more than 32 places from "));
	assert_non_null(strstr(r.d.text, "look like kallsyms_token_table, and "
			       "none has the other kallsyms tables around it: "
			       "the scan stops there"));
	ks_fake_destroy(f);
}

/* No _stext in VMCOREINFO, or nothing of the shape: -ENOENT, silently. */
static void test_nothing(void **state)
{
	static const uint8_t zeros[RODATA_SIZE];
	struct ks_fake *f = image(OLD_ORDER);
	struct run r;

	(void)state;
	assert_int_equal(ks_fake_write(f, RODATA, zeros, sizeof(zeros)), 0);
	assert_int_equal(scan(f, &r), -ENOENT);
	assert_int_equal(r.sc.end, DATA);
	vmci.stext = 0;
	assert_int_equal(scan(f, &r), -ENOENT);
	assert_int_equal(r.sc.start, 0);
	refused(f, -ENOENT, NULL);
}

/*
 * Whole tables, but no data symbol within 256 MiB of _stext bounds the
 * image: not searched (sc.end 0), as a forged VMCOREINFO would make the
 * scan read 256 MiB of absent pages.
 */
static void test_unbounded(void **state)
{
	struct ks_fake *f = image(OLD_ORDER);
	struct run r;

	(void)state;
	vmci.uts = 0;
	vmci.swapper = STEXT + (256ull << 20) + 0x1000;
	assert_int_equal(scan(f, &r), -ENOENT);
	assert_int_equal(r.sc.start, STEXT);
	assert_int_equal(r.sc.end, 0);
	vmci.swapper = DATA + 0x1000;
	assert_int_equal(scan(f, &r), 0);
	assert_int_equal(r.sc.end, DATA + 0x1000);
	ks_kallsyms_mem_free(r.ks);
	vmci.uts = DATA;
	ks_fake_destroy(f);
}

/*
 * An _stext below the upper half (a forged "fffff,fff5", whose first
 * digits an old parser took) with a data symbol 256 MiB above it: no
 * kernel lies there, so not one byte is read, although the first is
 * readable.  The old scan read 256 MiB of absent pages for seconds.
 */
static void test_user_stext(void **state)
{
	static const uint8_t page[0x1000];
	struct ks_fake *f = image(OLD_ORDER);
	struct vmci keep = vmci;
	unsigned long before;
	struct run r;

	(void)state;
	assert_int_equal(ks_fake_add_memory(f, 0xff000, page, sizeof(page)), 0);
	vmci.stext = 0xfffff;
	vmci.uts = 0xfffffff;
	vmci.swapper = 0;
	before = ks_fake_read_count(f);
	assert_int_equal(scan(f, &r), -ENOENT);
	assert_int_equal(ks_fake_read_count(f), before);
	assert_int_equal(r.sc.start, 0);
	vmci = keep;
	ks_fake_destroy(f);
}

/*
 * A BTF file whose one record (a struct of vlen 65535) runs past the
 * types: its damage is named, with the file, and memory is asked next.
 */
static void damaged_btf_file(struct ks_image *im, const struct ks_target *mem)
{
	const uint32_t blob[] = {
		0x0001eb9f, 24, 0, 12, 12, 1,	/* header: 12 bytes of types */
		0, 4u << 24 | 0xffff, 8,	/* struct, vlen 65535 */
		0,				/* the strings: "" */
	};
	char path[] = "/tmp/test_kallsyms_scan.XXXXXX";
	struct said d = { "", 0 };
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, blob, 24 + 12 + 1), 24 + 12 + 1);
	close(fd);
	assert_int_equal(ks_image_load_btf(im, mem, path, &SAID_TO(&d)),
			 -ENOENT);
	unlink(path);
	assert_int_equal(d.calls, 1);
	assert_non_null(strstr(d.text, "no usable BTF in /tmp/test_kallsyms_scan."));
	assert_non_null(strstr(d.text, ": BTF type 1 (anon, kind 4, vlen 65535) "
				       "runs past the type section"));
}

/*
 * A kernel without BTF (no __start_BTF among its symbols): the scanned
 * symbols load, the types are missing, and the task walk refuses rather
 * than guess a layout.
 */
static void test_no_btf(void **state)
{
	const struct ks_vmcoreinfo vi = { .line = vmci_line, .arg = &vmci };
	static struct ks_image im_;
	struct ks_target mem, t;
	struct said d = { "", 0 }, layout = { "", 0 };
	struct ks_kernel_layout l;
	struct ks_kallsyms_scan sc;
	struct ks_fake *f = image(OLD_ORDER);
	uint64_t addr;

	(void)state;
	ks_fake_target(f, &mem);
	assert_int_equal(ks_image_find_kallsyms(&im_, &mem, &vi,
						KS_KALLSYMS_LISTED_OR_SCAN,
						&SAID_TO(&d), &sc), 0);
	assert_string_equal(ks_image_symbols_from(&im_),
			    "kallsyms in memory, found by their shape");
	/* the scanned symbols answer the image's questions */
	assert_int_equal(ks_image_symbol(&im_, "init_uts_ns", &addr), 0);
	assert_int_equal(addr, DATA);
	assert_int_equal(ks_image_load_btf(&im_, &mem, NULL, NULL),
			 -ENOENT);
	damaged_btf_file(&im_, &mem);
	assert_int_equal(ks_image_member_offset(&im_, "task_struct", "tasks"),
			 -ENOENT);
	assert_int_equal(ks_image_type_size(&im_, "task_struct"), -ENOENT);
	/* the image as --vmcore's target: the task walk names what it lacks */
	ks_image_target(&im_, &mem, &t);
	assert_int_equal(ks_layout_init(&t, &ks_arch_x86_64, &l,
					&SAID_TO(&layout)), -ENOENT);
	assert_true(layout.calls > 0);
	assert_int_equal(d.calls, 0);
	ks_image_release(&im_);
	ks_fake_destroy(f);
}

/* What a failed test changed is not the next one's. */
static int reset(void **state)
{
	(void)state;
	long_token = false;
	vmci = (struct vmci){ STEXT, DATA, DATA + 0x1000 };
	return 0;
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_old_order, reset),
		cmocka_unit_test_setup(test_old_order_seqs, reset),
		cmocka_unit_test_setup(test_new_order, reset),
		cmocka_unit_test_setup(test_token_padding, reset),
		cmocka_unit_test_setup(test_shifted_refused, reset),
		cmocka_unit_test_setup(test_disagreement_refused, reset),
		cmocka_unit_test_setup(test_forged_tokens, reset),
		cmocka_unit_test_setup(test_nothing, reset),
		cmocka_unit_test_setup(test_token_table_budget, reset),
		cmocka_unit_test_setup(test_unbounded, reset),
		cmocka_unit_test_setup(test_user_stext, reset),
		cmocka_unit_test_setup(test_no_btf, reset),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
