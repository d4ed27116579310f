/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What differs between the architectures kstack reads, behind one small
 * table: the page walk, where the context switch left a sleeping task's
 * registers, a CPU's registers in the dump's notes, the unwinder of
 * /proc/PID/stack and the few constants they need.  A target says which
 * architecture it is (struct ks_target's arch), chosen once by
 * ks_arch_resolve() where the target is made; every walker asks the
 * table, never the machine's name.
 *
 * One file per architecture: x86_64.c (ORC, shared/kernel/arch/orc/), arm64.c
 * (frame records, arm64_unwind.c).  A third one is a third file and a row
 * of arches[] in arch.c.
 */
#ifndef KS_ARCH_H
#define KS_ARCH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "member_table.h"
#include "report.h"
#include "target.h"

struct ks_cpu;
struct ks_cpu_start;
struct ks_kernel_tables;
struct ks_paging;
struct ks_vmcoreinfo;

/*
 * Where a walk starts.  For a blocked task regs is what its last context
 * switch saved (x86_64: sp alone, thread.sp; arm64: thread.cpu_context's
 * sp, fp and pc); for on_cpu it is the CPU's registers from the dump's
 * notes, in the arch's own order (struct ks_regs).
 */
struct ks_stack_start {
	uint64_t stack_base;	/* task->stack */
	uint64_t stack_size;	/* THREAD_SIZE */
	uint64_t thread_sp;	/* the saved stack pointer of a blocked task */
	bool on_cpu;		/* use regs as a CPU's, not as the switch's */
	struct ks_regs regs;
	/*
	 * The task_struct, or 0.  Needed only to recover return addresses
	 * that a kretprobe or the function-graph tracer replaced (the
	 * kernel keeps the real ones in the task), and to find the final
	 * frame record at task_pt_regs() on arm64.
	 */
	uint64_t task;
};

/* The task_struct fields the switch saved registers in: sp, fp, pc. */
struct ks_switch_layout {
	struct ks_field sp, fp, pc;	/* not ok: the arch keeps none there */
};

/* An address some code forms (code_refs()), and how it uses it. */
struct ks_code_ref {
	uint64_t addr;
	unsigned int size;	/* bytes loaded or stored there; 0: formed only */
	bool store;
};

/* One register of a CPU by the name its note reader gives it. */
typedef int (*ks_reg_fn)(void *arg, const char *name, uint64_t *val_ret);

/* A register by that name, and where struct ks_regs keeps it. */
struct ks_reg_name {
	const char *name;
	size_t off;		/* offsetof(struct ks_regs, ...) */
};

/*
 * The page walk, in each architecture's <arch>_page_walk.c.
 */
struct ks_paging_ops {
	/* as ks_page_translate() (page_walk.h) */
	int (*translate)(const struct ks_target *t, const struct ks_paging *pg,
			 uint64_t pgd, uint64_t vaddr, uint64_t *paddr_ret,
			 uint64_t *left_ret);
	/* __pa() of a linear-map address; -EFAULT outside the linear map. */
	int (*linear_pa)(const struct ks_paging *pg, uint64_t vaddr,
			 uint64_t *paddr_ret);
	/*
	 * The walk's facts from VMCOREINFO and, where the kernel randomizes
	 * the linear map's base, the symbols and memory of t: 0, or -ENOENT
	 * with pg->page_offset 0 (no walk, no user memory).
	 */
	int (*find_paging)(const struct ks_target *t,
			   const struct ks_vmcoreinfo *vi, struct ks_paging *pg);
	/*
	 * The kernel half's tables (after find_paging()), for a source that
	 * reads the kernel untranslated: 0, or -ENOENT.
	 */
	int (*kernel_tables)(const struct ks_vmcoreinfo *vi,
			     const struct ks_paging *pg,
			     struct ks_kernel_tables *kt_ret);
};

/*
 * The unwinder of /proc/PID/stack: its tables read once (NULL state is
 * fine), freed, and the text of one task's stack (as ks_stack_text() in
 * x86_64_unwind.h says).  open's error is kept: without an unwinder the
 * tasks are still listed, and missing() says why each stack is empty,
 * report() why all of them are.
 */
struct ks_unwinder {
	int (*open)(const struct ks_target *t, void **unw_ret);
	void (*close)(void *unw);
	int (*stack_text)(const struct ks_target *t, void *unw,
			  const struct ks_stack_start *st, char **text_ret,
			  const char **note_ret);
	/*
	 * Why each stack is empty, for open()'s err: "lack: reason", the
	 * reason missing()'s static text where it says more than strerror()
	 * (NULL where it does not).
	 */
	const char *lack;
	const char *(*missing)(int err);
	/* -v's note on the unwinder open() chose, or NULL (optional) */
	const char *(*note)(void *unw);
	/* The whole kernel's notes; returns how many parts lack data. */
	size_t (*report)(void *unw, int err, const struct ks_reporter *rep);
};

struct ks_arch {
	const char *name;		/* as messages print it */
	const char *const *aliases;	/* other names sources give: NULL-ended */
	unsigned int elf_machine;	/* e_machine of its dumps and kcore */
	uint64_t kernel_start;		/* the lowest kernel virtual address */
	uint64_t thread_size;		/* THREAD_SIZE without KASAN */
	uint64_t page_sizes;		/* each page size it is built with, a bit */
	/*
	 * Whether it has an arch_ftrace_trampoline_func() (x86's decodes the
	 * call in ftrace_caller or a trampoline); the weak default of the
	 * others names no target, so t_show() prints no "->".
	 */
	bool ftrace_tramp_func;
	/*
	 * _stext's link address where the kernel has one default (x86-64:
	 * __START_KERNEL_map + CONFIG_PHYSICAL_START's 16 MiB), for the KASLR
	 * offset of a dump without KERNELOFFSET or a vmlinux; 0 for none.
	 */
	uint64_t default_stext;
	/* sizeof(struct elf_prstatus): a CPU note's descriptor, at least */
	uint32_t prstatus_size;

	const struct ks_paging_ops *paging;

	/*
	 * The switch's registers: finds the fields in the task_struct's
	 * thread (at thread_off) once, a missing one named through rep.
	 */
	int (*switch_layout)(const struct ks_target *t, long thread_off,
			     struct ks_switch_layout *sw,
			     const struct ks_reporter *rep);
	/* A CPU's registers from an NT_PRSTATUS note's descriptor. */
	int (*prstatus_regs)(const void *desc, size_t len,
			     struct ks_regs *regs_ret);
	/*
	 * The same from a reader that names each register (libkdumpfile's
	 * cpu.N.reg.NAME), read in this order by ks_arch_named_regs():
	 * ended by a NULL name.
	 */
	const struct ks_reg_name *reg_names;

	const struct ks_unwinder *unwinder;
	/*
	 * --cpus: the lines of one CPU's trace (cpu_record.h) from its
	 * registers, across every stack the CPU crossed, as its kernel's
	 * stack dump writes them; a trace cut short says why in the
	 * record's note.  0 or -errno.  NULL: not read on this architecture
	 * yet, and the walker says so (x86_64: x86_64_cpu_trace.c over
	 * x86_64_stacks.c; arm64: arm64_cpu_trace.c, over its IRQ,
	 * overflow and SDEI stacks).
	 */
	int (*cpu_trace)(const struct ks_target *t, void *unw,
			 const struct ks_cpu_start *st, struct ks_cpu *cpu);
	/*
	 * Its stack dump's spelling of the registers: __show_regs()'s
	 * "pc : ", "lr : ", "sp : " and "Call trace:" (arm64), or x86's
	 * "RIP: ", "RSP: " and "Call Trace:".
	 */
	bool regs_pc_lr;

	/*
	 * The kernel addresses that code (len bytes of text at pc) forms
	 * from its own place, each use once, up to max kept and the count
	 * returned: how image/data_finder.c finds a variable that kallsyms
	 * does not name through a function that reads it.  NULL where no
	 * kernel of the arch needs it (x86-64's kallsyms names its data).
	 */
	size_t (*code_refs)(const void *code, size_t len, uint64_t pc,
			    struct ks_code_ref *refs, size_t max);

	/*
	 * -K's check of the code at a probed address (kprobe_walk.c): the
	 * bytes read there (x86's call and jmp rel32: 5; arm64's one
	 * instruction: 4), the KS_CODE_ (hooks_records.h) of the breakpoint
	 * arch_arm_kprobe() writes, and the decoder of those bytes.
	 */
	unsigned int probe_len;
	int probe_breakpoint;
	int (*probe_code)(const uint8_t *code);
};

extern const struct ks_arch ks_arch_x86_64;
extern const struct ks_arch ks_arch_arm64;

/*
 * The one choice of an architecture's table, by the name its source gives
 * (a name or one of its aliases) or, with name NULL, by ELF e_machine (0:
 * none): 0, or -EPROTONOSUPPORT after saying through rep (NULL: say
 * nothing) that kstack does not read it.  The image opener and crash's
 * target choose the target's table so; the dump header checks, the
 * table of the machine their header names.
 */
int ks_arch_resolve(const char *name, unsigned int e_machine,
		    const struct ks_arch **arch_ret,
		    const struct ks_reporter *rep);

/*
 * Why no stack can be walked, for the unwinder's open() err: a malloc'ed
 * "lack: reason" (NULL when memory ran out), each task's and each
 * CPU's note.
 */
char *ks_arch_unwind_missing(const struct ks_arch *a, int err);

/*
 * A CPU's registers through get(), by a->reg_names, the first error
 * returned as it is (the others are not asked for): 0 or get()'s error.
 */
int ks_arch_named_regs(const struct ks_arch *a, ks_reg_fn get, void *arg,
		       struct ks_regs *regs_ret);

static inline bool ks_arch_kernel_addr(const struct ks_arch *a, uint64_t addr)
{
	return addr >= a->kernel_start;
}

#endif /* KS_ARCH_H */
