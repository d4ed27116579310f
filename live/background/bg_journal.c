// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
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

void ks_journal_sink(enum ks_log_level level, const char *msg,
		     const char *line, size_t len, void *ctx)
{
	struct ks_journal *j = ctx;
	char text[1024], buf[1536];
	int n;

	(void)line;
	(void)len;
	/* a newline from a path in msg would start a field of its own: the
	 * plain KEY=VALUE form needs one-line values */
	snprintf(text, sizeof(text), "%s", msg);
	for (char *p = text; *p; p++)
		if (*p == '\n')
			*p = ' ';
	n = snprintf(buf, sizeof(buf),
		     "MESSAGE=%s\nPRIORITY=%d\nSYSLOG_IDENTIFIER=kstack\n",
		     text, priorities[level]);
	if (n > 0 && (size_t)n < sizeof(buf) && j->samples && j->late &&
	    j->skipped && j->lost)
		n += snprintf(buf + n, sizeof(buf) - (size_t)n,
			      "SAMPLES=%lu\nLATE=%lu\nSKIPPED=%lu\nLOST=%lu\n",
			      *j->samples, *j->late, *j->skipped, *j->lost);
	if (n <= 0 || (size_t)n >= sizeof(buf))
		return;
	/* a journal that is gone loses the line, never the sampler */
	if (send(j->fd, buf, (size_t)n, MSG_NOSIGNAL) < 0)
		return;
}
