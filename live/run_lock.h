/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One background kstack per output directory: an flock on DIR/.kstack.lock,
 * which also records the holder's PID so a refused second instance can
 * name it.  The kernel drops the lock when the holder dies, even by
 * SIGKILL, so a stale file never blocks a new run.
 */
#ifndef KS_RUN_LOCK_H
#define KS_RUN_LOCK_H

#include <sys/types.h>

#define KS_RUN_LOCK_NAME	".kstack.lock"

/*
 * Takes the lock on name in dirfd (created 0600, never through a symlink).
 * Returns its fd, to keep open for the whole run (it survives fork: the
 * lock belongs to the open file, not the process); -EWOULDBLOCK when held,
 * with *holder the PID recorded in it (0 if none yet); or -errno.
 */
int ks_run_lock(int dirfd, const char *name, pid_t *holder);
/* Records pid as the holder; 0 or -errno. */
int ks_run_lock_set_pid(int fd, pid_t pid);

/*
 * oled kstack's own lock: it opens this file and takes an exclusive flock
 * for its whole run.  kstack's background runs take a shared one, so any
 * number of them (each on its own directory, see above) run together, but
 * none while oled kstack runs, and oled kstack refuses to start while one
 * does: the two never rotate the same directory at once.
 */
#define KS_OLED_LOCK_PATH	"/run/lock/oled-kstack.lock"

/*
 * Takes a shared flock on path (created if missing, never through a
 * symlink).  Returns its fd, to keep open for the whole run (it survives
 * fork); -EWOULDBLOCK when oled kstack holds it; or -errno.
 */
int ks_run_lock_shared(const char *path);

#endif /* KS_RUN_LOCK_H */
