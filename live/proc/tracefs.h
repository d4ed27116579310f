/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where debugfs and tracefs are, mounting them in a private mount
 * namespace when they are not mounted (read-only for kstack -K/-F), so
 * that kstack leaves the system's mount table as it found it.
 */
#ifndef KS_TRACEFS_H
#define KS_TRACEFS_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "live_options.h"

struct ks_tracefs {
	char debugfs[PATH_MAX];		/* "" when not available */
	char tracefs[PATH_MAX];		/* "" when not available */
	char why_debugfs[256];		/* why not, for the user */
	char why_tracefs[256];
	int err_debugfs;		/* -errno behind why_debugfs, or 0 */
	int err_tracefs;
	bool mounted_debugfs;		/* we mounted it (private namespace) */
	bool mounted_tracefs;
	bool unshared;
};

/*
 * The mount point of the first mount of fstype in mountinfo (a file in
 * /proc/self/mountinfo format).  0, or -ENOENT.
 */
int ks_tracefs_find(const char *mountinfo, const char *fstype, char *path,
		    size_t len);

/* Is fstype in filesystems (a file in /proc/filesystems format)? */
bool ks_tracefs_kernel_has(const char *filesystems, const char *fstype);

/*
 * Finds debugfs (want_debugfs) and tracefs, mounting what is missing.
 * Never fails as a whole: what cannot be had has its reason set.  knobs
 * (may be NULL): the tests' fixture trees stand in for both.
 */
void ks_tracefs_open(struct ks_tracefs *fs, bool want_debugfs,
		     const struct ks_test_knobs *knobs);

/*
 * The same with tracefs writable where we mount it (kstack --snoop makes
 * a probe and an instance); debugfs stays read-only.
 */
void ks_tracefs_open_rw(struct ks_tracefs *fs, const struct ks_test_knobs *knobs);

/*
 * Does a file of names, one a line (/proc/kallsyms, kprobes/blacklist,
 * available_filter_functions), hold name as its line's word-th word (0
 * the first, -1 the last)?  false when the file cannot be read.
 */
bool ks_file_lists(const char *path, const char *name, int word);

#endif /* KS_TRACEFS_H */
