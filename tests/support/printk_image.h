/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A printk ring buffer made by hand in a fake image (fake_target.h), laid
 * out as Linux 6.1's, for the ring walker's unit test and fuzz harness.
 */
#ifndef KS_PRINTK_IMAGE_H
#define KS_PRINTK_IMAGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fake_target.h"

#define KS_PI_PRB	0xffffffff83000000ull	/* SYMBOL(prb): the pointer */
#define KS_PI_RB	0xffffffff83000100ull	/* struct printk_ringbuffer */
#define KS_PI_DESCS	0xffff888001000000ull
#define KS_PI_INFOS	0xffff888004000000ull	/* room for 2^19 infos */
#define KS_PI_DATA	0xffff888008000000ull
#define KS_PI_DESC_SIZE	24
#define KS_PI_INFO_SIZE	88

/* prb_desc's states (the top two bits of state_var) */
enum { KS_PI_RESERVED, KS_PI_COMMITTED, KS_PI_FINALIZED, KS_PI_REUSABLE };

struct ks_printk_image {
	struct ks_fake *f;
	unsigned int count_bits, size_bits;
	uint64_t head_lpos;	/* where the next block begins */
	uint64_t next_id, next_seq;
	bool data_mapped;	/* false: the data ring is not in the image */
};

/*
 * Maps an empty ring of 2^count_bits descriptors and 2^size_bits bytes
 * of text; its layout as the types say (types) or VMCOREINFO's lines.
 */
void ks_pi_init(struct ks_printk_image *pi, struct ks_fake *f,
		unsigned int count_bits, unsigned int size_bits, bool types,
		bool data_mapped);
/* One record after the last, in state; its id. */
uint64_t ks_pi_add(struct ks_printk_image *pi, const char *text,
		   uint64_t ts_nsec, unsigned int level, uint32_t caller,
		   unsigned int state);
/*
 * VMCOREINFO's sizes and offsets, each the next byte of vals (zeros past
 * n), for a ring laid out from VMCOREINFO: a forged layout.
 */
void ks_pi_forge_layout(struct ks_printk_image *pi, const uint8_t *vals,
			size_t n);
/* head_id and tail_id as given (the first and last ids added by default). */
void ks_pi_set_ids(struct ks_printk_image *pi, uint64_t tail, uint64_t head);

#endif /* KS_PRINTK_IMAGE_H */
