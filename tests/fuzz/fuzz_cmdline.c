// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/core/task.c: Cmd from the raw bytes of /proc/PID/cmdline (or a task's
 * user memory in a vmcore), NULs and all.
 */
#include "fuzz.h"
#include "task.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const char comm[] = "comm";
	char *cmd = ks_cmd_from_cmdline((const char *)data, size, comm);

	fuzz_assert(cmd);
	fuzz_assert(strlen(cmd) <= (size > sizeof(comm) ? size : sizeof(comm)));
	free(cmd);
	return 0;
}
