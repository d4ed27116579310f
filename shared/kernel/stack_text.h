/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every architecture's /proc/PID/stack shares past its unwinder:
 * proc_pid_stack()'s "[<0>] %pB\n" per frame (fs/proc/base.c), the
 * 64-frame limit, and stack_trace_consume_entry_nosched()'s skip of the
 * scheduler's and the locks' text (kernel/stacktrace.c).
 */
#ifndef KS_STACK_TEXT_H
#define KS_STACK_TEXT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_modules.h"
#include "target.h"

/*
 * Every unwinder's note for a stack whose memory the image does not hold
 * (a dump cut short, a page left out): the walk counts these apart, since
 * their cause is the dump, not the unwinding.
 */
#define KS_NOTE_STACK_UNREADABLE	"stack memory is not readable in the image"

/* MAX_STACK_TRACE_DEPTH in fs/proc/base.c */
#define KS_STACK_MAX_FRAMES	64

/* stacktrace_cookie plus the text being built. */
struct ks_stack_text {
	const struct ks_target *t;
	/* in_sched_functions(): [__sched_text_start, __sched_text_end) ... */
	struct ks_range sched_text, lock_text;
	unsigned int len;		/* frames stored */
	char *text;			/* malloc'ed; the caller frees it */
	size_t used, cap;
	int err;			/* why consume stopped: -ENOMEM, ... */
};

/* An empty text; 0 or -ENOMEM. */
int ks_stack_text_begin(struct ks_stack_text *w);

/*
 * stack_trace_consume_entry_nosched(), then stack_trace_consume_entry()
 * with skip 0 (the task is never current in an image): false stops,
 * with w->err set when it stopped on an error.
 */
bool ks_stack_text_consume(struct ks_stack_text *w, uint64_t addr);

/* The sched and lock text bounds, { 0, 0 } for those the kernel lacks. */
void ks_stack_text_ranges(const struct ks_target *t, struct ks_range *sched,
			  struct ks_range *lock);

#endif /* KS_STACK_TEXT_H */
