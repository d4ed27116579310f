// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A linear search, as the kernel's own lists are searched: these tables
 * hold a few BPF programs and a module's freed init functions, and a
 * stack frame reaches them only after vmlinux and the modules said no.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "sym_ranges.h"

int ks_sym_ranges_add(struct ks_sym_ranges *rs, uint64_t start, uint64_t size,
		      const char *name, const char *module)
{
	struct ks_sym_range *r = ks_grow(rs->r, &rs->cap, rs->nr + 1, sizeof(*r));

	if (!r)
		return -ENOMEM;
	rs->r = r;
	r = &rs->r[rs->nr];
	r->start = start;
	r->size = size;
	r->name = strdup(name);
	r->module = module ? strdup(module) : NULL;
	if (!r->name || (module && !r->module)) {
		free(r->name);
		free(r->module);
		return -ENOMEM;
	}
	rs->nr++;
	return 0;
}

int ks_sym_ranges_find(const struct ks_sym_ranges *rs, uint64_t addr,
		       struct ks_sym *sym_ret)
{
	size_t i;

	for (i = 0; i < rs->nr; i++) {
		const struct ks_sym_range *r = &rs->r[i];

		if (addr - r->start < r->size) {
			sym_ret->name = r->name;
			sym_ret->addr = r->start;
			sym_ret->size = r->size;
			sym_ret->module = r->module;
			return 0;
		}
	}
	return -ENOENT;
}

void ks_sym_ranges_release(struct ks_sym_ranges *rs)
{
	size_t i;

	for (i = 0; i < rs->nr; i++) {
		free(rs->r[i].name);
		free(rs->r[i].module);
	}
	free(rs->r);
	memset(rs, 0, sizeof(*rs));
}
