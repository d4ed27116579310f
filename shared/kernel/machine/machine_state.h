/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The machine a kernel image is of, as uname, nproc, uptime and
 * /proc/loadavg would have shown it there: init_uts_ns's names, the
 * present and online CPU masks, the time since boot from the
 * timekeeper, avenrun[] and saved_command_line.  Each fact is read on
 * its own and says on its own why it is missing; only through struct
 * ks_target.  The triage (shared/format/triage_run.c) writes it.
 */
#ifndef KS_MACHINE_STATE_H
#define KS_MACHINE_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "target.h"

#define KS_UTS_LEN	65	/* __NEW_UTS_LEN + 1 */
/* avenrun[]'s fixed point (include/linux/sched/loadavg.h) */
#define KS_FSHIFT	11

struct ks_machine {
	int uts_err;			/* 0, or why the names are unknown */
	char nodename[KS_UTS_LEN];
	char release[KS_UTS_LEN];
	char machine[KS_UTS_LEN];	/* "" where the type lacks it */
	int cpus_err;			/* 0, or why the counts are unknown */
	unsigned int nr_cpu_ids;
	unsigned int present, online;	/* bits set in each mask */
	int uptime_err;			/* 0, or why there is no uptime */
	uint64_t uptime_ns;		/* CLOCK_BOOTTIME at the last tick */
	int load_err;
	uint64_t avenrun[3];		/* 1, 5 and 15 minutes, FSHIFT fixed point */
	int cmdline_err;
	char *cmdline;			/* saved_command_line, or NULL */
};

/*
 * Fills m; timekeeper is the struct timekeeper's address as the task
 * walk's layout found it (kernel_layout.h), 0 where it is unknown.  What
 * cannot be read is said once through rep and kept as its part's error.
 * Returns 0 or -ENOMEM; ks_machine_release() frees m either way.
 */
int ks_machine_read(const struct ks_target *t, uint64_t timekeeper,
		    struct ks_machine *m, const struct ks_reporter *rep);
void ks_machine_release(struct ks_machine *m);

/* "0.52" of an avenrun[] value, as /proc/loadavg prints it. */
void ks_machine_load(uint64_t avenrun, char *buf, size_t len);

#endif /* KS_MACHINE_STATE_H */
