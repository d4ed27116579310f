// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "disk_guard.h"

int ks_disk_used_percent(uint64_t blocks, uint64_t bfree)
{
	unsigned __int128 used;

	if (!blocks)
		return 0;
	/* a racing statvfs can report more free than total: clamp, not wrap */
	if (bfree > blocks)
		bfree = blocks;
	/* 128 bits: blocks * 100 may not fit in 64 on a huge file system */
	used = (unsigned __int128)(blocks - bfree) * 100;
	return (int)((used + blocks - 1) / blocks);
}

void ks_disk_guard_init(struct ks_disk_guard *g, int fd, long threshold)
{
	g->fd = fd;
	g->threshold = threshold;
	g->statvfs_fn = fstatvfs;
	g->full = false;
	g->used = 0;
}

int ks_disk_guard_check(struct ks_disk_guard *g)
{
	struct statvfs st;
	bool was_full = g->full;

	if (g->statvfs_fn(g->fd, &st))
		return -errno;
	g->used = ks_disk_used_percent(st.f_blocks, st.f_bfree);
	g->full = g->used >= g->threshold;
	if (g->full)
		return was_full ? KS_GUARD_FULL : KS_GUARD_BECAME_FULL;
	return was_full ? KS_GUARD_RESUMED : KS_GUARD_OK;
}
