// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * live/proc/proc_tasks.c on /proc/PID/status (the two context switch counts,
 * for --json) and /proc/PID/cgroup: the first line of the input is the
 * --cgroup path, the rest the file, read as both.
 */
#include "fuzz.h"
#include "proc_tasks.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size), *rest = text, *cgroup;
	struct ks_task t = { 0 };

	ks_proc_parse_switches(text, &t);
	fuzz_assert(!t.has_switches ||
		    strstr(text, "\nnonvoluntary_ctxt_switches:"));
	cgroup = fuzz_line(&rest);
	if (cgroup) {
		/* options.c lets only absolute, non-empty paths through */
		if (cgroup[0] == '/')
			ks_proc_cgroup_match(rest, cgroup);
		ks_proc_cgroup_match(rest, "/");
	}
	free(text);
	return 0;
}
