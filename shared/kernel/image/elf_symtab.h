/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The symbol table of a vmlinux ELF file, as kallsyms would list it.
 *
 * A vmcore carries no symbol names of its own that are cheap to read, so
 * the standalone vmcore mode names addresses from the vmlinux's .symtab.
 * The file is mapped, not read: a debug vmlinux is about 590 MB and only
 * .symtab, .strtab, .BTF and a few .rodata bytes are ever touched.
 *
 * Addresses here are link-time addresses; a KASLR offset given with
 * ks_elf_symtab_set_offset() is added to every symbol of the kernel image
 * (not to per-CPU symbols, which kallsyms keeps absolute).
 */
#ifndef KS_ELF_SYMTAB_H
#define KS_ELF_SYMTAB_H

#include <stddef.h>
#include <stdint.h>

#include "target.h"

struct ks_elf_symtab;

/*
 * Maps path and reads its symbols.  Returns 0, or -errno: -ENOEXEC for a
 * file that is not a little-endian ELF64, -ENODATA without .symtab (a
 * stripped file), else open()'s error.
 */
int ks_elf_symtab_open(const char *path, struct ks_elf_symtab **tab_ret);
/* The same from an image in memory, which must outlive the table. */
int ks_elf_symtab_load(const void *image, size_t size,
		       struct ks_elf_symtab **tab_ret);
void ks_elf_symtab_free(struct ks_elf_symtab *tab);

/*
 * The link-time address of _stext, found while loading (0: none): what
 * a KASLR offset is measured from, without sorting every name to ask.
 */
uint64_t ks_elf_symtab_stext(const struct ks_elf_symtab *tab);

/* KASLR: the runtime address minus the link-time address of _stext. */
void ks_elf_symtab_set_offset(struct ks_elf_symtab *tab, int64_t offset);

/* How many symbols kallsyms would list. */
size_t ks_elf_symtab_count(const struct ks_elf_symtab *tab);

/*
 * The symbol containing the runtime address addr, named as kallsyms
 * names it (the first of several aliases in kallsyms' order) and sized
 * by the distance to the next higher address.  sym_ret->name points into
 * the mapping.  -ENOENT outside the kernel image.
 */
int ks_elf_symtab_lookup(const struct ks_elf_symtab *tab, uint64_t addr,
			 struct ks_sym *sym_ret);

/* The runtime address of name; a global wins over a local of that name. */
int ks_elf_symtab_addr(const struct ks_elf_symtab *tab, const char *name,
		       uint64_t *addr_ret);

/*
 * The runtime address of the symbol that kallsyms prints as name+off/size:
 * of the symbols called name (static functions share names), the one
 * kallsyms sizes so (size 0: any; the global one first).  An alias
 * kallsyms would print under another name counts.  -ENOENT without such
 * a name, -ESRCH when no symbol of that name has that size (the text
 * came from another build).
 */
int ks_elf_symtab_find(const struct ks_elf_symtab *tab, const char *name,
		       uint64_t size, uint64_t *addr_ret);
/* The same, the nth such symbol (0 first): for a name shared by several. */
int ks_elf_symtab_find_nth(const struct ks_elf_symtab *tab, const char *name,
			   uint64_t size, unsigned int nth, uint64_t *addr_ret);

/* The bytes of section name in the file, or NULL (no such section, NOBITS). */
const void *ks_elf_section(const struct ks_elf_symtab *tab, const char *name,
			   size_t *size_ret);

/*
 * Copies len bytes the file holds for the runtime address addr (an
 * initialized section).  -EFAULT when they are not all in one section.
 */
int ks_elf_read(const struct ks_elf_symtab *tab, uint64_t addr, void *buf,
		size_t len);

#endif /* KS_ELF_SYMTAB_H */
