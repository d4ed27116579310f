/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel log of an image: the lockless printk ring buffer of Linux
 * 5.10 and later (kernel/printk/printk_ringbuffer.[ch]), read through a
 * struct ks_target.  The walk returns each record it can read, oldest
 * first, and counts what it could not read; it never prints.
 */
#ifndef KS_PRINTK_RING_H
#define KS_PRINTK_RING_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "target.h"

/* printk_info's caller_id: the top bit says a CPU, else a task's PID */
#define KS_LOG_CALLER_CPU	0x80000000u

/* One record as printk_info and its text block hold it. */
struct ks_log_record {
	uint64_t seq;
	uint64_t ts_nsec;
	uint32_t caller_id;
	bool has_caller;	/* /dev/kmsg says it only with CONFIG_PRINTK_CALLER */
	uint8_t level;		/* 0..7 */
	uint8_t facility;
	uint8_t flags;		/* LOG_NEWLINE, LOG_CONT */
	const char *text;	/* text_len bytes, not NUL-terminated */
	size_t text_len;
	const char *subsystem;	/* "" when the record has none */
	const char *device;
	/*
	 * A line still in a per-CPU buffer of printk_safe.c (5.10 to 5.14),
	 * never flushed into the ring: its buffer's name (a static string,
	 * "nmi_print_seq" or "safe_print_seq"), else NULL for the ring's.
	 * Such a line has no seq, time nor caller.
	 */
	const char *buffer;
	unsigned int cpu;	/* the CPU whose buffer holds it */
	int message_lost;	/* the buffer's count of messages it dropped */
	bool headed;		/* began with KERN_SOH: crash indents one that did not */
	char header;		/* the byte after KERN_SOH ('0'..'7', 'c'), '\0' none */
};

/* What the walk could not read, counted; said once per kind by the walk. */
struct ks_log_trouble {
	unsigned long reserved;		/* records still being written */
	unsigned long lost_ranges;	/* gaps in seq ... */
	unsigned long lost_records;	/* ... and the records in them */
	unsigned long unreadable;	/* records whose memory is not in the image */
	unsigned long bad;		/* records whose text block is not valid */
};

/* Called for each record; a non-zero return stops the walk with it. */
typedef int ks_log_record_fn(void *arg, const struct ks_log_record *rec);

/*
 * Walks the ring that SYMBOL(prb) points to, from tail_id to head_id,
 * handing each readable record to fn.  The layout comes from VMCOREINFO
 * where the target has it, else from the target's types.  Returns 0, fn's
 * non-zero value, or a negative errno after one line through rep when
 * the ring itself cannot be found or read.
 */
int ks_printk_ring_walk(const struct ks_target *t, ks_log_record_fn *fn,
			void *arg, struct ks_log_trouble *trouble,
			const struct ks_reporter *rep);

#endif /* KS_PRINTK_RING_H */
