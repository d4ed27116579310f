// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The CPUs of an image for --cpus: for_each_present_cpu() over
 * __cpu_present_mask, online or not (__cpu_online_mask), cpu_rq(cpu)->curr (per-CPU runqueues at
 * __per_cpu_offset[cpu]) or, for a CPU caught inside __schedule(), the
 * task whose stack it is still on (cpu_switch.c), the task's PID and comm as
 * dump_stack_print_info() prints them, and the trace of the
 * architecture's cpu_trace from the CPU's registers.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cpu_switch.h"
#include "cpus_walk.h"
#include "symbolize.h"
#include "task_walk.h"

/* What the walk reads, looked up once. */
struct cpus_layout {
	uint64_t online, present, runqueues, per_cpu_offset;
	unsigned int nr_cpu_ids;
	struct ks_field curr, idle;
};

static int layout(const struct ks_target *t, struct cpus_layout *cl,
		  const struct ks_reporter *rep)
{
	uint64_t nr;

	/* a kernel without a present mask (none known) has them all online */
	if (t->ops->symbol(t->ctx, "__cpu_present_mask", &cl->present))
		cl->present = 0;
	if (t->ops->symbol(t->ctx, "__cpu_online_mask", &cl->online) ||
	    t->ops->symbol(t->ctx, "runqueues", &cl->runqueues) ||
	    t->ops->symbol(t->ctx, "__per_cpu_offset", &cl->per_cpu_offset)) {
		ks_say(rep, KS_WARN, "--cpus needs the symbols "
		       "__cpu_online_mask, runqueues and __per_cpu_offset");
		return -ENOENT;
	}
	cl->curr = ks_field_find(t, "rq", "curr");
	cl->idle = ks_field_find(t, "rq", "idle");
	if (!ks_field_ok(&cl->curr) || !ks_field_ok(&cl->idle)) {
		ks_say(rep, KS_WARN, "--cpus needs struct rq's curr and idle "
		       "in the kernel's types");
		return -ENOENT;
	}
	if (t->ops->symbol(t->ctx, "nr_cpu_ids", &nr) ||
	    ks_read(t, nr, &cl->nr_cpu_ids, sizeof(cl->nr_cpu_ids)) ||
	    !cl->nr_cpu_ids || cl->nr_cpu_ids > 8192) {
		ks_say(rep, KS_WARN, "--cpus cannot read nr_cpu_ids");
		return -EFAULT;
	}
	return 0;
}

/* cpumask_test_cpu() */
static bool cpu_in(const struct ks_target *t, uint64_t mask, unsigned int cpu)
{
	uint64_t word;

	if (!mask || ks_read_u64(t, mask + 8 * (cpu / 64), &word))
		return false;
	return word >> (cpu % 64) & 1;
}

/* The task's pid, comm and stack, as struct ks_cpu and its start keep them. */
static int read_task(struct ks_kernel *k, struct ks_cpu *c,
		     struct ks_cpu_start *st)
{
	const struct ks_kernel_layout *l = &k->l;
	uint64_t stack = 0;
	int32_t pid = 0;
	char comm[32] = "";
	long clen = l->comm.size < 31 ? l->comm.size : 31;

	if (ks_read(k->t, c->task + (uint64_t)l->pid.off, &pid, sizeof(pid)) ||
	    ks_read(k->t, c->task + (uint64_t)l->comm.off, comm, (size_t)clen) ||
	    ks_read_u64(k->t, c->task + (uint64_t)l->stack.off, &stack))
		return -EFAULT;
	c->pid = pid;
	snprintf(c->comm, sizeof(c->comm), "%s", comm);
	st->task = c->task;
	st->stack_base = stack;
	st->stack_size = l->thread_size;
	return 0;
}

/* rq->curr and rq->idle of cpu */
static int runqueue(struct ks_kernel *k, const struct cpus_layout *cl,
		    struct ks_cpu *c, uint64_t *idle)
{
	uint64_t off;

	if (ks_read_u64(k->t, cl->per_cpu_offset + 8 * (uint64_t)c->cpu, &off) ||
	    ks_read_u64(k->t, cl->runqueues + off + (uint64_t)cl->curr.off,
			&c->task) ||
	    ks_read_u64(k->t, cl->runqueues + off + (uint64_t)cl->idle.off,
			idle))
		return -EFAULT;
	c->idle = c->task == *idle;
	return 0;
}

/*
 * A CPU whose sp is not on rq->curr's stack may be inside __schedule(),
 * still on the previous task's (cpu_switch.h): that task is the one the
 * kernel's dump_stack() would name, and its stack the one to walk.
 */
static int switching(struct ks_kernel *k, struct ks_cpu_switch *sw,
		     uint64_t idle, struct ks_cpu *c, struct ks_cpu_start *st)
{
	uint64_t sp = st->regs.sp, task;
	int ret;

	if (st->stack_base && sp - st->stack_base < st->stack_size)
		return 0;
	ret = ks_cpu_stack_owner(k, sw, c->cpu, sp, &task);
	if (ret || !task || task == c->task)
		return ret;
	c->switching = true;
	c->next_pid = c->pid;
	memcpy(c->next_comm, c->comm, sizeof(c->next_comm));
	c->task = task;
	c->idle = task == idle;
	if (read_task(k, c, st))
		return ks_cpu_set_note(c, "the task whose stack the CPU is on "
				       "is not readable");
	return 0;
}

/* %pS of the CPU's pc, and of its lr where the arch's dump prints it */
static int regs_text(struct ks_kernel *k, struct ks_cpu *c)
{
	char sym[KS_SYM_PB_LEN];

	ks_sym_format_pS(k->t, c->regs.ip, sym, sizeof(sym));
	c->ip_text = strdup(c->user ? "" : sym);
	if (!c->ip_text)
		return -ENOMEM;
	if (!k->arch->regs_pc_lr)
		return 0;
	ks_sym_format_pS(k->t, c->regs.r[0], sym, sizeof(sym));
	c->lr_text = strdup(c->user ? "" : sym);
	return c->lr_text ? 0 : -ENOMEM;
}

/* No unwinder: the CPU's note says why, as each task's does. */
static int unwind_missing(const struct ks_kernel *k, struct ks_cpu *c)
{
	char *why = ks_arch_unwind_missing(k->arch, k->unw_err);
	int ret;

	if (!why)
		return -ENOMEM;
	ret = ks_cpu_set_note(c, why);
	free(why);
	return ret;
}

/* One CPU: its task, its registers, its trace; its trouble in its note. */
static int one_cpu(struct ks_kernel *k, const struct cpus_layout *cl,
		   struct ks_cpu_switch *sw, struct ks_cpu *c)
{
	struct ks_cpu_start st = { .cpu = c->cpu };
	uint64_t idle;
	int ret;

	if (runqueue(k, cl, c, &idle) || read_task(k, c, &st))
		return ks_cpu_set_note(c, "the CPU's runqueue or its current "
				       "task is not readable");
	if (k->t->ops->cpu_regs(k->t->ctx, c->cpu, &st.regs))
		return ks_cpu_set_note(c, "the dump has no registers for this CPU");
	c->has_regs = true;
	c->regs = st.regs;
	c->user = !ks_arch_kernel_addr(k->arch, st.regs.ip);
	if (regs_text(k, c))
		return -ENOMEM;
	if (c->user)
		return 0;	/* no kernel stack to show, none cut short */
	ret = switching(k, sw, idle, c, &st);
	if (ret || c->note)
		return ret;
	if (!k->unw)
		return unwind_missing(k, c);
	if (!st.stack_base)
		return ks_cpu_set_note(c, "the task has no stack (task->stack "
				       "is NULL)");
	return k->arch->cpu_trace(k->t, k->unw, &st, c);
}

/* Every present CPU, in order; one whose trouble is its own goes on. */
static int each_cpu(struct ks_kernel *k, const struct cpus_layout *cl,
		    struct ks_cpu_switch *sw, struct ks_cpus *cs)
{
	int ret;

	for (unsigned int cpu = 0; cpu < cl->nr_cpu_ids; cpu++) {
		struct ks_cpu *c = &cs->cpu[cs->nr];

		/*
		 * An offline CPU that is present has a runqueue and, in a
		 * QEMU dump, registers: it is shown, marked offline.
		 */
		c->offline = !cpu_in(k->t, cl->online, cpu);
		if (c->offline && !cpu_in(k->t, cl->present, cpu))
			continue;
		c->cpu = (int)cpu;
		cs->nr++;
		/* a CPU's trouble is in its record, printed with it */
		ret = one_cpu(k, cl, sw, c);
		if (ret)
			return ret;
	}
	return 0;
}

int ks_cpus_walk(struct ks_kernel *k, struct ks_cpus *cs,
		 const struct ks_reporter *rep)
{
	struct ks_cpu_switch sw = { .each_task = ks_kernel_each_task };
	struct cpus_layout cl;
	int ret;

	memset(cs, 0, sizeof(*cs));
	cs->regs_source = "the dump's NT_PRSTATUS note";
	cs->pc_lr = k->arch->regs_pc_lr;
	if (!k->arch->cpu_trace) {
		ks_say(rep, KS_WARN, "--cpus does not read %s CPUs yet",
		       k->arch->name);
		return -EPROTONOSUPPORT;
	}
	ret = layout(k->t, &cl, rep);
	if (ret)
		return ret;
	cs->cpu = calloc(cl.nr_cpu_ids, sizeof(*cs->cpu));
	if (!cs->cpu)
		return -ENOMEM;
	ret = each_cpu(k, &cl, &sw, cs);
	ks_cpu_switch_release(&sw);
	return ret;
}
