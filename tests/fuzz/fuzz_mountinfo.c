// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The readers of /proc/self/mountinfo: live/proc/tracefs.c (where debugfs and
 * tracefs are, read from a file: the input is put in a memfd) and
 * live/proc/cgroup_check.c (the cgroup2 mount, on the text), with mount
 * points escaped as \ooo; and the same file read as /proc/filesystems.
 */
#include <limits.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cgroup_check.h"
#include "fuzz.h"
#include "tracefs.h"

static void find(const char *path, const char *fstype)
{
	char mnt[PATH_MAX], small[8];

	if (!ks_tracefs_find(path, fstype, mnt, sizeof(mnt)))
		fuzz_assert(strlen(mnt) < sizeof(mnt));
	if (!ks_tracefs_find(path, fstype, small, sizeof(small)))
		fuzz_assert(strlen(small) < sizeof(small));
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *text = fuzz_str(data, size), path[64], mnt[PATH_MAX], small[8];
	int fd = memfd_create("mountinfo", MFD_CLOEXEC);

	if (fd < 0 || write(fd, data, size) != (ssize_t)size)
		abort();
	snprintf(path, sizeof(path), "/proc/self/fd/%d", fd);
	find(path, "debugfs");
	find(path, "tracefs");
	ks_tracefs_kernel_has(path, "tracefs");
	ks_tracefs_kernel_has(path, "debugfs");
	close(fd);

	if (!ks_cgroup2_mount(text, mnt, sizeof(mnt)))
		fuzz_assert(strlen(mnt) < sizeof(mnt));
	free(text);
	text = fuzz_str(data, size);
	if (!ks_cgroup2_mount(text, small, sizeof(small)))
		fuzz_assert(strlen(small) < sizeof(small));
	free(text);
	return 0;
}
