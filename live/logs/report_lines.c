// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
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

/* More text into l->in; false at the end (or a cut, then noted). */
static bool refill(struct ks_report_lines *l)
{
	int n;

	if (l->eof)
		return false;
	n = gzread(l->gz, l->in, sizeof(l->in));
	if (n <= 0) {
		l->eof = true;
		note_cut(l);
		return false;
	}
	l->in_pos = 0;
	l->in_len = (size_t)n;
	l->offset += (size_t)n;
	return true;
}

/*
 * The longest this line may grow: a JSON sample may be long.  Its first
 * byte is s's while the line is empty: a JSON line read whole in one
 * piece was cut at the text's limit.
 */
static size_t line_limit(const struct ks_report_lines *l, const char *s,
			 size_t n)
{
	char first = l->len ? l->buf[0] : n ? s[0] : '\0';

	return first == '{' ? KS_REPORT_JSON_MAX : KS_REPORT_LINE_MAX - 1;
}

/* n bytes of the line, as far as its limit; false when out of memory */
static bool append(struct ks_report_lines *l, const char *s, size_t n)
{
	size_t limit = line_limit(l, s, n);
	size_t room = limit > l->len ? limit - l->len : 0;
	char *nb;

	if (n > room) {
		l->line_cut = true;
		n = room;
	}
	if (l->len + n + 1 > l->cap) {
		nb = ks_grow(l->buf, &l->cap, l->len + n + 1, 1);
		if (!nb)
			return false;
		l->buf = nb;
	}
	memcpy(l->buf + l->len, s, n);
	l->len += n;
	return true;
}

/* NUL bytes become '?': a C string must hold the whole line */
static void mend_nuls(struct ks_report_lines *l)
{
	char *p = l->buf, *end = l->buf + l->len;
	bool any = false;

	while ((p = memchr(p, '\0', (size_t)(end - p)))) {
		*p++ = '?';
		any = true;
	}
	l->nr_nul += any;
	l->buf[l->len] = '\0';
}

const char *ks_report_lines_next(struct ks_report_lines *l)
{
	bool nl = false;

	l->len = 0;
	l->line_cut = false;
	while (!nl) {
		const char *s, *e;

		if (l->in_pos == l->in_len && !refill(l))
			break;
		s = l->in + l->in_pos;
		e = memchr(s, '\n', l->in_len - l->in_pos);
		nl = e != NULL;
		if (!e)
			e = l->in + l->in_len;
		l->in_pos = (size_t)(e - l->in) + nl;
		if (!append(l, s, (size_t)(e - s)))
			return NULL;
	}
	if (!nl && !l->len)
		return NULL;
	if (!append(l, "", 0))
		return NULL;
	mend_nuls(l);
	l->nr_long += l->line_cut;
	/* the file's last line, cut short: a sample torn by a kill */
	if (!nl)
		l->torn = true;
	return l->buf;
}

void ks_report_lines_close(struct ks_report_lines *l)
{
	if (l->gz)
		gzclose(l->gz);
	l->gz = NULL;
	free(l->buf);
	l->buf = NULL;
}
