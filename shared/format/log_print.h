/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --log of an image, the same for --vmcore and crash: the printk ring
 * walked (shared/kernel/log/printk_ring.c), then the lines left in the
 * printk_safe buffers (printk_safe.c), and written (format_log.c).
 */
#ifndef KS_LOG_PRINT_H
#define KS_LOG_PRINT_H

#include <stdbool.h>
#include <stdio.h>

#include "report.h"
#include "target.h"

/*
 * Writes t's kernel log to out, as text or JSON Lines; what could not be
 * read is said through rep and, with json, on the last line.  Returns
 * 0, or a negative errno (the ring unreadable, a write failed).
 */
int ks_log_print(const struct ks_target *t, FILE *out, bool json,
		 const struct ks_reporter *rep);

#endif /* KS_LOG_PRINT_H */
