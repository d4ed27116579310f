/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One record of /dev/kmsg (Documentation/ABI/testing/dev-kmsg) as the
 * record the dump's ring gives (printk_ring.h), so that --log writes the
 * two alike.
 */
#ifndef KS_KMSG_PARSE_H
#define KS_KMSG_PARSE_H

#include <stddef.h>

#include "printk_ring.h"

struct ks_kmsg_record {
	struct ks_log_record rec;	/* its strings point into the fields below */
	char text[8192];
	char subsystem[64];
	char device[64];
};

/*
 * "PRIO,SEQ,TS_USEC,FLAGS[,caller=T1];TEXT\n" and its " KEY=VALUE" lines,
 * len bytes as one read() gave them, into out (the text unescaped: the
 * kernel writes \xNN for a control byte).  -EINVAL for a record of
 * another form.
 */
int ks_kmsg_parse(const char *buf, size_t len, struct ks_kmsg_record *out);

#endif /* KS_KMSG_PARSE_H */
