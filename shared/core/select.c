// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Which tasks a sample keeps, for /proc and kernel images alike: -a, the
 * states and -p OR-ed, --comm, and the one --cgroup rule (the path is the
 * cgroup or below it).
 */
#include <errno.h>
#include <limits.h>
#include <stdlib.h>
#include <string.h>

#include "select.h"

bool ks_select_pids_only(const struct ks_selection *sel)
{
	return sel->nr_pids && !sel->all && !sel->states && !sel->comm;
}

bool ks_select_match(const struct ks_selection *sel, int32_t pid, char state)
{
	if (sel->all)
		return true;
	if (state >= 'A' && state <= 'z' && (sel->states & KS_ST_BIT(state)))
		return true;
	for (size_t i = 0; i < sel->nr_pids; i++)
		if (sel->pids[i] == pid)
			return true;
	return false;
}

bool ks_select_comm(const struct ks_selection *sel, const char *comm)
{
	return sel->comm && !regexec(&sel->comm_re, comm, 0, NULL, 0);
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

void ks_selection_release(struct ks_selection *sel)
{
	free(sel->pids);
	sel->pids = NULL;
	sel->nr_pids = 0;
	sel->pids_cap = 0;
	if (sel->comm)
		regfree(&sel->comm_re);
	sel->comm = NULL;
}
