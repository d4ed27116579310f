/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * FNV-1a, 64 bits: the one string hash of the tree (stack groups, the
 * stack signature, the kallsyms and line caches, report's and --snoop's
 * tables).  Fold more bytes into h by calling again with its result.
 */
#ifndef KS_FNV1A_H
#define KS_FNV1A_H

#include <stddef.h>
#include <stdint.h>

#define KS_FNV1A_INIT	0xcbf29ce484222325ULL
#define KS_FNV1A_PRIME	0x100000001b3ULL

static inline uint64_t ks_fnv1a(uint64_t h, const void *data, size_t len)
{
	const unsigned char *p = data;

	for (size_t i = 0; i < len; i++)
		h = (h ^ p[i]) * KS_FNV1A_PRIME;
	return h;
}

/* a NUL-terminated string, its NUL left out */
static inline uint64_t ks_fnv1a_str(uint64_t h, const char *s)
{
	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * KS_FNV1A_PRIME;
	return h;
}

#endif /* KS_FNV1A_H */
