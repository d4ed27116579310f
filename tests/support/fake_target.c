// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The hand-made kernel image of fake_target.h.  Everything is a plain
 * array searched linearly: tests build a few dozen of each.  Only lookup
 * by address goes through an index sorted when first needed, for the
 * images of a kernel tracing every function (tests/support/ftrace_image.c),
 * which hold tens of thousands of symbols and look each one up.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "fake_target.h"
#include "grow.h"

struct fake_seg {
	uint64_t addr;
	size_t len;
	uint8_t *bytes;
};

struct fake_sym {
	char *name;
	uint64_t addr, size;
	char *module;
};

struct fake_member {
	char *type, *member;	/* member NULL: a type size entry */
	long offset, size;
};

struct fake_regs {
	int cpu;
	struct ks_regs regs;
};

struct ks_fake {
	struct fake_seg *segs;
	size_t nr_segs, cap_segs;
	struct fake_seg *phys;		/* physical memory, for read_phys */
	size_t nr_phys, cap_phys;
	struct ks_user_walk uw;		/* read_user's paging facts */
	const struct ks_arch *arch;	/* what the target says it is */
	char *vmcoreinfo;		/* KEY=VALUE lines, or NULL: no op */
	struct fake_sym *syms;
	size_t nr_syms, cap_syms;
	struct fake_member *members;
	size_t nr_members, cap_members;
	struct fake_regs *regs;
	size_t nr_regs, cap_regs;
	unsigned long reads;
	struct ks_kallsyms *ksyms;	/* as a real target: after its table */
	size_t *by_addr;		/* syms by address, then as added */
	uint64_t *max_end;		/* the furthest end of by_addr[0..i] */
	size_t nr_sorted;		/* both are valid when == nr_syms */
};

/*
 * Grows *arr by one zeroed element of size esize; returns the new slot
 * or NULL.  The room doubles: images of tens of thousands of symbols are
 * built in linear time.
 */
static void *grow(void *arr_p, size_t *nr, size_t *cap, size_t esize)
{
	void **arr = arr_p;
	void *p = ks_grow(*arr, cap, *nr + 1, esize);

	if (!p)
		return NULL;
	*arr = p;
	p = (char *)p + *nr * esize;
	memset(p, 0, esize);
	(*nr)++;
	return p;
}

struct ks_fake *ks_fake_create(void)
{
	struct ks_fake *f = calloc(1, sizeof(struct ks_fake));

	if (f)
		f->arch = &ks_arch_x86_64;	/* the images the tests forge are */
	return f;
}

void ks_fake_destroy(struct ks_fake *f)
{
	size_t i;

	if (!f)
		return;
	ks_kallsyms_free(f->ksyms);
	for (i = 0; i < f->nr_segs; i++)
		free(f->segs[i].bytes);
	for (i = 0; i < f->nr_phys; i++)
		free(f->phys[i].bytes);
	for (i = 0; i < f->nr_syms; i++) {
		free(f->syms[i].name);
		free(f->syms[i].module);
	}
	for (i = 0; i < f->nr_members; i++) {
		free(f->members[i].type);
		free(f->members[i].member);
	}
	free(f->segs);
	free(f->phys);
	free(f->syms);
	free(f->by_addr);
	free(f->max_end);
	free(f->members);
	free(f->regs);
	free(f->vmcoreinfo);
	free(f);
}

/* A new segment of virtual or physical memory. */
static int add_seg(struct fake_seg **segs, size_t *nr, size_t *cap,
		   uint64_t addr, const void *bytes, size_t len)
{
	struct fake_seg *seg;
	uint8_t *copy = calloc(1, len ? len : 1);

	if (!copy)
		return -ENOMEM;
	if (bytes)
		memcpy(copy, bytes, len);
	seg = grow(segs, nr, cap, sizeof(*seg));
	if (!seg) {
		free(copy);
		return -ENOMEM;
	}
	seg->addr = addr;
	seg->len = len;
	seg->bytes = copy;
	return 0;
}

int ks_fake_add_memory(struct ks_fake *f, uint64_t addr, const void *bytes,
		       size_t len)
{
	return add_seg(&f->segs, &f->nr_segs, &f->cap_segs, addr, bytes, len);
}

int ks_fake_add_phys(struct ks_fake *f, uint64_t paddr, const void *bytes,
		     size_t len)
{
	return add_seg(&f->phys, &f->nr_phys, &f->cap_phys, paddr, bytes, len);
}

void ks_fake_set_paging(struct ks_fake *f, const struct ks_paging *pg)
{
	f->uw.pg = *pg;
}

/* The segment holding addr, and how many bytes of it follow addr. */
static struct fake_seg *seg_of(struct fake_seg *segs, size_t nr, uint64_t addr,
			       size_t *avail_ret)
{
	size_t i;

	for (i = 0; i < nr; i++) {
		struct fake_seg *seg = &segs[i];

		if (addr >= seg->addr && addr - seg->addr < seg->len) {
			*avail_ret = seg->len - (size_t)(addr - seg->addr);
			return seg;
		}
	}
	return NULL;
}

/* Copies between buf and the segments, across adjacent ones. */
static int mem_copy(struct fake_seg *segs, size_t nr, uint64_t addr, void *buf,
		    size_t len, bool write)
{
	uint8_t *p = buf;
	struct fake_seg *seg;
	size_t avail, n;

	while (len) {
		seg = seg_of(segs, nr, addr, &avail);
		if (!seg)
			return -EFAULT;
		n = len < avail ? len : avail;
		if (write)
			memcpy(seg->bytes + (addr - seg->addr), p, n);
		else
			memcpy(p, seg->bytes + (addr - seg->addr), n);
		p += n;
		addr += n;
		len -= n;
	}
	return 0;
}

int ks_fake_write(struct ks_fake *f, uint64_t addr, const void *bytes,
		  size_t len)
{
	return mem_copy(f->segs, f->nr_segs, addr, (void *)bytes, len, true);
}

int ks_fake_write_phys(struct ks_fake *f, uint64_t paddr, const void *bytes,
		       size_t len)
{
	return mem_copy(f->phys, f->nr_phys, paddr, (void *)bytes, len, true);
}

int ks_fake_write_u64(struct ks_fake *f, uint64_t addr, uint64_t val)
{
	return ks_fake_write(f, addr, &val, sizeof(val));
}

int ks_fake_add_symbol(struct ks_fake *f, const char *name, uint64_t addr,
		       uint64_t size, const char *module)
{
	struct fake_sym *sym = grow(&f->syms, &f->nr_syms, &f->cap_syms, sizeof(*sym));

	if (!sym)
		return -ENOMEM;
	sym->name = strdup(name);
	sym->module = module ? strdup(module) : NULL;
	sym->addr = addr;
	sym->size = size;
	if (!sym->name || (module && !sym->module))
		return -ENOMEM;
	return 0;
}

int ks_fake_add_member(struct ks_fake *f, const char *type, const char *member,
		       long offset, long size)
{
	struct fake_member *m = grow(&f->members, &f->nr_members, &f->cap_members,
					  sizeof(*m));

	if (!m)
		return -ENOMEM;
	m->type = strdup(type);
	m->member = member ? strdup(member) : NULL;
	m->offset = offset;
	m->size = size;
	if (!m->type || (member && !m->member))
		return -ENOMEM;
	return 0;
}

int ks_fake_add_type(struct ks_fake *f, const char *type, long size)
{
	return ks_fake_add_member(f, type, NULL, 0, size);
}

/* An enumerator is kept as a member of "enum TYPE", its value as offset. */
int ks_fake_add_enum(struct ks_fake *f, const char *type, const char *name,
		     long value)
{
	char key[128];

	snprintf(key, sizeof(key), "enum %s", type);
	return ks_fake_add_member(f, key, name, value, -1);
}

int ks_fake_set_cpu_regs(struct ks_fake *f, int cpu, const struct ks_regs *regs)
{
	struct fake_regs *r = grow(&f->regs, &f->nr_regs, &f->cap_regs, sizeof(*r));

	if (!r)
		return -ENOMEM;
	r->cpu = cpu;
	r->regs = *regs;
	return 0;
}

static int fake_read(void *ctx, uint64_t kaddr, void *buf, size_t len)
{
	struct ks_fake *f = ctx;

	f->reads++;
	return mem_copy(f->segs, f->nr_segs, kaddr, buf, len, false);
}

static int fake_read_phys(void *ctx, uint64_t paddr, void *buf, size_t len)
{
	struct ks_fake *f = ctx;

	return mem_copy(f->phys, f->nr_phys, paddr, buf, len, false);
}

/* As a real target: the shared walk; without ks_fake_set_paging(), -ENOENT. */
static int fake_read_user(void *ctx, uint64_t task, uint64_t uaddr, void *buf,
			  size_t len)
{
	struct ks_fake *f = ctx;
	struct ks_target t;

	ks_fake_target(f, &t);
	return ks_page_read_user(&t, &f->uw, task, uaddr, buf, len);
}

static int fake_symbol(void *ctx, const char *name, uint64_t *addr_ret)
{
	struct ks_fake *f = ctx;
	size_t i;

	for (i = 0; i < f->nr_syms; i++) {
		if (!strcmp(f->syms[i].name, name)) {
			*addr_ret = f->syms[i].addr;
			return 0;
		}
	}
	return -ENOENT;
}

static const struct ks_fake *sort_fake;

static int cmp_by_addr(const void *a, const void *b)
{
	size_t x = *(const size_t *)a, y = *(const size_t *)b;
	uint64_t ax = sort_fake->syms[x].addr, ay = sort_fake->syms[y].addr;

	if (ax != ay)
		return ax < ay ? -1 : 1;
	return x < y ? -1 : x > y;
}

/* by_addr and max_end for the symbols as they are now; -ENOMEM. */
static int sort_syms(struct ks_fake *f)
{
	size_t n = f->nr_syms ? f->nr_syms : 1, i;
	uint64_t *e, end = 0;
	size_t *v;

	if (f->by_addr && f->nr_sorted == f->nr_syms)
		return 0;
	v = realloc(f->by_addr, n * sizeof(*v));
	if (v)
		f->by_addr = v;
	e = realloc(f->max_end, n * sizeof(*e));
	if (e)
		f->max_end = e;
	if (!v || !e)
		return -ENOMEM;
	for (i = 0; i < f->nr_syms; i++)
		v[i] = i;
	sort_fake = f;
	qsort(v, f->nr_syms, sizeof(*v), cmp_by_addr);
	for (i = 0; i < f->nr_syms; i++) {
		const struct fake_sym *s = &f->syms[v[i]];
		uint64_t se = s->addr + s->size < s->addr ? UINT64_MAX :
			      s->addr + s->size;

		end = se > end ? se : end;
		e[i] = end;
	}
	f->nr_sorted = f->nr_syms;
	return 0;
}

/*
 * The covering symbol that starts last; the first added wins a tie.
 * From the last symbol starting at or below addr downwards: the first
 * address that has a covering symbol is the answer, the first of those
 * added (the lowest in by_addr) among them.  Where no symbol below ends
 * past addr (max_end), none covers it: an address in no symbol costs a
 * binary search, not a walk down the table.
 */
static const struct fake_sym *covering(struct ks_fake *f, uint64_t addr)
{
	const struct fake_sym *best = NULL;
	size_t lo = 0, hi = f->nr_syms;

	if (sort_syms(f)) {
		/* no memory for the index: every symbol, as it was before */
		for (lo = 0; lo < f->nr_syms; lo++) {
			const struct fake_sym *s = &f->syms[lo];

			if (addr >= s->addr && addr - s->addr < s->size &&
			    (!best || s->addr > best->addr))
				best = s;
		}
		return best;
	}
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (f->syms[f->by_addr[mid]].addr <= addr)
			lo = mid + 1;
		else
			hi = mid;
	}
	while (lo--) {
		const struct fake_sym *s = &f->syms[f->by_addr[lo]];

		if ((best && s->addr != best->addr) || f->max_end[lo] <= addr)
			break;
		if (addr - s->addr < s->size)
			best = s;
	}
	return best;
}

static int fake_lookup(void *ctx, uint64_t addr, struct ks_sym *sym_ret)
{
	struct ks_fake *f = ctx;
	const struct fake_sym *best = covering(f, addr);

	if (!best)
		return ks_kallsyms_lookup(f->ksyms, addr, sym_ret);
	sym_ret->name = best->name;
	sym_ret->addr = best->addr;
	sym_ret->size = best->size;
	sym_ret->module = best->module;
	return 0;
}

static const struct fake_member *member_of(const struct ks_fake *f,
					   const char *type, const char *member)
{
	size_t i;

	for (i = 0; i < f->nr_members; i++) {
		const struct fake_member *m = &f->members[i];

		if (strcmp(m->type, type))
			continue;
		if (!member ? !m->member : (m->member && !strcmp(m->member, member)))
			return m;
	}
	return NULL;
}

static long fake_member_offset(void *ctx, const char *type, const char *member)
{
	const struct fake_member *m = member_of(ctx, type, member);

	return m ? m->offset : -ENOENT;
}

static long fake_type_size(void *ctx, const char *type)
{
	const struct fake_member *m = member_of(ctx, type, NULL);

	return m && m->size >= 0 ? m->size : -ENOENT;
}

static long fake_member_size(void *ctx, const char *type, const char *member)
{
	const struct fake_member *m = member_of(ctx, type, member);

	return m && m->size >= 0 ? m->size : -ENOENT;
}

static int fake_enum_value(void *ctx, const char *type, const char *name,
			   long long *val_ret)
{
	const struct fake_member *m;
	char key[128];

	snprintf(key, sizeof(key), "enum %s", type);
	m = member_of(ctx, key, name);
	if (!m)
		return -ENOENT;
	*val_ret = m->offset;
	return 0;
}

static int fake_cpu_regs(void *ctx, int cpu, struct ks_regs *regs_ret)
{
	struct ks_fake *f = ctx;
	size_t i;

	for (i = 0; i < f->nr_regs; i++) {
		if (f->regs[i].cpu == cpu) {
			*regs_ret = f->regs[i].regs;
			return 0;
		}
	}
	return -ENOENT;
}

/* VMCOREINFO's lines as the kernel writes them: KEY=VALUE, one a line. */
static int fake_vmcoreinfo(void *ctx, const char *key, char *buf, size_t len)
{
	struct ks_fake *f = ctx;
	size_t klen = strlen(key), n;
	const char *p = f->vmcoreinfo, *end;

	for (; p && *p; p = end + (*end == '\n')) {
		end = p + strcspn(p, "\n");
		if ((size_t)(end - p) <= klen || strncmp(p, key, klen) || p[klen] != '=')
			continue;
		p += klen + 1;
		n = (size_t)(end - p) < len - 1 ? (size_t)(end - p) : len - 1;
		memcpy(buf, p, n);
		buf[n] = '\0';
		return 0;
	}
	return -ENOENT;
}

int ks_fake_set_vmcoreinfo(struct ks_fake *f, const char *text)
{
	free(f->vmcoreinfo);
	f->vmcoreinfo = text ? strdup(text) : NULL;
	return text && !f->vmcoreinfo ? -ENOMEM : 0;
}

static const struct ks_target_ops fake_ops = {
	.read = fake_read,
	.read_phys = fake_read_phys,
	.read_user = fake_read_user,
	.symbol = fake_symbol,
	.lookup = fake_lookup,
	.member_offset = fake_member_offset,
	.type_size = fake_type_size,
	.member_size = fake_member_size,
	.enum_value = fake_enum_value,
	.cpu_regs = fake_cpu_regs,
	.vmcoreinfo = fake_vmcoreinfo,
};

void ks_fake_target(struct ks_fake *f, struct ks_target *t_ret)
{
	t_ret->ops = &fake_ops;
	t_ret->ctx = f;
	t_ret->arch = f->arch;
}

/* As a source names its machine: NULL for a name kstack does not know. */
void ks_fake_set_arch(struct ks_fake *f, const char *arch)
{
	ks_arch_resolve(arch ? arch : "", 0, &f->arch, NULL);
}

int ks_fake_use_kallsyms(struct ks_fake *f)
{
	struct ks_target t;

	ks_fake_target(f, &t);
	ks_kallsyms_free(f->ksyms);
	f->ksyms = NULL;
	return ks_kallsyms_load(&t, &f->ksyms);
}

const struct ks_kallsyms *ks_fake_kallsyms(const struct ks_fake *f)
{
	return f->ksyms;
}

unsigned long ks_fake_read_count(const struct ks_fake *f)
{
	return f->reads;
}
