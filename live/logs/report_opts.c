// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "report_opts.h"

#define TOP_DEFAULT	10

enum { OPT_JSON = 256, OPT_FOLDED, OPT_PID, OPT_SINCE, OPT_UNTIL, OPT_TOP };

struct row {
	const char *name;
	int has_arg;
	int val;
	const char *arg;
	const char *help;
};

static const struct row rows[] = {
	{ "json", no_argument, OPT_JSON, NULL, "JSON Lines (docs/report-json.md)" },
	{ "folded", no_argument, OPT_FOLDED, NULL, "the whole period as flame-graph input" },
	{ "pid", required_argument, OPT_PID, "N", "N's stack at each sample where it changed" },
	{ "since", required_argument, OPT_SINCE, "TIME", "samples at or after TIME" },
	{ "until", required_argument, OPT_UNTIL, "TIME", "samples at or before TIME" },
	{ "top", required_argument, OPT_TOP, "N", "stuck tasks and stacks listed (10)" },
	{ "help", no_argument, 'h', NULL, "this text" },
};

#define NR_ROWS	(sizeof(rows) / sizeof(rows[0]))

const char *ks_report_usage(void)
{
	static char text[2048];
	size_t n;

	if (*text)
		return text;
	n = (size_t)snprintf(text, sizeof(text),
			     "usage: kstack report [OPTION]... DIR|FILE\n");
	for (size_t i = 0; i < NR_ROWS && n < sizeof(text); i++) {
		char left[32];

		snprintf(left, sizeof(left), "--%s%s%s", rows[i].name,
			 rows[i].arg ? " " : "", rows[i].arg ? rows[i].arg : "");
		n += (size_t)snprintf(text + n, sizeof(text) - n, "  %-14s %s\n",
				      left, rows[i].help);
	}
	return text;
}

int ks_report_parse_time(const char *s, time_t *t)
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

static int number(const char *s, long min, long max, long *v)
{
	char *end;

	errno = 0;
	*v = strtol(s, &end, 10);
	return errno || end == s || *end || *v < min || *v > max ? -EINVAL : 0;
}

/* One option's value into o; 0, or -EINVAL after a line through report. */
static int apply(struct ks_report_opts *o, const struct row *r,
		 const char *arg, ks_report_fn report, void *rarg)
{
	long v;

	switch (r->val) {
	case OPT_JSON:
		o->json = true;
		return 0;
	case OPT_FOLDED:
		o->folded = true;
		return 0;
	case 'h':
		o->help = true;
		return 0;
	case OPT_PID:
	case OPT_TOP:
		if (number(arg, 1, INT_MAX, &v))
			break;
		if (r->val == OPT_PID)
			o->pid = (int)v;
		else
			o->top = v;
		return 0;
	default:
		if (!ks_report_parse_time(arg, r->val == OPT_SINCE ? &o->since :
					  &o->until))
			return 0;
	}
	ks_report(report, rarg, "invalid --%s '%s'", r->name, arg);
	return -EINVAL;
}

int ks_report_opts_parse(struct ks_report_opts *o, int argc, char **argv,
			 ks_report_fn report, void *rarg)
{
	struct option longs[NR_ROWS + 1];
	int c, idx;

	memset(o, 0, sizeof(*o));
	memset(longs, 0, sizeof(longs));
	o->top = TOP_DEFAULT;
	for (size_t i = 0; i < NR_ROWS; i++)
		longs[i] = (struct option){ rows[i].name, rows[i].has_arg, NULL,
					    rows[i].val };
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, "+h", longs, &idx)) != -1) {
		const struct row *r = NULL;

		for (size_t i = 0; i < NR_ROWS; i++)
			if (rows[i].val == c)
				r = &rows[i];
		if (!r) {
			ks_report(report, rarg, "report: invalid option '%s'",
				  argv[optind - 1]);
			return -EINVAL;
		}
		if (apply(o, r, optarg, report, rarg))
			return -EINVAL;
	}
	if (o->help)
		return 0;
	if (o->json && o->folded) {
		ks_report(report, rarg, "--json and --folded do not go together");
		return -EINVAL;
	}
	if (optind != argc - 1) {
		if (optind >= argc)
			ks_report(report, rarg, "report: a directory is needed");
		else
			ks_report(report, rarg, "report: one directory or file, "
				  "got '%s'", argv[optind + 1 < argc ? optind + 1 :
						   optind]);
		return -EINVAL;
	}
	o->path = argv[optind];
	return 0;
}
