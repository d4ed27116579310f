// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * shared/kernel/image/btf.c on the input as a BTF blob: the header, every record
 * skipped by its kind's size, the name index; then type sizes and member
 * lookups (anonymous members, dotted paths, array indexes) with names
 * taken from the blob's own string section, so that the fuzzer reaches
 * real types, and with a few malformed paths.
 */
#include <stdio.h>

#include "btf.h"
#include "fuzz.h"

#define MAX_NAMES	8

/* The first non-empty strings of the blob's string section. */
static size_t blob_names(const uint8_t *data, size_t size,
			 const char *names[MAX_NAMES])
{
	uint32_t hdr_len, str_off, str_len;
	const char *s, *end;
	size_t n = 0;

	/* ks_btf_load() checked these against size */
	memcpy(&hdr_len, data + 4, 4);
	memcpy(&str_off, data + 16, 4);
	memcpy(&str_len, data + 20, 4);
	s = (const char *)data + hdr_len + str_off;
	end = s + str_len;
	for (; s < end && n < MAX_NAMES; s += strlen(s) + 1)
		if (*s)
			names[n++] = s;
	(void)size;
	return n;
}

static void member(const struct ks_btf *btf, const char *type, const char *path)
{
	long off = ks_btf_member_offset(btf, type, path);
	long bit = ks_btf_member_bit_offset(btf, type, path);

	ks_btf_member_size(btf, type, path);
	fuzz_assert((off < 0) == (bit < 0));
	fuzz_assert(off < 0 || off == bit / 8);
}

static void paths(const struct ks_btf *btf, const char *type, const char *a,
		  const char *b)
{
	static const char *const odd[] = { "", ".", "[0]", "__state",
		"thread.sp", "mem[1].base", "numbers[0].nr" };
	char path[1024];

	member(btf, type, a);
	snprintf(path, sizeof(path), "%s.%s", a, b);
	member(btf, type, path);
	snprintf(path, sizeof(path), "%s[1].%s", a, b);
	member(btf, type, path);
	snprintf(path, sizeof(path), "%s[99999999999999999999]", a);
	member(btf, type, path);
	snprintf(path, sizeof(path), "%s[", a);
	member(btf, type, path);
	snprintf(path, sizeof(path), "%s..%s", a, b);
	member(btf, type, path);
	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		member(btf, type, odd[i]);
}

static void lookups(const struct ks_btf *btf, const char *names[], size_t n)
{
	char type[600];

	for (size_t i = 0; i < n; i++) {
		ks_btf_type_size(btf, names[i]);
		snprintf(type, sizeof(type), "struct %s", names[i]);
		ks_btf_type_size(btf, type);
		snprintf(type, sizeof(type), "union %s", names[i]);
		ks_btf_type_size(btf, type);
		for (size_t j = 0; j < n; j++)
			paths(btf, names[i], names[j], names[(j + 1) % n]);
	}
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *names[MAX_NAMES];
	struct ks_btf *btf = NULL;

	if (ks_btf_load(data, size, &btf, NULL))
		return 0;
	lookups(btf, names, blob_names(data, size, names));
	ks_btf_type_size(btf, "task_struct");
	member(btf, "task_struct", "thread.sp");
	ks_btf_free(btf);
	return 0;
}
