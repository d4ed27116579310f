/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One option parser for the live tool, its "kstack report" and the crash
 * command, so they cannot drift apart.  The crash command hands its argv
 * here unchanged.  Every option is one row: the core's in option_table.c,
 * the live tool's own in live/options/ (struct ks_opt_table), merged into
 * one table: the parser, the usages, --help, report's and crash's "help
 * kstack" are all made from it.
 */
#ifndef KS_OPTIONS_H
#define KS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "format_opts.h"
#include "hooks_opts.h"
#include "report.h"
#include "select.h"

enum ks_context {
	KS_CTX_LIVE,
	KS_CTX_CRASH,
	KS_CTX_REPORT,		/* "kstack report": its usage and its rows */
	KS_CTX_DIFF,		/* "kstack diff": its usage and its rows */
};

/*
 * What a run does, as a bit each, so that a row of the table says in
 * which of them its option means something.  The parser decides the
 * run's one mode (struct ks_options' mode) and refuses every option
 * given whose row lacks it.  A subcommand with options of its own
 * ("kstack report") is one more bit here, one more row in option_table.c's
 * ks_mode_rows[], a context of its own for its usage, and a row per option
 * with that bit.
 */
enum ks_mode {
	KS_IN_ONE = 1u << 0,	/* one sample from /proc */
	KS_IN_BG = 1u << 1,	/* -b, --foreground */
	KS_IN_HOOKS = 1u << 2,	/* -K / -F of the running kernel */
	KS_IN_VMCORE = 1u << 3,	/* --vmcore: the tasks of a dump */
	KS_IN_VHOOKS = 1u << 4,	/* --vmcore -K / -F */
	KS_IN_SNOOP = 1u << 5,	/* --snoop FUNC */
	KS_IN_DECODE = 1u << 6,	/* --decode [FILE] */
	KS_IN_CRASH = 1u << 7,	/* crash's kstack: the tasks */
	KS_IN_CHOOKS = 1u << 8,	/* crash's kstack -K / -F */
	KS_IN_INFO = 1u << 9,	/* -h, --help, --version: nothing else counts */
	KS_IN_REPORT = 1u << 10,	/* kstack report DIR: the logs read back */
	KS_IN_LOG = 1u << 11,	/* --log: the kernel log from /dev/kmsg */
	KS_IN_VLOG = 1u << 12,	/* --vmcore --log: a dump's kernel log */
	KS_IN_CLOG = 1u << 13,	/* crash's kstack --log */
	KS_IN_VCPUS = 1u << 14,	/* --vmcore --cpus: every CPU's stacks */
	KS_IN_CCPUS = 1u << 15,	/* crash's kstack --cpus */
	KS_IN_VPANIC = 1u << 16,	/* --vmcore --panic: the panic and taint */
	KS_IN_CPANIC = 1u << 17,	/* crash's kstack --panic */
	KS_IN_DIFF = 1u << 18,	/* kstack diff A B: two captures compared */
	KS_IN_TRIAGE = 1u << 19,	/* kstack triage: the running system's */
	KS_IN_VTRIAGE = 1u << 20,	/* kstack triage --vmcore: a dump's */
	KS_IN_CTRIAGE = 1u << 21,	/* crash's kstack triage */
};

#define KS_IN_TASKS	(KS_IN_ONE | KS_IN_BG | KS_IN_VMCORE | KS_IN_CRASH)
#define KS_IN_ALL_HOOKS	(KS_IN_HOOKS | KS_IN_VHOOKS | KS_IN_CHOOKS)
#define KS_IN_ALL_LOG	(KS_IN_LOG | KS_IN_VLOG | KS_IN_CLOG)
#define KS_IN_CPUS	(KS_IN_VCPUS | KS_IN_CCPUS)
#define KS_IN_PANIC	(KS_IN_VPANIC | KS_IN_CPANIC)
#define KS_IN_ALL_TRIAGE	(KS_IN_TRIAGE | KS_IN_VTRIAGE | KS_IN_CTRIAGE)
#define KS_IN_CRASH_CMD	(KS_IN_CRASH | KS_IN_CHOOKS | KS_IN_CLOG | KS_IN_CCPUS | \
			 KS_IN_CPANIC | KS_IN_CTRIAGE)
/* the subcommands: each has rows of its own, -h included */
#define KS_IN_SUBCMDS	(KS_IN_REPORT | KS_IN_DIFF)
/* every mode but the subcommands */
#define KS_IN_ANY	(0x3ffu | KS_IN_ALL_LOG | KS_IN_CPUS | KS_IN_PANIC | \
			 KS_IN_ALL_TRIAGE)

/* How a row's value is stored, each into the member at the row's offset. */
enum ks_opt_kind {
	KS_OPT_FLAG,		/* a bool set to true */
	KS_OPT_STATE,		/* the row's state letters into states */
	KS_OPT_PIDS,		/* -p PID[,PID...] */
	KS_OPT_FORMAT,		/* the row's output format */
	KS_OPT_PATH,		/* a non-empty path */
	KS_OPT_CGROUP,		/* a path as /proc/PID/cgroup shows it */
	KS_OPT_TEXT,		/* a string kept as given */
	KS_OPT_REGEX,		/* a POSIX extended regex, compiled */
	KS_OPT_NUM,		/* a long within min..max */
	KS_OPT_DURATION,	/* -t: a number, or one with s, m or h */
	KS_OPT_TIME,		/* a time_t: "YYYY-MM-DD[ HH:MM[:SS]]", "@EPOCH" */
	KS_OPT_OPERAND,		/* a flag, then the next word unless an option
				   (--decode [FILE]): the word, or NULL */
};

/* The help sections, in the order --help prints them. */
enum ks_opt_section {
	KS_SEC_SELECT,
	KS_SEC_OUTPUT,
	KS_SEC_BG,
	KS_SEC_HOOKS,
	KS_SEC_LINES,
	KS_SEC_OTHER,
	KS_SEC_COUNT,
};

struct ks_opt_row {
	const char *name;	/* the long name, or NULL */
	char letter;		/* the short one, or 0 */
	enum ks_opt_kind kind;
	unsigned int applies;	/* the KS_IN_* modes it means something in */
	unsigned int leads;	/* the modes it selects (-b, -K, --vmcore...) */
	const char *needs;	/* the option it goes with ("-c"), or NULL */
	size_t off;		/* its member of struct ks_options, or of the
				   front end's struct (struct ks_opt_table) */
	bool selects;		/* a selector: -a, a state, -p, --comm */
	const char *letters;	/* KS_OPT_STATE: the state letters */
	enum ks_format format;	/* KS_OPT_FORMAT */
	long min, max;		/* KS_OPT_NUM, KS_OPT_DURATION (plain number) */
	const char *zero;	/* what 0 means, for the help, or NULL */
	const char *metavar;	/* its value's (or operand's) name, or NULL */
	enum ks_opt_section section;
	const char *help;	/* --help's and help kstack's; '\n' continues */
	const char *crash_help;	/* help kstack's where help names the live
				   tool's modes; NULL: help */
	const char *after;	/* a front end's row: the core's row it is
				   listed after ("--folded"); NULL: after the
				   row before it */
};

/*
 * A subcommand: the word after "kstack" that starts it, its context (its
 * usage, the rows getopt knows) and its mode.
 */
struct ks_subcommand {
	const char *word;	/* "report" */
	enum ks_context ctx;
	unsigned int mode;
};

extern const struct ks_subcommand ks_subcommands[];
extern const size_t ks_nr_subcommands;
/* The subcommand of ctx, or NULL: the live tool's or crash's. */
const struct ks_subcommand *ks_ctx_subcommand(enum ks_context ctx);

/*
 * A mode: its bit, how a message names it, its synopsis.  Each view of
 * a dump is crash's kstack's too, on the dump crash holds: there it has
 * a bit and a name of its own (its twin), and the synopsis without
 * "--vmcore VMCORE".
 */
struct ks_mode_row {
	unsigned int mode;
	const char *what;	/* "-b", "--vmcore --log" */
	const char *lead;	/* the synopsis up to its options */
	const char *tail;	/* after them ("[FILE]"), or NULL */
	unsigned int crash;	/* its twin in crash's kstack, or 0 */
	const char *crash_what;	/* "crash's kstack --log" */
};

extern const struct ks_opt_row ks_opt_rows[];
extern const size_t ks_nr_opt_rows;
extern const struct ks_mode_row ks_mode_rows[];
extern const size_t ks_nr_mode_rows;
extern const char *const ks_opt_section_titles[KS_SEC_COUNT];
/* help kstack's, naming none of the live tool's modes; NULL: the above */
extern const char *const ks_opt_crash_section_titles[KS_SEC_COUNT];

/*
 * A command line, parsed: the front ends' (live/main.c, the crash
 * command), each of which hands the walkers their selection, the
 * writers their output options and the hooks runner its own, and keeps
 * the rest.  The live tool's own options (-b, --vmcore, --snoop, kstack
 * report's...) and what its tests set in the environment are in its own
 * struct (live/options/live_options.h), filled through its rows.
 */
struct ks_options {
	unsigned int mode;	/* the one KS_IN_* mode, decided by the parser */
	struct ks_selection sel;	/* -a, the states, -p, --comm, -H, --cgroup */
	struct ks_format_opts out;	/* -c, --all, --json, --folded, --waits, -v */
	struct ks_hooks_opts hooks;	/* -K, -F, --touched */
	bool lines;		/* -l: file:line of every frame (shared/lines/) */
	bool cpus;		/* --cpus: every CPU's stacks (shared/kernel/cpus/) */
	bool panic;		/* --panic: the panic and the taint of a dump */
	const char *vmlinux;	/* --vmlinux */
	bool log;		/* --log: the kernel log (shared/kernel/log/) */
	bool triage;		/* the word "triage" led the command line */
	bool help;
	bool version;		/* --version */

	/* the parser's own */
	const char *t_arg;	/* -t as given, read once the mode is known */
	const char *operand;	/* report's DIR|FILE, diff's A */
	const char *operand2;	/* diff's B */
	uint64_t given;		/* a bit per row of the parse (struct ks_opt_view) */
};

/*
 * A front end's own rows, whose off is into a struct of its own rather
 * than struct ks_options: the live tool's (live/options/).  The parser
 * and the help take them with the core's as one table, in the order
 * each row's after says, so that the user sees one table.
 */
struct ks_opt_table {
	const struct ks_opt_row *rows;
	size_t nr;
	const void *defaults;	/* the front end's struct at its defaults */
	size_t size;		/* its size */
	/*
	 * What the front end checks of its own once the options agree with
	 * the mode (report: once -h is not given), before the core's last
	 * checks; 0 or -EINVAL said through report.  NULL: nothing.
	 */
	int (*check)(void *base, const struct ks_options *o,
		     const struct ks_reporter *rep);
};

/*
 * Fills opts, and the front end's struct at base from its rows (front,
 * or NULL), from argv.  Returns 0, or -EINVAL (-ENOMEM) after one line
 * through rep for what is wrong (the caller exits 2, or calls
 * cmd_usage in crash).  The live tool's argv[1] "report" or "diff" is a
 * subcommand (struct ks_subcommand), whose options may come before and
 * after its operands; opts->mode says so even when the parse fails, for
 * the usage to print.  The crash
 * command gives the live tool's rows with base NULL: it knows them only
 * to refuse them.
 */
int ks_options_parse(struct ks_options *opts, enum ks_context ctx, int argc,
		     char **argv, const struct ks_opt_table *front, void *base,
		     const struct ks_reporter *rep);
/* Whether the option named ("-t") was given, in a parse with front. */
bool ks_options_given(const struct ks_options *opts,
		      const struct ks_opt_table *front, const char *name);
void ks_options_release(struct ks_options *opts);
/* s, whole, as a decimal number in [min, max]: 0, or -1. */
int ks_parse_long(const char *s, long min, long max, long *val_ret);

/*
 * What the parser and the help both ask of the rows (option_table.c),
 * so that options.c and options_help.c need only the table, not each
 * other.
 */
#define KS_MAX_ROWS	64	/* the bits of struct ks_options' given */

/* The rows of one parse or help: the core's and the front end's, merged. */
struct ks_opt_view {
	const struct ks_opt_table *front;
	void *base;		/* a parse's front end struct, or NULL */
	size_t nr;
	const struct ks_opt_row *rows[KS_MAX_ROWS];
	bool in_front[KS_MAX_ROWS];	/* its off is into the front end's struct */
};

/* The core's rows with front's (or none) each after its after. */
void ks_opt_view_init(struct ks_opt_view *v, const struct ks_opt_table *front);
/* The core's members at their defaults, as the parser starts. */
void ks_options_defaults(struct ks_options *opts);
/* The default of the view's row i, for the help ("default 30"). */
long ks_options_default(const struct ks_opt_view *v, size_t i);
/* "-b" or "--proc-root" or "-v, --verbose" (both), into buf. */
const char *ks_opt_row_name(const struct ks_opt_row *row, bool both,
			    char *buf, size_t len);
/* Whether a mode is one of ctx's: the live tool's, crash's or a subcommand's. */
bool ks_mode_in_ctx(unsigned int mode, enum ks_context ctx);
/* Row m's mode in ctx: its crash twin's bit in crash's kstack (0: none). */
unsigned int ks_mode_row_bit(const struct ks_mode_row *m,
			     enum ks_context ctx);
/* A dump's view in crash's kstack: its twin; any other mode: itself. */
unsigned int ks_mode_in_crash(unsigned int mode);
/* How a message names a mode: "-b", "crash's kstack". */
const char *ks_mode_what(unsigned int mode);
/* The modes an option applies to, as words: "-b, --vmcore and crash's kstack". */
void ks_options_where(char *buf, size_t len, unsigned int modes,
		      enum ks_context ctx);

/* The usage for ctx, front's rows too: its synopsis lines (options_help.c). */
void ks_options_usage(FILE *out, enum ks_context ctx,
		      const struct ks_opt_table *front);
/* One line per option of ctx under its section's title (a subcommand: no title). */
void ks_options_help(FILE *out, enum ks_context ctx,
		     const struct ks_opt_table *front);

#endif /* KS_OPTIONS_H */
