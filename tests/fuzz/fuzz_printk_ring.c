// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/kernel/log/printk_ring.c and --log's writer on a printk ring
 * buffer whose every byte is the input (tests/support/printk_image.c's
 * layout and addresses).  The input is:
 *
 *   u8  flags       bit 0: the layout from the types, else VMCOREINFO;
 *                   bit 1: the data ring is in the image; bit 2: --json;
 *                   bit 3 (without bit 0): a forged layout, 28 bytes of
 *                   VMCOREINFO sizes and offsets, after the ids
 *   u8  count_bits  taken modulo 8 (the ring's 2^n descriptors)
 *   u8  size_bits   4 + (n modulo 9) (2^size bytes of text)
 *   u64 head_id, tail_id
 *   then the descriptors (24 bytes each), the printk_info array (88
 *   bytes each) and the text ring, zeros past the input's end.
 *
 * Whatever the bytes, the walk ends, hands over at most one record per
 * descriptor and reads nothing outside the image.
 */
#include "fake_target.h"
#include "format_log.h"
#include "fuzz.h"
#include "printk_image.h"
#include "printk_ring.h"

struct seen {
	bool json;
	uint64_t n;
};

static int each(void *arg, const struct ks_log_record *rec)
{
	struct seen *s = arg;

	s->n++;
	ks_format_log_record(fuzz_null(), s->json, rec);
	return 0;
}

static void fill(struct ks_fake *f, uint64_t addr, size_t len,
		 struct fuzz_in *in)
{
	size_t n = len < in->n ? len : in->n;

	ks_fake_write(f, addr, in->p, n);
	in->p += n;
	in->n -= n;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	unsigned int flags = (unsigned int)fuzz_take(&in, 1);
	unsigned int cbits = (unsigned int)fuzz_take(&in, 1) % 8;
	unsigned int sbits = 4 + (unsigned int)fuzz_take(&in, 1) % 9;
	uint64_t head = fuzz_take(&in, 8), tail = fuzz_take(&in, 8);
	struct ks_fake *f = ks_fake_create();
	struct ks_printk_image pi;
	struct ks_log_trouble tr;
	struct seen s = { .json = flags & 4 };
	struct ks_target t;

	if (!f)
		abort();
	ks_pi_init(&pi, f, cbits, sbits, flags & 1, flags & 2);
	ks_pi_set_ids(&pi, tail, head);
	if ((flags & 9) == 8) {
		size_t k = in.n < 28 ? in.n : 28;

		ks_pi_forge_layout(&pi, in.p, k);
		in.p += k;
		in.n -= k;
	}
	fill(f, KS_PI_DESCS, (size_t)KS_PI_DESC_SIZE << cbits, &in);
	fill(f, KS_PI_INFOS, (size_t)KS_PI_INFO_SIZE << cbits, &in);
	if (flags & 2)
		fill(f, KS_PI_DATA, (size_t)1 << sbits, &in);
	ks_fake_target(f, &t);
	if (!ks_printk_ring_walk(&t, each, &s, &tr, NULL))
		ks_format_log_trouble(fuzz_null(), s.json, &tr);
	fuzz_assert(s.n <= (1ull << cbits));
	ks_fake_destroy(f);
	return 0;
}
