// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The NT_PRSTATUS notes of an ELF core file (shared/kernel/image/
 * elf_notes.c), on files written here: two PT_NOTE segments with other
 * notes between, a note that overruns its segment, PN_XNUM program
 * headers, and files that are no ELF core.
 */
#include <elf.h>
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include "elf_notes.h"

#define DESC	16

struct buf {
	uint8_t b[4096];
	size_t len;
};

static void put(struct buf *f, const void *p, size_t len)
{
	assert_true(f->len + len <= sizeof(f->b));
	memcpy(f->b + f->len, p, len);
	f->len += len;
}

/* A note named name of type, its descriptor DESC bytes of tag. */
static void note(struct buf *f, const char *name, uint32_t type, uint8_t tag)
{
	Elf64_Nhdr nh = { (uint32_t)strlen(name) + 1, DESC, type };
	uint8_t pad[8] = { 0 }, desc[DESC];

	put(f, &nh, sizeof(nh));
	put(f, name, nh.n_namesz);
	put(f, pad, (4 - nh.n_namesz % 4) % 4);
	memset(desc, tag, sizeof(desc));
	put(f, desc, sizeof(desc));
}

static void write_file(char *path, const struct buf *f)
{
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, f->b, f->len), (ssize_t)f->len);
	close(fd);
}

/*
 * An ET_CORE file: its headers, then seg[0] and seg[1] as PT_NOTE
 * segments; with xnum, e_phnum is PN_XNUM and section 0 counts them.
 */
static void core_file(char *path, const struct buf seg[2], bool xnum)
{
	Elf64_Ehdr eh = {
		.e_ident = { ELFMAG0, ELFMAG1, ELFMAG2, ELFMAG3, ELFCLASS64,
			     ELFDATA2LSB, EV_CURRENT },
		.e_type = ET_CORE, .e_machine = EM_X86_64, .e_version = EV_CURRENT,
		.e_phoff = sizeof(Elf64_Ehdr), .e_ehsize = sizeof(Elf64_Ehdr),
		.e_phentsize = sizeof(Elf64_Phdr), .e_phnum = 2,
	};
	Elf64_Shdr sh0 = { .sh_info = 2 };
	Elf64_Phdr ph[2];
	struct buf f = { .len = 0 };
	uint64_t off = sizeof(eh) + sizeof(ph) + (xnum ? sizeof(sh0) : 0);

	if (xnum) {
		eh.e_phnum = PN_XNUM;
		eh.e_shoff = sizeof(eh) + sizeof(ph);
		eh.e_shentsize = sizeof(sh0);
		eh.e_shnum = 1;
	}
	for (int i = 0; i < 2; i++) {
		ph[i] = (Elf64_Phdr){ .p_type = PT_NOTE, .p_offset = off,
				      .p_filesz = seg[i].len };
		off += seg[i].len;
	}
	put(&f, &eh, sizeof(eh));
	put(&f, ph, sizeof(ph));
	if (xnum)
		put(&f, &sh0, sizeof(sh0));
	put(&f, seg[0].b, seg[0].len);
	put(&f, seg[1].b, seg[1].len);
	write_file(path, &f);
}

static uint8_t tag_of(const Elf64_Nhdr *nh)
{
	return ((const uint8_t *)nh)[sizeof(*nh) + 8];
}

static void two_segments(bool xnum)
{
	struct buf seg[2] = { { .len = 0 }, { .len = 0 } };
	Elf64_Nhdr cut = { 5, 4096, NT_PRSTATUS };
	char path[] = "/tmp/test_elf_notes.XXXXXX";
	struct ks_elf_notes *n;

	note(&seg[0], "CORE", NT_PRSTATUS, 0xa0);
	note(&seg[0], "VMCOREINFO", 0, 0xee);
	note(&seg[0], "CORE", NT_PRSTATUS, 0xa1);
	note(&seg[1], "LINUX", NT_PRSTATUS, 0xee);	/* not CORE's */
	note(&seg[1], "CORE", NT_PRSTATUS, 0xa2);
	/* a note past its segment's end ends the segment */
	put(&seg[1], &cut, sizeof(cut));
	put(&seg[1], "CORE\0\0\0", 8);
	core_file(path, seg, xnum);
	assert_int_equal(ks_elf_notes_read(path, &n), 0);
	unlink(path);
	assert_int_equal(ks_elf_notes_count(n), 3);
	for (size_t i = 0; i < 3; i++)
		assert_int_equal(tag_of(ks_elf_notes_prstatus(n, i)), 0xa0 + i);
	assert_null(ks_elf_notes_prstatus(n, 3));
	ks_elf_notes_free(n);
}

static void test_in_file_order(void **state)
{
	(void)state;
	two_segments(false);
}

static void test_pn_xnum(void **state)
{
	(void)state;
	two_segments(true);
}

static void test_not_a_core(void **state)
{
	struct buf f = { .len = 0 };
	char path[] = "/tmp/test_elf_notes.XXXXXX";
	struct ks_elf_notes *n = (void *)1;

	(void)state;
	put(&f, "KDUMP   not an ELF file at all, a compressed kdump maybe", 56);
	write_file(path, &f);
	assert_int_equal(ks_elf_notes_read(path, &n), -ENOEXEC);
	assert_null(n);
	unlink(path);
	assert_int_equal(ks_elf_notes_read("/nonexistent/vmcore", &n), -ENOENT);
	assert_int_equal(ks_elf_notes_count(NULL), 0);
	assert_null(ks_elf_notes_prstatus(NULL, 0));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_in_file_order),
		cmocka_unit_test(test_pn_xnum),
		cmocka_unit_test(test_not_a_core),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
