/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kstack triage of the running system: struct ks_triage (triage.h)
 * filled from /proc, /sys, /dev/kmsg, debugfs and tracefs, and where it
 * can be read /proc/kcore, then written by the dump's own writers
 * (triage_text.c, triage_json.c), so that both print the same sections
 * in the same order.  One file per part; each keeps the first thing it
 * could not read in its section's why and goes on.
 */
#ifndef KS_TRIAGE_LIVE_H
#define KS_TRIAGE_LIVE_H

#include "live_options.h"
#include "options.h"
#include "triage.h"

/* The whole run: returns the process exit status. */
int ks_triage_live_run(const struct ks_options *opts,
		       const struct ks_live_options *live);

/* uname, the CPU masks of /sys, /proc/uptime, /proc/loadavg, /proc/cmdline */
void ks_triage_live_machine(struct ks_machine *m, char *why);
/* No panic; /proc/sys/kernel/tainted's letters and /sys/module/NAME/taint */
void ks_triage_live_taint(struct ks_panic_state *ps, char *why);
/* /proc/meminfo's lines, and the largest caches of /proc/slabinfo */
void ks_triage_live_memory(struct ks_memory *m, char *why, char *slab_why);
/* Each present CPU's running task (stat's processor) and its stack. */
int ks_triage_live_cpus(struct ks_cpus *cs, char *why);
/* The tasks in D as -D --waits reads them, grouped; kcore where it opens. */
int ks_triage_live_stuck(const struct ks_live_options *live,
			 struct ks_sample *s, struct ks_groups *g, char *why);
/* /dev/kmsg through the dump's digest. */
int ks_triage_live_log(struct ks_log_digest *d, char *why);

/* The hooks from debugfs and tracefs: -K's and -F's lines. */
struct ks_triage_live_hooks;
struct ks_triage_live_hooks *ks_triage_live_hooks_open(
	const struct ks_test_knobs *knobs, struct ks_triage_hooks *h);
void ks_triage_live_hooks_close(struct ks_triage_live_hooks *lh);

/* The first line only: a part's later trouble is kept out of its why. */
void ks_triage_why(char *why, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));

#endif /* KS_TRIAGE_LIVE_H */
