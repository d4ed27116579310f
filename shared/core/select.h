/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_SELECT_H
#define KS_SELECT_H

#include <stdbool.h>

#include "options.h"
#include "task.h"

/*
 * Whether a task with this pid and state is selected (selectors are
 * OR-ed, like oled kstack's).  The cgroup filter is applied by the
 * source, which is the one that knows where a task's cgroup is, with
 * ks_select_cgroup()'s rule.
 */
bool ks_select_match(const struct ks_options *opts, int32_t pid, char state);
/* Whether -p alone was given: the source may then read only those PIDs. */
bool ks_select_pids_only(const struct ks_options *opts);
/*
 * Whether the cgroup v2 path (ended by a NUL or a newline, as in
 * /proc/PID/cgroup) is the --cgroup option's cgroup or below it.
 */
bool ks_select_cgroup(const char *path, const char *cgroup);

#endif /* KS_SELECT_H */
