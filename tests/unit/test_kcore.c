// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/kcore read as fs/proc/kcore.c writes it, on a file made here: an
 * ELF64 core with a PT_NOTE (a CORE note, then VMCOREINFO) and two PT_LOAD
 * segments of kernel virtual memory that a read may span.  Its VMCOREINFO
 * is read by shared/kernel/vmcoreinfo.c, as kcore_target.c reads it.
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

#include "kcore.h"
#include "elf_core_header.h"
#include "vmcoreinfo.h"

#define TEXT	0xffffffff81000000ull
#define DMAP	0xffff888000000000ull

static const char info[] =
	"OSRELEASE=6.1.0-56-cloud-amd64\nSYMBOL(_stext)=ffffffff81000000\n"
	"KERNELOFFSET=0\nSYMBOL(kallsyms_names)=ffffffff82000000\n"
	"NUMBER(pgtable_l5_enabled)=1\nNUMBER(sme_mask)=140737488355328\n"
	"NUMBER(neg)=-2\nNUMBER(bad)=x1\nNUMBER(tail)=12x\n"
	"SYMBOL(init_top_pgt)=fffffff:fb7a10000\n";

static void put_note(FILE *f, const char *name, const void *desc, size_t len)
{
	Elf64_Nhdr nh = { strlen(name) + 1, len, 0 };
	static const char pad[4];

	fwrite(&nh, sizeof(nh), 1, f);
	fwrite(name, nh.n_namesz, 1, f);
	fwrite(pad, (4 - nh.n_namesz % 4) % 4, 1, f);
	fwrite(desc, len, 1, f);
	fwrite(pad, (4 - len % 4) % 4, 1, f);
}

/* Writes the file; returns its path in buf. */
static void make_kcore(char *path, size_t len)
{
	Elf64_Ehdr eh = { 0 };
	Elf64_Phdr ph[3] = { { 0 } };
	char prstatus[16] = "regs";
	uint8_t text[0x100], dmap[0x100];
	long notes, data;
	int fd;
	FILE *f;

	snprintf(path, len, "/tmp/kstack-test-kcore.XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	f = fdopen(fd, "w+");
	ks_test_core_header(&eh, 3, ELFCLASS64);
	fwrite(&eh, sizeof(eh), 1, f);
	fwrite(ph, sizeof(ph), 1, f);
	notes = ftell(f);
	put_note(f, "CORE", prstatus, sizeof(prstatus));
	put_note(f, "VMCOREINFO", info, sizeof(info) - 1);
	data = ftell(f);
	for (int i = 0; i < 0x100; i++) {
		text[i] = (uint8_t)i;
		dmap[i] = (uint8_t)(0xff - i);
	}
	fwrite(text, sizeof(text), 1, f);
	fwrite(dmap, sizeof(dmap), 1, f);
	ph[0] = (Elf64_Phdr){ .p_type = PT_NOTE, .p_offset = (uint64_t)notes,
			      .p_filesz = (uint64_t)(data - notes) };
	/* the text ends where the direct map begins: one read may span both */
	ph[1] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_offset = (uint64_t)data,
			      .p_vaddr = TEXT, .p_filesz = 0x100, .p_memsz = 0x100 };
	ph[2] = (Elf64_Phdr){ .p_type = PT_LOAD, .p_offset = (uint64_t)data + 0x100,
			      .p_vaddr = TEXT + 0x100, .p_filesz = 0x100,
			      .p_memsz = 0x100 };
	fseek(f, sizeof(eh), SEEK_SET);
	fwrite(ph, sizeof(ph), 1, f);
	fclose(f);
}

static void test_read(void **state)
{
	struct ks_kcore *kc;
	char path[64];
	uint8_t buf[0x20];

	(void)state;
	make_kcore(path, sizeof(path));
	assert_int_equal(ks_kcore_open(path, &kc), 0);
	assert_int_equal(ks_kcore_read(kc, TEXT + 0x10, buf, 4), 0);
	assert_int_equal(buf[0], 0x10);
	assert_int_equal(buf[3], 0x13);
	/* across the two segments */
	assert_int_equal(ks_kcore_read(kc, TEXT + 0xf0, buf, 0x20), 0);
	assert_int_equal(buf[0], 0xf0);
	assert_int_equal(buf[0x10], 0xff);
	assert_int_equal(ks_kcore_read(kc, TEXT + 0x1f0, buf, 0x20), -EFAULT);
	assert_int_equal(ks_kcore_read(kc, DMAP, buf, 1), -EFAULT);
	assert_int_equal(strncmp(ks_kcore_vmcoreinfo(kc, "SYMBOL(_stext)"),
				 "ffffffff81000000\n", 17), 0);
	assert_int_equal(strncmp(ks_kcore_vmcoreinfo(kc, "OSRELEASE"),
				 "6.1.0-56-cloud-amd64\n", 21), 0);
	assert_null(ks_kcore_vmcoreinfo(kc, "SYMBOL(_st"));
	assert_null(ks_kcore_vmcoreinfo(kc, "NUMBER(phys_base)"));
	ks_kcore_close(kc);
	unlink(path);
}

/* The keys and their bases as the kernel writes them. */
static void test_vmcoreinfo(void **state)
{
	struct ks_kallsyms_mem_addrs a;
	struct ks_paging pg = { 0 };
	struct ks_vmcoreinfo vi = { .line = ks_kcore_vmcoreinfo_line };
	struct ks_kcore *kc;
	char path[64];
	int64_t v;

	(void)state;
	make_kcore(path, sizeof(path));
	assert_int_equal(ks_kcore_open(path, &kc), 0);
	vi.arg = kc;
	ks_vmcoreinfo_kallsyms(&vi, &a);
	assert_int_equal(a.names, 0xffffffff82000000ull);
	assert_int_equal(a.stext, 0xffffffff81000000ull);
	assert_int_equal(a.num_syms, 0);
	ks_vmcoreinfo_paging(&vi, &pg);
	assert_int_equal(pg.levels, 5);
	assert_int_equal(pg.me_mask, 1ull << 47);
	assert_int_equal(ks_vmcoreinfo_number(&vi, "NUMBER(neg)", 10, &v), 0);
	assert_int_equal(v, -2);
	assert_int_equal(ks_vmcoreinfo_number(&vi, "NUMBER(bad)", 10, &v), -ENOENT);
	assert_int_equal(ks_vmcoreinfo_number(&vi, "NUMBER(none)", 10, &v), -ENOENT);
	/* a value is the whole line: its first digits are no number */
	assert_int_equal(ks_vmcoreinfo_number(&vi, "NUMBER(tail)", 10, &v), -ENOENT);
	assert_int_equal(ks_vmcoreinfo_symbol(&vi, "init_top_pgt"), 0);
	ks_kcore_close(kc);
	unlink(path);
}

static void test_refused(void **state)
{
	struct ks_kcore *kc;
	char path[] = "/tmp/kstack-test-notcore.XXXXXX";
	int fd = mkstemp(path);

	(void)state;
	assert_true(fd >= 0);
	assert_int_equal(write(fd, "not an ELF core file at all, sorry\n", 35), 35);
	close(fd);
	assert_int_equal(ks_kcore_open(path, &kc), -ENOEXEC);
	unlink(path);
	assert_int_equal(ks_kcore_open("/nonexistent/kcore", &kc), -ENOENT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_read),
		cmocka_unit_test(test_vmcoreinfo),
		cmocka_unit_test(test_refused),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
