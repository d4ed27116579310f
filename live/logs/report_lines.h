/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Lines of one log file, plain or gzip (zlib reads both).  A text line
 * longer than KS_REPORT_LINE_MAX is cut (the rest skipped); a line that
 * opens a JSON object (-b --json writes a sample a line) may grow to
 * KS_REPORT_JSON_MAX, so memory stays bounded whatever the input.  A NUL
 * byte inside a line is read as '?' and counted: it must not end the line
 * (or the file's last sample) early.  A gzip stream that ends early or is
 * corrupt is read as far as it goes, and the cut is reported.
 */
#ifndef KS_REPORT_LINES_H
#define KS_REPORT_LINES_H

#include <stdbool.h>
#include <stddef.h>
#include <zlib.h>

#define KS_REPORT_LINE_MAX	4096
#define KS_REPORT_JSON_MAX	(16u << 20)
#define KS_REPORT_READ		(64 * 1024)

struct ks_report_lines {
	gzFile gz;
	char in[KS_REPORT_READ];	/* read ahead */
	size_t in_pos, in_len;
	bool eof;
	char *buf;		/* the line */
	size_t len, cap;
	unsigned long long offset;	/* bytes of text read so far */
	unsigned long nr_nul;	/* lines that held a NUL byte */
	unsigned long nr_long;	/* lines cut at their limit */
	bool line_cut;		/* this line went past its limit */
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
