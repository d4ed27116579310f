// SPDX-License-Identifier: GPL-2.0-or-later
#include <inttypes.h>
#include <stdio.h>

#include "format_time.h"

const char *ks_time_ms(char *buf, size_t len, uint64_t ns)
{
	snprintf(buf, len, "%" PRIu64 ".%03" PRIu64 "s", ns / 1000000000,
		 ns / 1000000 % 1000);
	return buf;
}

const char *ks_time_uptime(char *buf, size_t len, uint64_t ns)
{
	uint64_t s = ns / 1000000000, days = s / 86400;
	int n = 0;

	if (days)
		n = snprintf(buf, len, "%" PRIu64 " day%s, ", days,
			     days == 1 ? "" : "s");
	if (n < 0 || (size_t)n >= len)
		return buf;
	snprintf(buf + n, len - (size_t)n, "%02" PRIu64 ":%02" PRIu64 ":%02"
		 PRIu64 " (%" PRIu64 ".%03" PRIu64 " s)", s / 3600 % 24,
		 s / 60 % 60, s % 60, s, ns / 1000000 % 1000);
	return buf;
}
