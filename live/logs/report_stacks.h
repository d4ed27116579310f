/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The distinct stacks of the whole period, each kept once (its text, how
 * many task samples had it, in how many samples, in which states, a few
 * example tasks): -c's summary over hours instead of one moment.  Memory
 * grows with the distinct stacks, not with the samples.
 */
#ifndef KS_REPORT_STACKS_H
#define KS_REPORT_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "report_parse.h"

#define KS_RP_EXAMPLES	3

struct ks_rp_stack {
	uint64_t hash;
	char *text;			/* frames, '\n' after each */
	size_t len;
	unsigned long tasks;		/* task samples with this stack */
	unsigned long samples;		/* samples with it */
	unsigned long last_seq;		/* the last sample counted */
	unsigned long states[128];
	int examples[KS_RP_EXAMPLES];	/* PIDs */
	char example_cmd[KS_RP_EXAMPLES][KS_RP_CMD_MAX];
	size_t nr_examples;
};

struct ks_rp_stacks {
	struct ks_rp_stack *v;
	size_t nr, cap;
	size_t *slots;		/* index + 1, 0 empty; a power of two */
	size_t nr_slots;
};

/* The entry for this text (made if new), or NULL when out of memory. */
struct ks_rp_stack *ks_rp_stacks_get(struct ks_rp_stacks *t, uint64_t hash,
				     const char *text, size_t len);
/* Every task of sample seq counted under its stack; 0 or -ENOMEM. */
int ks_rp_stacks_count(struct ks_rp_stacks *t, const struct ks_rp_sample *s,
		       unsigned long seq);
/* Indexes into t->v, most task samples first; free() it. */
size_t *ks_rp_stacks_sorted(const struct ks_rp_stacks *t);
void ks_rp_stacks_release(struct ks_rp_stacks *t);

#endif /* KS_REPORT_STACKS_H */
