// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --vmcore after the target is open: the same shared task walker the
 * crash extension runs (shared/kernel_tasks.h), then the live tool's own
 * writers, so the two print the same sample for the same dump.  Nothing
 * here knows libkdumpfile; target_kdump.c hands over a struct ks_target.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "format.h"
#include "hooks.h"
#include "kdump_run.h"
#include "kernel_tasks.h"
#include "live_sample.h"
#include "output_file.h"
#include "select.h"

/* Per-task trouble: only with -v, the summary line says how much. */
struct report_ctx {
	bool verbose;
	size_t nr;
};

static void report(void *arg, const char *msg)
{
	struct report_ctx *r = arg;

	r->nr++;
	if (r->verbose)
		fprintf(stderr, "kstack: %s\n", msg);
}

static void report_status(const struct ks_options *opts,
			  const struct ks_kernel_status *st)
{
	if (st->nr_unreadable || st->nr_list_errors)
		fprintf(stderr, "kstack: %zu unreadable task%s, %zu broken list%s%s\n",
			st->nr_unreadable, st->nr_unreadable == 1 ? "" : "s",
			st->nr_list_errors, st->nr_list_errors == 1 ? "" : "s",
			opts->verbose ? "" : " (-v says which)");
	if (st->nr_stack_notes && opts->verbose)
		fprintf(stderr, "kstack: %zu stack%s could not be unwound to the end\n",
			st->nr_stack_notes, st->nr_stack_notes == 1 ? "" : "s");
}

/* -K / -F: the same report the crash command prints for the image. */
static int hooks(const struct ks_target *t, const struct ks_options *opts)
{
	int ret = ks_hooks_report(t, opts, stdout, stderr);

	if (fflush(stdout) && !ret)
		ret = -errno;
	return ret ? KS_EXIT_ERROR : KS_EXIT_OK;
}

int ks_kdump_sample(const struct ks_target *t, const struct ks_options *opts,
		    struct ks_output *out)
{
	struct report_ctx rctx = { .verbose = opts->verbose };
	struct ks_kernel_status st = { 0 };
	struct ks_sample s = { 0 };
	char err[256], host[KS_HOST_LEN];
	struct ks_kernel *k;
	time_t when;
	int ret, status, missing;

	if (opts->kprobes || opts->ftrace)
		return hooks(t, opts);
	ret = ks_kernel_open(t, &k, err, sizeof(err));
	if (ret) {
		fprintf(stderr, "kstack: cannot walk the dump's tasks: %s\n", err);
		return KS_EXIT_ERROR;
	}
	ret = ks_kernel_when_host(k, &when, host, sizeof(host));
	if (ret) {
		fprintf(stderr, "kstack: cannot read the dump's time and host: %s\n",
			strerror(-ret));
		status = KS_EXIT_ERROR;
		goto out;
	}
	ks_sample_init(&s, when, host);
	ret = ks_kernel_sample(k, opts, &s, &st, report, &rctx);
	if (ret) {
		fprintf(stderr, "kstack: walking the dump's tasks: %s\n",
			strerror(-ret));
		status = KS_EXIT_ERROR;
		goto out;
	}
	report_status(opts, &st);
	missing = ks_live_report_missing(opts, &s, " in the dump");
	if (!s.nr_tasks) {
		if (!missing)
			fprintf(stderr, "kstack: no task matched the selection\n");
		status = KS_EXIT_NONE;
		goto out;
	}
	status = ks_output_write(out, &s, opts);
	if (status == KS_EXIT_OK && missing)
		status = KS_EXIT_NONE;
out:
	ks_sample_release(&s);
	ks_kernel_close(k);
	return status;
}
