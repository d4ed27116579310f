/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel log's last words that never reached the ring: the per-CPU
 * buffers of kernel/printk/printk_safe.c (nmi_print_seq, safe_print_seq;
 * Linux 5.10 to 5.14), where printk() in NMI or printk-safe context
 * writes and from which only an irq_work flushes into the ring.  A panic
 * in NMI leaves its lines there.  Read as crash's log reads them
 * (kernel.c, __dump_printk_safe_seq_buf()), handed over as records of
 * printk_ring.h with their buffer named; it never prints.
 */
#ifndef KS_PRINTK_SAFE_H
#define KS_PRINTK_SAFE_H

#include <stddef.h>

#include "printk_ring.h"
#include "report.h"
#include "target.h"

/* the level printk_safe_flush_line()'s printk_deferred() gives a line without one */
#define KS_LOG_SAFE_DEFAULT_LEVEL	4
/* printk_info's flags: LOG_CONT, for a line of KERN_CONT */
#define KS_LOG_CONT	8

/*
 * Splits len bytes of a buffer's text into lines as crash does: a line
 * ends at '\n' and before a KERN_SOH ("\001") that is not at a line's
 * start; KERN_SOH and the byte after it (the level, 'c' for KERN_CONT)
 * head a line and are not its text.  Each line is handed to fn as a copy
 * of *tmpl (its buffer, cpu, message_lost) with its text, headed, header,
 * level and flags set.  Returns 0 or fn's non-zero value.
 */
int ks_printk_safe_split(const char *buf, size_t len,
			 const struct ks_log_record *tmpl,
			 ks_log_record_fn *fn, void *arg);

/*
 * Each CPU's unflushed lines, nmi_print_seq's CPUs first, then
 * safe_print_seq's, as crash's log prints them after the ring's.  A
 * kernel without these buffers (5.15 and later) has none: 0, nothing
 * said.  What cannot be read (a CPU's buffer, the types) is said through
 * rep and the walk goes on.  Returns 0, fn's non-zero value or -ENOMEM.
 */
int ks_printk_safe_walk(const struct ks_target *t, ks_log_record_fn *fn,
			void *arg, const struct ks_reporter *rep);

#endif /* KS_PRINTK_SAFE_H */
