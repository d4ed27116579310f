// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An ELF dump's physical memory through a mapping of its file
 * (shared/kernel/image/elf_memory.c), on files written here: segments
 * out of order, a zero-filled tail, a file cut short, overlapping
 * segments (the first answers, as in crash) and files that are no ELF
 * core.  What the file does not
 * hold must be -ENOENT, for crash's own reader.
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "elf_memory.h"
#include "elf_core_header.h"

#define DATA_OFF	0x1000u

struct seg {
	uint32_t type;
	uint64_t paddr, filesz, memsz;
};

/*
 * An ET_CORE file whose segments follow each other from DATA_OFF, byte
 * i of the data being (i * 7) & 0xff; cut bytes shorter than that.
 */
static void write_core(char *path, const struct seg *segs, size_t nr,
		       size_t cut, uint16_t machine_class)
{
	Elf64_Ehdr eh = { 0 };
	uint64_t off = DATA_OFF, end;
	uint8_t *file;
	int fd;

	ks_test_core_header(&eh, (uint16_t)nr, (uint8_t)machine_class);
	for (size_t i = 0; i < nr; i++)
		off += segs[i].filesz;
	end = off - cut;
	file = calloc(1, off);
	assert_non_null(file);
	memcpy(file, &eh, sizeof(eh));
	off = DATA_OFF;
	for (size_t i = 0; i < nr; i++) {
		Elf64_Phdr ph = { .p_type = segs[i].type, .p_offset = off,
				  .p_paddr = segs[i].paddr,
				  .p_filesz = segs[i].filesz,
				  .p_memsz = segs[i].memsz };

		memcpy(file + sizeof(eh) + i * sizeof(ph), &ph, sizeof(ph));
		off += segs[i].filesz;
	}
	for (uint64_t i = DATA_OFF; i < off; i++)
		file[i] = (uint8_t)((i - DATA_OFF) * 7);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, file, end), (ssize_t)end);
	close(fd);
	free(file);
}

/* The byte the file holds for data offset i. */
static uint8_t at(uint64_t i)
{
	return (uint8_t)(i * 7);
}

/*
 * In file order: a note, B at 0x10000 (0x1000 bytes), A at 0x1000
 * (0x2000 bytes, 0x3000 in memory), C at 0x20000 of which the file lost
 * its last 0x800 bytes.
 */
static const struct seg layout[] = {
	{ PT_NOTE, 0, 0x100, 0x100 },
	{ PT_LOAD, 0x10000, 0x1000, 0x1000 },
	{ PT_LOAD, 0x1000, 0x2000, 0x3000 },
	{ PT_LOAD, 0x20000, 0x1000, 0x1000 },
};

static void test_reads(void **state)
{
	char path[] = "/tmp/test_elf_memory.XXXXXX";
	struct ks_elf_memory *m;
	uint8_t b[64];

	(void)state;
	write_core(path, layout, 4, 0x800, ELFCLASS64);
	assert_int_equal(ks_elf_memory_open(path, &m), 0);
	unlink(path);
	/* A: data offset 0x1100 (after the note and B) */
	assert_int_equal(ks_elf_memory_read(m, 0x1010, b, 16), 0);
	for (int i = 0; i < 16; i++)
		assert_int_equal(b[i], at(0x1100 + 0x10 + (uint64_t)i));
	/* B, found though listed before A */
	assert_int_equal(ks_elf_memory_read(m, 0x10ff0, b, 16), 0);
	assert_int_equal(b[0], at(0x100 + 0xff0));
	/* the last bytes of A, and one more: that one is crash's */
	assert_int_equal(ks_elf_memory_read(m, 0x2ff0, b, 16), 0);
	assert_int_equal(ks_elf_memory_read(m, 0x2ff0, b, 17), -ENOENT);
	/* A's zero-filled tail, between segments, below, above */
	assert_int_equal(ks_elf_memory_read(m, 0x3100, b, 8), -ENOENT);
	assert_int_equal(ks_elf_memory_read(m, 0x8000, b, 8), -ENOENT);
	assert_int_equal(ks_elf_memory_read(m, 0x0, b, 8), -ENOENT);
	assert_int_equal(ks_elf_memory_read(m, 0x40000, b, 8), -ENOENT);
	/* C: what the file still holds, and not a byte past it */
	assert_int_equal(ks_elf_memory_read(m, 0x207f0, b, 16), 0);
	assert_int_equal(b[15], at(0x3100 + 0x7ff));
	assert_int_equal(ks_elf_memory_read(m, 0x207f8, b, 16), -ENOENT);
	assert_int_equal(ks_elf_memory_read(m, 0x20800, b, 1), -ENOENT);
	ks_elf_memory_close(m);
}

/*
 * Overlapping segments (QEMU's paging dumps map memory twice): the first
 * in program-header order answers, as crash's read_netdump() does, and
 * its zero-filled tail hides the later one.  A at 0x2000 (0x1000 bytes,
 * 0x2000 in memory), then B at 0x1000 (0x4000 bytes) under it.
 */
static void test_overlap(void **state)
{
	static const struct seg overlap[] = {
		{ PT_LOAD, 0x2000, 0x1000, 0x2000 },
		{ PT_LOAD, 0x1000, 0x4000, 0x4000 },
	};
	char path[] = "/tmp/test_elf_memory.XXXXXX";
	struct ks_elf_memory *m;
	uint8_t b[16];

	(void)state;
	write_core(path, overlap, 2, 0, ELFCLASS64);
	assert_int_equal(ks_elf_memory_open(path, &m), 0);
	unlink(path);
	/* B below A */
	assert_int_equal(ks_elf_memory_read(m, 0x1000, b, 16), 0);
	assert_int_equal(b[0], at(0x1000));
	assert_int_equal(b[15], at(0x1000 + 15));
	/* A, not the B under it */
	assert_int_equal(ks_elf_memory_read(m, 0x2000, b, 16), 0);
	assert_int_equal(b[0], at(0));
	assert_int_equal(ks_elf_memory_read(m, 0x2ff0, b, 16), 0);
	assert_int_equal(b[15], at(0xfff));
	/* A's zero-filled tail: crash's reader zero-fills it, not B */
	assert_int_equal(ks_elf_memory_read(m, 0x3000, b, 8), -ENOENT);
	assert_int_equal(ks_elf_memory_read(m, 0x3ff8, b, 8), -ENOENT);
	/* B again past A */
	assert_int_equal(ks_elf_memory_read(m, 0x4000, b, 16), 0);
	assert_int_equal(b[0], at(0x1000 + 0x3000));
	assert_int_equal(ks_elf_memory_read(m, 0x4ff0, b, 16), 0);
	assert_int_equal(b[15], at(0x1000 + 0x3fff));
	/* across B and A: two places in the file */
	assert_int_equal(ks_elf_memory_read(m, 0x1ff8, b, 16), -ENOENT);
	assert_int_equal(ks_elf_memory_read(m, 0x5000, b, 1), -ENOENT);
	ks_elf_memory_close(m);
}

static void test_refused(void **state)
{
	static const struct seg notes_only[] = {
		{ PT_NOTE, 0, 0x100, 0x100 },
	};
	char path[] = "/tmp/test_elf_memory.XXXXXX";
	struct ks_elf_memory *m;
	FILE *f;

	(void)state;
	write_core(path, notes_only, 1, 0, ELFCLASS64);
	assert_int_equal(ks_elf_memory_open(path, &m), -ENOEXEC);
	assert_null(m);
	unlink(path);
	strcpy(path, "/tmp/test_elf_memory.XXXXXX");
	write_core(path, layout, 4, 0, ELFCLASS32);
	assert_int_equal(ks_elf_memory_open(path, &m), -ENOEXEC);
	unlink(path);
	/* program headers the file cannot hold: refused before allocating */
	strcpy(path, "/tmp/test_elf_memory.XXXXXX");
	write_core(path, layout, 4, 0x5100 - 100, ELFCLASS64);
	assert_int_equal(ks_elf_memory_open(path, &m), -ENOEXEC);
	unlink(path);
	/* a compressed kdump, as far as the header goes */
	strcpy(path, "/tmp/test_elf_memory.XXXXXX");
	assert_true(mkstemp(path) >= 0);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("KDUMP   ", f);
	fclose(f);
	assert_int_equal(ks_elf_memory_open(path, &m), -ENOEXEC);
	unlink(path);
	assert_int_equal(ks_elf_memory_open("/nonexistent/vmcore", &m), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_reads),
		cmocka_unit_test(test_overlap),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
