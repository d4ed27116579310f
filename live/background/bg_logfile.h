/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The detached sampler's log lines: DIR/kstack.log, appended one line at
 * a time like the samples (relative to DIR's fd, never through a link,
 * 0600) and rotated like them, to kstack.log-EPOCH.gz, with -m and -n.
 */
#ifndef KS_BG_LOGFILE_H
#define KS_BG_LOGFILE_H

#include <stdbool.h>

#include "bg_log.h"
#include "rotate.h"

#define KS_LOGFILE_NAME	"kstack.log"

struct ks_logfile {
	struct ks_rotate rot;	/* dirfd, name, limits */
	bool no_rotation;	/* -m 0 or -n 0 */
	int err;		/* the last write error, for the end of the run */
};

/* The rotation of a killed run finished, then the old log archived. */
int ks_logfile_init(struct ks_logfile *lf, const struct ks_rotate *samples,
		    bool no_rotation);
/* A ks_log_sink_fn; ctx is the struct ks_logfile. */
void ks_logfile_sink(enum ks_log_level level, const char *msg,
		     const char *line, size_t len, void *ctx);

#endif /* KS_BG_LOGFILE_H */
