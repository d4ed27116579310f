// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * /proc/PID/stack on arm64: arch_stack_walk() of arch/arm64/kernel/
 * stacktrace.c, which walks the AAPCS64 frame records (x29 points at
 * {fp, lr}), Linux 6.1 to 6.13+:
 *
 *  - kunwind_init_from_task(): a blocked task starts at thread.cpu_context
 *    (fp, pc); stack_trace_save_regs() starts at a CPU's pc and x29;
 *  - unwind_next_frame_record() / kunwind_next_frame_record(): records
 *    8-byte aligned, inside the task stack and each strictly above the
 *    last one consumed (unwind_consume_stack()), so a loop ends the walk;
 *  - ptrauth_strip_kernel_insn_pac() on every return address;
 *  - the final frame record at task_pt_regs(task)->stackframe: known by
 *    its address before 6.13, by a frame_record_meta of type
 *    FRAME_META_TYPE_FINAL from 6.13 (kunwind_next_frame_record_meta());
 *  - exception boundaries: before 6.13 the entry code links pt_regs'
 *    stackframe to the interrupted x29 and pc, so the walk passes them as
 *    any record; from 6.13 a FRAME_META_TYPE_PT_REGS record hands over to
 *    the saved pc and x29 (kunwind_next_regs_pc()).
 *
 * The text is stack_text.c's: the same sched/lock skip and 64 frames.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "arm64.h"
#include "stack_text.h"
#include "vmcoreinfo.h"

/* asm/stacktrace/frame.h (6.13+) */
#define FRAME_META_TYPE_FINAL		1
#define FRAME_META_TYPE_PT_REGS		2

#define RECORD_SIZE	16	/* struct frame_record: fp, lr */
#define META_SIZE	24	/* struct frame_record_meta: record, type */

/* GENMASK_ULL(h, l) */
static uint64_t genmask(unsigned int h, unsigned int l)
{
	return (~0ull >> (63 - h)) & ~((1ull << l) - 1);
}

uint64_t ks_arm64_strip_pac(const struct ks_arm64_unwind *u, uint64_t ptr)
{
	/* ptrauth_clear_pac(): bit 55 says which half the address is in */
	if (ptr & (1ull << 55))
		return ptr | u->kernel_pac_mask;
	return ptr & ~u->user_pac_mask;
}

static int vmcoreinfo_u64(const struct ks_target *t, const char *key, int base,
			  uint64_t *val_ret)
{
	char buf[64], *end;

	if (!t->ops->vmcoreinfo || t->ops->vmcoreinfo(t->ctx, key, buf, sizeof(buf)))
		return -ENOENT;
	errno = 0;
	*val_ret = strtoull(buf, &end, base);
	return errno || end == buf ? -ENOENT : 0;
}

/*
 * arch_crash_save_vmcoreinfo() writes NUMBER(KERNELPACMASK) only when
 * the CPUs authenticate addresses; vabits_actual gives the same bits for
 * a kernel address otherwise (ptrauth_kernel_pac_mask() is GENMASK_ULL(63,
 * vabits_actual): the bits a 52-bit build on a 48-bit CPU signs begin at
 * 48), and stripping an unsigned address is a no-op.
 */
static void pac_masks(const struct ks_target *t, struct ks_arm64_unwind *u)
{
	struct ks_vmcoreinfo vi = { .line = t->ops->vmcoreinfo, .arg = t->ctx };
	unsigned int va_bits, vabits_actual = 0;
	uint64_t kmask;

	if (!t->ops->vmcoreinfo ||
	    ks_vmcoreinfo_arm64_vabits(&vi, &va_bits, &vabits_actual))
		vabits_actual = 0;
	if (!vmcoreinfo_u64(t, "NUMBER(KERNELPACMASK)", 16, &kmask))
		u->kernel_pac_mask = kmask;
	else if (vabits_actual)
		u->kernel_pac_mask = genmask(63, vabits_actual);
	if (vabits_actual)
		u->user_pac_mask = genmask(54, vabits_actual);
}

int ks_arm64_unwind_load(const struct ks_target *t, struct ks_arm64_unwind *u)
{
	struct ks_field stackframe, pc, regs, type;
	const struct ks_field_spec s[] = {
		KS_NEED(&stackframe, "pt_regs", "stackframe"),
		KS_NEED(&pc, "pt_regs", "pc"),
		KS_NEED(&regs, "pt_regs", "regs"),
		KS_OPTIONAL(&type, "frame_record_meta", "type"),
	};
	int ret;

	memset(u, 0, sizeof(*u));
	ret = ks_field_table_resolve(t, s, sizeof(s) / sizeof(s[0]));
	u->pt_regs_size = t->ops->type_size(t->ctx, "pt_regs");
	if (ret || u->pt_regs_size <= 0)
		return -ENOENT;
	u->pt_stackframe = stackframe.off;
	u->pt_pc = pc.off;
	u->pt_regs = regs.off;
	u->meta_type = type.off;
	pac_masks(t, u);
	ks_stack_text_ranges(t, &u->sched_text, &u->lock_text);
	return 0;
}

static int unwind_open(const struct ks_target *t, void **unw_ret)
{
	struct ks_arm64_unwind *u = malloc(sizeof(*u));
	int ret;

	*unw_ret = NULL;
	if (!u)
		return -ENOMEM;
	ret = ks_arm64_unwind_load(t, u);
	if (ret) {
		free(u);
		return ret;
	}
	*unw_ret = u;
	return 0;
}

static void unwind_close(void *unw)
{
	free(unw);
}

static const char *unwind_missing(int err)
{
	return err == -ENOENT ? "struct pt_regs lacks stackframe, pc or regs" :
				NULL;
}

static size_t unwind_report(void *unw, int err, const struct ks_reporter *rep)
{
	if (!unw)
		ks_say(rep, KS_WARN, "arm64 stacks cannot be walked (%s): "
		       "every stack is empty", err == -ENOENT ?
		       "no struct pt_regs with stackframe, pc and regs in "
		       "this kernel's types" : strerror(-err));
	return 0;
}

/* struct kunwind_state, over the task stack only. */
struct kunwind {
	const struct ks_target *t;
	const struct ks_arm64_unwind *u;
	uint64_t fp, pc;
	uint64_t base;		/* the task stack's bottom */
	uint64_t low, high;	/* what is left of the stack: [low, high) */
	uint64_t final;		/* &task_pt_regs(task)->stackframe */
	const char *note;	/* why the walk ended early, or NULL */
};

enum { NEXT_OK, NEXT_END, NEXT_ERR };

static int fail(struct kunwind *k, const char *note)
{
	k->note = note;
	return NEXT_ERR;
}

/* unwind_find_stack(): [addr, addr + size) in what is left of the stack */
static bool on_stack(const struct kunwind *k, uint64_t addr, uint64_t size)
{
	return addr >= k->low && addr < k->high && size <= k->high - addr;
}

static int check_record(struct kunwind *k, uint64_t addr, uint64_t size)
{
	if (addr & 0x7)
		return fail(k, "a frame pointer that is not 8-byte aligned");
	if (on_stack(k, addr, size))
		return NEXT_OK;
	if (addr >= k->base && addr < k->low)
		return fail(k, "a frame record at or below one already passed "
			    "(a loop in the frame records, or a damaged stack)");
	return fail(k, "a frame record outside the task's stack");
}

/* kunwind_next_regs_pc(): an exception boundary, 6.13+ */
static int next_regs_pc(struct kunwind *k)
{
	uint64_t regs = k->fp - (uint64_t)k->u->pt_stackframe, pc, fp;

	if (check_record(k, regs, (uint64_t)k->u->pt_regs_size))
		return NEXT_ERR;
	if (ks_read_u64(k->t, regs + (uint64_t)k->u->pt_pc, &pc) ||
	    ks_read_u64(k->t, regs + (uint64_t)k->u->pt_regs + 29 * 8, &fp))
		return fail(k, "the registers of an exception cannot be read");
	k->low = regs + (uint64_t)k->u->pt_regs_size;
	k->pc = pc;
	k->fp = fp;
	return NEXT_OK;
}

/* kunwind_next_frame_record_meta(), 6.13+ */
static int next_record_meta(struct kunwind *k)
{
	uint64_t type;

	if (check_record(k, k->fp, META_SIZE))
		return NEXT_ERR;
	if (ks_read_u64(k->t, k->fp + (uint64_t)k->u->meta_type, &type))
		return fail(k, "a frame record cannot be read");
	switch (type) {
	case FRAME_META_TYPE_FINAL:
		if (k->fp == k->final)
			return NEXT_END;
		return fail(k, "a final frame record that is not the task's "
			    "(task_pt_regs()->stackframe)");
	case FRAME_META_TYPE_PT_REGS:
		return next_regs_pc(k);
	default:
		return fail(k, "a frame record of an unknown meta type");
	}
}

/* kunwind_next(): NEXT_END at the task's final frame record */
static int next(struct kunwind *k)
{
	uint64_t rec[2];
	int ret;

	/* before 6.13 the final record is known by where it is */
	if (k->u->meta_type < 0 && k->fp == k->final)
		return NEXT_END;
	ret = check_record(k, k->fp, RECORD_SIZE);
	if (ret)
		return ret;
	if (ks_read(k->t, k->fp, rec, sizeof(rec)))
		return fail(k, "a frame record cannot be read");
	if (!rec[0] && !rec[1] && k->u->meta_type >= 0) {
		ret = next_record_meta(k);
	} else {
		/* unwind_consume_stack(): the next record must lie above */
		k->low = k->fp + RECORD_SIZE;
		k->fp = rec[0];
		k->pc = rec[1];
	}
	if (ret == NEXT_OK)
		k->pc = ks_arm64_strip_pac(k->u, k->pc);
	return ret;
}

int ks_arm64_stack_text(const struct ks_target *t, void *unw,
			const struct ks_stack_start *st, char **text_ret,
			const char **note_ret)
{
	const struct ks_arm64_unwind *u = unw;
	struct ks_stack_text out = { .t = t, .sched_text = u->sched_text,
				     .lock_text = u->lock_text };
	struct kunwind k = { .t = t, .u = u };
	int ret;

	if (!t || !u || !st || !text_ret || (st->stack_base && !st->stack_size))
		return -EINVAL;
	if (note_ret)
		*note_ret = NULL;
	ret = ks_stack_text_begin(&out);
	if (ret)
		return ret;
	/* try_get_task_stack(): a dead task's stack is freed, and prints "" */
	if (!st->stack_base) {
		*text_ret = out.text;
		return 0;
	}
	k.base = k.low = st->stack_base;
	k.high = st->stack_base + st->stack_size;
	k.final = k.high - (uint64_t)u->pt_regs_size + (uint64_t)u->pt_stackframe;
	/* cpu_context's pc and fp, or the CPU's pc and x29 */
	k.pc = st->regs.ip;
	k.fp = st->regs.bp;
	/* kunwind_stack_walk(): the pc first, then each record's */
	while (ks_stack_text_consume(&out, k.pc) && next(&k) == NEXT_OK)
		;
	if (out.err) {
		free(out.text);
		return out.err;
	}
	if (note_ret)
		*note_ret = k.note;
	*text_ret = out.text;
	return 0;
}

const struct ks_unwinder ks_arm64_unwinder = {
	.open = unwind_open,
	.close = unwind_close,
	.stack_text = ks_arm64_stack_text,
	.lack = "no frame-record unwind",
	.missing = unwind_missing,
	.report = unwind_report,
};
