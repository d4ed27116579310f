// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live triage's panic and taint: no CPU panicked (the system runs),
 * tainted_mask from /proc/sys/kernel/tainted, and the modules that set
 * each letter from /sys/module/NAME/taint (module_flags_taint()'s
 * letters).  The letters are kernel/panic.c's taint_flags[] as kstack
 * knows it (the kernel's own table is in its memory, which the dump's
 * panic_state.c reads): print_tainted()'s line up to the last bit set.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "triage_live.h"
#include "triage_read.h"

/* taint_flags[] of kernel/panic.c, bit by bit (TAINT_FWCTL is bit 19) */
static const struct {
	char c_true, c_false;
	bool module;
	const char *desc;
} flags[] = {
	{ 'P', 'G', true, "PROPRIETARY_MODULE" },
	{ 'F', ' ', true, "FORCED_MODULE" },
	{ 'S', ' ', false, "CPU_OUT_OF_SPEC" },
	{ 'R', ' ', false, "FORCED_RMMOD" },
	{ 'M', ' ', false, "MACHINE_CHECK" },
	{ 'B', ' ', false, "BAD_PAGE" },
	{ 'U', ' ', false, "USER" },
	{ 'D', ' ', false, "DIE" },
	{ 'A', ' ', false, "OVERRIDDEN_ACPI_TABLE" },
	{ 'W', ' ', false, "WARN" },
	{ 'C', ' ', true, "CRAP" },
	{ 'I', ' ', false, "FIRMWARE_WORKAROUND" },
	{ 'O', ' ', true, "OOT_MODULE" },
	{ 'E', ' ', true, "UNSIGNED_MODULE" },
	{ 'L', ' ', false, "SOFTLOCKUP" },
	{ 'K', ' ', true, "LIVEPATCH" },
	{ 'X', ' ', true, "AUX" },
	{ 'T', ' ', true, "RANDSTRUCT" },
	{ 'N', ' ', true, "TEST" },
	{ 'J', ' ', true, "FWCTL" },
};
#define NR_FLAGS	((int)(sizeof(flags) / sizeof(flags[0])))

static void fill_flags(struct ks_panic_state *ps)
{
	int top = 0;

	for (int i = 0; i < KS_TAINT_MAX; i++)
		if (ps->tainted_mask & (1ull << i))
			top = i + 1;
	ps->nr_flags = top;
	ps->have_desc = true;
	for (int i = 0; i < top; i++) {
		struct ks_taint_flag *f = &ps->flags[i];

		f->c_true = i < NR_FLAGS ? flags[i].c_true : '?';
		f->c_false = i < NR_FLAGS ? flags[i].c_false : ' ';
		f->module = i < NR_FLAGS ? flags[i].module : false;
		snprintf(f->desc, sizeof(f->desc), "%s",
			 i < NR_FLAGS ? flags[i].desc : "");
	}
}

/* name joins the list of the flag lettered c */
static int add_module(struct ks_panic_state *ps, char c, const char *name)
{
	for (int i = 0; i < ps->nr_flags; i++) {
		struct ks_taint_flag *f = &ps->flags[i];
		size_t old = f->modules ? strlen(f->modules) : 0;
		char *v;

		if (f->c_true != c)
			continue;
		v = realloc(f->modules, old + strlen(name) + 2);
		if (!v)
			return -ENOMEM;
		snprintf(v + old, strlen(name) + 2, "%s%s", old ? " " : "", name);
		f->modules = v;
		return 0;
	}
	return 0;
}

static int only_dirs(const struct dirent *d)
{
	return d->d_name[0] != '.';
}

static void read_modules(struct ks_panic_state *ps, char *why)
{
	struct dirent **names;
	int n = scandir("/sys/module", &names, only_dirs, alphasort);

	if (n < 0) {
		ps->modules_err = -errno;
		ks_triage_why(why, "/sys/module: %s", strerror(errno));
		return;
	}
	for (int i = 0; i < n; i++) {
		char path[512], buf[64];

		snprintf(path, sizeof(path), "/sys/module/%s/taint",
			 names[i]->d_name);
		/* built-in modules have no taint file */
		if (ks_triage_read_file(path, buf, sizeof(buf)) > 0)
			for (const char *c = buf; *c && !ps->modules_err; c++)
				ps->modules_err = add_module(ps, *c, names[i]->d_name);
		free(names[i]);
	}
	free(names);
}

void ks_triage_live_taint(struct ks_panic_state *ps, char *why)
{
	unsigned long long mask;
	char buf[64];
	int ret;

	memset(ps, 0, sizeof(*ps));
	ps->panic_cpu = -1;
	ps->task_err = -ENOENT;
	ret = ks_triage_read_file("/proc/sys/kernel/tainted", buf, sizeof(buf));
	if (ret >= 0 && sscanf(buf, "%llu", &mask) != 1)
		ret = -EINVAL;
	if (ret < 0) {
		ps->taint_err = ret;
		ks_triage_why(why, "/proc/sys/kernel/tainted: %s", strerror(-ret));
		return;
	}
	ps->tainted_mask = mask;
	fill_flags(ps);
	read_modules(ps, why);
}
