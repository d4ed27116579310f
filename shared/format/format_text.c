// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oled kstack's text, byte for byte, without its defects: no trailing space
 * after Cmd.  An empty stack prints "Stack:" and two empty lines, as the
 * Python tool's f"Stack:\n{stack}\n\n" did.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "text_escape.h"

int ks_format_header(char *buf, size_t len, time_t when, const char *host)
{
	struct tm tm;
	char date[128];

	if (!localtime_r(&when, &tm) ||
	    !strftime(date, sizeof(date), "%a %b %d %H:%M:%S %Z %Y", &tm))
		return -EINVAL;
	if ((size_t)snprintf(buf, len, "zzz <%s - %s", date, host) >= len)
		return -ENAMETOOLONG;
	return 0;
}

static void format_start(char *buf, size_t len, int64_t start)
{
	time_t t = (time_t)start;
	struct tm tm;

	if (start == KS_START_UNKNOWN || !localtime_r(&t, &tm) ||
	    !strftime(buf, len, "%Y/%m/%d %H:%M:%S", &tm))
		snprintf(buf, len, "?");
}

static void task_line(FILE *out, const struct ks_task *t)
{
	char start[64];

	format_start(start, sizeof(start), t->start_time);
	fprintf(out, "PID: %5d   State: %2c   Start Time: %s   Cmd: ", t->pid,
		t->state, start);
	ks_fputs_escaped(t->cmd ? t->cmd : t->comm, out);
	fputc('\n', out);
}

int ks_format_text(FILE *out, const struct ks_sample *s,
		   const struct ks_groups *g)
{
	char header[KS_HOST_LEN + 160];
	int ret = ks_format_header(header, sizeof(header), s->when, s->host);

	if (ret)
		return ret;
	fprintf(out, "%s\n\n", header);
	for (size_t i = 0; i < g->nr_groups; i++) {
		const struct ks_group *grp = &g->groups[i];

		for (size_t j = 0; j < grp->nr_members; j++)
			task_line(out, &s->tasks[grp->members[j]]);
		fprintf(out, "Stack:\n%s%s\n", grp->stack,
			*grp->stack ? "" : "\n");
	}
	return ferror(out) ? -EIO : 0;
}
