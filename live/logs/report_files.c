// SPDX-License-Identifier: GPL-2.0-or-later
#include <dirent.h>
#include <limits.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "grow.h"
#include "report_files.h"
#include "rotate.h"

struct entry {
	char *name;
	bool live;		/* NAME.out, after every archive */
	uint64_t epoch;		/* an archive's, any value */
	uint64_t seq;
	int64_t mtime;		/* live files among themselves */
};

static bool ends_with(const char *s, size_t len, const char *tail)
{
	size_t n = strlen(tail);

	return len >= n && !memcmp(s + len - n, tail, n);
}

/*
 * NAME.out, or NAME.out-EPOCH[-SEQ](.gz|.pending) as the rotation reads
 * them (rotate.h): NAME.out ends at the last ".out-".
 */
static bool classify(const char *file, struct entry *e)
{
	size_t len = strlen(file);
	const char *p = file, *out = NULL;
	char name[NAME_MAX + 1];
	unsigned int seq;

	e->live = true;
	e->epoch = 0;
	e->seq = 0;
	if (ends_with(file, len, ".out"))
		return true;
	e->live = false;
	while ((p = strstr(p, ".out-")))
		out = p++;
	if (!out || (size_t)(out - file) + 4 > NAME_MAX)
		return false;
	snprintf(name, sizeof(name), "%.*s", (int)(out - file) + 4, file);
	if (!ks_rotate_parse_stamped(name, file, KS_ROTATE_ARCHIVE, &e->epoch,
				     &seq) &&
	    !ks_rotate_parse_stamped(name, file, KS_ROTATE_PENDING, &e->epoch,
				     &seq))
		return false;
	e->seq = seq;
	return true;
}

static int by_time(const void *a, const void *b)
{
	const struct entry *x = a, *y = b;

	if (x->live != y->live)
		return x->live ? 1 : -1;
	if (x->epoch != y->epoch)
		return x->epoch < y->epoch ? -1 : 1;
	if (x->seq != y->seq)
		return x->seq < y->seq ? -1 : 1;
	if (x->mtime != y->mtime)
		return x->mtime < y->mtime ? -1 : 1;
	return strcmp(x->name, y->name);
}

static int add(struct entry **v, size_t *n, size_t *cap, int dirfd,
	       const char *file)
{
	struct entry e, *nv;
	struct stat sb;

	if (!classify(file, &e))
		return 0;
	if (fstatat(dirfd, file, &sb, AT_SYMLINK_NOFOLLOW) || !S_ISREG(sb.st_mode))
		return 0;
	e.mtime = (int64_t)sb.st_mtime;
	e.name = strdup(file);
	if (!e.name)
		return -ENOMEM;
	if (*n == *cap) {
		nv = ks_grow(*v, cap, *n + 1, sizeof(**v));
		if (!nv) {
			free(e.name);
			return -ENOMEM;
		}
		*v = nv;
	}
	(*v)[(*n)++] = e;
	return 0;
}

static int list_dir(struct ks_report_files *f, const struct ks_reporter *rep)
{
	struct entry *v = NULL;
	size_t n = 0, cap = 0;
	struct dirent *de;
	int fd, ret = 0;
	DIR *d;

	fd = openat(f->dirfd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	d = fd >= 0 ? fdopendir(fd) : NULL;
	if (!d) {
		ret = -errno;
		if (fd >= 0)
			close(fd);
		ks_say(rep, KS_WARN, "cannot read the directory: %s",
		       strerror(-ret));
		return ret;
	}
	while (!ret && (de = readdir(d)))
		ret = add(&v, &n, &cap, f->dirfd, de->d_name);
	closedir(d);
	if (n > 1)
		qsort(v, n, sizeof(*v), by_time);
	f->names = ret ? NULL : malloc((n ? n : 1) * sizeof(*f->names));
	if (!ret && !f->names)
		ret = -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		if (!ret)
			f->names[f->nr++] = v[i].name;
		else
			free(v[i].name);
	}
	free(v);
	if (ret)
		ks_say(rep, KS_WARN, "%s", strerror(-ret));
	return ret;
}

/* What a path that is neither a directory nor a file is. */
static const char *file_kind(mode_t mode)
{
	if (S_ISFIFO(mode))
		return "a FIFO";
	if (S_ISSOCK(mode))
		return "a socket";
	if (S_ISCHR(mode))
		return "a character device";
	if (S_ISBLK(mode))
		return "a block device";
	return "not a regular file";
}

/* path's errno, named: -errno. */
static int path_error(const char *path, const struct ks_reporter *rep)
{
	int ret = -errno;

	ks_say(rep, KS_WARN, "%s: %s", path, strerror(-ret));
	return ret;
}

int ks_report_files_list(struct ks_report_files *f, const char *path,
			 const struct ks_reporter *rep)
{
	struct stat sb;

	memset(f, 0, sizeof(*f));
	f->dirfd = -1;
	if (stat(path, &sb))
		return path_error(path, rep);
	if (!S_ISDIR(sb.st_mode) && !S_ISREG(sb.st_mode)) {
		ks_say(rep, KS_WARN,
		       "%s is %s: give the directory of -b's logs (-d DIR) or one log file",
		       path, file_kind(sb.st_mode));
		return -EINVAL;
	}
	if (!S_ISDIR(sb.st_mode)) {
		f->dirfd = AT_FDCWD;
		f->names = malloc(sizeof(*f->names));
		if (!f->names || !(f->names[0] = strdup(path))) {
			ks_say(rep, KS_WARN, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		f->nr = 1;
		return 0;
	}
	f->dirfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (f->dirfd < 0)
		return path_error(path, rep);
	return list_dir(f, rep);
}

void ks_report_files_release(struct ks_report_files *f)
{
	for (size_t i = 0; i < f->nr; i++)
		free(f->names[i]);
	free(f->names);
	if (f->dirfd >= 0)
		close(f->dirfd);
	memset(f, 0, sizeof(*f));
	f->dirfd = -1;
}
