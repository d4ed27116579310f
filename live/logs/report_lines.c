// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "report_lines.h"

int ks_report_lines_open(struct ks_report_lines *l, int dirfd,
			 const char *name)
{
	struct stat sb;
	int fd;

	memset(l, 0, sizeof(*l));
	fd = openat(dirfd, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb) || !S_ISREG(sb.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	l->gz = gzdopen(fd, "rb");
	if (!l->gz) {
		close(fd);
		return -ENOMEM;
	}
	gzbuffer(l->gz, 256 * 1024);
	return 0;
}

/* The rest of a line too long for the buffer. */
static void skip_rest(struct ks_report_lines *l)
{
	int c;

	while ((c = gzgetc(l->gz)) != -1) {
		l->offset++;
		if (c == '\n')
			return;
	}
}

static void note_cut(struct ks_report_lines *l)
{
	int errnum;
	const char *msg = gzerror(l->gz, &errnum);

	if (errnum == Z_OK || errnum == Z_STREAM_END)
		return;
	snprintf(l->cut, sizeof(l->cut), "%s after %llu bytes of text",
		 errnum == Z_BUF_ERROR ? "truncated (unexpected end of file)" : msg,
		 l->offset);
}

const char *ks_report_lines_next(struct ks_report_lines *l)
{
	size_t len;

	if (!gzgets(l->gz, l->buf, sizeof(l->buf))) {
		note_cut(l);
		return NULL;
	}
	len = strlen(l->buf);
	l->offset += len;
	if (len && l->buf[len - 1] == '\n') {
		l->buf[--len] = '\0';
		return l->buf;
	}
	if (len == sizeof(l->buf) - 1) {
		skip_rest(l);
		return l->buf;
	}
	/* the file's last line, cut short: a sample torn by a kill */
	note_cut(l);
	l->torn = true;
	return l->buf;
}

void ks_report_lines_close(struct ks_report_lines *l)
{
	if (l->gz)
		gzclose(l->gz);
	l->gz = NULL;
}
