/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kstack hands libkdumpfile, checked first (live/vmcore/dump_header.c):
 * libkdumpfile trusts an ELF dump's headers and VMCOREINFO numbers and
 * dies of a signal on some bad ones (a zero PAGESIZE divides by zero, a
 * zero e_phentsize walks a NULL table).
 */
#ifndef KS_DUMP_HEADER_H
#define KS_DUMP_HEADER_H

#include <errno.h>
#include <stddef.h>
#include <stdint.h>

#include "report.h"

/*
 * Checks the ELF header, the program headers and the VMCOREINFO numbers
 * of the dump path open on fd (size bytes long).  Returns 0 when
 * libkdumpfile may read it (a file that is no ELF file is left to
 * libkdumpfile), or -EINVAL after "PATH is refused: ..." naming the
 * field through rep.
 */
int ks_dump_header_check(int fd, uint64_t size, const char *path,
			 const struct ks_reporter *rep);

/*
 * The same checks on the notes and VMCOREINFO of a dump of another
 * format (a kdump-compressed dump's, live/vmcore/diskdump_header.c):
 * each note inside its size bytes (where names them in a refusal), and
 * VMCOREINFO's PAGESIZE, when it is a number, page_size.  0 or -EINVAL.
 */
int ks_dump_notes_check(const void *notes, uint64_t size, const char *where,
			uint64_t page_size, const char *path,
			const struct ks_reporter *rep);
int ks_dump_vmcoreinfo_check(const char *text, size_t len, uint64_t page_size,
			     const char *path, const struct ks_reporter *rep);

/* "PATH is refused: what is wrong", through rep: -EINVAL. */
#define ks_dump_refuse(path, rep, ...) \
	ks_say_why((rep), KS_WARN, -EINVAL, (path), " is refused", __VA_ARGS__)

#endif /* KS_DUMP_HEADER_H */
