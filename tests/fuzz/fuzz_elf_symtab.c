// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/kernel/image/elf_symtab.c on the input as a vmlinux image: headers, .symtab
 * and .strtab, kallsyms' order, then lookups by address (the last eight
 * bytes of the input are one more address to look up, so that the fuzzer
 * steers them) and by name, with and without a KASLR offset.
 */
#include "elf_symtab.h"
#include "fuzz.h"

/* A name that lookup gave must be found by name, at a listed symbol. */
static void by_name(const struct ks_elf_symtab *tab, const struct ks_sym *s)
{
	uint64_t addr;

	fuzz_assert(!ks_elf_symtab_addr(tab, s->name, &addr));
	ks_elf_symtab_find(tab, s->name, s->size, &addr);
	ks_elf_symtab_find_nth(tab, s->name, 0, 1, &addr);
}

static void around(const struct ks_elf_symtab *tab, uint64_t addr, bool kaslr)
{
	static const int64_t deltas[] = { 0, 1, -1, 0x10, 0x1000 };
	struct ks_sym s;
	uint8_t bytes[16];

	for (size_t i = 0; i < sizeof(deltas) / sizeof(deltas[0]); i++) {
		uint64_t a = addr + (uint64_t)deltas[i];

		if (ks_elf_symtab_lookup(tab, a, &s))
			continue;
		fuzz_assert(!s.module && (kaslr || s.addr <= a));
		by_name(tab, &s);
		ks_elf_read(tab, s.addr, bytes, sizeof(bytes));
		if (s.size && s.size <= sizeof(bytes))
			ks_elf_read(tab, s.addr, bytes, (size_t)s.size);
	}
}

static void lookups(const struct ks_elf_symtab *tab, uint64_t tail, bool kaslr)
{
	static const char *const names[] = { "_stext", "_etext", "_end",
		"linux_banner", "__start_BTF", "kernel_init" };
	uint64_t addr;
	size_t size;

	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!ks_elf_symtab_addr(tab, names[i], &addr))
			around(tab, addr, kaslr);
	around(tab, tail, kaslr);
	ks_elf_section(tab, ".BTF", &size);
	ks_elf_section(tab, ".rodata", &size);
	ks_elf_symtab_count(tab);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct ks_elf_symtab *tab = NULL;
	uint64_t tail = 0;
	void *image;

	if (size >= 8)
		memcpy(&tail, data + size - 8, 8);
	/* the mapping of a real file is page-aligned: keep the headers aligned */
	image = malloc(size ? size : 1);
	if (!image)
		abort();
	memcpy(image, data, size);
	if (!ks_elf_symtab_load(image, size, &tab)) {
		lookups(tab, tail, false);
		ks_elf_symtab_set_offset(tab, 0x2a000000);
		lookups(tab, tail, true);
		ks_elf_symtab_free(tab);
	}
	free(image);
	return 0;
}
