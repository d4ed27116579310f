/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kstack diff's records: a capture (any sample kstack writes, read back,
 * or a dump's) as tasks with their stack's signature, and what the
 * comparison of two of them found.  diff_read.c makes captures,
 * diff_compare.c compares them without printing, diff_text.c and
 * diff_json.c write the result.
 */
#ifndef KS_DIFF_H
#define KS_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#include "stack_signature.h"
#include "task.h"

#define KS_DIFF_CMD_MAX	64

struct ks_diff_task {
	int32_t pid;		/* 0: not named (-c, --folded: counted only) */
	unsigned long weight;	/* the tasks it stands for: 1 when named */
	char state;		/* '?' where the capture has none (--folded) */
	char sig[KS_SIGNATURE_LEN];
	char cmd[KS_DIFF_CMD_MAX];	/* Cmd, cut */
	size_t stack;		/* index into its capture's stacks */
	bool has_switches;	/* nvcsw and nivcsw are known */
	uint64_t nvcsw, nivcsw;
};

struct ks_diff_capture {
	const char *name;	/* how messages and the output name it */
	time_t time;		/* 0: none (--folded) */
	char host[KS_HOST_LEN];
	struct ks_diff_task *tasks;
	size_t nr, cap;
	char **stacks;		/* "[<0>] f+0x1/0x2\n" lines, owned */
	size_t nr_stacks, cap_stacks;
};

/* A stack's text, copied, for tasks to name by *idx; 0 or -ENOMEM. */
int ks_diff_stack(struct ks_diff_capture *c, const char *stack, size_t *idx);
/*
 * A task whose stack is t->stack, its signature computed here from its
 * state and that stack; 0 or -ENOMEM.
 */
int ks_diff_add(struct ks_diff_capture *c, const struct ks_diff_task *t);
/* Emptied for another sample, its arrays kept. */
void ks_diff_clear(struct ks_diff_capture *c);
void ks_diff_release(struct ks_diff_capture *c);

enum ks_diff_change {
	KS_DIFF_APPEARED,	/* in B only */
	KS_DIFF_VANISHED,	/* in A only */
	KS_DIFF_GREW,
	KS_DIFF_SHRANK,
};

/* A signature whose count changed. */
struct ks_diff_group {
	enum ks_diff_change change;
	const char *sig;
	char state;
	unsigned long a, b;	/* its tasks on each side, running aside */
	const char *stack;	/* its stack as B has it, else as A has it */
};

/*
 * A named task that changed: moved (a and b), vanished (a only) or
 * appeared (b only); or one in one stack on both sides (a and b) that
 * ran in between (its switch counts moved) or is stuck across both.
 */
struct ks_diff_pair {
	const struct ks_diff_task *a, *b;
	const char *stack;	/* b's stack, else a's */
};

struct ks_diff_result {
	struct ks_diff_group *groups;	/* appeared, vanished, grew, shrank */
	size_t nr_groups;
	struct ks_diff_pair *moved, *appeared, *vanished, *ran, *stuck;
	size_t nr_moved, nr_appeared, nr_vanished, nr_ran, nr_stuck;
	unsigned long running;	/* tasks set aside: R on either side */
	unsigned long same;	/* named tasks in the same signature on both */
	unsigned long a_total, b_total;	/* the tasks compared on each side */
	/* named tasks in the same D or T stack whose switch counts both
	   sides have: those "stuck" is decided for */
	unsigned long switches_known;
	/* a group differs, or a task moved, appeared or vanished (a task
	   that ran back into its stack is not a change) */
	bool changed;
};

/*
 * Compares a with b into r (pointing into both, which must outlive it).
 * 0 or -ENOMEM; r is to be released either way.
 */
int ks_diff_compare(const struct ks_diff_capture *a,
		    const struct ks_diff_capture *b, struct ks_diff_result *r);
void ks_diff_result_release(struct ks_diff_result *r);

#endif /* KS_DIFF_H */
