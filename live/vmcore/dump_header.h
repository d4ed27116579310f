/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What kstack hands libkdumpfile, checked first (live/vmcore/dump_header.c):
 * libkdumpfile trusts an ELF dump's headers and VMCOREINFO numbers and
 * dies of a signal on some bad ones (a zero PAGESIZE divides by zero, a
 * zero e_phentsize walks a NULL table).
 */
#ifndef KS_DUMP_HEADER_H
#define KS_DUMP_HEADER_H

#include <stddef.h>
#include <stdint.h>

/*
 * Checks the ELF header, the program headers and the VMCOREINFO numbers
 * of the dump open on fd (size bytes long).  Returns 0 when libkdumpfile
 * may read it (a file that is no ELF file is left to libkdumpfile), or
 * -EINVAL with a message naming the field in err.
 */
int ks_dump_header_check(int fd, uint64_t size, char *err, size_t len);

#endif /* KS_DUMP_HEADER_H */
