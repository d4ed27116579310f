// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The journal sink against sockets that do not read (issue #40, item
 * 20): it returns at once, drops and counts what does not fit, and says
 * how many when the journal takes lines again.  A sink that waits would
 * hang here: alarm() turns that into a failure.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>
#include <cmocka.h>

#include "bg_journal.h"

/* far more than any queue: net.unix.max_dgram_qlen, the send buffer */
#define MAX_LINES	100000

struct fake_journal {
	char dir[64];
	char path[96];
	int fd;			/* bound, never read unless drained */
};

static int setup(void **state)
{
	struct fake_journal *f = calloc(1, sizeof(*f));
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	if (!f)
		return -1;
	snprintf(f->dir, sizeof(f->dir), "/tmp/ks-journal-XXXXXX");
	if (!mkdtemp(f->dir))
		return -1;
	snprintf(f->path, sizeof(f->path), "%s/socket", f->dir);
	snprintf(sa.sun_path, sizeof(sa.sun_path), "%s", f->path);
	f->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (f->fd < 0 || bind(f->fd, (struct sockaddr *)&sa, sizeof(sa)))
		return -1;
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fake_journal *f = *state;

	if (f->fd >= 0)
		close(f->fd);
	unlink(f->path);
	rmdir(f->dir);
	free(f);
	return 0;
}

/* The entries waiting at fd; the last one's text in last (may be NULL). */
static unsigned long drain(int fd, char *last, size_t size)
{
	unsigned long n = 0;
	char buf[2048];
	ssize_t len;

	while ((len = recv(fd, buf, sizeof(buf) - 1, MSG_DONTWAIT)) >= 0) {
		buf[len] = '\0';
		if (last)
			snprintf(last, size, "%s", buf);
		n++;
	}
	return n;
}

/* Lines until the first is dropped; how many were sunk in all. */
static unsigned long fill(struct ks_journal *j)
{
	unsigned long n = 0;

	while (!j->nr_dropped && n < MAX_LINES) {
		ks_journal_sink(KS_LOG_DEBUG, "Sample taken", NULL, 0, j);
		n++;
	}
	return n;
}

static void test_entry_unchanged_without_drops(void **state)
{
	struct fake_journal *f = *state;
	unsigned long samples = 3, late = 1, skipped = 0, lost = 2;
	struct ks_journal j;
	char got[2048];

	assert_int_equal(ks_journal_open(&j, f->path), 0);
	ks_journal_sink(KS_LOG_INFO, "two\nlines", NULL, 0, &j);
	assert_int_equal(drain(f->fd, got, sizeof(got)), 1);
	assert_string_equal(got,
			    "MESSAGE=two lines\nPRIORITY=6\nSYSLOG_IDENTIFIER=kstack\n");
	j.samples = &samples;
	j.late = &late;
	j.skipped = &skipped;
	j.lost = &lost;
	ks_journal_sink(KS_LOG_WARNING, "counted", NULL, 0, &j);
	assert_int_equal(drain(f->fd, got, sizeof(got)), 1);
	assert_string_equal(got,
			    "MESSAGE=counted\nPRIORITY=4\nSYSLOG_IDENTIFIER=kstack\n"
			    "SAMPLES=3\nLATE=1\nSKIPPED=0\nLOST=2\n");
	assert_int_equal(j.nr_dropped, 0);
	ks_journal_close(&j);
}

/* The queue of a socket that does not read: drop, count, go on. */
static void test_full_queue_drops(void **state)
{
	struct fake_journal *f = *state;
	unsigned long sunk, taken;
	struct ks_journal j;
	char got[2048], want[256];
	ssize_t len;

	assert_int_equal(ks_journal_open(&j, f->path), 0);
	sunk = fill(&j);
	assert_int_equal(j.nr_dropped, 1);
	assert_true(j.last_err == -EAGAIN || j.last_err == -ENOBUFS);
	/* a few more: each one returns at once and is counted */
	for (int i = 0; i < 9; i++)
		ks_journal_sink(KS_LOG_WARNING, "late", NULL, 0, &j);
	sunk += 9;
	assert_int_equal(j.nr_dropped, 10);
	assert_int_equal(j.nr_unsaid, 10);
	taken = drain(f->fd, NULL, 0);
	assert_int_equal(taken + j.nr_dropped, sunk);

	/* read again: the notice first, then the line, both with DROPPED */
	ks_journal_sink(KS_LOG_INFO, "back", NULL, 0, &j);
	assert_int_equal(j.nr_unsaid, 0);
	assert_int_equal(j.nr_dropped, 10);
	len = recv(f->fd, got, sizeof(got) - 1, MSG_DONTWAIT);
	assert_true(len > 0);
	got[len] = '\0';
	snprintf(want, sizeof(want),
		 "MESSAGE=10 log line(s) dropped: the journal did not take them (%s)\n"
		 "PRIORITY=4\nSYSLOG_IDENTIFIER=kstack\nDROPPED=10\n",
		 strerror(-j.last_err));
	assert_string_equal(got, want);
	assert_int_equal(drain(f->fd, got, sizeof(got)), 1);
	assert_string_equal(got,
			    "MESSAGE=back\nPRIORITY=6\nSYSLOG_IDENTIFIER=kstack\nDROPPED=10\n");
	ks_journal_close(&j);
}

/*
 * Still full when the notice is due: neither it nor the line goes, and
 * the notice, when it does, counts both rounds.
 */
static void test_notice_waits_for_room(void **state)
{
	struct fake_journal *f = *state;
	struct ks_journal j;
	char got[2048];

	assert_int_equal(ks_journal_open(&j, f->path), 0);
	fill(&j);
	ks_journal_sink(KS_LOG_ERROR, "still full", NULL, 0, &j);
	assert_int_equal(j.nr_dropped, 2);
	assert_int_equal(j.nr_unsaid, 2);
	drain(f->fd, NULL, 0);
	ks_journal_sink(KS_LOG_ERROR, "room", NULL, 0, &j);
	assert_int_equal(drain(f->fd, got, sizeof(got)), 2);
	assert_non_null(strstr(got, "MESSAGE=room\n"));
	assert_int_equal(j.nr_unsaid, 0);
	ks_journal_close(&j);
}

/* A socket pair: no queue limit between peers, the send buffer fills. */
static void test_socketpair_send_buffer(void **state)
{
	struct ks_journal j = { .fd = -1 };
	int sv[2];

	(void)state;
	assert_int_equal(socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv), 0);
	j.fd = sv[0];
	fill(&j);
	assert_int_equal(j.nr_dropped, 1);
	ks_journal_close(&j);
	close(sv[1]);
}

/* A journal that went away: every line dropped, none waited for. */
static void test_journal_gone(void **state)
{
	struct fake_journal *f = *state;
	struct ks_journal j;

	assert_int_equal(ks_journal_open(&j, f->path), 0);
	close(f->fd);
	f->fd = -1;
	ks_journal_sink(KS_LOG_INFO, "anyone?", NULL, 0, &j);
	ks_journal_sink(KS_LOG_INFO, "anyone?", NULL, 0, &j);
	assert_int_equal(j.nr_dropped, 2);
	/* ECONNREFUSED, then ENOTCONN: the kernel dropped the dead peer */
	assert_int_not_equal(j.last_err, 0);
	ks_journal_close(&j);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_entry_unchanged_without_drops,
						setup, teardown),
		cmocka_unit_test_setup_teardown(test_full_queue_drops, setup,
						teardown),
		cmocka_unit_test_setup_teardown(test_notice_waits_for_room,
						setup, teardown),
		cmocka_unit_test(test_socketpair_send_buffer),
		cmocka_unit_test_setup_teardown(test_journal_gone, setup,
						teardown),
	};

	/* a sink that waits never returns: fail instead of hanging */
	alarm(60);
	return cmocka_run_group_tests(tests, NULL, NULL);
}
