// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A port of the x86_64 ORC unwinder of Linux 6.1
 * (arch/x86/kernel/unwind_orc.c: __unwind_start, unwind_next_frame,
 * unwind_get_return_address, get_reg, deref_stack_*), reading the stack
 * of a task in a dump through struct ks_target.
 *
 * The port keeps the kernel's decisions, including its odd ones, because
 * /proc/PID/stack prints whatever this walk yields: the ip - 1 lookup
 * after a call, the frame-pointer guess where no ORC entry exists, the
 * "stack going in the wrong direction" stop, and the rule that a task
 * other than current may only be unwound on its own task stack
 * (get_stack_info_noinstr() checks the IRQ, exception and entry stacks
 * only for current).  So a walk here never leaves [stack, stack +
 * THREAD_SIZE), and since every step must move sp up inside it, every
 * walk ends.
 *
 * Return addresses that the function-graph tracer or a kretprobe
 * (rethook) replaced with their trampolines are recovered from the task's
 * ret_stack and rethooks list, as unwind_recover_ret_addr() does; that
 * needs the task_struct address, without which the trampoline stays and
 * a note says so.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "orc.h"
#include "stack_text.h"

#define PAGE_SIZE	4096ULL
/*
 * TOP_OF_KERNEL_STACK_PADDING on x86_64: 0, or 16 with CONFIG_X86_FRED
 * (6.9 to 6.14): task_pt_regs() ends this far below the stack's top.
 */
#define MAX_STACK_PADDING	16
/*
 * Either unwinder gives up on a walk this long: far more steps than a
 * 16 KiB stack can hold (each moves up at least 16 bytes); a guard, not
 * a rule.
 */
#define MAX_STEPS	100000
/* FTRACE_RETFUNC_DEPTH; and a bound on a corrupt rethook list. */
#define RET_STACK_DEPTH	50
#define MAX_RETHOOKS	4096

/* struct inactive_task_frame on x86_64 6.1, used without type data. */
#define FRAME_SIZE_DFLT		56
#define FRAME_BP_DFLT		40
#define FRAME_RET_ADDR_DFLT	48

/* The reason the walk stopped outranks an earlier doubt... */
static void note_hard(struct ks_unwind_state *s, const char *why)
{
	if (!s->note_is_cause)
		s->note = why;
}

/* ...but not a frame we know we got wrong: the stop follows from that. */
static void note_cause(struct ks_unwind_state *s, const char *why)
{
	if (!s->note_is_cause)
		s->note = why;
	s->note_is_cause = true;
}

/* on_stack(): the whole [addr, addr + len) inside the known stack. */
static bool on_stack(const struct ks_unwind_state *s, uint64_t addr, size_t len)
{
	return s->stack_known &&
	       addr >= s->stack.start && addr < s->stack.end &&
	       addr + len > s->stack.start && addr + len <= s->stack.end;
}

/*
 * get_stack_info() for current: the walk moves onto another stack of the
 * CPU.  The copy of the old stack no longer serves; reads go to the target.
 */
static bool switch_stack(struct ks_unwind_state *s, uint64_t addr)
{
	struct ks_range next;

	if (!s->other_stack || !s->other_stack(s->other_arg, addr, &next))
		return false;
	free(s->copy);
	s->copy = NULL;
	s->stack = next;
	s->stack_known = true;
	return true;
}

/*
 * stack_access_ok().  When the access is not on the current stack the
 * kernel asks get_stack_info(), which for a task other than current
 * knows only the task stack, already marked in stack_mask: so it answers
 * STACK_TYPE_UNKNOWN and the walk is over.
 */
static bool stack_access_ok(struct ks_unwind_state *s, uint64_t addr, size_t len)
{
	if (on_stack(s, addr, len))
		return true;
	if (switch_stack(s, addr) && on_stack(s, addr, len))
		return true;
	s->stack_known = false;
	note_hard(s, "stack access outside the task stack");
	return false;
}

bool ks_unwind_stack_read(struct ks_unwind_state *s, uint64_t addr, void *buf,
			  size_t len)
{
	if (s->copy && addr >= s->copy_start && addr + len <= s->stack.end) {
		memcpy(buf, s->copy + (addr - s->copy_start), len);
		return true;
	}
	if (ks_read(s->t, addr, buf, len) == 0)
		return true;
	note_hard(s, KS_NOTE_STACK_UNREADABLE);
	return false;
}

/* deref_stack_reg() */
static bool deref_stack_reg(struct ks_unwind_state *s, uint64_t addr,
			    uint64_t *val)
{
	return stack_access_ok(s, addr, 8) && ks_unwind_stack_read(s, addr, val, 8);
}

/* deref_stack_regs(): a full struct pt_regs at addr. */
static bool deref_stack_regs(struct ks_unwind_state *s, uint64_t addr)
{
	uint64_t buf[KS_PT_WORDS];

	if (!stack_access_ok(s, addr, KS_PT_REGS_SIZE) ||
	    !ks_unwind_stack_read(s, addr, buf, sizeof(buf)))
		return false;
	memcpy(s->regs_buf, buf, sizeof(buf));
	s->ip = buf[KS_PT_IP];
	s->sp = buf[KS_PT_SP];
	return true;
}

/*
 * deref_stack_iret_regs(): only the hardware iret frame (ip, cs, flags,
 * sp, ss) at addr; the rest of that pt_regs is not valid.  The previous
 * full regs move to prev_buf first, as the kernel keeps prev_regs.
 */
static bool deref_stack_iret_regs(struct ks_unwind_state *s, uint64_t addr)
{
	uint64_t buf[KS_PT_WORDS - KS_PT_IP];

	if (!stack_access_ok(s, addr, KS_IRET_FRAME_SIZE) ||
	    !ks_unwind_stack_read(s, addr, buf, sizeof(buf)))
		return false;
	if (s->full_regs) {
		s->prev_regs = s->regs;
		memcpy(s->prev_buf, s->regs_buf, sizeof(s->prev_buf));
	}
	memset(s->regs_buf, 0, sizeof(s->regs_buf));
	memcpy(s->regs_buf + KS_PT_IP, buf, sizeof(buf));
	s->ip = buf[0];
	s->sp = buf[KS_PT_SP - KS_PT_IP];
	return true;
}

/* get_reg(): from full regs, else from the previous full regs. */
static bool get_reg(const struct ks_unwind_state *s, int reg, uint64_t *val)
{
	if (!s->regs)
		return false;
	if (s->full_regs) {
		*val = s->regs_buf[reg];
		return true;
	}
	if (s->prev_regs) {
		*val = s->prev_buf[reg];
		return true;
	}
	return false;
}

/* unwind_next_frame(), first part: the previous frame's sp (the CFA). */
static bool find_prev_sp(struct ks_unwind_state *s, const struct ks_orc_entry *orc,
			 uint64_t *sp_ret)
{
	uint64_t sp;
	bool indirect = false;
	int reg;

	switch (orc->sp_reg) {
	case KS_ORC_REG_SP:
		sp = s->sp + (uint64_t)(int64_t)orc->sp_offset;
		break;
	case KS_ORC_REG_BP:
		sp = s->bp + (uint64_t)(int64_t)orc->sp_offset;
		break;
	case KS_ORC_REG_SP_INDIRECT:
		sp = s->sp;
		indirect = true;
		break;
	case KS_ORC_REG_BP_INDIRECT:
		sp = s->bp + (uint64_t)(int64_t)orc->sp_offset;
		indirect = true;
		break;
	case KS_ORC_REG_R10:
	case KS_ORC_REG_R13:
	case KS_ORC_REG_DI:
	case KS_ORC_REG_DX:
	case KS_ORC_REG_AX:	/* 7.1+ */
		reg = orc->sp_reg == KS_ORC_REG_R10 ? KS_PT_R10 :
		      orc->sp_reg == KS_ORC_REG_R13 ? KS_PT_R13 :
		      orc->sp_reg == KS_ORC_REG_DI ? KS_PT_DI :
		      orc->sp_reg == KS_ORC_REG_AX ? KS_PT_AX : KS_PT_DX;
		if (!get_reg(s, reg, &sp)) {
			note_hard(s, "ORC needs a register value the unwinder does not have");
			return false;
		}
		break;
	default:
		note_hard(s, "ORC entry with an unknown SP base register");
		return false;
	}

	if (indirect) {
		if (!deref_stack_reg(s, sp, &sp))
			return false;
		if (orc->sp_reg == KS_ORC_REG_SP_INDIRECT)
			sp += (uint64_t)(int64_t)orc->sp_offset;
	}
	*sp_ret = sp;
	return true;
}

static bool task_read(struct ks_unwind_state *s, uint64_t addr, void *buf,
		      size_t len)
{
	if (ks_read(s->t, addr, buf, len) == 0)
		return true;
	note_cause(s, "task memory for a replaced return address is not readable");
	return false;
}

/*
 * ftrace_graph_ret_addr() (kernel/trace/fgraph.c, with
 * HAVE_FUNCTION_GRAPH_RET_ADDR_PTR): the function-graph tracer saved the
 * real return address in task->ret_stack[], next to the stack slot (retp)
 * it replaced with return_to_handler.
 */
static uint64_t graph_ret_addr(struct ks_unwind_state *s, uint64_t ret,
			       uint64_t retp)
{
	const struct ks_ret_layout *l = &s->orc->ret;
	uint64_t stack, entry, slot;
	int32_t index;
	int i;

	if (!s->orc->return_to_handler || ret != s->orc->return_to_handler)
		return ret;
	if (!s->task || s->orc->fgraph_shadow_stack ||
	    !ks_field_ok(&l->curr_ret_stack) || !ks_field_ok(&l->ret_stack) ||
	    l->frs_size <= 0 || !ks_field_ok(&l->frs_ret) ||
	    !ks_field_ok(&l->frs_retp)) {
		note_cause(s, "return address replaced by the function-graph tracer, not recovered");
		return ret;
	}
	if (!task_read(s, s->task + (uint64_t)l->curr_ret_stack.off, &index, 4) ||
	    !task_read(s, s->task + (uint64_t)l->ret_stack.off, &stack, 8))
		return ret;
	for (i = 0; i <= index && i < RET_STACK_DEPTH; i++) {
		entry = stack + (uint64_t)i * (uint64_t)l->frs_size;
		if (!task_read(s, entry + (uint64_t)l->frs_retp.off, &slot, 8))
			return ret;
		if (slot == retp) {
			task_read(s, entry + (uint64_t)l->frs_ret.off, &ret, 8);
			return ret;
		}
	}
	return ret;
}

/* __rethook_find_ret_addr(): the next node after kr_cur not for the trampoline. */
static uint64_t rethook_next(struct ks_unwind_state *s)
{
	const struct ks_ret_layout *l = &s->orc->ret;
	uint64_t node, ret_addr;
	int n;

	/* llist_head.first and llist_node.next are both at offset 0 */
	if (!task_read(s, s->kr_cur ? s->kr_cur : s->task + (uint64_t)l->rethooks.off,
		       &node, 8))
		return 0;
	for (n = 0; node && n < MAX_RETHOOKS; n++) {
		if (!task_read(s, node - (uint64_t)l->rhn_llist.off + (uint64_t)l->rhn_ret_addr.off,
			       &ret_addr, 8))
			return 0;
		if (ret_addr != s->orc->rethook_trampoline) {
			s->kr_cur = node;
			return ret_addr;
		}
		if (!task_read(s, node, &node, 8))
			return 0;
	}
	return 0;
}

/*
 * unwind_recover_rethook() -> rethook_find_ret_addr(): a kretprobe put
 * arch_rethook_trampoline in the slot at addr_p and kept the real address
 * in a rethook_node whose frame is addr_p.  0 when none is found, and for
 * a task that is running (the kernel warns and gives up), which ends the
 * walk at the next frame as it ends the kernel's.
 */
static uint64_t rethook_ret_addr(struct ks_unwind_state *s, uint64_t addr,
				 uint64_t addr_p)
{
	const struct ks_ret_layout *l = &s->orc->ret;
	uint64_t ret, frame;
	uint32_t state;

	if (!s->orc->rethook_trampoline || addr != s->orc->rethook_trampoline)
		return addr;
	if (!s->task || !ks_field_ok(&l->rethooks) || !ks_field_ok(&l->rhn_llist) ||
	    !ks_field_ok(&l->rhn_ret_addr) || !ks_field_ok(&l->rhn_frame)) {
		note_cause(s, "return address replaced by a kretprobe, not recovered");
		return addr;
	}
	if (ks_field_ok(&l->task_state) &&
	    task_read(s, s->task + (uint64_t)l->task_state.off, &state, 4) && state == 0)
		return 0;	/* task_is_running() */
	do {
		ret = rethook_next(s);
		if (!ret)
			break;
		if (!task_read(s, s->kr_cur - (uint64_t)l->rhn_llist.off +
				  (uint64_t)l->rhn_frame.off, &frame, 8))
			return 0;
	} while (frame != addr_p);
	return ret;
}

/* unwind_recover_ret_addr() */
uint64_t ks_unwind_recover_ret_addr(struct ks_unwind_state *s, uint64_t addr,
				    uint64_t addr_p)
{
	return rethook_ret_addr(s, graph_ret_addr(s, addr, addr_p), addr_p);
}

/*
 * unwind_next_frame() for UNWIND_HINT_TYPE_REGS (a whole pt_regs at sp)
 * and REGS_PARTIAL (only its iret frame).
 */
static bool find_prev_regs(struct ks_unwind_state *s,
			   const struct ks_orc_entry *orc, uint64_t sp)
{
	bool full = orc->type == KS_ORC_TYPE_REGS;

	if (full ? !deref_stack_regs(s, sp) : !deref_stack_iret_regs(s, sp)) {
		note_hard(s, full ? "can't access registers saved on the stack" :
			  "can't access iret registers saved on the stack");
		return false;
	}
	s->ip = rethook_ret_addr(s, s->ip, s->sp - 8);
	s->regs = true;
	s->regs_addr = full ? sp : sp - KS_IRET_FRAME_OFFSET;
	if (full)
		s->prev_regs = false;
	s->full_regs = full;
	s->signal = orc->signal;
	return true;
}

/* unwind_next_frame(), second part: ip, sp and maybe regs of the caller. */
static bool find_prev_frame(struct ks_unwind_state *s, const struct ks_orc_entry *orc,
			    uint64_t sp)
{
	switch (orc->type) {
	case KS_ORC_TYPE_CALL:
		if (!deref_stack_reg(s, sp - 8, &s->ip))
			return false;
		s->ip = ks_unwind_recover_ret_addr(s, s->ip, sp - 8);
		s->sp = sp;
		s->regs = false;
		s->prev_regs = false;
		s->signal = orc->signal;
		return true;
	case KS_ORC_TYPE_REGS:
	case KS_ORC_TYPE_REGS_PARTIAL:
		return find_prev_regs(s, orc, sp);
	default:
		note_hard(s, "ORC entry of an unknown type");
		return false;
	}
}

/* unwind_next_frame(), third part: the caller's bp. */
static bool find_prev_bp(struct ks_unwind_state *s, const struct ks_orc_entry *orc,
			 uint64_t sp)
{
	uint64_t tmp;

	switch (orc->bp_reg) {
	case KS_ORC_REG_UNDEFINED:
		if (get_reg(s, KS_PT_BP, &tmp))
			s->bp = tmp;
		return true;
	case KS_ORC_REG_PREV_SP:
		return deref_stack_reg(s, sp + (uint64_t)(int64_t)orc->bp_offset, &s->bp);
	case KS_ORC_REG_BP:
		return deref_stack_reg(s, s->bp + (uint64_t)(int64_t)orc->bp_offset, &s->bp);
	default:
		note_hard(s, "ORC entry with an unknown BP base register");
		return false;
	}
}

/*
 * Whether ip is just after a call to error_entry.  error_entry pushes a
 * whole pt_regs (PUSH_AND_CLEAR_REGS) and returns with it on the stack,
 * the return address below it; objtool takes the call as balanced, so
 * the ORC entry there still says "iret frame at sp + 8" (after the
 * pushed orig_ax), 15 words short.  A CPU stopped in sync_regs() (which
 * error_entry jumps to) or on the "movq %rax, %rsp" after the call is
 * there; the kernel's own unwinder reads those 15 words as the iret
 * frame.  The bytes before ip decide it, not a version: e8 and a rel32
 * that lands on error_entry.
 */
static bool after_error_entry_call(const struct ks_unwind_state *s)
{
	uint8_t call[5];
	int32_t rel;

	if (!s->orc->error_entry ||
	    ks_read(s->t, s->ip - sizeof(call), call, sizeof(call)) ||
	    call[0] != 0xe8)
		return false;
	memcpy(&rel, call + 1, sizeof(rel));
	return s->ip + (uint64_t)(int64_t)rel == s->orc->error_entry;
}

/*
 * The ORC entry of the frame at s->ip.  A return address points after
 * the call; the call itself (ip - 1) has the right layout, even when the
 * call was to a noreturn function at the very end of the caller.  Signal
 * and interrupt frames hold the exact ip.  Code without ORC data (BPF,
 * trampolines) gets orc_fp_entry, a frame-pointer guess; the return of a
 * call to error_entry, the pt_regs it pushed.
 */
static const struct ks_orc_entry *frame_orc(struct ks_unwind_state *s)
{
	/* UNWIND_HINT_REGS at the pt_regs error_entry left at sp */
	static const struct ks_orc_entry error_entry_regs = {
		.type = KS_ORC_TYPE_REGS,
		.sp_reg = KS_ORC_REG_SP,
		.bp_reg = KS_ORC_REG_UNDEFINED,
		.signal = true,
	};
	static const struct ks_orc_entry orc_fp_entry = {
		.type = KS_ORC_TYPE_CALL,
		.sp_reg = KS_ORC_REG_BP,
		.sp_offset = 16,
		.bp_reg = KS_ORC_REG_PREV_SP,
		.bp_offset = -16,
	};
	const struct ks_orc_entry *orc;

	orc = ks_orc_find(s->orc, s->signal ? s->ip : s->ip - 1);
	/* the entry before the call: the iret frame (and orig_ax or error code) */
	if (orc && orc->type == KS_ORC_TYPE_REGS_PARTIAL &&
	    after_error_entry_call(s))
		return &error_entry_regs;
	if (orc)
		return orc;
	s->error = true;
	ks_unwind_note(s, "no ORC data for a frame: frame-pointer guess used");
	return &orc_fp_entry;
}

bool ks_unwind_next_frame(struct ks_unwind_state *s)
{
	const struct ks_orc_entry *orc;
	uint64_t sp, prev_sp = s->sp, prev_stack = s->stack.start;

	if (ks_unwind_step_ends(s))
		return false;

	orc = frame_orc(s);

	/* End-of-stack check for kernel threads: */
	if (orc->sp_reg == KS_ORC_REG_UNDEFINED) {
		if (orc->end)
			goto the_end;
		note_hard(s, "ORC entry is undefined for a return address");
		goto err;
	}

	if (!find_prev_sp(s, orc, &sp) || !find_prev_frame(s, orc, sp) ||
	    !find_prev_bp(s, orc, sp))
		goto err;

	/*
	 * Prevent a recursive loop due to bad ORC data.  Only the task stack
	 * exists for this walk, so the stack type never changes.
	 */
	if (s->stack.start == prev_stack && on_stack(s, s->sp, 8) &&
	    s->sp <= prev_sp) {
		note_hard(s, "stack going in the wrong direction");
		goto err;
	}
	return true;

err:
	s->error = true;
the_end:
	return ks_unwind_end(s);
}

/* get_stack_info() on sp, and the kernel's guard-page retry. */
static void find_stack(struct ks_unwind_state *s)
{
	uint64_t next_page;

	if (s->sp >= s->stack.start && s->sp < s->stack.end) {
		s->stack_known = true;
		return;
	}
	if (switch_stack(s, s->sp))
		return;
	s->error = true;
	note_hard(s, "stack pointer is not on the task stack");
	next_page = (s->sp + PAGE_SIZE - 1) & ~(PAGE_SIZE - 1);
	s->stack_known = (next_page >= s->stack.start && next_page < s->stack.end) ||
			 switch_stack(s, next_page);
}

/*
 * What both unwind_next_frame()s check first: a walk that is over, one
 * that has gone on too long (a loop in damaged data: an error), and a
 * user task's saved user registers, the end of its kernel stack.
 */
bool ks_unwind_step_ends(struct ks_unwind_state *s)
{
	if (ks_unwind_done(s))
		return true;
	if (++s->steps > MAX_STEPS) {
		note_hard(s, "unwinder step limit reached");
		s->error = true;
	} else if (!s->regs || !ks_user_mode(s->regs_buf)) {
		return false;
	}
	ks_unwind_end(s);
	return true;
}

/*
 * The unwinder reads upward from the first sp, so one read of [sp, end)
 * serves the whole walk: a sleeping task uses a few hundred bytes of its
 * 16 KiB stack, and copying all of it was half of a walk over 100,000
 * threads.  Reads below sp (a corrupt bp) and a copy that cannot be read
 * go to the target word by word, so the bytes are the same either way.
 */
void ks_unwind_state_init(struct ks_unwind_state *s, const struct ks_target *t,
			  const struct ks_orc *orc, uint64_t task,
			  struct ks_range stack, uint64_t sp)
{
	uint64_t from = stack.start;
	size_t len;

	memset(s, 0, sizeof(*s));
	s->t = t;
	s->orc = orc;
	s->task = task;
	s->stack = stack;
	if (stack.end <= stack.start || stack.end - stack.start > (1u << 20))
		return;
	if (sp > stack.start && sp < stack.end)
		from = sp & ~7ULL;
	len = stack.end - from;
	s->copy = malloc(len);
	if (s->copy && ks_read(t, from, s->copy, len)) {
		free(s->copy);
		s->copy = NULL;
	}
	s->copy_start = from;
}

void ks_unwind_start_blocked(struct ks_unwind_state *s, const struct ks_target *t,
			     const struct ks_orc *orc, uint64_t task,
			     struct ks_range stack, uint64_t thread_sp)
{
	uint64_t frame_size = FRAME_SIZE_DFLT, off_bp = FRAME_BP_DFLT;
	uint64_t off_ret = FRAME_RET_ADDR_DFLT, first_frame = thread_sp;

	ks_unwind_state_init(s, t, orc, task, stack, thread_sp);
	if (orc->walk_ready) {
		frame_size = orc->frame_size;
		off_bp = orc->frame_bp;
		off_ret = orc->frame_ret_addr;
	}

	/*
	 * struct inactive_task_frame at thread.sp: __switch_to_asm pushed it
	 * after the call from __schedule, so the frame's own sp is above it.
	 */
	s->sp = thread_sp + frame_size;
	if (!ks_unwind_stack_read(s, thread_sp + off_bp, &s->bp, 8) ||
	    !ks_unwind_stack_read(s, thread_sp + off_ret, &s->ip, 8)) {
		s->error = true;
		return;
	}
	s->signal = orc->ret_from_fork && s->ip == orc->ret_from_fork;

	find_stack(s);

	/* Skip ahead to the first frame above thread.sp (unwind_start()). */
	while (!ks_unwind_done(s) &&
	       (!on_stack(s, first_frame, 8) || s->sp <= first_frame))
		ks_unwind_next_frame(s);
}

void ks_unwind_start_regs(struct ks_unwind_state *s, const struct ks_target *t,
			  const struct ks_orc *orc, uint64_t task,
			  struct ks_range stack, const uint64_t regs[KS_PT_WORDS])
{
	ks_unwind_start_cpu(s, t, orc, task, stack, regs, NULL, NULL);
}

void ks_unwind_start_cpu(struct ks_unwind_state *s, const struct ks_target *t,
			 const struct ks_orc *orc, uint64_t task,
			 struct ks_range stack, const uint64_t regs[KS_PT_WORDS],
			 ks_other_stack_fn other_stack, void *other_arg)
{
	ks_unwind_state_init(s, t, orc, task, stack, regs[KS_PT_SP]);
	s->other_stack = other_stack;
	s->other_arg = other_arg;
	if (ks_user_mode(regs))
		return;
	memcpy(s->regs_buf, regs, sizeof(s->regs_buf));
	s->ip = regs[KS_PT_IP];
	s->sp = regs[KS_PT_SP];
	s->bp = regs[KS_PT_BP];
	s->regs = true;
	s->full_regs = true;
	s->signal = true;

	find_stack(s);

	/* When starting from regs, skip the regs frame: */
	ks_unwind_next_frame(s);
}

uint64_t ks_unwind_get_return_address_ptr(const struct ks_unwind_state *s)
{
	if (ks_unwind_done(s))
		return 0;
	if (s->regs)
		return s->regs_addr ? s->regs_addr + KS_PT_IP * 8 : 0;
	return s->sp ? s->sp - 8 : 0;
}

uint64_t ks_unwind_get_return_address(const struct ks_unwind_state *s)
{
	if (ks_unwind_done(s))
		return 0;
	return ks_orc_kernel_text(s->orc, s->ip) ? s->ip : 0;
}

bool ks_unwind_at_user_regs(const struct ks_unwind_state *s)
{
	uint64_t end = s->regs_addr + KS_PT_REGS_SIZE;

	return s->regs && s->regs_addr && ks_user_mode(s->regs_buf) &&
	       end <= s->stack.end && end + MAX_STACK_PADDING >= s->stack.end;
}

void ks_unwind_release(struct ks_unwind_state *s)
{
	free(s->copy);
	s->copy = NULL;
}

static uint64_t sym_or_zero(const struct ks_target *t, const char *name)
{
	uint64_t addr;

	return t->ops->symbol(t->ctx, name, &addr) ? 0 : addr;
}

/* struct ks_ret_layout from type data; -1 where a member is missing. */
static void ret_layout(const struct ks_target *t, struct ks_ret_layout *l)
{
	const struct ks_field_spec s[] = {
		KS_OPTIONAL(&l->task_state, "task_struct", "__state"),
		KS_OPTIONAL(&l->curr_ret_stack, "task_struct", "curr_ret_stack"),
		KS_OPTIONAL(&l->ret_stack, "task_struct", "ret_stack"),
		KS_OPTIONAL(&l->frs_ret, "ftrace_ret_stack", "ret"),
		KS_OPTIONAL(&l->frs_retp, "ftrace_ret_stack", "retp"),
		KS_OPTIONAL(&l->rethooks, "task_struct", "rethooks"),
		KS_OPTIONAL(&l->rhn_llist, "rethook_node", "llist"),
		KS_OPTIONAL(&l->rhn_ret_addr, "rethook_node", "ret_addr"),
		KS_OPTIONAL(&l->rhn_frame, "rethook_node", "frame"),
	};

	ks_field_table_resolve(t, s, sizeof(s) / sizeof(s[0]));
	/* 5.14 renamed state to __state. */
	if (!ks_field_ok(&l->task_state))
		l->task_state = ks_field_find(t, "task_struct", "state");
	l->frs_size = t->ops->type_size(t->ctx, "ftrace_ret_stack");
}

static uint64_t layout_or(long val, uint64_t dflt)
{
	return val >= 0 ? (uint64_t)val : dflt;
}

int ks_orc_prepare_walk(const struct ks_target *t, struct ks_orc *orc)
{
	if (orc->walk_ready)
		return 0;
	/* in_sched_functions(): in_lock_functions() or the sched text. */
	ks_stack_text_ranges(t, &orc->sched_text, &orc->lock_text);
	/* 6.5+ names the assembly entry ret_from_fork_asm, beside a C ret_from_fork */
	orc->ret_from_fork = sym_or_zero(t, "ret_from_fork_asm");
	if (!orc->ret_from_fork)
		orc->ret_from_fork = sym_or_zero(t, "ret_from_fork");
	orc->error_entry = sym_or_zero(t, "error_entry");
	/* 6.9 made ret_stack a shadow stack of words: not this layout */
	orc->fgraph_shadow_stack = sym_or_zero(t, "fgraph_array") != 0;
	orc->return_to_handler = sym_or_zero(t, "return_to_handler");
	orc->fred = sym_or_zero(t, "asm_fred_entrypoint_user") != 0;
	orc->rethook_trampoline = sym_or_zero(t, "arch_rethook_trampoline");
	orc->frame_size = layout_or(t->ops->type_size(t->ctx, "inactive_task_frame"),
				    FRAME_SIZE_DFLT);
	orc->frame_bp = layout_or(t->ops->member_offset(t->ctx, "inactive_task_frame", "bp"),
				  FRAME_BP_DFLT);
	orc->frame_ret_addr = layout_or(t->ops->member_offset(t->ctx, "inactive_task_frame",
							      "ret_addr"),
					FRAME_RET_ADDR_DFLT);
	ret_layout(t, &orc->ret);
	orc->walk_ready = true;
	return 0;
}

const struct ks_x86_unwinder ks_orc_unwinder = {
	.start_blocked = ks_unwind_start_blocked,
	.start_regs = ks_unwind_start_regs,
	.next_frame = ks_unwind_next_frame,
};
