/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The -x guard: how full the file system holding the output directory is,
 * checked before every write so a long background run cannot fill a disk
 * that other services need.  Generic: it knows a directory fd, not /proc.
 */
#ifndef KS_DISK_GUARD_H
#define KS_DISK_GUARD_H

#include <stdbool.h>
#include <stdint.h>
#include <sys/statvfs.h>

/*
 * oled's figure: ceil((f_blocks - f_bfree) * 100 / f_blocks).  f_bfree (not
 * f_bavail) so the root reserve counts as free, as in oled.  A file system
 * that reports no blocks (some pseudo file systems) is 0% used.
 */
int ks_disk_used_percent(uint64_t blocks, uint64_t bfree);

/* What a check found, relative to the previous check. */
enum ks_guard_event {
	KS_GUARD_OK,		/* below the threshold, as before */
	KS_GUARD_FULL,		/* at or above, already reported */
	KS_GUARD_BECAME_FULL,	/* crossed upwards: say so once */
	KS_GUARD_RESUMED,	/* back below after being full: say so once */
};

struct ks_disk_guard {
	int fd;			/* any fd on the file system, e.g. the dir */
	long threshold;		/* -x PERCENT */
	/* fstatvfs by default; tests inject a fake */
	int (*statvfs_fn)(int fd, struct statvfs *st);
	bool full;		/* the last successful check was >= threshold */
	int used;		/* percent used at the last successful check */
};

void ks_disk_guard_init(struct ks_disk_guard *g, int fd, long threshold);
/*
 * Re-reads the file system.  Returns an event, or -errno when statvfs
 * failed; then the previous state is kept (a failing statvfs says nothing
 * about space, and refusing every write on it would lose samples).
 */
int ks_disk_guard_check(struct ks_disk_guard *g);

static inline bool ks_disk_guard_allows(const struct ks_disk_guard *g)
{
	return !g->full;
}

#endif /* KS_DISK_GUARD_H */
