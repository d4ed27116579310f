/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text /proc/PID/stack would print for a task in a kernel image:
 * fs/proc/base.c proc_pid_stack() -> stack_trace_save_tsk() ->
 * arch_stack_walk() with the ORC unwinder, or the frame-pointer one for a
 * kernel without ORC tables (orc->frame_pointers), Linux 6.1, x86_64: the
 * unwinder of ks_arch_x86_64 (arch/x86_64.c).
 */
#ifndef KS_KERNEL_STACK_H
#define KS_KERNEL_STACK_H

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"
#include "orc.h"
#include "stack_text.h"
#include "target.h"

/* THREAD_SIZE on x86_64 without KASAN: 16 KiB. */
#define KS_THREAD_SIZE_X86_64	16384

/*
 * struct ks_stack_start (arch.h) on x86_64: for on_cpu, regs.r[] holds
 * the first 16 words of struct pt_regs in the kernel's order (r15 r14
 * r13 r12 bp bx r11 r10 r9 r8 ax cx dx si di orig_ax: index with KS_PT_*
 * from orc.h); ip, sp and bp are taken from their own fields.  A blocked
 * task starts at thread_sp.
 */

/*
 * The text /proc/PID/stack would print, walked with unw (the struct
 * ks_orc ks_x86_64_unwinder's open() made): "[<0>] %pB\n" per frame, at most
 * 64 frames, without return addresses in [__sched_text_start,
 * __sched_text_end) or [__lock_text_start, __lock_text_end)
 * (stack_trace_consume_entry_nosched: they are dropped before they count
 * towards the 64).  A blocked task's walk starts at the return address
 * in its inactive_task_frame and skips nothing else; the kernel's extra
 * skip applies only to a task reading its own stack.
 *
 * The kernel prints nothing for a task running on another CPU
 * (task_on_another_cpu()); that choice is the caller's.  With on_cpu this
 * prints what stack_trace_save_regs() would: regs.ip first, then the walk
 * from the registers, filtered the same way.
 *
 * A stack_base of 0 (an exited task, whose stack is freed) gives "", as
 * try_get_task_stack() failing does in the kernel, with no note.
 *
 * Returns 0 and a malloc'ed string (maybe "") in *text_ret, or -errno
 * (-EINVAL, also for a stack_size of 0; -ENOMEM).  When the unwinder cannot pass a frame it keeps
 * what it has, as the kernel does, and *note_ret (a static string, or
 * NULL when the walk ended normally) says why; note_ret may be NULL.
 * An empty text always has a note, but for the two cases the kernel
 * prints empty too: no stack_base, and on_cpu in user mode.
 */
int ks_stack_text(const struct ks_target *t, void *unw,
		  const struct ks_stack_start *st, char **text_ret,
		  const char **note_ret);

/*
 * The 21 words of pt_regs from a struct ks_regs: cs from where ip
 * points (a note's registers keep none), the rest 0.
 */
void ks_x86_regs_to_pt(const struct ks_regs *regs, uint64_t pt[KS_PT_WORDS]);

struct ks_cpu;
struct ks_cpu_start;
/*
 * --cpus: one CPU's trace across its stacks (x86_64_cpu_trace.c), as
 * struct ks_arch's cpu_trace says.
 */
int ks_x86_cpu_trace(const struct ks_target *t, void *unw,
		     const struct ks_cpu_start *st, struct ks_cpu *c);

/*
 * The unwinder of ks_arch_x86_64 (arch.h's struct ks_unwinder): the ORC
 * tables, or the frame-pointer walk of a kernel without them, and the
 * text above.
 */
extern const struct ks_unwinder ks_x86_64_unwinder;

#endif /* KS_KERNEL_STACK_H */
