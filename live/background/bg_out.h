/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The background log's directory and appends to it.  Every operation is
 * relative to the directory's fd and refuses symlinks, so links planted in
 * DIR are never followed.
 */
#ifndef KS_BG_OUT_H
#define KS_BG_OUT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Opens path as O_DIRECTORY|O_NOFOLLOW, creating it 0700 (and missing
 * parents 0755, like oled's makedirs) if it does not exist.  An existing
 * directory is used as it is.  Returns the fd or -errno; -ELOOP or
 * -ENOTDIR when path is a symlink or not a directory.
 */
int ks_bg_open_dir(const char *path, bool *created);
/*
 * Appends len bytes to name in dirfd (created 0600) with one write(), so
 * a sample is either all there or, only if the process is killed inside
 * that write, a torn tail.  If the write comes up short (a full disk) the
 * file is cut back to its old size: no partial sample is left behind by
 * an error.  -ELOOP for a symlink, -EINVAL for a non-regular file,
 * -EMLINK for a file with more than one link (checked on each open).
 */
int ks_bg_append(int dirfd, const char *name, const char *buf, size_t len);
/* fdatasync of name, at the end of a run; 0 if it does not exist. */
int ks_bg_sync(int dirfd, const char *name);

#endif /* KS_BG_OUT_H */
