// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The line and the inlined functions at an address, the way addr2line -f
 * -i and eu-addr2line -i find them: the line table for where the code is,
 * then the function DIEs nested around the address in the CU, each
 * inlined one with the DW_AT_call_file and DW_AT_call_line of its call in
 * the function around it.  Paths lose the build's source directory, found
 * as decode_stacktrace.sh finds it: where kernel_init's init/main.c lies
 * (and for assembler files where entry_SYSCALL_64's entry_64.S lies).
 */
#ifndef KS_NO_LIBDW
#include <stdlib.h>
#include <string.h>

#include <dwarf.h>

#include "lines_obj.h"

#define MAX_CHAIN	32

static bool is_function(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_entry_point;
}

static const char *strip_one(const char *prefix, const char *file)
{
	size_t n = prefix ? strlen(prefix) : 0;

	return n && !strncmp(file, prefix, n) ? file + n : file;
}

static const char *strip_prefix(const struct ks_lines *l, const char *file)
{
	const char *rel;

	if (!file)
		return file;
	rel = strip_one(l->prefix, file);
	return rel != file ? rel : strip_one(l->asm_prefix, file);
}

/* The call site of the inlined function die, in its caller. */
static void call_site(const struct ks_lines *l, Dwarf_Die *die,
		      struct ks_line_loc *loc)
{
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Word val;
	Dwarf_Die cu;

	loc->file = NULL;
	loc->line = 0;
	if (dwarf_diecu(die, &cu, NULL, NULL) &&
	    !dwarf_getsrcfiles(&cu, &files, NULL) &&
	    !dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &val))
		loc->file = strip_prefix(l, dwarf_filesrc(files, val, NULL, NULL));
	if (!dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &val))
		loc->line = (int)val;
}

/* The CU holding pc, and the bias from symbol to DWARF addresses. */
static bool find_cu(const struct ks_lines_obj *o, Dwarf_Addr pc, Dwarf_Die *cu,
		    Dwarf_Addr *bias)
{
	Dwarf_Die *d;

	if (!o->mod) {
		*bias = o->bias;
		return dwarf_addrdie(o->dw, pc - o->bias, cu) != NULL;
	}
	d = dwfl_module_addrdie(o->mod, pc, bias);
	if (!d)
		return false;
	*cu = *d;
	return true;
}

/* Tags of DIEs whose address ranges may hold code (and other scopes). */
static bool may_hold_pc(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram: case DW_TAG_inlined_subroutine:
	case DW_TAG_lexical_block: case DW_TAG_entry_point:
	case DW_TAG_namespace: case DW_TAG_module: case DW_TAG_with_stmt:
	case DW_TAG_try_block: case DW_TAG_catch_block:
		return true;
	default:
		return false;
	}
}

/*
 * The function DIEs around pc, innermost first, as nested in the CU: one
 * walk down, where dwarf_getscopes() + dwarf_getscopes_die(), as
 * eu-addr2line does it, walk the CU three times.
 */
static int function_scopes(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *out,
			   int max)
{
	Dwarf_Die die = *cu, child, tmp;
	int nr = 0, i;
	bool found;

	while (nr < max && dwarf_child(&die, &child) == 0) {
		found = false;
		do {
			if (may_hold_pc(dwarf_tag(&child)) &&
			    dwarf_haspc(&child, pc) > 0) {
				found = true;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!found)
			break;
		if (is_function(&child))
			out[nr++] = child;
		die = child;
	}
	for (i = 0; i < nr / 2; i++) {
		tmp = out[i];
		out[i] = out[nr - 1 - i];
		out[nr - 1 - i] = tmp;
	}
	/* a nested out-of-line function would end the chain: keep from it in */
	for (i = 0; i < nr; i++)
		if (dwarf_tag(&out[i]) != DW_TAG_inlined_subroutine)
			return i + 1;
	return nr;
}

struct ks_line_chain *ks_lines_chain_at(const struct ks_lines *l,
					const struct ks_lines_obj *o, Dwarf_Addr pc)
{
	Dwarf_Die funcs[MAX_CHAIN], cu;
	struct ks_line_chain *c;
	Dwarf_Addr bias;
	Dwarf_Line *line;
	const char *file;
	int lineno = 0, nr, i;

	if (!find_cu(o, pc, &cu, &bias))
		return NULL;
	pc -= bias;
	line = dwarf_getsrc_die(&cu, pc);
	file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
	if (!file || dwarf_lineno(line, &lineno) || !lineno)
		return NULL;
	nr = function_scopes(&cu, pc, funcs, MAX_CHAIN);
	c = calloc(1, sizeof(*c) + (size_t)(nr ? nr : 1) * sizeof(c->loc[0]));
	if (!c)
		return NULL;
	c->loc[0].file = strip_prefix(l, file);
	c->loc[0].line = lineno;
	c->loc[0].func = nr ? dwarf_diename(&funcs[0]) : NULL;
	c->n = 1;
	for (i = 1; i < nr; i++) {
		call_site(l, &funcs[i - 1], &c->loc[i]);
		if (!c->loc[i].file)
			break;
		c->loc[i].func = dwarf_diename(&funcs[i]);
		c->n++;
	}
	return c;
}

/* Where the source file tail of the function sym lies, minus the tail. */
static char *source_root(struct ks_lines *l, const char *sym, const char *tail)
{
	struct ks_line_chain *c;
	size_t len, n = strlen(tail);
	char *root = NULL;
	uint64_t addr;

	if (ks_elf_symtab_addr(l->vmlinux.syms, sym, &addr))
		return NULL;
	c = ks_lines_chain_at(l, &l->vmlinux, addr - (uint64_t)l->cfg.kaslr);
	if (!c)
		return NULL;
	len = strlen(c->loc[0].file);
	if (len >= n && !strcmp(c->loc[0].file + len - n, tail))
		root = strndup(c->loc[0].file, len - n);
	free(c);
	return root;
}

/*
 * C files are named relative to the build directory, assembler files by
 * the absolute path gas was given (Debian's:
 * /build/reproducible-path/linux-6.1.192/arch/x86/entry/entry_64.S):
 * each kind's root is found from a file of that kind, the assembler one
 * from the syscall entry of the architecture whose symbol is there.
 */
void ks_lines_find_prefix(struct ks_lines *l)
{
	/* each architecture's syscall entry, the one whose symbol exists */
	static const char *const asm_files[][2] = {
		{ "entry_SYSCALL_64", "arch/x86/entry/entry_64.S" },
		{ "el0t_64_sync", "arch/arm64/kernel/entry.S" },
	};

	size_t n = sizeof(asm_files) / sizeof(asm_files[0]);

	l->prefix = source_root(l, "kernel_init", "init/main.c");
	for (size_t i = 0; !l->asm_prefix && i < n; i++)
		l->asm_prefix = source_root(l, asm_files[i][0], asm_files[i][1]);
}
#endif /* KS_NO_LIBDW */
