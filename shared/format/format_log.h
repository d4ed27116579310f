/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --log's writer: a record of the kernel log as dmesg prints it, or as
 * one JSON object, the same for a dump's ring and the live /dev/kmsg.
 */
#ifndef KS_FORMAT_LOG_H
#define KS_FORMAT_LOG_H

#include <stdbool.h>
#include <stdio.h>

#include "printk_ring.h"

/*
 * One record: "[%5lu.%06lu] text", or one JSON object; one line each.
 * A line of a printk_safe buffer (rec->buffer) is "[nmi_print_seq] text"
 * as crash's log writes it, or {"buffer": ..., "cpu": ..., "text": ...}.
 */
void ks_format_log_record(FILE *out, bool json, const struct ks_log_record *rec);

/* --json's last line: what could not be read ({"not_read": {...}}). */
void ks_format_log_trouble(FILE *out, bool json,
			   const struct ks_log_trouble *tr);

#endif /* KS_FORMAT_LOG_H */
