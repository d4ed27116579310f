/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The hook records: one kprobes/list line (struct ks_kprobe), one
 * enabled_functions record (struct ks_ftrace_rec), one ftrace_ops, and
 * the growable lists of them.  The parsers and the walkers fill them, the
 * kernel-format printer and the report writer read them; this file knows
 * none of those.
 */
#ifndef KS_HOOKS_RECORDS_H
#define KS_HOOKS_RECORDS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* KSYM_NAME_LEN of 6.1 is 512; a %pS text adds offset, size and module. */
#define KS_HOOK_NAME_LEN	512
#define KS_HOOK_MOD_LEN		64
#define KS_HOOK_TEXT_LEN	(KS_HOOK_NAME_LEN + KS_HOOK_MOD_LEN + 48)
/* a trace event's system or name: MAX_EVENT_NAME_LEN (64), with room */
#define KS_KPROBE_EVENT_PART	128

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
	KS_CODE_BRK,		/* arm64 brk #KPROBES_BRK_IMM: a plain kprobe */
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
	uint8_t code_len;	/* how many of them -v prints: 5 (x86), 4 (arm64) */
	/*
	 * kprobe.opcode, the saved instruction: kprobe_opcode_t is x86's
	 * first byte (u8), arm64's whole instruction (u32)
	 */
	uint32_t opcode;
	uint8_t opcode_size;
	bool code_checked;	/* expected code was computed */
	bool code_in_place;
	const char *error;	/* a static reason the probe is only partly known */
	/*
	 * The trace event the probe serves, as kprobe_events names it
	 * ("p:kprobes/kstack_open"), "" for a probe no event made.
	 */
	char event[2 * KS_KPROBE_EVENT_PART + 24];
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
	/*
	 * CALL_OPS_EN (6.3+, arm64's DYNAMIC_FTRACE_WITH_CALL_OPS): the
	 * call site's own ops, "\tops: %pS (%pS)" (call_ops_text's tramp
	 * and func), or "\tops: ERROR!" when no single ops traces it.
	 */
	bool call_ops_en, call_ops_error;

	char func[KS_HOOK_NAME_LEN];
	char module[KS_HOOK_MOD_LEN];	/* "" for vmlinux */
	char target[KS_HOOK_TEXT_LEN];	/* " ->%pS" without TRAMP_EN */
	char direct_to[KS_HOOK_TEXT_LEN]; /* "\n\tdirect-->%pS", "" for none */
	struct ks_ftrace_tramp call_ops_text;	/* target unused */
	/* only the first nr_tramps are set */
	struct ks_ftrace_tramp tramps[KS_FTRACE_MAX_TRAMPS];
};

/* An empty record, as after memset 0, at the cost of its numbers alone. */
void ks_ftrace_rec_clear(struct ks_ftrace_rec *r);

/* Growable arrays of records; each *_add() returns a zeroed slot or NULL. */
struct ks_kprobe_list {
	struct ks_kprobe *v;
	size_t n, cap;
	size_t unparsed;	/* live: lines kept verbatim in raw */
};

struct ks_kprobe *ks_kprobe_list_add(struct ks_kprobe_list *l);
void ks_kprobe_list_free(struct ks_kprobe_list *l);

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

struct ks_ftrace_ops *ks_ftrace_ops_list_add(struct ks_ftrace_ops_list *l);
void ks_ftrace_ops_list_free(struct ks_ftrace_ops_list *l);

#endif /* KS_HOOKS_RECORDS_H */
