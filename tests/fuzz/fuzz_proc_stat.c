// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * live/proc/proc_tasks.c on a stat file: /proc/PID/stat (a comm may hold
 * spaces, ')' and newlines: the fields after it come from the last ')')
 * and /proc/stat's btime line, the input being either.
 */
#include "fuzz.h"
#include "proc_tasks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size);
	struct ks_task t = { 0 };
	unsigned long long start = 0;
	bool start_ok = false;
	int64_t btime = -1;

	if (!ks_proc_parse_stat(text, &t, &start, &start_ok)) {
		fuzz_assert(memchr(t.comm, '\0', sizeof(t.comm)));
		fuzz_assert(strlen(t.comm) < strlen(text));
	}
	if (!ks_proc_parse_btime(text, &btime))
		fuzz_assert(btime >= 0);
	free(text);
	return 0;
}
