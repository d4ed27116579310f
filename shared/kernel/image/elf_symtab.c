// SPDX-License-Identifier: GPL-2.0-or-later
/*
 * vmlinux symbols with kallsyms' choices, read straight from the ELF file.
 *
 * What kallsyms lists and in which order is decided at build time by
 * scripts/kallsyms.c (Linux 6.1) reading `nm -n vmlinux`:
 *  - nm leaves out section and file symbols; kallsyms drops undefined,
 *    debugging ('N', 'n': non-allocated sections) and absolute symbols,
 *    local labels (.L*), modversions CRCs and export strings (__crc_*,
 *    __kstrtab_*) and the kallsyms_* tables themselves
 *    (is_ignored_symbol());
 *  - nm -n sorts by address, then by name (LC_COLLATE=C, so strcmp);
 *    kallsyms re-sorts by address, then weak symbols last, then symbols a
 *    linker script may provide (__start_*, __stop_*, __end_*, *_start,
 *    *_end) last, then fewer leading underscores first, then nm's order
 *    (compare_symbols()).
 * At run time get_symbol_pos() names an address by the first of the
 * symbols sharing the highest address at or below it, and sizes it by the
 * distance to the next higher address (kallsyms_lookup_size_offset()).
 * Debian's kernels set CONFIG_KALLSYMS_ALL, so data symbols are listed
 * too; that only matters for what follows a function's last symbol.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "elf_symtab.h"

/* Symbol flags. */
#define SYM_LISTED	0x01	/* kallsyms lists it */
#define SYM_RELOC	0x02	/* in the kernel image: moves with KASLR */
#define SYM_GLOBAL	0x04
#define SYM_WEAK	0x08	/* nm 'W'/'w' (a weak object is 'V': not weak here) */

struct sym_ent {
	uint64_t addr;		/* link-time */
	const char *name;
	uint32_t pos;		/* index in .symtab: ties in name order anyway */
	uint8_t flags;
	uint8_t underscores;
	uint8_t provide;	/* may_be_linker_script_provide_symbol() */
};

struct ks_elf_symtab {
	const uint8_t *image;
	size_t size;
	bool mapped;
	const Elf64_Shdr *shdr;
	size_t shnum;
	const char *shstr;
	size_t shstr_size;

	struct sym_ent *syms;		/* every defined named symbol */
	size_t nr_syms;
	struct sym_ent **by_addr;	/* listed ones, kallsyms order */
	size_t nr_listed;
	/*
	 * Every one, by name, globals first: sorted on the first lookup by
	 * name, which a reader that names symbols elsewhere (crash) never
	 * makes.  Behind a pointer, as lookups get a const table.
	 */
	struct name_index *names;
	int64_t offset;
	uint64_t stext, end;		/* link-time _stext and _end, or 0 */
};

struct name_index {
	struct sym_ent **by_name;	/* NULL until sorted */
	bool failed;			/* out of memory: no names */
};

/* scripts/kallsyms.c: is_ignored_symbol(), the names that apply to x86. */
static const char *const ignored_names[] = {
	"kallsyms_addresses", "kallsyms_offsets", "kallsyms_relative_base",
	"kallsyms_num_syms", "kallsyms_names", "kallsyms_markers",
	"kallsyms_token_table", "kallsyms_token_index",
	"kallsyms_seqs_of_names", "_SDA_BASE_", "_SDA2_BASE_", NULL
};

/* is_ignored_symbol()'s prefixes: local labels, modversions, CFI, thunks. */
static const char *const ignored_prefixes[] = {
	"$", ".L", "__crc_", "__kstrtab_", "__kstrtabns_", "__efistub_",
	"__kvm_nvhe_$", "__kvm_nvhe_.L",
	"__AArch64ADRPThunk_", "__ARMV5PureThunk_", "__ARMV7PILongThunk_",
	"__ThumbV7PILongThunk_", "__LA25Thunk_", "__microLA25Thunk_",
	"__kcfi_typeid_", NULL
};

/* Absolute symbols kallsyms keeps (ia64's, none on x86). */
static const char *const kept_absolute[] = {
	"__kernel_syscall_via_break", "__kernel_syscall_via_epc",
	"__kernel_sigtramp", "__gp", NULL
};

static bool in_list(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strcmp(*list, name))
			return true;
	return false;
}

static bool has_prefix(const char *const *list, const char *name)
{
	for (; *list; list++)
		if (!strncmp(*list, name, strlen(*list)))
			return true;
	return false;
}

static bool may_be_provided(const char *name)
{
	size_t len = strlen(name);

	if (len < 8 || name[0] != '_' || name[1] != '_')
		return false;
	if (!strncmp(name + 2, "start_", 6) || !strncmp(name + 2, "stop_", 5) ||
	    !strncmp(name + 2, "end_", 4))
		return true;
	return !strcmp(name + len - 6, "_start") || !strcmp(name + len - 4, "_end");
}

static const Elf64_Shdr *section(const struct ks_elf_symtab *tab, size_t idx)
{
	return idx < tab->shnum ? &tab->shdr[idx] : NULL;
}

/* The bytes of a section, checked against the image. */
static const uint8_t *section_bytes(const struct ks_elf_symtab *tab,
				    const Elf64_Shdr *sh)
{
	if (sh->sh_type == SHT_NOBITS || sh->sh_offset > tab->size ||
	    sh->sh_size > tab->size - sh->sh_offset)
		return NULL;
	return tab->image + sh->sh_offset;
}

static const char *section_name(const struct ks_elf_symtab *tab,
				const Elf64_Shdr *sh)
{
	if (!tab->shstr || sh->sh_name >= tab->shstr_size)
		return "";
	if (!memchr(tab->shstr + sh->sh_name, '\0', tab->shstr_size - sh->sh_name))
		return "";
	return tab->shstr + sh->sh_name;
}

static int read_headers(struct ks_elf_symtab *tab)
{
	const Elf64_Ehdr *eh = (const Elf64_Ehdr *)tab->image;
	const Elf64_Shdr *shstr;

	if (tab->size < sizeof(*eh) || memcmp(eh->e_ident, ELFMAG, SELFMAG) ||
	    eh->e_ident[EI_CLASS] != ELFCLASS64 ||
	    eh->e_ident[EI_DATA] != ELFDATA2LSB ||
	    eh->e_shentsize != sizeof(Elf64_Shdr))
		return -ENOEXEC;
	if (eh->e_shoff > tab->size ||
	    (uint64_t)eh->e_shnum * sizeof(Elf64_Shdr) > tab->size - eh->e_shoff ||
	    eh->e_shoff % 8)
		return -ENOEXEC;
	tab->shdr = (const Elf64_Shdr *)(tab->image + eh->e_shoff);
	tab->shnum = eh->e_shnum;
	shstr = section(tab, eh->e_shstrndx);
	if (shstr && section_bytes(tab, shstr)) {
		tab->shstr = (const char *)section_bytes(tab, shstr);
		tab->shstr_size = shstr->sh_size;
	}
	return 0;
}

/* nm's letter decides most of it; see the comment at the top. */
static uint8_t classify(const struct ks_elf_symtab *tab, const Elf64_Sym *st,
			const char *name)
{
	unsigned int bind = ELF64_ST_BIND(st->st_info);
	unsigned int type = ELF64_ST_TYPE(st->st_info);
	const Elf64_Shdr *sh;
	uint8_t flags = 0;

	if (bind == STB_GLOBAL || bind == STB_WEAK || bind == STB_GNU_UNIQUE)
		flags |= SYM_GLOBAL;
	if (bind == STB_WEAK && type != STT_OBJECT)
		flags |= SYM_WEAK;
	if (in_list(ignored_names, name) || has_prefix(ignored_prefixes, name))
		return flags;
	if (st->st_shndx == SHN_ABS)
		return in_list(kept_absolute, name) ? flags | SYM_LISTED : flags;
	if (st->st_shndx >= SHN_LORESERVE)
		return flags;
	sh = section(tab, st->st_shndx);
	if (!sh || !(sh->sh_flags & SHF_ALLOC))
		return flags;
	flags |= SYM_LISTED;
	/*
	 * Per-CPU variables live at offsets from 0 in a section linked at 0
	 * and are not relocated; a linker-script symbol that merely sits in
	 * that section's header (__init_begin) has a kernel address and is.
	 */
	if (sh->sh_addr || st->st_value > sh->sh_size)
		flags |= SYM_RELOC;
	return flags;
}

static int read_symbols(struct ks_elf_symtab *tab)
{
	const Elf64_Shdr *symsh = NULL, *strsh;
	const uint8_t *raw;
	const char *str;
	size_t i, n;

	for (i = 0; i < tab->shnum && !symsh; i++)
		if (tab->shdr[i].sh_type == SHT_SYMTAB)
			symsh = &tab->shdr[i];
	if (!symsh || symsh->sh_entsize != sizeof(Elf64_Sym))
		return -ENODATA;
	strsh = section(tab, symsh->sh_link);
	raw = section_bytes(tab, symsh);
	str = strsh ? (const char *)section_bytes(tab, strsh) : NULL;
	if (!raw || !str || !strsh->sh_size || str[strsh->sh_size - 1])
		return -ENOEXEC;

	n = symsh->sh_size / sizeof(Elf64_Sym);
	tab->syms = calloc(n ? n : 1, sizeof(*tab->syms));
	if (!tab->syms)
		return -ENOMEM;
	for (i = 1; i < n; i++) {
		struct sym_ent *e;
		unsigned int type;
		Elf64_Sym st;

		/* sh_offset is the file's word: the entries may be unaligned */
		memcpy(&st, raw + i * sizeof(st), sizeof(st));
		type = ELF64_ST_TYPE(st.st_info);
		if (!st.st_name || st.st_name >= strsh->sh_size ||
		    st.st_shndx == SHN_UNDEF || type == STT_SECTION ||
		    type == STT_FILE)
			continue;
		e = &tab->syms[tab->nr_syms++];
		e->name = str + st.st_name;
		e->addr = st.st_value;
		e->pos = (uint32_t)i;
		e->flags = classify(tab, &st, e->name);
		e->underscores = (uint8_t)strspn(e->name, "_");
		e->provide = may_be_provided(e->name);
	}
	return 0;
}

/* scripts/kallsyms.c compare_symbols(), with nm -n's name order last. */
static int cmp_kallsyms(const void *a, const void *b)
{
	const struct sym_ent *x = *(struct sym_ent *const *)a;
	const struct sym_ent *y = *(struct sym_ent *const *)b;
	int wx = !!(x->flags & SYM_WEAK), wy = !!(y->flags & SYM_WEAK);
	int c;

	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (wx != wy)
		return wx - wy;
	if (x->provide != y->provide)
		return x->provide - y->provide;
	if (x->underscores != y->underscores)
		return x->underscores - y->underscores;
	c = strcmp(x->name, y->name);
	if (c)
		return c;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int cmp_name(const void *a, const void *b)
{
	const struct sym_ent *x = *(struct sym_ent *const *)a;
	const struct sym_ent *y = *(struct sym_ent *const *)b;
	int gx = !!(x->flags & SYM_GLOBAL), gy = !!(y->flags & SYM_GLOBAL);
	int c = strcmp(x->name, y->name);

	if (c)
		return c;
	if (gx != gy)
		return gy - gx;
	return x->pos < y->pos ? -1 : x->pos > y->pos;
}

static int build_indexes(struct ks_elf_symtab *tab)
{
	size_t i, n = tab->nr_syms ? tab->nr_syms : 1;

	tab->by_addr = calloc(n, sizeof(*tab->by_addr));
	tab->names = calloc(1, sizeof(*tab->names));
	if (!tab->by_addr || !tab->names)
		return -ENOMEM;
	for (i = 0; i < tab->nr_syms; i++)
		if (tab->syms[i].flags & SYM_LISTED)
			tab->by_addr[tab->nr_listed++] = &tab->syms[i];
	qsort(tab->by_addr, tab->nr_listed, sizeof(*tab->by_addr), cmp_kallsyms);
	return 0;
}

/* The symbols by name, sorted now if they were not: NULL without memory. */
static struct sym_ent *const *by_name(const struct ks_elf_symtab *tab)
{
	struct name_index *ni = tab->names;
	size_t i;

	if (ni->by_name || ni->failed)
		return ni->by_name;
	ni->by_name = calloc(tab->nr_syms ? tab->nr_syms : 1, sizeof(*ni->by_name));
	if (!ni->by_name) {
		ni->failed = true;
		return NULL;
	}
	for (i = 0; i < tab->nr_syms; i++)
		ni->by_name[i] = &tab->syms[i];
	qsort(ni->by_name, tab->nr_syms, sizeof(*ni->by_name), cmp_name);
	return ni->by_name;
}

/*
 * The index of the first entry with this name: the global one if there
 * is; tab->nr_syms when there is none (or no memory to sort them).
 */
static size_t first_named(const struct ks_elf_symtab *tab, const char *name)
{
	struct sym_ent *const *names = by_name(tab);
	size_t lo = 0, hi = tab->nr_syms;

	if (!names)
		return tab->nr_syms;
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (strcmp(names[mid]->name, name) < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo < tab->nr_syms && strcmp(names[lo]->name, name))
		return tab->nr_syms;
	return lo;
}

static const struct sym_ent *find_name(const struct ks_elf_symtab *tab,
				       const char *name)
{
	size_t i = first_named(tab, name);

	return i < tab->nr_syms ? tab->names->by_name[i] : NULL;
}

/*
 * The entry find_name() would give, by one pass over the symbols: the
 * load needs two names, and sorting every name for them would cost a
 * reader that never asks for another (crash) more than the rest of the
 * load.
 */
static const struct sym_ent *scan_name(const struct ks_elf_symtab *tab,
				       const char *name)
{
	const struct sym_ent *found = NULL;

	for (size_t i = 0; i < tab->nr_syms; i++) {
		const struct sym_ent *e = &tab->syms[i];

		if (strcmp(e->name, name))
			continue;
		if (e->flags & SYM_GLOBAL)
			return e;	/* the first global, by .symtab order */
		if (!found)
			found = e;
	}
	return found;
}

int ks_elf_symtab_load(const void *image, size_t size,
		       struct ks_elf_symtab **tab_ret)
{
	struct ks_elf_symtab *tab;
	const struct sym_ent *e;
	int ret;

	tab = calloc(1, sizeof(*tab));
	if (!tab)
		return -ENOMEM;
	tab->image = image;
	tab->size = size;
	ret = read_headers(tab);
	if (!ret)
		ret = read_symbols(tab);
	if (!ret)
		ret = build_indexes(tab);
	if (ret) {
		ks_elf_symtab_free(tab);
		return ret;
	}
	e = scan_name(tab, "_stext");
	tab->stext = e ? e->addr : 0;
	e = scan_name(tab, "_end");
	tab->end = e ? e->addr : 0;
	*tab_ret = tab;
	return 0;
}

int ks_elf_symtab_open(const char *path, struct ks_elf_symtab **tab_ret)
{
	struct stat stbuf;
	void *image;
	int fd, ret;

	/* a FIFO named as the vmlinux must not block: it is refused below */
	fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &stbuf)) {
		ret = -errno;
		goto out;
	}
	if (!S_ISREG(stbuf.st_mode) || stbuf.st_size < (off_t)sizeof(Elf64_Ehdr)) {
		ret = -ENOEXEC;
		goto out;
	}
	image = mmap(NULL, stbuf.st_size, PROT_READ, MAP_PRIVATE, fd, 0);
	if (image == MAP_FAILED) {
		ret = -errno;
		goto out;
	}
	ret = ks_elf_symtab_load(image, stbuf.st_size, tab_ret);
	if (ret)
		munmap(image, stbuf.st_size);
	else
		(*tab_ret)->mapped = true;
out:
	close(fd);
	return ret;
}

void ks_elf_symtab_free(struct ks_elf_symtab *tab)
{
	if (!tab)
		return;
	if (tab->mapped)
		munmap((void *)tab->image, tab->size);
	free(tab->by_addr);
	if (tab->names)
		free(tab->names->by_name);
	free(tab->names);
	free(tab->syms);
	free(tab);
}

uint64_t ks_elf_symtab_stext(const struct ks_elf_symtab *tab)
{
	return tab->stext;
}

void ks_elf_symtab_set_offset(struct ks_elf_symtab *tab, int64_t offset)
{
	tab->offset = offset;
}

size_t ks_elf_symtab_count(const struct ks_elf_symtab *tab)
{
	return tab->nr_listed;
}

static uint64_t runtime(const struct ks_elf_symtab *tab, const struct sym_ent *e)
{
	return e->flags & SYM_RELOC ? e->addr + (uint64_t)tab->offset : e->addr;
}

/*
 * Runtime to link-time address.  Kernel image addresses are far above the
 * per-CPU offsets, so one subtraction is right for every lookup that can
 * find a text symbol; a per-CPU offset is never looked up by address.
 */
static uint64_t link_addr(const struct ks_elf_symtab *tab, uint64_t addr)
{
	return addr - (uint64_t)tab->offset;
}

/* is_ksym_addr() with CONFIG_KALLSYMS_ALL: [_stext, _end]. */
static bool in_image(const struct ks_elf_symtab *tab, uint64_t addr)
{
	if (!tab->stext || !tab->end)
		return tab->nr_listed && addr >= tab->by_addr[0]->addr;
	return addr >= tab->stext && addr <= tab->end;
}

int ks_elf_symtab_lookup(const struct ks_elf_symtab *tab, uint64_t addr,
			 struct ks_sym *sym_ret)
{
	uint64_t a = link_addr(tab, addr), next = 0;
	size_t lo = 0, hi = tab->nr_listed, i;

	if (!in_image(tab, a))
		return -ENOENT;
	/* get_symbol_pos(): the last entry at or below a ... */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (tab->by_addr[mid]->addr <= a)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (!lo)
		return -ENOENT;
	i = lo - 1;
	/* ... then back to the first alias at that address. */
	while (i && tab->by_addr[i - 1]->addr == tab->by_addr[i]->addr)
		i--;
	if (lo < tab->nr_listed)
		next = tab->by_addr[lo]->addr;
	else if (tab->end > tab->by_addr[i]->addr)
		next = tab->end;
	else
		next = tab->by_addr[i]->addr;

	sym_ret->name = tab->by_addr[i]->name;
	sym_ret->addr = runtime(tab, tab->by_addr[i]);
	sym_ret->size = next - tab->by_addr[i]->addr;
	sym_ret->module = NULL;
	return 0;
}

int ks_elf_symtab_addr(const struct ks_elf_symtab *tab, const char *name,
		       uint64_t *addr_ret)
{
	const struct sym_ent *e = find_name(tab, name);

	if (!e)
		return -ENOENT;
	*addr_ret = runtime(tab, e);
	return 0;
}

const void *ks_elf_section(const struct ks_elf_symtab *tab, const char *name,
			   size_t *size_ret)
{
	size_t i;

	for (i = 1; i < tab->shnum; i++) {
		const Elf64_Shdr *sh = &tab->shdr[i];
		const uint8_t *p;

		if (strcmp(section_name(tab, sh), name))
			continue;
		p = section_bytes(tab, sh);
		if (!p)
			return NULL;
		*size_ret = sh->sh_size;
		return p;
	}
	return NULL;
}

int ks_elf_read(const struct ks_elf_symtab *tab, uint64_t addr, void *buf,
		size_t len)
{
	uint64_t a = link_addr(tab, addr);
	size_t i;

	for (i = 1; i < tab->shnum; i++) {
		const Elf64_Shdr *sh = &tab->shdr[i];
		const uint8_t *p;

		if (!(sh->sh_flags & SHF_ALLOC) || !sh->sh_addr ||
		    a < sh->sh_addr || a - sh->sh_addr >= sh->sh_size)
			continue;
		p = section_bytes(tab, sh);
		if (!p || len > sh->sh_size - (a - sh->sh_addr))
			return -EFAULT;
		memcpy(buf, p + (a - sh->sh_addr), len);
		return 0;
	}
	return -EFAULT;
}

int ks_elf_symtab_find(const struct ks_elf_symtab *tab, const char *name,
		       uint64_t size, uint64_t *addr_ret)
{
	return ks_elf_symtab_find_nth(tab, name, size, 0, addr_ret);
}

int ks_elf_symtab_find_nth(const struct ks_elf_symtab *tab, const char *name,
			   uint64_t size, unsigned int nth, uint64_t *addr_ret)
{
	size_t i = first_named(tab, name);
	int ret = -ENOENT;

	for (; i < tab->nr_syms && !strcmp(tab->names->by_name[i]->name, name); i++) {
		const struct sym_ent *e = tab->names->by_name[i];
		struct ks_sym sym;

		if (!(e->flags & SYM_LISTED))
			continue;
		ret = -ESRCH;
		/*
		 * Sized the kallsyms way; an alias kallsyms would not print
		 * (__x64_sys_sync for __do_sys_sync) is the same code.
		 */
		if (ks_elf_symtab_lookup(tab, runtime(tab, e), &sym) ||
		    sym.addr != runtime(tab, e) || (size && sym.size != size) ||
		    nth--)
			continue;
		*addr_ret = runtime(tab, e);
		return 0;
	}
	return ret;
}
