/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Where the printk ring buffer's members lie: VMCOREINFO's OFFSET(),
 * SIZE() and LENGTH() lines (log_buf_vmcoreinfo_setup()) where the image
 * has them, else the target's types.  printk_ring.c's alone.
 */
#ifndef KS_PRINTK_LAYOUT_H
#define KS_PRINTK_LAYOUT_H

#include <stdbool.h>

#include "report.h"
#include "target.h"

struct ks_prb_layout {
	long rb_desc_ring, rb_text_ring;
	long dr_count_bits, dr_descs, dr_infos, dr_head_id, dr_tail_id;
	long desc_size, desc_state_var, desc_text_blk;
	long blk_begin, blk_next;
	long info_size, info_seq, info_ts, info_text_len, info_caller, info_dev;
	long info_facility, info_level;	/* the byte that holds level */
	long info_flags;		/* the byte that holds flags */
	bool level_bits;	/* level:3 over flags:5 in one byte, else bytes */
	long dev_subsys, dev_subsys_len, dev_device, dev_device_len;
	long data_size_bits, data_data;
};

/* Fills l; -ENOENT after one line through rep for a member not found. */
int ks_prb_layout(const struct ks_target *t, struct ks_prb_layout *l,
		  const struct ks_reporter *rep);

#endif /* KS_PRINTK_LAYOUT_H */
