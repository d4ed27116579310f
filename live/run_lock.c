// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

#include "regular_file.h"
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

/*
 * A lock file, made if missing, locked with op without waiting; the fd,
 * or -errno.  holder (may be NULL): who holds it when it is taken.
 */
static int lock_file(int dirfd, const char *name, mode_t mode, int op,
		     pid_t *holder)
{
	int fd, ret;

	fd = ks_open_regular(dirfd, name, O_RDWR | O_CREAT | O_NOFOLLOW |
			     O_NONBLOCK | O_CLOEXEC, mode);
	if (fd < 0)
		return fd;
	if (flock(fd, op | LOCK_NB)) {
		ret = -errno;
		if (ret == -EWOULDBLOCK && holder)
			*holder = read_holder(fd);
		close(fd);
		return ret;
	}
	return fd;
}

int ks_run_lock(int dirfd, const char *name, pid_t *holder)
{
	*holder = 0;
	return lock_file(dirfd, name, 0600, LOCK_EX, holder);
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
	return lock_file(AT_FDCWD, path, 0644, LOCK_SH, NULL);
}
