/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kstack --snoop prints: each call as it comes (text, --json), or at
 * the end each distinct stack with its count (-c, --folded).
 *
 *   PID:   301   CPU:   1   Time: 2026/11/22 15:56:57.118934   Comm: perl
 *   [<0>] ksys_sync+0x4/0xa0
 *   [<0>] __do_sys_sync+0xa/0x20
 */
#ifndef KS_SNOOP_FORMAT_H
#define KS_SNOOP_FORMAT_H

#include <stdint.h>
#include <stdio.h>

#include "options.h"
#include "snoop_trace.h"

struct snoop_agg;

struct ks_snoop_out {
	FILE *out;
	enum ks_format format;
	const char *func;
	int64_t wall_offset_ns;	/* wall clock minus the trace clock */
	uint64_t calls;
	struct snoop_agg *agg;	/* -c and --folded */
};

void ks_snoop_out_init(struct ks_snoop_out *o, FILE *out, enum ks_format format,
		       const char *func, int64_t wall_offset_ns);
/* One call; 0, -ENOMEM, or -EIO when out failed. */
int ks_snoop_out_rec(struct ks_snoop_out *o, const struct ks_snoop_rec *r);
/* -c's and --folded's text, after the last call; 0 or -errno. */
int ks_snoop_out_end(struct ks_snoop_out *o, double seconds);
void ks_snoop_out_release(struct ks_snoop_out *o);

#endif /* KS_SNOOP_FORMAT_H */
