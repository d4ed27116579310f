// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What -l and --decode say after the frames, through the caller's report
 * callback: the debug files of another build (the cause of most bare
 * frames when there is one), the ones that were missing and the package
 * that has them, and damaged frames.
 */
#ifndef KS_NO_LIBDW
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lines_obj.h"

void ks_lines_vmlinux_release(const struct ks_elf_symtab *tab, char *out,
			      size_t len)
{
	char banner[256];
	uint64_t addr;
	size_t n;

	if (ks_elf_symtab_addr(tab, "linux_banner", &addr))
		return;
	/* the string may end near the end of its section: shorter reads */
	for (n = sizeof(banner) - 1; n > 14; n--)
		if (!ks_elf_read(tab, addr, banner, n))
			break;
	banner[n] = '\0';
	if (n > 14 && !strncmp(banner, "Linux version ", 14))
		snprintf(out, len, "%.*s", (int)strcspn(banner + 14, " "),
			 banner + 14);
}

static const char *why(int err)
{
	switch (err) {
	case -ENOENT: return "not found";
	case -ENODATA: return "no DWARF (stripped)";
	case -ESRCH: return "another build than the kernel's";
	case -ENOEXEC: return "not an ELF file";
	case -EDOM: return "no kernel release to look it up by";
	default: return strerror(-err);
	}
}

static void note_obj(FILE *out, const struct ks_lines_obj *o, const char **sep)
{
	if (!o->err || !o->missed)
		return;
	fprintf(out, "%s%s (%s%s%s)", *sep, o->name, why(o->err),
		o->path ? ": " : "", o->path ? o->path : "");
	*sep = ", ";
}

static bool not_found(const struct ks_lines_obj *o)
{
	return o->err == -ENOENT && o->missed;
}

static void report_missing(const struct ks_lines *l,
			   const struct ks_reporter *rep)
{
	const char *sep = "";
	size_t i, bad = l->vmlinux.err && l->vmlinux.missed, size = 0;
	bool absent = not_found(&l->vmlinux);
	char *msg = NULL;
	FILE *out;

	for (i = 0; i < l->nr_mods; i++) {
		bad += l->mods[i].err && l->mods[i].missed;
		absent |= not_found(&l->mods[i]);
	}
	if (!bad)
		return;
	/* one message, however many modules it names */
	out = open_memstream(&msg, &size);
	if (!out) {
		ks_say(rep, KS_WARN, "frames without file:line, no debug info");
		return;
	}
	fprintf(out, "frames without file:line, no debug info for ");
	note_obj(out, &l->vmlinux, &sep);
	for (i = 0; i < l->nr_mods; i++)
		note_obj(out, &l->mods[i], &sep);
	if (absent && l->release[0])
		fprintf(out, "; install linux-image-%s-dbg, or set KSTACK_DEBUG_DIR"
			" to a directory laid out as /usr/lib/debug", l->release);
	if (l->vmlinux.err && l->vmlinux.missed && !l->cfg.vmlinux)
		fprintf(out, "; --vmlinux names the debug vmlinux");
	/* not through ks_say(): its buffer would cut a long list short */
	if (!fclose(out))
		ks_say_text(rep, KS_WARN, msg);
	free(msg);
}

/*
 * Sizes that match prove nothing when the vmlinux names another release
 * than the kernel's: two point releases of a series may share them all.
 */
static void report_other_release(const struct ks_lines *l,
				 const struct ks_lines_obj *o,
				 const struct ks_reporter *rep)
{
	char release[256] = "";

	if (!o->other_release)
		return;
	ks_lines_vmlinux_release(o->syms, release, sizeof(release));
	ks_say(rep, KS_WARN,
	       "%s is of Linux %s, the kernel of Linux %s: %zu of %zu frames "
	       "match its sizes, but no frame was decoded with it",
	       o->path ? o->path : o->name, release, l->release,
	       o->judged - o->absent, o->judged);
}

/*
 * Sizes that differ prove the debug file is of another build; the frames
 * its sizes matched matched by chance, so none was decoded with it.
 */
static void report_foreign(const struct ks_lines *l,
			   const struct ks_lines_obj *o,
			   const struct ks_reporter *rep)
{
	char release[256] = "", of[96] = "";
	bool vmlinux = o == &l->vmlinux;

	if (!o->differ) {
		report_other_release(l, o, rep);
		return;
	}
	if (vmlinux) {
		ks_lines_vmlinux_release(o->syms, release, sizeof(release));
	} else {
		ks_lines_module_release(o, release, sizeof(release));
		snprintf(of, sizeof(of), " of %s", o->name);
	}
	ks_say(rep, KS_WARN,
	       "%zu of %zu frames%s do not match %s: %s, e.g. %s; %s is of "
	       "Linux %s: no frame%s decoded with it",
	       o->differ + o->absent, o->judged, of,
	       vmlinux ? "this vmlinux" : "its debug file",
	       o->absent ? "sizes differ or names are absent" : "sizes differ",
	       o->example, o->path ? o->path : o->name,
	       release[0] ? release : "(release unknown)", of);
}

void ks_lines_report(const struct ks_lines *l, const struct ks_reporter *rep)
{
	size_t i;

	/* the wrong files first: the cause of most bare frames */
	report_foreign(l, &l->vmlinux, rep);
	for (i = 0; i < l->nr_mods; i++)
		report_foreign(l, &l->mods[i], rep);
	report_missing(l, rep);
	if (l->malformed)
		ks_say(rep, KS_WARN,
		       "%zu frame%s left as %s: an offset past the function's "
		       "size is damaged text, e.g. %s", l->malformed,
		       l->malformed == 1 ? "" : "s",
		       l->malformed == 1 ? "it was" : "they were",
		       l->malformed_example);
}
#endif /* KS_NO_LIBDW */
