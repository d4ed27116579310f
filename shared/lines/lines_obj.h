/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the files of -l's lookup share (lines.c, lines_cache.c,
 * debug_files.c, lines_open.c, lines_modsyms.c, lines_dwarf.c,
 * lines_report.c): the state of one lookup
 * and of each debug file.  Callers use lines.h.  With libdw only.
 */
#ifndef KS_LINES_OBJ_H
#define KS_LINES_OBJ_H

#ifndef KS_NO_LIBDW
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <elfutils/libdw.h>
#include <elfutils/libdwfl.h>

#include "elf_symtab.h"
#include "lines.h"

/* A module symbol in the debug file, in libdwfl's address space. */
struct ks_mod_sym {
	const char *name;
	uint64_t addr;
	uint64_t size;
	/*
	 * The size kallsyms prints for it: the distance to the next symbol of
	 * its section (exact), or at least to the section's end (the kernel
	 * places another section after it).
	 */
	uint64_t ksize;
	bool ksize_exact;
	uint32_t shndx;		/* its section, and its offset there */
	uint64_t value;
	bool func, code;
};

/* vmlinux or one module: its debug file, opened on first use. */
struct ks_lines_obj {
	char *name;		/* "vmlinux" or the module's name */
	char *path;		/* the file tried, or NULL when none was found */
	Dwarf *dw;		/* its DWARF */
	Dwarf_Addr bias;	/* symbol address - DWARF address */
	int fd;			/* vmlinux: read with libdw alone */
	Dwfl *dwfl;		/* modules: libdwfl relocates ET_REL files */
	Dwfl_Module *mod;
	struct ks_elf_symtab *own_syms;	/* vmlinux: kallsyms' names and sizes */
	const struct ks_elf_symtab *syms;	/* own_syms or the caller's */
	struct ks_mod_sym *msyms;		/* modules: sorted by name */
	size_t nr_msyms;
	bool opened;
	int err;		/* why no lines: see why() */
	size_t missed;		/* frames without a line because of err */
	/* frames of it whose size was checked against its symbols */
	size_t judged, differ, absent;
	char example[160];	/* the first that differs, for the note */
	/*
	 * vmlinux: its linux_banner names another release than the kernel's
	 * (the text's, the dump's), which proves another build where every
	 * size matches (two point releases of a series may share them all)
	 */
	bool other_release;
};

struct ks_lines_ent {
	char *key;
	struct ks_line_chain *chain;
};

struct ks_lines {
	struct ks_lines_config cfg;
	char *vmlinux_path;
	char release[256];
	const char *debug_dir;
	char *prefix;		/* the build's source directory, or NULL */
	char *asm_prefix;	/* the same for assembler files, or NULL */
	struct ks_lines_obj vmlinux;
	struct ks_lines_obj *mods;
	size_t nr_mods, mods_cap;
	char **mod_files;	/* every module file of the release, by name */
	size_t nr_mod_files, mod_files_cap;
	bool scanned;
	struct ks_lines_ent *cache;
	size_t cache_cap, cache_used;
	size_t found, missing;
	struct ks_line_chain *spare;	/* the last chain when the cache is full */
	size_t malformed;	/* frames whose offset is not inside their size */
	char malformed_example[160];
	struct ks_line_chain empty;
};

/* ---- lines_cache.c: frame text to chain ---- */

/* The slot of key: its entry, or the empty one it would go in. */
struct ks_lines_ent *ks_lines_cache_slot(struct ks_lines *l, const char *key);
/*
 * Keeps chain (which may be NULL: no line) under key; false when the
 * cache is full or out of memory, and the caller still owns chain.
 */
bool ks_lines_cache_put(struct ks_lines *l, const char *key,
			struct ks_line_chain *chain);
void ks_lines_cache_free(struct ks_lines *l);

/* ---- debug_files.c: where the debug files are ---- */

/* l->vmlinux_path, or for the note where it was looked for first. */
void ks_lines_find_vmlinux(struct ks_lines *l);
/* The module file of name (debug files first), or NULL. */
const char *ks_lines_module_file(struct ks_lines *l, const char *name);
void ks_lines_files_free(struct ks_lines *l);

/* ---- lines_open.c: opening one object ---- */

/* 0 or -errno, which why() in lines.c turns into the note's words. */
int ks_lines_open_vmlinux(struct ks_lines *l);
int ks_lines_open_module(struct ks_lines *l, struct ks_lines_obj *o);
void ks_lines_obj_release(struct ks_lines_obj *o);

/* ---- lines_modsyms.c: a module debug file's symbols ---- */

/* o->msyms from o->mod: 0 or -errno. */
int ks_lines_index_module_syms(struct ks_lines_obj *o);
/*
 * The module symbol name+off/size: a function kallsyms sizes so, else one
 * whose size holds off, else the first.
 */
int ks_lines_module_addr(const struct ks_lines_obj *o, const char *name,
			 uint64_t off, uint64_t size, uint64_t *addr_ret);
/*
 * 0: a symbol name could have been printed with size; -ESRCH: none
 * (*have: the first one's size); -ENOENT: no symbol name.
 */
int ks_lines_module_size(const struct ks_lines_obj *o, const char *name,
			 uint64_t size, uint64_t *have);
/* The release in the module's vermagic, into out; untouched without one. */
void ks_lines_module_release(const struct ks_lines_obj *o, char *out,
			     size_t len);

/* ---- lines_dwarf.c: the line and the inlined functions at an address ---- */

struct ks_line_chain *ks_lines_chain_at(const struct ks_lines *l,
					const struct ks_lines_obj *o, Dwarf_Addr pc);
/*
 * decode_stacktrace.sh's base path, the directory init/main.c is in, and
 * the same for assembler files, named by the absolute path gas was given.
 */
void ks_lines_find_prefix(struct ks_lines *l);

/* ---- lines_report.c: the notes ---- */

/* The release of the kernel in vmlinux, from its linux_banner. */
void ks_lines_vmlinux_release(const struct ks_elf_symtab *tab, char *out,
			      size_t len);

#endif /* KS_NO_LIBDW */
#endif /* KS_LINES_OBJ_H */
