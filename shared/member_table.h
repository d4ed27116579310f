/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Member offsets looked up from a table, for walkers that keep their own
 * small layout (kprobes, ftrace): one loop, one message for what is missing.
 */
#ifndef KS_MEMBER_TABLE_H
#define KS_MEMBER_TABLE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "target.h"

struct ks_member_spec {
	long *dst;		/* receives the offset, or -1 when absent */
	const char *type, *member;
	bool optional;		/* absent is not an error */
};

/*
 * Fills every dst.  Returns 0, or -ENOENT after writing to err which
 * required member the kernel's types lack.
 */
int ks_member_table_resolve(const struct ks_target *t,
			    const struct ks_member_spec *specs, size_t nr,
			    FILE *err);

#endif /* KS_MEMBER_TABLE_H */
