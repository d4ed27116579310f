/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One live sample: take it, then say once what went wrong in it.  Used by
 * the one-shot run and by every iteration of background mode.
 */
#ifndef KS_LIVE_SAMPLE_H
#define KS_LIVE_SAMPLE_H

#include "exit_status.h"
#include "live_say.h"
#include "options.h"
#include "proc_tasks.h"
#include "task.h"

int ks_live_take(struct ks_proc *p, const struct ks_options *opts,
		 struct ks_sample *s, struct ks_proc_status *st);
/*
 * Writes the messages a sample deserves to stderr, each kind once, and
 * returns the exit status the sample earns.  KS_EXIT_PERM (every stack
 * denied) means the sample must not be written.
 */
int ks_live_report(const struct ks_options *opts, const struct ks_sample *s,
		   const struct ks_proc_status *st);

#endif /* KS_LIVE_SAMPLE_H */
