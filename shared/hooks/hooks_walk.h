/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hook walkers: kprobes and ftrace read from kernel memory through a
 * struct ks_target, returned as records (shared/hooks/hooks_records.h).  They
 * never print: a problem with one list or structure goes to the caller's
 * reporter, the walk goes on where it can, and the records found
 * are the answer.
 */
#ifndef KS_HOOKS_WALK_H
#define KS_HOOKS_WALK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hooks_records.h"
#include "member_table.h"
#include "report.h"
#include "target.h"

/* ------------------------------------------------------------ kprobes */

/*
 * Every probe on kprobe_table, aggregators unfolded, appended to out.
 * Returns 0 (broken buckets reported and skipped), -ENOENT when the
 * kernel has no kprobes or lacks their types, or -ENOMEM.
 */
int ks_kprobe_walk(const struct ks_target *t, struct ks_kprobe_list *out,
		   const struct ks_reporter *rep);
/*
 * r->event: the trace event (kprobe_events' "p:kprobes/NAME") whose
 * dispatcher is r's handler, or "" (kprobe_event.c).
 */
void ks_kprobe_event(const struct ks_target *t, struct ks_kprobe *r);
/* kprobes_all_disarmed read from memory: 1 armed, 0 disarmed, <0 error. */
int ks_kprobes_enabled(const struct ks_target *t);

/* ------------------------------------------------------------ ftrace */

/* What the ftrace walks need of the kernel's types and symbols. */
struct ks_ftrace_layout {
	uint64_t ops_list, list_end, pages_start, direct_functions;
	uint64_t ftrace_call, ftrace_caller, ftrace_regs_call,
		ftrace_regs_caller;
	struct ks_field ops_func, ops_next, ops_flags, ops_private,
		ops_saved_func, ops_func_hash, ops_tramp, ops_tramp_size;
	struct ks_field oh_notrace, oh_filter;
	struct ks_field h_size_bits, h_buckets, h_count;
	struct ks_field e_hlist, e_ip, e_direct;
	struct ks_field head_first, node_next;
	struct ks_field pg_next, pg_records, pg_index;
	struct ks_field pg_order;	/* absent before 5.x's ftrace_page.order */
	struct ks_field rec_ip, rec_flags;
	long head_size, rec_size;
	bool layout_6_4;	/* dyn_ftrace flags and columns of 6.4+ */
};

/* One run's ftrace walks: the layout, resolved once, and the reporter. */
struct ks_ftrace_walker {
	const struct ks_target *t;
	const struct ks_reporter *rep;
	struct ks_ftrace_layout l;
};

/*
 * Resolves the layout.  Returns 0, or -ENOENT (reported) when the kernel
 * has no function tracer or lacks its types.
 */
int ks_ftrace_walker_init(struct ks_ftrace_walker *w,
			  const struct ks_target *t,
			  const struct ks_reporter *rep);

/* ftrace_ops_list into out (ops with their filter and notrace ips). */
int ks_ftrace_ops_walk(const struct ks_ftrace_walker *w,
		       struct ks_ftrace_ops_list *out);
/*
 * The enabled records from ftrace_pages_start (touched: the records
 * touched_functions lists, 6.4+, FTRACE_FL_TOUCHED: patched by any
 * ftrace user since boot, even one that has gone; -EOPNOTSUPP on a
 * kernel without the flag), in the kernel's order; ops is the walked
 * ftrace_ops_list.  fn gets each record, which is the walker's and lives
 * until fn returns; a non-zero return stops the walk and is returned.
 * Memory does not grow with the records.
 */
typedef int (*ks_ftrace_rec_fn)(void *arg, const struct ks_ftrace_rec *r);
int ks_ftrace_walk_each(const struct ks_ftrace_walker *w,
			const struct ks_ftrace_ops_list *ops, bool touched,
			ks_ftrace_rec_fn fn, void *arg);

/*
 * global_trace.current_trace->name, what tracefs current_tracer shows:
 * 0 (a name too long for buf is cut), -ENOENT, or -EFAULT.
 */
int ks_ftrace_current_tracer(const struct ks_target *t, char *buf, size_t len);

#endif /* KS_HOOKS_WALK_H */
