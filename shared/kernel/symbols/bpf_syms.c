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
#include "member_table.h"

#define KSYM_NAME_LEN	512
/* BPF_COMPLEXITY_LIMIT_INSNS-bound programs: no host runs near this many. */
#define MAX_BPF_SYMS	(1u << 20)

struct bpf_walk {
	const struct ks_target *t;
	struct ks_sym_ranges *rs;
	struct ks_field lnode, start, end, name;
};

static int add_ksym(uint64_t node, void *arg)
{
	struct bpf_walk *w = arg;
	uint64_t ksym = node - (uint64_t)w->lnode.off, start, end;
	char name[KSYM_NAME_LEN];

	if (ks_read_u64(w->t, ksym + (uint64_t)w->start.off, &start) ||
	    ks_read_u64(w->t, ksym + (uint64_t)w->end.off, &end))
		return -EFAULT;
	/* A name cut short or unreadable still marks the range as BPF's. */
	if (ks_read_kstring(w->t, ksym + (uint64_t)w->name.off, name, sizeof(name)) &&
	    !name[0])
		return -EFAULT;
	if (end <= start)
		return 0;
	return ks_sym_ranges_add(w->rs, start, end - start, name, NULL);
}

int ks_bpf_syms_read(const struct ks_target *t, struct ks_sym_ranges *rs)
{
	struct bpf_walk w = { .t = t, .rs = rs };
	const struct ks_field_spec s[] = {
		KS_NEED(&w.lnode, "bpf_ksym", "lnode"),
		KS_NEED(&w.start, "bpf_ksym", "start"),
		KS_NEED(&w.end, "bpf_ksym", "end"),
		KS_NEED(&w.name, "bpf_ksym", "name"),
	};
	uint64_t head;

	if (t->ops->symbol(t->ctx, "bpf_kallsyms", &head))
		return -ENOENT;
	if (ks_field_table_resolve(t, s, sizeof(s) / sizeof(s[0])))
		return -ENOENT;
	return ks_list_walk(t, head, MAX_BPF_SYMS, add_ksym, &w);
}
