/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --cpus: every present CPU of an image (online or not), its task from its runqueue
 * (rq->curr; the idle task is PID 0, swapper/N), its registers from the
 * image, and its trace across its stacks from the architecture's
 * cpu_trace (arch.h).  Records only (cpu_record.h); the writer is
 * shared/format/format_cpus.c.
 */
#ifndef KS_CPUS_WALK_H
#define KS_CPUS_WALK_H

#include "cpu_record.h"
#include "report.h"

struct ks_kernel;

/*
 * Fills cs with one record per online CPU, in CPU order.  Returns 0, or
 * -errno after saying why through rep (no runqueues, no online mask,
 * an architecture without cpu_trace, -ENOMEM); what one CPU lacks (its
 * registers, its runqueue, a stack) is in its record and the walk goes
 * on.  cs is to be released with ks_cpus_release() either way.
 */
int ks_cpus_walk(struct ks_kernel *k, struct ks_cpus *cs,
		 const struct ks_reporter *rep);

#endif /* KS_CPUS_WALK_H */
