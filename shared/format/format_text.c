// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * oled kstack's text, byte for byte, without its defects: no trailing space
 * after Cmd.  An empty stack prints "Stack:" and two empty lines, as the
 * Python tool's f"Stack:\n{stack}\n\n" did.  -v adds each task's
 * task_struct and CPU to its line and its note on a line of its own; the
 * groups stay the same.  A note on memory a cut dump lacks prints without
 * -v too.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "format.h"
#include "text_escape.h"

int ks_format_header(char *buf, size_t len, time_t when, const char *host)
{
	struct tm tm;
	char date[128] = "?";

	if (when != KS_WHEN_UNKNOWN &&
	    (!localtime_r(&when, &tm) ||
	     !strftime(date, sizeof(date), "%a %b %d %H:%M:%S %Z %Y", &tm)))
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

/*
 * -v: what a crash user follows up with (struct task_struct ADDR, bt -c
 * CPU), before Cmd so that Cmd stays the rest of the line.  The live
 * /proc knows no task_struct address: no Task field there.
 */
static void follow_up_fields(FILE *out, const struct ks_task *t)
{
	if (t->task_addr)
		fprintf(out, "Task: %016llx   ", (unsigned long long)t->task_addr);
	if (t->has_cpu)
		fprintf(out, "CPU: %d%s   ", t->cpu, t->running ? " (on CPU)" : "");
	else if (t->running)
		fputs("CPU: ? (on CPU)   ", out);
}

static void task_line(FILE *out, const struct ks_task *t, bool verbose)
{
	char start[64];

	format_start(start, sizeof(start), t->start_time);
	fprintf(out, "PID: %5d   State: %2c   Start Time: %s   ", t->pid,
		t->state, start);
	if (verbose)
		follow_up_fields(out, t);
	fputs("Cmd: ", out);
	ks_fputs_escaped(t->cmd ? t->cmd : t->comm, out);
	fputc('\n', out);
	/*
	 * -v: why the stack below is empty or short, for this task; always
	 * when it is the dump's missing memory, which the text alone hides
	 */
	if ((verbose || t->missing) && t->note) {
		fputs("Note: ", out);
		ks_fputs_escaped(t->note, out);
		fputc('\n', out);
	}
}

static int format_text(FILE *out, const struct ks_sample *s,
		       const struct ks_groups *g, bool verbose)
{
	char header[KS_HOST_LEN + 160];
	int ret = ks_format_header(header, sizeof(header), s->when, s->host);

	if (ret)
		return ret;
	fprintf(out, "%s\n\n", header);
	for (size_t i = 0; i < g->nr_groups; i++) {
		const struct ks_group *grp = &g->groups[i];

		for (size_t j = 0; j < grp->nr_members; j++)
			task_line(out, &s->tasks[grp->members[j]], verbose);
		fprintf(out, "Stack:\n%s%s\n", grp->stack,
			*grp->stack ? "" : "\n");
	}
	return ferror(out) ? -EIO : 0;
}

/*
 * -v's fields are not in background logs (-b, --foreground): there -v
 * means DEBUG log lines, and the samples stay oled's text for kstack
 * report and oled's own readers.
 */
int ks_format_text(FILE *out, const struct ks_sample *s,
		   const struct ks_groups *g, const struct ks_format_opts *opts)
{
	return format_text(out, s, g, opts->verbose);
}
