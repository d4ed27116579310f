// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The kernel image over a memory source, opened once the same way for
 * every source (image_open.h): what target_kdump.c and kcore_target.c
 * each did for themselves.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "image_open.h"
#include "report.h"
#include "vmcoreinfo.h"

#define BANNER_MAX	1024

/* Appends to a message of several lines being built in buf. */
__attribute__((format(printf, 3, 4)))
static void add(char *buf, size_t len, const char *fmt, ...)
{
	size_t used = strlen(buf);
	va_list ap;

	if (used >= len - 1)
		return;
	va_start(ap, fmt);
	vsnprintf(buf + used, len - used, fmt, ap);
	va_end(ap);
}

static struct ks_vmcoreinfo source_vmcoreinfo(const struct ks_image_source *src)
{
	return (struct ks_vmcoreinfo){ .line = src->mem->ops->vmcoreinfo,
				       .arg = src->mem->ctx };
}

/* VMCOREINFO's KERNELOFFSET, whole and hex: 0, -ENOENT or -EINVAL. */
static int kerneloffset(const struct ks_vmcoreinfo *vi, int64_t *off_ret)
{
	char val[64], *end;
	unsigned long long v;

	if (vi->line(vi->arg, "KERNELOFFSET", val, sizeof(val)))
		return -ENOENT;
	errno = 0;
	v = strtoull(val, &end, 16);
	if (errno || end == val || *end)
		return -EINVAL;
	*off_ret = (int64_t)v;
	return 0;
}

#define FROM(io, ...) snprintf((io)->kaslr_from, sizeof((io)->kaslr_from), __VA_ARGS__)

/* The shift where a vmlinux's _stext is known: VMCOREINFO's must agree. */
static void kaslr_by_vmlinux(struct ks_image_opened *io, uint64_t stext,
			     uint64_t link, int ret, int64_t off, const char *why)
{
	io->kaslr = (int64_t)(stext - link);
	if (!ret && off == io->kaslr)
		FROM(io, "VMCOREINFO's KERNELOFFSET");
	else if (!ret)
		FROM(io, "_stext in VMCOREINFO against the vmlinux's; "
		     "KERNELOFFSET %#" PRIx64 " disagrees", (uint64_t)off);
	else
		FROM(io, "_stext in VMCOREINFO against the vmlinux's: %s", why);
}

/*
 * The KASLR shift, and where it came from for -v: VMCOREINFO's
 * KERNELOFFSET; else (missing or not a number) SYMBOL(_stext) there
 * against _stext in the vmlinux, or against the architecture's default
 * link address without one (x86-64's; arm64's moves between kernels).  A
 * KERNELOFFSET that the vmlinux contradicts loses to it: the symbols must
 * land where the dump has them.
 */
static void find_kaslr(struct ks_image_opened *io, const struct ks_vmcoreinfo *vi)
{
	uint64_t stext = ks_vmcoreinfo_symbol(vi, "_stext"), link = 0;
	uint64_t def = io->arch->default_stext;
	int64_t off = 0;
	int ret = kerneloffset(vi, &off);
	const char *why = ret == -ENOENT ? "VMCOREINFO has no KERNELOFFSET" :
			  "VMCOREINFO's KERNELOFFSET is not a hex number";

	io->kaslr = 0;
	if (stext && io->im.syms &&
	    !ks_elf_symtab_addr(io->im.syms, "_stext", &link)) {
		kaslr_by_vmlinux(io, stext, link, ret, off, why);
	} else if (!ret) {
		io->kaslr = off;
		FROM(io, "VMCOREINFO's KERNELOFFSET");
	} else if (stext && def && stext >= def) {
		io->kaslr = (int64_t)(stext - def);
		FROM(io, "_stext in VMCOREINFO against %s's default %#" PRIx64
		     ": %s", io->arch->name, def, why);
	} else if (stext && !def) {
		FROM(io, "unknown: %s and %s has no one default _stext to hold "
		     "SYMBOL(_stext) against", why, io->arch->name);
	} else {
		FROM(io, "unknown: %s and no SYMBOL(_stext)", why);
	}
}

/* A banner for a message: up to the newline; memory that is none says so. */
static void add_banner(char *buf, size_t len, const char *who, const char *b)
{
	if (strncmp(b, "Linux version ", 14)) {
		add(buf, len, "\n  %s: no banner at that address", who);
		return;
	}
	add(buf, len, "\n  %s: %.*s", who, (int)strcspn(b, "\n"), b);
}

/*
 * What VMCOREINFO says the dump's kernel is, to find the right vmlinux.
 * Without VMCOREINFO neither KASLR nor the page tables are known, and no
 * vmlinux can match: say how QEMU dumps get one.
 */
static void add_release(const struct ks_vmcoreinfo *vi, char *buf, size_t len)
{
	char rel[256];

	if (!vi->line(vi->arg, "OSRELEASE", rel, sizeof(rel)))
		add(buf, len, "\n  the dump is of kernel %s", rel);
	else
		add(buf, len, "\n  the dump has no VMCOREINFO (a QEMU dump needs "
		    "-device vmcoreinfo and qemu_fw_cfg loaded in the guest)");
}

/* linux_banner in the vmlinux: the string may end near its section's end. */
static size_t vmlinux_banner(const struct ks_image_opened *io, uint64_t *addr,
			     char *want, size_t max)
{
	size_t len;

	if (ks_elf_symtab_addr(io->im.syms, "linux_banner", addr))
		return 0;
	for (len = max - 1; len; len--)
		if (!ks_elf_read(io->im.syms, *addr, want, len))
			break;
	return len && memchr(want, '\0', len) ? strlen(want) + 1 : 0;
}

/*
 * The vmlinux must be the one the dump ran: its linux_banner string
 * (version, build host, date) must be in the dump's memory where the
 * vmlinux says, after the KASLR shift.
 */
static int check_banner(const struct ks_image_opened *io,
			const struct ks_image_source *src,
			const struct ks_vmcoreinfo *vi)
{
	char want[BANNER_MAX], have[BANNER_MAX] = "";
	char msg[2 * BANNER_MAX + 512] = "";
	uint64_t addr;
	size_t len = vmlinux_banner(io, &addr, want, sizeof(want));
	int unread;

	if (!len) {
		ks_say(src->rep, KS_WARN, "%s has no linux_banner: "
		       "not a vmlinux?", src->vmlinux);
		return -EINVAL;
	}
	unread = ks_read(src->mem, addr, have, len);
	if (unread && src->truncated) {
		ks_say(src->rep, KS_WARN, "%s cannot be checked "
		       "against %s: linux_banner (0x%" PRIx64 ") is in the "
		       "part of the dump that is missing", src->vmlinux,
		       src->vmcore, addr);
		return -EINVAL;
	}
	if (!unread && !memcmp(want, have, len))
		return 0;
	if (unread) {
		add(msg, sizeof(msg), "%s does not match %s: the dump has no "
		    "memory at linux_banner (0x%" PRIx64 ")", src->vmlinux,
		    src->vmcore, addr);
	} else {
		have[sizeof(have) - 1] = '\0';
		add(msg, sizeof(msg), "%s does not match %s:", src->vmlinux,
		    src->vmcore);
		add_banner(msg, sizeof(msg), "vmlinux", want);
		add_banner(msg, sizeof(msg), "vmcore ", have);
	}
	add_release(vi, msg, sizeof(msg));
	ks_say(src->rep, KS_WARN, "%s", msg);
	return -EINVAL;
}

/* Symbols from the debug vmlinux, which must be the dump's kernel. */
static int open_vmlinux(struct ks_image_opened *io,
			const struct ks_image_source *src,
			const struct ks_vmcoreinfo *vi)
{
	struct ks_elf_symtab *syms;
	int ret = ks_elf_symtab_open(src->vmlinux, &syms);

	if (!ret)
		ret = ks_image_set_vmlinux(&io->im, syms);
	if (ret) {
		/* /boot/vmlinuz is compressed, a stripped vmlinux has no names. */
		ks_say(src->rep, KS_WARN, "cannot read symbols "
		       "from %s: %s", src->vmlinux,
		       ret == -ENOEXEC ? "not an ELF64 file (the uncompressed "
		       "debug vmlinux is needed, not vmlinuz)" :
		       ret == -ENODATA ? "no .symtab (stripped? the debug "
		       "vmlinux is needed)" : strerror(-ret));
		return ret;
	}
	find_kaslr(io, vi);
	ks_elf_symtab_set_offset(io->im.syms, io->kaslr);
	return check_banner(io, src, vi);
}

/* Where the scan looked, for a dump whose tables were not found. */
static void add_scanned(char *buf, size_t len, const struct ks_kallsyms_scan *sc)
{
	if (!sc->start)
		add(buf, len, ", and it has no SYMBOL(_stext) that is a kernel "
		    "address to find them by");
	else if (!sc->end)
		add(buf, len, ", and it has no SYMBOL(init_uts_ns) or "
		    "SYMBOL(swapper_pg_dir) within 256 MiB after _stext "
		    "(%#" PRIx64 ") to bound the search", sc->start);
	else
		add(buf, len, ", and none were found by their shape in the "
		    "kernel image from _stext (%#" PRIx64 ") to %#" PRIx64,
		    sc->start, sc->end);
}

/* Why the kernel's own kallsyms tables gave no symbols, in one message. */
static void say_no_kallsyms(const struct ks_image_source *src,
			    const struct ks_vmcoreinfo *vi,
			    const struct ks_kallsyms_scan *sc, int ret)
{
	const char *remedy = src->vmlinux_option ?
			     ": --vmlinux VMLINUX supplies the symbols" : "";
	char msg[512] = "";

	if (ret == -ENOENT) {
		add(msg, sizeof(msg), "%s's VMCOREINFO lists no kallsyms tables "
		    "(Linux 6.0+ lists them)", src->who);
		add_scanned(msg, sizeof(msg), sc);
		add(msg, sizeof(msg), "%s", remedy);
		if (src->vmlinux_option)
			add_release(vi, msg, sizeof(msg));
	} else if (ret == -EPROTONOSUPPORT) {
		add(msg, sizeof(msg), "%s's kallsyms tables give addresses in an "
		    "encoding kstack does not know (absolute, offsets from "
		    "kallsyms_relative_base, place-relative: none puts _stext "
		    "where VMCOREINFO has it)%s", src->who, remedy);
	} else if (src->truncated) {
		add(msg, sizeof(msg), "%s's kallsyms tables cannot be read (%s): "
		    "the dump is truncated", src->who, strerror(-ret));
	} else {
		add(msg, sizeof(msg), "%s's kallsyms tables cannot be decoded "
		    "(%s)%s", src->who, strerror(-ret), remedy);
	}
	ks_say(src->rep, KS_WARN, "%s", msg);
}

/*
 * Symbols from the kernel's own kallsyms tables: VMCOREINFO lists them
 * since Linux 6.0 (SYMBOL(kallsyms_names) and the others); before, they
 * are found in the image's read-only data (kallsyms_scan.c).
 */
static int open_kallsyms(struct ks_image_opened *io,
			 const struct ks_image_source *src,
			 const struct ks_vmcoreinfo *vi)
{
	struct ks_kallsyms_scan sc;
	int ret;

	find_kaslr(io, vi);
	ret = ks_image_find_kallsyms(&io->im, src->mem, vi, src->kallsyms_from,
				     src->rep, &sc);
	if (ret)
		say_no_kallsyms(src, vi, &sc, ret);
	return ret;
}

/* Types: the vmlinux's .BTF, else a BTF file, else the kernel's in memory. */
static int load_btf(struct ks_image_opened *io, const struct ks_image_source *src)
{
	int ret = ks_image_load_btf(&io->im, src->mem, src->btf_path,
				    src->rep);
	const char *remedy = src->vmlinux_option ? ", or --vmlinux VMLINUX" : "";

	if (!ret || ret == -EBADMSG)	/* -EBADMSG: its damage is said */
		return ret;
	if (src->vmlinux)
		ks_say(src->rep, KS_WARN, "no usable BTF in %s or "
		       "the dump (%s): a kernel with CONFIG_DEBUG_INFO_BTF is "
		       "needed", src->vmlinux, strerror(-ret));
	else if (ret == -ENOENT && src->vmlinux_option)
		ks_say(src->rep, KS_WARN, "%s's kernel keeps no BTF "
		       "(no __start_BTF among its symbols, no BTF header "
		       "between _etext and _sinittext: built without "
		       "CONFIG_DEBUG_INFO_BTF), so its types are missing and "
		       "no layout is guessed: --vmlinux VMLINUX supplies them "
		       "from its .BTF; without one, crash with kstack.so reads "
		       "them from the debug vmlinux", src->who);
	else
		ks_say(src->rep, KS_WARN, "no usable BTF in %s's "
		       "memory (%s): the types need a kernel with "
		       "CONFIG_DEBUG_INFO_BTF%s", src->who, strerror(-ret),
		       remedy);
	return ret;
}

/*
 * The walk's facts through the architecture's table; for a reader that
 * does not translate, the kernel's own tables too.  Without them there is
 * no user memory (and such a reader's reads stay plain).
 */
static void find_paging(struct ks_image_opened *io,
			const struct ks_image_source *src,
			const struct ks_vmcoreinfo *vi)
{
	struct ks_paging *pg = &io->uw.pg;

	if (io->arch->paging->find_paging(&io->t, vi, pg) || !src->kernel_tables)
		return;
	if (io->arch->paging->kernel_tables(vi, pg, &io->tables)) {
		io->tables = (struct ks_kernel_tables){ 0 };
		pg->page_offset = 0;
	}
}

int *ks_cpu_note_map(long nr_notes, int nr_cpus, ks_cpu_online_fn online,
		     void *arg)
{
	int cpu, on, n = 0, *map;

	for (cpu = 0; cpu < nr_cpus; cpu++) {
		on = online(arg, cpu);
		if (on < 0)
			return NULL;
		n += on;
	}
	if (n != nr_notes)
		return NULL;
	map = malloc((size_t)nr_cpus * sizeof(*map));
	if (!map)
		return NULL;
	for (cpu = n = 0; cpu < nr_cpus; cpu++) {
		on = online(arg, cpu);
		if (on < 0) {
			free(map);
			return NULL;
		}
		map[cpu] = on ? n++ : -1;
	}
	return map;
}

/* __cpu_online_mask in the dump, a word read at each 64th bit. */
struct online_mask {
	const struct ks_target *mem;
	uint64_t addr, word;
};

static int mask_online(void *arg, int cpu)
{
	struct online_mask *m = arg;

	if (cpu % 64 == 0 &&
	    ks_read(m->mem, m->addr + cpu / 8, &m->word, sizeof(m->word)))
		return -1;
	return (int)((m->word >> (cpu % 64)) & 1);
}

/* The notes' CPUs by the kernel's own online mask (ks_cpu_note_map()). */
static void map_cpu_notes(struct ks_image_opened *io,
			  const struct ks_image_source *src)
{
	struct online_mask m = { .mem = src->mem };
	long size;

	if (src->nr_cpu_notes < 0 ||
	    ks_image_symbol(&io->im, "__cpu_online_mask", &m.addr))
		return;
	size = ks_image_type_size(&io->im, "cpumask");
	if (size <= 0 || size > 65536)
		return;
	io->note_of_cpu = ks_cpu_note_map(src->nr_cpu_notes, (int)(size * 8),
					  mask_online, &m);
	if (io->note_of_cpu)
		io->nr_cpu_map = (int)(size * 8);
}

/* The finders of what the symbols lack, over the finished target. */
static void add_finders(struct ks_image_opened *io,
			const struct ks_image_source *src)
{
	int ret;

	/*
	 * A kallsyms of text only (no CONFIG_KALLSYMS_ALL: Debian's arm64
	 * kernels): init_task and the others are found in the data, and
	 * what is not is said.
	 */
	if (ks_image_add_data_finder(&io->im, src->rep))
		ks_say(src->rep, KS_WARN, "out of memory");
	/* Without these, module and BPF frames print as bare addresses. */
	ret = ks_image_load_chain(&io->im, &io->t);
	if (ret)
		ks_say(src->rep, KS_WARN,
		       "no module or BPF symbols: %s", strerror(-ret));
}

/* The one line open_vmlinux() says, kept to be said with a remedy. */
struct kept_line {
	char text[2048];
};

static void keep_line(void *arg, enum ks_say_level level, const char *text)
{
	struct kept_line *k = arg;

	(void)level;
	if (!k->text[0])
		snprintf(k->text, sizeof(k->text), "%s", text);
}

/*
 * A --vmlinux that is not this dump's kernel, or no vmlinux at all (a
 * vmlinuz, a stripped file): refused, as the user named it; but when the
 * kernel's own kallsyms give the symbols, the message says that dropping
 * --vmlinux reads the dump.
 */
static int open_given_vmlinux(struct ks_image_opened *io,
			      const struct ks_image_source *src,
			      const struct ks_vmcoreinfo *vi)
{
	struct kept_line kept = { "" };
	const struct ks_reporter keep = { .say = keep_line, .arg = &kept };
	struct ks_image_source quiet = *src;
	struct ks_kallsyms_scan sc;
	int ret;

	quiet.rep = &keep;
	ret = open_vmlinux(io, &quiet, vi);
	if (!ret)
		return 0;
	if (ret == -ENOMEM) {
		if (kept.text[0])
			ks_say_text(src->rep, KS_WARN, kept.text);
		return ret;
	}
	/* the vmlinux's symbols are out: the probe finds the kernel's own */
	ks_image_release(&io->im);
	ks_image_target(&io->im, src->mem, &io->t);
	io->im.uw = &io->uw;
	find_kaslr(io, vi);
	if (!ks_image_find_kallsyms(&io->im, src->mem, vi, src->kallsyms_from,
				    NULL, &sc))
		ks_say(src->rep, KS_WARN, "%s; or drop --vmlinux: this dump "
		       "reads without it", kept.text);
	else
		ks_say_text(src->rep, KS_WARN, kept.text);
	return ret;
}

/* A reader that names symbols itself knows the kernel (crash). */
static bool reader_knows(const struct ks_image_source *src)
{
	return src->mem->ops->symbol != NULL;
}

/*
 * The vmlinux the knowing reader was started with: its .symtab places
 * addresses as kallsyms would, moved by the reader's _stext against its
 * own (the reader matched it to the dump already), and its .BTF answers
 * types before the reader.  Without either the reader answers alone.
 */
static void open_known_vmlinux(struct ks_image_opened *io,
			       const struct ks_image_source *src)
{
	const struct ks_target_ops *r = src->mem->ops;
	uint64_t stext, link;
	const void *sec;
	size_t size;

	if (!src->vmlinux || ks_elf_symtab_open(src->vmlinux, &io->im.syms))
		return;
	link = ks_elf_symtab_stext(io->im.syms);
	if (!link || r->symbol(src->mem->ctx, "_stext", &stext)) {
		ks_elf_symtab_free(io->im.syms);
		io->im.syms = NULL;
		return;
	}
	io->kaslr = (int64_t)(stext - link);
	FROM(io, "_stext as the reader has it against the vmlinux's");
	ks_elf_symtab_set_offset(io->im.syms, io->kaslr);
	sec = ks_elf_section(io->im.syms, ".BTF", &size);
	/* a malformed .BTF: the reader's types answer alone */
	if (sec && !ks_btf_load(sec, size, &io->im.btf, NULL))
		io->im.btf_from = "the vmlinux";
}

/*
 * The finders of a knowing reader, in the shared order: it names
 * symbols; the .symtab places addresses; its own table places them only
 * when there is no .symtab (it may pick another alias than kallsyms).
 */
static int open_known(struct ks_image_opened *io,
		      const struct ks_image_source *src)
{
	const struct ks_target_ops *r = src->mem->ops;
	const struct ks_sym_finder names = { KS_FIND_VMLINUX, r->symbol, NULL,
					     src->mem->ctx };
	const struct ks_sym_finder table = { KS_FIND_FALLBACK, NULL, r->lookup,
					     src->mem->ctx };
	struct ks_sym_finder elf;
	int ret;

	open_known_vmlinux(io, src);
	ret = ks_finders_add(&io->im.finders, &names);
	if (!ret && io->im.syms) {
		elf = ks_finder_elf(io->im.syms);
		elf.symbol = NULL;	/* the reader names them */
		ret = ks_finders_add(&io->im.finders, &elf);
	}
	if (!ret && !io->im.syms && r->lookup)
		ret = ks_finders_add(&io->im.finders, &table);
	if (ret)
		ks_say(src->rep, KS_WARN, "the symbol finders: %s",
		       strerror(-ret));
	return ret;
}

int ks_image_open(struct ks_image_opened *io, const struct ks_image_source *src)
{
	struct ks_vmcoreinfo vi = source_vmcoreinfo(src);
	int ret;

	/* the one place a source's architecture is chosen */
	ret = ks_arch_resolve(src->arch_name, src->elf_machine, &io->arch,
			      src->rep);
	if (ret)
		return ret;
	src->mem->arch = io->arch;
	io->uw.pg.arch = io->arch;
	io->im.uw = &io->uw;	/* read_user: the image walks for every source */
	ks_image_target(&io->im, src->mem, &io->t);
	if (reader_knows(src)) {
		ret = open_known(io, src);
		if (ret)
			return ret;
		find_paging(io, src, &vi);
		map_cpu_notes(io, src);
		add_finders(io, src);
		return 0;
	}
	/* each has said why */
	ret = src->vmlinux ? open_given_vmlinux(io, src, &vi) :
			     open_kallsyms(io, src, &vi);
	if (ret)
		return ret;
	find_paging(io, src, &vi);
	ret = load_btf(io, src);
	if (ret)
		return ret;
	map_cpu_notes(io, src);
	add_finders(io, src);
	return 0;
}

void ks_image_close(struct ks_image_opened *io)
{
	free(io->note_of_cpu);
	io->note_of_cpu = NULL;
	ks_image_release(&io->im);
}

int ks_cpu_note_of(const int *map, int nr_cpus, int cpu)
{
	if (!map)
		return cpu;
	return cpu >= 0 && cpu < nr_cpus ? map[cpu] : -1;
}

int ks_image_cpu_note(const struct ks_image_opened *io, int cpu)
{
	return ks_cpu_note_of(io->note_of_cpu, io->nr_cpu_map, cpu);
}

void ks_image_describe(const struct ks_image_opened *io,
		       const struct ks_reporter *rep)
{
	struct ks_kallsyms_stats st = { 0 };
	char msg[768] = "";

	if (io->im.ksyms)
		ks_kallsyms_stats(io->im.ksyms, &st);
	add(msg, sizeof(msg), "vmcore: KASLR offset %#" PRIx64 " (%s), %d-level "
	    "paging, %zu vmlinux symbols (%s), BTF from %s, %zu module%s",
	    (uint64_t)io->kaslr, io->kaslr_from, io->uw.pg.levels,
	    ks_image_nr_symbols(&io->im), ks_image_symbols_from(&io->im),
	    io->im.btf_from ? io->im.btf_from : "nowhere", st.modules,
	    ks_plural(st.modules));
	if (st.modules_skipped)
		add(msg, sizeof(msg), " (%zu unreadable)", st.modules_skipped);
	add(msg, sizeof(msg), ", %zu BPF symbol%s, %zu function%s in "
	    "ftrace_mod_maps, CPU registers %s", st.bpf, ks_plural(st.bpf),
	    st.ftrace_mod, ks_plural(st.ftrace_mod),
	    io->note_of_cpu ? "by online CPU" : "by note order");
	ks_say(rep, KS_WARN, "%s", msg);
	ks_kallsyms_report(io->im.ksyms, rep);
}
