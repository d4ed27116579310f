// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every option of kstack and of crash's kstack, one row each: what it
 * stores, in which modes it means something, its range and its help.
 * options.c parses with these rows and options_help.c prints the usage,
 * --help and crash's help from them; the man pages are checked against
 * them (tests/unit/test_option_docs.c).  A new option is a row here and
 * its member in struct ks_options.  What both of those files ask of the
 * rows (a row's name, its default, a mode's words) is here too, so that
 * neither of them calls the other.
 */
#include <limits.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include "options.h"

#define OFF(m)	offsetof(struct ks_options, m)

#define SEL(l, st, txt)							\
	{ .letter = l, .kind = KS_OPT_STATE, .applies = KS_IN_TASKS,	\
	  .selects = true, .letters = st, .section = KS_SEC_SELECT,	\
	  .help = txt }
#define FMT(n, l, f, in, txt)						\
	{ .name = n, .letter = l, .kind = KS_OPT_FORMAT, .applies = in,	\
	  .format = f, .section = KS_SEC_OUTPUT, .help = txt }

/* kstack report's options: its own rows, though two share names above */
#define REP(n, k, m, mv, txt)						\
	{ .name = n, .kind = k, .applies = KS_IN_REPORT, .off = OFF(m),	\
	  .min = 1, .max = INT_MAX, .metavar = mv, .section = KS_SEC_OTHER, \
	  .help = txt }

/* The modes one sample is printed in, -o and -l included. */
#define KS_IN_SAMPLE	(KS_IN_ONE | KS_IN_VMCORE | KS_IN_CRASH)
/* -v: everywhere but --snoop and --decode, which have nothing to add */
#define KS_IN_VERBOSE	(KS_IN_TASKS | KS_IN_ALL_HOOKS)

const struct ks_opt_row ks_opt_rows[] = {
	{ .letter = 'a', .kind = KS_OPT_FLAG, .applies = KS_IN_TASKS,
	  .selects = true, .off = OFF(sel.all), .section = KS_SEC_SELECT,
	  .help = "all tasks" },
	SEL('D', "D", "uninterruptible sleep (D): waiting for I/O or a lock"),
	SEL('R', "R", "running or runnable (R)"),
	SEL('S', "S", "sleeping (S)"),
	SEL('Z', "Z", "zombies (Z)"),
	SEL('I', "I", "idle kernel threads (I)"),
	SEL('T', "Tt", "stopped or traced (T, t)"),
	{ .letter = 'p', .kind = KS_OPT_PIDS,
	  .applies = KS_IN_TASKS | KS_IN_SNOOP, .selects = true,
	  .metavar = "PID[,PID...]", .section = KS_SEC_SELECT,
	  .help = "these processes, in the order given" },
	{ .name = "comm", .kind = KS_OPT_REGEX, .applies = KS_IN_TASKS,
	  .selects = true, .off = OFF(sel.comm), .metavar = "REGEX",
	  .section = KS_SEC_SELECT,
	  .help = "tasks whose comm matches this extended regex" },
	{ .letter = 'H', .kind = KS_OPT_FLAG, .applies = KS_IN_TASKS,
	  .off = OFF(sel.threads), .section = KS_SEC_SELECT,
	  .help = "every thread of each process, not only the main one" },
	{ .name = "cgroup", .kind = KS_OPT_CGROUP, .applies = KS_IN_TASKS,
	  .off = OFF(sel.cgroup), .metavar = "PATH", .section = KS_SEC_SELECT,
	  .help = "only tasks in this cgroup v2 path or below it" },

	FMT(NULL, 'c', KS_FMT_SUMMARY, KS_IN_TASKS | KS_IN_SNOOP,
	    "summary: one paragraph per stack, most common first"),
	{ .name = "all", .kind = KS_OPT_FLAG, .applies = KS_IN_TASKS,
	  .needs = "-c", .off = OFF(out.summary_all), .section = KS_SEC_OUTPUT,
	  .help = "with -c: every task of a stack, not three examples" },
	/* -K/-F --json: the hooks as JSON (their writer's) */
	FMT("json", 0, KS_FMT_JSON,
	    KS_IN_TASKS | KS_IN_SNOOP | KS_IN_ALL_HOOKS | KS_IN_ALL_LOG | KS_IN_CPUS |
	    KS_IN_PANIC,
	    "JSON Lines, one object per sample"),
	FMT("folded", 0, KS_FMT_FOLDED, KS_IN_TASKS | KS_IN_SNOOP,
	    "flame-graph input (comm;frames COUNT)"),
	{ .letter = 'o', .kind = KS_OPT_PATH,
	  .applies = KS_IN_ONE | KS_IN_VMCORE, .off = OFF(output),
	  .metavar = "FILE", .section = KS_SEC_OUTPUT,
	  .help = "write the sample to FILE, atomically" },
	{ .name = "follow-symlink", .kind = KS_OPT_FLAG,
	  .applies = KS_IN_ONE | KS_IN_VMCORE, .needs = "-o",
	  .off = OFF(follow_symlink), .section = KS_SEC_OUTPUT,
	  .help = "with -o: write where a symbolic link points" },
	{ .name = "proc-root", .kind = KS_OPT_PATH,
	  .applies = KS_IN_ONE | KS_IN_BG, .off = OFF(proc_root),
	  .metavar = "DIR", .section = KS_SEC_OUTPUT,
	  .help = "read this /proc-like tree (default /proc)" },
	{ .name = "waits", .kind = KS_OPT_FLAG,
	  .applies = KS_IN_ONE | KS_IN_VMCORE | KS_IN_CRASH, .off = OFF(out.waits),
	  .section = KS_SEC_OUTPUT,
	  .help = "who blocks whom: locks, owners, deadlocks" },
	{ .name = "verbose", .letter = 'v', .kind = KS_OPT_FLAG,
	  .applies = KS_IN_VERBOSE, .off = OFF(out.verbose),
	  .section = KS_SEC_OUTPUT,
	  .help = "more detail; DEBUG log lines with -b",
	  .crash_help = "more detail: why a stack is empty or short, counts" },

	{ .letter = 'b', .kind = KS_OPT_FLAG, .applies = KS_IN_BG,
	  .leads = KS_IN_BG, .off = OFF(background), .section = KS_SEC_BG,
	  .help = "sample in the background into DIR/kstack_HOSTNAME.out" },
	{ .name = "foreground", .kind = KS_OPT_FLAG, .applies = KS_IN_BG,
	  .leads = KS_IN_BG, .off = OFF(foreground), .section = KS_SEC_BG,
	  .help = "-b without forking, for a service manager" },
	/* 0 as in oled: -t one sample, -m and -n no rotation */
	{ .letter = 't', .kind = KS_OPT_DURATION,
	  .applies = KS_IN_BG | KS_IN_SNOOP, .off = OFF(duration),
	  .min = 0, .max = 60L * 24 * 365, .zero = "one sample",
	  .metavar = "TIME", .section = KS_SEC_BG,
	  .help = "how long: minutes with -b, seconds with --snoop,\n"
		  "or with a unit: 30s, 2m, 1h" },
	{ .letter = 'i', .kind = KS_OPT_NUM, .applies = KS_IN_BG,
	  .off = OFF(interval), .min = 10, .max = 86400,
	  .metavar = "SECONDS", .section = KS_SEC_BG,
	  .help = "between samples" },
	{ .letter = 'd', .kind = KS_OPT_PATH, .applies = KS_IN_BG,
	  .off = OFF(dir), .metavar = "DIR", .section = KS_SEC_BG,
	  .help = "log directory (default /var/oled/kstack)" },
	{ .name = "prometheus", .kind = KS_OPT_PATH, .applies = KS_IN_BG,
	  .off = OFF(prometheus), .metavar = "FILE", .section = KS_SEC_BG,
	  .help = "after each sample, metrics for node_exporter's\n"
		  "textfile collector, replaced atomically" },
	{ .letter = 'm', .kind = KS_OPT_NUM, .applies = KS_IN_BG,
	  .off = OFF(max_mb), .min = 0, .max = 1024 * 1024, .zero = "never",
	  .metavar = "MB", .section = KS_SEC_BG,
	  .help = "rotate above MB megabytes" },
	{ .letter = 'n', .kind = KS_OPT_NUM, .applies = KS_IN_BG,
	  .off = OFF(max_files), .min = 0, .max = 10000,
	  .zero = "never rotate", .metavar = "FILES", .section = KS_SEC_BG,
	  .help = "rotated logs kept" },
	{ .letter = 'x', .kind = KS_OPT_NUM, .applies = KS_IN_BG,
	  .off = OFF(max_percent), .min = 1, .max = 100,
	  .metavar = "PERCENT", .section = KS_SEC_BG,
	  .help = "no start, no writes at this disk use" },

	{ .letter = 'K', .kind = KS_OPT_FLAG, .applies = KS_IN_ALL_HOOKS,
	  .leads = KS_IN_ALL_HOOKS, .off = OFF(hooks.kprobes),
	  .section = KS_SEC_HOOKS,
	  .help = "kprobes, as debugfs kprobes/list prints them" },
	{ .letter = 'F', .kind = KS_OPT_FLAG, .applies = KS_IN_ALL_HOOKS,
	  .leads = KS_IN_ALL_HOOKS, .off = OFF(hooks.ftrace),
	  .section = KS_SEC_HOOKS,
	  .help = "ftrace-patched functions (tracefs enabled_functions)" },
	{ .name = "touched", .kind = KS_OPT_FLAG, .applies = KS_IN_ALL_HOOKS,
	  .needs = "-F", .off = OFF(hooks.touched), .section = KS_SEC_HOOKS,
	  .help = "with -F: every function ever patched (Linux 6.4+)" },
	{ .name = "vmcore", .kind = KS_OPT_PATH,
	  .applies = KS_IN_VMCORE | KS_IN_VHOOKS | KS_IN_VLOG |
		    KS_IN_VCPUS | KS_IN_VPANIC,
	  .leads = KS_IN_VMCORE | KS_IN_VHOOKS | KS_IN_VLOG |
		   KS_IN_VCPUS | KS_IN_VPANIC, .off = OFF(vmcore),
	  .metavar = "VMCORE", .section = KS_SEC_HOOKS,
	  .help = "read a kernel dump instead of /proc" },
	/* live and --snoop: with -l only (options.c) */
	{ .name = "vmlinux", .kind = KS_OPT_PATH,
	  .applies = KS_IN_ONE | KS_IN_VMCORE | KS_IN_VHOOKS | KS_IN_SNOOP |
		     KS_IN_DECODE | KS_IN_VLOG | KS_IN_VCPUS |
		     KS_IN_VPANIC,
	  .off = OFF(vmlinux), .metavar = "VMLINUX", .section = KS_SEC_HOOKS,
	  .help = "its debug vmlinux (optional with a kallsyms dump)" },
	{ .name = "log", .kind = KS_OPT_FLAG, .applies = KS_IN_ALL_LOG,
	  .leads = KS_IN_ALL_LOG, .off = OFF(log), .section = KS_SEC_HOOKS,
	  .help = "the kernel log, every record, as dmesg prints it" },
	{ .name = "cpus", .kind = KS_OPT_FLAG, .applies = KS_IN_CPUS,
	  .leads = KS_IN_CPUS, .off = OFF(cpus), .section = KS_SEC_HOOKS,
	  .help = "every CPU's task and stack, across its IRQ and\n"
		  "exception stacks, as the kernel prints a stack trace" },
	{ .name = "panic", .kind = KS_OPT_FLAG, .applies = KS_IN_PANIC,
	  .leads = KS_IN_PANIC, .off = OFF(panic), .section = KS_SEC_HOOKS,
	  .help = "the panic: its CPU and task, the taint\n"
		  "and the modules that set each letter" },
	{ .name = "lines", .letter = 'l', .kind = KS_OPT_FLAG,
	  .applies = KS_IN_SAMPLE | KS_IN_SNOOP, .off = OFF(lines),
	  .section = KS_SEC_LINES,
	  .help = "file:line of every frame, inlined functions too" },
	{ .name = "decode", .kind = KS_OPT_FLAG, .applies = KS_IN_DECODE,
	  .leads = KS_IN_DECODE, .off = OFF(decode), .metavar = "[FILE]",
	  .section = KS_SEC_LINES,
	  .help = "add file:line to stack text (logs, oopses, bt)" },
	{ .name = "snoop", .kind = KS_OPT_TEXT, .applies = KS_IN_SNOOP,
	  .leads = KS_IN_SNOOP, .off = OFF(snoop), .metavar = "FUNC",
	  .section = KS_SEC_LINES,
	  .help = "the kernel stack of every call of FUNC, live" },

	{ .name = "help", .letter = 'h', .kind = KS_OPT_FLAG,
	  .applies = KS_IN_ANY, .off = OFF(help), .section = KS_SEC_OTHER,
	  .help = "this help" },
	{ .name = "version", .kind = KS_OPT_FLAG, .applies = KS_IN_ANY,
	  .off = OFF(version), .section = KS_SEC_OTHER,
	  .help = "print the version" },

	/* after the rows above, which a name or letter finds first */
	REP("json", KS_OPT_FLAG, report_json, NULL,
	    "JSON Lines (docs/report-json.md)"),
	REP("folded", KS_OPT_FLAG, report_folded, NULL,
	    "the whole period as flame-graph input"),
	REP("pid", KS_OPT_NUM, report_pid, "N",
	    "N's stack at each sample where it changed"),
	REP("since", KS_OPT_TIME, report_since, "TIME",
	    "samples at or after TIME"),
	REP("until", KS_OPT_TIME, report_until, "TIME",
	    "samples at or before TIME"),
	REP("top", KS_OPT_NUM, report_top, "N",
	    "stuck tasks and stacks listed (10)"),
	{ .name = "help", .letter = 'h', .kind = KS_OPT_FLAG,
	  .applies = KS_IN_REPORT, .off = OFF(help), .section = KS_SEC_OTHER,
	  .help = "this text" },
};

const size_t ks_nr_opt_rows = sizeof(ks_opt_rows) / sizeof(ks_opt_rows[0]);

/* In the order of the synopsis. */
const struct ks_mode_row ks_mode_rows[] = {
	{ KS_IN_ONE, "one sample", "kstack SELECTION...", NULL },
	{ KS_IN_BG, "-b", "kstack -b|--foreground SELECTION...", NULL },
	{ KS_IN_HOOKS, "-K/-F", "kstack -K|-F", NULL },
	{ KS_IN_VMCORE, "--vmcore", "kstack --vmcore VMCORE SELECTION...", NULL },
	{ KS_IN_VHOOKS, "--vmcore -K/-F", "kstack --vmcore VMCORE -K|-F", NULL },
	{ KS_IN_LOG, "--log", "kstack --log", NULL },
	{ KS_IN_VLOG, "--vmcore --log", "kstack --vmcore VMCORE --log", NULL },
	{ KS_IN_VCPUS, "--vmcore --cpus", "kstack --vmcore VMCORE --cpus", NULL },
	{ KS_IN_VPANIC, "--vmcore --panic", "kstack --vmcore VMCORE --panic", NULL },
	{ KS_IN_SNOOP, "--snoop", "kstack --snoop FUNC", NULL },
	{ KS_IN_DECODE, "--decode", "kstack --decode", "[FILE]" },
	{ KS_IN_INFO, "--help", "kstack -h|--help|--version", NULL },
	{ KS_IN_CRASH, "crash's kstack", "kstack SELECTION...", NULL },
	{ KS_IN_CHOOKS, "crash's kstack -K/-F", "kstack -K|-F", NULL },
	{ KS_IN_CLOG, "crash's kstack --log", "kstack --log", NULL },
	{ KS_IN_CCPUS, "crash's kstack --cpus", "kstack --cpus", NULL },
	{ KS_IN_CPANIC, "crash's kstack --panic", "kstack --panic", NULL },
	{ KS_IN_REPORT, "report", "kstack report [OPTION]...", "DIR|FILE" },
};

const size_t ks_nr_mode_rows = sizeof(ks_mode_rows) / sizeof(ks_mode_rows[0]);

const char *const ks_opt_section_titles[KS_SEC_COUNT] = {
	[KS_SEC_SELECT] = "selection (at least one; OR-ed):",
	[KS_SEC_OUTPUT] = "output (default: oled kstack's text on stdout):",
	[KS_SEC_BG] = "background mode:",
	[KS_SEC_HOOKS] = "hooks and dumps:",
	[KS_SEC_LINES] = "source lines and snooping:",
	[KS_SEC_OTHER] = "other:",
};

const char *const ks_opt_crash_section_titles[KS_SEC_COUNT] = {
	[KS_SEC_HOOKS] = "hooks:",
	[KS_SEC_LINES] = "source lines:",
};

/* struct ks_options keeps the options given as a bit per row */
_Static_assert(sizeof(ks_opt_rows) / sizeof(ks_opt_rows[0]) <= 64,
	       "more rows than bits in ks_options.given");

const char *ks_opt_row_name(const struct ks_opt_row *row, bool both,
			    char *buf, size_t len)
{
	if (row->letter && row->name && both)
		snprintf(buf, len, "-%c, --%s", row->letter, row->name);
	else if (row->letter)
		snprintf(buf, len, "-%c", row->letter);
	else
		snprintf(buf, len, "--%s", row->name);
	return buf;
}

void ks_options_defaults(struct ks_options *o)
{
	memset(o, 0, sizeof(*o));
	o->out.format = KS_FMT_TEXT;
	o->duration = 30 * 60;
	o->interval = 60;
	o->dir = "/var/oled/kstack";
	o->max_mb = 1;
	o->max_files = 5;
	o->max_percent = 85;
	o->proc_root = "/proc";
	o->report_top = 10;
}

long ks_options_default(const struct ks_opt_row *row)
{
	struct ks_options d;
	long v;

	ks_options_defaults(&d);
	v = *(const long *)((const char *)&d + row->off);
	/* a plain -t is minutes with -b, which is what has a default */
	return row->kind == KS_OPT_DURATION ? v / 60 : v;
}

bool ks_mode_in_ctx(unsigned int mode, enum ks_context ctx)
{
	if (mode == KS_IN_INFO)
		return false;
	if (mode & KS_IN_CRASH_CMD)
		return ctx == KS_CTX_CRASH;
	if (mode == KS_IN_REPORT)
		return ctx == KS_CTX_REPORT;
	return ctx == KS_CTX_LIVE;
}

const char *ks_mode_what(unsigned int mode)
{
	for (size_t i = 0; i < ks_nr_mode_rows; i++)
		if (ks_mode_rows[i].mode == mode)
			return ks_mode_rows[i].what;
	return "?";
}

void ks_options_where(char *buf, size_t len, unsigned int modes,
		      enum ks_context ctx)
{
	size_t n = 0, count = 0, at = 0;

	for (size_t i = 0; i < ks_nr_mode_rows; i++)
		count += (modes & ks_mode_rows[i].mode) &&
			 ks_mode_in_ctx(ks_mode_rows[i].mode, ctx);
	buf[0] = '\0';
	for (size_t i = 0; i < ks_nr_mode_rows && n < len; i++) {
		const struct ks_mode_row *m = &ks_mode_rows[i];

		if (!(modes & m->mode) || !ks_mode_in_ctx(m->mode, ctx))
			continue;
		at++;
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      at == 1 ? "" : at == count ? " and " : ", ",
				      m->what);
	}
}
