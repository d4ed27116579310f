// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The sample driver of kernel_sample.h: what kdump_run.c's sample() and
 * the crash command's tasks_sample() each did, with two sets of words.
 */
#include <errno.h>
#include <string.h>
#include <time.h>

#include "kernel_sample.h"
#include "report.h"
#include "version.h"

static double now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* The walk's messages, held back without -v when the caller is quiet. */
struct walk_say {
	const struct ks_sample_say *say;
	bool verbose;
};

static void walk_report(void *arg, enum ks_say_level level, const char *text)
{
	const struct walk_say *w = arg;

	if (w->say->quiet && !w->verbose)
		return;
	ks_say_text(w->say->rep, level, text);
}

int ks_kernel_sample(struct ks_kernel *k, const struct ks_walk_opts *opts,
		     struct ks_sample *s, struct ks_kernel_status *st,
		     const struct ks_sample_say *say)
{
	struct walk_say w = { .say = say, .verbose = opts->verbose };
	const struct ks_reporter walk = { .say = walk_report, .arg = &w };
	double start = now();
	char host[KS_HOST_LEN];
	time_t when;
	int ret;

	memset(s, 0, sizeof(*s));
	memset(st, 0, sizeof(*st));
	ret = ks_kernel_when_host(k, &when, host, sizeof(host));
	if (ret) {
		ks_say(say->rep, KS_WARN,
		       "cannot read the dump's host name: %s",
		       strerror(-ret));
		return ret;
	}
	ks_sample_init(s, when, host);
	/* without a release in the type information, --json says null */
	ks_kernel_release(k, s->kernel, sizeof(s->kernel));
	ret = ks_kernel_walk(k, opts, s, st, &walk);
	st->start = start;
	if (ret == -ENOENT && opts->sel->cgroup)
		ks_say(say->rep, KS_WARN,
		       "--cgroup: this kernel's cgroup types are not known");
	else if (ret)
		ks_say(say->rep, KS_WARN, "walking the dump's tasks: %s",
		       strerror(-ret));
	return ret;
}

/* "N things ... (-v says which)": what a quiet walk held back. */
static void say_count(const struct ks_sample_say *say, size_t n,
		      const char *one, const char *many, const char *what)
{
	if (n)
		ks_say(say->rep, KS_WARN, "%zu %s%s (-v says which)", n,
		       n == 1 ? one : many, what);
}

void ks_kernel_status_say(bool verbose,
			  const struct ks_sample *s,
			  const struct ks_kernel_status *st,
			  const struct ks_sample_say *say)
{
	/* said with or without -v: every time and start time is "?" */
	if (st->no_clock)
		ks_say(say->rep, KS_WARN,
		       "the kernel's clock (the timekeeper at %#llx) is not in the dump: the sample's time and every start time are unknown (?)",
		       (unsigned long long)st->no_clock);
	if (!verbose) {
		if (!say->quiet)
			return;
		if (st->nr_unreadable || st->nr_list_errors)
			ks_say(say->rep, KS_WARN,
			       "%zu unreadable task%s, %zu broken list%s (-v says which)",
			       st->nr_unreadable, st->nr_unreadable == 1 ? "" : "s",
			       st->nr_list_errors, st->nr_list_errors == 1 ? "" : "s");
		say_count(say, st->nr_module_errors, "problem", "problems",
			  " with the modules' unwind tables");
		say_count(say, st->nr_stack_notes - st->nr_stack_unread,
			  "stack", "stacks", " could not be unwound to the end");
		say_count(say, st->nr_stack_unread, "stack is", "stacks are",
			  " in memory the dump does not hold");
		return;
	}
	/* each note once: those the walk said as it found them are said */
	for (size_t i = 0; i < s->nr_tasks; i++)
		if (s->tasks[i].note && !s->tasks[i].note_said)
			ks_say(say->rep, KS_WARN, "PID %d: %s",
			       s->tasks[i].pid, s->tasks[i].note);
	if (st->unwinder)
		ks_say(say->rep, KS_WARN, "%s", st->unwinder);
	if (st->no_last_ran)
		ks_say(say->rep, KS_WARN, "no time since last ran "
		       "(--json's last_ran_ns): %s", st->no_last_ran);
	ks_say(say->rep, KS_WARN, "kstack %s, kernel %s: "
	       "%zu task%s on the lists, %zu printed, %zu on a CPU, "
	       "%zu unreadable, %zu broken list%s, %zu short stack%s, "
	       "%zu module problem%s, in %.3f s",
	       KS_VERSION, *s->kernel ? s->kernel : "(unknown)",
	       st->nr_seen, ks_plural(st->nr_seen), s->nr_tasks,
	       st->nr_on_cpu, st->nr_unreadable, st->nr_list_errors,
	       ks_plural(st->nr_list_errors), st->nr_stack_notes,
	       ks_plural(st->nr_stack_notes), st->nr_module_errors,
	       ks_plural(st->nr_module_errors), now() - st->start);
}
