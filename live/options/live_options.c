// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live tool's own rows of the option table: each says after which of
 * the core's rows (shared/core/option_table.c) it is listed, so that
 * --help, the usage and the parser see one table in one order.  A new
 * option of the live tool only is a row here and its member in struct
 * ks_live_options.  kstack.so links this file too: crash's kstack knows
 * these rows to refuse them ("is for the live tool only").
 */
#include <errno.h>
#include <limits.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "live_options.h"

#define OFF(m)	offsetof(struct ks_live_options, m)

/* kstack report's options: its own rows, though two share names */
#define REP(n, k, m, mv, txt)						\
	{ .name = n, .kind = k, .applies = KS_IN_REPORT, .off = OFF(m),	\
	  .min = 1, .max = INT_MAX, .metavar = mv, .section = KS_SEC_OTHER, \
	  .help = txt }

static const struct ks_opt_row live_rows[] = {
	{ .letter = 'o', .kind = KS_OPT_PATH,
	  .applies = KS_IN_ONE | KS_IN_VMCORE | KS_IN_VTRIAGE, .off = OFF(output),
	  .metavar = "FILE", .section = KS_SEC_OUTPUT,
	  .help = "write the sample to FILE, atomically;\n"
		  "kstack triage: the support bundle into DIR",
	  .after = "--folded" },
	{ .name = "html", .kind = KS_OPT_PATH, .applies = KS_IN_VTRIAGE,
	  .off = OFF(html), .metavar = "FILE", .section = KS_SEC_OUTPUT,
	  .help = "kstack triage: one self-contained page to FILE" },
	{ .name = "follow-symlink", .kind = KS_OPT_FLAG,
	  .applies = KS_IN_ONE | KS_IN_VMCORE, .needs = "-o",
	  .off = OFF(follow_symlink), .section = KS_SEC_OUTPUT,
	  .help = "with -o: write where a symbolic link points" },
	{ .name = "proc-root", .kind = KS_OPT_PATH,
	  .applies = KS_IN_ONE | KS_IN_BG, .off = OFF(proc_root),
	  .metavar = "DIR", .section = KS_SEC_OUTPUT,
	  .help = "read this /proc-like tree (default /proc)" },

	{ .letter = 'b', .kind = KS_OPT_FLAG, .applies = KS_IN_BG,
	  .leads = KS_IN_BG, .off = OFF(background), .section = KS_SEC_BG,
	  .help = "sample in the background into DIR/kstack_HOSTNAME.out",
	  .after = "-v" },
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

	/* diff's B too: a dump walked as --vmcore -a -H */
	{ .name = "vmcore", .kind = KS_OPT_PATH,
	  .applies = KS_IN_VMCORE | KS_IN_VHOOKS | KS_IN_VLOG |
		    KS_IN_VCPUS | KS_IN_VPANIC | KS_IN_DIFF | KS_IN_VTRIAGE,
	  .leads = KS_IN_VMCORE | KS_IN_VHOOKS | KS_IN_VLOG |
		   KS_IN_VCPUS | KS_IN_VPANIC | KS_IN_VTRIAGE, .off = OFF(vmcore),
	  .metavar = "VMCORE", .section = KS_SEC_HOOKS,
	  .help = "read a kernel dump instead of /proc", .after = "--touched" },

	{ .name = "decode", .kind = KS_OPT_OPERAND, .applies = KS_IN_DECODE,
	  .leads = KS_IN_DECODE, .off = OFF(decode_file), .metavar = "[FILE]",
	  .section = KS_SEC_LINES,
	  .help = "add file:line to stack text (logs, oopses, bt)",
	  .after = "-l" },
	{ .name = "snoop", .kind = KS_OPT_TEXT, .applies = KS_IN_SNOOP,
	  .leads = KS_IN_SNOOP, .off = OFF(snoop), .metavar = "FUNC",
	  .section = KS_SEC_LINES,
	  .help = "the kernel stack of every call of FUNC, live" },

	/* after the core's rows of the same names, which a name finds first */
	{ .name = "json", .kind = KS_OPT_FLAG, .applies = KS_IN_REPORT,
	  .off = OFF(report.json), .section = KS_SEC_OTHER,
	  .help = "JSON Lines (docs/report-json.md)", .after = "--version" },
	REP("folded", KS_OPT_FLAG, report.folded, NULL,
	    "the whole period as flame-graph input"),
	REP("pid", KS_OPT_NUM, report.pid, "N",
	    "N's stack at each sample where it changed"),
	REP("since", KS_OPT_TIME, report.since, "TIME",
	    "samples at or after TIME"),
	REP("until", KS_OPT_TIME, report.until, "TIME",
	    "samples at or before TIME"),
	REP("top", KS_OPT_NUM, report.top, "N",
	    "stuck tasks and stacks listed (10)"),

	/* kstack diff's own; its --vmcore and --vmlinux are the dump's rows */
	{ .name = "json", .kind = KS_OPT_FLAG, .applies = KS_IN_DIFF,
	  .off = OFF(diff_json), .section = KS_SEC_OTHER,
	  .help = "one JSON document (docs/diff-json.md)" },
};

#define NR_LIVE_ROWS	(sizeof(live_rows) / sizeof(live_rows[0]))

static const struct ks_live_options live_defaults = {
	.duration = 30 * 60,
	.interval = 60,
	.dir = "/var/oled/kstack",
	.max_mb = 1,
	.max_files = 5,
	.max_percent = 85,
	.proc_root = "/proc",
	.report.top = 10,
};

/* What the core's checks cannot say of these members, in its order. */
static int live_check(void *base, const struct ks_options *o,
		      const struct ks_reporter *rep)
{
	const struct ks_live_options *live = base;

	if (o->mode == KS_IN_REPORT && live->report.json &&
	    live->report.folded) {
		ks_say(rep, KS_WARN, "--json and --folded do not go together");
		return -EINVAL;
	}
	if (o->mode == KS_IN_DIFF && o->vmlinux && !live->vmcore) {
		ks_say(rep, KS_WARN, "diff: --vmlinux goes with --vmcore VMCORE");
		return -EINVAL;
	}
	if (o->mode == KS_IN_VTRIAGE && live->output &&
	    (live->html || o->out.format == KS_FMT_JSON)) {
		ks_say(rep, KS_WARN, "triage -o DIR writes every form: %s does not go with it",
		       live->html ? "--html" : "--json");
		return -EINVAL;
	}
	if (o->mode == KS_IN_VTRIAGE && live->html && o->out.format == KS_FMT_JSON) {
		ks_say(rep, KS_WARN, "--html and --json do not go together");
		return -EINVAL;
	}
	if (o->mode == KS_IN_SNOOP && !*live->snoop) {
		ks_say(rep, KS_WARN, "--snoop wants a function name");
		return -EINVAL;
	}
	return 0;
}

const struct ks_opt_table ks_live_opt_table = {
	.rows = live_rows,
	.nr = NR_LIVE_ROWS,
	.defaults = &live_defaults,
	.size = sizeof(live_defaults),
	.check = live_check,
};

/* -b's interval in ms: the knob's, below -i's floor, or -i's */
static int interval_ms(struct ks_live_options *live,
		       const struct ks_reporter *rep)
{
	const char *ms = live->knobs.interval_ms;

	if (!ms) {
		live->interval_ms = live->interval * 1000;
		return 0;
	}
	if (!ks_parse_long(ms, 1, 3600000, &live->interval_ms))
		return 0;
	ks_say(rep, KS_WARN, "bad KSTACK_TEST_INTERVAL_MS '%s'", ms);
	return -EINVAL;
}

int ks_live_options_parse(struct ks_options *opts,
			  struct ks_live_options *live, int argc, char **argv,
			  const struct ks_test_knobs *knobs,
			  const struct ks_reporter *rep)
{
	struct ks_opt_table table = ks_live_opt_table;
	struct ks_opt_row rows[NR_LIVE_ROWS];
	int ret;

	memcpy(rows, live_rows, sizeof(rows));
	/* Tests shorten the interval; users keep oled's floor of 10 s. */
	for (size_t i = 0; i < NR_LIVE_ROWS && knobs && knobs->interval_ms; i++)
		if (rows[i].letter == 'i')
			rows[i].min = 1;
	table.rows = rows;
	ret = ks_options_parse(opts, KS_CTX_LIVE, argc, argv, &table, live,
			       rep);
	if (ret)
		return ret;
	if (knobs)
		live->knobs = *knobs;
	live->t_given = ks_options_given(opts, &table, "-t");
	live->report.path = opts->operand;
	live->diff_a = opts->operand;
	live->diff_b = opts->operand2;
	if (opts->mode != KS_IN_BG)
		return 0;
	ret = interval_ms(live, rep);
	if (ret)
		ks_options_release(opts);
	return ret;
}
