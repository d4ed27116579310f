// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A hand-made printk ring buffer: what prb_reserve() and prb_commit()
 * leave (printk_ringbuffer.c's data_alloc(): a block that would wrap is
 * put whole at the ring's start), for tests.
 */
#include <stdio.h>
#include <string.h>

#include "printk_image.h"

static const struct { const char *type, *member; long off, size; } members[] = {
	{ "printk_ringbuffer", "desc_ring", 0, 48 },
	{ "printk_ringbuffer", "text_data_ring", 48, 32 },
	{ "prb_desc_ring", "count_bits", 0, 4 },
	{ "prb_desc_ring", "descs", 8, 8 },
	{ "prb_desc_ring", "infos", 16, 8 },
	{ "prb_desc_ring", "head_id", 24, 8 },
	{ "prb_desc_ring", "tail_id", 32, 8 },
	{ "prb_desc", "state_var", 0, 8 },
	{ "prb_desc", "text_blk_lpos", 8, 16 },
	{ "prb_data_blk_lpos", "begin", 0, 8 },
	{ "prb_data_blk_lpos", "next", 8, 8 },
	{ "printk_info", "seq", 0, 8 },
	{ "printk_info", "ts_nsec", 8, 8 },
	{ "printk_info", "text_len", 16, 2 },
	{ "printk_info", "facility", 18, 1 },
	{ "printk_info", "flags", 19, 1 },
	{ "printk_info", "level", 19, 1 },
	{ "printk_info", "caller_id", 20, 4 },
	{ "printk_info", "dev_info", 24, 64 },
	{ "dev_printk_info", "subsystem", 0, 16 },
	{ "dev_printk_info", "device", 16, 48 },
	{ "prb_data_ring", "size_bits", 0, 4 },
	{ "prb_data_ring", "data", 8, 8 },
};
#define NR_MEMBERS	(sizeof(members) / sizeof(members[0]))

/*
 * VMCOREINFO's lines, as log_buf_vmcoreinfo_setup() writes them; with
 * forged, each value is the next byte of forged instead (zeros past n).
 */
static void vmcoreinfo(struct ks_fake *f, const uint8_t *forged, size_t n_forged)
{
	char text[4096];
	size_t n, k = 0;
#define V(real)	(forged ? (long)(k < n_forged ? forged[k++] : 0) : (long)(real))
	long desc = V(KS_PI_DESC_SIZE), info = V(KS_PI_INFO_SIZE);
	long sub = V(16), dev = V(48);

	n = (size_t)snprintf(text, sizeof(text), "SYMBOL(prb)=%llx\n"
			     "SIZE(prb_desc)=%ld\nSIZE(printk_info)=%ld\n"
			     "LENGTH(printk_info_subsystem)=%ld\n"
			     "LENGTH(printk_info_device)=%ld\n",
			     (unsigned long long)KS_PI_PRB, desc, info, sub, dev);
	for (size_t i = 0; i < NR_MEMBERS && n < sizeof(text); i++) {
		/* the small fields VMCOREINFO does not list */
		if (!strcmp(members[i].member, "facility") ||
		    !strcmp(members[i].member, "flags") ||
		    !strcmp(members[i].member, "level"))
			continue;
		n += (size_t)snprintf(text + n, sizeof(text) - n,
				      "OFFSET(%s.%s)=%ld\n", members[i].type,
				      members[i].member, V(members[i].off));
	}
#undef V
	ks_fake_set_vmcoreinfo(f, text);
}

void ks_pi_forge_layout(struct ks_printk_image *pi, const uint8_t *vals,
			size_t n)
{
	vmcoreinfo(pi->f, vals, n);
}

static void types(struct ks_fake *f)
{
	for (size_t i = 0; i < NR_MEMBERS; i++)
		ks_fake_add_member(f, members[i].type, members[i].member,
				   members[i].off, members[i].size);
	ks_fake_add_type(f, "prb_desc", KS_PI_DESC_SIZE);
	ks_fake_add_type(f, "printk_info", KS_PI_INFO_SIZE);
	ks_fake_add_symbol(f, "prb", KS_PI_PRB, 8, NULL);
}

void ks_pi_init(struct ks_printk_image *pi, struct ks_fake *f,
		unsigned int count_bits, unsigned int size_bits, bool with_types,
		bool data_mapped)
{
	uint32_t cb = count_bits, sb = size_bits;

	*pi = (struct ks_printk_image){ .f = f, .count_bits = count_bits,
		.size_bits = size_bits, .data_mapped = data_mapped };
	ks_fake_add_memory(f, KS_PI_PRB, NULL, 8);
	ks_fake_write_u64(f, KS_PI_PRB, KS_PI_RB);
	ks_fake_add_memory(f, KS_PI_RB, NULL, 88);
	ks_fake_write(f, KS_PI_RB + 0, &cb, 4);
	ks_fake_write_u64(f, KS_PI_RB + 8, KS_PI_DESCS);
	ks_fake_write_u64(f, KS_PI_RB + 16, KS_PI_INFOS);
	ks_fake_write(f, KS_PI_RB + 48, &sb, 4);
	ks_fake_write_u64(f, KS_PI_RB + 56, KS_PI_DATA);
	ks_fake_add_memory(f, KS_PI_DESCS, NULL,
			   (size_t)KS_PI_DESC_SIZE << count_bits);
	ks_fake_add_memory(f, KS_PI_INFOS, NULL,
			   (size_t)KS_PI_INFO_SIZE << count_bits);
	if (data_mapped)
		ks_fake_add_memory(f, KS_PI_DATA, NULL, (size_t)1 << size_bits);
	if (with_types)
		types(f);
	else
		vmcoreinfo(f, NULL, 0);
}

void ks_pi_set_ids(struct ks_printk_image *pi, uint64_t tail, uint64_t head)
{
	ks_fake_write_u64(pi->f, KS_PI_RB + 24, head);
	ks_fake_write_u64(pi->f, KS_PI_RB + 32, tail);
}

/* data_alloc(): the block's [begin, next), whole at the start if it would wrap */
static void place(struct ks_printk_image *pi, size_t len, uint64_t *begin,
		  uint64_t *next)
{
	uint64_t size = 1ull << pi->size_bits;
	uint64_t blk = (8 + len + 7) & ~7ull;

	*begin = pi->head_lpos;
	*next = *begin + blk;
	if (*begin / size != (*next - 1) / size)
		*next = (*begin / size + 1) * size + blk;
	pi->head_lpos = *next;
}

static void write_info(struct ks_printk_image *pi, uint64_t at, size_t len,
		       uint64_t ts_nsec, unsigned int level, uint32_t caller)
{
	unsigned char info[KS_PI_INFO_SIZE] = { 0 };
	uint64_t seq = pi->next_seq++;
	uint16_t tl = (uint16_t)len;

	memcpy(info, &seq, 8);
	memcpy(info + 8, &ts_nsec, 8);
	memcpy(info + 16, &tl, 2);
	info[18] = 3;				/* facility: daemon */
	info[19] = (unsigned char)(level << 5 | 2);	/* flags: LOG_NEWLINE */
	memcpy(info + 20, &caller, 4);
	strcpy((char *)info + 24, "pci");
	strcpy((char *)info + 40, "+pci:0000:00:01.0");
	ks_fake_write(pi->f, at, info, sizeof(info));
}

uint64_t ks_pi_add(struct ks_printk_image *pi, const char *text,
		   uint64_t ts_nsec, unsigned int level, uint32_t caller,
		   unsigned int state)
{
	uint64_t id = pi->next_id++, idx = id & ((1ull << pi->count_bits) - 1);
	uint64_t desc = KS_PI_DESCS + idx * KS_PI_DESC_SIZE, begin, next;
	uint64_t size = 1ull << pi->size_bits;
	size_t len = strlen(text);

	place(pi, len, &begin, &next);
	ks_fake_write_u64(pi->f, desc, id | (uint64_t)state << 62);
	ks_fake_write_u64(pi->f, desc + 8, begin);
	ks_fake_write_u64(pi->f, desc + 16, next);
	write_info(pi, KS_PI_INFOS + idx * KS_PI_INFO_SIZE, len, ts_nsec,
		   level, caller);
	if (pi->data_mapped) {
		uint64_t at = begin / size == (next - 1) / size ? begin % size : 0;

		ks_fake_write_u64(pi->f, KS_PI_DATA + at, id);
		ks_fake_write(pi->f, KS_PI_DATA + at + 8, text, len);
	}
	ks_pi_set_ids(pi, 0, id);
	return id;
}
