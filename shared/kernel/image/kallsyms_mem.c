// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * kernel/kallsyms.c of Linux 6.1 and 6.12, read from the other side.
 *
 * kallsyms_names holds one entry per symbol: a length (one byte, or two
 * when the first has its top bit set: 6.1's "big symbols"), then that many
 * token numbers; each token expands through kallsyms_token_index into
 * kallsyms_token_table.  The first expanded character is the symbol's type.
 * Addresses are either absolute (kallsyms_addresses) or 32-bit offsets
 * from kallsyms_relative_base; with KALLSYMS_ABSOLUTE_PERCPU (x86_64 SMP
 * up to 6.14) a non-negative offset is an absolute per-CPU address and a
 * negative one counts down from relative_base - 1.  Linux 7.0 dropped
 * kallsyms_relative_base: each offset counts from its own place in
 * kallsyms_offsets (offset_to_ptr()).  Which encoding a dump uses is not
 * written anywhere: the symbols present narrow it down, and the one that
 * puts _stext where VMCOREINFO says it is wins.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "fnv1a.h"
#include "grow.h"
#include "kallsyms_mem.h"
#include "kernel_string.h"

#define KSYM_NAME_LEN	512
#define MAX_SYMS	(4u << 20)	/* a vmlinux has about 200,000 */
/*
 * The names a vmlinux has take 2.8 MB (6.1 cloud) to 5.1 MB (6.12): a
 * pool four times that is no kernel's.  Forged tables (8 MB of one-byte
 * names expanding to a 500-byte token) took 2 GB before this bound.
 */
#define MAX_POOL	(20u << 20)
/* KERNEL_IMAGE_SIZE on x86_64 with KASLR: the tables are in the image. */
#define IMAGE_SIZE	(1ull << 30)
#define STREAM_BUF	65536
#define NR_TOKENS	256

struct msym {
	uint64_t addr;
	uint32_t name;		/* offset in pool */
	char type;
};

struct ks_kallsyms_mem {
	struct msym *syms;	/* kallsyms order: by address, aliases as listed */
	size_t nr;
	char *pool;
	size_t pool_len, pool_cap;
	uint32_t *hash;		/* index + 1 of a symbol by name, 0 empty */
	size_t hash_size;
	uint64_t stext, etext, sinittext, einittext, end;
	bool all;		/* CONFIG_KALLSYMS_ALL: data symbols listed */
};

/* kallsyms_names is read in big pieces: it is a few megabytes. */
struct stream {
	const struct ks_target *t;
	uint64_t pos, base;
	size_t len;
	uint8_t buf[STREAM_BUF];
};

static int stream_get(struct stream *s, uint8_t *b)
{
	size_t n = STREAM_BUF;

	if (s->pos - s->base >= s->len) {
		s->base = s->pos;
		s->len = 0;
		/* the last piece may run into memory the dump lacks */
		while (ks_read(s->t, s->base, s->buf, n)) {
			if (n == 1)
				return -EFAULT;
			n /= 2;
		}
		s->len = n;
	}
	*b = s->buf[s->pos++ - s->base];
	return 0;
}

struct tokens {
	char *text[NR_TOKENS];
	size_t len[NR_TOKENS];
};

static void tokens_free(struct tokens *tk)
{
	for (int i = 0; i < NR_TOKENS; i++)
		free(tk->text[i]);
}

static int read_tokens(const struct ks_target *t,
		       const struct ks_kallsyms_mem_addrs *a, struct tokens *tk)
{
	uint16_t index[NR_TOKENS];
	char buf[KSYM_NAME_LEN];

	if (ks_read(t, a->token_index, index, sizeof(index)))
		return -EFAULT;
	for (int i = 0; i < NR_TOKENS; i++) {
		if (ks_read_kstring(t, a->token_table + index[i], buf, sizeof(buf)))
			return -EFAULT;
		tk->len[i] = strlen(buf);
		tk->text[i] = strdup(buf);
		if (!tk->text[i])
			return -ENOMEM;
	}
	return 0;
}

static int pool_add(struct ks_kallsyms_mem *ks, const char *s, size_t len,
		    uint32_t *off_ret)
{
	char *p;

	if (ks->pool_len + len + 1 > MAX_POOL)
		return -EINVAL;
	p = ks_grow_min(ks->pool, &ks->pool_cap, ks->pool_len + len + 1,
			      1, 1 << 20);

	if (!p)
		return -ENOMEM;
	ks->pool = p;
	memcpy(ks->pool + ks->pool_len, s, len);
	ks->pool[ks->pool_len + len] = '\0';
	*off_ret = (uint32_t)ks->pool_len;
	ks->pool_len += len + 1;
	return 0;
}

/* kallsyms_expand_symbol(): one entry of kallsyms_names. */
static int expand_one(struct stream *s, const struct tokens *tk,
		      struct ks_kallsyms_mem *ks, struct msym *m)
{
	char name[KSYM_NAME_LEN + 1];
	size_t out = 0, len;
	uint8_t b, hi;
	int ret;

	ret = stream_get(s, &b);
	len = b;
	if (!ret && (b & 0x80)) {
		ret = stream_get(s, &hi);
		len = (b & 0x7f) | ((size_t)hi << 7);
	}
	for (; !ret && len; len--) {
		ret = stream_get(s, &b);
		if (!ret && out + tk->len[b] <= KSYM_NAME_LEN) {
			memcpy(name + out, tk->text[b], tk->len[b]);
			out += tk->len[b];
		}
	}
	if (ret)
		return ret;
	if (!out)
		return -EINVAL;
	m->type = name[0];
	return pool_add(ks, name + 1, out - 1, &m->name);
}

/*
 * Every name, the records growing with what was decoded: a forged
 * num_syms costs nothing before the pool's bound stops the decoding.
 */
static int read_names(const struct ks_target *t,
		      const struct ks_kallsyms_mem_addrs *a,
		      struct ks_kallsyms_mem *ks, uint32_t num)
{
	struct tokens tk = { 0 };
	struct stream *s;
	size_t cap = 0;
	int ret;

	s = malloc(sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->t = t;
	s->pos = s->base = a->names;
	s->len = 0;
	ret = read_tokens(t, a, &tk);
	for (size_t i = 0; !ret && i < num; i++) {
		struct msym *m = ks_grow_min(ks->syms, &cap, i + 1,
					     sizeof(*m), 4096);

		if (!m) {
			ret = -ENOMEM;
			break;
		}
		ks->syms = m;
		ret = expand_one(s, &tk, ks, &ks->syms[i]);
		ks->nr = i + 1;
	}
	tokens_free(&tk);
	free(s);
	return ret;
}

static const char *name_of(const struct ks_kallsyms_mem *ks, size_t i)
{
	return ks->pool + ks->syms[i].name;
}

static size_t find_name(const struct ks_kallsyms_mem *ks, const char *name)
{
	for (size_t i = 0; i < ks->nr; i++)
		if (!strcmp(name_of(ks, i), name))
			return i;
	return ks->nr;
}

/* kallsyms_sym_address() under either encoding of the 32-bit offsets. */
static uint64_t offset_addr(int32_t off, uint64_t base, bool abs_percpu)
{
	if (!abs_percpu)
		return base + (uint32_t)off;
	if (off >= 0)
		return (uint64_t)off;
	return base - 1 - (uint64_t)(int64_t)off;
}

/* !CONFIG_KALLSYMS_BASE_RELATIVE: kallsyms_addresses[] as they are. */
static int read_absolute(const struct ks_target *t,
			 const struct ks_kallsyms_mem_addrs *a,
			 struct ks_kallsyms_mem *ks)
{
	uint64_t *addr = malloc(ks->nr * sizeof(*addr));
	int ret = 0;

	if (!addr)
		return -ENOMEM;
	if (ks_read(t, a->addresses, addr, ks->nr * sizeof(*addr)))
		ret = -EFAULT;
	for (size_t i = 0; !ret && i < ks->nr; i++)
		ks->syms[i].addr = addr[i];
	free(addr);
	return ret;
}

/*
 * 7.0's kallsyms_sym_address(): offset_to_ptr(&kallsyms_offsets[idx]),
 * the 32-bit offset added to its own address.
 */
static int place_relative(const int32_t *off, uint64_t offsets,
			  size_t stext, uint64_t want, struct ks_kallsyms_mem *ks)
{
	if (stext == ks->nr ||
	    offsets + 4 * stext + (uint64_t)(int64_t)off[stext] != want)
		return -EPROTONOSUPPORT;
	for (size_t i = 0; i < ks->nr; i++)
		ks->syms[i].addr = offsets + 4 * i + (uint64_t)(int64_t)off[i];
	return 0;
}

/* Up to 6.x: offsets from kallsyms_relative_base, per-CPU ones absolute or not. */
static int base_relative(const int32_t *off, uint64_t base, size_t stext,
			 uint64_t want, struct ks_kallsyms_mem *ks)
{
	bool abs = stext < ks->nr && offset_addr(off[stext], base, true) == want;

	if (!abs && (stext == ks->nr || offset_addr(off[stext], base, false) != want))
		return -EPROTONOSUPPORT;
	for (size_t i = 0; i < ks->nr; i++)
		ks->syms[i].addr = offset_addr(off[i], base, abs);
	return 0;
}

static int read_addresses(const struct ks_target *t,
			  const struct ks_kallsyms_mem_addrs *a,
			  struct ks_kallsyms_mem *ks)
{
	size_t stext = find_name(ks, "_stext");
	uint64_t base;
	int32_t *off;
	int ret;

	if (!a->offsets)
		return read_absolute(t, a, ks);
	off = malloc(ks->nr * sizeof(*off));
	if (!off)
		return -ENOMEM;
	ret = ks_read(t, a->offsets, off, ks->nr * sizeof(*off)) ? -EFAULT : 0;
	if (!ret && !a->relative_base)
		ret = place_relative(off, a->offsets, stext, a->stext, ks);
	else if (!ret && ks_read_u64(t, a->relative_base, &base))
		ret = -EFAULT;
	else if (!ret)
		ret = base_relative(off, base, stext, a->stext, ks);
	free(off);
	return ret;
}

static uint64_t addr_of(const struct ks_kallsyms_mem *ks, const char *name)
{
	size_t i = find_name(ks, name);

	return i < ks->nr ? ks->syms[i].addr : 0;
}

/* The image's bounds (is_ksym_addr()) and whether data symbols are listed. */
static int find_bounds(struct ks_kallsyms_mem *ks)
{
	for (size_t i = 1; i < ks->nr; i++)
		if (ks->syms[i].addr < ks->syms[i - 1].addr)
			return -EINVAL;
	ks->stext = addr_of(ks, "_stext");
	ks->etext = addr_of(ks, "_etext");
	ks->sinittext = addr_of(ks, "_sinittext");
	ks->einittext = addr_of(ks, "_einittext");
	ks->end = addr_of(ks, "_end");
	if (!ks->stext || !ks->etext || ks->etext < ks->stext)
		return -EINVAL;
	/* half a range is none: [0, _einittext) would hold every low address */
	if (!ks->sinittext || ks->einittext < ks->sinittext)
		ks->sinittext = ks->einittext = 0;
	for (size_t i = 0; i < ks->nr && !ks->all; i++)
		ks->all = ks->end && strchr("dDbBrR", ks->syms[i].type);
	return 0;
}

static bool is_global(char type)
{
	return type >= 'A' && type <= 'Z';
}

static int build_hash(struct ks_kallsyms_mem *ks)
{
	ks->hash_size = 1;
	while (ks->hash_size < ks->nr * 2)
		ks->hash_size *= 2;
	ks->hash = calloc(ks->hash_size, sizeof(*ks->hash));
	if (!ks->hash)
		return -ENOMEM;
	for (size_t i = 0; i < ks->nr; i++) {
		size_t h = ks_fnv1a_str(KS_FNV1A_INIT, name_of(ks, i)) & (ks->hash_size - 1);

		for (;; h = (h + 1) & (ks->hash_size - 1)) {
			uint32_t j = ks->hash[h];

			if (!j) {
				ks->hash[h] = (uint32_t)i + 1;
				break;
			}
			if (strcmp(name_of(ks, j - 1), name_of(ks, i)))
				continue;
			if (!is_global(ks->syms[j - 1].type) &&
			    is_global(ks->syms[i].type))
				ks->hash[h] = (uint32_t)i + 1;
			break;
		}
	}
	return 0;
}

/*
 * The bounds a kernel's tables keep, checked before anything is read:
 * every table inside the kernel image from _stext on, and each one large
 * enough for num_syms entries (an entry of kallsyms_names takes 2 bytes at
 * least, an offset 4, an address 8) before the next table in memory,
 * whatever order a kernel lays them out in.
 */
static bool in_image(const struct ks_kallsyms_mem_addrs *a, uint64_t addr)
{
	return !addr || !a->stext ||
	       (addr >= a->stext && addr - a->stext < IMAGE_SIZE);
}

/* The lowest table address above addr, or 0 for none. */
static uint64_t next_table(const struct ks_kallsyms_mem_addrs *a, uint64_t addr)
{
	const uint64_t all[] = { a->names, a->num_syms, a->token_table,
				 a->token_index, a->offsets, a->relative_base,
				 a->addresses };
	uint64_t next = 0;

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (all[i] > addr && (!next || all[i] < next))
			next = all[i];
	return next;
}

static bool table_fits(const struct ks_kallsyms_mem_addrs *a, uint64_t addr,
		       uint64_t num, uint64_t entry)
{
	uint64_t next = addr ? next_table(a, addr) : 0;

	return !next || num <= (next - addr) / entry;
}

static int check_bounds(const struct ks_kallsyms_mem_addrs *a, uint32_t num)
{
	const uint64_t all[] = { a->names, a->num_syms, a->token_table,
				 a->token_index, a->offsets, a->relative_base,
				 a->addresses };

	for (size_t i = 0; i < sizeof(all) / sizeof(all[0]); i++)
		if (!in_image(a, all[i]))
			return -EINVAL;
	if (!table_fits(a, a->names, num, 2) ||
	    !table_fits(a, a->offsets, num, 4) ||
	    !table_fits(a, a->addresses, num, 8))
		return -EINVAL;
	return 0;
}

int ks_kallsyms_mem_load(const struct ks_target *t,
			 const struct ks_kallsyms_mem_addrs *a,
			 struct ks_kallsyms_mem **ks_ret)
{
	struct ks_kallsyms_mem *ks;
	uint32_t num;
	int ret;

	if (!a->names || !a->num_syms || !a->token_table || !a->token_index ||
	    (!a->addresses && !a->offsets))
		return -ENOENT;
	if (ks_read(t, a->num_syms, &num, sizeof(num)))
		return -EFAULT;
	if (!num || num > MAX_SYMS || check_bounds(a, num))
		return -EINVAL;
	ks = calloc(1, sizeof(*ks));
	if (!ks)
		return -ENOMEM;
	ret = read_names(t, a, ks, num);
	if (!ret)
		ret = read_addresses(t, a, ks);
	if (!ret)
		ret = find_bounds(ks);
	if (!ret)
		ret = build_hash(ks);
	if (ret) {
		ks_kallsyms_mem_free(ks);
		return ret;
	}
	*ks_ret = ks;
	return 0;
}

void ks_kallsyms_mem_free(struct ks_kallsyms_mem *ks)
{
	if (!ks)
		return;
	free(ks->syms);
	free(ks->pool);
	free(ks->hash);
	free(ks);
}

size_t ks_kallsyms_mem_count(const struct ks_kallsyms_mem *ks)
{
	return ks->nr;
}

bool ks_kallsyms_mem_has_data(const struct ks_kallsyms_mem *ks)
{
	return ks->all;
}

static bool is_ksym_addr(const struct ks_kallsyms_mem *ks, uint64_t addr)
{
	if (ks->all)
		return addr >= ks->stext && addr < ks->end;
	return (addr >= ks->stext && addr < ks->etext) ||
	       (addr >= ks->sinittext && addr < ks->einittext);
}

int ks_kallsyms_mem_lookup(const struct ks_kallsyms_mem *ks, uint64_t addr,
			   struct ks_sym *sym_ret)
{
	size_t low = 0, high = ks->nr, i;
	uint64_t start, end = 0;

	if (!is_ksym_addr(ks, addr))
		return -ENOENT;
	/* get_symbol_pos() */
	while (high - low > 1) {
		size_t mid = low + (high - low) / 2;

		if (ks->syms[mid].addr <= addr)
			low = mid;
		else
			high = mid;
	}
	while (low && ks->syms[low - 1].addr == ks->syms[low].addr)
		low--;
	start = ks->syms[low].addr;
	for (i = low + 1; i < ks->nr && !end; i++)
		if (ks->syms[i].addr > start)
			end = ks->syms[i].addr;
	if (!end) {
		if (addr >= ks->sinittext && addr < ks->einittext)
			end = ks->einittext;
		else
			end = ks->all ? ks->end : ks->etext;
	}
	sym_ret->name = name_of(ks, low);
	sym_ret->addr = start;
	sym_ret->size = end - start;
	sym_ret->module = NULL;
	return 0;
}

int ks_kallsyms_mem_addr(const struct ks_kallsyms_mem *ks, const char *name,
			 uint64_t *addr_ret)
{
	size_t h = ks_fnv1a_str(KS_FNV1A_INIT, name) & (ks->hash_size - 1);

	for (;; h = (h + 1) & (ks->hash_size - 1)) {
		uint32_t j = ks->hash[h];

		if (!j)
			return -ENOENT;
		if (!strcmp(name_of(ks, j - 1), name)) {
			*addr_ret = ks->syms[j - 1].addr;
			return 0;
		}
	}
}
