// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The page walk every target reads user memory with: the translation is
 * the architecture's (struct ks_arch's translate: x86_64_page_walk.c,
 * arm64_page_walk.c), the copy page by page and the way from a task to
 * its page tables are the same for all.
 */
#include <errno.h>

#include "arch.h"
#include "page_walk.h"

int ks_page_translate(const struct ks_target *t, const struct ks_paging *pg,
		      uint64_t pgd, uint64_t vaddr, uint64_t *paddr_ret,
		      uint64_t *left_ret)
{
	if (!pg->arch)
		return -EINVAL;
	return pg->arch->paging->translate(t, pg, pgd, vaddr, paddr_ret, left_ret);
}

int ks_page_read(const struct ks_target *t, const struct ks_paging *pg,
		 uint64_t pgd, uint64_t vaddr, void *buf, size_t len)
{
	uint8_t *p = buf;

	while (len) {
		uint64_t paddr, left;
		size_t chunk;
		int ret;

		ret = ks_page_translate(t, pg, pgd, vaddr, &paddr, &left);
		if (ret)
			return ret;
		chunk = left < len ? (size_t)left : len;
		ret = t->ops->read_phys(t->ctx, paddr, p, chunk);
		if (ret)
			return ret;
		p += chunk;
		vaddr += chunk;
		len -= chunk;
	}
	return 0;
}

int ks_page_read_user(const struct ks_target *t, struct ks_user_walk *uw,
		      uint64_t task, uint64_t uaddr, void *buf, size_t len)
{
	uint64_t mm, pgd, pgd_pa;
	int ret;

	if (!uw->offsets_known) {
		uw->task_mm = t->ops->member_offset(t->ctx, "task_struct", "mm");
		uw->mm_pgd = t->ops->member_offset(t->ctx, "mm_struct", "pgd");
		uw->offsets_known = true;
	}
	if (uw->task_mm < 0 || uw->mm_pgd < 0 || !uw->pg.page_offset ||
	    !uw->pg.arch)
		return -ENOENT;
	ret = ks_read_u64(t, task + (uint64_t)uw->task_mm, &mm);
	if (ret)
		return ret;
	if (!mm)
		return -EFAULT;
	ret = ks_read_u64(t, mm + (uint64_t)uw->mm_pgd, &pgd);
	if (ret)
		return ret;
	/*
	 * A pgd comes from the page allocator, so it is in the linear map,
	 * where __pa() is arithmetic; anything else is a corrupt mm.
	 */
	ret = uw->pg.arch->paging->linear_pa(&uw->pg, pgd, &pgd_pa);
	if (ret)
		return ret;
	return ks_page_read(t, &uw->pg, pgd_pa, uaddr, buf, len);
}
