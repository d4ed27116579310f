// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack: the kernel stacks of selected tasks, grouped by identical stack.
 * A successor of oled kstack with the same options and text.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "background.h"
#include "cgroup_check.h"
#include "decode.h"
#include "diff_run.h"
#include "format.h"
#include "help.h"
#include "hooks_live.h"
#include "kcore_waits.h"
#include "kdump_run.h"
#include "kmsg_log.h"
#include "live_options.h"
#include "live_sample.h"
#include "options.h"
#include "output_file.h"
#include "report_opts.h"
#include "report_run.h"
#include "snoop.h"
#include "triage_live.h"
#include "version.h"

/*
 * Our own stack was refused: say it of the stacks asked for (the first
 * -p PID's, else every task's), not of the self/stack the check read.
 */
static void say_denied(const struct ks_options *opts,
		       const struct ks_live_options *live, int err)
{
	char pid[16] = "PID";

	if (ks_select_pids_only(&opts->sel))
		snprintf(pid, sizeof(pid), "%d", (int)opts->sel.pids[0]);
	ks_live_say("%s/%s/stack: %s: %s", live->proc_root, pid, strerror(-err),
		    ks_proc_denied_reason());
}

/*
 * The /proc tree, and whether this run can do anything with it: a
 * --cgroup that names nothing, or stacks we may not read, end the run
 * before anything is sampled or written.
 */
static int open_proc(const struct ks_options *opts,
		     const struct ks_live_options *live, struct ks_proc *p)
{
	int ret, status = 0;

	ret = ks_proc_open(p, live->proc_root, &ks_live_reporter);
	if (ret)
		return KS_EXIT_ERROR;
	if (opts->sel.cgroup)
		status = ks_cgroup_check(p->root_fd, live->proc_root,
					 opts->sel.cgroup, &ks_live_reporter);
	/* a usage error like the parser's, with its hint (EXIT STATUS 2) */
	if (status == KS_EXIT_USAGE)
		ks_say_line("try 'kstack --help'");
	if (status)
		goto fail;
	/* not root: say so now rather than print every task without a stack */
	ret = ks_proc_stack_access(p);
	if (ret) {
		say_denied(opts, live, ret);
		status = KS_EXIT_PERM;
		goto fail;
	}
	return 0;
fail:
	ks_proc_close(p);
	return status;
}

static int one_sample(const struct ks_options *opts,
		      const struct ks_live_options *live)
{
	struct ks_proc_status st;
	struct ks_sample s = { 0 };
	struct ks_output out;
	struct ks_proc p;
	int ret, status;

	status = open_proc(opts, live, &p);
	if (status)
		return status;
	status = ks_output_open(&out, live);
	if (status)
		goto out_proc;
	ret = ks_live_take(&p, opts, &s, &st);
	if (ret) {
		ks_live_say("sample failed: %s", strerror(-ret));
		status = KS_EXIT_ERROR;
		goto out;
	}
	status = ks_live_report(opts, &s, &st);
	if (opts->out.verbose)
		ks_live_say("kstack %s on kernel %s, %zu task(s)",
			    KS_VERSION, *s.kernel ? s.kernel : "(unknown)", s.nr_tasks);
	if (!s.nr_tasks || status == KS_EXIT_PERM)
		goto out;
	if (opts->out.waits)
		ks_kcore_waits(&s, opts);
	if (opts->lines && ks_decode_sample(&s, opts, true))
		ks_live_say("out of memory adding lines");
	if (ks_output_write(&out, &s, &opts->out))
		status = KS_EXIT_ERROR;
out:
	ks_sample_release(&s);
	ks_output_close(&out);
out_proc:
	ks_proc_close(&p);
	return status;
}

/* A knob set to "" is unset, as the tests' scripts expect. */
static const char *knob(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? v : NULL;
}

/*
 * The tests steer kstack through KSTACK_TEST_*: read here, once, and
 * nowhere else, into the struct the parser keeps in the live options.
 */
static void read_test_knobs(struct ks_test_knobs *k)
{
	k->interval_ms = knob("KSTACK_TEST_INTERVAL_MS");
	k->duration_ms = knob("KSTACK_TEST_DURATION_MS");
	k->max_bytes = knob("KSTACK_TEST_MAX_BYTES");
	k->oled_lock = knob("KSTACK_TEST_OLED_LOCK");
	k->debugfs = knob("KSTACK_TEST_DEBUGFS");
	k->tracefs = knob("KSTACK_TEST_TRACEFS");
	k->journal_socket = knob("KSTACK_TEST_JOURNAL_SOCKET");
	/* not KSTACK_TEST_: vmcores/scenarios/snoop.sh records with it */
	k->snoop_raw = knob("KSTACK_SNOOP_RAW");
	k->kallsyms_scan = knob("KSTACK_TEST_KALLSYMS_SCAN");
	k->verify_cache = knob("KSTACK_TEST_VERIFY_CACHE");
	k->sample_ms = knob("KSTACK_TEST_SAMPLE_MS");
}

/* The one place the live tool goes by the mode the parser decided. */
static int run(const struct ks_options *opts,
	       const struct ks_live_options *live)
{
	switch (opts->mode) {
	case KS_IN_INFO:
		if (opts->help)
			ks_help_print(stdout);
		else
			printf("kstack %s\n", KS_VERSION);
		return fflush(stdout) ? KS_EXIT_ERROR : KS_EXIT_OK;
	case KS_IN_DECODE:
		return ks_decode_run(opts, live);
	case KS_IN_SNOOP:
		return ks_snoop_run(opts, live);
	case KS_IN_VMCORE:
	case KS_IN_VHOOKS:
	case KS_IN_VLOG:
	case KS_IN_VCPUS:
	case KS_IN_VPANIC:
	case KS_IN_VTRIAGE:
		/* -K / -F, --log, --cpus, --panic, triage of a dump: its memory */
		return ks_kdump_run(opts, live);
	case KS_IN_HOOKS:
		return ks_hooks_live(opts, &live->knobs);
	case KS_IN_LOG:
		return ks_kmsg_log_run(opts);
	case KS_IN_BG:
		return ks_background_run(opts, live);
	case KS_IN_REPORT:
		return ks_report_run(opts, live);
	case KS_IN_DIFF:
		return ks_diff_run(opts, live);
	case KS_IN_TRIAGE:
		return ks_triage_live_run(opts, live);
	default:
		return one_sample(opts, live);
	}
}

int main(int argc, char **argv)
{
	struct ks_live_options live;
	struct ks_test_knobs knobs;
	struct ks_options opts;
	char **report_argv = NULL;
	int status;

	status = ks_report_argv(&argc, argv, &report_argv);
	if (status < 0) {
		ks_live_say("%s", strerror(-status));
		return KS_EXIT_ERROR;
	}
	if (report_argv)
		argv = report_argv;
	read_test_knobs(&knobs);
	if (ks_live_options_parse(&opts, &live, argc, argv, &knobs,
				  &ks_live_reporter)) {
		/* one line for what is wrong, not the whole usage (report's is short) */
		if (opts.mode == KS_IN_REPORT)
			ks_report_usage(stderr);
		else if (opts.mode == KS_IN_DIFF)
			ks_diff_usage(stderr);
		else
			ks_say_line("try 'kstack --help'");
		status = KS_EXIT_USAGE;
		goto out;
	}
	status = run(&opts, &live);
	ks_options_release(&opts);
out:
	free(report_argv);
	return status;
}
