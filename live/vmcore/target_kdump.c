// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * --vmcore: the kernel image of a dump, read with libkdumpfile, behind
 * struct ks_target, so the shared walkers print what the crash extension
 * prints without crash.
 *
 * libkdumpfile gives memory (it translates kernel virtual addresses with
 * the page tables and KERNELOFFSET from the dump's VMCOREINFO), the
 * registers of each CPU's ELF note, the machine and the VMCOREINFO
 * lines; this file adds what a file cut short lacks.  The rest (symbols,
 * KASLR, types, paging and user memory, which note is which CPU's) is
 * the shared image opener's (image_open.c), as for /proc/kcore.  Every
 * libkdumpfile call is in this file, which the static build leaves out
 * (kdump_absent.c stands in there).  It prints nothing: what goes wrong
 * goes to the driver's reporter (kdump_run.c prints it), and the
 * open returns a code.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <libkdumpfile/addrxlat.h>
#include <libkdumpfile/kdumpfile.h>

#include "diskdump_header.h"
#include "dump_header.h"
#include "dump_prefetch.h"
#include "elf_core.h"
#include "image_open.h"
#include "lines.h"
#include "arch.h"
#include "page_walk.h"
#include "target_kdump.h"

#define MAX_MISSING	16		/* physical ranges a truncated dump lacks */
#define MAX_PHDRS	4096
#define KD_PAGE_SIZE	4096ull

struct phys_range {
	uint64_t start, end;		/* [start, end) */
};

struct ks_kdump {
	struct ks_image_opened io;	/* the image: image_open.c */
	struct ks_target mem;		/* the dump's memory alone: kdump_ops */
	kdump_ctx_t *kd;
	int fd;
	/*
	 * A truncated dump: libkdumpfile reads the part past the end of
	 * the file as zeros, which would pass for memory; reads there fail
	 * instead.
	 */
	uint64_t file_size, want_size;
	bool want_at_least;	/* want_size is a least (diskdump_header.h) */
	struct phys_range missing[MAX_MISSING];
	int nr_missing;
	addrxlat_ctx_t *axctx;
	addrxlat_sys_t *axsys;
	struct ks_dump_prefetch *prefetch;	/* an ELF dump's, or NULL */
	/* the last page kv_translate() translated; xlat_vpage 1: none */
	uint64_t xlat_vpage, xlat_ppage;
	const struct ks_reporter *rep;	/* the driver's, for every message */
};

/* A message for the driver, which prints it ("kstack: " and a newline). */
__attribute__((format(printf, 2, 3)))
static void say(const struct ks_kdump *kt, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	ks_vsay(kt->rep, KS_WARN, fmt, ap);
	va_end(ap);
}


static bool phys_missing(const struct ks_kdump *kt, uint64_t pa)
{
	for (int i = 0; i < kt->nr_missing; i++)
		if (pa >= kt->missing[i].start && pa < kt->missing[i].end)
			return true;
	return false;
}

/* Does [kaddr, kaddr + len) touch a page the truncated file lacks? */
static bool kv_missing(struct ks_kdump *kt, uint64_t kaddr, size_t len)
{
	uint64_t page = kaddr & ~(KD_PAGE_SIZE - 1), end = kaddr + len;

	if (!kt->nr_missing || !kt->axctx)
		return false;
	for (; page < end; page += KD_PAGE_SIZE) {
		addrxlat_fulladdr_t fa = { page, ADDRXLAT_KVADDR };

		if (addrxlat_fulladdr_conv(&fa, ADDRXLAT_KPHYSADDR, kt->axctx,
					   kt->axsys) != ADDRXLAT_OK)
			continue;	/* kdump_read() will fail on its own */
		if (phys_missing(kt, fa.addr))
			return true;
	}
	return false;
}

/*
 * The physical page of a kernel page, by the kernel's page tables
 * (addrxlat), the last one kept; each new one is told to the readers of
 * dump_prefetch.c, which fetch the file around where the walk is.
 */
static int kv_translate(struct ks_kdump *kt, uint64_t vpage, uint64_t *ppage)
{
	addrxlat_fulladdr_t fa = { vpage, ADDRXLAT_KVADDR };

	if (vpage == kt->xlat_vpage) {
		*ppage = kt->xlat_ppage;
		return 0;
	}
	if (!kt->axctx || addrxlat_fulladdr_conv(&fa, ADDRXLAT_KPHYSADDR,
						 kt->axctx, kt->axsys) != ADDRXLAT_OK)
		return -EFAULT;
	kt->xlat_vpage = vpage;
	kt->xlat_ppage = fa.addr;
	ks_dump_prefetch_note(kt->prefetch, fa.addr);
	*ppage = fa.addr;
	return 0;
}

/*
 * Kernel memory, page by page through kv_translate() and the physical
 * address, as crash reads it.  Not kdump_read(KDUMP_KVADDR): for an ELF
 * dump, libkdumpfile 0.5.1 first looks the address up in the program
 * headers' p_vaddr, searching them in p_paddr order (its seg_virt_cmp()
 * compares p_paddr), and takes the first one that ends past the address
 * and starts at most a page above it.  In QEMU's paging dumps, with one
 * header per mapped page, that is often the next page's header, and the
 * page reads as zeros: virtio_blk's module list links on many-drgn.
 * Where the page tables do not translate, libkdumpfile is left to try.
 */
static int kd_read(void *ctx, uint64_t kaddr, void *buf, size_t len)
{
	struct ks_kdump *kt = ctx;
	uint8_t *out = buf;

	if (kv_missing(kt, kaddr, len))
		return -EFAULT;
	while (len) {
		uint64_t off = kaddr & (KD_PAGE_SIZE - 1), ppage;
		size_t n = KD_PAGE_SIZE - off, got;
		kdump_status st;

		if (n > len)
			n = len;
		got = n;
		if (!kv_translate(kt, kaddr - off, &ppage))
			st = kdump_read(kt->kd, KDUMP_KPHYSADDR, ppage + off, out, &got);
		else
			st = kdump_read(kt->kd, KDUMP_KVADDR, kaddr, out, &got);
		if (st != KDUMP_OK || got != n)
			return -EFAULT;
		kaddr += n;
		out += n;
		len -= n;
	}
	return 0;
}

static int kd_read_phys(void *ctx, uint64_t paddr, void *buf, size_t len)
{
	struct ks_kdump *kt = ctx;
	size_t got = len;

	ks_dump_prefetch_note(kt->prefetch, paddr);
	if (phys_missing(kt, paddr) || phys_missing(kt, paddr + len - 1) ||
	    kdump_read(kt->kd, KDUMP_KPHYSADDR, paddr, buf, &got) != KDUMP_OK)
		return -EFAULT;
	return 0;
}

static const struct ks_target_ops kdump_ops;
static int kd_vmcoreinfo_line(void *arg, const char *key, char *buf, size_t len);

static int cpu_reg(struct ks_kdump *kt, int note, const char *reg,
		   uint64_t *val_ret)
{
	char key[64];
	kdump_num_t v;

	snprintf(key, sizeof(key), "cpu.%d.reg.%s", note, reg);
	if (kdump_get_number_attr(kt->kd, key, &v) != KDUMP_OK)
		return -ENOENT;
	*val_ret = v;
	return 0;
}

struct note_regs {
	struct ks_kdump *kt;
	int note;
};

static int note_reg(void *arg, const char *name, uint64_t *val_ret)
{
	struct note_regs *nr = arg;

	return cpu_reg(nr->kt, nr->note, name, val_ret);
}

/* The NT_PRSTATUS registers libkdumpfile names cpu.N.reg.*: the arch's names. */
static int kd_cpu_regs(void *ctx, int cpu, struct ks_regs *regs_ret)
{
	struct ks_kdump *kt = ctx;
	struct note_regs nr = { kt, ks_image_cpu_note(&kt->io, cpu) };

	if (nr.note < 0 || !kt->io.arch)
		return -ENOENT;
	return ks_arch_named_regs(kt->io.arch, note_reg, &nr, regs_ret);
}

static const struct ks_target_ops kdump_ops = {
	.read = kd_read,
	.read_phys = kd_read_phys,
	.cpu_regs = kd_cpu_regs,
	.vmcoreinfo = kd_vmcoreinfo_line,
};

void ks_kdump_close(struct ks_kdump *kt)
{
	if (!kt)
		return;
	ks_dump_prefetch_stop(kt->prefetch);
	if (kt->axsys)
		addrxlat_sys_decref(kt->axsys);
	if (kt->axctx)
		addrxlat_ctx_decref(kt->axctx);
	ks_image_close(&kt->io);
	if (kt->kd)
		kdump_free(kt->kd);
	if (kt->fd >= 0)
		close(kt->fd);
	free(kt);
}

/* libkdumpfile's VMCOREINFO, for shared/kernel/vmcoreinfo.c. */
static int kd_vmcoreinfo_line(void *arg, const char *key, char *buf, size_t len)
{
	struct ks_kdump *kt = arg;
	char *val = NULL;
	int ret = -ENOENT;

	if (kdump_vmcoreinfo_line(kt->kd, key, &val) == KDUMP_OK && val) {
		snprintf(buf, len, "%s", val);
		ret = 0;
	}
	free(val);
	return ret;
}

/*
 * libkdumpfile's "Unknown file format" names neither the file nor what
 * it reads: the formats of its open.c formats[] (0.5.1), and makedumpfile's
 * flattened format (-F), which it does not read, named with its remedy.
 */
static void say_not_a_dump(const struct ks_kdump *kt, const char *path)
{
	char sig[16] = "";

	if (pread(kt->fd, sig, sizeof(sig), 0) == (ssize_t)sizeof(sig) &&
	    !memcmp(sig, "makedumpfile", 13)) {
		say(kt, "%s is makedumpfile's flattened format (makedumpfile -F), "
		    "which libkdumpfile does not read: make it a kdump-compressed "
		    "dump first with makedumpfile -R NEWFILE <%s", path, path);
		return;
	}
	say(kt, "%s is not a kernel dump: the formats read are an ELF vmcore "
	    "(/proc/vmcore, makedumpfile -E, QEMU dump-guest-memory), a "
	    "kdump-compressed or diskdump file (makedumpfile without -E), and "
	    "LKCD, MCLXCD, s390, SADUMP, Xen (xc_save, xc_core), QEMU and "
	    "libvirt save files", path);
}

/*
 * The file's size and the extent its program headers describe, and the
 * physical ranges it lacks (segment_end()).
 */
static void measure_segments(struct ks_kdump *kt);

/* A kdump-compressed dump's size and what it lacks, as its check measured. */
static void measure_diskdump(struct ks_kdump *kt, uint64_t size,
			     const struct ks_diskdump_extent *dd)
{
	kt->file_size = size;
	kt->want_size = dd->want_size;
	kt->want_at_least = dd->want_at_least;
	if (dd->missing_start == dd->missing_end)
		return;
	kt->missing[0] = (struct phys_range){ dd->missing_start, dd->missing_end };
	kt->nr_missing = 1;
}

/*
 * After a failed kdump-compressed open, libkdumpfile 0.5.1 has freed
 * its diskdump data but left it hooked to the page size attribute:
 * kdump_free() reads it (SIGSEGV in the release build).
 * diskdump_header.c refuses every dump it knows to fail that open; one
 * it does not know of leaks the context instead, for the exit that
 * follows.  After a good open kdump_free() still writes 8 bytes into a
 * freed 56-byte block (valgrind), not yet handed out again there: no
 * crash seen, in the tests or a million fuzz_dump_open runs without
 * ASan's quarantine.  Leaking every context instead would grow the fuzzer
 * by a quarter MiB an open; libkdumpfile 0.5.4 drops the hook
 * ("diskdump: Remove page_size override").
 */
static void forget_failed_diskdump(struct ks_kdump *kt,
				   const struct ks_diskdump_extent *dd)
{
	if (dd->diskdump)
		kt->kd = NULL;
}

/* libkdumpfile's status as an errno: its system errors keep theirs. */
static int kdump_errno(kdump_status st, int saved_errno)
{
	if (st == KDUMP_ERR_SYSTEM && saved_errno)
		return -saved_errno;
	return -EINVAL;
}

/*
 * The file, checked before libkdumpfile sees it (dump_header.c,
 * diskdump_header.c), and what a cut one lacks: 0, or -errno after
 * saying why.
 */
/*
 * What no reader of dumps takes, named with its remedy before libkdumpfile
 * calls it "Unknown file format": an empty file, and a dump still packed
 * (kdump tools and bug trackers hand dumps over compressed).
 */
static int refuse_kind(const struct ks_kdump *kt, const char *path,
		       uint64_t size)
{
	static const struct {
		const char *magic, *what, *tool;
		size_t len;
	} packed[] = {
		{ "\x1f\x8b", "gzip", "gunzip", 2 },
		{ "\xfd" "7zXZ", "xz", "unxz", 6 },
		{ "BZh", "bzip2", "bunzip2", 3 },
		{ "\x28\xb5\x2f\xfd", "zstd", "unzstd", 4 },
	};
	unsigned char sig[8] = { 0 };

	if (!size) {
		say(kt, "%s is empty: no dump was written to it", path);
		return -EINVAL;
	}
	if (pread(kt->fd, sig, sizeof(sig), 0) < 0)
		return 0;
	for (size_t i = 0; i < sizeof(packed) / sizeof(packed[0]); i++) {
		if (memcmp(sig, packed[i].magic, packed[i].len))
			continue;
		say(kt, "%s is %s-compressed: %s it first", path,
		    packed[i].what, packed[i].tool);
		return -EINVAL;
	}
	return 0;
}

static int check_file(struct ks_kdump *kt, const char *path,
		      struct ks_diskdump_extent *dd)
{
	struct stat sb;
	int err;

	/* O_NONBLOCK: a FIFO must not hang us (kdump_run.c checks first) */
	kt->fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (kt->fd < 0) {
		err = errno;
		say(kt, "cannot open %s: %s", path, strerror(err));
		return -err;
	}
	if (fstat(kt->fd, &sb) || !S_ISREG(sb.st_mode)) {
		say(kt, "%s is not a regular file", path);
		return -EINVAL;
	}
	err = refuse_kind(kt, path, (uint64_t)sb.st_size);
	if (!err)
		err = ks_dump_header_check(kt->fd, (uint64_t)sb.st_size, path,
					   kt->rep);
	if (!err)
		err = ks_diskdump_header_check(kt->fd, (uint64_t)sb.st_size,
					       path, kt->rep,
					       dd);
	if (err)
		return err;
	measure_segments(kt);
	if (dd->diskdump)
		measure_diskdump(kt, (uint64_t)sb.st_size, dd);
	return 0;
}

/* 0, or -errno after saying why. */
static int open_dump(struct ks_kdump *kt, const char *path)
{
	struct ks_diskdump_extent dd;
	kdump_status st;
	int err = check_file(kt, path, &dd);

	if (err)
		return err;
	kt->kd = kdump_new();
	if (!kt->kd) {
		say(kt, "out of memory");
		return -ENOMEM;
	}
	/*
	 * libkdumpfile maps the file and reads pages of it while it opens:
	 * past the end of a file cut short that is SIGBUS (fuzz_dump_open,
	 * and a kdump-compressed dump cut in its notes).  Such a file is
	 * read with read(2) only.
	 */
	if (kt->want_size > kt->file_size &&
	    kdump_set_number_attr(kt->kd, KDUMP_ATTR_FILE_MMAP_POLICY,
				  KDUMP_MMAP_NEVER) != KDUMP_OK) {
		say(kt, "%s: cannot turn off mmap: %s", path,
		    kdump_get_err(kt->kd));
		return -EINVAL;
	}
	errno = 0;
	st = kdump_open_fd(kt->kd, kt->fd);
	if (st == KDUMP_ERR_NOTIMPL &&
	    strstr(kdump_get_err(kt->kd), "Unknown file format")) {
		say_not_a_dump(kt, path);
		return -EINVAL;
	}
	if (st != KDUMP_OK) {
		err = errno;
		say(kt, "cannot read %s as a dump: %s", path,
		    kdump_get_err(kt->kd));
		forget_failed_diskdump(kt, &dd);
		return kdump_errno(st, err);
	}
	errno = 0;
	st = kdump_set_string_attr(kt->kd, KDUMP_ATTR_OSTYPE, "linux");
	if (st != KDUMP_OK) {
		err = errno;
		say(kt, "%s: no Linux address translation: %s", path,
		    kdump_get_err(kt->kd));
		return kdump_errno(st, err);
	}
	return 0;
}

/* One PT_LOAD (or PT_NOTE) against the file's size: what it lacks. */
static void segment_end(struct ks_kdump *kt, const Elf64_Phdr *ph)
{
	uint64_t end = ph->p_offset + ph->p_filesz, have;

	if (end < ph->p_offset)
		end = UINT64_MAX;	/* a size that wraps: none of it is there */
	if (end > kt->want_size)
		kt->want_size = end;
	if (ph->p_type != PT_LOAD || end <= kt->file_size ||
	    kt->nr_missing == MAX_MISSING)
		return;
	have = kt->file_size > ph->p_offset ? kt->file_size - ph->p_offset : 0;
	/* a page cut in the middle is missing whole */
	kt->missing[kt->nr_missing++] = (struct phys_range){
		(ph->p_paddr + have) & ~(KD_PAGE_SIZE - 1), ph->p_paddr + ph->p_filesz };
}

/*
 * A dump cut short (a full disk, an interrupted copy) still opens: the
 * headers at its start describe more than the file holds.  For an ELF
 * dump, each segment's end is compared with the file's size.
 */
static void measure_segments(struct ks_kdump *kt)
{
	Elf64_Phdr *ph;
	Elf64_Ehdr eh;
	struct stat st;
	size_t nr;

	kt->nr_missing = 0;
	kt->file_size = kt->want_size = 0;
	if (fstat(kt->fd, &st) || ks_elf_core_phdrs(kt->fd, &eh, &ph, &nr))
		return;
	/*
	 * A dump of more segments (PN_XNUM's among them) is not measured:
	 * its reads are never refused as missing, as they never were.
	 */
	if (eh.e_phnum > MAX_PHDRS) {
		free(ph);
		return;
	}
	kt->file_size = (uint64_t)st.st_size;
	kt->want_size = eh.e_phoff + (uint64_t)eh.e_phnum * sizeof(*ph);
	for (size_t i = 0; i < nr; i++)
		segment_end(kt, &ph[i]);
	free(ph);
}

/*
 * After open_dump(), which measured the segments before libkdumpfile
 * read: the translation that kv_missing() and note_read() need.
 */
static void find_translation(struct ks_kdump *kt)
{
	if (kdump_get_addrxlat(kt->kd, &kt->axctx, &kt->axsys) != KDUMP_OK)
		kt->axctx = NULL, kt->axsys = NULL;
}

static bool truncated(const struct ks_kdump *kt)
{
	return kt->want_size > kt->file_size;
}

static void say_truncated(const struct ks_kdump *kt, const char *vmcore)
{
	char missing[64] = "";

	if (kt->nr_missing)
		snprintf(missing, sizeof(missing), "; physical memory from %#"
			 PRIx64 " is missing", kt->missing[0].start);
	/* a cut among the page descriptors hides the size of what follows */
	say(kt, "%s is truncated: it has %" PRIu64 " of the %s%" PRIu64 " bytes "
	    "its headers describe (%s%" PRIu64 "%%)%s", vmcore, kt->file_size,
	    kt->want_at_least ? "at least " : "", kt->want_size,
	    kt->want_at_least ? "at most " : "",
	    kt->file_size * 100 / kt->want_size, missing);
}

/* The dump, cut short or not: what libkdumpfile may not say itself. */
static void check_truncation(struct ks_kdump *kt, const char *vmcore)
{
	find_translation(kt);
	if (truncated(kt))
		say_truncated(kt, vmcore);
}

/*
 * Readers that fetch an ELF dump's file ahead of the walk.  Speed only:
 * without them (a compressed dump, no threads) the walk reads the same.
 */
static void start_prefetch(struct ks_kdump *kt)
{
	if (kt->axctx)
		ks_dump_prefetch_start(kt->fd, &kt->prefetch);
}

/*
 * The image over the dump's memory (image_open.c): the machine
 * libkdumpfile found in the dump's header, its VMCOREINFO (kdump_ops'
 * vmcoreinfo) and its count of CPU notes are what this source says.
 */
static int open_image(struct ks_kdump *kt, const struct ks_kdump_args *a,
		      struct ks_target *t)
{
	struct ks_image_source src = {
		.mem = &kt->mem,
		.who = "the dump",
		.vmcore = a->vmcore,
		.vmlinux = a->vmlinux,
		.vmlinux_option = true,
		.kallsyms_from = a->scan_kallsyms ? KS_KALLSYMS_SCAN_ONLY :
						    KS_KALLSYMS_LISTED_OR_SCAN,
		.truncated = truncated(kt),
		.nr_cpu_notes = -1,
		.rep = kt->rep,
	};
	kdump_num_t nr_notes;
	int ret;

	if (kdump_get_string_attr(kt->kd, KDUMP_ATTR_ARCH_NAME,
				  &src.arch_name) != KDUMP_OK)
		src.arch_name = NULL;
	if (kdump_get_number_attr(kt->kd, KDUMP_ATTR_NUM_CPUS, &nr_notes) == KDUMP_OK)
		src.nr_cpu_notes = (long)nr_notes;
	ret = ks_image_open(&kt->io, &src);
	if (!ret)
		*t = kt->io.t;
	return ret;
}

bool ks_kdump_available(void)
{
	return true;
}

int ks_kdump_open(const struct ks_kdump_args *a, struct ks_kdump **kd_ret,
		  struct ks_target *t_ret)
{
	struct ks_kdump *kt;
	int ret;

	kt = calloc(1, sizeof(*kt));
	if (!kt) {
		ks_say(a->rep, KS_WARN, "out of memory");
		return -ENOMEM;
	}
	kt->fd = -1;
	kt->xlat_vpage = 1;
	kt->mem = (struct ks_target){ .ops = &kdump_ops, .ctx = kt };
	kt->rep = a->rep;
	ret = open_dump(kt, a->vmcore);
	if (ret) {
		/* libkdumpfile may refuse a dump cut short: say why */
		if (kt->fd >= 0 && kt->kd)
			check_truncation(kt, a->vmcore);
		goto fail;
	}
	check_truncation(kt, a->vmcore);
	start_prefetch(kt);
	ret = open_image(kt, a, t_ret);
	if (ret)
		goto fail;
	if (a->verbose)
		ks_image_describe(&kt->io, kt->rep);
	*kd_ret = kt;
	return 0;
fail:
	ks_kdump_close(kt);
	return ret;
}

void ks_kdump_lines_config(struct ks_kdump *kt, struct ks_lines_config *cfg,
			   char *release, size_t len)
{
	char *rel = NULL;

	if (kt->io.im.syms) {
		cfg->syms = kt->io.im.syms;
		cfg->kaslr = kt->io.kaslr;
	} else if (kdump_vmcoreinfo_line(kt->kd, "OSRELEASE", &rel) == KDUMP_OK &&
		   rel) {
		snprintf(release, len, "%s", rel);
		cfg->release = release;
	}
	free(rel);
}
