/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The panic's message, from the kernel log: the last "Kernel panic - not
 * syncing: ..." record, or, in a log without one, its last "BUG: ..." or
 * "Oops: ..." record.  Read through the printk ring's walker, so it is
 * there wherever --log is.
 */
#ifndef KS_PANIC_MESSAGE_H
#define KS_PANIC_MESSAGE_H

#include <stddef.h>

#include "report.h"
#include "target.h"

/*
 * The message into buf (cap bytes, NUL-terminated); 0, -ENOENT when the
 * log has no such record, or the walk's negative errno (said through
 * report).
 */
int ks_panic_message(const struct ks_target *t, char *buf, size_t cap,
		     const struct ks_reporter *rep);

#endif /* KS_PANIC_MESSAGE_H */
