// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * Kernel strings are read in pieces that never cross a page, so that a
 * string ending just before an unmapped page is still read whole; a piece
 * that fails is retried smaller down to one byte.
 */
#include <errno.h>
#include <string.h>

#include "kernel_string.h"

#define PAGE_SIZE	4096
#define FIRST_CHUNK	64

int ks_read_kstring(const struct ks_target *t, uint64_t addr, char *buf,
		    size_t cap)
{
	size_t got = 0, chunk = FIRST_CHUNK;

	if (!cap)
		return -E2BIG;
	while (got + 1 < cap) {
		size_t n = PAGE_SIZE - (size_t)((addr + got) % PAGE_SIZE);
		char *nul;

		if (n > chunk)
			n = chunk;
		if (n > cap - 1 - got)
			n = cap - 1 - got;
		if (ks_read(t, addr + got, buf + got, n)) {
			if (n == 1) {
				buf[got] = '\0';
				return -EFAULT;
			}
			chunk = n / 2;
			continue;
		}
		nul = memchr(buf + got, '\0', n);
		if (nul)
			return 0;
		got += n;
	}
	buf[got] = '\0';
	return -E2BIG;
}
