/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel log of an image read once for the triage: the report that
 * explains the panic (an oops, a BUG:, a hung task, a soft lockup, an
 * RCU stall, an OOM kill, an unknown NMI: its head and the lines that
 * say what happened, not its registers or frames), the errors and
 * warnings (level 4 and below) with each repeated text folded into a
 * count, and the last lines.  The records are copies, made from the
 * printk ring's walk (printk_ring.c) and the lines left in printk_safe's
 * buffers after it (printk_safe.c); their writer is format_log.c's.
 */
#ifndef KS_LOG_DIGEST_H
#define KS_LOG_DIGEST_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "printk_ring.h"

#define KS_LOG_LAST	30	/* the last lines kept */
#define KS_LOG_WHY	12	/* the lines of the report kept at most */
#define KS_LOG_FOLDED	200	/* distinct warnings kept; more are counted */
#define KS_LOG_WARN_LEVEL	4	/* KERN_WARNING */

/* A warning's text and how many records had it. */
struct ks_log_folded {
	struct ks_log_record rec;	/* its first record (owned text) */
	uint64_t hash;
	unsigned long count;
};

struct ks_log_digest {
	/* the report before the panic, or the log's last one without it */
	struct ks_log_record why[KS_LOG_WHY];
	size_t nr_why;
	bool panicked;		/* the log has "Kernel panic - not syncing" */
	/* level <= 4, report bodies left out, in the order first seen */
	struct ks_log_folded *warn;
	size_t nr_warn, cap_warn;
	unsigned long nr_warn_records;	/* before folding */
	unsigned long warn_left_out;	/* records of texts past KS_LOG_FOLDED */
	/* the last KS_LOG_LAST records, oldest first from first_last */
	struct ks_log_record last[KS_LOG_LAST];
	size_t nr_last, first_last;
	unsigned long nr_records;
	/*
	 * The last OOM kill: its "Out of memory: Killed process N (comm)"
	 * line, or its "oom-kill:" summary where the log ends before it
	 */
	struct ks_log_record oom;
	bool has_oom;
	struct ks_log_trouble trouble;
};

/*
 * Walks t's log into d.  Returns 0, -ENOMEM, or the ring walk's negative
 * errno after its line through rep; ks_log_digest_release() frees d
 * either way.
 */
int ks_log_digest_read(const struct ks_target *t, struct ks_log_digest *d,
		       const struct ks_reporter *rep);
/*
 * A walk of some log (the ring of an image, /dev/kmsg): fn for each record
 * in order, what it could not read counted in trouble.  Returns 0, fn's
 * non-zero value, or a negative errno.
 */
typedef int ks_log_source_fn(void *src, ks_log_record_fn *fn, void *arg,
			     struct ks_log_trouble *trouble);
/*
 * The same digest of the records source(src) walks, for a log that is not
 * in memory (the live triage's /dev/kmsg).  Returns 0, -ENOMEM or the
 * walk's negative errno (-EIO for its non-zero value); release d either
 * way.
 */
int ks_log_digest_feed(struct ks_log_digest *d, ks_log_source_fn *source,
		       void *src);
void ks_log_digest_release(struct ks_log_digest *d);
/* The i-th of the last lines, oldest first. */
const struct ks_log_record *ks_log_digest_last(const struct ks_log_digest *d,
					       size_t i);

#endif /* KS_LOG_DIGEST_H */
