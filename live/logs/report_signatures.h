/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The report by stack signature over time (docs/signature.md): for each
 * signature the tasks it had in the period's first sample, in its last
 * and at most, and how many tasks stayed in it for the whole period (the
 * same PID and start time, in every sample, never in another signature).
 * Memory: one entry per signature, and one per task of the first sample.
 */
#ifndef KS_REPORT_SIGNATURES_H
#define KS_REPORT_SIGNATURES_H

#include <stddef.h>
#include <stdint.h>

#include "report_parse.h"
#include "report_stacks.h"
#include "stack_signature.h"
#include "u64_map.h"

struct ks_rp_sig {
	char sig[KS_SIGNATURE_LEN];
	char state;
	char top[64];			/* its innermost function */
	unsigned long first, last;	/* tasks in the first and last sample */
	unsigned long most;		/* in any one sample */
	unsigned long now;		/* in the sample being counted */
	unsigned long now_seq;		/* the sample now counts */
	unsigned long stayed;		/* tasks in it the whole period */
	int example;			/* a PID that stayed, or 0 */
	const char *example_cmd;	/* its Cmd, in the stayers' table */
};

/* A task of the first sample, while it stays in one signature. */
struct ks_rp_stayer {
	int pid;			/* 0: empty slot */
	char start[24];
	size_t sig;			/* index into sigs */
	unsigned long seen_seq;		/* the last sample it was in */
	char cmd[KS_RP_CMD_MAX];
};

struct ks_rp_sigs {
	struct ks_rp_sig *v;
	size_t nr, cap;
	struct ks_u64_map index;	/* a signature's value to index + 1 */
	struct ks_rp_stayer *stay;	/* open-addressed by PID */
	size_t nr_stay, nr_slots;
	unsigned long seq;		/* samples counted */
};

/* Sample seq (0 first, one call per sample): 0 or -ENOMEM. */
int ks_rp_sigs_sample(struct ks_rp_sigs *t, struct ks_rp_stacks *stacks,
		      const struct ks_rp_sample *s, unsigned long seq);
/*
 * The period ended at sample last_seq: the stayers counted into their
 * signatures.  Returns indexes into t->v of those that grew or that a
 * task stayed in: the grown first (most grown first), then by state (D,
 * then T, then the rest) and most tasks stayed; *nr_ret of them.
 * free() it; NULL when out of memory.
 */
size_t *ks_rp_sigs_finish(struct ks_rp_sigs *t, size_t *nr_ret);
void ks_rp_sigs_release(struct ks_rp_sigs *t);

#endif /* KS_REPORT_SIGNATURES_H */
