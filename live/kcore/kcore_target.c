// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The running kernel as a kernel image: kcore.c reads its memory, the
 * shared image finds its symbols and types.  Tasks are not walked here
 * (their stacks move while they are read); the hooks are, and they stand
 * still.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kcore.h"
#include "kcore_target.h"
#include "image_open.h"
#include "page_walk.h"

struct ks_kcore_target {
	/*
	 * The image (image_open.c); its uw.pg.page_offset is the direct map,
	 * its tables the kernel's own (pgd 0 until the symbols are known)
	 */
	struct ks_image_opened io;
	struct ks_target mem;	/* /proc/kcore alone: kcore_ops */
	struct ks_kcore *kc;
};

static const struct ks_target_ops kcore_ops;

/* Physical memory is where the direct map shows it. */
static int kc_read_phys(void *ctx, uint64_t paddr, void *buf, size_t len)
{
	struct ks_kcore_target *kt = ctx;
	uint64_t base = kt->io.uw.pg.page_offset, vaddr;

	/*
	 * __phys_to_virt(): arm64's memory starts at PHYS_OFFSET, x86's at
	 * 0.  A 52-bit arm64 build on a 48-bit CPU moved PHYS_OFFSET below
	 * memory (0xfff1000040000000), so the sum wraps to the linear map's
	 * top; below PHYS_OFFSET on any other kernel it wraps below base.
	 */
	vaddr = base + (paddr - kt->io.uw.pg.phys_offset);
	if (!base || vaddr < base)
		return -ENOSYS;
	return ks_kcore_read(kt->kc, vaddr, buf, len);
}

/*
 * kcore fills a vmalloc or module page that is not mapped with zeros
 * (vread_iter()), which would pass for code: outside the direct map every
 * read goes through the kernel's page tables, so a page that is gone reads
 * as gone, as it does in a dump.
 */
static int kc_read(void *ctx, uint64_t kaddr, void *buf, size_t len)
{
	struct ks_kcore_target *kt = ctx;
	struct ks_target t = { .ops = &kcore_ops, .ctx = kt };
	const struct ks_kernel_tables *tab = &kt->io.tables;
	uint64_t base = kt->io.uw.pg.page_offset;

	if (tab->pgd && kaddr < base)
		return -EFAULT;
	if (tab->pgd && kaddr - base >= tab->linear_size)
		return ks_page_read(&t, &kt->io.uw.pg, tab->pgd,
				    kaddr & tab->walk_mask, buf, len);
	return ks_kcore_read(kt->kc, kaddr, buf, len);
}

/* VMCOREINFO's lines: arm64's KERNELPACMASK, the data finder's init_uts_ns */
static int kc_vmcoreinfo(void *ctx, const char *key, char *buf, size_t len)
{
	struct ks_kcore_target *kt = ctx;

	return ks_kcore_vmcoreinfo_line(kt->kc, key, buf, len);
}

static const struct ks_target_ops kcore_ops = {
	.read = kc_read,
	.read_phys = kc_read_phys,
	.vmcoreinfo = kc_vmcoreinfo,
};

int ks_kcore_target_open(const char *kcore, const char *btf,
			 struct ks_kcore_target **kt_ret, struct ks_target *t_ret,
			 const struct ks_reporter *rep)
{
	struct ks_kcore_target *kt = calloc(1, sizeof(*kt));
	/*
	 * Its kernel reads are untranslated: the opener finds the kernel's
	 * own tables, through which kc_read() reads outside the direct map.
	 */
	struct ks_image_source src = {
		.mem = kt ? &kt->mem : NULL,
		.who = "the running kernel",
		.btf_path = btf,
		.kernel_tables = true,
		.nr_cpu_notes = -1,
		.rep = rep,
	};
	int ret;

	if (!kt) {
		ks_say(rep, KS_WARN, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	ret = ks_kcore_open(kcore, &kt->kc);
	if (ret) {
		ks_say(rep, KS_WARN, "%s: %s%s", kcore, strerror(-ret),
		       ret == -EACCES || ret == -EPERM ?
			       " (root is needed, and a locked-down kernel refuses it)" : "");
		goto fail;
	}
	kt->mem = (struct ks_target){ .ops = &kcore_ops, .ctx = kt };
	/* the ELF header says which machine the running kernel is */
	src.elf_machine = ks_kcore_machine(kt->kc);
	ret = ks_image_open(&kt->io, &src);
	if (ret)
		goto fail;
	*t_ret = kt->io.t;
	*kt_ret = kt;
	return 0;
fail:
	ks_kcore_target_close(kt);
	return ret;
}

void ks_kcore_target_close(struct ks_kcore_target *kt)
{
	if (!kt)
		return;
	ks_image_close(&kt->io);
	ks_kcore_close(kt->kc);
	free(kt);
}
