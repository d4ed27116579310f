/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ftrace records as a list, for tests: the tool walks and prints
 * them one at a time (ks_ftrace_walk_each(), struct ks_ftrace_writer) and
 * keeps none; a test wants them all at hand.  Built on that same API.
 */
#ifndef KS_FTRACE_LIST_H
#define KS_FTRACE_LIST_H

#include <stdio.h>

#include "hooks.h"

struct ks_ftrace_list {
	struct ks_ftrace_rec *v;
	size_t n, cap;
};

struct ks_ftrace_rec *ks_ftrace_list_add(struct ks_ftrace_list *l);
void ks_ftrace_list_free(struct ks_ftrace_list *l);

/* Every record (touched: touched_functions' set) copied into out. */
int ks_ftrace_walk(const struct ks_ftrace_walker *w,
		   const struct ks_ftrace_ops_list *ops,
		   struct ks_ftrace_list *out);
int ks_ftrace_walk_touched(const struct ks_ftrace_walker *w,
			   const struct ks_ftrace_ops_list *ops,
			   struct ks_ftrace_list *out);

/* The "== summary" of the records, and their kernel-format lines. */
void ks_ftrace_summary(FILE *out, const struct ks_ftrace_list *l);
void ks_ftrace_print_all(FILE *out, const struct ks_ftrace_list *l);
/* The owners of the ops' handlers and of the records' direct calls. */
void ks_ftrace_ops_owners(FILE *out, const struct ks_target *t,
			  const struct ks_ftrace_ops_list *l,
			  const struct ks_ftrace_list *recs);

#endif /* KS_FTRACE_LIST_H */
