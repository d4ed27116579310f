// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * VMCOREINFO's lines are "KEY=value\n"; crash_save_vmcoreinfo_init() and
 * arch_crash_save_vmcoreinfo() write SYMBOL(x) in hex and NUMBER(x) in
 * decimal.  A value is the whole rest of its line: "fffff,fff5" is no
 * address, and taking its first digits made a forged _stext of 0xfffff
 * that the kallsyms scan searched for seconds (fuzz_dump_open).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "vmcoreinfo.h"

#define VALUE_MAX	128	/* longer than any number or address */

int ks_vmcoreinfo_number(const struct ks_vmcoreinfo *vi, const char *key,
			 int base, int64_t *val_ret)
{
	char val[VALUE_MAX], *end;
	long long v;

	if (vi->line(vi->arg, key, val, sizeof(val)))
		return -ENOENT;
	errno = 0;
	v = strtoll(val, &end, base);
	if (errno || end == val || *end)
		return -ENOENT;
	*val_ret = v;
	return 0;
}

uint64_t ks_vmcoreinfo_symbol(const struct ks_vmcoreinfo *vi, const char *name)
{
	char key[96], val[VALUE_MAX], *end;
	unsigned long long v;

	snprintf(key, sizeof(key), "SYMBOL(%s)", name);
	if (vi->line(vi->arg, key, val, sizeof(val)))
		return 0;
	errno = 0;
	v = strtoull(val, &end, 16);
	return errno || end == val || *end ? 0 : v;
}

void ks_vmcoreinfo_kallsyms(const struct ks_vmcoreinfo *vi,
			    struct ks_kallsyms_mem_addrs *a_ret)
{
	*a_ret = (struct ks_kallsyms_mem_addrs){
		.names = ks_vmcoreinfo_symbol(vi, "kallsyms_names"),
		.num_syms = ks_vmcoreinfo_symbol(vi, "kallsyms_num_syms"),
		.token_table = ks_vmcoreinfo_symbol(vi, "kallsyms_token_table"),
		.token_index = ks_vmcoreinfo_symbol(vi, "kallsyms_token_index"),
		.offsets = ks_vmcoreinfo_symbol(vi, "kallsyms_offsets"),
		.relative_base = ks_vmcoreinfo_symbol(vi, "kallsyms_relative_base"),
		.addresses = ks_vmcoreinfo_symbol(vi, "kallsyms_addresses"),
		.stext = ks_vmcoreinfo_symbol(vi, "_stext"),
	};
}

void ks_vmcoreinfo_paging(const struct ks_vmcoreinfo *vi, struct ks_paging *pg)
{
	int64_t l5 = 0, me = 0;

	pg->levels = 4;
	if (!ks_vmcoreinfo_number(vi, "NUMBER(pgtable_l5_enabled)", 10, &l5) && l5)
		pg->levels = 5;
	pg->me_mask = 0;
	if (!ks_vmcoreinfo_number(vi, "NUMBER(sme_mask)", 10, &me))
		pg->me_mask = (uint64_t)me;
}
