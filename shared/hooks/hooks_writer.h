/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The one report writer of -K and -F: the kernel-format lines of the
 * records, the "== summary" computed from them alone (the same line live
 * and from memory), and the sections only memory answers ("== hook
 * owners", -v per-probe detail and "== ftrace_ops").  It reads no kernel
 * memory: records come from the walkers or the parsers, and addresses are
 * named through the target's symbols (%pS).
 */
#ifndef KS_HOOKS_WRITER_H
#define KS_HOOKS_WRITER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "hooks_records.h"
#include "target.h"

/*
 * The section that follows the kernel-format lines, headed "== summary":
 * counts and owner modules, computed from the records alone so that the
 * live tool and the crash command print the same line.
 */
void ks_kprobe_summary(FILE *out, const struct ks_kprobe_list *l);

/* Names in the order first seen (fields private to hooks_writer.c). */
struct ks_name_set {
	char **v;
	size_t n, cap;
	size_t last;		/* the last one found: records come in runs */
};

/*
 * The -F summary counted one record at a time, for callers that print
 * each record as it comes and keep none: zero-initialize, add every
 * record, print, free.
 */
struct ks_ftrace_stats {
	size_t n, regs, ipmodify, direct, tramp;
	struct ks_name_set patched, handlers, handler_mods;
};

void ks_ftrace_stats_add(struct ks_ftrace_stats *s,
			 const struct ks_ftrace_rec *r);
void ks_ftrace_stats_print(FILE *out, const struct ks_ftrace_stats *s);
void ks_ftrace_stats_free(struct ks_ftrace_stats *s);

/* -v detail of one probe (crash side), four spaces indented. */
void ks_kprobe_print_detail(FILE *out, const struct ks_target *t,
			    const struct ks_kprobe *p);

/* Print every record, one kernel-format line each. */
void ks_kprobe_print_all(FILE *out, const struct ks_target *t,
			 const struct ks_kprobe_list *l, bool verbose);

/* ftrace_ops.flags as "ENABLED|DYNAMIC|...". */
void ks_ftrace_ops_flags_str(uint64_t flags, char *buf, size_t len);
/* -v: "== ftrace_ops", every ops with its filter and notrace ips. */
void ks_ftrace_ops_print(FILE *out, const struct ks_target *t,
			 const struct ks_ftrace_ops_list *l);
/*
 * Modules owning ops handlers and direct-call trampolines (the records'
 * direct-call targets, in record order), for the memory-only "== hook
 * owners" section.
 */
void ks_ftrace_ops_owners_direct(FILE *out, const struct ks_target *t,
				 const struct ks_ftrace_ops_list *l,
				 const uint64_t *direct, size_t nr_direct);
void ks_kprobe_owners(FILE *out, const struct ks_target *t,
		      const struct ks_kprobe_list *l);

/*
 * -K from memory after the walk: the lines (with -v their detail),
 * "== summary", "== kprobes enabled" (enabled as ks_kprobes_enabled()
 * gave it) and "== hook owners".
 */
void ks_kprobe_write(FILE *out, const struct ks_target *t,
		     const struct ks_kprobe_list *l, int enabled, bool verbose);

/*
 * -F from memory, one record at a time: each record is printed as the
 * walk hands it over and then dropped (a kernel tracing every function
 * has tens of thousands); only the summary counts and the direct-call
 * targets are kept for the sections after the lines.
 */
struct ks_ftrace_writer {
	FILE *out;
	char *line;
	struct ks_ftrace_stats stats;
	uint64_t *direct;	/* direct-call targets, in record order */
	size_t nr_direct, cap_direct;
};

/* 0, or -ENOMEM. */
int ks_ftrace_writer_init(struct ks_ftrace_writer *w, FILE *out);
/* A ks_ftrace_rec_fn: arg is the writer.  0, or -ENOMEM. */
int ks_ftrace_writer_rec(void *arg, const struct ks_ftrace_rec *r);
/*
 * After the last record: "== summary", "== current_tracer" (tracer, or
 * NULL for unknown), "== hook owners" and with verbose "== ftrace_ops".
 */
void ks_ftrace_writer_end(struct ks_ftrace_writer *w,
			  const struct ks_target *t,
			  const struct ks_ftrace_ops_list *ops,
			  const char *tracer, bool verbose);
void ks_ftrace_writer_free(struct ks_ftrace_writer *w);

#endif /* KS_HOOKS_WRITER_H */
