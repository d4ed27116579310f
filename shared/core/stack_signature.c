// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The signature rule (docs/signature.md): FNV-1a, 64 bits, over the state
 * letter and a newline, then each kept frame's normalized name and a
 * newline, innermost frame first; the signature is the top 48 bits, as
 * 12 hex digits.  A frame is normalized by:
 *  - dropping its "[<...>] " address prefix and its "+0xOFF/0xSIZE";
 *  - cutting the function name at its first '.', since C names have
 *    none and every '.' starts a compiler suffix (.isra.N, .constprop.N,
 *    .part.N, .cold, .llvm.N), which differ between builds;
 *  - keeping " [module]";
 * and a frame the unwinder marked unsure ("? ") is dropped, since
 * whether such a word shows up depends on what else was on the stack.
 */
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "stack_signature.h"
#include "fnv1a.h"

/* The line's frame after its "[<...>] " prefix and any "? " mark. */
static const char *frame_start(const char *p, const char *end, bool *unsure)
{
	const char *q;

	*unsure = false;
	if (end - p >= 2 && p[0] == '[' && p[1] == '<') {
		q = memchr(p, ']', (size_t)(end - p));
		if (q)
			p = q + 1;
	}
	while (p < end && *p == ' ')
		p++;
	if (end - p >= 2 && p[0] == '?' && p[1] == ' ') {
		*unsure = true;
		p += 2;
	}
	return p;
}

/* Hashes one frame: the name up to '.', '+' or ' ', then " [module]". */
static uint64_t hash_frame(uint64_t h, const char *p, const char *end)
{
	size_t n = strcspn(p, ".+ \n");
	const char *mod;

	if (p + n > end)
		n = (size_t)(end - p);
	h = ks_fnv1a(h, p, n);
	mod = memchr(p, '[', (size_t)(end - p));
	if (mod) {
		const char *close = memchr(mod, ']', (size_t)(end - mod));

		if (close) {
			h = ks_fnv1a(h, " ", 1);
			h = ks_fnv1a(h, mod, (size_t)(close - mod + 1));
		}
	}
	return ks_fnv1a(h, "\n", 1);
}

void ks_stack_signature(char state, const char *stack,
			char sig_ret[KS_SIGNATURE_LEN])
{
	uint64_t h = ks_fnv1a(KS_FNV1A_INIT, &state, 1);
	const char *p = stack ? stack : "";
	bool unsure;

	h = ks_fnv1a(h, "\n", 1);
	while (*p) {
		const char *end = strchr(p, '\n');
		const char *f;

		if (!end)
			end = p + strlen(p);
		f = frame_start(p, end, &unsure);
		if (!unsure && f < end)
			h = hash_frame(h, f, end);
		p = *end ? end + 1 : end;
	}
	snprintf(sig_ret, KS_SIGNATURE_LEN, "%012llx",
		 (unsigned long long)(h >> 16));
}

void ks_stack_top_frame(const char *stack, char *buf, size_t len)
{
	const char *p = stack ? stack : "", *q = strchr(p, ']');
	size_t n;

	if (q && p[0] == '[')
		p = q + 1;
	while (*p == ' ')
		p++;
	n = strcspn(p, "+ \n");
	snprintf(buf, len, "%.*s", (int)n, p);
}
