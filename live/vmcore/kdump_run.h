/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kstack --vmcore: the driver.  main.c calls it, it opens the target
 * (target_kdump.h) and prints the sample, or with -K / -F the hooks, the
 * way the crash extension prints them.
 */
#ifndef KS_KDUMP_RUN_H
#define KS_KDUMP_RUN_H

#include "live_options.h"
#include "options.h"

/*
 * Before libkdumpfile or the ELF reader open them: both must be regular
 * files (a FIFO would block open() for good), and a kernel image given as
 * the dump with a dump given as the vmlinux is named as swapped.  vmlinux
 * may be NULL (--vmcore alone).  Returns 0 or an exit status after saying
 * why.
 */
int ks_kdump_check_inputs(const char *vmcore, const char *vmlinux);

/* Runs --vmcore for the live tool; returns the process exit status. */
int ks_kdump_run(const struct ks_options *opts,
		 const struct ks_live_options *live);

#endif /* KS_KDUMP_RUN_H */
