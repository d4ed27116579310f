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

/* Each D and S task's lock (and with last_ran its time since it ran). */
static void copy_waits(struct ks_sample *s, const struct ks_sample *mem,
		       bool last_ran)
{
	for (size_t i = 0; i < mem->nr_tasks; i++) {
		const struct ks_task *m = &mem->tasks[i];

		if (!m->has_wait && !(last_ran && m->has_last_ran))
			continue;
		for (size_t j = 0; j < s->nr_tasks; j++) {
			struct ks_task *t = &s->tasks[j];

			if (t->pid != m->pid)
				continue;
			t->has_wait = m->has_wait;
			if (m->has_wait)
				t->wait = m->wait;
			if (last_ran && m->has_last_ran) {
				t->has_last_ran = true;
				t->last_ran_ns = m->last_ran_ns;
			}
			break;
		}
	}
}

int ks_kcore_waits_read(struct ks_sample *s, bool last_ran, bool verbose,
			const struct ks_reporter *rep)
{
	const struct ks_selection sel = {
		.states = KS_ST_BIT('D') | KS_ST_BIT('S'), .threads = true,
	};
	const struct ks_walk_opts o = { .sel = &sel, .waits = true,
					.verbose = verbose };
	struct ks_kcore_target *kt;
	struct ks_kernel_status st;
	struct ks_sample mem;
	struct ks_kernel *k;
	struct ks_target t;
	int ret;

	ret = ks_kcore_target_open("/proc/kcore", "/sys/kernel/btf/vmlinux", &kt,
				   &t, rep);
	if (ret)
		return ret < 0 ? ret : -EIO;
	ret = ks_kernel_open(&t, &k, rep);
	if (ret)
		goto out;
	ks_sample_init(&mem, 0, "");
	ret = ks_kernel_walk(k, &o, &mem, &st, verbose ? rep : NULL);
	if (!ret)
		copy_waits(s, &mem, last_ran);
	else
		ks_say(rep, KS_WARN, "walking the running kernel's tasks: %s",
		       strerror(-ret));
	ks_sample_release(&mem);
	ks_kernel_close(k);
out:
	ks_kcore_target_close(kt);
	return ret;
}

/* --waits' wording of a walk that failed, as it has always been */
static void say_waits(void *arg, enum ks_say_level level, const char *text)
{
	(void)arg;
	(void)level;
	if (!strncmp(text, "walking the running kernel's tasks: ", 36))
		ks_live_say("--waits: %s", text);
	else
		ks_live_say("%s", text);
}

void ks_kcore_waits(struct ks_sample *s, const struct ks_options *opts)
{
	const struct ks_reporter rep = { .say = say_waits };

	s->waits_note = "the running kernel's memory cannot be read "
			"(/proc/kcore): no locks";
	s->waits_unread = true;
	if (ks_kcore_waits_read(s, false, opts->out.verbose, &rep))
		return;
	s->waits_unread = false;
	s->waits_note = "read live from /proc/kcore: a snapshot of "
			"memory that moved while it was read";
}
