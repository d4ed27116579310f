/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * -b --prometheus FILE: after each sample, the Prometheus text-format file
 * that node_exporter's textfile collector reads, replaced atomically
 * (written beside it, then renamed over it), so that a fleet watches
 * hung tasks through metrics instead of log files.
 */
#ifndef KS_BG_METRICS_H
#define KS_BG_METRICS_H

#include <stddef.h>
#include <stdint.h>

#include "task.h"

/* A task seen in D, and since when (CLOCK_MONOTONIC ns), sample to sample. */
struct ks_metrics_d {
	int32_t pid;
	int64_t start_time;
	int64_t since_ns;
};

struct ks_metrics {
	const char *path;
	struct ks_metrics_d *d;
	size_t nr_d, cap_d;
};

struct ks_metrics_counts {
	unsigned long written, skipped, lost;
};

void ks_metrics_init(struct ks_metrics *m, const char *path);
/*
 * The file for sample s (NULL: a sample not taken, counts alone) taken at
 * now_ns.  0, or -errno: the old file is then left as it was.
 */
int ks_metrics_write(struct ks_metrics *m, const struct ks_sample *s,
		     const struct ks_metrics_counts *c, int64_t now_ns);
void ks_metrics_release(struct ks_metrics *m);

#endif /* KS_BG_METRICS_H */
