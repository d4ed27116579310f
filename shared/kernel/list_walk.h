/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Following linked lists in kernel memory that may be corrupt.  The
 * kernel trusts its lists; a dump cannot: a node may point back at an
 * earlier one (the walk would never end), at garbage or at memory the
 * image lacks.  Every walker of a kernel list goes through here, so each
 * stops the same way: at a node seen before, past a bound, or at a link
 * that is not a readable kernel address, keeping the nodes before it.
 */
#ifndef KS_LIST_WALK_H
#define KS_LIST_WALK_H

#include <stddef.h>
#include <stdint.h>

#include "report.h"
#include "target.h"

/* The top half of the address space is the kernel's (x86_64). */
#define KS_KERNEL_HALF	0xffff800000000000ULL

/*
 * The lowest kernel address of t's architecture (its struct ks_arch's
 * kernel_start: arm64's TTBR1 half begins below x86_64's); x86_64's half
 * for a target that names no architecture known here.
 */
uint64_t ks_kernel_start(const struct ks_target *t);

/* A set of node addresses (open addressing), for loop detection. */
struct ks_seen {
	uint64_t *slot;
	size_t cap, nr;
};

/* Adds addr (not 0); returns 1 if it was there already, 0 if new, -ENOMEM. */
int ks_seen_add(struct ks_seen *s, uint64_t addr);
void ks_seen_release(struct ks_seen *s);

enum ks_list_stop {
	KS_LIST_END,		/* back at the head (or at NULL for a chain) */
	KS_LIST_LOOP,		/* at a node seen before */
	KS_LIST_LONG,		/* more nodes than max */
	KS_LIST_UNREADABLE,	/* a link that cannot be read */
	KS_LIST_BAD_LINK,	/* a link that is not a kernel address */
};

struct ks_list_state {
	/* in */
	const struct ks_target *t;
	size_t max;		/* nodes at most */
	struct ks_seen *seen;	/* shared by several walks, or NULL for its own */
	/* out */
	enum ks_list_stop stop;
	size_t count;		/* nodes passed to fn */
	uint64_t last;		/* the last of them, or where the walk began */
	/*
	 * The node seen before (LOOP, LONG), the address of the link that
	 * cannot be read (UNREADABLE) or the link's value (BAD_LINK).
	 */
	uint64_t bad;
	/* private: ks_kernel_start() of t, taken when a walk begins */
	uint64_t kernel_start;
};

/* Called for each node; a negative return ends the walk with that value. */
typedef int (*ks_list_fn)(void *arg, uint64_t node);

/*
 * list_for_each(): fn for each node of the circular list whose head is
 * at head (a struct list_head; next is its first word), not for head.
 * Returns 0 with w->stop saying how it ended, or fn's negative value,
 * or -ENOMEM.
 */
int ks_list_for_each(struct ks_list_state *w, uint64_t head, ks_list_fn fn,
		     void *arg);

/*
 * A NULL-terminated chain: fn for first and each node after it, the next
 * one read at node + next_off.  Same returns as ks_list_for_each().
 */
int ks_chain_for_each(struct ks_list_state *w, uint64_t first, long next_off,
		      ks_list_fn fn, void *arg);

/*
 * Says through rep how w ended early: "what loops at ADDR after N
 * entries; the rest of it is not read", or the like for the other ends;
 * nothing for KS_LIST_END.
 */
void ks_list_stop_say(const struct ks_reporter *rep,
		      const struct ks_list_state *w, const char *what);

#endif /* KS_LIST_WALK_H */
