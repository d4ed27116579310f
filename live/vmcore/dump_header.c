// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * An ELF dump's headers and VMCOREINFO numbers, checked before
 * libkdumpfile sees them.  libkdumpfile 0.5 trusts them: e_phentsize 0
 * makes kdump_open_fdset() walk a NULL table (SIGSEGV), a PAGESIZE of 0
 * passes its power-of-two test and is divided by (SIGFPE), e_phnum
 * PN_XNUM is read as 65535 headers and the dump then "has no
 * VMCOREINFO".  Each check names the field; a file that is no ELF file
 * is left to diskdump_header.c (a kdump-compressed dump) or libkdumpfile.
 * The headers are read, and the ELF64 core checked, by elf_core.c, the
 * one reader of a core file's headers; what is here is what libkdumpfile
 * makes of them.
 */
#include <elf.h>
#include <errno.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "dump_header.h"
#include "elf_core.h"

#define MAX_NOTES_SIZE	(64u << 20)	/* 8192 CPUs' notes take about 3 MiB */
#define NOTE_ALIGN(n)	(((uint64_t)(n) + 3) & ~3ull)

/* Who is told of a refusal, and of which file. */
struct who {
	const char *path;
	const struct ks_reporter *rep;
	const struct ks_arch *arch;	/* of e_machine, once it is checked */
	uint64_t page_size;	/* the one PAGESIZE allowed, or 0: arch's */
};

#define refuse(w, ...) ks_dump_refuse((w)->path, (w)->rep, __VA_ARGS__)

/* What libkdumpfile's init_elf64() counts: program and section headers. */
struct counts {
	uint64_t phnum, shnum;
};

/*
 * With e_phnum PN_XNUM or e_shnum 0, libkdumpfile (init_elf64(), as the
 * kernel's elf_core_write_extra_phdrs() writes it) takes the counts from
 * section header 0: sh_info and sh_size.  It reads e_shentsize bytes
 * there, whatever that is.
 */
static int section0_counts(int fd, const Elf64_Ehdr *eh, uint64_t size,
			   struct counts *c, const struct who *w)
{
	Elf64_Shdr sh;

	if (eh->e_phnum == PN_XNUM && !eh->e_shoff)
		return refuse(w, "e_phnum is PN_XNUM (0xffff) and "
			      "e_shoff is 0: no section header 0 holds the "
			      "program header count");
	if (!eh->e_shoff || (eh->e_shnum && eh->e_phnum != PN_XNUM))
		return 0;
	/* ks_elf_core_shdr() refuses an e_shentsize that is not sizeof(sh) */
	if (size < sizeof(sh) || eh->e_shoff > size - sizeof(sh) ||
	    ks_elf_core_shdr(fd, eh, 0, &sh))
		return refuse(w, "section header 0 (e_shoff %#" PRIx64
			      ", e_shentsize %u) is not a %zu-byte header "
			      "inside the file's %" PRIu64 " bytes",
			      (uint64_t)eh->e_shoff, eh->e_shentsize,
			      sizeof(sh), size);
	if (!eh->e_shnum)
		c->shnum = sh.sh_size;
	if (eh->e_phnum == PN_XNUM && !c->shnum)
		return refuse(w, "e_phnum is PN_XNUM (0xffff) and "
			      "there are no section headers to hold the count");
	if (eh->e_phnum == PN_XNUM)
		c->phnum = sh.sh_info;
	if (eh->e_phnum == PN_XNUM && !c->phnum)
		return refuse(w, "e_phnum is PN_XNUM (0xffff) and "
			      "section header 0's sh_info is 0: the dump has "
			      "no program headers");
	return 0;
}

/* A table of n entries of entsize bytes at off, inside the file? */
static bool table_inside(uint64_t off, uint64_t n, uint64_t entsize,
			 uint64_t size)
{
	return off <= size && n <= (size - off) / entsize;
}

static int check_ehdr(int fd, const Elf64_Ehdr *eh, uint64_t size,
		      struct counts *c, const struct who *w)
{
	/* the first field elf_core.c finds wrong, e_machine before e_phentsize */
	enum ks_elf_core_bad bad = ks_elf_core_check(eh);
	int ret;

	if (bad == KS_ELF_CORE_BAD_CLASS)
		return refuse(w, "e_ident says class %u, data %u: not "
			      "a little-endian ELF64 dump",
			      eh->e_ident[EI_CLASS], eh->e_ident[EI_DATA]);
	if (bad == KS_ELF_CORE_BAD_TYPE)
		return refuse(w, "e_type is %u, not ET_CORE (4): not a "
			      "dump", eh->e_type);
	if (!w->arch)
		return refuse(w, "e_machine is %u, not an architecture "
			      "kstack reads (EM_X86_64 62, EM_AARCH64 183)",
			      eh->e_machine);
	if (bad == KS_ELF_CORE_BAD_PHENTSIZE)
		return refuse(w, "e_phentsize is %u, not %zu (the size "
			      "of an ELF64 program header)", eh->e_phentsize,
			      sizeof(Elf64_Phdr));
	*c = (struct counts){ eh->e_phnum, eh->e_shnum };
	ret = section0_counts(fd, eh, size, c, w);
	if (ret)
		return ret;
	if (!c->phnum)
		return refuse(w, "e_phnum is 0: the dump has no program "
			      "headers, so no notes and no memory");
	if (eh->e_phoff < sizeof(*eh) ||
	    !table_inside(eh->e_phoff, c->phnum, sizeof(Elf64_Phdr), size))
		return refuse(w, "e_phoff %#" PRIx64 ": the %" PRIu64
			      " program headers are not inside the file's %"
			      PRIu64 " bytes", (uint64_t)eh->e_phoff, c->phnum,
			      size);
	if (c->shnum && (eh->e_shentsize != sizeof(Elf64_Shdr) ||
			 !table_inside(eh->e_shoff, c->shnum,
				       sizeof(Elf64_Shdr), size)))
		return refuse(w, "e_shoff %#" PRIx64 ", e_shentsize %u:"
			      " the %" PRIu64 " section headers are not %zu-byte"
			      " headers inside the file's %" PRIu64 " bytes",
			      (uint64_t)eh->e_shoff, eh->e_shentsize, c->shnum,
			      sizeof(Elf64_Shdr), size);
	return 0;
}

/*
 * libkdumpfile reads the string table whole (a malloc of its sh_size)
 * and Xen's sections, whatever their sh_type says: no section may be
 * bigger than the file, but section 0 when it holds the count (e_shnum
 * 0).  One past the end is a dump cut short (QEMU writes its string
 * table last): the truncation check says so.
 */
static int check_sections(int fd, const Elf64_Ehdr *eh, uint64_t shnum,
			  uint64_t size, const struct who *w)
{
	Elf64_Shdr sh;

	for (uint64_t i = 0; i < shnum; i++) {
		if (ks_elf_core_shdr(fd, eh, i, &sh))
			return refuse(w, "section header %" PRIu64
				      " cannot be read", i);
		if (!i && !eh->e_shnum)
			continue;
		if (sh.sh_size > size ||
		    sh.sh_offset + sh.sh_size < sh.sh_offset)
			return refuse(w, "section header %" PRIu64 ": "
				      "sh_size %#" PRIx64 " at sh_offset %#"
				      PRIx64 " is more than the file's %" PRIu64
				      " bytes", i, (uint64_t)sh.sh_size,
				      (uint64_t)sh.sh_offset, size);
	}
	return 0;
}

/* A segment that wraps the 64-bit space cannot be a range of memory. */
static int check_phdr(uint64_t i, const Elf64_Phdr *ph, const struct who *w)
{
	if (ph->p_offset + ph->p_filesz < ph->p_offset)
		return refuse(w, "program header %" PRIu64 ": p_offset %#" PRIx64
			      " + p_filesz %#" PRIx64 " wraps", i,
			      (uint64_t)ph->p_offset, (uint64_t)ph->p_filesz);
	if (ph->p_type != PT_LOAD)
		return 0;
	if (ph->p_paddr + ph->p_memsz < ph->p_paddr ||
	    ph->p_vaddr + ph->p_memsz < ph->p_vaddr)
		return refuse(w, "program header %" PRIu64 ": p_paddr %#" PRIx64
			      " or p_vaddr %#" PRIx64 " + p_memsz %#" PRIx64
			      " wraps", i, (uint64_t)ph->p_paddr,
			      (uint64_t)ph->p_vaddr, (uint64_t)ph->p_memsz);
	if (ph->p_filesz > ph->p_memsz)
		return refuse(w, "program header %" PRIu64 ": p_filesz %#" PRIx64
			      " is more than p_memsz %#" PRIx64, i,
			      (uint64_t)ph->p_filesz, (uint64_t)ph->p_memsz);
	return 0;
}

/*
 * VMCOREINFO's PAGESIZE as libkdumpfile reads it (vmcoreinfo.c
 * lines_post_hook(): strtoul base 10, ignored unless it is all digits,
 * an empty value counts as 0), one of the sizes the architecture's
 * kernels are built with.
 */
static int check_page_size(const char *val, size_t vlen, const struct who *w)
{
	char buf[32], *end;
	unsigned long pg;

	if (vlen >= sizeof(buf))
		return 0;		/* longer than any number: ignored */
	memcpy(buf, val, vlen);
	buf[vlen] = '\0';
	pg = strtoul(buf, &end, 10);
	if (*end)
		return 0;
	if (w->page_size && pg != w->page_size)
		return refuse(w, "VMCOREINFO's PAGESIZE is \"%s\", not the "
			      "dump's block_size %" PRIu64 ": libkdumpfile would "
			      "read the dump's pages with that size", buf,
			      w->page_size);
	if (w->page_size ||
	    (pg && !(pg & (pg - 1)) && (pg & w->arch->page_sizes)))
		return 0;
	return refuse(w, "VMCOREINFO's PAGESIZE is \"%s\", not a page "
		      "size of %s", buf, w->arch->name);
}

/*
 * libkdumpfile files each line under linux.vmcoreinfo.lines.KEY and
 * splits KEY at its dots (OFFSET(list_head.next) is two levels): a key
 * that starts with a dot (an empty level) crashed it (fuzz_dump_open).
 */
static int check_key(const char *line, size_t n, const struct who *w)
{
	const char *eq = memchr(line, '=', n);
	size_t klen = eq ? (size_t)(eq - line) : n;

	if (!n)
		return 0;
	if (klen && line[0] != '.' && line[klen - 1] != '.' &&
	    !memmem(line, klen, "..", 2))
		return 0;
	return refuse(w, "VMCOREINFO has the line \"%.*s\": a key "
		      "that is empty or has an empty part between dots",
		      (int)(n < 64 ? n : 64), line);
}

/*
 * The VMCOREINFO note's text: key=value lines.  A line without '=' is a
 * key with an empty value to libkdumpfile (vmcoreinfo_raw_post_hook()):
 * a bare "PAGESIZE" line set a page size of 0 (SIGFPE, fuzz_dump_open).
 */
static int check_vmcoreinfo(const char *text, size_t tlen, const struct who *w)
{
	static const char key[] = "PAGESIZE";
	const char *p = text, *end = text + tlen;
	const char *nul = memchr(text, '\0', tlen);
	int ret = 0;

	/*
	 * The kernel writes one text and pads it with NULs.  Text after a
	 * NUL made libkdumpfile 0.5.1 read a string it had freed
	 * (kdump_open_fdset(), SIGSEGV under ASan: fuzz_dump_open).
	 */
	for (const char *q = nul; q && q < end; q++)
		if (*q)
			return refuse(w, "VMCOREINFO has text after a NUL byte "
				      "at offset %zu of its note: the kernel "
				      "writes one text, padded with NULs",
				      (size_t)(nul - text));

	/* every line, NULs or not: libkdumpfile splits the whole note */
	while (!ret && p < end) {
		const char *nl = memchr(p, '\n', (size_t)(end - p));
		const char *eol = nl ? nl : end;
		size_t n = strnlen(p, (size_t)(eol - p));
		const char *eq = memchr(p, '=', n);
		size_t klen = eq ? (size_t)(eq - p) : n;

		ret = check_key(p, n, w);
		if (!ret && klen == sizeof(key) - 1 && !memcmp(p, key, klen))
			ret = eq ? check_page_size(eq + 1, n - klen - 1, w) :
				   check_page_size(p + n, 0, w);
		p = eol + 1;
	}
	return ret;
}

/*
 * A note of that name as libkdumpfile matches it (notes.c note_equal()):
 * n_namesz is the name's length, its NUL counted or not.  A VMCOREINFO
 * note of n_namesz 10 was read by libkdumpfile and passed by this check,
 * and its empty key crashed libkdumpfile (SIGSEGV, fuzz_dump_open).
 */
static bool is_note(const uint8_t *name, uint32_t namesz, const char *want)
{
	size_t len = strlen(want);

	return (namesz == len || namesz == len + 1) && !memcmp(name, want, namesz);
}

/* The notes of one PT_NOTE segment (where): each inside it, VMCOREINFO checked. */
static int check_notes(const uint8_t *buf, uint64_t size, const char *where,
		       const struct who *w)
{
	uint64_t off = 0;

	while (size - off >= sizeof(Elf64_Nhdr)) {
		Elf64_Nhdr nh;
		uint64_t name, desc;

		memcpy(&nh, buf + off, sizeof(nh));
		name = off + sizeof(nh);
		desc = name + NOTE_ALIGN(nh.n_namesz);
		if (desc > size || size - desc < nh.n_descsz)
			return refuse(w, "%s: the note at offset %#" PRIx64
				      " (n_namesz %" PRIu32 ", n_descsz %" PRIu32
				      ") overruns the segment's %" PRIu64
				      " bytes", where, off, nh.n_namesz,
				      nh.n_descsz, size);
		if ((is_note(buf + name, nh.n_namesz, "VMCOREINFO") ||
		     is_note(buf + name, nh.n_namesz, "VMCOREINFO_XEN")) &&
		    check_vmcoreinfo((const char *)buf + desc, nh.n_descsz,
				     w))
			return -EINVAL;
		off = desc + NOTE_ALIGN(nh.n_descsz);
		if (off > size)
			break;
	}
	return 0;
}

static int check_note_segment(int fd, uint64_t i, const Elf64_Phdr *ph,
			      uint64_t size, const struct who *w)
{
	char where[48];
	uint8_t *buf;
	int ret;

	if (ph->p_offset > size || size - ph->p_offset < ph->p_filesz)
		return refuse(w, "program header %" PRIu64 " (PT_NOTE): p_offset "
			      "%#" PRIx64 " + p_filesz %#" PRIx64 " is past the "
			      "file's end (%" PRIu64 " bytes)", i,
			      (uint64_t)ph->p_offset, (uint64_t)ph->p_filesz,
			      size);
	if (ph->p_filesz > MAX_NOTES_SIZE)
		return refuse(w, "program header %" PRIu64 " (PT_NOTE): p_filesz "
			      "%#" PRIx64 " is more than %u MiB of notes", i,
			      (uint64_t)ph->p_filesz, MAX_NOTES_SIZE >> 20);
	buf = malloc(ph->p_filesz ? ph->p_filesz : 1);
	if (!buf) {
		ks_say(w->rep, KS_WARN, "out of memory");
		return -ENOMEM;
	}
	if (ks_elf_core_read_at(fd, ph->p_offset, buf, ph->p_filesz))
		ret = refuse(w, "program header %" PRIu64 " (PT_NOTE): cannot "
			     "read its notes", i);
	else {
		snprintf(where, sizeof(where), "program header %" PRIu64, i);
		ret = check_notes(buf, ph->p_filesz, where, w);
	}
	free(buf);
	return ret;
}

int ks_dump_header_check(int fd, uint64_t size, const char *path,
			 const struct ks_reporter *rep)
{
	struct who who = { path, rep, NULL, 0 };
	const struct who *w = &who;
	struct counts c = { 0, 0 };
	Elf64_Ehdr eh;
	Elf64_Phdr ph;
	int ret;

	if (ks_elf_core_read_at(fd, 0, eh.e_ident, SELFMAG) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG))
		return 0;
	if (size < sizeof(eh) || ks_elf_core_read_at(fd, 0, &eh, sizeof(eh)))
		return refuse(w, "the ELF header is cut short: the file "
			      "has %" PRIu64 " of its %zu bytes", size,
			      sizeof(eh));
	/* NULL for a machine kstack does not read: that check says so */
	ks_arch_resolve(NULL, eh.e_machine, &who.arch, NULL);
	ret = check_ehdr(fd, &eh, size, &c, w);
	if (!ret)
		ret = check_sections(fd, &eh, c.shnum, size, w);
	for (uint64_t i = 0; !ret && i < c.phnum; i++) {
		if (ks_elf_core_read_phdrs(fd, &eh, i, 1, &ph))
			return refuse(w, "program header %" PRIu64
				      " cannot be read", i);
		ret = check_phdr(i, &ph, w);
		if (!ret && ph.p_type == PT_NOTE)
			ret = check_note_segment(fd, i, &ph, size, w);
	}
	return ret;
}

int ks_dump_notes_check(const void *notes, uint64_t size, const char *where,
			uint64_t page_size, const char *path,
			const struct ks_reporter *rep)
{
	struct who who = { path, rep, NULL, page_size };

	return check_notes(notes, size, where, &who);
}

int ks_dump_vmcoreinfo_check(const char *text, size_t len, uint64_t page_size,
			     const char *path, const struct ks_reporter *rep)
{
	struct who who = { path, rep, NULL, page_size };

	return check_vmcoreinfo(text, len, &who);
}
