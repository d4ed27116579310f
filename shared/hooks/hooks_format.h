/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's own lines for the hook records, and their parsers: Linux
 * 6.1 kernel/kprobes.c report_probe() (debugfs kprobes/list) and
 * kernel/trace/ftrace.c t_show() (tracefs enabled_functions), trailing
 * spaces included.  A line the parser accepts prints back byte for byte.
 */
#ifndef KS_HOOKS_FORMAT_H
#define KS_HOOKS_FORMAT_H

#include <stddef.h>

#include "hooks_records.h"

/* Room for any record ks_ftrace_format() prints. */
#define KS_FTRACE_LINE_MAX	(sizeof(struct ks_ftrace_rec) + 256)

/*
 * The line report_probe() prints, without the newline.  Returns the
 * length of the whole text like snprintf.
 */
int ks_kprobe_format(const struct ks_kprobe *p, char *buf, size_t len);

/*
 * The text t_show() prints for one record, without the final newline (a
 * direct call adds an inner "\n\tdirect-->..." line).  Returns the length
 * like snprintf.
 */
int ks_ftrace_format(const struct ks_ftrace_rec *r, char *buf, size_t len);

/* Parse one line; 0, or -EINVAL when it is not in the kernel's format. */
int ks_kprobe_parse(const char *line, struct ks_kprobe *p);
/*
 * Parse one record: line is the record line, and direct_line the next
 * line when it starts with "\tdirect-->" (else NULL).
 */
int ks_ftrace_parse(const char *line, const char *direct_line,
		    struct ks_ftrace_rec *r);

#endif /* KS_HOOKS_FORMAT_H */
