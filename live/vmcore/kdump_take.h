/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One sample of a dump's tasks as records, for a caller that compares
 * rather than prints (kstack diff): the walk kstack --vmcore DUMP -a -H
 * makes, its messages said as --vmcore says them.
 */
#ifndef KS_KDUMP_TAKE_H
#define KS_KDUMP_TAKE_H

#include <stdbool.h>

#include "task.h"

/*
 * Every task and thread of vmcore (with vmlinux, or NULL) into s, which
 * is initialised here and to be released either way.  scan_kallsyms: the
 * tests' knob.  0, or -1 after saying why.
 */
int ks_kdump_take(const char *vmcore, const char *vmlinux,
		  bool scan_kallsyms, struct ks_sample *s);

#endif /* KS_KDUMP_TAKE_H */
