/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The distinct stacks of the whole period, each kept once (its text, how
 * many task samples had it, in how many samples, in which states, a few
 * example tasks): -c's summary over hours instead of one moment.  Memory
 * grows with the distinct stacks, not with the samples: each is its text
 * and a few words (a state letter's count, three examples whose commands
 * are interned in a table of their own): at most 256 bytes besides its
 * text, counting the slack of the growing arrays.
 */
#ifndef KS_REPORT_STACKS_H
#define KS_REPORT_STACKS_H

#include <stddef.h>
#include <stdint.h>

#include "report_parse.h"

#define KS_RP_EXAMPLES	3
/* the kernel's state letters (task_state_array), in the order printed */
#define KS_RP_STATES	"DIPRSTXZt"
#define KS_RP_NR_STATES	(sizeof(KS_RP_STATES) - 1)

struct ks_rp_stack {
	uint64_t hash;
	char *text;			/* frames, '\n' after each */
	size_t len;
	unsigned long tasks;		/* task samples with this stack */
	unsigned long samples;		/* samples with it */
	unsigned long last_seq;		/* the last sample counted */
	/* per KS_RP_STATES letter, then the first other byte, then the rest */
	uint32_t states[KS_RP_NR_STATES + 2];
	char other;			/* that first other byte */
	unsigned char nr_examples;
	/* report_signatures.c's: its signature's index for sig_state (0: none) */
	char sig_state;
	int examples[KS_RP_EXAMPLES];	/* PIDs */
	uint32_t sig_idx;		/* (in the padding these leave) */
	const char *example_cmd[KS_RP_EXAMPLES];	/* in the cmds table */
};

struct ks_rp_stacks {
	struct ks_rp_stack *v;
	size_t nr, cap;
	size_t *slots;		/* index + 1, 0 empty; a power of two */
	size_t nr_slots;
	struct ks_rp_stacks *cmds;	/* the examples' commands, each once */
};

/* The entry for this text (made if new), or NULL when out of memory. */
struct ks_rp_stack *ks_rp_stacks_get(struct ks_rp_stacks *t, uint64_t hash,
				     const char *text, size_t len);
/* Every task of sample seq counted under its stack; 0 or -ENOMEM. */
int ks_rp_stacks_count(struct ks_rp_stacks *t, const struct ks_rp_sample *s,
		       unsigned long seq);
/* Indexes into t->v, most task samples first; free() it. */
size_t *ks_rp_stacks_sorted(const struct ks_rp_stacks *t);
/* n more tasks of e in state. */
void ks_rp_stack_add_state(struct ks_rp_stack *e, char state,
			   unsigned long n);
/* Each state with its count, in KS_RP_STATES order; '?' for the rest. */
void ks_rp_stack_states(const struct ks_rp_stack *e,
			void (*fn)(char state, unsigned long n, void *arg),
			void *arg);
void ks_rp_stacks_release(struct ks_rp_stacks *t);

#endif /* KS_REPORT_STACKS_H */
