// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The crash command "kstack": the live tool's selection and formats over
 * the tasks of the dump.  Options go through the same parser as the live
 * tool's (shared/core/options.c); the sample from shared/kernel/kernel_sample.c
 * over the crash target; -l's lines from shared/lines/ on crash's vmlinux;
 * the text from shared/format*.c.  This file only glues them to crash:
 * argv, fp, error(), the vmlinux and release for -l; the help text is
 * kstack_help.c's.
 */
#include "defs.h"

#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "buffered_out.h"
#include "cpus_walk.h"
#include "format_cpus.h"
#include "decode_text.h"
#include "format.h"
#include "format_panic.h"
#include "hooks_crash.h"
#include "kernel_sample.h"
#include "kstack_help.h"
#include "live_options.h"
#include "log_print.h"
#include "options.h"
#include "sample_report.h"
#include "target_crash.h"
#include "triage.h"
#include "version.h"

static struct ks_kernel *kernel;	/* opened on first use, kept */


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
	if (opts->out.format == KS_FMT_JSON || opts->out.format == KS_FMT_FOLDED)
		fprintf(stderr, "kstack: %s\n", msg);
	else
		error(INFO, "%s\n", msg);
}

/*
 * The reporter's sink: arg is the command's options, as say() takes them,
 * or NULL while they are parsed, when what is wrong with the command line
 * goes to error(INFO) before the synopsis.
 */
static void crash_say(void *arg, enum ks_say_level level, const char *text)
{
	(void)level;
	if (arg)
		say(arg, "%s", text);
	else
		error(INFO, "%s\n", text);
}

static const struct ks_reporter usage_error = { .say = crash_say };

/* The live tool's messages for -p PIDs that are not there and no match. */
static void report_missing(const struct ks_options *opts,
			   const struct ks_sample *s,
			   const struct ks_reporter *rep)
{
	size_t missing = ks_report_missing(&opts->sel, s, "", rep);

	ks_report_no_match(s, missing, rep);
}

/*
 * -l: the code of kstack --vmcore -l on crash's vmlinux (the debug file
 * when crash was given one apart) and the modules of the dump's release,
 * so that both print the same text.  crash's get_line_number() would give
 * one file:line without the inlined functions.
 */
static void add_lines(const struct ks_options *opts, struct ks_sample *s,
		      const struct ks_reporter *rep)
{
	const char *release = kt->utsname.release;
	struct ks_lines_config cfg = {
		.vmlinux = pc->namelist_debug ? pc->namelist_debug : pc->namelist,
		/* without it, the release in the vmlinux's linux_banner */
		.release = *release ? release : NULL,
		.debug_dir = getenv("KSTACK_DEBUG_DIR"),
	};

	if (ks_lines_sample(s, &cfg, rep))
		say(opts, "out of memory adding lines");
}

/* Why the tasks cannot be read, in the command's words; said once. */
static void say_no_tasks(void *arg, enum ks_say_level level, const char *text)
{
	bool *said = arg;

	(void)level;
	*said = true;
	error(INFO, "cannot read this kernel's tasks: %s\n", text);
}

static int open_kernel(void)
{
	bool said = false;
	const struct ks_reporter no_tasks = { .say = say_no_tasks,
					      .arg = &said };
	int ret;

	if (kernel)
		return 0;
	ret = ks_kernel_open(ks_crash_target(), &kernel, &no_tasks);
	if (ret) {
		if (!said)
			ks_say(&no_tasks, KS_WARN, "%s", strerror(-ret));
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

	ret = ks_sample_write(out, s, &opts->out);
	ret2 = ks_buffered_close(out, fp);
	return ret ? ret : ret2;
}

static void tasks_sample(const struct ks_options *opts,
			 const struct ks_reporter *rep)
{
	/* crash's error(INFO) is where each message goes, -v or not */
	const struct ks_sample_say say = { rep, false };
	const struct ks_walk_opts walk = { &opts->sel, opts->out.waits,
					   opts->out.verbose };
	struct ks_kernel_status st;
	struct ks_sample s;
	int ret;

	if (open_kernel())
		return;
	ret = ks_kernel_sample(kernel, &walk, &s, &st, &say);
	if (!ret && s.nr_tasks && opts->lines)
		add_lines(opts, &s, rep);
	if (!ret && s.nr_tasks) {
		ret = write_buffered(&s, opts);
		if (ret)
			error(INFO, "writing the output failed: %s\n",
			      strerror(-ret));
	}
	if (!ret)
		report_missing(opts, &s, rep);
	if (!ret)
		ks_kernel_status_say(opts->out.verbose, &s, &st, &say);
	if (!ret && opts->out.verbose)
		ks_crash_target_report(rep);
	ks_sample_release(&s);
}

/* --cpus: crash's bt -a, in the words of --vmcore --cpus */
static void cpus(const struct ks_options *opts, const struct ks_reporter *rep)
{
	struct ks_cpus cs;
	FILE *out;
	int ret;

	if (open_kernel())
		return;
	ret = ks_cpus_walk(kernel, &cs, rep);
	if (!ret) {
		out = ks_buffered_open(fp);
		ret = ks_format_cpus(out, &cs, opts->out.format == KS_FMT_JSON);
		ret = ks_buffered_close(out, fp) ? -EIO : ret;
		if (ret)
			error(INFO, "writing the output failed: %s\n",
			      strerror(-ret));
	}
	ks_cpus_release(&cs);
}

/* -K / -F: the hooks views (extension/hooks_crash.c) */
static void hooks_report(const struct ks_options *opts,
			 const struct ks_reporter *rep)
{
	int ret = ks_hooks_crash(ks_crash_target(), opts, fp, rep);

	if (ret)
		error(INFO, "%s failed: %s\n",
		      opts->hooks.kprobes ? "-K" : "-F", strerror(-ret));
}

/* --log: the dump's kernel log, buffered as a sample is (buffered_out.h) */
static void log_report(const struct ks_options *opts,
		       const struct ks_reporter *rep)
{
	FILE *out = ks_buffered_open(fp);
	int ret, ret2;

	ret = ks_log_print(ks_crash_target(), out,
			   opts->out.format == KS_FMT_JSON, rep);
	ret2 = ks_buffered_close(out, fp);
	if (!ret && ret2)
		error(INFO, "writing the output failed: %s\n", strerror(-ret2));
}

/* --panic: the panic's CPU and task, the taint and its modules */
static void panic_report(const struct ks_options *opts,
			 const struct ks_reporter *rep)
{
	int ret = ks_panic_report(ks_crash_target(),
				  opts->out.format == KS_FMT_JSON, fp, rep);

	if (ret)
		error(INFO, "--panic failed: %s\n", strerror(-ret));
}

/* kstack triage: why the dump's kernel died, on one page */
static void triage(const struct ks_options *opts, const struct ks_reporter *rep)
{
	FILE *out;
	int ret;

	/* without the tasks, the rest is still worth printing */
	open_kernel();
	out = ks_buffered_open(fp);
	ret = ks_triage_report(ks_crash_target(), kernel,
			       opts->out.format == KS_FMT_JSON ? KS_TRIAGE_JSON :
			       KS_TRIAGE_TEXT, out, rep);
	if (ks_buffered_close(out, fp) && !ret)
		ret = -EIO;
	if (ret)
		error(INFO, "triage failed: %s\n", strerror(-ret));
}

/*
 * The one place the command goes by the mode the parser decided; every
 * message of the command goes to its one reporter.
 */
static void run(const struct ks_options *opts)
{
	const struct ks_reporter rep = { crash_say, (void *)opts, 0 };

	switch (opts->mode) {
	case KS_IN_INFO:
		if (opts->help)
			cmd_usage(pc->curcmd, COMPLETE_HELP);
		else
			fprintf(fp, "kstack %s\n", KS_VERSION);
		return;
	case KS_IN_CHOOKS:
		hooks_report(opts, &rep);
		return;
	case KS_IN_CLOG:
		log_report(opts, &rep);
		return;
	case KS_IN_CCPUS:
		cpus(opts, &rep);
		return;
	case KS_IN_CPANIC:
		panic_report(opts, &rep);
		return;
	case KS_IN_CTRIAGE:
		triage(opts, &rep);
		return;
	default:
		tasks_sample(opts, &rep);
	}
}

static void cmd_kstack(void)
{
	struct ks_options opts;

	/* the live tool's rows, no struct for them: each is refused */
	if (ks_options_parse(&opts, KS_CTX_CRASH, argcnt, args,
			     &ks_live_opt_table, NULL, &usage_error)) {
		cmd_usage(pc->curcmd, SYNOPSIS);
		return;
	}
	run(&opts);
	ks_options_release(&opts);
	ks_crash_target_end_command();
}

/* When memory ran out for the help made from the option table. */
static char *help_short[] = {
	"kstack",
	"kernel stacks of tasks, grouped by identical stack",
	"SELECTION... | -K | -F | --log | triage   (see kstack-crash(8))",
	NULL
};

static struct command_table_entry command_table[] = {
	{ "kstack", cmd_kstack, help_short, 0 },
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
	char **help = ks_crash_help();

	if (help)
		command_table[0].help_data = help;
	register_extension(command_table);
}

void __attribute__((destructor)) kstack_fini(void)
{
	ks_kernel_close(kernel);
	kernel = NULL;
	ks_crash_target_release();
	ks_crash_help_free();
}
