/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_SELECT_H
#define KS_SELECT_H

#include <regex.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "task.h"

/* State letters selected with -D -R -S -Z -I -T, as a bit per letter. */
#define KS_ST_BIT(c)	(1ull << ((c) - 'A'))

/*
 * Which tasks: what every task walker is handed, /proc's and the
 * kernel image's.  The option parser fills it inside struct ks_options.
 */
struct ks_selection {
	bool all;		/* -a */
	uint64_t states;	/* KS_ST_BIT('D') | ... */
	int32_t *pids;		/* -p, in the order given */
	size_t nr_pids;
	size_t pids_cap;
	const char *comm;	/* --comm REGEX, compiled into comm_re */
	regex_t comm_re;
	bool threads;		/* -H */
	const char *cgroup;	/* --cgroup PATH */
};

/* A walk of a kernel image's tasks: the selection and what more it reads. */
struct ks_walk_opts {
	const struct ks_selection *sel;
	bool waits;		/* --waits: each D or S task's lock too */
	bool verbose;		/* -v: each task and list it could not read */
};

/*
 * Whether a task with this pid and state is selected by -a, a state or
 * -p (selectors are OR-ed, like oled kstack's).  The cgroup filter is
 * applied by the source, which is the one that knows where a task's
 * cgroup is, with ks_select_cgroup()'s rule.
 */
bool ks_select_match(const struct ks_selection *sel, int32_t pid, char state);
/*
 * Whether --comm's regex matches comm, the name /proc/PID/stat shows
 * (kworkers with their workqueue).  OR-ed with ks_select_match().
 */
bool ks_select_comm(const struct ks_selection *sel, const char *comm);
/* Whether -p alone was given: the source may then read only those PIDs. */
bool ks_select_pids_only(const struct ks_selection *sel);
/*
 * Whether the cgroup v2 path (ended by a NUL or a newline, as in
 * /proc/PID/cgroup) is the --cgroup option's cgroup or below it.
 */
bool ks_select_cgroup(const char *path, const char *cgroup);
/*
 * cgroup as /proc/PID/cgroup writes paths, into out (len bytes): one
 * slash between components, "." components and trailing slashes dropped
 * ("/." and "//" are "/").  0, -EINVAL for a ".." component (it would
 * leave the cgroup2 mount), -ENAMETOOLONG when it does not fit.
 */
int ks_select_cgroup_normalize(const char *cgroup, char *out, size_t len);
/* Frees what the parser allocated for sel (the PIDs, the regex). */
void ks_selection_release(struct ks_selection *sel);

#endif /* KS_SELECT_H */
