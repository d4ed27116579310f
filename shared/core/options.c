// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The option grammar of oled kstack plus kstack's own, parsed once for
 * both the live tool and the crash command from the rows of
 * option_table.c.  Numbers are parsed strictly: "-i 1O" is an error, not
 * 1.  An option given where its row says it means nothing is refused
 * with the modes where it does.  The subcommands, "kstack report" and
 * "kstack diff", are parsed here too, with their own rows and their own
 * words for what is wrong.  The live
 * tool's own rows come from it (struct ks_opt_table) and store into its
 * struct: the parser knows them as rows and by the modes they lead,
 * never by their members.
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

int ks_parse_long(const char *s, long min, long max, long *val_ret)
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

static bool given(const struct ks_options *o, size_t i)
{
	return o->given & (1ull << i);
}

/* The member of the view's row i: in o, or in the front end's struct. */
static void *row_member(struct ks_options *o, const struct ks_opt_view *v,
		    size_t i)
{
	if (!v->in_front[i])
		return (char *)o + v->rows[i]->off;
	return v->base ? (char *)v->base + v->rows[i]->off : NULL;
}

/*
 * Whether an option given leads to mode: the live tool's -b, --vmcore,
 * --snoop and --decode are its own rows, known here by what they lead.
 */
static bool led_to(const struct ks_options *o, const struct ks_opt_view *v,
		   unsigned int mode)
{
	for (size_t i = 0; i < v->nr; i++)
		if (given(o, i) && (v->rows[i]->leads & mode))
			return true;
	return false;
}

/*
 * Whether getopt knows the row in ctx: a subcommand's rows in it, every
 * other row elsewhere (crash's parser too names the live tool's options,
 * to refuse them).  report's --json is not the sample's, nor its -h.
 */
static bool row_parsed(const struct ks_opt_row *row, enum ks_context ctx)
{
	const struct ks_subcommand *sub = ks_ctx_subcommand(ctx);

	if (sub)
		return row->applies & sub->mode;
	return row->applies & ~KS_IN_SUBCMDS;
}

#define NO_ROW	((size_t)-1)

/* The view's row getopt_long() returned c for, or NO_ROW. */
static size_t row_of_val(const struct ks_opt_view *v, int c,
			 enum ks_context ctx)
{
	if (c >= LONG_VAL(0))
		return (size_t)(c - LONG_VAL(0));
	for (size_t i = 0; i < v->nr; i++)
		if (v->rows[i]->letter == c && row_parsed(v->rows[i], ctx))
			return i;
	return NO_ROW;
}

/* The view's row named "-c" or "--touched", or NO_ROW. */
static size_t row_of_name(const struct ks_opt_view *v, const char *name)
{
	char buf[40];

	for (size_t i = 0; i < v->nr; i++)
		if (!strcmp(ks_opt_row_name(v->rows[i], false, buf,
					    sizeof(buf)), name))
			return i;
	return NO_ROW;
}

static bool has_arg(const struct ks_opt_row *row)
{
	return row->kind != KS_OPT_FLAG && row->kind != KS_OPT_STATE &&
	       row->kind != KS_OPT_FORMAT && row->kind != KS_OPT_OPERAND;
}

/*
 * getopt_long()'s tables from the rows: '+' stops at the first
 * non-option, ':' returns ':' for a missing value.  A row with both
 * names is known by its letter.
 */
static void getopt_tables(const struct ks_opt_view *v, enum ks_context ctx,
			  char *shorts, struct option *longs)
{
	size_t n = 0;

	*shorts++ = '+';
	*shorts++ = ':';
	for (size_t i = 0; i < v->nr; i++) {
		const struct ks_opt_row *row = v->rows[i];
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
		if (ks_parse_long(num, 0, INT32_MAX, &pid))
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

static int set_num(const struct ks_opt_row *row, const char *name,
		   const char *arg, void *member, const struct ks_reporter *rep)
{
	long min = row->min;

	/* report's words, as they were before it was a mode of the table */
	if (row->applies == KS_IN_REPORT && ks_parse_long(arg, min, row->max, member))
		return fail(rep, "invalid %s '%s'", name, arg);
	if (ks_parse_long(arg, min, row->max, member))
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

static int parse_row(struct ks_options *o, const struct ks_opt_view *v,
		     enum ks_context ctx, size_t i, const char *arg,
		     const struct ks_reporter *rep)
{
	const struct ks_opt_row *row = v->rows[i];
	void *member = row_member(o, v, i);
	char name[40];

	ks_opt_row_name(row, false, name, sizeof(name));
	if (ctx == KS_CTX_CRASH && !(row->applies & KS_IN_CRASH_CMD))
		return fail(rep, "option %s is for the live tool only",
			    name);
	/* a front end's row with no struct to fill: known to be refused */
	if (!member)
		return fail(rep, "option %s: nowhere to keep it", name);
	o->given |= 1ull << i;
	switch (row->kind) {
	case KS_OPT_FLAG:
		*(bool *)member = true;
		return 0;
	case KS_OPT_OPERAND:
		/* its word, if any, is taken after it (parse_args) */
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
		return set_num(row, name, arg, member, rep);
	case KS_OPT_DURATION:
		/* read once the mode says what a plain number counts */
		o->t_arg = arg;
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

/* A view of a dump: crash's own, or the one --vmcore names. */
static unsigned int dump_view(const struct ks_options *o, bool hooks)
{
	if (o->panic)
		return KS_IN_VPANIC;
	return hooks ? KS_IN_VHOOKS : o->cpus ? KS_IN_VCPUS : KS_IN_VMCORE;
}

/* The one mode of a command line, as the live tool's modes name it. */
static unsigned int decide_mode(const struct ks_options *o,
				const struct ks_opt_view *v, enum ks_context ctx)
{
	bool hooks = o->hooks.kprobes || o->hooks.ftrace;
	bool dump = ctx == KS_CTX_CRASH || led_to(o, v, KS_IN_VMCORE);

	if (o->help || o->version)
		return KS_IN_INFO;
	if (o->triage)
		return dump ? KS_IN_VTRIAGE : KS_IN_TRIAGE;
	if (o->log)
		return dump ? KS_IN_VLOG : KS_IN_LOG;
	if (ctx == KS_CTX_CRASH)
		return dump_view(o, hooks);
	if (led_to(o, v, KS_IN_DECODE))
		return KS_IN_DECODE;
	if (led_to(o, v, KS_IN_SNOOP))
		return KS_IN_SNOOP;
	/* --panic without --vmcore is refused by check_combination() */
	if (dump || o->panic)
		return dump_view(o, hooks);
	if (hooks)
		return KS_IN_HOOKS;
	if (led_to(o, v, KS_IN_BG))
		return KS_IN_BG;
	return KS_IN_ONE;
}

/* Each option given means something in this mode, with what it needs. */
static int check_rows(const struct ks_options *o, const struct ks_opt_view *v,
		      enum ks_context ctx, unsigned int mode,
		      const struct ks_reporter *rep)
{
	char name[40], where[256];

	for (size_t i = 0; i < v->nr; i++) {
		const struct ks_opt_row *row = v->rows[i];
		size_t need;

		if (!given(o, i))
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
		need = row->needs ? row_of_name(v, row->needs) : NO_ROW;
		if (need != NO_ROW && !given(o, need))
			return fail(rep, "option %s goes with %s", name,
				    row->needs);
	}
	return 0;
}

/*
 * -t: "30" is minutes with -b (oled's) and seconds with --snoop; "30s",
 * "2m" and "1h" are the same in both, up to the year a plain -b allows.
 */
static int parse_duration(struct ks_options *o, const struct ks_opt_view *v,
			  size_t i, unsigned int mode, const struct ks_reporter *rep)
{
	const struct ks_opt_row *row = v->rows[i];
	const char *units = "smh", *u;
	static const long secs[] = { 1, 60, 3600 };
	size_t len = strlen(o->t_arg);
	long unit = mode == KS_IN_BG ? 60 : 1, min = row->min;
	/* the row's range is in minutes: a year, in the unit given */
	long plain = row->max * 60 / unit, max = plain;
	char num[32];
	long val;

	u = len ? strchr(units, o->t_arg[len - 1]) : NULL;
	if (u && *u) {
		max = row->max * 60 / secs[u - units];
		unit = secs[u - units];
		len--;
	}
	snprintf(num, sizeof(num), "%.*s", (int)len, o->t_arg);
	if (len >= sizeof(num) || ks_parse_long(num, min, max, &val))
		return fail(rep, "option -t wants a number of %s "
			    "from %ld to %ld with %s, or one with a unit up to a "
			    "year (30s, 2m, 1h), not '%s'",
			    mode == KS_IN_BG ? "minutes" : "seconds", row->min,
			    plain, mode == KS_IN_BG ? "-b" : "--snoop", o->t_arg);
	*(long *)row_member(o, v, i) = val * unit;
	return 0;
}

static int check_selection(const struct ks_options *o,
			   const struct ks_opt_view *v, const struct ks_reporter *rep)
{
	char list[128] = "", name[40];
	size_t len = 0;

	if (o->sel.all || o->sel.states || o->sel.nr_pids || o->sel.comm)
		return 0;
	for (size_t i = 0; i < v->nr; i++)
		if (v->rows[i]->selects && len < sizeof(list))
			len += (size_t)snprintf(list + len, sizeof(list) - len,
						"%s%s", len ? "/" : "",
						ks_opt_row_name(v->rows[i],
								false, name,
								sizeof(name)));
	return fail(rep, "at least one of %s must be specified", list);
}

/* The front end's own checks, where it has a struct to check. */
static int check_front(const struct ks_options *o,
		       const struct ks_opt_view *v, const struct ks_reporter *rep)
{
	if (!v->front || !v->front->check || !v->base)
		return 0;
	return v->front->check(v->base, o, rep);
}

static int check_combination(struct ks_options *o,
			     const struct ks_opt_view *v, enum ks_context ctx,
			     const struct ks_reporter *rep)
{
	unsigned int mode = decide_mode(o, v, ctx);
	int ret;

	if (ctx == KS_CTX_CRASH)
		mode = ks_mode_in_crash(mode);
	o->mode = mode;
	if (mode == KS_IN_INFO)
		return 0;
	if (o->hooks.kprobes && o->hooks.ftrace)
		return fail(rep, "-K and -F exclude each other");
	ret = check_rows(o, v, ctx, mode, rep);
	if (ret)
		return ret;
	if (mode == KS_IN_VPANIC && !led_to(o, v, KS_IN_VMCORE))
		return fail(rep, "--panic reads a dump: it goes with "
			    "--vmcore VMCORE");
	ret = check_front(o, v, rep);
	if (ret)
		return ret;
	/* --vmcore alone reads the dump's own kallsyms and BTF */
	if (o->vmlinux && (mode == KS_IN_ONE || mode == KS_IN_SNOOP) &&
	    !o->lines)
		return fail(rep, "--vmlinux goes with --vmcore VMCORE, -l "
			    "or --decode");
	if (mode & KS_IN_TASKS) {
		ret = check_selection(o, v, rep);
		if (ret)
			return ret;
	}
	if (o->t_arg)
		return parse_duration(o, v, row_of_name(v, "-t"), mode, rep);
	return 0;
}

/*
 * What getopt_long() refused, named: ':' is a missing value (optopt is
 * the option's val, for long options too); '?' with optopt set is an
 * unknown short option or a value given to a long option taking none.
 * report says each of them its one way, with the word as given.
 */
static int getopt_error(const struct ks_opt_view *v, enum ks_context ctx,
			int c, const char *arg, const struct ks_reporter *rep)
{
	size_t i = c == ':' ? row_of_val(v, optopt, ctx) : NO_ROW;
	const struct ks_subcommand *sub = ks_ctx_subcommand(ctx);
	char name[40];

	if (sub)
		return fail(rep, "%s: invalid option '%s'", sub->word, arg);
	if (i != NO_ROW)
		return fail(rep, "option %s needs a value",
			    ks_opt_row_name(v->rows[i], false, name,
					    sizeof(name)));
	if (optopt && !strncmp(arg, "--", 2))
		return fail(rep, "option %.*s takes no value",
			    (int)strcspn(arg, "="), arg);
	if (optopt && optopt < 256)
		return fail(rep, "invalid option -%c", optopt);
	return fail(rep, "invalid option '%s'", arg);
}

/* a subcommand's operands: how many, the first three */
struct operands {
	size_t n;
	const char *word[3];
};

/*
 * A subcommand's operands may come before, between and after its options:
 * the one getopt stopped at is taken and getopt goes on (true), but
 * after "--" every word left is an operand (false: the options end).
 */
static bool take_operand(struct operands *ops, int argc, char **argv)
{
	bool dashes = !strcmp(argv[optind - 1], "--");

	while (optind < argc) {
		const char *arg = argv[optind++];

		if (ops->n < 3)
			ops->word[ops->n] = arg;
		ops->n++;
		if (!dashes)
			return true;
	}
	return false;
}

/*
 * Where a given --decode keeps its FILE while it has none: the member of
 * the row of kind KS_OPT_OPERAND, or NULL.
 */
static const char **operand_slot(struct ks_options *o,
				 const struct ks_opt_view *v)
{
	for (size_t i = 0; i < v->nr; i++) {
		const char **slot;

		if (v->rows[i]->kind != KS_OPT_OPERAND || !given(o, i))
			continue;
		slot = row_member(o, v, i);
		if (slot && !*slot)
			return slot;
	}
	return NULL;
}

/* argv's options into o, with a subcommand's operands; 0 or -errno, said */
static int parse_args(struct ks_options *o, const struct ks_opt_view *v,
		      enum ks_context ctx, int argc, char **argv,
		      struct operands *ops, const struct ks_reporter *rep)
{
	char shorts[3 + 2 * KS_MAX_ROWS];
	struct option longs[KS_MAX_ROWS + 1];
	const char **slot;
	int c, ret;

	getopt_tables(v, ctx, shorts, longs);
	/* crash calls us many times in one process: restart getopt fully. */
	optind = 0;
	opterr = 0;
	for (;;) {
		c = getopt_long(argc, argv, shorts, longs, NULL);
		if (c == -1 && ks_ctx_subcommand(ctx) &&
		    take_operand(ops, argc, argv))
			continue;
		if (c == -1)
			return 0;
		if (c == '?' || c == ':')
			return getopt_error(v, ctx, c, argv[optind - 1], rep);
		ret = parse_row(o, v, ctx, row_of_val(v, c, ctx), optarg,
				rep);
		if (ret)
			return ret;
		/* --decode's FILE, and the options that may follow it */
		slot = operand_slot(o, v);
		if (slot && optind < argc && argv[optind][0] != '-')
			*slot = argv[optind++];
	}
}

/* What is left after the options, then whether they go together. */
static int check_rest(struct ks_options *o, const struct ks_opt_view *v,
		      enum ks_context ctx, int argc, char **argv,
		      const struct ks_reporter *rep)
{
	const char **slot = operand_slot(o, v);

	if (optind < argc && slot && strcmp(argv[optind], "--"))
		*slot = argv[optind++];
	if (optind < argc)
		return fail(rep, "unexpected argument '%s'",
			    argv[optind]);
	return check_combination(o, v, ctx, rep);
}

/* report's operands, in the words they always had */
static int check_report(const struct operands *ops,
			const struct ks_reporter *rep)
{
	if (!ops->n)
		return fail(rep, "report: a directory is needed");
	if (ops->n > 1)
		return fail(rep, "report: one directory or file, got '%s'",
			    ops->word[1]);
	return 0;
}

/* diff's: A and B, or A alone when --vmcore gives B (the front's check) */
static int check_diff(const struct operands *ops, bool dump,
		      const struct ks_reporter *rep)
{
	size_t want = dump ? 1 : 2;

	if (ops->n < want)
		return fail(rep, dump ? "diff: a capture to compare with the dump is needed" :
			    "diff: two captures are needed: A B, or A --vmcore VMCORE");
	if (ops->n > want)
		return fail(rep, "diff: %s, got '%s' too",
			    dump ? "one capture with --vmcore" : "two captures",
			    ops->word[want]);
	return 0;
}

/* A subcommand's checks: the front end's, then its operands. */
static int check_subcommand(struct ks_options *o, const struct ks_opt_view *v,
			    enum ks_context ctx, const struct operands *ops,
			    const struct ks_reporter *rep)
{
	int ret;

	if (o->help)
		return 0;
	ret = check_front(o, v, rep);
	if (ret)
		return ret;
	o->operand = ops->word[0];
	o->operand2 = ops->word[1];
	if (ctx == KS_CTX_REPORT)
		return check_report(ops, rep);
	return check_diff(ops, ks_options_given(o, v->front, "--vmcore"), rep);
}

int ks_options_parse(struct ks_options *o, enum ks_context ctx, int argc,
		     char **argv, const struct ks_opt_table *front, void *base,
		     const struct ks_reporter *rep)
{
	struct operands ops = { 0 };
	struct ks_opt_view v;
	int ret;

	ks_options_defaults(o);
	ks_opt_view_init(&v, front);
	v.base = base;
	if (front && base)
		memcpy(base, front->defaults, front->size);
	/* "kstack report ...": from its word on, with report's rows */
	for (size_t i = 0; i < ks_nr_subcommands; i++) {
		if (ctx != KS_CTX_LIVE || argc < 2 ||
		    strcmp(argv[1], ks_subcommands[i].word))
			continue;
		ctx = ks_subcommands[i].ctx;
		o->mode = ks_subcommands[i].mode;
		argc--;
		argv++;
		break;
	}
	/* "kstack triage ...", and crash's: a word, then the usual rows */
	if (!ks_ctx_subcommand(ctx) && argc > 1 && !strcmp(argv[1], "triage")) {
		o->triage = true;
		argc--;
		argv++;
	}
	ret = parse_args(o, &v, ctx, argc, argv, &ops, rep);
	if (!ret && ks_ctx_subcommand(ctx))
		ret = check_subcommand(o, &v, ctx, &ops, rep);
	else if (!ret)
		ret = check_rest(o, &v, ctx, argc, argv, rep);
	o->out.stuck_time = o->sel.states & KS_ST_BIT('D');
	if (!ret)
		return 0;
	ks_options_release(o);
	return ret;
}

bool ks_options_given(const struct ks_options *o,
		      const struct ks_opt_table *front, const char *name)
{
	struct ks_opt_view v;
	size_t i;

	ks_opt_view_init(&v, front);
	i = row_of_name(&v, name);
	return i != NO_ROW && given(o, i);
}

void ks_options_release(struct ks_options *o)
{
	ks_selection_release(&o->sel);
}
