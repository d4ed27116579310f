// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Where a one-shot sample goes: stdout, or -o FILE.
 *
 * kstack runs as root, often with FILE in a world-writable directory, so
 * FILE is looked at (lstat) before anything is written:
 * - a regular file, or none yet, is replaced whole: the sample goes to a
 *   temporary file beside it, synced and renamed over it, so FILE is never
 *   left half-written; an existing file's permission bits, owner and group
 *   carry over to the new one;
 * - a FIFO or a character device (/dev/null, a tty) is written as a
 *   stream and stays what it is; so are /dev/stdout, /dev/stderr and
 *   /dev/fd/N, which name our own descriptors, as the shell treats them;
 * - a symbolic link is refused unless --follow-symlink: then the rules
 *   apply to the file it points to;
 * - a regular file with more than one hard link is refused: renaming over
 *   one name would leave the others with the old content, and writing
 *   through it would change a file the user did not name;
 * - anything else (a directory, a block device, a socket) is refused.
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "live_say.h"
#include "exit_status.h"
#include "output_file.h"
#include "regular_file.h"
#include "sample_report.h"

static int refuse(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ks_live_vsay(fmt, ap);
	va_end(ap);
	return KS_EXIT_ERROR;
}

/* /dev/stdout, /dev/stderr, /dev/fd/N, /proc/self/fd/N: that fd, else -1. */
static int own_fd(const char *path)
{
	const char *num = NULL;
	char *end;
	long n;

	if (!strcmp(path, "/dev/stdout"))
		return STDOUT_FILENO;
	if (!strcmp(path, "/dev/stderr"))
		return STDERR_FILENO;
	if (!strncmp(path, "/dev/fd/", 8))
		num = path + 8;
	else if (!strncmp(path, "/proc/self/fd/", 14))
		num = path + 14;
	if (!num || *num < '0' || *num > '9')
		return -1;
	errno = 0;
	n = strtol(num, &end, 10);
	if (errno || *end || n > INT_MAX)
		return -1;
	return (int)n;
}

static int stream_fd(struct ks_output *out, int fd)
{
	int copy = fcntl(fd, F_DUPFD_CLOEXEC, 3);

	if (copy < 0)
		return refuse("cannot write %s: %s", out->name, strerror(errno));
	out->f = fdopen(copy, "w");
	if (!out->f) {
		close(copy);
		return refuse("cannot write %s: %s", out->name, strerror(errno));
	}
	return 0;
}

/* A FIFO or a character device: opened as it is, never replaced. */
static int open_stream(struct ks_output *out, const char *base,
		       const struct stat *seen)
{
	struct stat sb;
	int fd, ret;

	/* a FIFO waits here for its reader, as the shell's > does */
	fd = openat(out->dirfd, base, O_WRONLY | O_NOFOLLOW | O_NOCTTY |
		    O_CLOEXEC);
	if (fd < 0)
		return refuse("cannot write %s: %s", out->name, strerror(errno));
	/* swapped for something else since lstat: do not write into that */
	if (fstat(fd, &sb) || sb.st_dev != seen->st_dev ||
	    sb.st_ino != seen->st_ino) {
		close(fd);
		return refuse("%s changed while it was opened: not written",
			      out->name);
	}
	ret = stream_fd(out, fd);
	close(fd);
	return ret;
}

/* BASE.XXXXXX made new in the directory, as mkostemp does by path. */
static int make_temp(struct ks_output *out, const char *base)
{
	static const char chars[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
	size_t len = strlen(base) + 8;
	unsigned char rnd[6];
	int fd = -1;

	out->tmp = malloc(len);
	if (!out->tmp)
		return -ENOMEM;
	for (int tries = 0; tries < 100; tries++) {
		if (getrandom(rnd, sizeof(rnd), 0) != sizeof(rnd))
			return -errno;
		snprintf(out->tmp, len, "%s.", base);
		for (size_t i = 0; i < sizeof(rnd); i++)
			out->tmp[len - 7 + i] = chars[rnd[i] % (sizeof(chars) - 1)];
		out->tmp[len - 1] = '\0';
		fd = openat(out->dirfd, out->tmp, O_WRONLY | O_CREAT | O_EXCL |
			    O_NOFOLLOW | O_CLOEXEC, 0600);
		if (fd >= 0 || errno != EEXIST)
			break;
	}
	return fd < 0 ? -errno : fd;
}

/*
 * A regular file: a temporary file beside it, renamed over it by
 * ks_output_write().  It gets the old file's owner, group and permission
 * bits (not set-id bits); a new FILE is created 0600.  Made, renamed and
 * removed relative to the directory's fd: a directory renamed meanwhile
 * takes the temporary file with it instead of stranding it.
 */
static int open_replace(struct ks_output *out, const char *base,
			const struct stat *old)
{
	int fd = make_temp(out, base);

	if (fd < 0) {
		free(out->tmp);
		out->tmp = NULL;
		return refuse("cannot write %s: cannot create a temporary file beside it: %s",
			      out->name, strerror(-fd));
	}
	/* not root: the file stays ours, with the old permission bits */
	if (old && fchown(fd, old->st_uid, old->st_gid) && errno != EPERM)
		goto fail;
	if (old && fchmod(fd, old->st_mode & 0777))
		goto fail;
	out->f = fdopen(fd, "w");
	if (!out->f)
		goto fail;
	out->replace = base;
	return 0;
fail:
	refuse("cannot write %s: %s", out->name, strerror(errno));
	close(fd);
	unlinkat(out->dirfd, out->tmp, 0);
	free(out->tmp);
	out->tmp = NULL;
	return KS_EXIT_ERROR;
}

/* The directory of path, opened; *base points at the last component. */
static int open_parent(struct ks_output *out, const char *path,
		       const char **base)
{
	const char *slash = strrchr(path, '/');
	char *dir;

	*base = slash ? slash + 1 : path;
	if (!**base)
		return refuse("cannot write %s: it names a directory, not a file",
			      out->name);
	if (!slash)
		dir = strdup(".");
	else if (slash == path)
		dir = strdup("/");
	else
		dir = strndup(path, (size_t)(slash - path));
	if (!dir)
		return refuse("out of memory");
	if (out->dirfd >= 0)
		close(out->dirfd);
	out->dirfd = open(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (out->dirfd < 0) {
		int err = errno;

		/* "No such file or directory" would not say which is missing */
		if (err == ENOENT || err == ENOTDIR)
			refuse("cannot write %s: the directory %s %s", out->name,
			       dir, err == ENOTDIR ? "is not a directory" :
						     "does not exist");
		else
			refuse("cannot write %s: %s", out->name, strerror(err));
		free(dir);
		return KS_EXIT_ERROR;
	}
	free(dir);
	return 0;
}

/* FILE as it is now (through a link with --follow-symlink): what to do. */
static int open_path(struct ks_output *out, const char *path, bool follow)
{
	const char *base;
	struct stat sb;
	int ret;

	ret = open_parent(out, path, &base);
	if (ret)
		return ret;
	if (fstatat(out->dirfd, base, &sb, AT_SYMLINK_NOFOLLOW)) {
		if (errno == ENOENT)
			return open_replace(out, base, NULL);
		return refuse("cannot write %s: %s", out->name, strerror(errno));
	}
	if (S_ISLNK(sb.st_mode)) {
		if (!follow)
			return refuse("%s is a symbolic link: refusing to write through it (--follow-symlink writes to the file it points to)",
				      out->name);
		out->real = realpath(path, NULL);
		if (!out->real)
			return refuse("cannot follow the symbolic link %s: %s",
				      out->name, strerror(errno));
		return open_path(out, out->real, false);
	}
	if (S_ISREG(sb.st_mode) && sb.st_nlink > 1)
		return refuse("%s has %ju hard links: refusing to replace one name (the others would keep the old content) or to write through all of them; remove it or choose another file",
			      path, (uintmax_t)sb.st_nlink);
	if (S_ISREG(sb.st_mode))
		return open_replace(out, base, &sb);
	if (S_ISFIFO(sb.st_mode) || S_ISCHR(sb.st_mode))
		return open_stream(out, base, &sb);
	return refuse("%s is %s: -o writes a regular file, a FIFO or a character device",
		      path, ks_file_kind(sb.st_mode));
}

int ks_output_open_path(struct ks_output *out, const char *path, bool follow)
{
	int fd;

	memset(out, 0, sizeof(*out));
	out->dirfd = -1;
	if (!path) {
		out->name = "stdout";
		out->f = stdout;
		return 0;
	}
	out->name = path;
	fd = own_fd(path);
	if (fd >= 0)
		return stream_fd(out, fd);
	return open_path(out, path, follow);
}

int ks_output_open(struct ks_output *out,
		   const struct ks_live_options *live)
{
	return ks_output_open_path(out, live->output, live->follow_symlink);
}

/*
 * name in the directory dirfd, which must not have it: its temporary
 * file, put in place by ks_output_commit() only if name is still free.
 */
int ks_output_open_new(struct ks_output *out, int dirfd, const char *shown,
		       const char *name)
{
	struct stat sb;

	memset(out, 0, sizeof(*out));
	out->name = shown;
	out->dirfd = fcntl(dirfd, F_DUPFD_CLOEXEC, 3);
	if (out->dirfd < 0)
		return refuse("cannot write %s: %s", shown, strerror(errno));
	if (!fstatat(out->dirfd, name, &sb, AT_SYMLINK_NOFOLLOW))
		return refuse("%s exists: not replaced", shown);
	if (errno != ENOENT)
		return refuse("cannot write %s: %s", shown, strerror(errno));
	out->no_replace = true;
	return open_replace(out, name, NULL);
}

/* The temporary file renamed to its name: over it, or only if it is free. */
static int put_in_place(struct ks_output *out)
{
	if (!out->no_replace)
		return renameat(out->dirfd, out->tmp, out->dirfd, out->replace);
	return renameat2(out->dirfd, out->tmp, out->dirfd, out->replace,
			 RENAME_NOREPLACE);
}

int ks_output_commit(struct ks_output *out, int ret)
{
	/* the data is on disk before the name points at it */
	if (!ret && out->replace && fflush(out->f))
		ret = -errno;
	if (!ret && out->replace && fsync(fileno(out->f)))
		ret = -errno;
	if (out->replace) {
		if (fclose(out->f) && !ret)
			ret = -errno;
		out->f = NULL;
		if (!ret && put_in_place(out))
			ret = -errno;
		if (!ret) {
			free(out->tmp);
			out->tmp = NULL;
		}
	}
	if (ret)
		return refuse("writing %s: %s", out->name, strerror(-ret));
	return 0;
}

int ks_output_write(struct ks_output *out, const struct ks_sample *s,
		    const struct ks_format_opts *opts)
{
	return ks_output_commit(out, ks_sample_write(out->f, s, opts));
}

void ks_output_close(struct ks_output *out)
{
	if (out->f && out->f != stdout)
		fclose(out->f);
	if (out->tmp)
		unlinkat(out->dirfd, out->tmp, 0);
	if (out->dirfd >= 0)
		close(out->dirfd);
	free(out->tmp);
	free(out->real);
	memset(out, 0, sizeof(*out));
	out->dirfd = -1;
}
