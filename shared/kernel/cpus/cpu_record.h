/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --cpus: what each CPU was doing when the image was taken, as the kernel
 * heads and writes a stack dump (dump_stack_print_info(),
 * show_trace_log_lvl()): its task, its registers, and its stack across
 * every stack the CPU crossed, each crossing marked.  The walker
 * (cpus_walk.c) fills these records and never prints; the writer is
 * shared/format/format_cpus.c.  The architecture's part (which stacks a
 * CPU has, how they are crossed) is its table's cpu_trace (arch.h).
 */
#ifndef KS_CPU_RECORD_H
#define KS_CPU_RECORD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "target.h"

enum ks_cpu_line_kind {
	KS_CPU_FRAME,		/* " func+0xOFF/0xSIZE [mod]", "? " when unsure */
	KS_CPU_OPEN,		/* " <NAME>": the walk enters a stack */
	KS_CPU_CLOSE,		/* " </NAME>": and leaves it */
	KS_CPU_REGS,		/* the registers saved at a crossing */
};

/* Registers saved on a stack (show_regs_if_on_stack()). */
struct ks_cpu_saved {
	uint64_t ip, sp, flags;
	uint16_t cs, ss;
	bool partial;		/* only the iret frame (REGS_PARTIAL) */
};

struct ks_cpu_line {
	enum ks_cpu_line_kind kind;
	bool unsure;		/* a frame the unwinder did not reach: "? " */
	uint64_t addr;		/* a frame's address */
	char *text;		/* a frame's %pB, a stack's name, a regs' ip %pS */
	struct ks_cpu_saved regs;
};

/*
 * Where a CPU's walk starts: its task (rq->curr, or the task it is still
 * on), that task's stack and
 * the CPU's registers; the arch's cpu_trace fills the lines from it.
 */
struct ks_cpu_start {
	int cpu;
	uint64_t task;
	uint64_t stack_base, stack_size;
	struct ks_regs regs;
};

struct ks_cpu {
	int cpu;
	int32_t pid;		/* 0 for the idle task */
	char comm[32];
	uint64_t task;		/* rq->curr, or the task the CPU is still on */
	bool idle;		/* task == rq->idle */
	/*
	 * Caught inside __schedule() (cpu_switch.h): rq->curr already names
	 * next_pid while the CPU still runs on the stack of the task above.
	 */
	bool switching;
	int32_t next_pid;
	char next_comm[32];
	bool offline;		/* present, not in cpu_online_mask */
	bool has_regs;		/* the image has this CPU's registers */
	bool user;		/* its registers are in user mode */
	struct ks_regs regs;
	char *ip_text;		/* %pS of regs.ip, or NULL */
	char *lr_text;		/* pc_lr: %pS of regs.r[0], lr; or NULL */
	struct ks_cpu_line *lines;
	size_t nr_lines, cap_lines;
	/* Why the trace ends before the task's first frame, or NULL. */
	char *note;
};

struct ks_cpus {
	struct ks_cpu *cpu;
	size_t nr;
	/* Where the registers come from, for every CPU of this image. */
	const char *regs_source;
	/* arm64's __show_regs(): pc, lr and sp, then "Call trace:" */
	bool pc_lr;
};

/* Adds a line; 0 or -ENOMEM.  text is copied (NULL: none). */
int ks_cpu_add_line(struct ks_cpu *c, enum ks_cpu_line_kind kind, bool unsure,
		    uint64_t addr, const char *text,
		    const struct ks_cpu_saved *regs);
/* The note of a trace cut short; the first one stays.  0 or -ENOMEM. */
int ks_cpu_set_note(struct ks_cpu *c, const char *note);
/* More about why the trace ends, after the note there is; 0 or -ENOMEM. */
int ks_cpu_add_note(struct ks_cpu *c, const char *more);
void ks_cpus_release(struct ks_cpus *cs);

#endif /* KS_CPU_RECORD_H */
