// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --cpus on arm64: dump_backtrace() of arch/arm64/kernel/stacktrace.c
 * (Linux 6.1 to 6.13+) over a CPU of an image.  From the CPU's pc and x29
 * it follows the frame records across every stack on_accessible_stack()
 * allows for the CPU: the task stack, the per-CPU IRQ stack
 * (irq_stack_ptr, THREAD_SIZE), overflow_stack and the SDEI stacks
 * (sdei_stack_normal_ptr, sdei_stack_critical_ptr).  As
 * unwind_consume_stack() does, a record lies above the last one on its
 * stack, and a stack the walk left is not entered again.  Before 6.13 an
 * exception boundary is an ordinary record (pt_regs' stackframe holds
 * the interrupted x29 and pc); from 6.13 a FRAME_META_TYPE_PT_REGS
 * record hands over to the saved pc and x29 (kunwind_next_regs_pc()).
 * arm64 prints no stack markers, so the lines are frames alone.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "arm64.h"
#include "cpu_record.h"
#include "symbolize.h"

#define RECORD_SIZE	16	/* struct frame_record: fp, lr */
#define META_SIZE	24	/* struct frame_record_meta */
#define META_PT_REGS	2	/* FRAME_META_TYPE_PT_REGS */
#define META_FINAL	1	/* FRAME_META_TYPE_FINAL */
#define OVERFLOW_SIZE	4096	/* OVERFLOW_STACK_SIZE: SZ_4K */
#define MAX_FRAMES	256

enum { ST_TASK, ST_IRQ, ST_OVERFLOW, ST_SDEI_NORMAL, ST_SDEI_CRITICAL, NR_ST };

struct trace {
	const struct ks_target *t;
	const struct ks_arm64_unwind *u;
	struct ks_cpu *c;
	struct ks_range st[NR_ST];	/* each stack left: [low, end) */
	int cur;			/* the stack of the last record, or -1 */
	uint64_t fp, pc, final;
	int err;
};

/* A per-CPU pointer to a stack (irq_stack_ptr, sdei_stack_*_ptr). */
static void stack_ptr(struct trace *tr, const char *name, uint64_t off,
		      uint64_t size, struct ks_range *r)
{
	uint64_t sym, base;

	if (tr->t->ops->symbol(tr->t->ctx, name, &sym) ||
	    ks_read_u64(tr->t, sym + off, &base) || !base)
		return;
	r->start = base;
	r->end = base + size;
}

/* on_accessible_stack()'s stacks of one CPU; those it lacks stay empty. */
static void cpu_stacks(struct trace *tr, const struct ks_cpu_start *st)
{
	uint64_t pcpu, off = 0, sym, size = st->stack_size;

	tr->st[ST_TASK].start = st->stack_base;
	tr->st[ST_TASK].end = st->stack_base + st->stack_size;
	if (tr->t->ops->symbol(tr->t->ctx, "__per_cpu_offset", &pcpu) ||
	    ks_read_u64(tr->t, pcpu + 8 * (uint64_t)st->cpu, &off))
		return;
	stack_ptr(tr, "irq_stack_ptr", off, size, &tr->st[ST_IRQ]);
	stack_ptr(tr, "sdei_stack_normal_ptr", off, size,
		  &tr->st[ST_SDEI_NORMAL]);
	stack_ptr(tr, "sdei_stack_critical_ptr", off, size,
		  &tr->st[ST_SDEI_CRITICAL]);
	if (!tr->t->ops->symbol(tr->t->ctx, "overflow_stack", &sym)) {
		tr->st[ST_OVERFLOW].start = sym + off;
		tr->st[ST_OVERFLOW].end = sym + off + OVERFLOW_SIZE;
	}
}

static int stop(struct trace *tr, const char *note)
{
	tr->err = ks_cpu_set_note(tr->c, note);
	return -1;
}

/*
 * unwind_find_stack() and unwind_consume_stack(): [addr, addr + size) on
 * what is left of a stack; the stacks below the one it is on are done.
 */
static int consume(struct trace *tr, uint64_t addr, uint64_t size,
		   uint64_t used)
{
	if (addr & 7)
		return stop(tr, "a frame pointer that is not 8-byte aligned");
	for (int i = 0; i < NR_ST; i++) {
		struct ks_range *r = &tr->st[i];

		if (addr < r->start || addr >= r->end || size > r->end - addr)
			continue;
		if (tr->cur >= 0 && i != tr->cur)
			tr->st[tr->cur].start = tr->st[tr->cur].end;
		tr->cur = i;
		r->start = addr + used;
		return 0;
	}
	return stop(tr, "a frame record outside the CPU's stacks, or at or "
		    "below one already passed");
}

/* kunwind_next_regs_pc(), 6.13+ */
static int regs_pc(struct trace *tr)
{
	uint64_t regs = tr->fp - (uint64_t)tr->u->pt_stackframe;

	if (consume(tr, regs, (uint64_t)tr->u->pt_regs_size,
		    (uint64_t)tr->u->pt_regs_size))
		return -1;
	if (ks_read_u64(tr->t, regs + (uint64_t)tr->u->pt_pc, &tr->pc) ||
	    ks_read_u64(tr->t, regs + (uint64_t)tr->u->pt_regs + 29 * 8,
			&tr->fp))
		return stop(tr, "the registers of an exception cannot be read");
	return 0;
}

/* kunwind_next_frame_record_meta(), 6.13+: 1 at the task's final record */
static int record_meta(struct trace *tr)
{
	uint64_t type;

	if (ks_read_u64(tr->t, tr->fp + (uint64_t)tr->u->meta_type, &type))
		return stop(tr, "a frame record cannot be read");
	if (type == META_FINAL && tr->fp == tr->final)
		return 1;
	if (type == META_PT_REGS)
		return regs_pc(tr);
	return stop(tr, "a frame record of an unknown meta type");
}

/* kunwind_next(): 0, 1 at the task's final frame record, -1 stopped */
static int next(struct trace *tr)
{
	uint64_t rec[2];
	int ret;

	if (tr->u->meta_type < 0 && tr->fp == tr->final)
		return 1;
	if (!tr->fp)
		return stop(tr, "a frame record with no caller before the "
			    "task's final one");
	if (consume(tr, tr->fp, RECORD_SIZE, RECORD_SIZE))
		return -1;
	if (ks_read(tr->t, tr->fp, rec, sizeof(rec)))
		return stop(tr, "a frame record cannot be read");
	if (!rec[0] && !rec[1] && tr->u->meta_type >= 0) {
		ret = record_meta(tr);
		if (ret)
			return ret;
	} else {
		tr->fp = rec[0];
		tr->pc = rec[1];
	}
	tr->pc = ks_arm64_strip_pac(tr->u, tr->pc);
	return 0;
}

/* dump_backtrace_entry(): " %pSb" */
static void frame(struct trace *tr, uint64_t pc)
{
	char sym[KS_SYM_PB_LEN];

	ks_sym_format_pB(tr->t, pc, sym, sizeof(sym));
	tr->err = ks_cpu_add_line(tr->c, KS_CPU_FRAME, false, pc, sym, NULL);
}

/*
 * __show_regs() prints lr through ptrauth_strip_kernel_insn_pac(): the
 * walker's %pS of the raw x30 is redone without its PAC bits.
 */
static int lr_text(struct trace *tr, uint64_t lr)
{
	char sym[KS_SYM_PB_LEN], *text;

	if (!tr->c->lr_text)
		return 0;
	ks_sym_format_pS(tr->t, ks_arm64_strip_pac(tr->u, lr), sym, sizeof(sym));
	text = strdup(sym);
	if (!text)
		return -ENOMEM;
	free(tr->c->lr_text);
	tr->c->lr_text = text;
	return 0;
}

int ks_arm64_cpu_trace(const struct ks_target *t, void *unw,
		       const struct ks_cpu_start *st, struct ks_cpu *c)
{
	struct trace tr = { .t = t, .u = unw, .c = c, .cur = -1 };
	int ret = 0, n = 0;

	if (!tr.u)
		return ks_cpu_set_note(c, "the frame-record layout (struct "
				       "pt_regs) is not known");
	if (lr_text(&tr, st->regs.r[0]))
		return -ENOMEM;
	cpu_stacks(&tr, st);
	tr.final = tr.st[ST_TASK].end - (uint64_t)tr.u->pt_regs_size +
		   (uint64_t)tr.u->pt_stackframe;
	tr.pc = st->regs.ip;
	tr.fp = st->regs.bp;
	while (!tr.err && !ret) {
		if (++n > MAX_FRAMES)
			return ks_cpu_set_note(c, "more frames than a stack "
					       "dump prints");
		frame(&tr, tr.pc);
		if (!tr.err)
			ret = next(&tr);
	}
	return tr.err;
}
