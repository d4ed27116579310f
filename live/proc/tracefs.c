// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * debugfs and tracefs for kstack -K/-F.  A system that has not mounted
 * them keeps it that way: we mount them read-only in a mount namespace of
 * our own, which disappears with the process.
 */
#include <errno.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <unistd.h>

#include "tracefs.h"

/* mountinfo escapes space, tab, newline and backslash as \ooo. */
static void unescape(char *s)
{
	char *d = s;

	while (*s) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' &&
		    s[2] >= '0' && s[2] <= '7' && s[3] >= '0' && s[3] <= '7') {
			*d++ = (char)((s[1] - '0') << 6 | (s[2] - '0') << 3 |
				      (s[3] - '0'));
			s += 4;
		} else {
			*d++ = *s++;
		}
	}
	*d = '\0';
}

int ks_tracefs_find(const char *mountinfo, const char *fstype, char *path,
		    size_t len)
{
	FILE *f = fopen(mountinfo, "re");
	char *line = NULL;
	size_t cap = 0;
	int ret = -ENOENT;

	if (!f)
		return -errno;
	while (getline(&line, &cap, f) > 0) {
		char *save, *tok, *mnt = NULL, *sep;
		int field = 0;

		/* "ID PARENT MAJ:MIN ROOT MOUNTPOINT OPTS [TAGS...] - TYPE SRC SOPTS" */
		sep = strstr(line, " - ");
		if (!sep)
			continue;
		*sep = '\0';
		for (tok = strtok_r(line, " ", &save); tok;
		     tok = strtok_r(NULL, " ", &save))
			if (++field == 5)
				mnt = tok;
		tok = strtok_r(sep + 3, " ", &save);
		if (!mnt || !tok || strcmp(tok, fstype))
			continue;
		unescape(mnt);
		if (strlen(mnt) < len) {
			strcpy(path, mnt);
			ret = 0;
			break;
		}
	}
	free(line);
	fclose(f);
	return ret;
}

/* The word-th word of a line (the last when word < 0), or NULL. */
static const char *nth_word(char *line, int word)
{
	char *tok, *save, *last = NULL;
	int i = 0;

	for (tok = strtok_r(line, " \t\n", &save); tok;
	     tok = strtok_r(NULL, " \t\n", &save), i++) {
		if (i == word)
			return tok;
		last = tok;
	}
	return word < 0 ? last : NULL;
}

bool ks_file_lists(const char *path, const char *name, int word)
{
	FILE *f = fopen(path, "re");
	char line[1024];
	bool found = false;

	if (!f)
		return false;
	while (!found && fgets(line, sizeof(line), f)) {
		const char *tok = nth_word(line, word);

		found = tok && !strcmp(tok, name);
	}
	fclose(f);
	return found;
}

bool ks_tracefs_kernel_has(const char *filesystems, const char *fstype)
{
	/* "nodev\tdebugfs", or "\text4" for a block device's */
	return ks_file_lists(filesystems, fstype, -1);
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* Our own mount namespace, with nothing propagating back to the system. */
static int private_namespace(struct ks_tracefs *fs)
{
	if (fs->unshared)
		return 0;
	if (unshare(CLONE_NEWNS))
		return -errno;
	fs->unshared = true;
	if (mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL))
		return -errno;
	return 0;
}

static int mount_private(struct ks_tracefs *fs, const char *type,
			 const char *dir, unsigned long ro)
{
	int ret = private_namespace(fs);

	if (ret)
		return ret;
	if (!is_dir(dir))
		return -ENOENT;
	if (mount(type, dir, type, ro | MS_NOSUID | MS_NODEV | MS_NOEXEC, NULL))
		return -errno;
	return 0;
}

static void get_one(struct ks_tracefs *fs, const char *type,
		    const char *default_dir, const char *over, char *path,
		    size_t len, char *why, size_t whylen, bool *mounted,
		    int *err, unsigned long ro)
{
	int ret;

	/* Tests point kstack at fixture directories. */
	if (over) {
		snprintf(path, len, "%s", over);
		return;
	}
	if (!ks_tracefs_find("/proc/self/mountinfo", type, path, len))
		return;
	path[0] = '\0';
	if (!ks_tracefs_kernel_has("/proc/filesystems", type)) {
		snprintf(why, whylen, "this kernel has no %s", type);
		*err = -ENOENT;
		return;
	}
	ret = mount_private(fs, type, default_dir, ro);
	if (ret) {
		snprintf(why, whylen, "%s is not mounted and mounting it on %s "
			 "failed: %s", type, default_dir, strerror(-ret));
		*err = ret;
		return;
	}
	snprintf(path, len, "%s", default_dir);
	*mounted = true;
}

static void open_fs(struct ks_tracefs *fs, bool want_debugfs,
		    unsigned long tracefs_ro, const struct ks_test_knobs *knobs)
{
	static const struct ks_test_knobs none;
	char auto_dir[PATH_MAX + 16];

	if (!knobs)
		knobs = &none;
	memset(fs, 0, sizeof(*fs));
	if (want_debugfs)
		get_one(fs, "debugfs", "/sys/kernel/debug", knobs->debugfs,
			fs->debugfs, sizeof(fs->debugfs), fs->why_debugfs,
			sizeof(fs->why_debugfs), &fs->mounted_debugfs,
			&fs->err_debugfs, MS_RDONLY);
	get_one(fs, "tracefs", "/sys/kernel/tracing", knobs->tracefs,
		fs->tracefs, sizeof(fs->tracefs), fs->why_tracefs,
		sizeof(fs->why_tracefs), &fs->mounted_tracefs,
		&fs->err_tracefs, tracefs_ro);
	/* Old layouts reach tracefs only through debugfs/tracing. */
	if (!fs->tracefs[0] && fs->debugfs[0]) {
		snprintf(auto_dir, sizeof(auto_dir), "%s/tracing", fs->debugfs);
		if (is_dir(auto_dir) && strlen(auto_dir) < sizeof(fs->tracefs))
			strcpy(fs->tracefs, auto_dir);
	}
}

void ks_tracefs_open(struct ks_tracefs *fs, bool want_debugfs,
		     const struct ks_test_knobs *knobs)
{
	open_fs(fs, want_debugfs, MS_RDONLY, knobs);
}

void ks_tracefs_open_rw(struct ks_tracefs *fs, const struct ks_test_knobs *knobs)
{
	open_fs(fs, true, 0, knobs);
}
