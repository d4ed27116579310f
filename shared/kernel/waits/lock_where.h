/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where a lock lies, for --waits: the symbol kallsyms names it by (a
 * static lock: kernfs_mutex, a module's own), else the slab cache of the
 * page it lies in (inode_cache, kmalloc-64), as crash's kmem names an
 * address.
 */
#ifndef KS_LOCK_WHERE_H
#define KS_LOCK_WHERE_H

#include <stddef.h>
#include <stdint.h>

#include "target.h"

struct ks_lock_where;

/*
 * Reads the slab caches (the slab_caches list) once.  A kernel whose
 * types or symbols do not tell slab pages leaves symbols only.  0 or
 * -ENOMEM.
 */
int ks_lock_where_open(const struct ks_target *t, struct ks_lock_where **ret);
void ks_lock_where_close(struct ks_lock_where *lw);

/* "sym", "sym+0x8" or the slab cache's name into buf; "" when neither. */
void ks_lock_where(const struct ks_lock_where *lw, uint64_t addr, char *buf,
		   size_t len);

#endif /* KS_LOCK_WHERE_H */
