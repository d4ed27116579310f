// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "bg_journal.h"

/* syslog(3)'s LOG_DEBUG, LOG_INFO, LOG_WARNING, LOG_ERR */
static const int priorities[] = {
	[KS_LOG_DEBUG] = 7,
	[KS_LOG_INFO] = 6,
	[KS_LOG_WARNING] = 4,
	[KS_LOG_ERROR] = 3,
};

bool ks_journal_wanted(void)
{
	const char *v = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat sb;
	char tail;

	if (!v || sscanf(v, "%llu:%llu%c", &dev, &ino, &tail) != 2)
		return false;
	if (fstat(STDERR_FILENO, &sb))
		return false;
	return (unsigned long long)sb.st_dev == dev &&
	       (unsigned long long)sb.st_ino == ino;
}

int ks_journal_open(struct ks_journal *j, const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };

	memset(j, 0, sizeof(*j));
	if (!path)
		path = KS_JOURNAL_SOCKET;
	if (strlen(path) >= sizeof(sa.sun_path))
		return -ENAMETOOLONG;
	strcpy(sa.sun_path, path);
	j->fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (j->fd < 0)
		return -errno;
	if (connect(j->fd, (struct sockaddr *)&sa, sizeof(sa))) {
		int ret = -errno;

		close(j->fd);
		j->fd = -1;
		return ret;
	}
	return 0;
}

void ks_journal_close(struct ks_journal *j)
{
	if (j->fd >= 0)
		close(j->fd);
	j->fd = -1;
}

/* Appends to buf (size bytes, n used) like snprintf; false: no room. */
__attribute__((format(printf, 4, 5)))
static bool put(char *buf, size_t size, size_t *n, const char *fmt, ...)
{
	va_list ap;
	int m;

	va_start(ap, fmt);
	m = vsnprintf(buf + *n, size - *n, fmt, ap);
	va_end(ap);
	if (m < 0 || (size_t)m >= size - *n)
		return false;
	*n += (size_t)m;
	return true;
}

/* One entry of the native protocol; its length, or 0 when it does not fit. */
static size_t format_entry(const struct ks_journal *j, char *buf, size_t size,
			   enum ks_log_level level, const char *msg)
{
	char text[1024];
	size_t n = 0;

	/* a newline from a path in msg would start a field of its own: the
	 * plain KEY=VALUE form needs one-line values */
	snprintf(text, sizeof(text), "%s", msg);
	for (char *p = text; *p; p++)
		if (*p == '\n')
			*p = ' ';
	if (!put(buf, size, &n,
		 "MESSAGE=%s\nPRIORITY=%d\nSYSLOG_IDENTIFIER=kstack\n", text,
		 priorities[level]))
		return 0;
	if (j->samples && j->late && j->skipped && j->lost &&
	    !put(buf, size, &n, "SAMPLES=%lu\nLATE=%lu\nSKIPPED=%lu\nLOST=%lu\n",
		 *j->samples, *j->late, *j->skipped, *j->lost))
		return 0;
	/* only once there is something to say: the usual entry is unchanged */
	if (j->nr_dropped && !put(buf, size, &n, "DROPPED=%lu\n", j->nr_dropped))
		return 0;
	return n;
}

/*
 * MSG_DONTWAIT: a full queue is EAGAIN at once, never a wait for
 * journald; a journal that is gone loses the line, never the sampler.
 */
static bool send_entry(struct ks_journal *j, const char *buf, size_t n)
{
	if (send(j->fd, buf, n, MSG_DONTWAIT | MSG_NOSIGNAL) >= 0)
		return true;
	j->last_err = -errno;
	return false;
}

/* After drops, the first entry the journal takes says how many. */
static bool say_dropped(struct ks_journal *j)
{
	char msg[160], buf[1536];
	size_t n;

	if (!j->nr_unsaid)
		return true;
	snprintf(msg, sizeof(msg),
		 "%lu log line(s) dropped: the journal did not take them (%s)",
		 j->nr_unsaid, strerror(-j->last_err));
	n = format_entry(j, buf, sizeof(buf), KS_LOG_WARNING, msg);
	if (!n || !send_entry(j, buf, n))
		return false;
	j->nr_unsaid = 0;
	return true;
}

void ks_journal_sink(enum ks_log_level level, const char *msg,
		     const char *line, size_t len, void *ctx)
{
	struct ks_journal *j = ctx;
	char buf[1536];
	size_t n;

	(void)line;
	(void)len;
	n = format_entry(j, buf, sizeof(buf), level, msg);
	if (!n)
		return;
	/* a notice that does not fit means this line would not either */
	if (say_dropped(j) && send_entry(j, buf, n))
		return;
	j->nr_dropped++;
	j->nr_unsaid++;
}
