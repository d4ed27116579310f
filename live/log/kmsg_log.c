// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack --log on the running kernel: every record /dev/kmsg has now
 * (kmsg_walk.c), written as a dump's ring is written (format_log.c), so
 * that a live capture and a dump's log compare line for line.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exit_status.h"
#include "format_log.h"
#include "kmsg_log.h"
#include "kmsg_walk.h"
#include "live_say.h"

static int write_record(void *arg, const struct ks_log_record *rec)
{
	const bool *json = arg;

	ks_format_log_record(stdout, *json, rec);
	return ferror(stdout) ? -EIO : 0;
}

static void say_trouble(const struct ks_log_trouble *tr)
{
	if (tr->lost_ranges)
		ks_live_say("the log: %lu record(s) lost in %lu range(s) of sequence "
			    "numbers", tr->lost_records, tr->lost_ranges);
	if (tr->bad)
		ks_live_say("the log: %lu record(s) of %s not understood",
			    tr->bad, KS_KMSG);
}

static int read_all(int fd, bool json)
{
	struct ks_log_trouble tr = { 0 };
	int ret = ks_kmsg_walk(&fd, write_record, &json, &tr);

	if (ret < 0) {
		ks_live_say("reading %s: %s", KS_KMSG, strerror(-ret));
		return KS_EXIT_ERROR;
	}
	say_trouble(&tr);
	ks_format_log_trouble(stdout, json, &tr);
	return fflush(stdout) ? KS_EXIT_ERROR : KS_EXIT_OK;
}

int ks_kmsg_log_run(const struct ks_options *opts)
{
	int fd = ks_kmsg_open(&ks_live_reporter);
	int status;

	if (fd < 0) {
		ks_live_say("cannot open %s: %s%s", KS_KMSG, strerror(-fd),
			    fd == -EPERM || fd == -EACCES ?
			    " (kernel.dmesg_restrict: run as root)" : "");
		return fd == -EPERM || fd == -EACCES ? KS_EXIT_PERM :
		       KS_EXIT_ERROR;
	}
	status = read_all(fd, opts->out.format == KS_FMT_JSON);
	close(fd);
	return status;
}
