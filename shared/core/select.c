// SPDX-License-Identifier: GPL-2.0-or-later
#include <string.h>

#include "select.h"

bool ks_select_pids_only(const struct ks_options *opts)
{
	return opts->nr_pids && !opts->all && !opts->states;
}

bool ks_select_match(const struct ks_options *opts, int32_t pid, char state)
{
	if (opts->all)
		return true;
	if (state >= 'A' && state <= 'z' && (opts->states & KS_ST_BIT(state)))
		return true;
	for (size_t i = 0; i < opts->nr_pids; i++)
		if (opts->pids[i] == pid)
			return true;
	return false;
}

/*
 * The one rule of --cgroup, for /proc and for a dump: the path is the
 * cgroup or below it.  Trailing slashes of the option do not count, and
 * "/" holds every path.
 */
bool ks_select_cgroup(const char *path, const char *cgroup)
{
	size_t clen = strlen(cgroup);

	while (clen > 1 && cgroup[clen - 1] == '/')
		clen--;
	if (clen == 1 && cgroup[0] == '/')
		return true;
	return !strncmp(path, cgroup, clen) &&
	       (path[clen] == '\n' || path[clen] == '/' || !path[clen]);
}
