/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The running kernel's log from /dev/kmsg, record by record as a dump's
 * ring is walked (printk_ring.h): for --log and for the live triage's
 * digest (log_digest.h).
 */
#ifndef KS_KMSG_WALK_H
#define KS_KMSG_WALK_H

#include "printk_ring.h"
#include "report.h"

#define KS_KMSG		"/dev/kmsg"

/*
 * /dev/kmsg opened as util-linux dmesg opens it (non-blocking, at the
 * first record dmesg -C left); a seek that fails is said through rep
 * and the read starts where the kernel put us.  The fd, or -errno.
 */
int ks_kmsg_open(const struct ks_reporter *rep);

/*
 * fn for every record fd has now, one read() each until EAGAIN; records
 * overwritten while we read (EPIPE) are counted as lost ranges, records
 * of another form as bad.  A ks_log_source_fn over the fd (src is a
 * pointer to it).  Returns 0, fn's non-zero value, or -errno of a read.
 */
int ks_kmsg_walk(void *src, ks_log_record_fn *fn, void *arg,
		 struct ks_log_trouble *trouble);

#endif /* KS_KMSG_WALK_H */
