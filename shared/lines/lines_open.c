// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Opening one of -l's objects: vmlinux with libdw alone, a module with
 * libdwfl (which relocates its sections; lines_modsyms.c reads its
 * symbols), and the build id check against the kernel being read.
 */
#ifndef KS_NO_LIBDW
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <elfutils/libdwelf.h>

#include "lines_obj.h"

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/*
 * Does obj's file carry the build id the running kernel shows for module
 * (NULL: vmlinux)?  Without a kernel to ask, or an id on either side,
 * nothing says otherwise.
 */
static bool same_build(const struct ks_lines *l, struct ks_lines_obj *o,
		       const char *module)
{
	const void *bits;
	uint8_t id[64];
	size_t id_len;
	ssize_t len;

	if (!l->cfg.build_id ||
	    l->cfg.build_id(l->cfg.build_id_arg, module, id, sizeof(id), &id_len))
		return true;
	len = dwelf_elf_gnu_build_id(dwarf_getelf(o->dw), &bits);
	if (len <= 0)
		return true;
	return (size_t)len == id_len && !memcmp(bits, id, id_len);
}

/* Is the vmlinux of another release than the one the caller names? */
static bool other_release(const struct ks_lines *l, struct ks_lines_obj *o)
{
	char rel[256] = "";

	if (!l->cfg.release)
		return false;
	ks_lines_vmlinux_release(o->syms, rel, sizeof(rel));
	return rel[0] && strcmp(rel, l->cfg.release);
}

/* ---- opening one object ---- */

/* A module: libdwfl lays out and relocates its sections. */
static int report_file(struct ks_lines_obj *o)
{
	o->dwfl = dwfl_begin(&offline_callbacks);
	if (!o->dwfl)
		return -ENOMEM;
	o->mod = dwfl_report_offline(o->dwfl, o->name, o->path, -1);
	dwfl_report_end(o->dwfl, NULL, NULL);
	if (!o->mod)
		return -ENOEXEC;
	o->dw = dwfl_module_getdwarf(o->mod, &o->bias);
	return o->dw ? 0 : -ENODATA;	/* a stripped file: symbols, no DWARF */
}

/*
 * vmlinux with libdw alone: an executable needs no relocation, and
 * dwarf_addrdie() on .debug_aranges costs half of libdwfl's CU index.
 */
static int open_dwarf(struct ks_lines_obj *o)
{
	Elf *elf;
	bool is_elf;

	o->fd = open(o->path, O_RDONLY | O_CLOEXEC);
	if (o->fd < 0)
		return -errno;
	o->dw = dwarf_begin(o->fd, DWARF_C_READ);
	if (o->dw)
		return 0;
	/* an ELF file without DWARF was stripped */
	elf_version(EV_CURRENT);
	elf = elf_begin(o->fd, ELF_C_READ_MMAP, NULL);
	is_elf = elf && elf_kind(elf) == ELF_K_ELF;
	elf_end(elf);
	return is_elf ? -ENODATA : -ENOEXEC;
}

int ks_lines_open_vmlinux(struct ks_lines *l)
{
	struct ks_lines_obj *o = &l->vmlinux;
	int ret;

	o->path = l->vmlinux_path ? strdup(l->vmlinux_path) : o->path;
	if (!l->vmlinux_path)
		return -ENOENT;
	/* symbols first: a stripped vmlinux still names the release */
	o->syms = l->cfg.syms;
	if (!o->syms) {
		ret = ks_elf_symtab_open(o->path, &o->own_syms);
		if (ret)	/* -ENODATA: no .symtab, stripped */
			return ret;
		o->syms = o->own_syms;
	}
	o->other_release = other_release(l, o);
	ret = open_dwarf(o);
	if (ret)
		return ret;
	if (!same_build(l, o, NULL))
		return -ESRCH;
	return 0;
}

int ks_lines_open_module(struct ks_lines *l, struct ks_lines_obj *o)
{
	char where[PATH_MAX];
	const char *path;
	int ret;

	if (!l->release[0])
		return -EDOM;
	path = ks_lines_module_file(l, o->name);
	if (!path) {
		/* for the note: where a debug file was looked for */
		snprintf(where, sizeof(where), "%s/lib/modules/%s/**/%s.ko",
			 l->debug_dir, l->release, o->name);
		o->path = strdup(where);
		return -ENOENT;
	}
	o->path = strdup(path);
	if (!o->path)
		return -ENOMEM;
	ret = report_file(o);
	if (!ret)
		ret = ks_lines_index_module_syms(o);
	if (!ret && !same_build(l, o, o->name))
		ret = -ESRCH;
	return ret;
}

void ks_lines_obj_release(struct ks_lines_obj *o)
{
	free(o->path);
	free(o->msyms);
	ks_elf_symtab_free(o->own_syms);
	if (o->dwfl)
		dwfl_end(o->dwfl);
	else if (o->dw)
		dwarf_end(o->dw);
	if (o->fd >= 0)
		close(o->fd);
}
#endif /* KS_NO_LIBDW */
