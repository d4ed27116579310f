// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack --log on the running kernel: /dev/kmsg read as util-linux dmesg
 * reads it (non-blocking, from SEEK_DATA: what dmesg -C left), one record
 * per read() until EAGAIN, written as a dump's ring is written
 * (format_log.c), so that a live capture and a dump's log compare line
 * for line.  EPIPE is the kernel saying records were overwritten while
 * we read: a lost range, as in a dump.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "exit_status.h"
#include "format_log.h"
#include "kmsg_log.h"
#include "kmsg_parse.h"
#include "live_say.h"

#define KMSG		"/dev/kmsg"
/* CONSOLE_EXT_LOG_MAX: a record and its dictionary fit */
#define KMSG_READ_MAX	8192
/* bounded: a kernel logging faster than we read cannot keep us here */
#define MAX_RECORDS	(16u << 20)

struct kmsg_state {
	struct ks_log_trouble tr;
	uint64_t expect;
	bool first;
};

static void note_seq(struct kmsg_state *st, uint64_t seq)
{
	if (!st->first && seq > st->expect) {
		st->tr.lost_ranges++;
		st->tr.lost_records += seq - st->expect;
	}
	st->first = false;
	st->expect = seq + 1;
}

/* One read(): 1 for a record written, 0 at the end, -errno on failure. */
static int one_record(int fd, struct ks_kmsg_record *r, struct kmsg_state *st,
		      bool json)
{
	static char buf[KMSG_READ_MAX];
	ssize_t n = read(fd, buf, sizeof(buf));

	if (n < 0 && errno == EPIPE)
		return 1;	/* overwritten: the next seq shows the gap */
	if (n < 0 && errno == EINTR)
		return 1;
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	if (n == 0)
		return 0;
	if (ks_kmsg_parse(buf, (size_t)n, r)) {
		st->tr.bad++;
		return 1;
	}
	note_seq(st, r->rec.seq);
	ks_format_log_record(stdout, json, &r->rec);
	return ferror(stdout) ? -EIO : 1;
}

static void say_trouble(const struct ks_log_trouble *tr)
{
	if (tr->lost_ranges)
		ks_live_say("the log: %lu record(s) lost in %lu range(s) of sequence "
			    "numbers", tr->lost_records, tr->lost_ranges);
	if (tr->bad)
		ks_live_say("the log: %lu record(s) of %s not understood",
			    tr->bad, KMSG);
}

static int read_all(int fd, bool json)
{
	static struct ks_kmsg_record r;
	struct kmsg_state st = { .first = true };
	int ret = 1;

	for (unsigned int i = 0; i < MAX_RECORDS && ret == 1; i++)
		ret = one_record(fd, &r, &st, json);
	if (ret < 0) {
		ks_live_say("reading %s: %s", KMSG, strerror(-ret));
		return KS_EXIT_ERROR;
	}
	say_trouble(&st.tr);
	ks_format_log_trouble(stdout, json, &st.tr);
	return fflush(stdout) ? KS_EXIT_ERROR : KS_EXIT_OK;
}

int ks_kmsg_log_run(const struct ks_options *opts)
{
	int fd = open(KMSG, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	int status;

	if (fd < 0) {
		ks_live_say("cannot open %s: %s%s", KMSG, strerror(errno),
			    errno == EPERM || errno == EACCES ?
			    " (kernel.dmesg_restrict: run as root)" : "");
		return errno == EPERM || errno == EACCES ? KS_EXIT_PERM :
		       KS_EXIT_ERROR;
	}
	/* dmesg's start: the first record dmesg -C did not clear */
	if (lseek(fd, 0, SEEK_DATA) < 0 && errno != ESPIPE && errno != EINVAL)
		ks_live_say("%s: cannot seek to its first record: %s", KMSG,
			    strerror(errno));
	status = read_all(fd, opts->out.format == KS_FMT_JSON);
	close(fd);
	return status;
}
