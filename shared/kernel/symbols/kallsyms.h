/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * kallsyms_lookup_buildid() (kernel/kallsyms.c, 6.1 and 6.12) past the
 * vmlinux table: modules (core text, and init text while it is mapped),
 * then BPF (bpf_address_lookup()), then ftrace_mod_maps
 * (ftrace_mod_address_lookup()).  Every target asks its vmlinux symbols
 * first and this chain second, so %pB and %pS name an address the same
 * way in crash, in --vmcore and in stacks.
 *
 * ftrace trampolines and kprobe instruction slots are not in this chain:
 * /proc/kallsyms lists them ([__builtin__ftrace], [__builtin__kprobes]),
 * but kallsyms_lookup() does not know them, so %pS prints their bare
 * address (enabled_functions' "tramp: 0xffffffffc0436000"), and so do we.
 */
#ifndef KS_KALLSYMS_H
#define KS_KALLSYMS_H

#include <stddef.h>

#include "report.h"
#include "target.h"

struct ks_kallsyms;

/* How each source fared, for -v.  An error is 0 or a negative errno. */
struct ks_kallsyms_stats {
	size_t modules, modules_skipped, bpf, ftrace_mod;
	int modules_err, bpf_err, ftrace_mod_err;
};

/*
 * Reads every source once.  A source the kernel lacks or that is broken
 * is left empty and noted in the stats; only -ENOMEM fails the call.
 */
int ks_kallsyms_load(const struct ks_target *t, struct ks_kallsyms **k_ret);
void ks_kallsyms_free(struct ks_kallsyms *k);

/* The symbol holding addr, in the kernel's order; -ENOENT if none. */
int ks_kallsyms_lookup(const struct ks_kallsyms *k, uint64_t addr,
		       struct ks_sym *sym_ret);
void ks_kallsyms_stats(const struct ks_kallsyms *k, struct ks_kallsyms_stats *s);
/*
 * -v: each source that failed, how the module list ended early
 * (ks_module_syms_error()) and the modules it could not read
 * (ks_module_syms_unread()), one message each; nothing when all is well.
 */
void ks_kallsyms_report(const struct ks_kallsyms *k,
			const struct ks_reporter *rep);

#endif /* KS_KALLSYMS_H */
