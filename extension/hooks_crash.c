// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The crash side of -K / -F.  It needs nothing of crash itself: the walk
 * and the formatting are the shared ones (shared/hooks/hooks.h) over the crash
 * target, so a vmcore opened with or without crash prints the same text.
 */
#include "hooks.h"
#include "hooks_crash.h"

int ks_hooks_crash(const struct ks_target *t, const struct ks_options *opts,
		   FILE *out, ks_report_fn report, void *arg)
{
	int ret = ks_hooks_report(t, opts, out, report, arg);

	fflush(out);
	return ret;
}
