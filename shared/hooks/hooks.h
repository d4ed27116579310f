/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who hooked the kernel: kprobes and ftrace records, shared by both halves.
 *
 * The live tool parses /sys/kernel/debug/kprobes/list and
 * /sys/kernel/tracing/enabled_functions into these records; the crash
 * extension computes the same records from kernel memory.  One formatter
 * prints both, so the two outputs agree by construction.  The line formats
 * are the kernel's own (Linux 6.1 kernel/kprobes.c report_probe() and
 * kernel/trace/ftrace.c t_show()), trailing spaces included.
 *
 * The parts, each depending only on those before it:
 *   hooks_records.h  the records and their lists;
 *   hooks_format.h   the kernel-format lines and their parsers;
 *   hooks_walk.h     the walkers of kernel memory, which return records
 *                    and report problems through a callback;
 *   hooks_writer.h   the report writer (summary, owners, -v sections);
 *   this file        ks_hooks_report(): walkers, then the writer.
 *
 * What -K and -F print, in this order, so that the first part can be
 * compared line for line with the kernel's files:
 *   the kernel-format lines (kprobes/list, or enabled_functions);
 *   "== summary", one line computed from those records alone (the same
 *      line live and from a vmcore);
 *   -K: "== kprobes enabled" (debugfs kprobes/enabled, or
 *      !kprobes_all_disarmed in memory);
 *   live only: "== kprobe_events" / "== current_tracer",
 *      "== set_ftrace_filter", "== set_ftrace_notrace" as tracefs has them;
 *   from memory only: "== current_tracer", "== hook owners" (the modules
 *      owning handlers: what stands out when a module is unexpected),
 *      -v: per-probe handlers, nmissed and code, and "== ftrace_ops".
 */
#ifndef KS_HOOKS_H
#define KS_HOOKS_H

#include <stdio.h>

#include "format_opts.h"
#include "hooks_format.h"
#include "hooks_opts.h"
#include "hooks_records.h"
#include "hooks_walk.h"
#include "hooks_writer.h"
#include "symbolize.h"
#include "target.h"

/*
 * -K and/or -F of a kernel image (crash, or a vmcore opened without it):
 * the kernel-format lines, "== summary", then the sections only memory
 * answers, all to out.  Problems with one list or structure go to rep
 * (the front end's sink: live_say.c's, or crash's error(INFO)).
 * h says which report, opts its format (--json) and detail (-v).
 * Returns 0, or a negative errno when a walk could not start (reported).
 */
int ks_hooks_report(const struct ks_target *t, const struct ks_hooks_opts *h,
		    const struct ks_format_opts *opts, FILE *out,
		    const struct ks_reporter *rep);

#endif /* KS_HOOKS_H */
