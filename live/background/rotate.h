/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Log rotation as oled kstack does it (NAME -> NAME-EPOCH.gz, keep the
 * newest N), made safe against a kill at any moment and against symlinks
 * planted in the directory.  Generic file operations on a directory fd.
 *
 * A rotation of NAME goes through three names, each step atomic:
 *
 *   1. NAME is renamed to NAME-EPOCH[-SEQ].pending: from here on new
 *      samples go to a fresh NAME, and the pending file never changes.
 *   2. pending is compressed into NAME-EPOCH[-SEQ].gz.tmp, fsync'ed, and
 *      renamed (never over an existing file) to NAME-EPOCH[-SEQ].gz.
 *   3. pending is removed.
 *
 * So a .gz exists only once it is complete and synced, and its data stays
 * in the pending file until then.  ks_rotate_recover() at start-up removes
 * stale .gz.tmp files and finishes every pending file: if its .gz exists,
 * step 2 completed and the pending copy is dropped; else it is compressed
 * again.  Nothing is lost and nothing is archived twice.
 *
 * Archives sort by (EPOCH, SEQ) as numbers, newest first, and the newest
 * max_files are kept.  A new archive is stamped with the current second;
 * if an archive or pending file of that second (or of a later one: the
 * clock stepped back) exists, it takes the newest stamp's EPOCH and the
 * next SEQ instead: NAME-EPOCH.gz, NAME-EPOCH-1.gz, NAME-EPOCH-2.gz...
 * So an archive is never overwritten, the one just made always sorts
 * newest, and a name freed by pruning is never reused.
 */
#ifndef KS_ROTATE_H
#define KS_ROTATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <time.h>

#define KS_ROTATE_NAME_MAX	256

struct ks_rotate {
	int dirfd;		/* the directory, opened O_DIRECTORY|O_NOFOLLOW */
	const char *name;	/* the live file, a plain name in dirfd */
	uint64_t max_bytes;	/* rotate once the file is larger than this */
	long max_files;		/* archives kept; <= 0 keeps all */
	time_t (*now)(void);	/* clock for archive names; NULL: time() */
};

/* What a call did, for the caller's log. */
struct ks_rotate_result {
	char archive[KS_ROTATE_NAME_MAX];	/* the new archive, or "" */
	size_t nr_pruned;			/* old archives removed */
	size_t nr_recovered;			/* pending files finished */
	size_t nr_stale;			/* stale .gz.tmp removed */
};

/*
 * Rotates r->name if it is larger than max_bytes, or if force and it is
 * not empty.  Returns 1 when rotated, 0 when there was nothing to do, or
 * -errno: -ELOOP when the name is a symlink, -EINVAL when it is not a
 * regular file, -EMLINK when it has more than one link.  On a failure
 * the data stays under r->name (or, if even that rename fails, in the
 * pending file that recovery finishes).
 */
int ks_rotate(const struct ks_rotate *r, bool force,
	      struct ks_rotate_result *res);
/* Start-up clean-up described above, then pruning.  0 or -errno. */
int ks_rotate_recover(const struct ks_rotate *r, struct ks_rotate_result *res);
/* Removes all but the newest max_files archives.  0 or -errno. */
int ks_rotate_prune(const struct ks_rotate *r, size_t *nr_pruned);

/* "NAME-EPOCH.gz" for seq 0, "NAME-EPOCH-SEQ.gz" after; -ENAMETOOLONG */
int ks_rotate_archive_name(char *buf, size_t len, const char *name,
			   uint64_t epoch, unsigned int seq);
/* The stamped files of a rotation that hold samples. */
enum ks_rotate_kind {
	KS_ROTATE_ARCHIVE,	/* NAME-EPOCH[-SEQ].gz */
	KS_ROTATE_PENDING,	/* NAME-EPOCH[-SEQ].pending */
};

/*
 * True if file is exactly name's file of that kind, with its epoch and
 * seq: the one reading of the names above, for the rotation and for
 * kstack report.  Anything else in the directory is left alone.
 */
bool ks_rotate_parse_stamped(const char *name, const char *file,
			     enum ks_rotate_kind kind, uint64_t *epoch,
			     unsigned int *seq);

/* gzip everything readable from in_fd into out_fd (zlib, level 6). */
int ks_gzip_fd(int in_fd, int out_fd);

#endif /* KS_ROTATE_H */
