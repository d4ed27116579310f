/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Names of JITed BPF code: programs (bpf_prog_<tag>_<name>), the BPF
 * dispatcher and trampolines, as bpf_address_lookup() gives them to
 * kallsyms_lookup() (kernel/bpf/core.c, Linux 6.1 and 6.12).
 */
#ifndef KS_BPF_SYMS_H
#define KS_BPF_SYMS_H

#include "sym_ranges.h"
#include "target.h"

/*
 * Appends every struct bpf_ksym on the bpf_kallsyms list to rs, without
 * a module: %pS prints a BPF symbol bare.  -ENOENT for a kernel without
 * the list or its members; -EFAULT or -ELOOP for a list that breaks (the
 * symbols before the break are kept); -ENOMEM.
 */
int ks_bpf_syms_read(const struct ks_target *t, struct ks_sym_ranges *rs);

#endif /* KS_BPF_SYMS_H */
