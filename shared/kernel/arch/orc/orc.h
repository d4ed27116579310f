/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's ORC unwind tables, read from kernel memory, and a port of
 * the x86_64 ORC unwinder (arch/x86/kernel/unwind_orc.c, Linux 6.1) that
 * walks a task's stack through struct ks_target only.
 *
 * orc_tables.c loads and searches the tables (unwind_init, orc_find,
 * __orc_find, orc_module_find); orc_unwind.c holds the unwinder
 * (__unwind_start, unwind_next_frame, unwind_get_return_address).
 */
#ifndef KS_ORC_H
#define KS_ORC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "kernel_modules.h"
#include "target.h"

/*
 * Base registers with the numbers of arch/x86/include/asm/orc_types.h from
 * 4.14 to 7.0; 7.1 renumbered them and added AX, which ks_orc_decode()
 * maps onto these.
 */
enum {
	KS_ORC_REG_UNDEFINED	= 0,
	KS_ORC_REG_PREV_SP	= 1,
	KS_ORC_REG_DX		= 2,
	KS_ORC_REG_DI		= 3,
	KS_ORC_REG_BP		= 4,
	KS_ORC_REG_SP		= 5,
	KS_ORC_REG_R10		= 6,
	KS_ORC_REG_R13		= 7,
	KS_ORC_REG_BP_INDIRECT	= 8,
	KS_ORC_REG_SP_INDIRECT	= 9,
	KS_ORC_REG_AX		= 10,	/* 7.1+ only */
	KS_ORC_REG_UNKNOWN	= 15,	/* a number the layout does not define */
};

/*
 * Frame types with 6.1's meaning (UNWIND_HINT_TYPE_CALL/REGS/REGS_PARTIAL).
 * Entries in the 6.4+ layout are normalized on load: END_OF_STACK becomes
 * sp_reg UNDEFINED with end set, UNDEFINED becomes sp_reg UNDEFINED with
 * end clear, exactly the two cases 6.1's unwind_next_frame() tells apart.
 */
enum {
	KS_ORC_TYPE_CALL		= 0,
	KS_ORC_TYPE_REGS		= 1,
	KS_ORC_TYPE_REGS_PARTIAL	= 2,
	KS_ORC_TYPE_UNKNOWN		= 15,	/* unwind_next_frame() errs */
};

/* One decoded struct orc_entry. */
struct ks_orc_entry {
	int16_t sp_offset;
	int16_t bp_offset;
	uint8_t sp_reg;
	uint8_t bp_reg;
	uint8_t type;
	bool end;
	/*
	 * The next lookup uses the exact ip, not ip - 1: 6.4+ stores it
	 * (state->signal = orc->signal); for 6.1 it is what
	 * unwind_next_frame() sets by type: true for REGS and REGS_PARTIAL.
	 */
	bool signal;
};

/* Bytes of one struct orc_entry in memory (__packed, both layouts). */
#define KS_ORC_ENTRY_SIZE	6

enum ks_orc_layout {
	KS_ORC_LAYOUT_6_1,	/* sp_reg:4 bp_reg:4 type:2 end:1 (4.14 .. 6.2) */
	KS_ORC_LAYOUT_6_4,	/* sp_reg:4 bp_reg:4 type:3 signal:1 (6.4 .. 7.0) */
	KS_ORC_LAYOUT_7_1,	/* the same bits, registers renumbered (7.1 ..) */
};

/* Bytes of the .orc_header hash (6.4+: scripts/orc_hash.sh, a SHA-1). */
#define KS_ORC_HASH_SIZE	20

/* A sorted table: ip[i] is the absolute address entry orc[i] starts at. */
struct ks_orc_table {
	uint64_t *ip;
	struct ks_orc_entry *orc;
	size_t num;
};

struct ks_orc_module {
	char name[KS_MODULE_NAME_LEN];
	uint64_t addr;				/* struct module */
	struct ks_range text[2];		/* core and init text */
	struct ks_range all[KS_MODULE_RANGES];	/* within_module() */
	int nr_all;
	struct ks_orc_table table;
};

/*
 * Where kretprobes (rethook) and the function-graph tracer keep the
 * return addresses they replaced on a task's stack.  -1 for a member the
 * kernel does not have: such a return address then stays unrecovered.
 */
struct ks_ret_layout {
	struct ks_field task_state;		/* task_struct.__state */
	/* task_struct, CONFIG_FUNCTION_GRAPH_TRACER */
	struct ks_field curr_ret_stack, ret_stack;
	long frs_size;				/* struct ftrace_ret_stack */
	struct ks_field frs_ret, frs_retp;
	struct ks_field rethooks;		/* task_struct.rethooks, an llist_head */
	struct ks_field rhn_llist, rhn_ret_addr, rhn_frame;	/* struct rethook_node */
};

struct ks_orc {
	enum ks_orc_layout layout;
	/*
	 * No ORC tables (ks_orc_load_text()): the kernel unwinds with frame
	 * pointers, and so does kstack (shared/kernel/arch/fp/fp_unwind.c).
	 */
	bool frame_pointers;
	struct ks_orc_table vmlinux;
	/* core_kernel_text() and is_kernel_inittext() */
	struct ks_range stext, inittext;
	struct ks_orc_module *mods;
	size_t nr_mods;
	/*
	 * What could not be read of the modules and their list, a line
	 * each, for the caller to report: a module there lost its ORC
	 * table (or was left out), the others are as they should be.
	 */
	char **problems;
	size_t nr_problems, problems_cap;

	/* Filled by ks_orc_prepare_walk() on first use. */
	bool walk_ready;
	struct ks_range sched_text, lock_text;
	uint64_t ret_from_fork;
	uint64_t error_entry;		/* 0: not named (unwound as ORC says) */
	uint64_t return_to_handler, rethook_trampoline;
	bool fgraph_shadow_stack;	/* 6.9+ ret_stack: not recovered */
	bool fred;			/* CONFIG_X86_FRED: pt_regs may sit 16 bytes lower */
	uint64_t frame_size, frame_bp, frame_ret_addr;	/* inactive_task_frame */
	struct ks_ret_layout ret;
};

/*
 * Reads vmlinux's ORC table and every module's.  Returns 0 and a new
 * struct ks_orc, or -errno for vmlinux's table (-ENOENT without
 * __start_orc_unwind_ip, -EINVAL for a malformed table, -ENOTSUP for an
 * orc_entry of another size, -EPROTONOSUPPORT for an .orc_header hash
 * not known here, -EFAULT) or -ENOMEM.  A module or module
 * list that cannot be read fails nothing: it is in orc->problems.
 */
int ks_orc_load(const struct ks_target *t, struct ks_orc **orc_ret);
/*
 * For a kernel without ORC tables: the same struct with the kernel's and
 * the modules' text ranges only (__kernel_text_address() and the sched
 * text need them) and frame_pointers set.  -ENOENT without _stext.
 */
int ks_orc_load_text(const struct ks_target *t, struct ks_orc **orc_ret);
void ks_orc_free(struct ks_orc *orc);

/* orc_find(): the entry for ip, or NULL where the kernel has none. */
const struct ks_orc_entry *ks_orc_find(const struct ks_orc *orc, uint64_t ip);
/* __kernel_text_address() as far as a dump can tell (no BPF, trampolines). */
bool ks_orc_kernel_text(const struct ks_orc *orc, uint64_t addr);
/* Decodes one 6-byte struct orc_entry of the given layout. */
void ks_orc_decode(enum ks_orc_layout layout, const uint8_t raw[KS_ORC_ENTRY_SIZE],
		   struct ks_orc_entry *e);

/* pt_regs words on x86_64, in the kernel's order (arch/x86/include/asm/ptrace.h). */
enum {
	KS_PT_R15, KS_PT_R14, KS_PT_R13, KS_PT_R12, KS_PT_BP, KS_PT_BX,
	KS_PT_R11, KS_PT_R10, KS_PT_R9, KS_PT_R8, KS_PT_AX, KS_PT_CX,
	KS_PT_DX, KS_PT_SI, KS_PT_DI, KS_PT_ORIG_AX, KS_PT_IP, KS_PT_CS,
	KS_PT_FLAGS, KS_PT_SP, KS_PT_SS,
	KS_PT_WORDS
};
#define KS_PT_REGS_SIZE		(KS_PT_WORDS * 8)
#define KS_IRET_FRAME_OFFSET	(KS_PT_IP * 8)
#define KS_IRET_FRAME_SIZE	((KS_PT_WORDS - KS_PT_IP) * 8)

/*
 * get_stack_info() beyond the task stack, for a walk of a CPU's stacks
 * (--cpus): true with *stack_ret set when addr is on another stack of
 * that CPU the walk may enter (each one once, as visit_mask allows).
 */
typedef bool (*ks_other_stack_fn)(void *arg, uint64_t addr,
				  struct ks_range *stack_ret);

/* struct unwind_state, with the used part of the stack copied in. */
struct ks_unwind_state {
	const struct ks_target *t;
	const struct ks_orc *orc;
	uint64_t task;			/* task_struct, or 0 if unknown */
	uint64_t kr_cur;		/* rethook list cursor, an llist_node */
	struct ks_range stack;		/* the task stack, stack_info */
	bool stack_known;		/* stack_info.type != STACK_TYPE_UNKNOWN */
	uint8_t *copy;			/* the stack from copy_start up, or NULL */
	uint64_t copy_start;
	uint64_t ip, sp, bp;
	bool signal, error;
	bool regs, full_regs, prev_regs;
	uint64_t regs_buf[KS_PT_WORDS], prev_buf[KS_PT_WORDS];
	uint64_t regs_addr;		/* where regs_buf's pt_regs is, or 0 */
	unsigned long steps;
	/* the frame-pointer unwinder's: struct unwind_state's next_bp, orig_sp */
	uint64_t next_bp, orig_sp;
	const char *note;		/* why error was set */
	bool note_is_cause;		/* note names a frame known to be wrong */
	/*
	 * The CPU's other stacks (IRQ, exception, entry), NULL for a task
	 * that is not current: then the walk stays on its task stack.
	 */
	ks_other_stack_fn other_stack;
	void *other_arg;
};

/*
 * __unwind_start() for a task that is not running: from thread.sp.  task
 * (the task_struct, or 0) lets replaced return addresses be recovered.
 * Call ks_orc_prepare_walk() once before.
 */
void ks_unwind_start_blocked(struct ks_unwind_state *s, const struct ks_target *t,
			     const struct ks_orc *orc, uint64_t task,
			     struct ks_range stack, uint64_t thread_sp);
/* __unwind_start() from registers; regs is in KS_PT_* order. */
void ks_unwind_start_regs(struct ks_unwind_state *s, const struct ks_target *t,
			  const struct ks_orc *orc, uint64_t task,
			  struct ks_range stack, const uint64_t regs[KS_PT_WORDS]);
/*
 * The same for the task current on a CPU, whose walk may cross onto the
 * CPU's other stacks through other_stack (get_stack_info() for current).
 */
void ks_unwind_start_cpu(struct ks_unwind_state *s, const struct ks_target *t,
			 const struct ks_orc *orc, uint64_t task,
			 struct ks_range stack, const uint64_t regs[KS_PT_WORDS],
			 ks_other_stack_fn other_stack, void *other_arg);
bool ks_unwind_next_frame(struct ks_unwind_state *s);

/*
 * One x86_64 unwinder over struct ks_unwind_state: ORC's
 * (ks_unwind_start_blocked(), _start_regs() and _next_frame() above),
 * or the frame-pointer walk of a kernel without ORC tables
 * (fp_unwind.h).  x86_64_unwind.c steps whichever the kernel has.
 */
struct ks_x86_unwinder {
	void (*start_blocked)(struct ks_unwind_state *, const struct ks_target *,
			      const struct ks_orc *, uint64_t task,
			      struct ks_range stack, uint64_t thread_sp);
	void (*start_regs)(struct ks_unwind_state *, const struct ks_target *,
			   const struct ks_orc *, uint64_t task,
			   struct ks_range stack,
			   const uint64_t regs[KS_PT_WORDS]);
	bool (*next_frame)(struct ks_unwind_state *);
};

extern const struct ks_x86_unwinder ks_orc_unwinder;
/*
 * unwind_get_return_address_ptr(): the stack slot the frame's return
 * address came from (the ip of saved regs, else sp - 8), 0 for none.
 */
uint64_t ks_unwind_get_return_address_ptr(const struct ks_unwind_state *s);
uint64_t ks_unwind_get_return_address(const struct ks_unwind_state *s);
/*
 * Did the walk reach the user-mode registers the entry code saved at the
 * top of the task stack (task_pt_regs())?  That is the one good end of a
 * user task's walk (arch_stack_walk_reliable()); a user address met
 * anywhere else is a wrong frame.
 */
bool ks_unwind_at_user_regs(const struct ks_unwind_state *s);
void ks_unwind_release(struct ks_unwind_state *s);

/*
 * Shared with the frame-pointer unwinder (fp_unwind.c): the state over a
 * copy of the stack from sp up, a read of it, and
 * unwind_recover_ret_addr(): the real return address behind a
 * function-graph or kretprobe trampoline in the slot at addr_p.
 */
void ks_unwind_state_init(struct ks_unwind_state *s, const struct ks_target *t,
			  const struct ks_orc *orc, uint64_t task,
			  struct ks_range stack, uint64_t sp);
bool ks_unwind_stack_read(struct ks_unwind_state *s, uint64_t addr, void *buf,
			  size_t len);
uint64_t ks_unwind_recover_ret_addr(struct ks_unwind_state *s, uint64_t addr,
				    uint64_t addr_p);

/* The walk is over (the kernel's "the_end:"): false, to be returned. */
static inline bool ks_unwind_end(struct ks_unwind_state *s)
{
	s->stack_known = false;
	return false;
}

/* Both unwinders' first step in unwind_next_frame(): true to stop. */
bool ks_unwind_step_ends(struct ks_unwind_state *s);

/* user_mode() on x86_64: the privilege level in the saved cs. */
static inline bool ks_user_mode(const uint64_t regs[KS_PT_WORDS])
{
	return regs[KS_PT_CS] & 3;
}

static inline bool ks_unwind_done(const struct ks_unwind_state *s)
{
	return !s->stack_known;
}

/* The first doubt about a walk is its note; a later one does not replace it. */
static inline void ks_unwind_note(struct ks_unwind_state *s, const char *why)
{
	if (!s->note)
		s->note = why;
}

/* Section bounds and frame layout the walk needs; cached in orc. */
int ks_orc_prepare_walk(const struct ks_target *t, struct ks_orc *orc);

#endif /* KS_ORC_H */
