// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * A kdump-compressed dump's header, sub-header, notes, bitmaps and page
 * descriptors, checked before libkdumpfile sees them.  libkdumpfile
 * 0.5.1 trusts them, and fails badly:
 *
 *  - when its diskdump open fails at all (an 8-byte "KDUMP   " file, a
 *    header cut short, a block size out of its range), it has freed its
 *    private data but left it hooked to the page size attribute, and
 *    kdump_free() reads it (SIGSEGV in the release build, not under
 *    ASan).  So everything that makes that open fail is checked here;
 *  - a compressed page's descriptor size is copied into a buffer of the
 *    block size (a heap overflow: SIGSEGV at 65536, silent at 4097);
 *  - notes past the end of a file it maps are SIGBUS.
 *
 * The layout is makedumpfile's (diskdump_mod.h) for a 64-bit
 * little-endian kernel, the one kstack reads, at the offsets
 * libkdumpfile's diskdump.c reads.  A dump cut short is measured for the
 * caller: its header, sub-header, notes and bitmaps must be whole, the
 * pages whose descriptor or data is past the end are missing.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "arch.h"
#include "diskdump_header.h"
#include "dump_header.h"

/* struct disk_dump_header of a 64-bit kernel, without its tasks[] */
#define DH_SIZE			464
#define DH_VERSION		8
#define DH_MACHINE		(12 + 4 * UTS_LEN)	/* utsname.machine */
#define UTS_LEN			65
#define DH_BLOCK_SIZE		428
#define DH_SUB_HDR_SIZE		432
#define DH_BITMAP_BLOCKS	436
#define DH_MAX_MAPNR		440
/* the same fields where a 32-bit kernel's header has them */
#define DH32_BLOCK_SIZE		416
#define DH32_BITMAP_BLOCKS	424
#define DH32_MAX_MAPNR		428

/* struct kdump_sub_header of a 64-bit kernel, at block_size */
#define SH_SIZE			104
#define SH_SPLIT		12
#define SH_START_PFN		16
#define SH_END_PFN		24
#define SH_VMCOREINFO		32	/* offset, then size */
#define SH_NOTE			48
#define SH_ERASEINFO		64
#define SH_START_PFN_64		80
#define SH_END_PFN_64		88
#define SH_MAX_MAPNR_64		96

#define PD_SIZE			24	/* struct page_desc */
#define MIN_BLOCK		4096u	/* libkdumpfile's MIN_PAGE_SIZE */
#define MAX_BLOCK		(256u << 10)	/* and MAX_PAGE_SIZE */
#define MAX_NOTES_SIZE		(64u << 20)	/* as dump_header.c allows */
#define SCAN_DESCS		2730	/* page descriptors a read: 64 KiB */
#define SCAN_BITMAP		65536	/* bitmap bytes a read */

/* Who is told of a refusal, and of which file. */
struct who {
	const char *path;
	const struct ks_reporter *rep;
};

/* Where libkdumpfile finds the pages, as its read_bitmap() finds them. */
struct layout {
	uint64_t size;			/* the file's */
	const struct ks_arch *arch;	/* of utsname.machine */
	uint32_t block_size;
	int32_t version;
	uint64_t max_pfn;		/* max_mapnr, or max_mapnr_64 */
	uint32_t bitmap_blocks;
	uint64_t bitmap_off;		/* the dumpable bitmap */
	uint64_t desc_off;		/* page descriptor 0 */
	uint64_t start_pfn, end_pfn;	/* the bits libkdumpfile reads */
	bool split;
};

#define refuse(w, ...) ks_dump_refuse((w)->path, (w)->rep, __VA_ARGS__)

static bool read_at(int fd, uint64_t off, void *buf, size_t len)
{
	return pread(fd, buf, len, (off_t)off) == (ssize_t)len;
}

static uint32_t get32(const uint8_t *p)
{
	uint32_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

static uint64_t get64(const uint8_t *p)
{
	uint64_t v;

	memcpy(&v, p, sizeof(v));
	return v;
}

/* [off, off + len) inside the file's size bytes, without wrapping? */
static bool inside(uint64_t off, uint64_t len, uint64_t size)
{
	return off <= size && len <= size - off;
}

/* libkdumpfile's try_header(): a block size it takes, bitmaps to cover max_mapnr */
static bool lkdf_takes(uint32_t block_size, uint32_t bitmap_blocks,
		       uint32_t max_mapnr)
{
	int32_t bs = (int32_t)block_size;

	if (bs < (int32_t)MIN_BLOCK || bs > (int32_t)MAX_BLOCK ||
	    (block_size & (block_size - 1)))
		return false;
	return 8ull * bitmap_blocks * block_size >= max_mapnr;
}

/*
 * libkdumpfile tries the header as a 32-bit kernel's first, both byte
 * orders: one it takes so is read with 4-byte pointers, not kstack's.
 */
static int check_not_32bit(const uint8_t *h, const struct who *w)
{
	uint32_t bs = get32(h + DH32_BLOCK_SIZE);
	uint32_t bb = get32(h + DH32_BITMAP_BLOCKS);
	uint32_t nr = get32(h + DH32_MAX_MAPNR);

	if (!lkdf_takes(bs, bb, nr) &&
	    !lkdf_takes(__builtin_bswap32(bs), __builtin_bswap32(bb),
			__builtin_bswap32(nr)))
		return 0;
	return refuse(w, "the header reads as a 32-bit kernel's (block_size "
		      "%#" PRIx32 " at offset %d), which libkdumpfile takes "
		      "first: kstack reads dumps of 64-bit kernels", bs,
		      DH32_BLOCK_SIZE);
}

/* The header block: sizes libkdumpfile takes, the bitmaps inside the file. */
static int check_header(const uint8_t *h, struct layout *l, const struct who *w)
{
	char machine[UTS_LEN + 1];
	int32_t shs = (int32_t)get32(h + DH_SUB_HDR_SIZE);
	uint32_t bb = get32(h + DH_BITMAP_BLOCKS);
	uint32_t nr = get32(h + DH_MAX_MAPNR);
	uint64_t bitmaps;

	l->block_size = get32(h + DH_BLOCK_SIZE);
	l->version = (int32_t)get32(h + DH_VERSION);
	l->max_pfn = nr;
	if (!lkdf_takes(l->block_size, 0, 0))
		return refuse(w, "block_size is %" PRId32 ", not a power of two "
			      "from %u to %u (the page sizes libkdumpfile reads)",
			      (int32_t)l->block_size, MIN_BLOCK, MAX_BLOCK);
	if (!lkdf_takes(l->block_size, bb, nr))
		return refuse(w, "max_mapnr %" PRIu32 " is more than the %"
			      PRIu64 " pages bitmap_blocks %" PRIu32 " covers",
			      nr, (uint64_t)8 * bb * l->block_size, bb);
	if (l->version < 0)
		return refuse(w, "header_version is %" PRId32 ", negative",
			      l->version);
	memcpy(machine, h + DH_MACHINE, UTS_LEN);
	machine[UTS_LEN] = '\0';
	if (ks_arch_resolve(machine, 0, &l->arch, NULL))
		return refuse(w, "utsname.machine is \"%.16s\", not an "
			      "architecture kstack reads (x86_64, aarch64)",
			      machine);
	/* libkdumpfile takes sub_hdr_size and bitmap_blocks as int32_t */
	if (shs < 0 || (int32_t)bb < 0)
		return refuse(w, "sub_hdr_size %" PRId32 " or bitmap_blocks %"
			      PRIu32 " is negative as libkdumpfile reads it",
			      shs, bb);
	bitmaps = (uint64_t)bb * l->block_size;
	l->bitmap_off = (1 + (uint64_t)shs) * l->block_size;
	l->bitmap_blocks = bb;
	l->desc_off = l->bitmap_off + bitmaps;
	return 0;
}

/* A region the sub-header names: inside the file, read whole, or NULL. */
static uint8_t *read_region(int fd, const struct layout *l, uint64_t off,
			    uint64_t len, const char *name, const struct who *w)
{
	uint8_t *buf;

	if (!inside(off, len, l->size)) {
		refuse(w, "it is cut at %" PRIu64 " bytes, before the end of "
		       "its %s (offset_%s %#" PRIx64 " + size_%s %#" PRIx64
		       "), or its sub-header is damaged", l->size, name, name,
		       off, name, len);
		return NULL;
	}
	if (len > MAX_NOTES_SIZE) {
		refuse(w, "size_%s %#" PRIx64 " is more than %u MiB", name, len,
		       MAX_NOTES_SIZE >> 20);
		return NULL;
	}
	buf = malloc(len ? len : 1);
	if (!buf) {
		ks_say(w->rep, KS_WARN, "out of memory");
		return NULL;
	}
	if (!read_at(fd, off, buf, len)) {
		refuse(w, "cannot read its %s (%#" PRIx64 " bytes at %#" PRIx64
		       ")", name, len, off);
		free(buf);
		return NULL;
	}
	return buf;
}

/*
 * Each PRSTATUS note, as libkdumpfile's do_notes() walks them: one must
 * hold the architecture's struct elf_prstatus (the arch table's
 * prstatus_size, of utsname.machine's architecture) at least, since a
 * shorter one fails libkdumpfile's open ("Wrong PRSTATUS size"), and a
 * failed diskdump open is a use after free in kdump_free().
 */
static int check_prstatus(const uint8_t *buf, uint64_t len,
			  const struct layout *l, const struct who *w)
{
	uint64_t off = 0;

	while (len - off >= 12) {
		uint32_t namesz = get32(buf + off), descsz = get32(buf + off + 4);
		uint64_t desc = off + 12 + (((uint64_t)namesz + 3) & ~3ull);

		if (desc > len || len - desc < descsz)
			break;
		if (get32(buf + off + 8) == 1 && (namesz == 4 || namesz == 5) &&
		    !memcmp(buf + off + 12, "CORE", namesz) &&
		    descsz < l->arch->prstatus_size)
			return refuse(w, "the notes (offset_note): the PRSTATUS "
				      "note at offset %#" PRIx64 " has %" PRIu32
				      " bytes, not the %" PRIu32 " of %s's",
				      off, descsz, l->arch->prstatus_size,
				      l->arch->name);
		off = desc + ((descsz + 3ull) & ~3ull);
		if (off > len)
			break;
	}
	return 0;
}

/*
 * The notes (header_version 4 on) or else the VMCOREINFO (3), which
 * libkdumpfile reads while it opens: as dump_header.c checks an ELF
 * dump's, PAGESIZE the block size (libkdumpfile reads the pages in it).
 */
static int check_notes(int fd, const uint8_t *sh, const struct layout *l,
		       const struct who *w)
{
	bool notes = l->version >= 4;
	uint64_t off = get64(sh + (notes ? SH_NOTE : SH_VMCOREINFO));
	uint64_t len = get64(sh + (notes ? SH_NOTE : SH_VMCOREINFO) + 8);
	uint8_t *buf;
	int ret;

	if (l->version < 3 || !len)
		return 0;
	buf = read_region(fd, l, off, len, notes ? "note" : "vmcoreinfo", w);
	if (!buf)
		return -EINVAL;
	if (notes) {
		ret = ks_dump_notes_check(buf, len, "the notes (offset_note)",
					  l->block_size, w->path, w->rep);
		if (!ret)
			ret = check_prstatus(buf, len, l, w);
	} else
		ret = ks_dump_vmcoreinfo_check((const char *)buf, len,
					       l->block_size, w->path,
					       w->rep);
	free(buf);
	return ret;
}

/* What else the sub-header names: the end the file should reach. */
static int note_extents(const uint8_t *sh, const struct layout *l,
			struct ks_diskdump_extent *ext, const struct who *w)
{
	static const struct {
		int at, version;
		const char *name;
	} regions[] = {
		{ SH_VMCOREINFO, 3, "vmcoreinfo" },
		{ SH_NOTE, 4, "note" },
		{ SH_ERASEINFO, 5, "eraseinfo" },
	};

	for (size_t i = 0; i < sizeof(regions) / sizeof(regions[0]); i++) {
		uint64_t off = get64(sh + regions[i].at);
		uint64_t len = get64(sh + regions[i].at + 8);

		if (l->version < regions[i].version || !len)
			continue;
		if (off + len < off)
			return refuse(w, "offset_%s %#" PRIx64 " + size_%s %#"
				      PRIx64 " wraps", regions[i].name, off,
				      regions[i].name, len);
		if (off + len > ext->want_size)
			ext->want_size = off + len;
	}
	return 0;
}

/* The sub-header: its notes, the pages of a split dump, max_mapnr_64. */
static int check_sub_header(int fd, struct layout *l,
			    struct ks_diskdump_extent *ext, const struct who *w)
{
	uint8_t sh[SH_SIZE];
	int ret;

	/* libkdumpfile reads no sub-header, and so no page, before version 1 */
	l->start_pfn = l->end_pfn = 0;
	if (l->version < 1)
		return 0;
	if (!inside(l->block_size, sizeof(sh), l->size) ||
	    !read_at(fd, l->block_size, sh, sizeof(sh)))
		return refuse(w, "it is cut at %" PRIu64 " bytes, before the "
			      "end of its sub-header (%zu bytes at block_size %"
			      PRIu32 ")", l->size, sizeof(sh), l->block_size);
	ret = note_extents(sh, l, ext, w);
	if (!ret)
		ret = check_notes(fd, sh, l, w);
	if (ret)
		return ret;
	l->split = l->version >= 2 && get32(sh + SH_SPLIT);
	if (l->split) {
		bool v6 = l->version >= 6;

		l->start_pfn = get64(sh + (v6 ? SH_START_PFN_64 : SH_START_PFN));
		l->end_pfn = get64(sh + (v6 ? SH_END_PFN_64 : SH_END_PFN));
	} else {
		l->end_pfn = UINT64_MAX;
	}
	if (l->version >= 6)
		l->max_pfn = get64(sh + SH_MAX_MAPNR_64);
	return 0;
}

/*
 * The bitmaps, which libkdumpfile reads whole: inside the file.  They
 * hold two halves when max_mapnr (or max_mapnr_64) fits in one: the
 * second is the dumpable one.  No bit past it is read.
 */
static int place_bitmap(struct layout *l, const struct who *w)
{
	uint64_t pfns = (uint64_t)l->bitmap_blocks * l->block_size * 8;

	if (!inside(l->bitmap_off, l->desc_off - l->bitmap_off, l->size))
		return refuse(w, "it is cut at %" PRIu64 " bytes, before the "
			      "end of its bitmaps (%" PRIu32 " blocks of %" PRIu32
			      " bytes at %#" PRIx64 ", after sub_hdr_size), or "
			      "bitmap_blocks is damaged", l->size,
			      l->bitmap_blocks, l->block_size, l->bitmap_off);

	if (l->max_pfn <= pfns / 2) {
		uint64_t half = (uint64_t)(l->bitmap_blocks / 2) * l->block_size;

		l->bitmap_off += half;
		pfns = half * 8;
	}
	if (l->end_pfn > pfns)
		l->end_pfn = pfns;
	return 0;
}

/* Buffered, sequential reads of the page descriptors. */
struct descs {
	int fd;
	uint64_t first, n;		/* the descriptors in buf */
	uint8_t buf[SCAN_DESCS * PD_SIZE];
};

/* Descriptor idx (at off, inside the file) into pd: false if unreadable. */
static bool get_desc(struct descs *d, const struct layout *l, uint64_t idx,
		     uint8_t pd[PD_SIZE])
{
	if (idx < d->first || idx >= d->first + d->n) {
		uint64_t left = (l->size - (l->desc_off + idx * PD_SIZE)) / PD_SIZE;

		d->first = idx;
		d->n = left < SCAN_DESCS ? left : SCAN_DESCS;
		if (!read_at(d->fd, l->desc_off + idx * PD_SIZE, d->buf,
			     d->n * PD_SIZE)) {
			d->n = 0;
			return false;
		}
	}
	memcpy(pd, d->buf + (idx - d->first) * PD_SIZE, PD_SIZE);
	return true;
}

/* A page whose descriptor or data ends at end: missing if past the file's. */
static void page_end(struct ks_diskdump_extent *ext, const struct layout *l,
		     uint64_t pfn, uint64_t end)
{
	uint64_t pa = pfn * l->block_size;

	if (end > ext->want_size)
		ext->want_size = end;
	if (end <= l->size)
		return;
	if (ext->missing_start == ext->missing_end)
		ext->missing_start = pa;
	ext->missing_end = pa + l->block_size;
}

/*
 * The descriptor of pfn, the idx-th set bit: its size no more than the
 * block size (the buffer libkdumpfile copies it into), its data inside
 * the file or the page missing.
 */
static int check_desc(struct descs *d, const struct layout *l, uint64_t idx,
		      uint64_t pfn, struct ks_diskdump_extent *ext,
		      const struct who *w)
{
	uint64_t at = l->desc_off + idx * PD_SIZE, off;
	uint8_t pd[PD_SIZE];
	uint32_t size;

	if (!inside(at, PD_SIZE, l->size)) {
		page_end(ext, l, pfn, at + PD_SIZE);
		ext->want_at_least = true;
		return 0;
	}
	if (!get_desc(d, l, idx, pd))
		return refuse(w, "cannot read page descriptor %" PRIu64
			      " at %#" PRIx64, idx, at);
	off = get64(pd);
	size = get32(pd + 8);
	if (size > l->block_size)
		return refuse(w, "page descriptor %" PRIu64 " (pfn %#" PRIx64
			      ", at %#" PRIx64 "): size %" PRIu32 " is more "
			      "than block_size %" PRIu32, idx, pfn, at, size,
			      l->block_size);
	if (off > (uint64_t)INT64_MAX - size)
		return refuse(w, "page descriptor %" PRIu64 " (pfn %#" PRIx64
			      ", at %#" PRIx64 "): offset %#" PRIx64 " is past "
			      "any file", idx, pfn, at, off);
	page_end(ext, l, pfn, off + size);
	return 0;
}

/* Each set bit of the dumpable bitmap in [start_pfn, end_pfn): its descriptor. */
static int scan_pages(int fd, const struct layout *l,
		      struct ks_diskdump_extent *ext, const struct who *w)
{
	uint64_t end = l->end_pfn, idx = 0, pfn = l->start_pfn;
	uint8_t *bm = malloc(SCAN_BITMAP);
	struct descs *d = malloc(sizeof(*d));
	int ret = 0;

	if (!bm || !d) {
		ks_say(w->rep, KS_WARN, "out of memory");
		ret = -ENOMEM;
		goto out;
	}
	*d = (struct descs){ .fd = fd };
	while (!ret && pfn < end) {
		uint64_t byte = pfn / 8, chunk = (end + 7) / 8 - byte;

		if (chunk > SCAN_BITMAP)
			chunk = SCAN_BITMAP;
		if (!read_at(fd, l->bitmap_off + byte, bm, chunk)) {
			ret = refuse(w, "cannot read the bitmap at %#" PRIx64,
				     l->bitmap_off + byte);
			break;
		}
		for (; !ret && pfn < end && pfn / 8 - byte < chunk; pfn++) {
			uint8_t bits = bm[pfn / 8 - byte];

			if (!bits && !(pfn % 8))
				pfn += 7;	/* a byte of holes */
			else if (bits & (1u << (pfn % 8)))
				ret = check_desc(d, l, idx++, pfn, ext, w);
		}
	}
	if (!ret && l->desc_off + idx * PD_SIZE > ext->want_size)
		ext->want_size = l->desc_off + idx * PD_SIZE;
out:
	free(d);
	free(bm);
	return ret;
}

int ks_diskdump_header_check(int fd, uint64_t size, const char *path,
			     const struct ks_reporter *rep,
			     struct ks_diskdump_extent *ext)
{
	struct who who = { path, rep };
	const struct who *w = &who;
	struct layout l = { .size = size };
	uint8_t h[DH_SIZE];
	int ret;

	*ext = (struct ks_diskdump_extent){ 0 };
	if (!read_at(fd, 0, h, 8) ||
	    (memcmp(h, "KDUMP   ", 8) && memcmp(h, "DISKDUMP", 8)))
		return 0;
	ext->diskdump = true;
	if (size < sizeof(h) || !read_at(fd, 0, h, sizeof(h)))
		return refuse(w, "the diskdump header is cut short: the file "
			      "has %" PRIu64 " of its %zu bytes", size,
			      sizeof(h));
	ret = check_not_32bit(h, w);
	if (!ret)
		ret = check_header(h, &l, w);
	if (!ret)
		ret = check_sub_header(fd, &l, ext, w);
	if (!ret)
		ret = place_bitmap(&l, w);
	if (ret)
		return ret;
	if (l.desc_off > ext->want_size)
		ext->want_size = l.desc_off;
	return scan_pages(fd, &l, ext, w);
}
