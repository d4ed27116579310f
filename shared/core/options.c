// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The option grammar of oled kstack plus kstack's own, parsed once for
 * both the live tool and the crash command.  Numbers are parsed strictly:
 * "-i 1O" is an error, not 1.
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

/*
 * The options with a long name only: the name, whether it takes a value,
 * and the getopt value OPT_<ID>, numbered past every character.
 */
#define LONG_ONLY(X)						\
	X(JSON, "json", no_argument)				\
	X(FOLDED, "folded", no_argument)			\
	X(CGROUP, "cgroup", required_argument)			\
	X(PROC_ROOT, "proc-root", required_argument)		\
	X(FOREGROUND, "foreground", no_argument)		\
	X(VMCORE, "vmcore", required_argument)			\
	X(VMLINUX, "vmlinux", required_argument)		\
	X(FOLLOW_SYMLINK, "follow-symlink", no_argument)	\
	X(DECODE, "decode", no_argument)			\
	X(SNOOP, "snoop", required_argument)			\
	X(HELP, "help", no_argument)				\
	X(TOUCHED, "touched", no_argument)			\
	X(VERSION, "version", no_argument)

#define AS_ENUM(id, name, arg)		OPT_##id,
#define AS_OPTION(id, name, arg)	{ name, arg, NULL, OPT_##id },

enum {
	OPT_BEFORE_FIRST = 255,
	LONG_ONLY(AS_ENUM)
};

/* getopt_long's table: those, and the long names of -l and -v */
static const struct option long_opts[] = {
	LONG_ONLY(AS_OPTION)
	{ "lines", no_argument, NULL, 'l' },
	{ "verbose", no_argument, NULL, 'v' },
	{ NULL, 0, NULL, 0 },
};

static const char usage_live[] =
"usage: kstack {-a|-D|-R|-S|-Z|-I|-T|-p PID[,PID...]}... [-H] [--cgroup PATH]\n"
"              [-c|--json|--folded] [-o FILE [--follow-symlink]]\n"
"              [--proc-root DIR] [-v]\n"
"       kstack -b [-t MINUTES] [-i SECONDS] [-d DIR] [-m MB] [-n FILES]\n"
"              [-x PERCENT] [--foreground] SELECTION...\n"
"       kstack -K | -F [--touched] [-v]\n"
"       kstack --vmcore VMCORE [--vmlinux VMLINUX] SELECTION...\n"
"       kstack -h | --help | --version\n"
"       kstack --snoop FUNC [-p PID[,PID...]] [-t SECONDS] [-c|--json|--folded]\n"
"       kstack --decode [--vmlinux VMLINUX] [FILE]\n"
"selection (OR-ed): -a all, -D uninterruptible, -R running, -S sleeping,\n"
"  -Z zombie, -I idle kthreads, -T stopped or traced, -p PIDs; -H every thread\n"
"output: text (default), -c summary, --json (JSON Lines), --folded (flame graph)\n"
"hooks: -K kprobes, -F ftrace enabled functions (--touched: every function\n"
"  ftrace ever patched since boot, Linux 6.4+)\n"

"-l (--lines): file:line of every frame, from the debug vmlinux and modules\n";

static const char usage_crash[] =
"kstack {-a|-D|-R|-S|-Z|-I|-T|-p PID[,PID...]}... [-H] [--cgroup PATH] "
"[-l] [-c|--json|--folded] | -K [-v] | -F [--touched] [-v]\n";

const char *ks_options_usage(enum ks_context ctx)
{
	return ctx == KS_CTX_CRASH ? usage_crash : usage_live;
}

static int fail(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
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

static int parse_pids(struct ks_options *o, const char *arg, char *err,
		      size_t errlen)
{
	const char *p = arg;

	for (;;) {
		const char *comma = strchr(p, ',');
		size_t len = comma ? (size_t)(comma - p) : strlen(p);
		char num[16];
		long pid;
		int32_t *n;

		if (!len || len >= sizeof(num))
			return fail(err, errlen, "invalid PID list '%s'", arg);
		memcpy(num, p, len);
		num[len] = '\0';
		if (parse_long(num, 0, INT32_MAX, &pid))
			return fail(err, errlen, "invalid PID '%s'", num);
		n = ks_grow(o->pids, &o->pids_cap, o->nr_pids + 1, sizeof(*n));
		if (!n)
			return fail(err, errlen, "out of memory");
		o->pids = n;
		o->pids[o->nr_pids++] = (int32_t)pid;
		if (!comma)
			return 0;
		p = comma + 1;
	}
}

static void set_defaults(struct ks_options *o)
{
	memset(o, 0, sizeof(*o));
	o->format = KS_FMT_TEXT;
	o->minutes = 30;
	o->interval = 60;
	o->dir = "/var/oled/kstack";
	o->max_mb = 1;
	o->max_files = 5;
	o->max_percent = 85;
	o->proc_root = "/proc";
}

static int set_format(struct ks_options *o, enum ks_format f, char *err,
		      size_t errlen)
{
	if (o->format != KS_FMT_TEXT && o->format != f)
		return fail(err, errlen,
			    "-c, --json and --folded exclude each other");
	o->format = f;
	return 0;
}

struct num_opt {
	int opt;
	long min, max;
	size_t off;
};

static const struct num_opt num_opts[] = {
	/* 0 as in oled: -t one sample, -m and -n no rotation */
	{ 't', 0, 60L * 24 * 365, offsetof(struct ks_options, minutes) },
	{ 'i', 1, 86400, offsetof(struct ks_options, interval) },
	{ 'm', 0, 1024 * 1024, offsetof(struct ks_options, max_mb) },
	{ 'n', 0, 10000, offsetof(struct ks_options, max_files) },
	{ 'x', 1, 100, offsetof(struct ks_options, max_percent) },
};

static int parse_num_opt(struct ks_options *o, int c, const char *arg,
			 char *err, size_t errlen)
{
	for (size_t i = 0; i < sizeof(num_opts) / sizeof(num_opts[0]); i++) {
		const struct num_opt *n = &num_opts[i];

		if (n->opt != c)
			continue;
		if (parse_long(arg, n->min, n->max,
			       (long *)((char *)o + n->off)))
			return fail(err, errlen,
				    "option -%c wants a number from %ld to %ld, not '%s'",
				    c, n->min, n->max, arg);
		return 0;
	}
	return fail(err, errlen, "unknown option -%c", c);
}

/* "-b" or "--proc-root", for messages */
static const char *opt_name(int c)
{
	static char name[32];

	if (c < 256) {
		snprintf(name, sizeof(name), "-%c", c);
		return name;
	}
	for (const struct option *o = long_opts; o->name; o++)
		if (o->val == c) {
			snprintf(name, sizeof(name), "--%s", o->name);
			return name;
		}
	return "?";
}

static bool live_only(int c)
{
	/* strchr() finds the terminating NUL too: long options are >= 256 */
	return (c > 0 && c < 256 && strchr("btidmnxo", c)) || c == OPT_PROC_ROOT ||
	       c == OPT_FOREGROUND || c == OPT_VMCORE || c == OPT_VMLINUX ||
	       c == OPT_FOLLOW_SYMLINK || c == OPT_DECODE || c == OPT_SNOOP;
}

/* Options naming a file, a directory or a cgroup: "" names nothing. */
static bool takes_path(int c)
{
	return c == 'd' || c == 'o' || c == OPT_CGROUP || c == OPT_PROC_ROOT ||
	       c == OPT_VMCORE || c == OPT_VMLINUX;
}

static int check_path(int c, const char *arg, char *err, size_t errlen)
{
	if (!*arg)
		return fail(err, errlen, "option %s wants a non-empty value",
			    opt_name(c));
	/*
	 * /proc/PID/cgroup paths are absolute: a relative one would match
	 * nothing, and "" would have matched every task.
	 */
	if (c == OPT_CGROUP && arg[0] != '/')
		return fail(err, errlen,
			    "option --cgroup wants a path as /proc/PID/cgroup shows it, starting with / (e.g. /system.slice/cron.service), not '%s'",
			    arg);
	return 0;
}

static int parse_one(struct ks_options *o, enum ks_context ctx, int c,
		     const char *arg, char *err, size_t errlen)
{
	if (ctx == KS_CTX_CRASH && live_only(c))
		return fail(err, errlen, "option %s is for the live tool only",
			    opt_name(c));
	if (takes_path(c) && check_path(c, arg, err, errlen))
		return -1;
	switch (c) {
	case 'a': o->all = true; return 0;
	case 'D': case 'R': case 'S': case 'Z': case 'I':
		o->states |= KS_ST_BIT(c);
		return 0;
	case 'T':
		o->states |= KS_ST_BIT('T') | KS_ST_BIT('t');
		return 0;
	case 'p': return parse_pids(o, arg, err, errlen);
	case 'H': o->threads = true; return 0;
	case 'c': return set_format(o, KS_FMT_SUMMARY, err, errlen);
	case OPT_JSON: return set_format(o, KS_FMT_JSON, err, errlen);
	case OPT_FOLDED: return set_format(o, KS_FMT_FOLDED, err, errlen);
	case OPT_CGROUP: o->cgroup = arg; return 0;
	case 'K': o->kprobes = true; return 0;
	case 'F': o->ftrace = true; return 0;
	case 'v': o->verbose = true; return 0;
	case 'b': o->background = true; return 0;
	case OPT_FOREGROUND: o->foreground = true; return 0;
	case 'd': o->dir = arg; return 0;
	case 'o': o->output = arg; return 0;
	case OPT_FOLLOW_SYMLINK: o->follow_symlink = true; return 0;
	case OPT_PROC_ROOT: o->proc_root = arg; return 0;
	case OPT_VMCORE: o->vmcore = arg; return 0;
	case OPT_VMLINUX: o->vmlinux = arg; return 0;
	case OPT_TOUCHED: o->touched = true; return 0;
	case 'l': o->lines = true; return 0;
	case OPT_DECODE: o->decode = true; return 0;
	case OPT_SNOOP: o->snoop = arg; return 0;
	case 't': o->t_given = true; return parse_num_opt(o, c, arg, err, errlen);
	case 'h': case OPT_HELP: o->help = true; return 0;
	case OPT_VERSION: o->version = true; return 0;
	default: return parse_num_opt(o, c, arg, err, errlen);
	}
}

/* --decode, --snoop and -l: 1 when the mode is complete, 0 or -1. */
static int check_new_modes(struct ks_options *o, char *err, size_t errlen)
{
	bool sample = o->all || o->states || o->threads || o->cgroup ||
		      o->kprobes || o->ftrace || o->background ||
		      o->foreground || o->output || o->vmcore;

	if (o->decode) {
		if (sample || o->snoop || o->nr_pids || o->lines ||
		    o->format != KS_FMT_TEXT)
			return fail(err, errlen,
				    "--decode takes only --vmlinux and a FILE");
		return 1;
	}
	if (o->decode_file)
		return fail(err, errlen, "unexpected argument '%s'", o->decode_file);
	if (o->snoop) {
		if (!*o->snoop)
			return fail(err, errlen, "--snoop wants a function name");
		if (sample)
			return fail(err, errlen, "--snoop FUNC takes only -p, -t, "
				    "-l, -c, --json, --folded, --vmlinux and -v");
		return 1;
	}
	if (o->lines && (o->background || o->kprobes || o->ftrace))
		return fail(err, errlen, "-l is for one sample, not -b, -K or -F "
			    "(kstack --decode adds lines to -b logs)");
	/* --vmcore alone reads the dump's own kallsyms and BTF */
	if (o->vmlinux && !o->vmcore && !o->lines)
		return fail(err, errlen, "--vmlinux goes with --vmcore VMCORE, -l "
			    "or --decode");
	return 0;
}

static int check_combination(struct ks_options *o, char *err, size_t errlen)
{
	bool selects = o->all || o->states || o->nr_pids;
	const char *ms = o->knobs.interval_ms;
	int ret;

	if (o->help || o->version)
		return 0;
	ret = check_new_modes(o, err, errlen);
	if (ret)
		return ret < 0 ? ret : 0;
	if (o->kprobes && o->ftrace)
		return fail(err, errlen, "-K and -F exclude each other");
	if (o->touched && !o->ftrace)
		return fail(err, errlen, "--touched goes with -F");
	if (o->kprobes || o->ftrace) {
		if (selects || o->background)
			return fail(err, errlen,
				    "-K and -F do not take task selection or -b");
		return 0;
	}
	if (!selects)
		return fail(err, errlen,
			    "at least one of -a/-D/-R/-S/-Z/-I/-T/-p must be specified");
	if (o->foreground)
		o->background = true;
	if (o->background && o->output)
		return fail(err, errlen, "-o is for one sample; -b writes to -d DIR");
	if (o->follow_symlink && !o->output)
		return fail(err, errlen, "--follow-symlink goes with -o FILE");
	if (o->background && o->vmcore)
		return fail(err, errlen, "-b samples a live system, not a vmcore");
	/* Tests shorten the interval; users keep oled's floor of 10 s. */
	if (ms) {
		if (parse_long(ms, 1, 3600000, &o->interval_ms))
			return fail(err, errlen, "bad KSTACK_TEST_INTERVAL_MS '%s'", ms);
		return 0;
	}
	if (o->background && o->interval < 10)
		return fail(err, errlen, "option -i must be >= 10 seconds");
	o->interval_ms = o->interval * 1000;
	return 0;
}

/*
 * What getopt_long() refused, named: ':' is a missing value (optopt is
 * the option's val, for long options too); '?' with optopt set is an
 * unknown short option or a value given to a long option taking none.
 */
static void getopt_error(int c, const char *arg, char *err, size_t errlen)
{
	if (c == ':')
		fail(err, errlen, "option %s needs a value", opt_name(optopt));
	else if (optopt && !strncmp(arg, "--", 2))
		fail(err, errlen, "option %.*s takes no value",
		     (int)strcspn(arg, "="), arg);
	else if (optopt && optopt < 256)
		fail(err, errlen, "invalid option -%c", optopt);
	else
		fail(err, errlen, "invalid option '%s'", arg);
}

int ks_options_parse(struct ks_options *o, enum ks_context ctx, int argc,
		     char **argv, char *err, size_t errlen)
{
	return ks_options_parse_knobs(o, ctx, argc, argv, NULL, err, errlen);
}

int ks_options_parse_knobs(struct ks_options *o, enum ks_context ctx,
			   int argc, char **argv,
			   const struct ks_test_knobs *knobs, char *err,
			   size_t errlen)
{
	/* '+': stop at the first non-option; ':': ':' for a missing value */
	static const char short_live[] = "+:aDRSZITp:HcKFvbt:i:d:m:n:x:o:hl";
	int c;

	set_defaults(o);
	if (knobs && ctx == KS_CTX_LIVE)
		o->knobs = *knobs;
	err[0] = '\0';
	/* crash calls us many times in one process: restart getopt fully. */
	optind = 0;
	opterr = 0;
	while ((c = getopt_long(argc, argv, short_live, long_opts, NULL)) != -1) {
		if (c == '?' || c == ':') {
			getopt_error(c, argv[optind - 1], err, errlen);
			goto bad;
		}
		if (parse_one(o, ctx, c, optarg, err, errlen))
			goto bad;
		/* --decode's FILE, and the options that may follow it */
		if (o->decode && !o->decode_file && optind < argc &&
		    argv[optind][0] != '-')
			o->decode_file = argv[optind++];
	}
	if (optind < argc && o->decode && !o->decode_file &&
	    strcmp(argv[optind], "--"))
		o->decode_file = argv[optind++];
	if (optind < argc) {
		fail(err, errlen, "unexpected argument '%s'", argv[optind]);
		goto bad;
	}
	if (check_combination(o, err, errlen))
		goto bad;
	return 0;
bad:
	ks_options_release(o);
	return -1;
}

void ks_options_release(struct ks_options *o)
{
	free(o->pids);
	o->pids = NULL;
	o->nr_pids = 0;
	o->pids_cap = 0;
}

int ks_options_num_info(int opt, long *min, long *max, long *def)
{
	struct ks_options d;

	set_defaults(&d);
	for (size_t i = 0; i < sizeof(num_opts) / sizeof(num_opts[0]); i++) {
		const struct num_opt *n = &num_opts[i];

		if (n->opt != opt)
			continue;
		*min = n->min;
		*max = n->max;
		*def = *(const long *)((const char *)&d + n->off);
		return 0;
	}
	return -1;
}
