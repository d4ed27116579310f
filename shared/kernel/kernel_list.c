// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ks_list_walk() is the one list walk of list_walk.c (a set of the nodes
 * seen, so a loop ends the walk at its first repeated node and fn sees
 * each node once) behind this interface: fn's arguments in this order,
 * and the way the walk ended as an errno.
 */
#include <errno.h>

#include "kernel_list.h"
#include "list_walk.h"

struct call {
	int (*fn)(uint64_t node, void *arg);
	void *arg;
	int ret;
};

static int call_fn(void *arg, uint64_t node)
{
	struct call *c = arg;

	c->ret = c->fn(node, c->arg);
	return c->ret ? -ECANCELED : 0;
}

int ks_list_walk(const struct ks_target *t, uint64_t head, size_t max,
		 int (*fn)(uint64_t node, void *arg), void *arg)
{
	struct ks_list_state w = { .t = t, .max = max };
	struct call c = { fn, arg, 0 };
	int ret = ks_list_for_each(&w, head, call_fn, &c);

	if (c.ret)
		return c.ret;
	if (ret)
		return ret;
	switch (w.stop) {
	case KS_LIST_END:
		return 0;
	case KS_LIST_LOOP:
	case KS_LIST_LONG:
		return -ELOOP;
	default:
		return -EFAULT;
	}
}
