/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_BG_DAEMON_H
#define KS_BG_DAEMON_H

#include <stdbool.h>

/*
 * -b without --foreground: a double fork with setsid in between, so the
 * sampler is no session leader and can never get a controlling terminal
 * back.  The middle child records the sampler's PID in the lock file,
 * logs "Background PID: N" (as oled does) and exits; the caller's process
 * waits for it.
 *
 * Returns in two processes: in the sampler with *is_daemon true and 0
 * (stdin and stdout on /dev/null, stderr kept for the log, cwd "/"), and
 * in the original process with *is_daemon false and its exit status.
 */
int ks_bg_daemonize(int lock_fd, bool *is_daemon);

#endif /* KS_BG_DAEMON_H */
