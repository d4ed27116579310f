// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <limits.h>
#include <string.h>

#include "select.h"

bool ks_select_pids_only(const struct ks_options *opts)
{
	return opts->nr_pids && !opts->all && !opts->states && !opts->comm;
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

bool ks_select_comm(const struct ks_options *opts, const char *comm)
{
	return opts->comm && !regexec(&opts->comm_re, comm, 0, NULL, 0);
}

int ks_select_cgroup_normalize(const char *cgroup, char *out, size_t len)
{
	size_t n = 0;

	if (strlen(cgroup) >= len)
		return -ENAMETOOLONG;
	while (*cgroup) {
		size_t c;

		while (*cgroup == '/')
			cgroup++;
		c = strcspn(cgroup, "/");
		if (c == 2 && !strncmp(cgroup, "..", 2))
			return -EINVAL;
		if (c && !(c == 1 && *cgroup == '.')) {
			out[n++] = '/';
			memcpy(out + n, cgroup, c);
			n += c;
		}
		cgroup += c;
	}
	if (!n)
		out[n++] = '/';
	out[n] = '\0';
	return 0;
}

/*
 * The one rule of --cgroup, for /proc and for a dump: the path is the
 * cgroup or below it.  The option is normalized first ("/." and "//" are
 * "/", trailing slashes do not count), and "/" holds every path; one
 * with ".." (refused before sampling) holds none.
 */
bool ks_select_cgroup(const char *path, const char *cgroup)
{
	char norm[PATH_MAX];
	size_t clen;

	if (ks_select_cgroup_normalize(cgroup, norm, sizeof(norm)))
		return false;
	clen = strlen(norm);
	if (clen == 1)
		return true;
	return !strncmp(path, norm, clen) &&
	       (path[clen] == '\n' || path[clen] == '/' || !path[clen]);
}
