/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kstack diff's two kinds of capture: what kstack writes (a file or a
 * background log directory, every format) and a dump.
 */
#ifndef KS_DIFF_READ_H
#define KS_DIFF_READ_H

#include <stdbool.h>

#include "diff.h"

/*
 * The last whole sample of path (a file, or a log directory's newest),
 * or every line of a --folded log, into c.  0, or -1 after saying why.
 */
int ks_diff_read_logs(struct ks_diff_capture *c, const char *path);
/* Every task and thread of the dump into c; 0, or -1 after saying why. */
int ks_diff_read_dump(struct ks_diff_capture *c, const char *vmcore,
		      const char *vmlinux, bool scan_kallsyms);

#endif /* KS_DIFF_READ_H */
