/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * file:line added to stack text: kstack -l on a sample (the live tool,
 * --vmcore and the crash command), and each line of kstack --decode's
 * input (any text that holds kernel frames: kstack's logs,
 * /proc/PID/stack, a dmesg oops, crash's bt).  A frame line keeps its text
 * and gains " FILE:LINE" after it; each inlined function the frame's
 * address lies in comes first, on a line of its own with the frame's
 * prefix:
 *
 *   [<0>] rw_verify_area (inlined) fs/read_write.c:380
 *   [<0>] vfs_read+0x95/0x196 fs/read_write.c:468
 */
#ifndef KS_DECODE_TEXT_H
#define KS_DECODE_TEXT_H

#include <stdio.h>

#include "lines.h"
#include "report.h"
#include "task.h"

/*
 * The frame of line (len bytes, NULs included), if any, shown to
 * ks_lines_judge(): every line of a text goes here before the first goes
 * to ks_decode_line().
 */
void ks_decode_judge_line(struct ks_lines *l, const char *line, size_t len);

/*
 * Writes line (len bytes, no newline, NULs included) to out with its
 * frame decoded, and a newline.  Lines without a frame, and lines decoded
 * before, are written as they are.
 */
void ks_decode_line(struct ks_lines *l, const char *line, size_t len, FILE *out);

/* The whole of text judged, then decoded, malloc'ed; NULL without memory. */
char *ks_decode_text(struct ks_lines *l, const char *text);

/* Every stack of s judged, then decoded in place with l; 0 or -ENOMEM. */
int ks_decode_stacks(struct ks_sample *s, struct ks_lines *l);

/*
 * -l: every stack of s decoded in place with the lines of cfg's kernel;
 * what had no debug info is said once through rep.  0 or -ENOMEM.
 */
int ks_lines_sample(struct ks_sample *s, const struct ks_lines_config *cfg,
		    const struct ks_reporter *rep);

#endif /* KS_DECODE_TEXT_H */
