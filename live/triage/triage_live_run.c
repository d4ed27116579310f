// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack triage on the running system: each part of struct ks_triage
 * filled by its live reader (this folder), in the order the sections
 * print, then the dump's writer.  A part that cannot be read keeps its
 * reason for its section and the others go on, as in a dump; the run
 * fails only when the page cannot be written or memory runs out.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "exit_status.h"
#include "live_say.h"
#include "triage_live.h"

static void read_parts(struct ks_triage *tr, const struct ks_live_options *live)
{
	ks_triage_live_machine(&tr->machine, tr->machine_why);
	ks_triage_live_taint(&tr->ps, tr->ps_why);
	ks_triage_live_memory(&tr->mem, tr->mem_why, tr->slab_why);
	tr->stuck_err = ks_triage_live_stuck(live, &tr->stuck,
					     &tr->stuck_groups, tr->stuck_why);
	tr->cpus_err = ks_triage_live_cpus(&tr->cpus, tr->cpus_why);
	tr->log_err = ks_triage_live_log(&tr->log, tr->log_why);
}

static void release(struct ks_triage *tr)
{
	ks_machine_release(&tr->machine);
	ks_panic_state_release(&tr->ps);
	ks_cpus_release(&tr->cpus);
	ks_group_release(&tr->stuck_groups);
	ks_sample_release(&tr->stuck);
	ks_log_digest_release(&tr->log);
}

static int write_page(const struct ks_triage *tr, bool json)
{
	int ret = json ? ks_triage_json(stdout, tr) : ks_triage_text(stdout, tr);

	if (fflush(stdout) && !ret)
		ret = -errno;
	if (ret == -EIO || ret == -EPIPE || ret == -ENOSPC)
		ks_live_say("writing the output failed: %s", strerror(-ret));
	else if (ret)
		ks_live_say("triage: %s", strerror(-ret));
	return ret;
}

int ks_triage_live_run(const struct ks_options *opts,
		       const struct ks_live_options *live)
{
	struct ks_triage_live_hooks *lh;
	struct ks_triage_hooks hooks;
	struct ks_triage tr;
	int ret;

	memset(&tr, 0, sizeof(tr));
	tr.live = true;
	lh = ks_triage_live_hooks_open(&live->knobs, &hooks);
	if (!lh) {
		ks_live_say("out of memory");
		return KS_EXIT_ERROR;
	}
	tr.hooks = &hooks;
	read_parts(&tr, live);
	if (tr.stuck_err == -ENOMEM || tr.cpus_err == -ENOMEM ||
	    tr.log_err == -ENOMEM || tr.ps.modules_err == -ENOMEM ||
	    tr.machine.cmdline_err == -ENOMEM) {
		ks_live_say("out of memory");
		ret = -ENOMEM;
	} else {
		ret = write_page(&tr, opts->out.format == KS_FMT_JSON);
	}
	release(&tr);
	ks_triage_live_hooks_close(lh);
	return ret ? KS_EXIT_ERROR : KS_EXIT_OK;
}
