// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A buffer in front of an unbuffered stream (buffered_out.h says why).
 * It is glibc's fopencookie(), so the formatters keep writing to a
 * FILE * and need not know.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>

#include "buffered_out.h"

struct pass {
	FILE *dst;
	bool had_error;		/* dst's error flag before us: not ours */
};

static ssize_t pass_write(void *cookie, const char *buf, size_t len)
{
	struct pass *p = cookie;
	size_t done;

	errno = 0;
	done = fwrite(buf, 1, len, p->dst);
	/*
	 * glibc's fwrite() on an unbuffered stream returns len even when
	 * write(2) failed: only the error flag tells.
	 */
	if (done < len || (!p->had_error && ferror(p->dst))) {
		if (!errno)
			errno = EIO;
		return -1;
	}
	return (ssize_t)done;
}

static int pass_close(void *cookie)
{
	free(cookie);
	return 0;
}

FILE *ks_buffered_open(FILE *dst)
{
	cookie_io_functions_t io = { .write = pass_write, .close = pass_close };
	struct pass *p = malloc(sizeof(*p));
	FILE *out;

	if (!p)
		return dst;
	p->dst = dst;
	p->had_error = ferror(dst);
	/* a cookie stream is fully buffered, in BUFSIZ (8 KiB) blocks */
	out = fopencookie(p, "w", io);
	if (out)
		return out;
	free(p);
	return dst;
}

int ks_buffered_close(FILE *out, FILE *dst)
{
	int ret = 0;

	errno = 0;
	if (out == dst)
		return fflush(dst) ? -(errno ? errno : EIO) : 0;
	if (fflush(out) || ferror(out))
		ret = -(errno ? errno : EIO);
	fclose(out);
	if (fflush(dst) && !ret)
		ret = -(errno ? errno : EIO);
	return ret;
}
