// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A BTF reader for struct layouts (Documentation/bpf/btf.rst).
 *
 * The layout is spelled out here rather than taken from <linux/btf.h> so
 * that the build does not depend on how new the build host's uapi headers
 * are: a 6.x vmlinux may hold kinds (ENUM64) an older header lacks, and
 * skipping a record needs its size.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "btf.h"
#include "grow.h"

#define BTF_MAGIC	0xeB9F

enum {
	KIND_INT = 1, KIND_PTR, KIND_ARRAY, KIND_STRUCT, KIND_UNION, KIND_ENUM,
	KIND_FWD, KIND_TYPEDEF, KIND_VOLATILE, KIND_CONST, KIND_RESTRICT,
	KIND_FUNC, KIND_FUNC_PROTO, KIND_VAR, KIND_DATASEC, KIND_FLOAT,
	KIND_DECL_TAG, KIND_TYPE_TAG, KIND_ENUM64,
};

struct btf_header {
	uint16_t magic;
	uint8_t version;
	uint8_t flags;
	uint32_t hdr_len;
	uint32_t type_off, type_len;	/* from the end of the header */
	uint32_t str_off, str_len;
};

struct btf_type {
	uint32_t name_off;
	uint32_t info;		/* vlen 0-15, kind 24-28, kind_flag 31 */
	uint32_t size_or_type;
};

struct btf_member {
	uint32_t name_off;
	uint32_t type;
	uint32_t offset;	/* bits; with kind_flag: size << 24 | bits */
};

struct btf_array {
	uint32_t type, index_type, nelems;
};

/* Deep enough for any real chain of typedefs, qualifiers and nesting. */
#define MAX_DEPTH	32
/* More anonymous records than any real struct holds, for one lookup. */
#define MAX_ANON	256
#define PTR_SIZE	8

struct name_ent {
	const char *name;
	uint32_t id;
	uint8_t rank;		/* lower wins: struct, union, typedef, scalar */
};

struct ks_btf {
	uint8_t *data;
	const uint8_t *types;
	uint32_t types_len;
	const char *strs;
	uint32_t strs_len;
	uint32_t *off;		/* off[id]: record offset in types; id 0 is void */
	uint32_t nr_types;	/* ids 1 .. nr_types - 1 */
	struct name_ent *names;
	size_t nr_names;
};

struct member_ref {
	uint32_t type;
	uint64_t bit_offset;
	uint32_t bitfield;	/* bits, 0 for a plain member */
};

static unsigned int kind_of(const struct btf_type *t)
{
	return (t->info >> 24) & 0x1f;
}

static unsigned int vlen_of(const struct btf_type *t)
{
	return t->info & 0xffff;
}

static bool kflag_of(const struct btf_type *t)
{
	return t->info >> 31;
}

static const struct btf_type *type_by_id(const struct ks_btf *btf, uint32_t id)
{
	if (!id || id >= btf->nr_types)
		return NULL;
	return (const struct btf_type *)(btf->types + btf->off[id]);
}

static const char *str_at(const struct ks_btf *btf, uint32_t off)
{
	return off < btf->strs_len ? btf->strs + off : "";
}

/* Bytes that follow struct btf_type for this kind; -1 for an unknown kind. */
static long extra_size(const struct btf_type *t)
{
	unsigned long vlen = vlen_of(t);

	switch (kind_of(t)) {
	case KIND_INT: case KIND_VAR: case KIND_DECL_TAG:
		return 4;
	case KIND_ARRAY:
		return sizeof(struct btf_array);
	case KIND_STRUCT: case KIND_UNION:
		return vlen * sizeof(struct btf_member);
	case KIND_ENUM: case KIND_FUNC_PROTO:
		return vlen * 8;
	case KIND_DATASEC: case KIND_ENUM64:
		return vlen * 12;
	case KIND_PTR: case KIND_FWD: case KIND_TYPEDEF: case KIND_VOLATILE:
	case KIND_CONST: case KIND_RESTRICT: case KIND_FUNC: case KIND_FLOAT:
	case KIND_TYPE_TAG:
		return 0;
	default:
		return -1;
	}
}

/* The record at pos does not fit: it, and the one before it, named. */
static int bad_record(const struct ks_btf *btf, uint32_t id, uint32_t pos,
		      uint32_t prev, const struct ks_reporter *rep)
{
	const struct btf_type *t = (const void *)(btf->types + pos);
	const struct btf_type *p = (const void *)(btf->types + prev);
	const char *name = str_at(btf, t->name_off);
	const char *pname = str_at(btf, p->name_off);

	if (id == 1)
		ks_say(rep, KS_WARN, "BTF type 1 (%s, kind %u, vlen %u) runs past "
			 "the type section or has no known kind: the records "
			 "are damaged", *name ? name : "anon", kind_of(t),
			 vlen_of(t));
	else
		ks_say(rep, KS_WARN, "BTF type %u (%s, kind %u, vlen %u) runs "
			 "past the type section or has no known kind; the "
			 "one before, type %u (%s, kind %u, vlen %u), may "
			 "have a wrong vlen: the records are damaged", id,
			 *name ? name : "anon", kind_of(t), vlen_of(t),
			 id - 1, *pname ? pname : "anon", kind_of(p),
			 vlen_of(p));
	return -EINVAL;
}

static int index_types(struct ks_btf *btf, const struct ks_reporter *rep)
{
	uint32_t pos = 0, n = 1;
	size_t cap = 0;

	btf->off = ks_grow_min(NULL, &cap, 1, sizeof(*btf->off), 1024);
	if (!btf->off)
		return -ENOMEM;
	btf->off[0] = 0;
	while (pos < btf->types_len) {
		const struct btf_type *t;
		uint32_t *o;
		long extra;

		if (btf->types_len - pos < sizeof(*t) || pos % 4) {
			ks_say(rep, KS_WARN, "BTF: the last %u bytes of the "
			       "type section are no record (the one before, "
			       "type %u, has a wrong vlen?): the records are "
			       "damaged", btf->types_len - pos, n - 1);
			return -EINVAL;
		}
		t = (const struct btf_type *)(btf->types + pos);
		extra = extra_size(t);
		if (extra < 0 || (uint64_t)extra > btf->types_len - pos - sizeof(*t))
			return bad_record(btf, n, pos, btf->off[n - 1], rep);
		o = ks_grow_min(btf->off, &cap, (size_t)n + 1, sizeof(*o), 1024);
		if (!o)
			return -ENOMEM;
		btf->off = o;
		btf->off[n++] = pos;
		pos += sizeof(*t) + (uint32_t)extra;
	}
	btf->nr_types = n;
	return 0;
}

static int rank_of(const struct btf_type *t)
{
	switch (kind_of(t)) {
	case KIND_STRUCT:
		return 0;
	case KIND_UNION:
		return 1;
	case KIND_TYPEDEF:
		return 2;
	case KIND_INT: case KIND_ENUM: case KIND_ENUM64: case KIND_FLOAT:
		return 3;
	default:
		return -1;
	}
}

static int cmp_names(const void *a, const void *b)
{
	const struct name_ent *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (x->rank != y->rank)
		return x->rank - y->rank;
	return x->id < y->id ? -1 : x->id > y->id;
}

static int index_names(struct ks_btf *btf)
{
	uint32_t id;

	btf->names = calloc(btf->nr_types, sizeof(*btf->names));
	if (!btf->names)
		return -ENOMEM;
	for (id = 1; id < btf->nr_types; id++) {
		const struct btf_type *t = type_by_id(btf, id);
		int rank = rank_of(t);
		struct name_ent *e;

		if (rank < 0 || !t->name_off || !*str_at(btf, t->name_off))
			continue;
		e = &btf->names[btf->nr_names++];
		e->name = str_at(btf, t->name_off);
		e->id = id;
		e->rank = (uint8_t)rank;
	}
	qsort(btf->names, btf->nr_names, sizeof(*btf->names), cmp_names);
	return 0;
}

static int check_header(const uint8_t *data, size_t size,
			const struct btf_header **hdr_ret)
{
	const struct btf_header *h = (const struct btf_header *)data;
	uint64_t start;

	if (size < sizeof(*h))
		return -EINVAL;
	if (h->magic == __builtin_bswap16(BTF_MAGIC))
		return -ENOTSUP;
	if (h->magic != BTF_MAGIC || h->version != 1 || h->hdr_len < sizeof(*h) ||
	    h->hdr_len > size)
		return -EINVAL;
	start = h->hdr_len;
	if (start + h->type_off + h->type_len > size ||
	    start + h->str_off + h->str_len > size || (start + h->type_off) % 4)
		return -EINVAL;
	if (!h->str_len || data[start + h->str_off + h->str_len - 1])
		return -EINVAL;
	*hdr_ret = h;
	return 0;
}

/* The type ids a record refers to (up to 3; members and params apart). */
static int refs_of(const struct btf_type *t, uint32_t ref[3])
{
	switch (kind_of(t)) {
	case KIND_PTR: case KIND_TYPEDEF: case KIND_VOLATILE: case KIND_CONST:
	case KIND_RESTRICT: case KIND_FUNC: case KIND_FUNC_PROTO: case KIND_VAR:
	case KIND_DECL_TAG: case KIND_TYPE_TAG:
		ref[0] = t->size_or_type;
		return 1;
	case KIND_ARRAY: {
		const struct btf_array *a = (const void *)(t + 1);

		ref[0] = a->type;
		ref[1] = a->index_type;
		return 2;
	}
	default:
		return 0;
	}
}

static int bad_type(const struct ks_btf *btf, uint32_t id,
		    const struct ks_reporter *rep, const char *what,
		    uint32_t val)
{
	const struct btf_type *t = type_by_id(btf, id);
	const char *name = str_at(btf, t->name_off);

	ks_say(rep, KS_WARN, "BTF type %u (%s, kind %u, vlen %u): %s %u is "
	       "out of range (%u types, %u bytes of strings): the records "
	       "are damaged", id, *name ? name : "anon", kind_of(t),
	       vlen_of(t), what, val, btf->nr_types, btf->strs_len);
	return -EINVAL;
}

/*
 * Every type id and name a record holds must exist.  One vlen too big
 * (65535) makes the records after it parse as members of it, with ids
 * shifted: caught here, it is not mistaken for a member missing later.
 */
static int check_refs(const struct ks_btf *btf, const struct ks_reporter *rep)
{
	for (uint32_t id = 1; id < btf->nr_types; id++) {
		const struct btf_type *t = type_by_id(btf, id);
		const struct btf_member *m = (const void *)(t + 1);
		uint32_t ref[3];
		int n = refs_of(t, ref);

		if (t->name_off >= btf->strs_len)
			return bad_type(btf, id, rep, "name offset",
					t->name_off);
		for (int i = 0; i < n; i++)
			if (ref[i] >= btf->nr_types)
				return bad_type(btf, id, rep, "type",
						ref[i]);
		if (kind_of(t) != KIND_STRUCT && kind_of(t) != KIND_UNION)
			continue;
		for (unsigned int i = 0; i < vlen_of(t); i++)
			if (!m[i].type || m[i].type >= btf->nr_types ||
			    m[i].name_off >= btf->strs_len)
				return bad_type(btf, id, rep, "a member's "
						"type", m[i].type);
	}
	return 0;
}

int ks_btf_load(const void *data, size_t size, struct ks_btf **btf_ret,
		const struct ks_reporter *rep)
{
	const struct btf_header *h;
	struct ks_btf *btf;
	int ret;

	btf = calloc(1, sizeof(*btf));
	if (!btf)
		return -ENOMEM;
	/* A malloc'ed copy is aligned for the 4-byte records. */
	btf->data = malloc(size ? size : 1);
	if (!btf->data) {
		ret = -ENOMEM;
		goto fail;
	}
	memcpy(btf->data, data, size);
	ret = check_header(btf->data, size, &h);
	if (ret)
		goto fail;
	btf->types = btf->data + h->hdr_len + h->type_off;
	btf->types_len = h->type_len;
	btf->strs = (const char *)btf->data + h->hdr_len + h->str_off;
	btf->strs_len = h->str_len;
	ret = index_types(btf, rep);
	if (!ret)
		ret = check_refs(btf, rep);
	if (!ret)
		ret = index_names(btf);
	if (ret)
		goto fail;
	*btf_ret = btf;
	return 0;
fail:
	ks_btf_free(btf);
	return ret;
}

void ks_btf_free(struct ks_btf *btf)
{
	if (!btf)
		return;
	free(btf->names);
	free(btf->off);
	free(btf->data);
	free(btf);
}

/* Through typedefs and qualifiers to the id of the type that has a layout. */
static uint32_t resolve_id(const struct ks_btf *btf, uint32_t id)
{
	const struct btf_type *t = type_by_id(btf, id);
	int depth;

	for (depth = 0; t && depth < MAX_DEPTH; depth++) {
		switch (kind_of(t)) {
		case KIND_TYPEDEF: case KIND_VOLATILE: case KIND_CONST:
		case KIND_RESTRICT: case KIND_TYPE_TAG:
			id = t->size_or_type;
			t = type_by_id(btf, id);
			break;
		default:
			return id;
		}
	}
	return 0;
}

static const struct btf_type *resolve(const struct ks_btf *btf, uint32_t id)
{
	return type_by_id(btf, resolve_id(btf, id));
}

static long size_of(const struct ks_btf *btf, uint32_t id, int depth)
{
	const struct btf_type *t = resolve(btf, id);
	const struct btf_array *a;
	long elem;

	if (!t || depth > MAX_DEPTH)
		return -ENOENT;
	switch (kind_of(t)) {
	case KIND_INT: case KIND_STRUCT: case KIND_UNION: case KIND_ENUM:
	case KIND_FLOAT: case KIND_ENUM64:
		return t->size_or_type;
	case KIND_PTR:
		return PTR_SIZE;
	case KIND_ARRAY:
		a = (const struct btf_array *)(t + 1);
		elem = size_of(btf, a->type, depth + 1);
		if (elem < 0)
			return elem;
		/* btf_array_resolve(): "Array size overflows U32_MAX" */
		if (a->nelems && (unsigned long)elem > UINT32_MAX / a->nelems)
			return -EINVAL;
		return elem * (long)a->nelems;
	default:
		return -ENOENT;
	}
}

/* The first of the names sorted (btf->names) that is name, or past them. */
static size_t first_name(const struct ks_btf *btf, const char *name)
{
	size_t lo = 0, hi = btf->nr_names;

	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(btf->names[mid].name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * The type called name: "struct x", "union x" or a plain name, which
 * takes the best rank.  Of two of the same rank the first id wins, and a
 * struct with members beats an empty one of the same name.
 */
static uint32_t find_type(const struct ks_btf *btf, const char *name)
{
	int want = -1, rank = -1;
	size_t i;
	uint32_t best = 0;

	if (!strncmp(name, "struct ", 7)) {
		want = 0;
		name += 7;
	} else if (!strncmp(name, "union ", 6)) {
		want = 1;
		name += 6;
	}
	for (i = first_name(btf, name);
	     i < btf->nr_names && !strcmp(btf->names[i].name, name); i++) {
		const struct name_ent *e = &btf->names[i];

		if (want >= 0 && e->rank != want)
			continue;
		if (!best) {
			best = e->id;
			rank = e->rank;
		}
		if (e->rank != rank)
			break;
		if (rank > 1 || vlen_of(type_by_id(btf, e->id)))
			return e->id;
	}
	return best;
}

static bool is_record(const struct btf_type *t)
{
	return t && (kind_of(t) == KIND_STRUCT || kind_of(t) == KIND_UNION);
}

/*
 * One member lookup by name.  The anonymous records it looked into are
 * remembered: a record searched once does not hold the name (else the
 * search would have ended), so it is never searched again.  That makes
 * the search linear in the number of records, where BTF read from a
 * dump's memory could make it exponential (records that hold the same
 * anonymous record many times over) or endless (a record that holds
 * itself).
 */
struct member_search {
	const char *name;
	size_t len;
	uint32_t seen[MAX_ANON];
	size_t nr_seen;
};

/* Marks record id as searched; false if it was, or there is no room. */
static bool search_enter(struct member_search *ms, uint32_t id)
{
	for (size_t i = 0; i < ms->nr_seen; i++)
		if (ms->seen[i] == id)
			return false;
	if (ms->nr_seen == MAX_ANON)
		return false;
	ms->seen[ms->nr_seen++] = id;
	return true;
}

/* A member of the struct or union id, looking into anonymous ones. */
static bool find_member(const struct ks_btf *btf, struct member_search *ms,
			uint32_t id, uint64_t base, struct member_ref *ref)
{
	const struct btf_type *t = type_by_id(btf, id);
	const struct btf_member *m = (const struct btf_member *)(t + 1);
	unsigned int i, vlen = vlen_of(t);

	if (!search_enter(ms, id))
		return false;
	for (i = 0; i < vlen; i++) {
		uint64_t bits = kflag_of(t) ? m[i].offset & 0xffffff : m[i].offset;
		const char *mname = str_at(btf, m[i].name_off);

		if (!*mname) {
			uint32_t inner = resolve_id(btf, m[i].type);

			if (is_record(type_by_id(btf, inner)) &&
			    find_member(btf, ms, inner, base + bits, ref))
				return true;
			continue;
		}
		if (strlen(mname) != ms->len || strncmp(mname, ms->name, ms->len))
			continue;
		ref->type = m[i].type;
		ref->bit_offset = base + bits;
		ref->bitfield = kflag_of(t) ? m[i].offset >> 24 : 0;
		return true;
	}
	return false;
}

/* "[N]" after a path component: steps into an array member. */
static int apply_index(const struct ks_btf *btf, const char **p,
		       struct member_ref *ref)
{
	const struct btf_type *t = resolve(btf, ref->type);
	const struct btf_array *a;
	unsigned long idx;
	char *end;
	long elem;

	if (!t || kind_of(t) != KIND_ARRAY)
		return -ENOENT;
	a = (const struct btf_array *)(t + 1);
	errno = 0;
	idx = strtoul(*p + 1, &end, 10);
	if (errno || end == *p + 1 || *end != ']')
		return -EINVAL;
	elem = size_of(btf, a->type, 0);
	if (elem < 0)
		return (int)elem;
	/* A flexible array (struct pid's numbers[]) has no bound here. */
	if (a->nelems && idx >= a->nelems)
		return -ENOENT;
	/* nor any offset past what a u32 size holds */
	if (idx > UINT32_MAX / ((unsigned long)elem ? (unsigned long)elem : 1))
		return -EINVAL;
	ref->type = a->type;
	ref->bit_offset += (uint64_t)idx * (uint64_t)elem * 8;
	*p = end + 1;
	return 0;
}

static int lookup_member(const struct ks_btf *btf, const char *type,
			 const char *member, struct member_ref *ref)
{
	const struct btf_type *t;
	const char *p = member;
	uint64_t base = 0;
	uint32_t id;
	int ret;

	id = find_type(btf, type);
	if (!id)
		return -ENOENT;
	id = resolve_id(btf, id);
	for (;;) {
		struct member_search ms = { .name = p, .len = strcspn(p, ".[") };

		if (!ms.len)
			return -EINVAL;
		t = type_by_id(btf, id);
		if (!is_record(t) || !find_member(btf, &ms, id, base, ref))
			return -ENOENT;
		p += ms.len;
		while (*p == '[') {
			ret = apply_index(btf, &p, ref);
			if (ret)
				return ret;
		}
		if (!*p)
			return 0;
		if (*p != '.')
			return -EINVAL;
		p++;
		base = ref->bit_offset;
		id = resolve_id(btf, ref->type);
	}
}

long ks_btf_type_size(const struct ks_btf *btf, const char *type)
{
	uint32_t id = find_type(btf, type);

	return id ? size_of(btf, id, 0) : -ENOENT;
}

long ks_btf_member_bit_offset(const struct ks_btf *btf, const char *type,
			      const char *member)
{
	struct member_ref ref;
	int ret = lookup_member(btf, type, member, &ref);

	return ret ? ret : (long)ref.bit_offset;
}

long ks_btf_member_offset(const struct ks_btf *btf, const char *type,
			  const char *member)
{
	long bits = ks_btf_member_bit_offset(btf, type, member);

	return bits < 0 ? bits : bits / 8;
}

long ks_btf_member_size(const struct ks_btf *btf, const char *type,
			const char *member)
{
	struct member_ref ref;
	int ret = lookup_member(btf, type, member, &ref);

	return ret ? ret : size_of(btf, ref.type, 0);
}

/* enum/enum64 value records (struct btf_enum, struct btf_enum64) */
struct btf_enum {
	uint32_t name_off;
	int32_t val;
};

struct btf_enum64 {
	uint32_t name_off;
	uint32_t lo, hi;
};

/* The value of enumerator name in enum or enum64 t: 0, or -ENOENT. */
static int enum_find(const struct ks_btf *btf, const struct btf_type *t,
		     const char *name, long long *val_ret)
{
	const struct btf_enum *e = (const struct btf_enum *)(t + 1);
	const struct btf_enum64 *e64 = (const struct btf_enum64 *)(t + 1);
	bool is64 = kind_of(t) == KIND_ENUM64;
	unsigned int i, vlen = vlen_of(t);

	for (i = 0; i < vlen; i++) {
		uint32_t off = is64 ? e64[i].name_off : e[i].name_off;

		if (strcmp(str_at(btf, off), name))
			continue;
		if (is64)
			*val_ret = (long long)((uint64_t)e64[i].hi << 32 | e64[i].lo);
		else	/* kflag: a signed enum; else its values are unsigned */
			*val_ret = kflag_of(t) ? (long long)e[i].val :
						 (long long)(uint32_t)e[i].val;
		return 0;
	}
	return -ENOENT;
}

int ks_btf_enum_value(const struct ks_btf *btf, const char *type,
		      const char *name, long long *val_ret)
{
	size_t lo;

	if (!strncmp(type, "enum ", 5))
		type += 5;
	/* a name may be a struct and an enum both: look at each enum of it */
	for (lo = first_name(btf, type); lo < btf->nr_names && !strcmp(btf->names[lo].name, type); lo++) {
		const struct btf_type *t = type_by_id(btf, btf->names[lo].id);

		if (t && (kind_of(t) == KIND_ENUM || kind_of(t) == KIND_ENUM64) &&
		    !enum_find(btf, t, name, val_ret))
			return 0;
	}
	return -ENOENT;
}
