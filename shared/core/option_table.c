// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Every option of crash's kstack and those the live tool shares with it,
 * one row each: what it stores, in which modes it means something, its
 * range and its help.  The live tool's own rows are its own
 * (live/options/live_options.c), merged with these by ks_opt_view_init().
 * options.c parses with the rows and options_help.c prints the usage,
 * --help and crash's help from them; the man pages are checked against
 * them (tests/unit/test_option_docs.c).  A new option is a row here and
 * its member in struct ks_options, or a row of the live tool's and a
 * member of its struct.  What both of those files ask of the rows (a
 * row's name, its default, a mode's words) is here too, so that neither
 * of them calls the other.
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
	    KS_IN_PANIC | KS_IN_ALL_TRIAGE,
	    "JSON Lines, one object per sample"),
	FMT("folded", 0, KS_FMT_FOLDED, KS_IN_TASKS | KS_IN_SNOOP,
	    "flame-graph input (comm;frames COUNT)"),
	{ .name = "waits", .kind = KS_OPT_FLAG,
	  .applies = KS_IN_ONE | KS_IN_VMCORE | KS_IN_CRASH, .off = OFF(out.waits),
	  .section = KS_SEC_OUTPUT,
	  .help = "who blocks whom: locks, owners, deadlocks" },
	{ .name = "verbose", .letter = 'v', .kind = KS_OPT_FLAG,
	  .applies = KS_IN_VERBOSE, .off = OFF(out.verbose),
	  .section = KS_SEC_OUTPUT,
	  .help = "more detail; DEBUG log lines with -b",
	  .crash_help = "more detail: why a stack is empty or short, counts" },

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
	/* live and --snoop: with -l only (options.c) */
	{ .name = "vmlinux", .kind = KS_OPT_PATH,
	  .applies = KS_IN_ONE | KS_IN_VMCORE | KS_IN_VHOOKS | KS_IN_SNOOP |
		     KS_IN_DECODE | KS_IN_VLOG | KS_IN_VCPUS |
		     KS_IN_VPANIC | KS_IN_DIFF | KS_IN_VTRIAGE,
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
	{ .name = "help", .letter = 'h', .kind = KS_OPT_FLAG,
	  .applies = KS_IN_ANY, .off = OFF(help), .section = KS_SEC_OTHER,
	  .help = "this help" },
	{ .name = "version", .kind = KS_OPT_FLAG, .applies = KS_IN_ANY,
	  .off = OFF(version), .section = KS_SEC_OTHER,
	  .help = "print the version" },

	/* the subcommands' -h, after their rows (the live tool's), which
	   --version's after puts before it */
	{ .name = "help", .letter = 'h', .kind = KS_OPT_FLAG,
	  .applies = KS_IN_SUBCMDS, .off = OFF(help), .section = KS_SEC_OTHER,
	  .help = "this text" },
};

const size_t ks_nr_opt_rows = sizeof(ks_opt_rows) / sizeof(ks_opt_rows[0]);

/* In the order of the synopsis; crash's twins in the order of theirs. */
const struct ks_mode_row ks_mode_rows[] = {
	{ KS_IN_ONE, "one sample", "kstack SELECTION...", NULL, 0, NULL },
	{ KS_IN_BG, "-b", "kstack -b|--foreground SELECTION...", NULL, 0, NULL },
	{ KS_IN_HOOKS, "-K/-F", "kstack -K|-F", NULL, 0, NULL },
	{ KS_IN_VMCORE, "--vmcore", "kstack --vmcore VMCORE SELECTION...", NULL,
	  KS_IN_CRASH, "crash's kstack" },
	{ KS_IN_VHOOKS, "--vmcore -K/-F", "kstack --vmcore VMCORE -K|-F", NULL,
	  KS_IN_CHOOKS, "crash's kstack -K/-F" },
	{ KS_IN_LOG, "--log", "kstack --log", NULL, 0, NULL },
	{ KS_IN_VLOG, "--vmcore --log", "kstack --vmcore VMCORE --log", NULL,
	  KS_IN_CLOG, "crash's kstack --log" },
	{ KS_IN_VCPUS, "--vmcore --cpus", "kstack --vmcore VMCORE --cpus", NULL,
	  KS_IN_CCPUS, "crash's kstack --cpus" },
	{ KS_IN_VPANIC, "--vmcore --panic", "kstack --vmcore VMCORE --panic",
	  NULL, KS_IN_CPANIC, "crash's kstack --panic" },
	{ KS_IN_TRIAGE, "kstack triage", "kstack triage", NULL, 0, NULL },
	{ KS_IN_VTRIAGE, "kstack triage --vmcore",
	  "kstack triage --vmcore VMCORE", NULL,
	  KS_IN_CTRIAGE, "crash's kstack triage" },
	{ KS_IN_SNOOP, "--snoop", "kstack --snoop FUNC", NULL, 0, NULL },
	{ KS_IN_DECODE, "--decode", "kstack --decode", "[FILE]", 0, NULL },
	{ KS_IN_INFO, "--help", "kstack -h|--help|--version", NULL, 0, NULL },
	{ KS_IN_REPORT, "report", "kstack report [OPTION]...", "DIR|FILE", 0, NULL },
	{ KS_IN_DIFF, "diff", "kstack diff [OPTION]...", "A B|A --vmcore VMCORE",
	  0, NULL },
};

const size_t ks_nr_mode_rows = sizeof(ks_mode_rows) / sizeof(ks_mode_rows[0]);

const struct ks_subcommand ks_subcommands[] = {
	{ "report", KS_CTX_REPORT, KS_IN_REPORT },
	{ "diff", KS_CTX_DIFF, KS_IN_DIFF },
};

const size_t ks_nr_subcommands = sizeof(ks_subcommands) / sizeof(ks_subcommands[0]);

const struct ks_subcommand *ks_ctx_subcommand(enum ks_context ctx)
{
	for (size_t i = 0; i < ks_nr_subcommands; i++)
		if (ks_subcommands[i].ctx == ctx)
			return &ks_subcommands[i];
	return NULL;
}

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
_Static_assert(sizeof(ks_opt_rows) / sizeof(ks_opt_rows[0]) <= KS_MAX_ROWS,
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

static void view_add(struct ks_opt_view *v, const struct ks_opt_row *row,
		     bool in_front)
{
	/* more rows than bits: the rest are left out (test_options.c) */
	if (v->nr == KS_MAX_ROWS)
		return;
	v->rows[v->nr] = row;
	v->in_front[v->nr++] = in_front;
}

/*
 * After each row of the core's, the front end's rows whose after names
 * it, with those that follow them and name none; the rows whose after
 * names no row go last.
 */
void ks_opt_view_init(struct ks_opt_view *v, const struct ks_opt_table *front)
{
	size_t f = 0, nr = front ? front->nr : 0;
	char name[40];

	v->front = front;
	v->nr = 0;
	for (size_t i = 0; i < ks_nr_opt_rows; i++) {
		view_add(v, &ks_opt_rows[i], false);
		if (f == nr || !front->rows[f].after ||
		    strcmp(front->rows[f].after,
			   ks_opt_row_name(&ks_opt_rows[i], false, name,
					   sizeof(name))))
			continue;
		do
			view_add(v, &front->rows[f++], true);
		while (f < nr && !front->rows[f].after);
	}
	while (f < nr)
		view_add(v, &front->rows[f++], true);
}

void ks_options_defaults(struct ks_options *o)
{
	memset(o, 0, sizeof(*o));
	o->out.format = KS_FMT_TEXT;
}

long ks_options_default(const struct ks_opt_view *v, size_t i)
{
	const struct ks_opt_row *row = v->rows[i];
	struct ks_options d;
	const char *base = (const char *)&d;
	long val;

	ks_options_defaults(&d);
	if (v->in_front[i])
		base = v->front->defaults;
	val = *(const long *)(base + row->off);
	/* a plain -t is minutes with -b, which is what has a default */
	return row->kind == KS_OPT_DURATION ? val / 60 : val;
}

bool ks_mode_in_ctx(unsigned int mode, enum ks_context ctx)
{
	if (mode == KS_IN_INFO)
		return false;
	if (mode & KS_IN_CRASH_CMD)
		return ctx == KS_CTX_CRASH;
	if (mode & KS_IN_SUBCMDS)
		return ks_ctx_subcommand(ctx) &&
		       ks_ctx_subcommand(ctx)->mode == mode;
	return ctx == KS_CTX_LIVE;
}

unsigned int ks_mode_row_bit(const struct ks_mode_row *m,
			     enum ks_context ctx)
{
	return ctx == KS_CTX_CRASH ? m->crash : m->mode;
}

unsigned int ks_mode_in_crash(unsigned int mode)
{
	for (size_t i = 0; i < ks_nr_mode_rows; i++)
		if (ks_mode_rows[i].mode == mode && ks_mode_rows[i].crash)
			return ks_mode_rows[i].crash;
	return mode;
}

const char *ks_mode_what(unsigned int mode)
{
	for (size_t i = 0; i < ks_nr_mode_rows; i++) {
		if (ks_mode_rows[i].mode == mode)
			return ks_mode_rows[i].what;
		if (ks_mode_rows[i].crash == mode)
			return ks_mode_rows[i].crash_what;
	}
	return "?";
}

void ks_options_where(char *buf, size_t len, unsigned int modes,
		      enum ks_context ctx)
{
	size_t n = 0, count = 0, at = 0;

	for (size_t i = 0; i < ks_nr_mode_rows; i++) {
		unsigned int bit = ks_mode_row_bit(&ks_mode_rows[i], ctx);

		count += (modes & bit) && ks_mode_in_ctx(bit, ctx);
	}
	buf[0] = '\0';
	for (size_t i = 0; i < ks_nr_mode_rows && n < len; i++) {
		unsigned int bit = ks_mode_row_bit(&ks_mode_rows[i], ctx);

		if (!(modes & bit) || !ks_mode_in_ctx(bit, ctx))
			continue;
		at++;
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
				      at == 1 ? "" : at == count ? " and " : ", ",
				      ks_mode_what(bit));
	}
}
