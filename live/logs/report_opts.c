// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "report_opts.h"

/* Whether --report is given, anywhere, and argv[1] is not "report". */
static bool spelled_as_option(int argc, char **argv)
{
	if (argc > 1 && !strcmp(argv[1], "report"))
		return false;
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "--report") || !strncmp(argv[i], "--report=", 9))
			return true;
	return false;
}

/*
 * The words but --report's in their order after "report", then its DIR
 * ("" when --report ends the line), as the subcommand would have them.
 */
int ks_report_argv(int *argc, char **argv, char ***v_ret)
{
	const char *dir = NULL;
	char **v;
	int n = 0;

	if (!spelled_as_option(*argc, argv))
		return 0;
	v = calloc((size_t)*argc + 3, sizeof(*v));
	if (!v)
		return -ENOMEM;
	v[n++] = argv[0];
	v[n++] = "report";
	for (int i = 1; i < *argc; i++) {
		if (!strncmp(argv[i], "--report=", 9))
			dir = argv[i] + 9;
		else if (!strcmp(argv[i], "--report"))
			dir = i + 1 < *argc ? argv[++i] : "";
		else
			v[n++] = argv[i];
	}
	v[n++] = (char *)dir;
	*argc = n;
	*v_ret = v;
	return 1;
}

void ks_report_opts_from(struct ks_report_opts *o,
			 const struct ks_live_options *live)
{
	*o = live->report;
}
