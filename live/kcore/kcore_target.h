/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * struct ks_target over the running kernel: memory and VMCOREINFO from
 * /proc/kcore, vmlinux symbols from the kernel's own kallsyms tables,
 * types from /sys/kernel/btf/vmlinux (or the BTF in memory).  The hooks
 * walkers run on it as on a dump, so live -K -v and -F -v show what
 * debugfs does not: handlers, owners, the bytes at each probe, every
 * ftrace_ops.
 */
#ifndef KS_KCORE_TARGET_H
#define KS_KCORE_TARGET_H

#include <stddef.h>

#include "report.h"
#include "target.h"

struct ks_kcore_target;

/*
 * Opens kcore (normally /proc/kcore) and btf (normally
 * /sys/kernel/btf/vmlinux, may be NULL).  On failure returns a negative
 * errno (-EACCES/-EPERM: no privilege or a locked-down kernel) after
 * saying why through rep (may be NULL).
 */
int ks_kcore_target_open(const char *kcore, const char *btf,
			 struct ks_kcore_target **kt_ret, struct ks_target *t_ret,
			 const struct ks_reporter *rep);
void ks_kcore_target_close(struct ks_kcore_target *kt);

#endif /* KS_KCORE_TARGET_H */
