// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * %pB and %pS.  The target's lookup applies the kallsyms rules (which of
 * several aliases, the size as the distance to the next symbol); this file
 * only does what __sprint_symbol() does with the answer, and reads back the
 * module a %pS text names.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

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

int ks_sym_format_pS(const struct ks_target *t, uint64_t addr, char *buf,
		     size_t len)
{
	struct ks_sym sym;

	/*
	 * sprint_symbol(): the lookup is at addr itself (no -1 as in %pB).
	 * An address past the symbol's kallsyms size is in no symbol: ftrace
	 * trampolines live in module space between modules.
	 */
	if (t->ops->lookup(t->ctx, addr, &sym) || !sym.name ||
	    addr < sym.addr || (sym.size && addr - sym.addr >= sym.size))
		return snprintf(buf, len, "0x%" PRIx64, addr);
	if (sym.module)
		return snprintf(buf, len, "%s+0x%" PRIx64 "/0x%" PRIx64 " [%s]",
				sym.name, addr - sym.addr, sym.size, sym.module);
	return snprintf(buf, len, "%s+0x%" PRIx64 "/0x%" PRIx64, sym.name,
			addr - sym.addr, sym.size);
}

void ks_pS_module(const char *text, char *mod, size_t len)
{
	const char *open = strrchr(text, '[');
	size_t n;

	mod[0] = '\0';
	if (!open || open == text || open[-1] != ' ')
		return;
	n = strcspn(open + 1, "]");
	if (open[1 + n] != ']' || open[2 + n] != '\0')
		return;
	snprintf(mod, len, "%.*s", (int)n, open + 1);
}
