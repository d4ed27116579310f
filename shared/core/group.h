/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef KS_GROUP_H
#define KS_GROUP_H

#include <stddef.h>

#include "task.h"

/* Tasks with byte-identical stack text, in the order first seen. */
struct ks_group {
	const char *stack;
	bool missing;		/* the stack is what a cut dump kept of it */
	size_t *members;	/* indexes into the sample's tasks, walk order */
	size_t nr_members;
	size_t cap;
};

struct ks_groups {
	struct ks_group *groups;
	size_t nr_groups;
};

int ks_group_build(const struct ks_sample *s, struct ks_groups *g_ret);
void ks_group_release(struct ks_groups *g);

#endif /* KS_GROUP_H */
