// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * The crash side of struct ks_target.  Every read asks for
 * QUIET|RETURN_ON_ERROR, so a bad address is -EFAULT for the walker to
 * report, never a longjmp out of the command; reads go through a page
 * cache (shared/kernel/page_cache.c) that lives for one command.  An ELF
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
#include "btf.h"
#include "elf_memory.h"
#include "elf_notes.h"
#include "elf_symtab.h"
#include "kallsyms.h"
#include "image_open.h"
#include "kernel_image.h"
#include "page_cache.h"
#include "page_walk.h"
#include "sym_finders.h"
#include "target_crash.h"
#include "vmcoreinfo.h"

#define NT_PRSTATUS_TYPE 1

/* One CPU's NT_PRSTATUS registers, once asked. */
struct cpu_regs_seen {
	struct ks_regs regs;
	int ret;
	bool asked;
};

struct crash_ctx {
	struct ks_elf_symtab *vmlinux;	/* NULL: crash's symbols only */
	struct ks_btf *btf;		/* the vmlinux's .BTF, or NULL */
	struct ks_kallsyms *ksyms;
	bool ksyms_tried;
	struct ks_sym_finders finders;	/* crash's joined to the shared ones */
	struct ks_user_walk uw;		/* paging facts, for read_user */
	char name[256];			/* for a crash-table symbol's name */
	char module[64];
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
static struct ks_target target;
static bool target_ready;
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

/*
 * User memory of a task, through the shared walk of its page tables.
 * crash's uvtop() would want the task's context, which crash 8.0.2 does
 * not have for these kernels, and it reads mm->pgd with FAULT_ON_ERROR,
 * so one unmapped mm would end the command: this walk only returns
 * -EFAULT.
 */
static int crash_read_user(void *ctx, uint64_t task, uint64_t uaddr, void *buf,
			   size_t len)
{
	struct crash_ctx *c = ctx;

	return ks_page_read_user(&target, &c->uw, task, uaddr, buf, len);
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

static int crash_symbol(void *ctx, const char *name, uint64_t *addr_ret)
{
	struct crash_ctx *c = ctx;

	return ks_finders_symbol(&c->finders, name, addr_ret);
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

/* The kallsyms chain, read on the first frame that needs it. */
static int crash_chain_lookup(void *src, uint64_t addr, struct ks_sym *sym_ret)
{
	struct crash_ctx *c = src;

	if (!c->ksyms_tried) {
		int ret = ks_kallsyms_load(&target, &c->ksyms);

		c->ksyms_tried = true;
		if (ret) {	/* said once: modules' frames go unnamed */
			error(INFO, "kstack: the kallsyms chain (modules, BPF, "
			      "ftrace) cannot be read: %s\n", strerror(-ret));
			c->ksyms = NULL;
		}
	}
	return ks_kallsyms_lookup(c->ksyms, addr, sym_ret);
}

static int crash_lookup(void *ctx, uint64_t addr, struct ks_sym *sym_ret)
{
	struct crash_ctx *c = ctx;

	return ks_finders_lookup(&c->finders, addr, sym_ret);
}

/*
 * crash's finders in the shared order: crash names symbols; the
 * vmlinux's .symtab places addresses as kallsyms would, then the chain;
 * crash's table only when there is no .symtab.
 */
static void join_finders(struct crash_ctx *c)
{
	const struct ks_sym_finder name = { KS_FIND_VMLINUX, crash_name, NULL, c };
	const struct ks_sym_finder chain = { KS_FIND_CHAIN, NULL,
					     crash_chain_lookup, c };
	const struct ks_sym_finder table = { KS_FIND_FALLBACK, NULL,
					     crash_table_lookup, c };
	struct ks_sym_finder elf;

	ks_finders_add(&c->finders, &name);
	if (c->vmlinux) {
		elf = ks_finder_elf(c->vmlinux);
		elf.symbol = NULL;	/* crash_name() answers names */
		ks_finders_add(&c->finders, &elf);
	}
	ks_finders_add(&c->finders, &chain);
	if (!c->vmlinux)
		ks_finders_add(&c->finders, &table);
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
 * The vmlinux's BTF, when it has one, answers every type question, and
 * gdb only when it has none.  A first gdb lookup of a type costs
 * milliseconds (it expands the DWARF of a compilation unit), a type the
 * kernel lacks (module_memory before 6.4) costs more, and the walk asks
 * about a hundred: half of a first `kstack -a` on 10,000 threads.  BTF
 * answers in microseconds, and it is what kstack --vmcore reads, so both
 * decide each layout from the same facts.
 */
static long crash_member(struct crash_ctx *c, const char *type,
			 const char *member, bool size)
{
	if (c->btf)
		return size ? ks_btf_member_size(c->btf, type, member) :
			      ks_btf_member_offset(c->btf, type, member);
	return gdb_member(type, member, size);
}

static long crash_member_offset(void *ctx, const char *type, const char *member)
{
	return crash_member(ctx, type, member, false);
}

static long crash_member_size(void *ctx, const char *type, const char *member)
{
	return crash_member(ctx, type, member, true);
}

static long crash_type_size(void *ctx, const char *type)
{
	struct crash_ctx *c = ctx;
	long size;

	if (c->btf)
		return ks_btf_type_size(c->btf, type);
	size = STRUCT_SIZE(bare_type(type));
	return size < 0 ? -ENOENT : size;
}

/*
 * From the BTF as --vmcore reads it, else crash's own enumerator_value()
 * (the DWARF's): enumerator names are one namespace in C, so crash
 * needs no type.
 */
static int crash_enum_value(void *ctx, const char *type, const char *name,
			    long long *val_ret)
{
	struct crash_ctx *c = ctx;
	long v;

	if (c->btf)
		return ks_btf_enum_value(c->btf, type, name, val_ret);
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
	const struct ks_arch *arch = target.arch;
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

static const struct ks_target_ops crash_ops = {
	.read = crash_read,
	.read_phys = crash_read_phys,
	.read_user = crash_read_user,
	.symbol = crash_symbol,
	.lookup = crash_lookup,
	.member_offset = crash_member_offset,
	.type_size = crash_type_size,
	.member_size = crash_member_size,
	.enum_value = crash_enum_value,
	.cpu_regs = crash_cpu_regs,
	.vmcoreinfo = crash_vmcoreinfo,
};

/*
 * The paging facts of the user-memory walk, found as the dump's opener
 * finds them (the architecture's find_paging()): from the dump's
 * VMCOREINFO as crash keeps it, and page_offset_base through the target.
 */
static void find_paging(struct ks_paging *pg)
{
	const struct ks_vmcoreinfo vi = { .line = crash_vmcoreinfo, .arg = NULL };

	target.arch->find_paging(&target, &vi, pg);
}

/* kallsyms names from the vmlinux file, moved by the KASLR offset. */
static void open_vmlinux(struct crash_ctx *c)
{
	uint64_t link;

	if (!pc->namelist || ks_elf_symtab_open(pc->namelist, &c->vmlinux))
		return;
	link = ks_elf_symtab_stext(c->vmlinux);
	if (!symbol_exists("_stext") || !link) {
		ks_elf_symtab_free(c->vmlinux);
		c->vmlinux = NULL;
		return;
	}
	ks_elf_symtab_set_offset(c->vmlinux,
				 (int64_t)(symbol_value("_stext") - link));
	/* a vmlinux without .BTF, or a malformed one: gdb answers alone */
	if (ks_image_vmlinux_btf(c->vmlinux, &c->btf))
		c->btf = NULL;
}

const struct ks_target *ks_crash_target(void)
{
	if (target_ready)
		return &target;
	memset(&cctx, 0, sizeof(cctx));
	/*
	 * crash's machine type ("X86_64", "ARM64") names the arch, chosen
	 * once; ks_kernel_open() refuses a target without one
	 */
	ks_arch_resolve(MACHINE_TYPE, 0, &target.arch, NULL);
	cctx.uw.pg.arch = target.arch;
	open_vmlinux(&cctx);
	join_finders(&cctx);
	target.ops = &crash_ops;
	target.ctx = &cctx;
	/* after the finders: page_offset_base is a symbol */
	if (target.arch)
		find_paging(&cctx.uw.pg);
	target_ready = true;
	return &target;
}

void ks_crash_target_report(const struct ks_reporter *rep)
{
	if (!target_ready)
		return;
	if (!cctx.vmlinux)
		ks_say(rep, KS_WARN, "no .symtab in crash's vmlinux: addresses "
		       "named from crash's symbol table, which may pick "
		       "another alias than kallsyms");
	if (!cctx.btf)
		ks_say(rep, KS_WARN, "no .BTF in crash's vmlinux: types from "
		       "gdb, which is slower");
	ks_kallsyms_report(cctx.ksyms, rep);
}

void ks_crash_target_release(void)
{
	ks_page_cache_free(page_cache);
	page_cache = NULL;
	page_cache_tried = false;
	ks_elf_memory_close(dump_memory);
	dump_memory = NULL;
	dump_memory_tried = false;
	if (!target_ready)
		return;
	ks_elf_symtab_free(cctx.vmlinux);
	ks_btf_free(cctx.btf);
	ks_kallsyms_free(cctx.ksyms);
	free(cctx.cpu_regs);
	free(cctx.note_of_cpu);
	ks_elf_notes_free(cctx.notes);
	memset(&cctx, 0, sizeof(cctx));
	target_ready = false;
}
