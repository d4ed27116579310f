/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reads an ELF dump's file ahead of a walk, in parallel with it, so that
 * a dump out of the page cache is not read one fault at a time.
 */
#ifndef KS_DUMP_PREFETCH_H
#define KS_DUMP_PREFETCH_H

#include <stdint.h>

struct ks_dump_prefetch;

/*
 * Readers for the ELF core file at fd (which stays the caller's, open
 * until ks_dump_prefetch_stop()): 0, -ENOEXEC for a file that is not an
 * ELF core with PT_LOADs apart (a compressed dump has no physical-to-file
 * mapping to read ahead; elf_loads.h), -ENOMEM, read()'s error, or
 * pthread_create()'s as -errno.
 */
int ks_dump_prefetch_start(int fd, struct ks_dump_prefetch **pf_ret);
/*
 * The walk is about to read physical address paddr: the readers fetch
 * the file around it.  Cheap when the address is in the chunk of the
 * last call; never blocks on I/O.  pf may be NULL.
 */
void ks_dump_prefetch_note(struct ks_dump_prefetch *pf, uint64_t paddr);
/* Joins the readers; pf may be NULL. */
void ks_dump_prefetch_stop(struct ks_dump_prefetch *pf);

#endif /* KS_DUMP_PREFETCH_H */
