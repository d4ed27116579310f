/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the in-process benches (ftrace_mem.c, log_mem.c) measure with:
 * /proc/self/status fields, the peak RSS reset before the timed part,
 * and the seconds between two clock readings.
 */
#ifndef KS_BENCH_MEM_H
#define KS_BENCH_MEM_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* "VmHWM:" and the like, in KiB; -1 when not found */
static inline long status_kib(const char *key)
{
	FILE *s = fopen("/proc/self/status", "re");
	char line[256];
	long v = -1;

	if (!s)
		return -1;
	while (fgets(line, sizeof(line), s))
		if (!strncmp(line, key, strlen(key)))
			v = strtol(line + strlen(key), NULL, 10);
	fclose(s);
	return v;
}

/* Peak RSS from now on: what was built before the timed part is not its cost. */
static inline void reset_peak(void)
{
	FILE *c = fopen("/proc/self/clear_refs", "we");

	if (c) {
		fputs("5", c);
		fclose(c);
	}
}

static inline double seconds(const struct timespec *a, const struct timespec *b)
{
	return (double)(b->tv_sec - a->tv_sec) + (b->tv_nsec - a->tv_nsec) / 1e9;
}

#endif /* KS_BENCH_MEM_H */
