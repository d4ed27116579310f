/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tracefs side of kstack --snoop: a kprobe event kstack/kstack_PID_N
 * in the instance-independent kprobe_events, enabled only in a tracing
 * instance of our own, instances/kstack-PID, with the stack trace and
 * sym-offset options set there, so the user's own tracing setup (the top
 * level buffer, its options, other instances) is never touched.  What a
 * run leaves behind when it is killed, the next run removes.
 */
#ifndef KS_SNOOP_PROBE_H
#define KS_SNOOP_PROBE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "report.h"
#include "tracefs.h"

#define KS_SNOOP_GROUP	"kstack"

struct ks_snoop_probe {
	char tracefs[PATH_MAX];
	char instance[PATH_MAX + 32];	/* its directory, once made */
	char event[64];			/* kstack_PID_N */
	bool probe_made, instance_made, enabled;
	int pipe_fd;			/* the instance's trace_pipe, or -1 */
};

/* "kstack-123" is ours: its pid, else -ENOENT. */
int ks_snoop_instance_pid(const char *name, int32_t *pid);

/*
 * A kprobe_events line ("p:kstack/kstack_123_0 ksys_sync") of ours: its
 * group/event in name (for "-:name") and the pid in the event's name.
 * -ENOENT for any other line.
 */
int ks_snoop_probe_line(const char *line, char *name, size_t len, int32_t *pid);

/*
 * The kernel's reason for refusing command, from error_log's text: the
 * last entry whose "Command:" is command, as "reason\n  Command: ...\n
 * caret line".  -ENOENT when error_log says nothing of it.
 */
int ks_snoop_error_reason(const char *error_log, const char *command,
			  char *buf, size_t len);

/* Is kstack process pid still running?  Used for leftovers. */
typedef bool (*ks_snoop_alive_fn)(int32_t pid);
bool ks_snoop_alive(int32_t pid);

/*
 * Removes the instances and probes of kstack runs that are gone, saying
 * so on report; returns how many things it removed.
 */
int ks_snoop_clean_stale(const char *tracefs, ks_snoop_alive_fn alive,
			 const struct ks_reporter *rep);

/*
 * The probe on func, the instance, its options and -p filter, trace_pipe
 * opened; then the event enabled.  On failure, report says why for the
 * user and what was made is removed; returns the exit status it deserves
 * (1: the kernel refused func, 3: no kprobe events, 4: other).
 */
int ks_snoop_probe_open(struct ks_snoop_probe *p, const struct ks_tracefs *fs,
			const char *func, const int32_t *pids, size_t nr_pids,
			const struct ks_reporter *rep);

/* Disables the event: trace_pipe then holds the last calls only. */
void ks_snoop_probe_stop(struct ks_snoop_probe *p);

/* Disables, closes and removes everything made; may be called twice. */
void ks_snoop_probe_close(struct ks_snoop_probe *p,
			  const struct ks_reporter *rep);

#endif /* KS_SNOOP_PROBE_H */
