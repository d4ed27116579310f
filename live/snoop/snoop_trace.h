/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text a tracing instance's trace_pipe gives for a kprobe event with
 * a stack trace (options/stacktrace, options/sym-offset), turned into one
 * record per call:
 *
 *             perl-301     [001] .....    52.118934: kstack_290_0: (ksys_sync+0x4/0xa0)
 *             perl-301     [001] .....    52.118940: <stack trace>
 *  => ksys_sync+0x4/0xa0
 *  => __do_sys_sync+0xa/0x20
 *  => do_syscall_64+0x5d/0x90
 *  => entry_SYSCALL_64_after_hwframe+0x6e/0xd8
 *
 * The stack is a second ring-buffer entry that follows the event on the
 * same CPU; another CPU's entries may come in between, so calls wait for
 * their stack by CPU.  Nothing here touches tracefs: live/snoop/snoop.c reads.
 */
#ifndef KS_SNOOP_TRACE_H
#define KS_SNOOP_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "task.h"

/* One call of the traced function. */
struct ks_snoop_rec {
	char comm[KS_COMM_LEN];	/* "<...>" when tracing had not saved it */
	int32_t pid;		/* the thread */
	int cpu;
	uint64_t ts_ns;		/* the instance's trace clock */
	char *stack;		/* "[<0>] sym+0x1/0x2\n" lines, owned, "" if none came */
};

/* Takes the record's stack; the record itself is the parser's. */
typedef void (*ks_snoop_emit_fn)(void *arg, struct ks_snoop_rec *rec);

struct ks_snoop_parser {
	ks_snoop_emit_fn emit;
	void *arg;
	char event[64];			/* our event's name, kstack_PID_N */
	struct ks_snoop_rec *pending;	/* by CPU: calls whose stack is to come */
	bool *has_pending;
	size_t nr_cpus, pending_cap, has_pending_cap;
	struct ks_snoop_rec cur;	/* the call whose frames are being read */
	char *frames;
	size_t frames_len, frames_cap;
	bool collecting;
	uint64_t lost;			/* events the ring buffer dropped */
	uint64_t unparsed;		/* lines in no form we know */
	uint64_t no_stack;		/* calls that came without a stack */
};

/* The context every trace line starts with. */
struct ks_trace_ctx {
	char comm[KS_COMM_LEN];
	int32_t pid;
	int cpu;
	uint64_t ts_ns;
	const char *text;	/* after "TIMESTAMP: ", in the line */
};

/* Parses "comm-pid [cpu] flags ts: text"; 0 or -EINVAL. */
int ks_trace_line_parse(const char *line, struct ks_trace_ctx *ctx);

void ks_snoop_parser_init(struct ks_snoop_parser *p, const char *event,
			  ks_snoop_emit_fn emit, void *arg);
/* One line without its newline; 0 or -ENOMEM. */
int ks_snoop_parse_line(struct ks_snoop_parser *p, const char *line);
/*
 * The end of one read of trace_pipe: the kernel never splits an entry
 * between reads, so a stack being read is complete.
 */
void ks_snoop_parse_flush(struct ks_snoop_parser *p);
/* The end of the trace: calls still waiting for a stack go without. */
void ks_snoop_parse_end(struct ks_snoop_parser *p);
void ks_snoop_parser_release(struct ks_snoop_parser *p);

#endif /* KS_SNOOP_TRACE_H */
