// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack diff, the driver: both captures read (diff_read.c), compared
 * (diff_compare.c), written as text or JSON (diff_text.c, diff_json.c).
 * Trouble of any kind (a file unreadable, no sample in it, a dump that
 * does not open) is said on stderr and exits 2, as diff(1) does.
 */
#include <errno.h>
#include <string.h>

#include "diff_read.h"
#include "diff_run.h"
#include "diff_write.h"
#include "live_say.h"

void ks_diff_usage(FILE *out)
{
	ks_options_usage(out, KS_CTX_DIFF, &ks_live_opt_table);
	ks_options_help(out, KS_CTX_DIFF, &ks_live_opt_table);
}

static int read_both(struct ks_diff_capture *a, struct ks_diff_capture *b,
		     const struct ks_options *opts,
		     const struct ks_live_options *live)
{
	if (ks_diff_read_logs(a, live->diff_a))
		return -1;
	if (live->vmcore)
		return ks_diff_read_dump(b, live->vmcore, opts->vmlinux,
					 live->knobs.kallsyms_scan != NULL);
	return ks_diff_read_logs(b, live->diff_b);
}

static int write_out(const struct ks_diff_capture *a,
		     const struct ks_diff_capture *b,
		     const struct ks_diff_result *r, bool json)
{
	if (json)
		ks_diff_json(stdout, a, b, r);
	else
		ks_diff_text(stdout, a, b, r);
	if (fflush(stdout) || ferror(stdout)) {
		ks_live_say("diff: writing: %s", strerror(errno));
		return KS_DIFF_TROUBLE;
	}
	return r->changed ? KS_DIFF_CHANGED : KS_DIFF_SAME;
}

int ks_diff_run(const struct ks_options *opts,
		const struct ks_live_options *live)
{
	struct ks_diff_capture a = { 0 }, b = { 0 };
	struct ks_diff_result r = { 0 };
	int status = KS_DIFF_TROUBLE;

	if (opts->help) {
		ks_diff_usage(stdout);
		return fflush(stdout) ? KS_DIFF_TROUBLE : KS_DIFF_SAME;
	}
	if (read_both(&a, &b, opts, live))
		goto out;
	if (ks_diff_compare(&a, &b, &r))
		ks_live_say("diff: out of memory");
	else
		status = write_out(&a, &b, &r, live->diff_json);
out:
	ks_diff_result_release(&r);
	ks_diff_release(&a);
	ks_diff_release(&b);
	return status;
}
