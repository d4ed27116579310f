// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>

#include "format.h"
#include "sample_report.h"
#include "select.h"

static bool has_pid(const struct ks_sample *s, int32_t pid)
{
	for (size_t i = 0; i < s->nr_tasks; i++)
		if (s->tasks[i].pid == pid || s->tasks[i].tgid == pid)
			return true;
	return false;
}

size_t ks_report_missing(const struct ks_selection *sel,
			 const struct ks_sample *s, const char *where,
			 const struct ks_reporter *rep)
{
	size_t missing = 0;

	if (!ks_select_pids_only(sel))
		return 0;
	for (size_t i = 0; i < sel->nr_pids; i++) {
		if (has_pid(s, sel->pids[i]))
			continue;
		ks_say(rep, KS_WARN, "PID %d does not exist%s", sel->pids[i],
		       where);
		missing++;
	}
	return missing;
}

bool ks_report_no_match(const struct ks_sample *s, size_t missing,
			const struct ks_reporter *rep)
{
	if (s->nr_tasks)
		return false;
	if (!missing)
		ks_say(rep, KS_WARN, "no task matched the selection");
	return true;
}

int ks_sample_write(FILE *f, const struct ks_sample *s,
		    const struct ks_format_opts *opts)
{
	int ret, failed;

	errno = 0;
	ret = ks_format_sample(f, s, opts);
	failed = errno;
	/*
	 * A write that failed inside the writers is only ferror()'s -EIO
	 * there: the flush of what is left says why (ENOSPC on a full disk).
	 * When nothing was left in the buffer, the flush succeeds and the
	 * reason is the errno the failed write left.
	 */
	errno = 0;
	if ((!ret || ret == -EIO) && fflush(f))
		ret = errno ? -errno : -EIO;
	else if (ret == -EIO && failed)
		ret = -failed;
	return ret;
}
