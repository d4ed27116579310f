/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kallsyms tables of a kernel whose VMCOREINFO does not list them
 * (Linux before 6.0), found by their shape in the kernel image's
 * read-only data and checked against what VMCOREINFO says elsewhere.
 */
#ifndef KS_KALLSYMS_SCAN_H
#define KS_KALLSYMS_SCAN_H

#include <stdint.h>

#include "kallsyms_mem.h"
#include "report.h"
#include "target.h"
#include "vmcoreinfo.h"

/* Where the scan looked, and what it found there. */
struct ks_kallsyms_scan {
	uint64_t start, end;		/* [start, end): _stext up to .data */
	struct ks_kallsyms_mem_addrs a;	/* the tables, when found */
	unsigned int tried;		/* token tables tried (a bound) */
};

/*
 * Looks for the tables between SYMBOL(_stext) and the first data symbol
 * VMCOREINFO names (init_uts_ns, swapper_pg_dir), page by page, and
 * decodes them (ks_kallsyms_mem_load()).  0 with *ks_ret set;
 * -ENOENT when VMCOREINFO has no _stext, no data symbol within 256 MiB
 * of it (sc_ret->end is then 0) or nothing there has the shape, and,
 * after a message through rep, when more than a few dozen places have
 * the token table's shape without the tables around it;
 * -EINVAL, after a message through rep, when the tables found put a
 * symbol elsewhere than VMCOREINFO does; -ENOMEM.  sc_ret is filled in
 * every case.
 */
int ks_kallsyms_scan(const struct ks_target *t, const struct ks_vmcoreinfo *vi,
		     const struct ks_reporter *rep,
		     struct ks_kallsyms_mem **ks_ret,
		     struct ks_kallsyms_scan *sc_ret);

#endif /* KS_KALLSYMS_SCAN_H */
