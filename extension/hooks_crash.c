// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The crash side of -K / -F.  It needs nothing of crash itself: the walk
 * and the formatting are the shared ones (shared/hooks/hooks.h) over the crash
 * target, so a vmcore opened with or without crash prints the same text.
 */
#include "buffered_out.h"
#include "hooks.h"
#include "hooks_crash.h"

/* A complaint flushes the lines before it, so both keep their order. */
struct flush_first {
	FILE *out;
	const struct ks_reporter *rep;
};

static void report_after_flush(void *arg, enum ks_say_level level,
			       const char *text)
{
	struct flush_first *f = arg;

	fflush(f->out);
	ks_say_text(f->rep, level, text);
}

/*
 * crash's fp is unbuffered, and -F on a kernel tracing every function
 * prints 60,000 lines or more: through a buffer (buffered_out.h).
 */
int ks_hooks_crash(const struct ks_target *t, const struct ks_options *opts,
		   FILE *out, const struct ks_reporter *rep)
{
	struct flush_first f = { .out = ks_buffered_open(out), .rep = rep };
	const struct ks_reporter flushing = { .say = report_after_flush,
					      .arg = &f };
	int ret, ret2;

	ret = ks_hooks_report(t, &opts->hooks, &opts->out, f.out, &flushing);
	ret2 = ks_buffered_close(f.out, out);
	return ret ? ret : ret2;
}
