// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * ORC tables read out of kernel memory, and the lookups the unwinder does
 * on them.  Mirrors unwind_init(), __orc_find(), orc_find() and
 * orc_module_find() of arch/x86/kernel/unwind_orc.c (Linux 6.1), and the
 * text checks of kernel/extable.c (__kernel_text_address).
 *
 * The tables are read once, in large chunks (vmlinux's is about 1-2 MB on
 * a distribution kernel), and kept decoded: absolute ip addresses and
 * unpacked entries.  vmlinux's table is sorted at build time (sorttable)
 * and every module's is sorted by unwind_module_init() when it loads, so
 * the kernel's binary search works on them as they are in memory.  Ours
 * searches the same bytes and does not sort: an unsorted table would
 * mislead the kernel the same way, so it is named (once, among the
 * problems) rather than mended.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "grow.h"
#include "kernel_modules.h"
#include "list_walk.h"
#include "orc.h"

#define IP_CHUNK	16384		/* entries per read: 64 KiB of ip table */
/* MODULES_LEN is 1.5 GiB on x86_64: no module range is bigger. */
#define MAX_MODULE_RANGE	(1ull << 30)

/*
 * The one place that knows the bit layout of struct orc_entry.  Type
 * information names the bitfields but a target cannot tell where they
 * are, so the layout is picked by which members exist (see detect_layout)
 * and the bits are fixed here, little-endian, as orc_types.h declares:
 *   6.1:  s16 sp_offset; s16 bp_offset; sp_reg:4 bp_reg:4 type:2 end:1
 *   6.4:  s16 sp_offset; s16 bp_offset; sp_reg:4 bp_reg:4 type:3 signal:1
 * 6.3 had type:3 end:1 without signal; it cannot be told from 6.1 by
 * member names and is not supported.  7.1 kept the 6.4 bits and
 * renumbered the registers; only .orc_header's hash tells it apart.
 */
static uint8_t decode_reg(enum ks_orc_layout layout, unsigned int raw)
{
	/* 7.1's ORC_REG_*: UNDEFINED AX DX SP BP DI R10 R13 PREV_SP SP_INDIRECT BP_INDIRECT */
	static const uint8_t reg_7_1[] = {
		KS_ORC_REG_UNDEFINED, KS_ORC_REG_AX, KS_ORC_REG_DX,
		KS_ORC_REG_SP, KS_ORC_REG_BP, KS_ORC_REG_DI, KS_ORC_REG_R10,
		KS_ORC_REG_R13, KS_ORC_REG_PREV_SP, KS_ORC_REG_SP_INDIRECT,
		KS_ORC_REG_BP_INDIRECT,
	};

	if (layout == KS_ORC_LAYOUT_7_1)
		return raw < sizeof(reg_7_1) ? reg_7_1[raw] : KS_ORC_REG_UNKNOWN;
	return raw <= KS_ORC_REG_SP_INDIRECT ? (uint8_t)raw : KS_ORC_REG_UNKNOWN;
}

void ks_orc_decode(enum ks_orc_layout layout, const uint8_t raw[KS_ORC_ENTRY_SIZE],
		   struct ks_orc_entry *e)
{
	uint16_t flags = (uint16_t)(raw[4] | (raw[5] << 8));
	unsigned int type;

	e->sp_offset = (int16_t)(raw[0] | (raw[1] << 8));
	e->bp_offset = (int16_t)(raw[2] | (raw[3] << 8));
	e->sp_reg = decode_reg(layout, flags & 0xf);
	e->bp_reg = decode_reg(layout, (flags >> 4) & 0xf);
	e->end = false;
	e->signal = false;

	if (layout == KS_ORC_LAYOUT_6_1) {
		e->type = (flags >> 8) & 0x3;
		e->end = (flags >> 10) & 0x1;
		if (e->type > KS_ORC_TYPE_REGS_PARTIAL)
			e->type = KS_ORC_TYPE_UNKNOWN;
		/* 6.1's unwind_next_frame() sets state->signal by frame type */
		e->signal = e->type == KS_ORC_TYPE_REGS ||
			    e->type == KS_ORC_TYPE_REGS_PARTIAL;
		return;
	}

	/* 6.4+: ORC_TYPE_UNDEFINED 0, END_OF_STACK 1, CALL 2, REGS 3, REGS_PARTIAL 4 */
	type = (flags >> 8) & 0x7;
	e->signal = (flags >> 11) & 0x1;
	switch (type) {
	case 0:
	case 1:
		e->sp_reg = KS_ORC_REG_UNDEFINED;
		e->end = type == 1;
		e->type = KS_ORC_TYPE_CALL;
		break;
	case 2:
	case 3:
	case 4:
		e->type = (uint8_t)(type - 2);
		break;
	default:
		e->type = KS_ORC_TYPE_UNKNOWN;
		break;
	}
}

/*
 * ORC_HASH of arch/x86/include/generated/asm/orc_hash.h: the SHA-1 of
 * orc_types.h's ORC_REG_*, ORC_TYPE_* and struct orc_entry, which the
 * kernel keeps in .orc_header and module_finalize() checks every module
 * against.  Read from Debian's 6.12.117 and 7.2.13 headers.
 */
static const uint8_t orc_hash_6_4[KS_ORC_HASH_SIZE] = {
	0xfe, 0x5d, 0x32, 0xbf, 0x58, 0x1b, 0xd6, 0x3b, 0x2c, 0xa9,
	0xa5, 0xc6, 0x5b, 0xa5, 0xa6, 0x25, 0xea, 0xb3, 0xfe, 0x24,
};
static const uint8_t orc_hash_7_1[KS_ORC_HASH_SIZE] = {
	0x13, 0x7c, 0x36, 0xad, 0x76, 0x27, 0xc4, 0xdd, 0x55, 0x93,
	0x21, 0x76, 0xbb, 0x0e, 0xcd, 0xbd, 0x50, 0x41, 0xfc, 0x82,
};

/* 6.4+ names its format in .orc_header; older kernels have none. */
static int header_layout(const struct ks_target *t, enum ks_orc_layout *layout_ret)
{
	uint8_t hash[KS_ORC_HASH_SIZE];
	uint64_t start, stop;

	if (t->ops->symbol(t->ctx, "__start_orc_header", &start))
		return -ENOENT;
	if (!t->ops->symbol(t->ctx, "__stop_orc_header", &stop) &&
	    stop - start != KS_ORC_HASH_SIZE)
		return -EPROTONOSUPPORT;
	if (ks_read(t, start, hash, sizeof(hash)))
		return -EFAULT;
	if (!memcmp(hash, orc_hash_6_4, sizeof(hash)))
		*layout_ret = KS_ORC_LAYOUT_6_4;
	else if (!memcmp(hash, orc_hash_7_1, sizeof(hash)))
		*layout_ret = KS_ORC_LAYOUT_7_1;
	else
		return -EPROTONOSUPPORT;
	return 0;
}

static int detect_layout(const struct ks_target *t, enum ks_orc_layout *layout_ret)
{
	long size = t->ops->type_size(t->ctx, "orc_entry");
	int ret;

	if (size >= 0 && size != KS_ORC_ENTRY_SIZE)
		return -ENOTSUP;
	ret = header_layout(t, layout_ret);
	if (ret != -ENOENT)
		return ret;
	*layout_ret = KS_ORC_LAYOUT_6_1;
	if (t->ops->member_offset(t->ctx, "orc_entry", "signal") >= 0)
		*layout_ret = KS_ORC_LAYOUT_6_4;
	return 0;
}

static void table_free(struct ks_orc_table *tab)
{
	free(tab->ip);
	free(tab->orc);
	memset(tab, 0, sizeof(*tab));
}

/*
 * Room for at least want entries; the arrays grow as reads succeed.  The
 * first size is the first chunk's: a module's table holds a few hundred
 * entries, and a kernel has a hundred modules.
 */
static int table_grow(struct ks_orc_table *tab, size_t *cap, size_t want)
{
	size_t ip_cap = *cap, orc_cap = *cap;
	uint64_t *ip = ks_grow_min(tab->ip, &ip_cap, want, sizeof(*ip), want);
	struct ks_orc_entry *orc;

	if (!ip)
		return -ENOMEM;
	tab->ip = ip;
	orc = ks_grow_min(tab->orc, &orc_cap, want, sizeof(*orc), want);
	if (!orc)
		return -ENOMEM;
	tab->orc = orc;
	*cap = orc_cap;
	return 0;
}

/*
 * Reads num entries of an .orc_unwind_ip array at ip_addr (int32 offsets,
 * each relative to its own address: orc_ip()) and of the matching
 * .orc_unwind array at orc_addr, chunk by chunk.  The memory grows with
 * what was read, so a num from a corrupt count costs nothing before the
 * first read fails.
 */
static int table_read(const struct ks_target *t, enum ks_orc_layout layout,
		      uint64_t ip_addr, uint64_t orc_addr, size_t num,
		      struct ks_orc_table *tab)
{
	uint8_t *raw;
	size_t done, i, n, cap = 0;
	int ret = -ENOMEM;

	memset(tab, 0, sizeof(*tab));
	if (!num)
		return 0;
	raw = malloc(IP_CHUNK * KS_ORC_ENTRY_SIZE);
	if (!raw)
		goto out;
	for (done = 0; done < num; done += n) {
		n = num - done < IP_CHUNK ? num - done : IP_CHUNK;
		ret = table_grow(tab, &cap, done + n);
		if (ret)
			goto out;
		ret = ks_read(t, ip_addr + 4 * done, raw, 4 * n);
		if (ret)
			goto out;
		for (i = 0; i < n; i++) {
			int32_t off;

			memcpy(&off, raw + 4 * i, sizeof(off));
			tab->ip[done + i] = ip_addr + 4 * (done + i) + (int64_t)off;
		}
		ret = ks_read(t, orc_addr + KS_ORC_ENTRY_SIZE * done, raw,
			      KS_ORC_ENTRY_SIZE * n);
		if (ret)
			goto out;
		for (i = 0; i < n; i++)
			ks_orc_decode(layout, raw + KS_ORC_ENTRY_SIZE * i,
				      &tab->orc[done + i]);
	}
	tab->num = num;
	ret = 0;
out:
	free(raw);
	if (ret)
		table_free(tab);
	return ret;
}

static int sym_range(const struct ks_target *t, const char *start,
		     const char *end, struct ks_range *r)
{
	if (t->ops->symbol(t->ctx, start, &r->start) ||
	    t->ops->symbol(t->ctx, end, &r->end) || r->end < r->start) {
		r->start = r->end = 0;
		return -ENOENT;
	}
	return 0;
}

/* unwind_init(): the built-in table, checked the way the kernel checks it. */
static int load_vmlinux(const struct ks_target *t, struct ks_orc *orc)
{
	uint64_t ip_start, ip_stop, orc_start, orc_stop, num;
	int ret;

	ret = t->ops->symbol(t->ctx, "__start_orc_unwind_ip", &ip_start);
	if (!ret)
		ret = t->ops->symbol(t->ctx, "__stop_orc_unwind_ip", &ip_stop);
	if (!ret)
		ret = t->ops->symbol(t->ctx, "__start_orc_unwind", &orc_start);
	if (!ret)
		ret = t->ops->symbol(t->ctx, "__stop_orc_unwind", &orc_stop);
	if (ret)
		return ret;
	if (ip_stop <= ip_start || orc_stop < orc_start)
		return -EINVAL;
	num = (ip_stop - ip_start) / 4;
	if ((ip_stop - ip_start) % 4 ||
	    (orc_stop - orc_start) % KS_ORC_ENTRY_SIZE ||
	    num != (orc_stop - orc_start) / KS_ORC_ENTRY_SIZE)
		return -EINVAL;
	ret = table_read(t, orc->layout, ip_start, orc_start, num, &orc->vmlinux);
	if (ret)
		return ret;

	/* core_kernel_text(): [_stext, _etext); without them, the table's span. */
	if (sym_range(t, "_stext", "_etext", &orc->stext)) {
		orc->stext.start = orc->vmlinux.ip[0];
		orc->stext.end = orc->vmlinux.ip[num - 1] + 1;
	}
	sym_range(t, "_sinittext", "_einittext", &orc->inittext);
	return 0;
}

/* A range a module can have: none, or kernel memory of a sane size. */
static bool range_sane(const struct ks_range *r)
{
	if (r->start == r->end)
		return true;
	return r->start >= KS_KERNEL_HALF && r->end > r->start &&
	       r->end - r->start <= MAX_MODULE_RANGE;
}

/* [addr, addr + len) inside one of the module's ranges. */
static bool in_module(const struct ks_orc_module *m, uint64_t addr,
		      uint64_t len)
{
	for (int i = 0; i < m->nr_all; i++)
		if (addr >= m->all[i].start && addr <= m->all[i].end &&
		    len <= m->all[i].end - addr)
			return true;
	return false;
}

static int modules_add(struct ks_orc *orc, const struct ks_orc_module *m,
		       size_t *cap)
{
	struct ks_orc_module *mods = ks_grow_min(orc->mods, cap,
						 orc->nr_mods + 1,
						 sizeof(*mods), 32);

	if (!mods)
		return -ENOMEM;
	orc->mods = mods;
	orc->mods[orc->nr_mods++] = *m;
	return 0;
}

/* One more line for the caller to report; -ENOMEM. */
static int orc_vproblem(struct ks_orc *orc, const char *fmt, va_list ap)
{
	char msg[512], **p;

	vsnprintf(msg, sizeof(msg), fmt, ap);
	p = ks_grow(orc->problems, &orc->problems_cap, orc->nr_problems + 1,
		    sizeof(*p));
	if (!p)
		return -ENOMEM;
	orc->problems = p;
	p[orc->nr_problems] = strdup(msg);
	if (!p[orc->nr_problems])
		return -ENOMEM;
	orc->nr_problems++;
	return 0;
}

static int orc_problem(struct ks_orc *orc, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = orc_vproblem(orc, fmt, ap);
	va_end(ap);
	return ret;
}

/* A reporter that keeps what it is told as one more problem. */
struct kept_problem {
	struct ks_orc *orc;
	int ret;		/* -ENOMEM when it could not be kept */
};

static void keep_problem(void *arg, enum ks_say_level level, const char *text)
{
	struct kept_problem *k = arg;

	(void)level;
	if (!k->ret)
		k->ret = orc_problem(k->orc, "%s", text);
}

/* err, once the problem is said; -ENOMEM when it cannot be. */
__attribute__((format(printf, 3, 4)))
static int said(struct ks_orc *orc, int err, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = orc_vproblem(orc, fmt, ap);
	va_end(ap);
	return ret ? ret : err;
}

struct module_walk {
	const struct ks_target *t;
	struct ks_orc *orc;
	size_t cap;
};

/*
 * __orc_find()'s binary search needs ip[] in order; a table out of order
 * (a damaged dump) finds the wrong entry for some addresses.  The first
 * place it breaks is named for the caller to report.
 */
static int check_sorted(struct ks_orc *orc, const char *who,
			const struct ks_orc_table *tab)
{
	for (size_t i = 1; i < tab->num; i++)
		if (tab->ip[i] < tab->ip[i - 1])
			return orc_problem(orc, "%s's ORC table is not sorted "
					   "(entry %zu, ip %#llx, is below the "
					   "one before, %#llx): the stacks "
					   "through it may be wrong", who, i,
					   (unsigned long long)tab->ip[i],
					   (unsigned long long)tab->ip[i - 1]);
	return 0;
}

/*
 * Name and memory ranges of the module: 0, or -errno for a module to
 * leave out, once orc_problem() has said why (-ENOMEM when it cannot).
 */
static int module_head(struct ks_orc *orc, const struct ks_module *km,
		       struct ks_orc_module *m)
{
	unsigned long long mod = km->addr;

	memset(m, 0, sizeof(*m));
	m->addr = km->addr;
	if (km->head_err)
		return said(orc, km->head_err, "module at %#llx: its struct "
			    "module cannot be read; skipped", mod);
	memcpy(m->name, km->name, sizeof(m->name));
	if (km->ranges_err)
		return said(orc, km->ranges_err, "module at %#llx: its memory "
			    "ranges cannot be read; skipped", mod);
	memcpy(m->text, km->text, sizeof(m->text));
	memcpy(m->all, km->all, sizeof(m->all));
	m->nr_all = km->nr_all;
	for (int i = 0; i < m->nr_all + 2; i++) {
		const struct ks_range *r = i < m->nr_all ? &m->all[i] :
						       &m->text[i - m->nr_all];

		if (!range_sane(r))
			return said(orc, -EINVAL, "module at %#llx: its memory "
				    "range %#llx-%#llx is no module's; skipped",
				    mod, (unsigned long long)r->start,
				    (unsigned long long)r->end);
	}
	return 0;
}

/* "module NAME at ADDR: ...; its frames are unwound without ORC" */
#define WITHOUT_ORC(fmt)	"module %s at %#llx: " fmt "; its frames are " \
				"unwound without ORC"

/*
 * orc_module_find()'s table of a module whose ranges are known: 0 with
 * the table (none when either pointer is NULL), or -errno once
 * orc_problem() has said why (-ENOMEM when it cannot).  The tables are
 * in the module's own memory, 10 bytes an entry, which bounds num_orcs.
 * (Its text is no bound: entries for init text stay in the table after
 * that text is freed.)
 */
static int module_table(const struct ks_target *t, struct ks_orc *orc,
			const struct ks_module *km, struct ks_orc_module *m)
{
	unsigned long long num = km->num_orcs, ip_addr = km->orc_unwind_ip;
	unsigned long long orc_addr = km->orc_unwind, mod = km->addr;
	int ret;

	if (km->orc_err)
		return said(orc, km->orc_err, WITHOUT_ORC("its ORC table "
			    "pointers cannot be read"), m->name, mod);
	if (!ip_addr || !orc_addr || !num)
		return 0;
	if (!in_module(m, ip_addr, 4 * num) ||
	    !in_module(m, orc_addr, KS_ORC_ENTRY_SIZE * num))
		return said(orc, -EINVAL, WITHOUT_ORC("num_orcs %llu: its ORC "
			    "tables at %#llx and %#llx do not fit in its "
			    "memory"), m->name, mod, num, ip_addr, orc_addr);
	ret = table_read(t, orc->layout, ip_addr, orc_addr, (size_t)num,
			 &m->table);
	if (ret && ret != -ENOMEM)
		return said(orc, ret, WITHOUT_ORC("its ORC table of %llu "
			    "entries at %#llx cannot be read"), m->name, mod,
			    num, ip_addr);
	return ret;
}

/*
 * One module of the list.  One that cannot be read costs its own frames
 * only: without its ranges it is left out (its return addresses end a
 * walk as text of no one), without its table it is kept and unwound by
 * the frame-pointer guess, as the kernel does a module without ORC data.
 */
static int module_node(void *arg, const struct ks_module *km)
{
	struct module_walk *mw = arg;
	struct ks_orc_module m;
	char who[sizeof(m.name) + 8];
	int ret;

	ret = module_head(mw->orc, km, &m);
	if (ret)		/* said: the walk goes on without it */
		return ret == -ENOMEM ? ret : 0;
	/* a kernel without ORC has no mod->arch tables to miss */
	ret = mw->orc->frame_pointers ? 0 : module_table(mw->t, mw->orc, km, &m);
	if (ret == -ENOMEM)
		return ret;
	snprintf(who, sizeof(who), "module %s", m.name);
	if (check_sorted(mw->orc, who, &m.table)) {
		table_free(&m.table);
		return -ENOMEM;
	}
	ret = modules_add(mw->orc, &m, &mw->cap);
	if (ret)
		table_free(&m.table);
	return ret;
}

/*
 * Every module on the `modules` list.  The list may loop or break off:
 * the modules before that point are kept and the rest reported, so a
 * corrupt module costs only the frames in the modules it hides.
 */
static int load_modules(const struct ks_target *t, struct ks_orc *orc)
{
	struct module_walk mw = { .t = t, .orc = orc };
	struct kept_problem kept = { orc, 0 };
	const struct ks_reporter keep = { .say = keep_problem, .arg = &kept };
	struct ks_module_layout l;
	int ret;

	ks_module_layout_init(t, &l);
	ret = ks_modules_walk(t, &l, module_node, &mw, &keep);
	if (ret == -ENOENT)
		return 0;	/* a kernel without modules, or no type data */
	return ret ? ret : kept.ret;
}

int ks_orc_load(const struct ks_target *t, struct ks_orc **orc_ret)
{
	struct ks_orc *orc;
	int ret;

	orc = calloc(1, sizeof(*orc));
	if (!orc)
		return -ENOMEM;
	ret = detect_layout(t, &orc->layout);
	if (!ret)
		ret = load_vmlinux(t, orc);
	if (!ret)
		ret = check_sorted(orc, "vmlinux", &orc->vmlinux);
	if (!ret)
		ret = load_modules(t, orc);
	if (ret) {
		ks_orc_free(orc);
		return ret;
	}
	*orc_ret = orc;
	return 0;
}

/*
 * A kernel built without CONFIG_UNWINDER_ORC: no table to read, but the
 * frame-pointer walk asks __kernel_text_address() the same questions, so
 * the text ranges and the modules are read as for ORC.  A module's ORC
 * pointers are optional members such a kernel lacks: its table is empty.
 */
int ks_orc_load_text(const struct ks_target *t, struct ks_orc **orc_ret)
{
	struct ks_orc *orc;
	int ret;

	orc = calloc(1, sizeof(*orc));
	if (!orc)
		return -ENOMEM;
	orc->frame_pointers = true;
	ret = sym_range(t, "_stext", "_etext", &orc->stext);
	if (!ret) {
		sym_range(t, "_sinittext", "_einittext", &orc->inittext);
		ret = load_modules(t, orc);
	}
	if (ret) {
		ks_orc_free(orc);
		return ret;
	}
	*orc_ret = orc;
	return 0;
}

void ks_orc_free(struct ks_orc *orc)
{
	size_t i;

	if (!orc)
		return;
	table_free(&orc->vmlinux);
	for (i = 0; i < orc->nr_mods; i++)
		table_free(&orc->mods[i].table);
	for (i = 0; i < orc->nr_problems; i++)
		free(orc->problems[i]);
	free(orc->problems);
	free(orc->mods);
	free(orc);
}

static bool in_range(const struct ks_range *r, uint64_t addr)
{
	return addr >= r->start && addr < r->end;
}

/*
 * __orc_find(): the rightmost entry whose address is <= ip.  Section
 * terminators ("weak" entries) share an address with a real entry and sit
 * left of it, so the rightmost duplicate is the real one.  Like the
 * kernel, an ip below the first entry gets the first entry.
 */
static const struct ks_orc_entry *table_find(const struct ks_orc_table *tab,
					     uint64_t ip)
{
	size_t first = 0, last, mid, found = 0;

	if (!tab->num)
		return NULL;
	last = tab->num;	/* one past, so that the loop needs no signed index */
	while (first < last) {
		mid = first + (last - first) / 2;
		if (tab->ip[mid] <= ip) {
			found = mid;
			first = mid + 1;
		} else {
			last = mid;
		}
	}
	return &tab->orc[found];
}

/* __module_address(): the formed module whose memory holds addr. */
static const struct ks_orc_module *module_of(const struct ks_orc *orc,
					     uint64_t addr)
{
	size_t i;
	int j;

	for (i = 0; i < orc->nr_mods; i++)
		for (j = 0; j < orc->mods[i].nr_all; j++)
			if (in_range(&orc->mods[i].all[j], addr))
				return &orc->mods[i];
	return NULL;
}

/*
 * orc_find().  The kernel's fast orc_lookup[] table for [_stext, _etext)
 * only narrows the same search, so a binary search over the whole table
 * gives the same entry.  orc_ftrace_find() (dynamic ftrace trampolines)
 * is not ported: such an ip gets NULL and the frame-pointer fallback.
 */
const struct ks_orc_entry *ks_orc_find(const struct ks_orc *orc, uint64_t ip)
{
	/* null_orc_entry: a call through a NULL function pointer. */
	static const struct ks_orc_entry null_orc_entry = {
		.sp_offset = 8,
		.sp_reg = KS_ORC_REG_SP,
		.bp_reg = KS_ORC_REG_UNDEFINED,
		.type = KS_ORC_TYPE_CALL,
	};
	const struct ks_orc_module *mod;

	if (ip == 0)
		return &null_orc_entry;
	if (in_range(&orc->stext, ip) || in_range(&orc->inittext, ip))
		return table_find(&orc->vmlinux, ip);
	mod = module_of(orc, ip);
	if (mod)
		return table_find(&mod->table, ip);
	return NULL;
}

/*
 * __kernel_text_address(): core kernel text, init text, module text.  The
 * kernel also accepts ftrace trampolines, kprobe instruction slots and
 * BPF programs; a dump's symbol tables do not describe those, so a return
 * address in them ends our walk where the kernel's would go on.
 */
bool ks_orc_kernel_text(const struct ks_orc *orc, uint64_t addr)
{
	size_t i;

	if (in_range(&orc->stext, addr) || in_range(&orc->inittext, addr))
		return true;
	for (i = 0; i < orc->nr_mods; i++)
		if (in_range(&orc->mods[i].text[0], addr) ||
		    in_range(&orc->mods[i].text[1], addr))
			return true;
	return false;
}
