// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * %pB.  The target's lookup applies the kallsyms rules (which of several
 * aliases, the size as the distance to the next symbol); this file only
 * does what __sprint_symbol() does with the answer.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>

#include "symbolize.h"

int ks_sym_format_pB(const struct ks_target *t, uint64_t addr, char *buf,
		     size_t len)
{
	struct ks_sym sym;
	int n;

	if (!buf && len)
		return -EINVAL;

	/* sprint_backtrace(): address += symbol_offset (-1) before the lookup. */
	if (t->ops->lookup(t->ctx, addr - 1, &sym) || !sym.name)
		/* vsprintf's number() with SPECIAL: "0x0" too, unlike "%#lx". */
		return snprintf(buf, len, "0x%" PRIx64, addr);

	/* offset -= symbol_offset: the offset of addr, not of addr - 1. */
	if (sym.module)
		n = snprintf(buf, len, "%s+0x%" PRIx64 "/0x%" PRIx64 " [%s]",
			     sym.name, addr - sym.addr, sym.size, sym.module);
	else
		n = snprintf(buf, len, "%s+0x%" PRIx64 "/0x%" PRIx64,
			     sym.name, addr - sym.addr, sym.size);
	return n;
}
