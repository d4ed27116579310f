// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --cgroup on a live system, checked before any sample: a path that names
 * no cgroup, or a host without cgroup v2, would otherwise select nothing
 * and look like "no task matched".
 */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/magic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "cgroup_check.h"
#include "grow.h"
#include "exit_status.h"
#include "select.h"

#define SLURP_MAX	(4 << 20)

/* The whole of root_fd/path as a string, or NULL. */
static char *slurp(int root_fd, const char *path)
{
	size_t len = 0, cap = 0;
	char *buf = NULL, *n;
	bool ok = false;
	ssize_t r;
	int fd;

	fd = openat(root_fd, path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
	if (fd < 0)
		return NULL;
	for (;;) {
		if (len + 2 > cap) {
			n = cap * 2 <= SLURP_MAX ?
			    ks_grow_min(buf, &cap, len + 2, 1, 4096) : NULL;
			if (!n)
				break;
			buf = n;
		}
		r = read(fd, buf + len, cap - len - 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0) {
			ok = !r;
			break;
		}
		len += (size_t)r;
	}
	close(fd);
	if (!ok) {
		free(buf);
		return NULL;
	}
	buf[len] = '\0';
	return buf;
}

/* --cgroup's own faults, before any file is read: ".." and a long path. */
static int check_path(const char *cgroup, const struct ks_reporter *rep)
{
	char norm[PATH_MAX];
	int ret = ks_select_cgroup_normalize(cgroup, norm, sizeof(norm));

	if (ret == -ENAMETOOLONG)
		ks_say(rep, KS_WARN, "--cgroup: the path is %zu bytes, longer "
		       "than any cgroup path (PATH_MAX %d)", strlen(cgroup),
		       PATH_MAX);
	else if (ret)
		ks_say(rep, KS_WARN, "--cgroup %s: \"..\" leaves the cgroup "
		       "tree; name the cgroup itself", cgroup);
	return ret ? KS_EXIT_USAGE : 0;
}

/* The "0::PATH" line the cgroup v2 hierarchy puts in /proc/PID/cgroup. */
static bool has_v2_line(const char *text)
{
	return !strncmp(text, "0::", 3) || strstr(text, "\n0::");
}

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	for (; *s; s++, d++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 | (s[3] - '0'));
			s += 3;
		} else {
			*d = *s;
		}
	}
	*d = '\0';
}

/* A line: "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTIONS... - FSTYPE SOURCE ...". */
int ks_cgroup2_mount(char *mountinfo, char *mnt, size_t len)
{
	char *save, *line;

	for (line = strtok_r(mountinfo, "\n", &save); line;
	     line = strtok_r(NULL, "\n", &save)) {
		char root[PATH_MAX], point[PATH_MAX];
		const char *sep = strstr(line, " - ");

		if (!sep || strncmp(sep + 3, "cgroup2 ", 8) ||
		    sscanf(line, "%*s %*s %*s %4095s %4095s", root, point) != 2)
			continue;
		if (strcmp(root, "/"))
			continue;
		unescape(point);
		if ((size_t)snprintf(mnt, len, "%s", point) >= len)
			continue;
		return 0;
	}
	return -ENOENT;
}

/* Whether the cgroup directory exists under the cgroup2 mount; 0 if unknown. */
static int check_exists(int root_fd, const char *cgroup,
			const struct ks_reporter *rep)
{
	char mnt[PATH_MAX], path[PATH_MAX], norm[PATH_MAX];
	char *mountinfo;
	struct stat sb;
	int ret = 0;

	mountinfo = slurp(root_fd, "self/mountinfo");
	if (!mountinfo)
		return 0;
	if (ks_cgroup2_mount(mountinfo, mnt, sizeof(mnt)) ||
	    ks_select_cgroup_normalize(cgroup, norm, sizeof(norm)) ||
	    (size_t)snprintf(path, sizeof(path), "%s%s",
			     strcmp(mnt, "/") ? mnt : "", norm) >= sizeof(path))
		goto out;
	/* only a path that is not there is known to be wrong */
	if (stat(path, &sb))
		sb.st_mode = errno == ENOENT || errno == ENOTDIR ? 0 : S_IFDIR;
	if (!S_ISDIR(sb.st_mode)) {
		ks_say(rep, KS_WARN, "--cgroup %s: no such cgroup (%s %s)",
		       cgroup, path, sb.st_mode ? "is not a directory" :
		       "does not exist");
		ret = KS_EXIT_USAGE;
	}
out:
	free(mountinfo);
	return ret;
}

int ks_cgroup_check(int root_fd, const char *root, const char *cgroup,
		    const struct ks_reporter *rep)
{
	struct statfs fs;
	char *self;
	bool v2;
	int ret;

	ret = check_path(cgroup, rep);
	if (ret)
		return ret;
	/* a tree without self/cgroup (the test fixtures): nothing to check */
	self = slurp(root_fd, "self/cgroup");
	if (!self)
		return 0;
	v2 = has_v2_line(self);
	free(self);
	if (!v2) {
		ks_say(rep, KS_WARN,
		       "--cgroup needs cgroup v2: %s/self/cgroup has no \"0::\" line (cgroup v1 only)",
		       root);
		return KS_EXIT_USAGE;
	}
	/* a copy of another machine's /proc: its cgroups are not mounted here */
	if (fstatfs(root_fd, &fs) || fs.f_type != PROC_SUPER_MAGIC)
		return 0;
	return check_exists(root_fd, cgroup, rep);
}
