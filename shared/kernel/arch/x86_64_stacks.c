// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * get_stack_info() of arch/x86/kernel/dumpstack_64.c for a CPU of an
 * image: in_task_stack(), in_exception_stack(), in_irq_stack() and
 * in_entry_stack(), with the per-CPU places read through the target.
 * Where each exception stack lies in cea_exception_stacks comes from its
 * type (the kernel's estack_pages[] is made from the same members).
 */
#include <errno.h>
#include <string.h>

#include "x86_64_stacks.h"

/* IRQ_STACK_SIZE: 16 KiB since 5.x, without KASAN */
#define IRQ_STACK_SIZE	16384ULL
#define PT_REGS_SIZE	168ULL
#define PT_REGS_SP	152ULL

/* exception_stack_names[], in ESTACK_* order */
static const char *const estack_names[6] = {
	"#DF", "NMI", "#DB", "#MC", "#VC", "#VC2",
};
static const char *const estack_members[6] = {
	"DF_stack", "NMI_stack", "DB_stack", "MCE_stack", "VC_stack",
	"VC2_stack",
};

const char *ks_x86_stack_name(int type)
{
	if (type == KS_STACK_TASK)
		return "TASK";
	if (type == KS_STACK_IRQ)
		return "IRQ";
	if (type == KS_STACK_SOFTIRQ)
		return "SOFTIRQ";
	if (type == KS_STACK_ENTRY)
		return "ENTRY_TRAMPOLINE";
	if (type >= KS_STACK_EXCEPTION && type < KS_STACK_TYPES)
		return estack_names[type - KS_STACK_EXCEPTION];
	return NULL;
}

/* this_cpu_read(): the per-CPU variable at sym (its offset) of cpu. */
static int percpu_u64(const struct ks_target *t, int cpu, uint64_t sym,
		      uint64_t *val_ret)
{
	uint64_t pcpu, off;

	if (t->ops->symbol(t->ctx, "__per_cpu_offset", &pcpu))
		return -ENOENT;
	if (ks_read_u64(t, pcpu + 8 * (uint64_t)cpu, &off))
		return -EFAULT;
	return ks_read_u64(t, sym + off, val_ret) ? -EFAULT : 0;
}

/*
 * hardirq_stack_ptr: a per-CPU variable of its own, or (6.2 to 6.14) a
 * member of pcpu_hot.  It points at the stack's top word.
 */
static int irq_stack(const struct ks_target *t, int cpu, struct ks_range *r)
{
	uint64_t sym, top;
	long off = 0;

	if (t->ops->symbol(t->ctx, "hardirq_stack_ptr", &sym)) {
		if (t->ops->symbol(t->ctx, "pcpu_hot", &sym))
			return -ENOENT;
		off = t->ops->member_offset(t->ctx, "pcpu_hot", "hardirq_stack_ptr");
		if (off < 0)
			return -ENOENT;
	}
	if (percpu_u64(t, cpu, sym + (uint64_t)off, &top) || !top)
		return -EFAULT;
	r->end = top + 8;
	r->start = r->end - IRQ_STACK_SIZE;
	return 0;
}

/* cea_exception_stacks and the entry stack of the same cpu_entry_area */
static int cea_stacks(const struct ks_target *t, int cpu,
		      struct ks_x86_cpu_stacks *cs)
{
	long size = t->ops->type_size(t->ctx, "cea_exception_stacks");
	long est = t->ops->member_offset(t->ctx, "cpu_entry_area", "estacks");
	long ent = t->ops->member_offset(t->ctx, "cpu_entry_area",
					 "entry_stack_page");
	long ent_size = t->ops->type_size(t->ctx, "entry_stack");
	uint64_t sym;

	if (size <= 0 || t->ops->symbol(t->ctx, "cea_exception_stacks", &sym))
		return -ENOENT;
	if (percpu_u64(t, cpu, sym, &cs->estacks) || !cs->estacks)
		return -EFAULT;
	cs->estacks_size = (uint64_t)size;
	for (int i = 0; i < 6; i++) {
		long off = t->ops->member_offset(t->ctx, "cea_exception_stacks",
						 estack_members[i]);
		long len = t->ops->member_size(t->ctx, "cea_exception_stacks",
					       estack_members[i]);

		if (off >= 0 && len > 0)
			cs->est[i] = (struct ks_range){ (uint64_t)off,
							(uint64_t)(off + len) };
	}
	if (est >= 0 && ent >= 0 && ent_size > 0) {
		cs->entry.start = cs->estacks - (uint64_t)est + (uint64_t)ent;
		cs->entry.end = cs->entry.start + (uint64_t)ent_size;
	}
	return 0;
}

const char *ks_x86_cpu_stacks(const struct ks_target *t, int cpu,
			      struct ks_range task,
			      struct ks_x86_cpu_stacks *cs)
{
	const char *why = NULL;

	memset(cs, 0, sizeof(*cs));
	cs->t = t;
	cs->task = task;
	if (irq_stack(t, cpu, &cs->irq))
		why = "the CPU's IRQ stack (hardirq_stack_ptr) is not readable";
	/* read even after the IRQ stack failed: a walk may need only these */
	if (cea_stacks(t, cpu, cs) && !why)
		why = "the CPU's exception stacks (cea_exception_stacks) are "
		      "not readable";
	return why;
}

static bool in(const struct ks_range *r, uint64_t addr)
{
	return r->end > r->start && addr >= r->start && addr < r->end;
}

/* in_exception_stack(): the pt_regs at the top says where it came from */
static bool in_exception_stack(const struct ks_x86_cpu_stacks *cs, uint64_t addr,
			       struct ks_x86_stack_info *info)
{
	uint64_t off = addr - cs->estacks;

	if (!cs->estacks || addr < cs->estacks ||
	    addr >= cs->estacks + cs->estacks_size)
		return false;
	for (int i = 0; i < 6; i++) {
		if (!in(&cs->est[i], off))
			continue;
		info->type = KS_STACK_EXCEPTION + i;
		info->r.start = cs->estacks + cs->est[i].start;
		info->r.end = cs->estacks + cs->est[i].end;
		if (ks_read_u64(cs->t, info->r.end - PT_REGS_SIZE + PT_REGS_SP,
				&info->next_sp))
			info->next_sp = 0;
		return true;
	}
	return false;	/* a guard page */
}

static bool find(const struct ks_x86_cpu_stacks *cs, uint64_t addr,
		 struct ks_x86_stack_info *info)
{
	memset(info, 0, sizeof(*info));
	if (in(&cs->task, addr)) {
		info->type = KS_STACK_TASK;
		info->r = cs->task;
		return true;
	}
	if (in_exception_stack(cs, addr, info))
		return true;
	if (in(&cs->irq, addr)) {
		info->type = KS_STACK_IRQ;
		info->r = cs->irq;
		/* call_on_stack() left the interrupted sp in the top word */
		if (ks_read_u64(cs->t, cs->irq.end - 8, &info->next_sp))
			info->next_sp = 0;
		return true;
	}
	if (in(&cs->entry, addr)) {
		info->type = KS_STACK_ENTRY;
		info->r = cs->entry;
		return true;
	}
	return false;
}

bool ks_x86_stack_info(const struct ks_x86_cpu_stacks *cs, uint64_t addr,
		       unsigned long *visit_mask, struct ks_x86_stack_info *info)
{
	if (!find(cs, addr, info))
		goto unknown;
	if (visit_mask) {
		if (*visit_mask & (1UL << info->type))
			goto unknown;	/* the kernel warns of recursion */
		*visit_mask |= 1UL << info->type;
	}
	return true;
unknown:
	info->type = KS_STACK_UNKNOWN;
	return false;
}
