// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The crash side of struct ks_target: a reader of crash's memory, names,
 * types and CPU notes, made into the kernel's image by ks_image_open()
 * like every other source.  Every read asks for QUIET|RETURN_ON_ERROR, so
 * a bad address is -EFAULT for the walker to report, never a longjmp out
 * of the command; reads go through a page cache
 * (shared/kernel/page_cache.c) that lives for one command.  An ELF
 * dump's pages are read from a mapping of its file (elf_memory.h), with
 * crash's kvtop() for the address: crash's readmem() is an lseek() and a
 * read(2) per page.  What the mapping cannot answer goes to readmem().
 */
#include "defs.h"

#include <elf.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "arch.h"
#include "elf_memory.h"
#include "elf_notes.h"
#include "image_open.h"
#include "page_cache.h"
#include "target_crash.h"

#define NT_PRSTATUS_TYPE 1

/* One CPU's NT_PRSTATUS registers, once asked. */
struct cpu_regs_seen {
	struct ks_regs regs;
	int ret;
	bool asked;
};

struct crash_ctx {
	char name[256];			/* for a crash-table symbol's name */
	struct cpu_regs_seen *cpu_regs;	/* NR_CPUS of them, or NULL */
	struct ks_elf_notes *notes;	/* an ELF dump's, from its file */
	bool notes_tried;
	int *note_of_cpu;		/* ks_cpu_note_of()'s map, or NULL */
	bool note_map_tried;
};

/*
 * 1 MiB of 4 KiB pages.  What a walk reuses is near in time (a task's
 * pages between its fields, its stack, its neighbours in the same slab):
 * on 10,000 threads 256 slots hit as often as 4,096 did (10,575 hits,
 * 41,268 misses), and a first command no longer faults in 16 MiB.
 */
#define PAGE_CACHE_PAGES 256

static struct crash_ctx cctx;
static struct ks_target reader;		/* crash itself */
static struct ks_image_opened opened;	/* the image over it */
static const struct ks_target *target;	/* opened.t, or the bare reader */
static struct ks_page_cache *page_cache;
static bool page_cache_tried;
static struct ks_elf_memory *dump_memory;
static bool dump_memory_tried;

/* The dump's file mapped, when crash reads an ELF dump; else NULL. */
static struct ks_elf_memory *elf_dump(void)
{
	if (dump_memory_tried)
		return dump_memory;
	dump_memory_tried = true;
	if (pc->dumpfile && (pc->flags & (KDUMP | NETDUMP)) &&
	    !(pc->flags & LIVE_SYSTEM) &&
	    ks_elf_memory_open(pc->dumpfile, &dump_memory))
		dump_memory = NULL;
	return dump_memory;
}

/* A read within one page from the mapping: 0, or -ENOENT for crash. */
static int mapped_read(uint64_t addr, int memtype, void *buf, size_t len)
{
	struct ks_elf_memory *m = elf_dump();
	physaddr_t paddr;

	if (!m)
		return -ENOENT;
	if (memtype == PHYSADDR)
		paddr = addr;
	else if (memtype != KVADDR || !kvtop(NULL, addr, &paddr, 0))
		return -ENOENT;
	return ks_elf_memory_read(m, paddr, buf, len);
}

/*
 * A read page by page, each part from the dump's mapping, else (ask_crash)
 * from readmem(): 0, or -EFAULT when crash cannot read a part, or -ENOENT
 * when the mapping alone was asked and lacks one (the whole read then
 * goes the other way, so a failure falls exactly where readmem() would).
 */
static int read_parts(uint64_t addr, int memtype, void *buf, size_t len,
		      bool ask_crash)
{
	uint64_t page = (uint64_t)PAGESIZE();
	unsigned char *out = buf;

	while (len) {
		size_t n = (size_t)(page - (addr & (page - 1)));

		if (n > len)
			n = len;
		if (mapped_read(addr, memtype, out, n)) {
			if (!ask_crash)
				return -ENOENT;
			if (!readmem(addr, memtype, out, (long)n, "kstack read",
				     QUIET | RETURN_ON_ERROR))
				return -EFAULT;
		}
		addr += n;
		out += n;
		len -= n;
	}
	return 0;
}

static int crash_readmem(void *ctx, uint64_t addr, int memtype, void *buf,
			 size_t len)
{
	(void)ctx;
	return read_parts(addr, memtype, buf, len, true);
}

/*
 * The mapping first: it needs no copy of whole pages.  Then the page
 * cache, or without one (out of memory) crash itself.
 */
static int cached_read(uint64_t addr, int memtype, void *buf, size_t len)
{
	if (!len)
		return 0;
	if (elf_dump() && !read_parts(addr, memtype, buf, len, false))
		return 0;
	if (!page_cache_tried) {
		page_cache_tried = true;
		ks_page_cache_new((size_t)PAGESIZE(), PAGE_CACHE_PAGES,
				  crash_readmem, NULL, &page_cache);
	}
	if (!page_cache)
		return crash_readmem(NULL, addr, memtype, buf, len);
	return ks_page_cache_read(page_cache, addr, memtype, buf, len);
}

static int crash_read(void *ctx, uint64_t kaddr, void *buf, size_t len)
{
	(void)ctx;
	return cached_read(kaddr, KVADDR, buf, len);
}

static int crash_read_phys(void *ctx, uint64_t paddr, void *buf, size_t len)
{
	(void)ctx;
	return cached_read(paddr, PHYSADDR, buf, len);
}

void ks_crash_target_end_command(void)
{
	ks_page_cache_drop(page_cache);
}

/* Names go to crash's own table, which knows every vmlinux symbol. */
static int crash_name(void *src, const char *name, uint64_t *addr_ret)
{
	(void)src;
	if (!symbol_exists((char *)name))
		return -ENOENT;
	*addr_ret = symbol_value((char *)name);
	return 0;
}

/*
 * The fallback when the vmlinux has no .symtab: crash's own table, sized
 * by the next symbol at a higher address.  It may pick another alias
 * than kallsyms would.
 */
static int crash_table_lookup(void *src, uint64_t addr, struct ks_sym *sym_ret)
{
	struct crash_ctx *c = src;
	struct syment *sp, *next;
	ulong offset;

	sp = value_search(addr, &offset);
	if (!sp)
		return -ENOENT;
	for (next = next_symbol(NULL, sp); next && next->value <= sp->value;)
		next = next_symbol(NULL, next);
	snprintf(c->name, sizeof(c->name), "%s", sp->name);
	sym_ret->name = c->name;
	sym_ret->addr = sp->value;
	sym_ret->size = next ? next->value - sp->value : 0;
	sym_ret->module = NULL;
	return 0;
}

/* crash wants the bare name; our callers may say "struct x" or "union x". */
static char *bare_type(const char *type)
{
	if (!strncmp(type, "struct ", 7))
		return (char *)type + 7;
	if (!strncmp(type, "union ", 6))
		return (char *)type + 6;
	return (char *)type;
}

/*
 * MEMBER_OFFSET and MEMBER_SIZE know direct members only; members of
 * anonymous structs and unions and dotted paths ("thread.sp") need gdb's
 * expression evaluation, which their ANON_ forms are.
 */
static long gdb_member(const char *type, const char *member, bool size)
{
	char *ty = bare_type(type), *m = (char *)member;
	long v = -1;

	if (!strpbrk(member, ".["))
		v = size ? MEMBER_SIZE(ty, m) : MEMBER_OFFSET(ty, m);
	if (v < 0)
		v = size ? ANON_MEMBER_SIZE(ty, m) : ANON_MEMBER_OFFSET(ty, m);
	return v < 0 ? -ENOENT : v;
}

/*
 * gdb's types, from the DWARF: the image asks them only when the vmlinux
 * has no .BTF.  A first gdb lookup of a type costs milliseconds (it
 * expands the DWARF of a compilation unit), a type the kernel lacks
 * (module_memory before 6.4) costs more, and the walk asks about a
 * hundred: half of a first `kstack -a` on 10,000 threads, where BTF
 * answers in microseconds, and is what kstack --vmcore reads.
 */
static long crash_member_offset(void *ctx, const char *type, const char *member)
{
	(void)ctx;
	return gdb_member(type, member, false);
}

static long crash_member_size(void *ctx, const char *type, const char *member)
{
	(void)ctx;
	return gdb_member(type, member, true);
}

static long crash_type_size(void *ctx, const char *type)
{
	long size = STRUCT_SIZE(bare_type(type));

	(void)ctx;
	return size < 0 ? -ENOENT : size;
}

/*
 * crash's own enumerator_value() (the DWARF's): enumerator names are one
 * namespace in C, so crash needs no type.
 */
static int crash_enum_value(void *ctx, const char *type, const char *name,
			    long long *val_ret)
{
	long v;

	(void)ctx;
	(void)type;
	if (!enumerator_value((char *)name, &v))
		return -ENOENT;
	*val_ret = v;
	return 0;
}

/* The NT_PRSTATUS notes of an ELF dump's file, read once; NULL for another. */
static const struct ks_elf_notes *file_notes(struct crash_ctx *c)
{
	if (!pc->dumpfile)
		return NULL;
	if (!c->notes_tried) {
		c->notes_tried = true;
		if (ks_elf_notes_read(pc->dumpfile, &c->notes))
			c->notes = NULL;
	}
	return c->notes;
}

/*
 * A QEMU ELF dump has a note for every vCPU, in CPU order, and crash
 * keeps that order (map_cpus_to_prstatus() leaves such a dump alone;
 * target_kdump.c reads it so too): its notes are read from the file, and
 * netdump_get_prstatus_percpu(), which asks gdb on every call (see
 * crash_cpu_regs()), is left for the dumps crash may remap.
 */
static const Elf64_Nhdr *qemu_note(struct crash_ctx *c, int cpu)
{
	if (!(pc->flags2 & QEMU_MEM_DUMP_ELF))
		return NULL;
	return ks_elf_notes_prstatus(file_notes(c), (size_t)cpu);
}

/* crash's online map, for ks_cpu_note_map() */
static int crash_online(void *arg, int cpu)
{
	(void)arg;
	return in_cpu_map(ONLINE_MAP, cpu) ? 1 : 0;
}

/*
 * The CPUs crash's maps hold: the kernel's NR_CPUS where crash read it
 * (in_cpu_map() prints "invalid cpu" past it), else crash's own; arm64's
 * crash is built for 4096, Debian's arm64 kernels for 256.
 */
static int crash_nr_cpus(void)
{
	return kt->kernel_NR_CPUS ? kt->kernel_NR_CPUS : NR_CPUS;
}

/*
 * The file's note of cpu, where crash has none.  An arm64 QEMU dump has
 * no "QEMU" note, so crash takes it for a kdump one; its kernel's
 * crash_notes are empty (no kdump kernel stopped the CPUs), and
 * map_cpus_to_prstatus() keeps only the notes have_crash_notes() vouches
 * for: none.  libkdumpfile keeps them, and so does this.
 */
static const Elf64_Nhdr *unmapped_note(struct crash_ctx *c, int cpu)
{
	const struct ks_elf_notes *notes = file_notes(c);
	int note;

	if (!notes)
		return NULL;
	/*
	 * Which note is cpu's, as the dump's opener decides: with as many
	 * notes as online CPUs, the n-th note is the n-th online CPU's;
	 * otherwise (QEMU's one note per vCPU; no map) CPU n's.
	 */
	if (!c->note_map_tried) {
		c->note_map_tried = true;
		c->note_of_cpu = ks_cpu_note_map((long)ks_elf_notes_count(notes),
						 crash_nr_cpus(), crash_online,
						 NULL);
	}
	note = ks_cpu_note_of(c->note_of_cpu, crash_nr_cpus(), cpu);
	return note < 0 ? NULL : ks_elf_notes_prstatus(notes, (size_t)note);
}

/* The NT_PRSTATUS note of cpu, crash's or the file's, or NULL. */
static const void *prstatus_note(struct crash_ctx *c, int cpu)
{
	const Elf64_Nhdr *nh = qemu_note(c, cpu);

	if (nh)
		return nh;
	if (NETDUMP_DUMPFILE() || KDUMP_DUMPFILE()) {
		nh = netdump_get_prstatus_percpu(cpu);
		return nh ? nh : unmapped_note(c, cpu);
	}
	if (DISKDUMP_DUMPFILE())
		return diskdump_get_prstatus_percpu(cpu);
	return NULL;
}

/*
 * Registers of the task on cpu when the dump was taken, from NT_PRSTATUS:
 * the descriptor is the arch's struct elf_prstatus.
 */
static int prstatus_regs(struct crash_ctx *c, int cpu, struct ks_regs *regs_ret)
{
	const struct ks_arch *arch = reader.arch;
	const Elf64_Nhdr *nh;
	size_t desc;

	if (!arch)
		return -ENOENT;
	nh = prstatus_note(c, cpu);
	if (!nh || nh->n_type != NT_PRSTATUS_TYPE)
		return -ENOENT;
	desc = sizeof(*nh) + ((nh->n_namesz + 3) & ~3u);
	return arch->prstatus_regs((const char *)nh + desc, nh->n_descsz, regs_ret);
}

/*
 * crash's netdump_get_prstatus_percpu() counts the online CPUs on every
 * call, and that asks gdb for the size of cpumask_t: about 20 ms each
 * time on a 6.1 vmlinux.  The notes never change, so each CPU's answer
 * is asked once for the session (and of the file, for a QEMU dump).
 */
static int crash_cpu_regs(void *ctx, int cpu, struct ks_regs *regs_ret)
{
	struct crash_ctx *c = ctx;
	struct cpu_regs_seen *r;

	if (cpu < 0 || cpu >= NR_CPUS)
		return -ENOENT;
	if (!c->cpu_regs) {
		c->cpu_regs = calloc(NR_CPUS, sizeof(*c->cpu_regs));
		if (!c->cpu_regs)
			return prstatus_regs(c, cpu, regs_ret);
	}
	r = &c->cpu_regs[cpu];
	if (!r->asked) {
		r->ret = prstatus_regs(c, cpu, &r->regs);
		r->asked = true;
	}
	if (r->ret)
		return r->ret;
	*regs_ret = r->regs;
	return 0;
}

/*
 * The dump's VMCOREINFO line key, as crash keeps it (from the file's
 * note, or read from memory without one): arm64's paging and PAC facts
 * come from it, as kstack --vmcore reads them through libkdumpfile.
 * crash returns a copy to free, or NULL.
 */
static int crash_vmcoreinfo(void *ctx, const char *key, char *buf, size_t len)
{
	char *val;

	(void)ctx;
	if (!len || !pc->read_vmcoreinfo)
		return -ENOENT;
	val = pc->read_vmcoreinfo(key);
	if (!val)
		return -ENOENT;
	snprintf(buf, len, "%s", val);
	free(val);
	return 0;
}

/* symbol, lookup and the types: crash knows the kernel (image_open.h) */
static const struct ks_target_ops crash_ops = {
	.read = crash_read,
	.read_phys = crash_read_phys,
	.symbol = crash_name,
	.lookup = crash_table_lookup,
	.member_offset = crash_member_offset,
	.type_size = crash_type_size,
	.member_size = crash_member_size,
	.enum_value = crash_enum_value,
	.cpu_regs = crash_cpu_regs,
	.vmcoreinfo = crash_vmcoreinfo,
};

/* What the opener finds wrong, on crash's console. */
static void crash_say(void *arg, enum ks_say_level level, const char *text)
{
	(void)arg;
	(void)level;
	error(INFO, "kstack: %s\n", text);
}

static const struct ks_reporter crash_console = { .say = crash_say };

const struct ks_target *ks_crash_target(void)
{
	/*
	 * crash's machine type ("X86_64", "ARM64") names the arch; its
	 * vmlinux gives the .symtab and .BTF, and crash's CPU notes stay
	 * its own (crash maps them: crash_cpu_regs())
	 */
	const struct ks_image_source src = {
		.mem = &reader,
		.arch_name = MACHINE_TYPE,
		.who = "crash's dump",
		.vmlinux = pc->namelist,
		.nr_cpu_notes = -1,
		.rep = &crash_console,
	};

	if (target)
		return target;
	memset(&cctx, 0, sizeof(cctx));
	reader = (struct ks_target){ &crash_ops, &cctx, NULL };
	memset(&opened, 0, sizeof(opened));
	/* an architecture kstack does not read: ks_kernel_open() refuses */
	target = ks_image_open(&opened, &src) ? &reader : &opened.t;
	return target;
}

void ks_crash_target_report(const struct ks_reporter *rep)
{
	if (!target)
		return;
	if (!opened.im.syms)
		ks_say(rep, KS_WARN, "no .symtab in crash's vmlinux: addresses "
		       "named from crash's symbol table, which may pick "
		       "another alias than kallsyms");
	if (!opened.im.btf)
		ks_say(rep, KS_WARN, "no .BTF in crash's vmlinux: types from "
		       "gdb, which is slower");
	ks_kallsyms_report(opened.im.ksyms, rep);
}

void ks_crash_target_release(void)
{
	ks_page_cache_free(page_cache);
	page_cache = NULL;
	page_cache_tried = false;
	ks_elf_memory_close(dump_memory);
	dump_memory = NULL;
	dump_memory_tried = false;
	if (!target)
		return;
	ks_image_close(&opened);
	free(cctx.cpu_regs);
	free(cctx.note_of_cpu);
	ks_elf_notes_free(cctx.notes);
	memset(&cctx, 0, sizeof(cctx));
	target = NULL;
}
