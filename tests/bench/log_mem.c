// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kstack --log on a full 16 MiB printk ring (CONFIG_LOG_BUF_SHIFT=24, the
 * descriptor ring 2^19 as the kernel sizes it: PRB_AVGBITS 5) in the fake
 * kernel image of tests/support/printk_image.h: records of dmesg's usual
 * lengths written until the data ring has wrapped half over, the tail
 * moved past the blocks overwritten, as a kernel up for long leaves it.
 * The ring is walked and written by ks_log_print(), as kstack --vmcore
 * --log and crash's kstack --log run it, to stdout.
 *
 * usage: log_mem [json] >OUT
 * stderr, last line: records in the ring, the walk and write's wall and
 * CPU seconds, VmRSS before it and VmHWM after it, in KiB.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "bench_mem.h"
#include "fake_target.h"
#include "log_print.h"
#include "printk_image.h"
#include "said.h"

#define SIZE_BITS	24
#define COUNT_BITS	(SIZE_BITS - 5)

/* lines of the shapes a booted machine logs: short, middling and long */
static const char *const lines[] = {
	"pci 0000:00:1f.2: [8086:2922] type 00 class 0x010601",
	"EXT4-fs (vda1): mounted filesystem with ordered data mode. Quota mode: none.",
	"audit: type=1400 audit(1700000000.123:42): apparmor=\"STATUS\" operation=\"profile_load\" profile=\"unconfined\" name=\"/usr/bin/man\" pid=512 comm=\"apparmor_parser\"",
	"virtio_net virtio0 enp0s2: renamed from eth0",
	"usb 1-1: new high-speed USB device number 2 using xhci_hcd",
	"systemd[1]: Started systemd-journald.service - Journal Service.",
	"kstack-bench: a line of some length to stand for driver chatter, with a number 12345 and a word",
	"ok",
};

/*
 * Fills the ring until it has wrapped by half; the tail is then the
 * oldest record whose block the wrap left whole.  Returns the records
 * the walk should find, or 0 when out of memory.
 */
static uint64_t fill(struct ks_printk_image *pi)
{
	const uint64_t size = 1ull << SIZE_BITS, n_lines = sizeof(lines) / sizeof(lines[0]);
	uint64_t *begin = malloc(sizeof(*begin) << COUNT_BITS), id = 0, tail;

	if (!begin)
		return 0;
	while (pi->head_lpos < size + size / 2 && id < (1ull << COUNT_BITS) - 1) {
		begin[id] = pi->head_lpos;
		id = ks_pi_add(pi, lines[id % n_lines], id * 1000003ull,
			       (unsigned int)(id % 8), 1000 + (uint32_t)(id % 500),
			       KS_PI_FINALIZED) + 1;
	}
	/* a block that wrapped begins at the ring's start: next - size covers it */
	for (tail = 0; tail < id && begin[tail] < pi->head_lpos - size; tail++)
		;
	free(begin);
	ks_pi_set_ids(pi, tail, id - 1);
	return id - tail;
}

int main(int argc, char **argv)
{
	bool json = argc > 1 && !strcmp(argv[1], "json");
	struct ks_fake *f = ks_fake_create();
	struct timespec a, b, ca, cb;
	struct ks_printk_image pi;
	struct ks_target t;
	struct ks_sym sym;
	uint64_t records;
	long rss0;
	int ret;

	if (!f) {
		fprintf(stderr, "log_mem: cannot build the image\n");
		return 1;
	}
	ks_pi_init(&pi, f, COUNT_BITS, SIZE_BITS, true, true);
	records = fill(&pi);
	if (!records) {
		fprintf(stderr, "log_mem: cannot fill the ring\n");
		return 1;
	}
	ks_fake_target(f, &t);
	/* the fake sorts its symbols at the first lookup: not kstack's cost */
	t.ops->lookup(t.ctx, 0, &sym);
	reset_peak();
	rss0 = status_kib("VmRSS:");
	clock_gettime(CLOCK_MONOTONIC, &a);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ca);
	ret = ks_log_print(&t, stdout, json, &SAID_ON(stderr));
	fflush(stdout);
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &cb);
	clock_gettime(CLOCK_MONOTONIC, &b);
	fprintf(stderr, "%llu %.3f %.3f %ld %ld\n", (unsigned long long)records,
		seconds(&a, &b), seconds(&ca, &cb), rss0, status_kib("VmHWM:"));
	ks_fake_destroy(f);
	return ret ? 1 : 0;
}
