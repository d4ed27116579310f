// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The crash command "kstack": the live tool's selection and formats over
 * the tasks of the dump.  Options go through the same parser as the live
 * tool's (shared/core/options.c); the sample from shared/kernel/kernel_sample.c
 * over the crash target; -l's lines from shared/lines/ on crash's vmlinux;
 * the text from shared/format*.c.  This file only glues them to crash:
 * argv, fp, error(), the vmlinux and release for -l, and the help text.
 */
#include "defs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buffered_out.h"
#include "decode_text.h"
#include "format.h"
#include "hooks_crash.h"
#include "kernel_sample.h"
#include "options.h"
#include "sample_report.h"
#include "target_crash.h"
#include "version.h"

static struct ks_kernel *kernel;	/* opened on first use, kept */

static char *help_kstack[] = {
	"kstack",
	"kernel stacks of tasks, grouped by identical stack",
	"{-a|-D|-R|-S|-Z|-I|-T|-p PID[,PID...]}... [-H] [--cgroup PATH]\n"
	"        [-l] [-c|--json|--folded] [-v]\n"
	"  kstack -K|-F [--touched] [-v]",
	"  Prints what the live tool kstack(8) would have printed on this kernel",
	"  at the moment of the dump: the tasks, grouped by identical kernel",
	"  stack, in oled kstack's text.  The header shows the crash time",
	"  (timekeeper.xtime_sec) in crash's time zone and the dumped kernel's",
	"  nodename.  Tasks and stacks are read by kstack itself (init_task.tasks,",
	"  each thread group, and an ORC unwinder), so it works where crash's own",
	"  task table and bt do not.",
	" ",
	"  Selection (OR-ed; at least one is required):",
	"    -a        all tasks.",
	"    -D        tasks in uninterruptible sleep (D).",
	"    -R        running or runnable tasks (R).",
	"    -S        tasks in interruptible sleep (S).",
	"    -Z        zombies (Z).",
	"    -I        idle kernel threads (I).",
	"    -T        stopped or traced tasks (T, t).",
	"    -p PID[,PID...]  these processes, in the order given.",
	" ",
	"  Scope and filters:",
	"    -H        every thread of each process, not only the process.",
	"    --cgroup PATH  only tasks in this cgroup v2 path or below it.",
	" ",
	"  Output (text by default):",
	"    -l        file:line after every frame, each inlined function the",
	"              address lies in on a line of its own before it, from",
	"              crash's vmlinux and the modules' debug files of the dump's",
	"              release under /usr/lib/debug (or $KSTACK_DEBUG_DIR).  The",
	"              same lines and inline chains as kstack -l, from DWARF with",
	"              libdw; crash's own line lookup has no inline chain.",
	"    -c        a summary: one line per group with its task count.",
	"    --json    one JSON object for the sample.",
	"    --folded  folded stacks, the input of flame graph tools.",
	"    -v        after the output, why a stack is empty or short, the",
	"              version, the dump's kernel release and counts.",
	"    --version which kstack.so is loaded.",
	" ",
	"  Hooks:",
	"    -K        the kprobes, as /sys/kernel/debug/kprobes/list prints them.",
	"    -F        the functions ftrace patched, as enabled_functions does;",
	"              with --touched, every function ftrace ever patched since",
	"              boot, a hook that has gone included (Linux 6.4+).",
	" ",
	"  A task that was on a CPU when the dump was taken is unwound from the",
	"  registers the dump saved for that CPU (empty when it was in user",
	"  mode); the live tool prints an empty stack for such a task.  Tasks",
	"  or lists that cannot be read are reported and the walk goes on.",
	" ",
	"  A dump crash itself cannot open (crash 8.0.2 reads kernels up to 6.10;",
	"  6.11 and later need crash 8.0.6) never reaches this command: read it",
	"  with the standalone reader, which needs no vmlinux on Linux 6.0+:",
	"    kstack --vmcore VMCORE -a -H",
	"\nEXAMPLE",
	"  Show every task of the dump, threads included:\n",
	"    %s> kstack -a -H",
	"    zzz <Sun Nov 22 05:27:24 UTC 2026 - kstack-vm",
	" ",
	"    PID:     1   State:  S   Start Time: 2026/11/22 05:27:17   Cmd: /bin/busybox sh /init",
	"    PID:   116   State:  S   Start Time: 2026/11/22 05:27:20   Cmd: sh -c sleep 1000000",
	"    Stack:",
	"    [<0>] do_wait+0x114/0x320",
	"    [<0>] kernel_wait4+0xb4/0x160",
	"    [<0>] __do_sys_wait4+0xa2/0xb0",
	"    [<0>] do_syscall_64+0x5d/0x90",
	"    [<0>] entry_SYSCALL_64_after_hwframe+0x6e/0xd8",
	"    ...",
	"\n  Show the tasks in uninterruptible sleep as a summary:\n",
	"    %s> kstack -D -c",
	NULL
};

/*
 * Messages about the walk go where crash puts its own (error(INFO), into
 * fp too), except with --json and --folded, whose output must stay
 * parseable when it is redirected to a file: then only to stderr.
 */
static void say(const struct ks_options *opts, const char *fmt, ...)
{
	/* error() cuts at BUFSIZE: a long -l note is cut no shorter here */
	char msg[BUFSIZE];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	if (opts->format == KS_FMT_JSON || opts->format == KS_FMT_FOLDED)
		fprintf(stderr, "kstack: %s\n", msg);
	else
		error(INFO, "%s\n", msg);
}

static void report(void *arg, const char *msg)
{
	say(arg, "%s", msg);
}

/* The live tool's messages for -p PIDs that are not there and no match. */
static void report_missing(const struct ks_options *opts,
			   const struct ks_sample *s)
{
	size_t missing = ks_report_missing(opts, s, "", report, (void *)opts);

	if (!s->nr_tasks && !missing)
		say(opts, "no task matched the selection");
}

/*
 * -l: the code of kstack --vmcore -l on crash's vmlinux (the debug file
 * when crash was given one apart) and the modules of the dump's release,
 * so that both print the same text.  crash's get_line_number() would give
 * one file:line without the inlined functions.
 */
static void add_lines(const struct ks_options *opts, struct ks_sample *s)
{
	const char *release = kt->utsname.release;
	struct ks_lines_config cfg = {
		.vmlinux = pc->namelist_debug ? pc->namelist_debug : pc->namelist,
		/* without it, the release in the vmlinux's linux_banner */
		.release = *release ? release : NULL,
		.debug_dir = getenv("KSTACK_DEBUG_DIR"),
	};

	if (ks_lines_sample(s, &cfg, report, (void *)opts))
		say(opts, "out of memory adding lines");
}

/* Why the tasks cannot be read, in the command's words; said once. */
static void say_no_tasks(void *arg, const char *msg)
{
	bool *said = arg;

	*said = true;
	error(INFO, "cannot read this kernel's tasks: %s\n", msg);
}

static int open_kernel(void)
{
	bool said = false;
	int ret;

	if (kernel)
		return 0;
	ret = ks_kernel_open(ks_crash_target(), &kernel, say_no_tasks, &said);
	if (ret) {
		if (!said)
			say_no_tasks(&said, strerror(-ret));
		kernel = NULL;
	}
	return ret;
}

/*
 * crash's fp is unbuffered: written straight, 10,000 threads cost half a
 * million write(2)s, more than the walk itself (buffered_out.h).  Nothing
 * reports while the sample is written, so the order of output and
 * messages stays as it was.
 */
static int write_buffered(const struct ks_sample *s,
			  const struct ks_options *opts)
{
	FILE *out = ks_buffered_open(fp);
	int ret, ret2;

	ret = ks_sample_write(out, s, opts);
	ret2 = ks_buffered_close(out, fp);
	return ret ? ret : ret2;
}

static void tasks_sample(const struct ks_options *opts)
{
	/* crash's error(INFO) is where each message goes, -v or not */
	const struct ks_sample_say say = { report, (void *)opts, false };
	struct ks_kernel_status st;
	struct ks_sample s;
	int ret;

	if (open_kernel())
		return;
	ret = ks_kernel_sample(kernel, opts, &s, &st, &say);
	if (!ret && s.nr_tasks && opts->lines)
		add_lines(opts, &s);
	if (!ret && s.nr_tasks) {
		ret = write_buffered(&s, opts);
		if (ret)
			error(INFO, "writing the output failed: %s\n",
			      strerror(-ret));
	}
	if (!ret)
		report_missing(opts, &s);
	if (!ret)
		ks_kernel_status_say(opts, &s, &st, &say);
	if (!ret && opts->verbose)
		ks_crash_target_report(report, (void *)opts);
	ks_sample_release(&s);
}

static void cmd_kstack(void)
{
	struct ks_options opts;
	char err[256];

	if (ks_options_parse(&opts, KS_CTX_CRASH, argcnt, args, err, sizeof(err))) {
		error(INFO, "%s\n", err);
		cmd_usage(pc->curcmd, SYNOPSIS);
		return;
	}
	if (opts.help) {
		cmd_usage(pc->curcmd, COMPLETE_HELP);
	} else if (opts.version) {
		fprintf(fp, "kstack %s\n", KS_VERSION);
	} else if (opts.kprobes || opts.ftrace) {
		/* -K / -F: the hooks views (extension/hooks_crash.c) */
		int ret = ks_hooks_crash(ks_crash_target(), &opts, fp, report, &opts);

		if (ret)
			error(INFO, "%s failed: %s\n",
			      opts.kprobes ? "-K" : "-F", strerror(-ret));
	} else {
		tasks_sample(&opts);
	}
	ks_options_release(&opts);
	ks_crash_target_end_command();
}

static struct command_table_entry command_table[] = {
	{ "kstack", cmd_kstack, help_kstack, 0 },
	{ NULL },
};

/*
 * crash dlopen()s the extension and looks nothing up in it: this
 * constructor registers the command.  It is the one symbol kstack.so
 * exports (the Makefile hides the rest), so that nothing of the core can
 * clash with crash's own names or another extension's.
 */
__attribute__((visibility("default"))) void __attribute__((constructor))
kstack_init(void)
{
	register_extension(command_table);
}

void __attribute__((destructor)) kstack_fini(void)
{
	ks_kernel_close(kernel);
	kernel = NULL;
	ks_crash_target_release();
}
