/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A kdump-compressed dump (makedumpfile's "KDUMP   ", the older
 * "DISKDUMP"), checked before libkdumpfile sees it
 * (live/vmcore/diskdump_header.c): libkdumpfile 0.5.1 frees memory it
 * reads again when such an open fails, and copies a page descriptor's
 * size into a buffer of the block size.
 */
#ifndef KS_DISKDUMP_HEADER_H
#define KS_DISKDUMP_HEADER_H

#include <stdbool.h>
#include <stdint.h>

#include "report.h"

/* What a kdump-compressed dump describes, for the truncation checks. */
struct ks_diskdump_extent {
	bool diskdump;		/* the file has a diskdump signature */
	uint64_t want_size;	/* the bytes its headers and descriptors describe */
	/*
	 * Descriptors past the file's end: the size of their pages is not
	 * known, so want_size is the least the file should have.
	 */
	bool want_at_least;
	/* physical memory whose page descriptor or data is past the end */
	uint64_t missing_start, missing_end;	/* [start, end); empty: none */
};

/*
 * Checks the header, sub-header, notes, bitmaps and page descriptors of
 * the dump path open on fd (size bytes long) and measures it into ext.
 * Returns 0 when libkdumpfile may read it (a file without a diskdump
 * signature is left alone: ext->diskdump false), or -EINVAL after
 * "PATH is refused: ..." naming the field through rep (-ENOMEM after
 * "out of memory").
 */
int ks_diskdump_header_check(int fd, uint64_t size, const char *path,
			     const struct ks_reporter *rep,
			     struct ks_diskdump_extent *ext);

#endif /* KS_DISKDUMP_HEADER_H */
