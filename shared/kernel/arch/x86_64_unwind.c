// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/stack from a kernel image: proc_pid_stack() (fs/proc/base.c),
 * stack_trace_save_tsk() and stack_trace_consume_entry_nosched()
 * (kernel/stacktrace.c), arch_stack_walk() (arch/x86/kernel/stacktrace.c)
 * and in_sched_functions() (kernel/sched/core.c), Linux 6.1; and the
 * unwinder's table: its ORC tables or frame-pointer walk chosen, freed
 * and reported on.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "fp_unwind.h"
#include "x86_64_unwind.h"
#include "stack_text.h"

/* The top half of the address space is the kernel's. */
#define KERNEL_HALF	0xffff800000000000ULL

/*
 * ORC tables, or, in a kernel without __start_orc_unwind_ip (built
 * without CONFIG_UNWINDER_ORC), the frame-pointer walk of fp_unwind.c
 * over its text range.  An ORC format not known here is no such kernel:
 * it stays refused.
 */
static int unwind_open(const struct ks_target *t, void **unw_ret)
{
	struct ks_orc *orc = NULL;
	uint64_t addr;
	int ret = ks_orc_load(t, &orc);

	if (ret == -ENOENT &&
	    t->ops->symbol(t->ctx, "__start_orc_unwind_ip", &addr) &&
	    !ks_orc_load_text(t, &orc))
		ret = 0;
	*unw_ret = ret ? NULL : orc;
	return ret;
}

static const char *unwinder_note(void *unw)
{
	const struct ks_orc *orc = unw;

	return orc->frame_pointers ? "no ORC tables: unwinding with frame "
	       "pointers, as CONFIG_UNWINDER_FRAME_POINTER kernels do" : NULL;
}

static void unwind_close(void *unw)
{
	if (unw)
		ks_orc_free(unw);
}

static const char *unwind_missing(int err)
{
	switch (err) {
	case -ENOENT:
		return "the kernel has none, nor the _stext/_etext a "
		       "frame-pointer walk needs";
	case -EPROTONOSUPPORT:
		return "their format is not one kstack knows";
	default:
		return NULL;
	}
}

/*
 * Stacks are walked with ORC, or with frame pointers in a kernel that has
 * no ORC tables (unwind_open() chooses); a kernel whose tables cannot be
 * used, or that lacks even its text range, is named with the reason.
 */
static void no_orc(int err, const struct ks_reporter *rep)
{
	switch (err) {
	case -ENOENT:
		ks_say(rep, KS_WARN, "no ORC unwind tables in this kernel (no "
		       "symbol __start_orc_unwind_ip), and no _stext/_etext "
		       "for the frame-pointer walk: every stack is empty");
		break;
	case -EPROTONOSUPPORT:
		ks_say(rep, KS_WARN, "this kernel's ORC format (its "
		       ".orc_header hash) is not one kstack knows: every stack "
		       "is empty");
		break;
	default:
		ks_say(rep, KS_WARN, "no ORC unwind tables in this kernel "
		       "(%s): every stack is empty", strerror(-err));
		break;
	}
}

static size_t unwind_report(void *unw, int err, const struct ks_reporter *rep)
{
	const struct ks_orc *orc = unw;

	/* A truncated dump may keep the kernel's text and lose its tables. */
	if (!orc && err == -EFAULT)
		ks_say(rep, KS_WARN, "the ORC unwind tables cannot be read (the image lacks "
		       "their memory): every stack is empty");
	else if (!orc)
		no_orc(err, rep);
	for (size_t i = 0; orc && i < orc->nr_problems; i++)
		ks_say(rep, KS_WARN, "%s", orc->problems[i]);
	return orc ? orc->nr_problems : 0;
}

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

/*
 * The unwinder is ORC's, or the frame-pointer walk where the kernel has
 * no ORC tables: one unwind state, x86_64_unwind.c steps it either way.
 */
const struct ks_unwinder ks_x86_64_unwinder = {
	.open = unwind_open,
	.close = unwind_close,
	.stack_text = ks_stack_text,
	.lack = "no ORC unwind tables",
	.missing = unwind_missing,
	.note = unwinder_note,
	.report = unwind_report,
};
