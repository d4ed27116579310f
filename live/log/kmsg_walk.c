// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /dev/kmsg read as util-linux dmesg reads it (non-blocking, from
 * SEEK_DATA: what dmesg -C left), one record per read() until EAGAIN.
 * EPIPE is the kernel saying records were overwritten while we read: a
 * lost range, as in a dump.
 */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

#include "kmsg_parse.h"
#include "kmsg_walk.h"

/* CONSOLE_EXT_LOG_MAX: a record and its dictionary fit */
#define KMSG_READ_MAX	8192
/* bounded: a kernel logging faster than we read cannot keep us here */
#define MAX_RECORDS	(16u << 20)

struct kmsg_state {
	struct ks_log_trouble *tr;
	uint64_t expect;
	bool first;
};

static void note_seq(struct kmsg_state *st, uint64_t seq)
{
	if (!st->first && seq > st->expect) {
		st->tr->lost_ranges++;
		st->tr->lost_records += seq - st->expect;
	}
	st->first = false;
	st->expect = seq + 1;
}

/* One read(): 1 for a record handed over, 0 at the end, else an error. */
static int one_record(int fd, struct ks_kmsg_record *r, struct kmsg_state *st,
		      ks_log_record_fn *fn, void *arg)
{
	static char buf[KMSG_READ_MAX];
	ssize_t n = read(fd, buf, sizeof(buf));
	int ret;

	if (n < 0 && errno == EPIPE)
		return 1;	/* overwritten: the next seq shows the gap */
	if (n < 0 && errno == EINTR)
		return 1;
	if (n < 0)
		return errno == EAGAIN ? 0 : -errno;
	if (n == 0)
		return 0;
	if (ks_kmsg_parse(buf, (size_t)n, r)) {
		st->tr->bad++;
		return 1;
	}
	note_seq(st, r->rec.seq);
	ret = fn(arg, &r->rec);
	return ret ? ret : 1;
}

int ks_kmsg_walk(void *src, ks_log_record_fn *fn, void *arg,
		 struct ks_log_trouble *trouble)
{
	static struct ks_kmsg_record r;
	struct kmsg_state st = { .tr = trouble, .first = true };
	int fd = *(const int *)src, ret = 1;

	for (unsigned int i = 0; i < MAX_RECORDS && ret == 1; i++)
		ret = one_record(fd, &r, &st, fn, arg);
	return ret == 1 ? 0 : ret;
}

int ks_kmsg_open(const struct ks_reporter *rep)
{
	int fd = open(KS_KMSG, O_RDONLY | O_NONBLOCK | O_CLOEXEC);

	if (fd < 0)
		return -errno;
	/* dmesg's start: the first record dmesg -C did not clear */
	if (lseek(fd, 0, SEEK_DATA) < 0 && errno != ESPIPE && errno != EINVAL)
		ks_say(rep, KS_WARN, "%s: cannot seek to its first record: %s",
		       KS_KMSG, strerror(errno));
	return fd;
}
