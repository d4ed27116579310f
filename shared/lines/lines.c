// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * file:line of kernel frames with elfutils' libdw.
 *
 * A frame is known by the text kallsyms printed: name+off/size [module].
 * For vmlinux, name and size give the link-time address with kallsyms'
 * own rules (shared/kernel/image/elf_symtab.c: several static functions share a name,
 * the size tells them apart); for a module, the module's debug file's
 * symbol of that name.  The address then gives the line and the inlined
 * functions the way addr2line -f -i and eu-addr2line -i find them: the
 * line table for where the code is, then the function DIEs nested around
 * the address in the CU, each inlined one with the DW_AT_call_file and
 * DW_AT_call_line of its call in the function around it.
 *
 * Paths lose the build's source directory, found as decode_stacktrace.sh
 * finds it: where kernel_init's init/main.c lies.  Each distinct frame is
 * looked up once; a dump repeats few.
 */
#ifndef KS_NO_LIBDW
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <dwarf.h>
#include <elfutils/libdw.h>
#include <elfutils/libdwelf.h>
#include <elfutils/libdwfl.h>

#include "elf_symtab.h"
#include "grow.h"
#include "lines.h"

#define KASLR_ALIGN	0x200000ull	/* x86_64 moves the kernel in 2 MiB steps */
#define MAX_CHAIN	32
#define MAX_MODS	4096
#define MAX_CACHED	65536	/* distinct frames kept: memory stays flat */

/* A module symbol in the debug file, in libdwfl's address space. */
struct mod_sym {
	const char *name;
	uint64_t addr;
	uint64_t size;
	/*
	 * The size kallsyms prints for it: the distance to the next symbol of
	 * its section (exact), or at least to the section's end (the kernel
	 * places another section after it).
	 */
	uint64_t ksize;
	bool ksize_exact;
	uint32_t shndx;		/* its section, and its offset there */
	uint64_t value;
	bool func, code;
};

/* vmlinux or one module: its debug file, opened on first use. */
struct obj {
	char *name;		/* "vmlinux" or the module's name */
	char *path;		/* the file tried, or NULL when none was found */
	Dwarf *dw;		/* its DWARF */
	Dwarf_Addr bias;	/* symbol address - DWARF address */
	int fd;			/* vmlinux: read with libdw alone */
	Dwfl *dwfl;		/* modules: libdwfl relocates ET_REL files */
	Dwfl_Module *mod;
	struct ks_elf_symtab *own_syms;	/* vmlinux: kallsyms' names and sizes */
	const struct ks_elf_symtab *syms;	/* own_syms or the caller's */
	struct mod_sym *msyms;		/* modules: sorted by name */
	size_t nr_msyms;
	bool opened;
	int err;		/* why no lines: see why() */
	size_t missed;		/* frames without a line because of err */
	/* frames of it whose size was checked against its symbols */
	size_t judged, differ, absent;
	char example[160];	/* the first that differs, for the note */
};

struct cache_ent {
	char *key;
	struct ks_line_chain *chain;
};

struct ks_lines {
	struct ks_lines_config cfg;
	char *vmlinux_path;
	char release[256];
	const char *debug_dir;
	char *prefix;		/* the build's source directory, or NULL */
	char *asm_prefix;	/* the same for assembler files, or NULL */
	struct obj vmlinux;
	struct obj *mods;
	size_t nr_mods, mods_cap;
	char **mod_files;	/* every module file of the release, by name */
	size_t nr_mod_files, mod_files_cap;
	bool scanned;
	struct cache_ent *cache;
	size_t cache_cap, cache_used;
	size_t found, missing;
	struct ks_line_chain *spare;	/* the last chain when the cache is full */
	size_t malformed;	/* frames whose offset is not inside their size */
	char malformed_example[160];
	struct ks_line_chain empty;
};

static const Dwfl_Callbacks offline_callbacks = {
	.find_debuginfo = dwfl_standard_find_debuginfo,
	.section_address = dwfl_offline_section_address,
};

/* ---- the cache: frame text to chain, open addressing ---- */

static uint64_t hash_str(const char *s)
{
	uint64_t h = 0xcbf29ce484222325ull;

	for (; *s; s++)
		h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
	return h;
}

static struct cache_ent *cache_slot(struct ks_lines *l, const char *key)
{
	size_t i = hash_str(key) & (l->cache_cap - 1);

	while (l->cache[i].key && strcmp(l->cache[i].key, key))
		i = (i + 1) & (l->cache_cap - 1);
	return &l->cache[i];
}

static int cache_grow(struct ks_lines *l)
{
	struct cache_ent *old = l->cache;
	size_t old_cap = l->cache_cap, i;

	l->cache_cap = old_cap ? old_cap * 2 : 256;
	l->cache = calloc(l->cache_cap, sizeof(*l->cache));
	if (!l->cache) {
		l->cache = old;
		l->cache_cap = old_cap;
		return -ENOMEM;
	}
	for (i = 0; i < old_cap; i++)
		if (old[i].key)
			*cache_slot(l, old[i].key) = old[i];
	free(old);
	return 0;
}

/*
 * Keeps chain (which may be NULL: no line) under key; false when the
 * cache is full or out of memory, and the caller still owns chain.
 */
static bool cache_put(struct ks_lines *l, const char *key,
		      struct ks_line_chain *chain)
{
	struct cache_ent *e;

	if (l->cache_used >= MAX_CACHED)
		return false;
	if ((l->cache_used + 1) * 2 > l->cache_cap && cache_grow(l))
		return false;
	e = cache_slot(l, key);
	e->key = strdup(key);
	if (!e->key)
		return false;
	e->chain = chain;
	l->cache_used++;
	return true;
}

/* ---- finding the files ---- */

static bool is_file(const char *path)
{
	return !access(path, R_OK);
}

static void find_vmlinux(struct ks_lines *l)
{
	static const char *const fmts[] = {
		"%s/boot/vmlinux-%s", "/boot/vmlinux-%2$s",
		"/lib/modules/%2$s/build/vmlinux",
	};
	char path[PATH_MAX];
	size_t i;

	if (l->cfg.vmlinux) {
		l->vmlinux_path = strdup(l->cfg.vmlinux);
		return;
	}
	for (i = 0; i < sizeof(fmts) / sizeof(fmts[0]); i++) {
		snprintf(path, sizeof(path), fmts[i], l->debug_dir, l->release);
		if (is_file(path)) {
			l->vmlinux_path = strdup(path);
			return;
		}
	}
	/* for the note: where it was looked for first */
	snprintf(path, sizeof(path), fmts[0], l->debug_dir, l->release);
	l->vmlinux.path = strdup(path);
}

/* "ext4.ko.xz" or "nf-nat.ko.debug" as kallsyms names the module. */
static bool module_name(const char *file, char *name, size_t len)
{
	const char *ko = strstr(file, ".ko");
	size_t n;

	if (!ko || (ko[3] && ko[3] != '.'))
		return false;
	n = (size_t)(ko - file);
	if (!n || n >= len)
		return false;
	memcpy(name, file, n);
	name[n] = '\0';
	for (char *p = name; *p; p++)
		if (*p == '-')
			*p = '_';
	return true;
}

static struct ks_lines *scanning;	/* nftw() passes no argument */

static int scan_one(const char *path, const struct stat *st, int type,
		    struct FTW *ftw)
{
	struct ks_lines *l = scanning;
	char name[256], **v;

	(void)st;
	if (type != FTW_F || !module_name(path + ftw->base, name, sizeof(name)))
		return 0;
	if (l->nr_mod_files >= 65536)
		return 1;
	v = ks_grow(l->mod_files, &l->mod_files_cap, l->nr_mod_files + 1,
		    sizeof(*v));
	if (!v)
		return 1;
	l->mod_files = v;
	/* "name\0path": the name first for lookups */
	v[l->nr_mod_files] = malloc(strlen(name) + strlen(path) + 2);
	if (!v[l->nr_mod_files])
		return 1;
	strcpy(v[l->nr_mod_files], name);
	strcpy(v[l->nr_mod_files] + strlen(name) + 1, path);
	l->nr_mod_files++;
	return 0;
}

/* Every module file of the release, debug files first. */
static void scan_modules(struct ks_lines *l)
{
	char dir[PATH_MAX];

	if (l->scanned)
		return;
	l->scanned = true;
	scanning = l;
	snprintf(dir, sizeof(dir), "%s/lib/modules/%s", l->debug_dir, l->release);
	nftw(dir, scan_one, 16, FTW_PHYS);
	snprintf(dir, sizeof(dir), "/lib/modules/%s", l->release);
	nftw(dir, scan_one, 16, FTW_PHYS);
	scanning = NULL;
}

static const char *module_file(struct ks_lines *l, const char *name)
{
	size_t i;

	scan_modules(l);
	for (i = 0; i < l->nr_mod_files; i++)
		if (!strcmp(l->mod_files[i], name))
			return l->mod_files[i] + strlen(name) + 1;
	return NULL;
}

/* ---- build ids: a debug file must be of the running kernel ---- */

/*
 * Does obj's file carry the build id the running kernel shows for module
 * (NULL: vmlinux)?  Without a kernel to ask, or an id on either side,
 * nothing says otherwise.
 */
static bool same_build(const struct ks_lines *l, struct obj *o,
		       const char *module)
{
	const void *bits;
	uint8_t id[64];
	size_t id_len;
	ssize_t len;

	if (!l->cfg.build_id ||
	    l->cfg.build_id(l->cfg.build_id_arg, module, id, sizeof(id), &id_len))
		return true;
	len = dwelf_elf_gnu_build_id(dwarf_getelf(o->dw), &bits);
	if (len <= 0)
		return true;
	return (size_t)len == id_len && !memcmp(bits, id, id_len);
}

/* ---- opening one object ---- */

/* A module: libdwfl lays out and relocates its sections. */
static int report_file(struct obj *o)
{
	o->dwfl = dwfl_begin(&offline_callbacks);
	if (!o->dwfl)
		return -ENOMEM;
	o->mod = dwfl_report_offline(o->dwfl, o->name, o->path, -1);
	dwfl_report_end(o->dwfl, NULL, NULL);
	if (!o->mod)
		return -ENOEXEC;
	o->dw = dwfl_module_getdwarf(o->mod, &o->bias);
	return o->dw ? 0 : -ENODATA;	/* a stripped file: symbols, no DWARF */
}

/*
 * vmlinux with libdw alone: an executable needs no relocation, and
 * dwarf_addrdie() on .debug_aranges costs half of libdwfl's CU index.
 */
static int open_dwarf(struct obj *o)
{
	Elf *elf;
	bool is_elf;

	o->fd = open(o->path, O_RDONLY | O_CLOEXEC);
	if (o->fd < 0)
		return -errno;
	o->dw = dwarf_begin(o->fd, DWARF_C_READ);
	if (o->dw)
		return 0;
	/* an ELF file without DWARF was stripped */
	elf_version(EV_CURRENT);
	elf = elf_begin(o->fd, ELF_C_READ_MMAP, NULL);
	is_elf = elf && elf_kind(elf) == ELF_K_ELF;
	elf_end(elf);
	return is_elf ? -ENODATA : -ENOEXEC;
}

static int cmp_msym(const void *a, const void *b)
{
	const struct mod_sym *x = a, *y = b;
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	return x->addr < y->addr ? -1 : x->addr > y->addr;
}

/* is_mapping_symbol(): names kallsyms never prints nor sizes by */
static bool mapping_symbol(const char *name)
{
	return name[0] == '$' || (name[0] == '.' && name[1] == 'L') ||
	       (name[0] == 'L' && name[1] == '0');
}

static int cmp_msym_place(const void *a, const void *b)
{
	const struct mod_sym *x = a, *y = b;

	if (x->shndx != y->shndx)
		return x->shndx < y->shndx ? -1 : 1;
	return x->value < y->value ? -1 : x->value > y->value;
}

static uint64_t section_size(Elf *elf, uint32_t shndx)
{
	GElf_Shdr shdr;
	Elf_Scn *scn = elf ? elf_getscn(elf, shndx) : NULL;

	return scn && gelf_getshdr(scn, &shdr) ? shdr.sh_size : 0;
}

/*
 * find_kallsyms_symbol()'s size of each symbol: up to the next one of its
 * section; the last one's runs at least to the section's end.
 */
static void size_module_syms(struct obj *o)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(o->mod, &bias);
	struct mod_sym *s = o->msyms, *next;
	size_t i;

	qsort(s, o->nr_msyms, sizeof(*s), cmp_msym_place);
	for (i = 0; i < o->nr_msyms; i++) {
		next = i + 1 < o->nr_msyms ? &s[i + 1] : NULL;
		if (next && next->shndx == s[i].shndx) {
			s[i].ksize = next->value - s[i].value;
			s[i].ksize_exact = true;
			continue;
		}
		s[i].ksize = section_size(elf, s[i].shndx);
		s[i].ksize = s[i].ksize > s[i].value ? s[i].ksize - s[i].value : 0;
	}
}

static int index_module_syms(struct obj *o)
{
	int n = dwfl_module_getsymtab(o->mod), i;
	size_t kept = 0;

	if (n <= 0)
		return -ENODATA;
	o->msyms = calloc((size_t)n, sizeof(*o->msyms));
	if (!o->msyms)
		return -ENOMEM;
	/* every symbol kallsyms keeps, for the sizes it prints ... */
	for (i = 1; i < n; i++) {
		GElf_Sym sym;
		GElf_Addr addr;
		GElf_Word shndx;
		const char *name = dwfl_module_getsym_info(o->mod, i, &sym, &addr,
							   &shndx, NULL, NULL);
		int type;

		if (!name || !*name || mapping_symbol(name) ||
		    shndx == SHN_UNDEF || shndx >= SHN_LORESERVE)
			continue;
		type = GELF_ST_TYPE(sym.st_info);
		if (type == STT_SECTION || type == STT_FILE)
			continue;
		o->msyms[o->nr_msyms++] = (struct mod_sym){
			.name = name, .addr = addr, .size = sym.st_size,
			.shndx = shndx, .value = sym.st_value,
			.func = type == STT_FUNC, .code = type == STT_FUNC ||
							  type == STT_NOTYPE,
		};
	}
	size_module_syms(o);
	/* ... of which frames name code */
	for (size_t j = 0; j < o->nr_msyms; j++)
		if (o->msyms[j].code)
			o->msyms[kept++] = o->msyms[j];
	o->nr_msyms = kept;
	qsort(o->msyms, o->nr_msyms, sizeof(*o->msyms), cmp_msym);
	return 0;
}

static int open_vmlinux(struct ks_lines *l)
{
	struct obj *o = &l->vmlinux;
	int ret;

	o->path = l->vmlinux_path ? strdup(l->vmlinux_path) : o->path;
	if (!l->vmlinux_path)
		return -ENOENT;
	/* symbols first: a stripped vmlinux still names the release */
	o->syms = l->cfg.syms;
	if (!o->syms) {
		ret = ks_elf_symtab_open(o->path, &o->own_syms);
		if (ret)	/* -ENODATA: no .symtab, stripped */
			return ret;
		o->syms = o->own_syms;
	}
	ret = open_dwarf(o);
	if (ret)
		return ret;
	if (!same_build(l, o, NULL))
		return -ESRCH;
	return 0;
}

static int open_module(struct ks_lines *l, struct obj *o)
{
	char where[PATH_MAX];
	const char *path;
	int ret;

	if (!l->release[0])
		return -EDOM;
	path = module_file(l, o->name);
	if (!path) {
		/* for the note: where a debug file was looked for */
		snprintf(where, sizeof(where), "%s/lib/modules/%s/**/%s.ko",
			 l->debug_dir, l->release, o->name);
		o->path = strdup(where);
		return -ENOENT;
	}
	o->path = strdup(path);
	if (!o->path)
		return -ENOMEM;
	ret = report_file(o);
	if (!ret)
		ret = index_module_syms(o);
	if (!ret && !same_build(l, o, o->name))
		ret = -ESRCH;
	return ret;
}

/* The release of the kernel in vmlinux, from its linux_banner. */
static void release_of(const struct ks_elf_symtab *tab, char *out, size_t len)
{
	char banner[256];
	uint64_t addr;
	size_t n;

	if (ks_elf_symtab_addr(tab, "linux_banner", &addr))
		return;
	/* the string may end near the end of its section: shorter reads */
	for (n = sizeof(banner) - 1; n > 14; n--)
		if (!ks_elf_read(tab, addr, banner, n))
			break;
	banner[n] = '\0';
	if (n > 14 && !strncmp(banner, "Linux version ", 14))
		snprintf(out, len, "%.*s", (int)strcspn(banner + 14, " "),
			 banner + 14);
}

static void find_prefix(struct ks_lines *l);

static struct obj *get_obj(struct ks_lines *l, const char *module)
{
	struct obj *o = NULL, *v;
	size_t i;

	if (!module) {
		o = &l->vmlinux;
		if (!o->opened) {
			o->opened = true;
			o->err = open_vmlinux(l);
			if (o->syms && !l->release[0])
				release_of(o->syms, l->release, sizeof(l->release));
			if (!o->err)
				find_prefix(l);
		}
		return o;
	}
	/* the modules' directory is named by the vmlinux's release */
	if (!l->release[0])
		get_obj(l, NULL);
	for (i = 0; i < l->nr_mods; i++)
		if (!strcmp(l->mods[i].name, module))
			return &l->mods[i];
	if (l->nr_mods >= MAX_MODS)
		return NULL;
	v = ks_grow(l->mods, &l->mods_cap, l->nr_mods + 1, sizeof(*v));
	if (!v)
		return NULL;
	l->mods = v;
	o = &l->mods[l->nr_mods];
	memset(o, 0, sizeof(*o));
	o->fd = -1;
	o->name = strdup(module);
	if (!o->name)
		return NULL;
	l->nr_mods++;
	o->opened = true;
	o->err = open_module(l, o);
	return o;
}

/* ---- DWARF: the line and the inlined functions at an address ---- */

static bool is_function(Dwarf_Die *die)
{
	int tag = dwarf_tag(die);

	return tag == DW_TAG_subprogram || tag == DW_TAG_inlined_subroutine ||
	       tag == DW_TAG_entry_point;
}

static const char *strip_one(const char *prefix, const char *file)
{
	size_t n = prefix ? strlen(prefix) : 0;

	return n && !strncmp(file, prefix, n) ? file + n : file;
}

static const char *strip_prefix(const struct ks_lines *l, const char *file)
{
	const char *rel;

	if (!file)
		return file;
	rel = strip_one(l->prefix, file);
	return rel != file ? rel : strip_one(l->asm_prefix, file);
}

/* The call site of the inlined function die, in its caller. */
static void call_site(const struct ks_lines *l, Dwarf_Die *die,
		      struct ks_line_loc *loc)
{
	Dwarf_Attribute attr;
	Dwarf_Files *files;
	Dwarf_Word val;
	Dwarf_Die cu;

	loc->file = NULL;
	loc->line = 0;
	if (dwarf_diecu(die, &cu, NULL, NULL) &&
	    !dwarf_getsrcfiles(&cu, &files, NULL) &&
	    !dwarf_formudata(dwarf_attr(die, DW_AT_call_file, &attr), &val))
		loc->file = strip_prefix(l, dwarf_filesrc(files, val, NULL, NULL));
	if (!dwarf_formudata(dwarf_attr(die, DW_AT_call_line, &attr), &val))
		loc->line = (int)val;
}

/* The CU holding pc, and the bias from symbol to DWARF addresses. */
static bool find_cu(const struct obj *o, Dwarf_Addr pc, Dwarf_Die *cu,
		    Dwarf_Addr *bias)
{
	Dwarf_Die *d;

	if (!o->mod) {
		*bias = o->bias;
		return dwarf_addrdie(o->dw, pc - o->bias, cu) != NULL;
	}
	d = dwfl_module_addrdie(o->mod, pc, bias);
	if (!d)
		return false;
	*cu = *d;
	return true;
}

/* Tags of DIEs whose address ranges may hold code (and other scopes). */
static bool may_hold_pc(int tag)
{
	switch (tag) {
	case DW_TAG_subprogram: case DW_TAG_inlined_subroutine:
	case DW_TAG_lexical_block: case DW_TAG_entry_point:
	case DW_TAG_namespace: case DW_TAG_module: case DW_TAG_with_stmt:
	case DW_TAG_try_block: case DW_TAG_catch_block:
		return true;
	default:
		return false;
	}
}

/*
 * The function DIEs around pc, innermost first, as nested in the CU: one
 * walk down, where dwarf_getscopes() + dwarf_getscopes_die(), as
 * eu-addr2line does it, walk the CU three times.
 */
static int function_scopes(Dwarf_Die *cu, Dwarf_Addr pc, Dwarf_Die *out,
			   int max)
{
	Dwarf_Die die = *cu, child, tmp;
	int nr = 0, i;
	bool found;

	while (nr < max && dwarf_child(&die, &child) == 0) {
		found = false;
		do {
			if (may_hold_pc(dwarf_tag(&child)) &&
			    dwarf_haspc(&child, pc) > 0) {
				found = true;
				break;
			}
		} while (dwarf_siblingof(&child, &child) == 0);
		if (!found)
			break;
		if (is_function(&child))
			out[nr++] = child;
		die = child;
	}
	for (i = 0; i < nr / 2; i++) {
		tmp = out[i];
		out[i] = out[nr - 1 - i];
		out[nr - 1 - i] = tmp;
	}
	/* a nested out-of-line function would end the chain: keep from it in */
	for (i = 0; i < nr; i++)
		if (dwarf_tag(&out[i]) != DW_TAG_inlined_subroutine)
			return i + 1;
	return nr;
}

static struct ks_line_chain *chain_at(const struct ks_lines *l,
				      const struct obj *o, Dwarf_Addr pc)
{
	Dwarf_Die funcs[MAX_CHAIN], cu;
	struct ks_line_chain *c;
	Dwarf_Addr bias;
	Dwarf_Line *line;
	const char *file;
	int lineno = 0, nr, i;

	if (!find_cu(o, pc, &cu, &bias))
		return NULL;
	pc -= bias;
	line = dwarf_getsrc_die(&cu, pc);
	file = line ? dwarf_linesrc(line, NULL, NULL) : NULL;
	if (!file || dwarf_lineno(line, &lineno) || !lineno)
		return NULL;
	nr = function_scopes(&cu, pc, funcs, MAX_CHAIN);
	c = calloc(1, sizeof(*c) + (size_t)(nr ? nr : 1) * sizeof(c->loc[0]));
	if (!c)
		return NULL;
	c->loc[0].file = strip_prefix(l, file);
	c->loc[0].line = lineno;
	c->loc[0].func = nr ? dwarf_diename(&funcs[0]) : NULL;
	c->n = 1;
	for (i = 1; i < nr; i++) {
		call_site(l, &funcs[i - 1], &c->loc[i]);
		if (!c->loc[i].file)
			break;
		c->loc[i].func = dwarf_diename(&funcs[i]);
		c->n++;
	}
	return c;
}

/*
 * Where the source file tail of the function sym lies, minus the tail:
 * decode_stacktrace.sh's base path, from kernel_init's init/main.c.
 */
static char *source_root(struct ks_lines *l, const char *sym, const char *tail)
{
	struct ks_line_chain *c;
	size_t len, n = strlen(tail);
	char *root = NULL;
	uint64_t addr;

	if (ks_elf_symtab_addr(l->vmlinux.syms, sym, &addr))
		return NULL;
	c = chain_at(l, &l->vmlinux, addr - (uint64_t)l->cfg.kaslr);
	if (!c)
		return NULL;
	len = strlen(c->loc[0].file);
	if (len >= n && !strcmp(c->loc[0].file + len - n, tail))
		root = strndup(c->loc[0].file, len - n);
	free(c);
	return root;
}

/*
 * C files are named relative to the build directory, assembler files
 * by the absolute path gas was given (Debian's:
 * /build/reproducible-path/linux-6.1.192/arch/x86/entry/entry_64.S):
 * each kind's root is found from a file of that kind.
 */
static void find_prefix(struct ks_lines *l)
{
	l->prefix = source_root(l, "kernel_init", "init/main.c");
	l->asm_prefix = source_root(l, "entry_SYSCALL_64",
				    "arch/x86/entry/entry_64.S");
}

/* ---- frames ---- */

static int cmp_msym_name(const void *key, const void *elem)
{
	const struct mod_sym *s = elem;

	return strcmp(key, s->name);
}

/* The first of the module's symbols called name (msyms is sorted by name). */
static const struct mod_sym *first_msym(const struct obj *o, const char *name)
{
	const struct mod_sym *hit;

	hit = o->nr_msyms ? bsearch(name, o->msyms, o->nr_msyms,
				    sizeof(*o->msyms), cmp_msym_name) : NULL;
	while (hit && hit > o->msyms && !strcmp(hit[-1].name, name))
		hit--;
	return hit;
}

static bool same_name(const struct obj *o, const struct mod_sym *s,
		      const char *name)
{
	return s < o->msyms + o->nr_msyms && !strcmp(s->name, name);
}

/* Could kallsyms have printed s with size? */
static bool module_size_ok(const struct mod_sym *s, uint64_t size)
{
	return s->ksize_exact ? s->ksize == size : size >= s->ksize;
}

/*
 * The module symbol name+off/size: a function kallsyms sizes so, else one
 * whose size holds off, else the first.
 */
static int module_addr(const struct obj *o, const char *name, uint64_t off,
		       uint64_t size, uint64_t *addr_ret)
{
	const struct mod_sym *pick = NULL, *s = first_msym(o, name);

	for (; s && same_name(o, s, name); s++) {
		if (!s->func)
			continue;
		if (size && module_size_ok(s, size)) {
			pick = s;
			break;
		}
		if (!pick && off <= s->size)
			pick = s;
	}
	s = first_msym(o, name);
	if (!pick && !s)
		return -ENOENT;
	*addr_ret = (pick ? pick : s)->addr + off;
	return 0;
}

/* kallsyms' size of the first vmlinux symbol called name, 0 without one. */
static uint64_t vmlinux_size(const struct obj *o, const char *name)
{
	struct ks_sym sym;
	uint64_t addr;

	if (ks_elf_symtab_find(o->syms, name, 0, &addr) ||
	    ks_elf_symtab_lookup(o->syms, addr, &sym))
		return 0;
	return sym.size;
}

/* 0: o has a symbol name of that size; -ESRCH: not (*have: the first's); -ENOENT */
static int judge_size(const struct ks_lines *l, const struct obj *o,
		      const char *name, uint64_t size, uint64_t *have)
{
	const struct mod_sym *s;
	uint64_t addr;
	int ret;

	if (o == &l->vmlinux) {
		ret = ks_elf_symtab_find(o->syms, name, size, &addr);
		if (ret == -ESRCH)
			*have = vmlinux_size(o, name);
		return ret;
	}
	s = first_msym(o, name);
	if (!s)
		return -ENOENT;
	*have = s->ksize;
	for (; same_name(o, s, name); s++)
		if (module_size_ok(s, size))
			return 0;
	return -ESRCH;
}

static struct ks_line_chain *resolve(struct ks_lines *l, struct obj *o,
				     const char *name, uint64_t off,
				     uint64_t size)
{
	uint64_t addr;

	/* one frame of another build makes every match of o chance */
	if (!o || o->err || o->differ)
		return NULL;
	if (o == &l->vmlinux) {
		if (ks_elf_symtab_find(o->syms, name, size, &addr))
			return NULL;
		/* without a printed size: an offset past the function is another's code */
		if (!size && off >= vmlinux_size(o, name))
			return NULL;
		addr += off - (uint64_t)l->cfg.kaslr;	/* to the link-time address */
	} else if (module_addr(o, name, off, size, &addr)) {
		return NULL;
	}
	return chain_at(l, o, addr);
}

/* JIT code and trampolines have no source; nothing to say about them. */
static bool never_has_lines(const char *module)
{
	return module && (!strcmp(module, "bpf") || !strncmp(module, "__builtin", 9));
}

static struct ks_line_chain *compute(struct ks_lines *l, const char *name,
				     uint64_t off, uint64_t size,
				     const char *module)
{
	struct ks_line_chain *c;
	struct obj *o;

	if (never_has_lines(module))
		return NULL;
	o = get_obj(l, module);
	c = resolve(l, o, name, off, size);
	if (!c && o)
		o->missed++;
	return c;
}

static const struct ks_line_chain *lookup(struct ks_lines *l, const char *key,
					  const char *name, uint64_t off,
					  uint64_t size, const char *module)
{
	struct cache_ent *e = l->cache_cap ? cache_slot(l, key) : NULL;
	struct ks_line_chain *c;

	if (e && e->key) {
		c = e->chain;
	} else {
		c = compute(l, name, off, size, module);
		if (!cache_put(l, key, c)) {
			/* kept until the next frame: the cache is full */
			free(l->spare);
			l->spare = c;
		}
	}
	if (!c) {
		l->missing++;
		return &l->empty;
	}
	l->found++;
	return c;
}

static void frame_text(char *buf, size_t len, const char *name, uint64_t off,
		       uint64_t size)
{
	snprintf(buf, len, "%s+0x%llx/0x%llx", name, (unsigned long long)off,
		 (unsigned long long)size);
}

const struct ks_line_chain *ks_lines_frame(struct ks_lines *l, const char *name,
					   uint64_t off, uint64_t size,
					   const char *module)
{
	char key[512];

	/* the return address lies inside the function: this text is damaged */
	if (size && off >= size) {
		if (!l->malformed++)
			frame_text(l->malformed_example,
				   sizeof(l->malformed_example), name, off, size);
		return &l->empty;
	}
	snprintf(key, sizeof(key), "%s+%llx/%llx %s", name,
		 (unsigned long long)off, (unsigned long long)size,
		 module ? module : "");
	return lookup(l, key, name, off, size, module);
}

void ks_lines_judge(struct ks_lines *l, const char *name, uint64_t off,
		    uint64_t size, const char *module)
{
	struct obj *o;
	uint64_t have = 0;
	int ret;

	/* no size to compare, or a damaged frame: no proof either way */
	if (!size || off >= size || never_has_lines(module))
		return;
	o = get_obj(l, module);
	if (!o || o->err)
		return;
	o->judged++;
	ret = judge_size(l, o, name, size, &have);
	if (ret == -ENOENT)
		o->absent++;
	if (ret != -ESRCH || o->differ++)
		return;
	frame_text(o->example, sizeof(o->example), name, off, size);
	snprintf(o->example + strlen(o->example),
		 sizeof(o->example) - strlen(o->example), " is 0x%llx in it",
		 (unsigned long long)have);
}

bool ks_lines_foreign(const struct ks_lines *l)
{
	size_t i;

	if (l->vmlinux.differ)
		return true;
	for (i = 0; i < l->nr_mods; i++)
		if (l->mods[i].differ)
			return true;
	return false;
}

const struct ks_line_chain *ks_lines_frame_at(struct ks_lines *l,
					      const char *name, uint64_t addr)
{
	struct obj *o = get_obj(l, NULL);
	uint64_t start, pc;
	struct ks_sym sym;
	unsigned int i;

	if (o->err)
		return ks_lines_frame(l, name, 0, 0, NULL);
	/*
	 * The KASLR shift is a multiple of KASLR_ALIGN and a function is
	 * smaller: of the symbols of that name (a variable may share it),
	 * the one the address falls in.
	 */
	for (i = 0; !ks_elf_symtab_find_nth(o->syms, name, 0, i, &start); i++) {
		pc = start + ((addr - start) & (KASLR_ALIGN - 1));
		if (!ks_elf_symtab_lookup(o->syms, pc, &sym) && sym.addr == start)
			return ks_lines_frame(l, name, pc - start, sym.size, NULL);
	}
	l->missing++;
	return &l->empty;
}

/* ---- setup and the note ---- */

struct ks_lines *ks_lines_open(const struct ks_lines_config *cfg)
{
	struct ks_lines *l = calloc(1, sizeof(*l));

	if (!l)
		return NULL;
	l->cfg = *cfg;
	l->debug_dir = cfg->debug_dir && *cfg->debug_dir ? cfg->debug_dir :
		       "/usr/lib/debug";
	l->vmlinux.name = "vmlinux";
	l->vmlinux.fd = -1;
	/* without it, the release of the vmlinux's linux_banner */
	if (cfg->release)
		snprintf(l->release, sizeof(l->release), "%s", cfg->release);
	find_vmlinux(l);
	return l;
}

static void obj_release(struct obj *o)
{
	free(o->path);
	free(o->msyms);
	ks_elf_symtab_free(o->own_syms);
	if (o->dwfl)
		dwfl_end(o->dwfl);
	else if (o->dw)
		dwarf_end(o->dw);
	if (o->fd >= 0)
		close(o->fd);
}

void ks_lines_close(struct ks_lines *l)
{
	size_t i;

	if (!l)
		return;
	for (i = 0; i < l->cache_cap; i++) {
		free(l->cache[i].key);
		free(l->cache[i].chain);
	}
	free(l->cache);
	obj_release(&l->vmlinux);
	for (i = 0; i < l->nr_mods; i++) {
		obj_release(&l->mods[i]);
		free(l->mods[i].name);
	}
	free(l->mods);
	for (i = 0; i < l->nr_mod_files; i++)
		free(l->mod_files[i]);
	free(l->mod_files);
	free(l->vmlinux_path);
	free(l->prefix);
	free(l->asm_prefix);
	free(l->spare);
	free(l);
}

void ks_lines_counts(const struct ks_lines *l, size_t *found, size_t *missing)
{
	*found = l->found;
	*missing = l->missing;
}

static const char *why(int err)
{
	switch (err) {
	case -ENOENT: return "not found";
	case -ENODATA: return "no DWARF (stripped)";
	case -ESRCH: return "another build than the kernel's";
	case -ENOEXEC: return "not an ELF file";
	case -EDOM: return "no kernel release to look it up by";
	default: return strerror(-err);
	}
}

static void note_obj(FILE *out, const struct obj *o, const char **sep)
{
	if (!o->err || !o->missed)
		return;
	fprintf(out, "%s%s (%s%s%s)", *sep, o->name, why(o->err),
		o->path ? ": " : "", o->path ? o->path : "");
	*sep = ", ";
}

static bool not_found(const struct obj *o)
{
	return o->err == -ENOENT && o->missed;
}

static void report_missing(const struct ks_lines *l, ks_report_fn report,
			   void *arg)
{
	const char *sep = "";
	size_t i, bad = l->vmlinux.err && l->vmlinux.missed, size = 0;
	bool absent = not_found(&l->vmlinux);
	char *msg = NULL;
	FILE *out;

	for (i = 0; i < l->nr_mods; i++) {
		bad += l->mods[i].err && l->mods[i].missed;
		absent |= not_found(&l->mods[i]);
	}
	if (!bad)
		return;
	/* one message, however many modules it names */
	out = open_memstream(&msg, &size);
	if (!out) {
		ks_report(report, arg, "frames without file:line, no debug info");
		return;
	}
	fprintf(out, "frames without file:line, no debug info for ");
	note_obj(out, &l->vmlinux, &sep);
	for (i = 0; i < l->nr_mods; i++)
		note_obj(out, &l->mods[i], &sep);
	if (absent && l->release[0])
		fprintf(out, "; install linux-image-%s-dbg, or set KSTACK_DEBUG_DIR"
			" to a directory laid out as /usr/lib/debug", l->release);
	if (l->vmlinux.err && l->vmlinux.missed && !l->cfg.vmlinux)
		fprintf(out, "; --vmlinux names the debug vmlinux");
	/* not through ks_report(): its buffer would cut a long list short */
	if (!fclose(out) && report)
		report(arg, msg);
	free(msg);
}

/* The release a module was built for: the first word of its vermagic. */
static void module_release(const struct obj *o, char *out, size_t len)
{
	GElf_Addr bias;
	Elf *elf = dwfl_module_getelf(o->mod, &bias);
	Elf_Scn *scn = NULL;
	size_t shstrndx;
	GElf_Shdr shdr;
	Elf_Data *data;
	const char *p, *end, *name;

	if (!elf || elf_getshdrstrndx(elf, &shstrndx))
		return;
	while ((scn = elf_nextscn(elf, scn))) {
		name = gelf_getshdr(scn, &shdr) ?
		       elf_strptr(elf, shstrndx, shdr.sh_name) : NULL;
		if (name && !strcmp(name, ".modinfo"))
			break;
	}
	data = scn ? elf_getdata(scn, NULL) : NULL;
	if (!data || !data->d_buf)
		return;
	/* NUL-separated "key=value" strings */
	for (p = data->d_buf, end = p + data->d_size; p < end;
	     p += strnlen(p, (size_t)(end - p)) + 1)
		if ((size_t)(end - p) > 9 && !strncmp(p, "vermagic=", 9)) {
			snprintf(out, len, "%.*s", (int)strcspn(p + 9, " "), p + 9);
			return;
		}
}

/*
 * Sizes that differ prove the debug file is of another build; the frames
 * its sizes matched matched by chance, so none was decoded with it.
 */
static void report_foreign(const struct ks_lines *l, const struct obj *o,
			   ks_report_fn report, void *arg)
{
	char release[256] = "", of[96] = "";
	bool vmlinux = o == &l->vmlinux;

	if (!o->differ)
		return;
	if (vmlinux) {
		release_of(o->syms, release, sizeof(release));
	} else {
		module_release(o, release, sizeof(release));
		snprintf(of, sizeof(of), " of %s", o->name);
	}
	ks_report(report, arg,
		  "%zu of %zu frames%s do not match %s: %s, e.g. %s; %s is of "
		  "Linux %s: no frame%s decoded with it",
		  o->differ + o->absent, o->judged, of,
		  vmlinux ? "this vmlinux" : "its debug file",
		  o->absent ? "sizes differ or names are absent" : "sizes differ",
		  o->example, o->path ? o->path : o->name,
		  release[0] ? release : "(release unknown)", of);
}

void ks_lines_report(const struct ks_lines *l, ks_report_fn report, void *arg)
{
	size_t i;

	/* the wrong files first: the cause of most bare frames */
	report_foreign(l, &l->vmlinux, report, arg);
	for (i = 0; i < l->nr_mods; i++)
		report_foreign(l, &l->mods[i], report, arg);
	report_missing(l, report, arg);
	if (l->malformed)
		ks_report(report, arg,
			  "%zu frame%s left as %s: an offset past the function's "
			  "size is damaged text, e.g. %s", l->malformed,
			  l->malformed == 1 ? "" : "s",
			  l->malformed == 1 ? "it was" : "they were",
			  l->malformed_example);
}

#else /* KS_NO_LIBDW: the static guest binary */

#include <stdlib.h>

#include "lines.h"

struct ks_lines {
	struct ks_line_chain empty;
	size_t missing;
};

struct ks_lines *ks_lines_open(const struct ks_lines_config *cfg)
{
	(void)cfg;
	return calloc(1, sizeof(struct ks_lines));
}

void ks_lines_close(struct ks_lines *l)
{
	free(l);
}

const struct ks_line_chain *ks_lines_frame(struct ks_lines *l, const char *name,
					   uint64_t off, uint64_t size,
					   const char *module)
{
	(void)name, (void)off, (void)size, (void)module;
	l->missing++;
	return &l->empty;
}

const struct ks_line_chain *ks_lines_frame_at(struct ks_lines *l,
					      const char *name, uint64_t addr)
{
	return ks_lines_frame(l, name, addr, 0, NULL);
}

void ks_lines_counts(const struct ks_lines *l, size_t *found, size_t *missing)
{
	*found = 0;
	*missing = l->missing;
}

void ks_lines_judge(struct ks_lines *l, const char *name, uint64_t off,
		    uint64_t size, const char *module)
{
	(void)l, (void)name, (void)off, (void)size, (void)module;
}

bool ks_lines_foreign(const struct ks_lines *l)
{
	(void)l;
	return false;
}

void ks_lines_report(const struct ks_lines *l, ks_report_fn report, void *arg)
{
	if (l->missing)
		ks_report(report, arg,
			  "this build has no file:line lookup (built without libdw)");
}
#endif
