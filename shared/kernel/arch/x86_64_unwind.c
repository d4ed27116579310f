// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/stack from a kernel image: proc_pid_stack() (fs/proc/base.c),
 * stack_trace_save_tsk() and stack_trace_consume_entry_nosched()
 * (kernel/stacktrace.c), arch_stack_walk() (arch/x86/kernel/stacktrace.c)
 * and in_sched_functions() (kernel/sched/core.c), Linux 6.1.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fp_unwind.h"
#include "x86_64_unwind.h"
#include "stack_text.h"

/* The top half of the address space is the kernel's. */
#define KERNEL_HALF	0xffff800000000000ULL

/* The shared text (stack_text.c), the ORC tables and the unwinder. */
struct walk {
	struct ks_stack_text out;
	const struct ks_orc *orc;
	const struct ks_x86_unwinder *u;
};

static bool consume_entry(struct walk *w, uint64_t addr)
{
	return ks_stack_text_consume(&w->out, addr);
}

void ks_x86_regs_to_pt(const struct ks_regs *regs, uint64_t pt[KS_PT_WORDS])
{
	memset(pt, 0, KS_PT_WORDS * sizeof(pt[0]));
	memcpy(pt, regs->r, sizeof(regs->r));
	pt[KS_PT_BP] = regs->bp;
	pt[KS_PT_IP] = regs->ip;
	pt[KS_PT_SP] = regs->sp;
	/* No cs in ks_regs: user_mode() is judged from where ip points. */
	pt[KS_PT_CS] = regs->ip >= KERNEL_HALF ? 0x10 : 0x33;
}

/* arch_stack_walk() */
static void stack_walk(struct walk *w, const struct ks_stack_start *st,
		       struct ks_unwind_state *s)
{
	struct ks_range stack = { st->stack_base, st->stack_base + st->stack_size };
	uint64_t pt[KS_PT_WORDS], addr;

	if (st->on_cpu) {
		ks_x86_regs_to_pt(&st->regs, pt);
		/* user_mode(regs): no kernel stack to show */
		if (pt[KS_PT_CS] & 3) {
			memset(s, 0, sizeof(*s));
			return;
		}
		if (!consume_entry(w, pt[KS_PT_IP])) {
			memset(s, 0, sizeof(*s));
			return;
		}
		w->u->start_regs(s, w->out.t, w->orc, st->task, stack, pt);
	} else {
		w->u->start_blocked(s, w->out.t, w->orc, st->task, stack,
				    st->thread_sp);
	}

	for (; !ks_unwind_done(s); w->u->next_frame(s)) {
		addr = ks_unwind_get_return_address(s);
		if (!addr) {
			/*
			 * The user registers at task_pt_regs() are the normal
			 * end; a user address anywhere else is a frame read
			 * from the wrong slot (damaged ORC data or stack).
			 * Before any frame, empty_reason() says it better.
			 */
			if (s->ip >= KERNEL_HALF)
				s->note = "return address outside known kernel text";
			else if (w->out.len && !ks_unwind_at_user_regs(s))
				s->note = "the unwind met a user address before "
					  "the task's saved user registers "
					  "(task_pt_regs)";
			break;
		}
		if (!consume_entry(w, addr))
			break;
	}
}

/*
 * Why a walk that ended without a note printed no frame.  The kernel
 * prints an empty stack only for a task in user mode on a CPU (whose
 * stack holds no kernel frame) or one whose stack is freed; a blocked
 * task always has its syscall entry or kthread frames at least, so for
 * it an empty stack means its saved stack pointer leads nowhere.
 */
static const char *empty_reason(const struct ks_stack_start *st)
{
	uint64_t end = st->stack_base + st->stack_size;

	if (st->on_cpu)
		return st->regs.ip >= KERNEL_HALF ?
		       "no frame could be unwound from the CPU's registers" : NULL;
	if (st->thread_sp < st->stack_base || st->thread_sp >= end)
		return "thread.sp is not inside the task's stack";
	return "no kernel frame at thread.sp: the return address saved "
	       "there is not kernel text";
}

int ks_stack_text(const struct ks_target *t, void *unw,
		  const struct ks_stack_start *st, char **text_ret,
		  const char **note_ret)
{
	struct ks_orc *orc = unw;
	struct walk w = { .out = { .t = t }, .orc = orc };
	struct ks_unwind_state s;
	int ret;

	if (!t || !orc || !st || !text_ret || (st->stack_base && !st->stack_size))
		return -EINVAL;
	if (note_ret)
		*note_ret = NULL;
	ret = ks_orc_prepare_walk(t, orc);
	if (ret)
		return ret;
	w.out.sched_text = orc->sched_text;
	w.out.lock_text = orc->lock_text;
	/* unwind_next_frame() of the unwinder the kernel was built with */
	w.u = orc->frame_pointers ? &ks_fp_unwinder : &ks_orc_unwinder;
	ret = ks_stack_text_begin(&w.out);
	if (ret)
		return ret;

	/*
	 * try_get_task_stack(): an exited task (a zombie) has freed its stack
	 * and the kernel prints nothing for it, which is no failure.
	 */
	if (!st->stack_base) {
		*text_ret = w.out.text;
		return 0;
	}

	stack_walk(&w, st, &s);
	ks_unwind_release(&s);
	if (w.out.err) {
		free(w.out.text);
		return w.out.err;
	}
	if (note_ret)
		*note_ret = w.out.len || s.note ? s.note : empty_reason(st);
	*text_ret = w.out.text;
	return 0;
}
