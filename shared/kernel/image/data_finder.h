/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The last symbol finder of an image whose kallsyms names text only (a
 * kernel built without CONFIG_KALLSYMS_ALL: Debian 12's arm64 6.1): the
 * few variables the walkers start from, found in the dump and checked
 * against what the kernel keeps in them.
 *
 *   init_uts_ns         VMCOREINFO's SYMBOL(init_uts_ns)
 *   init_task           the one swapper/0 in the image's data from
 *                       _einittext on whose pid and tgid are 0, whose
 *                       real_parent and group_leader are itself and whose
 *                       tasks list links back to it (init/init_task.c)
 *   tk_core             what ktime_get_real_seconds() reads (xtime_sec),
 *                       its clocks those of a timekeeper
 *   runqueues,          what idle_cpu() reads: the pair whose CPU 0
 *   __per_cpu_offset    runqueue says cpu 0 and has init_task as its idle
 *   modules             the list head module_kallsyms_lookup_name() walks,
 *                       linked both ways, each module named
 *   kprobe_table        what get_kprobe() hashes into: 64 hlist heads,
 *                       each empty or its first node pointing back
 *   kprobes_all_disarmed  the one byte read_enabled_file_bool() loads,
 *                       0 or 1, in the data after the init text
 *   ftrace_ops_list,    what arch_ftrace_ops_list_func() walks: its ops
 *   ftrace_list_end     lead by next to the one of ftrace_stub, the end
 *   ftrace_pages_start  what ftrace_location_range() searches: pages of
 *                       records at vmlinux text, its first record first
 *   global_trace        what tracing_is_on() reads: a trace_array on a
 *                       linked list, its current tracer named
 *   global_ops          global_trace.ops (ftrace_init_global_array_ops())
 *   cgrp_dfl_visible    the one byte cgroup_get_tree() stores, 0 or 1
 *   ftrace_mod_maps     the list ftrace_mod_address_lookup() walks, and
 *   bpf_kallsyms        the one bpf_get_kallsym() walks: linked both
 *                       ways, each node's range start <= end
 *   jiffies_64          what jiffies_read() loads: 8 bytes, from
 *                       INITIAL_JIFFIES (2^32 - 300 HZ) on
 *   clocksource_jiffies what register_refined_jiffies() copies: the
 *                       clocksource named "jiffies" whose read is
 *                       jiffies_read()
 *
 * Each one found is named by lookup too, at its address exactly.
 *
 * The addresses in code come from the arch's code_refs(); an arch
 * without one finds init_task and init_uts_ns only.  It is asked only
 * after every other finder (KS_FIND_FALLBACK), so on a kernel whose
 * kallsyms has the symbol it never answers.  What it cannot find, it
 * says once per name through the reporter, with the reason.
 */
#ifndef KS_DATA_FINDER_H
#define KS_DATA_FINDER_H

#include <stdbool.h>
#include <stdint.h>

#include "arch.h"
#include "report.h"
#include "sym_finders.h"
#include "target.h"

#define KS_DATA_MAX	20

struct ks_data_finder {
	/*
	 * The image's own target: its reads, its types (BTF) and its
	 * symbols (the whole chain, this finder last).
	 */
	struct ks_target t;
	const struct ks_arch *arch;	/* NULL: no code references */
	const struct ks_reporter *rep;
	struct {
		const char *name;
		uint64_t addr;
		int ret;	/* 0 found, -ENOENT not (or being looked for) */
		bool asked;
	} found[KS_DATA_MAX];
	unsigned int nr;
	uint64_t per_cpu_offset;	/* found with runqueues */
};

/*
 * d over the image target t (copied: its ctx must outlive d); report
 * says what cannot be found, once per name.
 */
void ks_data_finder_init(struct ks_data_finder *d, const struct ks_target *t,
			 const struct ks_reporter *rep);
/* d as the fallback of a list of finders. */
struct ks_sym_finder ks_finder_data(struct ks_data_finder *d);
/* The answer for name: 0, or -ENOENT (said once through rep). */
int ks_data_finder_symbol(struct ks_data_finder *d, const char *name,
			  uint64_t *addr_ret);
/*
 * The name of a variable found so far at exactly addr (size 0: where it
 * ends is not known), so that an ftrace_ops is named as with a vmlinux;
 * -ENOENT for any other address.
 */
int ks_data_finder_lookup(const struct ks_data_finder *d, uint64_t addr,
			  struct ks_sym *sym_ret);
/* How many it found, for -v. */
unsigned int ks_data_finder_count(const struct ks_data_finder *d);

#endif /* KS_DATA_FINDER_H */
