// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Background mode's lock and logs opened only when each is a regular
 * file with one link, and what a file is when it is not (for -o and
 * --vmcore too).
 */
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "regular_file.h"

int ks_open_regular(int dirfd, const char *name, int flags, mode_t mode)
{
	struct stat sb;
	int fd, ret;

	fd = openat(dirfd, name, flags, mode);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb)) {
		ret = -errno;
		close(fd);
		return ret;
	}
	if (!S_ISREG(sb.st_mode)) {
		close(fd);
		return -EINVAL;
	}
	/* a second name may be a file outside the directory: never write it */
	if (sb.st_nlink != 1) {
		close(fd);
		return -EMLINK;
	}
	return fd;
}

const char *ks_file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	if (S_ISDIR(mode))
		return "a directory";
	if (S_ISSOCK(mode))
		return "a socket";
	return "not a regular file";
}
