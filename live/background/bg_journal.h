/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Log lines to the systemd journal with its native protocol (one
 * datagram of KEY=VALUE lines to /run/systemd/journal/socket, see
 * systemd's "Native Journal Protocol"), without libsystemd: MESSAGE,
 * PRIORITY (syslog's numbers), SYSLOG_IDENTIFIER, and the run's counts
 * so far: SAMPLES written (LATE of them started late), SKIPPED (the disk
 * guard, an overrun) and LOST (an error), so `journalctl -u kstack LOST=0`
 * works.
 *
 * A journal that does not read must not stop the sampler: the kernel
 * queues only net.unix.max_dgram_qlen datagrams for it, and a blocking
 * send() past that waits for journald, deaf to -t and to SIGTERM.  So a
 * line that does not fit is dropped and counted (DROPPED, once some were),
 * and the first line that fits again is preceded by one that says how
 * many were lost.
 */
#ifndef KS_BG_JOURNAL_H
#define KS_BG_JOURNAL_H

#include <stdbool.h>

#include "bg_log.h"

#define KS_JOURNAL_SOCKET	"/run/systemd/journal/socket"

struct ks_journal {
	int fd;
	const unsigned long *samples;	/* the run's counters, or NULL */
	const unsigned long *late;
	const unsigned long *skipped;
	const unsigned long *lost;
	unsigned long nr_dropped;	/* lines the journal did not take */
	unsigned long nr_unsaid;	/* of those, not yet reported to it */
	int last_err;			/* why the last one was dropped */
};

/*
 * True when systemd connected our stderr to the journal: JOURNAL_STREAM
 * names stderr's device and inode (what systemd.exec(5) says to check).
 */
bool ks_journal_wanted(void);
/* Connects to path (NULL: KS_JOURNAL_SOCKET); 0 or -errno. */
int ks_journal_open(struct ks_journal *j, const char *path);
void ks_journal_close(struct ks_journal *j);
/* A ks_log_sink_fn; ctx is the struct ks_journal.  It never waits. */
void ks_journal_sink(enum ks_log_level level, const char *msg,
		     const char *line, size_t len, void *ctx);

#endif /* KS_BG_JOURNAL_H */
