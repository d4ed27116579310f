// SPDX-License-Identifier: GPL-2.0-or-later
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bg_out.h"
#include "regular_file.h"

#define DIR_FLAGS	(O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)

/* mkdir -p: parents 0755 as oled's os.makedirs made them, the leaf 0700 */
static int make_dirs(char *path)
{
	mode_t old = umask(0);
	int ret = 0;

	for (char *p = strchr(path + 1, '/'); p; p = strchr(p + 1, '/')) {
		*p = '\0';
		if (mkdir(path, 0755) && errno != EEXIST)
			ret = -errno;
		*p = '/';
		if (ret)
			goto out;
	}
	if (mkdir(path, 0700) && errno != EEXIST)
		ret = -errno;
out:
	umask(old);
	return ret;
}

int ks_bg_open_dir(const char *path, bool *created)
{
	size_t len = strlen(path);
	char *copy;
	int fd, ret;

	*created = false;
	if (!len)
		return -ENOENT;
	copy = strdup(path);
	if (!copy)
		return -ENOMEM;
	/* "dir/" would resolve through a symlink named dir despite O_NOFOLLOW */
	while (len > 1 && copy[len - 1] == '/')
		copy[--len] = '\0';
	fd = open(copy, DIR_FLAGS);
	if (fd < 0 && errno == ENOENT) {
		ret = make_dirs(copy);
		if (ret) {
			fd = ret;
			goto out;
		}
		*created = true;
		fd = open(copy, DIR_FLAGS);
	}
	if (fd < 0)
		fd = -errno;
out:
	free(copy);
	return fd;
}

/* O_NONBLOCK: a FIFO planted under the name must not hang us */
static int open_regular(int dirfd, const char *name, int flags, struct stat *sb)
{
	int fd = ks_open_regular(dirfd, name, flags | O_NOFOLLOW | O_NONBLOCK |
				 O_CLOEXEC, 0600);

	if (fd >= 0 && fstat(fd, sb)) {
		close(fd);
		return -errno;
	}
	return fd;
}

int ks_bg_append(int dirfd, const char *name, const char *buf, size_t len)
{
	size_t done = 0;
	struct stat sb;
	int fd, ret = 0;
	ssize_t n;

	fd = open_regular(dirfd, name, O_WRONLY | O_APPEND | O_CREAT, &sb);
	if (fd < 0)
		return fd;
	while (done < len) {
		n = write(fd, buf + done, len - done);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			ret = n < 0 ? -errno : -EIO;
			break;
		}
		done += (size_t)n;
	}
	/* an error mid-sample: cut back so the file holds whole samples */
	if (ret && done && ftruncate(fd, sb.st_size))
		ret = -errno;
	if (close(fd) && !ret)
		ret = -errno;
	return ret;
}

int ks_bg_sync(int dirfd, const char *name)
{
	struct stat sb;
	int fd, ret = 0;

	fd = open_regular(dirfd, name, O_RDONLY, &sb);
	if (fd == -ENOENT)
		return 0;
	if (fd < 0)
		return fd;
	if (fdatasync(fd))
		ret = -errno;
	close(fd);
	return ret;
}
