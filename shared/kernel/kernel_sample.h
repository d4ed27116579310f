/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One sample of a kernel image, the same for kstack --vmcore and the
 * crash command: the image's time and host, its release, the task walk,
 * and what is said about it, in one set of words.  The two callers keep
 * only their output glue: where messages land and where the text goes.
 */
#ifndef KS_KERNEL_SAMPLE_H
#define KS_KERNEL_SAMPLE_H

#include <stdbool.h>

#include "kernel_tasks.h"

/* Where the messages about a sample go. */
struct ks_sample_say {
	const struct ks_reporter *rep;
	/*
	 * The walk's messages about single tasks and lists only with -v;
	 * without it the status counts them (--vmcore).  false: each one
	 * is said as it comes (crash, where error(INFO) is the place).
	 */
	bool quiet;
};

/*
 * Initialises s and fills it with the tasks opts selects.  Returns 0, or
 * -errno after saying why (the image's time and host unreadable, the
 * walk failed, --cgroup without cgroup types); s is to be released
 * either way.
 */
int ks_kernel_sample(struct ks_kernel *k, const struct ks_walk_opts *opts,
		     struct ks_sample *s, struct ks_kernel_status *st,
		     const struct ks_sample_say *say);

/*
 * The status of a sample: with -v the note of each task and one line
 * of counts and the time since the sample began; without, under quiet,
 * how many messages -v would show.
 */
void ks_kernel_status_say(bool verbose,
			  const struct ks_sample *s,
			  const struct ks_kernel_status *st,
			  const struct ks_sample_say *say);

#endif /* KS_KERNEL_SAMPLE_H */
