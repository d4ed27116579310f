// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A port of the x86_64 frame-pointer unwinder of Linux 6.1
 * (arch/x86/kernel/unwind_frame.c: __unwind_start, unwind_next_frame,
 * update_stack_state, decode_frame_pointer, is_last_task_frame,
 * unwind_get_return_address_ptr), reading a task's stack in a dump.
 *
 * A frame is two words, the caller's bp and the return address, at the
 * address bp holds.  Entry code that saves a pt_regs (an interrupt, an
 * exception) sets bp to that pt_regs' address plus 1
 * (ENCODE_FRAME_POINTER), so a set low bit means "registers here".  As in
 * the ORC port, a task other than current is unwound on its own task
 * stack only, and every step must move up it, so every walk ends.
 */
#include <string.h>

#include "fp_unwind.h"
#include "stack_text.h"

/* Two words: the saved bp and the return address. */
#define FRAME_HEADER_SIZE	16
/* TOP_OF_KERNEL_STACK_PADDING with CONFIG_X86_FRED */
#define FRED_PADDING		16

/* on_stack() over the one stack a non-current task's walk may use */
static bool on_stack(const struct ks_unwind_state *s, uint64_t addr, uint64_t len)
{
	return s->stack_known && addr >= s->stack.start && addr < s->stack.end &&
	       len <= s->stack.end - addr;
}

/* decode_frame_pointer(): a bp with bit 0 set points at a pt_regs. */
static uint64_t decode_frame_pointer(uint64_t bp)
{
	return bp & 1 ? bp & ~1ULL : 0;
}

/* task_pt_regs() for a given TOP_OF_KERNEL_STACK_PADDING */
static uint64_t task_pt_regs(const struct ks_unwind_state *s, uint64_t padding)
{
	return s->stack.end - padding - KS_PT_REGS_SIZE;
}

/*
 * is_last_task_frame(): bp is last_frame(), the two words just below
 * task_pt_regs() (x86_64 has no realigned variant).  Returns that
 * pt_regs' address, or 0.  The padding above pt_regs is 16 bytes in
 * some FRED kernels and 0 in the others; a FRED kernel is told by its
 * entry symbol, and there both places are tried.
 */
static uint64_t last_task_frame(const struct ks_unwind_state *s)
{
	if (s->regs || !s->bp)
		return 0;
	if (s->bp == task_pt_regs(s, 0) - FRAME_HEADER_SIZE)
		return task_pt_regs(s, 0);
	if (s->orc->fred && s->bp == task_pt_regs(s, FRED_PADDING) - FRAME_HEADER_SIZE)
		return task_pt_regs(s, FRED_PADDING);
	return 0;
}

static bool read_regs(struct ks_unwind_state *s, uint64_t addr)
{
	if (ks_unwind_stack_read(s, addr, s->regs_buf, KS_PT_REGS_SIZE))
		return true;
	ks_unwind_note(s, "registers saved on the stack are not readable in the image");
	return false;
}

/* update_stack_state(): move to the frame (or pt_regs) next_bp names. */
static bool update_stack_state(struct ks_unwind_state *s, uint64_t next_bp)
{
	uint64_t prev_end, regs, frame, len, addr_p, addr;

	prev_end = s->regs ? s->regs_addr + KS_PT_REGS_SIZE : s->bp + FRAME_HEADER_SIZE;
	regs = decode_frame_pointer(next_bp);
	frame = regs ? regs : next_bp;
	len = regs ? KS_PT_REGS_SIZE : FRAME_HEADER_SIZE;

	/* get_stack_info() knows no other stack for a task not current */
	if (!on_stack(s, frame, len)) {
		ks_unwind_note(s, regs ? "a frame pointer encodes registers outside the task stack" :
		     "a frame pointer leads outside the task stack");
		return false;
	}
	/* Make sure it only unwinds up and doesn't overlap the prev frame: */
	if (s->orig_sp && frame < prev_end) {
		ks_unwind_note(s, "a frame pointer does not lead up the stack (a loop or a damaged frame)");
		return false;
	}
	if (regs) {
		if (!read_regs(s, regs))
			return false;
		s->regs = s->full_regs = true;
		s->regs_addr = regs;
		s->bp = 0;
	} else {
		s->bp = next_bp;
		s->regs = s->full_regs = false;
		s->regs_addr = 0;
	}

	/* Save the return address (unwind_get_return_address_ptr()): */
	if (s->regs && ks_user_mode(s->regs_buf)) {
		s->ip = 0;
	} else if (s->regs) {
		addr_p = s->regs_addr + KS_PT_IP * 8;
		s->ip = ks_unwind_recover_ret_addr(s, s->regs_buf[KS_PT_IP], addr_p);
	} else {
		addr_p = s->bp + 8;
		if (!ks_unwind_stack_read(s, addr_p, &addr, 8)) {
			ks_unwind_note(s, KS_NOTE_STACK_UNREADABLE);
			return false;
		}
		s->ip = ks_unwind_recover_ret_addr(s, addr, addr_p);
	}
	if (!s->orig_sp)
		s->orig_sp = frame;
	return true;
}

/* unwind_next_frame() */
static bool next_frame(struct ks_unwind_state *s)
{
	uint64_t regs, next_bp;

	if (ks_unwind_step_ends(s))
		return false;

	regs = last_task_frame(s);
	if (regs) {
		if (!read_regs(s, regs))
			goto err;
		/* a kthread's regs from copy_thread(): nothing to show */
		if (!ks_user_mode(s->regs_buf))
			goto the_end;
		/* the syscall regs: entry code does not encode them in bp */
		s->regs = s->full_regs = true;
		s->regs_addr = regs;
		s->bp = 0;
		s->ip = 0;
		return true;
	}

	/* Get the next frame pointer: */
	if (s->next_bp) {
		next_bp = s->next_bp;
		s->next_bp = 0;
	} else if (s->regs) {
		next_bp = s->regs_buf[KS_PT_BP];
	} else if (!ks_unwind_stack_read(s, s->bp, &next_bp, 8)) {
		ks_unwind_note(s, KS_NOTE_STACK_UNREADABLE);
		goto err;
	}
	if (update_stack_state(s, next_bp))
		return true;
err:
	/* bad_address: for a task other than current the kernel just stops */
	s->error = true;
the_end:
	return ks_unwind_end(s);
}

/* __unwind_start() after get_frame_pointer() and get_stack_pointer() */
static void start(struct ks_unwind_state *s, uint64_t bp, uint64_t first_frame)
{
	/* get_stack_info(bp): only the task stack can hold it */
	s->stack_known = bp >= s->stack.start && bp < s->stack.end;
	if (!s->stack_known) {
		ks_unwind_note(s, "the first frame pointer is not inside the task stack");
		return;
	}
	update_stack_state(s, bp);
	/* Skip ahead to the frame at or above first_frame. */
	while (!ks_unwind_done(s) &&
	       (!on_stack(s, first_frame, 8) || (!s->next_bp && s->bp < first_frame)))
		next_frame(s);
}

/* __unwind_start() for a task that is not running: from thread.sp. */
static void start_blocked(struct ks_unwind_state *s, const struct ks_target *t,
			  const struct ks_orc *orc, uint64_t task,
			  struct ks_range stack, uint64_t thread_sp)
{
	ks_unwind_state_init(s, t, orc, task, stack, thread_sp);
	/* &((struct inactive_task_frame *)task->thread.sp)->bp */
	start(s, thread_sp + orc->frame_bp, thread_sp);
}

/* __unwind_start() from registers (KS_PT_* order). */
static void start_regs(struct ks_unwind_state *s, const struct ks_target *t,
		       const struct ks_orc *orc, uint64_t task,
		       struct ks_range stack, const uint64_t regs[KS_PT_WORDS])
{
	uint64_t bp = regs[KS_PT_BP], first_frame = regs[KS_PT_SP];

	ks_unwind_state_init(s, t, orc, task, stack, regs[KS_PT_SP]);
	/* Don't even attempt to start from user mode regs: */
	if (ks_user_mode(regs))
		return;
	/*
	 * A call through a NULL pointer: sp points at the return address of
	 * a frame whose bp was never pushed.  Pretend it was, one word
	 * below, and keep the real bp for the next step.
	 */
	if (regs[KS_PT_IP] == 0) {
		s->next_bp = bp;
		bp = regs[KS_PT_SP] - 8;
	}
	start(s, bp, first_frame);
}

const struct ks_x86_unwinder ks_fp_unwinder = {
	.start_blocked = start_blocked,
	.start_regs = start_regs,
	.next_frame = next_frame,
};
