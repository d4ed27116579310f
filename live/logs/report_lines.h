/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Lines of one log file, plain or gzip (zlib reads both), in a buffer of
 * fixed size: a line longer than it is cut (the rest skipped), so memory
 * stays flat whatever the input.  A gzip stream that ends early or is
 * corrupt is read as far as it goes, and the cut is reported.
 */
#ifndef KS_REPORT_LINES_H
#define KS_REPORT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <zlib.h>

#define KS_REPORT_LINE_MAX	4096

struct ks_report_lines {
	gzFile gz;
	char buf[KS_REPORT_LINE_MAX];
	unsigned long long offset;	/* bytes of text read so far */
	bool torn;		/* the last line had no newline */
	char cut[160];		/* why reading stopped early, or "" */
};

/* name in dirfd, never through a symlink; 0 or -errno */
int ks_report_lines_open(struct ks_report_lines *l, int dirfd,
			 const char *name);
/* The next line without its newline, or NULL at the end or a cut. */
const char *ks_report_lines_next(struct ks_report_lines *l);
void ks_report_lines_close(struct ks_report_lines *l);

#endif /* KS_REPORT_LINES_H */
