// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The vmlinux symbol table on a small ELF64 image built here: kallsyms'
 * choice among aliases, its size rule, what it leaves out, the KASLR
 * shift (not for per-CPU symbols) and malformed files.
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

#include "elf_symtab.h"

#define TEXT	0xffffffff81000000ull
#define RODATA	0xffffffff82000000ull
#define KASLR	0x31000000ll

/* Section indexes of the image. */
enum { S_NULL, S_TEXT, S_RODATA, S_PERCPU, S_DEBUG, S_SYMTAB, S_STRTAB,
       S_SHSTRTAB, S_NR };

struct image {
	uint8_t *buf;
	size_t len, cap;
	Elf64_Sym syms[64];
	size_t nr_syms;
	char strtab[2048];
	size_t strtab_len;
};

static size_t append(struct image *im, const void *p, size_t n)
{
	size_t at = (im->len + 7) & ~(size_t)7;

	if (at + n > im->cap) {
		im->cap = (at + n) * 2;
		im->buf = realloc(im->buf, im->cap);
		assert_non_null(im->buf);
	}
	memset(im->buf + im->len, 0, at - im->len);
	if (p)
		memcpy(im->buf + at, p, n);
	else
		memset(im->buf + at, 0, n);
	im->len = at + n;
	return at;
}

static void add_sym(struct image *im, const char *name, uint64_t value,
		    uint16_t shndx, int bind, int type)
{
	Elf64_Sym *s = &im->syms[im->nr_syms++];

	memset(s, 0, sizeof(*s));
	s->st_name = (uint32_t)im->strtab_len;
	strcpy(im->strtab + im->strtab_len, name);
	im->strtab_len += strlen(name) + 1;
	s->st_value = value;
	s->st_shndx = shndx;
	s->st_info = ELF64_ST_INFO(bind, type);
}

static void text(struct image *im, const char *name, uint64_t off, int bind)
{
	add_sym(im, name, TEXT + off, S_TEXT, bind, STT_FUNC);
}

/* The symbols every test sees; offsets are from TEXT. */
static void add_symbols(struct image *im)
{
	im->strtab_len = 1;
	add_sym(im, "", 0, SHN_UNDEF, STB_LOCAL, STT_NOTYPE);
	add_sym(im, "vmlinux.c", 0, SHN_ABS, STB_LOCAL, STT_FILE);
	add_sym(im, ".text", TEXT, S_TEXT, STB_LOCAL, STT_SECTION);
	/* Three names at _stext: the fewest underscores wins. */
	text(im, "_text", 0, STB_GLOBAL);
	text(im, "_stext", 0, STB_GLOBAL);
	text(im, "startup_64", 0, STB_GLOBAL);
	/* A weak function loses to a global one, whatever the names. */
	text(im, "a_weak", 0x100, STB_WEAK);
	text(im, "b_strong", 0x100, STB_GLOBAL);
	/* A weak object is 'V' in nm: kallsyms does not count it as weak. */
	add_sym(im, "b_obj", TEXT + 0x200, S_TEXT, STB_GLOBAL, STT_OBJECT);
	add_sym(im, "a_obj", TEXT + 0x200, S_TEXT, STB_WEAK, STT_OBJECT);
	/* Linker-script names go last: __start_x after __y. */
	text(im, "__start_tbl", 0x300, STB_GLOBAL);
	text(im, "__tbl", 0x300, STB_GLOBAL);
	/* Otherwise name order, local or global. */
	text(im, "zeta", 0x400, STB_GLOBAL);
	text(im, "alpha", 0x400, STB_LOCAL);
	/* Left out by kallsyms, so they never name or end a symbol. */
	text(im, ".LC0", 0x480, STB_LOCAL);
	text(im, "__crc_fn", 0x490, STB_GLOBAL);
	text(im, "__kstrtab_fn", 0x4a0, STB_GLOBAL);
	text(im, "kallsyms_names", 0x4b0, STB_GLOBAL);
	add_sym(im, "abs_sym", TEXT + 0x4c0, SHN_ABS, STB_GLOBAL, STT_NOTYPE);
	add_sym(im, "dbg_sym", TEXT + 0x4d0, S_DEBUG, STB_LOCAL, STT_OBJECT);
	text(im, "after", 0x500, STB_GLOBAL);
	/* A local and a global of one name: symbol() gives the global. */
	text(im, "dup", 0x600, STB_LOCAL);
	text(im, "dup", 0x700, STB_GLOBAL);
	add_sym(im, "linux_banner", RODATA, S_RODATA, STB_GLOBAL, STT_OBJECT);
	add_sym(im, "_end", RODATA + 0x100, S_RODATA, STB_GLOBAL, STT_NOTYPE);
	/* Per-CPU: an offset from 0, not moved by KASLR. */
	add_sym(im, "cpu_number", 0x20, S_PERCPU, STB_GLOBAL, STT_OBJECT);
}

static void shdr(Elf64_Shdr *sh, uint32_t name, uint32_t type, uint64_t flags,
		 uint64_t addr, uint64_t off, uint64_t size)
{
	memset(sh, 0, sizeof(*sh));
	sh->sh_name = name;
	sh->sh_type = type;
	sh->sh_flags = flags;
	sh->sh_addr = addr;
	sh->sh_offset = off;
	sh->sh_size = size;
	sh->sh_addralign = 1;
}

static const char shstr[] =
	"\0.text\0.rodata\0.data..percpu\0.debug_info\0.symtab\0.strtab\0.shstrtab";

static uint32_t shname(const char *name)
{
	size_t i;

	for (i = 0; i < sizeof(shstr); i += strlen(shstr + i) + 1)
		if (!strcmp(shstr + i, name))
			return (uint32_t)i;
	fail();
	return 0;
}

static void build(struct image *im)
{
	static const char banner[] = "Linux version 6.1.0-test (me@here) #1 SMP\n";
	Elf64_Shdr sh[S_NR];
	Elf64_Ehdr eh;
	size_t text_off, ro_off, pc_off, dbg_off, sym_off, str_off, shs_off, sh_off;

	memset(im, 0, sizeof(*im));
	add_symbols(im);
	append(im, NULL, sizeof(eh));
	text_off = append(im, NULL, 0x800);
	ro_off = append(im, banner, sizeof(banner));
	pc_off = append(im, NULL, 0x40);
	dbg_off = append(im, NULL, 0x10);
	sym_off = append(im, im->syms, im->nr_syms * sizeof(Elf64_Sym));
	str_off = append(im, im->strtab, im->strtab_len);
	shs_off = append(im, shstr, sizeof(shstr));

	shdr(&sh[S_NULL], 0, SHT_NULL, 0, 0, 0, 0);
	shdr(&sh[S_TEXT], shname(".text"), SHT_PROGBITS, SHF_ALLOC | SHF_EXECINSTR,
	     TEXT, text_off, 0x800);
	shdr(&sh[S_RODATA], shname(".rodata"), SHT_PROGBITS, SHF_ALLOC, RODATA,
	     ro_off, sizeof(banner));
	shdr(&sh[S_PERCPU], shname(".data..percpu"), SHT_PROGBITS,
	     SHF_ALLOC | SHF_WRITE, 0, pc_off, 0x40);
	shdr(&sh[S_DEBUG], shname(".debug_info"), SHT_PROGBITS, 0, 0, dbg_off, 0x10);
	shdr(&sh[S_SYMTAB], shname(".symtab"), SHT_SYMTAB, 0, 0, sym_off,
	     im->nr_syms * sizeof(Elf64_Sym));
	sh[S_SYMTAB].sh_link = S_STRTAB;
	sh[S_SYMTAB].sh_entsize = sizeof(Elf64_Sym);
	shdr(&sh[S_STRTAB], shname(".strtab"), SHT_STRTAB, 0, 0, str_off,
	     im->strtab_len);
	shdr(&sh[S_SHSTRTAB], shname(".shstrtab"), SHT_STRTAB, 0, 0, shs_off,
	     sizeof(shstr));
	sh_off = append(im, sh, sizeof(sh));

	memset(&eh, 0, sizeof(eh));
	memcpy(eh.e_ident, ELFMAG, SELFMAG);
	eh.e_ident[EI_CLASS] = ELFCLASS64;
	eh.e_ident[EI_DATA] = ELFDATA2LSB;
	eh.e_ident[EI_VERSION] = EV_CURRENT;
	eh.e_type = ET_EXEC;
	eh.e_machine = EM_X86_64;
	eh.e_version = EV_CURRENT;
	eh.e_ehsize = sizeof(eh);
	eh.e_shoff = sh_off;
	eh.e_shentsize = sizeof(Elf64_Shdr);
	eh.e_shnum = S_NR;
	eh.e_shstrndx = S_SHSTRTAB;
	memcpy(im->buf, &eh, sizeof(eh));
}

static int setup(void **state)
{
	struct image *im = malloc(sizeof(*im));

	assert_non_null(im);
	build(im);
	*state = im;
	return 0;
}

static int teardown(void **state)
{
	struct image *im = *state;

	free(im->buf);
	free(im);
	return 0;
}

static struct ks_elf_symtab *load(struct image *im)
{
	struct ks_elf_symtab *tab = NULL;

	assert_int_equal(ks_elf_symtab_load(im->buf, im->len, &tab), 0);
	return tab;
}

static void expect(struct ks_elf_symtab *tab, uint64_t addr, const char *name,
		   uint64_t start, uint64_t size)
{
	struct ks_sym s;

	assert_int_equal(ks_elf_symtab_lookup(tab, addr, &s), 0);
	assert_string_equal(s.name, name);
	assert_int_equal(s.addr, start);
	assert_int_equal(s.size, size);
	assert_null(s.module);
}

static void test_aliases(void **state)
{
	struct ks_elf_symtab *tab = load(*state);

	expect(tab, TEXT, "startup_64", TEXT, 0x100);
	expect(tab, TEXT + 0x1ff, "b_strong", TEXT + 0x100, 0x100);
	expect(tab, TEXT + 0x200, "a_obj", TEXT + 0x200, 0x100);
	expect(tab, TEXT + 0x310, "__tbl", TEXT + 0x300, 0x100);
	expect(tab, TEXT + 0x400, "alpha", TEXT + 0x400, 0x100);
	ks_elf_symtab_free(tab);
}

static void test_left_out(void **state)
{
	struct ks_elf_symtab *tab = load(*state);
	uint64_t addr;

	/* .LC0, __crc_, __kstrtab_, kallsyms_*, absolute, debug: not listed. */
	expect(tab, TEXT + 0x4f0, "alpha", TEXT + 0x400, 0x100);
	/* startup_64 _text _stext a_weak b_strong a_obj b_obj __start_tbl
	 * __tbl zeta alpha after dup dup linux_banner _end cpu_number */
	assert_int_equal(ks_elf_symtab_count(tab), 17);
	/* ... but symbol() still knows them. */
	assert_int_equal(ks_elf_symtab_addr(tab, "kallsyms_names", &addr), 0);
	assert_int_equal(addr, TEXT + 0x4b0);
	assert_int_equal(ks_elf_symtab_addr(tab, "vmlinux.c", &addr), -ENOENT);
	assert_int_equal(ks_elf_symtab_addr(tab, ".text", &addr), -ENOENT);
	assert_int_equal(ks_elf_symtab_addr(tab, "nosuch", &addr), -ENOENT);
	ks_elf_symtab_free(tab);
}

static void test_sizes_and_range(void **state)
{
	struct ks_elf_symtab *tab = load(*state);
	struct ks_sym s;

	expect(tab, TEXT + 0x6ff, "dup", TEXT + 0x600, 0x100);
	/* The last text symbol runs to the next symbol, in .rodata. */
	expect(tab, TEXT + 0x700, "dup", TEXT + 0x700, RODATA - TEXT - 0x700);
	/* The last symbol of all runs to _end. */
	expect(tab, RODATA + 0x10, "linux_banner", RODATA, 0x100);
	/* Outside [_stext, _end] nothing is named. */
	assert_int_equal(ks_elf_symtab_lookup(tab, TEXT - 1, &s), -ENOENT);
	assert_int_equal(ks_elf_symtab_lookup(tab, RODATA + 0x101, &s), -ENOENT);
	ks_elf_symtab_free(tab);
}

static void test_global_wins(void **state)
{
	struct ks_elf_symtab *tab = load(*state);
	uint64_t addr;

	assert_int_equal(ks_elf_symtab_addr(tab, "dup", &addr), 0);
	assert_int_equal(addr, TEXT + 0x700);
	ks_elf_symtab_free(tab);
}

/* name+off/size back to an address: static functions share names. */
static void test_find_sized(void **state)
{
	struct ks_elf_symtab *tab = load(*state);
	uint64_t addr;

	assert_int_equal(ks_elf_symtab_find(tab, "dup", 0x100, &addr), 0);
	assert_int_equal(addr, TEXT + 0x600);
	assert_int_equal(ks_elf_symtab_find(tab, "dup", RODATA - TEXT - 0x700,
					    &addr), 0);
	assert_int_equal(addr, TEXT + 0x700);
	/* size unknown: the global one, then the others */
	assert_int_equal(ks_elf_symtab_find(tab, "dup", 0, &addr), 0);
	assert_int_equal(addr, TEXT + 0x700);
	assert_int_equal(ks_elf_symtab_find_nth(tab, "dup", 0, 1, &addr), 0);
	assert_int_equal(addr, TEXT + 0x600);
	assert_int_equal(ks_elf_symtab_find_nth(tab, "dup", 0, 2, &addr), -ESRCH);
	/* an alias kallsyms prints as b_strong is the same code */
	assert_int_equal(ks_elf_symtab_find(tab, "a_weak", 0x100, &addr), 0);
	assert_int_equal(addr, TEXT + 0x100);
	/* another build's size, a name kallsyms leaves out, none at all */
	assert_int_equal(ks_elf_symtab_find(tab, "dup", 0x42, &addr), -ESRCH);
	assert_int_equal(ks_elf_symtab_find(tab, "a_weak", 0x80, &addr), -ESRCH);
	assert_int_equal(ks_elf_symtab_find(tab, "kallsyms_names", 0, &addr),
			 -ENOENT);
	assert_int_equal(ks_elf_symtab_find(tab, "nosuch", 0, &addr), -ENOENT);
	ks_elf_symtab_set_offset(tab, KASLR);
	assert_int_equal(ks_elf_symtab_find(tab, "b_strong", 0x100, &addr), 0);
	assert_int_equal(addr, TEXT + KASLR + 0x100);
	ks_elf_symtab_free(tab);
}

/* _stext for a KASLR offset, link-time, with no name sorted for it. */
static void test_stext(void **state)
{
	struct ks_elf_symtab *tab = load(*state);

	assert_int_equal(ks_elf_symtab_stext(tab), TEXT);
	ks_elf_symtab_set_offset(tab, KASLR);
	assert_int_equal(ks_elf_symtab_stext(tab), TEXT);
	ks_elf_symtab_free(tab);
}

static void test_kaslr(void **state)
{
	struct ks_elf_symtab *tab = load(*state);
	char buf[16];
	uint64_t addr;

	ks_elf_symtab_set_offset(tab, KASLR);
	assert_int_equal(ks_elf_symtab_addr(tab, "startup_64", &addr), 0);
	assert_int_equal(addr, TEXT + KASLR);
	assert_int_equal(ks_elf_symtab_addr(tab, "cpu_number", &addr), 0);
	assert_int_equal(addr, 0x20);
	expect(tab, TEXT + KASLR + 0x150, "b_strong", TEXT + KASLR + 0x100, 0x100);
	assert_int_equal(ks_elf_read(tab, RODATA + KASLR, buf, 13), 0);
	assert_memory_equal(buf, "Linux version", 13);
	ks_elf_symtab_free(tab);
}

static void test_sections(void **state)
{
	struct ks_elf_symtab *tab = load(*state);
	const char *p;
	char buf[8];
	size_t size;

	p = ks_elf_section(tab, ".rodata", &size);
	assert_non_null(p);
	assert_true(size > 14);
	assert_memory_equal(p, "Linux version", 13);
	assert_null(ks_elf_section(tab, ".BTF", &size));
	/* Past the end of a section, or in no section: -EFAULT. */
	assert_int_equal(ks_elf_read(tab, RODATA + size - 2, buf, 8), -EFAULT);
	assert_int_equal(ks_elf_read(tab, 0x1000, buf, 8), -EFAULT);
	ks_elf_symtab_free(tab);
}

static void test_malformed(void **state)
{
	struct image *im = *state;
	struct ks_elf_symtab *tab;
	uint8_t *copy = malloc(im->len);
	Elf64_Ehdr *eh = (Elf64_Ehdr *)copy;
	Elf64_Shdr *sh;

	assert_non_null(copy);
	memcpy(copy, im->buf, im->len);
	assert_int_equal(ks_elf_symtab_load(copy, 10, &tab), -ENOEXEC);
	eh->e_ident[EI_CLASS] = ELFCLASS32;
	assert_int_equal(ks_elf_symtab_load(copy, im->len, &tab), -ENOEXEC);
	eh->e_ident[EI_CLASS] = ELFCLASS64;
	eh->e_shoff = im->len;
	assert_int_equal(ks_elf_symtab_load(copy, im->len, &tab), -ENOEXEC);

	memcpy(copy, im->buf, im->len);
	sh = (Elf64_Shdr *)(copy + eh->e_shoff);
	sh[S_SYMTAB].sh_type = SHT_PROGBITS;
	assert_int_equal(ks_elf_symtab_load(copy, im->len, &tab), -ENODATA);
	sh[S_SYMTAB].sh_type = SHT_SYMTAB;
	sh[S_STRTAB].sh_size = im->len;		/* runs past the file */
	assert_int_equal(ks_elf_symtab_load(copy, im->len, &tab), -ENOEXEC);
	free(copy);
}

/*
 * .symtab at an offset that is not a multiple of 8: nothing in the
 * file says it must be, and reading Elf64_Sym in place there is
 * undefined (UBSan stopped the tool).
 */
static void test_misaligned_symtab(void **state)
{
	struct image *im = *state;
	struct ks_elf_symtab *tab = NULL;
	uint8_t *copy;
	Elf64_Shdr *sh;
	Elf64_Ehdr eh;
	size_t at, size;

	memcpy(&eh, im->buf, sizeof(eh));
	sh = (Elf64_Shdr *)(im->buf + eh.e_shoff);
	size = sh[S_SYMTAB].sh_size;
	at = ((im->len + 7) & ~(size_t)7) + 4;
	copy = calloc(1, at + size);
	assert_non_null(copy);
	memcpy(copy, im->buf, im->len);
	memcpy(copy + at, im->buf + sh[S_SYMTAB].sh_offset, size);
	sh = (Elf64_Shdr *)(copy + eh.e_shoff);
	sh[S_SYMTAB].sh_offset = at;
	assert_int_equal(ks_elf_symtab_load(copy, at + size, &tab), 0);
	expect(tab, TEXT + 0x10, "startup_64", TEXT, 0x100);
	ks_elf_symtab_free(tab);
	free(copy);
}

static void test_open_file(void **state)
{
	struct image *im = *state;
	struct ks_elf_symtab *tab = NULL;
	char path[] = "/tmp/ks-elf-XXXXXX";
	int fd = mkstemp(path);

	assert_true(fd >= 0);
	assert_int_equal(write(fd, im->buf, im->len), (ssize_t)im->len);
	close(fd);
	assert_int_equal(ks_elf_symtab_open(path, &tab), 0);
	expect(tab, TEXT + 0x10, "startup_64", TEXT, 0x100);
	ks_elf_symtab_free(tab);
	unlink(path);
	assert_int_equal(ks_elf_symtab_open(path, &tab), -ENOENT);
	assert_int_equal(ks_elf_symtab_open("/dev/null", &tab), -ENOEXEC);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_aliases, setup, teardown),
		cmocka_unit_test_setup_teardown(test_left_out, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sizes_and_range, setup, teardown),
		cmocka_unit_test_setup_teardown(test_global_wins, setup, teardown),
		cmocka_unit_test_setup_teardown(test_find_sized, setup, teardown),
		cmocka_unit_test_setup_teardown(test_stext, setup, teardown),
		cmocka_unit_test_setup_teardown(test_kaslr, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sections, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_misaligned_symtab, setup, teardown),
		cmocka_unit_test_setup_teardown(test_open_file, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
