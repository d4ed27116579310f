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
#include "arch.h"
#include "kcore_target.h"
#include "kernel_image.h"
#include "page_walk.h"
#include "vmcoreinfo.h"

struct ks_kcore_target {
	struct ks_image im;	/* symbols and types */
	struct ks_target mem;	/* /proc/kcore alone: kcore_ops */
	struct ks_target t;	/* the whole target: the image over mem */
	struct ks_kcore *kc;
	struct ks_user_walk uw;	/* paging facts; page_offset: the direct map */
	uint64_t kernel_pgd;	/* init_top_pgt, once the symbols are known */
	uint64_t linear_size;	/* the direct (linear) map's span from page_offset */
	/*
	 * The address bits the walk indexes by: all on x86_64; on arm64 the
	 * low vabits_actual, as TTBR1's tables index a kernel address
	 * (pgd_index() drops the top bits)
	 */
	uint64_t walk_mask;
};

static const struct ks_target_ops kcore_ops;

/* Physical memory is where the direct map shows it. */
static int kc_read_phys(void *ctx, uint64_t paddr, void *buf, size_t len)
{
	struct ks_kcore_target *kt = ctx;
	uint64_t base = kt->uw.pg.page_offset, vaddr;

	/*
	 * __phys_to_virt(): arm64's memory starts at PHYS_OFFSET, x86's at
	 * 0.  A 52-bit arm64 build on a 48-bit CPU moved PHYS_OFFSET below
	 * memory (0xfff1000040000000), so the sum wraps to the linear map's
	 * top; below PHYS_OFFSET on any other kernel it wraps below base.
	 */
	vaddr = base + (paddr - kt->uw.pg.phys_offset);
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
	uint64_t base = kt->uw.pg.page_offset;

	if (kt->kernel_pgd && kaddr < base)
		return -EFAULT;
	if (kt->kernel_pgd && kaddr - base >= kt->linear_size)
		return ks_page_read(&t, &kt->uw.pg, kt->kernel_pgd,
				    kaddr & kt->walk_mask, buf, len);
	return ks_kcore_read(kt->kc, kaddr, buf, len);
}

/*
 * No task walk runs on the live kernel (its stacks move while they are
 * read), but user memory is there as in a dump.
 */
static int kc_read_user(void *ctx, uint64_t task, uint64_t uaddr, void *buf,
			size_t len)
{
	struct ks_kcore_target *kt = ctx;

	/* the page walk asks the types where mm and pgd are: the whole target */
	return ks_page_read_user(&kt->t, &kt->uw, task, uaddr, buf, len);
}

static int kc_cpu_regs(void *ctx, int cpu, struct ks_regs *regs_ret)
{
	(void)ctx, (void)cpu, (void)regs_ret;
	return -ENOENT;
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
	.read_user = kc_read_user,
	.cpu_regs = kc_cpu_regs,
	.vmcoreinfo = kc_vmcoreinfo,
};

/*
 * The kernel's page tables and the direct map's base (the arch's
 * find_paging() and kernel_tables()).  Without them reads stay plain
 * kcore reads, and there is no user memory.
 */
static void find_page_tables(struct ks_kcore_target *kt,
			     const struct ks_vmcoreinfo *vi)
{
	const struct ks_arch *a = kt->uw.pg.arch;
	struct ks_kernel_tables tables = { 0 };

	if (a->find_paging(&kt->t, vi, &kt->uw.pg) ||
	    a->kernel_tables(vi, &kt->uw.pg, &tables)) {
		kt->uw.pg.page_offset = 0;
		return;
	}
	kt->kernel_pgd = tables.pgd;
	kt->linear_size = tables.linear_size;
	kt->walk_mask = tables.walk_mask;
}

static int load_image(struct ks_kcore_target *kt, const struct ks_target *t,
		      const char *btf, ks_report_fn report, void *arg)
{
	const struct ks_vmcoreinfo vi = { .line = ks_kcore_vmcoreinfo_line,
					  .arg = kt->kc };
	struct ks_kallsyms_scan sc;
	int ret;

	ret = ks_image_find_kallsyms(&kt->im, t, &vi, KS_KALLSYMS_LISTED_OR_SCAN,
				     report, arg, &sc);
	if (ret == -ENOENT)
		ks_report(report, arg, "its VMCOREINFO lists no kallsyms tables "
			  "(Linux 6.0+ lists them), and none were found by their "
			  "shape from _stext (%#" PRIx64 ") to %#" PRIx64,
			  sc.start, sc.end);
	else if (ret == -EPROTONOSUPPORT)
		ks_report(report, arg, "its kallsyms tables give addresses in an "
			  "encoding kstack does not know");
	else if (ret)
		ks_report(report, arg, "its kallsyms tables do not decode (%s)",
			  strerror(-ret));
	if (ret)
		return ret;
	find_page_tables(kt, &vi);
	ret = ks_image_load_btf(&kt->im, t, btf, report, arg);
	if (ret) {
		if (ret != -EBADMSG)	/* else its damage is said */
			ks_report(report, arg, "no usable BTF (%s; "
				  "CONFIG_DEBUG_INFO_BTF)", strerror(-ret));
		return ret;
	}
	/* kallsyms of text only (Debian's arm64 6.1): variables from the data */
	ret = ks_image_add_data_finder(&kt->im, report, arg);
	if (!ret)
		ret = ks_image_load_chain(&kt->im, t);
	if (ret)
		ks_report(report, arg, "%s", strerror(-ret));
	return ret;
}

int ks_kcore_target_open(const char *kcore, const char *btf,
			 struct ks_kcore_target **kt_ret, struct ks_target *t_ret,
			 ks_report_fn report, void *arg)
{
	struct ks_kcore_target *kt = calloc(1, sizeof(*kt));
	int ret;

	if (!kt) {
		ks_report(report, arg, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	ret = ks_kcore_open(kcore, &kt->kc);
	if (ret) {
		ks_report(report, arg, "%s: %s%s", kcore, strerror(-ret),
			  ret == -EACCES || ret == -EPERM ?
				  " (root is needed, and a locked-down kernel refuses it)" : "");
		goto fail;
	}
	kt->mem = (struct ks_target){ .ops = &kcore_ops, .ctx = kt };
	/* the ELF header says which machine the running kernel is */
	ret = ks_arch_resolve(NULL, ks_kcore_machine(kt->kc), &kt->uw.pg.arch,
			      report, arg);
	if (ret)
		goto fail;
	kt->mem.arch = kt->uw.pg.arch;
	ks_image_target(&kt->im, &kt->mem, &kt->t);
	*t_ret = kt->t;
	ret = load_image(kt, &kt->t, btf, report, arg);
	if (ret)
		goto fail;
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
	ks_image_release(&kt->im);
	ks_kcore_close(kt->kc);
	free(kt);
}
