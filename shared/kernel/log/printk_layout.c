// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The printk ring buffer's layout.  VMCOREINFO lists what makedumpfile
 * and crash need (kernel/printk/printk.c: log_buf_vmcoreinfo_setup()),
 * which is what a dump without BTF or vmlinux still has; the target's
 * types answer for the rest, and for an image without VMCOREINFO.
 * printk_info's level, facility and flags are never in VMCOREINFO.
 */
#include <errno.h>
#include <stddef.h>
#include <stdio.h>

#include "printk_layout.h"
#include "vmcoreinfo.h"

#define L(m)	offsetof(struct ks_prb_layout, m)

/* member NULL: SIZE(type); len: LENGTH(name) or the member's size */
struct field {
	const char *type, *member, *length;
	size_t at;
};

static const struct field fields[] = {
	{ "printk_ringbuffer", "desc_ring", NULL, L(rb_desc_ring) },
	{ "printk_ringbuffer", "text_data_ring", NULL, L(rb_text_ring) },
	{ "prb_desc_ring", "count_bits", NULL, L(dr_count_bits) },
	{ "prb_desc_ring", "descs", NULL, L(dr_descs) },
	{ "prb_desc_ring", "infos", NULL, L(dr_infos) },
	{ "prb_desc_ring", "head_id", NULL, L(dr_head_id) },
	{ "prb_desc_ring", "tail_id", NULL, L(dr_tail_id) },
	{ "prb_desc", NULL, NULL, L(desc_size) },
	{ "prb_desc", "state_var", NULL, L(desc_state_var) },
	{ "prb_desc", "text_blk_lpos", NULL, L(desc_text_blk) },
	{ "prb_data_blk_lpos", "begin", NULL, L(blk_begin) },
	{ "prb_data_blk_lpos", "next", NULL, L(blk_next) },
	{ "printk_info", NULL, NULL, L(info_size) },
	{ "printk_info", "seq", NULL, L(info_seq) },
	{ "printk_info", "ts_nsec", NULL, L(info_ts) },
	{ "printk_info", "text_len", NULL, L(info_text_len) },
	{ "printk_info", "caller_id", NULL, L(info_caller) },
	{ "printk_info", "dev_info", NULL, L(info_dev) },
	{ "dev_printk_info", "subsystem", NULL, L(dev_subsys) },
	{ "dev_printk_info", "subsystem", "printk_info_subsystem",
	  L(dev_subsys_len) },
	{ "dev_printk_info", "device", NULL, L(dev_device) },
	{ "dev_printk_info", "device", "printk_info_device",
	  L(dev_device_len) },
	{ "prb_data_ring", "size_bits", NULL, L(data_size_bits) },
	{ "prb_data_ring", "data", NULL, L(data_data) },
};

static long from_vmcoreinfo(const struct ks_target *t, const struct field *f)
{
	const struct ks_vmcoreinfo vi = { t->ops->vmcoreinfo, t->ctx };
	char key[96];
	int64_t v;

	if (!t->ops->vmcoreinfo)
		return -ENOENT;
	if (f->length)
		snprintf(key, sizeof(key), "LENGTH(%s)", f->length);
	else if (f->member)
		snprintf(key, sizeof(key), "OFFSET(%s.%s)", f->type, f->member);
	else
		snprintf(key, sizeof(key), "SIZE(%s)", f->type);
	if (ks_vmcoreinfo_number(&vi, key, 10, &v) || v < 0 || v > 65536)
		return -ENOENT;
	return (long)v;
}

static long from_types(const struct ks_target *t, const struct field *f)
{
	const struct ks_target_ops *o = t->ops;

	if (f->length)
		return o->member_size ? o->member_size(t->ctx, f->type,
						       f->member) : -ENOENT;
	if (f->member)
		return o->member_offset ? o->member_offset(t->ctx, f->type,
							   f->member) : -ENOENT;
	return o->type_size ? o->type_size(t->ctx, f->type) : -ENOENT;
}

static long member(const struct ks_target *t, const char *type,
		   const char *name)
{
	const struct field f = { type, name, NULL, 0 };

	return from_types(t, &f);
}

/*
 * printk_info has "u8 facility; u8 flags:5; u8 level:3;" since 5.10.  A
 * target answers a bit-field's byte, so level and flags in one byte are
 * the bit-fields, the first declared in the low bits (x86_64 and arm64
 * are little-endian); without the types, the byte after facility.
 */
static void small_fields(const struct ks_target *t, struct ks_prb_layout *l)
{
	long fac = member(t, "printk_info", "facility");
	long lvl = member(t, "printk_info", "level");
	long flg = member(t, "printk_info", "flags");

	l->info_facility = fac >= 0 ? fac : l->info_text_len + 2;
	if (lvl < 0 || flg < 0 || lvl == flg) {
		l->level_bits = true;
		l->info_level = lvl >= 0 ? lvl : l->info_facility + 1;
		l->info_flags = l->info_level;
		return;
	}
	l->level_bits = false;
	l->info_level = lvl;
	l->info_flags = flg;
}

int ks_prb_layout(const struct ks_target *t, struct ks_prb_layout *l,
		  const struct ks_reporter *rep)
{
	for (size_t i = 0; i < sizeof(fields) / sizeof(fields[0]); i++) {
		const struct field *f = &fields[i];
		long v = from_vmcoreinfo(t, f);

		if (v < 0)
			v = from_types(t, f);
		if (v < 0) {
			ks_say(rep, KS_WARN, "cannot read the kernel log: "
			       "neither VMCOREINFO nor the types give %s%s%s",
			       f->type, f->member ? "." : "",
			       f->member ? f->member : "");
			return -ENOENT;
		}
		*(long *)((char *)l + f->at) = v;
	}
	small_fields(t, l);
	return 0;
}
