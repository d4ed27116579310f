// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * panic() prints "Kernel panic - not syncing: %s" (kernel/panic.c) before
 * it stops the other CPUs; an oops prints "BUG: ..." or "Oops: ..." first
 * (arch/x86/mm/fault.c, die()).  The last of each wins: a kernel that
 * oopsed twice died of the second.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "panic_message.h"
#include "printk_ring.h"

struct found {
	char panic[512];
	char oops[512];
};

static bool starts(const struct ks_log_record *r, const char *prefix)
{
	size_t n = strlen(prefix);

	return r->text_len >= n && !memcmp(r->text, prefix, n);
}

/* the record's first line, as far as it goes */
static void keep(char *dst, size_t cap, const struct ks_log_record *r)
{
	size_t n = r->text_len;
	const char *nl = memchr(r->text, '\n', n);

	if (nl)
		n = (size_t)(nl - r->text);
	snprintf(dst, cap, "%.*s", (int)n, r->text);
}

static int look(void *arg, const struct ks_log_record *r)
{
	struct found *f = arg;

	if (starts(r, "Kernel panic - not syncing: "))
		keep(f->panic, sizeof(f->panic), r);
	else if (starts(r, "BUG: ") || starts(r, "Oops: "))
		keep(f->oops, sizeof(f->oops), r);
	return 0;
}

int ks_panic_message(const struct ks_target *t, char *buf, size_t cap,
		     const struct ks_reporter *rep)
{
	struct ks_log_trouble trouble;
	struct found f = { "", "" };
	int ret;

	memset(&trouble, 0, sizeof(trouble));
	ret = ks_printk_ring_walk(t, look, &f, &trouble, rep);
	if (ret)
		return ret < 0 ? ret : -EIO;
	if (!*f.panic && !*f.oops)
		return -ENOENT;
	snprintf(buf, cap, "%s", *f.panic ? f.panic : f.oops);
	return 0;
}
