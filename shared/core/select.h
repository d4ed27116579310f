/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_SELECT_H
#define KS_SELECT_H

#include <stdbool.h>
#include <stddef.h>

#include "options.h"
#include "task.h"

/*
 * Whether a task with this pid and state is selected by -a, a state or
 * -p (selectors are OR-ed, like oled kstack's).  The cgroup filter is
 * applied by the source, which is the one that knows where a task's
 * cgroup is, with ks_select_cgroup()'s rule.
 */
bool ks_select_match(const struct ks_options *opts, int32_t pid, char state);
/*
 * Whether --comm's regex matches comm, the name /proc/PID/stat shows
 * (kworkers with their workqueue).  OR-ed with ks_select_match().
 */
bool ks_select_comm(const struct ks_options *opts, const char *comm);
/* Whether -p alone was given: the source may then read only those PIDs. */
bool ks_select_pids_only(const struct ks_options *opts);
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

#endif /* KS_SELECT_H */
