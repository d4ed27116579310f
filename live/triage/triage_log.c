// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The live triage's log: /dev/kmsg's records (kmsg_walk.c, as --log
 * reads them) through the dump's own digest (log_digest.c): the last
 * report, the warnings folded, the last lines.
 */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "kmsg_walk.h"
#include "triage_live.h"

int ks_triage_live_log(struct ks_log_digest *d, char *why)
{
	const struct ks_reporter rep = KS_TRIAGE_CATCH(why);
	int fd = ks_kmsg_open(&rep);
	int ret;

	if (fd < 0) {
		memset(d, 0, sizeof(*d));
		ks_triage_why(why, "%s: %s%s", KS_KMSG, strerror(-fd),
			      fd == -EPERM || fd == -EACCES ?
			      " (kernel.dmesg_restrict: run as root)" : "");
		return fd;
	}
	ret = ks_log_digest_feed(d, ks_kmsg_walk, &fd);
	close(fd);
	if (ret && ret != -ENOMEM)
		ks_triage_why(why, "reading %s: %s", KS_KMSG, strerror(-ret));
	return ret;
}
