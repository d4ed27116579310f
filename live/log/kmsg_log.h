/* SPDX-License-Identifier: GPL-2.0-or-later */
/* kstack --log: the running kernel's log from /dev/kmsg. */
#ifndef KS_KMSG_LOG_H
#define KS_KMSG_LOG_H

#include "options.h"

/* Prints every record /dev/kmsg has now; returns the exit status. */
int ks_kmsg_log_run(const struct ks_options *opts);

#endif /* KS_KMSG_LOG_H */
