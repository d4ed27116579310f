// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "run_lock.h"

static pid_t read_holder(int fd)
{
	char buf[32];
	ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);
	long pid;
	char *end;

	if (n <= 0)
		return 0;
	buf[n] = '\0';
	pid = strtol(buf, &end, 10);
	if (end == buf || pid <= 0 || pid > INT32_MAX)
		return 0;
	return (pid_t)pid;
}

int ks_run_lock(int dirfd, const char *name, pid_t *holder)
{
	struct stat sb;
	int fd, ret;

	*holder = 0;
	fd = openat(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
		    O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb)) {
		ret = -errno;
		goto fail;
	}
	if (!S_ISREG(sb.st_mode)) {
		ret = -EINVAL;
		goto fail;
	}
	if (flock(fd, LOCK_EX | LOCK_NB)) {
		ret = -errno;
		if (ret == -EWOULDBLOCK)
			*holder = read_holder(fd);
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return ret;
}

int ks_run_lock_set_pid(int fd, pid_t pid)
{
	char buf[32];
	int n = snprintf(buf, sizeof(buf), "%d\n", (int)pid);
	ssize_t w;

	if (ftruncate(fd, 0))
		return -errno;
	w = pwrite(fd, buf, (size_t)n, 0);
	if (w < 0)
		return -errno;
	return w == n ? 0 : -EIO;
}

int ks_run_lock_shared(const char *path)
{
	struct stat sb;
	int fd, ret;

	fd = open(path, O_RDWR | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &sb)) {
		ret = -errno;
		goto fail;
	}
	if (!S_ISREG(sb.st_mode)) {
		ret = -EINVAL;
		goto fail;
	}
	if (flock(fd, LOCK_SH | LOCK_NB)) {
		ret = -errno;
		goto fail;
	}
	return fd;
fail:
	close(fd);
	return ret;
}
