// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --folded's lines read back (shared/format/format_folded.c writes them):
 * "comm;outer;...;inner N", N tasks of that comm with that stack.  The
 * format has no time and no mark between samples, so each line is a
 * sample without a time (untimed): its stack is counted N times, and it
 * takes no part in the timeline or in what was stuck.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_parse.h"

#define FRAME_MAX	512

/* The frames, innermost first as the text has them: "[<0>] name". */
static int frames(struct ks_rp_parser *p, const char *s, const char *end)
{
	char frame[FRAME_MAX];
	int ret = 0;

	while (end > s && !ret) {
		const char *semi = end;
		int n;

		while (semi > s && semi[-1] != ';')
			semi--;
		n = snprintf(frame, sizeof(frame), "[<0>] %.*s",
			     (int)(end - semi), semi);
		if (end > semi)
			ret = ks_rp_group_frame(p, frame,
						n < FRAME_MAX ? (size_t)n : FRAME_MAX - 1);
		end = semi > s ? semi - 1 : s;
	}
	return ret;
}

int ks_rp_folded_line(struct ks_rp_parser *p, const char *line)
{
	struct ks_rp_task t = { .state = '?', .start = "?" };
	const char *sp = strrchr(line, ' '), *semi;
	char *end;
	int ret;

	/* the writer leaves no blank in comm or frames: a text line has some */
	if (!sp || sp == line || strchr(line, ' ') != sp || sp[1] < '0' ||
	    sp[1] > '9')
		return -EINVAL;
	t.weight = strtoul(sp + 1, &end, 10);
	if (*end || !t.weight)
		return -EINVAL;
	semi = memchr(line, ';', (size_t)(sp - line));
	if (!semi)
		semi = sp;
	snprintf(t.cmd, sizeof(t.cmd), "%.*s", (int)(semi - line), line);
	p->in_sample = true;
	p->s.untimed = true;
	p->s.time = 0;
	p->s.host[0] = '\0';
	ret = ks_rp_group_new(p);
	if (!ret && semi < sp)
		ret = frames(p, semi + 1, sp);
	if (!ret)
		ret = ks_rp_task_add(p, &t);
	if (ret) {
		ks_rp_flush(p, false);
		return ret;
	}
	return ks_rp_flush(p, true);
}
