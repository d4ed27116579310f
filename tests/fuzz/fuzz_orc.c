// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/kernel/arch/orc/orc_tables.c, shared/kernel/arch/orc/orc_unwind.c and shared/kernel/arch/x86_64_unwind.c on a
 * fake kernel (tests/support/fake_target.c) whose memory is the input:
 * vmlinux's ORC tables, the module list and its tables, a task's stack,
 * read and unwound into /proc/PID/stack's text.  The input is a header,
 * then memory segments:
 *
 *   u8  flags   bit 0: 6.4 orc_entry layout (it has "signal"); bit 1: the
 *               task was on a CPU (ip, sp, bp are its registers); bit 2:
 *               6.9's fgraph shadow stack; bit 3: orc_entry of 7 bytes
 *   u32 nr      entries of vmlinux's table, at ip_addr (int32 each) and
 *               orc_addr (6 bytes each)
 *   u64 ip_addr, orc_addr
 *   u64 _stext, _etext, _sinittext, _einittext, __sched_text_start,
 *       __sched_text_end, __lock_text_start, __lock_text_end,
 *       ret_from_fork, return_to_handler, arch_rethook_trampoline,
 *       modules (the list head): 0 for a symbol the kernel lacks
 *   u16 task_struct's __state, curr_ret_stack, ret_stack, rethooks
 *   u64 stack (16 KiB), sp (thread.sp), task (its task_struct), ip, bp
 *   then until the end: u64 addr, u32 len, len bytes mapped at addr
 *
 * tests/fuzz/make-seeds.py writes real stacks recorded from Debian
 * guests (tests/fixtures/orc) in this form.
 */
#include "fake_target.h"
#include "fuzz.h"
#include "x86_64_unwind.h"
#include "orc.h"

#define MAX_SEGS	64

static const char *const sym_names[] = {
	"_stext", "_etext", "_sinittext", "_einittext", "__sched_text_start",
	"__sched_text_end", "__lock_text_start", "__lock_text_end",
	"ret_from_fork", "return_to_handler", "arch_rethook_trampoline",
	"modules",
};
#define NR_SYMS	(sizeof(sym_names) / sizeof(sym_names[0]))

/* Linux 6.1's layouts; struct module as tests/unit/test_orc_unwind.c has it. */
static void add_types(struct ks_fake *f, unsigned int flags,
		      struct fuzz_in *in)
{
	static const char *const task_members[] = { "__state",
		"curr_ret_stack", "ret_stack", "rethooks" };

	ks_fake_add_type(f, "orc_entry", flags & 8 ? 7 : KS_ORC_ENTRY_SIZE);
	ks_fake_add_member(f, "orc_entry", "end", 4, -1);
	if (flags & 1)
		ks_fake_add_member(f, "orc_entry", "signal", 4, -1);
	ks_fake_add_type(f, "inactive_task_frame", 56);
	ks_fake_add_member(f, "inactive_task_frame", "bp", 40, 8);
	ks_fake_add_member(f, "inactive_task_frame", "ret_addr", 48, 8);
	for (size_t i = 0; i < 4; i++)
		ks_fake_add_member(f, "task_struct", task_members[i],
				   (long)fuzz_take(in, 2), 8);
	ks_fake_add_type(f, "ftrace_ret_stack", 32);
	ks_fake_add_member(f, "ftrace_ret_stack", "ret", 0, 8);
	ks_fake_add_member(f, "ftrace_ret_stack", "retp", 24, 8);
	ks_fake_add_member(f, "rethook_node", "llist", 16, 8);
	ks_fake_add_member(f, "rethook_node", "ret_addr", 32, 8);
	ks_fake_add_member(f, "rethook_node", "frame", 40, 8);
	ks_fake_add_member(f, "module", "state", 0, 4);
	ks_fake_add_member(f, "module", "list", 8, 16);
	ks_fake_add_member(f, "module", "name", 24, 56);
	ks_fake_add_member(f, "module", "arch", 80, 24);
	ks_fake_add_member(f, "module", "core_layout", 112, 48);
	ks_fake_add_member(f, "module", "init_layout", 160, 48);
	ks_fake_add_member(f, "module_layout", "base", 0, 8);
	ks_fake_add_member(f, "module_layout", "size", 8, 4);
	ks_fake_add_member(f, "module_layout", "text_size", 12, 4);
	ks_fake_add_member(f, "mod_arch_specific", "num_orcs", 0, 4);
	ks_fake_add_member(f, "mod_arch_specific", "orc_unwind_ip", 8, 8);
	ks_fake_add_member(f, "mod_arch_specific", "orc_unwind", 16, 8);
}

static void add_symbols(struct ks_fake *f, struct fuzz_in *in,
			unsigned int flags)
{
	uint64_t nr = fuzz_take(in, 4);
	uint64_t ip = fuzz_take(in, 8), orc = fuzz_take(in, 8);

	ks_fake_add_symbol(f, "__start_orc_unwind_ip", ip, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind_ip", ip + 4 * nr, 0, NULL);
	ks_fake_add_symbol(f, "__start_orc_unwind", orc, 0, NULL);
	ks_fake_add_symbol(f, "__stop_orc_unwind", orc + KS_ORC_ENTRY_SIZE * nr,
			   0, NULL);
	for (size_t i = 0; i < NR_SYMS; i++) {
		uint64_t addr = fuzz_take(in, 8);

		if (addr)
			ks_fake_add_symbol(f, sym_names[i], addr, 0, NULL);
	}
	if (flags & 4)
		ks_fake_add_symbol(f, "fgraph_array", 1, 0, NULL);
}

static void add_memory(struct ks_fake *f, struct fuzz_in *in)
{
	for (int i = 0; i < MAX_SEGS && in->n; i++) {
		uint64_t addr = fuzz_take(in, 8), len = fuzz_take(in, 4);

		if (len > in->n)
			len = in->n;
		if (ks_fake_add_memory(f, addr, in->p, (size_t)len))
			abort();
		in->p += len;
		in->n -= len;
	}
}

static void walk(const struct ks_target *t, struct ks_orc *orc,
		 const struct ks_stack_start *st)
{
	const char *note = NULL;
	char *text = NULL;
	int lines = 0;

	ks_orc_find(orc, st->regs.ip);
	ks_orc_kernel_text(orc, st->regs.ip);
	if (ks_stack_text(t, orc, st, &text, &note))
		return;
	fuzz_assert(text);
	/* at most 64 lines, each as proc_pid_stack() prints it */
	for (const char *l = text; *l; l = strchr(l, '\n') + 1) {
		fuzz_assert(!strncmp(l, "[<0>] ", 6) && strchr(l, '\n'));
		fuzz_assert(lines++ < KS_STACK_MAX_FRAMES);
	}
	free(text);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	struct ks_stack_start st = { .stack_size = KS_THREAD_SIZE_X86_64 };
	struct ks_fake *f = ks_fake_create();
	struct ks_orc *orc = NULL;
	struct ks_target t;
	unsigned int flags;

	if (!f)
		abort();
	flags = (unsigned int)fuzz_take(&in, 1);
	add_symbols(f, &in, flags);
	add_types(f, flags, &in);
	st.stack_base = fuzz_take(&in, 8);
	st.thread_sp = fuzz_take(&in, 8);
	st.task = fuzz_take(&in, 8);
	st.regs.ip = fuzz_take(&in, 8);
	st.regs.bp = fuzz_take(&in, 8);
	st.regs.sp = st.thread_sp;
	st.on_cpu = flags & 2;
	add_memory(f, &in);
	ks_fake_target(f, &t);
	if (!ks_orc_load(&t, &orc)) {
		walk(&t, orc, &st);
		ks_orc_free(orc);
	}
	ks_fake_destroy(f);
	return 0;
}
