/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One option parser for the live tool and the crash command, so the two
 * cannot drift apart.  The crash command hands its argv here unchanged.
 */
#ifndef KS_OPTIONS_H
#define KS_OPTIONS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum ks_context {
	KS_CTX_LIVE,
	KS_CTX_CRASH,
};

enum ks_format {
	KS_FMT_TEXT,		/* oled kstack's text, the default */
	KS_FMT_SUMMARY,		/* -c */
	KS_FMT_JSON,		/* --json: one JSON object per sample */
	KS_FMT_FOLDED,		/* --folded: flame-graph input */
};

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
};

/* State letters selected with -D -R -S -Z -I -T, as a bit per letter. */
#define KS_ST_BIT(c)	(1ull << ((c) - 'A'))

struct ks_options {
	bool all;		/* -a */
	uint64_t states;	/* KS_ST_BIT('D') | ... */
	int32_t *pids;		/* -p, in the order given */
	size_t nr_pids;
	size_t pids_cap;
	bool threads;		/* -H */
	const char *cgroup;	/* --cgroup PATH */
	enum ks_format format;
	bool kprobes;		/* -K */
	bool ftrace;		/* -F */
	bool touched;		/* -F --touched: touched_functions (6.4+) */
	bool verbose;		/* -v */

	/* live only */
	bool background;	/* -b */
	bool foreground;	/* --foreground: -b without forking, for systemd */
	long minutes;		/* -t */
	long interval;		/* -i, seconds */
	long interval_ms;	/* -i, or knobs.interval_ms */
	const char *dir;	/* -d */
	long max_mb;		/* -m */
	long max_files;		/* -n */
	long max_percent;	/* -x */
	const char *proc_root;	/* --proc-root */
	const char *output;	/* -o */
	bool follow_symlink;	/* --follow-symlink: -o FILE may be a symlink */
	const char *vmcore;	/* --vmcore: standalone libkdumpfile mode */
	const char *vmlinux;	/* --vmlinux */
	bool lines;		/* -l: file:line of every frame (shared/lines/) */
	bool decode;		/* --decode [FILE]: lines added to stack text */
	const char *decode_file;	/* its FILE, NULL for stdin */
	const char *snoop;	/* --snoop FUNC: live stacks of FUNC's callers */
	bool t_given;		/* -t was given: --snoop's duration in seconds */
	bool help;
	bool version;		/* --version */
	struct ks_test_knobs knobs;	/* the live tool's, as given to the parser */
};

/*
 * Fills opts from argv.  Returns 0, or -1 with a one-line reason in err
 * (the caller prints it and exits 2, or calls cmd_usage in crash).
 */
int ks_options_parse(struct ks_options *opts, enum ks_context ctx, int argc,
		     char **argv, char *err, size_t errlen);
/* The same with the test knobs (NULL for none), kept in opts->knobs. */
int ks_options_parse_knobs(struct ks_options *opts, enum ks_context ctx,
			   int argc, char **argv,
			   const struct ks_test_knobs *knobs, char *err,
			   size_t errlen);
void ks_options_release(struct ks_options *opts);
/* The usage text for ctx, ending in a newline. */
const char *ks_options_usage(enum ks_context ctx);
/*
 * The range and default of the numeric option opt ('t', 'i', 'm', 'n',
 * 'x'), for the help text; 0, or -1 for another option.
 */
int ks_options_num_info(int opt, long *min, long *max, long *def);

#endif /* KS_OPTIONS_H */
