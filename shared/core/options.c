// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The option grammar of oled kstack plus kstack's own, parsed once for
 * both the live tool and the crash command from the rows of
 * option_table.c.  Numbers are parsed strictly: "-i 1O" is an error, not
 * 1.  An option given where its row says it means nothing is refused
 * with the modes where it does.  "kstack report" is parsed here too,
 * with its own rows and its own words for what is wrong.
 */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "options.h"

#define MAX_ROWS	64
/* getopt's value of the row i: its letter, or past every character */
#define LONG_VAL(i)	(256 + (int)(i))

/* One line for what is wrong, through rep: -EINVAL. */
static int fail(const struct ks_reporter *rep, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ks_vsay(rep, KS_WARN, fmt, ap);
	va_end(ap);
	return -EINVAL;
}

static int parse_long(const char *s, long min, long max, long *val_ret)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < min || v > max)
		return -1;
	*val_ret = v;
	return 0;
}

static size_t row_index(const struct ks_opt_row *row)
{
	return (size_t)(row - ks_opt_rows);
}

static bool given(const struct ks_options *o, const struct ks_opt_row *row)
{
	return o->given & (1ull << row_index(row));
}

/*
 * Whether getopt knows the row in ctx: report's rows in report, every
 * other row elsewhere (crash's parser too names the live tool's options,
 * to refuse them).  report's --json is not the sample's, nor its -h.
 */
static bool row_parsed(const struct ks_opt_row *row, enum ks_context ctx)
{
	if (ctx == KS_CTX_REPORT)
		return row->applies & KS_IN_REPORT;
	return row->applies & ~KS_IN_REPORT;
}

/* The row getopt_long() returned c for. */
static const struct ks_opt_row *row_of_val(int c, enum ks_context ctx)
{
	if (c >= LONG_VAL(0))
		return &ks_opt_rows[c - LONG_VAL(0)];
	for (size_t i = 0; i < ks_nr_opt_rows; i++)
		if (ks_opt_rows[i].letter == c &&
		    row_parsed(&ks_opt_rows[i], ctx))
			return &ks_opt_rows[i];
	return NULL;
}

/* The row named "-c" or "--touched". */
static const struct ks_opt_row *row_of_name(const char *name)
{
	char buf[40];

	for (size_t i = 0; i < ks_nr_opt_rows; i++)
		if (!strcmp(ks_opt_row_name(&ks_opt_rows[i], false, buf,
					    sizeof(buf)), name))
			return &ks_opt_rows[i];
	return NULL;
}

static bool has_arg(const struct ks_opt_row *row)
{
	return row->kind != KS_OPT_FLAG && row->kind != KS_OPT_STATE &&
	       row->kind != KS_OPT_FORMAT;
}

/*
 * getopt_long()'s tables from the rows: '+' stops at the first
 * non-option, ':' returns ':' for a missing value.  A row with both
 * names is known by its letter.
 */
static void getopt_tables(enum ks_context ctx, char *shorts,
			  struct option *longs)
{
	size_t n = 0;

	*shorts++ = '+';
	*shorts++ = ':';
	for (size_t i = 0; i < ks_nr_opt_rows; i++) {
		const struct ks_opt_row *row = &ks_opt_rows[i];
		int arg = has_arg(row) ? required_argument : no_argument;

		if (!row_parsed(row, ctx))
			continue;
		if (row->letter) {
			*shorts++ = row->letter;
			if (arg == required_argument)
				*shorts++ = ':';
		}
		if (row->name)
			longs[n++] = (struct option){
				row->name, arg, NULL,
				row->letter ? row->letter : LONG_VAL(i),
			};
	}
	*shorts = '\0';
	longs[n] = (struct option){ NULL, 0, NULL, 0 };
}

static int parse_pids(struct ks_options *o, const char *arg,
		      const struct ks_reporter *rep)
{
	const char *p = arg;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char num[16];
		long pid;
		int32_t *n;

		if (!len || len >= sizeof(num))
			return fail(rep, "invalid PID list '%s'", arg);
		memcpy(num, p, len);
		num[len] = '\0';
		if (parse_long(num, 0, INT32_MAX, &pid))
			return fail(rep, "invalid PID '%s'", num);
		n = ks_grow(o->sel.pids, &o->sel.pids_cap, o->sel.nr_pids + 1, sizeof(*n));
		if (!n) {
			ks_say(rep, KS_WARN, "out of memory");
			return -ENOMEM;
		}
		o->sel.pids = n;
		o->sel.pids[o->sel.nr_pids++] = (int32_t)pid;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static int set_format(struct ks_options *o, enum ks_format f,
		      const struct ks_reporter *rep)
{
	if (o->out.format != KS_FMT_TEXT && o->out.format != f)
		return fail(rep,
			    "-c, --json and --folded exclude each other");
	o->out.format = f;
	return 0;
}

static int set_regex(struct ks_options *o, const char *name, const char *arg,
		     const struct ks_reporter *rep)
{
	char why[128];
	int ret;

	if (o->sel.comm)
		return fail(rep, "option %s given twice: join the "
			    "expressions with |", name);
	if (!*arg)
		return fail(rep, "option %s wants a non-empty value", name);
	ret = regcomp(&o->sel.comm_re, arg, REG_EXTENDED | REG_NOSUB);
	if (ret) {
		regerror(ret, &o->sel.comm_re, why, sizeof(why));
		return fail(rep, "option %s: '%s' is not an extended "
			    "regular expression: %s", name, arg, why);
	}
	o->sel.comm = arg;
	return 0;
}

static int set_path(const struct ks_opt_row *row, const char *name,
		    const char *arg, void *member,
		    const struct ks_reporter *rep)
{
	if (!*arg)
		return fail(rep, "option %s wants a non-empty value",
			    name);
	/*
	 * /proc/PID/cgroup paths are absolute: a relative one would match
	 * nothing, and "" would have matched every task.
	 */
	if (row->kind == KS_OPT_CGROUP && arg[0] != '/')
		return fail(rep,
			    "option %s wants a path as /proc/PID/cgroup shows it, starting with / (e.g. /system.slice/cron.service), not '%s'",
			    name, arg);
	*(const char **)member = arg;
	return 0;
}

static int set_num(struct ks_options *o, const struct ks_opt_row *row,
		   const char *name, const char *arg, void *member,
		   const struct ks_reporter *rep)
{
	long min = row->min;

	/* Tests shorten the interval; users keep oled's floor of 10 s. */
	if (row->letter == 'i' && o->knobs.interval_ms)
		min = 1;
	/* report's words, as they were before it was a mode of the table */
	if (row->applies == KS_IN_REPORT && parse_long(arg, min, row->max, member))
		return fail(rep, "invalid %s '%s'", name, arg);
	if (parse_long(arg, min, row->max, member))
		return fail(rep,
			    "option %s wants a number from %ld to %ld, not '%s'",
			    name, min, row->max, arg);
	return 0;
}

/* "2026-11-24 23:10[:05]", "2026-11-24T23:10:05", "2026-11-24", "@EPOCH" */
static int parse_time(const char *s, time_t *t)
{
	static const char *const formats[] = {
		"%Y-%m-%d %H:%M:%S", "%Y-%m-%dT%H:%M:%S", "%Y-%m-%d %H:%M",
		"%Y-%m-%dT%H:%M", "%Y-%m-%d",
	};
	char *end;

	if (*s == '@') {
		long long v;

		errno = 0;
		v = strtoll(s + 1, &end, 10);
		if (errno || end == s + 1 || *end || v < 0)
			return -EINVAL;
		*t = (time_t)v;
		return 0;
	}
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		struct tm tm = { .tm_isdst = -1 };

		end = strptime(s, formats[i], &tm);
		if (!end || *end)
			continue;
		*t = mktime(&tm);
		return *t == (time_t)-1 ? -EINVAL : 0;
	}
	return -EINVAL;
}

static int parse_row(struct ks_options *o, enum ks_context ctx,
		     const struct ks_opt_row *row, const char *arg,
		     const struct ks_reporter *rep)
{
	void *member = (char *)o + row->off;
	char name[40];

	ks_opt_row_name(row, false, name, sizeof(name));
	if (ctx == KS_CTX_CRASH && !(row->applies & KS_IN_CRASH_CMD))
		return fail(rep, "option %s is for the live tool only",
			    name);
	o->given |= 1ull << row_index(row);
	switch (row->kind) {
	case KS_OPT_FLAG:
		*(bool *)member = true;
		return 0;
	case KS_OPT_STATE:
		for (const char *c = row->letters; *c; c++)
			o->sel.states |= KS_ST_BIT(*c);
		return 0;
	case KS_OPT_PIDS:
		return parse_pids(o, arg, rep);
	case KS_OPT_FORMAT:
		return set_format(o, row->format, rep);
	case KS_OPT_PATH:
	case KS_OPT_CGROUP:
		return set_path(row, name, arg, member, rep);
	case KS_OPT_TEXT:
		*(const char **)member = arg;
		return 0;
	case KS_OPT_REGEX:
		return set_regex(o, name, arg, rep);
	case KS_OPT_NUM:
		return set_num(o, row, name, arg, member, rep);
	case KS_OPT_DURATION:
		/* read once the mode says what a plain number counts */
		o->t_arg = arg;
		o->t_given = true;
		return 0;
	case KS_OPT_TIME:
		if (parse_time(arg, member))
			return fail(rep, "invalid %s '%s': a local time "
				    "(2026-11-24 23:10, 2026-11-24 23:10:05, "
				    "2026-11-24T23:10:05), a day (2026-11-24) or "
				    "seconds since the epoch (@1795561800)",
				    name, arg);
		return 0;
	}
	return fail(rep, "option %s: unknown kind", name);
}

/* The one mode of a command line, stored once in o->mode. */
static unsigned int decide_mode(const struct ks_options *o, enum ks_context ctx)
{
	bool hooks = o->hooks.kprobes || o->hooks.ftrace;

	if (o->help || o->version)
		return KS_IN_INFO;
	if (o->log)
		return ctx == KS_CTX_CRASH ? KS_IN_CLOG :
		       o->vmcore ? KS_IN_VLOG : KS_IN_LOG;
	if (ctx == KS_CTX_CRASH && o->panic)
		return KS_IN_CPANIC;
	if (ctx == KS_CTX_CRASH)
		return hooks ? KS_IN_CHOOKS : o->cpus ? KS_IN_CCPUS : KS_IN_CRASH;
	if (o->decode)
		return KS_IN_DECODE;
	if (o->snoop)
		return KS_IN_SNOOP;
	/* --panic without --vmcore is refused by check_combination() */
	if (o->panic)
		return KS_IN_VPANIC;
	if (o->vmcore)
		return hooks ? KS_IN_VHOOKS : o->cpus ? KS_IN_VCPUS : KS_IN_VMCORE;
	if (hooks)
		return KS_IN_HOOKS;
	if (o->background || o->foreground)
		return KS_IN_BG;
	return KS_IN_ONE;
}

/* Each option given means something in this mode, with what it needs. */
static int check_rows(const struct ks_options *o, enum ks_context ctx,
		      unsigned int mode, const struct ks_reporter *rep)
{
	char name[40], where[256];

	for (size_t i = 0; i < ks_nr_opt_rows; i++) {
		const struct ks_opt_row *row = &ks_opt_rows[i];
		const struct ks_opt_row *need;

		if (!given(o, row))
			continue;
		ks_opt_row_name(row, false, name, sizeof(name));
		if (!(row->applies & mode) && row->leads)
			return fail(rep, "%s and %s exclude each other",
				    name, ks_mode_what(mode));
		if (!(row->applies & mode)) {
			ks_options_where(where, sizeof(where), row->applies, ctx);
			return fail(rep, "option %s does nothing with "
				    "%s; it is for %s", name, ks_mode_what(mode),
				    where);
		}
		need = row->needs ? row_of_name(row->needs) : NULL;
		if (need && !given(o, need))
			return fail(rep, "option %s goes with %s", name,
				    row->needs);
	}
	return 0;
}

/*
 * -t: "30" is minutes with -b (oled's) and seconds with --snoop; "30s",
 * "2m" and "1h" are the same in both, up to the year a plain -b allows.
 */
static int parse_duration(struct ks_options *o, const struct ks_opt_row *row,
			  unsigned int mode, const struct ks_reporter *rep)
{
	const char *units = "smh", *u;
	static const long secs[] = { 1, 60, 3600 };
	size_t len = strlen(o->t_arg);
	long unit = mode == KS_IN_BG ? 60 : 1, min = row->min;
	/* the row's range is in minutes: a year, in the unit given */
	long plain = row->max * 60 / unit, max = plain;
	char num[32];
	long v;

	u = len ? strchr(units, o->t_arg[len - 1]) : NULL;
	if (u && *u) {
		max = row->max * 60 / secs[u - units];
		unit = secs[u - units];
		len--;
	}
	snprintf(num, sizeof(num), "%.*s", (int)len, o->t_arg);
	if (len >= sizeof(num) || parse_long(num, min, max, &v))
		return fail(rep, "option -t wants a number of %s "
			    "from %ld to %ld with %s, or one with a unit up to a "
			    "year (30s, 2m, 1h), not '%s'",
			    mode == KS_IN_BG ? "minutes" : "seconds", row->min,
			    plain, mode == KS_IN_BG ? "-b" : "--snoop", o->t_arg);
	o->duration = v * unit;
	return 0;
}

static int check_selection(const struct ks_options *o,
			   const struct ks_reporter *rep)
{
	char list[128] = "", name[40];
	size_t len = 0;

	if (o->sel.all || o->sel.states || o->sel.nr_pids || o->sel.comm)
		return 0;
	for (size_t i = 0; i < ks_nr_opt_rows; i++)
		if (ks_opt_rows[i].selects && len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%s", len ? "/" : "",
						ks_opt_row_name(&ks_opt_rows[i],
								false, name,
								sizeof(name)));
	return fail(rep, "at least one of %s must be specified", list);
}

static int check_combination(struct ks_options *o, enum ks_context ctx,
			     const struct ks_reporter *rep)
{
	unsigned int mode = decide_mode(o, ctx);
	const char *ms = o->knobs.interval_ms;
	int ret;

	o->mode = mode;
	if (mode == KS_IN_INFO)
		return 0;
	if (o->hooks.kprobes && o->hooks.ftrace)
		return fail(rep, "-K and -F exclude each other");
	ret = check_rows(o, ctx, mode, rep);
	if (ret)
		return ret;
	if (mode == KS_IN_VPANIC && !o->vmcore)
		return fail(rep, "--panic reads a dump: it goes with "
			    "--vmcore VMCORE");
	if (mode == KS_IN_SNOOP && !*o->snoop)
		return fail(rep, "--snoop wants a function name");
	/* --vmcore alone reads the dump's own kallsyms and BTF */
	if (o->vmlinux && (mode == KS_IN_ONE || mode == KS_IN_SNOOP) &&
	    !o->lines)
		return fail(rep, "--vmlinux goes with --vmcore VMCORE, -l "
			    "or --decode");
	if (mode & KS_IN_TASKS) {
		ret = check_selection(o, rep);
		if (ret)
			return ret;
	}
	if (o->t_given) {
		ret = parse_duration(o, row_of_name("-t"), mode, rep);
		if (ret)
			return ret;
	}
	if (mode != KS_IN_BG)
		return 0;
	if (ms) {
		if (parse_long(ms, 1, 3600000, &o->interval_ms))
			return fail(rep, "bad KSTACK_TEST_INTERVAL_MS '%s'", ms);
		return 0;
	}
	o->interval_ms = o->interval * 1000;
	return 0;
}

/*
 * What getopt_long() refused, named: ':' is a missing value (optopt is
 * the option's val, for long options too); '?' with optopt set is an
 * unknown short option or a value given to a long option taking none.
 * report says each of them its one way, with the word as given.
 */
static int getopt_error(enum ks_context ctx, int c, const char *arg,
			const struct ks_reporter *rep)
{
	const struct ks_opt_row *row = c == ':' ? row_of_val(optopt, ctx) : NULL;
	char name[40];

	if (ctx == KS_CTX_REPORT)
		return fail(rep, "report: invalid option '%s'", arg);
	if (row)
		return fail(rep, "option %s needs a value",
			    ks_opt_row_name(row, false, name, sizeof(name)));
	if (optopt && !strncmp(arg, "--", 2))
		return fail(rep, "option %.*s takes no value",
			    (int)strcspn(arg, "="), arg);
	if (optopt && optopt < 256)
		return fail(rep, "invalid option -%c", optopt);
	return fail(rep, "invalid option '%s'", arg);
}

/* report's operands: how many, the first is its DIR, the second is named */
struct operands {
	size_t n;
	const char *second;
};

/*
 * report's operands may come before, between and after its options:
 * the one getopt stopped at is taken and getopt goes on (true), but
 * after "--" every word left is an operand (false: the options end).
 */
static bool take_operand(struct ks_options *o, struct operands *ops,
			 int argc, char **argv)
{
	bool dashes = !strcmp(argv[optind - 1], "--");

	while (optind < argc) {
		const char *arg = argv[optind++];

		if (!ops->n++)
			o->report_path = arg;
		else if (!ops->second)
			ops->second = arg;
		if (!dashes)
			return true;
	}
	return false;
}

/* argv's options into o, with report's operands; 0 or -errno, said */
static int parse_args(struct ks_options *o, enum ks_context ctx, int argc,
		      char **argv, struct operands *ops,
		      const struct ks_reporter *rep)
{
	char shorts[3 + 2 * MAX_ROWS];
	struct option longs[MAX_ROWS + 1];
	int c, ret;

	getopt_tables(ctx, shorts, longs);
	/* crash calls us many times in one process: restart getopt fully. */
	optind = 0;
	opterr = 0;
	for (;;) {
		c = getopt_long(argc, argv, shorts, longs, NULL);
		if (c == -1 && ctx == KS_CTX_REPORT &&
		    take_operand(o, ops, argc, argv))
			continue;
		if (c == -1)
			return 0;
		if (c == '?' || c == ':')
			return getopt_error(ctx, c, argv[optind - 1], rep);
		ret = parse_row(o, ctx, row_of_val(c, ctx), optarg, rep);
		if (ret)
			return ret;
		/* --decode's FILE, and the options that may follow it */
		if (o->decode && !o->decode_file && optind < argc &&
		    argv[optind][0] != '-')
			o->decode_file = argv[optind++];
	}
}

/* What is left after the options, then whether they go together. */
static int check_rest(struct ks_options *o, enum ks_context ctx, int argc,
		      char **argv, const struct ks_reporter *rep)
{
	if (optind < argc && o->decode && !o->decode_file &&
	    strcmp(argv[optind], "--"))
		o->decode_file = argv[optind++];
	if (optind < argc)
		return fail(rep, "unexpected argument '%s'",
			    argv[optind]);
	return check_combination(o, ctx, rep);
}

/* report's checks, in the order and the words it always had */
static int check_report(const struct ks_options *o, const struct operands *ops,
			const struct ks_reporter *rep)
{
	if (o->help)
		return 0;
	if (o->report_json && o->report_folded)
		return fail(rep, "--json and --folded do not go together");
	if (!ops->n)
		return fail(rep, "report: a directory is needed");
	if (ops->n > 1)
		return fail(rep, "report: one directory or file, got '%s'",
			    ops->second);
	return 0;
}

int ks_options_parse(struct ks_options *o, enum ks_context ctx, int argc,
		     char **argv, const struct ks_reporter *rep)
{
	return ks_options_parse_knobs(o, ctx, argc, argv, NULL, rep);
}

int ks_options_parse_knobs(struct ks_options *o, enum ks_context ctx,
			   int argc, char **argv,
			   const struct ks_test_knobs *knobs,
			   const struct ks_reporter *rep)
{
	struct operands ops = { 0 };
	int ret;

	ks_options_defaults(o);
	if (knobs && ctx == KS_CTX_LIVE)
		o->knobs = *knobs;
	/* "kstack report ...": from its word on, with report's rows */
	if (ctx == KS_CTX_LIVE && argc > 1 && !strcmp(argv[1], "report")) {
		ctx = KS_CTX_REPORT;
		o->mode = KS_IN_REPORT;
		argc--;
		argv++;
	}
	ret = parse_args(o, ctx, argc, argv, &ops, rep);
	if (!ret && ctx == KS_CTX_REPORT)
		ret = check_report(o, &ops, rep);
	else if (!ret)
		ret = check_rest(o, ctx, argc, argv, rep);
	if (!ret)
		return 0;
	ks_options_release(o);
	return ret;
}

void ks_options_release(struct ks_options *o)
{
	ks_selection_release(&o->sel);
}
