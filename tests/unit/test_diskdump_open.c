// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --vmcore on a kdump-compressed dump (makedumpfile's format) forged
 * here: a small well-formed one, and the damaged copies of issue 40
 * (items 17 to 19) that libkdumpfile 0.5.1 died on in the release build
 * (a use after free in kdump_free() after a failed open, a page
 * descriptor bigger than its buffer, SIGBUS in notes past the end).
 * Each damaged one must be refused, naming what is wrong, before
 * libkdumpfile sees it.  Under ASan libkdumpfile's use after free does
 * not crash: tests/integration/test_forged_dumps.sh runs the release
 * binary on the same forgeries.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "diskdump_header.h"
#include "target_kdump.h"
#include "said.h"

#define BLOCK		4096
#define PAGES		16
#define SUB_BLOCKS	2		/* the sub-header and its notes */
#define BITMAP_OFF	((1 + SUB_BLOCKS) * BLOCK)
#define DESC_OFF	(BITMAP_OFF + 2 * BLOCK)
#define DATA_OFF	(DESC_OFF + 24 * PAGES)
#define DUMP_SIZE	(DATA_OFF + PAGES * BLOCK)
#define PRSTATUS_SIZE	336		/* x86-64's struct elf_prstatus */

static const char vmcoreinfo[] = "OSRELEASE=9.9.9-kstack-test\n"
				 "PAGESIZE=4096\n"
				 "SYMBOL(_stext)=ffffffff81000000\n";

static uint8_t dump[DUMP_SIZE];
static char path[64];

static void put32(size_t off, uint32_t v)
{
	memcpy(dump + off, &v, sizeof(v));
}

static void put64(size_t off, uint64_t v)
{
	memcpy(dump + off, &v, sizeof(v));
}

/* An ELF note at off: its size, padded. */
static size_t put_note(size_t off, const char *name, uint32_t type,
		       const void *desc, uint32_t descsz)
{
	uint32_t namesz = (uint32_t)strlen(name) + 1;
	size_t name_pad = (namesz + 3) & ~3u, desc_pad = (descsz + 3) & ~3u;

	put32(off, namesz);
	put32(off + 4, descsz);
	put32(off + 8, type);
	memcpy(dump + off + 12, name, namesz);
	if (desc)
		memcpy(dump + off + 12 + name_pad, desc, descsz);
	return 12 + name_pad + desc_pad;
}

/*
 * The notes cross the page at 8192, so a copy cut at 8000 ends inside
 * them, the page they go on to past its end (mapped: SIGBUS).
 */
static void put_sub_header(void)
{
	size_t info_len = sizeof(vmcoreinfo) - 1;
	size_t notes_len = 12 + 8 + PRSTATUS_SIZE + 12 + 12 + ((info_len + 3) & ~3u);
	size_t note_off = 2 * BLOCK - (notes_len / 2 & ~7u), n;

	n = put_note(note_off, "CORE", 1, NULL, PRSTATUS_SIZE);
	put_note(note_off + n, "VMCOREINFO", 0, vmcoreinfo, (uint32_t)info_len);
	put64(BLOCK + 8, 31);			/* dump_level, split 0 */
	put64(BLOCK + 32, note_off + n + 24);	/* offset_vmcoreinfo */
	put64(BLOCK + 40, info_len);
	put64(BLOCK + 48, note_off);		/* offset_note */
	put64(BLOCK + 56, notes_len);
	put64(BLOCK + 96, PAGES);		/* max_mapnr_64 */
}

/* makedumpfile's layout, header_version 6, PAGES uncompressed pages. */
static void forge(void)
{
	static const char *const uts[] = { "Linux", "kstack-test",
		"9.9.9-kstack-test", "#1", "x86_64", "" };

	memset(dump, 0, sizeof(dump));
	memcpy(dump, "KDUMP   ", 8);
	put32(8, 6);				/* header_version */
	for (int i = 0; i < 6; i++)
		memcpy(dump + 12 + 65 * i, uts[i], strlen(uts[i]));
	put64(408, 1700000000);			/* timestamp: tv_usec 0 */
	put32(428, BLOCK);			/* block_size */
	put32(432, SUB_BLOCKS);			/* sub_hdr_size */
	put32(436, 2);				/* bitmap_blocks */
	put32(440, PAGES);			/* max_mapnr */
	put32(460, 1);				/* nr_cpus */
	put_sub_header();
	memset(dump + BITMAP_OFF, 0xff, PAGES / 8);
	memset(dump + BITMAP_OFF + BLOCK, 0xff, PAGES / 8);
	for (int i = 0; i < PAGES; i++) {
		put64(DESC_OFF + 24 * i, DATA_OFF + (uint64_t)BLOCK * i);
		put32(DESC_OFF + 24 * i + 8, BLOCK);	/* size, flags 0 */
		memset(dump + DATA_OFF + BLOCK * i, i, BLOCK);
	}
}

/* The first len bytes of the dump as a file at path. */
static void write_dump(size_t len)
{
	FILE *f;
	int fd;

	strcpy(path, "/tmp/kstack-test-diskdump-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w");
	assert_non_null(f);
	assert_int_equal(fwrite(dump, 1, len, f), len);
	assert_int_equal(fclose(f), 0);
}

/* ks_kdump_open() on the file: its code, what it said in d. */
static int open_it(struct said *d)
{
	struct ks_kdump_args a = {
		.vmcore = path,
		.rep = &SAID_TO(d),
	};
	struct ks_kdump *kd = NULL;
	struct ks_target t;
	int ret;

	*d = (struct said){ "", 0 };
	ret = ks_kdump_open(&a, &kd, &t);
	if (!ret)
		ks_kdump_close(kd);
	unlink(path);
	return ret;
}

/* The file of len bytes is refused with -EINVAL, saying why. */
static void refused(size_t len, const char *why)
{
	char want[512];
	struct said d;

	write_dump(len);
	snprintf(want, sizeof(want), "%s is refused: %s", path, why);
	assert_int_equal(open_it(&d), -EINVAL);
	if (!strstr(d.text, want))
		fail_msg("said \"%s\", not \"%s\"", d.text, want);
}

static void test_kdump_8_bytes(void **state)
{
	(void)state;
	forge();
	refused(8, "the diskdump header is cut short: the file has 8 of its "
		"464 bytes");
}

static void test_diskdump_8_bytes(void **state)
{
	(void)state;
	forge();
	memcpy(dump, "DISKDUMP", 8);
	refused(8, "the diskdump header is cut short: the file has 8 of its "
		"464 bytes");
}

static void test_cut_100(void **state)
{
	(void)state;
	forge();
	refused(100, "the diskdump header is cut short: the file has 100 of "
		"its 464 bytes");
}

static void test_desc_size_4097(void **state)
{
	(void)state;
	forge();
	put32(DESC_OFF + 8, 4097);
	put32(DESC_OFF + 12, 1);		/* zlib: its buffer is a block */
	refused(DUMP_SIZE, "page descriptor 0 (pfn 0, at 0x5000): size 4097 "
		"is more than block_size 4096");
}

static void test_desc_size_65536(void **state)
{
	(void)state;
	forge();
	put32(DESC_OFF + 24 * 5 + 8, 65536);
	put32(DESC_OFF + 24 * 5 + 12, 1);
	refused(DUMP_SIZE, "page descriptor 5 (pfn 0x5, at 0x5078): size "
		"65536 is more than block_size 4096");
}

static void test_cut_8000_notes(void **state)
{
	(void)state;
	forge();
	refused(8000, "it is cut at 8000 bytes, before the end of its note ");
}

static void test_cut_sub_header(void **state)
{
	(void)state;
	forge();
	refused(BLOCK + 50, "it is cut at 4146 bytes, before the end of its "
		"sub-header (104 bytes at block_size 4096)");
}

static void test_cut_bitmaps(void **state)
{
	(void)state;
	forge();
	refused(BITMAP_OFF + BLOCK + 8, "it is cut at 16392 bytes, before the "
		"end of its bitmaps (2 blocks of 4096 bytes at 0x3000");
}

static void test_block_size(void **state)
{
	(void)state;
	forge();
	put32(428, 3000);
	refused(DUMP_SIZE, "block_size is 3000, not a power of two from 4096 "
		"to 262144");
	forge();
	put32(428, 1u << 20);
	refused(DUMP_SIZE, "block_size is 1048576, not a power of two");
}

static void test_max_mapnr(void **state)
{
	(void)state;
	forge();
	put32(440, 2 * BLOCK * 8 + 1);
	refused(DUMP_SIZE, "max_mapnr 65537 is more than the 65536 pages "
		"bitmap_blocks 2 covers");
}

/* libkdumpfile would take it as a 32-bit kernel's header first. */
static void test_32bit_header(void **state)
{
	(void)state;
	forge();
	put32(416, BLOCK);			/* a 64-bit header's tv_usec */
	put32(424, 1);
	refused(DUMP_SIZE, "the header reads as a 32-bit kernel's");
}

static void test_machine(void **state)
{
	(void)state;
	forge();
	memcpy(dump + 12 + 4 * 65, "s390x", 6);
	refused(DUMP_SIZE, "utsname.machine is \"s390x\", not an architecture");
}

/* libkdumpfile re-sets its page size from VMCOREINFO's. */
static void test_pagesize(void **state)
{
	char *p;

	(void)state;
	forge();
	p = memmem(dump, BITMAP_OFF, "PAGESIZE=4096", 13);
	assert_non_null(p);
	memcpy(p, "PAGESIZE=0000", 13);
	refused(DUMP_SIZE, "VMCOREINFO's PAGESIZE is \"0000\", not the dump's "
		"block_size 4096");
}

static void test_note_overrun(void **state)
{
	(void)state;
	forge();
	put64(BLOCK + 56, 40);			/* size_note: inside the CORE note */
	refused(DUMP_SIZE, "the notes (offset_note): the note at offset 0 "
		"(n_namesz 5, n_descsz 336) overruns the segment's 40 bytes");
}

/* A failed open of libkdumpfile's is a use after free: it must not fail. */
static void test_prstatus_size(void **state)
{
	uint64_t note_off;

	(void)state;
	forge();
	memcpy(&note_off, dump + BLOCK + 48, sizeof(note_off));
	put32(note_off + 4, 16);		/* n_descsz */
	refused(DUMP_SIZE, "the notes (offset_note): the PRSTATUS note at "
		"offset 0 has 16 bytes, not the 336 of x86_64's");
	forge();
	memcpy(dump + 12 + 4 * 65, "aarch64", 7);
	refused(DUMP_SIZE, "the notes (offset_note): the PRSTATUS note at "
		"offset 0 has 336 bytes, not the 392 of arm64's");
}

/* libkdumpfile opens it: what stops kstack is the forged kernel. */
static void test_well_formed(void **state)
{
	struct ks_diskdump_extent ext;
	struct said d = { "", 0 };
	int fd;

	(void)state;
	forge();
	write_dump(DUMP_SIZE);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(ks_diskdump_header_check(fd, DUMP_SIZE, path,
						  &SAID_TO(&d), &ext), 0);
	close(fd);
	assert_int_equal(d.calls, 0);
	assert_true(ext.diskdump);
	assert_int_equal(ext.want_size, DUMP_SIZE);
	assert_true(ext.missing_start == ext.missing_end);
	assert_true(open_it(&d) < 0);
	assert_null(strstr(d.text, "is refused"));
	assert_null(strstr(d.text, "cannot read"));
	assert_null(strstr(d.text, "truncated"));
	assert_non_null(strstr(d.text, "kallsyms"));
}

/* Cut in its pages: read, the pages past the end missing. */
static void test_cut_in_pages(void **state)
{
	struct ks_diskdump_extent ext;
	struct said d = { "", 0 };
	int fd;

	(void)state;
	forge();
	write_dump(DATA_OFF + 10 * BLOCK + 100);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(ks_diskdump_header_check(fd, DATA_OFF + 10 * BLOCK + 100,
						  path, &SAID_TO(&d), &ext), 0);
	close(fd);
	assert_int_equal(ext.want_size, DUMP_SIZE);
	assert_int_equal(ext.missing_start, 10 * BLOCK);
	assert_int_equal(ext.missing_end, PAGES * BLOCK);
	assert_true(open_it(&d) < 0);
	assert_null(strstr(d.text, "is refused"));
	assert_non_null(strstr(d.text, "is truncated: it has 61924 of the "
				       "86400 bytes its headers describe (71%); "
				       "physical memory from 0xa000 is missing"));
}

/* Cut in its page descriptors: those pages are missing too. */
static void test_cut_in_descriptors(void **state)
{
	struct ks_diskdump_extent ext;
	struct said d = { "", 0 };
	int fd;

	(void)state;
	forge();
	write_dump(DESC_OFF + 24 * 3 + 5);
	fd = open(path, O_RDONLY);
	assert_true(fd >= 0);
	assert_int_equal(ks_diskdump_header_check(fd, DESC_OFF + 24 * 3 + 5,
						  path, &SAID_TO(&d), &ext), 0);
	close(fd);
	unlink(path);
	assert_int_equal(ext.missing_start, 0);
	assert_int_equal(ext.missing_end, PAGES * BLOCK);
	assert_int_equal(ext.want_size, DATA_OFF + 3 * BLOCK);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kdump_8_bytes),
		cmocka_unit_test(test_diskdump_8_bytes),
		cmocka_unit_test(test_cut_100),
		cmocka_unit_test(test_desc_size_4097),
		cmocka_unit_test(test_desc_size_65536),
		cmocka_unit_test(test_cut_8000_notes),
		cmocka_unit_test(test_cut_sub_header),
		cmocka_unit_test(test_cut_bitmaps),
		cmocka_unit_test(test_block_size),
		cmocka_unit_test(test_max_mapnr),
		cmocka_unit_test(test_32bit_header),
		cmocka_unit_test(test_machine),
		cmocka_unit_test(test_pagesize),
		cmocka_unit_test(test_note_overrun),
		cmocka_unit_test(test_prstatus_size),
		cmocka_unit_test(test_well_formed),
		cmocka_unit_test(test_cut_in_pages),
		cmocka_unit_test(test_cut_in_descriptors),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
