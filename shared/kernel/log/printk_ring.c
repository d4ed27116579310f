// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A port of the reader side of kernel/printk/printk_ringbuffer.c: the
 * descriptors from tail_id to head_id (prb_read_valid()), each one's
 * state (desc_read()) and its text block (get_data()).  A dump is still,
 * so what the kernel retries is counted here instead: a record still
 * reserved, a range of seq numbers gone, memory the image lacks.  Every
 * loop is bounded by the ring's own size, so a forged ring cannot hang it.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "printk_layout.h"
#include "printk_ring.h"
#include "vmcoreinfo.h"

/* printk_ringbuffer.h, for an unsigned long of 64 bits */
#define DESC_FLAGS_SHIFT	62
#define DESC_ID_MASK		(~(3ull << DESC_FLAGS_SHIFT))
#define DESC_ID(sv)		((sv) & DESC_ID_MASK)
#define DESC_STATE(sv)		(3u & (unsigned int)((sv) >> DESC_FLAGS_SHIFT))
enum { DESC_RESERVED, DESC_COMMITTED, DESC_FINALIZED, DESC_REUSABLE };
#define NO_LPOS			0x3ull
#define LPOS_DATALESS(lpos)	((lpos) & 1ull)
#define ID_SIZE			8u

/* a ring larger than any log_buf_len is forged */
#define MAX_COUNT_BITS		26
#define MAX_SIZE_BITS		31
#define TEXT_MAX		65535u	/* printk_info.text_len is a u16 */
#define DEV_MAX			128u
#define DESC_MAX		64	/* struct prb_desc is 24 bytes */
#define CHUNK			65536u
#define PAGE_BYTES		4096u	/* the smallest page a dump lacks */

/* A window of memory read a chunk at a time: the arrays and the text. */
struct window {
	uint64_t base;
	size_t len;
	unsigned char buf[CHUNK];
};

struct ring {
	const struct ks_target *t;
	struct ks_prb_layout l;
	uint64_t descs, infos, data;
	uint64_t count, size;		/* descriptors; bytes of text */
	uint64_t head_id, tail_id;
	struct window *desc_w, *info_w;
	unsigned char *info;		/* one printk_info */
	char *text;			/* TEXT_MAX bytes */
	char subsys[DEV_MAX + 1], device[DEV_MAX + 1];
	struct ks_log_trouble *tr;
	bool desc_read_failed;		/* read_record()'s last descriptor */
};

/*
 * len bytes at addr into out, through w: one chunk read serves many
 * descriptors; a chunk that crosses memory the image lacks falls back
 * to the bytes asked for.
 */
static int window_read(const struct ks_target *t, struct window *w,
		       uint64_t addr, void *out, size_t len)
{
	if (w->len && addr >= w->base && addr - w->base + len <= w->len) {
		memcpy(out, w->buf + (addr - w->base), len);
		return 0;
	}
	w->len = 0;
	if (len > CHUNK)
		return ks_read(t, addr, out, len);
	if (!ks_read(t, addr, w->buf, CHUNK)) {
		w->base = addr;
		w->len = CHUNK;
		memcpy(out, w->buf, len);
		return 0;
	}
	return ks_read(t, addr, out, len);
}

static uint64_t get_u64(const unsigned char *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint32_t get_u32(const unsigned char *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* The active ring: SYMBOL(prb) holds a pointer to it. */
static int find_prb(const struct ks_target *t, uint64_t *prb_ret)
{
	const struct ks_vmcoreinfo vi = { t->ops->vmcoreinfo, t->ctx };
	uint64_t sym = 0;

	if (t->ops->vmcoreinfo)
		sym = ks_vmcoreinfo_symbol(&vi, "prb");
	if (!sym && (!t->ops->symbol || t->ops->symbol(t->ctx, "prb", &sym)))
		return -ENOENT;
	if (ks_read_u64(t, sym, prb_ret))
		return -EFAULT;
	return 0;
}

static int read_head(struct ring *r, uint64_t prb)
{
	const struct ks_prb_layout *l = &r->l;
	uint64_t dr = prb + (uint64_t)l->rb_desc_ring;
	uint64_t tr = prb + (uint64_t)l->rb_text_ring;
	uint32_t cbits, sbits;

	if (ks_read(r->t, dr + (uint64_t)l->dr_count_bits, &cbits, 4) ||
	    ks_read_u64(r->t, dr + (uint64_t)l->dr_descs, &r->descs) ||
	    ks_read_u64(r->t, dr + (uint64_t)l->dr_infos, &r->infos) ||
	    ks_read_u64(r->t, dr + (uint64_t)l->dr_head_id, &r->head_id) ||
	    ks_read_u64(r->t, dr + (uint64_t)l->dr_tail_id, &r->tail_id) ||
	    ks_read(r->t, tr + (uint64_t)l->data_size_bits, &sbits, 4) ||
	    ks_read_u64(r->t, tr + (uint64_t)l->data_data, &r->data))
		return -EFAULT;
	if (cbits > MAX_COUNT_BITS || sbits > MAX_SIZE_BITS || sbits < 3)
		return -EINVAL;
	r->count = 1ull << cbits;
	r->size = 1ull << sbits;
	return 0;
}

/* Sizes that would take a read past the structures they index. */
static bool layout_sane(const struct ks_prb_layout *l)
{
	return l->desc_size <= DESC_MAX &&
	       l->desc_size >= l->desc_text_blk + 16 &&
	       l->desc_state_var + 8 <= l->desc_size &&
	       l->blk_begin + 8 <= 16 && l->blk_next + 8 <= 16 &&
	       l->info_size <= 4096 && l->info_seq + 8 <= l->info_size &&
	       l->info_ts + 8 <= l->info_size &&
	       l->info_text_len + 2 <= l->info_size &&
	       l->info_caller + 4 <= l->info_size &&
	       l->info_facility < l->info_size &&
	       l->info_level < l->info_size && l->info_flags < l->info_size &&
	       l->dev_subsys_len <= DEV_MAX && l->dev_device_len <= DEV_MAX &&
	       l->info_dev + l->dev_subsys + l->dev_subsys_len <= l->info_size &&
	       l->info_dev + l->dev_device + l->dev_device_len <= l->info_size;
}

/*
 * get_data(): where a text block's bytes lie in the data ring and how
 * many there are after its ID.  A block that would wrap is stored whole
 * at the ring's start.  -EINVAL for a block no writer makes.
 */
static int get_data(const struct ring *r, uint64_t begin, uint64_t next,
		    uint64_t *index_ret, uint64_t *len_ret)
{
	uint64_t wraps_b = begin / r->size, len;

	if (LPOS_DATALESS(begin) && LPOS_DATALESS(next)) {
		if (begin != NO_LPOS || next != NO_LPOS)
			return -EINVAL;
		*len_ret = 0;
		*index_ret = 0;
		return 0;
	}
	/*
	 * A block that ends right at the ring's end is a regular one: a
	 * get_next_lpos() that compares next - 1 writes it so; one that
	 * compares next put it at the start instead (the branch below).
	 */
	if (begin < next && wraps_b == (next - 1) / r->size) {
		*index_ret = begin % r->size;
		len = next - begin;
	} else if (wraps_b + 1 == next / r->size) {
		*index_ret = 0;
		len = next % r->size;
	} else {
		return -EINVAL;
	}
	if (begin % ID_SIZE || next % ID_SIZE || len < ID_SIZE)
		return -EINVAL;
	*index_ret += ID_SIZE;
	*len_ret = len - ID_SIZE;
	return 0;
}

static void copy_dev(char *out, const unsigned char *in, long len)
{
	memcpy(out, in, (size_t)len);
	out[len] = '\0';
}

/* printk_info into rec; the text is read after it. */
static void parse_info(struct ring *r, struct ks_log_record *rec)
{
	const struct ks_prb_layout *l = &r->l;
	const unsigned char *in = r->info;
	uint8_t lv = in[l->info_level], fl = in[l->info_flags];
	uint16_t text_len;

	rec->seq = get_u64(in + l->info_seq);
	rec->ts_nsec = get_u64(in + l->info_ts);
	memcpy(&text_len, in + l->info_text_len, 2);
	rec->text_len = text_len;
	rec->caller_id = get_u32(in + l->info_caller);
	rec->has_caller = true;
	rec->facility = in[l->info_facility];
	rec->level = l->level_bits ? lv >> 5 : lv & 7;
	rec->flags = l->level_bits ? fl & 0x1f : fl;
	copy_dev(r->subsys, in + l->info_dev + l->dev_subsys, l->dev_subsys_len);
	copy_dev(r->device, in + l->info_dev + l->dev_device, l->dev_device_len);
	rec->subsystem = r->subsys;
	rec->device = r->device;
}

/* The text of a committed descriptor at desc, into rec. */
static int read_text(struct ring *r, const unsigned char *desc,
		     struct ks_log_record *rec)
{
	const unsigned char *blk = desc + r->l.desc_text_blk;
	uint64_t index, len;

	if (get_data(r, get_u64(blk + r->l.blk_begin),
		     get_u64(blk + r->l.blk_next), &index, &len)) {
		r->tr->bad++;
		return -EINVAL;
	}
	/* copy_data(): a block shorter than text_len is cut, as crash does */
	if (len < rec->text_len) {
		r->tr->bad++;
		rec->text_len = len;
	}
	rec->text = r->text;
	if (rec->text_len &&
	    ks_read(r->t, r->data + index, r->text, rec->text_len)) {
		r->tr->unreadable++;
		return -EFAULT;
	}
	return 0;
}

/*
 * desc_read() of one id: 1 when rec holds a record, 0 when the
 * descriptor holds none to print (counted where it is trouble).
 */
static int read_record(struct ring *r, uint64_t id, struct ks_log_record *rec)
{
	uint64_t idx = id & (r->count - 1);
	unsigned char desc[DESC_MAX];
	size_t dlen = (size_t)r->l.desc_size;
	uint64_t sv;
	unsigned int state;

	r->desc_read_failed = false;
	if (window_read(r->t, r->desc_w, r->descs + idx * (uint64_t)r->l.desc_size,
			desc, dlen)) {
		r->tr->unreadable++;
		r->desc_read_failed = true;
		return 0;
	}
	sv = get_u64(desc + r->l.desc_state_var);
	if (DESC_ID(sv) != id)
		return 0;	/* recycled: its seq gap says so */
	state = DESC_STATE(sv);
	if (state == DESC_RESERVED)
		r->tr->reserved++;
	if (state != DESC_COMMITTED && state != DESC_FINALIZED)
		return 0;
	if (window_read(r->t, r->info_w, r->infos + idx * (uint64_t)r->l.info_size,
			r->info, (size_t)r->l.info_size)) {
		r->tr->unreadable++;
		return 0;
	}
	parse_info(r, rec);
	return read_text(r, desc, rec) ? 0 : 1;
}

/* A gap between the records read: a lost range. */
static void note_seq(struct ring *r, const struct ks_log_record *rec,
		     uint64_t *expect, bool *first)
{
	if (!*first && rec->seq > *expect) {
		r->tr->lost_ranges++;
		r->tr->lost_records += rec->seq - *expect;
	}
	*first = false;
	*expect = rec->seq + 1;
}

/*
 * After descriptor id could not be read: the descriptors left on the
 * same page of the array (at most left), counted unreadable without
 * asking for each, so that a forged ring of 2^26 descriptors over
 * memory the image lacks costs a read a page, not one a descriptor.
 */
static uint64_t unreadable_rest(struct ring *r, uint64_t id, uint64_t left)
{
	uint64_t idx = id & (r->count - 1);
	uint64_t addr = r->descs + idx * (uint64_t)r->l.desc_size;
	uint64_t page_end = (addr | (PAGE_BYTES - 1)) + 1, rest;
	unsigned char byte;

	if (!r->desc_read_failed || !ks_read(r->t, addr, &byte, 1))
		return 0;
	rest = (page_end - addr) / (uint64_t)r->l.desc_size;
	if (rest > left)
		rest = left;
	if (rest > r->count - 1 - idx)	/* not past the array's end */
		rest = r->count - 1 - idx;
	r->tr->unreadable += rest;
	return rest;
}

/* tail_id to head_id, at most the ring's count of descriptors. */
static int walk_ids(struct ring *r, ks_log_record_fn *fn, void *arg,
		    const struct ks_reporter *rep)
{
	uint64_t n = (DESC_ID(r->head_id - r->tail_id)) + 1, id = r->tail_id;
	uint64_t expect = 0;
	bool first = true;
	int ret;

	if (DESC_ID(r->head_id) != r->head_id || DESC_ID(r->tail_id) != r->tail_id ||
	    n > r->count) {
		ks_say(rep, KS_WARN, "the log's descriptor ring is not "
		       "valid (tail %#llx, head %#llx, %llu descriptors): "
		       "reading its last %llu", (unsigned long long)r->tail_id,
		       (unsigned long long)r->head_id,
		       (unsigned long long)r->count,
		       (unsigned long long)r->count);
		n = r->count;
		id = DESC_ID(r->head_id - r->count + 1);
	}
	for (uint64_t i = 0; i < n; i++, id = DESC_ID(id + 1)) {
		struct ks_log_record rec = { .buffer = NULL };
		uint64_t skip;

		if (read_record(r, id, &rec) != 1) {
			/* an unreadable page of descriptors: the rest of it too */
			skip = unreadable_rest(r, id, n - i - 1);
			i += skip;
			id = DESC_ID(id + skip);
			continue;
		}
		note_seq(r, &rec, &expect, &first);
		ret = fn(arg, &rec);
		if (ret)
			return ret;
	}
	return 0;
}

/* Once per kind of trouble, with its count. */
static void say_trouble(const struct ks_log_trouble *tr,
			const struct ks_reporter *rep)
{
	if (tr->reserved)
		ks_say(rep, KS_WARN, "the log: %lu record(s) still being "
		       "written, left out", tr->reserved);
	if (tr->lost_ranges)
		ks_say(rep, KS_WARN, "the log: %lu record(s) lost in %lu "
		       "range(s) of sequence numbers", tr->lost_records,
		       tr->lost_ranges);
	if (tr->unreadable)
		ks_say(rep, KS_WARN, "the log: %lu record(s) in memory the "
		       "image lacks", tr->unreadable);
	if (tr->bad)
		ks_say(rep, KS_WARN, "the log: %lu record(s) whose text "
		       "block is not valid", tr->bad);
}

static int ring_alloc(struct ring *r)
{
	r->desc_w = calloc(1, sizeof(*r->desc_w));
	r->info_w = calloc(1, sizeof(*r->info_w));
	r->info = malloc((size_t)r->l.info_size);
	r->text = malloc(TEXT_MAX);
	return r->desc_w && r->info_w && r->info && r->text ? 0 : -ENOMEM;
}

static void ring_free(struct ring *r)
{
	free(r->desc_w);
	free(r->info_w);
	free(r->info);
	free(r->text);
}

static int ring_open(struct ring *r, const struct ks_reporter *rep)
{
	uint64_t prb;
	int ret;

	ret = ks_prb_layout(r->t, &r->l, rep);
	if (ret)
		return ret;
	if (!layout_sane(&r->l)) {
		ks_say(rep, KS_WARN, "cannot read the kernel log: its "
		       "structures' layout is not valid");
		return -EINVAL;
	}
	if (find_prb(r->t, &prb)) {
		ks_say(rep, KS_WARN, "cannot read the kernel log: no "
		       "readable prb (kernels before 5.10 have another log)");
		return -ENOENT;
	}
	ret = read_head(r, prb);
	if (ret)
		ks_say(rep, KS_WARN, "cannot read the kernel log: its ring "
		       "buffer at %#llx is %s", (unsigned long long)prb,
		       ret == -EFAULT ? "not in the image" : "not valid");
	return ret;
}

int ks_printk_ring_walk(const struct ks_target *t, ks_log_record_fn *fn,
			void *arg, struct ks_log_trouble *trouble,
			const struct ks_reporter *rep)
{
	struct ring r = { .t = t, .tr = trouble };
	int ret;

	memset(trouble, 0, sizeof(*trouble));
	ret = ring_open(&r, rep);
	if (ret)
		return ret;
	ret = ring_alloc(&r);
	if (ret) {
		ks_say(rep, KS_WARN, "cannot read the kernel log: %s",
		       strerror(-ret));
		goto out;
	}
	ret = walk_ids(&r, fn, arg, rep);
	say_trouble(trouble, rep);
out:
	ring_free(&r);
	return ret;
}
