/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live tool's own options: those of its modes that crash's kstack
 * has not (-b, -o, --vmcore, --snoop, --decode...), kstack report's and
 * kstack diff's, and
 * the test knobs.  Their rows (live_options.c) join the core's in the one
 * parser (shared/core/options.c), which fills this struct through them
 * and struct ks_options with the rest.
 */
#ifndef KS_LIVE_OPTIONS_H
#define KS_LIVE_OPTIONS_H

#include <stdbool.h>
#include <time.h>

#include "options.h"

/*
 * The test-only knobs, KSTACK_TEST_* in the environment, as their raw
 * text (NULL when unset or empty), each checked where it is used.
 * live/main.c fills this one struct; nothing in shared/ reads the
 * environment, and the crash command has none.
 */
struct ks_test_knobs {
	const char *interval_ms;	/* -b's interval in ms, below -i's floor */
	const char *duration_ms;	/* -b's duration in ms instead of -t */
	const char *max_bytes;		/* -b's log size in bytes instead of -m */
	const char *oled_lock;		/* oled kstack's lock: a file of the test's */
	const char *debugfs;		/* -K/-F: fixture trees for debugfs */
	const char *tracefs;		/* and tracefs */
	const char *journal_socket;	/* -b's journal: a socket of the test's */
	const char *snoop_raw;		/* --snoop: a copy of trace_pipe as read */
	const char *kallsyms_scan;	/* --vmcore: VMCOREINFO's kallsyms ignored */
	const char *verify_cache;	/* -b: each cached read checked by a full one */
	const char *sample_ms;		/* -b: each sample lasts at least this long */
};

/* kstack report DIR's options (live/logs/ reads the logs with them) */
struct ks_report_opts {
	const char *path;	/* DIR (or one log file) */
	bool json;		/* --json: JSON Lines */
	bool folded;		/* --folded: the whole period for a flame graph */
	long pid;		/* --pid N: its stack where it changed; 0 unset */
	time_t since;		/* --since: samples at or after; 0 unset */
	time_t until;		/* --until: samples at or before; 0 unset */
	long top;		/* --top N: stuck tasks and stacks listed */
};

struct ks_live_options {
	bool background;	/* -b */
	bool foreground;	/* --foreground: -b without forking, for systemd */
	long duration;		/* -t, in seconds (minutes given with -b) */
	long interval;		/* -i, seconds */
	long interval_ms;	/* -i, or knobs.interval_ms */
	const char *dir;	/* -d */
	const char *prometheus;	/* -b --prometheus FILE */
	long max_mb;		/* -m */
	long max_files;		/* -n */
	long max_percent;	/* -x */
	const char *proc_root;	/* --proc-root */
	const char *output;	/* -o: FILE, or triage's DIR */
	const char *html;	/* triage --html FILE */
	bool follow_symlink;	/* --follow-symlink: -o FILE may be a symlink */
	const char *vmcore;	/* --vmcore: standalone libkdumpfile mode */
	const char *decode_file;	/* --decode [FILE]: its FILE, NULL for stdin */
	const char *snoop;	/* --snoop FUNC: live stacks of FUNC's callers */
	bool t_given;		/* -t was given: --snoop's duration */
	struct ks_test_knobs knobs;	/* as given to the parser */

	struct ks_report_opts report;	/* kstack report's */

	/* kstack diff: A and B, or A and the dump --vmcore names */
	const char *diff_a;
	const char *diff_b;	/* NULL with --vmcore */
	bool diff_json;		/* --json: one document (docs/diff-json.md) */
};

/*
 * The live tool's rows, for its usage and help, and for crash's kstack,
 * which knows them only to refuse them (kstack.so links this file).
 */
extern const struct ks_opt_table ks_live_opt_table;

/*
 * ks_options_parse() for the live tool: opts and live from argv, with the
 * test knobs (NULL for none) kept in live->knobs.  0, or -EINVAL
 * (-ENOMEM) after one line through report.
 */
int ks_live_options_parse(struct ks_options *opts,
			  struct ks_live_options *live, int argc, char **argv,
			  const struct ks_test_knobs *knobs,
			  const struct ks_reporter *rep);

#endif /* KS_LIVE_OPTIONS_H */
