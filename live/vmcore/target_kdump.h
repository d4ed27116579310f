/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The libkdumpfile target behind struct ks_target (live/vmcore/target_kdump.c):
 * a vmcore read with libkdumpfile, symbols and types from its vmlinux or
 * from the dump itself.  The static build has no libkdumpfile:
 * kdump_absent.c stands in there.  The target prints nothing; the driver
 * (kdump_run.c) gets its messages and codes.
 */
#ifndef KS_TARGET_KDUMP_H
#define KS_TARGET_KDUMP_H

#include <stdbool.h>
#include <stddef.h>

#include "sample_report.h"
#include "target.h"

struct ks_kdump;
struct ks_lines_config;

struct ks_kdump_args {
	const char *vmcore;
	const char *vmlinux;		/* NULL: symbols from the dump's kallsyms */
	bool verbose;			/* report what the dump was matched with */
	bool scan_kallsyms;		/* the tests': VMCOREINFO's kallsyms ignored */
	const struct ks_reporter *rep;	/* every message; may be NULL */
};

/* false in the static build, which has no --vmcore mode */
bool ks_kdump_available(void);

/*
 * Opens the dump and the vmlinux and checks that they belong together
 * (the vmlinux's linux_banner must be in the dump, KASLR-shifted).
 * Returns 0, or a negative errno after reporting why.  Notes that do not
 * stop the run (a truncated dump, no module symbols) are reported too.
 */
int ks_kdump_open(const struct ks_kdump_args *a, struct ks_kdump **kd_ret,
		  struct ks_target *t_ret);
void ks_kdump_close(struct ks_kdump *kd);

/*
 * -l: the vmlinux symbols already loaded serve the lookup too; without
 * --vmlinux the dump's release (copied into release) names the debug
 * vmlinux to look for.
 */
void ks_kdump_lines_config(struct ks_kdump *kd, struct ks_lines_config *cfg,
			   char *release, size_t len);

#endif /* KS_TARGET_KDUMP_H */
