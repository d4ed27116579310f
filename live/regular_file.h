/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_REGULAR_FILE_H
#define KS_REGULAR_FILE_H

#include <sys/types.h>

/*
 * openat() that insists on a regular file: a FIFO, a device or a
 * directory planted where background mode keeps its lock or its logs is
 * refused (-EINVAL) before anything is read or written, and so is a file
 * with more than one hard link (-EMLINK): another name of it may be a
 * file anywhere on the file system, which root must not truncate or
 * append to.  Both are checked on the opened fd (fstat), so a name
 * swapped between a check and the open cannot slip through.  The fd, or
 * -errno.  The caller chooses O_NOFOLLOW and O_NONBLOCK in flags.
 */
int ks_open_regular(int dirfd, const char *name, int flags, mode_t mode);

/* What a file that is not a regular one is, for a message: "a FIFO"... */
const char *ks_file_kind(mode_t mode);

#endif /* KS_REGULAR_FILE_H */
