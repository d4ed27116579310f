// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * file:line of kernel frames with elfutils' libdw.
 *
 * A frame is known by the text kallsyms printed: name+off/size [module].
 * For vmlinux, name and size give the link-time address with kallsyms'
 * own rules (shared/kernel/image/elf_symtab.c: several static functions share a name,
 * the size tells them apart); for a module, the module's debug file's
 * symbol of that name.  The address then gives the line and the inlined
 * functions the way addr2line -f -i and eu-addr2line -i find them: the
 * line table for where the code is, then the function DIEs nested around
 * the address in the CU, each inlined one with the DW_AT_call_file and
 * DW_AT_call_line of its call in the function around it.
 *
 * Paths lose the build's source directory, found as decode_stacktrace.sh
 * finds it: where kernel_init's init/main.c lies.  Each distinct frame is
 * looked up once; a dump repeats few.
 *
 * Before any frame is decoded, each is judged (ks_lines_judge()): one
 * whose size is not its debug file's proves that file of another build.
 *
 * This file answers for a frame; lines_cache.c keeps the answers,
 * debug_files.c finds the files, lines_open.c opens them,
 * lines_modsyms.c reads a module's symbols, lines_dwarf.c reads their
 * DWARF and lines_report.c writes the notes.
 */
#ifndef KS_NO_LIBDW
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "lines_obj.h"

#define KASLR_ALIGN	0x200000ull	/* x86_64 moves the kernel in 2 MiB steps */
#define MAX_MODS	4096

static struct ks_lines_obj *get_obj(struct ks_lines *l, const char *module)
{
	struct ks_lines_obj *o = NULL, *v;
	size_t i;

	if (!module) {
		o = &l->vmlinux;
		if (!o->opened) {
			o->opened = true;
			o->err = ks_lines_open_vmlinux(l);
			if (o->syms && !l->release[0])
				ks_lines_vmlinux_release(o->syms, l->release,
							 sizeof(l->release));
			if (!o->err)
				ks_lines_find_prefix(l);
		}
		return o;
	}
	/* the modules' directory is named by the vmlinux's release */
	if (!l->release[0])
		get_obj(l, NULL);
	for (i = 0; i < l->nr_mods; i++)
		if (!strcmp(l->mods[i].name, module))
			return &l->mods[i];
	if (l->nr_mods >= MAX_MODS)
		return NULL;
	v = ks_grow(l->mods, &l->mods_cap, l->nr_mods + 1, sizeof(*v));
	if (!v)
		return NULL;
	l->mods = v;
	o = &l->mods[l->nr_mods];
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->name = strdup(module);
	if (!o->name)
		return NULL;
	l->nr_mods++;
	o->opened = true;
	o->err = ks_lines_open_module(l, o);
	return o;
}

/* ---- frames ---- */

/* kallsyms' size of the first vmlinux symbol called name, 0 without one. */
static uint64_t vmlinux_size(const struct ks_lines_obj *o, const char *name)
{
	struct ks_sym sym;
	uint64_t addr;

	if (ks_elf_symtab_find(o->syms, name, 0, &addr) ||
	    ks_elf_symtab_lookup(o->syms, addr, &sym))
		return 0;
	return sym.size;
}

static struct ks_line_chain *resolve(struct ks_lines *l, struct ks_lines_obj *o,
				     const char *name, uint64_t off,
				     uint64_t size)
{
	uint64_t addr;

	/* a return address at the function's end: its call is the line */
	if (size && off == size)
		off--;
	/* one frame of another build makes every match of o chance */
	if (!o || o->err || o->differ || o->other_release)
		return NULL;
	if (o == &l->vmlinux) {
		if (ks_elf_symtab_find(o->syms, name, size, &addr))
			return NULL;
		/* no size printed: an offset past the function is another's code */
		if (!size && off >= vmlinux_size(o, name))
			return NULL;
		addr += off - (uint64_t)l->cfg.kaslr;	/* to the link-time address */
	} else if (ks_lines_module_addr(o, name, off, size, &addr)) {
		return NULL;
	}
	return ks_lines_chain_at(l, o, addr);
}

/* JIT code and trampolines have no source; nothing to say about them. */
static bool never_has_lines(const char *module)
{
	return module && (!strcmp(module, "bpf") || !strncmp(module, "__builtin", 9));
}

static struct ks_line_chain *compute(struct ks_lines *l, const char *name,
				     uint64_t off, uint64_t size,
				     const char *module)
{
	struct ks_line_chain *c;
	struct ks_lines_obj *o;

	if (never_has_lines(module))
		return NULL;
	o = get_obj(l, module);
	c = resolve(l, o, name, off, size);
	if (!c && o)
		o->missed++;
	return c;
}

static const struct ks_line_chain *lookup(struct ks_lines *l, const char *key,
					  const char *name, uint64_t off,
					  uint64_t size, const char *module)
{
	struct ks_lines_ent *e = l->cache_cap ? ks_lines_cache_slot(l, key) : NULL;
	struct ks_line_chain *c;

	if (e && e->key) {
		c = e->chain;
	} else {
		c = compute(l, name, off, size, module);
		if (!ks_lines_cache_put(l, key, c)) {
			/* kept until the next frame: the cache is full */
			free(l->spare);
			l->spare = c;
		}
	}
	if (!c) {
		l->missing++;
		return &l->empty;
	}
	l->found++;
	return c;
}

static void frame_text(char *buf, size_t len, const char *name, uint64_t off,
		       uint64_t size)
{
	snprintf(buf, len, "%s+0x%llx/0x%llx", name, (unsigned long long)off,
		 (unsigned long long)size);
}

const struct ks_line_chain *ks_lines_frame(struct ks_lines *l, const char *name,
					   uint64_t off, uint64_t size,
					   const char *module)
{
	char key[512];

	/*
	 * %pB prints a return address, which lies inside the function or, after
	 * a call that ends it (__switch_to_asm's), at its end: only an offset
	 * past the size is damaged text
	 */
	if (size && off > size) {
		if (!l->malformed++)
			frame_text(l->malformed_example,
				   sizeof(l->malformed_example), name, off, size);
		return &l->empty;
	}
	snprintf(key, sizeof(key), "%s+%llx/%llx %s", name,
		 (unsigned long long)off, (unsigned long long)size,
		 module ? module : "");
	return lookup(l, key, name, off, size, module);
}

/* 0: o has a symbol name of that size; -ESRCH: not (*have: the first's) */
static int judge_size(const struct ks_lines *l, const struct ks_lines_obj *o,
		      const char *name, uint64_t size, uint64_t *have)
{
	uint64_t addr;
	int ret;

	if (o != &l->vmlinux)
		return ks_lines_module_size(o, name, size, have);
	ret = ks_elf_symtab_find(o->syms, name, size, &addr);
	if (ret == -ESRCH)
		*have = vmlinux_size(o, name);
	return ret;
}

void ks_lines_judge(struct ks_lines *l, const char *name, uint64_t off,
		    uint64_t size, const char *module)
{
	struct ks_lines_obj *o;
	uint64_t have = 0;
	int ret;

	/* no size to compare, or a damaged frame: no proof either way */
	if (!size || off > size || never_has_lines(module))
		return;
	o = get_obj(l, module);
	if (!o || o->err)
		return;
	o->judged++;
	ret = judge_size(l, o, name, size, &have);
	if (ret == -ENOENT)
		o->absent++;
	if (ret != -ESRCH || o->differ++)
		return;
	frame_text(o->example, sizeof(o->example), name, off, size);
	snprintf(o->example + strlen(o->example),
		 sizeof(o->example) - strlen(o->example), " is 0x%llx in it",
		 (unsigned long long)have);
}

bool ks_lines_foreign(const struct ks_lines *l)
{
	size_t i;

	if (l->vmlinux.differ || l->vmlinux.other_release)
		return true;
	for (i = 0; i < l->nr_mods; i++)
		if (l->mods[i].differ)
			return true;
	return false;
}

const struct ks_line_chain *ks_lines_frame_at(struct ks_lines *l,
					      const char *name, uint64_t addr)
{
	struct ks_lines_obj *o = get_obj(l, NULL);
	uint64_t start, pc;
	struct ks_sym sym;
	unsigned int i;

	if (o->err)
		return ks_lines_frame(l, name, 0, 0, NULL);
	/*
	 * The KASLR shift is a multiple of KASLR_ALIGN and a function is
	 * smaller: of the symbols of that name (a variable may share it),
	 * the one the address falls in.
	 */
	for (i = 0; !ks_elf_symtab_find_nth(o->syms, name, 0, i, &start); i++) {
		pc = start + ((addr - start) & (KASLR_ALIGN - 1));
		if (!ks_elf_symtab_lookup(o->syms, pc, &sym) && sym.addr == start)
			return ks_lines_frame(l, name, pc - start, sym.size, NULL);
	}
	l->missing++;
	return &l->empty;
}

/* ---- setup and the note ---- */

struct ks_lines *ks_lines_open(const struct ks_lines_config *cfg)
{
	struct ks_lines *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->cfg = *cfg;
	l->debug_dir = cfg->debug_dir && *cfg->debug_dir ? cfg->debug_dir :
		       "/usr/lib/debug";
	l->vmlinux.name = "vmlinux";
	l->vmlinux.fd = -1;
	/* without it, the release of the vmlinux's linux_banner */
	if (cfg->release) {
		snprintf(l->release, sizeof(l->release), "%s", cfg->release);
		l->cfg.release = l->release;	/* the caller's may not last */
	}
	ks_lines_find_vmlinux(l);
	return l;
}

void ks_lines_close(struct ks_lines *l)
{
	size_t i;

	if (!l)
		return;
	ks_lines_cache_free(l);
	ks_lines_obj_release(&l->vmlinux);
	for (i = 0; i < l->nr_mods; i++) {
		ks_lines_obj_release(&l->mods[i]);
		free(l->mods[i].name);
	}
	free(l->mods);
	ks_lines_files_free(l);
	free(l->vmlinux_path);
	free(l->prefix);
	free(l->asm_prefix);
	free(l);
}

void ks_lines_counts(const struct ks_lines *l, size_t *found, size_t *missing)
{
	*found = l->found;
	*missing = l->missing;
}

#else /* KS_NO_LIBDW: the static guest binary */

#include <stdlib.h>

#include "lines.h"

struct ks_lines {
	struct ks_line_chain empty;
	size_t missing;
};

struct ks_lines *ks_lines_open(const struct ks_lines_config *cfg)
{
	(void)cfg;
	return calloc(1, sizeof(struct ks_lines));
}

void ks_lines_close(struct ks_lines *l)
{
	free(l);
}

const struct ks_line_chain *ks_lines_frame(struct ks_lines *l, const char *name,
					   uint64_t off, uint64_t size,
					   const char *module)
{
	(void)name, (void)off, (void)size, (void)module;
	l->missing++;
	return &l->empty;
}

const struct ks_line_chain *ks_lines_frame_at(struct ks_lines *l,
					      const char *name, uint64_t addr)
{
	return ks_lines_frame(l, name, addr, 0, NULL);
}

void ks_lines_counts(const struct ks_lines *l, size_t *found, size_t *missing)
{
	*found = 0;
	*missing = l->missing;
}

void ks_lines_judge(struct ks_lines *l, const char *name, uint64_t off,
		    uint64_t size, const char *module)
{
	(void)l, (void)name, (void)off, (void)size, (void)module;
}

bool ks_lines_foreign(const struct ks_lines *l)
{
	(void)l;
	return false;
}

void ks_lines_report(const struct ks_lines *l, const struct ks_reporter *rep)
{
	if (l->missing)
		ks_say(rep, KS_WARN,
		       "this build has no file:line lookup (built without libdw)");
}
#endif
