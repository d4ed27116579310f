// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Loops are found with Brent's algorithm: it needs no memory, and a loop
 * is caught within about twice its length plus the tail before it, so a
 * corrupt list costs a few reads more than its real length, never a hang.
 */
#include <errno.h>

#include "kernel_list.h"

int ks_list_walk(const struct ks_target *t, uint64_t head, size_t max,
		 int (*fn)(uint64_t node, void *arg), void *arg)
{
	uint64_t node, mark;
	size_t n = 0, power = 1, lam = 0;
	int ret;

	if (ks_read_u64(t, head, &node))
		return -EFAULT;
	mark = node;
	while (node != head) {
		if (!node)
			return -EFAULT;
		if (n++ >= max)
			return -ELOOP;
		ret = fn(node, arg);
		if (ret)
			return ret;
		if (ks_read_u64(t, node, &node))
			return -EFAULT;
		if (node == mark && node != head)
			return -ELOOP;
		if (++lam == power) {
			mark = node;
			power *= 2;
			lam = 0;
		}
	}
	return 0;
}
