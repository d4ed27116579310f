// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * scripts/kallsyms.c's output, found again in memory.  It writes, each
 * table starting aligned (ALGN, .balign 8 on 64-bit), so up to 7 zero
 * bytes may sit between two:
 *
 *   up to 6.3:  offsets (or addresses), relative_base, num_syms, names,
 *               markers, [seqs_of_names, 6.2+], token_table, token_index
 *   6.4 on:     num_syms, names, markers, token_table, token_index,
 *               offsets (or addresses), relative_base, seqs_of_names
 *
 * The anchor is the token pair, the same in both orders: 256 u16 offsets
 * from 0, each past a NUL-terminated token of the table just before.
 * The markers before that (the offset in names of every 256th symbol,
 * from 0) give the symbol count to within 256, which finds num_syms in
 * front of names; names walked from there must meet every marker and end
 * where the markers start.  The address table is then tried where each
 * order puts it, and what decodes must put _stext, init_uts_ns and
 * swapper_pg_dir where VMCOREINFO says.  No version string is read.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "kallsyms_scan.h"

#define SCAN_MAX	(256ull << 20)	/* text and rodata are tens of MB */
#define IMAGE_MAX	(1ull << 30)	/* x86_64's KERNEL_IMAGE_SIZE */
#define CHUNK		(64u << 10)
#define PAGE		4096u
#define NR_TOKENS	256
#define INDEX_SIZE	(NR_TOKENS * 2)
#define TOKEN_MAX	256		/* longer tokens are not believed */
#define ALIGN_MAX	8
#define MARKERS_MAX	16384u		/* 4 Mi symbols: kallsyms_mem.c's bound */
#define ENTRY_MAX	(2 + 512)	/* two length bytes, KSYM_NAME_LEN tokens */
#define NAMES_MAX	(64u << 20)
#define TAIL_MAX	(256u * ENTRY_MAX + 2 * ALIGN_MAX)
/* markers and seqs_of_names: 2.7 Mi symbols, about 10 times a vmlinux's */
#define MARKERS_WINDOW	(8u << 20)
/*
 * Token tables tried, each costing reads of up to 2 * MARKERS_WINDOW: a
 * kernel has one, and 1,120 forged ones cost 23.5 s without a bound.
 */
#define TRIES_MAX	32

/* .data follows .rodata: the first of these above _stext ends the scan. */
static const char *const data_syms[] = {
	"init_uts_ns", "swapper_pg_dir", "init_top_pgt",
};

/* What decoded tables must agree on with VMCOREINFO, where both have it. */
static const char *const checked[] = {
	"_stext", "init_uts_ns", "swapper_pg_dir", "init_top_pgt",
	"node_online_map",
};

struct scan {
	const struct ks_target *t;
	struct ks_kallsyms_scan *sc;
	uint64_t stext;
	uint16_t idx[NR_TOKENS];
	uint64_t token_table, token_index;
	uint64_t markers, markers_end;
	uint32_t marker[MARKERS_MAX];
	unsigned int nr_markers;
	uint64_t num_syms, names;
	uint32_t num;
	uint8_t chunk[CHUNK + INDEX_SIZE];
};

static uint64_t get_le(const uint8_t *p, unsigned int size)
{
	uint64_t v = 0;

	memcpy(&v, p, size);	/* x86_64 is little-endian, as the dump */
	return v;
}

static void find_region(const struct ks_vmcoreinfo *vi,
			struct ks_kallsyms_scan *sc)
{
	sc->start = ks_vmcoreinfo_symbol(vi, "_stext");
	sc->end = 0;
	/*
	 * A 64-bit kernel's image lies in the upper half, on every
	 * architecture: an _stext below it is forged, and searching from it
	 * read 256 MiB of user addresses for seconds (fuzz_dump_open).
	 */
	if (!(sc->start >> 63)) {
		sc->start = 0;
		return;
	}
	for (size_t i = 0; i < sizeof(data_syms) / sizeof(data_syms[0]); i++) {
		uint64_t a = ks_vmcoreinfo_symbol(vi, data_syms[i]);

		if (a > sc->start && a - sc->start <= SCAN_MAX &&
		    (!sc->end || a < sc->end))
			sc->end = a;
	}
}

/*
 * Memory the dump lacks (or a hole before the tables) reads as zeros,
 * which never look like a table.  False when no byte could be read: such
 * a chunk needs no search.
 */
static bool read_zeroed(const struct ks_target *t, uint64_t addr, uint8_t *buf,
			size_t len)
{
	bool any = false;

	if (!ks_read(t, addr, buf, len))
		return true;
	for (size_t off = 0, n; off < len; off += n) {
		n = PAGE - (addr + off) % PAGE;
		if (n > len - off)
			n = len - off;
		if (ks_read(t, addr + off, buf + off, n))
			memset(buf + off, 0, n);
		else
			any = true;
	}
	return any;
}

/* kallsyms_token_index: from 0, each offset past a token of 1 or more. */
static bool index_shape(const uint8_t *p, uint16_t *idx)
{
	if (get_le(p, 2))
		return false;
	idx[0] = 0;
	for (int i = 1; i < NR_TOKENS; i++) {
		idx[i] = (uint16_t)get_le(p + 2 * i, 2);
		if (idx[i] < idx[i - 1] + 2 || idx[i] > idx[i - 1] + TOKEN_MAX + 1)
			return false;
	}
	return true;
}

/* Every token is as long as the index says, NUL-terminated. */
static bool tokens_agree(const uint8_t *b, size_t base, size_t end,
			 const uint16_t *idx)
{
	for (int i = 0; i < NR_TOKENS; i++) {
		size_t off = base + idx[i];
		size_t next = i + 1 < NR_TOKENS ? base + idx[i + 1] : end;

		if (next > end || b[next - 1] || memchr(b + off, 0, next - off - 1))
			return false;
	}
	return true;
}

/*
 * kallsyms_token_table ends, its last NUL and the padding, right where
 * the index starts: the last token is the last run of non-NUL bytes
 * before the index, and the table starts idx[255] before that token.
 */
static int find_token_table(struct scan *s)
{
	size_t len = s->idx[NR_TOKENS - 1] + TOKEN_MAX + ALIGN_MAX + 1;
	size_t z = 0, last, first;
	uint8_t *b;
	int ret = -ENOENT;

	if (s->token_index - s->sc->start < len)
		return -ENOENT;
	b = malloc(len);
	if (!b)
		return -ENOMEM;
	if (ks_read(s->t, s->token_index - len, b, len))
		goto out;
	/* the NUL and up to ALIGN_MAX - 1 bytes of padding */
	while (z <= ALIGN_MAX && !b[len - 1 - z])
		z++;
	last = len - z;		/* the last token's NUL */
	for (first = last; first && b[first - 1]; first--)
		;
	if (!z || z > ALIGN_MAX || !first || first < s->idx[NR_TOKENS - 1] ||
	    !tokens_agree(b, first - s->idx[NR_TOKENS - 1], last + 1, s->idx))
		goto out;
	s->token_table = s->token_index - len + first - s->idx[NR_TOKENS - 1];
	ret = 0;
out:
	free(b);
	return ret;
}

/* Past n entries of kallsyms_names (kallsyms_expand_symbol()'s lengths). */
static bool skip_names(const uint8_t *b, size_t len, size_t *pos, size_t n)
{
	size_t p = *pos, l;

	while (n--) {
		if (p >= len)
			return false;
		l = b[p++];
		if (l & 0x80) {
			if (p >= len)
				return false;
			l = (l & 0x7f) | ((size_t)b[p++] << 7);
		}
		if (!l || l > len - p)
			return false;
		p += l;
	}
	*pos = p;
	return true;
}

/* num names from pos meet every marker and end, but padding, at len. */
static bool names_fit(const struct scan *s, const uint8_t *b, size_t len,
		      size_t pos, uint32_t num)
{
	size_t start = pos;

	for (unsigned int k = 0; k < s->nr_markers; k++) {
		size_t n = num - 256u * k < 256 ? num - 256u * k : 256;

		if (pos != start + s->marker[k] || !skip_names(b, len, &pos, n))
			return false;
	}
	if (len - pos >= ALIGN_MAX)
		return false;
	for (; pos < len; pos++)
		if (b[pos])
			return false;
	return true;
}

/* 6.2 and 6.3: 3 bytes of kallsyms_seqs_of_names a symbol, if any. */
static bool seqs_fit(const struct scan *s, uint32_t num)
{
	uint64_t gap = s->token_table - s->markers_end;

	return gap < ALIGN_MAX ||
	       (gap >= 3ull * num && gap - 3ull * num < 2 * ALIGN_MAX);
}

/*
 * kallsyms_num_syms (u32, or an unsigned long) just before names: a
 * count the markers allow, from which the names walk to the markers.
 */
static int find_names(struct scan *s)
{
	uint32_t last = s->marker[s->nr_markers - 1];
	uint32_t lo = 256u * (s->nr_markers - 1) + 1, hi = 256u * s->nr_markers;
	size_t len = (size_t)last + TAIL_MAX;
	uint8_t *b;
	int ret = -ENOENT;

	if (last > NAMES_MAX)
		return -ENOENT;
	if (s->markers - s->sc->start < len)
		len = s->markers - s->sc->start;
	len &= ~(size_t)7;	/* q below is as aligned as its address */
	if (len <= (size_t)last + 8)
		return -ENOENT;
	b = malloc(len);
	if (!b)
		return -ENOMEM;
	read_zeroed(s->t, s->markers - len, b, len);
	for (size_t q = (len - last - 4) & ~(size_t)3;; q -= 4) {
		uint32_t v = (uint32_t)get_le(b + q, 4);

		for (size_t pad = 4; v >= lo && v <= hi && pad <= 8; pad += 4) {
			if (q + pad + last > len || !seqs_fit(s, v) ||
			    !names_fit(s, b, len, q + pad, v))
				continue;
			s->num_syms = s->markers - len + q;
			s->names = s->num_syms + pad;
			s->num = v;
			ret = 0;
			goto out;
		}
		if (q < 4 || q + TAIL_MAX + last < len)
			break;
	}
out:
	free(b);
	return ret;
}

/*
 * The markers that start at r: from 0, each 256 names (2 bytes or more
 * each) past the one before, up to where they stop increasing.  They end
 * ALGN before the token table, or before kallsyms_seqs_of_names.
 */
static bool markers_at(struct scan *s, const uint8_t *b, size_t len,
		       size_t r, unsigned int size)
{
	uint64_t prev = 0, v;
	size_t p = r + size, gap;
	unsigned int m = 1;

	for (; p + size <= len && m < MARKERS_MAX; p += size, m++) {
		v = get_le(b + p, size);
		if (v <= prev || v - prev < 256 * 2 || v - prev > 256 * ENTRY_MAX)
			break;
		prev = v;
	}
	gap = len - p;
	if (m < 2 || (gap >= ALIGN_MAX && gap < 3 * (256 * (m - 1) + 1)) ||
	    gap > 3 * 256 * m + 2 * ALIGN_MAX)
		return false;
	for (unsigned int k = 0; k < m; k++)
		s->marker[k] = (uint32_t)get_le(b + r + k * size, size);
	s->nr_markers = m;
	s->markers = s->token_table - len + r;
	s->markers_end = s->token_table - gap;
	return true;
}

/*
 * kallsyms_markers, of size bytes each (u32; an unsigned long in old
 * kernels), the nearest to the token table first, and the names and
 * count in front of them.
 */
static int find_markers(struct scan *s, unsigned int size)
{
	size_t len = MARKERS_WINDOW;
	uint8_t *b;
	int ret = -ENOENT;

	if (s->token_table - s->sc->start < len)
		len = s->token_table - s->sc->start;
	len &= ~(size_t)7;
	if (len < 3 * size)
		return -ENOENT;
	b = malloc(len);
	if (!b)
		return -ENOMEM;
	read_zeroed(s->t, s->token_table - len, b, len);
	for (size_t r = len - 2 * size; ret == -ENOENT; r -= size) {
		if (!get_le(b + r, size) && markers_at(s, b, len, r, size))
			ret = find_names(s);
		if (r < size)
			break;
	}
	free(b);
	return ret;
}

/* u32 markers, or an unsigned long each as older kernels wrote them. */
static int find_markers_names(struct scan *s)
{
	int ret = -ENOENT;

	for (unsigned int size = 4; size <= 8 && ret == -ENOENT; size += 4)
		ret = find_markers(s, size);
	return ret;
}

static uint64_t align8(uint64_t a)
{
	return (a + 7) & ~7ull;
}

/* relative_base is at or below _stext, within the image. */
static bool base_plausible(const struct scan *s, uint64_t rb)
{
	uint64_t v;

	return rb >= s->sc->start && !ks_read_u64(s->t, rb, &v) &&
	       v <= s->stext && s->stext - v < IMAGE_MAX;
}

/* The last address, the highest, is in the image above _stext. */
static bool addresses_plausible(const struct scan *s, uint64_t at)
{
	uint64_t v;

	return at >= s->sc->start &&
	       !ks_read_u64(s->t, at + 8ull * (s->num - 1), &v) &&
	       v >= s->stext && v - s->stext < IMAGE_MAX;
}

/*
 * The address table where either order puts it: before num_syms (up to
 * 6.3), or after the token index (6.4 on); 32-bit offsets followed by
 * relative_base, or absolute addresses; or (7.0 on) offsets from their
 * own place, which kallsyms_mem.c decodes where it knows that encoding.
 */
static size_t address_candidates(const struct scan *s,
				 struct ks_kallsyms_mem_addrs *c)
{
	uint64_t n4 = 4ull * s->num, n8 = 8ull * s->num;
	uint64_t rb = (s->num_syms - 8) & ~7ull;
	uint64_t abs = (s->num_syms & ~7ull) - n8;
	uint64_t after = align8(s->token_index + INDEX_SIZE);
	uint64_t rb_after = align8(after + n4);
	size_t nr = 0;

	if (base_plausible(s, rb)) {
		/* offsets ALGN'd: 4 bytes of padding when num is odd */
		c[nr].offsets = rb - n4;
		c[nr++].relative_base = rb;
		c[nr].offsets = rb - n4 - 4;
		c[nr++].relative_base = rb;
	}
	if (addresses_plausible(s, abs))
		c[nr++].addresses = abs;
	if (base_plausible(s, rb_after)) {
		c[nr].offsets = after;
		c[nr++].relative_base = rb_after;
	}
	if (addresses_plausible(s, after))
		c[nr++].addresses = after;
	/* 7.0 on: offsets from their own place, no relative_base */
	c[nr++].offsets = after;
	return nr;
}

/* Every symbol VMCOREINFO and the tables both name is at one address. */
static int agree(const struct ks_kallsyms_mem *ks, const struct ks_vmcoreinfo *vi,
		 const struct scan *s, const struct ks_reporter *rep)
{
	for (size_t i = 0; i < sizeof(checked) / sizeof(checked[0]); i++) {
		uint64_t want = ks_vmcoreinfo_symbol(vi, checked[i]), have;

		if (!want || ks_kallsyms_mem_addr(ks, checked[i], &have) ||
		    have == want)
			continue;
		ks_say(rep, KS_WARN, "the kallsyms tables found at %#" PRIx64
		       " put %s at %#" PRIx64 ", VMCOREINFO at %#" PRIx64
		       ": refused", s->token_table, checked[i], have, want);
		return -EINVAL;
	}
	return 0;
}

/* The tables around one token index, decoded and checked. */
static int tables_at(struct scan *s, const struct ks_vmcoreinfo *vi,
		     const struct ks_reporter *rep,
		     struct ks_kallsyms_mem **ks_ret)
{
	struct ks_kallsyms_mem_addrs c[6] = { { 0 } };
	size_t nr;
	int ret = find_token_table(s);

	if (!ret && ++s->sc->tried > TRIES_MAX)
		return -E2BIG;
	if (!ret)
		ret = find_markers_names(s);
	if (ret)
		return ret;
	nr = address_candidates(s, c);
	ret = -ENOENT;
	for (size_t i = 0; i < nr && ret != -ENOMEM; i++) {
		c[i].names = s->names;
		c[i].num_syms = s->num_syms;
		c[i].token_table = s->token_table;
		c[i].token_index = s->token_index;
		c[i].stext = s->stext;
		ret = ks_kallsyms_mem_load(s->t, &c[i], ks_ret);
		if (!ret) {
			s->sc->a = c[i];
			break;
		}
	}
	if (ret && ret != -ENOMEM) {
		ks_say(rep, KS_WARN, "the kallsyms tables found at %#" PRIx64
		       " (%" PRIu32 " symbols) have no address table that "
		       "puts _stext at VMCOREINFO's %#" PRIx64 ": refused",
		       s->token_table, s->num, s->stext);
		return -EINVAL;
	}
	if (!ret && agree(*ks_ret, vi, s, rep)) {
		ks_kallsyms_mem_free(*ks_ret);
		*ks_ret = NULL;
		return -EINVAL;
	}
	return ret;
}

/* Every token index in one chunk, the highest first. */
static int scan_chunk(struct scan *s, uint64_t at, size_t len,
		      const struct ks_vmcoreinfo *vi,
		      const struct ks_reporter *rep,
		      struct ks_kallsyms_mem **ks_ret)
{
	int ret;

	if (!read_zeroed(s->t, at, s->chunk, len))
		return -ENOENT;
	for (size_t p = ((len - INDEX_SIZE) & ~(size_t)1) + 2; p >= 2;) {
		p -= 2;
		if (p >= CHUNK || !index_shape(s->chunk + p, s->idx))
			continue;
		s->token_index = at + p;
		ret = tables_at(s, vi, rep, ks_ret);
		if (ret != -ENOENT)
			return ret;
	}
	return -ENOENT;
}

int ks_kallsyms_scan(const struct ks_target *t, const struct ks_vmcoreinfo *vi,
		     const struct ks_reporter *rep,
		     struct ks_kallsyms_mem **ks_ret,
		     struct ks_kallsyms_scan *sc_ret)
{
	struct scan *s;
	uint64_t at;
	int ret = -ENOENT;

	memset(sc_ret, 0, sizeof(*sc_ret));
	/*
	 * Every kernel lists init_uts_ns and swapper_pg_dir: a VMCOREINFO
	 * without either bounds no image, and searching 256 MiB on a guess
	 * cost a forged dump 80 ms of failed reads (fuzz_dump_open).
	 */
	find_region(vi, sc_ret);
	if (!sc_ret->start || sc_ret->end < sc_ret->start + INDEX_SIZE)
		return -ENOENT;
	/*
	 * A dump without the kernel's first page of text lacks the image:
	 * searching up to 256 MiB of pages it does not have would find
	 * nothing, slowly (a cut dump, fuzz_dump_open's inputs).
	 */
	if (ks_read(t, sc_ret->start, &(uint8_t){ 0 }, 1))
		return -ENOENT;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->t = t;
	s->sc = sc_ret;
	s->stext = sc_ret->start;
	/* from the end: the tables are at the end of .rodata, not in .text */
	at = sc_ret->start + (sc_ret->end - sc_ret->start - 1) / CHUNK * CHUNK;
	for (;; at -= CHUNK) {
		size_t len = sc_ret->end - at < CHUNK + INDEX_SIZE ?
			     sc_ret->end - at : CHUNK + INDEX_SIZE;

		if (len >= INDEX_SIZE)
			ret = scan_chunk(s, at, len, vi, rep, ks_ret);
		if (ret != -ENOENT || at == sc_ret->start)
			break;
	}
	free(s);
	if (ret != -E2BIG)
		return ret;
	ks_say(rep, KS_WARN, "more than %d places from %#" PRIx64 " up look "
	       "like kallsyms_token_table, and none has the other kallsyms "
	       "tables around it: the scan stops there", TRIES_MAX, at);
	return -ENOENT;
}
