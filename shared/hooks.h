/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Who hooked the kernel: kprobes and ftrace records, shared by both halves.
 *
 * The live tool parses /sys/kernel/debug/kprobes/list and
 * /sys/kernel/tracing/enabled_functions into these records; the crash
 * extension computes the same records from kernel memory.  One formatter
 * prints both, so the two outputs agree by construction.  The line formats
 * are the kernel's own (Linux 6.1 kernel/kprobes.c report_probe() and
 * kernel/trace/ftrace.c t_show()), trailing spaces included.
 *
 * What -K and -F print, in this order, so that the first part can be
 * compared line for line with the kernel's files:
 *   the kernel-format lines (kprobes/list, or enabled_functions);
 *   "== summary", one line computed from those records alone (the same
 *      line live and from a vmcore);
 *   -K: "== kprobes enabled" (debugfs kprobes/enabled, or
 *      !kprobes_all_disarmed in memory);
 *   live only: "== kprobe_events" / "== current_tracer",
 *      "== set_ftrace_filter", "== set_ftrace_notrace" as tracefs has them;
 *   from memory only: "== current_tracer", "== hook owners" (the modules
 *      owning handlers: what stands out when a module is unexpected),
 *      -v: per-probe handlers, nmissed and code, and "== ftrace_ops".
 */
#ifndef KS_HOOKS_H
#define KS_HOOKS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "symbolize.h"
#include "target.h"

/* KSYM_NAME_LEN of 6.1 is 512; a %pS text adds offset, size and module. */
#define KS_HOOK_NAME_LEN	512
#define KS_HOOK_MOD_LEN		64
#define KS_HOOK_TEXT_LEN	(KS_HOOK_NAME_LEN + KS_HOOK_MOD_LEN + 48)

/* struct kprobe.flags (include/linux/kprobes.h, unchanged since 4.x). */
#define KS_KPROBE_FL_GONE	1u
#define KS_KPROBE_FL_DISABLED	2u
#define KS_KPROBE_FL_OPTIMIZED	4u
#define KS_KPROBE_FL_FTRACE	8u

/* What is written at a probed address, as the crash side reads it. */
enum ks_kprobe_code {
	KS_CODE_UNKNOWN,	/* not read (live) or unreadable */
	KS_CODE_INT3,		/* cc: a plain kprobe */
	KS_CODE_JMP,		/* e9: an optimized kprobe */
	KS_CODE_CALL,		/* e8: an ftrace call (kprobe on an ftrace site) */
	KS_CODE_FTRACE_NOP,	/* 0f 1f 44 00 00: an idle ftrace site */
	KS_CODE_OTHER,		/* anything else: the original instruction */
};

/* One line of kprobes/list: one real probe (aggregators are unfolded). */
struct ks_kprobe {
	uint64_t addr;		/* p->addr, printed with %px */
	char type;		/* 'k', or 'r' for a kretprobe */
	bool has_sym;		/* kallsyms knew the address */
	char sym[KS_HOOK_NAME_LEN];
	uint64_t offset;
	char module[KS_HOOK_MOD_LEN];	/* "" for vmlinux */
	unsigned int flags;	/* GONE / DISABLED, of the probe itself */
	unsigned int aggr_flags; /* OPTIMIZED / FTRACE, of its aggregator */

	/* Known to the crash side only (valid when "detailed" is set). */
	bool detailed;
	uint64_t kaddr;		/* the struct kprobe */
	uint64_t aggr_kaddr;	/* its aggregator, 0 when not aggregated */
	uint64_t pre_handler, post_handler;
	uint64_t ret_handler, entry_handler;	/* kretprobe only */
	uint64_t nmissed;
	enum ks_kprobe_code code;
	uint8_t bytes[8];	/* at addr, as read */
	uint8_t opcode;		/* kprobe.opcode: the saved first byte */
	bool code_checked;	/* expected code was computed */
	bool code_in_place;
	const char *error;	/* a static reason the probe is only partly known */
};

/* At most this many trampolines per record (t_show walks every ops). */
#define KS_FTRACE_MAX_TRAMPS	8

struct ks_ftrace_tramp {
	char tramp[KS_HOOK_TEXT_LEN];	/* %pS of ops->trampoline */
	char func[KS_HOOK_TEXT_LEN];	/* %pS of ops->func */
	char target[KS_HOOK_TEXT_LEN];	/* %pS after " ->", "" for none */
};

/*
 * One enabled dyn_ftrace record: one line of enabled_functions.  About
 * 17 KB, nearly all of it text: a kernel tracing every function has some
 * 60,000 records, so the walkers and the live reader fill one record at a
 * time and hand it over (ks_ftrace_walk_each(), ks_ftrace_stats); lists of
 * them are for small sets.  The numbers come first so that
 * ks_ftrace_rec_clear() resets a record without touching its texts.
 */
struct ks_ftrace_rec {
	uint64_t ip;		/* crash side only; 0 when parsed */
	uint64_t direct_addr;	/* crash side: the direct call's target */
	long refcount;
	size_t nr_tramps;
	/*
	 * Linux 6.4 added two columns after " D": " O" (CALL_OPS, 6.3) and
	 * " M " (MODIFIED).  columns is 3 (6.1) or 5 (6.4+); 0 reads as 3.
	 */
	int columns;
	bool invalid;		/* print_rec() failed: the name only */
	bool regs, ipmodify, direct;
	bool call_ops, modified;
	bool tramp_en;
	bool tramp_error;	/* "\ttramp: ERROR!" */

	char func[KS_HOOK_NAME_LEN];
	char module[KS_HOOK_MOD_LEN];	/* "" for vmlinux */
	char target[KS_HOOK_TEXT_LEN];	/* " ->%pS" without TRAMP_EN */
	char direct_to[KS_HOOK_TEXT_LEN]; /* "\n\tdirect-->%pS", "" for none */
	/* only the first nr_tramps are set */
	struct ks_ftrace_tramp tramps[KS_FTRACE_MAX_TRAMPS];
};

/* Room for any record ks_ftrace_format() prints. */
#define KS_FTRACE_LINE_MAX	(sizeof(struct ks_ftrace_rec) + 256)

/* An empty record, as after memset 0, at the cost of its numbers alone. */
void ks_ftrace_rec_clear(struct ks_ftrace_rec *r);

/* A growable array of records; free with ks_hooks_list_free(). */
struct ks_kprobe_list {
	struct ks_kprobe *v;
	size_t n, cap;
	size_t unparsed;	/* live: lines kept verbatim in raw */
};

struct ks_ftrace_list {
	struct ks_ftrace_rec *v;
	size_t n, cap;
};

struct ks_kprobe *ks_kprobe_list_add(struct ks_kprobe_list *l);
struct ks_ftrace_rec *ks_ftrace_list_add(struct ks_ftrace_list *l);
void ks_kprobe_list_free(struct ks_kprobe_list *l);
void ks_ftrace_list_free(struct ks_ftrace_list *l);

/* ------------------------------------------------------------ formatting */

/*
 * The line report_probe() prints, without the newline.  Returns the
 * length of the whole text like snprintf.
 */
int ks_kprobe_format(const struct ks_kprobe *p, char *buf, size_t len);

/*
 * The text t_show() prints for one record, without the final newline (a
 * direct call adds an inner "\n\tdirect-->..." line).  Returns the length
 * like snprintf.
 */
int ks_ftrace_format(const struct ks_ftrace_rec *r, char *buf, size_t len);

/* Parse one line; 0, or -EINVAL when it is not in the kernel's format. */
int ks_kprobe_parse(const char *line, struct ks_kprobe *p);
/*
 * Parse one record: line is the record line, and direct_line the next
 * line when it starts with "\tdirect-->" (else NULL).
 */
int ks_ftrace_parse(const char *line, const char *direct_line,
		    struct ks_ftrace_rec *r);

/*
 * The section that follows the kernel-format lines, headed "== summary":
 * counts and owner modules, computed from the records alone so that the
 * live tool and the crash command print the same line.
 */
void ks_kprobe_summary(FILE *out, const struct ks_kprobe_list *l);
void ks_ftrace_summary(FILE *out, const struct ks_ftrace_list *l);

/* Names in the order first seen (fields private to hooks_format.c). */
struct ks_name_set {
	char **v;
	size_t n, cap;
	size_t last;		/* the last one found: records come in runs */
};

/*
 * The -F summary counted one record at a time, for callers that print
 * each record as it comes and keep none: zero-initialize, add every
 * record, print, free.  ks_ftrace_summary() is this over a list.
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
void ks_ftrace_print_all(FILE *out, const struct ks_ftrace_list *l);

/* ------------------------------------------------------------ walkers */

/* Offsets and addresses the kprobe walker needs, filled once. */
int ks_kprobe_walk(const struct ks_target *t, struct ks_kprobe_list *out,
		   FILE *err);
/* kprobes_all_disarmed read from memory: 1 armed, 0 disarmed, <0 error. */
int ks_kprobes_enabled(const struct ks_target *t);

/* One ftrace_ops on ftrace_ops_list, for -F -v. */
struct ks_ftrace_ops {
	uint64_t kaddr;
	uint64_t func, flags, trampoline, trampoline_size, private_data;
	uint64_t saved_func;
	uint64_t filter_hash, notrace_hash;	/* struct ftrace_hash * */
	uint64_t *filter, *notrace;	/* the ips, malloc'ed */
	size_t nr_filter, nr_notrace;
	bool filter_err, notrace_err;
	const char *error;
};

struct ks_ftrace_ops_list {
	struct ks_ftrace_ops *v;
	size_t n, cap;
	const char *error;	/* the list ended early: why */
};

void ks_ftrace_ops_list_free(struct ks_ftrace_ops_list *l);
int ks_ftrace_ops_walk(const struct ks_target *t,
		       struct ks_ftrace_ops_list *out, FILE *err);
/*
 * The enabled records from ftrace_pages_start (touched: the records
 * touched_functions lists, see below), in the kernel's order; ops is the
 * walked ftrace_ops_list.  fn gets each record, which is the walker's and
 * lives until fn returns; a non-zero return stops the walk and is
 * returned.  Memory does not grow with the records.
 */
typedef int (*ks_ftrace_rec_fn)(void *arg, const struct ks_ftrace_rec *r);
int ks_ftrace_walk_each(const struct ks_target *t,
			const struct ks_ftrace_ops_list *ops, bool touched,
			ks_ftrace_rec_fn fn, void *arg, FILE *err);
/* The same into a list (a copy of every record: small sets only). */
int ks_ftrace_walk(const struct ks_target *t,
		   const struct ks_ftrace_ops_list *ops,
		   struct ks_ftrace_list *out, FILE *err);
/*
 * The records touched_functions lists (6.4+, FTRACE_FL_TOUCHED: patched
 * by any ftrace user since boot, even one that has gone); -EOPNOTSUPP on
 * a kernel without the flag.
 */
int ks_ftrace_walk_touched(const struct ks_target *t,
			   const struct ks_ftrace_ops_list *ops,
			   struct ks_ftrace_list *out, FILE *err);
/* ftrace_ops.flags as "ENABLED|DYNAMIC|...". */
void ks_ftrace_ops_flags_str(uint64_t flags, char *buf, size_t len);
void ks_ftrace_ops_print(FILE *out, const struct ks_target *t,
			 const struct ks_ftrace_ops_list *l);
/*
 * Modules owning ops handlers and direct-call trampolines, for the
 * crash-only "== hook owners" section.
 */
void ks_ftrace_ops_owners(FILE *out, const struct ks_target *t,
			  const struct ks_ftrace_ops_list *l,
			  const struct ks_ftrace_list *recs);
/* The same with the records' direct-call targets alone, in record order. */
void ks_ftrace_ops_owners_direct(FILE *out, const struct ks_target *t,
				 const struct ks_ftrace_ops_list *l,
				 const uint64_t *direct, size_t nr_direct);
void ks_kprobe_owners(FILE *out, const struct ks_target *t,
		      const struct ks_kprobe_list *l);

/*
 * -K and/or -F of a kernel image (crash, or a vmcore opened without it):
 * the kernel-format lines, "== summary", then the sections only memory
 * answers.  Returns 0, or a negative errno when the walk could not start
 * (err has the reason).
 */
struct ks_options;
int ks_hooks_report(const struct ks_target *t, const struct ks_options *opts,
		    FILE *out, FILE *err);

#endif /* KS_HOOKS_H */
