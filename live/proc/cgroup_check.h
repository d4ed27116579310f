/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_CGROUP_CHECK_H
#define KS_CGROUP_CHECK_H

#include <stddef.h>

#include "report.h"

/*
 * Checks --cgroup against the /proc tree open at root_fd (named root in
 * messages) before sampling.  Returns 0, or KS_EXIT_USAGE after the reason
 * to rep: a path with a ".." component (it would leave the cgroup2
 * mount) or longer than PATH_MAX, the tree's self/cgroup has no cgroup v2 line (a cgroup v1 host:
 * nothing could match), or, when root_fd is a real procfs, the cgroup
 * directory does not exist under the cgroup2 mount.  A tree without
 * self/cgroup, a copy of another machine's /proc, or a cgroup2 file system
 * not mounted from its root here cannot be checked and passes.
 */
int ks_cgroup_check(int root_fd, const char *root, const char *cgroup,
		    const struct ks_reporter *rep);

/*
 * The mount point of a cgroup2 file system mounted from its root, so that
 * a path of /proc/PID/cgroup is a directory under it, from the text of
 * /proc/self/mountinfo (cut up in place) into mnt.  0, or -ENOENT.
 */
int ks_cgroup2_mount(char *mountinfo, char *mnt, size_t len);

#endif /* KS_CGROUP_CHECK_H */
