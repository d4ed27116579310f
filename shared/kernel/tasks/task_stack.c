// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The stack of /proc/PID/stack.  A task that was on a CPU has no saved
 * frame; the kernel would print nothing for it (task_on_another_cpu()),
 * but a dump keeps its registers, so its stack is unwound from them, as
 * crash's bt does, and the record says it was running.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "stack_text.h"
#include "task_walk.h"

/*
 * Each task has a stack of its own (dup_task_struct() allocates it): a
 * task_struct whose stack (and thread.sp) are another task's prints that
 * task's frames under its own name.  Returns the PID already printed from
 * base, 0 for a stack not seen before, or -ENOMEM.
 */
static int32_t stack_owner(struct ks_walk *w, uint64_t base, int32_t pid)
{
	struct ks_stack_owner *o;
	int ret = ks_seen_add(&w->stacks, base);

	if (ret < 0)
		return ret;
	for (size_t i = 0; ret && i < w->nr_owners; i++)
		if (w->owners[i].stack == base)
			return w->owners[i].pid;
	o = ks_grow_min(w->owners, &w->owners_cap, w->nr_owners + 1,
			sizeof(*o), 512);
	if (!o)
		return -ENOMEM;
	w->owners = o;
	w->owners[w->nr_owners++] = (struct ks_stack_owner){ base, pid };
	return 0;
}

/*
 * A task switching onto CPU cpu: on_cpu set by prepare_task(), while the
 * CPU still runs on the stack of the task it leaves (cpu_switch.h).  The
 * CPU's registers are that task's; this one's stack is the one its last
 * switch saved, as if it were not on the CPU yet.
 */
static bool switching_in(struct ks_walk *w, uint64_t task, int cpu,
			 const struct ks_stack_start *st, uint64_t sp)
{
	uint64_t owner;

	if (sp - st->stack_base < st->stack_size ||
	    ks_cpu_stack_owner(w->k, &w->cpu_sw, cpu, sp, &owner))
		return false;
	return owner && owner != task;
}

/* Why the unwinder stopped short: counted, said, and kept as the note. */
static void unwinder_note(struct ks_walk *w, struct ks_task *t, const char *note)
{
	w->st->nr_stack_notes++;
	/* the dump's fault, not the unwinder's: counted apart */
	if (!strcmp(note, KS_NOTE_STACK_UNREADABLE)) {
		w->st->nr_stack_unread++;
		t->missing = t->stack_missing = true;
	}
	ks_say(w->rep, KS_WARN, "PID %d: %s: %s", t->pid,
	       *t->stack ? "the stack ends early" : "no stack", note);
	t->note_said = true;
	t->note = strdup(note);
}

/* The stack is another task's too: said, and the note names both. */
static int shared_stack(struct ks_walk *w, uint64_t base, struct ks_task *t)
{
	int32_t other = stack_owner(w, base, t->pid);
	char buf[160];

	if (other <= 0)
		return other;
	snprintf(buf, sizeof(buf), "task->stack %#llx is PID %d's stack too: "
		 "one of the two task_structs is damaged",
		 (unsigned long long)base, other);
	w->st->nr_stack_notes++;
	ks_say(w->rep, KS_WARN, "PID %d: %s", t->pid, buf);
	t->note_said = true;
	free(t->note);
	t->note = strdup(buf);
	return t->note ? 0 : -ENOMEM;
}

/* The unwind of a task from st, and what it says. */
static int unwind(struct ks_walk *w, const struct ks_stack_start *st,
		  struct ks_task *t, const char *switch_note)
{
	const char *note = NULL;
	int ret;

	if (!w->k->unw) {
		t->stack = strdup("");
		t->note = ks_arch_unwind_missing(w->k->arch, w->k->unw_err);
		return t->stack ? 0 : -ENOMEM;
	}
	ret = w->k->arch->unwinder->stack_text(w->k->t, w->k->unw, st,
					       &t->stack, &note);
	if (ret)
		return ret;
	if (note && st->stack_base)
		unwinder_note(w, t, note);
	else if (switch_note && !(t->note = strdup(switch_note)))
		return -ENOMEM;
	return st->stack_base ? shared_stack(w, st->stack_base, t) : 0;
}

enum cpu_start { CPU_RUNS, CPU_SWITCHING_IN, CPU_NO_REGS, CPU_USER };

/*
 * A task on CPU cpu is unwound from the CPU's registers, unless it is
 * only switching onto it.
 */
static enum cpu_start on_cpu_start(struct ks_walk *w, uint64_t task, int cpu,
				   struct ks_stack_start *st)
{
	const struct ks_target *tg = w->k->t;
	struct ks_regs regs;

	if (cpu < 0 || tg->ops->cpu_regs(tg->ctx, cpu, &regs))
		return CPU_NO_REGS;
	if (!ks_arch_kernel_addr(w->k->arch, regs.ip))
		return CPU_USER;
	if (switching_in(w, task, cpu, st, regs.sp))
		return CPU_SWITCHING_IN;
	st->regs = regs;
	st->on_cpu = true;
	return CPU_RUNS;
}

int ks_task_stack(struct ks_walk *w, const uint8_t *tb, uint64_t task,
		  struct ks_task *t)
{
	const struct ks_kernel_layout *l = &w->k->l;
	struct ks_stack_start st = { 0 };
	const char *switch_note = NULL;
	enum cpu_start how;
	char buf[128];
	int cpu;

	st.stack_base = ks_field_get(tb, &l->stack);
	st.stack_size = l->thread_size;
	/* what the task's last switch saved (thread.sp, thread.cpu_context) */
	st.regs.sp = st.thread_sp = ks_field_get(tb, &l->sw.sp);
	if (ks_field_ok(&l->sw.fp))
		st.regs.bp = ks_field_get(tb, &l->sw.fp);
	if (ks_field_ok(&l->sw.pc))
		st.regs.ip = ks_field_get(tb, &l->sw.pc);
	/* where kretprobes and the graph tracer keep the return addresses they replaced */
	st.task = task;
	/* try_get_task_stack(): a dead task's stack is already freed. */
	if (ks_field_ok(&l->stack_refcount) && !ks_field_get(tb, &l->stack_refcount)) {
		st.stack_base = 0;
	} else if (!st.stack_base && ks_field_ok(&l->stack_refcount)) {
		snprintf(buf, sizeof(buf), "task->stack is NULL, yet the stack is not freed");
		goto unusual;
	}
	if (st.stack_base && ks_field_ok(&l->on_cpu) && ks_field_get(tb, &l->on_cpu)) {
		t->running = true;
		w->st->nr_on_cpu++;
		cpu = ks_field_ok(&l->cpu) ? (int)ks_field_get(tb, &l->cpu) : -1;
		how = on_cpu_start(w, task, cpu, &st);
		if (how == CPU_NO_REGS) {
			snprintf(buf, sizeof(buf),
				 "on CPU %d; its registers are not in the image", cpu);
			goto unusual;
		}
		if (how == CPU_USER) {
			snprintf(buf, sizeof(buf), "in user mode on CPU %d", cpu);
			goto empty;
		}
		if (how == CPU_SWITCHING_IN) {
			snprintf(buf, sizeof(buf), "switching onto CPU %d, which "
				 "still runs on another task's stack: the stack "
				 "its last switch saved", cpu);
			switch_note = buf;
		}
	}
	return unwind(w, &st, t, switch_note);
unusual:	/* an empty stack the kernel would not have printed empty */
	w->st->nr_stack_notes++;
	ks_say(w->rep, KS_WARN, "PID %d: no stack: %s", t->pid, buf);
	t->note_said = true;
empty:
	t->stack = strdup("");
	t->note = strdup(buf);
	return t->stack ? 0 : -ENOMEM;
}
