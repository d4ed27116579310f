// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --cpus on x86-64: show_trace_log_lvl() (arch/x86/kernel/dumpstack.c,
 * Linux 6.1) over a CPU of an image.  From the CPU's registers it scans
 * every stack the CPU crossed, innermost first, word by word: each kernel
 * text address is a frame, "? " unless it is the slot the ORC unwinder
 * (orc/orc_unwind.c, crossing stacks as get_stack_info() lets it for
 * current) took its return address from; each stack is named with
 * stack_type_name() ("<IRQ>" ... "</IRQ>"), and registers saved on it
 * are shown as show_regs_if_on_stack() shows them.  The next stack is the
 * one this one was entered from (stack_info.next_sp).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_record.h"
#include "symbolize.h"
#include "x86_64_stacks.h"
#include "x86_64_unwind.h"

#define PAGE_SIZE	4096ULL

struct trace {
	const struct ks_target *t;
	const struct ks_orc *orc;
	struct ks_cpu *c;
	struct ks_x86_cpu_stacks cs;
	unsigned long unw_mask;		/* the unwinder's stack_mask */
	struct ks_unwind_state s;
	uint64_t regs;			/* unwind_get_entry_regs(), or 0 */
	bool partial;
	int last_type;			/* the stack the walk ended on */
	int err;
};

/* the unwinder's get_stack_info(), with its own visit mask */
static bool other_stack(void *arg, uint64_t addr, struct ks_range *stack_ret)
{
	struct trace *tr = arg;
	struct ks_x86_stack_info info;

	if (!ks_x86_stack_info(&tr->cs, addr, &tr->unw_mask, &info))
		return false;
	*stack_ret = info.r;
	return true;
}

/* unwind_get_entry_regs(): regs the unwinder found on a stack */
static void entry_regs(struct trace *tr)
{
	const struct ks_unwind_state *s = &tr->s;

	tr->regs = !ks_unwind_done(s) && s->regs ? s->regs_addr : 0;
	tr->partial = !s->full_regs;
}

static bool on(const struct ks_x86_stack_info *info, uint64_t addr,
	       uint64_t len)
{
	return addr >= info->r.start && addr + len <= info->r.end &&
	       addr + len > addr;
}

/* __show_regs(SHOW_REGS_SHORT)'s first lines, or show_iret_regs() */
static void show_regs(struct trace *tr, bool partial)
{
	uint64_t w[KS_PT_WORDS - KS_PT_IP];
	struct ks_cpu_saved r = { .partial = partial };
	char sym[KS_SYM_PB_LEN];

	if (ks_read(tr->t, tr->regs + KS_IRET_FRAME_OFFSET, w, sizeof(w))) {
		if (!tr->err)
			tr->err = ks_cpu_set_note(tr->c, "registers saved on "
						  "the stack are not readable");
		return;
	}
	r.ip = w[0];
	r.cs = (uint16_t)w[KS_PT_CS - KS_PT_IP];
	r.flags = w[KS_PT_FLAGS - KS_PT_IP];
	r.sp = w[KS_PT_SP - KS_PT_IP];
	r.ss = (uint16_t)w[KS_PT_SS - KS_PT_IP];
	ks_sym_format_pS(tr->t, r.ip, sym, sizeof(sym));
	if (!tr->err)
		tr->err = ks_cpu_add_line(tr->c, KS_CPU_REGS, false, 0, sym, &r);
}

/* show_regs_if_on_stack() */
static void regs_if_on_stack(struct trace *tr, const struct ks_x86_stack_info *info)
{
	if (!tr->partial && on(info, tr->regs, KS_PT_REGS_SIZE))
		show_regs(tr, false);
	else if (tr->partial && on(info, tr->regs + KS_IRET_FRAME_OFFSET,
				   KS_IRET_FRAME_SIZE))
		show_regs(tr, true);
}

static void frame(struct trace *tr, uint64_t addr, bool reliable)
{
	char sym[KS_SYM_PB_LEN];

	ks_sym_format_pB(tr->t, addr, sym, sizeof(sym));
	if (!tr->err)
		tr->err = ks_cpu_add_line(tr->c, KS_CPU_FRAME, !reliable, addr,
					  sym, NULL);
}

/* One stack, from stack to its end: the inner loop of show_trace_log_lvl(). */
static void scan(struct trace *tr, const struct ks_x86_stack_info *info,
		 uint64_t stack)
{
	size_t len = info->r.end - stack, n = len / 8;
	uint64_t *words = malloc(len), ret_p;

	if (!words || ks_read(tr->t, stack, words, len)) {
		tr->err = words ? ks_cpu_set_note(tr->c, "a stack of the CPU is "
						  "not readable in the image")
				: -ENOMEM;
		free(words);
		return;
	}
	for (size_t i = 0; i < n && !tr->err; i++, stack += 8) {
		if (!ks_orc_kernel_text(tr->orc, words[i]))
			continue;
		/* regs->ip was shown with the registers */
		if (!(tr->regs && stack == tr->regs + KS_PT_IP * 8)) {
			ret_p = ks_unwind_get_return_address_ptr(&tr->s);
			frame(tr, words[i], stack == ret_p);
			if (stack != ret_p)
				continue;
		}
		ks_unwind_next_frame(&tr->s);
		entry_regs(tr);
		if (tr->regs)
			regs_if_on_stack(tr, info);
	}
	free(words);
}

/* get_stack_info() on stack, or on the page above it (a guard page) */
static bool stack_of(struct trace *tr, uint64_t *stack, unsigned long *mask,
		     struct ks_x86_stack_info *info)
{
	*stack &= ~7ULL;
	if (ks_x86_stack_info(&tr->cs, *stack, mask, info))
		return true;
	*stack = (*stack + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	return ks_x86_stack_info(&tr->cs, *stack, mask, info);
}

/* The outer loop of show_trace_log_lvl(): each stack, then the next. */
static void stacks(struct trace *tr, uint64_t stack)
{
	struct ks_x86_stack_info info = { 0 };
	unsigned long mask = 0;
	const char *name;

	for (; stack && !tr->err; stack = info.next_sp) {
		if (!stack_of(tr, &stack, &mask, &info)) {
			tr->err = ks_cpu_set_note(tr->c, "the walk met a stack "
						  "pointer on none of the CPU's "
						  "stacks");
			return;
		}
		tr->last_type = info.type;
		name = ks_x86_stack_name(info.type);
		if (name)
			tr->err = ks_cpu_add_line(tr->c, KS_CPU_OPEN, false, 0,
						  name, NULL);
		if (tr->regs && on(&info, tr->regs, KS_PT_REGS_SIZE))
			show_regs(tr, false);
		scan(tr, &info, stack);
		if (name && !tr->err)
			tr->err = ks_cpu_add_line(tr->c, KS_CPU_CLOSE, false, 0,
						  name, NULL);
	}
}

/*
 * A walk that ends on a stack other than the task's with the unwinder
 * still going, and not at registers of user mode, ended where that stack
 * links to no other (the entry stack links to none): the registers read
 * there are no context the CPU came from.  (A CPU stopped in sync_regs()
 * was one, until orc_unwind.c read the pt_regs error_entry leaves.)
 */
static int link_note(struct trace *tr)
{
	const char *name;
	char note[160];

	if (tr->c->note || tr->last_type == KS_STACK_TASK ||
	    ks_unwind_done(&tr->s) || ks_unwind_at_user_regs(&tr->s))
		return 0;
	name = ks_x86_stack_name(tr->last_type);
	snprintf(note, sizeof(note), "the walk ends on the %s stack, which "
		 "links to no other: the registers read there are not the "
		 "context the CPU came from", name ? name : "CPU's");
	return ks_cpu_set_note(tr->c, note);
}

/* Why the unwinder stopped before the end of the task's stack, if it did. */
static int unwind_note(struct trace *tr)
{
	if (!tr->s.error)
		return 0;
	return ks_cpu_set_note(tr->c, tr->s.note ? tr->s.note :
			       "the unwinder stopped before the task's first frame");
}

int ks_x86_cpu_trace(const struct ks_target *t, void *unw,
		     const struct ks_cpu_start *st, struct ks_cpu *c)
{
	struct trace tr = { .t = t, .orc = unw, .c = c };
	struct ks_range task = { st->stack_base, st->stack_base + st->stack_size };
	uint64_t pt[KS_PT_WORDS];
	const char *why;
	int ret;

	if (!tr.orc || tr.orc->frame_pointers)
		return ks_cpu_set_note(c, "the CPU stacks are unwound with ORC "
				       "tables, which this kernel lacks");
	ret = ks_orc_prepare_walk(t, unw);
	if (ret)
		return ret;
	why = ks_x86_cpu_stacks(t, st->cpu, task, &tr.cs);
	ks_x86_regs_to_pt(&st->regs, pt);
	if (pt[KS_PT_CS] & 3)
		return 0;	/* user mode: no kernel stack to show */
	ks_unwind_start_cpu(&tr.s, t, tr.orc, st->task, task, pt, other_stack,
			    &tr);
	entry_regs(&tr);
	stacks(&tr, st->regs.sp);
	if (!tr.err)
		tr.err = unwind_note(&tr);
	if (!tr.err)
		tr.err = link_note(&tr);
	/* a trace cut short where a stack could not be placed: say which */
	if (!tr.err && why && c->note)
		tr.err = ks_cpu_add_note(c, why);
	ks_unwind_release(&tr.s);
	return tr.err;
}
