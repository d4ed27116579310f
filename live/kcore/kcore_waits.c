// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --waits on the running kernel (kcore_waits.h): the task walk of a dump
 * over /proc/kcore (kcore_target.c, as -K -v reads hooks), for the D
 * and S tasks, and each one's lock copied by PID into the sample read from
 * /proc.  The kernel runs while its memory is read: the locks are a
 * snapshot of memory that moves, and the section says so.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "live_say.h"
#include "kcore_target.h"
#include "kcore_waits.h"
#include "kernel_tasks.h"
#include "report.h"

static void copy_waits(struct ks_sample *s, const struct ks_sample *mem)
{
	for (size_t i = 0; i < mem->nr_tasks; i++) {
		const struct ks_task *m = &mem->tasks[i];

		if (!m->has_wait)
			continue;
		for (size_t j = 0; j < s->nr_tasks; j++)
			if (s->tasks[j].pid == m->pid) {
				s->tasks[j].has_wait = true;
				s->tasks[j].wait = m->wait;
				break;
			}
	}
}

void ks_kcore_waits(struct ks_sample *s, const struct ks_options *opts)
{
	const struct ks_selection sel = {
		.states = KS_ST_BIT('D') | KS_ST_BIT('S'), .threads = true,
	};
	const struct ks_walk_opts o = { .sel = &sel, .waits = true,
					.verbose = opts->out.verbose };
	const struct ks_reporter *rep = opts->out.verbose ? &ks_live_reporter :
							   NULL;
	struct ks_kcore_target *kt;
	struct ks_kernel_status st;
	struct ks_sample mem;
	struct ks_kernel *k;
	struct ks_target t;
	int ret;

	s->waits_note = "the running kernel's memory cannot be read "
			"(/proc/kcore): no locks";
	s->waits_unread = true;
	if (ks_kcore_target_open("/proc/kcore", "/sys/kernel/btf/vmlinux", &kt,
				 &t, &ks_live_reporter))
		return;
	ret = ks_kernel_open(&t, &k, &ks_live_reporter);
	if (ret)
		goto out;
	ks_sample_init(&mem, 0, "");
	ret = ks_kernel_walk(k, &o, &mem, &st, rep);
	if (!ret) {
		copy_waits(s, &mem);
		s->waits_unread = false;
		s->waits_note = "read live from /proc/kcore: a snapshot of "
				"memory that moved while it was read";
	} else {
		ks_live_say("--waits: walking the running "
			    "kernel's tasks: %s", strerror(-ret));
	}
	ks_sample_release(&mem);
	ks_kernel_close(k);
out:
	ks_kcore_target_close(kt);
}
