// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel finds a BPF symbol in a latch tree (bpf_ksym_find()); every
 * ksym in that tree is also on the bpf_kallsyms list (bpf_ksym_add()),
 * which is simpler to read out of a dump and gives the same answers,
 * since the ranges do not overlap.
 */
#include <errno.h>

#include "bpf_syms.h"
#include "kernel_list.h"
#include "kernel_string.h"

#define KSYM_NAME_LEN	512
/* BPF_COMPLEXITY_LIMIT_INSNS-bound programs: no host runs near this many. */
#define MAX_BPF_SYMS	(1u << 20)

struct bpf_walk {
	const struct ks_target *t;
	struct ks_sym_ranges *rs;
	long lnode, start, end, name;
};

static int add_ksym(uint64_t node, void *arg)
{
	struct bpf_walk *w = arg;
	uint64_t ksym = node - (uint64_t)w->lnode, start, end;
	char name[KSYM_NAME_LEN];

	if (ks_read_u64(w->t, ksym + (uint64_t)w->start, &start) ||
	    ks_read_u64(w->t, ksym + (uint64_t)w->end, &end))
		return -EFAULT;
	/* A name cut short or unreadable still marks the range as BPF's. */
	if (ks_read_kstring(w->t, ksym + (uint64_t)w->name, name, sizeof(name)) &&
	    !name[0])
		return -EFAULT;
	if (end <= start)
		return 0;
	return ks_sym_ranges_add(w->rs, start, end - start, name, NULL);
}

int ks_bpf_syms_read(const struct ks_target *t, struct ks_sym_ranges *rs)
{
	struct bpf_walk w = { .t = t, .rs = rs };
	uint64_t head;

	if (t->ops->symbol(t->ctx, "bpf_kallsyms", &head))
		return -ENOENT;
	w.lnode = t->ops->member_offset(t->ctx, "bpf_ksym", "lnode");
	w.start = t->ops->member_offset(t->ctx, "bpf_ksym", "start");
	w.end = t->ops->member_offset(t->ctx, "bpf_ksym", "end");
	w.name = t->ops->member_offset(t->ctx, "bpf_ksym", "name");
	if (w.lnode < 0 || w.start < 0 || w.end < 0 || w.name < 0)
		return -ENOENT;
	return ks_list_walk(t, head, MAX_BPF_SYMS, add_ksym, &w);
}
