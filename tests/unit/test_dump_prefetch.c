// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readers that fetch an ELF dump's file ahead of the walk
 * (live/vmcore/dump_prefetch.c), on a sparse ELF core written here and
 * dropped from the page cache: a note brings the chunks on either side
 * of the one it names into the page cache, and nothing else; a file that
 * is no ELF core gets no readers.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "dump_prefetch.h"
#include "elf_core_header.h"

#define CHUNK		(8ull << 20)	/* dump_prefetch.c's CHUNK_SHIFT */
#define NR_CHUNKS	12
#define PADDR		0x100000000ull	/* where the PT_LOAD's memory is */
#define LOAD_OFF	CHUNK		/* chunk 0 is the headers' */

/* An ET_CORE file of NR_CHUNKS chunks, one PT_LOAD from chunk 1 on: its fd. */
static int write_core(char *path)
{
	Elf64_Ehdr eh = { 0 };
	Elf64_Phdr ph = { .p_type = PT_LOAD, .p_offset = LOAD_OFF,
			  .p_paddr = PADDR,
			  .p_filesz = (NR_CHUNKS - 1) * CHUNK,
			  .p_memsz = (NR_CHUNKS - 1) * CHUNK };
	int fd;

	ks_test_core_header(&eh, 1, ELFCLASS64);
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, &eh, sizeof(eh)), (ssize_t)sizeof(eh));
	assert_int_equal(write(fd, &ph, sizeof(ph)), (ssize_t)sizeof(ph));
	/* sparse: the page cache holds only what is read */
	assert_int_equal(ftruncate(fd, NR_CHUNKS * CHUNK), 0);
	assert_int_equal(fsync(fd), 0);
	assert_int_equal(posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED), 0);
	return fd;
}

/* How many pages of chunk c are in the page cache. */
static size_t resident(const void *map, size_t c)
{
	size_t pages = CHUNK / 4096, n = 0;
	unsigned char vec[CHUNK / 4096];

	assert_int_equal(mincore((char *)map + c * CHUNK, CHUNK, vec), 0);
	for (size_t i = 0; i < pages; i++)
		n += vec[i] & 1;
	return n;
}

/* Waits (10 s at most) until chunk c is whole in the page cache. */
static bool wait_whole(const void *map, size_t c)
{
	struct timespec tick = { 0, 10 * 1000 * 1000 };

	for (int i = 0; i < 1000; i++) {
		if (resident(map, c) == CHUNK / 4096)
			return true;
		nanosleep(&tick, NULL);
	}
	return false;
}

/* A fresh core, mapped for mincore(), its readers started. */
struct fixture {
	char path[64];
	int fd;
	void *map;
	struct ks_dump_prefetch *pf;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	strcpy(f->path, "/tmp/test_dump_prefetch.XXXXXX");
	f->fd = write_core(f->path);
	f->map = mmap(NULL, NR_CHUNKS * CHUNK, PROT_READ, MAP_SHARED, f->fd, 0);
	assert_true(f->map != MAP_FAILED);
	for (size_t c = 0; c < NR_CHUNKS; c++)
		assert_int_equal(resident(f->map, c), 0);
	assert_int_equal(ks_dump_prefetch_start(f->fd, &f->pf), 0);
	assert_non_null(f->pf);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ks_dump_prefetch_stop(f->pf);	/* the test stopped it: NULL */
	munmap(f->map, NR_CHUNKS * CHUNK);
	close(f->fd);
	unlink(f->path);
	free(f);
	return 0;
}

static void test_reads_around(void **state)
{
	struct fixture *f = *state;

	/* not in the PT_LOAD: nothing to read */
	ks_dump_prefetch_note(f->pf, PADDR - 4096);
	ks_dump_prefetch_note(f->pf, PADDR + NR_CHUNKS * CHUNK);
	/* chunk 6 of the file: the readers fetch 4, 5, 7 and 8 */
	ks_dump_prefetch_note(f->pf, PADDR + 5 * CHUNK + 0x1234);
	for (size_t c = 4; c <= 8; c++)
		if (c != 6)
			assert_true(wait_whole(f->map, c));
	/* again in the same chunk: no more */
	ks_dump_prefetch_note(f->pf, PADDR + 5 * CHUNK + 0x5000);
	ks_dump_prefetch_stop(f->pf);
	f->pf = NULL;
	/* chunk 6 is the walk's own to read, the others nobody's (0: headers) */
	for (size_t c = 1; c < NR_CHUNKS; c++)
		if (c < 4 || c > 8 || c == 6)
			assert_int_equal(resident(f->map, c), 0);
}

static void test_edges(void **state)
{
	struct fixture *f = *state;

	/* the last chunk: only 10 and 9 lie around it in the file */
	ks_dump_prefetch_note(f->pf, PADDR + (NR_CHUNKS - 2) * CHUNK);
	assert_true(wait_whole(f->map, NR_CHUNKS - 2));
	assert_true(wait_whole(f->map, NR_CHUNKS - 3));
	ks_dump_prefetch_stop(f->pf);
	f->pf = NULL;
	assert_int_equal(resident(f->map, NR_CHUNKS - 1), 0);
	assert_int_equal(resident(f->map, NR_CHUNKS - 4), 0);
}

static void test_not_a_core(void **state)
{
	char path[] = "/tmp/test_dump_prefetch.XXXXXX";
	struct ks_dump_prefetch *pf = (void *)1;
	int fd;

	(void)state;
	fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "KDUMP   ", 8), 8);
	assert_int_equal(ftruncate(fd, 1 << 20), 0);
	assert_int_equal(ks_dump_prefetch_start(fd, &pf), -ENOEXEC);
	assert_null(pf);
	/* a target without readers calls these all the same */
	ks_dump_prefetch_note(NULL, PADDR);
	ks_dump_prefetch_stop(NULL);
	close(fd);
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_reads_around, setup, teardown),
		cmocka_unit_test_setup_teardown(test_edges, setup, teardown),
		cmocka_unit_test(test_not_a_core),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
