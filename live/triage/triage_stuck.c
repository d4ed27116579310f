// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live triage's tasks in D: the sample -D reads from /proc, each
 * task's lock and time since it last ran from /proc/kcore where the
 * running kernel's memory can be read (kcore_waits.c, as -D --waits
 * reads it), grouped as the dump's are.  Without kcore the "== waits"
 * paragraph says once what needs it; without the right to read stacks
 * the section says that instead of listing tasks without them.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "kcore_waits.h"
#include "live_sample.h"
#include "triage_live.h"

/* kept until the sample is written: the note's words */
static char waits_note[KS_TRIAGE_WHY + 80];

static void read_waits(struct ks_sample *s)
{
	char why[KS_TRIAGE_WHY] = "";
	const struct ks_reporter rep = KS_TRIAGE_CATCH(why);

	if (!ks_kcore_waits_read(s, true, false, &rep)) {
		s->waits_note = "read live from /proc/kcore: a snapshot of "
				"memory that moved while it was read";
		return;
	}
	snprintf(waits_note, sizeof(waits_note), "the blockers and the time "
		 "since each task last ran need /proc/kcore: %s",
		 *why ? why : "it cannot be read");
	s->waits_note = waits_note;
	s->waits_unread = true;
}

static int take(struct ks_proc *p, struct ks_sample *s, char *why)
{
	struct ks_options o;
	struct ks_proc_status st;
	int ret;

	memset(&o, 0, sizeof(o));
	o.sel.states = KS_ST_BIT('D');
	ret = ks_live_take(p, &o, s, &st);
	if (ret)
		ks_triage_why(why, "sampling /proc: %s", strerror(-ret));
	else if (st.nr_denied)
		ks_triage_why(why, "/proc/%d/stack: %s", (int)st.first_denied,
			      ks_proc_denied_reason());
	return ret;
}

int ks_triage_live_stuck(const struct ks_live_options *live,
			 struct ks_sample *s, struct ks_groups *g, char *why)
{
	const struct ks_reporter rep = KS_TRIAGE_CATCH(why);
	struct ks_proc p;
	int ret;

	ret = ks_proc_open(&p, live->proc_root, &rep);
	if (ret)
		return ret;
	ret = ks_proc_stack_access(&p);
	if (ret) {
		ks_triage_why(why, "%s/PID/stack: %s: %s", live->proc_root,
			      strerror(-ret), ks_proc_denied_reason());
		goto out;
	}
	ret = take(&p, s, why);
	if (!ret && s->nr_tasks)
		read_waits(s);
	if (!ret)
		ret = ks_group_build(s, g);
out:
	ks_proc_close(&p);
	return ret;
}
