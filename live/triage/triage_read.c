// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * What the live triage's parts share: a part's first complaint kept as
 * its section's reason (as triage_run.c keeps a walker's), a small file
 * of /proc or /sys read whole, and a CPU list of /sys parsed (the
 * kernel's cpulist_parse() format: "0-3,8,10-11").
 */
#include <errno.h>
#include <fcntl.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "triage_live.h"
#include "triage_read.h"

void ks_triage_why(char *why, const char *fmt, ...)
{
	va_list ap;

	if (*why)
		return;
	va_start(ap, fmt);
	vsnprintf(why, KS_TRIAGE_WHY, fmt, ap);
	va_end(ap);
}

int ks_triage_read_file(const char *path, char *buf, size_t len)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	size_t got = 0;
	ssize_t n = 0;

	if (fd < 0)
		return -errno;
	while (got + 1 < len && (n = read(fd, buf + got, len - 1 - got)) > 0)
		got += (size_t)n;
	if (n < 0 && got == 0) {
		int err = -errno;

		close(fd);
		return err;
	}
	close(fd);
	while (got && buf[got - 1] == '\n')
		got--;
	buf[got] = '\0';
	return (int)got;
}

static int one_range(const char **p, bool *set, int max)
{
	char *end;
	long lo = strtol(*p, &end, 10), hi = lo;

	if (end == *p || lo < 0)
		return -EINVAL;
	if (*end == '-') {
		const char *q = end + 1;

		hi = strtol(q, &end, 10);
		if (end == q || hi < lo)
			return -EINVAL;
	}
	for (long c = lo; c <= hi && c < max; c++)
		set[c] = true;
	*p = end;
	return 0;
}

int ks_triage_cpu_list(const char *text, bool *set, int max)
{
	const char *p = text;
	int n = 0;

	for (int c = 0; c < max; c++)
		set[c] = false;
	while (*p) {
		if (one_range(&p, set, max))
			return -EINVAL;
		if (*p == ',')
			p++;
		else if (*p)
			return -EINVAL;
	}
	for (int c = 0; c < max; c++)
		n += set[c];
	return n;
}
