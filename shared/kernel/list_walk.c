// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The bounded, loop-checked list walks of list_walk.h.  A loop is found
 * by remembering every node (a hash set: linear in the list's length,
 * where comparing with the nodes so far would be quadratic), and a list
 * that is long without looping is stopped by the caller's bound.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "arch.h"
#include "list_walk.h"

static uint64_t hash64(uint64_t v)
{
	v ^= v >> 33;
	v *= 0xff51afd7ed558ccdULL;
	v ^= v >> 33;
	return v;
}

int ks_seen_add(struct ks_seen *s, uint64_t addr)
{
	size_t i;

	if ((s->nr + 1) * 2 > s->cap) {
		struct ks_seen n = { .cap = s->cap ? s->cap * 2 : 1024 };

		n.slot = calloc(n.cap, sizeof(*n.slot));
		if (!n.slot)
			return -ENOMEM;
		for (i = 0; i < s->cap; i++)
			if (s->slot[i])
				ks_seen_add(&n, s->slot[i]);
		free(s->slot);
		*s = n;
	}
	for (i = hash64(addr) & (s->cap - 1); s->slot[i];
	     i = (i + 1) & (s->cap - 1))
		if (s->slot[i] == addr)
			return 1;
	s->slot[i] = addr;
	s->nr++;
	return 0;
}

void ks_seen_release(struct ks_seen *s)
{
	free(s->slot);
	s->slot = NULL;
	s->cap = s->nr = 0;
}

/*
 * One step onto node: 1 when the walk must stop there (w->stop says
 * why), 0 after fn, or fn's negative value or -ENOMEM.
 */
static int visit(struct ks_list_state *w, struct ks_seen *seen, uint64_t node,
		 ks_list_fn fn, void *arg)
{
	int ret;

	/* NULL, a poison value or a user address: not a kernel node */
	if (node < w->kernel_start) {
		w->stop = KS_LIST_BAD_LINK;
		w->bad = node;
		return 1;
	}
	ret = ks_seen_add(seen, node);
	if (ret < 0)
		return ret;
	if (ret || w->count >= w->max) {
		w->stop = ret ? KS_LIST_LOOP : KS_LIST_LONG;
		w->bad = node;
		return 1;
	}
	ret = fn(arg, node);
	if (ret < 0)
		return ret;
	w->count++;
	w->last = node;
	return 0;
}

/* Reads the next link at addr; 1 (stop) when it cannot be read. */
static int next_of(struct ks_list_state *w, uint64_t addr, uint64_t *next)
{
	if (!ks_read_u64(w->t, addr, next))
		return 0;
	w->stop = KS_LIST_UNREADABLE;
	w->bad = addr;
	return 1;
}

uint64_t ks_kernel_start(const struct ks_target *t)
{
	return t->arch ? t->arch->kernel_start : KS_KERNEL_HALF;
}

static void walk_init(struct ks_list_state *w, uint64_t start)
{
	w->kernel_start = ks_kernel_start(w->t);
	w->stop = KS_LIST_END;
	w->count = 0;
	w->last = start;
	w->bad = 0;
}

int ks_list_for_each(struct ks_list_state *w, uint64_t head, ks_list_fn fn,
		     void *arg)
{
	struct ks_seen own = { 0 }, *seen = w->seen ? w->seen : &own;
	uint64_t node;
	int ret;

	walk_init(w, head);
	ret = next_of(w, head, &node);
	while (!ret && node != head) {
		ret = visit(w, seen, node, fn, arg);
		if (!ret)
			ret = next_of(w, node, &node);
	}
	ks_seen_release(&own);
	return ret < 0 ? ret : 0;
}

int ks_chain_for_each(struct ks_list_state *w, uint64_t first, long next_off,
		      ks_list_fn fn, void *arg)
{
	struct ks_seen own = { 0 }, *seen = w->seen ? w->seen : &own;
	uint64_t node = first;
	int ret = 0;

	walk_init(w, first);
	while (!ret && node) {
		ret = visit(w, seen, node, fn, arg);
		if (!ret)
			ret = next_of(w, node + (uint64_t)next_off, &node);
	}
	ks_seen_release(&own);
	return ret < 0 ? ret : 0;
}

void ks_list_stop_say(const struct ks_reporter *rep,
		      const struct ks_list_state *w, const char *what)
{
	unsigned long long last = w->last, bad = w->bad;

	switch (w->stop) {
	case KS_LIST_END:
		break;
	case KS_LIST_LOOP:
		ks_say(rep, KS_WARN, "%s loops at %#llx after %zu entries; "
		       "the rest of it is not read", what, bad, w->count);
		break;
	case KS_LIST_LONG:
		ks_say(rep, KS_WARN, "%s has more than %zu entries; the rest "
		       "of it is not read", what, w->max);
		break;
	case KS_LIST_UNREADABLE:
		ks_say(rep, KS_WARN, "%s breaks off after %#llx: its link at "
		       "%#llx cannot be read; the rest of it is not read",
		       what, last, bad);
		break;
	case KS_LIST_BAD_LINK:
		ks_say(rep, KS_WARN, "%s breaks off after %#llx: its link "
		       "%#llx is not a kernel address; the rest of it is "
		       "not read", what, last, bad);
		break;
	}
}
