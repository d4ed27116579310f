/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One sample of a kernel image, printed like the crash extension prints
 * it: the part of --vmcore that knows nothing of libkdumpfile.
 */
#ifndef KS_KDUMP_RUN_H
#define KS_KDUMP_RUN_H

#include "options.h"
#include "output_file.h"
#include "target.h"

struct ks_lines;

/*
 * Walks the tasks of t and writes the sample to out (opened by the caller
 * before the dump, so a refused -o FILE costs no walk), or with -K / -F
 * prints the hooks report; returns the exit status.  lines: -l's file:line
 * lookup, or NULL.
 */
int ks_kdump_sample(const struct ks_target *t, const struct ks_options *opts,
		    struct ks_output *out, struct ks_lines *lines);

/*
 * Before libkdumpfile or the ELF reader open them: both must be regular
 * files (a FIFO would block open() for good), and a kernel image given as
 * the dump with a dump given as the vmlinux is named as swapped.  vmlinux
 * may be NULL (--vmcore alone).  Returns 0 or an exit status after saying
 * why.
 */
int ks_kdump_check_inputs(const char *vmcore, const char *vmlinux);

#endif /* KS_KDUMP_RUN_H */
