/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_BG_DAEMON_H
#define KS_BG_DAEMON_H

#include <stdbool.h>

#include "bg_log.h"

/*
 * -b without --foreground: a double fork with setsid in between, so the
 * sampler is no session leader and can never get a controlling terminal
 * back.  The middle child records the sampler's PID in the lock file,
 * logs "Background PID: N" (as oled does) and exits; the caller's process
 * waits for it.
 *
 * Returns in two processes: in the sampler with *is_daemon true and 0
 * (stdin, stdout and stderr on /dev/null, its log lines to sink, cwd
 * "/"), and in the original process with *is_daemon false and its exit
 * status, at once: the sampler holds nothing of the caller's.  The lock
 * taken on lock_fd by the caller stays held: an flock belongs to the
 * open file, which the sampler inherits.
 */
int ks_bg_daemonize(int lock_fd, bool *is_daemon, ks_log_sink_fn sink,
		    void *sink_ctx);

#endif /* KS_BG_DAEMON_H */
