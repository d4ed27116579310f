// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where -l's debug files are: the debug vmlinux of the release, and every
 * module file under the debug directory and /lib/modules, debug files
 * first, found by one walk of each tree on the first module frame.
 */
#ifndef KS_NO_LIBDW
#include <ftw.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "grow.h"
#include "lines_obj.h"

static bool is_file(const char *path)
{
	return !access(path, R_OK);
}

void ks_lines_find_vmlinux(struct ks_lines *l)
{
	static const char *const fmts[] = {
		"%s/boot/vmlinux-%s", "/boot/vmlinux-%2$s",
		"/lib/modules/%2$s/build/vmlinux",
	};
	char path[PATH_MAX];
	size_t i;

	if (l->cfg.vmlinux) {
		l->vmlinux_path = strdup(l->cfg.vmlinux);
		return;
	}
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		snprintf(path, sizeof(path), fmts[i], l->debug_dir, l->release);
		if (is_file(path)) {
			l->vmlinux_path = strdup(path);
			return;
		}
	}
	/* for the note: where it was looked for first */
	snprintf(path, sizeof(path), fmts[0], l->debug_dir, l->release);
	l->vmlinux.path = strdup(path);
}

/* "ext4.ko.xz" or "nf-nat.ko.debug" as kallsyms names the module. */
static bool module_name(const char *file, char *name, size_t len)
{
	const char *ko = strstr(file, ".ko");
	size_t n;

	if (!ko || (ko[3] && ko[3] != '.'))
		return false;
	n = (size_t)(ko - file);
	if (!n || n >= len)
		return false;
	memcpy(name, file, n);
	name[n] = '\0';
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return true;
}

static struct ks_lines *scanning;	/* nftw() passes no argument */

static int scan_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	struct ks_lines *l = scanning;
	char name[256], **v;

	(void)st;
	if (type != FTW_F || !module_name(path + ftw->base, name, sizeof(name)))
		return 0;
	if (l->nr_mod_files >= 65536)
		return 1;
	v = ks_grow(l->mod_files, &l->mod_files_cap, l->nr_mod_files + 1,
		    sizeof(*v));
	if (!v)
		return 1;
	l->mod_files = v;
	/* "name\0path": the name first for lookups */
	v[l->nr_mod_files] = malloc(strlen(name) + strlen(path) + 2);
	if (!v[l->nr_mod_files])
		return 1;
	strcpy(v[l->nr_mod_files], name);
	strcpy(v[l->nr_mod_files] + strlen(name) + 1, path);
	l->nr_mod_files++;
	return 0;
}

/* Every module file of the release, debug files first. */
static void scan_modules(struct ks_lines *l)
{
	char dir[PATH_MAX];

	if (l->scanned)
		return;
	l->scanned = true;
	scanning = l;
	snprintf(dir, sizeof(dir), "%s/lib/modules/%s", l->debug_dir, l->release);
	nftw(dir, scan_one, 16, FTW_PHYS);
	snprintf(dir, sizeof(dir), "/lib/modules/%s", l->release);
	nftw(dir, scan_one, 16, FTW_PHYS);
	scanning = NULL;
}

const char *ks_lines_module_file(struct ks_lines *l, const char *name)
{
	size_t i;

	scan_modules(l);
	for (i = 0; i < l->nr_mod_files; i++)
		if (!strcmp(l->mod_files[i], name))
			return l->mod_files[i] + strlen(name) + 1;
	return NULL;
}


void ks_lines_files_free(struct ks_lines *l)
{
	for (size_t i = 0; i < l->nr_mod_files; i++)
		free(l->mod_files[i]);
	free(l->mod_files);
}
#endif /* KS_NO_LIBDW */
