/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Walking a struct list_head in kernel memory that may be corrupt: a
 * broken link ends the walk with -EFAULT, a loop that does not come back
 * to the head ends it with -ELOOP, and so does a list longer than the
 * caller's bound.  The nodes before the break have been visited.
 */
#ifndef KS_KERNEL_LIST_H
#define KS_KERNEL_LIST_H

#include <stddef.h>
#include <stdint.h>

#include "target.h"

/*
 * Calls fn for the address of every node after head (list_for_each()),
 * at most max times.  fn returns 0 to go on; anything else stops the
 * walk and is returned.
 */
int ks_list_walk(const struct ks_target *t, uint64_t head, size_t max,
		 int (*fn)(uint64_t node, void *arg), void *arg);

#endif /* KS_KERNEL_LIST_H */
