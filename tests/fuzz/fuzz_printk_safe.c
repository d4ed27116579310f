// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/kernel/log/printk_safe.c and --log's writer on a printk_safe
 * buffer whose every byte is the input.  The input is:
 *
 *   u8  flags   bit 0: --json; bit 1: through the walk of one CPU's
 *               nmi_print_seq in a kernel made by hand, else the split
 *               of the text alone
 *   with bit 1: i32 len, i32 message_lost, u16 the buffer's size in the
 *               types (SAFE_LOG_BUF_LEN)
 *   then the buffer's text: with bit 1 the only memory there is, so a
 *   len past it reads outside the image
 *
 * Whatever the bytes, every line lies inside the text, none holds a
 * '\n', and no more lines come than bytes and one.
 */
#include "fake_target.h"
#include "format_log.h"
#include "fuzz.h"
#include "printk_safe.h"

#define PCPU	0xffff000000001000ull
#define NR_IDS	0xffff000000002000ull
#define AREA	0xffff000000100000ull

struct seen {
	bool json;
	const char *lo, *hi;	/* where the text lies; NULL: the walk's own */
	size_t n;
};

static int each(void *arg, const struct ks_log_record *rec)
{
	struct seen *s = arg;

	s->n++;
	fuzz_assert(!memchr(rec->text, '\n', rec->text_len));
	fuzz_assert(!s->lo || (rec->text >= s->lo &&
			       rec->text + rec->text_len <= s->hi));
	ks_format_log_record(fuzz_null(), s->json, rec);
	return 0;
}

static void walk(struct fuzz_in *in, struct seen *s)
{
	int32_t len = (int32_t)fuzz_take(in, 4), lost = (int32_t)fuzz_take(in, 4);
	long size = (long)fuzz_take(in, 2);
	struct ks_fake *f = ks_fake_create();
	uint32_t one = 1;
	struct ks_target t;

	if (!f || ks_fake_add_memory(f, PCPU, NULL, 8) ||
	    ks_fake_write_u64(f, PCPU, AREA) ||
	    ks_fake_add_memory(f, NR_IDS, &one, 4) ||
	    ks_fake_add_memory(f, AREA, NULL, 8) ||
	    ks_fake_write(f, AREA, &len, 4) || ks_fake_write(f, AREA + 4, &lost, 4) ||
	    (in->n && ks_fake_add_memory(f, AREA + 8, in->p, in->n)) ||
	    ks_fake_add_symbol(f, "__per_cpu_offset", PCPU, 8, NULL) ||
	    ks_fake_add_symbol(f, "nr_cpu_ids", NR_IDS, 4, NULL) ||
	    ks_fake_add_symbol(f, "nmi_print_seq", 0, 0x10, NULL) ||
	    ks_fake_add_member(f, "printk_safe_seq_buf", "len", 0, 4) ||
	    ks_fake_add_member(f, "printk_safe_seq_buf", "message_lost", 4, 4) ||
	    ks_fake_add_member(f, "printk_safe_seq_buf", "buffer", 8, size))
		abort();
	ks_fake_target(f, &t);
	ks_printk_safe_walk(&t, each, s, NULL);
	fuzz_assert(s->n <= (size_t)(size > 0 ? size : 0) + 1);
	ks_fake_destroy(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct fuzz_in in = { data, size };
	unsigned int flags = (unsigned int)fuzz_take(&in, 1);
	struct seen s = { .json = flags & 1 };
	static const struct ks_log_record tmpl = { .buffer = "safe_print_seq",
						   .subsystem = "", .device = "" };

	if (flags & 2) {
		walk(&in, &s);
		return 0;
	}
	s.lo = (const char *)in.p;
	s.hi = s.lo + in.n;
	ks_printk_safe_split(s.lo, in.n, &tmpl, each, &s);
	fuzz_assert(s.n <= in.n + 1);
	return 0;
}
