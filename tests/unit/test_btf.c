// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The BTF reader on a blob built here: members inside anonymous unions
 * and structs, bitfields, dotted paths and array indexes, typedefs and
 * qualifiers, which of several types of one name is meant, enumerators
 * (signed, unsigned, 64-bit), records of
 * every kind skipped by size, and malformed blobs.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "btf.h"
#include "said.h"

enum {
	K_INT = 1, K_PTR, K_ARRAY, K_STRUCT, K_UNION, K_ENUM, K_FWD, K_TYPEDEF,
	K_VOLATILE, K_CONST, K_RESTRICT, K_FUNC, K_FUNC_PROTO, K_VAR, K_DATASEC,
	K_FLOAT, K_DECL_TAG, K_TYPE_TAG, K_ENUM64,
};

struct blob {
	uint32_t types[1024];
	size_t nr_words;
	char strs[1024];
	size_t strs_len;
	uint32_t next_id;
};

static uint32_t str(struct blob *b, const char *s)
{
	uint32_t off;

	if (!*s)
		return 0;
	off = (uint32_t)b->strs_len;
	strcpy(b->strs + off, s);
	b->strs_len += strlen(s) + 1;
	return off;
}

static void word(struct blob *b, uint32_t w)
{
	b->types[b->nr_words++] = w;
}

static uint32_t type(struct blob *b, const char *name, int kind, int vlen,
		     int kflag, uint32_t size_or_type)
{
	word(b, str(b, name));
	word(b, (uint32_t)kind << 24 | (uint32_t)vlen | (uint32_t)kflag << 31);
	word(b, size_or_type);
	return b->next_id++;
}

static void member(struct blob *b, const char *name, uint32_t type_id,
		   uint32_t offset)
{
	word(b, str(b, name));
	word(b, type_id);
	word(b, offset);
}

/*
 *   struct inner { int a; int b; };                      (also a typedef)
 *   struct task {
 *           int pad;
 *           union { int __state; long alias; };          at 8
 *           struct { struct { int deep; }; };            at 16
 *           struct inner thread;                         at 20
 *           const volatile int arr[4];                   at 28
 *           unsigned int flag_a:3, flag_b:5;             at 44, bits 352, 355
 *           struct task *next;                           at 48
 *           struct upid numbers[];                       at 56
 *   };                                                   size 56
 * plus records of every other kind in between, an empty struct task and
 * a union and a typedef named like structs.
 */
static size_t blob_bytes(struct blob *b, uint8_t *out, size_t cap);

static size_t build(struct blob *b, uint8_t *out, size_t cap)
{
	uint32_t t_int, t_long, t_uint, t_inner, t_anon_u, t_deep, t_outer_anon,
		 t_cv, t_arr, t_task, t_ptr, t_upid, t_flex;

	memset(b, 0, sizeof(*b));
	b->strs_len = 1;
	b->next_id = 1;
	t_int = type(b, "int", K_INT, 0, 0, 4);
	word(b, 0x01000020);		/* signed, 32 bits */
	t_long = type(b, "long", K_INT, 0, 0, 8);
	word(b, 0x01000040);
	t_uint = type(b, "unsigned int", K_INT, 0, 0, 4);
	word(b, 0x20);
	/* An empty struct task first: the one with members must win. */
	type(b, "task", K_STRUCT, 0, 0, 0);
	type(b, "task", K_FWD, 0, 0, 0);
	t_inner = type(b, "inner", K_STRUCT, 2, 0, 8);
	member(b, "a", t_int, 0);
	member(b, "b", t_int, 32);
	type(b, "inner_t", K_TYPEDEF, 0, 0, t_inner);
	t_anon_u = type(b, "", K_UNION, 2, 0, 8);
	member(b, "__state", t_int, 0);
	member(b, "alias", t_long, 0);
	t_deep = type(b, "", K_STRUCT, 1, 0, 4);
	member(b, "deep", t_int, 0);
	t_outer_anon = type(b, "", K_STRUCT, 1, 0, 4);
	member(b, "", t_deep, 0);
	/* Records the reader must step over by their size. */
	type(b, "color", K_ENUM, 2, 0, 4);
	word(b, str(b, "RED"));
	word(b, 0);
	word(b, str(b, "BLUE"));
	word(b, 1);
	type(b, "big", K_ENUM64, 1, 0, 8);
	word(b, str(b, "HUGE"));
	word(b, 0);
	word(b, 1);
	type(b, "", K_FUNC_PROTO, 1, 0, t_int);
	word(b, 0);
	word(b, t_int);
	type(b, "fn", K_FUNC, 0, 0, b->next_id - 1);
	type(b, "var", K_VAR, 0, 0, t_int);
	word(b, 1);
	type(b, ".data", K_DATASEC, 1, 0, 4);
	word(b, b->next_id - 2);
	word(b, 0);
	word(b, 4);
	type(b, "tag", K_DECL_TAG, 0, 0, t_int);
	word(b, (uint32_t)-1);
	type(b, "double", K_FLOAT, 0, 0, 8);
	type(b, "user", K_TYPE_TAG, 0, 0, t_int);
	type(b, "", K_RESTRICT, 0, 0, t_int);
	t_cv = type(b, "", K_VOLATILE, 0, 0, type(b, "", K_CONST, 0, 0, t_int));
	t_arr = type(b, "", K_ARRAY, 0, 0, 0);
	word(b, t_cv);
	word(b, t_int);
	word(b, 4);
	t_upid = type(b, "upid", K_STRUCT, 1, 0, 16);
	member(b, "nr", t_int, 0);
	t_flex = type(b, "", K_ARRAY, 0, 0, 0);
	word(b, t_upid);
	word(b, t_int);
	word(b, 0);
	/* ids are known in advance: task is the next, its pointer after. */
	t_task = b->next_id;
	t_ptr = t_task + 1;
	type(b, "task", K_STRUCT, 9, 1, 56);
	member(b, "pad", t_int, 0);
	member(b, "", t_anon_u, 64);
	member(b, "", t_outer_anon, 128);
	member(b, "thread", t_inner, 160);
	member(b, "arr", t_arr, 224);
	member(b, "flag_a", t_uint, 3u << 24 | 352);
	member(b, "flag_b", t_uint, 5u << 24 | 355);
	member(b, "next", t_ptr, 384);
	member(b, "numbers", t_flex, 448);
	assert_int_equal(type(b, "", K_PTR, 0, 0, t_task), t_ptr);
	/* A union and a typedef that share a struct's name rank lower. */
	type(b, "inner", K_UNION, 0, 0, 99);
	type(b, "task_t", K_TYPEDEF, 0, 0, t_ptr);
	/* a signed enum (kflag) and an unsigned one past INT_MAX */
	type(b, "sign", K_ENUM, 1, 1, 4);
	word(b, str(b, "NEG"));
	word(b, (uint32_t)-2);
	type(b, "usign", K_ENUM, 1, 0, 4);
	word(b, str(b, "TOP"));
	word(b, 0xffffffffu);

	return blob_bytes(b, out, cap);
}

/* Header, types and strings of b, as one blob in out. */
static size_t blob_bytes(struct blob *b, uint8_t *out, size_t cap)
{
	uint32_t hdr[6];
	size_t types_len, len;

	types_len = b->nr_words * 4;
	hdr[0] = 0xeB9F | 1u << 16;		/* magic, version 1, flags 0 */
	hdr[1] = 24;				/* hdr_len */
	hdr[2] = 0;				/* type_off */
	hdr[3] = (uint32_t)types_len;
	hdr[4] = (uint32_t)types_len;		/* str_off */
	hdr[5] = (uint32_t)b->strs_len;
	len = 24 + types_len + b->strs_len;
	assert_true(len <= cap);
	memcpy(out, hdr, 24);
	memcpy(out + 24, b->types, types_len);
	memcpy(out + 24 + types_len, b->strs, b->strs_len);
	return len;
}

struct fixture {
	uint8_t data[8192];
	size_t len;
	struct ks_btf *btf;
	struct blob b;
};

static int setup(void **state)
{
	struct fixture *f = calloc(1, sizeof(*f));

	assert_non_null(f);
	f->len = build(&f->b, f->data, sizeof(f->data));
	assert_int_equal(ks_btf_load(f->data, f->len, &f->btf, NULL), 0);
	*state = f;
	return 0;
}

static int teardown(void **state)
{
	struct fixture *f = *state;

	ks_btf_free(f->btf);
	free(f);
	return 0;
}

static void test_anonymous_members(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(ks_btf_member_offset(f->btf, "task", "pad"), 0);
	assert_int_equal(ks_btf_member_offset(f->btf, "task", "__state"), 8);
	assert_int_equal(ks_btf_member_size(f->btf, "task", "__state"), 4);
	assert_int_equal(ks_btf_member_offset(f->btf, "task", "alias"), 8);
	assert_int_equal(ks_btf_member_size(f->btf, "task", "alias"), 8);
	assert_int_equal(ks_btf_member_offset(f->btf, "task", "deep"), 16);
	assert_int_equal(ks_btf_member_offset(f->btf, "task", "nosuch"), -ENOENT);
	assert_int_equal(ks_btf_member_offset(f->btf, "nosuch", "pad"), -ENOENT);
}

static void test_sizes(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(ks_btf_type_size(f->btf, "task"), 56);
	assert_int_equal(ks_btf_type_size(f->btf, "struct task"), 56);
	assert_int_equal(ks_btf_type_size(f->btf, "inner"), 8);
	assert_int_equal(ks_btf_type_size(f->btf, "union inner"), 99);
	assert_int_equal(ks_btf_type_size(f->btf, "union task"), -ENOENT);
	assert_int_equal(ks_btf_type_size(f->btf, "inner_t"), 8);
	assert_int_equal(ks_btf_type_size(f->btf, "task_t"), 8);
	assert_int_equal(ks_btf_type_size(f->btf, "long"), 8);
	assert_int_equal(ks_btf_type_size(f->btf, "color"), 4);
	assert_int_equal(ks_btf_type_size(f->btf, "big"), 8);
	assert_int_equal(ks_btf_type_size(f->btf, "double"), 8);
	assert_int_equal(ks_btf_member_size(f->btf, "task", "arr"), 16);
	assert_int_equal(ks_btf_member_size(f->btf, "task", "next"), 8);
	assert_int_equal(ks_btf_member_size(f->btf, "task", "thread"), 8);
	assert_int_equal(ks_btf_member_size(f->btf, "task", "numbers"), 0);
}

static void test_bitfields(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(ks_btf_member_offset(f->btf, "task", "flag_a"), 44);
	assert_int_equal(ks_btf_member_bit_offset(f->btf, "task", "flag_a"), 352);
	assert_int_equal(ks_btf_member_bit_offset(f->btf, "task", "flag_b"), 355);
	assert_int_equal(ks_btf_member_size(f->btf, "task", "flag_b"), 4);
}

static void test_paths(void **state)
{
	struct fixture *f = *state;

	assert_int_equal(ks_btf_member_offset(f->btf, "task", "thread.b"), 24);
	assert_int_equal(ks_btf_member_size(f->btf, "task", "thread.b"), 4);
	assert_int_equal(ks_btf_member_offset(f->btf, "task", "arr[2]"), 36);
	assert_int_equal(ks_btf_member_offset(f->btf, "task", "arr[4]"), -ENOENT);
	/* A flexible array has no bound. */
	assert_int_equal(ks_btf_member_offset(f->btf, "task", "numbers[3].nr"),
			 56 + 3 * 16);
	assert_int_equal(ks_btf_member_offset(f->btf, "task", "thread."), -EINVAL);
	assert_int_equal(ks_btf_member_offset(f->btf, "task", "arr[x]"), -EINVAL);
	assert_int_equal(ks_btf_member_offset(f->btf, "task", "pad.x"), -ENOENT);
	assert_int_equal(ks_btf_member_offset(f->btf, "task", "thread.c"), -ENOENT);
	/* Through a pointer is not a member path. */
	assert_int_equal(ks_btf_member_offset(f->btf, "task", "next.pad"), -ENOENT);
}

static void corrupt(struct fixture *f, size_t off, uint32_t val, int expect)
{
	uint8_t copy[8192];
	struct ks_btf *btf = NULL;

	memcpy(copy, f->data, f->len);
	memcpy(copy + off, &val, sizeof(val));
	assert_int_equal(ks_btf_load(copy, f->len, &btf, NULL), expect);
	ks_btf_free(btf);
}

static void test_malformed(void **state)
{
	struct fixture *f = *state;
	struct ks_btf *btf;
	uint32_t types_len = (uint32_t)f->b.nr_words * 4;

	assert_int_equal(ks_btf_load(f->data, 10, &btf, NULL), -EINVAL);
	assert_int_equal(ks_btf_load(f->data, f->len - 1, &btf, NULL),
			 -EINVAL);
	corrupt(f, 0, 0x9FeB | 1u << 24, -ENOTSUP);
	corrupt(f, 0, 0x1234 | 1u << 16, -EINVAL);
	corrupt(f, 0, 0xeB9F | 2u << 16, -EINVAL);		/* version */
	corrupt(f, 12, types_len + 4, -EINVAL);			/* type_len */
	/* The strings must end in a NUL. */
	corrupt(f, f->len - 4, 0x41414141, -EINVAL);
	/* An unknown kind cannot be skipped. */
	corrupt(f, 24 + 4, 31u << 24, -EINVAL);
	/* A struct whose members run past the type section. */
	corrupt(f, 24 + 4, (uint32_t)K_STRUCT << 24 | 0xffff, -EINVAL);
}

/*
 * A vlen too big for its struct (65535 in a real 5 MB BTF) runs the
 * records after it into its members, ids shifted: a member looked up
 * later "does not exist".  The load names the record instead (issue 27).
 */
static void test_vlen_overrun(void **state)
{
	struct fixture *f = *state;
	/* struct inner: the 19th word of the types (after 4+4+4+3+3) */
	size_t info = 24 + 19 * 4, rest = f->b.nr_words - 21;
	uint8_t copy[8192];
	struct ks_btf *btf = NULL;
	struct said d;

	for (size_t vlen = rest / 3; vlen >= rest / 6; vlen--) {
		uint32_t v = (uint32_t)K_STRUCT << 24 | (uint32_t)vlen;

		memcpy(copy, f->data, f->len);
		memcpy(copy + info, &v, sizeof(v));
		d = (struct said){ "", 0 };
		assert_int_equal(ks_btf_load(copy, f->len, &btf, &SAID_TO(&d)),
				 -EINVAL);
		assert_null(btf);
		printf("vlen %zu: %s", vlen, d.text);
		assert_int_equal(d.calls, 1);
		assert_non_null(strstr(d.text, "the records are damaged"));
	}
	/* a member that refers to no type: named, not "not found" later */
	memcpy(copy, f->data, f->len);
	memcpy(copy + 24 + 22 * 4, &(uint32_t){ 0xfffff }, 4);
	d = (struct said){ "", 0 };
	assert_int_equal(ks_btf_load(copy, f->len, &btf, &SAID_TO(&d)),
			 -EINVAL);
	printf("%s", d.text);
	assert_int_equal(d.calls, 1);
	assert_non_null(strstr(d.text, "(inner, kind 4, vlen 2): a member's "
				       "type 1048575 is out of range"));
}

/*
 * BTF can come from a dump's memory, so it may be anything: anonymous
 * members that hold their own record, or records that hold the next one
 * many times over.  A lookup must end at once either way (it took
 * exponential time, i.e. forever), and still find what is really there.
 *
 *   struct self { int x; <anon self> x 8; };           holds itself
 *   struct ping { <anon pong>; }; struct pong { <anon ping>; int y; };
 *   struct fan0 { <anon fan1> x 2; } ... fan39 { int leaf; };
 */
static void test_cycles(void **state)
{
	struct blob *b = calloc(1, sizeof(*b));
	uint8_t *data = calloc(1, 16384);
	uint32_t t_int, t_self, t_ping, t_fan;
	struct ks_btf *btf;
	size_t len;
	int i, j;

	(void)state;
	assert_non_null(b);
	assert_non_null(data);
	b->strs_len = 1;
	b->next_id = 1;
	t_int = type(b, "int", K_INT, 0, 0, 4);
	word(b, 0x01000020);
	t_self = b->next_id;
	type(b, "self", K_STRUCT, 9, 0, 8);
	member(b, "x", t_int, 0);
	for (i = 0; i < 8; i++)
		member(b, "", t_self, 32);
	t_ping = b->next_id;
	type(b, "ping", K_STRUCT, 1, 0, 8);
	member(b, "", t_ping + 1, 0);
	type(b, "pong", K_STRUCT, 2, 0, 8);
	member(b, "", t_ping, 0);
	member(b, "y", t_int, 32);
	/* fan0 .. fan39, each with two anonymous fanN+1: 2^40 paths */
	t_fan = b->next_id;
	for (i = 0; i < 40; i++) {
		char name[16];

		snprintf(name, sizeof(name), "fan%d", i);
		if (i == 39) {
			type(b, name, K_STRUCT, 1, 0, 4);
			member(b, "leaf", t_int, 0);
			break;
		}
		type(b, name, K_STRUCT, 2, 0, 8);
		for (j = 0; j < 2; j++)
			member(b, "", t_fan + (uint32_t)i + 1, (uint32_t)j * 32);
	}
	len = blob_bytes(b, data, 16384);
	assert_int_equal(ks_btf_load(data, len, &btf, NULL), 0);

	assert_int_equal(ks_btf_member_offset(btf, "self", "x"), 0);
	assert_int_equal(ks_btf_member_offset(btf, "self", "nosuch"), -ENOENT);
	assert_int_equal(ks_btf_member_offset(btf, "ping", "y"), 4);
	assert_int_equal(ks_btf_member_offset(btf, "ping", "nosuch"), -ENOENT);
	assert_int_equal(ks_btf_member_offset(btf, "pong", "nosuch"), -ENOENT);
	/* the first path: every first member, so offset 0 */
	assert_int_equal(ks_btf_member_offset(btf, "fan0", "leaf"), 0);
	assert_int_equal(ks_btf_member_offset(btf, "fan0", "nosuch"), -ENOENT);
	assert_int_equal(ks_btf_member_size(btf, "fan0", "leaf"), 4);
	ks_btf_free(btf);
	free(data);
	free(b);
}

/* An enumerator of the enum named, as the kernel's build gave it. */
static void test_enum_values(void **state)
{
	struct fixture *f = *state;
	long long v = 7;

	assert_int_equal(ks_btf_enum_value(f->btf, "color", "RED", &v), 0);
	assert_int_equal(v, 0);
	assert_int_equal(ks_btf_enum_value(f->btf, "enum color", "BLUE", &v), 0);
	assert_int_equal(v, 1);
	assert_int_equal(ks_btf_enum_value(f->btf, "big", "HUGE", &v), 0);
	assert_true(v == 1ll << 32);
	assert_int_equal(ks_btf_enum_value(f->btf, "sign", "NEG", &v), 0);
	assert_true(v == -2);
	assert_int_equal(ks_btf_enum_value(f->btf, "usign", "TOP", &v), 0);
	assert_true(v == 0xffffffffll);
	/* an enumerator of another enum, of none, or a struct's name */
	assert_int_equal(ks_btf_enum_value(f->btf, "color", "HUGE", &v), -ENOENT);
	assert_int_equal(ks_btf_enum_value(f->btf, "color", "GREEN", &v), -ENOENT);
	assert_int_equal(ks_btf_enum_value(f->btf, "task", "pad", &v), -ENOENT);
	assert_int_equal(ks_btf_enum_value(f->btf, "nothing", "RED", &v), -ENOENT);
}

/*
 * Sizes as the kernel's BTF verifier bounds them (an array's fits in
 * u32): int[65536][65536] is refused, and four levels of it no longer
 * overflow a long; an index into a flexible array cannot go past them.
 */
static void test_huge_arrays(void **state)
{
	struct blob *b = calloc(1, sizeof(*b));
	uint8_t *data = calloc(1, 4096);
	uint32_t t_int, t_arr, t_big = 0, t_flex;
	struct ks_btf *btf;
	int i;

	(void)state;
	assert_non_null(b);
	assert_non_null(data);
	b->strs_len = 1;
	b->next_id = 1;
	t_int = type(b, "int", K_INT, 0, 0, 4);
	word(b, 0x01000020);
	t_arr = t_int;
	for (i = 0; i < 4; i++) {
		t_arr = type(b, "", K_ARRAY, 0, 0, 0);
		word(b, t_arr - 1);
		word(b, t_int);
		word(b, 65536);
		if (i == 1)
			t_big = t_arr;
	}
	type(b, "big_t", K_TYPEDEF, 0, 0, t_big);
	type(b, "huge_t", K_TYPEDEF, 0, 0, t_arr);
	t_flex = type(b, "", K_ARRAY, 0, 0, 0);
	word(b, t_int);
	word(b, t_int);
	word(b, 0);
	type(b, "holder", K_STRUCT, 2, 0, 8);
	member(b, "m", t_big, 0);
	member(b, "flex", t_flex, 64);
	assert_int_equal(ks_btf_load(data, blob_bytes(b, data, 4096), &btf,
				     NULL), 0);

	assert_int_equal(ks_btf_type_size(btf, "big_t"), -EINVAL);
	assert_int_equal(ks_btf_type_size(btf, "huge_t"), -EINVAL);
	assert_int_equal(ks_btf_member_size(btf, "holder", "m"), -EINVAL);
	assert_int_equal(ks_btf_member_offset(btf, "holder", "flex[3]"), 8 + 12);
	assert_int_equal(ks_btf_member_offset(btf, "holder", "flex[1073741823]"),
			 8 + 4294967292l);
	assert_int_equal(ks_btf_member_offset(btf, "holder",
					      "flex[4611686018427387904]"), -EINVAL);
	ks_btf_free(btf);
	free(data);
	free(b);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(test_anonymous_members, setup, teardown),
		cmocka_unit_test_setup_teardown(test_sizes, setup, teardown),
		cmocka_unit_test_setup_teardown(test_bitfields, setup, teardown),
		cmocka_unit_test_setup_teardown(test_paths, setup, teardown),
		cmocka_unit_test_setup_teardown(test_enum_values, setup, teardown),
		cmocka_unit_test_setup_teardown(test_malformed, setup, teardown),
		cmocka_unit_test_setup_teardown(test_vlen_overrun, setup, teardown),
		cmocka_unit_test(test_cycles),
		cmocka_unit_test(test_huge_arrays),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
