// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack -F from memory at the scale of a kernel that traces every
 * function: the fake kernel of tests/support/ftrace_image.h with N
 * enabled dyn_ftrace records, through ks_hooks_report() as kstack
 * --vmcore and crash run it, writing to stdout.
 *
 * usage: ftrace_mem N >OUT
 * stderr, last line: N, the report's wall and CPU seconds, VmRSS before it
 * and VmHWM after it (reset before it, where the kernel allows), in KiB.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_mem.h"
#include "fake_target.h"
#include "ftrace_image.h"
#include "hooks.h"
#include "options.h"
#include "said.h"

int main(int argc, char **argv)
{
	const struct ks_hooks_opts h = { .ftrace = true };
	const struct ks_format_opts fo = { 0 };
	struct ks_ftrace_image_counts counts;
	struct ks_fake *f = ks_fake_create();
	size_t n = argc > 1 ? strtoul(argv[1], NULL, 10) : 60000;
	struct timespec a, b, ca, cb;
	struct ks_target t;
	struct ks_sym sym;
	long rss0;
	int ret;

	if (!f || ks_ftrace_image_make(f, n, &counts)) {
		fprintf(stderr, "ftrace_mem: cannot build the image\n");
		return 1;
	}
	ks_fake_target(f, &t);
	/* the fake sorts its symbols at the first lookup: not kstack's cost */
	t.ops->lookup(t.ctx, 0, &sym);
	reset_peak();
	rss0 = status_kib("VmRSS:");
	clock_gettime(CLOCK_MONOTONIC, &a);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
	ret = ks_hooks_report(&t, &h, &fo, stdout, &SAID_ON(stderr));
	fflush(stdout);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
	clock_gettime(CLOCK_MONOTONIC, &b);
	fprintf(stderr, "%zu %.3f %.3f %ld %ld\n", n, seconds(&a, &b),
		seconds(&ca, &cb), rss0, status_kib("VmHWM:"));
	ks_fake_destroy(f);
	return ret ? 1 : 0;
}
