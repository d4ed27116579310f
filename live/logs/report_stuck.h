/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What was stuck: a task (PID and start time, so a reused PID is another
 * task) with the same stack in consecutive samples is a streak; the
 * longest ones are kept, those in D first.  Memory: one open streak per
 * task of the last sample, plus the kept list.
 */
#ifndef KS_REPORT_STUCK_H
#define KS_REPORT_STUCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "report_parse.h"
#include "report_stacks.h"

struct ks_rp_streak {
	int pid;
	char start[24];
	char cmd[KS_RP_CMD_MAX];
	char state;			/* D if it was in D in any sample */
	time_t first, last;
	unsigned long samples;
	size_t stack;			/* index into the stacks table */
	unsigned long seen_seq;		/* the last sample it was in */
};

struct ks_rp_stuck {
	struct ks_rp_streak *open;	/* open-addressed by PID */
	size_t nr_open, nr_slots;
	struct ks_rp_streak *kept;	/* the best, unsorted, at most max */
	size_t nr_kept, max;
};

int ks_rp_stuck_init(struct ks_rp_stuck *st, size_t max);
/* Sample seq: streaks go on, break or start; 0 or -ENOMEM. */
int ks_rp_stuck_sample(struct ks_rp_stuck *st, struct ks_rp_stacks *stacks,
		       const struct ks_rp_sample *s, unsigned long seq);
/* Every open streak ended, the kept ones sorted: D first, longest first. */
void ks_rp_stuck_finish(struct ks_rp_stuck *st);
void ks_rp_stuck_release(struct ks_rp_stuck *st);

#endif /* KS_REPORT_STUCK_H */
