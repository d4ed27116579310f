/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The panic and the taint of a kernel image: which CPU panicked
 * (panic_cpu) and the task on it, tainted_mask, the kernel's own
 * taint_flags[] table read from the dump, and the modules whose
 * module->taints set each letter.  Only through struct ks_target; the
 * text and JSON are shared/format/format_panic.c's.
 */
#ifndef KS_PANIC_STATE_H
#define KS_PANIC_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "report.h"
#include "target.h"

#define KS_TAINT_MAX	64	/* bits of tainted_mask (unsigned long) */
#define KS_TAINT_DESC	32
#define KS_PANIC_COMM	16	/* TASK_COMM_LEN */

/* One entry of taint_flags[], and who set it. */
struct ks_taint_flag {
	char c_true, c_false;
	bool module;			/* taint_flag.module, true without it */
	char desc[KS_TAINT_DESC];	/* taint_flag.desc (6.10+), else "" */
	char *modules;			/* "a b c": modules with this bit, or NULL */
};

struct ks_panic_state {
	int panic_cpu;			/* -1: no CPU panicked */
	int cpu_err;			/* 0, or why panic_cpu is unknown */
	int task_err;			/* 0, or why the task is unknown */
	uint64_t task;			/* its runqueue's curr */
	int pid;
	char comm[KS_PANIC_COMM];
	uint64_t tainted_mask;
	int taint_err;			/* 0, or why tainted_mask is unknown */
	int nr_flags;			/* taint_flags[] entries read */
	bool have_desc;			/* struct taint_flag has desc */
	struct ks_taint_flag flags[KS_TAINT_MAX];
	int modules_err;		/* 0, or why no module was walked */
};

/*
 * Reads all of it; each part has its own error, said once through
 * report.  Returns 0, or -ENOMEM; ks_panic_state_release() frees it.
 */
int ks_panic_state_read(const struct ks_target *t, struct ks_panic_state *ps,
			const struct ks_reporter *rep);
void ks_panic_state_release(struct ks_panic_state *ps);

#endif /* KS_PANIC_STATE_H */
